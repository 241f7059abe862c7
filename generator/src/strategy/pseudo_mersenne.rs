//! Pseudo-Mersenne reduction for p = 2^k − c with c small (Crandall, "Method and apparatus for
//! public key exchange in a cryptographic system", US patent 5,159,632, 1992; Bernstein,
//! "Curve25519: new Diffie-Hellman speed records", PKC 2006, §4 for 2^255 − 19), on saturated
//! limbs, in canonical (not Montgomery) form.
//!
//! ## Representation
//!
//! Values are kept *loose*: n limbs of w bits, every limb full except the top one, which is at
//! most 2^r with r = k − (n−1)·w (so k must not be a multiple of w: at least one spare bit).
//! Every loose value is below 2^k + 2^((n−1)·w) < 2p, so one conditional subtraction of p
//! makes it canonical ([`lower_canonical`]); the public API canonicalises before encoding and
//! comparing. The *tight* state is the canonical one, [0, p). In the generator the two states
//! are the [`Repr`] values a function's input and output bounds are built from.
//!
//! ## Reduction
//!
//! Since 2^k ≡ c (mod p), a value s = lo + 2^k·q is congruent to lo + c·q. Products are folded
//! twice: first at the word boundary K = n·w with c·2^(K−k) (38 for 2^255 − 19 on 64-bit limbs:
//! one multiplication per high limb, no shifts), then at bit k with c until the value is loose
//! again; additions and subtractions need only the fold at bit k. Every dropped carry is a range
//! obligation ([`crate::ir::Check`]) and every function declares the loose bound on its output,
//! so [`crate::pass::verify_bounds`] refuses any prime or sequence for which interval range
//! analysis cannot prove the code overflow-free.

use crate::narrow::fit;
use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::final_subtract;
use crate::ir::{word_mask, Builder, Func, Var};
use crate::spec::{to_limbs, FieldConsts};

/// The shape of p = 2^k − c for the pseudo-Mersenne lowerings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PseudoMersenne {
    /// k: p = 2^k − c.
    pub k: u32,
    /// c = 2^k − p (positive).
    pub c: BigUint,
    /// Word size.
    pub w: u32,
    /// Limb count n.
    pub n: usize,
}

/// A representation state of a field element's limbs in the pseudo-Mersenne form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repr {
    /// Canonical: the value is in [0, p).
    Tight,
    /// Loose: limbs full except the top one, at most 2^r; the value is below 2p.
    Loose,
}

impl PseudoMersenne {
    /// The shape of `c.modulus` when it is 2^k − c with at least one spare bit in the top limb
    /// and c below 2^(k/2) (so that the folds shrink the value); `None` otherwise. Whether the
    /// reduction is provably overflow-free is decided by the bounds pass, not here.
    pub fn detect(fc: &FieldConsts) -> Option<PseudoMersenne> {
        let k = fc.bits;
        let c = (BigUint::one() << k as usize) - &fc.modulus;
        if c.is_zero() || c.bits() > u64::from(2 * k / 3) {
            return None;
        }
        Some(PseudoMersenne {
            k,
            c,
            w: fc.w(),
            n: fc.limbs,
        })
    }

    /// Whether c fits one word (pseudo-Mersenne in the narrow sense; otherwise a Solinas
    /// prime 2^k − c with a multi-word c, such as secp256k1 on 32-bit limbs or P-384).
    pub fn single_word_c(&self) -> bool {
        self.c.bits() <= self.w as u64
    }

    /// Whether values are kept loose (p has a spare bit in its top limb). Without a spare bit
    /// (k = n·w, as for secp256k1) every value stays tight: products end with one conditional
    /// subtraction, and addition and subtraction are the Montgomery field's (which work on any
    /// values in [0, p)).
    pub fn is_loose(&self) -> bool {
        !self.k.is_multiple_of(self.w)
    }

    /// The state every stored value is in.
    pub fn stored(&self) -> Repr {
        if self.is_loose() {
            Repr::Loose
        } else {
            Repr::Tight
        }
    }

    /// r: bits of p in the top limb.
    fn r(&self) -> u32 {
        self.k - (fit::<usize, u32>(self.n) - 1) * self.w
    }

