//! Helpers shared by the integration tests: a deterministic input stream and conversions
//! between the crate's field elements and num-bigint, the tests' oracle.
#![allow(dead_code)]

use fieldgen_bn::BnParams;
use fieldgen_field::{ByteArray, Field, PrimeField};
use num_bigint::BigUint;

/// `default` cases, or `full` when `FIELDGEN_FULL` is set.
pub fn cases(default: usize, full: usize) -> usize {
    if std::env::var("FIELDGEN_FULL").is_ok() {
        full
    } else {
        default
    }
}

/// xorshift64*: deterministic test inputs.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// A hexadecimal string (with or without `0x`) as an integer.
pub fn big(hex: &str) -> BigUint {
    BigUint::parse_bytes(hex.trim_start_matches("0x").as_bytes(), 16).unwrap()
}
/// The base field's modulus p.
pub fn p_of<C: BnParams>() -> BigUint {
    big(C::Fp::MODULUS_HEX)
}
/// The group order r.
pub fn r_of<C: BnParams>() -> BigUint {
    big(C::Fr::MODULUS_HEX)
}
/// x mod p as an element of Fp.
pub fn to_fp<C: BnParams>(x: &BigUint) -> C::Fp {
    let be = (x % p_of::<C>()).to_bytes_be();
    let mut b = <C::Fp as Field>::Bytes::zeroed();
    let n = b.as_ref().len();
    b.as_mut()[n - be.len()..].copy_from_slice(&be);
    Option::from(C::Fp::from_be_bytes(&b)).unwrap()
}
/// An element of Fp as its canonical integer.
pub fn from_fp<C: BnParams>(x: &C::Fp) -> BigUint {
    BigUint::from_bytes_be(x.to_be_bytes().as_ref())
}
/// x mod r as an element of Fr.
pub fn to_fr<C: BnParams>(x: &BigUint) -> C::Fr {
    let le = (x % r_of::<C>()).to_bytes_le();
    let mut b = <C::Fr as Field>::Bytes::zeroed();
    b.as_mut()[..le.len()].copy_from_slice(&le);
    Option::from(C::Fr::from_le_bytes(&b)).unwrap()
}
/// An element of Fr as its canonical integer.
pub fn fr_big<C: BnParams>(x: &C::Fr) -> BigUint {
    BigUint::from_bytes_le(x.to_le_bytes().as_ref())
}
/// A random integer below p (64 extra bits, so the bias is negligible).
pub fn rand_fp<C: BnParams>(rng: &mut Rng) -> BigUint {
    BigUint::from_bytes_le(&rng.bytes(<C::Fp as Field>::BYTES + 8)) % p_of::<C>()
}
/// A random integer below r.
pub fn rand_fr<C: BnParams>(rng: &mut Rng) -> BigUint {
    BigUint::from_bytes_le(&rng.bytes(<C::Fr as Field>::BYTES + 8)) % r_of::<C>()
}
