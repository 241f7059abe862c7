//! Reference arithmetic modulo an odd prime `p`, over [`BigUint`].
//!
//! Every function here is a direct transcription of the textbook definition, written for clarity and
//! independence from the code under test, not for speed or constant time:
//!
//! - add/sub/neg/mul/square: the integer operation followed by `% p`;
//! - [`pow_mod`]: num-bigint's `modpow` (a separately maintained implementation; the self-test
//!   cross-checks it against [`pow_mod_naive`], left-to-right square-and-multiply);
//! - [`inverse_mod`]: the extended Euclidean algorithm (Knuth, TAOCP vol. 2, §4.5.2, Algorithm X),
//!   deliberately *not* Fermat's little theorem, so that it does not share a method with a generated
//!   `invert` that computes `x^(p-2)`;
//! - [`legendre`]: Euler's criterion, `a^((p-1)/2) mod p ∈ {0, 1, p-1}` (Ireland & Rosen, *A Classical Introduction to Modern
//!   Number Theory*, ch. 5).
//!
//! Inputs need not be reduced: every function reduces its operands modulo `p` first, and every
//! result is in `[0, p)`. Byte encodings are of canonical integers, of an explicit width in bytes.

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, Zero};

/// Parses a modulus written as `0x`/`0X` followed by hexadecimal digits, or as decimal digits.
///
/// Underscores and ASCII whitespace anywhere in the text are ignored (so long constants may be
/// grouped). Errors, as a message, on empty input or on any other character.
pub fn parse_modulus(text: &str) -> Result<BigUint, String> {
    let cleaned: String = text
        .chars()
        .filter(|c| *c != '_' && !c.is_ascii_whitespace())
        .collect();
    let (digits, radix) = match cleaned
        .strip_prefix("0x")
        .or_else(|| cleaned.strip_prefix("0X"))
    {
        Some(hex) => (hex, 16),
        None => (cleaned.as_str(), 10),
    };
    if digits.is_empty() {
        return Err(format!("modulus text {text:?} has no digits"));
    }
    if !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(format!(
            "modulus text {text:?} is neither 0x-prefixed hexadecimal nor decimal"
        ));
    }
    BigUint::parse_bytes(digits.as_bytes(), radix)
        .ok_or_else(|| format!("modulus text {text:?} could not be parsed"))
}

/// `(a + b) mod p`.
pub fn add_mod(a: &BigUint, b: &BigUint, p: &BigUint) -> BigUint {
    (a + b) % p
}

/// `(a - b) mod p`, in `[0, p)`.
pub fn sub_mod(a: &BigUint, b: &BigUint, p: &BigUint) -> BigUint {
    let (a, b) = (a % p, b % p);
    if a >= b {
        a - b
    } else {
        p - b + a
    }
}

/// `-a mod p`, in `[0, p)` (so `neg_mod(0) = 0`).
pub fn neg_mod(a: &BigUint, p: &BigUint) -> BigUint {
    sub_mod(&BigUint::zero(), a, p)
}

/// `(a · b) mod p`.
pub fn mul_mod(a: &BigUint, b: &BigUint, p: &BigUint) -> BigUint {
    (a * b) % p
}

/// `a² mod p`.
pub fn square_mod(a: &BigUint, p: &BigUint) -> BigUint {
    mul_mod(a, a, p)
}

/// `base^exp mod p`, with the convention `x^0 = 1` for every `x`, including `0^0 = 1`.
pub fn pow_mod(base: &BigUint, exp: &BigUint, p: &BigUint) -> BigUint {
    if exp.is_zero() {
        return BigUint::one() % p;
    }
    (base % p).modpow(exp, p)
}

/// `base^exp mod p` by left-to-right square-and-multiply with `%` after every step.
///
/// Slow; used by the self-test to cross-check [`pow_mod`].
pub fn pow_mod_naive(base: &BigUint, exp: &BigUint, p: &BigUint) -> BigUint {
    let base = base % p;
    let mut acc = BigUint::one() % p;
    for i in (0..exp.bits()).rev() {
        acc = square_mod(&acc, p);
        if exp.bit(i) {
            acc = mul_mod(&acc, &base, p);
        }
    }
    acc
}

/// `base^e mod p` where the exponent `e` is given as little-endian 64-bit words (any length; an
/// empty slice is the exponent 0, so the result is 1).
pub fn pow_mod_words(base: &BigUint, exp_le: &[u64], p: &BigUint) -> BigUint {
    pow_mod(base, &from_u64_words_le(exp_le), p)
}

/// The inverse of `a` modulo `p` by the extended Euclidean algorithm, or `None` when
/// `gcd(a, p) ≠ 1` (for a prime `p`: exactly when `a ≡ 0`).
pub fn inverse_mod(a: &BigUint, p: &BigUint) -> Option<BigUint> {
    let a = a % p;
    if a.is_zero() {
        return None;
    }
    let m = BigInt::from_biguint(Sign::Plus, p.clone());
    let egcd = BigInt::from_biguint(Sign::Plus, a).extended_gcd(&m);
    if !egcd.gcd.is_one() {
        return None;
    }
    // egcd.x · a + egcd.y · p = 1, so egcd.x is the inverse; bring it into [0, p).
    let inv = egcd.x.mod_floor(&m);
    inv.to_biguint()
}