    /// Limb upper bounds of a value in state `repr`.
    pub fn bounds(&self, fc: &FieldConsts, repr: Repr) -> Vec<u64> {
        let mut b = vec![word_mask(self.w); self.n];
        b[self.n - 1] = match repr {
            Repr::Tight => fc.modulus_limbs[self.n - 1],
            // Without a spare bit the loose state is every n-limb value (below 2^k < 2p).
            Repr::Loose if !self.is_loose() => word_mask(self.w),
            // One limb: the fold adds c·q into the top limb itself, so the bound leaves room
            // for c (q ≤ 1 once the value is below 2^(k+1)).
            Repr::Loose if self.n == 1 => (1u64 << self.r()) - 1 + to_limbs(&self.c, self.w, 1)[0],
            Repr::Loose => 1u64 << self.r(),
        };
        b
    }

    /// The largest value the limb bounds allow.
    fn max_of(&self, bounds: &[u64]) -> BigUint {
        bounds
            .iter()
            .enumerate()
            .fold(BigUint::zero(), |acc, (i, &b)| {
                acc + (BigUint::from(b) << (i * self.w as usize))
            })
    }

    fn limbs(&self, x: &BigUint) -> Vec<u64> {
        let n = fit::<u64, usize>(x.bits()).div_ceil(self.w as usize).max(1);
        to_limbs(x, self.w, n)
    }
}

/// Number of w-bit limbs needed for values up to `max`.
fn limbs_for(max: &BigUint, w: u32) -> usize {
    fit::<u64, usize>(max.bits()).div_ceil(w as usize).max(1)
}

/// acc += x·y for a constant y (limbs `y`), propagating carries to the end of `acc`. With
/// `checked`, the carry out of `acc` is an obligation (it must be zero); without, the caller
/// has proved it zero (the wrap-fold lemma in [`fold_at_k`]).
fn mac_const(b: &mut Builder, acc: &mut [Var], x: &[Var], y: &[u64], checked: bool) {
    let zero = b.constant(0);
    let nonzero: Vec<usize> = (0..y.len()).filter(|&j| y[j] != 0).collect();
    let (z, offset) = if let [j] = nonzero[..] {
        // One word: fused multiply-accumulate rows, a·y_j + acc + carry per limb.
        let yv = b.constant(y[j]);
        let mut carry = zero;
        for (i, &xi) in x.iter().enumerate() {
            if i + j >= acc.len() {
                let (lo, hi) = b.mul_add(xi, yv, carry, zero);
                b.check_at_most(lo, 0, "a fold product beyond the accumulator");
                b.check_at_most(hi, 0, "a fold product beyond the accumulator");
                carry = zero;
                continue;
            }
            let (lo, hi) = b.mul_add(xi, yv, acc[i + j], carry);
            acc[i + j] = lo;
            carry = hi;
        }
        (vec![carry], x.len() + j)
    } else {
        // Several words: the product first, then one addition chain, so that range analysis
        // sees a single carry into each limb.
        let yv = b.constants(y);
        (mul_wide(b, x, &yv), 0)
    };
    let mut carry = zero;
    for (pos, slot) in acc.iter_mut().enumerate().skip(offset) {
        let zi = z.get(pos - offset).copied().unwrap_or(zero);
        let (s, cy) = b.add_carry(*slot, zi, carry);
        *slot = s;
        carry = cy;
    }
    if checked {
        for &rest in z.iter().skip(acc.len().saturating_sub(offset)) {
            b.check_at_most(rest, 0, "a fold product beyond the accumulator");
        }
        b.check_at_most(carry, 0, "the carry out of a fold");
    }
}

/// The full product of two limb vectors (operand scanning), |x| + |y| limbs.
pub fn mul_wide(b: &mut Builder, x: &[Var], y: &[Var]) -> Vec<Var> {
    let zero = b.constant(0);
    let mut t = vec![zero; x.len() + y.len()];
    for (i, &yi) in y.iter().enumerate() {
        let mut carry = zero;
        for (j, &xj) in x.iter().enumerate() {
            let (lo, hi) = b.mul_add(xj, yi, t[i + j], carry);
            t[i + j] = lo;
            carry = hi;
        }
        t[i + x.len()] = carry;
    }
    t
}

