//! Shared test helpers: a deterministic byte source and conversions through num-bigint.

#![allow(dead_code)]

use num_bigint::BigUint;
use num_traits::Zero;

/// Deterministic generator (SplitMix64), also the random source handed to key generation.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn fill(&mut self, out: &mut [u8]) {
        for b in out.iter_mut() {
            *b = self.next() as u8;
        }
    }

    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut v = vec![0; len];
        self.fill(&mut v);
        v
    }

    pub fn below(&mut self, n: &BigUint) -> BigUint {
        BigUint::from_bytes_be(&self.bytes(n.bits() as usize / 8 + 8)) % n
    }
}

pub fn be<const B: usize>(x: &BigUint) -> [u8; B] {
    let v = x.to_bytes_be();
    assert!(v.len() <= B, "{} bytes do not fit {B}", v.len());
    let mut out = [0u8; B];
    out[B - v.len()..].copy_from_slice(&v);
    out
}

pub fn big_of_limbs(limbs: &[u64]) -> BigUint {
    limbs.iter().rev().fold(BigUint::zero(), |acc, l| {
        (acc << 64usize) + BigUint::from(*l)
    })
}

pub fn limbs_of<const L: usize>(x: &BigUint) -> [u64; L] {
    let mut out = [0u64; L];
    for (i, d) in x.to_u64_digits().iter().enumerate() {
        out[i] = *d;
    }
    out
}
