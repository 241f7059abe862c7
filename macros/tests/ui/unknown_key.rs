fieldgen_macros::prime_field! {
    pub struct Fq;
    prime = "2^255-19";
}

fn main() {}
