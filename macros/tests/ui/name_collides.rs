fieldgen_macros::prime_field! {
    pub struct u64;
    modulus = "2^255-19";
}

fieldgen_macros::prime_field! {
    pub struct Iterator;
    modulus = "2^255-19";
}

fieldgen_macros::prime_field! {
    pub struct r#fq;
    modulus = "2^255-19";
}

fn main() {}
