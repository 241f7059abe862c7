//! X25519 beside crrl and x25519-dalek, measured the way a loaded machine still allows: the
//! contenders alternate one call at a time and the fastest of many calls counts (one that was
//! never preempted). Ours runs twice: through `x25519` (the backend it dispatches to: the 4-way
//! AVX-512 IFMA ladder where the CPU has it) and forced onto the scalar ladder. Prints one
//! Markdown row per contender: best time, and the ratio to crrl and to x25519-dalek.
//!
//! `RUSTFLAGS='-C target-cpu=native' cargo run --release -p fieldgen-benches --features peers --example x25519_interleaved`

use std::hint::black_box;

use fieldgen_curve25519::{x25519, x25519_backend, x25519_with, X25519Backend};

/// Deterministic bytes (SplitMix64, one low byte per output).
fn bytes32(seed: u64) -> [u8; 32] {
    let mut out = [0u8; 32];
    fieldgen_test_support::SplitMix64(seed).fill_low_bytes(&mut out);
    out
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3000);
    let k = bytes32(1);
    let mut u = bytes32(2);
    u[31] &= 0x7f;
    let want = x25519_dalek::x25519(k, u);
    assert_eq!(x25519(k, u), want);
    assert_eq!(x25519_with(X25519Backend::Scalar, k, u), Some(want));
    assert_eq!(crrl::x25519::x25519(&u, &k), want);
    let t = fieldgen_benches::race(
        rounds,
        &mut [
            &mut || {
                black_box(x25519(black_box(k), black_box(u)));
            },
            &mut || {
                black_box(x25519_with(
                    X25519Backend::Scalar,
                    black_box(k),
                    black_box(u),
                ));
            },
            &mut || {
                black_box(crrl::x25519::x25519(black_box(&u), black_box(&k)));
            },
            &mut || {
                black_box(x25519_dalek::x25519(black_box(k), black_box(u)));
            },
        ],
    );
    println!("| X25519 | best of {rounds} | / crrl | / x25519-dalek |");
    println!("|---|---:|---:|---:|");
    let names = [
        format!("ours ({:?}, dispatched)", x25519_backend()),
        "ours (Scalar, forced)".to_string(),
        "crrl".to_string(),
        "x25519-dalek".to_string(),
    ];
    for (name, ns) in names.iter().zip(&t) {
        println!(
            "| {name} | {:.1} µs | {:.2} | {:.2} |",
            ns / 1e3,
            ns / t[2],
            ns / t[3]
        );
    }
}
