//! The `ff` feature: every preset's `ff::Field` / `ff::PrimeField` constants satisfy the trait's
//! documented relations, checked with num-bigint from the modulus string alone.

use ff::PrimeField;
use num_bigint::BigUint;
use num_traits::One;

fn big<F: PrimeField>(x: &F) -> BigUint {
    BigUint::from_bytes_le(x.to_repr().as_ref())
}

fn check<F: PrimeField>(name: &str) {
    let p = BigUint::parse_bytes(F::MODULUS.trim_start_matches("0x").as_bytes(), 16).unwrap();
    assert_eq!(F::NUM_BITS as u64, p.bits(), "{name}");
    assert_eq!(F::CAPACITY, F::NUM_BITS - 1, "{name}");
    let p1 = &p - 1u32;
    let s = p1.trailing_zeros().unwrap() as u32;
    assert_eq!(F::S, s, "{name}: 2-adicity");
    let t = &p1 >> s as usize;
    let g = big(&F::MULTIPLICATIVE_GENERATOR);
    // The generator is a non-residue; the root of unity is g^t of order exactly 2^s.
    assert_eq!(
        g.modpow(&(&p1 >> 1usize), &p),
        p1,
        "{name}: generator is a non-residue"
    );
    assert_eq!(
        big(&F::ROOT_OF_UNITY),
        g.modpow(&t, &p),
        "{name}: ROOT_OF_UNITY = g^t"
    );
    assert_eq!(
        big(&(F::ROOT_OF_UNITY * F::ROOT_OF_UNITY_INV)),
        BigUint::one(),
        "{name}"
    );
    assert_eq!(
        big(&F::DELTA),
        g.modpow(&(BigUint::one() << s as usize), &p),
        "{name}: DELTA"
    );
    assert_eq!(
        big(&(F::TWO_INV + F::TWO_INV)),
        BigUint::one(),
        "{name}: TWO_INV"
    );
    // Repr round trip and parity.
    let mut rng = rand_core::OsRng;
    for _ in 0..16 {
        let x = F::random(&mut rng);
        let v = big(&x);
        assert!(v < p, "{name}: random() below p");
        assert_eq!(F::from_repr(x.to_repr()).unwrap(), x);
        assert_eq!(bool::from(x.is_odd()), v.bit(0));
        // sqrt_ratio(x², 1) is a square root of x².
        let (is_sq, r) = F::sqrt_ratio(&x.square(), &F::ONE);
        assert!(bool::from(is_sq));
        assert_eq!(r.square(), x.square());
        // invert agrees with the oracle.
        if x != F::ZERO {
            assert_eq!(big(&x.invert().unwrap()), v.modpow(&(&p - 2u32), &p));
        }
    }
    assert!(bool::from(F::ZERO.is_zero()) && F::ONE == F::from(1u64));
}

macro_rules! presets {
    ($($module:ident :: $t:ident),* $(,)?) => {
        #[test]
        fn ff_constants_for_every_preset() {
            $(
                check::<fieldgen_generated::$module::$t>(stringify!($module));
            )*
        }
    };
}

presets!(
    curve25519_p_64::Fp,
    curve25519_p_32::Fp,
    curve25519_l_64::Fr,
    curve25519_l_32::Fr,
    p256_p_64::Fp,
    p256_p_32::Fp,
    p256_n_64::Fr,
    p256_n_32::Fr,
    secp256k1_p_64::Fp,
    secp256k1_p_32::Fp,
    secp256k1_n_64::Fr,
    secp256k1_n_32::Fr,
    bls12_381_p_64::Fp,
    bls12_381_p_32::Fp,
    bls12_381_r_64::Fr,
    bls12_381_r_32::Fr,
    bn254_p_64::Fp,
    bn254_p_32::Fp,
    bn254_r_64::Fr,
    bn254_r_32::Fr,
    fp254bnb_p_64::Fp,
    fp254bnb_p_32::Fp,
    fp254bnb_r_64::Fr,
    fp254bnb_r_32::Fr,
    bn381_p_64::Fp,
    bn381_p_32::Fp,
    bn381_r_64::Fr,
    bn381_r_32::Fr,
    bn462_p_64::Fp,
    bn462_p_32::Fp,
    bn462_r_64::Fr,
    bn462_r_32::Fr,
);
