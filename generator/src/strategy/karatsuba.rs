//! Multi-precision products for large operands: Comba (product scanning) leaves and the
//! combination step of subtractive Karatsuba, as straight-line IR over 64- or 32-bit words.
//!
//! A product of n-limb operands is split in halves until the halves are at most a leaf size
//! (the Karatsuba threshold, measured: see `docs/ARCHITECTURE.md`); the leaves are straight-line
//! Comba products and the levels above them call three half-size products and combine them.
//! The recursion itself is emitted as Rust calls ([`crate::rsa`]); this module writes the
//! straight-line pieces, each checked through the interpreter against num-bigint.
//!
//! Subtractive Karatsuba (Karatsuba and Ofman 1962; the signed-difference form of Knuth, TAOCP
//! vol. 2, §4.3.3): with a = a0 + a1·X, b = b0 + b1·X,
//! a·b = z0 + (z0 + z2 + (a0 − a1)(b1 − b0))·X + z2·X², z0 = a0·b0, z2 = a1·b1. The differences
//! are taken as magnitude and sign, so the middle product has half-size operands with no carry
//! bit, and the sign is applied with masks: no branch depends on the data.

use crate::ir::{word_mask, Builder, Func, Var};

/// Three-word column accumulator of product scanning (here and in
/// [`super::montgomery`]'s product scanning).
pub(super) struct Acc {
    pub(super) t0: Var,
    pub(super) t1: Var,
    pub(super) t2: Var,
}

impl Acc {
    /// Adds the double word (lo, hi) plus nothing else; t2 never wraps (column sums are below
    /// 2^(3w) for every size this module is used with).
    pub(super) fn add2(&mut self, b: &mut Builder, zero: Var, lo: Var, hi: Var) {
        let (s, cy) = b.add_carry(self.t0, lo, zero);
        self.t0 = s;
        let (s, cy) = b.add_carry(self.t1, hi, cy);
        self.t1 = s;
        let (s, _) = b.add_carry(self.t2, zero, cy);
        self.t2 = s;
    }

    pub(super) fn add_product(&mut self, b: &mut Builder, zero: Var, u: Var, v: Var) {
        let (lo, hi) = b.mul_add(u, v, self.t0, zero);
        self.t0 = lo;
        let (s, cy) = b.add_carry(self.t1, hi, zero);
        self.t1 = s;
        let (s, _) = b.add_carry(self.t2, cy, zero);
        self.t2 = s;
    }

    pub(super) fn shift(&mut self, zero: Var) -> Var {
        let out = self.t0;
        self.t0 = self.t1;
        self.t1 = self.t2;
        self.t2 = zero;
        out
    }
}

/// The full 2k-limb product of two k-limb inputs by product scanning (Comba 1990): column by
/// column, each column's products summed in a three-word accumulator.
pub fn lower_comba_mul(w: u32, k: usize) -> Func {
    let mut b = Builder::new(w);
    let full = word_mask(w);
    let x = b.input(vec![full; k]);
    let y = b.input(vec![full; k]);
    let zero = b.constant(0);
    let mut acc = Acc {
        t0: zero,
        t1: zero,
        t2: zero,
    };
    let mut out = Vec::with_capacity(2 * k);
    for col in 0..2 * k - 1 {
        let lo = col.saturating_sub(k - 1);
        for i in lo..=col.min(k - 1) {
            acc.add_product(&mut b, zero, x[i], y[col - i]);
        }
        out.push(acc.shift(zero));
    }
    out.push(acc.t0);
    b.finish(out)
}

/// The full 2k-limb square of a k-limb input by product scanning: in each column the
/// off-diagonal products a\[i\]·a\[j\], i < j, are summed once in a column accumulator, doubled,
/// and the diagonal square added, then the column joins the running carry.
pub fn lower_comba_square(w: u32, k: usize) -> Func {
    let mut b = Builder::new(w);
    let x = b.input(vec![word_mask(w); k]);
    let zero = b.constant(0);
    let mut carry = Acc {
        t0: zero,
        t1: zero,
        t2: zero,
    };
    let mut out = Vec::with_capacity(2 * k);
    for col in 0..2 * k - 1 {
        let lo = col.saturating_sub(k - 1);
        let mut u = Acc {
            t0: zero,
            t1: zero,
            t2: zero,
        };
        let mut i = lo;
        while i < col - i {
            u.add_product(&mut b, zero, x[i], x[col - i]);
            i += 1;
        }
        // u = 2u (at most 3 words: the column sum is far below 2^(3w - 1)).
        let (s0, c0) = b.add_carry(u.t0, u.t0, zero);
        let (s1, c1) = b.add_carry(u.t1, u.t1, c0);
        let (s2, _) = b.add_carry(u.t2, u.t2, c1);
        u = Acc {
            t0: s0,
            t1: s1,
            t2: s2,
        };
        if col % 2 == 0 {
            u.add_product(&mut b, zero, x[col / 2], x[col / 2]);
        }
        carry.add2(&mut b, zero, u.t0, u.t1);
        let (s, _) = b.add_carry(carry.t2, u.t2, zero);
        carry.t2 = s;
        out.push(carry.shift(zero));
    }
    out.push(carry.t0);
    b.finish(out)
}

