fieldgen_macros::prime_field! {
    pub struct Fq;
    modulus = "secp256k2";
}

fn main() {}
