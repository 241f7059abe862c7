//! `--rsa-bits`: every accepted size writes exactly the committed `generated-rsa` module (so the
//! oracle suite of that crate covers the CLI's output), `--name` renames the type, and bad input
//! fails with exit code 2, one line on stderr and no file.

use std::path::PathBuf;
use std::process::Command;

fn generator() -> Command {
    Command::new(env!("CARGO_BIN_EXE_generator"))
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fieldgen-rsa-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_size_writes_the_committed_module() {
    let committed = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../generated-rsa/src");
    let dir = scratch("sizes");
    for bits in [768, 1024, 1536, 2048, 3072, 4096] {
        let out = dir.join(format!("mont{bits}.rs"));
        let st = generator()
            .args(["--rsa-bits", &bits.to_string(), "--out"])
            .arg(&out)
            .status()
            .unwrap();
        assert!(st.success());
        let want = std::fs::read_to_string(committed.join(format!("mont{bits}.rs"))).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), want, "{bits}");
    }
}

#[test]
fn name_renames_the_type() {
    let out = generator()
        .args(["--rsa-bits", "1024", "--name", "Rsa1024"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("pub struct Rsa1024 {"));
    assert!(text.contains("--rsa-bits 1024 --name Rsa1024"));
    assert!(!text.contains("Mont1024"));
}

#[test]
fn bad_input_fails_cleanly() {
    for (args, needle) in [
        (&["--rsa-bits", "1000"][..], "not supported"),
        (
            &["--rsa-bits", "2048", "--name", "fn"][..],
            "cannot be a type name",
        ),
        (
            &["--rsa-bits", "2048", "--prime", "7"][..],
            "cannot be used with",
        ),
        (
            &["--rsa-bits", "2048", "--limb-bits", "32"][..],
            "cannot be used with",
        ),
        (&["--rsa-bits", "x"][..], "invalid value"),
        // The target table: RSA contexts are served by `auto` only.
        (
            &["--rsa-bits", "2048", "--target", "portable64"][..],
            "use --target auto",
        ),
        (
            &["--rsa-bits", "2048", "--target", "armv7"][..],
            "use --target auto",
        ),
    ] {
        let dir = scratch("bad");
        let file = dir.join("out.rs");
        let out = generator()
            .args(args)
            .arg("--out")
            .arg(&file)
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(needle),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty());
        assert!(!file.exists());
    }
}
