//! `zeroize::Zeroize` on the generated prime fields (feature `zeroize`): a wiped value reads
//! as zero, whatever it held.

use fieldgen_generated::{curve25519_l_32, curve25519_l_64, curve25519_p_32, curve25519_p_64};
use zeroize::Zeroize;

#[test]
fn zeroize_sets_zero() {
    let mut a = curve25519_p_64::Fp::from_u64(12345).invert().unwrap();
    a.zeroize();
    assert!(bool::from(a.is_zero()));
    assert_eq!(a.to_le_bytes(), [0u8; 32]);
    let mut b = -curve25519_l_64::Fr::ONE;
    b.zeroize();
    assert_eq!(b.to_le_bytes(), [0u8; 32]);
    let mut c = -curve25519_p_32::Fp::ONE;
    c.zeroize();
    assert_eq!(c.to_le_bytes(), [0u8; 32]);
    let mut d = curve25519_l_32::Fr::from_u64(u64::MAX);
    d.zeroize();
    assert_eq!(d.to_le_bytes(), [0u8; 32]);
}
