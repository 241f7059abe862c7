//! Constants derived from a validated prime: limb layout, Montgomery constants, square-root
//! method, roots of unity and public-exponent window schedules.

use crate::narrow::fit;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use super::{LimbBits, SpecError};

/// How square roots are computed for this prime (chosen from p mod 8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SqrtMethod {
    /// p ≡ 3 (mod 4): x = a^((p+1)/4).
    ThreeMod4 {
        /// (p+1)/4.
        exp: BigUint,
    },
    /// p ≡ 5 (mod 8): Atkin's method (Atkin 1992; see also Müller, "On the computation of square
    /// roots in finite fields", 2004): b = (2a)^((p-5)/8), i = 2ab², x = ab(i-1).
    Atkin {
        /// (p-5)/8.
        exp: BigUint,
    },
    /// p ≡ 1 (mod 8): Tonelli–Shanks with p-1 = 2^s·t, run for a fixed number of steps.
    TonelliShanks {
        /// (t-1)/2.
        exp: BigUint,
    },
}

/// Every constant a generated field needs, computed once from the prime.
#[derive(Clone, Debug)]
pub struct FieldConsts {
    /// The prime p.
    pub modulus: BigUint,
    /// Bit length of p.
    pub bits: u32,
    /// Canonical encoding length B = ceil(bits/8).
    pub bytes: usize,
    /// Word size.
    pub limb_bits: LimbBits,
    /// Limb count n = ceil(bits/w).
    pub limbs: usize,
    /// Limbs of p, least significant first, each below 2^w.
    pub modulus_limbs: Vec<u64>,
    /// R mod p, R = 2^(w·n).
    pub r: BigUint,
    /// R² mod p.
    pub r2: BigUint,
    /// n0' = -p⁻¹ mod 2^w.
    pub n0_inv: u64,
    /// w·n - bits: unused top bits of the top limb.
    pub spare_bits: u32,
    /// s, the 2-adicity: p-1 = 2^s·t with t odd.
    pub two_adicity: u32,
    /// t, the odd part of p-1.
    pub odd_part: BigUint,
    /// The smallest quadratic non-residue mod p.
    pub nonresidue: BigUint,
    /// A primitive 2^s-th root of unity: nonresidue^t, or generator^t once
    /// [`FieldConsts::with_multiplicative_generator`] found a generator.
    pub root_of_unity: BigUint,
    /// A generator of the multiplicative group: filled in by
    /// [`FieldConsts::with_multiplicative_generator`] when p − 1 could be factored.
    pub generator: Option<BigUint>,
    /// Square-root method.
    pub sqrt: SqrtMethod,
}

/// Limbs of `x`, least significant first, exactly `n` of them, each below 2^w.
pub fn to_limbs(x: &BigUint, w: u32, n: usize) -> Vec<u64> {
    let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    (0..n)
        .map(|i| {
            let shifted: BigUint = x >> (w as usize * i);
            (shifted & BigUint::from(mask)).to_u64().unwrap()
        })
        .collect()
}

impl FieldConsts {
    /// Derives the constants for the prime `p` (which the caller has validated with
    /// [`super::validate_prime`]) at word size `limb_bits`.
    pub fn new(p: &BigUint, limb_bits: LimbBits) -> Result<Self, SpecError> {
        super::validate_prime(p)?;
        let w = limb_bits.bits();
        // At most MAX_MODULUS_BITS, checked above.
        let bits: u32 = fit(p.bits());
        let limbs = bits.div_ceil(w) as usize;
        let modulus_limbs = to_limbs(p, w, limbs);
        let r = (BigUint::one() << (w as usize * limbs)) % p;
        let r2 = (&r * &r) % p;
        // n0' = -p^{-1} mod 2^w by Newton iteration on the low word (p is odd).
        let p0 = modulus_limbs[0];
        let mut inv: u64 = 1;
        for _ in 0..7 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p0.wrapping_mul(inv)));
        }
        let word_mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        let n0_inv = inv.wrapping_neg() & word_mask;
        let spare_bits = w * fit::<usize, u32>(limbs) - bits;

        let p_minus_1 = p - 1u32;
        let two_adicity: u32 = fit(p_minus_1.trailing_zeros().unwrap_or(0));
        let odd_part = &p_minus_1 >> two_adicity as usize;
        let legendre_exp = &p_minus_1 >> 1;
        let nonresidue = if *p == BigUint::from(3u32) {
            BigUint::from(2u32)
        } else {
            let mut candidate = BigUint::from(2u32);
            loop {
                if candidate.modpow(&legendre_exp, p) == p_minus_1 {
                    break candidate;
                }
                candidate += 1u32;
            }
        };
        let root_of_unity = nonresidue.modpow(&odd_part, p);
        let generator = None;

        let p_mod_8 = (p % 8u32).to_u32().unwrap();
        let sqrt = match p_mod_8 {
            3 | 7 => SqrtMethod::ThreeMod4 {
                exp: (p + 1u32) >> 2,
            },
            5 => SqrtMethod::Atkin {
                exp: (p - 5u32) >> 3,
            },
            _ => SqrtMethod::TonelliShanks {
                exp: (&odd_part - 1u32) >> 1,
            },
        };
        Ok(FieldConsts {
            modulus: p.clone(),
            bits,
            bytes: bits.div_ceil(8) as usize,
            limb_bits,
            limbs,
            modulus_limbs,
            r,
            r2,
            n0_inv,
            spare_bits,
            two_adicity,
            odd_part,
            nonresidue,
            root_of_unity,
            generator,
            sqrt,
        })
    }

    /// Searches for a multiplicative generator g (factoring p − 1 within a fixed work budget)
    /// and, when found, switches `root_of_unity` to g^t, which is what ff's `PrimeField`
    /// expects. Either root is a primitive 2^s-th root of unity. Kept out of [`FieldConsts::new`]
    /// because the factoring can take a moment and only the emitted API needs it.
    pub fn with_multiplicative_generator(mut self) -> Self {
        self.generator = super::primality::multiplicative_generator(&self.modulus);
        if let Some(g) = &self.generator {
            self.root_of_unity = g.modpow(&self.odd_part, &self.modulus);
        }
        self
    }

    /// Word size w in bits.
    pub fn w(&self) -> u32 {
        self.limb_bits.bits()
    }

    /// `x` (reduced mod p) in Montgomery form, as n limbs.
    pub fn mont_limbs(&self, x: &BigUint) -> Vec<u64> {
        let v = ((x % &self.modulus) * &self.r) % &self.modulus;
        to_limbs(&v, self.w(), self.limbs)
    }

    /// `x` as n plain limbs.
    pub fn limbs_of(&self, x: &BigUint) -> Vec<u64> {
        to_limbs(x, self.w(), self.limbs)
    }

    /// True when the top limb of p is below (2^w - 1)/2 - 1, which lets Montgomery
    /// multiplication skip the extra carry word (the "no-carry" CIOS variant; gnark-crypto's
    /// analysis, hackmd.io/@gnark/modular_multiplication).
    pub fn no_carry_mul(&self) -> bool {
        let w = self.w();
        let top = self.modulus_limbs[self.limbs - 1] as u128;
        let word_max = (1u128 << w) - 1;
        top < word_max / 2 - 1 && self.limbs > 1
    }
}

