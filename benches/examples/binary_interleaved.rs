//! The binary-field ratios of `benches/binary.rs` measured the way a loaded machine still
//! allows: each contender runs a chain of operations at a time, the contenders alternate, and
//! the fastest of many runs counts (a run that was never preempted). Per preset: `mul` by the
//! default backend, by `portable64` and by OpenSSL's `BN_GF2m_mod_mul_arr`; `invert`; one
//! squaring in chains of 16 by PCLMULQDQ and by PDEP (trinomials, where the CPU runs it); and for
//! each multi-squaring run k, x^(2^k) by the AVX-512 bit matrix against k squarings in XMM
//! registers. Prints one Markdown row per preset and one per run; every result is first checked
//! against OpenSSL or the other contender.
//!
//! `RUSTFLAGS="-C target-cpu=native" cargo run --release -p fieldgen-benches --features binary-peers --example binary_interleaved`

use std::ffi::c_int;
use std::hint::black_box;

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
}

/// Chained operations per timed run: 128, as this machine's clock reads in steps of 10 ns
/// (0.3 ns per operation at 32, 2.5 % of a sect283 product; 0.08 ns at 128).
const CHAIN: usize = 128;

/// SplitMix64 bytes of an m-bit element, little-endian.
fn element(m: u32, seed: u64) -> Vec<u8> {
    let b = m.div_ceil(8) as usize;
    let mut v = fieldgen_benches::splitmix_bytes(seed, b);
    if m % 8 != 0 {
        v[b - 1] &= (1u8 << (m % 8)) - 1;
    }
    v
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

/// Best time in ns per operation of each contender (chains of `CHAIN` operations).
fn race(rounds: usize, fs: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    fieldgen_benches::race(rounds, fs)
        .into_iter()
        .map(|t| t / CHAIN as f64)
        .collect()
}

macro_rules! field {
    ($id:expr, $F:ty) => {{
        type F = $F;
        const B: usize = (F::DEGREE as usize + 7) / 8;
        let m = F::DEGREE;
        let (xb, yb) = (element(m, 1 ^ u64::from(m)), element(m, 2 ^ u64::from(m)));
        let x: F = F::from_le_bytes(&xb.clone().try_into().unwrap()).unwrap();
        let y: F = F::from_le_bytes(&yb.clone().try_into().unwrap()).unwrap();
        let mut arr: Vec<c_int> = F::MODULUS_EXPONENTS.iter().map(|&e| e as c_int).collect();
        arr.push(-1);
        // SAFETY (all OpenSSL calls): BIGNUMs and the context are live, `arr` ends with -1,
        // inputs are reduced.
        let (ctx, xo, yo, r) = unsafe {
            (
                openssl_sys::BN_CTX_new(),
                bn(&xb),
                bn(&yb),
                openssl_sys::BN_new(),
            )
        };
        unsafe { assert_eq!(BN_GF2m_mod_mul_arr(r, xo, yo, arr.as_ptr(), ctx), 1) };
        assert_eq!(x.mul(&y).to_le_bytes().to_vec(), bn_le(r, B), "{} mul", $id);
        let (mut a, mut b, mut c, mut d) = (x, x, x, unsafe { openssl_sys::BN_dup(xo) });
        let mut t = unsafe { openssl_sys::BN_new() };
        let best = race(
            400,
            &mut [
                // Each chain runs on a local (through `black_box`, so through memory, as
                // OpenSSL's chain is): a chain on the captured variable itself would add a
                // copy to and from the closure's capture at every step.
                &mut || {
                    let mut v = a;
                    for _ in 0..CHAIN {
                        v = black_box(v).mul(&y);
                    }
                    a = v;
                },
                &mut || {
                    let mut v = b;
                    for _ in 0..CHAIN {
                        v = black_box(v).__mul_with_backend(&y, "portable64").unwrap();
                    }
                    b = v;
                },
                &mut || {
                    let mut v = c;
                    for _ in 0..CHAIN / 4 {
                        v = black_box(v).invert().unwrap() + y;
                    }
                    c = v;
                },
                &mut || {
                    for _ in 0..CHAIN {
                        unsafe {
                            assert_eq!(
                                BN_GF2m_mod_mul_arr(t, black_box(d), yo, arr.as_ptr(), ctx),
                                1
                            );
                            std::mem::swap(&mut d, &mut t);
                        }
                    }
                },
            ],
        );
        let (mul, portable, inv, ossl) = (best[0], best[1], best[2] * 4.0, best[3]);
        println!(
            "| {} | {} | {:.1} | {:.1} | {:.0} | {:.1} | {:.3} | {:.1} | {:.1} |",
            $id,
            F::backend(),
            mul,
            ossl,
            inv,
            portable,
            mul / ossl,
            inv / mul,
            portable / mul
        );
        // One squaring in a chain of 16, by the XMM kernel and by the PDEP one where it runs.
        let want = x.__square_n_with_backend(16, "x86_64-clmul").unwrap();
        if let Some(got) = x.__square_n_with_backend(16, "x86_64-bmi2") {
            assert!(got == want, "{} PDEP squarings", $id);
            let (mut p, mut q) = (x, x);
            let best = race(
                200,
                &mut [
                    &mut || {
                        for _ in 0..CHAIN / 16 {
                            p = black_box(p)
                                .__square_n_with_backend(16, "x86_64-clmul")
                                .unwrap();
                        }
                    },
                    &mut || {
                        for _ in 0..CHAIN / 16 {
                            q = black_box(q)
                                .__square_n_with_backend(16, "x86_64-bmi2")
                                .unwrap();
                        }
                    },
                ],
            );
            println!(
                "|   {} squaring | PCLMULQDQ {:.2} ns | PDEP {:.2} ns | {:.2} |",
                $id,
                best[0],
                best[1],
                best[0] / best[1]
            );
        }
        for &k in F::MULTI_SQUARE_RUNS.iter() {
            let want = x.__square_n_with_backend(k, "squarings").unwrap();
            let Some(got) = x.__square_n_with_backend(k, "x86_64-avx512-matrix") else {
                continue;
            };
            assert!(got == want, "{} x^(2^{k})", $id);
            let (mut p, mut q) = (x, x);
            let best = race(
                200,
                &mut [
                    &mut || {
                        for _ in 0..CHAIN {
                            p = black_box(p)
                                .__square_n_with_backend(k, "x86_64-avx512-matrix")
                                .unwrap();
                        }
                    },
                    &mut || {
                        for _ in 0..CHAIN {
                            q = black_box(q)
                                .__square_n_with_backend(k, "squarings")
                                .unwrap();
                        }
                    },
                ],
            );
            println!(
                "|   {} k = {k} | matrix {:.1} ns | {k} squarings {:.1} ns | {:.2} |",
                $id,
                best[0],
                best[1],
                best[1] / best[0]
            );
        }
        black_box((a, b, c));
    }};
}

/// OpenSSL's per-call floor: `BN_GF2m_mod_mul_arr` in GF(2^8) (f = x^8+x^4+x^3+x+1, one-byte
/// operands), where the arithmetic itself is a few word operations, so the time is mostly the
/// call's BIGNUM and BN_CTX bookkeeping.
fn openssl_floor() -> f64 {
    let arr: [c_int; 6] = [8, 4, 3, 1, 0, -1];
    // SAFETY: as in `field!`: live BIGNUMs and context, `arr` ends with -1, reduced inputs.
    unsafe {
        let ctx = openssl_sys::BN_CTX_new();
        let (x, y) = (bn(&[0x53]), bn(&[0xca]));
        let (mut d, mut t) = (openssl_sys::BN_dup(x), openssl_sys::BN_new());
        assert_eq!(BN_GF2m_mod_mul_arr(t, x, y, arr.as_ptr(), ctx), 1);
        // 0x53 · 0xca = 1 in the AES field (FIPS 197, §4.2).
        assert_eq!(bn_le(t, 1), vec![1]);
        let best = race(
            400,
            &mut [&mut || {
                for _ in 0..CHAIN {
                    assert_eq!(
                        BN_GF2m_mod_mul_arr(t, black_box(d), y, arr.as_ptr(), ctx),
                        1
                    );
                    std::mem::swap(&mut d, &mut t);
                }
            }],
        );
        best[0]
    }
}

fn main() {
    println!(
        "OpenSSL BN_GF2m_mod_mul_arr in GF(2^8) (per-call floor): {:.1} ns",
        openssl_floor()
    );
    println!("| field | backend | mul ns | OpenSSL mul ns | invert ns | portable64 mul ns | mul / OpenSSL | invert / mul | portable64 / clmul |");
    println!("|---|---|---|---|---|---|---|---|---|");
    field!("gf2-155", ours::gf2_155_64::F155);
    field!("sect163", ours::sect163_64::F163);
    field!("sect193", ours::sect193_64::F193);
    field!("sect233", ours::sect233_64::F233);
    field!("sect239", ours::sect239_64::F239);
    field!("sect283", ours::sect283_64::F283);
    field!("sect409", ours::sect409_64::F409);
    field!("sect571", ours::sect571_64::F571);
}
