//! `regen --check` passes on the committed tree and fails, naming the file, after a one-byte
//! edit, a deleted file or a stray generated-looking file.

use std::path::{Path, PathBuf};
use std::process::Command;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

fn check(dir: &Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_generator"))
        .args(["regen", "--check", "--dir"])
        .arg(dir)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn regen_check_detects_every_kind_of_drift() {
    let committed = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../generated");
    let dir = std::env::temp_dir().join(format!("fieldgen-regen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&committed, &dir);

    let (code, err) = check(&dir);
    assert_eq!(code, Some(0), "clean tree must pass: {err}");

    // One byte changed inside a generated file.
    let file = dir.join("src/bn254_p_64.rs");
    let mut bytes = std::fs::read(&file).unwrap();
    let pos = bytes.len() / 2;
    bytes[pos] = if bytes[pos] == b'1' { b'2' } else { b'1' };
    std::fs::write(&file, &bytes).unwrap();
    let (code, err) = check(&dir);
    assert_eq!(code, Some(1));
    assert!(err.contains("differs: src/bn254_p_64.rs"), "{err}");

    // A missing file and a stale one.
    std::fs::remove_file(dir.join("src/p256_n_32.rs")).unwrap();
    std::fs::write(dir.join("src/old_field_64.rs"), "// stale\n").unwrap();
    let (code, err) = check(&dir);
    assert_eq!(code, Some(1));
    assert!(err.contains("missing: src/p256_n_32.rs"), "{err}");
    assert!(err.contains("stale: src/old_field_64.rs"), "{err}");

    // regen repairs all of it, after which the check passes again.
    let status = Command::new(env!("CARGO_BIN_EXE_generator"))
        .args(["regen", "--dir"])
        .arg(&dir)
        .status()
        .unwrap();
    assert!(status.success());
    let (code, err) = check(&dir);
    assert_eq!(code, Some(0), "{err}");
    assert!(!dir.join("src/old_field_64.rs").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
