//! Curve-level benchmarks: X25519 and Ed25519 of `fieldgen-curve25519` beside x25519-dalek,
//! ed25519-dalek, crrl and OpenSSL (system libcrypto through the `openssl` crate), in one
//! criterion run.
//!
//! Benchmark ids are `<group>/<op>/<column>` with the group and operations of
//! [`fieldgen_benches::CURVE_GROUPS`]; one criterion iteration is one operation (a batch of 64
//! signatures counts as one operation). Before measuring, every column's output is checked
//! against ours (same shared secret, public key, signature; verification accepts), so all
//! columns compute the same thing. Inputs are fixed byte strings, the same for every column.
//!
//! Build with `-C target-cpu=native`: the `report` command of this package does that.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fieldgen_benches::{ours_column, CURVE25519};
use fieldgen_curve25519 as ours;
use openssl::pkey::{Id, PKey};

/// Our column: `ours-avx512ifma` for an operation that runs on the AVX-512 IFMA lanes on this
/// CPU, else the multiplication backend of the generated 2^255 − 19 field.
fn ours_col(on_ifma_lanes: bool) -> String {
    if on_ifma_lanes {
        ours_column("avx512ifma")
    } else {
        ours_column(fieldgen_generated::curve25519_p_64::Fp::backend())
    }
}

/// Whether X25519 runs its 4-way IFMA ladder here.
fn x25519_on_lanes() -> bool {
    matches!(ours::x25519_backend(), ours::X25519Backend::Avx512Ifma)
}

/// Whether the Edwards point arithmetic (fixed-base [a]B for signing and X25519 base, the
/// verification equations) runs on the IFMA lanes here: `verify_backend` answers for both.
fn edwards_on_lanes() -> bool {
    matches!(
        ours::ed25519::verify_backend(),
        ours::ed25519::VerifyBackend::Avx512Ifma
    )
}

fn x25519_bench(c: &mut Criterion) {
    let k = fieldgen_benches::bytes32(1);
    let peer_secret = fieldgen_benches::bytes32(2);
    let u = ours::x25519_base(peer_secret);
    let expect = ours::x25519(k, u);
    let expect_pub = ours::x25519_base(k);

    // Cross-checks: every column computes the same values.
    assert_eq!(x25519_dalek::x25519(k, u), expect);
    assert_eq!(crrl::x25519::x25519(&u, &k), expect);
    assert_eq!(crrl::x25519::x25519_base(&k), expect_pub);
    let ossl_key = PKey::private_key_from_raw_bytes(&k, Id::X25519).unwrap();
    let ossl_peer = PKey::public_key_from_raw_bytes(&u, Id::X25519).unwrap();
    let ossl_dh = || {
        let mut d = openssl::derive::Deriver::new(&ossl_key).unwrap();
        d.set_peer(&ossl_peer).unwrap();
        let mut out = [0u8; 32];
        d.derive(&mut out).unwrap();
        out
    };
    assert_eq!(ossl_dh(), expect);
    let ossl_base = |k: &[u8; 32]| {
        PKey::private_key_from_raw_bytes(k, Id::X25519)
            .unwrap()
            .raw_public_key()
            .unwrap()
    };
    assert_eq!(ossl_base(&k), expect_pub.to_vec());

    let mut g = c.benchmark_group(CURVE25519.id);
    g.bench_function(
        BenchmarkId::new("x25519", ours_col(x25519_on_lanes())),
        |b| b.iter(|| ours::x25519(black_box(k), black_box(u))),
    );
    g.bench_function(BenchmarkId::new("x25519", "x25519-dalek"), |b| {
        b.iter(|| x25519_dalek::x25519(black_box(k), black_box(u)))
    });
    g.bench_function(BenchmarkId::new("x25519", "crrl"), |b| {
        b.iter(|| crrl::x25519::x25519(black_box(&u), black_box(&k)))
    });
    g.bench_function(BenchmarkId::new("x25519", "openssl"), |b| {
        b.iter(|| black_box(ossl_dh()))
    });

    g.bench_function(
        BenchmarkId::new("x25519-base", ours_col(edwards_on_lanes())),
        |b| b.iter(|| ours::x25519_base(black_box(k))),
    );
    g.bench_function(BenchmarkId::new("x25519-base", "x25519-dalek"), |b| {
        b.iter(|| {
            x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(black_box(k)))
                .to_bytes()
        })
    });
    g.bench_function(BenchmarkId::new("x25519-base", "crrl"), |b| {
        b.iter(|| crrl::x25519::x25519_base(black_box(&k)))
    });
    g.bench_function(BenchmarkId::new("x25519-base", "openssl"), |b| {
        b.iter(|| ossl_base(black_box(&k)))
    });
    g.finish();
}

