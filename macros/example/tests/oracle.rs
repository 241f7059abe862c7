//! The shared oracle suite on every public field of the crate. Each modulus is written here from
//! its published definition, independently of the macro invocation, as the suite requires.

use fieldgen_macros_example::{Curve25519Fp32, Fq, Goldilocks, Mersenne127, Secp256k1Fp, M511};

// 2^64 - 2^32 + 1.
fieldgen_tests::prime_field_suite!(goldilocks_64, Goldilocks, "0xffffffff00000001", 64);

// SEC 2 v2 §2.4.1: 2^256 - 2^32 - 977.
fieldgen_tests::prime_field_suite!(
    secp256k1_p_64,
    Secp256k1Fp,
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
    64
);

// EIP-196: the alt_bn128 base field.
fieldgen_tests::prime_field_suite!(
    bn254_p_product_scanning_64,
    Fq,
    "21888242871839275222246405745257275088696311157297823662689037894645226208583",
    64
);

// 2^511 - 187 (M-511).
fieldgen_tests::prime_field_suite!(
    m511_64,
    M511,
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff\
     ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff45",
    64
);

// RFC 7748 §4.1: 2^255 - 19.
fieldgen_tests::prime_field_suite!(
    curve25519_p_32,
    Curve25519Fp32,
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
    32
);

// 2^127 - 1 (a Mersenne prime), the modulus forwarded by `macro_rules!`.
fieldgen_tests::prime_field_suite!(
    mersenne127_64,
    Mersenne127,
    "170141183460469231731687303715884105727",
    64
);
