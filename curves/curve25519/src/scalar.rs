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

/// Width-w non-adjacent form of a scalar below 2^256 (256 digits, each zero or odd in
/// (−2^(w−1), 2^(w−1))), for variable-time multiplication of public scalars.
pub(crate) fn wnaf_vartime(a: &[u8; 32], w: usize) -> [i16; 257] {
    let mut bits = [0u8; 257];
    for i in 0..256 {
        bits[i] = (a[i / 8] >> (i % 8)) & 1;
    }
    let mut naf = [0i16; 257];
    let width = 1i32 << w;
    let half = width >> 1;
    let mut i = 0;
    let mut carry = 0i32;
    while i < 257 {
        let bit = i32::from(bits[i]) + carry;
        if bit & 1 == 0 {
            carry = bit >> 1;
            i += 1;
            continue;
        }
        // Take w bits (plus carry) as a window.
        let mut window = carry;
        for j in 0..w {
            if i + j < 257 {
                window += i32::from(bits[i + j]) << j;
            }
        }
        window &= width - 1;
        if window >= half {
            naf[i] = (window - width) as i16;
            carry = 1;
        } else {
            naf[i] = window as i16;
            carry = 0;
        }
        i += w;
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