fn ed25519_bench(c: &mut Criterion) {
    use ed25519_dalek::{Signer as _, Verifier as _};

    let seed = fieldgen_benches::bytes32(3);
    let msg = b"fieldgen benchmark message of a typical short length, 64 bytes..";
    let sk = ours::ed25519::SigningKey::from_bytes(&seed);
    let vk = sk.verifying_key();
    let sig = sk.sign(msg);
    let sig_bytes = sig.to_bytes();

    let dsk = ed25519_dalek::SigningKey::from_bytes(&seed);
    let dvk = dsk.verifying_key();
    let dsig = ed25519_dalek::Signature::from_bytes(&sig_bytes);
    assert_eq!(dsk.sign(msg).to_bytes(), sig_bytes);
    dvk.verify(msg, &dsig).unwrap();

    let csk = crrl::ed25519::PrivateKey::from_seed(&seed);
    let cvk = crrl::ed25519::PublicKey::decode(&vk.to_bytes()).unwrap();
    assert_eq!(csk.sign_raw(msg), sig_bytes);
    assert!(cvk.verify_raw(&sig_bytes, msg));

    let osk = PKey::private_key_from_raw_bytes(&seed, Id::ED25519).unwrap();
    let ovk = PKey::public_key_from_raw_bytes(&vk.to_bytes(), Id::ED25519).unwrap();
    let ossl_sign = || {
        openssl::sign::Signer::new_without_digest(&osk)
            .unwrap()
            .sign_oneshot_to_vec(msg)
            .unwrap()
    };
    let ossl_verify = |s: &[u8]| {
        openssl::sign::Verifier::new_without_digest(&ovk)
            .unwrap()
            .verify_oneshot(s, msg)
            .unwrap()
    };
    assert_eq!(ossl_sign(), sig_bytes.to_vec());
    assert!(ossl_verify(&sig_bytes));
    vk.verify(msg, &sig).unwrap();

    // The batch: 64 keys, messages and signatures, accepted by both verifiers.
    let batch = fieldgen_benches::Ed25519Batch::new(64);
    let (refs, sigs, vks, dsigs, dvks) = (
        batch.refs(),
        &batch.sigs,
        &batch.vks,
        &batch.dsigs,
        &batch.dvks,
    );

    let mut g = c.benchmark_group(CURVE25519.id);
    g.bench_function(
        BenchmarkId::new("ed25519-sign", ours_col(edwards_on_lanes())),
        |b| b.iter(|| sk.sign(black_box(msg))),
    );
    g.bench_function(BenchmarkId::new("ed25519-sign", "ed25519-dalek"), |b| {
        b.iter(|| dsk.sign(black_box(msg)))
    });
    g.bench_function(BenchmarkId::new("ed25519-sign", "crrl"), |b| {
        b.iter(|| csk.sign_raw(black_box(msg)))
    });
    g.bench_function(BenchmarkId::new("ed25519-sign", "openssl"), |b| {
        b.iter(|| black_box(ossl_sign()))
    });

    g.bench_function(
        BenchmarkId::new("ed25519-verify", ours_col(edwards_on_lanes())),
        |b| b.iter(|| vk.verify(black_box(msg), black_box(&sig)).is_ok()),
    );
    g.bench_function(BenchmarkId::new("ed25519-verify", "ed25519-dalek"), |b| {
        b.iter(|| dvk.verify(black_box(msg), black_box(&dsig)).is_ok())
    });
    g.bench_function(BenchmarkId::new("ed25519-verify", "crrl"), |b| {
        b.iter(|| cvk.verify_raw(black_box(&sig_bytes), black_box(msg)))
    });
    g.bench_function(BenchmarkId::new("ed25519-verify", "openssl"), |b| {
        b.iter(|| ossl_verify(black_box(&sig_bytes)))
    });

    g.bench_function(
        BenchmarkId::new("ed25519-batch64", ours_col(edwards_on_lanes())),
        |b| b.iter(|| ours::ed25519::verify_batch(black_box(&refs), &sigs, &vks).is_ok()),
    );
    g.bench_function(BenchmarkId::new("ed25519-batch64", "ed25519-dalek"), |b| {
        b.iter(|| ed25519_dalek::verify_batch(black_box(&refs), &dsigs, &dvks).is_ok())
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
}

criterion_group! {
    name = benches;
    config = config();
    targets = x25519_bench, ed25519_bench
}
criterion_main!(benches);