/// Folds `s` (value at most `smax`) at the word boundary K = n·w: s mod 2^K + c·2^(K−k)·⌊s/2^K⌋.
fn fold_at_word(
    b: &mut Builder,
    pm: &PseudoMersenne,
    s: &[Var],
    smax: &BigUint,
) -> (Vec<Var>, BigUint) {
    let n = pm.n;
    let kk = n * pm.w as usize;
    let cf = &pm.c << (kk - pm.k as usize);
    let hi_max = smax >> kk;
    let umax = ((BigUint::one() << kk) - 1u32) + &hi_max * &cf;
    let zero = b.constant(0);
    let mut acc: Vec<Var> = s[..n].to_vec();
    acc.resize(limbs_for(&umax, pm.w).max(n), zero);
    let hi: Vec<Var> = s[n..].to_vec();
    mac_const(b, &mut acc, &hi, &pm.limbs(&cf), true);
    (acc, umax)
}

/// Folds `s` (value at most `smax`) at bit k: s mod 2^k + c·⌊s/2^k⌋.
///
/// When k = n·w (no spare bit) and the quotient q is one word, the sum U = L + c·q (L < 2^k)
/// may carry e into bit k; then the result is U mod 2^k + c·e, which cannot carry again: if
/// e = 1 then U mod 2^k = U − 2^k ≤ c·q_max − 1, so U mod 2^k + c < 2^k whenever
/// c·(q_max + 1) ≤ 2^k (the *wrap-fold lemma*). Its precondition, q ≤ 2^k/c − 1, and e ≤ 1 are
/// obligations checked by range analysis; the final carry is dropped on the lemma's strength.
fn fold_at_k(
    b: &mut Builder,
    pm: &PseudoMersenne,
    s: &[Var],
    smax: &BigUint,
) -> (Vec<Var>, BigUint) {
    let (n, w) = (pm.n, pm.w);
    let kw = pm.k as usize / w as usize;
    let r = pm.k % w;
    let zero = b.constant(0);
    let q_max = smax >> pm.k as usize;
    let nq = limbs_for(&q_max, w);
    let at = |i: usize| -> Option<Var> { s.get(i).copied() };
    let mut q = Vec::with_capacity(nq);
    for i in 0..nq {
        let v = if r == 0 {
            at(kw + i).unwrap_or(zero)
        } else {
            let low = match at(kw + i) {
                Some(v) => b.shr(v, r),
                None => zero,
            };
            match at(kw + i + 1) {
                Some(h) => {
                    let h = b.shl(h, w - r);
                    b.or(low, h)
                }
                None => low,
            }
        };
        q.push(v);
    }
    let two_k = BigUint::one() << pm.k as usize;
    let umax = (&two_k - 1u32) + &q_max * &pm.c;
    let mut acc: Vec<Var> = s[..kw].to_vec();
    if r != 0 {
        let mask = b.constant((1u64 << r) - 1);
        let t = b.and(s[kw], mask);
        acc.push(t);
    }
    let c_limbs = pm.limbs(&pm.c);
    let bound = (&two_k / &pm.c) - 1u32;
    let q_bound = if bound.bits() > w as u64 {
        word_mask(w)
    } else {
        to_limbs(&bound, w, 1)[0]
    };
    // A wrap fold when its precondition holds; otherwise a plain fold that widens the value
    // by a limb, and another fold follows.
    if r == 0 && nq == 1 && umax >= two_k && b.range_max(&q)[0] <= q_bound {
        b.check_at_most(q[0], q_bound, "the quotient of a wrap fold (c·(q+1) ≤ 2^k)");
        acc.push(zero);
        mac_const(b, &mut acc, &q, &c_limbs, true);
        let e = acc.pop().expect("n + 1 limbs");
        b.check_at_most(e, 1, "the carry of a wrap fold");
        mac_const(b, &mut acc, &[e], &c_limbs, false);
        return (acc, &two_k - 1u32);
    }
    acc.resize(limbs_for(&umax, w).max(n), zero);
    mac_const(b, &mut acc, &q, &c_limbs, true);
    (acc, umax)
}

