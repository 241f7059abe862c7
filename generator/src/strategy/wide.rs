//! Double-width ("lazy") Montgomery arithmetic: the 2n-word product and square without
//! reduction, the separate Montgomery reduction (SOS, Koç–Acar–Kaliski 1996, §3), and addition
//! and subtraction of 2n-word values modulo p·R.
//!
//! A double-width value T is an integer below p·R, R = 2^(w·n): the input bound of the
//! reduction, T·R⁻¹ mod p. Products of two values below p are below p² < p·R, and the
//! additions keep the bound by subtracting (or adding) p·R, a multiple of p, so a sum of
//! products reduces once to the sum of the reduced products (Scott, "Implementing
//! cryptographic pairings", 2007; mcl's `FpDbl`).

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
