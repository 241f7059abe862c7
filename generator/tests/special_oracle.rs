//! The pseudo-Mersenne / Solinas lowerings (p = 2^k − c) through the IR interpreter, before and
//! after optimisation, against num-bigint: random primes 2^k − c for k not a multiple of the
//! word size (loose representation) and equal to a multiple of it (tight, wrap folds), single-
//! and multi-word c, at w = 64 and w = 32, on random and extreme inputs (all limbs at their
//! bound). Also: the bounds pass proves every emitted function, and refuses code that could
//! overflow.

use generator::ir::{interpret, Builder, Func};
use generator::pass::{optimize, verify_bounds};
use generator::spec::{is_probable_prime, FieldConsts, LimbBits};
use generator::strategy::pseudo_mersenne::{self as pm, PseudoMersenne};
use num_bigint::BigUint;
use num_traits::One;

use fieldgen_test_support::SplitMix64 as Rng;

fn to_big(limbs: &[u64], w: u32) -> BigUint {
    limbs
        .iter()
        .rev()
        .fold(BigUint::default(), |acc, &l| (acc << w as usize) + l)
}

/// The smallest c ≥ c0 (odd) with 2^k − c prime.
fn prime_below_power(k: u32, c0: u64) -> (BigUint, u64) {
    let mut c = c0 | 1;
    loop {
        let p = (BigUint::one() << k as usize) - c;
        if is_probable_prime(&p) {
            return (p, c);
        }
        c += 2;
    }
}

/// Random limbs within `bounds`, plus the extremes: all limbs at their bound, all zero, one.
fn inputs(rng: &mut Rng, bounds: &[u64], count: usize) -> Vec<Vec<u64>> {
    let mut out = vec![bounds.to_vec(), vec![0; bounds.len()], {
        let mut v = vec![0; bounds.len()];
        v[0] = 1;
        v
    }];
    for i in 0..count {
        out.push(
            bounds
                .iter()
                .map(|&b| {
                    // Every fourth value sits near the top of each limb's range.
                    let x = rng.next_u64();
                    let v = if b == u64::MAX { x } else { x % (b + 1) };
                    if i % 4 == 0 {
                        b - (v & 0xff).min(b)
                    } else {
                        v
                    }
                })
                .collect(),
        );
    }
    out
}

fn run(f: &Func, args: &[&[u64]]) -> BigUint {
    let out = interpret(f, args).unwrap_or_else(|e| panic!("interpreter: {e:?}"));
    to_big(&out, f.w)
}

/// Checks every lowering for p at word size lb: bounds verified, then unoptimised and
/// optimised IR agree with num-bigint mod p, and stored outputs respect the stored bounds.
fn check(p: &BigUint, lb: LimbBits, count: usize, seed: u64) {
    let fc = FieldConsts::new(p, lb).unwrap();
    let shape = PseudoMersenne::detect(&fc).expect("a 2^k - c prime");
    let w = fc.w();
    let mut rng = Rng(seed);
    let stored = shape.bounds(&fc, shape.stored());
    let funcs: Vec<(&str, Func, usize)> = vec![
        ("mul", pm::lower_mul(&fc, &shape), 2),
        ("square", pm::lower_square(&fc, &shape), 1),
        ("add", pm::lower_add(&fc, &shape), 2),
        ("sub", pm::lower_sub(&fc, &shape), 2),
        ("neg", pm::lower_neg(&fc, &shape), 1),
        ("double", pm::lower_double(&fc, &shape), 1),
        ("canonical", pm::lower_canonical(&fc, &shape), 1),
        // Arity 3: a stored value and a one-word multiplier below 2^32.
        ("mul_small", pm::lower_mul_small(&fc, &shape), 3),
    ];
    let mut xs = inputs(&mut rng, &stored, count);
    if !shape.is_loose() {
        // Tight fields store values below p only.
        for x in xs.iter_mut() {
            let v = to_big(x, w) % p;
            *x = generator::spec::to_limbs(&v, w, fc.limbs);
        }
    }
    // Stored values must be below 2p so that one subtraction canonicalises them.
    assert!(
        to_big(&stored, w) < p * 2u32,
        "{p:#x}: stored bound not below 2p"
    );
    for (name, f, arity) in &funcs {
        verify_bounds(f, name).unwrap_or_else(|e| panic!("{p:#x} w={w}: {e}"));
        let opt = optimize(f);
        for (i, a) in xs.iter().enumerate() {
            let b = &xs[(i * 7 + 1) % xs.len()];
            let (av, bv) = (to_big(a, w), to_big(b, w));
            // Multipliers: the extremes, a24 of curve25519, and the low half of a random word.
            let k = [0u64, 1, u32::MAX as u64, 121665, b[0] & u32::MAX as u64][i % 5];
            let want = match *name {
                "mul" => (&av * &bv) % p,
                "square" => (&av * &av) % p,
                "add" => (&av + &bv) % p,
                "sub" => (&av + p * 2u32 - (&bv % p)) % p,
                "neg" => (p * 2u32 - (&av % p)) % p,
                "double" => (&av * 2u32) % p,
                "canonical" => &av % p,
                "mul_small" => (&av * k) % p,
                _ => unreachable!(),
            };
            let ks = [k];
            let args: Vec<&[u64]> = match *arity {
                3 => vec![a, &ks],
                2 => vec![a, b],
                _ => vec![a],
            };
            for (label, g) in [("unoptimised", f), ("optimised", &opt)] {
                let got = run(g, &args);
                if *name == "canonical" {
                    assert_eq!(got, want, "{p:#x} w={w} {name} {label} on {av:#x}");
                } else {
                    assert_eq!(got.clone() % p, want, "{p:#x} w={w} {name} {label}");
                    assert!(
                        got <= to_big(&stored, w),
                        "{p:#x} w={w} {name}: above the stored bound"
                    );
                }
            }
        }
    }
}

