fieldgen_macros::prime_field! {
    pub struct Fq;
    modulus = "2^255-21";
}

fn main() {}
