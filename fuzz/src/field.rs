//! Field arithmetic of committed generated fields against num-bigint (GF(p)) and a GF(2)\[x\]
//! reference on `BigUint` (GF(2^m), `fieldgen_tests::binary::Gf2Oracle`).
//!
//! Input: one byte picks the field, one the operation, then the operands' bytes. Operands are
//! decoded canonically (`from_le_bytes`), and the decoder must refuse exactly the encodings the
//! oracle calls non-canonical (an integer ≥ p; a bit at or above m). The generated types keep
//! their limbs private, so there is no decoder of arbitrary limbs to fuzz: a refused operand is
//! replaced by its value reduced by the oracle, so that every input still reaches an operation.

use fieldgen_field::{BinaryField, PrimeField};
use fieldgen_generated as g;
use fieldgen_tests::binary::Gf2Oracle;
use num_bigint::BigUint;
use num_traits::{One, Zero};

use crate::Input;

/// A field under test: its module, the modulus written out independently of the generator
/// (the published value: RFC 7748 §4.1, FIPS 186-4 D.1.2, SEC 2 v2 §2.4.1, EIP-196,
/// draft-irtf-cfrg-pairing-friendly-curves; the polynomials of SEC 2 v2 §3 and of
/// `generated/manifest.toml`), and its check.
type Entry = (&'static str, &'static str, fn(&mut Input, &'static str));

/// The prime fields under test: every reduction strategy, at 64- and 32-bit limbs.
const PRIME_FIELDS: &[Entry] = &[
    ("p256_p_64 (Montgomery)", "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff", check_prime::<g::p256_p_64::Fp>),
    ("p256_p_32 (Montgomery)", "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff", check_prime::<g::p256_p_32::Fp>),
    ("bn254_p_64 (Montgomery, no-carry CIOS)", "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", check_prime::<g::bn254_p_64::Fp>),
    ("bn254_p_32 (Montgomery, no-carry CIOS)", "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", check_prime::<g::bn254_p_32::Fp>),
    ("bls12_381_p_32 (Montgomery)", "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", check_prime::<g::bls12_381_p_32::Fp>),
    ("curve25519_p_64 (pseudo-Mersenne)", "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed", check_prime::<g::curve25519_p_64::Fp>),
    ("curve25519_p_32 (pseudo-Mersenne)", "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed", check_prime::<g::curve25519_p_32::Fp>),
    ("curve25519_p_montgomery_64 (Montgomery)", "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed", check_prime::<g::curve25519_p_montgomery_64::Fp>),
    ("curve25519_p_unsaturated_64 (unsaturated)", "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed", check_prime::<g::curve25519_p_unsaturated_64::Fp>),
    ("curve25519_p_unsaturated_32 (unsaturated)", "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed", check_prime::<g::curve25519_p_unsaturated_32::Fp>),
    ("secp256k1_p_64 (auto)", "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", check_prime::<g::secp256k1_p_64::Fp>),
    ("secp256k1_p_32 (auto)", "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", check_prime::<g::secp256k1_p_32::Fp>),
    ("secp256k1_p_solinas_32 (Solinas)", "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", check_prime::<g::secp256k1_p_solinas_32::Fp>),
    ("p384_p_solinas_64 (Solinas)", "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff", check_prime::<g::p384_p_solinas_64::Fp>),
    ("p384_p_solinas_32 (Solinas)", "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff", check_prime::<g::p384_p_solinas_32::Fp>),
    ("goldilocks_p_solinas_64 (Solinas)", "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff", check_prime::<g::goldilocks_p_solinas_64::Fp>),
    ("p521_p_unsaturated_64 (unsaturated)", "0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", check_prime::<g::p521_p_unsaturated_64::Fp>),
    ("p521_p_unsaturated_32 (unsaturated)", "0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", check_prime::<g::p521_p_unsaturated_32::Fp>),
    ("curve25519_l_64 (Montgomery, scalar field)", "0x1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed", check_prime::<g::curve25519_l_64::Fr>),
    ("p256_n_32 (Montgomery, scalar field)", "0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", check_prime::<g::p256_n_32::Fr>),
];

/// The binary fields under test: trinomials and pentanomials, small and large degrees, at 64-
/// and 32-bit limbs.
const BINARY_FIELDS: &[Entry] = &[
    (
        "sect163_64",
        "x^163+x^7+x^6+x^3+1",
        check_binary::<g::sect163_64::F163>,
    ),
    (
        "sect163_32",
        "x^163+x^7+x^6+x^3+1",
        check_binary::<g::sect163_32::F163>,
    ),
    (
        "sect233_64",
        "x^233+x^74+1",
        check_binary::<g::sect233_64::F233>,
    ),
    (
        "sect571_64",
        "x^571+x^10+x^5+x^2+1",
        check_binary::<g::sect571_64::F571>,
    ),
    (
        "sect571_32",
        "x^571+x^10+x^5+x^2+1",
        check_binary::<g::sect571_32::F571>,
    ),
    (
        "gf2_127_tri_64",
        "x^127+x+1",
        check_binary::<g::gf2_127_tri_64::F127>,
    ),
    (
        "gf2_8_penta_64",
        "x^8+x^4+x^3+x+1",
        check_binary::<g::gf2_8_penta_64::F8>,
    ),
    (
        "gf2_65_penta_32",
        "x^65+x^31+x^18+x^7+1",
        check_binary::<g::gf2_65_penta_32::F65>,
    ),
    (
        "gf2_1024_penta_64",
        "x^1024+x^522+x^115+x^63+1",
        check_binary::<g::gf2_1024_penta_64::F1024>,
    ),
];

/// Target `field_prime`: one operation of one prime field against num-bigint.
pub fn prime(data: &[u8]) {
    let mut input = Input::new(data);
    let pick = input.byte() as usize % PRIME_FIELDS.len();
    let (_, modulus, check) = PRIME_FIELDS[pick];
    check(&mut input, modulus);
}

/// Target `field_binary`: one operation of one binary field against the GF(2)\[x\] reference.
pub fn binary(data: &[u8]) {
    let mut input = Input::new(data);
    let pick = input.byte() as usize % BINARY_FIELDS.len();
    let (_, modulus, check) = BINARY_FIELDS[pick];
    check(&mut input, modulus);
}

/// The name of the field `field_prime` (or, with `binary`, `field_binary`) checks for an input
/// whose first byte is `first`.
pub fn field_name(first: u8, binary: bool) -> &'static str {
    let list = if binary { BINARY_FIELDS } else { PRIME_FIELDS };
    list[first as usize % list.len()].0
}

fn le_bytes(x: &BigUint, len: usize) -> Vec<u8> {
    let mut v = x.to_bytes_le();
    v.resize(len, 0);
    v
}

/// Decodes `raw` (little-endian, B bytes) as `F`, checking the decoder's verdict against the
/// oracle's; returns the element and its value.
fn decode_prime<F: PrimeField>(raw: &[u8], p: &BigUint) -> (F, BigUint) {
    let mut bytes = <F::Bytes as fieldgen_field::ByteArray>::zeroed();
    bytes.as_mut().copy_from_slice(raw);
    let x = BigUint::from_bytes_le(raw);
    let decoded: Option<F> = F::from_le_bytes(&bytes).into();
    assert_eq!(
        decoded.is_some(),
        &x < p,
        "from_le_bytes accepts {x:#x} ≥ p or refuses it < p (p = {p:#x})"
    );
    // Big-endian decoding of the reversed bytes agrees.
    let mut be = bytes;
    be.as_mut().reverse();
    let decoded_be: Option<F> = F::from_be_bytes(&be).into();
    assert_eq!(
        decoded, decoded_be,
        "from_be_bytes disagrees with from_le_bytes"
    );
    match decoded {
        Some(a) => {
            assert_eq!(a.to_le_bytes().as_ref(), raw, "to_le_bytes ∘ from_le_bytes");
            assert_eq!(a.to_be_bytes().as_ref(), be.as_ref(), "to_be_bytes");
            (a, x)
        }
        None => {
            let r = x % p;
            bytes.as_mut().copy_from_slice(&le_bytes(&r, raw.len()));
            let a = Option::<F>::from(F::from_le_bytes(&bytes)).expect("x mod p < p decodes");
            (a, r)
        }
    }
}

/// The modulus of `hex`, parsed once per text (the fuzzer calls this for every input).
fn modulus_of(hex: &'static str) -> BigUint {
    use std::collections::HashMap;
    use std::sync::Mutex;
    static CACHE: Mutex<Option<HashMap<&'static str, BigUint>>> = Mutex::new(None);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .get_or_insert_with(HashMap::new)
        .entry(hex)
        .or_insert_with(|| BigUint::parse_bytes(&hex.as_bytes()[2..], 16).expect("hex modulus"))
        .clone()
}

fn check_prime<F: PrimeField>(input: &mut Input, modulus: &'static str) {
    let p = modulus_of(modulus);
    assert_eq!(
        BigUint::from_bytes_le(F::modulus_le_bytes().as_ref()),
        p,
        "modulus_le_bytes"
    );
    let n = F::BYTES;
    let value = |a: &F| BigUint::from_bytes_le(a.to_le_bytes().as_ref());
    let op = input.byte();
    let (a, x) = decode_prime::<F>(&input.bytes(n), &p);
    let (b, y) = decode_prime::<F>(&input.bytes(n), &p);
    let name = F::MODULUS_HEX;
    match op % 14 {
        0 => assert_eq!(value(&(a + b)), (&x + &y) % &p, "{name}: add"),
        1 => assert_eq!(value(&(a - b)), (&x + &p - &y) % &p, "{name}: sub"),
        2 => assert_eq!(value(&(a * b)), (&x * &y) % &p, "{name}: mul"),
        3 => {
            assert_eq!(value(&a.square()), (&x * &x) % &p, "{name}: square");
            assert_eq!(value(&a.double()), (&x << 1) % &p, "{name}: double");
        }
        4 => assert_eq!(value(&-a), (&p - &x) % &p, "{name}: neg"),
        5 => {
            let k = input.u32();
            assert_eq!(value(&a.mul_small(k)), (&x * k) % &p, "{name}: mul_small");
            let v = input.u64();
            assert_eq!(
                value(&F::from_u64(v)),
                BigUint::from(v) % &p,
                "{name}: from_u64"
            );
        }
        6 => {
            let inv: Option<F> = a.invert().into();
            let inv_vt = a.invert_vartime();
            assert_eq!(inv, inv_vt, "{name}: invert and invert_vartime differ");
            if x.is_zero() {
                assert!(inv.is_none(), "{name}: 1/0");
            } else {
                // x·x⁻¹ ≡ 1 with x⁻¹ canonical (< p) names the inverse uniquely, for one
                // product instead of a modular exponentiation.
                let i = value(&inv.expect("nonzero x is invertible"));
                assert!(i < p, "{name}: invert not canonical");
                assert!(((&x * &i) % &p).is_one(), "{name}: invert");
            }
        }
        7 => {
            let root: Option<F> = a.sqrt().into();
            let euler = x.modpow(&((&p - 1u32) >> 1), &p);
            let is_square = x.is_zero() || euler.is_one();
            assert_eq!(root.is_some(), is_square, "{name}: sqrt of {x:#x} exists?");
            if let Some(r) = root {
                assert_eq!((value(&r) * value(&r)) % &p, x, "{name}: sqrt squared");
            }
            let want: i8 = if x.is_zero() {
                0
            } else if euler.is_one() {
                1
            } else {
                -1
            };
            assert_eq!(a.legendre(), want, "{name}: legendre");
        }
        8 => {
            let words = (input.byte() % 9) as usize;
            let exp: Vec<u64> = (0..words).map(|_| input.u64()).collect();
            let e = exp
                .iter()
                .rev()
                .fold(BigUint::zero(), |acc, &w| (acc << 64) + w);
            let want = x.modpow(&e, &p);
            assert_eq!(value(&a.pow(&exp)), want, "{name}: pow");
            assert_eq!(value(&a.pow_vartime(&exp)), want, "{name}: pow_vartime");
        }
        9 => {
            let k = u32::from(input.byte() % 20);
            let mut want = x.clone();
            for _ in 0..k {
                want = (&want * &want) % &p;
            }
            assert_eq!(value(&a.square_n(k)), want, "{name}: square_n({k})");
        }
        10 => {
            // Batch inversion of a, b, a·b, 0: zeros stay zero.
            let mut v = [a, b, a * b, F::ZERO];
            F::batch_invert(&mut v);
            for (got, of) in v.iter().zip([&x, &y, &((&x * &y) % &p), &BigUint::zero()]) {
                let got = value(got);
                if of.is_zero() {
                    assert!(got.is_zero(), "{name}: batch_invert(0)");
                } else {
                    assert!(
                        got < p && ((of * &got) % &p).is_one(),
                        "{name}: batch_invert"
                    );
                }
            }
        }
        11 => {
            let choice = subtle::Choice::from(input.byte() & 1);
            let s = F::conditional_select(&a, &b, choice);
            let want = if bool::from(choice) { &y } else { &x };
            assert_eq!(&value(&s), want, "{name}: conditional_select");
            assert_eq!(bool::from(a.ct_eq(&b)), x == y, "{name}: ct_eq");
            assert_eq!(a == b, x == y, "{name}: eq");
            assert_eq!(bool::from(a.is_zero()), x.is_zero(), "{name}: is_zero");
            assert_eq!(bool::from(a.is_odd()), x.bit(0), "{name}: is_odd");
        }
        12 => {
            let mut c = a;
            c += b;
            c -= a;
            c *= b;
            assert_eq!(value(&c), (&y * &y) % &p, "{name}: assign operators");
        }
        _ => {
            // x·y mod p reached through a chain of operations, without reduction in between
            // in the oracle: (x + y)² − (x − y)² = 4xy.
            let lhs = (a + b).square() - (a - b).square();
            assert_eq!(value(&lhs), (4u32 * &x * &y) % &p, "{name}: (a+b)²−(a−b)²");
        }
    }
}

fn check_binary<F: BinaryField>(input: &mut Input, poly: &str) {
    let o = Gf2Oracle::new(poly);
    assert_eq!(
        F::BYTES,
        o.bytes(),
        "encoding length of GF(2^{})",
        F::DEGREE
    );
    let m = F::DEGREE as u64;
    let n = F::BYTES;
    let value = |a: &F| BigUint::from_bytes_le(a.to_le_bytes().as_ref());
    let name = F::DEGREE;
    let op = input.byte();
    let decode = |input: &mut Input| {
        let raw = input.bytes(n);
        let mut bytes = <F::Bytes as fieldgen_field::ByteArray>::zeroed();
        bytes.as_mut().copy_from_slice(&raw);
        let x = BigUint::from_bytes_le(&raw);
        let decoded: Option<F> = F::from_le_bytes(&bytes).into();
        assert_eq!(
            decoded.is_some(),
            x.bits() <= m,
            "GF(2^{name}): from_le_bytes of {x:#x}"
        );
        let mut be = bytes;
        be.as_mut().reverse();
        assert_eq!(
            decoded,
            F::from_be_bytes(&be).into(),
            "GF(2^{name}): from_be_bytes"
        );
        match decoded {
            Some(a) => {
                assert_eq!(a.to_le_bytes().as_ref(), &raw[..], "GF(2^{name}): encoding");
                (a, x)
            }
            None => {
                // Keep the low m bits (the part a canonical encoding can hold).
                let r = x & ((BigUint::one() << m) - 1u32);
                bytes.as_mut().copy_from_slice(&le_bytes(&r, n));
                let a = Option::<F>::from(F::from_le_bytes(&bytes)).expect("< 2^m decodes");
                (a, r)
            }
        }
    };
    let (a, x) = decode(input);
    let (b, y) = decode(input);
    match op % 10 {
        0 => {
            assert_eq!(value(&(a + b)), &x ^ &y, "GF(2^{name}): add");
            assert_eq!(value(&(a - b)), &x ^ &y, "GF(2^{name}): sub");
            assert_eq!(value(&-a), x, "GF(2^{name}): neg");
            assert!(bool::from(a.double().is_zero()), "GF(2^{name}): double");
        }
        1 => assert_eq!(value(&(a * b)), o.mul(&x, &y), "GF(2^{name}): mul"),
        2 => assert_eq!(value(&a.square()), o.mul(&x, &x), "GF(2^{name}): square"),
        3 => {
            let k = u32::from(input.byte());
            assert_eq!(
                value(&a.square_n(k)),
                o.square_n(&x, k as usize),
                "GF(2^{name}): square_n({k})"
            );
        }
        4 => {
            let inv: Option<F> = a.invert().into();
            assert_eq!(inv, a.invert_vartime(), "GF(2^{name}): invert_vartime");
            if x.is_zero() {
                assert!(inv.is_none(), "GF(2^{name}): 1/0");
            } else {
                let i = inv.expect("nonzero is invertible");
                assert_eq!(
                    o.mul(&value(&i), &x),
                    BigUint::one(),
                    "GF(2^{name}): invert"
                );
            }
        }
        5 => {
            let r: Option<F> = a.sqrt().into();
            let r = r.expect("every element of GF(2^m) is a square");
            assert_eq!(o.mul(&value(&r), &value(&r)), x, "GF(2^{name}): sqrt");
        }
        6 => {
            assert_eq!(
                u8::from(bool::from(a.trace())),
                o.trace(&x),
                "GF(2^{name}): trace"
            );
            let z: Option<F> = a.solve_quadratic().into();
            assert_eq!(
                z.is_some(),
                o.trace(&x) == 0,
                "GF(2^{name}): z²+z = c solvable?"
            );
            if let Some(z) = z {
                let zv = value(&z);
                assert_eq!(o.mul(&zv, &zv) ^ zv, x, "GF(2^{name}): solve_quadratic");
            }
        }
        7 => {
            let words = (input.byte() % 5) as usize;
            let exp: Vec<u64> = (0..words).map(|_| input.u64()).collect();
            let want = o.pow(&x, &exp);
            assert_eq!(value(&a.pow(&exp)), want, "GF(2^{name}): pow");
            assert_eq!(
                value(&a.pow_vartime(&exp)),
                want,
                "GF(2^{name}): pow_vartime"
            );
        }
        8 => {
            let mut v = [a, b, F::ZERO];
            F::batch_invert(&mut v);
            for (got, want) in v.iter().zip([&x, &y]) {
                if want.is_zero() {
                    assert!(bool::from(got.is_zero()), "GF(2^{name}): batch_invert(0)");
                } else {
                    assert_eq!(o.mul(&value(got), want), BigUint::one(), "batch_invert");
                }
            }
            assert!(bool::from(v[2].is_zero()), "GF(2^{name}): batch_invert(0)");
        }
        _ => {
            let choice = subtle::Choice::from(input.byte() & 1);
            let s = F::conditional_select(&a, &b, choice);
            let want = if bool::from(choice) { &y } else { &x };
            assert_eq!(&value(&s), want, "GF(2^{name}): conditional_select");
            assert_eq!(bool::from(a.ct_eq(&b)), x == y, "GF(2^{name}): ct_eq");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check can fail: a field checked against another field's modulus is caught, on the
    /// modulus constant and on arithmetic alike.
    #[test]
    fn a_wrong_modulus_is_reported() {
        let n256 = "0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
        let data = [2u8, 5, 9, 1, 2, 3];
        let r = std::panic::catch_unwind(|| {
            check_prime::<g::p256_p_64::Fp>(&mut Input::new(&data), n256)
        });
        assert!(r.is_err());
        // sect163's field against the sect233 polynomial: the encoding lengths differ.
        let r = std::panic::catch_unwind(|| {
            check_binary::<g::sect163_64::F163>(&mut Input::new(&data), "x^233+x^74+1")
        });
        assert!(r.is_err());
    }

    /// Every field of the tables decodes and multiplies one fixed input against the oracle.
    #[test]
    fn every_field_runs() {
        for first in (0..=u8::MAX).take(PRIME_FIELDS.len()) {
            prime(&[first, 2, 7, 7, 7, 7, 7, 7]);
        }
        for first in (0..=u8::MAX).take(BINARY_FIELDS.len()) {
            binary(&[first, 1, 7, 7, 7, 7, 7, 7]);
        }
    }
}
