//! Every lowering, before and after optimisation, run through the IR interpreter and compared
//! with num-bigint on random primes of many shapes: 1..=9 limbs at w = 64, 1..=17 at w = 32,
//! primes just below 2^(w·n), with the top bit set, with spare bits, with zero and all-ones
//! middle limbs, Montgomery-friendly primes (n0' = 1) and tiny primes.

use fieldgen_test_support::{next_prime_down, next_prime_up, SplitMix64 as Rng};
use generator::ir::{interpret, Func};
use generator::pass::{optimize, verify_bounds};
use generator::spec::{is_probable_prime, to_limbs, FieldConsts, LimbBits};
use generator::strategy::{addsub, montgomery, square, wide, MulAlgorithm};
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// A num-bigint reference for a one-operand function.
type UnaryRef<'a> = Box<dyn Fn(&BigUint) -> BigUint + 'a>;
/// A num-bigint reference for a two-operand function.
type BinaryRef<'a> = Box<dyn Fn(&BigUint, &BigUint) -> BigUint + 'a>;

/// This file's samplers on the shared stream: 32-bit words, the low half of each output.
trait Samplers {
    /// A value below `bound`: two words per 64 bits of `bound`, plus two, reduced.
    fn below_by_words(&mut self, bound: &BigUint) -> BigUint;
    /// A value of at most `bits` bits.
    fn bits(&mut self, bits: u64) -> BigUint;
}

impl Samplers for Rng {
    fn below_by_words(&mut self, bound: &BigUint) -> BigUint {
        let words = usize::try_from(bound.bits().div_ceil(64)).unwrap() + 1;
        let x = BigUint::from_slice(&(0..words * 2).map(|_| self.next_u32()).collect::<Vec<_>>());
        x % bound
    }

    fn bits(&mut self, bits: u64) -> BigUint {
        let x = BigUint::from_slice(
            &(0..bits.div_ceil(32))
                .map(|_| self.next_u32())
                .collect::<Vec<_>>(),
        );
        x % (BigUint::one() << bits)
    }
}

/// Primes of many shapes for `n` limbs of `w` bits.
fn primes_for(rng: &mut Rng, w: u32, n: usize) -> Vec<BigUint> {
    let total = w as usize * n;
    let mut out = Vec::new();
    // Just below 2^(w·n): top bit set, all-ones limbs.
    out.push(next_prime_down((BigUint::one() << total) - 1u32));
    // Random with the top bit set.
    out.push(next_prime_up(
        rng.bits(total as u64 - 1) | (BigUint::one() << (total - 1)),
    ));
    if total > 8 {
        // Random with 1 and 3 spare bits.
        out.push(next_prime_up(
            rng.bits(total as u64 - 2) | (BigUint::one() << (total - 2)),
        ));
        out.push(next_prime_up(
            rng.bits(total as u64 - 4) | (BigUint::one() << (total - 4)),
        ));
    }
    if n >= 3 {
        // Zero middle limbs: top limb random, low limb random, everything between zero.
        let top = BigUint::from(rng.next_u64() >> (64 - w) | 1 << (w - 1)) << (total - w as usize);
        out.push(next_prime_up(
            top + BigUint::from(rng.next_u64() >> (64 - w)),
        ));
        // All-ones middle limbs.
        let ones = ((BigUint::one() << (total - w as usize)) - 1u32)
            ^ ((BigUint::one() << w as usize) - 1u32);
        let top = BigUint::from(rng.next_u64() >> (64 - w) | 1 << (w - 2)) << (total - w as usize);
        out.push(next_prime_up(
            top + ones + BigUint::from(rng.next_u64() >> (64 - w) | 1),
        ));
    }
    out.retain(|p| p.bits() > ((n - 1) * w as usize) as u64 && p.bits() <= total as u64);
    out.sort();
    out.dedup();
    out
}

fn run(f: &Func, c: &FieldConsts, args: &[&BigUint]) -> BigUint {
    let limbs: Vec<Vec<u64>> = args.iter().map(|a| c.limbs_of(a)).collect();
    let refs: Vec<&[u64]> = limbs.iter().map(|l| l.as_slice()).collect();
    let out = interpret(f, &refs).expect("interpretation succeeds");
    out.iter()
        .rev()
        .fold(BigUint::zero(), |acc, &l| (acc << c.w() as usize) + l)
}

