//! Differential tests against `ark-bn254` 0.6 on BN254: G1 and G2 scalar multiplication and
//! addition, and pairing values. arkworks' tower is the same as ours (Fp2 = Fp[u]/(u² + 1),
//! Fp6 over ξ = 9 + u, Fp12 over v) and its final exponentiation has the same convention, so
//! the twelve Fp coefficients compare one to one.

// The peer crates are dev-dependencies on x86-64 only (see Cargo.toml).
#![cfg(target_arch = "x86_64")]

use ark_bn254::{Fq, Fq2, Fr, G1Projective as ArkG1, G2Projective as ArkG2};
use ark_ec::pairing::Pairing;
use ark_ec::{AffineRepr, CurveGroup, PrimeGroup};
use ark_ff::{BigInteger, PrimeField as ArkPrimeField};
use fieldgen_bn::{
    pairing, pairing_prepared, Bn254, BnParams, Fp2, G1Projective, G2Prepared, G2Projective,
};

type F = <Bn254 as BnParams>::Fp;

fn conv(x: &F) -> Vec<u8> {
    x.to_be_bytes().to_vec()
}
fn ark(x: &Fq) -> Vec<u8> {
    x.into_bigint().to_bytes_be()
}
fn conv2(x: &Fp2<F>) -> Vec<u8> {
    [conv(&x.c0), conv(&x.c1)].concat()
}
fn ark2(x: &Fq2) -> Vec<u8> {
    [ark(&x.c0), ark(&x.c1)].concat()
}

struct Rng(u64);
impl Rng {
    fn bytes(&mut self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for b in out.iter_mut() {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            *b = self.0.to_le_bytes()[0];
        }
        out
    }
}

fn cases() -> usize {
    if std::env::var("FIELDGEN_FULL").is_ok() {
        20
    } else {
        3
    }
}

#[test]
fn g1_g2_against_ark() {
    let mut rng = Rng(0x1234_5678);
    for _ in 0..cases() {
        let k = rng.bytes();
        let kr = Fr::from_le_bytes_mod_order(&k);
        let ours = G1Projective::<Bn254>::GENERATOR
            .mul_le_bytes(&k)
            .to_affine();
        let theirs = (ArkG1::generator() * kr).into_affine();
        assert_eq!(conv(&ours.x().unwrap()), ark(&theirs.x().unwrap()));
        assert_eq!(conv(&ours.y().unwrap()), ark(&theirs.y().unwrap()));
        let ours2 = G2Projective::<Bn254>::GENERATOR
            .mul_le_bytes(&k)
            .to_affine();
        let theirs2 = (ArkG2::generator() * kr).into_affine();
        assert_eq!(conv2(&ours2.x().unwrap()), ark2(&theirs2.x().unwrap()));
        assert_eq!(conv2(&ours2.y().unwrap()), ark2(&theirs2.y().unwrap()));
        // Addition: kG + G.
        let sum = (ours.to_projective() + G1Projective::<Bn254>::GENERATOR).to_affine();
        let tsum = (theirs + ArkG1::generator()).into_affine();
        assert_eq!(conv(&sum.x().unwrap()), ark(&tsum.x().unwrap()));
    }
}

#[test]
fn pairing_against_ark() {
    let mut rng = Rng(0x9abc_def0);
    for _ in 0..cases() {
        let a = rng.bytes();
        let b = rng.bytes();
        let p = G1Projective::<Bn254>::GENERATOR
            .mul_le_bytes(&a)
            .to_affine();
        let q = G2Projective::<Bn254>::GENERATOR
            .mul_le_bytes(&b)
            .to_affine();
        let ours = pairing(&p, &q);
        assert_eq!(pairing_prepared(&p, &G2Prepared::new(&q)), ours);
        let tp = (ArkG1::generator() * Fr::from_le_bytes_mod_order(&a)).into_affine();
        let tq = (ArkG2::generator() * Fr::from_le_bytes_mod_order(&b)).into_affine();
        let theirs = ark_bn254::Bn254::pairing(tp, tq).0;
        let t = [
            theirs.c0.c0,
            theirs.c0.c1,
            theirs.c0.c2,
            theirs.c1.c0,
            theirs.c1.c1,
            theirs.c1.c2,
        ];
        let o = [
            ours.c0.c0, ours.c0.c1, ours.c0.c2, ours.c1.c0, ours.c1.c1, ours.c1.c2,
        ];
        for (x, y) in o.iter().zip(t.iter()) {
            assert_eq!(conv2(x), ark2(y));
        }
    }
}
