//! The library-evaluation table of Abusharekh and Gaj's comparison of multi-precision
//! libraries for public-key cryptography: multiplication, squaring, modular exponentiation
//! (e = 3, e = 65537, a full-size exponent), GCD, modular inverse (extended GCD) and a
//! primality test (a random prime, a random odd composite) at 768, 1024, 2048, 3072 and 4096
//! bits, this crate's contexts and `fieldgen_field::rsa` beside GMP (`rug` on the system
//! libgmp), OpenSSL's BIGNUM (`openssl` crate), num-bigint (num-prime for primality) and
//! crypto-bigint, one run. After criterion has measured everything it prints the table as
//! markdown: each cell is criterion's median time and, in brackets, that time divided by the
//! fastest cell of its row (the evaluation's ranking), then the geometric mean of those ratios
//! per operation and library over the sizes. The table is also written to
//! `<target>/criterion/evaluation-table.md`.
//!
//! `cargo bench -p fieldgen-rsa-schemes --bench evaluation -- --warm-up-time 0.3 --measurement-time 1`
//!
//! Columns (what each cell measures):
//! - fieldgen: multiplication and squaring are the contexts' full double-width products
//!   (`mul_wide`, `square_wide`: Karatsuba over assembly or Comba leaves, constant time);
//!   exponentiation is `modexp_vartime`; GCD and inverse are the variable-time Lehmer
//!   `gcd_vartime` and `inv_mod_vartime`; primality is the context's Baillie–PSW
//!   (`MontN::new` plus `is_probable_prime_vartime`, so the context set-up is included).
//! - fieldgen ct: the constant-time `modexp`, `gcd` and `inv_mod` (binary extended GCD).
//! - GMP: `mpz_mul`, `mpz_mul` of x by itself (rug's square), `mpz_powm`, `mpz_gcd`,
//!   `mpz_invert`, `mpz_probab_prime_p` with 24 repetitions (trial division and Baillie–PSW
//!   only; GMP 6.2 adds reps − 24 Miller–Rabin rounds). GMP sec: `mpz_powm_sec`.
//! - OpenSSL: `BN_mul`, `BN_sqr`, `BN_mod_exp`, `BN_gcd`, `BN_mod_inverse`,
//!   `BN_is_prime_fasttest_ex` with its default number of rounds and trial division.
//!   OpenSSL ct: the same with `BN_FLG_CONSTTIME` on the secret operands.
//! - num-bigint: `*`, `modpow`, `Integer::gcd`, `modinv`; primality is num-prime's
//!   `is_prime` with its default configuration.
//! - crypto-bigint: `widening_mul`, `widening_square`, `FixedMontyForm::pow_vartime`,
//!   `gcd_vartime`, `invert_odd_mod_vartime`. crypto-bigint ct: `pow` (`pow_bounded_exp` for
//!   the short exponents), `gcd`, `invert_odd_mod`. It has no primality test.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::SystemTime;

use criterion::{BenchmarkId, Criterion};
use crypto_bigint::modular::{FixedMontyForm, FixedMontyParams};
use crypto_bigint::{Odd, Uint, U64};
use num_bigint::BigUint;
use num_integer::Integer as _;
use openssl::bn::{BigNum, BigNumContext};
use rand::{Rng, SeedableRng};
use rug::{integer::Order, Assign, Integer};

/// Operations, in table order: (criterion id, row label).
const OPS: [(&str, &str); 9] = [
    ("mul", "multiplication"),
    ("sqr", "squaring"),
    ("exp-e3", "modexp e = 3"),
    ("exp-e65537", "modexp e = 65537"),
    ("exp-full", "modexp full exponent"),
    ("gcd", "GCD"),
    ("inv", "modular inverse (ext. GCD)"),
    ("prime-p", "primality, prime"),
    ("prime-c", "primality, odd composite"),
];

