//! Scalars mod l (the generated `curve25519-l` field) and the recodings the scalar
//! multiplications use.

use crate::field::Scalar;
#[cfg(feature = "alloc")]
use alloc::{vec, vec::Vec};

/// 2^248 mod l and 2^496 mod l (2^248 < l, so the first is exact), as compile-time constants.
fn powers_of_2_248() -> &'static (Scalar, Scalar) {
    const fn scalar(hex: &str) -> Scalar {
        match Scalar::from_hex_vartime(hex) {
            Some(x) => x,
            None => panic!("not a canonical scalar"),
        }
    }
    static P: (Scalar, Scalar) = (
        scalar("0x100000000000000000000000000000000000000000000000000000000000000"),
        scalar("0x131b399411b7c309a3dceec73d217f5bff4901dfc3af947066c4b517a915144"),
    );
    &P
}

/// 31 little-endian bytes as a scalar: below 2^248 < l, so always canonical. The decoding's
/// validity flag is a secret-derived `Choice`: `unwrap` would branch on it (flagged by the
/// valgrind constant-time check), so the always-taken value is selected instead.
fn scalar_from_31(bytes: &[u8]) -> Scalar {
    let mut b = [0u8; 32];
    b[..31].copy_from_slice(bytes);
    Scalar::from_le_bytes(&b).unwrap_or(Scalar::ZERO)
}

/// A 64-byte little-endian integer (a SHA-512 output, RFC 8032 §5.1.6–7) reduced mod l.
/// Constant time: h = c0 + c1·2^248 + c2·2^496 with c0, c1 of 31 bytes and c2 of 2 bytes,
/// each below l.
pub(crate) fn scalar_from_wide(bytes: &[u8; 64]) -> Scalar {
    let (t1, t2) = powers_of_2_248();
    let c0 = scalar_from_31(&bytes[0..31]);
    let c1 = scalar_from_31(&bytes[31..62]);
    let c2 = Scalar::from_u64(u64::from(bytes[62]) | (u64::from(bytes[63]) << 8));
    c0 + c1 * t1 + c2 * t2
}

/// A 32-byte little-endian integer reduced mod l (any value below 2^256). Constant time.
pub(crate) fn scalar_from_bytes_mod_order(bytes: &[u8; 32]) -> Scalar {
    let mut wide = [0u8; 64];
    wide[..32].copy_from_slice(bytes);
    scalar_from_wide(&wide)
}

/// Signed radix-16 digits e_0..e_63 in [−8, 8) (e_63 in [−8, 8]) with
/// Σ e_i·16^i = the 256-bit little-endian integer `a`, for a < 2^255. Constant time: no
/// branch or index depends on the digits (Bernstein et al., "High-speed high-security
/// signatures", 2012, §4).
pub(crate) fn radix16_signed(a: &[u8; 32]) -> [i8; 64] {
    let mut e = [0i8; 64];
    for i in 0..32 {
        e[2 * i] = (a[i] & 15) as i8;
        e[2 * i + 1] = ((a[i] >> 4) & 15) as i8;
    }
    let mut carry = 0i8;
    for d in e.iter_mut().take(63) {
        *d += carry;
        carry = (*d + 8) >> 4;
        *d -= carry << 4;
    }
    e[63] += carry;
    e
}

/// Width-w non-adjacent form of a scalar below 2^256 (257 digits, each zero or odd in
/// (−2^(w−1), 2^(w−1)), any two non-zero digits at least w positions apart), for
/// variable-time multiplication of public scalars; w in 2..=16. The digits are those of the
/// textbook recoding (Hankerson, Menezes, Vanstone, "Guide to Elliptic Curve Cryptography",
/// Algorithm 3.35).
///
/// Each step reads the 64 bits from the current position, adds the carry of the previous
/// digit, jumps over the run of zeros with one trailing-zero count and takes the window
/// above it; the sign of a digit is arithmetic, not a branch. Only the loop itself branches,
/// once per non-zero digit: a recoding whose sign and zero-run tests were branches spent
/// most of its time in mispredictions (the digits of a scalar are random).
#[allow(
    clippy::cast_possible_truncation,
    reason = "a digit lies in [−2^(w−1), 2^(w−1)) and callers use w ≤ 16 (asserted in debug builds): it fits i16"
)]
pub(crate) fn wnaf_vartime(a: &[u8; 32], w: usize) -> [i16; 257] {
    debug_assert!((2..=16).contains(&w));
    // Zero words above the value so that 64 bits from any position up to 256 can be read.
    let mut x = [0u64; 6];
    for (limb, chunk) in x.iter_mut().zip(a.chunks_exact(8)) {
        *limb = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
    }
    let mut naf = [0i16; 257];
    let mask = (1u64 << w) - 1;
    // No digit lies above the bit length of a (a digit at position p followed by a carry
    // into p + w means a ≥ 2^(p+w−1)), so the loop stops there instead of at 257.
    let top = x
        .iter()
        .rposition(|&limb| limb != 0)
        .map_or(0, |i| 64 * i + 64 - x[i].leading_zeros() as usize);
    let mut pos = 0usize;
    let mut carry = 0u64;
    while pos <= top {
        let (idx, sh) = (pos / 64, pos % 64);
        // Bits pos..pos + 64 (the second shift in two steps: no shift by 64 when sh = 0).
        let bits = (x[idx] >> sh) | ((x[idx + 1] << 1) << (63 - sh));
        // Wraps to 0 only for 64 ones plus a carry, which the branch below handles.
        let v = bits.wrapping_add(carry);
        let tz = v.trailing_zeros() as usize;
        if tz > 64 - w {
            // No full window left in these 64 bits: move on by 64 − w, with the carry that
            // the addition propagated past that point.
            let step = 64 - w;
            carry = ((v ^ bits) >> step) & 1;
            pos += step;
            continue;
        }
        // The carry stops at the lowest set bit of v, so the bits above it are a's own.
        pos += tz;
        let window = (v >> tz) & mask;
        let neg = window >> (w - 1);
        naf[pos] = (window as i32 - ((neg as i32) << w)) as i16;
        carry = neg;
        pos += w;
    }
    naf
}

