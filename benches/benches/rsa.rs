//! RSA sizes beside peers, in one criterion run: 2048- and 4096-bit modexp with a full-length
//! exponent (ours constant time, num-bigint `modpow`, crypto-bigint `FixedMontyForm::pow`, both
//! constant-time peers and not), the RSA-2048 private-key operation with the CRT (ours: two
//! 1024-bit modexps and Garner's recombination; OpenSSL 3 through the `openssl` crate,
//! `RSA_NO_PADDING` private decryption), and one 2048-bit Montgomery multiplication.
//! After the run it prints a Markdown table of medians and ratios ours/peer from criterion's
//! estimates.
//!
//! `RUSTFLAGS="-C target-cpu=native" cargo bench -p fieldgen-benches --features peers --bench rsa`

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::Criterion;
use crypto_bigint::modular::{FixedMontyForm, FixedMontyParams};
use crypto_bigint::{Odd, Uint};
use fieldgen_rsa::{Mont1024, Mont2048, Mont4096};
use num_bigint::BigUint;
use openssl::rsa::{Padding, Rsa};

/// Deterministic bytes (SplitMix64).
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    fieldgen_benches::splitmix_bytes(seed, len)
}

fn fixed<const N: usize>(v: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    out[N - v.len()..].copy_from_slice(v);
    out
}

macro_rules! modexp_group {
    ($c:expr, $bits:expr, $ours:ty, $limbs:expr) => {{
        const B: usize = $bits / 8;
        let mut n = bytes($bits, B);
        n[0] |= 0x80;
        n[B - 1] |= 1;
        let base = {
            let mut b = bytes($bits + 1, B);
            b[0] &= 0x7f;
            b
        };
        let exp = bytes($bits + 2, B);
        let ours = <$ours>::new(&fixed::<B>(&n)).unwrap();
        let nb = BigUint::from_bytes_be(&n);
        let (bb, eb) = (BigUint::from_bytes_be(&base), BigUint::from_bytes_be(&exp));
        let params =
            FixedMontyParams::<$limbs>::new(Odd::new(Uint::<$limbs>::from_be_slice(&n)).unwrap());
        let cb_base = FixedMontyForm::new(&Uint::<$limbs>::from_be_slice(&base), &params);
        let cb_exp = Uint::<$limbs>::from_be_slice(&exp);
        // All three agree before anything is timed.
        let want = bb.modpow(&eb, &nb);
        assert_eq!(
            BigUint::from_bytes_be(&ours.modexp(&fixed::<B>(&base), &exp)),
            want
        );
        assert_eq!(
            BigUint::from_bytes_be(&cb_base.pow(&cb_exp).retrieve().to_be_bytes()),
            want
        );
        let mut g = $c.benchmark_group(format!("rsa/modexp-{}", $bits));
        g.sample_size(10).measurement_time(Duration::from_secs(8));
        g.bench_function("fieldgen", |b| {
            b.iter(|| ours.modexp(black_box(&fixed::<B>(&base)), black_box(&exp)))
        });
        g.bench_function("num-bigint", |b| {
            b.iter(|| black_box(&bb).modpow(black_box(&eb), &nb))
        });
        g.bench_function("crypto-bigint", |b| {
            b.iter(|| black_box(&cb_base).pow(black_box(&cb_exp)))
        });
        g.finish();
    }};
}

