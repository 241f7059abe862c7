fieldgen_macros::binary_field! {
    pub struct F4;
    poly = "x^4+x^2+1";
}

fn main() {}
