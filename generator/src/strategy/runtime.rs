//! Montgomery reduction for a modulus known only at run time (RSA): the limbs of p and
//! n0' = −p⁻¹ mod 2^w are IR inputs, not constants, so nothing folds, and p may use every bit
//! of its top limb (no spare bits are assumed).
//!
//! Reduction is separated from the product (SOS, Koç–Acar–Kaliski 1996, §3) so the product can
//! be Comba or Karatsuba ([`super::karatsuba`]). Two shapes: [`lower_redc`] is the whole
//! reduction straight-line; [`lower_redc_row`] is one word of it, which emitted code runs in a
//! loop for large n to keep code size linear.

use crate::ir::{word_mask, Builder, Func, Var};

/// Given t (n words) plus a top word `top` with t + top·2^(wn) < 2p, returns t mod p by one
/// constant-time conditional subtraction of the runtime modulus `p`.
pub fn final_subtract_runtime(b: &mut Builder, t: &[Var], top: Var, p: &[Var]) -> Vec<Var> {
    let zero = b.constant(0);
    let mut borrow = zero;
    let mut d = Vec::with_capacity(t.len());
    for (ti, pi) in t.iter().zip(p) {
        let (di, bo) = b.sub_borrow(*ti, *pi, borrow);
        d.push(di);
        borrow = bo;
    }
    let (_, keep) = b.sub_borrow(top, zero, borrow);
    let mask = b.mask(keep);
    t.iter()
        .zip(&d)
        .map(|(ti, di)| b.select(mask, *di, *ti))
        .collect()
}

/// Montgomery reduction of a 2n-word t < p·R: inputs t (2n words), p (n words, odd), n0' (one
/// word); returns t·R⁻¹ mod p (n words), R = 2^(wn).
pub fn lower_redc(w: u32, n: usize) -> Func {
    let mut b = Builder::new(w);
    let full = word_mask(w);
    let t = b.input(vec![full; 2 * n]);
    let p = b.input(vec![full; n]);
    let n0 = b.input(vec![full])[0];
    let zero = b.constant(0);
    let mut r = t.clone();
    let mut ext = zero;
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
    let out = final_subtract_runtime(&mut b, &r[n..], ext, &p);
    b.finish(out)
}

/// One word of Montgomery reduction: inputs the window t\[i..i+n\] (n words), `top` = [t\[i+n\],
/// ext] (ext the carry bit above word i+n), p (n words) and n0' (one word). With
/// m = t\[i\]·n0' mod 2^w, returns the n + 1 words t\[i+1..i+n+1\] of t + m·p·2^(wi) followed by the
/// new carry bit (word i is zero by the choice of m and is dropped).
pub fn lower_redc_row(w: u32, n: usize) -> Func {
    let mut b = Builder::new(w);
    let full = word_mask(w);
    let win = b.input(vec![full; n]);
    let top = b.input(vec![full, 1]);
    let p = b.input(vec![full; n]);
    let n0 = b.input(vec![full])[0];
    let zero = b.constant(0);
    let m = b.mul_lo(win[0], n0);
    let (_, mut carry) = b.mul_add(m, p[0], win[0], zero);
    let mut out = Vec::with_capacity(n + 1);
    for j in 1..n {
        let (lo, hi) = b.mul_add(m, p[j], win[j], carry);
        out.push(lo);
        carry = hi;
    }
    let (s, cy) = b.add_carry(top[0], carry, top[1]);
    out.push(s);
    out.push(cy);
    b.finish(out)
}

/// The final step after [`lower_redc_row`] ran n times: inputs the high half (n words), the
/// carry bit above it and p; returns the value mod p.
pub fn lower_redc_finish(w: u32, n: usize) -> Func {
    let mut b = Builder::new(w);
    let full = word_mask(w);
    let t = b.input(vec![full; n]);
    let top = b.input(vec![1])[0];
    let p = b.input(vec![full; n]);
    let out = final_subtract_runtime(&mut b, &t, top, &p);
    b.finish(out)
}
