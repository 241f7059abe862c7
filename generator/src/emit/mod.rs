//! Stage 5: emitters. [`portable`] prints IR as plain Rust; [`x86_64`] builds BMI2/ADX assembly
//! kernels for multiplication and squaring; [`invert`] writes the Bernstein–Yang inversion;
//! [`field`] wraps a target's core functions in the
//! public field API, which is the same on every target, and dispatches between backends.

pub mod aarch64;
pub mod armv7;
pub mod field;
pub mod field_layer;
pub mod invert;
pub mod legendre;
pub mod portable;
pub mod rsa;
pub mod rsa_helpers;
pub mod rsa_window;
pub mod special;
pub mod sqrt;
pub mod unsaturated;
pub mod x86_64;

use crate::spec::LimbBits;

/// What a generated field contains: which backends for the core arithmetic, and how one is
/// chosen. Every target emits the same public API.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Target {
    /// The portable code for the limb size, plus the `x86_64-adx` kernels for multiplication
    /// and squaring where they exist (64-bit limbs, CIOS, up to [`x86_64::MAX_LIMBS`] limbs):
    /// chosen at compile time when the build enables the `bmi2` and `adx` target features,
    /// else by CPUID once at run time, with the portable code as the fallback; and the
    /// `aarch64` kernels (64-bit limbs, CIOS, up to [`aarch64::MAX_LIMBS`] limbs), used
    /// whenever the build is for that architecture; and the `armv7` kernels (32-bit limbs, up
    /// to [`armv7::MAX_LIMBS`] limbs, when [`armv7::preferred`]) under [`armv7::cfg_gate`].
    #[default]
    Auto,
    /// Portable Rust over `u64`/`u128` only.
    Portable64,
    /// Portable Rust over `u32`/`u64` only.
    Portable32,
    /// The BMI2/ADX kernels only (portable code for the other operations); x86-64 only.
    X86_64Adx,
    /// The AArch64 kernels only (portable code for the other operations); aarch64 only.
    Aarch64,
    /// The ARMv7 UMAAL kernels only (32-bit limbs, up to [`armv7::MAX_LIMBS`] limbs; portable
    /// code for the other operations); ARM targets with UMAAL only ([`armv7::cfg_gate`]).
    Armv7,
    /// A SPARC-like machine: 32-bit words, 32×32→64-bit multiplication, big-endian. The
    /// portable code over `u32`/`u64` (byte encodings never depend on the host's byte order).
    Sparc32,
    /// WebAssembly (wasm32): the portable code over `u32`/`u64`, no assembly.
    Wasm32,
}

impl Target {
    /// Every target, in the order `--help` lists them.
    pub const ALL: [Target; 8] = [
        Target::Auto,
        Target::Portable64,
        Target::Portable32,
        Target::X86_64Adx,
        Target::Aarch64,
        Target::Armv7,
        Target::Sparc32,
        Target::Wasm32,
    ];

    /// The name `--target` takes.
    pub fn name(self) -> &'static str {
        match self {
            Target::Auto => "auto",
            Target::Portable64 => "portable64",
            Target::Portable32 => "portable32",
            Target::X86_64Adx => x86_64::NAME,
            Target::Aarch64 => aarch64::NAME,
            Target::Armv7 => armv7::NAME,
            Target::Sparc32 => "sparc32",
            Target::Wasm32 => "wasm32",
        }
    }

    /// The target named `name`.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The limb size the target implies (`None` for `auto`, which takes any).
    pub fn limb_bits(self) -> Option<LimbBits> {
        match self {
            Target::Auto => None,
            Target::Portable32 | Target::Sparc32 | Target::Wasm32 | Target::Armv7 => {
                Some(LimbBits::W32)
            }
            Target::Portable64 | Target::X86_64Adx | Target::Aarch64 => Some(LimbBits::W64),
        }
    }
}
