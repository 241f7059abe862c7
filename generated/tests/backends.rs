//! The x86-64 BMI2/ADX backend of every 64-bit preset: on a CPU with BMI2 and ADX the
//! assembly must be the backend in use (the test fails loudly otherwise, so the oracle suite in
//! `suite.rs` is known to have run through it), and the assembly must equal the portable code
//! for `mul` and `square` on edge and random inputs. Elsewhere the portable code must be in use
//! and the assembly hooks must decline.

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

use fieldgen_test_support::SplitMix64;

macro_rules! backend_tests {
    ($name:ident, $F:ty) => {
        #[test]
        fn $name() {
            const B: usize = <$F>::MODULUS_LE_BYTES.len();
            let name = stringify!($name);
            let bits = <$F>::NUM_BITS as usize;
            let adx = host_has_adx();
            let expected = if adx {
                "x86_64-adx"
            } else if cfg!(target_arch = "aarch64") {
                "aarch64"
            } else {
                "portable64"
            };
            assert_eq!(
                <$F>::backend(),
                expected,
                "{name}: the backend in use (this CPU {} BMI2 and ADX)",
                if adx { "has" } else { "lacks" }
            );
            // Edge values: 0, 1, 2, p − 1, p − 2, and encodings alternating all-ones and zero
            // limbs below the top bit.
            let mut xs: Vec<$F> = vec![
                <$F>::ZERO,
                <$F>::ONE,
                <$F>::from_u64(2),
                -<$F>::ONE,
                -<$F>::from_u64(2),
            ];
            for k in 0..2 {
                let mut bytes = [0u8; B];
                for (i, b) in bytes.iter_mut().enumerate() {
                    if 8 * i + 8 < bits && (i / 8 + k) % 2 == 0 {
                        *b = 0xff;
                    }
                }
                xs.push(Option::<$F>::from(<$F>::from_le_bytes(&bytes)).expect("below p"));
            }
            let mut rng = SplitMix64(bits as u64);
            for _ in 0..500 {
                let mut bytes = [0u8; B];
                for (i, b) in bytes.iter_mut().enumerate() {
                    let keep = (bits - 1).saturating_sub(8 * i).min(8);
                    *b = rng.next_u8() & u8::try_from((1u16 << keep) - 1).unwrap();
                }
                let x = Option::<$F>::from(<$F>::from_le_bytes(&bytes)).expect("below p");
                xs.push(x);
                xs.push(-x);
            }
            for (i, a) in xs.iter().enumerate() {
                let b = &xs[(i * 7 + 3) % xs.len()];
                let portable_mul = a.__mul_with_backend(b, "portable64").expect("portable");
                let portable_square = a.__square_with_backend("portable64").expect("portable");
                assert_eq!(a.mul(b), portable_mul, "{name}: mul {a:?} · {b:?}");
                assert_eq!(a.square(), portable_square, "{name}: square {a:?}");
                match (
                    a.__mul_with_backend(b, "x86_64-adx"),
                    a.__square_with_backend("x86_64-adx"),
                ) {
                    (Some(m), Some(s)) => {
                        assert!(adx, "{name}: the assembly ran on a CPU without BMI2/ADX");
                        assert_eq!(m, portable_mul, "{name}: asm mul {a:?} · {b:?}");
                        assert_eq!(s, portable_square, "{name}: asm square {a:?}");
                    }
                    (None, None) => {
                        assert!(!adx, "{name}: the assembly declined on a BMI2/ADX CPU")
                    }
                    _ => panic!("{name}: mul and square hooks disagree on availability"),
                }
            }
        }
    };
}

backend_tests!(curve25519_p_64, fieldgen_generated::curve25519_p_64::Fp);
backend_tests!(curve25519_l_64, fieldgen_generated::curve25519_l_64::Fr);
backend_tests!(p256_p_64, fieldgen_generated::p256_p_64::Fp);
backend_tests!(p256_n_64, fieldgen_generated::p256_n_64::Fr);
backend_tests!(secp256k1_p_64, fieldgen_generated::secp256k1_p_64::Fp);
backend_tests!(secp256k1_n_64, fieldgen_generated::secp256k1_n_64::Fr);
backend_tests!(bls12_381_p_64, fieldgen_generated::bls12_381_p_64::Fp);
backend_tests!(bls12_381_r_64, fieldgen_generated::bls12_381_r_64::Fr);
backend_tests!(bn254_p_64, fieldgen_generated::bn254_p_64::Fp);
backend_tests!(bn254_r_64, fieldgen_generated::bn254_r_64::Fr);
backend_tests!(fp254bnb_p_64, fieldgen_generated::fp254bnb_p_64::Fp);
backend_tests!(fp254bnb_r_64, fieldgen_generated::fp254bnb_r_64::Fr);
backend_tests!(bn381_p_64, fieldgen_generated::bn381_p_64::Fp);
backend_tests!(bn381_r_64, fieldgen_generated::bn381_r_64::Fr);
backend_tests!(bn462_p_64, fieldgen_generated::bn462_p_64::Fp);
backend_tests!(bn462_r_64, fieldgen_generated::bn462_r_64::Fr);
backend_tests!(p127_p_64, fieldgen_generated::p127_p_64::Fp);
backend_tests!(
    curve25519_p_montgomery_64,
    fieldgen_generated::curve25519_p_montgomery_64::Fp
);
backend_tests!(
    secp256k1_p_montgomery_64,
    fieldgen_generated::secp256k1_p_montgomery_64::Fp
);
