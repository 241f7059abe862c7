//! Constant time, checked on the compiled code: every secret input is marked undefined for
//! valgrind's memcheck (Langley's ctgrind technique, 2010), so a conditional jump, a memory
//! address or a division that depends on a secret is reported as a use of an undefined value.
//! Results the algorithm makes public are marked defined again (declassified) only where
//! noted. Each check counts memcheck's errors before and after; one more is a leak.
//!
//! Run: `cargo build --release -p fieldgen-ctcheck && valgrind --quiet
//! target/release/fieldgen-ctcheck` (exit 0: no leak; 1: a leak, named on stderr; 2: not
//! under valgrind). `fieldgen-ctcheck planted` runs deliberately leaky functions instead and
//! exits 0 only if memcheck reports every one of them, so the check can fail.
//! `fieldgen-ctcheck --all` (what CI runs) adds eight binary and three BN curves to the
//! default set.
//!
//! Covered: every operation of the `Field` trait that is constant time (everything but the
//! `_vartime` methods) of every committed prime and binary field at 64- and 32-bit limbs,
//! through the run-time backend dispatch as it runs on this CPU under valgrind, and `mul`,
//! `square` and `square_n` on every backend this build and CPU can run, forced by name (the
//! names it could not run are printed: valgrind's CPUID hides ADX, and it cannot run AVX-512;
//! a `-C target-cpu=native` build checks the ADX kernels, and fails if none ran); the RSA contexts' modular
//! exponentiation with a secret exponent; X25519; Ed25519 key generation and signing; and the
//! curve crates ([`curves`]): P-224, P-256, P-384, secp256k1 and sect163k1, sect283r1,
//! sect571k1 (`--all`: every SEC 2 binary curve) scalar multiplication, key derivation, ECDH and ECDSA signing (RFC 6979 and
//! hedged), BN254 (`--all`: the four BN curves) G1/G2 multiplication (generic, GLV, GLS), hashing a
//! secret message to G1/G2 and the pairing with a secret G1 point, and the RSA
//! schemes' key import and blinded CRT private operation (RSASP1, PKCS#1 v1.5, PSS, OAEP).
//!
//! The library code declassifies what its algorithm makes public (a key's validity, an RFC 6979
//! rejection, an error) through `fieldgen_field::ct::declassify`, which this crate turns on
//! with the `ctgrind` feature.

mod curves;
mod valgrind;

use std::collections::BTreeSet;
use std::hint::black_box;

use fieldgen_field::{BinaryField, Field, PrimeField};
use valgrind::{error_count, public, running_on_valgrind, secret};

/// The checks run so far and those memcheck flagged.
#[derive(Default)]
struct Report {
    checked: usize,
    leaks: Vec<String>,
    /// Field backends run by name (forced), and those this build or CPU cannot run.
    backends_run: BTreeSet<&'static str>,
    backends_skipped: BTreeSet<&'static str>,
}

impl Report {
    /// Runs `f` and records whether memcheck reported anything during it.
    fn run(&mut self, name: &str, f: impl FnOnce()) {
        let before = error_count();
        f();
        self.checked += 1;
        if error_count() > before {
            self.leaks.push(name.to_string());
        }
    }
}

/// Two operands from small public seeds, then marked secret.
fn operands<F: Field>(seed: u64) -> (F, F) {
    let mut bytes = F::ZERO.to_le_bytes();
    let b = bytes.as_mut();
    let n = b.len();
    let mut s = seed;
    for byte in b.iter_mut() {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *byte = (s >> 56) as u8;
    }
    // Below the modulus / degree: clear the top byte's high bits generously.
    b[n - 1] &= 0x0f;
    let x = Option::<F>::from(F::from_le_bytes(&bytes)).unwrap_or(F::ONE);
    let mut a = x.square() + F::ONE;
    let mut c = x * a + x;
    secret(&mut a);
    secret(&mut c);
    (a, c)
}

