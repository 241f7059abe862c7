//! Stage 1 of the pipeline: parse and validate a modulus, then derive every constant the
//! later stages bake into the generated code.
//!
//! Errors are values ([`SpecError`]) whose `Display` is one line naming the problem.

mod consts;
mod expr;
mod presets;
mod primality;

pub use consts::{to_limbs, window_schedule, FieldConsts, SqrtMethod, WindowStep};
pub use expr::parse_modulus_expr;
pub use presets::{find_preset, module_name, Preset, PRESETS};
pub use primality::is_probable_prime;

use num_bigint::BigUint;

/// Largest modulus accepted, in bits.
pub const MAX_MODULUS_BITS: u64 = 8192;

/// Word size of the generated limbs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LimbBits {
    /// 32-bit limbs (`u32`, products in `u64`).
    W32,
    /// 64-bit limbs (`u64`, products in `u128`).
    W64,
}

impl LimbBits {
    /// The word size w in bits (32 or 64).
    pub fn bits(self) -> u32 {
        match self {
            LimbBits::W32 => 32,
            LimbBits::W64 => 64,
        }
    }

    /// Parses `"32"` or `"64"`.
    pub fn from_bits(bits: u32) -> Result<Self, SpecError> {
        match bits {
            32 => Ok(LimbBits::W32),
            64 => Ok(LimbBits::W64),
            other => Err(SpecError::UnsupportedLimbBits(other)),
        }
    }
}

/// Why a modulus or option was refused. `Display` is a single line that names the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// The modulus text was empty.
    Empty,
    /// The text is neither a number, an expression nor a preset name.
    Malformed {
        /// The text as given.
        input: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A name that looks like a preset but is not one.
    UnknownPreset {
        /// The name as given.
        name: String,
    },
    /// The modulus is even.
    Even,
    /// The modulus is below 3.
    TooSmall,
    /// The modulus has more than [`MAX_MODULUS_BITS`] bits.
    TooLarge {
        /// The modulus's bit length.
        bits: u64,
    },
    /// The modulus failed the probable-prime test.
    NotPrime,
    /// `limb_bits` other than 32 or 64.
    UnsupportedLimbBits(u32),
}

impl core::fmt::Display for SpecError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SpecError::Empty => write!(f, "the modulus is empty: give a prime such as 2^255-19, 0x... or a preset name (--list-presets)"),
            SpecError::Malformed { input, reason } => write!(f, "cannot read the modulus `{input}`: {reason}"),
            SpecError::UnknownPreset { name } => write!(f, "unknown preset `{name}`: run with --list-presets to see the names"),
            SpecError::Even => write!(f, "the modulus is even: a prime field needs an odd prime"),
            SpecError::TooSmall => write!(f, "the modulus must be at least 3"),
            SpecError::TooLarge { bits } => write!(f, "the modulus has {bits} bits; at most {MAX_MODULUS_BITS} are supported"),
            SpecError::NotPrime => write!(f, "the modulus is not prime (it fails the Baillie-PSW probable-prime test)"),
            SpecError::UnsupportedLimbBits(b) => write!(f, "limb bits must be 32 or 64, not {b}"),
        }
    }
}

impl std::error::Error for SpecError {}

/// Parses a modulus given as decimal, `0x` hex, an expression of powers of two and small
/// integers (`2^255-19`), or a preset name. Returns the value and the preset it named, if any.
/// Does not check primality: see [`validate_prime`].
pub fn parse_modulus(input: &str) -> Result<(BigUint, Option<&'static Preset>), SpecError> {
    let text = input.trim();
    if text.is_empty() {
        return Err(SpecError::Empty);
    }
    if let Some(preset) = find_preset(text) {
        let value = parse_modulus_expr(preset.modulus).expect("preset moduli parse");
        return Ok((value, Some(preset)));
    }
    match parse_modulus_expr(text) {
        Ok(v) => Ok((v, None)),
        Err(e) => {
            // A bare identifier-like word is most likely a mistyped preset name.
            let looks_like_name = text.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && !text.starts_with("0x")
                && text
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            if looks_like_name {
                Err(SpecError::UnknownPreset {
                    name: text.to_string(),
                })
            } else {
                Err(e)
            }
        }
    }
}

/// Checks that `p` is an odd probable prime of at most [`MAX_MODULUS_BITS`] bits.
pub fn validate_prime(p: &BigUint) -> Result<(), SpecError> {
    if p.bits() > MAX_MODULUS_BITS {
        return Err(SpecError::TooLarge { bits: p.bits() });
    }
    if *p < BigUint::from(3u32) {
        return Err(SpecError::TooSmall);
    }
    if !p.bit(0) {
        return Err(SpecError::Even);
    }
    if !is_probable_prime(p) {
        return Err(SpecError::NotPrime);
    }
    Ok(())
}
