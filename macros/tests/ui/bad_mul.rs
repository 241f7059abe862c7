fieldgen_macros::prime_field! {
    pub struct Fq;
    modulus = "2^255-19";
    mul = "karatsuba";
}

fieldgen_macros::prime_field! {
    pub struct Fr;
    modulus = "2^255-19";
    mul = "cios-no-carry";
}

fn main() {}
