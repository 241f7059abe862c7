//! GLV/GLS scalar multiplication, MSM and hashing to G1/G2, against oracles independent of
//! the code under test: the split against num-bigint (Σ k_i·μ^i ≡ k mod r, the bound), every
//! multiplication path against the group layer's plain signed-window multiplication and
//! against ark-bn254, r·P = O, MSM against the sum of single multiplications and against
//! ark-bn254's MSM; `expand_message_xmd` against RFC 9380 Appendix K.1, the SvdW map and
//! hash to G1/G2 against gnark-crypto's BN254 vectors, and membership in G2 by r·Q = O.

// The peer crates are dev-dependencies on x86-64 only (see Cargo.toml).
#![cfg(target_arch = "x86_64")]

use ark_bn254::{Fr as ArkFr, G1Projective as ArkG1, G2Projective as ArkG2};
use ark_ec::{CurveGroup, PrimeGroup, VariableBaseMSM};
use ark_ff::{BigInteger, PrimeField as ArkPrimeField};
use fieldgen_bn::endo::{decompose_parts, g1_mul, g1_mul_vartime, g2_mul, g2_mul_vartime, phi};
use fieldgen_bn::groups::{G1Params, G2Params};
use fieldgen_bn::hash::{
    clear_cofactor_g2, encode_to_g1, encode_to_g2, expand_message_xmd, hash_to_field_fp,
    hash_to_field_fp2, hash_to_g1, hash_to_g2, map_to_curve_svdw, Svdw,
};
use fieldgen_bn::msm::{msm_g1_vartime, msm_g2_vartime};
use fieldgen_bn::{
    Bn254, Bn381, Bn462, BnParams, Error, Fp2, Fp254Bnb, G1Projective, G2Affine, G2Projective,
    G2SubgroupCheck,
};
use fieldgen_field::{Field, PrimeField};
use fieldgen_weierstrass::CurveParams;
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};
use serde_json::Value;

mod common;
use common::*;

fn le(k: &BigUint) -> Vec<u8> {
    k.to_bytes_le()
}

/// Scalars every path must get right: 0, 1, 2, small, r − 1, r − 2, λ, p mod r, randoms.
fn scalars<C: BnParams>(rng: &mut Rng, random: usize) -> Vec<BigUint> {
    let r = r_of::<C>();
    let mut v = vec![
        BigUint::zero(),
        BigUint::one(),
        BigUint::from(2u32),
        BigUint::from(0xffffu32),
        &r - 1u32,
        &r - 2u32,
        fr_big::<C>(&C::LAMBDA),
        p_of::<C>() % &r,
        (BigUint::one() << (r.bits() - 1)) + 1u32,
    ];
    v.extend((0..random).map(|_| rand_fr::<C>(rng)));
    v
}

fn check_split<C: BnParams, const D: usize>(
    dec: &fieldgen_bn::endo::Decomposition<C::Fr, D>,
    mu: &BigUint,
    rng: &mut Rng,
) {
    let r = r_of::<C>();
    let rb = BigInt::from(r.clone());
    // The split must actually shorten the scalar: about bits(r)/D bits per part.
    assert!(
        dec.half_bits as u64 <= r.bits() / D as u64 + 4,
        "{}",
        C::NAME
    );
    for k in scalars::<C>(rng, 50) {
        let parts = decompose_parts(&to_fr::<C>(&k), dec);
        let mut sum = BigInt::zero();
        let mut pw = BigInt::one();
        for (mag, neg) in parts {
            let m = BigUint::from_bytes_le(&mag);
            assert!(m.bits() < dec.half_bits as u64, "{} |k_i| bound", C::NAME);
            let v = if neg {
                -BigInt::from(m)
            } else {
                BigInt::from(m)
            };
            sum += v * &pw;
            pw = (pw * BigInt::from(mu.clone())) % &rb;
        }
        let got = ((sum % &rb) + &rb) % &rb;
        assert_eq!(got, BigInt::from(k), "{} split", C::NAME);
    }
}

