//! Group operations, ECDH and ECDSA of our curves beside the RustCrypto p256, p384 and k256
//! crates, crrl and the system OpenSSL in the same run:
//! `cargo bench -p fieldgen-weierstrass --bench weierstrass`.
//! Rows are `<curve>/<operation>/<implementation>`; compare within a row group.

use criterion::{criterion_group, criterion_main, Criterion};
use fieldgen_weierstrass::curves::{Secp256k1, P224, P256, P384};
use fieldgen_weierstrass::ecdsa::{PublicKey, SecretKey};
use fieldgen_weierstrass::{PrimeGroup, ProjectivePoint};
use signature::{Signer, Verifier};
use std::hint::black_box;

const MSG: &[u8] = b"fieldgen weierstrass benchmark message";

fn key_bytes(len: usize, tweak: u8) -> Vec<u8> {
    // Octet i is (i mod 256)·29 + tweak, odd, then its top bit cleared.
    (0..=u8::MAX)
        .cycle()
        .take(len)
        .map(|i| i.wrapping_mul(29).wrapping_add(tweak) | 1)
        .map(|b| b & 0x7f)
        .collect()
}

macro_rules! ours {
    ($c:expr, $curve:ty, $label:literal, $len:expr) => {{
        let c: &mut Criterion = $c;
        let sk = SecretKey::<$curve>::from_bytes(&key_bytes($len, 3)).unwrap();
        let sk2 = SecretKey::<$curve>::from_bytes(&key_bytes($len, 7)).unwrap();
        let pk2: PublicKey<$curve> = *sk2.public_key();
        let p = *sk.public_key().as_point();
        let q = *pk2.as_point();
        let k = *sk2_scalar(&sk2);
        let sig = sk.sign_message(MSG);
        let pk = *sk.public_key();
        c.bench_function(concat!($label, "/add/fieldgen"), |b| {
            b.iter(|| black_box(p) + black_box(q))
        });
        c.bench_function(concat!($label, "/double/fieldgen"), |b| {
            b.iter(|| ProjectivePoint::double(&black_box(p)))
        });
        c.bench_function(concat!($label, "/mul_var_base/fieldgen"), |b| {
            b.iter(|| <$curve as PrimeGroup>::mul(&black_box(p), &black_box(k)))
        });
        c.bench_function(concat!($label, "/mul_fixed_base/fieldgen"), |b| {
            b.iter(|| <$curve as PrimeGroup>::mul_base(&black_box(k)))
        });
        c.bench_function(concat!($label, "/ecdh/fieldgen"), |b| {
            b.iter(|| sk.diffie_hellman(black_box(&pk2)).unwrap())
        });
        c.bench_function(concat!($label, "/sign/fieldgen"), |b| {
            b.iter(|| Signer::<_>::sign(&sk, black_box(MSG)))
        });
        let _: &fieldgen_weierstrass::ecdsa::Signature<$curve> = &sig;
        c.bench_function(concat!($label, "/verify/fieldgen"), |b| {
            b.iter(|| pk.verify(black_box(MSG), black_box(&sig)).unwrap())
        });
    }};
}

/// The secret scalar of a key, through the public encoding (benches only).
fn sk2_scalar<G: PrimeGroup>(sk: &SecretKey<G>) -> &'static G::Scalar {
    use fieldgen_field::{ByteArray, Field};
    let bytes = sk.to_bytes();
    let mut b = <G::Scalar as Field>::Bytes::zeroed();
    b.as_mut().copy_from_slice(&bytes);
    Box::leak(Box::new(
        Option::from(<G::Scalar as Field>::from_be_bytes(&b)).unwrap(),
    ))
}