/// Runs `f` on double-width (2n-limb) arguments and reads a result of any length.
fn run_wide(f: &Func, c: &FieldConsts, args: &[&BigUint]) -> BigUint {
    let limbs: Vec<Vec<u64>> = args
        .iter()
        .map(|a| to_limbs(a, c.w(), 2 * c.limbs))
        .collect();
    let refs: Vec<&[u64]> = limbs.iter().map(|l| l.as_slice()).collect();
    let out = interpret(f, &refs).expect("interpretation succeeds");
    out.iter()
        .rev()
        .fold(BigUint::zero(), |acc, &l| (acc << c.w() as usize) + l)
}

/// The double-width lowerings: products and squares below p² against num-bigint, and the
/// reduction, sum and difference of values below p·R, at the extremes (0, p·R − 1, p², the
/// largest product) and on products of the edge inputs.
fn check_wide(rng: &mut Rng, c: &FieldConsts, xs: &[BigUint], r_inv: &BigUint) {
    let p = &c.modulus;
    let big_r = BigUint::one() << (c.w() as usize * c.limbs);
    let pr = p * &big_r;
    let mul = wide::lower_mul_wide(c);
    let sq = wide::lower_square_wide(c);
    let red = wide::lower_reduce_wide(c);
    let add = wide::lower_add_wide(c);
    let sub = wide::lower_sub_wide(c);
    let [mul_o, sq_o, red_o, add_o, sub_o] = [&mul, &sq, &red, &add, &sub].map(optimize);
    let mut ts = vec![
        BigUint::zero(),
        BigUint::one(),
        &pr - 1u32,
        &pr - p,
        p * p,
        (p - 1u32) * (p - 1u32),
        big_r.clone(),
    ];
    for (a, b) in xs.iter().zip(xs.iter().rev()) {
        let prod = a * b;
        assert_eq!(
            run(&mul, c, &[a, b]),
            prod,
            "mul_wide p={p:#x} a={a:#x} b={b:#x}"
        );
        assert_eq!(run(&mul_o, c, &[a, b]), prod, "optimised mul_wide p={p:#x}");
        assert_eq!(run(&sq, c, &[a]), a * a, "square_wide p={p:#x} a={a:#x}");
        assert_eq!(run(&sq_o, c, &[a]), a * a, "optimised square_wide p={p:#x}");
        ts.push(prod);
        ts.push(rng.below_by_words(&pr));
    }
    for t in &ts {
        let want = t * r_inv % p;
        assert_eq!(
            run_wide(&red, c, &[t]),
            want,
            "reduce_wide p={p:#x} t={t:#x}"
        );
        assert_eq!(
            run_wide(&red_o, c, &[t]),
            want,
            "optimised reduce_wide p={p:#x}"
        );
    }
    for (a, b) in ts
        .iter()
        .zip(ts.iter().rev())
        .chain([(&ts[2], &ts[2]), (&ts[0], &ts[2])])
    {
        let s = (a + b) % &pr;
        let d = (a + &pr - b) % &pr;
        assert_eq!(
            run_wide(&add, c, &[a, b]),
            s,
            "add_wide p={p:#x} a={a:#x} b={b:#x}"
        );
        assert_eq!(
            run_wide(&add_o, c, &[a, b]),
            s,
            "optimised add_wide p={p:#x}"
        );
        assert_eq!(
            run_wide(&sub, c, &[a, b]),
            d,
            "sub_wide p={p:#x} a={a:#x} b={b:#x}"
        );
        assert_eq!(
            run_wide(&sub_o, c, &[a, b]),
            d,
            "optimised sub_wide p={p:#x}"
        );
    }
    check_unreduced(c, xs, &ts);
}