fn endo_all<C: BnParams>(seed: u64) {
    let mut rng = Rng(seed);
    let r = r_of::<C>();
    check_split::<C, 2>(&C::GLV, &fr_big::<C>(&C::LAMBDA), &mut rng);
    check_split::<C, 4>(&C::GLS, &(p_of::<C>() % &r), &mut rng);

    // φ = [λ] on G1, and the multiplication paths agree with the plain window method.
    let p = G1Projective::<C>::GENERATOR.mul_le_bytes(&le(&rand_fr::<C>(&mut rng)));
    let lam = fr_big::<C>(&C::LAMBDA);
    assert_eq!(phi::<C>(&p), p.mul_le_bytes(&le(&lam)), "{}", C::NAME);
    let q = G2Projective::<C>::GENERATOR.mul_le_bytes(&le(&rand_fr::<C>(&mut rng)));
    for k in scalars::<C>(&mut rng, 6) {
        let kf = to_fr::<C>(&k);
        let want = p.mul_le_bytes(&le(&k));
        assert_eq!(g1_mul::<C>(&p, &kf), want, "{} G1 CT k = {k:x}", C::NAME);
        assert_eq!(g1_mul_vartime::<C>(&p, &kf), want, "{} G1 vartime", C::NAME);
        let want = q.mul_le_bytes_vartime(&le(&k));
        assert_eq!(g2_mul::<C>(&q, &kf), want, "{} G2 CT k = {k:x}", C::NAME);
        assert_eq!(g2_mul_vartime::<C>(&q, &kf), want, "{} G2 vartime", C::NAME);
    }
    // (r − 1)·P = −P (so r·P = O) through the endomorphism paths; the identity maps to itself.
    let rm1 = to_fr::<C>(&(&r - 1u32));
    assert_eq!(g1_mul::<C>(&p, &rm1), -p);
    assert_eq!(g2_mul::<C>(&q, &rm1), -q);
    assert_eq!(g2_mul_vartime::<C>(&q, &rm1), -q);
    let id1 = G1Projective::<C>::IDENTITY;
    assert!(bool::from(g1_mul::<C>(&id1, &rm1).is_identity()));
    assert!(bool::from(g1_mul_vartime::<C>(&id1, &rm1).is_identity()));
    let id2 = G2Projective::<C>::IDENTITY;
    assert!(bool::from(g2_mul::<C>(&id2, &rm1).is_identity()));
}

#[test]
fn endo_bn254() {
    endo_all::<Bn254>(1);
}
#[test]
fn endo_fp254bnb() {
    endo_all::<Fp254Bnb>(2);
}
#[test]
fn endo_bn381() {
    endo_all::<Bn381>(3);
}
#[test]
fn endo_bn462() {
    endo_all::<Bn462>(4);
}

/// Σ k_i·P_i by the plain constant-time window multiplication of the group layer, which
/// shares no code with the MSM (no split, no buckets): the oracle of the MSM tests.
fn naive_sum<P: CurveParams>(
    points: &[fieldgen_weierstrass::ProjectivePoint<P>],
    ks: &[BigUint],
) -> fieldgen_weierstrass::ProjectivePoint<P> {
    points.iter().zip(ks).fold(
        fieldgen_weierstrass::ProjectivePoint::IDENTITY,
        |acc, (p, k)| acc + p.mul_le_bytes(&le(k)),
    )
}

