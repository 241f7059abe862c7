//! Test helpers shared by the x86-64 kernel tests: a deterministic random source and primes of
//! exactly n 64-bit limbs in the shapes where carry bugs live.

#![allow(dead_code)]

use generator::spec::is_probable_prime;
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// Deterministic generator for test inputs (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn limbs(&mut self, n: usize) -> Vec<u64> {
        (0..n).map(|_| self.next()).collect()
    }

    pub fn below(&mut self, bound: &BigUint) -> BigUint {
        let n = bound.bits().div_ceil(64) as usize + 1;
        from_limbs(&self.limbs(n)) % bound
    }
}

pub fn from_limbs(l: &[u64]) -> BigUint {
    l.iter()
        .rev()
        .fold(BigUint::zero(), |acc, &x| (acc << 64usize) + x)
}

pub fn next_prime_up(mut x: BigUint) -> BigUint {
    if !x.bit(0) {
        x += 1u32;
    }
    while !is_probable_prime(&x) {
        x += 2u32;
    }
    x
}

pub fn next_prime_down(mut x: BigUint) -> BigUint {
    if !x.bit(0) {
        x -= 1u32;
    }
    while !is_probable_prime(&x) {
        x -= 2u32;
    }
    x
}

/// Number of shapes [`prime_of_shape`] knows.
pub const SHAPES: usize = 8;

/// Names of the shapes, by `shape % SHAPES`.
pub const SHAPE_NAMES: [&str; SHAPES] = [
    "top bit set",
    "one spare bit",
    "two or more spare bits",
    "top limb all ones",
    "zero middle limbs",
    "all-ones lower limbs",
    "n0' = 1",
    "largest below 2^(64n)",
];

/// A prime of exactly `n` limbs in one of several shapes chosen by `shape`.
pub fn prime_of_shape(rng: &mut Rng, n: usize, shape: usize) -> BigUint {
    let bits = 64 * n;
    let mut l = rng.limbs(n);
    match shape % 8 {
        // Top bit set.
        0 => l[n - 1] |= 1 << 63,
        // One spare bit.
        1 => l[n - 1] = (l[n - 1] >> 1) | 1 << 62,
        // Two or more spare bits (no-carry territory), down to a few bits in the top limb.
        2 => {
            let s = 2 + (rng.next() % 61) as u32;
            l[n - 1] = (l[n - 1] >> s) | 1 << (63 - s);
        }
        // Top limb all ones.
        3 => l[n - 1] = u64::MAX,
        // Zero limbs in the middle (and possibly the top limb small).
        4 => {
            for x in l.iter_mut().take(n.saturating_sub(1)).skip(1) {
                *x = 0;
            }
            l[n - 1] |= 1 << (rng.next() % 64);
        }
        // All-ones limbs below a random top.
        5 => {
            for x in l.iter_mut().take(n - 1) {
                *x = u64::MAX;
            }
            l[n - 1] |= 1 << 63;
        }
        // n0' = 1: low limb 2^64 − 1.
        6 => {
            l[0] = u64::MAX;
            l[n - 1] |= 1 << (rng.next() % 64);
        }
        // Just below 2^(64n).
        _ => return next_prime_down((BigUint::one() << bits) - 1u32),
    }
    if l[n - 1] == 0 {
        l[n - 1] = 1;
    }
    // Search upwards but stay within n limbs; fall back downwards.
    let start = from_limbs(&l);
    let p = next_prime_up(start.clone());
    if p.bits() as usize <= bits {
        p
    } else {
        next_prime_down(start)
    }
}
