//! The `ff` feature: every preset's `ff::Field` / `ff::PrimeField` constants satisfy the trait's
//! documented relations, checked with num-bigint from the modulus string alone.

use core::convert::Infallible;

use ff::PrimeField;
use num_bigint::BigUint;
use num_traits::One;

/// The shared SplitMix64 stream as an infallible rand_core 0.10 generator: enough for
/// sampling test values.
struct SplitMix64(fieldgen_test_support::SplitMix64);

impl rand_core::TryRng for SplitMix64 {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.0.next_u32())
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.0.next_u64())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.0.fill_le_bytes(dst);
        Ok(())
    }
}

/// A generator that always fails: `try_random` must hand its error back.
struct Broken;

#[derive(Debug, PartialEq)]
struct RngDown;

impl core::fmt::Display for RngDown {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("generator unavailable")
    }
}

impl core::error::Error for RngDown {}

impl rand_core::TryRng for Broken {
    type Error = RngDown;
    fn try_next_u32(&mut self) -> Result<u32, RngDown> {
        Err(RngDown)
    }
    fn try_next_u64(&mut self) -> Result<u64, RngDown> {
        Err(RngDown)
    }
    fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), RngDown> {
        Err(RngDown)
    }
}

fn big<F: PrimeField>(x: &F) -> BigUint {
    BigUint::from_bytes_le(x.to_repr().as_ref())
}

fn check<F: PrimeField>(name: &str) {
    let p = BigUint::parse_bytes(F::MODULUS.trim_start_matches("0x").as_bytes(), 16).unwrap();
    assert_eq!(F::NUM_BITS as u64, p.bits(), "{name}");
    assert_eq!(F::CAPACITY, F::NUM_BITS - 1, "{name}");
    let p1 = &p - 1u32;
    let s = u32::try_from(p1.trailing_zeros().unwrap()).unwrap();
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
    assert_eq!(
        F::try_random(&mut Broken),
        Err(RngDown),
        "{name}: RNG error passed on"
    );
    let mut rng = SplitMix64(fieldgen_test_support::SplitMix64(
        p.iter_u64_digits().next().unwrap(),
    ));
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