/// The unreduced lowerings, when they pass the bounds check (which needs a spare bit of p):
/// the headroom against its definition, exact sums of up to `headroom` largest products and
/// differences back to zero, the unreduced sum of two values below p and (a0 + a1)(b0 + b1)
/// exactly, at the extremes p − 1 and on the edge inputs. Without a spare bit the bounds
/// check must refuse the sums (their top carry can be set).
fn check_unreduced(c: &FieldConsts, xs: &[BigUint], ts: &[BigUint]) {
    let p = &c.modulus;
    let big_r = BigUint::one() << (c.w() as usize * c.limbs);
    let pr = p * &big_r;
    let h = wide::headroom(c);
    let pm1 = p - 1u32;
    let top = &pm1 * &pm1;
    assert!(BigUint::from(h) * &top < pr || h == 1 && c.spare_bits == 0);
    if h < u32::MAX {
        assert!(
            BigUint::from(h + 1) * &top >= pr,
            "headroom {h} not the largest, p={p:#x}"
        );
    }
    let add = wide::lower_add_wide_unreduced(c);
    let sub = wide::lower_sub_wide_unreduced(c);
    let sum = wide::lower_add_unreduced(c);
    let sums = wide::lower_mul_wide_sums(c);
    let doubled = wide::lower_mul_wide_doubled(c);
    let proved = [&add, &sum, &sums, &doubled]
        .iter()
        .all(|f| verify_bounds(f, "unreduced").is_ok());
    assert!(verify_bounds(&sub, "sub_wide_unreduced").is_ok());
    assert_eq!(proved, c.spare_bits > 0, "p={p:#x}");
    if !proved {
        return;
    }
    let [add_o, sub_o, sum_o, sums_o] = [&add, &sub, &sum, &sums].map(optimize);
    let mut acc = BigUint::zero();
    for _ in 0..h.min(12) {
        let next = &acc + &top;
        for f in [&add, &add_o] {
            assert_eq!(
                run_wide(f, c, &[&acc, &top]),
                next,
                "add_wide_unreduced p={p:#x}"
            );
        }
        for f in [&sub, &sub_o] {
            assert_eq!(
                run_wide(f, c, &[&next, &top]),
                acc,
                "sub_wide_unreduced p={p:#x}"
            );
        }
        acc = next;
    }
    for (a, b) in ts.iter().zip(ts.iter().rev()) {
        if a + b < pr {
            assert_eq!(
                run_wide(&add_o, c, &[a, b]),
                a + b,
                "add_wide_unreduced p={p:#x}"
            );
        }
        let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
        assert_eq!(
            run_wide(&sub_o, c, &[hi, lo]),
            hi - lo,
            "sub_wide_unreduced p={p:#x}"
        );
    }
    let extreme = [pm1.clone(), pm1.clone(), pm1.clone(), pm1.clone()];
    for q in xs.windows(4).chain([extreme.as_slice()]) {
        for f in [&sum, &sum_o] {
            assert_eq!(
                run(f, c, &[&q[0], &q[1]]),
                &q[0] + &q[1],
                "add_unreduced p={p:#x}"
            );
        }
        let want = (&q[0] + &q[1]) * (&q[2] + &q[3]);
        for f in [&sums, &sums_o] {
            assert_eq!(
                run(f, c, &[&q[0], &q[1], &q[2], &q[3]]),
                want,
                "mul_wide_sums p={p:#x}"
            );
        }
    }
}

/// Inputs for a prime: edge values then random ones.
fn inputs(rng: &mut Rng, p: &BigUint, c: &FieldConsts, count: usize) -> Vec<BigUint> {
    let mut v = vec![
        BigUint::zero(),
        BigUint::one(),
        BigUint::from(2u32),
        p - 1u32,
        p - 2u32,
        p >> 1,
        (p >> 1) + 1u32,
    ];
    let w = c.w() as usize;
    for k in 1..c.limbs {
        v.push((BigUint::one() << (w * k)) - 1u32);
        v.push(BigUint::one() << (w * k));
        v.push(((BigUint::one() << w) - 1u32) << (w * k));
    }
    v.push(c.r.clone());
    v.push(c.r2.clone());
    for _ in 0..count {
        v.push(rng.below_by_words(p));
    }
    v.into_iter().map(|x| x % p).collect()
}

