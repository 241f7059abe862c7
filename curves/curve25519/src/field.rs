//! The two generated fields this crate is built on, and the curve constants derived from them.
//!
//! Only the public API of the generated fields is used (byte encodings, `from_u64`, the ring
//! operations, `pow`, `invert`, `batch_invert`, `subtle` traits), so a different implementation
//! of the same fields with the same API can replace them without a change here. The 64-bit-limb
//! modules are chosen on 64-bit targets and the 32-bit-limb modules elsewhere.

use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

#[cfg(target_pointer_width = "64")]
pub(crate) use fieldgen_generated::curve25519_l_64::Fr as Scalar;
#[cfg(target_pointer_width = "64")]
pub(crate) use fieldgen_generated::curve25519_p_64::Fp as Fe;

#[cfg(not(target_pointer_width = "64"))]
pub(crate) use fieldgen_generated::curve25519_l_32::Fr as Scalar;
#[cfg(not(target_pointer_width = "64"))]
pub(crate) use fieldgen_generated::curve25519_p_32::Fp as Fe;

/// Constants of edwards25519 (RFC 8032 §5.1).
pub(crate) struct Consts {
    /// d = −121665/121666.
    pub d: Fe,
    /// 2·d, used by the extended-coordinate addition.
    pub d2: Fe,
    /// A square root of −1: 2^((p−1)/4).
    pub sqrt_m1: Fe,
    /// 2^248 mod p, for reducing 255-bit encodings.
    pub two_248: Fe,
}

/// A field constant from its canonical value in hex, evaluated by the compiler through the
/// generated `const fn` constructor; a typo (a value ≥ p) fails the build.
macro_rules! fe_const {
    ($hex:expr) => {
        match Fe::from_hex_vartime($hex) {
            Some(x) => x,
            None => panic!("not a canonical field element"),
        }
    };
}
pub(crate) use fe_const;

/// The constants, as compile-time values; the tests recompute each from its definition.
static CONSTS: Consts = Consts {
    d: fe_const!("0x52036cee2b6ffe738cc740797779e89800700a4d4141d8ab75eb4dca135978a3"),
    d2: fe_const!("0x2406d9dc56dffce7198e80f2eef3d13000e0149a8283b156ebd69b9426b2f159"),
    sqrt_m1: fe_const!("0x2b8324804fc1df0b2b4d00993dfbd7a72f431806ad2fe478c4ee1b274a0ea0b0"),
    two_248: fe_const!("0x100000000000000000000000000000000000000000000000000000000000000"),
};

/// The edwards25519 constants.
#[inline]
pub(crate) fn consts() -> &'static Consts {
    &CONSTS
}

/// Decodes 32 little-endian bytes as an element of GF(p), ignoring bit 255 and reducing the
/// 19 non-canonical values p..2^255−1 (RFC 7748 §5). Constant time.
///
/// The generated field accepts only canonical inputs, so the value is split as
/// lo + hi·2^248 with lo < 2^248 and hi < 2^7, both below p.
pub(crate) fn fe_from_bytes_reduced(bytes: &[u8; 32]) -> Fe {
    let mut lo = *bytes;
    lo[31] = 0;
    let hi = (bytes[31] & 0x7f) as u64;
    // Both parts are below p, so decoding cannot fail.
    Fe::from_le_bytes(&lo).unwrap() + Fe::from_u64(hi) * consts().two_248
}

/// Bit 0 of the canonical encoding ("negative" in RFC 8032 §5.1.2).
pub(crate) fn fe_is_odd(x: &Fe) -> Choice {
    Choice::from(x.to_le_bytes()[0] & 1)
}

/// x^(2^k).
fn square_times(x: &Fe, k: u32) -> Fe {
    let mut y = x.square();
    for _ in 1..k {
        y = y.square();
    }
    y
}

/// x^((p − 5)/8) = x^(2^252 − 3): the addition chain of ed25519's reference code (Bernstein
/// et al., "High-speed high-security signatures", 2011; 251 squarings and 11
/// multiplications), through x^(2^250 − 1) built from blocks of 2^5 − 1, 2^10 − 1, ... ones.
/// Constant time (a fixed sequence). About 2.5 times faster here than the generic windowed
/// `pow`, which reads a 32-entry table by masking at every window.
pub(crate) fn pow_p58(x: &Fe) -> Fe {
    let x_250_0 = pow_2_250_minus_1(x);
    // (2^250 − 1)·4 + 1 = 2^252 − 3.
    square_times(&x_250_0, 2) * x
}

/// x^(2^250 − 1): the stem of the reference chain for (p − 5)/8 (249 squarings and 11
/// multiplications).
fn pow_2_250_minus_1(x: &Fe) -> Fe {
    let x2 = x.square();
    let x9 = square_times(&x2, 2) * x;
    let x11 = x9 * x2;
    let x_5_0 = x11.square() * x9; // 2^5 − 1
    let x_10_0 = square_times(&x_5_0, 5) * x_5_0;
    let x_20_0 = square_times(&x_10_0, 10) * x_10_0;
    let x_40_0 = square_times(&x_20_0, 20) * x_20_0;
    let x_50_0 = square_times(&x_40_0, 10) * x_10_0;
    let x_100_0 = square_times(&x_50_0, 50) * x_50_0;
    let x_200_0 = square_times(&x_100_0, 100) * x_100_0;
    square_times(&x_200_0, 50) * x_50_0
}

