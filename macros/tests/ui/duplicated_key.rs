fieldgen_macros::prime_field! {
    pub struct Fq;
    modulus = "2^255-19";
    limb_bits = 64;
    limb_bits = 32;
}

fn main() {}
