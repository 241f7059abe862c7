//! G1/G2 scalar multiplication (constant time and variable time, GLV/GLS against the group
//! layer's plain signed window), GT exponentiation (GLS with the Frobenius against
//! square-and-multiply), MSM (GLV/GLS-split against the unsplit Pippenger on BN254; 64 terms on
//! G1 and G2, 1024 on BN254's G1) and hashing to G1/G2, with ark-bn254 0.6 on BN254 in the same
//! run:
//! `RUSTFLAGS='-C target-cpu=native' cargo bench -p fieldgen-bn --bench groups`.
//! Rows are `<curve>/<operation>/<implementation>`; compare within a row group.

use std::hint::black_box;

use ark_ec::pairing::Pairing;
use ark_ec::{CurveGroup, PrimeGroup, VariableBaseMSM};
use ark_ff::PrimeField as ArkPrimeField;
use criterion::{criterion_group, criterion_main, Criterion};
use fieldgen_bn::endo::{g1_mul, g1_mul_vartime, g2_mul, g2_mul_vartime};
use fieldgen_bn::hash::{hash_to_g1, hash_to_g2};
use fieldgen_bn::msm::{msm_g1_vartime, msm_g2_vartime};
use fieldgen_bn::pairing::{gt_pow, pairing};
use fieldgen_bn::{Bn254, Bn381, Bn462, BnParams, Fp254Bnb, G1Projective, G2Projective};
use fieldgen_field::{ByteArray, Field};
use fieldgen_weierstrass::msm::msm_vartime;

const DST: &[u8] = b"FIELDGEN-BENCH-BN_XMD:SHA-256_SVDW_RO_";
const MSM_N: u16 = 64;
/// MSM sizes and whether G2 runs at that size too (the larger size on BN254 only).
const MSM_SIZES: [(u16, bool); 2] = [(MSM_N, true), (1024, false)];

fn scalar<C: BnParams>(seed: u8) -> C::Fr {
    let mut b = <C::Fr as Field>::Bytes::zeroed();
    let n = b.as_ref().len();
    for (i, x) in (0..=u8::MAX).zip(b.as_mut().iter_mut()) {
        *x = seed.wrapping_mul(31).wrapping_add(i * 17);
    }
    b.as_mut()[n - 1] = 0; // below r
    Option::from(<C::Fr as Field>::from_le_bytes(&b)).unwrap()
}

/// A byte seed for the i-th MSM scalar.
fn seed16(i: u16) -> u8 {
    let [lo, hi] = i.to_le_bytes();
    lo ^ hi
}

