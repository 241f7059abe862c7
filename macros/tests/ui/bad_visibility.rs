fieldgen_macros::prime_field! {
    pub(everyone) struct Fq;
    modulus = "2^255-19";
}

fn main() {}
