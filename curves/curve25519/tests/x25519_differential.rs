//! X25519 on random inputs against x25519-dalek, and the Diffie–Hellman commutativity
//! property. The fixed-base function runs once per backend of [a]B (`common::try_each_backend`:
//! AVX-512 IFMA lanes forced where the CPU has them, checking that they ran; then scalar).

mod common;

use fieldgen_curve25519::{x25519, x25519_base, BASEPOINT_U};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn x25519_matches_dalek(k in any::<[u8; 32]>(), u in any::<[u8; 32]>()) {
        // Arbitrary u: points on the curve or the twist, bit 255 set or not, non-canonical.
        prop_assert_eq!(x25519(k, u), x25519_dalek::x25519(k, u));
    }

    #[test]
    fn x25519_base_matches_dalek(k in any::<[u8; 32]>()) {
        common::try_each_backend(false, true, |_| -> Result<(), TestCaseError> {
            let ours = x25519_base(k);
            prop_assert_eq!(ours, x25519_dalek::x25519(k, x25519_dalek::X25519_BASEPOINT_BYTES));
            prop_assert_eq!(ours, x25519(k, BASEPOINT_U));
            Ok(())
        })?;
    }

    #[test]
    fn diffie_hellman_commutes(a in any::<[u8; 32]>(), b in any::<[u8; 32]>()) {
        let pa = x25519_base(a);
        let pb = x25519_base(b);
        prop_assert_eq!(x25519(a, pb), x25519(b, pa));
    }
}

#[test]
fn non_canonical_u_edges_match_dalek() {
    // u = p + i and 2^255 − 1 − i, with and without bit 255: the reduction edge.
    let k = [0x42u8; 32];
    for i in 0..20u8 {
        let mut u = [0xffu8; 32];
        u[31] = 0x7f;
        u[0] = 0xed + i.min(18);
        for top in [0x7f, 0xff] {
            u[31] = top;
            assert_eq!(
                x25519(k, u),
                x25519_dalek::x25519(k, u),
                "u[0] = {:#x}",
                u[0]
            );
        }
        let mut small = [0u8; 32];
        small[0] = i;
        assert_eq!(x25519(k, small), x25519_dalek::x25519(k, small), "u = {i}");
    }
}