fn msm_all<C: BnParams>(seed: u64) {
    let mut rng = Rng(seed);
    let r = r_of::<C>();
    for n in [0usize, 1, 2, 3, 7, 64, 300] {
        let mut ks: Vec<BigUint> = (0..n).map(|_| rand_fr::<C>(&mut rng)).collect();
        let mut p1: Vec<G1Projective<C>> = (0..n)
            .map(|_| G1Projective::<C>::GENERATOR.mul_le_bytes(&rng.bytes(16)))
            .collect();
        let mut p2: Vec<G2Projective<C>> = (0..n)
            .map(|_| G2Projective::<C>::GENERATOR.mul_le_bytes(&rng.bytes(16)))
            .collect();
        // The awkward cases: k = 0, 1, r − 1; a repeated point with the same scalar (equal
        // points meet in every bucket); opposite points with the same scalar (they cancel
        // in every bucket); the identity among the points.
        match n {
            2 => {
                p1[1] = p1[0];
                p2[1] = p2[0];
                ks[1] = ks[0].clone();
            }
            3 => {
                p1[1] = -p1[0];
                p2[1] = -p2[0];
                ks[1] = ks[0].clone();
                ks[2] = &r - 1u32;
            }
            n if n >= 7 => {
                ks[0] = BigUint::zero();
                ks[1] = BigUint::one();
                ks[2] = &r - 1u32;
                p1[4] = p1[3];
                p2[4] = p2[3];
                ks[4] = ks[3].clone();
                p1[5] = -p1[3];
                p2[5] = -p2[3];
                ks[5] = ks[3].clone();
                p1[6] = G1Projective::<C>::IDENTITY;
                p2[6] = G2Projective::<C>::IDENTITY;
            }
            _ => {}
        }
        let kf: Vec<C::Fr> = ks.iter().map(to_fr::<C>).collect();
        assert_eq!(
            msm_g1_vartime::<C>(&p1, &kf).unwrap(),
            naive_sum(&p1, &ks),
            "{} G1 n = {n}",
            C::NAME
        );
        assert_eq!(
            msm_g2_vartime::<C>(&p2, &kf).unwrap(),
            naive_sum(&p2, &ks),
            "{} G2 n = {n}",
            C::NAME
        );
    }
    // One point and one scalar repeated 64 times: every part of every term lands in the
    // same bucket, so the buckets double; and r − 1 throughout gives −64·P.
    for k in [rand_fr::<C>(&mut rng), &r - 1u32, BigUint::one()] {
        let p1 = vec![G1Projective::<C>::GENERATOR.mul_le_bytes(&rng.bytes(16)); 64];
        let p2 = vec![G2Projective::<C>::GENERATOR.mul_le_bytes(&rng.bytes(16)); 64];
        let ks = vec![k; 64];
        let kf: Vec<C::Fr> = ks.iter().map(to_fr::<C>).collect();
        assert_eq!(msm_g1_vartime::<C>(&p1, &kf).unwrap(), naive_sum(&p1, &ks));
        assert_eq!(msm_g2_vartime::<C>(&p2, &kf).unwrap(), naive_sum(&p2, &ks));
    }
    // Only the identity, and only zero scalars.
    let k = [C::Fr::ONE, to_fr::<C>(&(&r - 1u32))];
    assert_eq!(
        msm_g1_vartime::<C>(&[G1Projective::<C>::IDENTITY; 2], &k).unwrap(),
        G1Projective::<C>::IDENTITY
    );
    assert_eq!(
        msm_g2_vartime::<C>(&[G2Projective::<C>::GENERATOR; 2], &[C::Fr::ZERO; 2]).unwrap(),
        G2Projective::<C>::IDENTITY
    );
    let one = [C::Fr::ONE];
    assert_eq!(
        msm_g1_vartime::<C>(&[], &one).err(),
        Some(Error::LengthMismatch)
    );
    assert_eq!(
        msm_g2_vartime::<C>(&[], &one).err(),
        Some(Error::LengthMismatch)
    );
    assert_eq!(
        msm_g1_vartime::<C>(&[G1Projective::<C>::GENERATOR; 2], &one).err(),
        Some(Error::LengthMismatch)
    );
}

#[test]
fn msm_bn254() {
    msm_all::<Bn254>(11);
}
#[test]
fn msm_fp254bnb() {
    msm_all::<Fp254Bnb>(13);
}
#[test]
fn msm_bn381() {
    msm_all::<Bn381>(14);
}
#[test]
fn msm_bn462() {
    msm_all::<Bn462>(12);
}

// --- ark-bn254 ---