/// Signed radix-2^c digits (c in 4..=12) of a scalar below 2^256: Σ d_i·2^(c·i) with d_i in
/// [−2^(c−1), 2^(c−1)], for the Pippenger buckets. Variable time.
#[cfg(feature = "alloc")]
pub(crate) fn radix_2c_vartime(a: &[u8; 32], c: usize) -> Vec<i32> {
    let n = 256 / c + 2;
    let mut digits = vec![0i32; n];
    let bit = |k: usize| -> i32 {
        if k < 256 {
            i32::from((a[k / 8] >> (k % 8)) & 1)
        } else {
            0
        }
    };
    let mut carry = 0i32;
    let radix = 1i32 << c;
    for (i, d) in digits.iter_mut().enumerate() {
        let mut v = carry;
        for j in 0..c {
            v += bit(i * c + j) << j;
        }
        carry = (v + (radix >> 1)) >> c;
        *d = v - (carry << c);
    }
    digits
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::{vec, vec::Vec};

    #[test]
    fn powers_of_2_248_match_their_definitions() {
        let (t1, t2) = powers_of_2_248();
        let two = Scalar::from_u64(2);
        assert_eq!(*t1, two.pow_vartime(&[248]));
        assert_eq!(*t2, two.pow_vartime(&[496]));
    }

    /// Σ naf_i·2^i, evaluated in the scalar field (an independent check of the recoding).
    fn eval_mod_l(naf: &[i16; 257]) -> Scalar {
        let two = Scalar::from_u64(2);
        let mut acc = Scalar::ZERO;
        for &d in naf.iter().rev() {
            acc *= two;
            let m = Scalar::from_u64(u64::from(d.unsigned_abs()));
            acc = if d < 0 { acc - m } else { acc + m };
        }
        acc
    }

    /// The textbook recoding (HMV Algorithm 3.35), one bit at a time on a 320-bit integer:
    /// while k > 0, if k is odd take d = k mods 2^w and k −= d, then halve k.
    fn wnaf_textbook(a: &[u8; 32], w: usize) -> [i16; 257] {
        let mut k = [0u64; 5];
        for (limb, chunk) in k.iter_mut().zip(a.chunks_exact(8)) {
            *limb = u64::from_le_bytes(chunk.try_into().unwrap());
        }
        let mut naf = [0i16; 257];
        let mut i = 0;
        while k != [0; 5] {
            if k[0] & 1 == 1 {
                let m = (k[0] & ((1 << w) - 1)) as i64;
                let d = if m >= 1 << (w - 1) { m - (1 << w) } else { m };
                naf[i] = i16::try_from(d).unwrap();
                // k − d: subtract a positive d from the low word (no borrow: k ≡ d mod 2^w),
                // or add −d with carry propagation.
                if d > 0 {
                    k[0] -= d as u64;
                } else {
                    let mut c = (-d) as u64;
                    for limb in k.iter_mut() {
                        let (s, o) = limb.overflowing_add(c);
                        *limb = s;
                        c = u64::from(o);
                    }
                }
            }
            for j in 0..5 {
                k[j] = (k[j] >> 1) | if j + 1 < 5 { k[j + 1] << 63 } else { 0 };
            }
            i += 1;
        }
        naf
    }

    #[test]
    fn wnaf_recodes_the_value() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut cases: Vec<[u8; 32]> = vec![[0; 32], [0xff; 32], [0x55; 32], [0xaa; 32]];
        let mut one = [0u8; 32];
        one[0] = 1;
        cases.push(one);
        let mut top = [0u8; 32];
        top[31] = 0x80;
        cases.push(top);
        // Long zero runs and long runs of ones across word boundaries (the carry through
        // a skipped run, and a window that does not fit in the 64 bits read).
        for bit in [63usize, 64, 127, 128, 191, 192, 200, 250, 255] {
            let mut b = [0u8; 32];
            b[bit / 8] |= 1 << (bit % 8);
            cases.push(b);
            let mut ones = [0u8; 32];
            for k in 0..=bit {
                ones[k / 8] |= 1 << (k % 8);
            }
            cases.push(ones);
            ones[0] ^= 0x10;
            cases.push(ones);
        }
        for _ in 0..300 {
            let mut b = [0u8; 32];
            for chunk in b.chunks_mut(8) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                chunk.copy_from_slice(&state.to_le_bytes());
            }
            // Some short values, like the half-size verification scalars.
            if state.is_multiple_of(3) {
                b[17..].fill(0);
            }
            cases.push(b);
        }
        for a in &cases {
            let expect = scalar_from_bytes_mod_order(a);
            for w in [2usize, 3, 4, 5, 8, 10, 12, 16] {
                let naf = wnaf_vartime(a, w);
                assert_eq!(naf, wnaf_textbook(a, w), "w = {w}, a = {a:?}");
                assert_eq!(eval_mod_l(&naf), expect, "w = {w}, a = {a:?}");
                let mut last: Option<usize> = None;
                for (i, &d) in naf.iter().enumerate() {
                    if d != 0 {
                        assert_eq!(d & 1, 1, "even digit");
                        assert!(i32::from(d).abs() < 1 << (w - 1));
                        if let Some(j) = last {
                            assert!(i - j >= w, "digits {j} and {i} too close");
                        }
                        last = Some(i);
                    }
                }
            }
        }
    }
}
