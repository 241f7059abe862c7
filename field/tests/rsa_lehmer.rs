//! The variable-time Lehmer GCD and modular inverse of `fieldgen_field::rsa` against
//! num-bigint (`Integer::gcd`, `BigUint::modinv`): random operands of every bit length up to
//! the limb count, pairs with a random common factor, and the edge cases — zero, one, equal
//! inputs, one dividing the other, all-ones limbs, consecutive Fibonacci numbers (the longest
//! Euclidean remainder sequence), even and odd moduli, operands at or above the modulus.

use fieldgen_field::rsa::{gcd_vartime, inv_mod_vartime};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

use fieldgen_test_support::SplitMix64 as Rng;

/// This file's samplers on the shared stream.
trait Samplers {
    /// A random value of at most `bits` bits.
    fn big(&mut self, bits: u64) -> BigUint;
    /// A random value of a random length from `lo` to `hi` bits.
    fn big_len(&mut self, lo: u64, hi: u64) -> BigUint;
}

impl Samplers for Rng {
    fn big(&mut self, bits: u64) -> BigUint {
        let words: Vec<u64> = (0..bits.div_ceil(64)).map(|_| self.next_u64()).collect();
        let v = words
            .iter()
            .fold(BigUint::zero(), |acc, &w| (acc << 64) + w);
        v % (BigUint::one() << bits)
    }

    fn big_len(&mut self, lo: u64, hi: u64) -> BigUint {
        let bits = lo + self.next_u64() % (hi - lo + 1);
        self.big(bits)
    }
}

fn limbs<const N: usize>(x: &BigUint) -> [u64; N] {
    let digits = x.to_u64_digits();
    assert!(digits.len() <= N, "{x} does not fit {N} limbs");
    let mut out = [0u64; N];
    out[..digits.len()].copy_from_slice(&digits);
    out
}

fn big(limbs: &[u64]) -> BigUint {
    limbs
        .iter()
        .rev()
        .fold(BigUint::zero(), |acc, &l| (acc << 64) + l)
}

fn check_gcd<const N: usize>(x: &BigUint, y: &BigUint) {
    let got = big(&gcd_vartime::<N>(&limbs(x), &limbs(y)));
    assert_eq!(got, x.gcd(y), "gcd({x:#x}, {y:#x}) at {N} limbs");
}

fn check_inv<const N: usize>(m: &BigUint, x: &BigUint) {
    let got = inv_mod_vartime::<N>(&limbs(m), &limbs(x)).map(|v| big(&v));
    // num-bigint gives 0 as the inverse modulo 1; this module refuses moduli below 2.
    let want = if *m < BigUint::from(2u8) {
        None
    } else {
        x.modinv(m)
    };
    assert_eq!(got, want, "{x:#x}⁻¹ mod {m:#x} at {N} limbs");
}

/// Operand pairs for N limbs: edge cases, then random ones.
fn pairs<const N: usize>(rng: &mut Rng, random: usize) -> Vec<(BigUint, BigUint)> {
    let bits = 64 * N as u64;
    let ones = (BigUint::one() << bits) - 1u8;
    let top = BigUint::one() << (bits - 1);
    let (zero, one) = (BigUint::zero(), BigUint::one());
    let r = rng.big(bits);
    let r_odd = rng.big(bits) | BigUint::one();
    let mut v = vec![
        (zero.clone(), zero.clone()),
        (zero.clone(), r.clone()),
        (r.clone(), zero.clone()),
        (one.clone(), r.clone()),
        (r.clone(), one.clone()),
        (one.clone(), one.clone()),
        (r.clone(), r.clone()),
        (ones.clone(), ones.clone()),
        (ones.clone(), &ones - 1u8),
        (ones.clone(), top.clone()),
        (top.clone(), &top + 1u8),
        (ones.clone(), r_odd.clone()),
        (&r_odd * 3u8 % &ones, r_odd.clone()),
        (BigUint::from(6u8), BigUint::from(4u8)),
    ];
    // One dividing the other: y = d, x = k·d.
    for _ in 0..4 {
        let d = rng.big_len(1, bits) + 1u8;
        let k = rng.big(bits - d.bits() + 1).max(BigUint::one());
        let x = &d * &k;
        if x.bits() <= bits {
            v.push((x.clone(), d.clone()));
            v.push((d, x));
        }
    }
    // Consecutive Fibonacci numbers below 2^bits.
    let (mut a, mut b) = (BigUint::one(), BigUint::one());
    while (&a + &b).bits() <= bits {
        let c = &a + &b;
        a = b;
        b = c;
    }
    v.push((b.clone(), a.clone()));
    v.push((a, b));
    // Random operands of random lengths, half of them with a random common factor.
    for i in 0..random {
        let x = rng.big_len(0, bits);
        let y = rng.big_len(0, bits);
        if i % 2 == 0 {
            let g = rng.big_len(1, bits.min(200)) + 1u8;
            let (gx, gy) = (&x * &g, &y * &g);
            if gx.bits() <= bits && gy.bits() <= bits {
                v.push((gx, gy));
                continue;
            }
        }
        v.push((x, y));
    }
    v
}

fn check_size<const N: usize>(rng: &mut Rng, random: usize) {
    for (x, y) in pairs::<N>(rng, random) {
        check_gcd::<N>(&x, &y);
        check_inv::<N>(&y, &x);
        check_inv::<N>(&x, &y);
    }
}

#[test]
fn lehmer_gcd_and_inverse_match_num_bigint() {
    let mut rng = Rng(23);
    check_size::<1>(&mut rng, 2000);
    check_size::<2>(&mut rng, 1000);
    check_size::<3>(&mut rng, 500);
    check_size::<12>(&mut rng, 200);
    check_size::<16>(&mut rng, 200);
    check_size::<32>(&mut rng, 60);
    check_size::<64>(&mut rng, 30);
}

#[test]
fn inverse_edge_cases_match_num_bigint() {
    let mut rng = Rng(5);
    let ones = big(&[u64::MAX; 16]);
    let m_odd = rng.big(1024) | BigUint::one();
    let m_even = (rng.big(1024) >> 1u8) << 1u8;
    for m in [
        BigUint::zero(),
        BigUint::one(),
        BigUint::from(2u8),
        BigUint::from(3u8),
        ones.clone(),
        m_odd.clone(),
        m_even.clone(),
    ] {
        let r = rng.big(1024);
        let near = if m.is_zero() {
            BigUint::zero()
        } else {
            &m - 1u8
        };
        for x in [
            BigUint::zero(),
            BigUint::one(),
            near,
            m.clone(),
            &m + 1u8,
            ones.clone(),
            r,
        ] {
            if x.bits() <= 1024 {
                check_inv::<16>(&m, &x);
            }
        }
    }
}
