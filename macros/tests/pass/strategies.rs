//! The `strategy` and `radix` keys: 2^255 − 19 in three representations and P-256 as a Solinas
//! prime beside its Montgomery form. Each pair computes the same products, powers and inverses
//! through unrelated reductions, checked against each other on the byte encodings.

fieldgen_macros::prime_field! {
    /// 2^255 − 19, Montgomery form.
    pub struct Mont25519;
    modulus = "2^255-19";
    strategy = "montgomery";
}

fieldgen_macros::prime_field! {
    /// 2^255 − 19 in 5 × 51 limbs.
    pub struct Unsat25519;
    modulus = "2^255-19";
    strategy = "unsaturated";
    radix = 51;
}

fieldgen_macros::prime_field! {
    /// 2^255 − 19 in 10 × 25.5 limbs.
    pub struct Unsat25519x32;
    modulus = "curve25519-p";
    limb_bits = 32;
    strategy = "unsaturated";
}

fieldgen_macros::prime_field! {
    /// P-256 p, Montgomery form.
    pub struct MontP256;
    modulus = "p256-p";
    strategy = "montgomery";
}

fieldgen_macros::prime_field! {
    /// P-256 p by the signed Solinas terms.
    pub struct SolinasP256;
    modulus = "p256-p";
    strategy = "solinas";
}

/// x ↦ (x + 3)^5 · x^-1 through the field's own operations, as little-endian bytes.
macro_rules! chain {
    ($F:ty, $x:expr) => {{
        let x = <$F>::from_u64($x);
        let y = (x + <$F>::from_u64(3)).pow(&[5]);
        (y * x.invert().unwrap()).to_le_bytes()
    }};
}

fn main() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..64 {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let x = seed | 1;
        let m = chain!(Mont25519, x);
        assert_eq!(m, chain!(Unsat25519, x));
        assert_eq!(m, chain!(Unsat25519x32, x));
        assert_eq!(chain!(MontP256, x), chain!(SolinasP256, x));
    }
}
