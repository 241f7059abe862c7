//! Which carry-less backend each committed binary field runs, and that the backends agree.
//!
//! On an x86-64 CPU with PCLMULQDQ (and SSSE3) every 64-bit-word field must be using the `x86_64-clmul`
//! kernel (so the oracle suite in `binary.rs` ran through it); on aarch64 built with the `aes`
//! target feature, `aarch64-pmull`; elsewhere the portable product. A 32-bit-word field uses the
//! holes product (`portable32-holes`) on x86, x86-64, AArch64 and wasm32 and the comb
//! (`portable32`) on architectures outside that list. The test fails loudly rather
//! than skipping. Every backend the build can run must also equal the portable product on edge
//! and random inputs.

/// The backend a 64-bit-word field must use on this build and CPU.
fn expected_backend_64() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("pclmulqdq") && std::is_x86_feature_detected!("ssse3") {
            return "x86_64-clmul";
        }
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "aes"))]
    {
        return "aarch64-pmull";
    }
    #[allow(unreachable_code)]
    "portable64"
}

/// The backend a 32-bit-word field must use on this build: the holes product only on the
/// architectures whose 32×32 → 64-bit multiply is constant time (written out here from the
/// rule in the README, not taken from the generator), the multiplier-free comb elsewhere.
fn expected_backend_32() -> &'static str {
    let ct_mul = cfg!(any(
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "wasm32"
    )) || cfg!(all(
        target_arch = "arm",
        target_feature = "v7",
        not(target_feature = "mclass")
    )) || cfg!(all(
        target_arch = "arm",
        target_feature = "mclass",
        target_feature = "dsp"
    ));
    if ct_mul {
        "portable32-holes"
    } else {
        "portable32"
    }
}

/// Whether a 64-bit-word trinomial field (x^m + x^k + 1, m − k ≥ 64) must square with PDEP on this CPU: BMI2 on an Intel
/// processor or an AMD one of family 19h (Zen 3) or later (the rule in the README, read here
/// from CPUID independently of the generated check). `__cpuid` is a safe function in
/// recent Rust and an unsafe one in older releases, hence the `unsafe` blocks and the allowance.
#[allow(unused_unsafe)]
fn expects_pdep_squaring() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: CPUID exists on every x86-64 processor; leaf 0 always exists.
        let l0 = unsafe { std::arch::x86_64::__cpuid(0) };
        let mut vendor = Vec::new();
        for r in [l0.ebx, l0.edx, l0.ecx] {
            vendor.extend_from_slice(&r.to_le_bytes());
        }
        // SAFETY: CPUID exists on every x86-64 processor; leaf 1 always exists.
        let eax = unsafe { std::arch::x86_64::__cpuid(1) }.eax;
        let family = ((eax >> 8) & 0xf)
            + if (eax >> 8) & 0xf == 0xf {
                (eax >> 20) & 0xff
            } else {
                0
            };
        std::is_x86_feature_detected!("bmi2")
            && (vendor == b"GenuineIntel" || (vendor == b"AuthenticAMD" && family >= 0x19))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

use fieldgen_test_support::SplitMix64;

