//! A fixed workload for instruction counts of the exponentiation by |z| in the final
//! exponentiation (callgrind: robust on a loaded machine):
//!
//! ```text
//! cargo build --release -p fieldgen-bn --example powz_count
//! valgrind --tool=callgrind target/release/examples/powz_count MODE CURVE N
//! ```
//!
//! MODE is `gs` (the Granger–Scott windowed `cyclotomic_pow_z_abs`), `karabina` (the compressed
//! chain `cyclotomic_pow_z_abs_compressed`), `finalexp` (the whole final exponentiation) or
//! `none` (the setup only); CURVE is `bn254`, `fp254bnb`, `bn381` or `bn462`; N repetitions, each on the previous
//! result. Every mode runs the same setup (one pairing), so differences of totals are the
//! work of the mode.

use fieldgen_bn::pairing::{final_exponentiation, pairing};
use fieldgen_bn::{Bn254, Bn381, Bn462, BnParams, Fp12, Fp254Bnb, G1Projective, G2Projective};

fn run<C: BnParams>(mode: &str, n: usize) {
    let p = G1Projective::<C>::GENERATOR.double().to_affine();
    let q = G2Projective::<C>::GENERATOR.double().to_affine();
    // A cyclotomic element: a pairing value.
    let mut f: Fp12<C> = pairing::<C>(&p, &q);
    for _ in 0..n {
        f = match mode {
            "gs" => f.cyclotomic_pow_z_abs(),
            "karabina" => f.cyclotomic_pow_z_abs_compressed(),
            "finalexp" => final_exponentiation::<C>(&f),
            _ => f,
        };
    }
    println!("{}", u8::from(f == Fp12::<C>::ONE));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("gs", String::as_str);
    let curve = args.get(2).map_or("bn254", String::as_str);
    let n = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(10);
    match curve {
        "bn462" => run::<Bn462>(mode, n),
        "bn381" => run::<Bn381>(mode, n),
        "fp254bnb" => run::<Fp254Bnb>(mode, n),
        _ => run::<Bn254>(mode, n),
    }
}
