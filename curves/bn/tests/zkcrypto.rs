//! The zkcrypto traits: generic code written against `group`, `pairing` and `ff` computes the
//! same as the crate's own API and as ark-bn254 (BN254), and bilinearity holds through the
//! traits on all four curves.

// The peer crates are dev-dependencies on x86-64 only (see Cargo.toml).
#![cfg(target_arch = "x86_64")]

use ::pairing::{MillerLoopResult, MultiMillerLoop, PairingCurveAffine};
use ark_bn254::{Fr as ArkFr, G1Projective as ArkG1, G2Projective as ArkG2};
use ark_ec::{CurveGroup, PrimeGroup as _};
use ark_ff::{BigInteger, PrimeField as ArkPrimeField};
use fieldgen_bn::zk::{Bn, G1Aff, G2Aff, G1, G2};
use fieldgen_bn::{Bn254, Bn381, Bn462, BnParams, Fp254Bnb, G1Projective, G2Projective};
use group::{Curve, CurveAffine, Group, GroupEncoding, UncompressedEncoding};

/// Generic over any pairing engine: e(aP, bQ) = e(P, Q)·ab through the traits, the
/// Miller-loop path equal to the pairing, encodings round-trip.
#[allow(clippy::eq_op)] // P − P = O is one of the laws under test
fn engine_laws<E: MultiMillerLoop>(a: u64, b: u64) -> E::Gt
where
    E::G1: GroupEncoding,
    E::G2: GroupEncoding,
{
    let fa = E::Fr::from(a);
    let fb = E::Fr::from(b);
    let p = (E::G1::generator() * fa).to_affine();
    let q = (E::G2::generator() * fb).to_affine();
    let e = E::pairing(&p, &q);
    let g = E::pairing(&E::G1Affine::generator(), &E::G2Affine::generator());
    assert_eq!(e, g * (fa * fb));
    assert_eq!(p.pairing_with(&q), e);
    assert_eq!(q.pairing_with(&p), e);
    let prep = E::G2Prepared::from(q);
    let ml = E::multi_miller_loop(&[(&p, &prep), (&-p, &prep)]).final_exponentiation();
    assert!(bool::from(ml.is_identity()));
    assert_eq!(
        E::multi_miller_loop(&[(&p, &prep)]).final_exponentiation(),
        e
    );
    // Group laws and encodings through the traits.
    let p1 = E::G1::generator() * fa;
    assert_eq!(p1 + p1, p1.double());
    assert_eq!(p1 - p1, E::G1::identity());
    assert_eq!([p1, p1, p1].iter().sum::<E::G1>(), p1 * E::Fr::from(3));
    let enc = p1.to_bytes();
    assert_eq!(E::G1::from_bytes(&enc).unwrap(), p1);
    let q1 = E::G2::generator() * fb;
    assert_eq!(E::G2::from_bytes(&q1.to_bytes()).unwrap(), q1);
    let un = q.to_uncompressed();
    assert_eq!(E::G2Affine::from_uncompressed(&un).unwrap(), q);
    assert_eq!(
        E::G1Affine::from_uncompressed(&p.to_uncompressed()).unwrap(),
        p
    );
    e
}

#[test]
fn engine_all_curves() {
    engine_laws::<Bn<Bn254>>(12345, 678910);
    engine_laws::<Bn<Fp254Bnb>>(3, 5);
    engine_laws::<Bn<Bn381>>(7, 11);
    engine_laws::<Bn<Bn462>>(13, 17);
}

#[test]
fn same_as_our_api() {
    let e = engine_laws::<Bn<Bn254>>(6, 7);
    let p = G1Projective::<Bn254>::GENERATOR
        .mul_le_bytes(&[6])
        .to_affine();
    let q = G2Projective::<Bn254>::GENERATOR
        .mul_le_bytes(&[7])
        .to_affine();
    assert_eq!(e.0, fieldgen_bn::pairing::pairing::<Bn254>(&p, &q));
}

/// k·G through `group` and `ff` only.
fn mul_generic<G: Group>(k: &[u8]) -> G {
    let mut repr = <G::Scalar as ff::PrimeField>::Repr::default();
    repr.as_mut()[..k.len()].copy_from_slice(k);
    G::generator() * <G::Scalar as ff::PrimeField>::from_repr(repr).unwrap()
}

#[test]
fn same_as_arkworks() {
    type F = <Bn254 as BnParams>::Fp;
    let k = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x10\x32\x54\x76\x98\xba\xdc\xfe\x11\x22\x33\x44";
    let ka = ArkFr::from_le_bytes_mod_order(&k);
    let ours: G1<Bn254> = mul_generic(&k);
    let a = ours.to_affine();
    let theirs = (ArkG1::generator() * ka).into_affine();
    let be = |x: &F| x.to_be_bytes().to_vec();
    assert_eq!(be(&a.0.x().unwrap()), theirs.x.into_bigint().to_bytes_be());
    assert_eq!(be(&a.0.y().unwrap()), theirs.y.into_bigint().to_bytes_be());
    let ours: G2<Bn254> = mul_generic(&k);
    let a: G2Aff<Bn254> = ours.to_affine();
    let theirs = (ArkG2::generator() * ka).into_affine();
    let x = a.0.x().unwrap();
    assert_eq!(be(&x.c0), theirs.x.c0.into_bigint().to_bytes_be());
    assert_eq!(be(&x.c1), theirs.x.c1.into_bigint().to_bytes_be());
    let g: G1Aff<Bn254> = G1Aff::generator();
    assert_eq!(g.to_curve(), G1::<Bn254>::generator());
}