/// The Legendre symbol `(a / p)` by Euler's criterion: `0` if `p | a`, `1` if `a` is a non-zero
/// square modulo `p`, `-1` otherwise.
///
/// Panics if `a^((p-1)/2)` is neither 1 nor `p-1`, which proves `p` is not an odd prime.
pub fn legendre(a: &BigUint, p: &BigUint) -> i8 {
    let a = a % p;
    if a.is_zero() {
        return 0;
    }
    let e = (p - 1u32) >> 1;
    let t = pow_mod(&a, &e, p);
    if t.is_one() {
        1
    } else if t == p - 1u32 {
        -1
    } else {
        panic!("Euler's criterion failed: {p:#x} is not an odd prime")
    }
}

/// Whether `a` is a square modulo `p` (`0` counts as a square: `0 = 0²`).
pub fn is_square(a: &BigUint, p: &BigUint) -> bool {
    legendre(a, p) >= 0
}

/// Number of bits of `p` (position of its highest set bit, plus one).
pub fn bit_len(p: &BigUint) -> u32 {
    u32::try_from(p.bits()).expect("modulus wider than u32::MAX bits")
}

/// Byte length `B = ceil(bits(p) / 8)` of a canonical encoding of an element of `Z/pZ`.
pub fn byte_len(p: &BigUint) -> usize {
    (bit_len(p) as usize).div_ceil(8)
}

/// Limb count `n = ceil(bits(p) / limb_bits)`.
pub fn limb_count(p: &BigUint, limb_bits: u32) -> usize {
    assert!(limb_bits > 0, "limb width must be positive");
    (bit_len(p) as usize).div_ceil(limb_bits as usize)
}

/// Little-endian encoding of `x` in exactly `width` bytes. Panics if `x ≥ 2^(8·width)`.
pub fn to_le_bytes(x: &BigUint, width: usize) -> Vec<u8> {
    let mut bytes = if x.is_zero() {
        Vec::new()
    } else {
        x.to_bytes_le()
    };
    assert!(bytes.len() <= width, "{x:#x} does not fit in {width} bytes");
    bytes.resize(width, 0);
    bytes
}

/// Big-endian encoding of `x` in exactly `width` bytes. Panics if `x ≥ 2^(8·width)`.
pub fn to_be_bytes(x: &BigUint, width: usize) -> Vec<u8> {
    let mut bytes = to_le_bytes(x, width);
    bytes.reverse();
    bytes
}

/// The integer whose little-endian encoding is `bytes` (any length).
pub fn from_le_bytes(bytes: &[u8]) -> BigUint {
    BigUint::from_bytes_le(bytes)
}

/// The integer whose big-endian encoding is `bytes` (any length).
pub fn from_be_bytes(bytes: &[u8]) -> BigUint {
    BigUint::from_bytes_be(bytes)
}

/// Whether `x < 2^(8·width)`, i.e. `x` has an encoding of `width` bytes.
pub fn fits_in_bytes(x: &BigUint, width: usize) -> bool {
    x.bits() <= 8 * width as u64
}

/// The little-endian 64-bit words of `x` (empty for zero).
pub fn to_u64_words_le(x: &BigUint) -> Vec<u64> {
    x.to_u64_digits()
}

/// The integer whose little-endian 64-bit words are `words` (any length; empty is zero).
pub fn from_u64_words_le(words: &[u64]) -> BigUint {
    words
        .iter()
        .rev()
        .fold(BigUint::zero(), |acc, w| (acc << 64u32) | BigUint::from(*w))
}

/// `0x` followed by exactly `2·width` lowercase hexadecimal digits of `x`, big-endian, zero-padded:
/// the `Debug` format the suite requires of a field element.
pub fn hex_be(x: &BigUint, width: usize) -> String {
    let mut s = String::with_capacity(2 + 2 * width);
    s.push_str("0x");
    for b in to_be_bytes(x, width) {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// The smallest quadratic non-residue modulo the odd prime `p` (found by trial with
/// [`legendre`]; below `2·ln(p)²` under GRH, in practice tiny).
pub fn smallest_non_residue(p: &BigUint) -> BigUint {
    assert!(p > &BigUint::from(2u32), "p = {p} has no non-residue");
    let mut z = BigUint::from(2u32);
    while legendre(&z, p) != -1 {
        z += 1u32;
    }
    z
}

/// Miller–Rabin with the first twenty primes as bases (Menezes, van Oorschot & Vanstone, HAC,
/// Algorithm 4.24).
///
/// Deterministic below 3.3·10^24 (Sorenson & Webster 2015, for the first thirteen prime bases); above,
/// a composite passes with probability at most 4^-20 for a random input. Used only to catch a
/// mistyped modulus in a test, never as a proof.
pub fn is_probable_prime(n: &BigUint) -> bool {
    const BASES: [u32; 20] = [
        2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71,
    ];
    let two = BigUint::from(2u32);
    if n < &two {
        return false;
    }
    for b in BASES {
        let b = BigUint::from(b);
        if n == &b {
            return true;
        }
        if (n % &b).is_zero() {
            return false;
        }
    }
    let n_minus_1 = n - 1u32;
    let s = n_minus_1.trailing_zeros().expect("n > 1");
    let d = &n_minus_1 >> s;
    'bases: for b in BASES {
        let mut x = BigUint::from(b).modpow(&d, n);
        if x.is_one() || x == n_minus_1 {
            continue;
        }
        for _ in 1..s {
            x = square_mod(&x, n);
            if x == n_minus_1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}
