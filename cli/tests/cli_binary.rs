//! The `--poly` CLI: bad polynomials and options exit with code 2, one `error:` line, nothing on
//! stdout and no file; good ones write the module whose header names the command.

use std::path::PathBuf;
use std::process::Command;

fn generator() -> Command {
    Command::new(env!("CARGO_BIN_EXE_generator"))
}

fn scratch_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fieldgen-clibin-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn bad_polynomials_exit_2_with_one_line() {
    let cases: &[(&[&str], &str)] = &[
        // x^4+1 = (x+1)^4; x^163+1 is divisible by x+1; x^8+x^4+x^3+x^2+1 = (x^2+x+1)(...)?
        // Each is reducible by the oracle's definition, checked in the test below.
        (&["--poly", "x^4+1"], "reducible"),
        (&["--poly", "x^163+1"], "reducible"),
        (&["--poly", "x^163+x^7+x^6+x^3"], "reducible"),
        (&["--poly", "x^64+x^4+x^3+x+1+x^2"], "reducible"),
        (&["--poly", "x+1"], "degree 1"),
        (&["--poly", "1"], "degree 0"),
        (&["--poly", "x^1025+x+1"], "degree 1025"),
        (&["--poly", "x^3+x^3+1"], "appears twice"),
        (&["--poly", "x^3+y+1"], "cannot read the term"),
        (&["--poly", "x^3++1"], "cannot read the term"),
        (&["--poly", ""], "empty"),
        (&["--poly", "x^99999999+1"], "too large"),
        (&["--poly", "sect999"], "unknown binary-field preset"),
        (&["--poly", "sect163", "--limb-bits", "16"], "32 or 64"),
        (&["--poly", "sect163", "--name", "fn"], "type name"),
        (
            &["--poly", "sect163", "--target", "x86_64-adx"],
            "prime fields",
        ),
        // The target table: no binary-field kernel for these, and no silent substitute.
        (
            &["--poly", "sect163", "--target", "armv7"],
            "no ARMv7 kernel",
        ),
        (
            &["--poly", "sect163", "--target", "aarch64"],
            "prime fields",
        ),
        (
            &[
                "--poly",
                "sect163",
                "--target",
                "sparc32",
                "--limb-bits",
                "64",
            ],
            "contradicts",
        ),
        (
            &[
                "--poly",
                "sect163",
                "--target",
                "portable32",
                "--limb-bits",
                "64",
            ],
            "contradicts",
        ),
        (
            &["--poly", "sect163", "--prime", "2^255-19"],
            "cannot be used with",
        ),
        (
            &["--poly", "sect163", "--mul", "cios"],
            "cannot be used with",
        ),
    ];
    for (args, needle) in cases {
        let dir = scratch_dir("bad");
        let out_file = dir.join("field.rs");
        let output = generator()
            .args(*args)
            .arg("--out")
            .arg(&out_file)
            .output()
            .unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?} wrote to stdout");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr:?}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(
            stderr.contains(needle),
            "{args:?}: `{stderr}` lacks `{needle}`"
        );
        assert!(
            std::fs::read_dir(&dir).unwrap().next().is_none(),
            "{args:?} left a file"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The reducible inputs above really are reducible: each has a factor found by trial
/// division with the test's own polynomial remainder over BigUint.
#[test]
fn the_rejected_polynomials_have_factors() {
    use fieldgen_tests::binary::poly_rem;
    use num_bigint::BigUint;
    use num_traits::Zero;
    let bits = |exps: &[u32]| {
        let mut v = BigUint::zero();
        for &e in exps {
            v.set_bit(e as u64, true);
        }
        v
    };
    for (f, factor) in [
        (bits(&[4, 0]), bits(&[1, 0])),
        (bits(&[163, 0]), bits(&[1, 0])),
        (bits(&[163, 7, 6, 3]), bits(&[1])),
        (bits(&[64, 4, 3, 2, 1, 0]), bits(&[1, 0])),
    ] {
        assert!(poly_rem(&f, &factor).is_zero(), "{f:#x} mod {factor:#x}");
    }
}

#[test]
fn preset_and_polynomial_generate_the_same_field() {
    let dir = scratch_dir("ok");
    let file = dir.join("f.rs");
    let by_poly = generator()
        .args(["--poly", "x^163+x^7+x^6+x^3+1", "--name", "F163", "--out"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(by_poly.status.success(), "{by_poly:?}");
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.contains(
        "// Command: cargo run -p generator -- --poly x^163+x^7+x^6+x^3+1 --name F163 --limb-bits 64"
    ));
    assert!(written.contains("pub struct F163("));
    let by_preset = generator().args(["--poly", "sect163k1"]).output().unwrap();
    assert!(by_preset.status.success());
    let preset_text = String::from_utf8(by_preset.stdout).unwrap();
    // The same code: only the header and the type's first doc line (which names the preset)
    // differ.
    let code = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with("//") && !l.starts_with("/// An element"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(code(&written), code(&preset_text));
    let list = generator().arg("--list-presets").output().unwrap();
    let text = String::from_utf8(list.stdout).unwrap();
    for name in ["sect163", "sect571", "gf2-155", "x^409+x^87+1"] {
        assert!(text.contains(name), "{name} missing from --list-presets");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// sparc32 and wasm32 serve binary fields through the portable 32-bit code (the target
/// table's documented mapping): the module is the portable32 one, and only the command line
/// names the target asked for.
#[test]
fn sparc32_and_wasm32_binary_fields_are_the_portable32_module() {
    let run = |target: &str| {
        let out = generator()
            .args(["--poly", "sect233", "--target", target])
            .output()
            .unwrap();
        assert!(out.status.success(), "{target}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let portable = run("portable32");
    assert!(portable.contains("// Backends: portable32"));
    for target in ["sparc32", "wasm32"] {
        let text = run(target);
        assert!(text.contains(&format!("--limb-bits 32 --target {target}\n")));
        let without_command = |t: &str| {
            t.lines()
                .filter(|l| !l.starts_with("// Command:"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(
            without_command(&text),
            without_command(&portable),
            "{target}"
        );
    }
}