/// One step of a left-to-right sliding-window exponentiation by a public exponent:
/// square `squarings` times, then multiply by base^`digit` when `digit` is non-zero (odd).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowStep {
    /// Squarings before the multiplication.
    pub squarings: u32,
    /// Odd window value, or 0 for none.
    pub digit: u32,
}

/// Sliding-window schedule for the public exponent `exp` with windows of `width` bits.
/// Returns the leading odd digit (the starting value is base^digit) and the steps that follow.
/// `exp` must be non-zero. The schedule depends only on the exponent, never on the base.
pub fn window_schedule(exp: &BigUint, width: u32) -> (u32, Vec<WindowStep>) {
    assert!(!exp.is_zero(), "window_schedule needs a non-zero exponent");
    let nbits = exp.bits() as i64;
    let bit = |i: i64| -> bool { i >= 0 && exp.bit(i as u64) };
    let mut i = nbits - 1;
    // Leading window: from the top bit, take up to `width` bits ending in a 1.
    let take_window = |i: i64| -> (u32, i64) {
        let lo_limit = (i - width as i64 + 1).max(0);
        let mut lo = lo_limit;
        while !bit(lo) {
            lo += 1;
        }
        let mut digit = 0u32;
        for k in (lo..=i).rev() {
            digit = (digit << 1) | bit(k) as u32;
        }
        (digit, lo)
    };
    let (first, lo) = take_window(i);
    i = lo - 1;
    let mut steps = Vec::new();
    let mut pending = 0u32;
    while i >= 0 {
        if !bit(i) {
            pending += 1;
            i -= 1;
            continue;
        }
        let (digit, lo) = take_window(i);
        pending += fit::<_, u32>(i - lo + 1);
        steps.push(WindowStep {
            squarings: pending,
            digit,
        });
        pending = 0;
        i = lo - 1;
    }
    if pending > 0 {
        steps.push(WindowStep {
            squarings: pending,
            digit: 0,
        });
    }
    (first, steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_schedule(first: u32, steps: &[WindowStep]) -> BigUint {
        let mut acc = BigUint::from(first);
        for s in steps {
            acc <<= s.squarings as usize;
            acc += s.digit;
        }
        acc
    }

    #[test]
    fn window_schedule_reconstructs_exponent() {
        for e in [
            1u64,
            2,
            3,
            5,
            16,
            17,
            255,
            256,
            0x8000_0000_0000_0001,
            u64::MAX,
        ] {
            let exp = BigUint::from(e);
            for width in 1..=6 {
                let (first, steps) = window_schedule(&exp, width);
                assert_eq!(eval_schedule(first, &steps), exp, "e={e} width={width}");
                assert!(first % 2 == 1 && first < (1 << width));
                assert!(steps
                    .iter()
                    .all(|s| s.digit == 0 || (s.digit % 2 == 1 && s.digit < (1 << width))));
            }
        }
    }

    #[test]
    fn montgomery_constants_match_definitions() {
        let p = BigUint::parse_bytes(
            b"30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
            16,
        )
        .unwrap();
        for lb in [LimbBits::W64, LimbBits::W32] {
            let c = FieldConsts::new(&p, lb).unwrap();
            let w = lb.bits();
            let big_w = BigUint::one() << w as usize;
            // p * n0' ≡ -1 mod 2^w
            let prod = (&p * c.n0_inv) % &big_w;
            assert_eq!(prod, &big_w - 1u32);
            assert_eq!(fit::<usize, u32>(c.limbs) * w - c.spare_bits, 254);
            assert_eq!(c.nonresidue.modpow(&((&p - 1u32) >> 1), &p), &p - 1u32);
        }
    }
}
