//! Tower arithmetic and the pairing on the four BN curves, with ark-bn254 0.6 (`asm`) and
//! halo2curves 0.10 (`asm`) on BN254 in the same run:
//! `RUSTFLAGS='-C target-cpu=native' cargo bench -p fieldgen-bn --bench bn`.
//! Rows are `<curve>/<operation>/<implementation>`; compare within a row group.

use std::hint::black_box;

use ark_ec::pairing::Pairing;
use ark_ec::{CurveGroup, PrimeGroup};
use ark_ff::{CyclotomicMultSubgroup, Field as ArkField, UniformRand};
use criterion::{criterion_group, criterion_main, Criterion};
use fieldgen_bn::{
    final_exponentiation, miller_loop, multi_miller_loop_prepared, pairing, Bn254, Bn381, Bn462,
    BnParams, Fp254Bnb, G1Projective, G2Prepared, G2Projective,
};
use fieldgen_field::{Field, WideField};

fn ours<C: BnParams>(c: &mut Criterion, label: &str) {
    let p = G1Projective::<C>::GENERATOR
        .mul_le_bytes(&[7; 16])
        .to_affine();
    let q = G2Projective::<C>::GENERATOR
        .mul_le_bytes(&[9; 16])
        .to_affine();
    let f = miller_loop(&p, &q);
    let g = f * f.square();
    let e = final_exponentiation(&f);
    let a = f.c0.c0;
    let b = f.c1.c1;
    let x = a.c0;
    let y = b.c1;
    c.bench_function(&format!("{label}/fp_mul/fieldgen"), |bn| {
        bn.iter(|| black_box(x) * black_box(y))
    });
    c.bench_function(&format!("{label}/fp_mul_wide_reduce/fieldgen"), |bn| {
        bn.iter(|| {
            <C::Fp as WideField>::reduce_wide(&<C::Fp as WideField>::mul_wide(
                &black_box(x),
                &black_box(y),
            ))
        })
    });
    c.bench_function(&format!("{label}/fp2_mul_full/fieldgen"), |bn| {
        bn.iter(|| black_box(a).mul_full(&black_box(b)))
    });
    c.bench_function(&format!("{label}/fp2_mul/fieldgen"), |bn| {
        bn.iter(|| black_box(a) * black_box(b))
    });
    c.bench_function(&format!("{label}/fp2_square/fieldgen"), |bn| {
        bn.iter(|| black_box(a).square())
    });
    c.bench_function(&format!("{label}/fp12_mul/fieldgen"), |bn| {
        bn.iter(|| black_box(f) * black_box(g))
    });
    c.bench_function(&format!("{label}/fp12_mul_full/fieldgen"), |bn| {
        bn.iter(|| black_box(f).mul_full(&black_box(g)))
    });
    c.bench_function(&format!("{label}/fp12_square_full/fieldgen"), |bn| {
        bn.iter(|| black_box(f).square_full())
    });
    c.bench_function(&format!("{label}/fp12_square/fieldgen"), |bn| {
        bn.iter(|| black_box(f).square())
    });
    c.bench_function(&format!("{label}/fp12_cyclotomic_square/fieldgen"), |bn| {
        bn.iter(|| black_box(e).cyclotomic_square())
    });
    c.bench_function(&format!("{label}/miller_loop/fieldgen"), |bn| {
        bn.iter(|| miller_loop(black_box(&p), black_box(&q)))
    });
    let prep = G2Prepared::<C>::new(&q);
    c.bench_function(&format!("{label}/miller_loop_prepared/fieldgen"), |bn| {
        bn.iter(|| multi_miller_loop_prepared(&[(black_box(p), black_box(&prep))]))
    });
    c.bench_function(&format!("{label}/g2_prepare/fieldgen"), |bn| {
        bn.iter(|| G2Prepared::<C>::new(black_box(&q)))
    });
    c.bench_function(&format!("{label}/final_exp/fieldgen"), |bn| {
        bn.iter(|| final_exponentiation(black_box(&f)))
    });
    c.bench_function(&format!("{label}/pairing/fieldgen"), |bn| {
        bn.iter(|| pairing(black_box(&p), black_box(&q)))
    });
}

