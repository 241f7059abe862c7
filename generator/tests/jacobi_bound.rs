//! The batch count the generated `legendre` runs: a simulation over num-bigint of the emitted
//! algorithm (Pornin's approximations, 33 top bits over 31 low bits, batches of 29 steps)
//! showing that every input tried (edge values, random values, and values agreeing with p on a
//! long run of top bits, where the approximate comparisons go wrong) reaches a = 0, b = 1 within
//! the count, that a and b are never both negative after a batch, and that the tracked symbol
//! equals Euler's criterion (`BigUint::modpow`), for the committed sizes and random primes.

use generator::api::legendre::{jacobi_batches, JACOBI_BATCH};
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, Signed, ToPrimitive, Zero};

use fieldgen_test_support::{next_prime_down, SplitMix64 as Rng};

/// The emitted algorithm on integers: (symbol, batches until a = 0).
fn simulate(x: &BigUint, p: &BigUint, batches: u64) -> (i8, u64) {
    let mut a = BigInt::from_biguint(Sign::Plus, x.clone());
    let mut b = BigInt::from_biguint(Sign::Plus, p.clone());
    let mut t: u64 = 0;
    let mut used = batches;
    let low_mask = (1u64 << 31) - 1;
    for n in 0..batches {
        if a.is_zero() && used == batches {
            used = n;
        }
        let len = a.bits().max(b.bits()).max(64);
        let approx = |v: &BigInt| -> u64 {
            let v = v.magnitude();
            let hi = (v >> (len - 33)).to_u64().unwrap();
            let lo = (v & BigUint::from(low_mask)).to_u64().unwrap();
            (hi << 31) | lo
        };
        let (mut xa, mut xb) = (approx(&a), approx(&b));
        let (mut f0, mut g0, mut f1, mut g1) = (1i64, 0i64, 0i64, 1i64);
        for _ in 0..JACOBI_BATCH {
            if xa & 1 == 1 {
                if xa < xb {
                    std::mem::swap(&mut xa, &mut xb);
                    std::mem::swap(&mut f0, &mut f1);
                    std::mem::swap(&mut g0, &mut g1);
                    t ^= xa & xb;
                }
                xa -= xb;
                f0 -= f1;
                g0 -= g1;
            }
            xa >>= 1;
            f1 <<= 1;
            g1 <<= 1;
            t ^= xb ^ (xb >> 1);
        }
        let na = &a * f0 + &b * g0;
        let nb = &a * f1 + &b * g1;
        let div = BigInt::one() << JACOBI_BATCH as usize;
        assert!((&na % &div).is_zero() && (&nb % &div).is_zero(), "exact");
        a = na >> JACOBI_BATCH as usize;
        b = nb >> JACOBI_BATCH as usize;
        assert!(
            !(a.is_negative() && b.is_negative()),
            "p = {p:#x}, x = {x:#x}: both negative"
        );
        if a.is_negative() {
            a = -a;
            t ^= (&b & BigInt::from(3u32)).to_u64().unwrap();
        }
        if b.is_negative() {
            b = -b;
        }
    }
    assert!(
        a.is_zero(),
        "p = {p:#x}, x = {x:#x}: a ≠ 0 after {batches} batches"
    );
    let symbol = if b.is_one() {
        1 - 2 * ((t >> 1) & 1) as i8
    } else {
        0
    };
    (symbol, used)
}

fn euler(x: &BigUint, p: &BigUint) -> i8 {
    let t = x.modpow(&((p - 1u32) >> 1), p);
    if t.is_zero() {
        0
    } else if t.is_one() {
        1
    } else {
        -1
    }
}

fn check(p: &BigUint, rng: &mut Rng, random: usize) {
    let bits = usize::try_from(p.bits()).unwrap();
    let batches = jacobi_batches(u32::try_from(bits).unwrap());
    let mut xs: Vec<BigUint> = (0u32..40).map(BigUint::from).collect();
    xs.extend([p - 1u32, p - 2u32, p >> 1, (p >> 1) + 1u32]);
    for k in 0..bits {
        let bit = BigUint::one() << k;
        if *p > bit {
            xs.push(p - &bit);
        }
        xs.push(((p >> k) << k) | BigUint::one());
        if k > 0 {
            xs.push(((p >> k) << k) - 1u32);
        }
    }
    for _ in 0..random {
        xs.push(rng.below(p));
    }
    let mut worst = 0;
    for x in xs.iter().filter(|x| *x < p) {
        let (got, used) = simulate(x, p, batches);
        assert_eq!(got, euler(x, p), "p = {p:#x}, x = {x:#x}");
        worst = worst.max(used);
    }
    assert!(worst > 0);
}

#[test]
fn every_committed_size_and_random_sizes_finish_within_the_count() {
    let mut rng = Rng(0x1e9e);
    let two = BigUint::from(2u32);
    let committed = [
        two.pow(255) - 19u32,
        two.pow(256) - two.pow(32) - 977u32,
        two.pow(256) - two.pow(224) + two.pow(192) + two.pow(96) - 1u32,
        two.pow(384) - two.pow(128) - two.pow(96) + two.pow(32) - 1u32,
        two.pow(521) - 1u32,
        two.pow(127) - 1u32,
        two.pow(64) - two.pow(32) + 1u32,
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
        check(p, &mut rng, 100);
    }
    for p in [3u32, 5, 7, 11, 13, 8191, 65521] {
        check(&BigUint::from(p), &mut rng, 20);
    }
    for bits in [20usize, 33, 63, 65, 96, 130, 200, 300, 462, 700] {
        let top = (BigUint::one() << bits) - 1u32;
        let p = next_prime_down(top.clone() - rng.below(&(top >> 2)));
        check(&p, &mut rng, 20);
    }
}
