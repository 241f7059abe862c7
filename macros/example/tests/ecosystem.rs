//! `ff = true` and `zeroize = true` on macro fields: the `ff` 0.14 and `zeroize` traits reached
//! through the user's own `ff` / `zeroize` dependencies, checked against num-bigint.

use ff::{Field, PrimeField};
use fieldgen_macros_example::{Fq, F163};
use num_bigint::BigUint;
use zeroize::Zeroize;

fn p() -> BigUint {
    BigUint::parse_bytes(
        b"30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
        16,
    )
    .unwrap()
}

fn big(x: &Fq) -> BigUint {
    BigUint::from_bytes_le(x.to_repr().as_ref())
}

/// Generic code over `ff::PrimeField`, as a user of the zkcrypto traits writes it.
fn inverse_of_sum<F: PrimeField>(a: F, b: F) -> Option<F> {
    Option::from((a + b).invert())
}

#[test]
fn ff_traits_agree_with_num_bigint() {
    let p = p();
    assert_eq!(
        BigUint::parse_bytes(Fq::MODULUS.trim_start_matches("0x").as_bytes(), 16).unwrap(),
        p
    );
    assert_eq!(<Fq as PrimeField>::NUM_BITS, 254);
    let (a, b) = (Fq::from(123_456_789u64), Fq::from(987_654_321u64));
    let inv = inverse_of_sum(a, b).unwrap();
    let sum = BigUint::from(123_456_789u64 + 987_654_321u64);
    assert_eq!(big(&inv), sum.modpow(&(&p - 2u32), &p));
    assert!(inverse_of_sum(Fq::ONE, -Fq::ONE).is_none());
    // Repr is little-endian; a value ≥ p is refused.
    let mut repr = <Fq as PrimeField>::Repr::default();
    repr.as_mut().copy_from_slice(&(&p - 1u32).to_bytes_le());
    assert_eq!(big(&Fq::from_repr(repr).unwrap()), &p - 1u32);
    repr.as_mut().copy_from_slice(&p.to_bytes_le());
    assert!(bool::from(Fq::from_repr(repr).is_none()));
    // S is the 2-adicity of p − 1 and the root of unity has order dividing 2^S, from the
    // modulus alone.
    let s = u32::try_from((&p - 1u32).trailing_zeros().unwrap()).unwrap();
    assert_eq!(<Fq as PrimeField>::S, s);
    let r = <Fq as PrimeField>::ROOT_OF_UNITY;
    assert_eq!(
        big(&r).modpow(&(BigUint::from(1u32) << s), &p),
        BigUint::from(1u32)
    );
    assert_eq!(Field::square(&a), a * a);
}

#[test]
fn zeroize_wipes_prime_and_binary_fields() {
    let mut x = -Fq::ONE;
    x.zeroize();
    assert_eq!(x, Fq::ZERO);
    let mut bytes = [0xffu8; 21];
    bytes[20] = 0x07; // below x^163
    let mut y = F163::from_le_bytes(&bytes).unwrap();
    assert_ne!(y, F163::ZERO);
    y.zeroize();
    assert_eq!(y, F163::ZERO);
}
