//! Runs one Ed25519 operation a given number of times, for instruction counting under
//! `valgrind --tool=callgrind` (counts are stable on a loaded machine, unlike wall-clock time).
//!
//! `cargo run --release -p fieldgen-curve25519 --example ed25519_ops -- OP N` with OP one of
//! `sign`, `verify`, `batch64`, `keygen`, `none` (setup only). The cost of one operation is
//! (count(OP, N) − count(none, N)) / N, or, per function, callgrind's inclusive counts.

use fieldgen_curve25519::ed25519::{verify_batch, Signature, SigningKey, VerifyingKey};
use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let op = args.next().unwrap_or_else(|| "verify".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let msg = b"fieldgen callgrind message";
    let keys: Vec<SigningKey> = (0..64u8)
        .map(|i| SigningKey::from_bytes(&[i; 32]))
        .collect();
    let msgs: Vec<Vec<u8>> = (0..64u8).map(|i| vec![i; 40]).collect();
    let refs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
    let sigs: Vec<Signature> = keys.iter().zip(&refs).map(|(k, m)| k.sign(m)).collect();
    let vks: Vec<VerifyingKey> = keys.iter().map(|k| k.verifying_key()).collect();
    let sig = keys[0].sign(msg);
    let vk = vks[0];
    for _ in 0..n {
        match op.as_str() {
            "sign" => {
                black_box(keys[0].sign(black_box(msg)));
            }
            "verify" => assert!(vk.verify(black_box(msg), black_box(&sig)).is_ok()),
            "batch64" => assert!(verify_batch(black_box(&refs), &sigs, &vks).is_ok()),
            "keygen" => {
                black_box(SigningKey::from_bytes(black_box(&[9u8; 32])));
            }
            "none" => {}
            other => {
                eprintln!("error: unknown operation {other}");
                std::process::exit(2);
            }
        }
    }
}