/// The constant-time operations every field has.
fn check_field<F: Field>(r: &mut Report, name: &str) {
    let (a, b) = operands::<F>(name.len() as u64);
    let op = |r: &mut Report, what: &str, f: &dyn Fn() -> F| {
        r.run(&format!("{name}::{what}"), || {
            black_box(f());
        })
    };
    op(r, "add", &|| a + b);
    op(r, "sub", &|| a - b);
    op(r, "neg", &|| -a);
    op(r, "mul", &|| a * b);
    op(r, "square", &|| a.square());
    op(r, "double", &|| a.double());
    op(r, "square_n", &|| a.square_n(3));
    op(r, "invert", &|| a.invert().unwrap_or(F::ZERO));
    op(r, "invert(0)", &|| {
        let mut z = F::ZERO;
        secret(&mut z);
        z.invert().unwrap_or(F::ONE)
    });
    op(r, "sqrt", &|| a.square().sqrt().unwrap_or(F::ZERO));
    op(r, "pow(secret exponent)", &|| {
        let mut e = [0x0123_4567_89ab_cdefu64, 0xfedc_ba98_7654_3210];
        secret(&mut e);
        a.pow(&e)
    });
    op(r, "select", &|| {
        let mut c = 1u8;
        secret(&mut c);
        F::conditional_select(&a, &b, c.into())
    });
    r.run(&format!("{name}::ct_eq"), || {
        let mut eq = a.ct_eq(&b).unwrap_u8();
        // The comparison's result is public by its use here.
        public(&mut eq);
        black_box(eq);
    });
    r.run(&format!("{name}::to_le_bytes/from_le_bytes"), || {
        let bytes = a.to_le_bytes();
        black_box(F::from_le_bytes(&bytes).unwrap_or(F::ZERO));
        black_box(a.to_be_bytes());
    });
    r.run(&format!("{name}::batch_invert"), || {
        let mut v = [a, b, F::ZERO, a * b];
        F::batch_invert(&mut v);
        black_box(v);
    });
}

/// Every backend name a generated field's test hooks accept on some target; a field ignores
/// (returns none for) those it does not have or this CPU cannot run.
const BACKENDS: &[&str] = &[
    "portable64",
    "portable32",
    "portable32-holes",
    "x86_64-adx",
    "x86_64-bmi2",
    "x86_64-clmul",
    "x86_64-avx512-matrix",
    "squarings",
];

/// A binary field's `__square_n_with_backend` hook.
type SquareN<F> = dyn Fn(&F, u32, &str) -> Option<F>;

/// The product and square of each backend the field has, forced by name through the
/// generated test hooks (`__mul_with_backend`, `__square_with_backend`,
/// `__square_n_with_backend`), not only the one the dispatch picks. A backend is run when a
/// call on public operands returns a value; the names that return none anywhere are listed
/// as skipped.
fn check_backends<F: Field>(
    r: &mut Report,
    name: &str,
    mul: impl Fn(&F, &F, &str) -> Option<F>,
    square: impl Fn(&F, &str) -> Option<F>,
    square_n: Option<&SquareN<F>>,
) {
    let (x, y) = (F::ONE.double() + F::ONE, F::ONE.double());
    let (a, b) = operands::<F>(name.len() as u64 + 1);
    for &be in BACKENDS {
        let mut any = false;
        if mul(&x, &y, be).is_some() {
            any = true;
            r.run(&format!("{name}::mul [{be}]"), || {
                black_box(mul(&a, &b, be));
            });
        }
        if square(&x, be).is_some() {
            any = true;
            r.run(&format!("{name}::square [{be}]"), || {
                black_box(square(&a, be));
            });
        }
        if let Some(sq) = square_n {
            if sq(&x, 5, be).is_some() {
                any = true;
                r.run(&format!("{name}::square_n [{be}]"), || {
                    black_box(sq(&a, 5, be));
                });
            }
        }
        if any {
            r.backends_run.insert(be);
        } else {
            r.backends_skipped.insert(be);
        }
    }
}