macro_rules! peer {
    ($c:expr, $peer:ident, $label:literal, $name:literal, $len:expr) => {{
        #[allow(unused_imports)]
        use $peer::elliptic_curve::group::Group;
        let c: &mut Criterion = $c;
        let sk = $peer::SecretKey::from_slice(&key_bytes($len, 3)).unwrap();
        let sk2 = $peer::SecretKey::from_slice(&key_bytes($len, 7)).unwrap();
        let pk2 = sk2.public_key();
        let p = sk.public_key().to_projective();
        let q = pk2.to_projective();
        let k = *sk2.to_nonzero_scalar();
        let ssk = $peer::ecdsa::SigningKey::from_slice(&key_bytes($len, 3)).unwrap();
        let svk = *ssk.verifying_key();
        let sig: $peer::ecdsa::Signature = ssk.sign(MSG);
        c.bench_function(concat!($label, "/add/", $name), |b| {
            b.iter(|| black_box(p) + black_box(q))
        });
        c.bench_function(concat!($label, "/double/", $name), |b| {
            b.iter(|| black_box(p).double())
        });
        c.bench_function(concat!($label, "/mul_var_base/", $name), |b| {
            b.iter(|| black_box(p) * black_box(k))
        });
        c.bench_function(concat!($label, "/mul_fixed_base/", $name), |b| {
            b.iter(|| $peer::ProjectivePoint::mul_by_generator(&black_box(k)))
        });
        c.bench_function(concat!($label, "/ecdh/", $name), |b| {
            b.iter(|| sk.diffie_hellman(black_box(&pk2)))
        });
        c.bench_function(concat!($label, "/sign/", $name), |b| {
            b.iter(|| -> $peer::ecdsa::Signature { ssk.sign(black_box(MSG)) })
        });
        c.bench_function(concat!($label, "/verify/", $name), |b| {
            b.iter(|| svk.verify(black_box(MSG), black_box(&sig)).unwrap())
        });
    }};
}

/// secp256k1 without the endomorphism, in the same binary: the generic signed-window
/// multiplication and the two-scalar Straus that the GLV paths replaced (the "before" rows).
fn without_glv(c: &mut Criterion) {
    let sk = SecretKey::<Secp256k1>::from_bytes(&key_bytes(32, 3)).unwrap();
    let sk2 = SecretKey::<Secp256k1>::from_bytes(&key_bytes(32, 7)).unwrap();
    let p = *sk.public_key().as_point();
    let k = *sk2_scalar(&sk2);
    let kb = k.to_le_bytes();
    let (a, b) = (k.square().to_le_bytes(), (k + k.square()).to_le_bytes());
    let g = ProjectivePoint::<Secp256k1>::GENERATOR;
    c.bench_function("secp256k1/mul_var_base/fieldgen-noglv", |bn| {
        bn.iter(|| black_box(p).mul_le_bytes(black_box(&kb)))
    });
    c.bench_function("secp256k1/ecdh/fieldgen-noglv", |bn| {
        bn.iter(|| black_box(p).mul_le_bytes(black_box(&kb)).to_affine().x())
    });
    c.bench_function("secp256k1/double_mul/fieldgen-noglv", |bn| {
        bn.iter(|| g.double_mul_vartime(black_box(&a), &black_box(p), black_box(&b)))
    });
    let (sa, sb) = (k.square(), k + k.square());
    c.bench_function("secp256k1/double_mul/fieldgen", |bn| {
        bn.iter(|| {
            <Secp256k1 as PrimeGroup>::mul_base_add_vartime(
                black_box(&sa),
                &black_box(p),
                black_box(&sb),
            )
        })
    });
}

/// Pippenger on 256 P-256 points against 256 separate variable-time (wNAF) multiplications.
fn msm(c: &mut Criterion) {
    let g = ProjectivePoint::<P256>::GENERATOR;
    let points: Vec<_> = (0..=255u8)
        .map(|i| g.mul_le_bytes(&key_bytes(32, i)))
        .collect();
    let scalars: Vec<Vec<u8>> = (0..=255u8).map(|i| key_bytes(32, i ^ 0x5a)).collect();
    c.bench_function("P-256/msm_256/fieldgen-pippenger", |b| {
        b.iter(|| fieldgen_weierstrass::msm::msm_vartime(black_box(&points), black_box(&scalars)))
    });
    c.bench_function("P-256/msm_256/fieldgen-separate-wnaf", |b| {
        b.iter(|| {
            points
                .iter()
                .zip(&scalars)
                .fold(ProjectivePoint::IDENTITY, |acc, (p, k)| {
                    acc + black_box(p).mul_le_bytes_vartime(k)
                })
        })
    });
}

