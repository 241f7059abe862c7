//! GF(2^m) latency: our binary fields, one column per backend, beside OpenSSL's GF(2^m)
//! arithmetic (`BN_GF2m_mod_mul_arr`, `BN_GF2m_mod_sqr_arr`, `BN_GF2m_mod_inv` in the system
//! libcrypto, linked through `openssl-sys`), in one criterion run.
//!
//! Ids are `<field>/<op>/<column>`: columns `x86_64-clmul` (the default backend on a CPU with
//! PCLMULQDQ, through the public `mul`/`square`/`invert`), `portable64` (the portable 64-bit-word
//! product, through the `__mul_with_backend` hook; invert is not measured there), `portable32` and
//! `portable32-holes` (the 32-bit-word module's comb and holes product through the hook; its
//! square and invert under the name of its default backend) and `openssl`. Every operation is a latency chain (`x ← x·y`, `x ← x²`,
//! `x ← x⁻¹ + y`), and every column first reproduces the others' results on the same inputs.
//!
//! ```sh
//! CARGO_TARGET_DIR=target/bench-native RUSTFLAGS='-C target-cpu=native' \
//!   cargo bench -p fieldgen-benches --features binary-peers --bench binary -- --noplot
//! ```

use std::ffi::c_int;
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fieldgen_generated as ours;
use openssl_sys::{BIGNUM, BN_CTX};

extern "C" {
    fn BN_GF2m_mod_mul_arr(
        r: *mut BIGNUM,
        a: *const BIGNUM,
        b: *const BIGNUM,
        p: *const c_int,
        ctx: *mut BN_CTX,
    ) -> c_int;
    fn BN_GF2m_mod_sqr_arr(
        r: *mut BIGNUM,
        a: *const BIGNUM,
        p: *const c_int,
        ctx: *mut BN_CTX,
    ) -> c_int;
    fn BN_GF2m_mod_inv(
        r: *mut BIGNUM,
        a: *const BIGNUM,
        p: *const BIGNUM,
        ctx: *mut BN_CTX,
    ) -> c_int;
    fn BN_GF2m_add(r: *mut BIGNUM, a: *const BIGNUM, b: *const BIGNUM) -> c_int;
}

/// Two random elements of m bits as little-endian bytes.
fn inputs(m: u32) -> (Vec<u8>, Vec<u8>) {
    let b = m.div_ceil(8) as usize;
    let mut rng = fieldgen_test_support::SplitMix64(0x6269_6e61_7279 ^ u64::from(m));
    let mut one = || {
        let mut v = rng.low_bytes(b);
        if m % 8 != 0 {
            v[b - 1] &= (1u8 << (m % 8)) - 1;
        }
        v
    };
    (one(), one())
}

/// OpenSSL's view of one field: the polynomial as an exponent array and as a BIGNUM.
struct Ossl {
    arr: Vec<c_int>,
    poly: *mut BIGNUM,
    ctx: *mut BN_CTX,
}

fn bn(le: &[u8]) -> *mut BIGNUM {
    let mut be = le.to_vec();
    be.reverse();
    // SAFETY: BN_bin2bn reads `be.len()` bytes and allocates a new BIGNUM.
    unsafe { openssl_sys::BN_bin2bn(be.as_ptr(), be.len() as c_int, std::ptr::null_mut()) }
}

fn bn_le(x: *const BIGNUM, len: usize) -> Vec<u8> {
    // SAFETY: BN_num_bytes ≤ len for reduced elements; BN_bn2bin writes that many bytes.
    unsafe {
        let n = (openssl_sys::BN_num_bits(x) as usize).div_ceil(8);
        let mut be = vec![0u8; n];
        openssl_sys::BN_bn2bin(x, be.as_mut_ptr());
        be.reverse();
        be.resize(len, 0);
        be
    }
}

impl Ossl {
    fn new(exps: &[u32]) -> Ossl {
        let mut arr: Vec<c_int> = exps.iter().map(|&e| e as c_int).collect();
        arr.push(-1);
        let m = exps[0] as usize;
        let mut le = vec![0u8; m / 8 + 1];
        for &e in exps {
            le[e as usize / 8] |= 1 << (e % 8);
        }
        // SAFETY: BN_CTX_new allocates a context.
        let ctx = unsafe { openssl_sys::BN_CTX_new() };
        Ossl {
            arr,
            poly: bn(&le),
            ctx,
        }
    }
}

