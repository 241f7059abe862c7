//! Helpers shared by the integration tests: a deterministic input stream and conversions
//! between the crate's field elements and num-bigint, the tests' oracle.
#![allow(dead_code)]

use fieldgen_bn::{BnParams, Fp12, Fp2};
use fieldgen_field::{ByteArray, Field, PrimeField};
use num_bigint::{BigInt, BigUint};
use serde_json::Value;

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
        (0..n).map(|_| self.next().to_le_bytes()[0]).collect()
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
/// The element of Fp whose Montgomery representative is p − 1 (canonical value
/// (p − 1)·R⁻¹ mod p, R = 2^(bits of the limbs)): the largest limbs an element can have, so
/// its products are the largest double-width values (p − 1)².
pub fn mont_max<C: BnParams>() -> C::Fp {
    let p = p_of::<C>();
    let r = BigUint::from(1u32) << (8 * core::mem::size_of::<C::Fp>());
    let r_inv = r.modpow(&(&p - 2u32), &p);
    to_fp::<C>(&((&p - 1u32) * r_inv % &p))
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

/// A vector file of `tests/vectors/`, parsed.
pub fn load(name: &str) -> Value {
    let path = format!("{}/tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A hex string (no prefix) as bytes.
pub fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// A (possibly negative) decimal string as an element of C's Fp, reduced by num-bigint.
pub fn fp_dec<C: BnParams>(dec: &str) -> C::Fp {
    let p = BigInt::from(p_of::<C>());
    let v = BigInt::parse_bytes(dec.as_bytes(), 10).unwrap();
    let v = ((v % &p) + &p) % &p;
    to_fp::<C>(&v.to_biguint().unwrap())
}

/// Two decimal strings as an Fp2 element a + b·i.
pub fn fp2_dec<C: BnParams>(a: &str, b: &str) -> Fp2<C::Fp> {
    Fp2::new(fp_dec::<C>(a), fp_dec::<C>(b))
}

/// Twelve decimal strings (mcl's coefficient order) as an Fp12 element.
pub fn fp12_dec<C: BnParams>(list: &[String]) -> Fp12<C> {
    let mut c = [<C::Fp as Field>::ZERO; 12];
    for (k, s) in list.iter().enumerate() {
        c[k] = fp_dec::<C>(s);
    }
    Fp12::from_coeffs(&c)
}
