//! Narrowing integer conversions, each kind with its reason stated once.
//!
//! The workspace warns on `clippy::cast_possible_truncation`, and CI denies warnings. The
//! generator narrows integers for two reasons only:
//!
//! - [`lo64`], [`lo32`]: the low word of a double-word value, on purpose. The IR interpreter,
//!   the constant folder, the range analysis and the instruction simulators compute a
//!   two-word result in the wider type and take its words apart; the high word is taken
//!   separately (a shift) or is known to be zero.
//! - [`fit`]: a value that the caller knows fits the narrower type: a count or an index (bits,
//!   limbs, words, byte offsets, shift amounts, instruction and argument numbers), which the
//!   size limits keep far below 2^15 (moduli of at most [`crate::spec::MAX_MODULUS_BITS`] =
//!   8192 bits; larger input is refused before anything is generated), or a word the caller
//!   has just bounded. A value that does not fit is a bug in the generator, so `fit` panics
//!   rather than producing wrong code.

use core::fmt::Display;

/// `x mod 2^64`: the low word of a 64-bit double word (or a value known to be below 2^64).
#[allow(
    clippy::cast_possible_truncation,
    reason = "the low word of a double word: the high bits are taken separately or are zero"
)]
pub(crate) const fn lo64(x: u128) -> u64 {
    x as u64
}

/// `x mod 2^32`: the low word of a 32-bit double word (or a value known to be below 2^32).
#[allow(
    clippy::cast_possible_truncation,
    reason = "the low word of a double word: the high bits are taken separately or are zero"
)]
pub(crate) const fn lo32(x: u64) -> u32 {
    x as u32
}

/// `x` as a `U`, for a value that fits `U` by the generator's size limits or by a bound the
/// caller has just checked (see the module documentation).
///
/// # Panics
///
/// When `x` does not fit `U`: a bug in the generator, not an effect of its input.
pub(crate) fn fit<T, U>(x: T) -> U
where
    T: Copy + Display,
    U: TryFrom<T>,
{
    match U::try_from(x) {
        Ok(v) => v,
        Err(_) => panic!(
            "{x} does not fit {}: a count beyond the generator's size limits",
            core::any::type_name::<U>()
        ),
    }
}
