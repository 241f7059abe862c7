fieldgen_macros::prime_field! {
    pub struct Fq;
    modulus = "0x30644e72e131a029g85045b6";
}

fn main() {}
