fieldgen_macros::prime_field! {
    pub struct Fq([u64; 4]);
    modulus = "2^255-19";
}

fn main() {}
