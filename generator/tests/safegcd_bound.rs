//! The divstep counts the generated inversions run: the formulas against their published
//! values, and a step-by-step simulation over num-bigint showing that every input tried
//! (edge values, random values, and values built to be slow) reaches g = 0 within the count,
//! for the sizes of the committed fields and for random sizes.

use generator::api::invert::{
    divsteps_bound, divsteps_plan, hddivsteps_bound, SafegcdShape, Variant, HDDIVSTEPS_MAX_BITS,
};
use generator::spec::LimbBits;
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, Signed, Zero};

use fieldgen_test_support::{next_prime_down, SplitMix64 as Rng};

#[test]
fn bounds_match_their_published_values() {
    // Bernstein–Yang, Theorem 11.2: ⌊(49d + 57)/17⌋ for d ≥ 46 (735 at 254 bits, 741 at 256).
    assert_eq!(divsteps_bound(254), 735);
    assert_eq!(divsteps_bound(256), 741);
    assert_eq!(divsteps_bound(20), (49 * 20 + 80) / 17);
    // Wuille's hddivsteps bound at M = 2^256: 591; libsecp256k1 runs 590 for moduli below
    // 2^256 (log2(M) < 256), so the bound taken at M = 2^bits is one step conservative at most.
    assert_eq!(hddivsteps_bound(256), Some(591));
    assert_eq!(hddivsteps_bound(22), None);
    assert_eq!(hddivsteps_bound(HDDIVSTEPS_MAX_BITS + 1), None);
    assert_eq!(divsteps_plan(381), (Variant::HalfDelta, 878));
    assert_eq!(
        divsteps_plan(5000),
        (Variant::Original, divsteps_bound(5000))
    );
    // Whole batches cover the count at both word sizes.
    for bits in [
        23, 64, 127, 254, 255, 256, 381, 384, 462, 521, 1024, 3805, 4096,
    ] {
        for lb in [LimbBits::W64, LimbBits::W32] {
            let s = SafegcdShape::new(bits, lb);
            assert!(s.batches * u64::from(s.batch) >= s.steps, "{bits}");
            assert!((s.batches - 1) * u64::from(s.batch) < s.steps, "{bits}");
        }
    }
}

/// Steps until g = 0 from (f, g), δ = 1/2 (held doubled) or 1.
fn steps_to_zero(f: &BigUint, g: &BigUint, variant: Variant, cap: u64) -> u64 {
    let (mut f, mut g) = (
        BigInt::from_biguint(Sign::Plus, f.clone()),
        BigInt::from_biguint(Sign::Plus, g.clone()),
    );
    let step: i64 = match variant {
        Variant::HalfDelta => 2,
        Variant::Original => 1,
    };
    let mut delta: i64 = 1;
    let mut n = 0;
    while !g.is_zero() && n <= cap {
        let odd = g.bit(0);
        if delta > 0 && odd {
            let t = (&g - &f) >> 1;
            f = g;
            g = t;
            delta = step - delta;
        } else if odd {
            g = (&g + &f) >> 1;
            delta += step;
        } else {
            g >>= 1;
            delta += step;
        }
        n += 1;
    }
    assert!(f.abs() == BigInt::one() || g.is_zero(), "gcd reached");
    n
}

fn check(p: &BigUint, rng: &mut Rng, random: usize) {
    let bits = u32::try_from(p.bits()).unwrap();
    let (variant, bound) = divsteps_plan(bits);
    let mut gs = vec![
        BigUint::one(),
        BigUint::from(2u32),
        p - 1u32,
        p - 2u32,
        p >> 1,
        (p >> 1) + 1u32,
        // g ≈ f·(golden ratio − 1) and neighbours of powers of two: slow for Euclid-like steps.
        (p * 618_034u32) / 1_000_000u32,
        BigUint::one() << (bits as usize - 1),
        (BigUint::one() << (bits as usize - 1)) - 1u32,
    ];
    for _ in 0..random {
        gs.push(rng.below(p));
    }
    let mut worst = 0;
    for g in gs.iter().filter(|g| !g.is_zero() && *g < p) {
        let n = steps_to_zero(p, g, variant, bound + 1);
        assert!(
            n <= bound,
            "p = {p:#x}: {n} steps > bound {bound} for g = {g:#x}"
        );
        worst = worst.max(n);
    }
    assert!(worst > 0);
}

#[test]
fn every_committed_size_and_random_sizes_finish_within_the_bound() {
    let mut rng = Rng(0x5afe);
    let two = BigUint::from(2u32);
    let committed = [
        two.pow(255) - 19u32,
        two.pow(256) - two.pow(32) - 977u32,
        two.pow(256) - two.pow(224) + two.pow(192) + two.pow(96) - 1u32,
        two.pow(384) - two.pow(128) - two.pow(96) + two.pow(32) - 1u32,
        two.pow(521) - 1u32,
        two.pow(127) - 1u32,
        two.pow(448) - two.pow(224) - 1u32,
        BigUint::parse_bytes(
            b"30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
            16,
        )
        .unwrap(),
        BigUint::parse_bytes(
            b"1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
            16,
        )
        .unwrap(),
    ];
    for p in &committed {
        check(p, &mut rng, 200);
    }
    // Random primes of sizes from 23 bits (the hddivsteps range starts there) to 1024, and a
    // few below it (original divsteps).
    for bits in [8usize, 16, 22, 23, 24, 31, 64, 100, 200, 462, 700, 1024] {
        let top = (BigUint::one() << bits) - 1u32;
        let p = next_prime_down(top.clone() - rng.below(&(top >> 2)));
        check(&p, &mut rng, 40);
    }
}
