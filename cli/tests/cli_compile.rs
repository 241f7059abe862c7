//! End to end through the CLI: generate modules for non-preset primes (1 limb to 2048 bits, both
//! limb sizes, every multiplication algorithm), compile them together in a scratch crate, and run
//! the shared oracle suite on each.

use std::path::{Path, PathBuf};
use std::process::Command;

use generator::spec::is_probable_prime;
use num_bigint::BigUint;
use num_traits::One;

fn next_prime(mut x: BigUint) -> BigUint {
    x |= BigUint::one();
    while !is_probable_prime(&x) {
        x += 2u32;
    }
    x
}

/// A deterministic `bits`-bit starting point with the top bit set.
fn seeded(bits: usize, seed: u64) -> BigUint {
    let mut state = seed;
    let mut words = Vec::new();
    for _ in 0..bits.div_ceil(64) {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        words.push(state ^ (state >> 29));
    }
    let mut x = BigUint::from_bytes_le(
        &words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<_>>(),
    );
    x %= BigUint::one() << bits;
    x | (BigUint::one() << (bits - 1))
}

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn generated_modules_compile_and_pass_the_oracle_suite() {
    let cases: Vec<(String, String, u32, Option<&str>)> = vec![
        ("tiny3".into(), "3".into(), 64, None),
        // p = 5: Atkin's square root with the exponent (p − 5)/8 = 0.
        ("tiny5".into(), "5".into(), 32, None),
        ("f65537".into(), "65537".into(), 32, None),
        ("goldilocks".into(), "2^64-2^32+1".into(), 64, None),
        (
            "goldilocks32".into(),
            "2^64-2^32+1".into(),
            32,
            Some("product-scanning"),
        ),
        (
            "m127".into(),
            "2^127-1".into(),
            32,
            Some("product-scanning"),
        ),
        (
            "p384".into(),
            "2^384-2^128-2^96+2^32-1".into(),
            64,
            Some("product-scanning"),
        ),
        ("m521".into(), "2^521-1".into(), 64, Some("cios")),
        // Bit lengths at the edges of the inversion's shapes: 45 and 46 bits (the two
        // divsteps bounds), and multiples of its 62- and 30-bit signed limbs.
        (
            "b45".into(),
            next_prime(seeded(45, 3)).to_string(),
            32,
            None,
        ),
        (
            "b46".into(),
            next_prime(seeded(46, 4)).to_string(),
            64,
            None,
        ),
        (
            "b124".into(),
            next_prime(seeded(124, 5)).to_string(),
            64,
            None,
        ),
        (
            "b90".into(),
            next_prime(seeded(90, 6)).to_string(),
            32,
            None,
        ),
        (
            "r1024".into(),
            format!("{:#x}", next_prime(seeded(1024, 1))),
            32,
            None,
        ),
        (
            "r2048".into(),
            next_prime(seeded(2048, 2)).to_string(),
            64,
            None,
        ),
    ];
    let ws = workspace();
    let dir = ws.join("target/cli-scratch/crate");
    let _ = std::fs::remove_dir_all(dir.join("src"));
    let mut lib = String::from("#![allow(dead_code)]\n");
    for (module, prime, limb_bits, mul) in &cases {
        let file = dir.join(format!("src/{module}.rs"));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_generator"));
        cmd.args([
            "--prime",
            prime,
            "--name",
            "F",
            "--limb-bits",
            &limb_bits.to_string(),
            "--out",
        ])
        .arg(&file);
        if let Some(m) = mul {
            cmd.args(["--mul", m]);
        }
        std::fs::create_dir_all(dir.join("src")).unwrap();
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{module}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        lib.push_str(&format!("#[path = \"{module}.rs\"]\nmod {module};\n"));
        lib.push_str(&format!(
            "fieldgen_tests::prime_field_suite!({module}_suite, crate::{module}::F, \"{}\", {limb_bits});\n",
            prime_value(prime)
        ));
    }
    write(&dir.join("src/lib.rs"), &lib);
    let tests_path = ws.join("tests");
    write(
        &dir.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"cli-scratch\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\nsubtle = \"2.6\"\nfieldgen-field = {{ path = {:?} }}\nfieldgen-tests = {{ path = {:?} }}\n\n\
             [profile.dev]\nopt-level = 1\ndebug = 0\n\n[workspace]\n",
            ws.join("field").display().to_string(),
            tests_path.display().to_string()
        ),
    );
    std::fs::copy(ws.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let status = Command::new(env!("CARGO"))
        .args(["test", "--quiet", "--lib"])
        .current_dir(&dir)
        // Shared with x86_64_native.rs: the same dependencies, profile and flags.
        .env("CARGO_TARGET_DIR", ws.join("target/scratch-target"))
        .env("FIELDGEN_CASES", "16")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env("RUSTFLAGS", "")
        .status()
        .unwrap();
    assert!(
        status.success(),
        "the generated modules failed to compile or failed the suite"
    );
}

/// The modulus as the suite takes it: expressions are evaluated here with num-bigint, not by
/// the generator.
fn prime_value(text: &str) -> String {
    let two = BigUint::from(2u32);
    let v = match text {
        "2^64-2^32+1" => two.pow(64) - two.pow(32) + 1u32,
        "2^127-1" => two.pow(127) - 1u32,
        "2^384-2^128-2^96+2^32-1" => two.pow(384) - two.pow(128) - two.pow(96) + two.pow(32) - 1u32,
        "2^521-1" => two.pow(521) - 1u32,
        other => return other.to_string(),
    };
    v.to_string()
}
