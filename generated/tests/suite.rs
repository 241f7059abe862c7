//! The shared oracle suite (`fieldgen_tests::prime_field_suite!`) for every committed preset at
//! 64- and 32-bit limbs. The moduli below are written out independently of the generator: the
//! fixed primes from their specifications (RFC 7748 §4.1, FIPS 186-4 D.1.2.2–D.1.2.4, SEC 2 v2 §2.4.1,
//! draft-irtf-cfrg-pairing-friendly-curves), the BN primes evaluated from
//! p(z) = 36z⁴+36z³+24z²+6z+1 and r(z) = 36z⁴+36z³+18z²+6z+1 at the mcl curve parameters z.

fieldgen_tests::prime_field_suite!(
    curve25519_p_64,
    fieldgen_generated::curve25519_p_64::Fp,
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
    64
);
fieldgen_tests::prime_field_suite!(
    curve25519_p_32,
    fieldgen_generated::curve25519_p_32::Fp,
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
    32
);
fieldgen_tests::prime_field_suite!(
    curve25519_l_64,
    fieldgen_generated::curve25519_l_64::Fr,
    "0x1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed",
    64
);
fieldgen_tests::prime_field_suite!(
    curve25519_l_32,
    fieldgen_generated::curve25519_l_32::Fr,
    "0x1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed",
    32
);
fieldgen_tests::prime_field_suite!(
    p256_p_64,
    fieldgen_generated::p256_p_64::Fp,
    "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
    64
);
fieldgen_tests::prime_field_suite!(
    p256_p_32,
    fieldgen_generated::p256_p_32::Fp,
    "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
    32
);
fieldgen_tests::prime_field_suite!(
    p256_n_64,
    fieldgen_generated::p256_n_64::Fr,
    "0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
    64
);
fieldgen_tests::prime_field_suite!(
    p256_n_32,
    fieldgen_generated::p256_n_32::Fr,
    "0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
    32
);
fieldgen_tests::prime_field_suite!(
    secp256k1_p_64,
    fieldgen_generated::secp256k1_p_64::Fp,
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
    64
);
fieldgen_tests::prime_field_suite!(
    secp256k1_p_32,
    fieldgen_generated::secp256k1_p_32::Fp,
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
    32
);
fieldgen_tests::prime_field_suite!(
    secp256k1_n_64,
    fieldgen_generated::secp256k1_n_64::Fr,
    "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
    64
);
fieldgen_tests::prime_field_suite!(
    secp256k1_n_32,
    fieldgen_generated::secp256k1_n_32::Fr,
    "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
    32
);
fieldgen_tests::prime_field_suite!(
    p224_p_64,
    fieldgen_generated::p224_p_64::Fp,
    "0xffffffffffffffffffffffffffffffff000000000000000000000001",
    64
);
fieldgen_tests::prime_field_suite!(
    p224_p_32,
    fieldgen_generated::p224_p_32::Fp,
    "0xffffffffffffffffffffffffffffffff000000000000000000000001",
    32
);
fieldgen_tests::prime_field_suite!(
    p224_n_64,
    fieldgen_generated::p224_n_64::Fr,
    "0xffffffffffffffffffffffffffff16a2e0b8f03e13dd29455c5c2a3d",
    64
);
fieldgen_tests::prime_field_suite!(
    p224_n_32,
    fieldgen_generated::p224_n_32::Fr,
    "0xffffffffffffffffffffffffffff16a2e0b8f03e13dd29455c5c2a3d",
    32
);
fieldgen_tests::prime_field_suite!(
    p384_n_64,
    fieldgen_generated::p384_n_64::Fr,
    "0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973",
    64
);
fieldgen_tests::prime_field_suite!(
    p384_n_32,
    fieldgen_generated::p384_n_32::Fr,
    "0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973",
    32
);
fieldgen_tests::prime_field_suite!(bls12_381_p_64, fieldgen_generated::bls12_381_p_64::Fp, "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 64);
fieldgen_tests::prime_field_suite!(bls12_381_p_32, fieldgen_generated::bls12_381_p_32::Fp, "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 32);
fieldgen_tests::prime_field_suite!(
    bls12_381_r_64,
    fieldgen_generated::bls12_381_r_64::Fr,
    "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
    64
);
fieldgen_tests::prime_field_suite!(
    bls12_381_r_32,
    fieldgen_generated::bls12_381_r_32::Fr,
    "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
    32
);
fieldgen_tests::prime_field_suite!(
    bn254_p_64,
    fieldgen_generated::bn254_p_64::Fp,
    "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
    64
);
fieldgen_tests::prime_field_suite!(
    bn254_p_32,
    fieldgen_generated::bn254_p_32::Fp,
    "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
    32
);
fieldgen_tests::prime_field_suite!(
    bn254_r_64,
    fieldgen_generated::bn254_r_64::Fr,
    "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001",
    64
);
fieldgen_tests::prime_field_suite!(
    bn254_r_32,
    fieldgen_generated::bn254_r_32::Fr,
    "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001",
    32
);
fieldgen_tests::prime_field_suite!(
    fp254bnb_p_64,
    fieldgen_generated::fp254bnb_p_64::Fp,
    "0x2523648240000001ba344d80000000086121000000000013a700000000000013",
    64
);
fieldgen_tests::prime_field_suite!(
    fp254bnb_p_32,
    fieldgen_generated::fp254bnb_p_32::Fp,
    "0x2523648240000001ba344d80000000086121000000000013a700000000000013",
    32
);
fieldgen_tests::prime_field_suite!(
    fp254bnb_r_64,
    fieldgen_generated::fp254bnb_r_64::Fr,
    "0x2523648240000001ba344d8000000007ff9f800000000010a10000000000000d",
    64
);
fieldgen_tests::prime_field_suite!(
    fp254bnb_r_32,
    fieldgen_generated::fp254bnb_r_32::Fr,
    "0x2523648240000001ba344d8000000007ff9f800000000010a10000000000000d",
    32
);
fieldgen_tests::prime_field_suite!(bn381_p_64, fieldgen_generated::bn381_p_64::Fp, "0x240026400f3d82b2e42de125b00158405b710818ac00000840046200950400000000001380052e000000000000000013", 64);
fieldgen_tests::prime_field_suite!(bn381_p_32, fieldgen_generated::bn381_p_32::Fp, "0x240026400f3d82b2e42de125b00158405b710818ac00000840046200950400000000001380052e000000000000000013", 32);
fieldgen_tests::prime_field_suite!(bn381_r_64, fieldgen_generated::bn381_r_64::Fr, "0x240026400f3d82b2e42de125b00158405b710818ac000007e0042f008e3e00000000001080046200000000000000000d", 64);
fieldgen_tests::prime_field_suite!(bn381_r_32, fieldgen_generated::bn381_r_32::Fr, "0x240026400f3d82b2e42de125b00158405b710818ac000007e0042f008e3e00000000001080046200000000000000000d", 32);
fieldgen_tests::prime_field_suite!(bn462_p_64, fieldgen_generated::bn462_p_64::Fp, "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908f41c8020ffffffffff6ff66fc6ff687f640000000002401b00840138013", 64);
fieldgen_tests::prime_field_suite!(bn462_p_32, fieldgen_generated::bn462_p_32::Fp, "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908f41c8020ffffffffff6ff66fc6ff687f640000000002401b00840138013", 32);
fieldgen_tests::prime_field_suite!(bn462_r_64, fieldgen_generated::bn462_r_64::Fr, "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908ee1c201f7fffffffff6ff66fc7bf717f7c0000000002401b007e010800d", 64);
fieldgen_tests::prime_field_suite!(bn462_r_32, fieldgen_generated::bn462_r_32::Fr, "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908ee1c201f7fffffffff6ff66fc7bf717f7c0000000002401b007e010800d", 32);

// Special forms (p = 2^k - c). p127 and p521 are Mersenne primes; P-384 from FIPS 186-4
// D.1.2.4 and SEC 2 v2 §2.5.1; Goldilocks from RFC 7748 §4.2. The `_solinas` modules are the
// same primes generated with `--strategy solinas`, the `_montgomery` ones with `--strategy
// montgomery`.
fieldgen_tests::prime_field_suite!(
    p127_p_64,
    fieldgen_generated::p127_p_64::Fp,
    "0x7fffffffffffffffffffffffffffffff",
    64
);
fieldgen_tests::prime_field_suite!(
    p127_p_32,
    fieldgen_generated::p127_p_32::Fp,
    "0x7fffffffffffffffffffffffffffffff",
    32
);
fieldgen_tests::prime_field_suite!(p521_p_64, fieldgen_generated::p521_p_64::Fp, "0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", 64);
fieldgen_tests::prime_field_suite!(p521_p_32, fieldgen_generated::p521_p_32::Fp, "0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", 32);
fieldgen_tests::prime_field_suite!(p384_p_64, fieldgen_generated::p384_p_64::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff", 64);
fieldgen_tests::prime_field_suite!(p384_p_32, fieldgen_generated::p384_p_32::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff", 32);
fieldgen_tests::prime_field_suite!(goldilocks_p_64, fieldgen_generated::goldilocks_p_64::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff", 64);
fieldgen_tests::prime_field_suite!(goldilocks_p_32, fieldgen_generated::goldilocks_p_32::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff", 32);
fieldgen_tests::prime_field_suite!(
    secp256k1_p_montgomery_64,
    fieldgen_generated::secp256k1_p_montgomery_64::Fp,
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
    64
);
fieldgen_tests::prime_field_suite!(
    secp256k1_p_solinas_32,
    fieldgen_generated::secp256k1_p_solinas_32::Fp,
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
    32
);
fieldgen_tests::prime_field_suite!(p384_p_solinas_64, fieldgen_generated::p384_p_solinas_64::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff", 64);
fieldgen_tests::prime_field_suite!(p384_p_solinas_32, fieldgen_generated::p384_p_solinas_32::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff", 32);
fieldgen_tests::prime_field_suite!(goldilocks_p_solinas_64, fieldgen_generated::goldilocks_p_solinas_64::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff", 64);
fieldgen_tests::prime_field_suite!(goldilocks_p_solinas_32, fieldgen_generated::goldilocks_p_solinas_32::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff", 32);
fieldgen_tests::prime_field_suite!(
    curve25519_p_montgomery_64,
    fieldgen_generated::curve25519_p_montgomery_64::Fp,
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
    64
);

// Unsaturated radix (`--strategy unsaturated`): 2^255 − 19 as 5 × 51 and 10 × 25.5 bits,
// 2^521 − 1 as 9 × 58 and 21 × 24.8 bits.
fieldgen_tests::prime_field_suite!(
    curve25519_p_unsaturated_64,
    fieldgen_generated::curve25519_p_unsaturated_64::Fp,
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
    64
);
fieldgen_tests::prime_field_suite!(
    curve25519_p_unsaturated_32,
    fieldgen_generated::curve25519_p_unsaturated_32::Fp,
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
    32
);
fieldgen_tests::prime_field_suite!(p521_p_unsaturated_64, fieldgen_generated::p521_p_unsaturated_64::Fp, "0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", 64);
fieldgen_tests::prime_field_suite!(p521_p_unsaturated_32, fieldgen_generated::p521_p_unsaturated_32::Fp, "0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", 32);

// NIST P-256 p with `--strategy solinas`: the signed 32-bit terms of FIPS 186-4 D.2.3.
fieldgen_tests::prime_field_suite!(
    p256_p_solinas_64,
    fieldgen_generated::p256_p_solinas_64::Fp,
    "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
    64
);
fieldgen_tests::prime_field_suite!(
    p256_p_solinas_32,
    fieldgen_generated::p256_p_solinas_32::Fp,
    "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
    32
);
