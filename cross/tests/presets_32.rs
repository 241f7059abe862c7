//! The oracle suite (`fieldgen_tests::prime_field_suite!`) for every committed preset at
//! 32-bit limbs, built for the target under test (cross-compiled and run under an emulator by
//! `scripts/cross.sh`). The moduli are the ones `generated/tests/suite.rs` writes out from the
//! curves' specifications (RFC 7748 §4.1, FIPS 186-4 D.1.2.3, SEC 2 v2 §2.4.1,
//! draft-irtf-cfrg-pairing-friendly-curves, the mcl BN parameters), not taken from the generator.

fieldgen_tests::prime_field_suite!(
    curve25519_p_32,
    fieldgen_generated::curve25519_p_32::Fp,
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
    32
);
fieldgen_tests::prime_field_suite!(
    curve25519_l_32,
    fieldgen_generated::curve25519_l_32::Fr,
    "0x1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed",
    32
);
fieldgen_tests::prime_field_suite!(
    p256_p_32,
    fieldgen_generated::p256_p_32::Fp,
    "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
    32
);
fieldgen_tests::prime_field_suite!(
    p256_n_32,
    fieldgen_generated::p256_n_32::Fr,
    "0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
    32
);
fieldgen_tests::prime_field_suite!(
    secp256k1_p_32,
    fieldgen_generated::secp256k1_p_32::Fp,
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
    32
);
fieldgen_tests::prime_field_suite!(
    secp256k1_n_32,
    fieldgen_generated::secp256k1_n_32::Fr,
    "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
    32
);
fieldgen_tests::prime_field_suite!(bls12_381_p_32, fieldgen_generated::bls12_381_p_32::Fp, "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 32);
fieldgen_tests::prime_field_suite!(
    bls12_381_r_32,
    fieldgen_generated::bls12_381_r_32::Fr,
    "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
    32
);
fieldgen_tests::prime_field_suite!(
    bn254_p_32,
    fieldgen_generated::bn254_p_32::Fp,
    "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
    32
);
fieldgen_tests::prime_field_suite!(
    bn254_r_32,
    fieldgen_generated::bn254_r_32::Fr,
    "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001",
    32
);
fieldgen_tests::prime_field_suite!(
    fp254bnb_p_32,
    fieldgen_generated::fp254bnb_p_32::Fp,
    "0x2523648240000001ba344d80000000086121000000000013a700000000000013",
    32
);
fieldgen_tests::prime_field_suite!(
    fp254bnb_r_32,
    fieldgen_generated::fp254bnb_r_32::Fr,
    "0x2523648240000001ba344d8000000007ff9f800000000010a10000000000000d",
    32
);
fieldgen_tests::prime_field_suite!(bn381_p_32, fieldgen_generated::bn381_p_32::Fp, "0x240026400f3d82b2e42de125b00158405b710818ac00000840046200950400000000001380052e000000000000000013", 32);
fieldgen_tests::prime_field_suite!(bn381_r_32, fieldgen_generated::bn381_r_32::Fr, "0x240026400f3d82b2e42de125b00158405b710818ac000007e0042f008e3e00000000001080046200000000000000000d", 32);
fieldgen_tests::prime_field_suite!(bn462_p_32, fieldgen_generated::bn462_p_32::Fp, "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908f41c8020ffffffffff6ff66fc6ff687f640000000002401b00840138013", 32);
fieldgen_tests::prime_field_suite!(bn462_r_32, fieldgen_generated::bn462_r_32::Fr, "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908ee1c201f7fffffffff6ff66fc7bf717f7c0000000002401b007e010800d", 32);

// `--strategy unsaturated` (2^255 − 19) and `--strategy solinas` (P-256, signed 32-bit terms).
fieldgen_tests::prime_field_suite!(
    curve25519_p_unsaturated_32,
    fieldgen_generated::curve25519_p_unsaturated_32::Fp,
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
    32
);
fieldgen_tests::prime_field_suite!(
    p256_p_solinas_32,
    fieldgen_generated::p256_p_solinas_32::Fp,
    "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
    32
);

fieldgen_cross::backend_tests! {
    curve25519_p_32: fieldgen_generated::curve25519_p_32::Fp => 32,
    curve25519_l_32: fieldgen_generated::curve25519_l_32::Fr => 32,
    p256_p_32: fieldgen_generated::p256_p_32::Fp => 32,
    p256_n_32: fieldgen_generated::p256_n_32::Fr => 32,
    secp256k1_p_32: fieldgen_generated::secp256k1_p_32::Fp => 32,
    secp256k1_n_32: fieldgen_generated::secp256k1_n_32::Fr => 32,
    bls12_381_p_32: fieldgen_generated::bls12_381_p_32::Fp => 32,
    bls12_381_r_32: fieldgen_generated::bls12_381_r_32::Fr => 32,
    bn254_p_32: fieldgen_generated::bn254_p_32::Fp => 32,
    bn254_r_32: fieldgen_generated::bn254_r_32::Fr => 32,
    fp254bnb_p_32: fieldgen_generated::fp254bnb_p_32::Fp => 32,
    fp254bnb_r_32: fieldgen_generated::fp254bnb_r_32::Fr => 32,
    bn381_p_32: fieldgen_generated::bn381_p_32::Fp => 32,
    bn381_r_32: fieldgen_generated::bn381_r_32::Fr => 32,
    bn462_p_32: fieldgen_generated::bn462_p_32::Fp => 32,
    bn462_r_32: fieldgen_generated::bn462_r_32::Fr => 32,
}
