//! The field layer (`fieldgen-field`) on every committed field: each driven only through the
//! traits and the `const fn` constructors, against num-bigint and the GF(2^m) oracle
//! (`fieldgen_tests::layer`). Moduli as in `suite.rs` and `binary.rs`, written out independently
//! of the generator. Montgomery-form fields also run the double-width checks.

use fieldgen_generated as g;

fieldgen_tests::field_layer_suite!(
    curve25519_p_64,
    g::curve25519_p_64::Fp,
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed"
);
fieldgen_tests::field_layer_suite!(
    curve25519_p_32,
    g::curve25519_p_32::Fp,
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed"
);
fieldgen_tests::field_layer_suite!(
    curve25519_l_64,
    g::curve25519_l_64::Fr,
    "0x1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed"
);
fieldgen_tests::wide_field_suite!(
    curve25519_l_64_wide,
    g::curve25519_l_64::Fr,
    "0x1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed",
    64
);
fieldgen_tests::field_layer_suite!(
    curve25519_l_32,
    g::curve25519_l_32::Fr,
    "0x1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed"
);
fieldgen_tests::wide_field_suite!(
    curve25519_l_32_wide,
    g::curve25519_l_32::Fr,
    "0x1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed",
    32
);
fieldgen_tests::field_layer_suite!(
    p256_p_64,
    g::p256_p_64::Fp,
    "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff"
);
fieldgen_tests::wide_field_suite!(
    p256_p_64_wide,
    g::p256_p_64::Fp,
    "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
    64
);
fieldgen_tests::field_layer_suite!(
    p256_p_32,
    g::p256_p_32::Fp,
    "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff"
);
fieldgen_tests::wide_field_suite!(
    p256_p_32_wide,
    g::p256_p_32::Fp,
    "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
    32
);
fieldgen_tests::field_layer_suite!(
    p256_n_64,
    g::p256_n_64::Fr,
    "0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"
);
fieldgen_tests::wide_field_suite!(
    p256_n_64_wide,
    g::p256_n_64::Fr,
    "0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
    64
);
fieldgen_tests::field_layer_suite!(
    p256_n_32,
    g::p256_n_32::Fr,
    "0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"
);
fieldgen_tests::wide_field_suite!(
    p256_n_32_wide,
    g::p256_n_32::Fr,
    "0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
    32
);
fieldgen_tests::field_layer_suite!(
    secp256k1_p_64,
    g::secp256k1_p_64::Fp,
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f"
);
fieldgen_tests::field_layer_suite!(
    secp256k1_p_32,
    g::secp256k1_p_32::Fp,
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f"
);
fieldgen_tests::wide_field_suite!(
    secp256k1_p_32_wide,
    g::secp256k1_p_32::Fp,
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
    32
);
fieldgen_tests::field_layer_suite!(
    secp256k1_n_64,
    g::secp256k1_n_64::Fr,
    "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141"
);
fieldgen_tests::wide_field_suite!(
    secp256k1_n_64_wide,
    g::secp256k1_n_64::Fr,
    "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
    64
);
fieldgen_tests::field_layer_suite!(
    secp256k1_n_32,
    g::secp256k1_n_32::Fr,
    "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141"
);
fieldgen_tests::wide_field_suite!(
    secp256k1_n_32_wide,
    g::secp256k1_n_32::Fr,
    "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
    32
);
fieldgen_tests::field_layer_suite!(bls12_381_p_64, g::bls12_381_p_64::Fp, "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
fieldgen_tests::wide_field_suite!(bls12_381_p_64_wide, g::bls12_381_p_64::Fp, "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 64);
fieldgen_tests::field_layer_suite!(bls12_381_p_32, g::bls12_381_p_32::Fp, "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
fieldgen_tests::wide_field_suite!(bls12_381_p_32_wide, g::bls12_381_p_32::Fp, "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 32);
fieldgen_tests::field_layer_suite!(
    bls12_381_r_64,
    g::bls12_381_r_64::Fr,
    "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"
);
fieldgen_tests::wide_field_suite!(
    bls12_381_r_64_wide,
    g::bls12_381_r_64::Fr,
    "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
    64
);
fieldgen_tests::field_layer_suite!(
    bls12_381_r_32,
    g::bls12_381_r_32::Fr,
    "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"
);
fieldgen_tests::wide_field_suite!(
    bls12_381_r_32_wide,
    g::bls12_381_r_32::Fr,
    "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
    32
);
fieldgen_tests::field_layer_suite!(
    bn254_p_64,
    g::bn254_p_64::Fp,
    "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47"
);
fieldgen_tests::wide_field_suite!(
    bn254_p_64_wide,
    g::bn254_p_64::Fp,
    "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
    64
);
fieldgen_tests::field_layer_suite!(
    bn254_p_32,
    g::bn254_p_32::Fp,
    "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47"
);
fieldgen_tests::wide_field_suite!(
    bn254_p_32_wide,
    g::bn254_p_32::Fp,
    "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
    32
);
fieldgen_tests::field_layer_suite!(
    bn254_r_64,
    g::bn254_r_64::Fr,
    "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"
);
fieldgen_tests::wide_field_suite!(
    bn254_r_64_wide,
    g::bn254_r_64::Fr,
    "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001",
    64
);
fieldgen_tests::field_layer_suite!(
    bn254_r_32,
    g::bn254_r_32::Fr,
    "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"
);
fieldgen_tests::wide_field_suite!(
    bn254_r_32_wide,
    g::bn254_r_32::Fr,
    "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001",
    32
);
fieldgen_tests::field_layer_suite!(
    fp254bnb_p_64,
    g::fp254bnb_p_64::Fp,
    "0x2523648240000001ba344d80000000086121000000000013a700000000000013"
);
fieldgen_tests::wide_field_suite!(
    fp254bnb_p_64_wide,
    g::fp254bnb_p_64::Fp,
    "0x2523648240000001ba344d80000000086121000000000013a700000000000013",
    64
);
fieldgen_tests::field_layer_suite!(
    fp254bnb_p_32,
    g::fp254bnb_p_32::Fp,
    "0x2523648240000001ba344d80000000086121000000000013a700000000000013"
);
fieldgen_tests::wide_field_suite!(
    fp254bnb_p_32_wide,
    g::fp254bnb_p_32::Fp,
    "0x2523648240000001ba344d80000000086121000000000013a700000000000013",
    32
);
fieldgen_tests::field_layer_suite!(
    fp254bnb_r_64,
    g::fp254bnb_r_64::Fr,
    "0x2523648240000001ba344d8000000007ff9f800000000010a10000000000000d"
);
fieldgen_tests::wide_field_suite!(
    fp254bnb_r_64_wide,
    g::fp254bnb_r_64::Fr,
    "0x2523648240000001ba344d8000000007ff9f800000000010a10000000000000d",
    64
);
fieldgen_tests::field_layer_suite!(
    fp254bnb_r_32,
    g::fp254bnb_r_32::Fr,
    "0x2523648240000001ba344d8000000007ff9f800000000010a10000000000000d"
);
fieldgen_tests::wide_field_suite!(
    fp254bnb_r_32_wide,
    g::fp254bnb_r_32::Fr,
    "0x2523648240000001ba344d8000000007ff9f800000000010a10000000000000d",
    32
);
fieldgen_tests::field_layer_suite!(bn381_p_64, g::bn381_p_64::Fp, "0x240026400f3d82b2e42de125b00158405b710818ac00000840046200950400000000001380052e000000000000000013");
fieldgen_tests::wide_field_suite!(bn381_p_64_wide, g::bn381_p_64::Fp, "0x240026400f3d82b2e42de125b00158405b710818ac00000840046200950400000000001380052e000000000000000013", 64);
fieldgen_tests::field_layer_suite!(bn381_p_32, g::bn381_p_32::Fp, "0x240026400f3d82b2e42de125b00158405b710818ac00000840046200950400000000001380052e000000000000000013");
fieldgen_tests::wide_field_suite!(bn381_p_32_wide, g::bn381_p_32::Fp, "0x240026400f3d82b2e42de125b00158405b710818ac00000840046200950400000000001380052e000000000000000013", 32);
fieldgen_tests::field_layer_suite!(bn381_r_64, g::bn381_r_64::Fr, "0x240026400f3d82b2e42de125b00158405b710818ac000007e0042f008e3e00000000001080046200000000000000000d");
fieldgen_tests::wide_field_suite!(bn381_r_64_wide, g::bn381_r_64::Fr, "0x240026400f3d82b2e42de125b00158405b710818ac000007e0042f008e3e00000000001080046200000000000000000d", 64);
fieldgen_tests::field_layer_suite!(bn381_r_32, g::bn381_r_32::Fr, "0x240026400f3d82b2e42de125b00158405b710818ac000007e0042f008e3e00000000001080046200000000000000000d");
fieldgen_tests::wide_field_suite!(bn381_r_32_wide, g::bn381_r_32::Fr, "0x240026400f3d82b2e42de125b00158405b710818ac000007e0042f008e3e00000000001080046200000000000000000d", 32);
fieldgen_tests::field_layer_suite!(bn462_p_64, g::bn462_p_64::Fp, "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908f41c8020ffffffffff6ff66fc6ff687f640000000002401b00840138013");
fieldgen_tests::wide_field_suite!(bn462_p_64_wide, g::bn462_p_64::Fp, "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908f41c8020ffffffffff6ff66fc6ff687f640000000002401b00840138013", 64);
fieldgen_tests::field_layer_suite!(bn462_p_32, g::bn462_p_32::Fp, "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908f41c8020ffffffffff6ff66fc6ff687f640000000002401b00840138013");
fieldgen_tests::wide_field_suite!(bn462_p_32_wide, g::bn462_p_32::Fp, "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908f41c8020ffffffffff6ff66fc6ff687f640000000002401b00840138013", 32);
fieldgen_tests::field_layer_suite!(bn462_r_64, g::bn462_r_64::Fr, "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908ee1c201f7fffffffff6ff66fc7bf717f7c0000000002401b007e010800d");
fieldgen_tests::wide_field_suite!(bn462_r_64_wide, g::bn462_r_64::Fr, "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908ee1c201f7fffffffff6ff66fc7bf717f7c0000000002401b007e010800d", 64);
fieldgen_tests::field_layer_suite!(bn462_r_32, g::bn462_r_32::Fr, "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908ee1c201f7fffffffff6ff66fc7bf717f7c0000000002401b007e010800d");
fieldgen_tests::wide_field_suite!(bn462_r_32_wide, g::bn462_r_32::Fr, "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908ee1c201f7fffffffff6ff66fc7bf717f7c0000000002401b007e010800d", 32);
fieldgen_tests::field_layer_suite!(
    p127_p_64,
    g::p127_p_64::Fp,
    "0x7fffffffffffffffffffffffffffffff"
);
fieldgen_tests::field_layer_suite!(
    p127_p_32,
    g::p127_p_32::Fp,
    "0x7fffffffffffffffffffffffffffffff"
);
fieldgen_tests::field_layer_suite!(p521_p_64, g::p521_p_64::Fp, "0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
fieldgen_tests::field_layer_suite!(p521_p_32, g::p521_p_32::Fp, "0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
fieldgen_tests::field_layer_suite!(p384_p_64, g::p384_p_64::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff");
fieldgen_tests::wide_field_suite!(p384_p_64_wide, g::p384_p_64::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff", 64);
fieldgen_tests::field_layer_suite!(p384_p_32, g::p384_p_32::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff");
fieldgen_tests::wide_field_suite!(p384_p_32_wide, g::p384_p_32::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff", 32);
fieldgen_tests::field_layer_suite!(goldilocks_p_64, g::goldilocks_p_64::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
fieldgen_tests::wide_field_suite!(goldilocks_p_64_wide, g::goldilocks_p_64::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff", 64);
fieldgen_tests::field_layer_suite!(goldilocks_p_32, g::goldilocks_p_32::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
fieldgen_tests::wide_field_suite!(goldilocks_p_32_wide, g::goldilocks_p_32::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff", 32);
fieldgen_tests::field_layer_suite!(
    secp256k1_p_montgomery_64,
    g::secp256k1_p_montgomery_64::Fp,
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f"
);
fieldgen_tests::wide_field_suite!(
    secp256k1_p_montgomery_64_wide,
    g::secp256k1_p_montgomery_64::Fp,
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
    64
);
fieldgen_tests::field_layer_suite!(
    secp256k1_p_solinas_32,
    g::secp256k1_p_solinas_32::Fp,
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f"
);
fieldgen_tests::field_layer_suite!(p384_p_solinas_64, g::p384_p_solinas_64::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff");
fieldgen_tests::field_layer_suite!(p384_p_solinas_32, g::p384_p_solinas_32::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff");
fieldgen_tests::field_layer_suite!(goldilocks_p_solinas_64, g::goldilocks_p_solinas_64::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
fieldgen_tests::field_layer_suite!(goldilocks_p_solinas_32, g::goldilocks_p_solinas_32::Fp, "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
fieldgen_tests::field_layer_suite!(
    curve25519_p_montgomery_64,
    g::curve25519_p_montgomery_64::Fp,
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed"
);
fieldgen_tests::wide_field_suite!(
    curve25519_p_montgomery_64_wide,
    g::curve25519_p_montgomery_64::Fp,
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
    64
);
fieldgen_tests::field_layer_suite!(
    curve25519_p_unsaturated_64,
    g::curve25519_p_unsaturated_64::Fp,
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed"
);
fieldgen_tests::field_layer_suite!(
    curve25519_p_unsaturated_32,
    g::curve25519_p_unsaturated_32::Fp,
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed"
);
fieldgen_tests::field_layer_suite!(p521_p_unsaturated_64, g::p521_p_unsaturated_64::Fp, "0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
fieldgen_tests::field_layer_suite!(p521_p_unsaturated_32, g::p521_p_unsaturated_32::Fp, "0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
fieldgen_tests::field_layer_suite!(
    p256_p_solinas_64,
    g::p256_p_solinas_64::Fp,
    "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff"
);
fieldgen_tests::field_layer_suite!(
    p256_p_solinas_32,
    g::p256_p_solinas_32::Fp,
    "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff"
);
fieldgen_tests::binary_layer_suite!(sect163_64, g::sect163_64::F163, "x^163+x^7+x^6+x^3+1");
fieldgen_tests::binary_layer_suite!(sect163_32, g::sect163_32::F163, "x^163+x^7+x^6+x^3+1");
fieldgen_tests::binary_layer_suite!(sect193_64, g::sect193_64::F193, "x^193+x^15+1");
fieldgen_tests::binary_layer_suite!(sect193_32, g::sect193_32::F193, "x^193+x^15+1");
fieldgen_tests::binary_layer_suite!(sect233_64, g::sect233_64::F233, "x^233+x^74+1");
fieldgen_tests::binary_layer_suite!(sect233_32, g::sect233_32::F233, "x^233+x^74+1");
fieldgen_tests::binary_layer_suite!(sect239_64, g::sect239_64::F239, "x^239+x^158+1");
fieldgen_tests::binary_layer_suite!(sect239_32, g::sect239_32::F239, "x^239+x^158+1");
fieldgen_tests::binary_layer_suite!(sect283_64, g::sect283_64::F283, "x^283+x^12+x^7+x^5+1");
fieldgen_tests::binary_layer_suite!(sect283_32, g::sect283_32::F283, "x^283+x^12+x^7+x^5+1");
fieldgen_tests::binary_layer_suite!(sect409_64, g::sect409_64::F409, "x^409+x^87+1");
fieldgen_tests::binary_layer_suite!(sect409_32, g::sect409_32::F409, "x^409+x^87+1");
fieldgen_tests::binary_layer_suite!(sect571_64, g::sect571_64::F571, "x^571+x^10+x^5+x^2+1");
fieldgen_tests::binary_layer_suite!(sect571_32, g::sect571_32::F571, "x^571+x^10+x^5+x^2+1");
fieldgen_tests::binary_layer_suite!(gf2_155_64, g::gf2_155_64::F155, "x^155+x^62+1");
fieldgen_tests::binary_layer_suite!(gf2_155_32, g::gf2_155_32::F155, "x^155+x^62+1");
fieldgen_tests::binary_layer_suite!(gf2_2_dense_64, g::gf2_2_dense_64::F2, "x^2+x+1");
fieldgen_tests::binary_layer_suite!(gf2_2_dense_32, g::gf2_2_dense_32::F2, "x^2+x+1");
fieldgen_tests::binary_layer_suite!(gf2_3_tri_64, g::gf2_3_tri_64::F3, "x^3+x+1");
fieldgen_tests::binary_layer_suite!(gf2_3_tri_32, g::gf2_3_tri_32::F3, "x^3+x+1");
fieldgen_tests::binary_layer_suite!(gf2_8_penta_64, g::gf2_8_penta_64::F8, "x^8+x^4+x^3+x+1");
fieldgen_tests::binary_layer_suite!(gf2_8_penta_32, g::gf2_8_penta_32::F8, "x^8+x^4+x^3+x+1");
fieldgen_tests::binary_layer_suite!(
    gf2_31_dense_64,
    g::gf2_31_dense_64::F31,
    "x^31+x^29+x^26+x^25+x^22+x^20+x^18+x^12+x^10+x^7+x^6+x+1"
);
fieldgen_tests::binary_layer_suite!(
    gf2_31_dense_32,
    g::gf2_31_dense_32::F31,
    "x^31+x^29+x^26+x^25+x^22+x^20+x^18+x^12+x^10+x^7+x^6+x+1"
);
fieldgen_tests::binary_layer_suite!(gf2_63_tri_64, g::gf2_63_tri_64::F63, "x^63+x+1");
fieldgen_tests::binary_layer_suite!(gf2_63_tri_32, g::gf2_63_tri_32::F63, "x^63+x+1");
fieldgen_tests::binary_layer_suite!(gf2_64_dense_64, g::gf2_64_dense_64::F64, "x^64+x^63+x^61+x^59+x^57+x^56+x^54+x^53+x^52+x^51+x^50+x^47+x^44+x^43+x^42+x^38+x^37+x^35+x^33+x^31+x^29+x^28+x^27+x^23+x^20+x^17+x^16+x^14+x^11+x^8+x^5+x^4+1");
fieldgen_tests::binary_layer_suite!(gf2_64_dense_32, g::gf2_64_dense_32::F64, "x^64+x^63+x^61+x^59+x^57+x^56+x^54+x^53+x^52+x^51+x^50+x^47+x^44+x^43+x^42+x^38+x^37+x^35+x^33+x^31+x^29+x^28+x^27+x^23+x^20+x^17+x^16+x^14+x^11+x^8+x^5+x^4+1");
fieldgen_tests::binary_layer_suite!(
    gf2_65_penta_64,
    g::gf2_65_penta_64::F65,
    "x^65+x^31+x^18+x^7+1"
);
fieldgen_tests::binary_layer_suite!(
    gf2_65_penta_32,
    g::gf2_65_penta_32::F65,
    "x^65+x^31+x^18+x^7+1"
);
fieldgen_tests::binary_layer_suite!(gf2_127_tri_64, g::gf2_127_tri_64::F127, "x^127+x+1");
fieldgen_tests::binary_layer_suite!(gf2_127_tri_32, g::gf2_127_tri_32::F127, "x^127+x+1");
fieldgen_tests::binary_layer_suite!(gf2_128_dense_64, g::gf2_128_dense_64::F128, "x^128+x^122+x^120+x^118+x^113+x^111+x^110+x^109+x^108+x^107+x^105+x^104+x^101+x^100+x^99+x^98+x^97+x^96+x^94+x^92+x^91+x^90+x^87+x^85+x^84+x^81+x^80+x^74+x^73+x^71+x^70+x^69+x^68+x^66+x^61+x^60+x^59+x^58+x^57+x^53+x^49+x^46+x^44+x^43+x^41+x^40+x^37+x^36+x^35+x^34+x^30+x^28+x^27+x^26+x^24+x^23+x^21+x^20+x^19+x^17+x^16+x^15+x^14+x^11+x^10+x^9+x^8+x^6+x^5+x^4+x^3+x^2+1");
fieldgen_tests::binary_layer_suite!(gf2_128_dense_32, g::gf2_128_dense_32::F128, "x^128+x^122+x^120+x^118+x^113+x^111+x^110+x^109+x^108+x^107+x^105+x^104+x^101+x^100+x^99+x^98+x^97+x^96+x^94+x^92+x^91+x^90+x^87+x^85+x^84+x^81+x^80+x^74+x^73+x^71+x^70+x^69+x^68+x^66+x^61+x^60+x^59+x^58+x^57+x^53+x^49+x^46+x^44+x^43+x^41+x^40+x^37+x^36+x^35+x^34+x^30+x^28+x^27+x^26+x^24+x^23+x^21+x^20+x^19+x^17+x^16+x^15+x^14+x^11+x^10+x^9+x^8+x^6+x^5+x^4+x^3+x^2+1");
fieldgen_tests::binary_layer_suite!(
    gf2_129_penta_64,
    g::gf2_129_penta_64::F129,
    "x^129+x^117+x^116+x^111+1"
);
fieldgen_tests::binary_layer_suite!(
    gf2_129_penta_32,
    g::gf2_129_penta_32::F129,
    "x^129+x^117+x^116+x^111+1"
);
fieldgen_tests::binary_layer_suite!(gf2_191_tri_64, g::gf2_191_tri_64::F191, "x^191+x^173+1");
fieldgen_tests::binary_layer_suite!(gf2_191_tri_32, g::gf2_191_tri_32::F191, "x^191+x^173+1");
fieldgen_tests::binary_layer_suite!(gf2_256_dense_64, g::gf2_256_dense_64::F256, "x^256+x^253+x^251+x^250+x^249+x^248+x^244+x^239+x^238+x^237+x^236+x^235+x^234+x^232+x^230+x^229+x^227+x^226+x^225+x^223+x^222+x^221+x^220+x^218+x^217+x^216+x^215+x^214+x^213+x^212+x^208+x^207+x^206+x^205+x^203+x^200+x^196+x^195+x^194+x^189+x^184+x^181+x^179+x^178+x^176+x^175+x^174+x^173+x^172+x^171+x^170+x^168+x^164+x^163+x^160+x^159+x^155+x^153+x^152+x^151+x^150+x^146+x^143+x^142+x^139+x^138+x^136+x^134+x^133+x^132+x^131+x^129+x^127+x^126+x^123+x^120+x^118+x^116+x^113+x^108+x^107+x^106+x^105+x^104+x^103+x^102+x^101+x^98+x^97+x^94+x^90+x^88+x^85+x^83+x^82+x^74+x^72+x^71+x^69+x^68+x^66+x^65+x^64+x^63+x^60+x^59+x^57+x^54+x^53+x^52+x^51+x^50+x^49+x^48+x^45+x^44+x^42+x^40+x^38+x^37+x^36+x^31+x^30+x^28+x^23+x^21+x^20+x^19+x^18+x^17+x^16+x^15+x^14+x^13+x^11+x^6+x^3+x+1");
fieldgen_tests::binary_layer_suite!(gf2_256_dense_32, g::gf2_256_dense_32::F256, "x^256+x^253+x^251+x^250+x^249+x^248+x^244+x^239+x^238+x^237+x^236+x^235+x^234+x^232+x^230+x^229+x^227+x^226+x^225+x^223+x^222+x^221+x^220+x^218+x^217+x^216+x^215+x^214+x^213+x^212+x^208+x^207+x^206+x^205+x^203+x^200+x^196+x^195+x^194+x^189+x^184+x^181+x^179+x^178+x^176+x^175+x^174+x^173+x^172+x^171+x^170+x^168+x^164+x^163+x^160+x^159+x^155+x^153+x^152+x^151+x^150+x^146+x^143+x^142+x^139+x^138+x^136+x^134+x^133+x^132+x^131+x^129+x^127+x^126+x^123+x^120+x^118+x^116+x^113+x^108+x^107+x^106+x^105+x^104+x^103+x^102+x^101+x^98+x^97+x^94+x^90+x^88+x^85+x^83+x^82+x^74+x^72+x^71+x^69+x^68+x^66+x^65+x^64+x^63+x^60+x^59+x^57+x^54+x^53+x^52+x^51+x^50+x^49+x^48+x^45+x^44+x^42+x^40+x^38+x^37+x^36+x^31+x^30+x^28+x^23+x^21+x^20+x^19+x^18+x^17+x^16+x^15+x^14+x^13+x^11+x^6+x^3+x+1");
fieldgen_tests::binary_layer_suite!(
    gf2_300_penta_64,
    g::gf2_300_penta_64::F300,
    "x^300+x^298+x^285+x^282+1"
);
fieldgen_tests::binary_layer_suite!(
    gf2_300_penta_32,
    g::gf2_300_penta_32::F300,
    "x^300+x^298+x^285+x^282+1"
);
fieldgen_tests::binary_layer_suite!(gf2_521_dense_64, g::gf2_521_dense_64::F521, "x^521+x^520+x^519+x^518+x^517+x^516+x^515+x^513+x^511+x^509+x^508+x^507+x^506+x^505+x^504+x^503+x^500+x^499+x^497+x^495+x^494+x^490+x^488+x^487+x^483+x^480+x^478+x^474+x^473+x^472+x^471+x^470+x^469+x^467+x^465+x^462+x^461+x^458+x^456+x^454+x^453+x^452+x^451+x^450+x^448+x^447+x^445+x^442+x^439+x^437+x^434+x^432+x^431+x^430+x^429+x^425+x^424+x^422+x^418+x^416+x^415+x^414+x^412+x^411+x^410+x^409+x^407+x^406+x^404+x^399+x^395+x^394+x^393+x^392+x^391+x^390+x^389+x^387+x^384+x^382+x^378+x^375+x^374+x^372+x^371+x^368+x^366+x^364+x^363+x^362+x^359+x^357+x^354+x^352+x^351+x^349+x^348+x^345+x^342+x^341+x^340+x^335+x^333+x^332+x^330+x^329+x^328+x^326+x^325+x^323+x^322+x^318+x^315+x^308+x^306+x^304+x^303+x^302+x^301+x^300+x^299+x^291+x^289+x^287+x^284+x^281+x^280+x^279+x^272+x^270+x^267+x^266+x^264+x^262+x^261+x^259+x^256+x^255+x^254+x^253+x^250+x^249+x^245+x^244+x^243+x^239+x^231+x^229+x^228+x^227+x^225+x^224+x^222+x^221+x^220+x^218+x^217+x^216+x^212+x^211+x^209+x^207+x^206+x^203+x^202+x^198+x^197+x^193+x^190+x^189+x^187+x^185+x^184+x^183+x^179+x^169+x^168+x^167+x^166+x^164+x^162+x^161+x^159+x^156+x^154+x^152+x^151+x^148+x^147+x^145+x^143+x^142+x^138+x^136+x^134+x^133+x^132+x^128+x^127+x^123+x^121+x^120+x^119+x^115+x^110+x^107+x^105+x^104+x^103+x^102+x^101+x^99+x^96+x^95+x^92+x^91+x^89+x^88+x^87+x^86+x^85+x^83+x^82+x^81+x^80+x^79+x^72+x^71+x^69+x^68+x^65+x^63+x^60+x^57+x^55+x^51+x^50+x^49+x^48+x^46+x^45+x^44+x^43+x^42+x^41+x^38+x^37+x^36+x^31+x^30+x^29+x^28+x^27+x^26+x^24+x^19+x^18+x^16+x^14+x^9+x^8+x^6+x^5+x^4+x^3+x^2+1");
fieldgen_tests::binary_layer_suite!(gf2_521_dense_32, g::gf2_521_dense_32::F521, "x^521+x^520+x^519+x^518+x^517+x^516+x^515+x^513+x^511+x^509+x^508+x^507+x^506+x^505+x^504+x^503+x^500+x^499+x^497+x^495+x^494+x^490+x^488+x^487+x^483+x^480+x^478+x^474+x^473+x^472+x^471+x^470+x^469+x^467+x^465+x^462+x^461+x^458+x^456+x^454+x^453+x^452+x^451+x^450+x^448+x^447+x^445+x^442+x^439+x^437+x^434+x^432+x^431+x^430+x^429+x^425+x^424+x^422+x^418+x^416+x^415+x^414+x^412+x^411+x^410+x^409+x^407+x^406+x^404+x^399+x^395+x^394+x^393+x^392+x^391+x^390+x^389+x^387+x^384+x^382+x^378+x^375+x^374+x^372+x^371+x^368+x^366+x^364+x^363+x^362+x^359+x^357+x^354+x^352+x^351+x^349+x^348+x^345+x^342+x^341+x^340+x^335+x^333+x^332+x^330+x^329+x^328+x^326+x^325+x^323+x^322+x^318+x^315+x^308+x^306+x^304+x^303+x^302+x^301+x^300+x^299+x^291+x^289+x^287+x^284+x^281+x^280+x^279+x^272+x^270+x^267+x^266+x^264+x^262+x^261+x^259+x^256+x^255+x^254+x^253+x^250+x^249+x^245+x^244+x^243+x^239+x^231+x^229+x^228+x^227+x^225+x^224+x^222+x^221+x^220+x^218+x^217+x^216+x^212+x^211+x^209+x^207+x^206+x^203+x^202+x^198+x^197+x^193+x^190+x^189+x^187+x^185+x^184+x^183+x^179+x^169+x^168+x^167+x^166+x^164+x^162+x^161+x^159+x^156+x^154+x^152+x^151+x^148+x^147+x^145+x^143+x^142+x^138+x^136+x^134+x^133+x^132+x^128+x^127+x^123+x^121+x^120+x^119+x^115+x^110+x^107+x^105+x^104+x^103+x^102+x^101+x^99+x^96+x^95+x^92+x^91+x^89+x^88+x^87+x^86+x^85+x^83+x^82+x^81+x^80+x^79+x^72+x^71+x^69+x^68+x^65+x^63+x^60+x^57+x^55+x^51+x^50+x^49+x^48+x^46+x^45+x^44+x^43+x^42+x^41+x^38+x^37+x^36+x^31+x^30+x^29+x^28+x^27+x^26+x^24+x^19+x^18+x^16+x^14+x^9+x^8+x^6+x^5+x^4+x^3+x^2+1");
fieldgen_tests::binary_layer_suite!(
    gf2_1024_penta_64,
    g::gf2_1024_penta_64::F1024,
    "x^1024+x^522+x^115+x^63+1"
);
fieldgen_tests::binary_layer_suite!(
    gf2_1024_penta_32,
    g::gf2_1024_penta_32::F1024,
    "x^1024+x^522+x^115+x^63+1"
);

/// Constants evaluated by the compiler through the generated `const fn` constructors, compared
/// with the same values computed at run time from their definitions.
mod compile_time {
    use super::g;

    macro_rules! konst {
        ($t:ty, $hex:expr) => {
            match <$t>::from_hex_vartime($hex) {
                Some(x) => x,
                None => panic!("constant refused"),
            }
        };
    }

    /// Edwards25519's d = −121665/121666 (RFC 8032 §5.1), in each stored form of 2^255 − 19.
    const D_HEX: &str = "0x52036cee2b6ffe738cc740797779e89800700a4d4141d8ab75eb4dca135978a3";
    const D_64: g::curve25519_p_64::Fp = konst!(g::curve25519_p_64::Fp, D_HEX);
    const D_32: g::curve25519_p_32::Fp = konst!(g::curve25519_p_32::Fp, D_HEX);
    const D_MONT: g::curve25519_p_montgomery_64::Fp =
        konst!(g::curve25519_p_montgomery_64::Fp, D_HEX);
    const D_UNSAT_64: g::curve25519_p_unsaturated_64::Fp =
        konst!(g::curve25519_p_unsaturated_64::Fp, D_HEX);
    const D_UNSAT_32: g::curve25519_p_unsaturated_32::Fp =
        konst!(g::curve25519_p_unsaturated_32::Fp, D_HEX);
    /// 2^520 in the unsaturated 2^521 − 1 field, and 2^383 in the Solinas P-384 field.
    const P521_TOP: g::p521_p_unsaturated_32::Fp =
        konst!(g::p521_p_unsaturated_32::Fp, "0x100_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000");
    const P384_TOP: g::p384_p_solinas_64::Fp = konst!(
        g::p384_p_solinas_64::Fp,
        "0x8000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000"
    );
    /// sect163r2's b (SEC 2 v2 §3.2.2).
    const B163_HEX: &str = "0x20a601907b8c953ca1481eb10512f78744a3205fd";
    const B163: g::sect163_64::F163 = konst!(g::sect163_64::F163, B163_HEX);
    const B163_32: g::sect163_32::F163 = konst!(g::sect163_32::F163, B163_HEX);

    #[test]
    fn constants_match_their_definitions() {
        macro_rules! d_of {
            ($t:ty) => {
                -<$t>::from_u64(121665) * <$t>::from_u64(121666).invert().unwrap()
            };
        }
        assert_eq!(D_64, d_of!(g::curve25519_p_64::Fp));
        assert_eq!(D_32, d_of!(g::curve25519_p_32::Fp));
        assert_eq!(D_MONT, d_of!(g::curve25519_p_montgomery_64::Fp));
        assert_eq!(D_UNSAT_64, d_of!(g::curve25519_p_unsaturated_64::Fp));
        assert_eq!(D_UNSAT_32, d_of!(g::curve25519_p_unsaturated_32::Fp));
        assert_eq!(
            P521_TOP,
            g::p521_p_unsaturated_32::Fp::from_u64(2).pow_vartime(&[520])
        );
        assert_eq!(
            P384_TOP,
            g::p384_p_solinas_64::Fp::from_u64(2).pow_vartime(&[383])
        );
        let mut be = [0u8; 21];
        let digits = B163_HEX.trim_start_matches("0x");
        let padded = format!("{digits:0>42}");
        for (i, byte) in be.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&padded[2 * i..2 * i + 2], 16).unwrap();
        }
        assert_eq!(B163, g::sect163_64::F163::from_be_bytes(&be).unwrap());
        assert_eq!(B163_32, g::sect163_32::F163::from_be_bytes(&be).unwrap());
    }
}
