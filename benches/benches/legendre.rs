//! Legendre symbol: our `legendre` (constant-time binary GCD), `legendre_vartime` and
//! `legendre_euler` (Euler's criterion) beside the peers' Legendre or Jacobi symbols, in one
//! criterion run.
//!
//! Ids are `<field>/legendre/<column>`. One criterion iteration computes the symbol of each of
//! [`N`] fixed random canonical values (the same integers for every column of a field), and the
//! throughput is declared as [`N`] elements, so per-element time is criterion's time over N.
//! Before timing, every column's symbols are checked equal to the num-bigint Euler criterion.
//!
//! Peers: ark-ff's `Field::legendre` (Euler's criterion), halo2curves' `Legendre::legendre`
//! (a variable-time binary Jacobi algorithm), crypto-bigint's `Uint::jacobi_symbol` (constant
//! time) and `jacobi_symbol_vartime`.
//!
//! `cargo bench -p fieldgen-benches --features peers --bench legendre` (with
//! `RUSTFLAGS='-C target-cpu=native'` as for the `fields` bench).

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use fieldgen_generated as ours;
use num_bigint::BigUint;

/// Values per criterion iteration.
const N: usize = 64;

/// `N` pseudo-random canonical values below `p` (splitmix64 stream, fixed seed), little-endian
/// bytes of the field's encoding length.
fn inputs(p: &BigUint, len: usize) -> Vec<Vec<u8>> {
    let mut rng = fieldgen_test_support::SplitMix64(0x9e37_79b9_7f4a_7c15);
    (0..N)
        .map(|_| {
            let words: Vec<u32> = (0..len.div_ceil(4) + 2)
                .flat_map(|_| {
                    let w = rng.next_u64().to_le_bytes();
                    [
                        u32::from_le_bytes([w[0], w[1], w[2], w[3]]),
                        u32::from_le_bytes([w[4], w[5], w[6], w[7]]),
                    ]
                })
                .collect();
            let v = BigUint::new(words) % p;
            let mut b = v.to_bytes_le();
            b.resize(len, 0);
            b
        })
        .collect()
}

/// Euler's criterion with num-bigint: the oracle every column is checked against.
fn euler(le: &[u8], p: &BigUint) -> i64 {
    let a = BigUint::from_bytes_le(le);
    let t = a.modpow(&((p - 1u32) >> 1), p);
    if t == BigUint::ZERO {
        0
    } else if t == BigUint::from(1u32) {
        1
    } else {
        -1
    }
}

/// Checks `symbol` against the oracle on every input, then times it over all of them.
fn column<T: Copy>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    p: &BigUint,
    raw: &[Vec<u8>],
    decode: impl Fn(&[u8]) -> T,
    symbol: impl Fn(&T) -> i64,
) {
    let xs: Vec<T> = raw.iter().map(|b| decode(b)).collect();
    for (x, b) in xs.iter().zip(raw) {
        assert_eq!(symbol(x), euler(b, p), "{name}");
    }
    g.bench_function(name, |bench| {
        bench.iter(|| {
            let mut acc = 0i64;
            for x in &xs {
                acc += symbol(black_box(x));
            }
            acc
        })
    });
}

/// Decodes through `ff::PrimeField::from_repr` in the byte order its `Repr` uses.
fn ff_decode<T: halo2curves::ff::PrimeField>(le: &[u8]) -> T {
    let big_endian = T::ONE.to_repr().as_ref()[0] != 1;
    let mut repr = T::Repr::default();
    repr.as_mut().copy_from_slice(le);
    if big_endian {
        repr.as_mut().reverse();
    }
    Option::from(T::from_repr(repr)).expect("canonical input")
}

fn ark_symbol<F: ark_ff::Field>(x: &F) -> i64 {
    match x.legendre() {
        ark_ff::LegendreSymbol::Zero => 0,
        ark_ff::LegendreSymbol::QuadraticResidue => 1,
        ark_ff::LegendreSymbol::QuadraticNonResidue => -1,
    }
}

fn cb_symbol(s: crypto_bigint::JacobiSymbol) -> i64 {
    i64::from(i8::from(s))
}