fn check_prime<F: PrimeField>(r: &mut Report, name: &str) {
    check_field::<F>(r, name);
    let (a, _) = operands::<F>(7);
    r.run(&format!("{name}::legendre"), || {
        black_box(a.legendre());
    });
    r.run(&format!("{name}::mul_small"), || {
        black_box(a.mul_small(12345));
    });
    r.run(&format!("{name}::is_odd"), || {
        black_box(a.is_odd());
    });
}

fn check_binary<F: BinaryField>(r: &mut Report, name: &str) {
    check_field::<F>(r, name);
    let (a, _) = operands::<F>(11);
    r.run(&format!("{name}::trace"), || {
        black_box(a.trace());
    });
    r.run(&format!("{name}::solve_quadratic"), || {
        black_box(a.solve_quadratic().unwrap_or(F::ZERO));
    });
}

macro_rules! primes {
    ($r:expr, $($m:ident :: $t:ident),* $(,)?) => {
        $(
            check_prime::<fieldgen_generated::$m::$t>($r, stringify!($m));
            check_backends::<fieldgen_generated::$m::$t>(
                $r,
                stringify!($m),
                |a, b, be| a.__mul_with_backend(b, be),
                |a, be| a.__square_with_backend(be),
                None,
            );
        )*
    };
}

macro_rules! binaries {
    ($r:expr, $($m:ident :: $t:ident),* $(,)?) => {
        $(
            check_binary::<fieldgen_generated::$m::$t>($r, stringify!($m));
            check_backends::<fieldgen_generated::$m::$t>(
                $r,
                stringify!($m),
                |a, b, be| a.__mul_with_backend(b, be),
                |a, be| a.__square_with_backend(be),
                Some(&|a: &fieldgen_generated::$m::$t, k, be| a.__square_n_with_backend(k, be)),
            );
        )*
    };
}

fn check_fields(r: &mut Report) {
    primes!(
        r,
        curve25519_p_64::Fp,
        curve25519_p_32::Fp,
        curve25519_l_64::Fr,
        curve25519_l_32::Fr,
        p256_p_64::Fp,
        p256_p_32::Fp,
        p256_n_64::Fr,
        p256_n_32::Fr,
        secp256k1_p_64::Fp,
        secp256k1_p_32::Fp,
        secp256k1_n_64::Fr,
        secp256k1_n_32::Fr,
        bls12_381_p_64::Fp,
        bls12_381_p_32::Fp,
        bls12_381_r_64::Fr,
        bls12_381_r_32::Fr,
        bn254_p_64::Fp,
        bn254_p_32::Fp,
        bn254_r_64::Fr,
        bn254_r_32::Fr,
        fp254bnb_p_64::Fp,
        fp254bnb_p_32::Fp,
        fp254bnb_r_64::Fr,
        fp254bnb_r_32::Fr,
        bn381_p_64::Fp,
        bn381_p_32::Fp,
        bn381_r_64::Fr,
        bn381_r_32::Fr,
        bn462_p_64::Fp,
        bn462_p_32::Fp,
        bn462_r_64::Fr,
        bn462_r_32::Fr,
        p127_p_64::Fp,
        p127_p_32::Fp,
        p521_p_64::Fp,
        p521_p_32::Fp,
        p384_p_64::Fp,
        p384_p_32::Fp,
        goldilocks_p_64::Fp,
        goldilocks_p_32::Fp,
        secp256k1_p_solinas_32::Fp,
        p384_p_solinas_64::Fp,
        p384_p_solinas_32::Fp,
        goldilocks_p_solinas_64::Fp,
        goldilocks_p_solinas_32::Fp,
        curve25519_p_montgomery_64::Fp,
        secp256k1_p_montgomery_64::Fp,
        curve25519_p_unsaturated_64::Fp,
        curve25519_p_unsaturated_32::Fp,
        p521_p_unsaturated_64::Fp,
        p521_p_unsaturated_32::Fp,
        p256_p_solinas_64::Fp,
        p256_p_solinas_32::Fp,
    );
    binaries!(
        r,
        sect163_64::F163,
        sect163_32::F163,
        sect193_64::F193,
        sect193_32::F193,
        sect233_64::F233,
        sect233_32::F233,
        sect239_64::F239,
        sect239_32::F239,
        sect283_64::F283,
        sect283_32::F283,
        sect409_64::F409,
        sect409_32::F409,
        sect571_64::F571,
        sect571_32::F571,
        gf2_155_64::F155,
        gf2_155_32::F155,
        gf2_2_dense_64::F2,
        gf2_2_dense_32::F2,
        gf2_3_tri_64::F3,
        gf2_3_tri_32::F3,
        gf2_8_penta_64::F8,
        gf2_8_penta_32::F8,
        gf2_31_dense_64::F31,
        gf2_31_dense_32::F31,
        gf2_63_tri_64::F63,
        gf2_63_tri_32::F63,
        gf2_64_dense_64::F64,
        gf2_64_dense_32::F64,
        gf2_65_penta_64::F65,
        gf2_65_penta_32::F65,
        gf2_127_tri_64::F127,
        gf2_127_tri_32::F127,
        gf2_128_dense_64::F128,
        gf2_128_dense_32::F128,
        gf2_129_penta_64::F129,
        gf2_129_penta_32::F129,
        gf2_191_tri_64::F191,
        gf2_191_tri_32::F191,
        gf2_256_dense_64::F256,
        gf2_256_dense_32::F256,
        gf2_300_penta_64::F300,
        gf2_300_penta_32::F300,
        gf2_521_dense_64::F521,
        gf2_521_dense_32::F521,
        gf2_1024_penta_64::F1024,
        gf2_1024_penta_32::F1024,
    );
}

