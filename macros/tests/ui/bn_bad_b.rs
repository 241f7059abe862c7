fieldgen_macros::bn_curve! {
    pub struct MyBn;
    z = "-0x4080000000000001";
    b = 3;
    xi_a = 1;
}

fn main() {}
