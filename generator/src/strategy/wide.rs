//! Double-width ("lazy") Montgomery arithmetic: the 2n-word product and square without
//! reduction, the separate Montgomery reduction (SOS, Koç–Acar–Kaliski 1996, §3), and addition
//! and subtraction of 2n-word values modulo p·R.
//!
//! A double-width value T is an integer below p·R, R = 2^(w·n): the input bound of the
//! reduction, T·R⁻¹ mod p. Products of two values below p are below p² < p·R, and the
//! additions keep the bound by subtracting (or adding) p·R, a multiple of p, so a sum of
//! products reduces once to the sum of the reduced products (Scott, "Implementing
//! cryptographic pairings", 2007; mcl's `FpDbl`).
//!
//! The unreduced forms use the headroom between p² and p·R instead (Aranha, Karabina, Longa,
//! Gebotys, López, "Faster explicit formulas for computing pairings over ordinary curves",
//! EUROCRYPT 2011, §3–4): [`headroom`] products of values below p sum to less than p·R, so
//! such sums need no correction ([`lower_add_wide_unreduced`]), a difference known to be
//! non-negative none either ([`lower_sub_wide_unreduced`]), and with a spare bit the sum of two
//! values below p is a valid n-word operand of the exact schoolbook product
//! ([`lower_mul_wide_sums`], (a0 + a1)·(b0 + b1) < 4p²).

use super::{final_subtract, reduced_bounds, square};
use crate::ir::{word_mask, Builder, Func, Var};
use crate::spec::FieldConsts;

/// Limb bounds of a double-width value below p·R: every word full but the top one, which is
/// at most the top limb of p.
pub fn wide_bounds(c: &FieldConsts) -> Vec<u64> {
    let mut b = vec![word_mask(c.w()); 2 * c.limbs];
    b[2 * c.limbs - 1] = c.modulus_limbs[c.limbs - 1];
    b
}

/// The 2n-word product a·b of two values below p (schoolbook, one row per limb of b).
pub fn lower_mul_wide(c: &FieldConsts) -> Func {
    let mut b = Builder::new(c.w());
    let x = b.input(reduced_bounds(c));
    let y = b.input(reduced_bounds(c));
    let r = mul_wide(&mut b, &x, &y);
    b.finish(r)
}

/// Emits the full 2n-word product of the n-word `x` and `y` into `b` (schoolbook, one row per
/// limb of `y`, least significant word first). No carry is dropped: each row's carry is the
/// next word, exactly.
pub fn mul_wide(b: &mut Builder, x: &[Var], y: &[Var]) -> Vec<Var> {
    let n = x.len();
    assert_eq!(y.len(), n);
    let zero = b.constant(0);
    let mut r = vec![zero; 2 * n];
    for (i, yi) in y.iter().enumerate() {
        let mut carry = zero;
        for j in 0..n {
            let (lo, hi) = b.mul_add(x[j], *yi, r[i + j], carry);
            r[i + j] = lo;
            carry = hi;
        }
        r[i + n] = carry;
    }
    r
}

/// The 2n-word square a² of a value below p (off-diagonal products once).
pub fn lower_square_wide(c: &FieldConsts) -> Func {
    let mut b = Builder::new(c.w());
    let x = b.input(reduced_bounds(c));
    let r = square::square_wide(&mut b, &x);
    b.finish(r)
}

/// T·R⁻¹ mod p for T below p·R.
pub fn lower_reduce_wide(c: &FieldConsts) -> Func {
    let mut b = Builder::new(c.w());
    let t = b.input(wide_bounds(c));
    let out = square::montgomery_reduce(&mut b, c, &t);
    b.finish(out)
}

/// (a + b) mod p·R for a, b below p·R: the low n words add through; the high half is reduced
/// modulo p with the carry as its extra top word.
pub fn lower_add_wide(c: &FieldConsts) -> Func {
    let mut b = Builder::new(c.w());
    let x = b.input(wide_bounds(c));
    let y = b.input(wide_bounds(c));
    let zero = b.constant(0);
    let mut carry = zero;
    let mut s: Vec<Var> = Vec::with_capacity(2 * c.limbs);
    for (xi, yi) in x.iter().zip(&y) {
        let (si, cy) = b.add_carry(*xi, *yi, carry);
        s.push(si);
        carry = cy;
    }
    // s = lo + hi·R with hi + carry·R < 2p; subtracting p from hi subtracts p·R from s.
    let hi = final_subtract(&mut b, c, &s[c.limbs..], carry);
    let mut out = s[..c.limbs].to_vec();
    out.extend(hi);
    b.finish(out)
}

/// (a − b) mod p·R for a, b below p·R: subtract, and add p to the high half under a mask when
/// the subtraction borrowed.
pub fn lower_sub_wide(c: &FieldConsts) -> Func {
    let mut b = Builder::new(c.w());
    let x = b.input(wide_bounds(c));
    let y = b.input(wide_bounds(c));
    let zero = b.constant(0);
    let mut borrow = zero;
    let mut d = Vec::with_capacity(2 * c.limbs);
    for (xi, yi) in x.iter().zip(&y) {
        let (di, bo) = b.sub_borrow(*xi, *yi, borrow);
        d.push(di);
        borrow = bo;
    }
    let hi = super::addsub::add_modulus_if(&mut b, c, &d[c.limbs..], borrow, zero);
    d.truncate(c.limbs);
    d.extend(hi);
    b.finish(d)
}

