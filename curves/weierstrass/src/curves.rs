//! The curves: parameter types over the generated fields (64-bit limbs on 64-bit targets,
//! 32-bit limbs elsewhere), with their constants as compile-time constants.
//!
//! Sources: P-224, P-256, P-384 from NIST SP 800-186 §3.2.1.2–3.2.1.4 (= FIPS 186-4 D.1.2.2–
//! D.1.2.4, SEC 2 v2 §2.3.2, §2.4.2, §2.5.1), a = −3; secp256k1 from SEC 2 v2 §2.4.1, a = 0,
//! b = 7. Every curve has cofactor 1. B3 is 3·b mod p.

use crate::group::{AKind, AffinePoint, CurveParams, ProjectivePoint};
#[cfg(feature = "std")]
use crate::group::{FixedBaseTable, WnafBaseTable};
use crate::protocol::WeierstrassCurve;

#[cfg(not(target_pointer_width = "64"))]
use fieldgen_generated::{
    p224_n_32 as p224_n, p224_p_32 as p224_p, p256_n_32 as p256_n, p256_p_32 as p256_p,
    p384_n_32 as p384_n, p384_p_32 as p384_p, secp256k1_n_32 as secp256k1_n,
    secp256k1_p_32 as secp256k1_p,
};
#[cfg(target_pointer_width = "64")]
use fieldgen_generated::{
    p224_n_64 as p224_n, p224_p_64 as p224_p, p256_n_64 as p256_n, p256_p_64 as p256_p,
    p384_n_64 as p384_n, p384_p_64 as p384_p, secp256k1_n_64 as secp256k1_n,
    secp256k1_p_64 as secp256k1_p,
};

macro_rules! curve {
    (
        $(#[$doc:meta])* $name:ident, $label:literal, $fp:ty, $fr:ty, $digest:ty, $kind:expr,
        low_s: $low_s:literal, a: $a:literal, b: $b:literal, b3: $b3:literal,
        gx: $gx:literal, gy: $gy:literal, oid: $oid:literal
        $(, params: { $($pextra:item)* })?
        $(, overrides: { $($extra:item)* })?
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;

        impl CurveParams for $name {
            type Base = $fp;
            const NAME: &'static str = $label;
            const A: $fp = <$fp>::from_hex_vartime($a).unwrap();
            const B: $fp = <$fp>::from_hex_vartime($b).unwrap();
            const B3: $fp = <$fp>::from_hex_vartime($b3).unwrap();
            const A_KIND: AKind = $kind;
            const GENERATOR_X: $fp = <$fp>::from_hex_vartime($gx).unwrap();
            const GENERATOR_Y: $fp = <$fp>::from_hex_vartime($gy).unwrap();

            $($($pextra)*)?
        }

        impl WeierstrassCurve for $name {
            type Scalar = $fr;
            type Digest = $digest;
            const SIGN_LOW_S: bool = $low_s;
            const OID: &'static str = $oid;

            #[cfg(feature = "std")]
            fn generator_table() -> Option<&'static FixedBaseTable<Self>> {
                static TABLE: std::sync::OnceLock<FixedBaseTable<$name>> =
                    std::sync::OnceLock::new();
                Some(TABLE.get_or_init(|| {
                    FixedBaseTable::new(
                        &ProjectivePoint::GENERATOR,
                        <$fr as fieldgen_field::Field>::BYTES,
                    )
                }))
            }

            #[cfg(feature = "std")]
            fn generator_wnaf_table() -> Option<&'static WnafBaseTable<Self>> {
                static TABLE: std::sync::OnceLock<WnafBaseTable<$name>> =
                    std::sync::OnceLock::new();
                Some(TABLE.get_or_init(|| WnafBaseTable::new(&ProjectivePoint::GENERATOR)))
            }

            $($($extra)*)?
        }
    };
}

curve!(
    /// NIST P-224 (secp224r1): p = 2^224 − 2^96 + 1, a = −3; ECDSA's default hash SHA-224.
    P224, "P-224", p224_p::Fp, p224_n::Fr, sha2::Sha224, AKind::MinusThree,
    low_s: false,
    a: "0xfffffffffffffffffffffffffffffffefffffffffffffffffffffffe",
    b: "0xb4050a850c04b3abf54132565044b0b7d7bfd8ba270b39432355ffb4",
    b3: "0x1c0f1f8f240e1b03dfc39702f0ce1229873f8a2e7521abc96a01ff1a",
    gx: "0xb70e0cbd6bb4bf7f321390b94a03c1d356c21122343280d6115c1d21",
    gy: "0xbd376388b5f723fb4c22dfe6cd4375a05a07476444d5819985007e34",
    oid: "1.3.132.0.33"
);

curve!(
    /// NIST P-256 (secp256r1, prime256v1): p = 2^256 − 2^224 + 2^192 + 2^96 − 1, a = −3;
    /// ECDSA's default hash SHA-256.
    P256, "P-256", p256_p::Fp, p256_n::Fr, sha2::Sha256, AKind::MinusThree,
    low_s: false,
    a: "0xffffffff00000001000000000000000000000000fffffffffffffffffffffffc",
    b: "0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
    b3: "0x1052a18afeafbbb61bc3380063c994352f57141164fb12e2b36ab4ba777720e2",
    gx: "0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
    gy: "0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
    oid: "1.2.840.10045.3.1.7"
);

