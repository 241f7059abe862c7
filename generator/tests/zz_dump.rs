//! scratch
use generator::spec::{parse_modulus_expr, FieldConsts, LimbBits};
#[test]
fn dump() {
    let p = parse_modulus_expr(&std::env::var("P").unwrap()).unwrap();
    let c = FieldConsts::new(&p, LimbBits::W64).unwrap();
    let sq = std::env::var("SQ").is_ok();
    let k = generator::backend::x86_64::selected_kernel(&c, sq).unwrap();
    for i in &k.alloc.insts {
        println!("{}", i.text());
    }
    println!("=== hand");
    let h = if sq {
        generator::backend::x86_64::square_kernel(&c)
    } else {
        generator::backend::x86_64::mul_kernel(&c)
    };
    for i in &h.alloc.insts {
        println!("{}", i.text());
    }
}
#[test]
fn ir() {
    use generator::strategy::{montgomery, MulAlgorithm};
    let p = parse_modulus_expr(&std::env::var("P").unwrap()).unwrap();
    let c = FieldConsts::new(&p, LimbBits::W64).unwrap();
    let f = generator::pass::optimize(&montgomery::lower_mul(&c, MulAlgorithm::Cios));
    let s = generator::backend::aarch64::select::schedule(&f);
    for k in s.order {
        let ins = f.instrs[k];
        println!("{k}: {:?} = {:?}", ins.outs, ins.op);
    }
}
