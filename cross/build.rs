//! Generates the random-prime fields of this crate with the generator library (on the build
//! machine, for the target under test): for each limb count, a prime with the top bit of the top
//! limb set (no spare bit: the carry-word paths) and one with two or more spare bits (the
//! no-carry paths), at 64-bit limbs (1..=8 limbs) and 32-bit limbs (1..=8, 12 and 16 limbs).
//! Every field is generated with `--target auto`, so it carries each architecture's assembly.
//!
//! Writes `random_64.rs` / `random_32.rs` (one module per field) and `random_64_tests.rs` /
//! `random_32_tests.rs` (the oracle suite and the backend checks for each, with the modulus
//! printed in decimal by num-bigint). `FIELDGEN_CROSS_SEED` (a decimal u64) picks other primes.

use std::fmt::Write as _;
use std::path::PathBuf;

use generator::header::NARROWING_ALLOW;
use generator::spec::{is_probable_prime, LimbBits};
use generator::{generate_prime_field_for, PrimeFieldOptions, Target};
use num_bigint::BigUint;

#[path = "build_binary.rs"]
mod build_binary;

/// SplitMix64.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A prime of exactly `limbs` words of `w` bits: with the top bit set when `spare` is 0, else
/// with the top `spare` bits clear and the bit below them set.
fn random_prime(state: &mut u64, w: u32, limbs: usize, spare: u32) -> BigUint {
    let bits = w as usize * limbs;
    #[allow(
        clippy::cast_possible_truncation,
        reason = "random words: the low half of each generator output"
    )]
    let words: Vec<u32> = (0..bits.div_ceil(32)).map(|_| next(state) as u32).collect();
    let mut x = BigUint::from_slice(&words) % (BigUint::from(1u32) << bits);
    let top = bits - 1 - spare as usize;
    for k in top + 1..bits {
        x.set_bit(k as u64, false);
    }
    x.set_bit(top as u64, true);
    x.set_bit(0, true);
    while !is_probable_prime(&x) {
        x += 2u32;
    }
    assert_eq!(
        x.bits(),
        (top + 1) as u64,
        "the search stayed within the limb count"
    );
    x
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=FIELDGEN_CROSS_SEED");
    let seed: u64 = match std::env::var("FIELDGEN_CROSS_SEED") {
        Ok(s) => s
            .trim()
            .parse()
            .expect("FIELDGEN_CROSS_SEED is a decimal u64"),
        Err(_) => 0x6669_656c_6467_656e,
    };
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut state = seed;
    for (w, limb_bits, counts) in [
        (64u32, LimbBits::W64, &[1usize, 2, 3, 4, 5, 6, 7, 8][..]),
        (32, LimbBits::W32, &[1, 2, 3, 4, 5, 6, 7, 8, 12, 16][..]),
    ] {
        let mut fields = String::new();
        let mut tests = format!("// Random primes from seed {seed}.\n");
        let mut backend = String::from("fieldgen_cross::backend_tests! {\n");
        for &n in counts {
            for (tag, spare) in [("full", 0u32), ("spare", 2 + (next(&mut state) % 5) as u32)] {
                let p = random_prime(&mut state, w, n, spare);
                let module = format!("r{w}_n{n}_{tag}");
                let mut options = PrimeFieldOptions::new(&p.to_string());
                options.name = "F".into();
                options.limb_bits = limb_bits;
                let field = generate_prime_field_for(&options, Target::Auto)
                    .unwrap_or_else(|e| panic!("{module}: {e}"));
                writeln!(
                    fields,
                    "/// GF(p) for the random {}-bit prime p = {p}, {n} {w}-bit limbs.\n{NARROWING_ALLOW}\npub mod {module} {{\n{}\n}}",
                    p.bits(),
                    field.to_file()
                )
                .unwrap();
                writeln!(
                    tests,
                    "fieldgen_tests::prime_field_suite!({module}, fieldgen_cross::random_{w}::{module}::F, \"{p}\", {w});"
                )
                .unwrap();
                writeln!(
                    backend,
                    "    {module}: fieldgen_cross::random_{w}::{module}::F => {w},"
                )
                .unwrap();
            }
        }
        backend.push_str("}\n");
        tests.push_str(&backend);
        std::fs::write(out.join(format!("random_{w}.rs")), fields).unwrap();
        std::fs::write(out.join(format!("random_{w}_tests.rs")), tests).unwrap();
    }

    // Binary fields GF(2^m): random irreducible polynomials of several shapes and degrees.
    println!("cargo:rerun-if-changed=build_binary.rs");
    build_binary::write(&out, seed);
}