/// Reduces `s` (value at most `smax`) to a loose value: a word fold when s spans more than
/// n limbs, then folds at bit k until the bound is loose (at most four; the bounds pass
/// verifies the result).
pub fn reduce_to_loose(
    b: &mut Builder,
    fc: &FieldConsts,
    pm: &PseudoMersenne,
    s: Vec<Var>,
    smax: BigUint,
) -> Vec<Var> {
    let loose = pm.bounds(fc, Repr::Loose);
    let (mut s, mut smax) = (s, smax);
    // Each fold is sized by the bound range analysis proves (what the bounds pass will see),
    // not by the caller's arithmetic bound, so the two never disagree.
    let proven = |b: &Builder, s: &[Var], _smax: BigUint| pm.max_of(&b.range_max(s));
    let fits = |b: &Builder, s: &[Var]| {
        s.len() <= pm.n && b.range_max(s).iter().zip(&loose).all(|(x, l)| x <= l)
    };
    smax = proven(b, &s, smax);
    if s.len() > pm.n + 1 && !pm.k.is_multiple_of(pm.w) {
        (s, smax) = fold_at_word(b, pm, &s, &smax);
        smax = proven(b, &s, smax);
    }
    let mut folds = 0;
    while !fits(b, &s) && folds < 4 {
        (s, smax) = fold_at_k(b, pm, &s, &smax);
        smax = proven(b, &s, smax);
        folds += 1;
    }
    // Limbs above n that range analysis cannot prove zero make the output check fail.
    for &extra in &s[pm.n.min(s.len())..] {
        b.check_at_most(extra, 0, "a limb above the loose representation");
    }
    s.truncate(pm.n);
    s
}

/// Reduces the product `t` (value at most `tmax`) to the stored state and finishes.
pub(crate) fn finish_product(
    b: Builder,
    fc: &FieldConsts,
    pm: &PseudoMersenne,
    t: Vec<Var>,
    tmax: BigUint,
) -> Func {
    let mut b = b;
    let out = reduce_to_loose(&mut b, fc, pm, t, tmax);
    if pm.is_loose() {
        b.finish_with_bounds(out, pm.bounds(fc, Repr::Loose))
    } else {
        // Below 2^k < 2p: one conditional subtraction makes it tight.
        let zero = b.constant(0);
        let out = final_subtract(&mut b, fc, &out, zero);
        b.finish(out)
    }
}

/// a·b mod p, stored state in and out: full product (operand scanning), then the folds.
pub fn lower_mul(fc: &FieldConsts, pm: &PseudoMersenne) -> Func {
    let mut b = Builder::new(fc.w());
    let bounds = pm.bounds(fc, pm.stored());
    let x = b.input(bounds.clone());
    let y = b.input(bounds.clone());
    let t = mul_wide(&mut b, &x, &y);
    let m = pm.max_of(&bounds);
    finish_product(b, fc, pm, t, &m * &m)
}

/// a² mod p, stored state in and out: off-diagonal products once, doubled, plus the diagonal
/// (as in Montgomery squaring), then the folds.
pub fn lower_square(fc: &FieldConsts, pm: &PseudoMersenne) -> Func {
    let mut b = Builder::new(fc.w());
    let bounds = pm.bounds(fc, pm.stored());
    let x = b.input(bounds.clone());
    let t = super::square::square_wide(&mut b, &x);
    let m = pm.max_of(&bounds);
    finish_product(b, fc, pm, t, &m * &m)
}

/// a·k mod p for a one-word k ≤ [`super::SMALL_MAX`], stored state in and out: n one-word
/// products into n + 1 limbs, then the folds of a full product. Multiplication by a small
/// constant such as the ladder's a24 (RFC 7748 §5) at a fraction of a full product's cost.
pub fn lower_mul_small(fc: &FieldConsts, pm: &PseudoMersenne) -> Func {
    let mut b = Builder::new(fc.w());
    let bounds = pm.bounds(fc, pm.stored());
    let x = b.input(bounds.clone());
    let k = b.input(vec![super::SMALL_MAX]);
    let t = mul_wide(&mut b, &x, &k);
    let m = pm.max_of(&bounds);
    finish_product(b, fc, pm, t, &m * super::SMALL_MAX)
}

/// x + y as n+1 limbs (the carry on top).
fn add_wide(b: &mut Builder, x: &[Var], y: &[Var]) -> Vec<Var> {
    let zero = b.constant(0);
    let mut carry = zero;
    let mut s = Vec::with_capacity(x.len() + 1);
    for (xi, yi) in x.iter().zip(y) {
        let (si, cy) = b.add_carry(*xi, *yi, carry);
        s.push(si);
        carry = cy;
    }
    s.push(carry);
    s
}