macro_rules! bench_field {
    ($c:expr, $id:expr, $F64:ty, $F32:ty) => {{
        let c: &mut Criterion = $c;
        let id: &str = $id;
        type F64 = $F64;
        type F32 = $F32;
        const B: usize = (F64::DEGREE as usize + 7) / 8;
        let m = F64::DEGREE;
        let (xb, yb) = inputs(m);
        let arr: [u8; B] = xb.clone().try_into().unwrap();
        let brr: [u8; B] = yb.clone().try_into().unwrap();
        let x64 = F64::from_le_bytes(&arr).unwrap();
        let y64 = F64::from_le_bytes(&brr).unwrap();
        let x32 = F32::from_le_bytes(&arr).unwrap();
        let y32 = F32::from_le_bytes(&brr).unwrap();
        let o = Ossl::new(&F64::MODULUS_EXPONENTS);
        let (xo, yo) = (bn(&xb), bn(&yb));
        // SAFETY (all OpenSSL calls below): BIGNUMs and the context are live, the exponent
        // array ends with -1, inputs are reduced.
        let ossl_mul = |x: *mut BIGNUM, r: *mut BIGNUM| unsafe {
            assert_eq!(BN_GF2m_mod_mul_arr(r, x, yo, o.arr.as_ptr(), o.ctx), 1);
        };
        let ossl_sqr = |x: *mut BIGNUM, r: *mut BIGNUM| unsafe {
            assert_eq!(BN_GF2m_mod_sqr_arr(r, x, o.arr.as_ptr(), o.ctx), 1);
        };
        let ossl_inv = |x: *mut BIGNUM, r: *mut BIGNUM| unsafe {
            assert_eq!(BN_GF2m_mod_inv(r, x, o.poly, o.ctx), 1);
            assert_eq!(BN_GF2m_add(r, r, yo), 1);
        };
        // Every column reproduces the others on the same inputs.
        // SAFETY: BN_new allocates.
        let r = unsafe { openssl_sys::BN_new() };
        ossl_mul(xo, r);
        let want = bn_le(r, B);
        assert_eq!(x64.mul(&y64).to_le_bytes().to_vec(), want, "{id} mul");
        assert_eq!(
            x64.__mul_with_backend(&y64, "portable64")
                .unwrap()
                .to_le_bytes()
                .to_vec(),
            want
        );
        assert_eq!(x32.mul(&y32).to_le_bytes().to_vec(), want);
        ossl_sqr(xo, r);
        assert_eq!(
            x64.square().to_le_bytes().to_vec(),
            bn_le(r, B),
            "{id} square"
        );
        ossl_inv(xo, r);
        assert_eq!(
            (x64.invert().unwrap() + y64).to_le_bytes().to_vec(),
            bn_le(r, B),
            "{id} invert"
        );

        let mut g = c.benchmark_group(id);
        g.bench_function(BenchmarkId::new("mul", F64::backend()), |b| {
            let mut x = x64;
            b.iter(|| x = black_box(x).mul(&y64))
        });
        g.bench_function(BenchmarkId::new("mul", "portable64"), |b| {
            let mut x = x64;
            b.iter(|| x = black_box(x).__mul_with_backend(&y64, "portable64").unwrap())
        });
        for name in ["portable32", "portable32-holes"] {
            assert_eq!(
                x32.__mul_with_backend(&y32, name)
                    .unwrap()
                    .to_le_bytes()
                    .to_vec(),
                want,
                "{id} {name} mul"
            );
            g.bench_function(BenchmarkId::new("mul", name), |b| {
                let mut x = x32;
                b.iter(|| x = black_box(x).__mul_with_backend(&y32, name).unwrap())
            });
        }
        g.bench_function(BenchmarkId::new("mul", "openssl"), |b| {
            let (mut x, mut t) = (unsafe { openssl_sys::BN_dup(xo) }, unsafe {
                openssl_sys::BN_new()
            });
            b.iter(|| {
                ossl_mul(black_box(x), t);
                std::mem::swap(&mut x, &mut t);
            })
        });
        g.bench_function(BenchmarkId::new("square", F64::backend()), |b| {
            let mut x = x64;
            b.iter(|| x = black_box(x).square())
        });
        g.bench_function(BenchmarkId::new("square", "portable64"), |b| {
            let mut x = x64;
            b.iter(|| x = black_box(x).__square_with_backend("portable64").unwrap())
        });
        g.bench_function(BenchmarkId::new("square", F32::backend()), |b| {
            let mut x = x32;
            b.iter(|| x = black_box(x).square())
        });
        g.bench_function(BenchmarkId::new("square", "openssl"), |b| {
            let (mut x, mut t) = (unsafe { openssl_sys::BN_dup(xo) }, unsafe {
                openssl_sys::BN_new()
            });
            b.iter(|| {
                ossl_sqr(black_box(x), t);
                std::mem::swap(&mut x, &mut t);
            })
        });
        g.bench_function(BenchmarkId::new("invert", F64::backend()), |b| {
            let mut x = x64;
            b.iter(|| x = black_box(x).invert().unwrap() + y64)
        });
        g.bench_function(BenchmarkId::new("invert", F32::backend()), |b| {
            let mut x = x32;
            b.iter(|| x = black_box(x).invert().unwrap() + y32)
        });
        g.bench_function(BenchmarkId::new("invert_vartime", F64::backend()), |b| {
            let mut x = x64;
            b.iter(|| x = black_box(x).invert_vartime().unwrap() + y64)
        });
        g.bench_function(BenchmarkId::new("invert", "openssl"), |b| {
            let (mut x, mut t) = (unsafe { openssl_sys::BN_dup(xo) }, unsafe {
                openssl_sys::BN_new()
            });
            b.iter(|| {
                ossl_inv(black_box(x), t);
                std::mem::swap(&mut x, &mut t);
            })
        });
        g.finish();
    }};
}

fn binary_fields(c: &mut Criterion) {
    bench_field!(c, "sect163", ours::sect163_64::F163, ours::sect163_32::F163);
    bench_field!(c, "gf2-155", ours::gf2_155_64::F155, ours::gf2_155_32::F155);
    bench_field!(c, "sect193", ours::sect193_64::F193, ours::sect193_32::F193);
    bench_field!(c, "sect233", ours::sect233_64::F233, ours::sect233_32::F233);
    bench_field!(c, "sect239", ours::sect239_64::F239, ours::sect239_32::F239);
    bench_field!(c, "sect283", ours::sect283_64::F283, ours::sect283_32::F283);
    bench_field!(c, "sect409", ours::sect409_64::F409, ours::sect409_32::F409);
    bench_field!(c, "sect571", ours::sect571_64::F571, ours::sect571_32::F571);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = binary_fields
}
criterion_main!(benches);
