fieldgen_macros::bn_curve! {
    pub struct MyBn;
    z = "-0x4000000000001001";
    b = 2;
    xi_a = 1;
}

fn main() {}
