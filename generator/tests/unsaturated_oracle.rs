//! The unsaturated-radix lowerings (p = 2^k − c on limbs of about k/m bits) through the IR
//! interpreter, before and after optimisation, against num-bigint: 2^255 − 19 (5 × 51 bits,
//! 10 × 25.5 bits), 2^521 − 1 (9 × 58 bits, 21 limbs at w = 32), 2^127 − 1 and random 2^k − c
//! at several limb counts, on random inputs and on the extremes (every limb at its tight or
//! loose bound, zero, one, p − 1, values in [p, 2p)). Also: the bounds pass proves every
//! function, refuses layouts that could overflow, and canonicalisation is exact.

use fieldgen_test_support::SplitMix64 as Rng;
use generator::backend::unsaturated::lowered_core;
use generator::ir::{interpret, Func};
use generator::pass::{optimize, verify_bounds};
use generator::spec::{is_probable_prime, to_limbs, FieldConsts, LimbBits};
use generator::strategy::unsaturated::{self as un, Repr, Unsaturated};
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// Random limbs within `bounds`, plus every limb at its bound, zero and one; a quarter of the
/// random values sit near the top of each limb's range.
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
                    let v = rng.next_u64() % (b + 1);
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

fn run(f: &Func, args: &[&[u64]]) -> Vec<u64> {
    interpret(f, args).unwrap_or_else(|e| panic!("interpreter: {e:?}"))
}

fn sat_value(limbs: &[u64], w: u32) -> BigUint {
    limbs
        .iter()
        .rev()
        .fold(BigUint::zero(), |acc, &l| (acc << w as usize) + l)
}

/// Every lowering of layout `u` for p against num-bigint.
fn check(p: &BigUint, lb: LimbBits, m: usize, count: usize, seed: u64) {
    let fc = FieldConsts::new(p, lb).unwrap();
    let u = Unsaturated::with_limbs(&fc, m).unwrap_or_else(|e| panic!("{p:#x}: {e}"));
    let w = fc.w();
    let mut rng = Rng(seed);
    let tight = u.bounds(Repr::Tight);
    let loose = u.bounds(Repr::Loose);
    assert!(u.max_of(&tight) < p * 2u32);
    let mut tights = inputs(&mut rng, &tight, count);
    // Edge values as exact digits: p − 1, p, p + 1 (tight values in [p, 2p)), 2^k − 1.
    for v in [
        p - 1u32,
        p.clone(),
        p + 1u32,
        (BigUint::one() << u.k as usize) - 1u32,
    ] {
        tights.push(un::split(&v, &u.pos));
    }
    let looses = inputs(&mut rng, &loose, count);
    let funcs: Vec<(&str, Func)> = vec![
        ("mul", un::lower_mul(&u)),
        ("square", un::lower_square(&u)),
        ("add", un::lower_add(&u)),
        ("sub", un::lower_sub(&u)),
        ("neg", un::lower_neg(&u)),
        ("double", un::lower_double(&u)),
        ("add_loose", un::lower_add_loose(&u)),
        ("sub_loose", un::lower_sub_loose(&u)),
        ("canonical", un::lower_canonical(&u)),
        ("mul_small", un::lower_mul_small(&u)),
    ];
    for (name, f) in &funcs {
        // A layout whose one-word products the bounds pass refuses gets mul_small as k entered
        // as a field element times one product (the emitter's fallback), not this IR.
        if *name == "mul_small" && verify_bounds(f, name).is_err() {
            continue;
        }
        verify_bounds(f, name).unwrap_or_else(|e| panic!("{p:#x} w={w} m={m}: {e}"));
        let opt = optimize(f);
        // Products take loose inputs (tight ones included); the rest take tight inputs.
        let xs: Vec<Vec<u64>> = if name.starts_with("mul") || name.starts_with("square") {
            looses.iter().chain(&tights).cloned().collect()
        } else {
            tights.clone()
        };
        for (i, a) in xs.iter().enumerate() {
            let b = &xs[(i * 7 + 3) % xs.len()];
            let (av, bv) = (u.value(a), u.value(b));
            // Multipliers: the extremes, a24 of curve25519, and the low half of a random word.
            let k = [0u64, 1, u32::MAX as u64, 121665, b[0] & u32::MAX as u64][i % 5];
            let ks = [k];
            let want = match *name {
                "mul_small" => (&av * k) % p,
                "mul" => (&av * &bv) % p,
                "square" => (&av * &av) % p,
                "add" | "add_loose" => (&av + &bv) % p,
                "sub" | "sub_loose" => (&av + p * 2u32 - (&bv % p)) % p,
                "neg" => (p * 2u32 - (&av % p)) % p,
                "double" => (&av * 2u32) % p,
                "canonical" => &av % p,
                _ => unreachable!(),
            };
            let args: Vec<&[u64]> = match *name {
                "mul" | "add" | "sub" | "add_loose" | "sub_loose" => vec![a, b],
                "mul_small" => vec![a, &ks],
                _ => vec![a],
            };
            for (label, g) in [("unoptimised", f), ("optimised", &opt)] {
                let out = run(g, &args);
                if *name == "canonical" {
                    assert_eq!(out.len(), fc.limbs);
                    assert_eq!(
                        sat_value(&out, w),
                        want,
                        "{p:#x} w={w} m={m} canonical {label} on {av:#x}"
                    );
                    continue;
                }
                let bound = if name.ends_with("_loose") {
                    &loose
                } else {
                    &tight
                };
                for (k, (&o, &bd)) in out.iter().zip(bound).enumerate() {
                    assert!(o <= bd, "{p:#x} w={w} m={m} {name} {label}: limb {k}");
                }
                assert_eq!(u.value(&out) % p, want, "{p:#x} w={w} m={m} {name} {label}");
            }
        }
    }
    // Conversion from canonical saturated limbs: every value below p, exact digits out.
    let from = un::lower_from_canonical(&fc, &u);
    verify_bounds(&from, "from_canonical").unwrap();
    let opt = optimize(&from);
    let mut vals: Vec<BigUint> = vec![BigUint::zero(), BigUint::one(), p - 1u32, p - 2u32];
    for _ in 0..count {
        vals.push(rng.below(p));
    }
    for v in vals {
        let limbs = to_limbs(&v, w, fc.limbs);
        for g in [&from, &opt] {
            let out = run(g, &[&limbs]);
            assert_eq!(out, un::split(&v, &u.pos), "{p:#x} from_canonical");
        }
    }
}