fn check_prime(rng: &mut Rng, p: &BigUint, lb: LimbBits, count: usize) {
    let c = FieldConsts::new(p, lb).unwrap();
    let r_inv = c.r.modpow(&(p - 2u32), p);
    let xs = inputs(rng, p, &c, count);
    check_wide(rng, &c, &xs, &r_inv);
    // Every algorithm that applies: the CIOS variants, product scanning and SOS.
    let algs: Vec<MulAlgorithm> = MulAlgorithm::ALL
        .into_iter()
        .filter(|a| a.applies_to(&c))
        .collect();
    assert!(algs.len() >= 3 && algs.contains(&MulAlgorithm::Sos));
    for alg in &algs {
        // No Montgomery lowering relies on an unproved range: the bounds pass accepts each.
        let name = format!("mont_mul/{}", alg.name());
        verify_bounds(&montgomery::lower_mul(&c, *alg), &name).unwrap();
        verify_bounds(&montgomery::lower_from_montgomery(&c, *alg), &name).unwrap();
    }
    let mut unary: Vec<(&str, Func, UnaryRef<'_>)> = vec![
        (
            "square",
            square::lower_square(&c),
            Box::new(|a: &BigUint| a * a * &r_inv % p),
        ),
        (
            "neg",
            addsub::lower_neg(&c),
            Box::new(|a: &BigUint| (p - a) % p),
        ),
        (
            "double",
            addsub::lower_double(&c),
            Box::new(|a: &BigUint| (a << 1usize) % p),
        ),
    ];
    for alg in &algs {
        unary.push((
            "from_montgomery",
            montgomery::lower_from_montgomery(&c, *alg),
            Box::new(|a: &BigUint| a * &r_inv % p),
        ));
    }
    let mut binary: Vec<(String, Func, BinaryRef<'_>)> = vec![
        (
            "add".into(),
            addsub::lower_add(&c),
            Box::new(|a: &BigUint, b: &BigUint| (a + b) % p),
        ),
        (
            "sub".into(),
            addsub::lower_sub(&c),
            Box::new(|a: &BigUint, b: &BigUint| (a + p - b) % p),
        ),
    ];
    for alg in &algs {
        binary.push((
            format!("mul/{}", alg.name()),
            montgomery::lower_mul(&c, *alg),
            Box::new(|a: &BigUint, b: &BigUint| a * b * &r_inv % p),
        ));
    }
    for (name, f, oracle) in &unary {
        let opt = optimize(f);
        for a in &xs {
            let want = oracle(a);
            assert_eq!(
                run(f, &c, &[a]),
                want,
                "{name} p={p:#x} w={} a={a:#x}",
                c.w()
            );
            assert_eq!(
                run(&opt, &c, &[a]),
                want,
                "optimised {name} p={p:#x} w={} a={a:#x}",
                c.w()
            );
        }
    }
    for (name, f, oracle) in &binary {
        let opt = optimize(f);
        // Edge × edge plus random pairs, bounded so large limb counts stay quick.
        // The first edges (0, 1, 2, p−1, p−2, (p±1)/2, all-ones limbs) pairwise; every value
        // against a random partner.
        let edges = &xs[..(xs.len() - count).min(12)];
        let mut pairs: Vec<(&BigUint, &BigUint)> = edges
            .iter()
            .flat_map(|a| edges.iter().map(move |b| (a, b)))
            .collect();
        pairs.extend(xs.iter().zip(xs.iter().rev()));
        for (a, b) in pairs {
            let want = oracle(a, b);
            assert_eq!(
                run(f, &c, &[a, b]),
                want,
                "{name} p={p:#x} w={} a={a:#x} b={b:#x}",
                c.w()
            );
            assert_eq!(
                run(&opt, &c, &[a, b]),
                want,
                "optimised {name} p={p:#x} w={} a={a:#x} b={b:#x}",
                c.w()
            );
        }
    }
}

#[test]
fn random_primes_w64_1_to_9_limbs() {
    let mut rng = Rng(0x64);
    for n in 1..=9 {
        for p in primes_for(&mut rng, 64, n) {
            check_prime(&mut rng, &p, LimbBits::W64, 24);
        }
    }
}

#[test]
fn random_primes_w32_1_to_17_limbs() {
    let mut rng = Rng(0x32);
    for n in 1..=17 {
        for p in primes_for(&mut rng, 32, n) {
            check_prime(&mut rng, &p, LimbBits::W32, 12);
        }
    }
}

