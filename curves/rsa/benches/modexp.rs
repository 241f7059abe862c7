//! Part of the library-evaluation table (Abusharekh and Gaj's comparison of multi-precision
//! libraries): modular exponentiation with e = 3, e = 65537 and a full-size exponent at 768 to
//! 4096 bits, this crate's contexts beside OpenSSL's BIGNUM (`BN_mod_exp`) and num-bigint
//! (`BigUint::modpow`), one run. Ours: `modexp_vartime` for the two short public exponents,
//! the constant-time `modexp` for the full-size one.
//!
//! `cargo bench -p fieldgen-rsa-schemes --bench modexp -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use num_bigint::BigUint;
use openssl::bn::{BigNum, BigNumContext};
use rand::{Rng, SeedableRng};

macro_rules! sizes {
    ($c:ident, $r:ident, $($ty:ident, $bytes:literal);*) => {$(
        {
            let mut n = [0u8; $bytes];
            $r.fill_bytes(&mut n);
            n[0] |= 0x80;
            n[$bytes - 1] |= 1;
            let mut x = [0u8; $bytes];
            $r.fill_bytes(&mut x);
            x[0] &= 0x7f;
            let mut d = [0u8; $bytes];
            $r.fill_bytes(&mut d);
            let ctx = fieldgen_rsa::$ty::new(&n).unwrap();
            let (bn_n, bn_x, bn_d) = (BigNum::from_slice(&n).unwrap(), BigNum::from_slice(&x).unwrap(), BigNum::from_slice(&d).unwrap());
            let (nb_n, nb_x, nb_d) = (BigUint::from_bytes_be(&n), BigUint::from_bytes_be(&x), BigUint::from_bytes_be(&d));
            let mut bctx = BigNumContext::new().unwrap();
            let mut g = $c.benchmark_group(format!("modexp{}", $bytes * 8));
            g.sample_size(10);
            for (name, e) in [("e=3", vec![3u8]), ("e=65537", vec![1, 0, 1])] {
                let bn_e = BigNum::from_slice(&e).unwrap();
                let nb_e = BigUint::from_bytes_be(&e);
                g.bench_function(BenchmarkId::new(name, "fieldgen"), |b| b.iter(|| ctx.modexp_vartime(black_box(&x), &e)));
                g.bench_function(BenchmarkId::new(name, "openssl"), |b| b.iter(|| {
                    let mut out = BigNum::new().unwrap();
                    out.mod_exp(black_box(&bn_x), &bn_e, &bn_n, &mut bctx).unwrap();
                    out
                }));
                g.bench_function(BenchmarkId::new(name, "num-bigint"), |b| b.iter(|| black_box(&nb_x).modpow(&nb_e, &nb_n)));
            }
            g.bench_function(BenchmarkId::new("full", "fieldgen"), |b| b.iter(|| ctx.modexp(black_box(&x), &d)));
            g.bench_function(BenchmarkId::new("full", "openssl"), |b| b.iter(|| {
                let mut out = BigNum::new().unwrap();
                out.mod_exp(black_box(&bn_x), &bn_d, &bn_n, &mut bctx).unwrap();
                out
            }));
            g.bench_function(BenchmarkId::new("full", "num-bigint"), |b| b.iter(|| black_box(&nb_x).modpow(&nb_d, &nb_n)));
            g.finish();
        }
    )*};
}

fn bench(c: &mut Criterion) {
    let mut r = rand::rngs::StdRng::seed_from_u64(9);
    sizes!(c, r, Mont768, 96; Mont1024, 128; Mont2048, 256; Mont3072, 384; Mont4096, 512);
}

criterion_group!(benches, bench);
criterion_main!(benches);