fn ours<C: BnParams>(c: &mut Criterion, label: &str) {
    let p = G1Projective::<C>::GENERATOR.mul_le_bytes(&[7; 16]);
    let q = G2Projective::<C>::GENERATOR.mul_le_bytes(&[9; 16]);
    let k = scalar::<C>(5);
    let kb = k.to_le_bytes();
    c.bench_function(&format!("{label}/g1_mul_ct/glv"), |b| {
        b.iter(|| g1_mul::<C>(black_box(&p), black_box(&k)))
    });
    c.bench_function(&format!("{label}/g1_mul_ct/window"), |b| {
        b.iter(|| black_box(&p).mul_le_bytes(black_box(kb.as_ref())))
    });
    c.bench_function(&format!("{label}/g1_mul_vartime/glv"), |b| {
        b.iter(|| g1_mul_vartime::<C>(black_box(&p), black_box(&k)))
    });
    c.bench_function(&format!("{label}/g1_mul_vartime/wnaf"), |b| {
        b.iter(|| black_box(&p).mul_le_bytes_vartime(black_box(kb.as_ref())))
    });
    c.bench_function(&format!("{label}/g2_mul_ct/gls4"), |b| {
        b.iter(|| g2_mul::<C>(black_box(&q), black_box(&k)))
    });
    c.bench_function(&format!("{label}/g2_mul_ct/window"), |b| {
        b.iter(|| black_box(&q).mul_le_bytes(black_box(kb.as_ref())))
    });
    c.bench_function(&format!("{label}/g2_mul_vartime/gls4"), |b| {
        b.iter(|| g2_mul_vartime::<C>(black_box(&q), black_box(&k)))
    });
    c.bench_function(&format!("{label}/g2_mul_vartime/wnaf"), |b| {
        b.iter(|| black_box(&q).mul_le_bytes_vartime(black_box(kb.as_ref())))
    });
    let e = pairing::<C>(&p.to_affine(), &q.to_affine());
    let kw: Vec<u64> = kb
        .as_ref()
        .chunks(8)
        .map(|c| c.iter().rev().fold(0u64, |a, &x| (a << 8) | x as u64))
        .collect();
    c.bench_function(&format!("{label}/gt_pow_ct/gls4"), |b| {
        b.iter(|| gt_pow::<C>(black_box(&e), black_box(&k)))
    });
    c.bench_function(&format!("{label}/gt_pow_ct/ladder"), |b| {
        b.iter(|| black_box(&e).pow(black_box(&kw)))
    });
    c.bench_function(&format!("{label}/hash_to_g1/fieldgen"), |b| {
        b.iter(|| hash_to_g1::<C>(black_box(b"abc"), DST))
    });
    c.bench_function(&format!("{label}/hash_to_g2/fieldgen"), |b| {
        b.iter(|| hash_to_g2::<C>(black_box(b"abc"), DST))
    });
    for (n, g2) in MSM_SIZES {
        if n > MSM_N && label != "BN254" {
            continue;
        }
        let ps: Vec<_> = (1..=n).map(|i| p.mul_le_bytes(&i.to_le_bytes())).collect();
        let ks: Vec<_> = (0..n).map(|i| scalar::<C>(seed16(i))).collect();
        c.bench_function(&format!("{label}/g1_msm_{n}/fieldgen"), |b| {
            b.iter(|| msm_g1_vartime::<C>(black_box(&ps), black_box(&ks)))
        });
        if label == "BN254" {
            // The same Pippenger over the full-length scalars, without the GLV split.
            let kb: Vec<_> = ks.iter().map(|k| k.to_le_bytes()).collect();
            c.bench_function(&format!("{label}/g1_msm_{n}/fieldgen-nosplit"), |b| {
                b.iter(|| msm_vartime(black_box(&ps), black_box(&kb)))
            });
        }
        if g2 {
            let qs: Vec<_> = (1..=n).map(|i| q.mul_le_bytes(&i.to_le_bytes())).collect();
            c.bench_function(&format!("{label}/g2_msm_{n}/fieldgen"), |b| {
                b.iter(|| msm_g2_vartime::<C>(black_box(&qs), black_box(&ks)))
            });
        }
    }
}

fn ark(c: &mut Criterion) {
    use ark_bn254::{Fr, G1Projective as G1, G2Projective as G2};
    let k = Fr::from_le_bytes_mod_order(scalar::<Bn254>(5).to_le_bytes().as_ref());
    let p = G1::generator() * Fr::from(7u64);
    let q = G2::generator() * Fr::from(9u64);
    c.bench_function("BN254/g1_mul_vartime/ark-bn254", |b| {
        b.iter(|| black_box(p) * black_box(k))
    });
    c.bench_function("BN254/g2_mul_vartime/ark-bn254", |b| {
        b.iter(|| black_box(q) * black_box(k))
    });
    let e = ark_bn254::Bn254::pairing(p.into_affine(), q.into_affine());
    c.bench_function("BN254/gt_pow_vartime/ark-bn254", |b| {
        b.iter(|| black_box(e) * black_box(k))
    });
    for (n, g2) in MSM_SIZES {
        let ps: Vec<_> = (1..=u64::from(n))
            .map(|i| (p * Fr::from(i)).into_affine())
            .collect();
        let ks: Vec<Fr> = (0..n)
            .map(|i| {
                let k = scalar::<Bn254>(seed16(i));
                Fr::from_le_bytes_mod_order(k.to_le_bytes().as_ref())
            })
            .collect();
        c.bench_function(&format!("BN254/g1_msm_{n}/ark-bn254"), |b| {
            b.iter(|| G1::msm(black_box(&ps), black_box(&ks)))
        });
        if g2 {
            let qs: Vec<_> = (1..=u64::from(n))
                .map(|i| (q * Fr::from(i)).into_affine())
                .collect();
            c.bench_function(&format!("BN254/g2_msm_{n}/ark-bn254"), |b| {
                b.iter(|| G2::msm(black_box(&qs), black_box(&ks)))
            });
        }
    }
}

fn all(c: &mut Criterion) {
    ours::<Bn254>(c, "BN254");
    ark(c);
    ours::<Fp254Bnb>(c, "Fp254BNb");
    ours::<Bn381>(c, "BN381_1");
    ours::<Bn462>(c, "BN462");
}

criterion_group!(benches, all);
criterion_main!(benches);
