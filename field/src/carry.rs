//! Add-with-carry and subtract-with-borrow on 64-bit words, for the carry chains of generated
//! code.
//!
//! The generator's portable emitter writes every 64-bit addition or subtraction whose carry
//! (borrow) is read as a call to [`add_u64`] or [`sub_u64`]. On x86-64 they are the
//! `_addcarry_u64` and `_subborrow_u64` intrinsics, which LLVM lowers to `adc`/`sbb` chains
//! with the carry kept in the flags: the double-word forms (`(a as u128) + (b as u128) + c`,
//! a pair of `overflowing_sub`) compile to `setb`/`movzx`/`or` sequences between the words
//! instead (measured on the BN254 field's modular addition: 50 instructions against 20, and a
//! branch in one of them). Elsewhere they are those double-word forms. Both are constant time:
//! straight-line arithmetic, no branch on the values.

/// `a + b + carry` as (sum mod 2^64, carry out); `carry` must be 0 or 1.
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "the carry in is 0 or 1; the low word of the double-word sum is the result"
)]
pub fn add_u64(a: u64, b: u64, carry: u64) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    {
        let mut s = 0u64;
        // SAFETY: `_addcarry_u64` needs no target feature (plain `adc`); it writes only `s`.
        #[allow(unused_unsafe)]
        let c = unsafe { core::arch::x86_64::_addcarry_u64(carry as u8, a, b, &mut s) };
        (s, u64::from(c))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let t = (a as u128) + (b as u128) + (carry as u128);
        (t as u64, (t >> 64) as u64)
    }
}

/// `a − b − borrow` as (difference mod 2^64, borrow out); `borrow` must be 0 or 1.
#[inline(always)]
#[allow(clippy::cast_possible_truncation, reason = "the borrow in is 0 or 1")]
pub fn sub_u64(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    {
        let mut d = 0u64;
        // SAFETY: `_subborrow_u64` needs no target feature (plain `sbb`); it writes only `d`.
        #[allow(unused_unsafe)]
        let b_out = unsafe { core::arch::x86_64::_subborrow_u64(borrow as u8, a, b, &mut d) };
        (d, u64::from(b_out))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let (d, b1) = a.overflowing_sub(b);
        let (d, b2) = d.overflowing_sub(borrow);
        (d, u64::from(b1 | b2))
    }
}

#[cfg(test)]
mod tests {
    use super::{add_u64, sub_u64};

    #[test]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "the oracle takes the low word of a double-word result"
    )]
    fn carries_match_double_words() {
        let words = [
            0u64,
            1,
            2,
            0x7fff_ffff_ffff_ffff,
            0x8000_0000_0000_0000,
            u64::MAX - 1,
            u64::MAX,
        ];
        for &a in &words {
            for &b in &words {
                for c in 0..2u64 {
                    let t = u128::from(a) + u128::from(b) + u128::from(c);
                    assert_eq!(add_u64(a, b, c), (t as u64, (t >> 64) as u64));
                    let d = i128::from(a) - i128::from(b) - i128::from(c);
                    assert_eq!(sub_u64(a, b, c), (d as u64, u64::from(d < 0)));
                }
            }
        }
    }
}
