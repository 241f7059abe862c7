//! Generates, for the benchmark matrix, one module per field and per backend of ours that the
//! committed `generated/` crate does not pin: its `auto` files pick the fastest backend the CPU
//! has, so the matrix needs each backend on its own to show them side by side. Runs only with the
//! `peers` feature (the criterion bench is the only consumer), so a workspace `cargo test` pays
//! nothing for it.

use std::fmt::Write as _;
use std::path::PathBuf;

use generator::{generate_prime_field_for, PrimeFieldOptions, Target};

/// `(preset, type name, module stem)` of the Montgomery fields the matrix measures (the special
/// forms register the backend their committed modules use).
const FIELDS: &[(&str, &str, &str)] = &[
    ("bn254-p", "Fp", "bn254_p"),
    ("bn254-r", "Fr", "bn254_r"),
    ("bls12-381-p", "Fp", "bls12_381_p"),
    ("p256-p", "Fp", "p256_p"),
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut src = String::new();
    if std::env::var_os("CARGO_FEATURE_PEERS").is_some() {
        let x86_64 = std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64");
        let mut targets = vec![Target::Portable64];
        if x86_64 {
            targets.push(Target::X86_64Adx);
        }
        for &(preset, name, stem) in FIELDS {
            for &target in &targets {
                let mut options = PrimeFieldOptions::new(preset);
                options.name = name.to_string();
                let field = generate_prime_field_for(&options, target)
                    .unwrap_or_else(|e| panic!("{preset} for {}: {e}", target.name()));
                let module = format!("{stem}_{}", target.name().replace('-', "_"));
                writeln!(src, "pub mod {module} {{\n{}\n}}", field.to_file()).unwrap();
            }
        }
    }
    std::fs::write(out.join("backends.rs"), src).expect("write OUT_DIR/backends.rs");
}
