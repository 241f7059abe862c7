//! The x86-64 BMI2/ADX kernels compiled and run natively: non-preset random primes of 1..=12
//! limbs in every shape are generated through the CLI with `--target auto` (plus a few with
//! `--target x86_64-adx` and `--target portable64`), compiled together in one scratch crate
//! and checked there by
//!
//! - the shared oracle suite (`fieldgen_tests::prime_field_suite!`) on every field, which on a
//!   BMI2/ADX machine runs through the assembly, and
//! - differential tests: `mul` and `square` of the assembly against the portable code on edge
//!   and random inputs, through the fields' backend hooks.
//!
//! The build first relies on run-time detection (no target features); when the host has BMI2
//! and ADX it is built a second time with `-C target-feature=+bmi2,+adx` to check the
//! compile-time selection. On a host with BMI2 and ADX the test fails unless the assembly ran
//! for every field that has it.

use std::path::{Path, PathBuf};
use std::process::Command;

// The random primes of the library's kernel tests.
use fieldgen_test_support::{prime_of_shape, SplitMix64 as Rng, SHAPES, SHAPE_NAMES};

/// One generated field of the scratch crate.
struct Case {
    module: String,
    prime: String,
    target: &'static str,
    note: String,
}

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// Writes `text` unless the file already holds it (keeps mtimes, so reruns reuse the build).
fn write_if_changed(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap();
    }
}

fn host_has_adx() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("adx")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn cases() -> Vec<Case> {
    let mut rng = Rng(0x0ad_c0de);
    let mut cases = Vec::new();
    let mut push = |cases: &mut Vec<Case>, n: usize, shape: usize, target: &'static str| {
        let p = prime_of_shape(&mut rng, n, shape);
        let tag = match target {
            "auto" => String::new(),
            "x86_64-adx" => "_adx".into(),
            _ => "_portable".into(),
        };
        cases.push(Case {
            module: format!("f{n}_{shape}{tag}"),
            prime: format!("{p:#x}"),
            target,
            note: format!("{n} limbs, {}", SHAPE_NAMES[shape % SHAPES]),
        });
    };
    // Every limb count; the shapes rotate so each appears at several sizes.
    for n in 1..=12 {
        push(&mut cases, n, (3 * n) % SHAPES, "auto");
    }
    // The shapes that decide the carry words, at the sizes that matter most.
    for (n, shape) in [
        (4, 0),
        (4, 3),
        (4, 6),
        (6, 1),
        (6, 3),
        (7, 7),
        (8, 2),
        (12, 0),
    ] {
        push(&mut cases, n, shape, "auto");
    }
    push(&mut cases, 4, 1, "x86_64-adx");
    push(&mut cases, 9, 3, "x86_64-adx");
    push(&mut cases, 5, 0, "portable64");
    cases
}

/// The differential and backend checks for one field, as Rust source.
fn backend_test(case: &Case) -> String {
    let m = &case.module;
    let has_asm = case.target != "portable64";
    let has_portable = case.target != "x86_64-adx";
    format!(
        r#"
    #[test]
    fn {m}() {{
        type F = crate::{m}::F;
        check_backends!(F, "{m}", {has_asm}, {has_portable});
    }}
"#
    )
}

