fieldgen_macros::prime_field! {
    pub struct Fq;
    modulus = "bn254-p";
    strategy = "pseudo-mersenne";
}

fieldgen_macros::prime_field! {
    pub struct Fr;
    modulus = "2^255-19";
    radix = 51;
}

fn main() {}