#[test]
fn named_special_primes() {
    let named: &[(&str, BigUint)] = &[
        ("2^255-19", (BigUint::one() << 255) - 19u32),
        ("2^127-1", (BigUint::one() << 127) - 1u32),
        ("2^521-1", (BigUint::one() << 521) - 1u32),
        (
            "secp256k1",
            (BigUint::one() << 256) - (BigUint::one() << 32) - 977u32,
        ),
        (
            "p384",
            (BigUint::one() << 384) - (BigUint::one() << 128) - (BigUint::one() << 96)
                + (BigUint::one() << 32)
                - 1u32,
        ),
        (
            "goldilocks",
            (BigUint::one() << 448) - (BigUint::one() << 224) - 1u32,
        ),
    ];
    for (i, (_, p)) in named.iter().enumerate() {
        for lb in [LimbBits::W64, LimbBits::W32] {
            check(p, lb, 60, 17 + i as u64);
        }
    }
}

#[test]
fn random_pseudo_mersenne_primes() {
    let mut rng = Rng(2026);
    // k not a multiple of the word size (loose), and equal to a multiple (tight, wrap folds).
    let ks = [
        61u32, 64, 89, 96, 107, 128, 130, 159, 192, 200, 224, 250, 256, 285, 320, 383, 414, 448,
        512,
    ];
    for &k in &ks {
        for c_bits in [1u32, 5, 17, 31] {
            let c0 = (rng.next_u64() % (1u64 << c_bits)).max(1);
            let (p, _) = prime_below_power(k, c0);
            for lb in [LimbBits::W64, LimbBits::W32] {
                check(&p, lb, 12, rng.next_u64());
            }
        }
    }
}

#[test]
fn multi_word_c_at_32_bits() {
    // c of 33..60 bits is two limbs at w = 32: the Solinas path.
    let mut rng = Rng(7);
    for &k in &[160u32, 192, 255, 256] {
        let c0 = (rng.next_u64() >> 8) | (1 << 40);
        let (p, _) = prime_below_power(k, c0);
        check(&p, LimbBits::W32, 20, rng.next_u64());
        check(&p, LimbBits::W64, 20, rng.next_u64());
    }
}

#[test]
fn bounds_pass_refuses_overflowing_code() {
    // The 2^255 − 19 lowering with a c far too large for the folds to bring the product back
    // to the loose bound: the pass must refuse it, naming the function.
    let p = (BigUint::one() << 255) - 19u32;
    let fc = FieldConsts::new(&p, LimbBits::W64).unwrap();
    let mut shape = PseudoMersenne::detect(&fc).unwrap();
    shape.c = (BigUint::one() << 250) + 19u32;
    let f = pm::lower_mul(&fc, &shape);
    let err = verify_bounds(&f, "mul_limbs").expect_err("the pass must refuse");
    assert!(
        err.to_string().contains("refusing to emit mul_limbs"),
        "{err}"
    );
    // The same lowering with the real c is accepted.
    let shape = PseudoMersenne::detect(&fc).unwrap();
    assert!(verify_bounds(&pm::lower_mul(&fc, &shape), "mul_limbs").is_ok());

    // A dropped carry with a declared obligation that cannot hold.
    let mut b = Builder::new(64);
    let x = b.input(vec![u64::MAX]);
    let zero = b.constant(0);
    let (s, carry) = b.add_carry(x[0], x[0], zero);
    b.check_at_most(carry, 0, "the carry of x + x");
    let f = b.finish(vec![s]);
    let err = verify_bounds(&f, "double").expect_err("the pass must refuse");
    assert!(err.to_string().contains("the carry of x + x"), "{err}");
    // The same code with a small enough input is accepted.
    let mut b = Builder::new(64);
    let x = b.input(vec![u64::MAX >> 1]);
    let zero = b.constant(0);
    let (s, carry) = b.add_carry(x[0], x[0], zero);
    b.check_at_most(carry, 0, "the carry of x + x");
    assert!(verify_bounds(&b.finish(vec![s]), "double").is_ok());
}

