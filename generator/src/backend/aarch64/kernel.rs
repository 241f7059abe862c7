//! Montgomery multiplication and squaring as AArch64 kernels: CIOS (Koç, Acar, Kaliski,
//! "Analyzing and comparing Montgomery multiplication algorithms", IEEE Micro 1996), one row per
//! limb of the first operand, each row a product pass and a reduction pass. `mul`/`umulh` leave
//! the flags alone, so every pass is two carry chains on C (`adds`/`adcs`): the low words of the
//! products, then the high words one position up, each product computed right before the
//! addition that consumes it (two live temporaries at most).
//!
//! Carry words come from value bounds, as in the x86-64 kernels: between rows t < 2p; with a
//! spare bit (2p < R) t fits n words and a product pass needs one word above it; without one, t
//! keeps a carry bit at word n and the product pass a bit at word n + 1. The low word of the
//! reduction, t\[0\] + lo(m·p\[0\]), is 0 by the choice of m, so only its carry is needed: it is 1
//! exactly when t\[0\] ≠ 0 (`cmp t0, #1`), and `mul m, p[0]` is skipped. Limbs of p equal to 0
//! skip their products, n0' = 1 skips the quotient multiplication.
//!
//! The squaring kernel is the same CIOS with both operands a, whose limbs are loaded once.
//!
//! Operand and modulus limbs stay in registers as long as the register file allows
//! ([`residency`]); the others are loaded where they are used.

use super::inst::{AluOp, Opnd, V};
use super::program::{Builder, Input, VProgram};
use crate::spec::FieldConsts;

/// How many limbs of the second operand (`b`) and how many non-zero limbs of p are loaded once
/// into registers; the rest are loaded at each use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Residency {
    /// Leading limbs of b kept in registers.
    pub b: usize,
    /// Leading non-zero limbs of p kept in registers.
    pub p: usize,
}

/// Every residency for `c`, most registers first: the allocator takes the first that fits.
pub fn residency(c: &FieldConsts) -> Vec<Residency> {
    let n = c.limbs;
    let nz = c.modulus_limbs.iter().filter(|l| **l != 0).count();
    let mut v = Vec::new();
    for b in (0..=n).rev() {
        for p in (0..=nz).rev() {
            v.push(Residency { b, p });
        }
    }
    v
}

/// The chain operation for one position: carry in unless it is the first of a chain without
/// one, carry out unless it is the last of a chain whose carry is not needed.
fn add_op(carry_in: bool, carry_out: bool) -> AluOp {
    match (carry_in, carry_out) {
        (false, false) => AluOp::Add,
        (false, true) => AluOp::Adds,
        (true, false) => AluOp::Adc,
        (true, true) => AluOp::Adcs,
    }
}

/// Limbs of one array: in registers (`Some`) or loaded from the pointer at each use.
struct Limbs {
    ptr: V,
    regs: Vec<Option<V>>,
}

impl Limbs {
    /// Loads the limbs `keep` selects, pairs with `ldp`.
    fn load(b: &mut Builder, ptr: V, keep: &[bool]) -> Limbs {
        let mut regs = vec![None; keep.len()];
        let mut j = 0;
        while j < keep.len() {
            if keep[j] && j + 1 < keep.len() && keep[j + 1] {
                let [x, y] = b.ldp(ptr, j);
                regs[j] = Some(x);
                regs[j + 1] = Some(y);
                j += 2;
            } else {
                if keep[j] {
                    regs[j] = Some(b.ldr(ptr, j));
                }
                j += 1;
            }
        }
        Limbs { ptr, regs }
    }

    fn get(&self, b: &mut Builder, j: usize) -> V {
        match self.regs[j] {
            Some(v) => v,
            None => b.ldr(self.ptr, j),
        }
    }
}

struct Kernel<'a> {
    b: Builder,
    c: &'a FieldConsts,
    p: Limbs,
    n0: Option<V>,
}

