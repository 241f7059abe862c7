//! Times the BN254 optimal ate pairing (Miller loop and final exponentiation) with
//! `std::time::Instant` only, so it runs wherever std does — in particular built for
//! wasm32-wasip1 and run under Node.js's WASI:
//!
//! ```text
//! cargo build --release --target wasm32-wasip1 -p fieldgen-bn --example pairing_time
//! node scripts/wasi-run.mjs target/wasm32-wasip1/release/examples/pairing_time.wasm [N]
//! ```
//!
//! N (default 50) pairings on distinct inputs, after 3 untimed ones; prints µs per pairing.
//! The result of each pairing feeds the next input's choice, so none can be skipped.

use fieldgen_bn::{pairing, Bn254, G1Projective, G2Projective};
use std::time::Instant;

fn main() {
    let n: u32 = match std::env::args().nth(1) {
        None => 50,
        Some(a) => match a.parse() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!("usage: pairing_time [N > 0]");
                std::process::exit(2);
            }
        },
    };
    // A handful of distinct points: multiples of the generators, by doubling (cheap).
    let mut ps = Vec::new();
    let mut qs = Vec::new();
    let (mut p, mut q) = (
        G1Projective::<Bn254>::GENERATOR,
        G2Projective::<Bn254>::GENERATOR,
    );
    for _ in 0..8 {
        ps.push(p.to_affine());
        qs.push(q.to_affine());
        p = p.double();
        q = q.double();
    }
    let mut pick = 0usize;
    let mut run = |k: u32| {
        for i in 0..k as usize {
            let e = pairing::<Bn254>(&ps[(i + pick) % ps.len()], &qs[i % qs.len()]);
            // Depend on the value: a one-bit digest of it moves the next choice.
            pick += usize::from(e == fieldgen_bn::Fp12::<Bn254>::ONE);
        }
    };
    run(3);
    let start = Instant::now();
    run(n);
    let us = start.elapsed().as_secs_f64() * 1e6 / f64::from(n);
    println!("BN254 pairing: {us:.0} µs per pairing ({n} pairings)");
}