/// The headroom of the double-width form: the largest k with k·(p − 1)² < p·R, i.e. how many
/// products of two values below p may be summed before the sum reaches the input bound of the
/// reduction (about R/p: 5 for BN254's p < 2^254 at R = 2^256), capped at `u32::MAX`.
pub fn headroom(c: &FieldConsts) -> u32 {
    let p = &c.modulus;
    let r = num_bigint::BigUint::from(1u32) << (c.w() as usize * c.limbs);
    let pm1 = p - 1u32;
    let k = (p * &r - 1u32) / (&pm1 * &pm1);
    u32::try_from(k).unwrap_or(u32::MAX)
}

/// Limb bounds of a value below 2p: every word full but the top one, at most twice the top
/// limb of p plus one (the sum of two values below p).
pub fn doubled_bounds(c: &FieldConsts) -> Vec<u64> {
    let mut b = vec![word_mask(c.w()); c.limbs];
    let top = 2 * u128::from(c.modulus_limbs[c.limbs - 1]) + 1;
    b[c.limbs - 1] = u64::try_from(top).unwrap_or(u64::MAX).min(word_mask(c.w()));
    b
}

/// a + b for a, b below p·R whose sum the caller keeps below p·R (by counting products
/// against [`headroom`]): the 2n words added with no correction. The carry out of the top word
/// is dropped, an obligation [`crate::pass::verify_bounds`] proves from the input bounds when
/// twice the top limb of p fits a word (p has a spare bit); without one the function is
/// refused and the modular [`lower_add_wide`] stands in.
pub fn lower_add_wide_unreduced(c: &FieldConsts) -> Func {
    let mut b = Builder::new(c.w());
    let x = b.input(wide_bounds(c));
    let y = b.input(wide_bounds(c));
    let zero = b.constant(0);
    let mut carry = zero;
    let mut s = Vec::with_capacity(2 * c.limbs);
    for (xi, yi) in x.iter().zip(&y) {
        let (si, cy) = b.add_carry(*xi, *yi, carry);
        s.push(si);
        carry = cy;
    }
    b.check_at_most(carry, 0, "the carry out of an unreduced double-width sum");
    b.finish(s)
}

/// a − b for a ≥ b (the caller's precondition, e.g. a Karatsuba middle term a0·b1 + a1·b0
/// computed as (a0 + a1)(b0 + b1) − a0·b0 − a1·b1): the 2n words subtracted with no
/// correction; the final borrow, zero under the precondition, is not computed.
pub fn lower_sub_wide_unreduced(c: &FieldConsts) -> Func {
    let mut b = Builder::new(c.w());
    let x = b.input(wide_bounds(c));
    let y = b.input(wide_bounds(c));
    let zero = b.constant(0);
    let mut borrow = zero;
    let mut d = Vec::with_capacity(2 * c.limbs);
    for (xi, yi) in x.iter().zip(&y) {
        let (di, bo) = b.sub_borrow(*xi, *yi, borrow);
        d.push(di);
        borrow = bo;
    }
    b.finish(d)
}

/// a + b for a, b below p, not reduced: n words below 2p, the operand of an exact schoolbook
/// product. The carry out of the top word is dropped, an obligation proved when p has a spare
/// bit (the output bounds, [`doubled_bounds`], are checked too).
pub fn lower_add_unreduced(c: &FieldConsts) -> Func {
    let mut b = Builder::new(c.w());
    let x = b.input(reduced_bounds(c));
    let y = b.input(reduced_bounds(c));
    let s = sum_unreduced(&mut b, &x, &y);
    b.finish_with_bounds(s, doubled_bounds(c))
}

fn sum_unreduced(b: &mut Builder, x: &[Var], y: &[Var]) -> Vec<Var> {
    let zero = b.constant(0);
    let mut carry = zero;
    let mut s = Vec::with_capacity(x.len());
    for (xi, yi) in x.iter().zip(y) {
        let (si, cy) = b.add_carry(*xi, *yi, carry);
        s.push(si);
        carry = cy;
    }
    b.check_at_most(carry, 0, "the carry out of the sum of two values below p");
    s
}

/// (a0 + a1)·(b0 + b1) for a0, a1, b0, b1 below p: both sums unreduced (below 2p, see
/// [`lower_add_unreduced`]) and their exact 2n-word product, below 4p² (below p·R when
/// [`headroom`] is at least 4).
pub fn lower_mul_wide_sums(c: &FieldConsts) -> Func {
    let mut b = Builder::new(c.w());
    let a0 = b.input(reduced_bounds(c));
    let a1 = b.input(reduced_bounds(c));
    let b0 = b.input(reduced_bounds(c));
    let b1 = b.input(reduced_bounds(c));
    let s = sum_unreduced(&mut b, &a0, &a1);
    let t = sum_unreduced(&mut b, &b0, &b1);
    let r = mul_wide(&mut b, &s, &t);
    b.finish(r)
}

/// The 2n-word product of two n-word values below 2p (the unreduced sums of
/// [`lower_add_unreduced`]): the schoolbook product is exact for any n-word operands, and the
/// stated input bounds ([`doubled_bounds`]) are what [`crate::pass::verify_bounds`] checks it
/// under.
pub fn lower_mul_wide_doubled(c: &FieldConsts) -> Func {
    let mut b = Builder::new(c.w());
    let x = b.input(doubled_bounds(c));
    let y = b.input(doubled_bounds(c));
    let r = mul_wide(&mut b, &x, &y);
    b.finish(r)
}
