//! The scalar fields GF(n), one per curve, generated in this crate by
//! `fieldgen_macros::prime_field!` (the generator of the committed fields, run at compile
//! time) from the group orders n of SEC 2 v2 §3 (= FIPS 186-4 D.1.3 for the NIST curves).
//! Each is a Montgomery-form field with 64-bit limbs, constant time, `Zeroize`.

fieldgen_macros::prime_field! {
    /// GF(n) for the order n of sect163k1's base point (SEC 2 v2).
    pub struct Sect163k1Scalar;
    modulus = "0x04000000000000000000020108a2e0cc0d99f8a5ef";
    zeroize = true;
}

fieldgen_macros::prime_field! {
    /// GF(n) for the order n of sect163r2's base point (SEC 2 v2).
    pub struct Sect163r2Scalar;
    modulus = "0x040000000000000000000292fe77e70c12a4234c33";
    zeroize = true;
}

fieldgen_macros::prime_field! {
    /// GF(n) for the order n of sect233k1's base point (SEC 2 v2).
    pub struct Sect233k1Scalar;
    modulus = "0x8000000000000000000000000000069d5bb915bcd46efb1ad5f173abdf";
    zeroize = true;
}

fieldgen_macros::prime_field! {
    /// GF(n) for the order n of sect233r1's base point (SEC 2 v2).
    pub struct Sect233r1Scalar;
    modulus = "0x01000000000000000000000000000013e974e72f8a6922031d2603cfe0d7";
    zeroize = true;
}

fieldgen_macros::prime_field! {
    /// GF(n) for the order n of sect239k1's base point (SEC 2 v2).
    pub struct Sect239k1Scalar;
    modulus = "0x2000000000000000000000000000005a79fec67cb6e91f1c1da800e478a5";
    zeroize = true;
}

fieldgen_macros::prime_field! {
    /// GF(n) for the order n of sect283k1's base point (SEC 2 v2).
    pub struct Sect283k1Scalar;
    modulus = "0x01ffffffffffffffffffffffffffffffffffe9ae2ed07577265dff7f94451e061e163c61";
    zeroize = true;
}

fieldgen_macros::prime_field! {
    /// GF(n) for the order n of sect283r1's base point (SEC 2 v2).
    pub struct Sect283r1Scalar;
    modulus = "0x03ffffffffffffffffffffffffffffffffffef90399660fc938a90165b042a7cefadb307";
    zeroize = true;
}

fieldgen_macros::prime_field! {
    /// GF(n) for the order n of sect409k1's base point (SEC 2 v2).
    pub struct Sect409k1Scalar;
    modulus = "0x7ffffffffffffffffffffffffffffffffffffffffffffffffffe5f83b2d4ea20400ec4557d5ed3e3e7ca5b4b5c83b8e01e5fcf";
    zeroize = true;
}

fieldgen_macros::prime_field! {
    /// GF(n) for the order n of sect409r1's base point (SEC 2 v2).
    pub struct Sect409r1Scalar;
    modulus = "0x010000000000000000000000000000000000000000000000000001e2aad6a612f33307be5fa47c3c9e052f838164cd37d9a21173";
    zeroize = true;
}

fieldgen_macros::prime_field! {
    /// GF(n) for the order n of sect571k1's base point (SEC 2 v2).
    pub struct Sect571k1Scalar;
    modulus = "0x020000000000000000000000000000000000000000000000000000000000000000000000131850e1f19a63e4b391a8db917f4138b630d84be5d639381e91deb45cfe778f637c1001";
    zeroize = true;
}

fieldgen_macros::prime_field! {
    /// GF(n) for the order n of sect571r1's base point (SEC 2 v2).
    pub struct Sect571r1Scalar;
    modulus = "0x03ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe661ce18ff55987308059b186823851ec7dd9ca1161de93d5174d66e8382e9bb2fe84e47";
    zeroize = true;
}