type F = <Bn254 as BnParams>::Fp;
fn g1_bytes(p: &G1Projective<Bn254>) -> Vec<u8> {
    let a = p.to_affine();
    [a.x().unwrap().to_be_bytes(), a.y().unwrap().to_be_bytes()].concat()
}
fn ark_g1_bytes(p: &ArkG1) -> Vec<u8> {
    let a = p.into_affine();
    [
        a.x.into_bigint().to_bytes_be(),
        a.y.into_bigint().to_bytes_be(),
    ]
    .concat()
}
fn f2b(x: &Fp2<F>) -> Vec<u8> {
    [x.c0.to_be_bytes(), x.c1.to_be_bytes()].concat()
}
fn g2_bytes(p: &G2Projective<Bn254>) -> Vec<u8> {
    let a = p.to_affine();
    [f2b(&a.x().unwrap()), f2b(&a.y().unwrap())].concat()
}
fn ark_g2_bytes(p: &ArkG2) -> Vec<u8> {
    let a = p.into_affine();
    let f = |x: &ark_bn254::Fq2| {
        [
            x.c0.into_bigint().to_bytes_be(),
            x.c1.into_bigint().to_bytes_be(),
        ]
        .concat()
    };
    [f(&a.x), f(&a.y)].concat()
}

#[test]
fn arkworks_mul_and_msm() {
    let mut rng = Rng(21);
    let mut ks = Vec::new();
    for _ in 0..8 {
        let k = rand_fr::<Bn254>(&mut rng);
        let kf = to_fr::<Bn254>(&k);
        let ka = ArkFr::from_le_bytes_mod_order(&le(&k));
        let ours = g1_mul::<Bn254>(&G1Projective::GENERATOR, &kf);
        let theirs = ArkG1::generator() * ka;
        assert_eq!(g1_bytes(&ours), ark_g1_bytes(&theirs));
        let ours = g1_mul_vartime::<Bn254>(&G1Projective::GENERATOR, &kf);
        assert_eq!(g1_bytes(&ours), ark_g1_bytes(&theirs));
        let ours = g2_mul::<Bn254>(&G2Projective::GENERATOR, &kf);
        let theirs = ArkG2::generator() * ka;
        assert_eq!(g2_bytes(&ours), ark_g2_bytes(&theirs));
        let ours = g2_mul_vartime::<Bn254>(&G2Projective::GENERATOR, &kf);
        assert_eq!(g2_bytes(&ours), ark_g2_bytes(&theirs));
        ks.push(k);
    }
    // MSM over multiples j·G of the generators.
    let n = ks.len();
    let ours1: Vec<G1Projective<Bn254>> = (1..=n as u64)
        .map(|j| G1Projective::GENERATOR.mul_le_bytes(&j.to_le_bytes()))
        .collect();
    let ours2: Vec<G2Projective<Bn254>> = (1..=n as u64)
        .map(|j| G2Projective::GENERATOR.mul_le_bytes(&j.to_le_bytes()))
        .collect();
    let th1: Vec<_> = (1..=n as u64)
        .map(|j| (ArkG1::generator() * ArkFr::from(j)).into_affine())
        .collect();
    let th2: Vec<_> = (1..=n as u64)
        .map(|j| (ArkG2::generator() * ArkFr::from(j)).into_affine())
        .collect();
    let kf: Vec<_> = ks.iter().map(to_fr::<Bn254>).collect();
    let ka: Vec<ArkFr> = ks
        .iter()
        .map(|k| ArkFr::from_le_bytes_mod_order(&le(k)))
        .collect();
    assert_eq!(
        g1_bytes(&msm_g1_vartime::<Bn254>(&ours1, &kf).unwrap()),
        ark_g1_bytes(&ArkG1::msm(&th1, &ka).unwrap())
    );
    assert_eq!(
        g2_bytes(&msm_g2_vartime::<Bn254>(&ours2, &kf).unwrap()),
        ark_g2_bytes(&ArkG2::msm(&th2, &ka).unwrap())
    );
}