macro_rules! backend_test {
    ($name:ident, $F:ty, $w:expr) => {
        #[test]
        fn $name() {
            const B: usize = (<$F>::DEGREE as usize).div_ceil(8);
            let expected = if $w == 64 {
                expected_backend_64()
            } else {
                expected_backend_32()
            };
            assert_eq!(<$F>::backend(), expected, "{}", stringify!($name));
            let portable = if $w == 64 { "portable64" } else { "portable32" };
            let mut rng = SplitMix64(0x5eed ^ <$F>::DEGREE as u64);
            let mut xs = vec![<$F>::ZERO, <$F>::ONE];
            let mut ones = [0xffu8; B];
            if <$F>::DEGREE % 8 != 0 {
                ones[B - 1] = (1u8 << (<$F>::DEGREE % 8)) - 1;
            }
            xs.push(Option::<$F>::from(<$F>::from_le_bytes(&ones)).unwrap());
            for _ in 0..24 {
                let mut bytes = [0u8; B];
                rng.fill_low_bytes(&mut bytes);
                bytes[B - 1] &= ones[B - 1];
                xs.push(Option::<$F>::from(<$F>::from_le_bytes(&bytes)).unwrap());
            }
            let mut ran = 0;
            for backend in [
                "x86_64-clmul",
                "aarch64-pmull",
                "portable64",
                "portable32",
                "portable32-holes",
            ] {
                if xs[0].__mul_with_backend(&xs[0], backend).is_none() {
                    continue;
                }
                ran += 1;
                for a in &xs {
                    for b in &xs {
                        assert_eq!(
                            a.__mul_with_backend(b, backend),
                            a.__mul_with_backend(b, portable),
                            "{backend} mul"
                        );
                    }
                    assert_eq!(
                        a.__square_with_backend(backend),
                        a.__square_with_backend(portable),
                        "{backend} square"
                    );
                }
            }
            // The squaring-only PDEP kernel (trinomials, x86-64 CPUs with fast PDEP).
            // A trinomial x^m + x^k + 1 with m − k ≥ 64 (the word-shift reduction), unless
            // its XMM squaring reduces by shifts (x^(64n−m+k) fits two words and 2k − 2 < m)
            // and the square has more than three words at or above word n to fold.
            let e = <$F>::MODULUS_EXPONENTS;
            let (m, n) = (e[0] as usize, (e[0] as usize).div_ceil(64));
            let shift_square =
                e.len() == 3 && 64 * n - m + (e[1] as usize) < 128 && 2 * (e[1] as usize) < m + 2;
            let folds = (2 * m - 1).div_ceil(64) - n;
            let pdep = $w == 64
                && e.len() == 3
                && e[0] - e[1] >= 64
                && (!shift_square || folds <= 3)
                && expects_pdep_squaring();
            assert_eq!(
                xs[0].__square_with_backend("x86_64-bmi2").is_some(),
                pdep,
                "PDEP squaring available"
            );
            for a in &xs {
                if let Some(y) = a.__square_with_backend("x86_64-bmi2") {
                    assert_eq!(
                        Some(y),
                        a.__square_with_backend(portable),
                        "x86_64-bmi2 square"
                    );
                    for k in [1, 2, 7, 64] {
                        assert_eq!(
                            a.__square_n_with_backend(k, "x86_64-bmi2"),
                            a.__square_n_with_backend(k, "x86_64-clmul"),
                            "x86_64-bmi2 square_n({k})"
                        );
                    }
                }
            }
            // At 32-bit words the comb and the holes product both always run.
            assert!(ran > (expected != portable || $w == 32) as usize);
        }
    };
}

