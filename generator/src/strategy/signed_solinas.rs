//! Solinas reduction for generalised Mersenne primes with signed, 32-bit-aligned terms, such
//! as NIST P-256 (p = 2^256 − 2^224 + 2^192 + 2^96 − 1), P-224 and P-192: the "fast
//! reduction" of FIPS 186-4 Appendix D.2 (Solinas, "Generalized Mersenne Numbers", CORR 99-39,
//! 1999), derived from p rather than tabulated.
//!
//! Write the 2k-bit product in 32-bit digits c_0 … c_(2d−1) (d = k/32). Since
//! 2^k ≡ 2^k − p = Σ s_i·2^(32·i) with every s_i ∈ {−1, 0, 1}, each high digit position j ≥ d
//! reduces, by repeated substitution, to a signed combination of low positions with small
//! coefficients. Grouping the digit placements with the same sign into k-bit numbers gives the
//! FIPS terms (for P-256: s1 + 2s2 + 2s3 + s4 + s5 − s6 − s7 − s8 − s9). They are summed with
//! word carry chains on top of a multiple m·p of p, m one more than the number of subtracted
//! terms, so that no partial sum is negative; the top word t that results (a small number) is
//! folded once more by 2^k ≡ c with the wrap fold of [`super::pseudo_mersenne`], and a
//! conditional subtraction makes the value canonical. Every carry and borrow the chains drop is
//! a range obligation.

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use super::pseudo_mersenne::{finish_product, mul_wide, PseudoMersenne};
use crate::ir::{Builder, Func, Var};
use crate::spec::{to_limbs, FieldConsts};

/// A prime p = 2^k − c whose c has balanced base-2^32 digits in {−1, 0, 1}, with the
/// reduction table of its high 32-bit digit positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedSolinas {
    /// k: p = 2^k − c, a multiple of 32.
    pub k: u32,
    /// For each term to add, its 32-bit digits: `Some(j)` places product digit c_j, `None` a 0.
    pub plus: Vec<Vec<Option<usize>>>,
    /// The same for the terms to subtract.
    pub minus: Vec<Vec<Option<usize>>>,
}

/// Balanced base-2^32 digits of x (each in (−2^31, 2^31]), least significant first.
fn balanced_digits(x: &BigUint) -> Vec<i64> {
    let mut x = x.clone();
    let mut out = Vec::new();
    let mut carry = 0i64;
    while !x.is_zero() || carry != 0 {
        let d = (&x & BigUint::from(0xffff_ffffu32)).to_i64().unwrap() + carry;
        x >>= 32;
        if d > 1 << 31 {
            out.push(d - (1 << 32));
            carry = 1;
        } else {
            out.push(d);
            carry = 0;
        }
    }
    out
}

impl SignedSolinas {
    /// The reduction table when p has this form (k a multiple of 32 and of the word size, c = 2^k − p below 2^(k−32)
    /// with balanced 32-bit digits in {−1, 0, 1}, and every high position reducing to
    /// coefficients of at most 3 in absolute value); `None` otherwise.
    pub fn detect(fc: &FieldConsts) -> Option<SignedSolinas> {
        let k = fc.bits;
        // k a multiple of the word size: values stay tight (in [0, p)), so every input is below
        // 2^k and the product has exactly 2d digits.
        if !k.is_multiple_of(32) || !k.is_multiple_of(fc.w()) || k < 64 {
            return None;
        }
        let d = (k / 32) as usize;
        let c = (BigUint::one() << k as usize) - &fc.modulus;
        if c.is_zero() || c.bits() > (k - 32) as u64 {
            return None;
        }
        let s = balanced_digits(&c);
        if s.iter().any(|x| x.abs() > 1) || s.len() > d {
            return None;
        }
        // Row j: digit position j (d ≤ j < 2d) as signed coefficients of positions 0..d.
        let mut plus_cols: Vec<Vec<usize>> = vec![Vec::new(); d];
        let mut minus_cols: Vec<Vec<usize>> = vec![Vec::new(); d];
        for j in d..2 * d {
            let mut v = vec![0i64; 2 * d];
            v[j] = 1;
            for _ in 0..8 * d {
                let Some(h) = (d..2 * d).rev().find(|&h| v[h] != 0) else {
                    break;
                };
                let a = v[h];
                v[h] = 0;
                for (i, &si) in s.iter().enumerate() {
                    v[h - d + i] += a * si;
                }
            }
            if v[d..].iter().any(|&x| x != 0) || v.iter().any(|x| x.abs() > 3) {
                return None;
            }
            for (i, &a) in v[..d].iter().enumerate() {
                let col = if a > 0 {
                    &mut plus_cols[i]
                } else {
                    &mut minus_cols[i]
                };
                for _ in 0..a.abs() {
                    col.push(j);
                }
            }
        }
        let group = |cols: &[Vec<usize>]| -> Vec<Vec<Option<usize>>> {
            let terms = cols.iter().map(|c| c.len()).max().unwrap_or(0);
            (0..terms)
                .map(|t| cols.iter().map(|c| c.get(t).copied()).collect())
                .collect()
        };
        Some(SignedSolinas {
            k,
            plus: group(&plus_cols),
            minus: group(&minus_cols),
        })
    }

    /// The saturated special form p = 2^k − c used for the final fold and the tight add/sub.
    pub fn shape(&self, fc: &FieldConsts) -> PseudoMersenne {
        PseudoMersenne {
            k: self.k,
            c: (BigUint::one() << self.k as usize) - &fc.modulus,
            w: fc.w(),
            n: fc.limbs,
        }
    }
}