#[test]
fn curve25519_layouts() {
    let p = (BigUint::one() << 255) - 19u32;
    check(&p, LimbBits::W64, 5, 200, 1);
    check(&p, LimbBits::W32, 10, 200, 2);
    // Other limb counts the layout allows.
    check(&p, LimbBits::W64, 6, 40, 3);
    check(&p, LimbBits::W32, 11, 40, 4);
}

#[test]
fn mersenne_layouts() {
    let p521 = (BigUint::one() << 521) - 1u32;
    check(&p521, LimbBits::W64, 9, 60, 5);
    check(&p521, LimbBits::W32, 21, 20, 6);
    let p127 = (BigUint::one() << 127) - 1u32;
    check(&p127, LimbBits::W64, 3, 100, 7);
    check(&p127, LimbBits::W32, 5, 100, 8);
}

#[test]
fn default_limb_counts() {
    let p = (BigUint::one() << 255) - 19u32;
    let fc = FieldConsts::new(&p, LimbBits::W64).unwrap();
    assert_eq!(Unsaturated::default_limbs(&fc, None), 5);
    let fc32 = FieldConsts::new(&p, LimbBits::W32).unwrap();
    assert_eq!(Unsaturated::default_limbs(&fc32, None), 10);
    let p521 = (BigUint::one() << 521) - 1u32;
    let fc = FieldConsts::new(&p521, LimbBits::W64).unwrap();
    assert_eq!(Unsaturated::default_limbs(&fc, None), 9);
    assert_eq!(Unsaturated::default_limbs(&fc, Some(58)), 9);
}

#[test]
fn random_primes() {
    let mut rng = Rng(99);
    let mut checked = 0;
    for &k in &[89u32, 130, 159, 200, 255, 285, 336] {
        for c_bits in [1u32, 4, 9] {
            let mut c = (rng.next_u64() % (1u64 << c_bits)).max(1) | 1;
            let p = loop {
                let p = (BigUint::one() << k as usize) - c;
                if is_probable_prime(&p) {
                    break p;
                }
                c += 2;
            };
            for lb in [LimbBits::W64, LimbBits::W32] {
                let fc = FieldConsts::new(&p, lb).unwrap();
                let m0 = Unsaturated::default_limbs(&fc, None);
                // The layout the generator would pick: the first limb count the bounds pass
                // accepts (every function of it).
                let m = (m0..m0 + 3).find(|&m| {
                    Unsaturated::with_limbs(&fc, m).is_ok_and(|u| lowered_core(&fc, &u).is_ok())
                });
                if let Some(m) = m {
                    check(&p, lb, m, 12, rng.next_u64());
                    checked += 1;
                }
            }
        }
    }
    assert!(
        checked >= 36,
        "only {checked} of 42 random layouts verified"
    );
}

#[test]
fn refusals() {
    let p = (BigUint::one() << 255) - 19u32;
    let fc = FieldConsts::new(&p, LimbBits::W64).unwrap();
    // Four limbs of 64 bits leave no headroom.
    assert!(Unsaturated::with_limbs(&fc, 4).is_err());
    // Three 85-bit limbs do not fit the word at all.
    assert!(Unsaturated::with_limbs(&fc, 3).is_err());
    // Six limbs of 2^255 − 19 at w = 32 pass the layout check but the columns overflow:
    // the bounds pass refuses the product.
    let fc32 = FieldConsts::new(&p, LimbBits::W32).unwrap();
    if let Ok(u) = Unsaturated::with_limbs(&fc32, 9) {
        let e = verify_bounds(&un::lower_mul(&u), "mul_limbs").unwrap_err();
        assert!(e.to_string().contains("refusing to emit mul_limbs"), "{e}");
    }
    // Not 2^k − c with a small c.
    let bn = BigUint::parse_bytes(
        b"30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
        16,
    )
    .unwrap();
    let fc = FieldConsts::new(&bn, LimbBits::W64).unwrap();
    assert!(Unsaturated::with_limbs(&fc, 5).is_err());
}