#[test]
fn tiny_and_special_primes() {
    let mut rng = Rng(7);
    let two = BigUint::from(2u32);
    let specials = [
        BigUint::from(3u32),
        BigUint::from(5u32),
        BigUint::from(65537u32),
        two.pow(31) - 1u32,
        two.pow(32) - 5u32,
        two.pow(61) - 1u32,
        two.pow(64) - 59u32,
        two.pow(64) - two.pow(32) + 1u32, // n0' = 1 at w = 32 and w = 64 (Goldilocks)
        two.pow(127) - 1u32,
        two.pow(255) - 19u32,
        two.pow(256) - two.pow(32) - 977u32,
        two.pow(256) - two.pow(224) + two.pow(192) + two.pow(96) - 1u32,
        two.pow(384) - two.pow(128) - two.pow(96) + two.pow(32) - 1u32,
        two.pow(521) - 1u32,
    ];
    for p in &specials {
        assert!(is_probable_prime(p), "{p}");
        for lb in [LimbBits::W64, LimbBits::W32] {
            check_prime(&mut rng, p, lb, 32);
        }
    }
}

#[test]
fn optimiser_folds_constant_limbs() {
    // P-256's p has limbs [2^64-1, 2^32-1, 0, 2^64-2^32+1] and n0' = 1 at w = 64: the m·p[2]
    // products and every m = t0·n0' multiplication must fold away.
    let two = BigUint::from(2u32);
    let p = two.pow(256) - two.pow(224) + two.pow(192) + two.pow(96) - 1u32;
    let c = FieldConsts::new(&p, LimbBits::W64).unwrap();
    assert_eq!(c.n0_inv, 1);
    for alg in [
        MulAlgorithm::Cios,
        MulAlgorithm::ProductScanning,
        MulAlgorithm::Sos,
    ] {
        let f = montgomery::lower_mul(&c, alg);
        let opt = optimize(&f);
        let count = |f: &Func, k: &str| f.op_counts().get(k).copied().unwrap_or(0);
        assert_eq!(count(&opt, "mul_lo"), 0, "{}", alg.name());
        // a·b needs 16 products, m·p 4×4 minus the 4 against the zero limb.
        assert!(
            count(&opt, "mul_add") <= 16 + 12,
            "{}: {}",
            alg.name(),
            count(&opt, "mul_add")
        );
        assert!(count(&f, "mul_add") >= 32);
    }
}

/// Before optimisation, SOS and CIOS do the multiplications Koç, Acar and Kaliski count for
/// them (IEEE Micro 1996, Table 1: 2s² + s for both): 2n² word products, each with its two
/// additions, plus n quotient digits.
#[test]
fn sos_and_cios_multiply_as_koc_et_al_count() {
    let mut rng = Rng(0x505);
    for (w, lb) in [(64, LimbBits::W64), (32, LimbBits::W32)] {
        for n in 1..=8 {
            let p = primes_for(&mut rng, w, n).pop().unwrap();
            let c = FieldConsts::new(&p, lb).unwrap();
            for alg in [MulAlgorithm::Cios, MulAlgorithm::Sos] {
                let counts = montgomery::lower_mul(&c, alg).op_counts();
                let got = |k: &str| counts.get(k).copied().unwrap_or(0);
                assert_eq!(got("mul_add"), 2 * n * n, "{} n={n} w={w}", alg.name());
                assert_eq!(got("mul_lo"), n, "{} n={n} w={w}", alg.name());
            }
        }
    }
}

#[test]
fn spare_bits_remove_the_addition_carry() {
    // With spare bits the sum of two values below p cannot carry out of the top limb.
    let p = BigUint::parse_bytes(
        b"30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
        16,
    )
    .unwrap();
    let c = FieldConsts::new(&p, LimbBits::W64).unwrap();
    let f = optimize(&addsub::lower_add(&c));
    let carries = f
        .instrs
        .iter()
        .filter(|i| matches!(i.op, generator::ir::Op::AddCarry { .. }))
        .count();
    let subs = f
        .instrs
        .iter()
        .filter(|i| matches!(i.op, generator::ir::Op::SubBorrow { .. }))
        .count();
    assert_eq!(carries, 4);
    assert_eq!(subs, 4, "the extra borrow word folds away");
}
