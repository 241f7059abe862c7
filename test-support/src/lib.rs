//! Deterministic inputs for the workspace's tests, benches and examples: one SplitMix64 stream
//! and primes of a chosen size in the shapes where carry and reduction bugs live.
//!
//! Every test draws from [`SplitMix64`] with a fixed seed, so a failure replays exactly and the
//! same seed gives the same bytes in every crate. The prime search uses num-prime's
//! Baillie-PSW test, not the generator's, so the generator's tests do not depend on the code
//! they check.

use num_bigint::BigUint;
use num_prime::{nt_funcs, PrimalityTestConfig};
use num_traits::{One, ToPrimitive, Zero};

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): the state advances by the golden-ratio increment and each output is the
/// state through the MurmurHash3-style finaliser with Stafford's variant 13 constants.
///
/// Not a cryptographic generator: it makes reproducible test inputs. The field is the state;
/// `SplitMix64(seed)` starts a stream.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 bits of the stream.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// The low 32 bits of the next output.
    pub fn next_u32(&mut self) -> u32 {
        low_u32(self.next_u64())
    }

    /// The low byte of the next output.
    pub fn next_u8(&mut self) -> u8 {
        self.next_u64().to_le_bytes()[0]
    }

    /// Fills `out` with one byte per output: the low byte of each.
    pub fn fill_low_bytes(&mut self, out: &mut [u8]) {
        for b in out.iter_mut() {
            *b = self.next_u8();
        }
    }

    /// `len` bytes, one per output (the low byte of each).
    pub fn low_bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u8()).collect()
    }

    /// Fills `out` with whole outputs as little-endian bytes, 8 per output; a last partial chunk
    /// takes the low bytes of one more output.
    pub fn fill_le_bytes(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let w = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&w[..chunk.len()]);
        }
    }

    /// `n` outputs, in order (least significant limb first when read as a number).
    pub fn limbs(&mut self, n: usize) -> Vec<u64> {
        (0..n).map(|_| self.next_u64()).collect()
    }

    /// A value below `bound` (nonzero): one more 64-bit limb than `bound` has, reduced mod
    /// `bound`, so the bias is below 2^-64.
    ///
    /// # Panics
    ///
    /// When `bound` is zero.
    pub fn below(&mut self, bound: &BigUint) -> BigUint {
        let n = usize::try_from(bound.bits().div_ceil(64)).expect("limb count fits usize") + 1;
        from_limbs(&self.limbs(n)) % bound
    }
}

/// `len` bytes of the stream started at `seed`, one per output (the low byte of each): the
/// inputs of the RSA and binary-field benchmarks and examples.
pub fn splitmix_bytes(seed: u64, len: usize) -> Vec<u8> {
    SplitMix64(seed).low_bytes(len)
}

/// The low 32 bits of `x`.
fn low_u32(x: u64) -> u32 {
    #[expect(
        clippy::cast_possible_truncation,
        reason = "keeps the low word by design"
    )]
    let low = x as u32;
    low
}

/// Operands below p where carry and reduction bugs live, then `random` values from `rng`:
/// 0, 1, 2, p − 1, p − 2, ⌊p/2⌋, ⌊p/2⌋ + 1, R mod p and R² mod p (`r`, `r2`), and per word
/// boundary k of `limbs` words of `word_bits` bits the all-ones 2^(wk) − 1, the power 2^(wk)
/// and p − 2^(wk) (each reduced mod p), and 2^(bits(p) − 1) − 1. Every value is below p.
pub fn edge_values(
    rng: &mut SplitMix64,
    p: &BigUint,
    r: &BigUint,
    r2: &BigUint,
    limbs: usize,
    word_bits: usize,
    random: usize,
) -> Vec<BigUint> {
    let one = BigUint::one();
    let mut v = vec![
        BigUint::zero(),
        one.clone(),
        BigUint::from(2u32),
        p - 1u32,
        p - 2u32,
        p >> 1,
        (p >> 1) + 1u32,
        r.clone(),
        r2.clone(),
    ];
    for k in 1..=limbs {
        let power = &one << (word_bits * k);
        v.push(&power - 1u32);
        if &power < p {
            v.push(p - &power);
        }
        v.push(power);
    }
    if p.bits() > 1 {
        v.push((&one << (p.bits() - 1)) - 1u32);
    }
    for _ in 0..random {
        v.push(rng.below(p));
    }
    v.into_iter().map(|x| x % p).collect()
}

/// The integer with 64-bit limbs `l`, least significant first.
pub fn from_limbs(l: &[u64]) -> BigUint {
    l.iter()
        .rev()
        .fold(BigUint::zero(), |acc, &x| (acc << 64usize) + x)
}

/// Odd primes below 2^11, for trial division before the probable-prime test.
fn small_odd_primes() -> &'static [u32] {
    static PRIMES: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    PRIMES.get_or_init(|| {
        (3u32..2048)
            .step_by(2)
            .filter(|&q| {
                (3..q)
                    .step_by(2)
                    .take_while(|d| d * d <= q)
                    .all(|d| q % d != 0)
            })
            .collect()
    })
}

/// Whether `n` is prime: exact below 2^64, Baillie-PSW above (no counterexample is known).
pub fn is_probable_prime(n: &BigUint) -> bool {
    if let Some(small) = n.to_u64() {
        return nt_funcs::is_prime64(small);
    }
    if !n.bit(0) || small_odd_primes().iter().any(|&q| (n % q).is_zero()) {
        return false;
    }
    nt_funcs::is_prime(n, Some(PrimalityTestConfig::bpsw())).probably()
}

/// The smallest odd prime ≥ `x`, searching odd numbers upwards.
pub fn next_prime_up(mut x: BigUint) -> BigUint {
    if !x.bit(0) {
        x += 1u32;
    }
    while !is_probable_prime(&x) {
        x += 2u32;
    }
    x
}