impl Kernel<'_> {
    /// p\[j\] as an operand (`xzr` when it is 0).
    fn p_opnd(&mut self, j: usize) -> Opnd<V> {
        if self.c.modulus_limbs[j] == 0 {
            Opnd::Zero
        } else {
            Opnd::Reg(self.p.get(&mut self.b, j))
        }
    }

    /// One reduction pass: t (n + 1 words, or n + 2 with a bit on top) + m·p, shifted down one
    /// word. Returns n words, plus a bit word when `need_bit`. `extra` (a bit, only with n + 1
    /// words) is added at position n by the first chain, for free.
    // Word indices follow the schoolbook layout of the formulas.
    #[allow(clippy::needless_range_loop)]
    fn reduce(&mut self, mut t: Vec<V>, need_bit: bool, extra: Option<V>) -> Vec<V> {
        let n = self.c.limbs;
        let b = &mut self.b;
        let m = match self.n0 {
            Some(n0) => b.mul(t[0], n0),
            None => t[0],
        };
        // Chain 1: the low words m·p[j] at position j; position 0 contributes only its carry.
        self.b.cmp_one(t[0]);
        for j in 1..n {
            let lo = match self.p_opnd(j) {
                Opnd::Reg(pj) => Opnd::Reg(self.b.mul(m, pj)),
                Opnd::Zero => Opnd::Zero,
            };
            t[j] = self.b.alu(AluOp::Adcs, Opnd::Reg(t[j]), lo);
        }
        let has_bit = t.len() == n + 2;
        let last_n = !has_bit && !need_bit;
        let x = extra.map_or(Opnd::Zero, Opnd::Reg);
        t[n] = self.b.alu(add_op(true, !last_n), Opnd::Reg(t[n]), x);
        if has_bit {
            t[n + 1] = self.b.alu(AluOp::Adc, Opnd::Reg(t[n + 1]), Opnd::Zero);
        } else if need_bit {
            let bit = self.b.cset();
            t.push(bit);
        }
        // Chain 2: the high words m·p[j − 1] at position j.
        let top = t.len() == n + 2;
        for j in 1..=n {
            let hi = match self.p_opnd(j - 1) {
                Opnd::Reg(pj) => Opnd::Reg(self.b.umulh(m, pj)),
                Opnd::Zero => Opnd::Zero,
            };
            let last = j == n && !top;
            t[j] = self.b.alu(add_op(j > 1, !last), Opnd::Reg(t[j]), hi);
        }
        if top {
            t[n + 1] = self.b.alu(AluOp::Adc, Opnd::Reg(t[n + 1]), Opnd::Zero);
        }
        t.remove(0);
        t
    }

    /// t mod p for t (n words, plus a bit word when p has no spare bit) below 2p: d = t − p with
    /// a borrow chain, then `csel` keeps d where there was no borrow.
    fn final_subtract(&mut self, t: &[V]) -> Vec<V> {
        let n = self.c.limbs;
        let mut d = Vec::with_capacity(n);
        for (j, &tj) in t.iter().enumerate().take(n) {
            let pj = self.p_opnd(j);
            let op = if j == 0 { AluOp::Subs } else { AluOp::Sbcs };
            d.push(self.b.alu(op, Opnd::Reg(tj), pj));
        }
        if let Some(&bit) = t.get(n) {
            self.b.alu_flags(AluOp::Sbcs, Opnd::Reg(bit), Opnd::Zero);
        }
        d.iter()
            .zip(t)
            .map(|(&dj, &tj)| self.b.csel(dj, tj))
            .collect()
    }
}