/// The 32-bit digit `j` of the product `t` (w-bit limbs).
fn digit(b: &mut Builder, t: &[Var], j: usize) -> Var {
    if b.w() == 32 {
        return t[j];
    }
    if j.is_multiple_of(2) {
        let m = b.constant(0xffff_ffff);
        b.and(t[j / 2], m)
    } else {
        b.shr(t[j / 2], 32)
    }
}

/// A term (32-bit digits, `None` = 0) as n w-bit limbs.
fn term_limbs(b: &mut Builder, t: &[Var], term: &[Option<usize>]) -> Vec<Var> {
    if b.w() == 32 {
        let zero = b.constant(0);
        return term.iter().map(|d| d.map_or(zero, |j| t[j])).collect();
    }
    term.chunks(2)
        .map(|pair| match (pair[0], pair.get(1).copied().flatten()) {
            // Two consecutive digits of one product limb: the limb itself.
            (Some(lo), Some(hi)) if lo % 2 == 0 && hi == lo + 1 => t[lo / 2],
            (None, None) => b.constant(0),
            (Some(lo), None) => digit(b, t, lo),
            (None, Some(hi)) if hi % 2 == 1 => {
                let m = b.constant(0xffff_ffff_0000_0000);
                b.and(t[hi / 2], m)
            }
            (lo, Some(hi)) => {
                let h = digit(b, t, hi);
                let h = b.shl(h, 32);
                match lo {
                    Some(lo) => {
                        let l = digit(b, t, lo);
                        b.or(l, h)
                    }
                    None => h,
                }
            }
        })
        .collect()
}

/// acc (n limbs) and its top word `top` += or −= x; the carry or borrow goes into `top`, whose
/// own carry or borrow is an obligation.
fn accumulate(b: &mut Builder, acc: &mut [Var], top: &mut Var, x: &[Var], subtract: bool) {
    let zero = b.constant(0);
    let mut cy = zero;
    for (a, &xi) in acc.iter_mut().zip(x) {
        let (s, c) = if subtract {
            b.sub_borrow(*a, xi, cy)
        } else {
            b.add_carry(*a, xi, cy)
        };
        *a = s;
        cy = c;
    }
    let (t, out) = if subtract {
        b.sub_borrow(*top, zero, cy)
    } else {
        b.add_carry(*top, zero, cy)
    };
    b.check_at_most(
        out,
        0,
        if subtract {
            "the top word of a Solinas term sum going below zero"
        } else {
            "the carry out of the top word of a Solinas term sum"
        },
    );
    *top = t;
}

/// Reduces the 2n-limb product `t` with the signed terms and finishes in canonical form.
fn reduce(mut b: Builder, fc: &FieldConsts, s: &SignedSolinas, t: Vec<Var>) -> Func {
    let n = fc.limbs;
    let mult = BigUint::from(s.minus.len() as u64 + 1) * &fc.modulus;
    let ml = to_limbs(&mult, fc.w(), n + 1);
    // acc = the low k bits (digits 0..d) + m·p.
    let low: Vec<Option<usize>> = (0..(s.k / 32) as usize).map(Some).collect();
    let mut acc: Vec<Var> = term_limbs(&mut b, &t, &low);
    let mut top = b.constant(0);
    let mp = b.constants(&ml[..n]);
    accumulate(&mut b, &mut acc, &mut top, &mp, false);
    let mtop = b.constant(ml[n]);
    let zero = b.constant(0);
    let (t2, c2) = b.add_carry(top, mtop, zero);
    b.check_at_most(c2, 0, "the top word of m·p");
    top = t2;
    for term in &s.plus {
        let x = term_limbs(&mut b, &t, term);
        accumulate(&mut b, &mut acc, &mut top, &x, false);
    }
    for term in &s.minus {
        let x = term_limbs(&mut b, &t, term);
        accumulate(&mut b, &mut acc, &mut top, &x, true);
    }
    acc.push(top);
    let pm = s.shape(fc);
    let max = pm_max(&b, &acc, fc.w());
    finish_product(b, fc, &pm, acc, max)
}

fn pm_max(b: &Builder, s: &[Var], w: u32) -> BigUint {
    b.range_max(s)
        .iter()
        .enumerate()
        .fold(BigUint::zero(), |acc, (i, &m)| {
            acc + (BigUint::from(m) << (i * w as usize))
        })
}

/// a·b mod p for a, b in [0, p): operand-scanning product, then the signed-term reduction.
pub fn lower_mul(fc: &FieldConsts, s: &SignedSolinas) -> Func {
    let mut b = Builder::new(fc.w());
    let bounds = super::reduced_bounds(fc);
    let x = b.input(bounds.clone());
    let y = b.input(bounds);
    let t = mul_wide(&mut b, &x, &y);
    reduce(b, fc, s, t)
}

/// a² mod p for a in [0, p): off-diagonal products once, then the signed-term reduction.
pub fn lower_square(fc: &FieldConsts, s: &SignedSolinas) -> Func {
    let mut b = Builder::new(fc.w());
    let x = b.input(super::reduced_bounds(fc));
    let t = super::square::square_wide(&mut b, &x);
    reduce(b, fc, s, t)
}

/// a·k mod p for a in [0, p) and a one-word k ≤ [`super::SMALL_MAX`]: n one-word products,
/// zero-extended to the 2n limbs of a product, then the signed-term reduction (the zero
/// digits fold away in the optimiser).
pub fn lower_mul_small(fc: &FieldConsts, s: &SignedSolinas) -> Func {
    let mut b = Builder::new(fc.w());
    let x = b.input(super::reduced_bounds(fc));
    let k = b.input(vec![super::SMALL_MAX]);
    let mut t = mul_wide(&mut b, &x, &k);
    let zero = b.constant(0);
    t.resize(2 * fc.limbs, zero);
    reduce(b, fc, s, t)
}