/// The largest odd prime ≤ `x`, searching odd numbers downwards.
///
/// # Panics
///
/// When `x` < 3 (there is none).
pub fn next_prime_down(mut x: BigUint) -> BigUint {
    assert!(x >= BigUint::from(3u32), "no odd prime below 3");
    if !x.bit(0) {
        x -= 1u32;
    }
    while !is_probable_prime(&x) {
        x -= 2u32;
    }
    x
}

/// Number of shapes [`prime_of_shape`] and [`prime_of_shape_32`] know.
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

/// A prime of exactly `n` 64-bit limbs (`n` ≥ 1) in shape `shape % SHAPES` (see
/// [`SHAPE_NAMES`]): random limbs from `rng` shaped, then the next prime up, or down when the
/// search would leave `n` limbs.
pub fn prime_of_shape(rng: &mut SplitMix64, n: usize, shape: usize) -> BigUint {
    let bits = 64 * n;
    let mut l = rng.limbs(n);
    match shape % SHAPES {
        0 => l[n - 1] |= 1 << 63,
        1 => l[n - 1] = (l[n - 1] >> 1) | 1 << 62,
        // Two or more spare bits (no-carry territory), down to a few bits in the top limb.
        2 => {
            let s = 2 + rng.next_u64() % 61;
            l[n - 1] = (l[n - 1] >> s) | 1 << (63 - s);
        }
        3 => l[n - 1] = u64::MAX,
        // Zero limbs in the middle (and possibly the top limb small).
        4 => {
            for x in l.iter_mut().take(n.saturating_sub(1)).skip(1) {
                *x = 0;
            }
            l[n - 1] |= 1 << (rng.next_u64() % 64);
        }
        5 => {
            for x in l.iter_mut().take(n - 1) {
                *x = u64::MAX;
            }
            l[n - 1] |= 1 << 63;
        }
        // n0' = 1: low limb 2^64 − 1.
        6 => {
            l[0] = u64::MAX;
            l[n - 1] |= 1 << (rng.next_u64() % 64);
        }
        _ => return next_prime_down((BigUint::one() << bits) - 1u32),
    }
    if l[n - 1] == 0 {
        l[n - 1] = 1;
    }
    // Search upwards but stay within n limbs; fall back downwards.
    let start = from_limbs(&l);
    let p = next_prime_up(start.clone());
    if p.bits() <= bits as u64 {
        p
    } else {
        next_prime_down(start)
    }
}

/// The 32-bit-limb counterpart of [`prime_of_shape`]: a prime of exactly `n` 32-bit limbs
/// (`n` ≥ 1), each limb the low half of one output, at least 3.
pub fn prime_of_shape_32(rng: &mut SplitMix64, n: usize, shape: usize) -> BigUint {
    let bits = 32 * n;
    let mut l: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
    match shape % SHAPES {
        0 => l[n - 1] |= 1 << 31,
        1 => l[n - 1] = (l[n - 1] >> 1) | 1 << 30,
        2 => {
            let s = 2 + rng.next_u64() % 29;
            l[n - 1] = (l[n - 1] >> s) | 1 << (31 - s);
        }
        3 => l[n - 1] = u32::MAX,
        4 => {
            for x in l.iter_mut().take(n.saturating_sub(1)).skip(1) {
                *x = 0;
            }
            l[n - 1] |= 1 << (rng.next_u64() % 32);
        }
        5 => {
            for x in l.iter_mut().take(n - 1) {
                *x = u32::MAX;
            }
            l[n - 1] |= 1 << 31;
        }
        6 => {
            l[0] = u32::MAX;
            l[n - 1] |= 1 << (rng.next_u64() % 32);
        }
        _ => return next_prime_down((BigUint::one() << bits) - 1u32),
    }
    if l[n - 1] == 0 {
        l[n - 1] = 1;
    }
    let start = BigUint::from_slice(&l).max(BigUint::from(3u32));
    let p = next_prime_up(start.clone());
    if p.bits() <= bits as u64 {
        p
    } else {
        next_prime_down(start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs for seed 0 from the reference C implementation (Vigna's
    /// splitmix64.c), so a change to the stream fails here before it silently changes every
    /// test's inputs.
    #[test]
    fn stream_matches_the_reference() {
        let mut r = SplitMix64(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(r.next_u64(), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn byte_views_agree_with_the_words() {
        let w = SplitMix64(7).limbs(3);
        assert_eq!(
            splitmix_bytes(7, 3),
            w.iter().map(|x| x.to_le_bytes()[0]).collect::<Vec<_>>()
        );
        let mut b = [0u8; 20];
        SplitMix64(7).fill_le_bytes(&mut b);
        assert_eq!(b[..8], w[0].to_le_bytes());
        assert_eq!(b[16..], w[2].to_le_bytes()[..4]);
    }

    #[test]
    fn shapes_have_the_size_and_are_prime() {
        let mut rng = SplitMix64(1);
        for n in 1..=4 {
            for shape in 0..SHAPES {
                let p = prime_of_shape(&mut rng, n, shape);
                assert!(p.bits() > 64 * (n as u64 - 1) && p.bits() <= 64 * n as u64);
                let q = prime_of_shape_32(&mut rng, n, shape);
                assert!(q.bits() > 32 * (n as u64 - 1) && q.bits() <= 32 * n as u64);
                // Oracle: trial division for the one-limb 32-bit primes.
                if n == 1 {
                    let q = q.to_u64().unwrap();
                    assert!(
                        (2..)
                            .take_while(|d| d * d <= q)
                            .all(|d| !q.is_multiple_of(d)),
                        "{q}"
                    );
                }
            }
        }
    }
}
