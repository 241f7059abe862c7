fieldgen_macros::prime_field! {
    pub struct Fq;
    modulus = "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd48";
}

fn main() {}