/// The system OpenSSL through the `openssl` crate: scalar multiplications by EC_POINT_mul,
/// ECDH by EVP_PKEY_derive, ECDSA by ECDSA_do_sign / ECDSA_do_verify on the message hashed
/// in the timed loop (as our rows hash it); OpenSSL's nonces are random, not RFC 6979.
fn openssl_rows<D: sha2::Digest>(c: &mut Criterion, label: &str, nid: openssl::nid::Nid) {
    use openssl::bn::{BigNum, BigNumContext};
    use openssl::derive::Deriver;
    use openssl::ec::{EcGroup, EcKey, EcPoint};
    use openssl::ecdsa::EcdsaSig;
    use openssl::pkey::PKey;
    let group = EcGroup::from_curve_name(nid).unwrap();
    let a = EcKey::generate(&group).unwrap();
    let b = EcKey::generate(&group).unwrap();
    let k = BigNum::from_slice(&key_bytes(32, 7)).unwrap();
    let mut ctx = BigNumContext::new().unwrap();
    let p = a.public_key().to_owned(&group).unwrap();
    c.bench_function(&format!("{label}/mul_var_base/openssl"), |bn| {
        bn.iter(|| {
            let mut r = EcPoint::new(&group).unwrap();
            r.mul2(&group, black_box(&p), black_box(&k), &mut ctx)
                .unwrap();
            r
        })
    });
    c.bench_function(&format!("{label}/mul_fixed_base/openssl"), |bn| {
        bn.iter(|| {
            let mut r = EcPoint::new(&group).unwrap();
            r.mul_generator2(&group, black_box(&k), &mut ctx).unwrap();
            r
        })
    });
    let (pa, pb) = (
        PKey::from_ec_key(a.clone()).unwrap(),
        PKey::from_ec_key(b).unwrap(),
    );
    c.bench_function(&format!("{label}/ecdh/openssl"), |bn| {
        bn.iter(|| {
            let mut d = Deriver::new(&pa).unwrap();
            d.set_peer(black_box(&pb)).unwrap();
            d.derive_to_vec().unwrap()
        })
    });
    c.bench_function(&format!("{label}/sign/openssl"), |bn| {
        bn.iter(|| EcdsaSig::sign(&D::digest(black_box(MSG)), &a).unwrap())
    });
    let sig = EcdsaSig::sign(&D::digest(MSG), &a).unwrap();
    c.bench_function(&format!("{label}/verify/openssl"), |bn| {
        bn.iter(|| assert!(sig.verify(&D::digest(black_box(MSG)), &a).unwrap()))
    });
}

/// crrl (P-256, secp256k1): its ECDSA takes a hash, hashed here inside the loop as in our
/// rows; it has no ECDH call, so the ECDH row is k·P and the compressed encoding of the
/// result (x normalised), the same work.
macro_rules! crrl_rows {
    ($c:expr, $m:ident, $label:literal) => {{
        use crrl::$m::{Point, PrivateKey, Scalar};
        use sha2::Digest;
        let c: &mut Criterion = $c;
        let sk = PrivateKey::from_seed(&key_bytes(32, 3));
        let pk = sk.to_public_key();
        let k = Scalar::decode_reduce(&key_bytes(32, 7));
        let p = Point::mulgen(&Scalar::decode_reduce(&key_bytes(32, 3)));
        c.bench_function(concat!($label, "/mul_var_base/crrl"), |b| {
            b.iter(|| black_box(p) * black_box(k))
        });
        c.bench_function(concat!($label, "/mul_fixed_base/crrl"), |b| {
            b.iter(|| Point::mulgen(&black_box(k)))
        });
        c.bench_function(concat!($label, "/ecdh/crrl"), |b| {
            b.iter(|| (black_box(p) * black_box(k)).encode_compressed())
        });
        c.bench_function(concat!($label, "/sign/crrl"), |b| {
            b.iter(|| sk.sign_hash(&sha2::Sha256::digest(black_box(MSG)), &[]))
        });
        let sig = sk.sign_hash(&sha2::Sha256::digest(MSG), &[]);
        c.bench_function(concat!($label, "/verify/crrl"), |b| {
            b.iter(|| assert!(pk.verify_hash(&sig, &sha2::Sha256::digest(black_box(MSG)))))
        });
    }};
}

fn benches(c: &mut Criterion) {
    ours!(c, P256, "P-256", 32);
    peer!(c, p256, "P-256", "p256", 32);
    openssl_rows::<sha2::Sha256>(c, "P-256", openssl::nid::Nid::X9_62_PRIME256V1);
    crrl_rows!(c, p256, "P-256");
    ours!(c, Secp256k1, "secp256k1", 32);
    without_glv(c);
    peer!(c, k256, "secp256k1", "k256", 32);
    openssl_rows::<sha2::Sha256>(c, "secp256k1", openssl::nid::Nid::SECP256K1);
    crrl_rows!(c, secp256k1, "secp256k1");
    ours!(c, P384, "P-384", 48);
    peer!(c, p384, "P-384", "p384", 48);
    openssl_rows::<sha2::Sha384>(c, "P-384", openssl::nid::Nid::SECP384R1);
    ours!(c, P224, "P-224", 28);
    openssl_rows::<sha2::Sha224>(c, "P-224", openssl::nid::Nid::SECP224R1);
    msm(c);
}

criterion_group! {
    name = group;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(1));
    targets = benches
}
criterion_main!(group);
