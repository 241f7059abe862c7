//! The RSA comparisons of `benches/rsa.rs` measured the way a loaded machine still allows: each
//! contender runs one operation at a time, the contenders alternate, and the fastest of many
//! runs counts (a run that was never preempted). Criterion's means over seconds include the time
//! other processes took the CPU away, which on a shared 2-vCPU machine swamps the ratios.
//! Prints one Markdown row per comparison: best times and the ratio ours/peer.
//!
//! `RUSTFLAGS="-C target-cpu=native" cargo run --release -p fieldgen-benches --features peers --example rsa_interleaved`

use std::hint::black_box;

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

fn fmt(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.1} µs", ns / 1e3)
    }
}

macro_rules! modexp {
    ($bits:expr, $ours:ty, $limbs:expr, $rounds:expr) => {{
        const B: usize = $bits / 8;
        let mut n = bytes($bits, B);
        n[0] |= 0x80;
        n[B - 1] |= 1;
        let mut base = bytes($bits + 1, B);
        base[0] &= 0x7f;
        let exp = bytes($bits + 2, B);
        let ours = <$ours>::new(&fixed::<B>(&n)).unwrap();
        let (nb, bb, eb) = (
            BigUint::from_bytes_be(&n),
            BigUint::from_bytes_be(&base),
            BigUint::from_bytes_be(&exp),
        );
        let params =
            FixedMontyParams::<$limbs>::new(Odd::new(Uint::<$limbs>::from_be_slice(&n)).unwrap());
        let cb_base = FixedMontyForm::new(&Uint::<$limbs>::from_be_slice(&base), &params);
        let cb_exp = Uint::<$limbs>::from_be_slice(&exp);
        let want = bb.modpow(&eb, &nb);
        assert_eq!(
            BigUint::from_bytes_be(&ours.modexp(&fixed::<B>(&base), &exp)),
            want
        );
        let base_f = fixed::<B>(&base);
        let t = fieldgen_benches::race(
            $rounds,
            &mut [
                &mut || {
                    black_box(ours.modexp(black_box(&base_f), black_box(&exp)));
                },
                &mut || {
                    black_box(ours.modexp_with(
                        "montgomery64",
                        black_box(&base_f),
                        black_box(&exp),
                    ));
                },
                &mut || {
                    black_box(black_box(&bb).modpow(black_box(&eb), &nb));
                },
                &mut || {
                    black_box(black_box(&cb_base).pow(black_box(&cb_exp)));
                },
            ],
        );
        for (peer, k) in [
            ("num-bigint `modpow`", 2),
            ("crypto-bigint `FixedMontyForm::pow`", 3),
        ] {
            for (ours_name, j) in [(<$ours>::modexp_backend(), 0), ("montgomery64", 1)] {
                println!(
                    "| modexp {}-bit, full exponent ({ours_name}) | {} | {peer} | {} | {:.2} |",
                    $bits,
                    fmt(t[j]),
                    fmt(t[k]),
                    t[j] / t[k]
                );
            }
        }
    }};
}

fn main() {
    println!("| operation | fieldgen (best) | peer | peer (best) | fieldgen/peer |");
    println!("|---|---:|---|---:|---:|");
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
    // The default (interleaved IFMA where the CPU has it) and the other backends.
    let variants: Vec<&str> = ["x86_64-avx512ifma-x2", "x86_64-avx512ifma", "montgomery64"]
        .into_iter()
        .filter(|v| ours.private_op_with(v, &msg_be).is_some())
        .collect();
    for v in &variants {
        assert_eq!(
            BigUint::from_bytes_be(&ours.private_op_with(v, &msg_be).unwrap()),
            want
        );
    }
    let mut fs: Vec<Box<dyn FnMut()>> = vec![
        Box::new(|| {
            black_box(ours.private_op(black_box(&msg_be)));
        }),
        Box::new(|| {
            key.private_decrypt(black_box(&msg_be), &mut out, Padding::NONE)
                .unwrap();
        }),
    ];
    for v in variants.clone() {
        let ours = &ours;
        let msg_be = &msg_be;
        fs.push(Box::new(move || {
            black_box(ours.private_op_with(v, black_box(msg_be)));
        }));
    }
    let mut refs: Vec<&mut dyn FnMut()> = fs
        .iter_mut()
        .map(|f| &mut **f as &mut dyn FnMut())
        .collect();
    let t = fieldgen_benches::race(400, &mut refs);
    println!(
        "| RSA-2048 private operation (CRT: two 1024-bit modexps + Garner; {}) | {} | OpenSSL 3 (`openssl` crate, no padding) | {} | {:.2} |",
        Mont1024::modexp_backend(),
        fmt(t[0]),
        fmt(t[1]),
        t[0] / t[1]
    );
    for (j, v) in variants.iter().enumerate() {
        println!(
            "| RSA-2048 private operation (CRT, backend {v}) | {} | OpenSSL 3 | {} | {:.2} |",
            fmt(t[2 + j]),
            fmt(t[1]),
            t[2 + j] / t[1]
        );
    }
    modexp!(2048, Mont2048, 32, 60);
    modexp!(4096, Mont4096, 64, 20);
}
