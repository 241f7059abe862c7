//! Helpers shared by the integration tests: hex decoding and the vector files.

#![allow(dead_code)]

use std::path::PathBuf;

/// Lowercase or uppercase hex to bytes; panics on malformed test data.
pub fn hex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd-length hex in test data");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

pub fn hex32(s: &str) -> [u8; 32] {
    hex(s).try_into().expect("32 bytes")
}

pub fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

pub fn vector_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("vectors")
        .join(name)
}

pub fn load_json(name: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(vector_path(name)).expect("vector file");
    serde_json::from_str(&text).expect("valid JSON")
}

/// Whether the standard library detects AVX-512F/VL/IFMA (independent of the crate's CPUID code).
pub fn cpu_has_ifma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512ifma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Runs `f` once with each verification backend this CPU has forced (IFMA first where the
/// CPU has it), after checking that the crate's detection agrees with the standard library.
/// Forced scalar, no equation may run on the lanes; forced IFMA with `lanes_expected` (`f`
/// verifies at least one signature that reaches the equation), at least one must.
pub fn try_each_verify_backend<E>(
    lanes_expected: bool,
    f: impl FnMut(fieldgen_curve25519::ed25519::VerifyBackend) -> Result<(), E>,
) -> Result<(), E> {
    try_each_backend(lanes_expected, false, f)
}

/// [`try_each_verify_backend`] that also checks the fixed-base multiplication [a]B (key
/// generation, signing, X25519 base), which the same setting forces: forced scalar, none may
/// run on the lanes; forced IFMA with `base_expected`, at least one must.
pub fn try_each_backend<E>(
    lanes_expected: bool,
    base_expected: bool,
    mut f: impl FnMut(fieldgen_curve25519::ed25519::VerifyBackend) -> Result<(), E>,
) -> Result<(), E> {
    use fieldgen_curve25519::ed25519::{
        avx512ifma_base_mul_count, avx512ifma_equation_count, verify_backend, with_verify_backend,
        VerifyBackend,
    };
    let ifma = cpu_has_ifma();
    let want = if ifma {
        VerifyBackend::Avx512Ifma
    } else {
        VerifyBackend::Scalar
    };
    assert_eq!(verify_backend(), want, "verify_backend()");
    for b in [VerifyBackend::Avx512Ifma, VerifyBackend::Scalar] {
        let before = avx512ifma_equation_count();
        let base_before = avx512ifma_base_mul_count();
        match with_verify_backend(b, || f(b)) {
            None => {
                assert!(b == VerifyBackend::Avx512Ifma && !ifma, "{b:?} refused");
                continue;
            }
            Some(r) => r?,
        }
        let ran = avx512ifma_equation_count() - before;
        let base_ran = avx512ifma_base_mul_count() - base_before;
        match b {
            VerifyBackend::Scalar => {
                assert_eq!(ran, 0, "forced Scalar ran the lanes");
                assert_eq!(base_ran, 0, "forced Scalar ran [a]B on the lanes");
            }
            VerifyBackend::Avx512Ifma => {
                assert!(ifma, "IFMA backend accepted without the CPU features");
                if lanes_expected {
                    assert!(ran > 0, "forced Avx512Ifma never ran the lane equations");
                }
                if base_expected {
                    assert!(
                        base_ran > 0,
                        "forced Avx512Ifma never ran [a]B on the lanes"
                    );
                }
            }
        }
    }
    Ok(())
}

/// [`try_each_backend`] for bodies that panic on failure.
pub fn each_backend(
    lanes_expected: bool,
    base_expected: bool,
    mut f: impl FnMut(fieldgen_curve25519::ed25519::VerifyBackend),
) {
    try_each_backend::<std::convert::Infallible>(lanes_expected, base_expected, |b| {
        f(b);
        Ok(())
    })
    .unwrap_or_else(|e| match e {});
}

/// [`try_each_verify_backend`] for bodies that panic on failure.
pub fn each_verify_backend(
    lanes_expected: bool,
    mut f: impl FnMut(fieldgen_curve25519::ed25519::VerifyBackend),
) {
    try_each_verify_backend::<std::convert::Infallible>(lanes_expected, |b| {
        f(b);
        Ok(())
    })
    .unwrap_or_else(|e| match e {});
}