/// 2p − x for a loose x (2p exceeds every loose value, so nothing borrows: an obligation).
fn two_p_minus(b: &mut Builder, fc: &FieldConsts, pm: &PseudoMersenne, x: &[Var]) -> Vec<Var> {
    let two_p = to_limbs(&(&fc.modulus << 1), pm.w, pm.n);
    let tp = b.constants(&two_p);
    let zero = b.constant(0);
    let mut borrow = zero;
    let mut d = Vec::with_capacity(pm.n);
    for (pi, xi) in tp.iter().zip(x) {
        let (di, bo) = b.sub_borrow(*pi, *xi, borrow);
        d.push(di);
        borrow = bo;
    }
    b.check_at_most(borrow, 0, "the borrow of 2p − x");
    d
}

/// a + b mod p, loose in and out (tight fields use [`super::addsub`]).
pub fn lower_add(fc: &FieldConsts, pm: &PseudoMersenne) -> Func {
    if !pm.is_loose() {
        return super::addsub::lower_add(fc);
    }
    let mut b = Builder::new(fc.w());
    let bounds = pm.bounds(fc, Repr::Loose);
    let x = b.input(bounds.clone());
    let y = b.input(bounds.clone());
    let s = add_wide(&mut b, &x, &y);
    let m = pm.max_of(&bounds);
    let out = reduce_to_loose(&mut b, fc, pm, s, &m + &m);
    b.finish_with_bounds(out, bounds)
}

/// 2a mod p, loose in and out (tight fields use [`super::addsub`]).
pub fn lower_double(fc: &FieldConsts, pm: &PseudoMersenne) -> Func {
    if !pm.is_loose() {
        return super::addsub::lower_double(fc);
    }
    let mut b = Builder::new(fc.w());
    let bounds = pm.bounds(fc, Repr::Loose);
    let x = b.input(bounds.clone());
    let s = add_wide(&mut b, &x, &x);
    let m = pm.max_of(&bounds);
    let out = reduce_to_loose(&mut b, fc, pm, s, &m + &m);
    b.finish_with_bounds(out, bounds)
}

/// a − b mod p as a + (2p − b), loose in and out (tight fields use [`super::addsub`]).
pub fn lower_sub(fc: &FieldConsts, pm: &PseudoMersenne) -> Func {
    if !pm.is_loose() {
        return super::addsub::lower_sub(fc);
    }
    let mut b = Builder::new(fc.w());
    let bounds = pm.bounds(fc, Repr::Loose);
    let x = b.input(bounds.clone());
    let y = b.input(bounds.clone());
    let d = two_p_minus(&mut b, fc, pm, &y);
    let s = add_wide(&mut b, &x, &d);
    let m = pm.max_of(&bounds);
    let smax = &m + (&fc.modulus << 1);
    let out = reduce_to_loose(&mut b, fc, pm, s, smax);
    b.finish_with_bounds(out, bounds)
}

/// −a mod p as 2p − a, loose in and out (tight fields use [`super::addsub`]).
pub fn lower_neg(fc: &FieldConsts, pm: &PseudoMersenne) -> Func {
    if !pm.is_loose() {
        return super::addsub::lower_neg(fc);
    }
    let mut b = Builder::new(fc.w());
    let bounds = pm.bounds(fc, Repr::Loose);
    let x = b.input(bounds.clone());
    let d = two_p_minus(&mut b, fc, pm, &x);
    let out = reduce_to_loose(&mut b, fc, pm, d, &fc.modulus << 1);
    b.finish_with_bounds(out, bounds)
}

/// The canonical value in [0, p) of a stored value: one conditional subtraction for a loose
/// value (below 2p), the identity for a tight one.
pub fn lower_canonical(fc: &FieldConsts, pm: &PseudoMersenne) -> Func {
    let mut b = Builder::new(fc.w());
    let x = b.input(pm.bounds(fc, pm.stored()));
    if !pm.is_loose() {
        return b.finish(x);
    }
    let zero = b.constant(0);
    let out = final_subtract(&mut b, fc, &x, zero);
    // Range analysis cannot see that the select picks the value below p: the oracle tests do.
    b.finish(out)
}
