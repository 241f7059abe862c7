mod fields {
    fieldgen_macros::prime_field! {
        /// Private to `fields`: the visibility written is the one the type gets.
        struct Fq;
        modulus = "2^61-1";
    }
}

fn main() {
    let _ = fields::Fq::ONE;
}
