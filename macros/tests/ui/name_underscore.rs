fieldgen_macros::prime_field! {
    pub struct _;
    modulus = "2^255-19";
}

fn main() {}
