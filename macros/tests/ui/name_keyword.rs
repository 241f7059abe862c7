fieldgen_macros::prime_field! {
    pub struct match;
    modulus = "2^255-19";
}

fn main() {}
