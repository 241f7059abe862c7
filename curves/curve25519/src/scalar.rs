//! Scalars mod l (the generated `curve25519-l` field) and the recodings the scalar
//! multiplications use.

use std::sync::OnceLock;

use crate::field::Scalar;

/// 2^248 mod l and 2^496 mod l (2^248 < l, so the first is exact).
fn powers_of_2_248() -> &'static (Scalar, Scalar) {
    static P: OnceLock<(Scalar, Scalar)> = OnceLock::new();
    P.get_or_init(|| {
        let mut b = [0u8; 32];
        b[31] = 1;
        let t = Scalar::from_le_bytes(&b).unwrap();
        (t, t.square())
    })
}

/// 31 little-endian bytes as a scalar: below 2^248 < l, so always canonical.
fn scalar_from_31(bytes: &[u8]) -> Scalar {
    let mut b = [0u8; 32];
    b[..31].copy_from_slice(bytes);
    Scalar::from_le_bytes(&b).unwrap()
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
/// variable-time multiplication of public scalars; w in 2..=16. Windows are read straight
/// from 64-bit words, and runs of zero bits are skipped with one trailing-zero count.
pub(crate) fn wnaf_vartime(a: &[u8; 32], w: usize) -> [i16; 257] {
    debug_assert!((2..=16).contains(&w));
    // Two zero words above the value so that a window starting at bit 256 can be read.
    let mut x = [0u64; 6];
    for (limb, chunk) in x.iter_mut().zip(a.chunks_exact(8)) {
        *limb = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
    }
    let mut naf = [0i16; 257];
    let width = 1u64 << w;
    let mut pos = 0usize;
    let mut carry = 0u64;
    while pos < 257 {
        let (idx, sh) = (pos / 64, pos % 64);
        let rest = x[idx] >> sh;
        let bits = if sh + w <= 64 {
            rest
        } else {
            rest | (x[idx + 1] << (64 - sh))
        };
        let window = carry + (bits & (width - 1));
        if window & 1 == 0 {
            // The digit here is zero. Without a carry, so is every digit up to the next set
            // bit of this word (or the end of the word).
            pos += if carry == 0 {
                if rest == 0 {
                    64 - sh
                } else {
                    rest.trailing_zeros() as usize
                }
            } else {
                1
            };
            continue;
        }
        if window < width / 2 {
            naf[pos] = window as i16;
            carry = 0;
        } else {
            naf[pos] = window as i16 - width as i16;
            carry = 1;
        }
        pos += w;
    }
    naf
}

/// Signed radix-2^c digits (c in 4..=12) of a scalar below 2^256: Σ d_i·2^(c·i) with d_i in
/// [−2^(c−1), 2^(c−1)], for the Pippenger buckets. Variable time.
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

    /// Σ naf_i·2^i, evaluated in the scalar field (an independent check of the recoding).
    fn eval_mod_l(naf: &[i16; 257]) -> Scalar {
        let two = Scalar::from_u64(2);
        let mut acc = Scalar::ZERO;
        for &d in naf.iter().rev() {
            acc = acc * two;
            let m = Scalar::from_u64(u64::from(d.unsigned_abs()));
            acc = if d < 0 { acc - m } else { acc + m };
        }
        acc
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
        for _ in 0..300 {
            let mut b = [0u8; 32];
            for chunk in b.chunks_mut(8) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                chunk.copy_from_slice(&state.to_le_bytes());
            }
            // Some short values, like the half-size verification scalars.
            if state % 3 == 0 {
                b[17..].fill(0);
            }
            cases.push(b);
        }
        for a in &cases {
            let expect = scalar_from_bytes_mod_order(a);
            for w in [2usize, 4, 5, 8, 10, 12] {
                let naf = wnaf_vartime(a, w);
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