/// Libraries, in column order: (criterion id, column label).
const LIBS: [(&str, &str); 9] = [
    ("fieldgen", "fieldgen"),
    ("fieldgen-ct", "fieldgen ct"),
    ("gmp", "GMP"),
    ("gmp-sec", "GMP sec"),
    ("openssl", "OpenSSL"),
    ("openssl-ct", "OpenSSL ct"),
    ("num-bigint", "num-bigint"),
    ("crypto-bigint", "crypto-bigint"),
    ("crypto-bigint-ct", "crypto-bigint ct"),
];

const BITS: [usize; 5] = [768, 1024, 2048, 3072, 4096];

fn rand_bytes(r: &mut impl Rng, len: usize) -> Vec<u8> {
    let mut v = vec![0u8; len];
    r.fill_bytes(&mut v);
    v
}

fn gmp(be: &[u8]) -> Integer {
    Integer::from_digits(be, Order::Msf)
}

fn bn(be: &[u8]) -> BigNum {
    BigNum::from_slice(be).unwrap()
}

fn bn_ct(be: &[u8]) -> BigNum {
    let mut v = bn(be);
    v.set_const_time();
    v
}

macro_rules! size {
    ($c:ident, $r:ident, $ty:ident, $limbs:literal) => {{
        const B: usize = 8 * $limbs;
        type U = Uint<$limbs>;
        let bits = 64 * $limbs;
        let ctx_of = |be: &[u8]| fieldgen_rsa::$ty::new(&<[u8; B]>::try_from(be).unwrap());
        let limbs_of =
            |be: &[u8]| fieldgen_rsa::$ty::limbs_from_be(&<[u8; B]>::try_from(be).unwrap());
        // A random odd modulus with its top bit set; x < n; y and d of full size.
        let mut n = rand_bytes(&mut $r, B);
        n[0] |= 0x80;
        n[B - 1] |= 1;
        let mut x = rand_bytes(&mut $r, B);
        x[0] &= 0x7f;
        let y = rand_bytes(&mut $r, B);
        let d = rand_bytes(&mut $r, B);
        // An inverse operand: x + k coprime to n (checked with num-bigint).
        let nb_n = BigUint::from_bytes_be(&n);
        let mut nb_v = BigUint::from_bytes_be(&x);
        while nb_v.gcd(&nb_n) != BigUint::from(1u8) {
            nb_v += 1u8;
        }
        let v = {
            let t = nb_v.to_bytes_be();
            let mut o = vec![0u8; B - t.len()];
            o.extend(t);
            o
        };
        // A random prime (OpenSSL) and a random odd composite of `bits` bits.
        let mut bctx = BigNumContext::new().unwrap();
        let mut p_bn = BigNum::new().unwrap();
        p_bn.generate_prime(bits as i32, false, None, None).unwrap();
        let p = p_bn.to_vec_padded(i32::try_from(B).unwrap()).unwrap();
        let comp = loop {
            let mut t = rand_bytes(&mut $r, B);
            t[0] |= 0x80;
            t[B - 1] |= 1;
            if !bn(&t).is_prime(64, &mut bctx).unwrap() {
                break t;
            }
        };

        let ctx = ctx_of(&n).unwrap();
        let (xl, yl, nl, vl) = (limbs_of(&x), limbs_of(&y), limbs_of(&n), limbs_of(&v));
        let xa = <[u8; B]>::try_from(&x[..]).unwrap();
        let (g_n, g_x, g_y, g_v, g_p, g_c) =
            (gmp(&n), gmp(&x), gmp(&y), gmp(&v), gmp(&p), gmp(&comp));
        let (b_n, b_x, b_y, b_v, b_p, b_c) = (bn(&n), bn(&x), bn(&y), bn(&v), bn(&p), bn(&comp));
        let (bc_x, bc_v) = (bn_ct(&x), bn_ct(&v));
        let nb = |b: &[u8]| BigUint::from_bytes_be(b);
        let (u_n, u_x, u_y, u_v, u_p, u_c) = (nb(&n), nb(&x), nb(&y), nb(&v), nb(&p), nb(&comp));
        let cb = |b: &[u8]| U::from_be_slice(b);
        let (c_n, c_x, c_y, c_d, c_v) = (cb(&n), cb(&x), cb(&y), cb(&d), cb(&v));
        let c_odd = Odd::new(c_n).unwrap();
        let c_params = FixedMontyParams::new_vartime(c_odd);
        let c_xm = FixedMontyForm::new(&c_x, &c_params);

        let mut g = $c.benchmark_group(format!("eval{bits}"));
        g.sample_size(10);
        let id = |op: &str, lib: &str| BenchmarkId::new(op.to_string(), lib);

        // Multiplication and squaring.
        g.bench_function(id("mul", "fieldgen"), |b| {
            b.iter(|| fieldgen_rsa::$ty::mul_wide(black_box(&xl), black_box(&yl)))
        });
        g.bench_function(id("sqr", "fieldgen"), |b| {
            b.iter(|| fieldgen_rsa::$ty::square_wide(black_box(&xl)))
        });
        let mut g_out = Integer::new();
        g.bench_function(id("mul", "gmp"), |b| {
            b.iter(|| g_out.assign(black_box(&g_x) * black_box(&g_y)))
        });
        g.bench_function(id("sqr", "gmp"), |b| {
            b.iter(|| g_out.assign(black_box(&g_x).square_ref()))
        });
        let mut b_out = BigNum::new().unwrap();
        g.bench_function(id("mul", "openssl"), |b| {
            b.iter(|| {
                b_out
                    .checked_mul(black_box(&b_x), black_box(&b_y), &mut bctx)
                    .unwrap()
            })
        });
        g.bench_function(id("sqr", "openssl"), |b| {
            b.iter(|| b_out.sqr(black_box(&b_x), &mut bctx).unwrap())
        });
        g.bench_function(id("mul", "num-bigint"), |b| {
            b.iter(|| black_box(&u_x) * black_box(&u_y))
        });
        g.bench_function(id("sqr", "num-bigint"), |b| {
            b.iter(|| black_box(&u_x) * black_box(&u_x))
        });
        g.bench_function(id("mul", "crypto-bigint"), |b| {
            b.iter(|| black_box(&c_x).widening_mul(black_box(&c_y)))
        });
        g.bench_function(id("sqr", "crypto-bigint"), |b| {
            b.iter(|| black_box(&c_x).widening_square())
        });

        // Modular exponentiation.
        for (op, e) in [
            ("exp-e3", vec![3u8]),
            ("exp-e65537", vec![1, 0, 1]),
            ("exp-full", d.clone()),
        ] {
            let full = op == "exp-full";
            let (g_e, b_e, bc_e, u_e) = (gmp(&e), bn(&e), bn_ct(&e), nb(&e));
            g.bench_function(id(op, "fieldgen"), |b| {
                b.iter(|| ctx.modexp_vartime(black_box(&xa), &e))
            });
            g.bench_function(id(op, "fieldgen-ct"), |b| {
                b.iter(|| ctx.modexp(black_box(&xa), &e))
            });
            g.bench_function(id(op, "gmp"), |b| {
                b.iter(|| g_out.assign(black_box(&g_x).pow_mod_ref(&g_e, &g_n).unwrap()))
            });
            g.bench_function(id(op, "gmp-sec"), |b| {
                b.iter(|| g_out.assign(black_box(&g_x).secure_pow_mod_ref(&g_e, &g_n)))
            });
            g.bench_function(id(op, "openssl"), |b| {
                b.iter(|| {
                    b_out
                        .mod_exp(black_box(&b_x), &b_e, &b_n, &mut bctx)
                        .unwrap()
                })
            });
            g.bench_function(id(op, "openssl-ct"), |b| {
                b.iter(|| {
                    b_out
                        .mod_exp(black_box(&bc_x), &bc_e, &b_n, &mut bctx)
                        .unwrap()
                })
            });
            g.bench_function(id(op, "num-bigint"), |b| {
                b.iter(|| black_box(&u_x).modpow(&u_e, &u_n))
            });
            if full {
                g.bench_function(id(op, "crypto-bigint"), |b| {
                    b.iter(|| black_box(&c_xm).pow_vartime(&c_d))
                });
                g.bench_function(id(op, "crypto-bigint-ct"), |b| {
                    b.iter(|| black_box(&c_xm).pow(&c_d))
                });
            } else {
                let c_e = U64::from_be_slice(&{
                    let mut t = [0u8; 8];
                    t[8 - e.len()..].copy_from_slice(&e);
                    t
                });
                let e_bits = c_e.bit_width();
                g.bench_function(id(op, "crypto-bigint"), |b| {
                    b.iter(|| black_box(&c_xm).pow_vartime(&c_e))
                });
                g.bench_function(id(op, "crypto-bigint-ct"), |b| {
                    b.iter(|| black_box(&c_xm).pow_bounded_exp(&c_e, e_bits))
                });
            }
        }

        // GCD of a random full-size y and the odd n; inverse of v modulo n.
        g.bench_function(id("gcd", "fieldgen"), |b| {
            b.iter(|| fieldgen_field::rsa::gcd_vartime(black_box(&yl), black_box(&nl)))
        });
        g.bench_function(id("gcd", "fieldgen-ct"), |b| {
            b.iter(|| fieldgen_field::rsa::gcd(black_box(&yl), black_box(&nl)))
        });
        g.bench_function(id("gcd", "gmp"), |b| {
            b.iter(|| g_out.assign(black_box(&g_y).gcd_ref(&g_n)))
        });
        g.bench_function(id("gcd", "openssl"), |b| {
            b.iter(|| b_out.gcd(black_box(&b_y), &b_n, &mut bctx).unwrap())
        });
        g.bench_function(id("gcd", "num-bigint"), |b| {
            b.iter(|| black_box(&u_y).gcd(&u_n))
        });
        g.bench_function(id("gcd", "crypto-bigint"), |b| {
            b.iter(|| black_box(&c_y).gcd_vartime(&c_n))
        });
        g.bench_function(id("gcd", "crypto-bigint-ct"), |b| {
            b.iter(|| black_box(&c_y).gcd(&c_n))
        });
        g.bench_function(id("inv", "fieldgen"), |b| {
            b.iter(|| fieldgen_field::rsa::inv_mod_vartime(black_box(&nl), black_box(&vl)))
        });
        g.bench_function(id("inv", "fieldgen-ct"), |b| {
            b.iter(|| fieldgen_field::rsa::inv_mod(black_box(&nl), black_box(&vl)))
        });
        g.bench_function(id("inv", "gmp"), |b| {
            b.iter(|| g_out.assign(black_box(&g_v).invert_ref(&g_n).unwrap()))
        });
        g.bench_function(id("inv", "openssl"), |b| {
            b.iter(|| b_out.mod_inverse(black_box(&b_v), &b_n, &mut bctx).unwrap())
        });
        g.bench_function(id("inv", "openssl-ct"), |b| {
            b.iter(|| {
                b_out
                    .mod_inverse(black_box(&bc_v), &b_n, &mut bctx)
                    .unwrap()
            })
        });
        g.bench_function(id("inv", "num-bigint"), |b| {
            b.iter(|| black_box(&u_v).modinv(&u_n))
        });
        g.bench_function(id("inv", "crypto-bigint"), |b| {
            b.iter(|| black_box(&c_v).invert_odd_mod_vartime(&c_odd))
        });
        g.bench_function(id("inv", "crypto-bigint-ct"), |b| {
            b.iter(|| black_box(&c_v).invert_odd_mod(&c_odd))
        });

        // Primality.
        for (op, be, g_t, b_t, u_t) in [
            ("prime-p", &p, &g_p, &b_p, &u_p),
            ("prime-c", &comp, &g_c, &b_c, &u_c),
        ] {
            g.bench_function(id(op, "fieldgen"), |b| {
                b.iter(|| ctx_of(black_box(be)).map(|c| c.is_probable_prime_vartime()))
            });
            g.bench_function(id(op, "gmp"), |b| {
                b.iter(|| black_box(g_t).is_probably_prime(24))
            });
            g.bench_function(id(op, "openssl"), |b| {
                b.iter(|| {
                    black_box(b_t)
                        .is_prime_fasttest(0, &mut bctx, true)
                        .unwrap()
                })
            });
            g.bench_function(id(op, "num-bigint"), |b| {
                b.iter(|| num_prime::nt_funcs::is_prime(black_box(u_t), None))
            });
        }
        g.finish();
    }};
}

