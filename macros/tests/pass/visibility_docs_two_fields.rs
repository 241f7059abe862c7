//! Two fields in one module, private and restricted visibilities, docs on the struct line,
//! `#[cfg]` on the invocation, and names that look like generated internals.

mod fields {
    fieldgen_macros::prime_field! {
        /// The Goldilocks field.
        pub(crate) struct Goldilocks;
        modulus = "2^64-2^32+1";
    }

    fieldgen_macros::prime_field! {
        /// 2^61 - 1 at 32-bit limbs, private to this module.
        struct Mersenne61;
        modulus = 2305843009213693951;
        limb_bits = 32;
        mul = "cios";
    }

    #[cfg(any())]
    fieldgen_macros::prime_field! {
        /// Removed before expansion, so its modulus (not prime) is never read.
        pub struct Removed;
        modulus = "2^61+1";
    }

    pub(crate) fn mersenne_square(x: u64) -> [u8; 8] {
        Mersenne61::from_u64(x).square().to_le_bytes()
    }
}

/// Names that are also identifiers inside the generated code (an associated type, a constant)
/// but not in the type namespace it resolves in.
mod look_alike_names {
    fieldgen_macros::prime_field! {
        /// Named like `Iterator::Item`.
        pub struct Item;
        modulus = "2^61-1";
    }

    fieldgen_macros::prime_field! {
        /// Named like the private constant `R2`.
        pub struct R2;
        modulus = "2^61-1";
    }
}

fn main() {
    assert_eq!(
        look_alike_names::Item::ONE.to_le_bytes(),
        look_alike_names::R2::ONE.to_le_bytes()
    );
    let g = fields::Goldilocks::from_u64(u64::MAX);
    assert_eq!(g, fields::Goldilocks::from_u64(0xffff_fffe));
    let sq = fields::mersenne_square(1 << 31);
    assert_eq!(u64::from_le_bytes(sq), 1 << 1); // 2^62 mod (2^61 - 1) = 2
}