/// |x − y| of two h-limb inputs and the sign: returns h + 1 words, the magnitude then a mask
/// (all ones when x < y, else zero). Constant time: the negation is `(d ^ mask) + (mask & 1)`.
pub fn lower_sub_abs(w: u32, h: usize) -> Func {
    let mut b = Builder::new(w);
    let full = word_mask(w);
    let x = b.input(vec![full; h]);
    let y = b.input(vec![full; h]);
    let zero = b.constant(0);
    let one = b.constant(1);
    let mut borrow = zero;
    let mut d = Vec::with_capacity(h);
    for j in 0..h {
        let (dj, bo) = b.sub_borrow(x[j], y[j], borrow);
        d.push(dj);
        borrow = bo;
    }
    let mask = b.mask(borrow);
    let mut carry = b.and(mask, one);
    let mut out = Vec::with_capacity(h + 1);
    for dj in d {
        let f = b.xor(dj, mask);
        let (s, cy) = b.add_carry(f, zero, carry);
        out.push(s);
        carry = cy;
    }
    out.push(mask);
    b.finish(out)
}

/// The Karatsuba combination for m = 2h limbs: inputs z0 = a0·b0, z2 = a1·b1 and z1 = the
/// magnitude of (a0 − a1)(b1 − b0) (2h limbs each) and `neg` (one word: all ones when that
/// product is negative, else zero); returns the 4h-limb product
/// z0 + (z0 + z2 ± z1)·X + z2·X², X = 2^(w·h).
pub fn lower_karatsuba_combine(w: u32, h: usize) -> Func {
    let mut b = Builder::new(w);
    let full = word_mask(w);
    let z0 = b.input(vec![full; 2 * h]);
    let z2 = b.input(vec![full; 2 * h]);
    let z1 = b.input(vec![full; 2 * h]);
    let neg = b.input(vec![full])[0];
    let zero = b.constant(0);
    let one = b.constant(1);
    // s = z0 + z2, 2h words and a carry bit.
    let mut s = Vec::with_capacity(2 * h + 1);
    let mut cy = zero;
    for j in 0..2 * h {
        let (v, c) = b.add_carry(z0[j], z2[j], cy);
        s.push(v);
        cy = c;
    }
    s.push(cy);
    // middle = s + (z1 ^ neg, sign-extended) + (neg & 1), modulo 2^(w(2h+1)): the two's
    // complement of z1 when neg. The true middle a0·b1 + a1·b0 is non-negative and fits.
    let mut carry = b.and(neg, one);
    let mut mid = Vec::with_capacity(2 * h + 1);
    for j in 0..=2 * h {
        let t = if j < 2 * h { b.xor(z1[j], neg) } else { neg };
        let (v, c) = b.add_carry(s[j], t, carry);
        mid.push(v);
        carry = c;
    }
    // r = z0 + z2·X² + middle·X.
    let mut r: Vec<Var> = z0.iter().chain(z2.iter()).copied().collect();
    let mut carry = zero;
    for j in 0..=2 * h {
        let (v, c) = b.add_carry(r[h + j], mid[j], carry);
        r[h + j] = v;
        carry = c;
    }
    for rj in r.iter_mut().skip(3 * h + 1) {
        let (v, c) = b.add_carry(*rj, zero, carry);
        *rj = v;
        carry = c;
    }
    b.finish(r)
}

/// The operand sizes of the recursion for n limbs and a leaf threshold: halving n while it is
/// above the threshold and even. The last entry is the leaf size.
pub fn levels(n: usize, threshold: usize) -> Vec<usize> {
    let mut v = vec![n];
    let mut m = n;
    while m > threshold && m.is_multiple_of(2) {
        m /= 2;
        v.push(m);
    }
    v
}