macro_rules! rsa_size {
    ($r:expr, $ctx:ident, $bytes:expr) => {{
        use fieldgen_rsa::$ctx;
        // A public odd modulus with its top bit set; the base and exponent are the secrets.
        let mut m = [0xa5u8; $bytes];
        m[0] = 0xc3;
        m[$bytes - 1] = 0x4b;
        let ctx = $ctx::new(&m).expect("an odd modulus");
        let mut base = [0x5au8; $bytes];
        base[0] = 0x12;
        let mut exp = [0x3cu8; 32];
        secret(&mut base);
        secret(&mut exp);
        $r.run(
            concat!(stringify!($ctx), "::modexp(secret base, secret exponent)"),
            || {
                black_box(ctx.modexp(&base, &exp));
            },
        );
        $r.run(concat!(stringify!($ctx), "::mul/square"), || {
            let a = ctx.to_montgomery(&base);
            black_box(ctx.square(&ctx.mul(&a, &a)));
        });
        $r.run(
            concat!(stringify!($ctx), "::mul/square [portable64]"),
            || {
                let a = ctx.to_montgomery(&base);
                black_box(ctx.square_portable(&ctx.mul_portable(&a, &a)));
            },
        );
        for variant in ["montgomery64", "x86_64-avx512ifma"] {
            if ctx.modexp_with(variant, &[2u8; $bytes], &[3]).is_some() {
                $r.backends_run.insert(variant);
                $r.run(
                    &format!(concat!(stringify!($ctx), "::modexp [{}]"), variant),
                    || {
                        black_box(ctx.modexp_with(variant, &base, &exp));
                    },
                );
            } else {
                $r.backends_skipped.insert(variant);
            }
        }
    }};
}

