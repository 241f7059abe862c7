fieldgen_macros::bn_curve! {
    pub struct MyBn;
    z = 6;
    b = 2;
    xi_a = 1;
}

fieldgen_macros::bn_curve! {
    pub struct Fp;
    z = -1073741929;
    b = 1;
    xi_a = 1;
}

fieldgen_macros::bn_curve! {
    pub struct MyBn3;
    z = -1073741929;
    b = 1;
}

fieldgen_macros::bn_curve! {
    pub struct MyBn4;
    z = "0x40000000000000000000000000000001";
    b = 2;
    xi_a = 1;
}

fieldgen_macros::bn_curve! {
    pub struct MyBn5;
    z = "-0x4080000000000001";
    b = 2;
    xi_a = 4294967296;
}

fn main() {}
