fieldgen_macros::bn_curve! {
    pub struct MyBn;
    z = 0x4080000000000001u64;
    b = 2;
    xi_a = 1;
}

fieldgen_macros::bn_curve! {
    pub struct MyBn2;
    z = "-0x4080000000000001";
    b = "2";
    xi_a = 1;
}

fieldgen_macros::bn_curve! {
    pub struct MyBn3;
    z = "-0x4080000000000001";
    b = 2;
    xi_a = -1;
}

fieldgen_macros::bn_curve! {
    pub struct MyBn4;
    z = "-0x40800000000000g1";
    b = 2;
    xi_a = 1;
}

fn main() {}