curve!(
    /// NIST P-384 (secp384r1): p = 2^384 − 2^128 − 2^96 + 2^32 − 1, a = −3; ECDSA's default
    /// hash SHA-384.
    P384, "P-384", p384_p::Fp, p384_n::Fr, sha2::Sha384, AKind::MinusThree,
    low_s: false,
    a: "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000fffffffc",
    b: "0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef",
    b3: "0x19938ef7a6bcb7adc9aa1043abe8874b4858d54cfb83c336093c19adf03a96125302acaa9e8c74d77f915ac77bc480cf",
    gx: "0xaa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
    gy: "0x3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f",
    oid: "1.3.132.0.34"
);

curve!(
    /// secp256k1: p = 2^256 − 2^32 − 977, a = 0, b = 7; ECDSA's default hash SHA-256, and
    /// signing emits low s (s ≤ n/2, the Bitcoin/libsecp256k1 convention, BIP 62/146).
    Secp256k1, "secp256k1", secp256k1_p::Fp, secp256k1_n::Fr, sha2::Sha256, AKind::Zero,
    low_s: true,
    a: "0x0",
    b: "0x7",
    b3: "0x15",
    gx: "0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
    gy: "0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8",
    oid: "1.3.132.0.10",
    params: {
        #[inline(always)]
        fn mul_by_b3(x: &secp256k1_p::Fp) -> secp256k1_p::Fp {
            x.mul_small(21)
        }
    },
    overrides: {
        fn mul_scalar(p: &ProjectivePoint<Self>, k: &secp256k1_n::Fr) -> ProjectivePoint<Self> {
            crate::glv::mul(p, k)
        }

        fn mul_base_add_scalar_vartime(
            a: &secp256k1_n::Fr,
            p: &ProjectivePoint<Self>,
            b: &secp256k1_n::Fr,
        ) -> ProjectivePoint<Self> {
            crate::glv::mul_base_add_vartime(a, p, b)
        }
    }
);

/// secp256k1's endomorphism (x, y) ↦ (β·x, y) = λ·(x, y) and the reduced lattice basis
/// a1 = b2 = 0x3086d221a7d46bcde86c90e49284eb15, b1 = −0xe4437ed6010e88286f547fa90abfe4c3,
/// a2 = 0x114ca50f7a8e2f3f657c1108d9d44cfd8 (GLV 2001 §4 applied to SEC 2 v2 §2.4.1; the
/// same values as libsecp256k1 and k256). Every constant is checked against num-bigint in
/// tests/glv.rs (cube roots of unity, λ·G = φ(G), the lattice relations, g1 and g2).
impl crate::glv::GlvParams for Secp256k1 {
    const BETA: secp256k1_p::Fp = secp256k1_p::Fp::from_hex_vartime(
        "0x7ae96a2b657c07106e64479eac3434e99cf0497512f58995c1396c28719501ee",
    )
    .unwrap();
    const LAMBDA: secp256k1_n::Fr = secp256k1_n::Fr::from_hex_vartime(
        "0x5363ad4cc05c30e0a5261c028812645a122e22ea20816678df02967c1b23bd72",
    )
    .unwrap();
    const MINUS_B1: secp256k1_n::Fr =
        secp256k1_n::Fr::from_hex_vartime("0xe4437ed6010e88286f547fa90abfe4c3").unwrap();
    const MINUS_B2: secp256k1_n::Fr = secp256k1_n::Fr::from_hex_vartime(
        "0xfffffffffffffffffffffffffffffffe8a280ac50774346dd765cda83db1562c",
    )
    .unwrap();
    const G1: [u64; 4] = [
        0xe893209a45dbb031,
        0x3daa8a1471e8ca7f,
        0xe86c90e49284eb15,
        0x3086d221a7d46bcd,
    ];
    const G2: [u64; 4] = [
        0x1571b4ae8ac47f71,
        0x221208ac9df506c6,
        0x6f547fa90abfe4c4,
        0xe4437ed6010e8828,
    ];

    #[cfg(feature = "std")]
    fn glv_base_table() -> Option<&'static crate::glv::GlvBaseTable<Self>> {
        static TABLE: std::sync::OnceLock<crate::glv::GlvBaseTable<Secp256k1>> =
            std::sync::OnceLock::new();
        Some(TABLE.get_or_init(|| crate::glv::GlvBaseTable::new(&ProjectivePoint::GENERATOR)))
    }
}

/// A P-256 point in affine coordinates.
pub type P256Affine = AffinePoint<P256>;
/// A P-256 point in projective coordinates.
pub type P256Point = ProjectivePoint<P256>;
/// A secp256k1 point in projective coordinates.
pub type Secp256k1Point = ProjectivePoint<Secp256k1>;
/// A P-384 point in projective coordinates.
pub type P384Point = ProjectivePoint<P384>;
/// A P-224 point in projective coordinates.
pub type P224Point = ProjectivePoint<P224>;