fn ark(c: &mut Criterion) {
    use ark_bn254::{Bn254 as A, Fq, Fq12, Fq2, Fr, G1Projective as G1, G2Projective as G2};
    let mut rng = ark_std_rng();
    let p = (G1::generator() * Fr::rand(&mut rng)).into_affine();
    let q = (G2::generator() * Fr::rand(&mut rng)).into_affine();
    let x = Fq::rand(&mut rng);
    let y = Fq::rand(&mut rng);
    let a = Fq2::rand(&mut rng);
    let b = Fq2::rand(&mut rng);
    let f = Fq12::rand(&mut rng);
    let g = Fq12::rand(&mut rng);
    let ml = A::multi_miller_loop([p], [q]);
    let e = A::final_exponentiation(ml).unwrap().0;
    c.bench_function("BN254/fp_mul/ark-bn254", |bn| {
        bn.iter(|| black_box(x) * black_box(y))
    });
    c.bench_function("BN254/fp2_mul/ark-bn254", |bn| {
        bn.iter(|| black_box(a) * black_box(b))
    });
    c.bench_function("BN254/fp2_square/ark-bn254", |bn| {
        bn.iter(|| black_box(a).square())
    });
    c.bench_function("BN254/fp12_mul/ark-bn254", |bn| {
        bn.iter(|| black_box(f) * black_box(g))
    });
    c.bench_function("BN254/fp12_square/ark-bn254", |bn| {
        bn.iter(|| black_box(f).square())
    });
    c.bench_function("BN254/fp12_cyclotomic_square/ark-bn254", |bn| {
        bn.iter(|| black_box(e).cyclotomic_square())
    });
    c.bench_function("BN254/miller_loop/ark-bn254", |bn| {
        bn.iter(|| A::multi_miller_loop([black_box(p)], [black_box(q)]))
    });
    c.bench_function("BN254/final_exp/ark-bn254", |bn| {
        bn.iter(|| A::final_exponentiation(black_box(ml)))
    });
    c.bench_function("BN254/pairing/ark-bn254", |bn| {
        bn.iter(|| A::pairing(black_box(p), black_box(q)))
    });
}

fn halo2(c: &mut Criterion) {
    use halo2curves::bn256::{multi_miller_loop, Bn256, Fq, Fq12, Fq2, Fr, G1Affine, G2Affine};
    use halo2curves::ff::Field as _;
    use halo2curves::group::Curve;
    use halo2curves::pairing::{Engine, MillerLoopResult};
    let mut rng = ark_std_rng();
    let p = (G1Affine::generator() * Fr::random(&mut rng)).to_affine();
    let q = (G2Affine::generator() * Fr::random(&mut rng)).to_affine();
    let x = Fq::random(&mut rng);
    let y = Fq::random(&mut rng);
    let a = Fq2::random(&mut rng);
    let b = Fq2::random(&mut rng);
    let f = Fq12::random(&mut rng);
    let g = Fq12::random(&mut rng);
    let ml = multi_miller_loop(&[(&p, &q)]);
    c.bench_function("BN254/fp_mul/halo2curves", |bn| {
        bn.iter(|| black_box(x) * black_box(y))
    });
    c.bench_function("BN254/fp2_mul/halo2curves", |bn| {
        bn.iter(|| black_box(a) * black_box(b))
    });
    c.bench_function("BN254/fp2_square/halo2curves", |bn| {
        bn.iter(|| black_box(a).square())
    });
    c.bench_function("BN254/fp12_mul/halo2curves", |bn| {
        bn.iter(|| black_box(f) * black_box(g))
    });
    c.bench_function("BN254/fp12_square/halo2curves", |bn| {
        bn.iter(|| black_box(f).square())
    });
    c.bench_function("BN254/miller_loop/halo2curves", |bn| {
        bn.iter(|| multi_miller_loop(&[(black_box(&p), black_box(&q))]))
    });
    c.bench_function("BN254/final_exp/halo2curves", |bn| {
        bn.iter(|| black_box(ml).final_exponentiation())
    });
    c.bench_function("BN254/pairing/halo2curves", |bn| {
        bn.iter(|| Bn256::pairing(black_box(&p), black_box(&q)))
    });
}

/// A fixed-seed generator for ark's `UniformRand` (its own `test_rng`).
fn ark_std_rng() -> impl ark_std::rand::Rng {
    ark_std::test_rng()
}

fn benches(c: &mut Criterion) {
    ours::<Bn254>(c, "BN254");
    ark(c);
    halo2(c);
    ours::<Fp254Bnb>(c, "Fp254BNb");
    ours::<Bn381>(c, "BN381_1");
    ours::<Bn462>(c, "BN462");
}

criterion_group! {
    name = bn;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(2));
    targets = benches
}
criterion_main!(bn);