/// [`pow_p58`] of N values in lockstep: the same chain, one step applied to every value
/// before the next, so that the N independent squaring chains overlap in the processor.
/// Constant time. Batch decoding only (and its tests).
#[cfg(any(feature = "alloc", test))]
fn pow_p58_many<const N: usize>(x: &[Fe; N]) -> [Fe; N] {
    let sq = |a: &[Fe; N], k: u32| -> [Fe; N] {
        let mut y = *a;
        for _ in 0..k {
            for v in y.iter_mut() {
                *v = v.square();
            }
        }
        y
    };
    let mul = |a: &[Fe; N], b: &[Fe; N]| -> [Fe; N] { core::array::from_fn(|j| a[j] * b[j]) };
    let x2 = sq(x, 1);
    let x9 = mul(&sq(&x2, 2), x);
    let x11 = mul(&x9, &x2);
    let x_5_0 = mul(&sq(&x11, 1), &x9);
    let x_10_0 = mul(&sq(&x_5_0, 5), &x_5_0);
    let x_20_0 = mul(&sq(&x_10_0, 10), &x_10_0);
    let x_40_0 = mul(&sq(&x_20_0, 20), &x_20_0);
    let x_50_0 = mul(&sq(&x_40_0, 10), &x_10_0);
    let x_100_0 = mul(&sq(&x_50_0, 50), &x_50_0);
    let x_200_0 = mul(&sq(&x_100_0, 100), &x_100_0);
    let x_250_0 = mul(&sq(&x_200_0, 50), &x_50_0);
    mul(&sq(&x_250_0, 2), x)
}

/// [`sqrt_ratio`] of N pairs, with the exponentiations in lockstep ([`pow_p58_many`]).
/// Constant time. Batch decoding only.
#[cfg(feature = "alloc")]
pub(crate) fn sqrt_ratio_many<const N: usize>(u: &[Fe; N], v: &[Fe; N]) -> [(Choice, Fe); N] {
    let v3: [Fe; N] = core::array::from_fn(|j| v[j].square() * v[j]);
    let uv7: [Fe; N] = core::array::from_fn(|j| u[j] * (v3[j].square() * v[j]));
    let p = pow_p58_many(&uv7);
    core::array::from_fn(|j| {
        let r = (u[j] * v3[j]) * p[j];
        sqrt_ratio_finish(&u[j], r, &(v[j] * r.square()))
    })
}

/// RFC 8032 §5.1.3 step 3 from the candidate r = u·v³·(u·v⁷)^((p−5)/8) and check = v·r²:
/// (true, r) if check = u, (true, r·√−1) if check = −u, else (false, r). Constant time.
pub(crate) fn sqrt_ratio_finish(u: &Fe, mut r: Fe, check: &Fe) -> (Choice, Fe) {
    let correct = check.ct_eq(u);
    let flipped = check.ct_eq(&-u);
    let r_prime = r * consts().sqrt_m1;
    r.conditional_assign(&r_prime, flipped);
    (correct | flipped, r)
}

/// (is_square, r) with r a square root of u/v when u/v is a square, following
/// RFC 8032 §5.1.3 steps 2–3: r = u·v³·(u·v⁷)^((p−5)/8), corrected by √−1. One
/// exponentiation ([`pow_p58`]), no inversion. Constant time. For v = 0 the result is (u == 0, 0).
pub(crate) fn sqrt_ratio(u: &Fe, v: &Fe) -> (Choice, Fe) {
    let v3 = v.square() * v;
    let v7 = v3.square() * v;
    let r = (u * v3) * pow_p58(&(u * v7));
    sqrt_ratio_finish(u, r, &(v * r.square()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_match_their_definitions() {
        let c = consts();
        // RFC 8032 §5.1: d = −121665/121666, sqrt(−1) = 2^((p−1)/4), (p − 1)/4 = 2^253 − 5.
        let d = -Fe::from_u64(121665) * Fe::from_u64(121666).invert().unwrap();
        assert_eq!(c.d, d);
        assert_eq!(c.d2, d + d);
        let p_minus_1_over_4 = [
            0xffff_ffff_ffff_fffb,
            u64::MAX,
            u64::MAX,
            0x1fff_ffff_ffff_ffff,
        ];
        assert_eq!(c.sqrt_m1, Fe::from_u64(2).pow(&p_minus_1_over_4));
        assert_eq!(c.sqrt_m1.square(), -Fe::ONE);
        assert_eq!(c.two_248, Fe::from_u64(2).pow_vartime(&[248]));
    }

    #[test]
    fn pow_p58_matches_the_generic_pow() {
        // (p − 5)/8 = 2^252 − 3 as little-endian words, for the generated field's own pow.
        let e = [
            0xffff_ffff_ffff_fffd,
            u64::MAX,
            u64::MAX,
            0x0fff_ffff_ffff_ffff,
        ];
        let mut x = Fe::from_u64(3);
        for i in 0..20u64 {
            assert_eq!(pow_p58(&x), x.pow(&e));
            x = x * x + Fe::from_u64(i);
        }
        assert_eq!(pow_p58(&Fe::ZERO), Fe::ZERO);
        assert_eq!(pow_p58(&Fe::ONE), Fe::ONE);
        // The lockstep form against the generic pow, lane by lane.
        let xs: [Fe; 3] = [Fe::from_u64(7), Fe::ZERO, -Fe::from_u64(12345)];
        for (x, y) in xs.iter().zip(pow_p58_many(&xs)) {
            assert_eq!(y, x.pow(&e));
        }
    }
}
