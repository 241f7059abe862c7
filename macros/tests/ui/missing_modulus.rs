fieldgen_macros::prime_field! {
    pub struct Fq;
    limb_bits = 64;
}

fn main() {}
