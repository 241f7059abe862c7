fieldgen_macros::prime_field! {
    pub struct Fq;
    modulus = "2^255-19"
    limb_bits = 32;
}

fieldgen_macros::prime_field! {
    pub struct Fr
    modulus = "2^255-19";
}

fn main() {}