/// The MSM against ark-bn254's on random points and scalars of several sizes (the windows
/// and the sizes of the split differ with n).
#[test]
fn arkworks_msm_random() {
    let mut rng = Rng(22);
    for n in [1usize, 2, 7, 64, 300] {
        let ks: Vec<BigUint> = (0..n).map(|_| rand_fr::<Bn254>(&mut rng)).collect();
        let es: Vec<BigUint> = (0..n).map(|_| rand_fr::<Bn254>(&mut rng)).collect();
        let ka: Vec<ArkFr> = ks
            .iter()
            .map(|k| ArkFr::from_le_bytes_mod_order(&le(k)))
            .collect();
        let ea: Vec<ArkFr> = es
            .iter()
            .map(|e| ArkFr::from_le_bytes_mod_order(&le(e)))
            .collect();
        let kf: Vec<_> = ks.iter().map(to_fr::<Bn254>).collect();
        let ours1: Vec<G1Projective<Bn254>> = es
            .iter()
            .map(|e| G1Projective::GENERATOR.mul_le_bytes(&le(e)))
            .collect();
        let ours2: Vec<G2Projective<Bn254>> = es
            .iter()
            .map(|e| G2Projective::GENERATOR.mul_le_bytes(&le(e)))
            .collect();
        let th1: Vec<_> = ea
            .iter()
            .map(|e| (ArkG1::generator() * e).into_affine())
            .collect();
        let th2: Vec<_> = ea
            .iter()
            .map(|e| (ArkG2::generator() * e).into_affine())
            .collect();
        assert_eq!(
            g1_bytes(&msm_g1_vartime::<Bn254>(&ours1, &kf).unwrap()),
            ark_g1_bytes(&ArkG1::msm(&th1, &ka).unwrap()),
            "G1 n = {n}"
        );
        assert_eq!(
            g2_bytes(&msm_g2_vartime::<Bn254>(&ours2, &kf).unwrap()),
            ark_g2_bytes(&ArkG2::msm(&th2, &ka).unwrap()),
            "G2 n = {n}"
        );
    }
}

// --- hashing ---

