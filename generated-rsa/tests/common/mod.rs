//! Shared test helpers: a deterministic byte source and conversions through num-bigint.

#![allow(dead_code)]

use num_bigint::BigUint;
use num_traits::Zero;

/// The shared SplitMix64 stream, also the random source handed to key generation (one byte
/// per output).
pub use fieldgen_test_support::SplitMix64 as Rng;

/// This crate's sampler on the shared stream.
pub trait Samplers {
    /// A value below `n`: `n.bits() / 8 + 8` bytes, big-endian, reduced.
    fn below_by_bytes(&mut self, n: &BigUint) -> BigUint;
}

impl Samplers for Rng {
    fn below_by_bytes(&mut self, n: &BigUint) -> BigUint {
        BigUint::from_bytes_be(&self.low_bytes(usize::try_from(n.bits() / 8).unwrap() + 8)) % n
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