const BACKEND_CHECKS: &str = r#"
#[cfg(test)]
mod backends {
    /// Whether this CPU has BMI2 and ADX.
    fn host_has_adx() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("adx")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// SplitMix64.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// For a field type: the backend in use is the assembly exactly when it should be, the
    /// assembly equals the portable code on edge and random inputs (when the field has both),
    /// and squaring equals multiplication by itself. Prints one `ASM-CHECKED` line when the
    /// assembly ran, which the driver counts.
    macro_rules! check_backends {
        ($F:ty, $name:expr, $has_asm:expr, $has_portable:expr) => {{
            const B: usize = <$F>::MODULUS_LE_BYTES.len();
            let bits = <$F>::NUM_BITS as usize;
            let adx = host_has_adx();
            let asm_runs = $has_asm && adx;
            let portable = "portable64";
            let expected = if asm_runs { "x86_64-adx" } else { portable };
            assert_eq!(<$F>::backend(), expected, "{}: backend", $name);
            if cfg!(all(target_feature = "bmi2", target_feature = "adx")) {
                assert!(asm_runs || !$has_asm, "{}: built with bmi2+adx but no assembly", $name);
            }
            // Edge values: 0, 1, 2, p − 1, p − 2, and values whose limbs are 0 or all ones.
            let mut xs: Vec<$F> = vec![<$F>::ZERO, <$F>::ONE, <$F>::from_u64(2), -<$F>::ONE, -<$F>::from_u64(2)];
            let mut state = 0x5eed_u64 ^ (bits as u64);
            for k in 0..B {
                let mut bytes = [0u8; B];
                for (i, b) in bytes.iter_mut().enumerate() {
                    // Below 2^(bits−1) < p: always a valid encoding.
                    if 8 * i + 8 < bits { *b = if (i / 8 + k) % 2 == 0 { 0xff } else { 0 }; }
                }
                xs.push(Option::<$F>::from(<$F>::from_le_bytes(&bytes)).expect("below p"));
            }
            for _ in 0..200 {
                let mut bytes = [0u8; B];
                for b in bytes.iter_mut() { *b = next(&mut state) as u8; }
                for (i, b) in bytes.iter_mut().enumerate() {
                    let keep = (bits - 1).saturating_sub(8 * i).min(8);
                    *b &= ((1u16 << keep) - 1) as u8;
                }
                let x = Option::<$F>::from(<$F>::from_le_bytes(&bytes)).expect("below p");
                // Random values and their negations (close to p).
                xs.push(x);
                xs.push(-x);
            }
            let mut compared = 0usize;
            for (i, a) in xs.iter().enumerate() {
                let b = &xs[(i * 7 + 3) % xs.len()];
                let asm_mul = a.__mul_with_backend(b, "x86_64-adx");
                let asm_square = a.__square_with_backend("x86_64-adx");
                assert_eq!(asm_mul.is_some(), asm_runs, "{}: asm hook availability", $name);
                let reference_mul = a.__mul_with_backend(b, portable);
                let reference_square = a.__square_with_backend(portable);
                assert_eq!(reference_mul.is_some(), $has_portable, "{}: portable hook", $name);
                assert_eq!(a.square(), a.mul(a), "{}: square = mul by itself, {:?}", $name, a);
                if let (Some(x), Some(y)) = (asm_mul, reference_mul) {
                    assert_eq!(x, y, "{}: mul {:?} · {:?}", $name, a, b);
                    compared += 1;
                }
                if let (Some(x), Some(y)) = (asm_square, reference_square) {
                    assert_eq!(x, y, "{}: square {:?}", $name, a);
                    compared += 1;
                }
                if let Some(y) = reference_mul.or(asm_mul) {
                    assert_eq!(a.mul(b), y, "{}: dispatched mul {:?} · {:?}", $name, a, b);
                }
                if let Some(y) = reference_square.or(asm_square) {
                    assert_eq!(a.square(), y, "{}: dispatched square {:?}", $name, a);
                }
            }
            if asm_runs {
                assert!(compared > 0 || !$has_portable, "{}: nothing compared", $name);
                println!("ASM-CHECKED {} {}", $name, compared);
            }
        }};
    }
"#;

/// Generates the cases into `dir` and writes the scratch crate; returns the number of fields
/// with assembly.
fn write_crate(dir: &Path, cases: &[Case], with_suite: bool) -> usize {
    let ws = workspace();
    let mut lib = String::from("#![allow(dead_code)]\n");
    let mut with_asm = 0;
    for case in cases {
        let file = dir.join(format!("src/{}.rs", case.module));
        let out = Command::new(env!("CARGO_BIN_EXE_generator"))
            .args([
                "--prime",
                &case.prime,
                "--name",
                "F",
                "--target",
                case.target,
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{} ({}): {}",
            case.module,
            case.note,
            String::from_utf8_lossy(&out.stderr)
        );
        write_if_changed(&file, &String::from_utf8(out.stdout).unwrap());
        lib.push_str(&format!(
            "/// {}\n#[path = \"{}.rs\"]\npub mod {};\n",
            case.note, case.module, case.module
        ));
        if with_suite {
            lib.push_str(&format!(
                "fieldgen_tests::prime_field_suite!({m}_suite, crate::{m}::F, \"{}\", 64);\n",
                case.prime,
                m = case.module
            ));
        }
        if case.target != "portable64" {
            with_asm += 1;
        }
    }
    lib.push_str(BACKEND_CHECKS);
    for case in cases {
        lib.push_str(&backend_test(case));
    }
    lib.push_str("}\n");
    write_if_changed(&dir.join("src/lib.rs"), &lib);
    let suite_dep = if with_suite {
        format!(
            "fieldgen-tests = {{ path = {:?} }}\n",
            ws.join("tests").display().to_string()
        )
    } else {
        String::new()
    };
    let field_path = ws.join("field").display().to_string();
    write_if_changed(
        &dir.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"asm-scratch\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\nsubtle = \"2.6\"\nfieldgen-field = {{ path = {field_path:?} }}\n{suite_dep}\n\
             [profile.dev]\nopt-level = 1\ndebug = 0\n\n[workspace]\n"
        ),
    );
    std::fs::copy(ws.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    with_asm
}

/// Runs `cargo test --lib` in `dir` with `rustflags`; returns stdout, failing on any failure.
fn run_crate(dir: &Path, target_dir: &Path, rustflags: &str) -> String {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(["test", "--quiet", "--lib"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir)
        .env("FIELDGEN_CASES", "16")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env("RUSTFLAGS", rustflags);
    cmd.args(["--", "--nocapture"]);
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "the scratch crate (RUSTFLAGS={rustflags:?}) failed to build or failed its tests:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// How many fields reported that their assembly ran (libtest's progress dots may share the line).
fn asm_checked(stdout: &str) -> usize {
    stdout.matches("ASM-CHECKED ").count()
}

#[test]
fn random_primes_compile_run_and_match_the_portable_code() {
    let ws = workspace();
    let cases = cases();
    let dir = ws.join("target/asm-scratch/crate");
    let with_asm = write_crate(&dir, &cases, true);
    assert!(with_asm >= 20);

    // Run-time selection (CPUID): the whole suite plus the differential checks.
    // The same target directory as cli_compile.rs (same dependencies, profile and flags):
    // the suite's dependencies are compiled once for both.
    let stdout = run_crate(&dir, &ws.join("target/scratch-target"), "");
    let checked = asm_checked(&stdout);
    eprintln!(
        "run-time selection: suite and differential checks passed; assembly ran for {checked} of {with_asm} fields"
    );
    if host_has_adx() {
        assert_eq!(
            checked, with_asm,
            "this CPU has BMI2 and ADX, but the assembly ran for only {checked} of {with_asm} fields"
        );
    } else {
        eprintln!(
            "NOTE: this CPU lacks BMI2/ADX: only the portable fallback was exercised natively"
        );
    }

    // Compile-time selection (target features), where the host can run it: the same fields
    // and differential checks, without the suite.
    if host_has_adx() {
        let dir = ws.join("target/asm-scratch/crate-adx");
        write_crate(&dir, &cases, false);
        let stdout = run_crate(
            &dir,
            &ws.join("target/asm-scratch/target-adx"),
            "-C target-feature=+bmi2,+adx",
        );
        let checked = asm_checked(&stdout);
        eprintln!("compile-time selection: assembly ran for {checked} of {with_asm} fields");
        assert_eq!(
            checked, with_asm,
            "built with bmi2+adx, the assembly must run for every field that has it"
        );
    }
}