/// The CIOS kernel for the modulus of `c` (64-bit limbs): a·b·R⁻¹ mod p, or a²·R⁻¹ mod p when
/// `square` (one operand pointer).
// Word indices follow the schoolbook layout of the formulas.
#[allow(clippy::needless_range_loop)]
pub fn kernel(c: &FieldConsts, res: Residency, square: bool) -> VProgram {
    assert_eq!(c.w(), 64, "the aarch64 kernels use 64-bit limbs");
    let n = c.limbs;
    let full = c.spare_bits == 0;
    let mut b = Builder::new();
    let a_ptr = b.input(Input::Operand(0));
    let b_ptr = if square {
        a_ptr
    } else {
        b.input(Input::Operand(1))
    };
    let p_ptr = b.input(Input::Modulus);
    let n0 = (c.n0_inv != 1).then(|| b.input(Input::N0));
    let keep_b: Vec<bool> = (0..n).map(|j| j < res.b).collect();
    let mut nonzero_seen = 0;
    let keep_p: Vec<bool> = c
        .modulus_limbs
        .iter()
        .map(|&l| {
            let keep = l != 0 && nonzero_seen < res.p;
            nonzero_seen += usize::from(l != 0);
            keep
        })
        .collect();
    let ops = Limbs::load(&mut b, b_ptr, &keep_b);
    let p = Limbs::load(&mut b, p_ptr, &keep_p);
    let mut k = Kernel { b, c, p, n0 };

    // Limbs of a: from the resident limbs of b when squaring, else loaded in pairs.
    let mut a_pair: Option<V> = None;
    let mut a_limb = |k: &mut Kernel, i: usize| -> V {
        if square {
            return ops.get(&mut k.b, i);
        }
        if i % 2 == 1 {
            if let Some(v) = a_pair.take() {
                return v;
            }
        }
        if i.is_multiple_of(2) && i + 1 < n {
            let [x, y] = k.b.ldp(a_ptr, i);
            a_pair = Some(y);
            x
        } else {
            k.b.ldr(a_ptr, i)
        }
    };

    // Row 0: t = a[0]·b, n + 1 words.
    let a0 = a_limb(&mut k, 0);
    let mut t: Vec<V> = Vec::with_capacity(n + 2);
    let mut hi_prev: Option<V> = None;
    for j in 0..n {
        let bj = ops.get(&mut k.b, j);
        let lo = k.b.mul(a0, bj);
        match hi_prev {
            None => t.push(lo),
            Some(h) => t.push(k.b.alu(add_op(j > 1, true), Opnd::Reg(lo), Opnd::Reg(h))),
        }
        hi_prev = Some(k.b.umulh(a0, bj));
    }
    let h = hi_prev.expect("n ≥ 1");
    t.push(if n > 1 {
        k.b.alu(AluOp::Adc, Opnd::Reg(h), Opnd::Zero)
    } else {
        h
    });
    let mut t = k.reduce(t, full, None);

    for i in 1..n {
        let ai = a_limb(&mut k, i);
        // Chain 1: low words at positions 0..n, carry into word n.
        for j in 0..n {
            let bj = ops.get(&mut k.b, j);
            let lo = k.b.mul(ai, bj);
            t[j] = k.b.alu(add_op(j > 0, true), Opnd::Reg(t[j]), Opnd::Reg(lo));
        }
        if full {
            t[n] = k.b.alu(AluOp::Adc, Opnd::Reg(t[n]), Opnd::Zero);
        } else {
            let c1 = k.b.cset();
            t.push(c1);
        }
        // Chain 2: high words at positions 1..=n (and a bit at n + 1 without a spare bit).
        for j in 1..=n {
            let bj = ops.get(&mut k.b, j - 1);
            let hi = k.b.umulh(ai, bj);
            let last = j == n && !full;
            t[j] =
                k.b.alu(add_op(j > 1, !last), Opnd::Reg(t[j]), Opnd::Reg(hi));
        }
        if full {
            let c2 = k.b.cset();
            t.push(c2);
        }
        t = k.reduce(t, full, None);
    }
    let out = k.final_subtract(&t);
    k.b.finish(out)
}

