//! Multi-precision helpers on variable-length little-endian `u64` limb vectors, for the few
//! steps the Montgomery contexts do not cover: products and remainders modulo even numbers
//! (p − 1, q − 1, φ(n)) in key validation and generation. Constant time in the values (the
//! time depends on the lengths only) unless named `_vartime`.

use alloc::vec;
use alloc::vec::Vec;
use subtle::{Choice, ConstantTimeEq};

/// The low word of a double-word sum or product (the caller takes the high word separately,
/// `t >> 64`), or of a value known to be below 2^64.
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "limb extraction: the high word is taken separately or is zero"
)]
pub(crate) const fn low_word(t: u128) -> u64 {
    t as u64
}

/// Little-endian limbs of a big-endian byte string (any length; leading zeros allowed).
pub(crate) fn from_be(bytes: &[u8]) -> Vec<u64> {
    let mut limbs = vec![0u64; bytes.len().div_ceil(8).max(1)];
    for (i, b) in bytes.iter().rev().enumerate() {
        limbs[i / 8] |= (*b as u64) << (8 * (i % 8));
    }
    limbs
}

/// The `len`-byte big-endian encoding of limbs; higher bytes beyond `len` are dropped (callers
/// pass values known to fit).
pub(crate) fn to_be(limbs: &[u64], len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    for (i, o) in out.iter_mut().rev().enumerate() {
        if i / 8 < limbs.len() {
            *o = limbs[i / 8].to_le_bytes()[i % 8];
        }
    }
    out
}

/// Zero-extends `x` to `len` limbs (the top limbs beyond `len` must be zero).
pub(crate) fn resize(x: &[u64], len: usize) -> Vec<u64> {
    let mut out = vec![0u64; len];
    let n = x.len().min(len);
    out[..n].copy_from_slice(&x[..n]);
    out
}

/// The full product a·b (schoolbook, a.len() + b.len() limbs).
pub(crate) fn mul(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = vec![0u64; a.len() + b.len()];
    for (i, &ai) in a.iter().enumerate() {
        let mut carry = 0u128;
        for (j, &bj) in b.iter().enumerate() {
            let t = ai as u128 * bj as u128 + out[i + j] as u128 + carry;
            out[i + j] = low_word(t);
            carry = t >> 64;
        }
        // Below 2^64: a·b + out + carry < 2^128 at every step.
        out[i + b.len()] = low_word(carry);
    }
    out
}

/// a − b for equal lengths, and the borrow (0 or 1).
pub(crate) fn sub(a: &[u64], b: &[u64]) -> (Vec<u64>, u64) {
    let mut out = vec![0u64; a.len()];
    let mut borrow = 0u64;
    for i in 0..a.len() {
        let t = (a[i] as u128).wrapping_sub(b[i] as u128 + borrow as u128);
        out[i] = low_word(t);
        borrow = (t >> 127) as u64;
    }
    (out, borrow)
}

/// a + w for a small word w (same length; the carry out is dropped).
pub(crate) fn add_word(a: &[u64], w: u64) -> Vec<u64> {
    let mut out = a.to_vec();
    let mut carry = w as u128;
    for o in out.iter_mut() {
        let t = *o as u128 + carry;
        *o = low_word(t);
        carry = t >> 64;
    }
    out
}

/// a − w for a small word w ≤ a (same length).
pub(crate) fn sub_word(a: &[u64], w: u64) -> Vec<u64> {
    let mut b = vec![0u64; a.len()];
    b[0] = w;
    sub(a, &b).0
}