fn bench(c: &mut Criterion, sizes: &[usize]) {
    let mut r = rand::rngs::StdRng::seed_from_u64(23);
    for &bits in sizes {
        match bits {
            768 => size!(c, r, Mont768, 12),
            1024 => size!(c, r, Mont1024, 16),
            2048 => size!(c, r, Mont2048, 32),
            3072 => size!(c, r, Mont3072, 48),
            4096 => size!(c, r, Mont4096, 64),
            _ => {}
        }
    }
}

/// criterion's output directory, as criterion finds it.
fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return home.into();
    }
    if let Some(t) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(t).join("criterion");
    }
    // <target>/release/deps/<this bench>
    let exe = std::env::current_exe().unwrap();
    exe.ancestors().nth(3).unwrap().join("criterion")
}

/// criterion's median estimate in nanoseconds, if measured since `since`.
fn median_ns(
    dir: &std::path::Path,
    bits: usize,
    op: &str,
    lib: &str,
    since: SystemTime,
) -> Option<f64> {
    let path = dir
        .join(format!("eval{bits}"))
        .join(op)
        .join(lib)
        .join("new")
        .join("estimates.json");
    let meta = std::fs::metadata(&path).ok()?;
    if meta.modified().ok()? < since {
        return None;
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).ok()?).ok()?;
    json["median"]["point_estimate"].as_f64()
}