#[test]
fn generation_with_an_explicit_strategy_reports_refusals() {
    use generator::strategy::Strategy;
    use generator::{generate_prime_field, GenError, PrimeFieldOptions};
    // bn254's p is not 2^k − c with a small c.
    let mut o = PrimeFieldOptions::new("bn254-p");
    o.strategy = Strategy::PseudoMersenne;
    assert!(matches!(
        generate_prime_field(&o),
        Err(GenError::StrategyNotApplicable(_))
    ));
    o.strategy = Strategy::Solinas;
    assert!(matches!(
        generate_prime_field(&o),
        Err(GenError::StrategyNotApplicable(_))
    ));
    // 2^255 − 19 takes the special form under auto.
    let f = generate_prime_field(&PrimeFieldOptions::new("2^255-19")).unwrap();
    assert_eq!(f.strategy, Strategy::PseudoMersenne);
}

#[test]
fn x86_64_kernels_in_the_simulator() {
    use generator::backend::x86_64::{pseudo_mersenne as k, regalloc, sim};
    // 2^255 − 19 and 2^127 − 1 (k = 64n − 1), plus random c: the kernels before and after
    // register allocation against num-bigint and against the portable lowering.
    let mut primes = vec![
        (BigUint::one() << 255) - 19u32,
        (BigUint::one() << 127) - 1u32,
    ];
    let mut rng = Rng(99);
    for k in [191u32, 319, 383] {
        primes.push(prime_below_power(k, rng.next_u64() % 2000).0);
    }
    // k = 64n: secp256k1 and random c up to 40 bits (tight, wrap folds).
    primes.push((BigUint::one() << 256) - (BigUint::one() << 32) - 977u32);
    for k in [128u32, 192, 256, 448] {
        primes.push(prime_below_power(k, rng.next_u64() >> 24).0);
    }
    for p in &primes {
        let fc = FieldConsts::new(p, LimbBits::W64).unwrap();
        let shape = PseudoMersenne::detect(&fc).unwrap();
        assert!(k::unsupported(&fc, &shape).is_none(), "{p:#x}");
        let mul = k::mul_kernel(&fc, &shape);
        let sq = k::square_kernel(&fc, &shape);
        let mul_alloc = regalloc::allocate(&mul, &regalloc::REGISTERS);
        let sq_alloc = regalloc::allocate(&sq, &regalloc::REGISTERS);
        let portable_mul = optimize(&pm::lower_mul(&fc, &shape));
        let portable_sq = optimize(&pm::lower_square(&fc, &shape));
        let stored = shape.bounds(&fc, shape.stored());
        let mut xs = inputs(&mut rng, &stored, 80);
        if !shape.is_loose() {
            for x in xs.iter_mut() {
                let v = to_big(x, 64) % p;
                *x = generator::spec::to_limbs(&v, 64, fc.limbs);
            }
        }
        for (i, a) in xs.iter().enumerate() {
            let b = &xs[(i * 5 + 2) % xs.len()];
            let want_mul = interpret(&portable_mul, &[a, b]).unwrap();
            let want_sq = interpret(&portable_sq, &[a]).unwrap();
            assert_eq!(
                to_big(&want_mul, 64) % p,
                (to_big(a, 64) * to_big(b, 64)) % p
            );
            for (label, got) in [
                (
                    "virtual",
                    sim::run_virtual(&mul, &[a, b], &fc.modulus_limbs).unwrap(),
                ),
                (
                    "allocated",
                    sim::run_allocated(&mul_alloc, &[a, b], &fc.modulus_limbs).unwrap(),
                ),
            ] {
                assert_eq!(got, want_mul, "{p:#x} mul {label}");
            }
            for (label, got) in [
                (
                    "virtual",
                    sim::run_virtual(&sq, &[a], &fc.modulus_limbs).unwrap(),
                ),
                (
                    "allocated",
                    sim::run_allocated(&sq_alloc, &[a], &fc.modulus_limbs).unwrap(),
                ),
            ] {
                assert_eq!(got, want_sq, "{p:#x} square {label}");
            }
        }
    }
}
