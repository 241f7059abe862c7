fieldgen_macros::prime_field! {
    /// Docs are fine.
    #[derive(Debug)]
    pub struct Fq;
    modulus = "2^255-19";
}

fieldgen_macros::prime_field! {
    #[cfg(feature = "fr")]
    pub struct Fr;
    modulus = "2^255-19";
}

fn main() {}
