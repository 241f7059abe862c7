//! Montgomery squaring: the 2n-word square with each off-diagonal product computed once
//! (then doubled), followed by a separate word-by-word Montgomery reduction (SOS, Koç–Acar–Kaliski
//! 1996, §3).

use super::{final_subtract, reduced_bounds};
use crate::ir::{Builder, Func, Var};
use crate::spec::FieldConsts;

/// Lowers a·a·R⁻¹ mod p for an input in `[0, p)`.
pub fn lower_square(c: &FieldConsts) -> Func {
    let mut b = Builder::new(c.w());
    let x = b.input(reduced_bounds(c));
    let wide = square_wide(&mut b, &x);
    let out = montgomery_reduce(&mut b, c, &wide);
    b.finish(out)
}

/// The full 2n-word square of `x`.
pub fn square_wide(b: &mut Builder, x: &[Var]) -> Vec<Var> {
    let n = x.len();
    let w = b.w();
    let zero = b.constant(0);
    let mut r = vec![zero; 2 * n];
    // Off-diagonal products x[i]·x[j], i < j, each once.
    for i in 0..n.saturating_sub(1) {
        let mut carry = zero;
        for j in (i + 1)..n {
            let (lo, hi) = b.mul_add(x[i], x[j], r[i + j], carry);
            r[i + j] = lo;
            carry = hi;
        }
        r[i + n] = carry;
    }
    // Double: shift the 2n-word value left by one bit.
    if n > 1 {
        r[2 * n - 1] = b.shr(r[2 * n - 2], w - 1);
        for k in (1..2 * n - 1).rev() {
            let hi = b.shl(r[k], 1);
            let lo = b.shr(r[k - 1], w - 1);
            r[k] = b.or(hi, lo);
        }
        r[0] = b.shl(r[0], 1);
    }
    // Add the diagonal squares x[i]².
    let mut carry = zero;
    for i in 0..n {
        let (lo, hi) = b.mul_add(x[i], x[i], r[2 * i], carry);
        r[2 * i] = lo;
        let (s, cy) = b.add_carry(r[2 * i + 1], hi, zero);
        r[2 * i + 1] = s;
        carry = cy;
    }
    r
}

/// Montgomery reduction of a 2n-word value t < p·R: returns t·R⁻¹ mod p.
pub fn montgomery_reduce(b: &mut Builder, c: &FieldConsts, t: &[Var]) -> Vec<Var> {
    let n = c.limbs;
    assert_eq!(t.len(), 2 * n);
    let p = b.constants(&c.modulus_limbs);
    let n0 = b.constant(c.n0_inv);
    let zero = b.constant(0);
    let mut r = t.to_vec();
    let mut ext = zero; // carry bit above word i+n
    for i in 0..n {
        let m = b.mul_lo(r[i], n0);
        let mut carry = zero;
        for j in 0..n {
            let (lo, hi) = b.mul_add(m, p[j], r[i + j], carry);
            r[i + j] = lo;
            carry = hi;
        }
        let (s, cy) = b.add_carry(r[i + n], carry, ext);
        r[i + n] = s;
        ext = cy;
    }
    final_subtract(b, c, &r[n..], ext)
}
