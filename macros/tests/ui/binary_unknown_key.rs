fieldgen_macros::binary_field! {
    pub struct F163;
    poly = "sect163";
    mul = "cios";
}

fn main() {}