fn main() {
    let mut c = Criterion::default()
        .configure_from_args()
        .warm_up_time(Duration::from_secs(2));

    modexp_group!(c, 2048, Mont2048, 32);
    modexp_group!(c, 4096, Mont4096, 64);

    // RSA-2048 private operation, CRT, on an OpenSSL-generated key.
    let key = Rsa::generate(2048).unwrap();
    let p = fixed::<128>(&key.p().unwrap().to_vec());
    let q = fixed::<128>(&key.q().unwrap().to_vec());
    let e = key
        .e()
        .to_vec()
        .iter()
        .fold(0u64, |a, b| (a << 8) | *b as u64);
    let ours = Mont1024::crt_key_from_primes(&p, &q, e).unwrap();
    let n = BigUint::from_bytes_be(&key.n().to_vec());
    let d = BigUint::from_bytes_be(&key.d().to_vec());
    let msg = BigUint::from_bytes_be(&bytes(7, 256)) % &n;
    let msg_be = fixed::<256>(&msg.to_bytes_be());
    let mut out = vec![0u8; 256];
    key.private_decrypt(&msg_be, &mut out, Padding::NONE)
        .unwrap();
    let want = msg.modpow(&d, &n);
    assert_eq!(BigUint::from_bytes_be(&out), want);
    assert_eq!(BigUint::from_bytes_be(&ours.private_op(&msg_be)), want);
    let mut g = c.benchmark_group("rsa/private-2048-crt");
    g.sample_size(30).measurement_time(Duration::from_secs(6));
    g.bench_function("fieldgen", |b| {
        b.iter(|| ours.private_op(black_box(&msg_be)))
    });
    g.bench_function("openssl", |b| {
        b.iter(|| {
            key.private_decrypt(black_box(&msg_be), &mut out, Padding::NONE)
                .unwrap()
        })
    });
    g.finish();

    // One 2048-bit Montgomery multiplication (latency: x ← x·y).
    let nb = {
        let mut n = bytes(2048, 256);
        n[0] |= 0x80;
        n[255] |= 1;
        n
    };
    let ctx = Mont2048::new(&fixed::<256>(&nb)).unwrap();
    let y = ctx.to_montgomery(&fixed::<256>(&bytes(3, 256)));
    let params = FixedMontyParams::<32>::new(Odd::new(Uint::<32>::from_be_slice(&nb)).unwrap());
    let cy = FixedMontyForm::new(&Uint::<32>::from_be_slice(&bytes(3, 256)), &params);
    let mut g = c.benchmark_group("rsa/mont-mul-2048");
    g.bench_function("fieldgen", |b| {
        let mut x = y;
        b.iter(|| {
            x = ctx.mul(black_box(&x), &y);
        })
    });
    g.bench_function("crypto-bigint", |b| {
        let mut x = cy;
        b.iter(|| {
            x = black_box(x) * cy;
        })
    });
    g.finish();

    c.final_summary();
    print_table();
}

/// Medians from criterion's estimates and the ratios ours/peer, as Markdown.
fn print_table() {
    let home = std::env::var_os("CRITERION_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
            target.join("criterion")
        });
    let median = |group: &str, f: &str| -> Option<f64> {
        let p = home
            .join(group.replace('/', "_"))
            .join(f)
            .join("new/estimates.json");
        let text = std::fs::read_to_string(p).ok()?;
        let v: serde_json::Value = serde_json::from_str(&text).ok()?;
        v["median"]["point_estimate"].as_f64()
    };
    println!("\n| operation | fieldgen | peer | peer time | fieldgen/peer |");
    println!("|---|---:|---|---:|---:|");
    for (group, label, peers) in [
        (
            "rsa/modexp-2048",
            "modexp 2048-bit, full exponent",
            &["num-bigint", "crypto-bigint"][..],
        ),
        (
            "rsa/modexp-4096",
            "modexp 4096-bit, full exponent",
            &["num-bigint", "crypto-bigint"][..],
        ),
        (
            "rsa/private-2048-crt",
            "RSA-2048 private operation (CRT)",
            &["openssl"][..],
        ),
        (
            "rsa/mont-mul-2048",
            "Montgomery mul, 2048-bit runtime modulus",
            &["crypto-bigint"][..],
        ),
    ] {
        let Some(ours) = median(group, "fieldgen") else {
            continue;
        };
        for peer in peers {
            if let Some(t) = median(group, peer) {
                println!(
                    "| {label} | {} | {peer} | {} | {:.2} |",
                    fmt(ours),
                    fmt(t),
                    ours / t
                );
            }
        }
    }
}

fn fmt(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}