/// The dedicated squaring kernel (SOS: Koç, Acar, Kaliski 1996, "separated operand scanning"):
/// a² as 2n words with each off-diagonal product a\[i\]·a\[j\] (i < j) computed once, doubled by an
/// `adds`/`adcs` chain and completed with the squares a\[i\]² on the diagonal; then n reduction
/// steps, each the CIOS reduction pass over the n words of the accumulator and the next high word
/// of a² at position n, with the accumulator's top bit added by the pass's first carry chain,
/// so no separate carry propagation is needed (between steps the accumulator is below
/// 2^(64n) + p, n words and a bit). The limbs of a are loaded once; p's
/// resident limbs (`res.p`) are loaded after the product, when a's registers are free.
pub fn square_sos(c: &FieldConsts, res: Residency) -> VProgram {
    assert_eq!(c.w(), 64, "the aarch64 kernels use 64-bit limbs");
    let n = c.limbs;
    let full = c.spare_bits == 0;
    let mut b = Builder::new();
    let a_ptr = b.input(Input::Operand(0));
    let p_ptr = b.input(Input::Modulus);
    let n0 = (c.n0_inv != 1).then(|| b.input(Input::N0));
    let a = Limbs::load(&mut b, a_ptr, &vec![true; n]);
    let a: Vec<V> = (0..n)
        .map(|j| a.regs[j].expect("every limb loaded"))
        .collect();

    // The product a² in 2n words, t[k] at position k.
    let mut t: Vec<V> = Vec::with_capacity(2 * n);
    if n == 1 {
        t.push(b.mul(a[0], a[0]));
        t.push(b.umulh(a[0], a[0]));
    } else {
        // Off-diagonal row 0: a[0]·(a[1..n]) at positions 1..=n.
        let mut off: Vec<Option<V>> = vec![None; 2 * n];
        let mut hi_prev: Option<V> = None;
        for j in 1..n {
            let lo = b.mul(a[0], a[j]);
            off[j] = Some(match hi_prev {
                None => lo,
                Some(h) => b.alu(add_op(j > 2, true), Opnd::Reg(lo), Opnd::Reg(h)),
            });
            hi_prev = Some(b.umulh(a[0], a[j]));
        }
        let h = hi_prev.expect("n ≥ 2");
        off[n] = Some(if n > 2 {
            b.alu(AluOp::Adc, Opnd::Reg(h), Opnd::Zero)
        } else {
            h
        });
        // Rows i = 1..n−1: a[i]·a[j], j > i, at positions 2i + 1..=i + n; the row before
        // reaches position i + n − 1, so chain 1's carry starts position i + n.
        for i in 1..n - 1 {
            for j in i + 1..n {
                let lo = b.mul(a[i], a[j]);
                let cur = off[i + j].expect("written by the row before");
                off[i + j] = Some(b.alu(add_op(j > i + 1, true), Opnd::Reg(cur), Opnd::Reg(lo)));
            }
            off[i + n] = Some(b.cset());
            for j in i + 1..n {
                let hi = b.umulh(a[i], a[j]);
                let cur = off[i + j + 1].expect("written above");
                let last = j + 1 == n;
                off[i + j + 1] =
                    Some(b.alu(add_op(j > i + 1, !last), Opnd::Reg(cur), Opnd::Reg(hi)));
            }
        }
        // Double positions 1..=2n − 2 (the top carry is position 2n − 1), then add the squares.
        let mut dbl: Vec<V> = Vec::with_capacity(2 * n);
        for (k, w) in off.iter().enumerate().take(2 * n - 1).skip(1) {
            let w = w.expect("positions 1..=2n − 2 are written");
            dbl.push(b.alu(add_op(k > 1, true), Opnd::Reg(w), Opnd::Reg(w)));
        }
        let top = b.cset();
        dbl.push(top);
        t.push(b.mul(a[0], a[0]));
        for (k, &w) in dbl.iter().enumerate() {
            let pos = k + 1;
            let i = pos / 2;
            let sq = if pos % 2 == 1 {
                b.umulh(a[i], a[i])
            } else {
                b.mul(a[i], a[i])
            };
            let last = pos == 2 * n - 1;
            t.push(b.alu(add_op(pos > 1, !last), Opnd::Reg(w), Opnd::Reg(sq)));
        }
    }

    // Reduction: n CIOS reduction passes over a sliding window.
    let mut nonzero_seen = 0;
    let keep_p: Vec<bool> = c
        .modulus_limbs
        .iter()
        .map(|&l| {
            let keep = l != 0 && nonzero_seen < res.p;
            nonzero_seen += usize::from(l != 0);
            keep
        })
        .collect();
    let p = Limbs::load(&mut b, p_ptr, &keep_p);
    let mut k = Kernel { b, c, p, n0 };
    let high = t.split_off(n);
    let mut acc = t;
    let mut bit: Option<V> = None;
    for (i, h) in high.into_iter().enumerate() {
        acc.push(h);
        let last = i + 1 == n;
        acc = k.reduce(acc, !last || full, bit);
        bit = if acc.len() > n { acc.pop() } else { None };
    }
    if let Some(b) = bit {
        acc.push(b);
    }
    let out = k.final_subtract(&acc);
    k.b.finish(out)
}
