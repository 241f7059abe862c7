//! `--target`: what each target emits, the limb size it implies, and the combinations it
//! refuses (exit code 2, one line on stderr, nothing on stdout).

use std::process::Command;

fn generator(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_generator"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn header_line<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(&format!("// {key}: ")))
        .unwrap_or_else(|| panic!("no `{key}` header line"))
}

#[test]
fn each_target_emits_its_backends() {
    // auto at 64 bits: both backends, the assembly gated on the architecture.
    let (code, auto, _) = generator(&["--prime", "bn254-p"]);
    assert_eq!(code, Some(0));
    assert!(header_line(&auto, "Target").contains("x86_64-adx"));
    assert!(header_line(&auto, "Command").ends_with("--limb-bits 64"));
    for item in [
        "fn mont_mul_portable(",
        "unsafe fn mont_mul_x86_64_adx(",
        "unsafe fn mont_square_x86_64_adx(",
        "::fieldgen_field::cpu::adx()",
        "fn mont_mul_aarch64(",
        "fn mont_square_aarch64(",
        "#[cfg(target_arch = \"aarch64\")]",
        "umulh ",
        "pub fn backend()",
        "pub fn __mul_with_backend(",
        "#[cfg(target_arch = \"x86_64\")]",
        "target_feature = \"adx\"",
        "::core::arch::asm!(",
        "/// SAFETY: ",
    ] {
        assert!(auto.contains(item), "auto lacks {item}");
    }
    // Every unsafe block is preceded by its SAFETY note.
    let lines: Vec<&str> = auto.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if l.contains("unsafe {") {
            assert!(
                lines[i - 1].trim_start().starts_with("/// SAFETY: "),
                "unsafe block without a SAFETY note: {l}"
            );
        }
    }

    // portable64 and portable32: no assembly; portable32 implies 32-bit limbs.
    let (code, p64, _) = generator(&["--prime", "bn254-p", "--target", "portable64"]);
    assert_eq!(code, Some(0));
    assert!(!p64.contains("asm!") && !p64.contains("unsafe"));
    assert!(header_line(&p64, "Command").ends_with("--limb-bits 64 --target portable64"));
    let (code, p32, _) = generator(&["--prime", "bn254-p", "--target", "portable32"]);
    assert_eq!(code, Some(0));
    assert!(!p32.contains("asm!"));
    assert!(p32.contains("[u32; 8]"));
    assert!(header_line(&p32, "Command").contains("--limb-bits 32 --target portable32"));

    // auto at 32 bits: portable plus the ARMv7 kernels, no x86-64 or AArch64 assembly; where
    // the portable code is shorter (P-256's p) and with product scanning: portable only, and
    // the header says why.
    let (code, a32, _) = generator(&["--prime", "bn254-p", "--limb-bits", "32"]);
    assert_eq!(code, Some(0));
    assert!(a32.contains("fn mont_mul_armv7(") && a32.contains("fn mont_mul_portable("));
    assert!(!a32.contains("x86_64_adx") && !a32.contains("mont_mul_aarch64"));
    assert!(header_line(&a32, "Target").contains("armv7 mul/square on 8 limbs"));
    let (code, p256, _) = generator(&["--prime", "p256-p", "--limb-bits", "32"]);
    assert_eq!(code, Some(0));
    assert!(!p256.contains("asm!"));
    assert!(header_line(&p256, "Target").contains("64-bit limbs"));
    let (code, ps, _) = generator(&["--prime", "bn254-p", "--mul", "product-scanning"]);
    assert_eq!(code, Some(0));
    assert!(!ps.contains("asm!"));
    let (code, sos, _) = generator(&["--prime", "bn254-p", "--mul", "sos"]);
    assert_eq!(code, Some(0));
    assert!(!sos.contains("asm!") && sos.contains("fn mont_mul_portable("));
    assert!(header_line(&sos, "Command").ends_with("--mul sos"));

    // x86_64-adx: the assembly only, refusing other architectures at compile time.
    let (code, adx, _) = generator(&["--prime", "bls12-381-p", "--target", "x86_64-adx"]);
    assert_eq!(code, Some(0));
    assert!(adx.contains("unsafe fn mont_mul_x86_64_adx("));
    assert!(!adx.contains("fn mont_mul_portable("));
    assert!(adx.contains("::core::compile_error!("));
    assert!(header_line(&adx, "Command").ends_with("--target x86_64-adx"));

    // aarch64: the AArch64 assembly only, refusing other architectures at compile time.
    let (code, a64, _) = generator(&["--prime", "bn254-p", "--target", "aarch64"]);
    assert_eq!(code, Some(0));
    assert!(a64.contains("fn mont_mul_aarch64("));
    assert!(!a64.contains("fn mont_mul_portable("));
    assert!(!a64.contains("x86_64_adx"));
    assert!(a64.contains("::core::compile_error!("));
    let (code, _, stderr) = generator(&["--prime", "2^1279-1", "--target", "aarch64"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("up to 8 limbs"), "{stderr}");

    // armv7: the UMAAL assembly only (32-bit limbs by default), refusing targets without it;
    // auto carries it beside the portable code for 32-bit limbs, except where the portable
    // code is shorter (P-256's p).
    let (code, v7, _) = generator(&["--prime", "bn254-p", "--target", "armv7"]);
    assert_eq!(code, Some(0));
    assert!(v7.contains("fn mont_mul_armv7("));
    assert!(v7.contains("fn mont_square_armv7("));
    assert!(v7.contains("[u32; 8]"));
    assert!(v7.contains("umaal "));
    assert!(!v7.contains("fn mont_mul_portable("));
    assert!(v7.contains("::core::compile_error!("));
    let (code, _, stderr) = generator(&["--prime", "2^521-1", "--target", "armv7"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("up to 16 limbs"), "{stderr}");
    let (code, auto32, _) = generator(&["--prime", "bn254-p", "--limb-bits", "32"]);
    assert_eq!(code, Some(0));
    assert!(auto32.contains("fn mont_mul_armv7("));
    assert!(auto32.contains("fn mont_mul_portable("));
    assert!(auto32.contains("target_has_atomic = \"64\""));

    // sparc32 and wasm32: the portable 32-bit code, named in the command line.
    for t in ["sparc32", "wasm32"] {
        let (code, out, _) = generator(&["--prime", "bn254-p", "--target", t]);
        assert_eq!(code, Some(0));
        assert!(out.contains("fn mont_mul_portable("));
        assert!(out.contains("[u32; 8]"));
        assert!(!out.contains("asm!"));
        assert!(header_line(&out, "Command").ends_with(&format!("--limb-bits 32 --target {t}")));
    }
}

#[test]
fn refused_combinations() {
    for (args, needle) in [
        (
            &[
                "--prime",
                "bn254-p",
                "--target",
                "portable32",
                "--limb-bits",
                "64",
            ][..],
            "32-bit limbs",
        ),
        (
            &[
                "--prime",
                "bn254-p",
                "--target",
                "x86_64-adx",
                "--limb-bits",
                "32",
            ][..],
            "64-bit limbs",
        ),
        (
            &[
                "--prime",
                "bn254-p",
                "--target",
                "x86_64-adx",
                "--mul",
                "product-scanning",
            ][..],
            "product-scanning",
        ),
        (
            &["--prime", "bn254-p", "--target", "aarch64", "--mul", "sos"][..],
            "no sos kernel",
        ),
        (
            &["--prime", "2^1279-1", "--target", "x86_64-adx"][..],
            "up to 12 limbs",
        ),
        (&["--prime", "bn254-p", "--target", "sparc"][..], "sparc"),
    ] {
        let (code, stdout, stderr) = generator(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}