macro_rules! ours_columns {
    ($g:expr, $p:expr, $raw:expr, $ty:ty, $n:expr) => {{
        let dec = |b: &[u8]| -> $ty {
            let arr: [u8; $n] = b.try_into().unwrap();
            Option::from(<$ty>::from_le_bytes(&arr)).unwrap()
        };
        column($g, "ours", $p, $raw, dec, |x: &$ty| i64::from(x.legendre()));
        column($g, "ours_vartime", $p, $raw, dec, |x: &$ty| {
            i64::from(x.legendre_vartime())
        });
        column($g, "ours_euler", $p, $raw, dec, |x: &$ty| {
            i64::from(x.legendre_euler())
        });
    }};
}

fn modulus(hex: &str) -> BigUint {
    BigUint::parse_bytes(hex.as_bytes(), 16).unwrap()
}

fn bench(c: &mut Criterion) {
    {
        let p = modulus("30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47");
        let raw = inputs(&p, 32);
        let mut g = c.benchmark_group("bn254_p/legendre");
        g.throughput(Throughput::Elements(N as u64));
        ours_columns!(&mut g, &p, &raw, ours::bn254_p_64::Fp, 32);
        column(
            &mut g,
            "ark",
            &p,
            &raw,
            |b| <ark_bn254::Fq as ark_ff::PrimeField>::from_le_bytes_mod_order(b),
            ark_symbol,
        );
        column(
            &mut g,
            "halo2curves_vartime",
            &p,
            &raw,
            ff_decode::<halo2curves::bn256::Fq>,
            |x| halo2curves::ff_ext::Legendre::legendre(x),
        );
        let pc = crypto_bigint::Odd::new(crypto_bigint::U256::from_le_slice(&{
            let mut b = p.to_bytes_le();
            b.resize(32, 0);
            b
        }))
        .unwrap();
        column(
            &mut g,
            "crypto_bigint",
            &p,
            &raw,
            crypto_bigint::U256::from_le_slice,
            |x| cb_symbol(x.jacobi_symbol(&pc)),
        );
        column(
            &mut g,
            "crypto_bigint_vartime",
            &p,
            &raw,
            crypto_bigint::U256::from_le_slice,
            |x| cb_symbol(x.jacobi_symbol_vartime(&pc)),
        );
        g.finish();
    }
    {
        let p = modulus("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff");
        let raw = inputs(&p, 32);
        let mut g = c.benchmark_group("p256_p/legendre");
        g.throughput(Throughput::Elements(N as u64));
        ours_columns!(&mut g, &p, &raw, ours::p256_p_64::Fp, 32);
        column(
            &mut g,
            "halo2curves_vartime",
            &p,
            &raw,
            ff_decode::<halo2curves::secp256r1::Fp>,
            |x| halo2curves::ff_ext::Legendre::legendre(x),
        );
        let pc =
            crypto_bigint::Odd::new(crypto_bigint::U256::from_le_slice(&p.to_bytes_le())).unwrap();
        column(
            &mut g,
            "crypto_bigint",
            &p,
            &raw,
            crypto_bigint::U256::from_le_slice,
            |x| cb_symbol(x.jacobi_symbol(&pc)),
        );
        g.finish();
    }
    {
        let p = modulus("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
        let raw = inputs(&p, 48);
        let mut g = c.benchmark_group("bls12_381_p/legendre");
        g.throughput(Throughput::Elements(N as u64));
        ours_columns!(&mut g, &p, &raw, ours::bls12_381_p_64::Fp, 48);
        column(
            &mut g,
            "ark",
            &p,
            &raw,
            |b| <ark_bls12_381::Fq as ark_ff::PrimeField>::from_le_bytes_mod_order(b),
            ark_symbol,
        );
        g.finish();
    }
    // Ours only, across sizes: which method `legendre` should be per field.
    macro_rules! ours_only {
        ($group:expr, $hex:expr, $ty:ty, $n:expr) => {{
            let p = modulus($hex);
            let raw = inputs(&p, $n);
            let mut g = c.benchmark_group($group);
            g.throughput(Throughput::Elements(N as u64));
            ours_columns!(&mut g, &p, &raw, $ty, $n);
            g.finish();
        }};
    }
    ours_only!(
        "goldilocks_p/legendre",
        "fffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        ours::goldilocks_p_64::Fp,
        56
    );
    ours_only!(
        "p127_p/legendre",
        "7fffffffffffffffffffffffffffffff",
        ours::p127_p_64::Fp,
        16
    );
    ours_only!(
        "p521_p/legendre",
        "1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        ours::p521_p_64::Fp,
        66
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
