//! Runs X25519 a given number of times (default 1) on fixed inputs, for instruction counts under
//! `valgrind --tool=callgrind` (see the crate README): the count of one call is the difference
//! between runs with N and N + 1 calls, which removes process start-up.
//!
//! `cargo run --release -p fieldgen-curve25519 --example x25519_count -- [N] [MODE]`, MODE one of
//! `ladder` (X25519, the default), `base` (X25519 of the base point) and `inv-safegcd` (one
//! field inversion). With `time` after MODE it prints the best time
//! per call of 15 rounds of N calls instead.

use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let which = args.next().unwrap_or_else(|| "ladder".to_string());
    let timed = args.next().as_deref() == Some("time");
    let mut k = [0x5au8; 32];
    let mut u = fieldgen_curve25519::BASEPOINT_U;
    let mut best = f64::INFINITY;
    for _ in 0..if timed { 15 } else { 1 } {
        let t0 = std::time::Instant::now();
        for _ in 0..n {
            let out = match which.as_str() {
                "base" => fieldgen_curve25519::x25519_base(black_box(k)),
                "inv-safegcd" => fieldgen_curve25519::__measure::invert_safegcd(black_box(&u)),
                _ => fieldgen_curve25519::x25519(black_box(k), black_box(u)),
            };
            // Chain the calls so none can be elided (u stays canonical: the top bit is clear).
            u = out;
            u[31] &= 0x3f;
            k[0] ^= out[1];
        }
        best = best.min(t0.elapsed().as_secs_f64() / n as f64);
    }
    if timed {
        println!("{which}: {:.2} µs per call (best of 15 rounds)", best * 1e6);
    }
    println!("{:02x?}", &u[..4]);
}
