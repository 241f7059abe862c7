//! `modexp` and the CRT private operation by backend (`modexp_with`, `private_op_with`): the
//! backends alternate one operation at a time and the fastest run of each counts (a run that
//! was not preempted), so the ratios hold on a shared machine. No peers: see the benches
//! package's `rsa_interleaved` example for OpenSSL and num-bigint.
//!
//! `RUSTFLAGS="-C target-cpu=native" cargo run --release -p fieldgen-rsa --example rsa_backends`

use std::hint::black_box;
use std::time::Instant;

use fieldgen_rsa::{Mont1024, Mont1024CrtKey, Mont2048, Mont4096};

// Deterministic bytes (SplitMix64, one low byte per output).
use fieldgen_test_support::splitmix_bytes as bytes;

/// Best time in µs of each closure over `rounds` alternating runs.
fn race(rounds: usize, fs: &mut [Box<dyn FnMut() + '_>]) -> Vec<f64> {
    let mut best = vec![f64::MAX; fs.len()];
    for _ in 0..rounds {
        for (k, f) in fs.iter_mut().enumerate() {
            let t = Instant::now();
            f();
            best[k] = best[k].min(t.elapsed().as_nanos() as f64 / 1e3);
        }
    }
    best
}

const BACKENDS: [&str; 2] = ["x86_64-avx512ifma", "montgomery64"];

macro_rules! modexp {
    ($ty:ty, $bits:expr, $rounds:expr) => {{
        const B: usize = $bits / 8;
        let mut n = bytes($bits, B);
        n[0] |= 0x80;
        n[B - 1] |= 1;
        let ctx = <$ty>::new(&n.try_into().unwrap()).unwrap();
        let mut base = bytes($bits + 1, B);
        base[0] &= 0x7f;
        let base: [u8; B] = base.try_into().unwrap();
        let exp = bytes($bits + 2, B);
        let names: Vec<&str> = BACKENDS
            .into_iter()
            .filter(|v| ctx.modexp_with(v, &base, &exp).is_some())
            .collect();
        let mut fs: Vec<Box<dyn FnMut()>> = Vec::new();
        for v in names.clone() {
            let (ctx, base, exp) = (&ctx, &base, &exp);
            fs.push(Box::new(move || {
                black_box(ctx.modexp_with(v, black_box(base), black_box(exp)));
            }));
        }
        let t = race($rounds, &mut fs);
        for (v, t) in names.iter().zip(&t) {
            println!("| modexp {} | {v} | {t:.1} |", $bits);
        }
    }};
}

fn main() {
    println!("| operation | backend | best µs |");
    println!("|---|---|---:|");
    // Odd p, q with the top bit set: the timing does not depend on primality.
    let mut seed = 1;
    let key = loop {
        let mut p = bytes(seed, 128);
        let mut q = bytes(seed + 1000, 128);
        p[0] |= 0x80;
        p[127] |= 1;
        q[0] |= 0x80;
        q[127] |= 1;
        if let Some(k) =
            Mont1024CrtKey::from_primes(&p.try_into().unwrap(), &q.try_into().unwrap(), 65537)
        {
            break k;
        }
        seed += 1;
    };
    let c: [u8; 256] = {
        let mut c = bytes(99, 256);
        c[0] &= 0x3f;
        c.try_into().unwrap()
    };
    let names: Vec<&str> = ["x86_64-avx512ifma-x2", "x86_64-avx512ifma", "montgomery64"]
        .into_iter()
        .filter(|v| key.private_op_with(v, &c).is_some())
        .collect();
    let mut fs: Vec<Box<dyn FnMut()>> = Vec::new();
    for v in names.clone() {
        let (key, c) = (&key, &c);
        fs.push(Box::new(move || {
            black_box(key.private_op_with(v, black_box(c)));
        }));
    }
    let t = race(300, &mut fs);
    for (v, t) in names.iter().zip(&t) {
        println!("| RSA-2048 CRT private op | {v} | {t:.1} |");
    }
    let _ = Mont1024::modexp_backend();
    modexp!(Mont1024, 1024, 200);
    modexp!(Mont2048, 2048, 60);
    modexp!(Mont4096, 4096, 15);
}
