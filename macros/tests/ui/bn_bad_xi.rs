fieldgen_macros::bn_curve! {
    pub struct MyBn;
    z = "-0x4080000000000001";
    b = 2;
    xi_a = 0;
}

fn main() {}