fn load(name: &str) -> Value {
    let path = format!("{}/tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}
fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn expand_message_xmd_rfc9380_k1() {
    let v = load("rfc9380_k1_expand_message_xmd_sha256.json");
    let dst = v["dst"].as_str().unwrap().as_bytes();
    let cases = v["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 10);
    for c in cases {
        let msg = c["msg"].as_str().unwrap().as_bytes();
        let mut out = vec![0u8; usize::try_from(c["len_in_bytes"].as_u64().unwrap()).unwrap()];
        expand_message_xmd(msg, dst, &mut out).unwrap();
        assert_eq!(out, unhex(c["uniform_bytes"].as_str().unwrap()));
    }
    // Out-of-range inputs are errors.
    let mut out = [0u8; 32];
    assert_eq!(
        expand_message_xmd(b"", b"", &mut out),
        Err(Error::InvalidHashInput)
    );
    assert_eq!(
        expand_message_xmd(b"", &[b'a'; 256], &mut out),
        Err(Error::InvalidHashInput)
    );
    assert_eq!(
        expand_message_xmd(b"", b"d", &mut []),
        Err(Error::InvalidHashInput)
    );
    let mut long = vec![0u8; 255 * 32 + 1];
    assert_eq!(
        expand_message_xmd(b"", b"d", &mut long),
        Err(Error::InvalidHashInput)
    );
    assert!(expand_message_xmd(b"", b"d", &mut long[..255 * 32]).is_ok());
}

fn fp_hex(s: &str) -> F {
    to_fp::<Bn254>(&big(s))
}
fn fp2_hex(s: &str) -> Fp2<F> {
    let (a, b) = s.split_once(',').unwrap();
    Fp2::new(fp_hex(a), fp_hex(b))
}

#[test]
fn hash_to_g1_gnark_vectors() {
    let v = load("gnark_bn254_hash_svdw.json");
    let dst = v["g1"]["dst"].as_str().unwrap().as_bytes();
    for c in v["g1"]["cases"].as_array().unwrap() {
        let msg = c["msg"].as_str().unwrap().as_bytes();
        let mut u = [F::ZERO; 2];
        hash_to_field_fp::<Bn254>(msg, dst, &mut u).unwrap();
        assert_eq!(u[0], fp_hex(c["u0"].as_str().unwrap()));
        assert_eq!(u[1], fp_hex(c["u1"].as_str().unwrap()));
        let pt = |k: &str| {
            (
                fp_hex(c[k]["x"].as_str().unwrap()),
                fp_hex(c[k]["y"].as_str().unwrap()),
            )
        };
        for (ui, k) in [(u[0], "Q0"), (u[1], "Q1")] {
            let q = map_to_curve_svdw::<G1Params<Bn254>>(&ui, &Bn254::SVDW_G1);
            assert_eq!((q.x().unwrap(), q.y().unwrap()), pt(k), "{k}");
        }
        let p = hash_to_g1::<Bn254>(msg, dst).unwrap().to_affine();
        assert_eq!((p.x().unwrap(), p.y().unwrap()), pt("P"));
    }
}

#[test]
fn hash_to_g2_gnark_vectors() {
    let v = load("gnark_bn254_hash_svdw.json");
    // RFC 9380 §6.6.1's constants for Z = i on the twist y² = x³ + b′ (A = 0).
    let z = Fp2::new(F::ZERO, F::ONE);
    let gz = z.square() * z + <G2Params<Bn254> as CurveParams>::B;
    let three_z2 = z.square().double() + z.square();
    let c3 = (-(gz * three_z2)).sqrt().unwrap();
    let c3 = if bool::from(c3.sgn0()) { -c3 } else { c3 };
    let svdw_z_i = Svdw {
        z,
        c1: gz,
        c2: -z * Fp2::new(F::ONE.double(), F::ZERO).invert().unwrap(),
        c3,
        c4: -(gz.double().double()) * three_z2.invert().unwrap(),
    };
    let dst = v["g2"]["dst"].as_str().unwrap().as_bytes();
    for c in v["g2"]["cases"].as_array().unwrap() {
        let msg = c["msg"].as_str().unwrap().as_bytes();
        let mut u = [Fp2::<F>::ZERO; 2];
        hash_to_field_fp2::<Bn254>(msg, dst, &mut u).unwrap();
        assert_eq!(u[0], fp2_hex(c["u0"].as_str().unwrap()));
        assert_eq!(u[1], fp2_hex(c["u1"].as_str().unwrap()));
        let pt = |k: &str| {
            (
                fp2_hex(c[k]["x"].as_str().unwrap()),
                fp2_hex(c[k]["y"].as_str().unwrap()),
            )
        };
        // gnark-crypto's G2 vectors (at the commit in tests/vectors/README.md) give Q0, Q1 and
        // P *before* cofactor clearing, P = Q0 + Q1, none of order r (asserted, so a change in
        // that reading fails here), and their map used Z = i, where RFC 9380 Appendix H.1's
        // find_z_svdw (the first of 1, −1, 2, …; our generator, and gnark-crypto's later code)
        // gives Z = 1. So the map code is checked with Z = i's constants, derived here from
        // §6.6.1's definitions; the hash itself (Z = 1) has no independent point vector.
        let (p, q0, q1) = (pt("P"), pt("Q0"), pt("Q1"));
        let p: G2Affine<Bn254> = Option::from(G2Affine::<Bn254>::from_xy(p.0, p.1)).unwrap();
        assert!(!p.is_torsion_free_by_order_vartime());
        let m0 = map_to_curve_svdw::<G2Params<Bn254>>(&u[0], &svdw_z_i);
        let m1 = map_to_curve_svdw::<G2Params<Bn254>>(&u[1], &svdw_z_i);
        assert_eq!((m0.x().unwrap(), m0.y().unwrap()), q0, "Q0");
        assert_eq!((m1.x().unwrap(), m1.y().unwrap()), q1, "Q1");
        assert_eq!(
            m0.to_projective().add_mixed(&m1).to_affine(),
            p,
            "P = Q0 + Q1"
        );
        // With our Z = 1 the map gives other points, still on the twist.
        let ours = map_to_curve_svdw::<G2Params<Bn254>>(&u[0], &Bn254::SVDW_G2);
        assert_ne!((ours.x().unwrap(), ours.y().unwrap()), q0);
        assert!(bool::from(ours.is_on_curve()));
    }
}

fn hash_props<C: BnParams>() {
    let dst = b"FIELDGEN-TEST-BN_XMD:SHA-256_SVDW_RO_";
    let r = r_of::<C>();
    let rb = le(&r);
    let mut seen1 = Vec::new();
    let mut seen2 = Vec::new();
    for msg in [&b""[..], b"abc", b"abcdef0123456789", &[0x5a; 300]] {
        let p = hash_to_g1::<C>(msg, dst).unwrap();
        assert!(bool::from(p.to_affine().is_on_curve()));
        assert!(!bool::from(p.is_identity()));
        assert!(bool::from(p.mul_le_bytes_vartime(&rb).is_identity()));
        assert_eq!(hash_to_g1::<C>(msg, dst).unwrap(), p, "deterministic");
        let e = encode_to_g1::<C>(msg, dst).unwrap();
        assert!(bool::from(e.is_on_curve()) && !bool::from(e.is_identity()));
        let q = hash_to_g2::<C>(msg, dst).unwrap();
        let qa: G2Affine<C> = q.to_affine();
        assert!(!bool::from(q.is_identity()));
        assert!(
            qa.is_torsion_free_by_order_vartime(),
            "{} hash in G2",
            C::NAME
        );
        assert_eq!(hash_to_g2::<C>(msg, dst).unwrap(), q, "deterministic");
        let e2 = encode_to_g2::<C>(msg, dst).unwrap().to_affine();
        assert!(e2.is_torsion_free_by_order_vartime());
        // Another tag, another point.
        assert_ne!(hash_to_g1::<C>(msg, b"other").unwrap(), p);
        seen1.push(p);
        seen2.push(q);
    }
    for i in 0..seen1.len() {
        for j in 0..i {
            assert_ne!(seen1[i], seen1[j]);
            assert_ne!(seen2[i], seen2[j]);
        }
    }
    assert_eq!(
        hash_to_g1::<C>(b"m", b"").err(),
        Some(Error::InvalidHashInput)
    );
    assert_eq!(
        hash_to_g2::<C>(b"m", &[1; 256]).err(),
        Some(Error::InvalidHashInput)
    );
}

#[test]
fn hash_properties_all_curves() {
    hash_props::<Bn254>();
    hash_props::<Fp254Bnb>();
    hash_props::<Bn381>();
    hash_props::<Bn462>();
}

fn cofactor<C: BnParams>() {
    // On G2, ψ = [p], so the map is multiplication by z + 3z·p + z·p² + p³ mod r.
    let r = BigInt::from(r_of::<C>());
    let p = BigInt::from(p_of::<C>());
    let z = BigInt::from(C::Z_ABS) * if C::Z_NEG { -1 } else { 1 };
    let e: BigInt = (&z + 3 * &z * &p + &z * &p * &p + &p * &p * &p) % &r;
    let e: BigInt = (e + &r) % &r;
    let e = e.to_biguint().unwrap();
    assert!(!e.is_zero());
    let q = G2Projective::<C>::GENERATOR.mul_le_bytes(&[7, 1, 9]);
    assert_eq!(
        clear_cofactor_g2::<C>(&q),
        q.mul_le_bytes_vartime(&le(&e)),
        "{}",
        C::NAME
    );
    // A twist point outside G2 (x = k + i for the first k with a root) lands in G2.
    for k in 0u64.. {
        let x = Fp2::new(C::Fp::from_u64(k), C::Fp::ONE);
        let Some(y) = Option::<Fp2<C::Fp>>::from((x.square() * x + C::B_TWIST).sqrt()) else {
            continue;
        };
        let t: G2Affine<C> = Option::from(fieldgen_bn::G2Affine::<C>::from_xy(x, y)).unwrap();
        assert!(!t.is_torsion_free_by_order_vartime());
        let c = clear_cofactor_g2::<C>(&t.to_projective()).to_affine();
        assert!(!bool::from(c.is_identity()));
        assert!(c.is_torsion_free_by_order_vartime(), "{}", C::NAME);
        break;
    }
}

#[test]
fn cofactor_clearing_all_curves() {
    cofactor::<Bn254>();
    cofactor::<Fp254Bnb>();
    cofactor::<Bn381>();
    cofactor::<Bn462>();
}
