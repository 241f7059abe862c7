//! RSA beside the `rsa` crate and the system OpenSSL, one run: PKCS#1 v1.5 sign (SHA-256) and
//! verify, OAEP (SHA-256) encrypt and decrypt at 1024, 2048, 3072 and 4096 bits on one
//! OpenSSL-generated key per size (imported into the other two), and key generation at 2048
//! bits (criterion's estimate over its samples; the median is in its report).
//!
//! `cargo bench -p fieldgen-rsa-schemes --bench rsa` (FIELDGEN_RSA_BENCH_SIZES="2048" to pick
//! sizes; FIELDGEN_RSA_BENCH_KEYGEN=0 to skip key generation).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fieldgen_rsa_schemes::{HashAlg, Oaep, Pkcs1v15Sign, RsaPrivateKey};
use openssl::encrypt::{Decrypter, Encrypter};
use openssl::hash::MessageDigest;
use openssl::pkey::PKey;
use openssl::rsa::{Padding, Rsa};
use openssl::sign::{Signer, Verifier};
use rand::SeedableRng;
use rsa::pkcs8::DecodePrivateKey;
use rsa::sha2::Sha256;

fn sizes() -> Vec<u32> {
    std::env::var("FIELDGEN_RSA_BENCH_SIZES")
        .unwrap_or_else(|_| "1024 2048 3072 4096".into())
        .split_whitespace()
        .map(|s| s.parse().expect("a size in bits"))
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut r = rand::rngs::StdRng::seed_from_u64(1);
    let msg = b"benchmark message";
    for bits in sizes() {
        let ossl = PKey::from_rsa(Rsa::generate(bits).unwrap()).unwrap();
        let der = ossl.private_key_to_pkcs8().unwrap();
        let ours = RsaPrivateKey::from_pkcs8_der(&der).unwrap();
        let theirs = rsa::PrivateKey::from_pkcs8_der(&der).unwrap();
        let their_pub = theirs.to_public_key();
        let v15 = Pkcs1v15Sign::new(HashAlg::Sha256);
        let oaep = Oaep::new(HashAlg::Sha256);
        let sig = v15.sign(&ours, msg).unwrap();
        let ct = oaep.encrypt(ours.public_key(), &mut r, msg).unwrap();

        let mut g = c.benchmark_group(format!("rsa{bits}"));
        g.sample_size(20);
        g.bench_function(BenchmarkId::new("sign", "fieldgen"), |b| {
            b.iter(|| v15.sign(&ours, black_box(msg)).unwrap())
        });
        g.bench_function(BenchmarkId::new("sign", "rsa"), |b| {
            b.iter(|| {
                theirs
                    .pkcs1v15_sign_with_rng::<Sha256, _>(&mut r, black_box(msg))
                    .unwrap()
            })
        });
        g.bench_function(BenchmarkId::new("sign", "openssl"), |b| {
            b.iter(|| {
                let mut s = Signer::new(MessageDigest::sha256(), &ossl).unwrap();
                s.update(black_box(msg)).unwrap();
                s.sign_to_vec().unwrap()
            })
        });
        g.bench_function(BenchmarkId::new("verify", "fieldgen"), |b| {
            b.iter(|| v15.verify(ours.public_key(), black_box(msg), &sig).unwrap())
        });
        g.bench_function(BenchmarkId::new("verify", "rsa"), |b| {
            b.iter(|| {
                their_pub
                    .pkcs1v15_verify::<Sha256>(black_box(msg), &sig)
                    .unwrap()
            })
        });
        g.bench_function(BenchmarkId::new("verify", "openssl"), |b| {
            b.iter(|| {
                let mut v = Verifier::new(MessageDigest::sha256(), &ossl).unwrap();
                v.update(black_box(msg)).unwrap();
                assert!(v.verify(&sig).unwrap());
            })
        });
        g.bench_function(BenchmarkId::new("encrypt", "fieldgen"), |b| {
            b.iter(|| {
                oaep.encrypt(ours.public_key(), &mut r, black_box(msg))
                    .unwrap()
            })
        });
        g.bench_function(BenchmarkId::new("encrypt", "rsa"), |b| {
            b.iter(|| {
                their_pub
                    .oaep_encrypt_with_rng::<Sha256, _>(&mut r, black_box(msg))
                    .unwrap()
            })
        });
        g.bench_function(BenchmarkId::new("encrypt", "openssl"), |b| {
            b.iter(|| {
                let mut e = Encrypter::new(&ossl).unwrap();
                e.set_rsa_padding(Padding::PKCS1_OAEP).unwrap();
                e.set_rsa_oaep_md(MessageDigest::sha256()).unwrap();
                e.set_rsa_mgf1_md(MessageDigest::sha256()).unwrap();
                let mut out = vec![0u8; e.encrypt_len(msg).unwrap()];
                e.encrypt(black_box(msg), &mut out).unwrap()
            })
        });
        g.bench_function(BenchmarkId::new("decrypt", "fieldgen"), |b| {
            b.iter(|| oaep.decrypt(&ours, &mut r, black_box(&ct)).unwrap())
        });
        g.bench_function(BenchmarkId::new("decrypt", "rsa"), |b| {
            b.iter(|| {
                theirs
                    .oaep_decrypt_with_rng::<Sha256, _>(&mut r, black_box(&ct))
                    .unwrap()
            })
        });
        g.bench_function(BenchmarkId::new("decrypt", "openssl"), |b| {
            b.iter(|| {
                let mut d = Decrypter::new(&ossl).unwrap();
                d.set_rsa_padding(Padding::PKCS1_OAEP).unwrap();
                d.set_rsa_oaep_md(MessageDigest::sha256()).unwrap();
                d.set_rsa_mgf1_md(MessageDigest::sha256()).unwrap();
                let mut out = vec![0u8; d.decrypt_len(&ct).unwrap()];
                d.decrypt(black_box(&ct), &mut out).unwrap()
            })
        });
        g.finish();
    }
    if std::env::var("FIELDGEN_RSA_BENCH_KEYGEN").as_deref() != Ok("0") {
        let mut g = c.benchmark_group("keygen2048");
        g.sample_size(10);
        g.bench_function("fieldgen", |b| {
            b.iter(|| RsaPrivateKey::generate(&mut r, 2048).unwrap())
        });
        g.bench_function("rsa", |b| {
            b.iter(|| rsa::PrivateKey::new(&mut r, 2048).unwrap())
        });
        g.bench_function("openssl", |b| b.iter(|| Rsa::generate(2048).unwrap()));
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