fn check_curves(r: &mut Report, all: bool) {
    rsa_size!(r, Mont1024, 128);
    rsa_size!(r, Mont2048, 256);

    let mut scalar = [0x77u8; 32];
    let mut seed = [0x42u8; 32];
    secret(&mut scalar);
    secret(&mut seed);
    let mut u = [0u8; 32];
    u[0] = 9;
    r.run("x25519(secret scalar)", || {
        black_box(fieldgen_curve25519::x25519(scalar, u));
    });
    r.run("x25519_base(secret scalar)", || {
        black_box(fieldgen_curve25519::x25519_base(scalar));
    });
    r.run("ed25519 key generation and signing", || {
        let sk = fieldgen_curve25519::ed25519::SigningKey::from_bytes(&seed);
        black_box(sk.sign(b"message").to_bytes());
    });

    use fieldgen_weierstrass::curves::{Secp256k1, P224, P256, P384};
    curves::check_group::<P224>(r, "P-224", false);
    curves::check_group::<P256>(r, "P-256", false);
    curves::check_group::<P384>(r, "P-384", false);
    curves::check_group::<Secp256k1>(r, "secp256k1 (GLV)", false);

    use fieldgen_binary_curves as bc;
    curves::check_group::<bc::Sect163k1>(r, "sect163k1", true);
    curves::check_group::<bc::Sect283r1>(r, "sect283r1", true);
    curves::check_group::<bc::Sect571k1>(r, "sect571k1", true);
    if all {
        curves::check_group::<bc::Sect163r2>(r, "sect163r2", true);
        curves::check_group::<bc::Sect233k1>(r, "sect233k1", true);
        curves::check_group::<bc::Sect233r1>(r, "sect233r1", true);
        curves::check_group::<bc::Sect239k1>(r, "sect239k1", true);
        curves::check_group::<bc::Sect283k1>(r, "sect283k1", true);
        curves::check_group::<bc::Sect409k1>(r, "sect409k1", true);
        curves::check_group::<bc::Sect409r1>(r, "sect409r1", true);
        curves::check_group::<bc::Sect571r1>(r, "sect571r1", true);
    }

    curves::check_bn::<fieldgen_bn::Bn254>(r, "BN254");
    if all {
        curves::check_bn::<fieldgen_bn::Fp254Bnb>(r, "Fp254BNb");
        curves::check_bn::<fieldgen_bn::Bn381>(r, "BN381_1");
        curves::check_bn::<fieldgen_bn::Bn462>(r, "BN462");
    }

    curves::check_rsa_schemes(r);
}

/// Functions that leak on purpose: each must be reported, or the check cannot see leaks.
fn check_planted(r: &mut Report) {
    let mut bit = 1u8;
    secret(&mut bit);
    r.run("planted: branch on a secret bit", || {
        if black_box(bit) == 1 {
            black_box(1);
        } else {
            black_box(2);
        }
    });
    let table = [3u8, 1, 4, 1, 5, 9, 2, 6];
    let mut index = 5usize;
    secret(&mut index);
    r.run("planted: table index from a secret", || {
        black_box(table[black_box(index) & 7]);
    });
    let (a, _) = operands::<fieldgen_generated::bn254_p_64::Fp>(3);
    r.run("planted: early exit on a secret field element", || {
        if bool::from(black_box(a).is_zero()) {
            black_box(0);
        }
    });

    // Leaks of the kind curve code can have.
    use fieldgen_weierstrass::curves::P256Point;
    let g = P256Point::GENERATOR;
    let mut table = [g; 8];
    for i in 1..8 {
        table[i] = table[i - 1] + g;
    }
    let mut k = [0x3cu8, 0xa5, 0x5a, 0xc3];
    secret(&mut k);
    r.run(
        "planted: P-256 window digit of a secret scalar as a table index",
        || {
            let mut acc = P256Point::IDENTITY;
            for &byte in k.iter() {
                acc = acc.double().double().double().double();
                acc += table[black_box(byte & 7) as usize];
            }
            black_box(acc);
        },
    );
    r.run(
        "planted: P-256 double-and-add branching on the scalar bits",
        || {
            let mut acc = P256Point::IDENTITY;
            for &byte in k.iter() {
                for bit in (0..8).rev() {
                    acc = acc.double();
                    if (black_box(byte) >> bit) & 1 == 1 {
                        acc += g;
                    }
                }
            }
            black_box(acc);
        },
    );
    type F163 = fieldgen_generated::sect163_64::F163;
    let (x, _) = operands::<F163>(5);
    r.run(
        "planted: sect163 ladder swapping by a branch on the scalar bit",
        || {
            let (mut x1, mut x2) = (F163::ONE, x);
            for &byte in k.iter() {
                for bit in (0..8).rev() {
                    if (black_box(byte) >> bit) & 1 == 1 {
                        core::mem::swap(&mut x1, &mut x2);
                    }
                    x2 *= x1;
                    x1 = x1.square();
                }
            }
            black_box((x1, x2));
        },
    );
    type S256 = fieldgen_generated::p256_n_64::Fr;
    let mut bytes = S256::from_u64(12345).square().to_be_bytes();
    secret(&mut bytes);
    r.run(
        "planted: ECDSA nonce validity branched on without declassification",
        || {
            // `CtOption` to `Option` branches on the secret flag (what `ct::declassify` marks).
            let k: Option<S256> = S256::from_be_bytes(&bytes).into();
            black_box(k);
        },
    );
}

