//! Two binary fields in one module, one by preset name and one by polynomial at 32-bit words.

fieldgen_macros::binary_field! {
    /// GF(2^233), SEC 2 sect233.
    pub struct F233;
    poly = "sect233";
}

fieldgen_macros::binary_field! {
    pub(crate) struct Aes;
    poly = "x^8+x^4+x^3+x+1";
    limb_bits = 32;
}

fn main() {
    let mut bytes = [0u8; 30];
    bytes[0] = 2; // x
    let x = F233::from_le_bytes(&bytes).unwrap();
    let a = x.sqrt() + F233::ONE;
    assert_eq!(a * a.invert().unwrap(), F233::ONE);
    assert_eq!(a.sqrt().square(), a);
    // FIPS 197 §4.2: {57}·{83} = {c1}.
    let x = Aes::from_le_bytes(&[0x57]).unwrap();
    let y = Aes::from_le_bytes(&[0x83]).unwrap();
    assert_eq!((x * y).to_le_bytes(), [0xc1]);
}
