//! Every bad input to the CLI gives exit code 2, exactly one line on stderr naming the problem,
//! nothing on stdout, and no output file.

use std::path::PathBuf;
use std::process::Command;

fn generator() -> Command {
    Command::new(env!("CARGO_BIN_EXE_generator"))
}

fn scratch_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fieldgen-cli-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the generator with `args` plus `--out FILE` and checks the failure contract; returns
/// the single stderr line.
fn expect_failure(args: &[&str]) -> String {
    let dir = scratch_dir(
        &args
            .join("_")
            .replace(['/', '^', ' '], "-")
            .chars()
            .take(40)
            .collect::<String>(),
    );
    let out_file = dir.join("field.rs");
    let output = generator()
        .args(args)
        .arg("--out")
        .arg(&out_file)
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        output.status.code(),
        Some(2),
        "args {args:?}: stderr {stderr}"
    );
    assert!(output.stdout.is_empty(), "args {args:?} wrote to stdout");
    assert_eq!(
        stderr.lines().count(),
        1,
        "args {args:?}: not one line: {stderr:?}"
    );
    assert!(!out_file.exists(), "args {args:?} wrote a file");
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "args {args:?} left a file behind"
    );
    let _ = std::fs::remove_dir_all(&dir);
    stderr.trim_end().to_string()
}

#[test]
fn bad_inputs_exit_2_with_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["--prime", "15"], "not prime"),
        (&["--prime", "2^255"], "even"),
        (&["--prime", "1"], "at least 3"),
        (&["--prime", "0"], ""),
        (&["--prime", "2^^3"], "cannot read"),
        (&["--prime", "0xzz"], "cannot read"),
        (&["--prime", "12abc"], "cannot read"),
        (&["--prime", ""], "empty"),
        (&["--prime", "bn999"], "unknown preset"),
        (&["--prime", "2^8193-1"], "at most 8192"),
        (&["--prime", "2^255-19", "--limb-bits", "16"], "32 or 64"),
        (&["--prime", "2^255-19", "--limb-bits", "x"], ""),
        (&["--prime", "2^255-19", "--name", "1abc"], "type name"),
        (&["--prime", "2^255-19", "--name", "fn"], "type name"),
        (
            &["--prime", "2^255-19", "--mul", "cios-no-carry"],
            "spare bits",
        ),
        (&["--prime", "2^255-19", "--mul", "karatsuba"], ""),
        (
            &["--prime", "bn254-p", "--strategy", "pseudo-mersenne"],
            "not of that form",
        ),
        (
            &["--prime", "bn254-p", "--strategy", "solinas"],
            "not of that form",
        ),
        (&["--prime", "p521", "--strategy", "unknown"], ""),
        (
            &["--prime", "bn254-p", "--strategy", "unsaturated"],
            "not of that form",
        ),
        (
            &["--prime", "secp256k1-p", "--strategy", "unsaturated"],
            "not of that form",
        ),
        (
            &[
                "--prime",
                "2^255-19",
                "--strategy",
                "unsaturated",
                "--radix",
                "64",
            ],
            "no headroom",
        ),
        (
            &[
                "--prime",
                "2^255-19",
                "--strategy",
                "unsaturated",
                "--radix",
                "8",
            ],
            "too narrow",
        ),
        (
            &[
                "--prime",
                "bn254-p",
                "--limb-bits",
                "64",
                "--target",
                "portable32",
            ],
            "--target portable32 uses 32-bit limbs, not 64",
        ),
        (
            &[
                "--prime",
                "2^255-19",
                "--limb-bits",
                "32",
                "--target",
                "x86_64-adx",
            ],
            "--target x86_64-adx uses 64-bit limbs, not 32",
        ),
        (
            &["--prime", "2^255-19", "--radix", "51"],
            "--radix applies to --strategy unsaturated only",
        ),
        (
            &[
                "--prime",
                "2^255-19",
                "--strategy",
                "unsaturated",
                "--target",
                "x86_64-adx",
            ],
            "no assembly kernel",
        ),
        (
            &[
                "--prime",
                "2^255-19",
                "--strategy",
                "unsaturated",
                "--target",
                "armv7",
            ],
            "no assembly kernel",
        ),
        (
            &[
                "--prime",
                "2^255-19",
                "--strategy",
                "unsaturated",
                "--radix",
                "x",
            ],
            "",
        ),
        (
            &[
                "--prime",
                "p521",
                "--strategy",
                "pseudo-mersenne",
                "--target",
                "x86_64-adx",
            ],
            "pseudo-Mersenne kernels need k = 64n - 1",
        ),
        (&["--bogus-flag"], ""),
        (&[], "no prime given"),
    ];
    for (args, needle) in cases {
        let line = expect_failure(args);
        assert!(line.starts_with("error: "), "{args:?}: {line}");
        assert!(line.contains(needle), "{args:?}: `{line}` lacks `{needle}`");
    }
}

#[test]
fn unwritable_output_path_fails_cleanly() {
    let dir = scratch_dir("unwritable");
    let target = dir.join("missing-subdir").join("field.rs");
    let output = generator()
        .args(["--prime", "2^127-1", "--out"])
        .arg(&target)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(String::from_utf8(output.stderr).unwrap().lines().count(), 1);
    assert!(!target.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help_and_presets_succeed() {
    let help = generator().arg("--help").output().unwrap();
    assert!(help.status.success());
    let text = String::from_utf8(help.stdout).unwrap();
    assert!(text.contains("--prime") && text.contains("Examples:"));
    let list = generator().arg("--list-presets").output().unwrap();
    assert!(list.status.success());
    let text = String::from_utf8(list.stdout).unwrap();
    for name in [
        "curve25519-p",
        "bls12-381-r",
        "bn254-p",
        "bn462-r",
        "secp256k1-n",
        "p256-p",
    ] {
        assert!(text.contains(name), "{name} missing from --list-presets");
    }
}

#[test]
fn output_file_matches_stdout_and_header_names_the_command() {
    let dir = scratch_dir("out");
    let file = dir.join("fp.rs");
    let args = ["--prime", "2^127-1", "--name", "F127", "--limb-bits", "32"];
    let to_file = generator()
        .args(args)
        .arg("--out")
        .arg(&file)
        .output()
        .unwrap();
    assert!(to_file.status.success());
    let to_stdout = generator().args(args).output().unwrap();
    assert!(to_stdout.status.success());
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written.as_bytes(), to_stdout.stdout.as_slice());
    assert!(written.starts_with("// @generated"));
    assert!(written.contains(
        "// Command: cargo run -p generator -- --prime 2^127-1 --name F127 --limb-bits 32"
    ));
    assert!(written.contains("pub struct F127("));
    assert!(!written.contains("#!["), "no inner attributes");
    assert!(
        !written.lines().any(|l| l.trim_start().starts_with("use ")),
        "no use items"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