backend_test!(sect163_64, fieldgen_generated::sect163_64::F163, 64);
backend_test!(sect163_32, fieldgen_generated::sect163_32::F163, 32);
backend_test!(sect193_64, fieldgen_generated::sect193_64::F193, 64);
backend_test!(sect193_32, fieldgen_generated::sect193_32::F193, 32);
backend_test!(sect233_64, fieldgen_generated::sect233_64::F233, 64);
backend_test!(sect233_32, fieldgen_generated::sect233_32::F233, 32);
backend_test!(sect239_64, fieldgen_generated::sect239_64::F239, 64);
backend_test!(sect239_32, fieldgen_generated::sect239_32::F239, 32);
backend_test!(sect283_64, fieldgen_generated::sect283_64::F283, 64);
backend_test!(sect283_32, fieldgen_generated::sect283_32::F283, 32);
backend_test!(sect409_64, fieldgen_generated::sect409_64::F409, 64);
backend_test!(sect409_32, fieldgen_generated::sect409_32::F409, 32);
backend_test!(sect571_64, fieldgen_generated::sect571_64::F571, 64);
backend_test!(sect571_32, fieldgen_generated::sect571_32::F571, 32);
backend_test!(gf2_155_64, fieldgen_generated::gf2_155_64::F155, 64);
backend_test!(gf2_155_32, fieldgen_generated::gf2_155_32::F155, 32);
backend_test!(gf2_2_dense_64, fieldgen_generated::gf2_2_dense_64::F2, 64);
backend_test!(gf2_2_dense_32, fieldgen_generated::gf2_2_dense_32::F2, 32);
backend_test!(gf2_3_tri_64, fieldgen_generated::gf2_3_tri_64::F3, 64);
backend_test!(gf2_3_tri_32, fieldgen_generated::gf2_3_tri_32::F3, 32);
backend_test!(gf2_8_penta_64, fieldgen_generated::gf2_8_penta_64::F8, 64);
backend_test!(gf2_8_penta_32, fieldgen_generated::gf2_8_penta_32::F8, 32);
backend_test!(
    gf2_31_dense_64,
    fieldgen_generated::gf2_31_dense_64::F31,
    64
);
backend_test!(
    gf2_31_dense_32,
    fieldgen_generated::gf2_31_dense_32::F31,
    32
);
backend_test!(gf2_63_tri_64, fieldgen_generated::gf2_63_tri_64::F63, 64);
backend_test!(gf2_63_tri_32, fieldgen_generated::gf2_63_tri_32::F63, 32);
backend_test!(
    gf2_64_dense_64,
    fieldgen_generated::gf2_64_dense_64::F64,
    64
);
backend_test!(
    gf2_64_dense_32,
    fieldgen_generated::gf2_64_dense_32::F64,
    32
);
backend_test!(
    gf2_65_penta_64,
    fieldgen_generated::gf2_65_penta_64::F65,
    64
);
backend_test!(
    gf2_65_penta_32,
    fieldgen_generated::gf2_65_penta_32::F65,
    32
);
backend_test!(gf2_127_tri_64, fieldgen_generated::gf2_127_tri_64::F127, 64);
backend_test!(gf2_127_tri_32, fieldgen_generated::gf2_127_tri_32::F127, 32);
backend_test!(
    gf2_128_dense_64,
    fieldgen_generated::gf2_128_dense_64::F128,
    64
);
backend_test!(
    gf2_128_dense_32,
    fieldgen_generated::gf2_128_dense_32::F128,
    32
);
backend_test!(
    gf2_129_penta_64,
    fieldgen_generated::gf2_129_penta_64::F129,
    64
);
backend_test!(
    gf2_129_penta_32,
    fieldgen_generated::gf2_129_penta_32::F129,
    32
);
backend_test!(gf2_191_tri_64, fieldgen_generated::gf2_191_tri_64::F191, 64);
backend_test!(gf2_191_tri_32, fieldgen_generated::gf2_191_tri_32::F191, 32);
backend_test!(
    gf2_256_dense_64,
    fieldgen_generated::gf2_256_dense_64::F256,
    64
);
backend_test!(
    gf2_256_dense_32,
    fieldgen_generated::gf2_256_dense_32::F256,
    32
);
backend_test!(
    gf2_300_penta_64,
    fieldgen_generated::gf2_300_penta_64::F300,
    64
);
backend_test!(
    gf2_300_penta_32,
    fieldgen_generated::gf2_300_penta_32::F300,
    32
);
backend_test!(
    gf2_521_dense_64,
    fieldgen_generated::gf2_521_dense_64::F521,
    64
);
backend_test!(
    gf2_521_dense_32,
    fieldgen_generated::gf2_521_dense_32::F521,
    32
);
backend_test!(
    gf2_1024_penta_64,
    fieldgen_generated::gf2_1024_penta_64::F1024,
    64
);
backend_test!(
    gf2_1024_penta_32,
    fieldgen_generated::gf2_1024_penta_32::F1024,
    32
);