fn main() {
    if !running_on_valgrind() {
        eprintln!("fieldgen-ctcheck: not running under valgrind: run it as `valgrind --quiet <this binary>`");
        std::process::exit(2);
    }
    let arg = std::env::args().nth(1);
    let planted = arg.as_deref() == Some("planted");
    let all = arg.as_deref() == Some("--all");
    let mut r = Report::default();
    if planted {
        check_planted(&mut r);
        let missed = r.checked - r.leaks.len();
        eprintln!(
            "fieldgen-ctcheck planted: {} of {} deliberate leaks reported",
            r.leaks.len(),
            r.checked
        );
        std::process::exit(if missed == 0 { 0 } else { 1 });
    }
    let t0 = std::time::Instant::now();
    check_fields(&mut r);
    let t1 = std::time::Instant::now();
    check_curves(&mut r, all);
    let t2 = std::time::Instant::now();
    for leak in &r.leaks {
        eprintln!("LEAK: {leak}");
    }
    let skipped: Vec<_> = r
        .backends_skipped
        .difference(&r.backends_run)
        .copied()
        .collect();
    eprintln!(
        "fieldgen-ctcheck: backends run by name: {}; not runnable in this build on this CPU under valgrind: {}; dispatched: {} (P-256 p), {} (sect571), {} (Mont2048 modexp)",
        r.backends_run.iter().copied().collect::<Vec<_>>().join(", "),
        if skipped.is_empty() { "none".to_string() } else { skipped.join(", ") },
        fieldgen_generated::p256_p_64::Fp::backend(),
        fieldgen_generated::sect571_64::F571::backend(),
        fieldgen_rsa::Mont2048::modexp_backend(),
    );
    eprintln!(
        "fieldgen-ctcheck: {} checks, {} with a secret-dependent branch, address or division (fields {:.0} s, curves {:.0} s under valgrind)",
        r.checked,
        r.leaks.len(),
        (t1 - t0).as_secs_f64(),
        (t2 - t1).as_secs_f64(),
    );
    // A build for a CPU with BMI2 and ADX compiles those kernels in unconditionally: they must
    // have run, or this build checked less than it claims.
    let adx_missing = cfg!(all(
        target_arch = "x86_64",
        target_feature = "bmi2",
        target_feature = "adx"
    )) && !r.backends_run.contains("x86_64-adx");
    if adx_missing {
        eprintln!("fieldgen-ctcheck: built with BMI2 and ADX, but no x86_64-adx kernel ran");
    }
    std::process::exit(if r.leaks.is_empty() && !adx_missing {
        0
    } else {
        1
    });
}