/// x mod m for any x and m > 0 (m may be even): one shift and one masked subtraction per bit
/// of x, most significant first. Constant time in the values (the time depends on the
/// lengths). The result has m.len() limbs.
pub(crate) fn rem_ct(x: &[u64], m: &[u64]) -> Vec<u64> {
    let l = m.len();
    let mut r = vec![0u64; l];
    for i in (0..64 * x.len()).rev() {
        let bit = (x[i / 64] >> (i % 64)) & 1;
        // r ← 2r + bit, with the bit shifted out kept as `top`.
        let top = r[l - 1] >> 63;
        for j in (1..l).rev() {
            r[j] = (r[j] << 1) | (r[j - 1] >> 63);
        }
        r[0] = (r[0] << 1) | bit;
        // Subtract m when (top, r) ≥ m; r < m before the shift, so once suffices.
        let (d, borrow) = sub(&r, m);
        let keep_d = 0u64.wrapping_sub(top | (borrow ^ 1));
        for j in 0..l {
            r[j] = (d[j] & keep_d) | (r[j] & !keep_d);
        }
    }
    r
}

/// Whether a = b as numbers (lengths may differ; the longer one's extra limbs must be zero).
/// Constant time in the values.
pub(crate) fn ct_eq(a: &[u64], b: &[u64]) -> Choice {
    let l = a.len().max(b.len());
    let mut acc = 0u64;
    for i in 0..l {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        acc |= x ^ y;
    }
    acc.ct_eq(&0)
}

/// Whether a < b (lengths may differ). Constant time in the values.
pub(crate) fn ct_lt(a: &[u64], b: &[u64]) -> Choice {
    let l = a.len().max(b.len());
    let (d, borrow) = sub(&resize(a, l), &resize(b, l));
    drop(d);
    borrow.ct_eq(&1)
}

/// Whether x is one.
pub(crate) fn ct_is_one(x: &[u64]) -> Choice {
    ct_eq(x, &[1])
}

/// The byte length of a big-endian value without its leading zero bytes (0 for zero), in
/// constant time: every byte is read and none is branched on.
pub(crate) fn ct_byte_len(x: &[u8]) -> usize {
    let mut len = 0usize;
    let mut seen = 0usize;
    for (i, &b) in x.iter().enumerate() {
        // 1 when b ≠ 0: the top bit of −b as a 32-bit value.
        let nz = ((b as u32).wrapping_neg() >> 31) as usize;
        let first = nz & !seen;
        len |= (x.len() - i) & first.wrapping_neg();
        seen |= nz;
    }
    len
}

/// The number of significant bits of x (variable time: for public values).
pub(crate) fn bits_vartime(x: &[u64]) -> usize {
    for i in (0..x.len()).rev() {
        if x[i] != 0 {
            return 64 * i + 64 - x[i].leading_zeros() as usize;
        }
    }
    0
}

/// x mod q for a small q > 0 (variable time: for prime candidates and public values).
pub(crate) fn rem_word_vartime(x: &[u64], q: u64) -> u64 {
    let mut r: u128 = 0;
    for limb in x.iter().rev() {
        r = ((r << 64) | *limb as u128) % q as u128;
    }
    // r < q.
    low_word(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rem_matches_u128() {
        // Oracle: Rust's u128 arithmetic.
        let cases: [(u128, u128); 5] = [
            (0, 7),
            (u128::MAX, 0xffff_ffff_ffff_fffe),
            (12345678901234567890123, 98765432101),
            (1 << 100, (1 << 64) + 1),
            (99, 100),
        ];
        for (x, m) in cases {
            let xl = [low_word(x), (x >> 64) as u64];
            let ml = [low_word(m), (m >> 64) as u64];
            let r = rem_ct(&xl, &ml);
            assert_eq!(r[0] as u128 | (r[1] as u128) << 64, x % m, "{x} mod {m}");
        }
        let p = mul(&[u64::MAX], &[u64::MAX]);
        assert_eq!(
            p[0] as u128 | (p[1] as u128) << 64,
            (u64::MAX as u128) * (u64::MAX as u128)
        );
        assert_eq!(
            to_be(&from_be(&[1, 2, 3, 4, 5, 6, 7, 8, 9]), 9),
            [1, 2, 3, 4, 5, 6, 7, 8, 9]
        );
    }
}
