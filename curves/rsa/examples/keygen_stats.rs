//! The distribution of key-generation times (median and 90th percentile) of this crate, the
//! `rsa` crate and OpenSSL, over the same number of keys each, interleaved:
//!
//! `cargo run --release -p fieldgen-rsa-schemes --example keygen_stats -- 2048 50`
//! (bits, keys per library).

use std::time::{Duration, Instant};

use fieldgen_rsa_schemes::RsaPrivateKey;
use rand::SeedableRng;

fn percentile(v: &mut [Duration], p: f64) -> Duration {
    v.sort();
    // p in [0, 1]: the rank lies in 0..len, and a float to integer `as` saturates.
    #[allow(
        clippy::cast_possible_truncation,
        reason = "the rounded rank is a whole number in 0..len"
    )]
    let rank = ((v.len() - 1) as f64 * p).round() as usize;
    v[rank]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bits: usize = args
        .get(1)
        .map(|s| s.parse().expect("bits"))
        .unwrap_or(2048);
    let keys: usize = args
        .get(2)
        .map(|s| s.parse().expect("key count"))
        .unwrap_or(50);
    let mut r = rand::rngs::StdRng::seed_from_u64(7);
    let (mut ours, mut theirs, mut ossl) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..keys {
        let t = Instant::now();
        RsaPrivateKey::generate(&mut r, bits).expect("key");
        ours.push(t.elapsed());
        let t = Instant::now();
        rsa::PrivateKey::new(&mut r, bits).expect("key");
        theirs.push(t.elapsed());
        let t = Instant::now();
        openssl::rsa::Rsa::generate(u32::try_from(bits).unwrap()).expect("key");
        ossl.push(t.elapsed());
    }
    println!("{bits}-bit key generation over {keys} keys each: median, 90th percentile (ms)");
    for (name, v) in [
        ("fieldgen", &mut ours),
        ("rsa", &mut theirs),
        ("openssl", &mut ossl),
    ] {
        let med = percentile(v, 0.5);
        let p90 = percentile(v, 0.9);
        println!(
            "{name:>9}: {:>9.1} {:>9.1}",
            med.as_secs_f64() * 1e3,
            p90.as_secs_f64() * 1e3
        );
    }
}
