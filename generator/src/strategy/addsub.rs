//! Modular addition, subtraction, negation and doubling with a constant-time final correction.

use super::{final_subtract, reduced_bounds};
use crate::ir::{Builder, Func, Var};
use crate::spec::FieldConsts;

/// a + b mod p.
pub fn lower_add(c: &FieldConsts) -> Func {
    let mut b = Builder::new(c.w());
    let x = b.input(reduced_bounds(c));
    let y = b.input(reduced_bounds(c));
    let out = add_body(&mut b, c, &x, &y);
    b.finish(out)
}

/// 2a mod p (the sum a + a; the optimiser sees both operands are equal limbs).
pub fn lower_double(c: &FieldConsts) -> Func {
    let mut b = Builder::new(c.w());
    let x = b.input(reduced_bounds(c));
    let out = add_body(&mut b, c, &x, &x);
    b.finish(out)
}

fn add_body(b: &mut Builder, c: &FieldConsts, x: &[Var], y: &[Var]) -> Vec<Var> {
    let zero = b.constant(0);
    let mut carry = zero;
    let mut s = Vec::with_capacity(x.len());
    for (xi, yi) in x.iter().zip(y) {
        let (si, cy) = b.add_carry(*xi, *yi, carry);
        s.push(si);
        carry = cy;
    }
    final_subtract(b, c, &s, carry)
}

/// a − b mod p: subtract, then add p back under a mask when the subtraction borrowed.
pub fn lower_sub(c: &FieldConsts) -> Func {
    let mut b = Builder::new(c.w());
    let x = b.input(reduced_bounds(c));
    let y = b.input(reduced_bounds(c));
    let zero = b.constant(0);
    let mut borrow = zero;
    let mut d = Vec::with_capacity(c.limbs);
    for (xi, yi) in x.iter().zip(&y) {
        let (di, bo) = b.sub_borrow(*xi, *yi, borrow);
        d.push(di);
        borrow = bo;
    }
    let out = add_modulus_if(&mut b, c, &d, borrow, zero);
    b.finish(out)
}

/// `t + p` where `bit` is 1 and `t` where it is 0, limb by limb under one mask (the carry out
/// of the top limb is dropped: callers add p back only to a value that borrowed below zero).
/// `zero` is the caller's constant 0.
pub fn add_modulus_if(
    b: &mut Builder,
    c: &FieldConsts,
    t: &[Var],
    bit: Var,
    zero: Var,
) -> Vec<Var> {
    let mask = b.mask(bit);
    let p = b.constants(&c.modulus_limbs);
    let mut carry = zero;
    let mut out = Vec::with_capacity(t.len());
    for (ti, pi) in t.iter().zip(&p) {
        let addend = b.and(*pi, mask);
        let (s, cy) = b.add_carry(*ti, addend, carry);
        out.push(s);
        carry = cy;
    }
    out
}

/// −a mod p: p − a, masked to zero when a = 0.
pub fn lower_neg(c: &FieldConsts) -> Func {
    let mut b = Builder::new(c.w());
    let x = b.input(reduced_bounds(c));
    let zero = b.constant(0);
    let p = b.constants(&c.modulus_limbs);
    let mut borrow = zero;
    let mut d = Vec::with_capacity(c.limbs);
    for (pi, xi) in p.iter().zip(&x) {
        let (di, bo) = b.sub_borrow(*pi, *xi, borrow);
        d.push(di);
        borrow = bo;
    }
    // nonzero = 1 unless every limb of a is 0: or the limbs, then (v | −v) >> (w−1).
    let mut acc = x[0];
    for xi in &x[1..] {
        acc = b.or(acc, *xi);
    }
    let (neg, _) = b.sub_borrow(zero, acc, zero);
    let either = b.or(acc, neg);
    let nonzero = b.shr(either, b.w() - 1);
    let mask = b.mask(nonzero);
    let out = d.iter().map(|di| b.and(*di, mask)).collect();
    b.finish(out)
}
