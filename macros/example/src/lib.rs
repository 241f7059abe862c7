//! A downstream crate that gets its prime fields from `fieldgen_macros::prime_field!` instead of
//! the committed `generated/` crate, and checks them with the shared oracle suite
//! (`tests/oracle.rs`, `fieldgen_tests::prime_field_suite!`).
//!
//! The fields cover the limb counts the generator unrolls for, at both limb sizes:
//!
//! | type | modulus | limbs |
//! | --- | --- | --- |
//! | [`Goldilocks`] | 2^64 − 2^32 + 1, as hex | 1 × 64-bit |
//! | [`Secp256k1Fp`] | preset `secp256k1-p` | 4 × 64-bit |
//! | [`Fq`] | BN254 base field, as hex; product-scanning multiplication | 4 × 64-bit |
//! | [`M511`] | 2^511 − 187, as an expression | 8 × 64-bit |
//! | [`Curve25519Fp32`] | 2^255 − 19, as an expression | 8 × 32-bit |
//! | [`Mersenne127`] | 2^127 − 1, through `macro_rules!` (`$m:literal`) | 2 × 64-bit |
//! | `Mersenne61` (crate-private) | 2^61 − 1, as an integer literal | 2 × 32-bit |
//!
//! All of them live in this one module: the generated items name `::core` and `::subtle` by
//! absolute path, so they need nothing imported and do not clash. The crate depends on `subtle`
//! because the generated code uses it.

#![cfg_attr(not(test), no_std)]

fieldgen_macros::prime_field! {
    /// The Goldilocks field, p = 2^64 − 2^32 + 1: one 64-bit limb.
    pub struct Goldilocks;
    modulus = "0xffffffff00000001";
}

fieldgen_macros::prime_field! {
    /// The secp256k1 base field, by preset name: four 64-bit limbs.
    pub struct Secp256k1Fp;
    modulus = "secp256k1-p";
    limb_bits = 64;
}

fieldgen_macros::prime_field! {
    /// The BN254 (alt_bn128) base field, written as hex, with product-scanning (Comba)
    /// Montgomery multiplication instead of the default no-carry CIOS: four 64-bit limbs.
    pub struct Fq;
    modulus = "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47";
    mul = "product-scanning";
    ff = true;
    zeroize = true;
}

fieldgen_macros::binary_field! {
    /// GF(2^163) of the SEC 2 sect163 curves, wiped by `zeroize` like the prime fields.
    pub struct F163;
    poly = "sect163";
    zeroize = true;
}

fieldgen_macros::prime_field! {
    /// The base field of the M-511 curve, p = 2^511 − 187 (Aranha, Barreto, Pereira, Ricardini,
    /// "A note on high-security general-purpose elliptic curves", 2013): eight 64-bit limbs with
    /// one spare bit, so the generator takes CIOS with the extra carry word.
    pub struct M511;
    modulus = "2^511-187";
}

fieldgen_macros::prime_field! {
    /// The Curve25519 base field, p = 2^255 − 19, at 32-bit limbs: eight `u32` limbs.
    pub struct Curve25519Fp32;
    modulus = "2^255-19";
    limb_bits = 32;
}

fieldgen_macros::prime_field! {
    /// The Mersenne prime 2^61 − 1 at 32-bit limbs (two limbs); crate-private, to show that the
    /// visibility written is the one the type gets.
    pub(crate) struct Mersenne61;
    modulus = 0x1fff_ffff_ffff_ffff;
    limb_bits = 32;
}

/// Defines a field whose modulus is a `macro_rules!` literal fragment: the forwarded literal
/// arrives in an invisible group, which the macro unwraps.
macro_rules! field_from_literal {
    ($(#[$doc:meta])* $name:ident, $modulus:literal) => {
        fieldgen_macros::prime_field! {
            $(#[$doc])*
            pub struct $name;
            modulus = $modulus;
        }
    };
}

field_from_literal!(
    /// The Mersenne prime 2^127 − 1, its modulus passed through `macro_rules!` as a `$m:literal`.
    Mersenne127,
    "2^127-1"
);

/// `x^5 + 3` in the Goldilocks field: a use of the generated API from ordinary code.
pub fn goldilocks_poly(x: u64) -> Goldilocks {
    let x = Goldilocks::from_u64(x);
    x.square().square() * x + Goldilocks::from_u64(3)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The crate-private field is checked here, where its type is visible.
    fieldgen_tests::prime_field_suite!(mersenne61_32, crate::Mersenne61, "0x1fffffffffffffff", 32);

    #[test]
    fn fields_have_the_limb_counts_and_sizes_the_docs_state() {
        assert_eq!(core::mem::size_of::<Goldilocks>(), 8);
        assert_eq!(core::mem::size_of::<Secp256k1Fp>(), 32);
        assert_eq!(core::mem::size_of::<Fq>(), 32);
        assert_eq!(core::mem::size_of::<M511>(), 64);
        assert_eq!(core::mem::size_of::<Curve25519Fp32>(), 32);
        assert_eq!(core::mem::size_of::<Mersenne61>(), 8);
        assert_eq!(M511::NUM_BITS, 511);
        assert_eq!(Mersenne61::NUM_BITS, 61);
    }

    #[test]
    fn goldilocks_poly_matches_u128_arithmetic() {
        let p: u128 = 0xffff_ffff_0000_0001;
        for x in [0u64, 1, 2, 0xffff_ffff, u64::MAX] {
            let xm = u128::from(x) % p;
            let mut want = 1u128;
            for _ in 0..5 {
                want = want * xm % p;
            }
            let want = (want + 3) % p;
            assert_eq!(
                goldilocks_poly(x),
                Goldilocks::from_u64(u64::try_from(want).unwrap())
            );
        }
    }
}
