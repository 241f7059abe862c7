fieldgen_macros::prime_field! {
    pub struct Self;
    modulus = "2^255-19";
}

fn main() {}