fn fmt_time(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.1} µs", ns / 1e3)
    } else {
        format!("{:.2} ms", ns / 1e6)
    }
}

fn table(sizes: &[usize], since: SystemTime) -> String {
    let dir = criterion_dir();
    let mut out = String::new();
    let head: Vec<&str> = LIBS.iter().map(|l| l.1).collect();
    out += &format!(
        "| operation | bits | {} |\n|---|---|{}\n",
        head.join(" | "),
        "---|".repeat(LIBS.len())
    );
    // Per (operation, library): the ratios over the sizes, for the geometric means.
    let mut ratios: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::new();
    for (oi, (op, label)) in OPS.iter().enumerate() {
        for &bits in sizes {
            let t: Vec<Option<f64>> = LIBS
                .iter()
                .map(|(lib, _)| median_ns(&dir, bits, op, lib, since))
                .collect();
            let Some(best) = t.iter().flatten().copied().reduce(f64::min) else {
                continue;
            };
            let cells: Vec<String> = t
                .iter()
                .enumerate()
                .map(|(li, v)| match v {
                    Some(ns) => {
                        ratios.entry((oi, li)).or_default().push(ns / best);
                        format!("{} ({:.2})", fmt_time(*ns), ns / best)
                    }
                    None => "—".into(),
                })
                .collect();
            out += &format!("| {label} | {bits} | {} |\n", cells.join(" | "));
        }
    }
    out += &format!("\nGeometric mean of the ratios over the sizes (1.00: fastest at every size):\n\n| operation | {} |\n|---|{}\n", head.join(" | "), "---|".repeat(LIBS.len()));
    for (oi, (_, label)) in OPS.iter().enumerate() {
        let cells: Vec<String> = (0..LIBS.len())
            .map(|li| match ratios.get(&(oi, li)) {
                Some(v) => format!(
                    "{:.2}",
                    (v.iter().map(|r| r.ln()).sum::<f64>() / v.len() as f64).exp()
                ),
                None => "—".into(),
            })
            .collect();
        out += &format!("| {label} | {} |\n", cells.join(" | "));
    }
    out
}

fn main() {
    // FIELDGEN_EVAL_SIZES=768,1024 restricts the sizes (default: all five).
    let sizes: Vec<usize> = std::env::var("FIELDGEN_EVAL_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|b| b.trim().parse().ok()).collect())
        .unwrap_or_else(|| BITS.to_vec());
    let since = SystemTime::now();
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c, &sizes);
    c.final_summary();
    let t = table(&sizes, since);
    println!("\n{t}");
    let _ = std::fs::write(criterion_dir().join("evaluation-table.md"), &t);
}
