//! Unsaturated-radix arithmetic for p = 2^k − c with a small c: m limbs of about k/m bits in
//! w-bit words, so that products of limbs and column sums leave headroom and carries are
//! propagated only once per multiplication (Bernstein, "Curve25519: new Diffie-Hellman speed
//! records", PKC 2006, §4 (radix 2^25.5); the 5 × 51-bit layout of curve25519-donna-64; the
//! mixed-radix bounds discipline of Erbsen, Philipoom, Gross, Sloan, Chlipala, "Simple
//! High-Level Code For Cryptographic Arithmetic — With Proofs, Without Compromises", IEEE S&P
//! 2019, §4). The IR is the same word-level SSA as every other lowering: a column sum is a
//! pair of words, and the bounds pass proves that no pair overflows.
//!
//! ## Layout
//!
//! Limb i holds bits [e_i, e_(i+1)) of the value with e_i = ⌈k·i/m⌉, so the limb widths differ
//! by at most one bit (2^255 − 19: 5 × 51 bits at w = 64, 26/25 alternating at w = 32;
//! 2^521 − 1: eight 58-bit limbs and a 57-bit one). A product of limbs i and j has weight
//! 2^(e_i + e_j) = 2^δ · 2^(e_h) with h = i + j (or 2^k · 2^δ · 2^(e_h), h = i + j − m, which
//! becomes c · 2^δ · 2^(e_h) since 2^k ≡ c), δ ∈ {0, 1}: the factor 2^δ is taken by a shift of
//! one operand and the factor c by a multiplication of the other, each proved not to overflow.
//!
//! ## Representation states
//!
//! - *Tight* ([`Repr::Tight`]): limb i below 2^(b_i), except limb 1, which may exceed it by
//!   2^(b_1 − 3) (the last carry of a reduction lands there). Every stored value is tight and
//!   below 2p.
//! - *Loose* ([`Repr::Loose`]): limb i at most tight_i + 2·p_i, where p_i are the limbs of p in
//!   this radix (p_0 = 2^(b_0) − c, p_i = 2^(b_i) − 1): the sum of two tight values, or
//!   a + 2p − b. Multiplication and squaring accept loose inputs and return tight values;
//!   addition, subtraction, negation and doubling produce a loose value without any carry and
//!   then run one carry pass back to tight.
//!
//! ## Carry scheduling
//!
//! A carry of limb i takes its bits above b_i (a word or a pair of words) and adds them to limb
//! i + 1, or, for the top limb, multiplies them by c and adds them to limb 0. After a product
//! the schedule is 0, 1, …, m − 1, 0 on the column sums (pairs of words); after an addition the
//! same on single words. Every dropped carry and every high word assumed zero is a range
//! obligation ([`crate::ir::Check`]) proved by [`crate::pass::verify_bounds`] before emission.

use crate::narrow::fit;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use crate::ir::{word_mask, Builder, Func, Var};
use crate::spec::{to_limbs, FieldConsts};

/// A representation state of an unsaturated value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repr {
    /// Carried: limb i below 2^(b_i) (limb 1 up to 2^(b_1) + 2^(b_1 − 3)); the value is below 2p.
    Tight,
    /// Uncarried sum or difference of tight values: limb i at most tight_i + 2·p_i.
    Loose,
}

/// The unsaturated layout of p = 2^k − c.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsaturated {
    /// k: p = 2^k − c.
    pub k: u32,
    /// c = 2^k − p, below 2^(w/2).
    pub c: u64,
    /// Word size.
    pub w: u32,
    /// Number of unsaturated limbs m.
    pub m: usize,
    /// Limb positions e_0 = 0 < e_1 < … < e_m = k, e_i = ⌈k·i/m⌉.
    pub pos: Vec<u32>,
    /// Saturated limb count of the canonical encoding, ⌈k/w⌉.
    pub n: usize,
}

/// Limb positions e_i = ⌈k·i/m⌉ for i = 0..=m.
pub fn positions(k: u32, m: usize) -> Vec<u32> {
    (0..=m as u64)
        .map(|i| fit((k as u64 * i).div_ceil(m as u64)))
        .collect()
}

/// `x` (below 2^k) as m unsaturated limbs at positions `pos`.
pub fn split(x: &BigUint, pos: &[u32]) -> Vec<u64> {
    pos.windows(2)
        .map(|e| {
            let v: BigUint = (x >> e[0] as usize) & ((BigUint::one() << (e[1] - e[0])) - 1u32);
            v.to_u64().expect("a limb fits a word")
        })
        .collect()
}

impl Unsaturated {
    /// (k, c) when p = 2^k − c with 0 < c < 2^(w/2); `None` otherwise.
    pub fn detect(fc: &FieldConsts) -> Option<(u32, u64)> {
        let k = fc.bits;
        let c = (BigUint::one() << k as usize) - &fc.modulus;
        if c.is_zero() || c.bits() > (fc.w() / 2) as u64 {
            return None;
        }
        Some((k, c.to_u64()?))
    }

    /// The layout with `m` limbs. Errors (one line): p is not 2^k − c with a small c, the limbs
    /// would be too wide for the word (at least two bits of headroom are needed) or too narrow
    /// (k/m below w/4), or tight values could reach 2p.
    pub fn with_limbs(fc: &FieldConsts, m: usize) -> Result<Unsaturated, String> {
        let w = fc.w();
        let (k, c) = Unsaturated::detect(fc).ok_or_else(|| {
            format!(
                "--strategy unsaturated needs p = 2^k - c with c below 2^{}; {:#x} is not of that form: use --strategy montgomery",
                w / 2,
                fc.modulus
            )
        })?;
        if m < 2 {
            return Err("--strategy unsaturated needs at least two limbs".into());
        }
        let pos = positions(k, m);
        let widest = pos.windows(2).map(|e| e[1] - e[0]).max().unwrap_or(0);
        let narrowest = pos.windows(2).map(|e| e[1] - e[0]).min().unwrap_or(0);
        if widest + 2 > w {
            return Err(format!(
                "--strategy unsaturated: {m} limbs of 2^{k} - {c} are up to {widest} bits, which leaves no headroom in {w}-bit words: use more limbs (a smaller --radix)"
            ));
        }
        if narrowest < w / 4 || (c as u128) >= (1u128 << (narrowest - 1)) {
            return Err(format!(
                "--strategy unsaturated: {m} limbs of 2^{k} - {c} are too narrow ({narrowest} bits): use fewer limbs (a larger --radix)"
            ));
        }
        let u = Unsaturated {
            k,
            c,
            w,
            m,
            pos,
            n: fc.limbs,
        };
        // Canonicalisation subtracts p at most once, so tight values must stay below 2p.
        if u.max_of(&u.bounds(Repr::Tight)) >= (&fc.modulus << 1) {
            return Err(format!(
                "--strategy unsaturated: tight values of {m} limbs could reach 2p"
            ));
        }
        Ok(u)
    }

    /// The default limb count for w-bit words: m = ⌈k/(w − 6)⌉ (51-bit limbs for 2^255 − 19 and
    /// 58-bit limbs for 2^521 − 1 at w = 64, 25.5 bits for 2^255 − 19 at w = 32), or the count
    /// for a requested radix: m = ⌈k/radix⌉.
    pub fn default_limbs(fc: &FieldConsts, radix: Option<u32>) -> usize {
        let per = radix.unwrap_or(fc.w() - 6).max(1);
        (fc.bits.div_ceil(per) as usize).max(2)
    }

    /// Width b_i of limb i.
    pub fn width(&self, i: usize) -> u32 {
        self.pos[i + 1] - self.pos[i]
    }

    /// The radix as people write it: `2^51`, `2^25.5` (alternating widths) or `2^57.9`.
    pub fn radix_name(&self) -> String {
        if (self.k as usize).is_multiple_of(self.m) {
            format!("2^{}", self.k as usize / self.m)
        } else {
            let r = self.k as f64 / self.m as f64;
            format!("2^{:.1}", (r * 10.0).floor() / 10.0)
        }
    }

    /// Limbs of p in this radix: p_0 = 2^(b_0) − c, p_i = 2^(b_i) − 1.
    pub fn p_limbs(&self) -> Vec<u64> {
        (0..self.m)
            .map(|i| {
                let full = (1u64 << self.width(i)) - 1;
                if i == 0 {
                    full + 1 - self.c
                } else {
                    full
                }
            })
            .collect()
    }

    /// Limb upper bounds of a value in state `repr`.
    pub fn bounds(&self, repr: Repr) -> Vec<u64> {
        let tight: Vec<u64> = (0..self.m)
            .map(|i| {
                let b = self.width(i);
                let slack = if i == 1 { 1u64 << (b - 3) } else { 0 };
                (1u64 << b) - 1 + slack
            })
            .collect();
        match repr {
            Repr::Tight => tight,
            Repr::Loose => tight
                .iter()
                .zip(self.p_limbs())
                .map(|(t, p)| t + 2 * p)
                .collect(),
        }
    }

    /// The largest value limbs within `bounds` can hold.
    pub fn max_of(&self, bounds: &[u64]) -> BigUint {
        bounds
            .iter()
            .zip(&self.pos)
            .fold(BigUint::zero(), |acc, (&b, &e)| {
                acc + (BigUint::from(b) << e as usize)
            })
    }

    /// The value of unsaturated limbs.
    pub fn value(&self, limbs: &[u64]) -> BigUint {
        self.max_of(limbs)
    }
}

/// A value of up to two words during a carry pass; `hi: None` is a high word known to be zero.
#[derive(Clone, Copy, Debug)]
struct Dw {
    lo: Var,
    hi: Option<Var>,
}

impl Dw {
    fn word(lo: Var) -> Dw {
        Dw { lo, hi: None }
    }
}

/// Drops the high word when range analysis proves it zero.
fn trim(b: &Builder, x: Dw) -> Dw {
    match x.hi {
        Some(h) if b.range_max(&[h])[0] == 0 => Dw::word(x.lo),
        _ => x,
    }
}

/// x + y on pairs of words; the carry out of the pair is an obligation.
fn add_dw(b: &mut Builder, x: Dw, y: Dw) -> Dw {
    let zero = b.constant(0);
    let (lo, cy) = b.add_carry(x.lo, y.lo, zero);
    let hi = match (x.hi, y.hi) {
        (None, None) => cy,
        (Some(h), None) | (None, Some(h)) => {
            let (s, top) = b.add_carry(h, zero, cy);
            b.check_at_most(top, 0, "the carry out of a two-word limb");
            s
        }
        (Some(h1), Some(h2)) => {
            let (s, top) = b.add_carry(h1, h2, cy);
            b.check_at_most(top, 0, "the carry out of a two-word limb");
            s
        }
    };
    trim(b, Dw { lo, hi: Some(hi) })
}

/// acc + x·y as a pair of words; the carry out of the pair is an obligation.
fn mac(b: &mut Builder, acc: Option<Dw>, x: Var, y: Var) -> Dw {
    let zero = b.constant(0);
    match acc {
        None => {
            let (lo, hi) = b.mul_add(x, y, zero, zero);
            Dw { lo, hi: Some(hi) }
        }
        Some(a) => {
            let (lo, h) = b.mul_add(x, y, a.lo, zero);
            let hi = match a.hi {
                None => h,
                Some(ah) => {
                    let (s, top) = b.add_carry(h, ah, zero);
                    b.check_at_most(top, 0, "the high word of a column sum");
                    s
                }
            };
            Dw { lo, hi: Some(hi) }
        }
    }
}

/// One carry: limb i keeps its low b_i bits and the rest goes to limb i + 1 (or, times c, to
/// limb 0).
fn carry_step(b: &mut Builder, u: &Unsaturated, v: &mut [Dw], i: usize) {
    let w = u.w;
    let bi = u.width(i);
    let x = trim(b, v[i]);
    let mask = b.constant((1u64 << bi) - 1);
    let r = b.and(x.lo, mask);
    let low = b.shr(x.lo, bi);
    let q = match x.hi {
        None => Dw::word(low),
        Some(h) => {
            let up = b.shl(h, w - bi);
            let lo = b.or(low, up);
            let hi = b.shr(h, bi);
            trim(b, Dw { lo, hi: Some(hi) })
        }
    };
    v[i] = Dw::word(r);
    if i + 1 < u.m {
        v[i + 1] = add_dw(b, v[i + 1], q);
    } else {
        let zero = b.constant(0);
        let cc = b.constant(u.c);
        let (lo, h) = b.mul_add(q.lo, cc, zero, zero);
        let hi = match q.hi {
            None => h,
            Some(qh) => {
                let (s, top) = b.mul_add(qh, cc, h, zero);
                b.check_at_most(top, 0, "c times the carry out of the top limb");
                s
            }
        };
        let t = trim(b, Dw { lo, hi: Some(hi) });
        v[0] = add_dw(b, v[0], t);
    }
}

/// Runs the carry schedule 0, 1, …, m − 1, 0 and returns single-word limbs (a high word left
/// over is an obligation that fails).
fn carry_pass(b: &mut Builder, u: &Unsaturated, mut v: Vec<Dw>) -> Vec<Var> {
    for i in (0..u.m).chain([0]) {
        carry_step(b, u, &mut v, i);
    }
    v.into_iter()
        .map(|x| {
            let x = trim(b, x);
            if let Some(h) = x.hi {
                b.check_at_most(h, 0, "a limb still two words wide after the carries");
            }
            x.lo
        })
        .collect()
}

/// The column sums of x·y (or x² when `y` is `None`) in the unsaturated radix, each a pair
/// of words: column h collects the products with i + j = h and, times c, those with
/// i + j = h + m; mixed-radix products carry an extra factor 2^δ (see the module docs).
fn product_columns(b: &mut Builder, u: &Unsaturated, x: &[Var], y: Option<&[Var]>) -> Vec<Dw> {
    let m = u.m;
    let w = u.w;
    let mut shifted: std::collections::HashMap<(usize, u32), Var> = Default::default();
    let mut scaled: std::collections::HashMap<usize, Var> = Default::default();
    let cc = b.constant(u.c);
    let mut cols = Vec::with_capacity(m);
    for h in 0..m {
        let mut terms: Vec<(usize, usize, u32)> = Vec::new();
        match y {
            Some(_) => {
                for i in 0..m {
                    terms.push((i, (h + m - i) % m, 0));
                }
            }
            None => {
                for i in 0..m {
                    for j in i..m {
                        if (i + j) % m == h {
                            terms.push((i, j, (i != j) as u32));
                        }
                    }
                }
            }
        }
        let mut acc: Option<Dw> = None;
        for (i, j, dbl) in terms {
            let wrap = i + j >= m;
            let target = u.pos[h] + if wrap { u.k } else { 0 };
            let delta = u.pos[i] + u.pos[j] - target;
            let s = dbl + delta;
            let a = if s == 0 {
                x[i]
            } else {
                *shifted.entry((i, s)).or_insert_with(|| {
                    b.check_at_most(
                        x[i],
                        word_mask(w) >> s,
                        "a limb shifted for its product's weight",
                    );
                    b.shl(x[i], s)
                })
            };
            let yy = y.unwrap_or(x);
            let bj = if wrap && u.c != 1 {
                *scaled.entry(j).or_insert_with(|| {
                    b.check_at_most(yy[j], word_mask(w) / u.c, "a limb multiplied by c");
                    b.mul_lo(yy[j], cc)
                })
            } else {
                yy[j]
            };
            acc = Some(mac(b, acc, a, bj));
        }
        cols.push(acc.expect("every column has a product"));
    }
    cols
}

/// a·b mod p: loose inputs, tight output.
pub fn lower_mul(u: &Unsaturated) -> Func {
    let mut b = Builder::new(u.w);
    let x = b.input(u.bounds(Repr::Loose));
    let y = b.input(u.bounds(Repr::Loose));
    let cols = product_columns(&mut b, u, &x, Some(&y));
    let out = carry_pass(&mut b, u, cols);
    b.finish_with_bounds(out, u.bounds(Repr::Tight))
}

/// a² mod p: off-diagonal products once, doubled by a shift; loose input, tight output.
pub fn lower_square(u: &Unsaturated) -> Func {
    let mut b = Builder::new(u.w);
    let x = b.input(u.bounds(Repr::Loose));
    let cols = product_columns(&mut b, u, &x, None);
    let out = carry_pass(&mut b, u, cols);
    b.finish_with_bounds(out, u.bounds(Repr::Tight))
}

/// a·k mod p for a one-word k ≤ [`super::SMALL_MAX`]: each limb times k as a pair of words,
/// then the carry pass of a product; loose input, tight output.
pub fn lower_mul_small(u: &Unsaturated) -> Func {
    let mut b = Builder::new(u.w);
    let x = b.input(u.bounds(Repr::Loose));
    let k = b.input(vec![super::SMALL_MAX]);
    let zero = b.constant(0);
    let cols: Vec<Dw> = x
        .iter()
        .map(|&xi| {
            let (lo, hi) = b.mul_add(xi, k[0], zero, zero);
            trim(&b, Dw { lo, hi: Some(hi) })
        })
        .collect();
    let out = carry_pass(&mut b, u, cols);
    b.finish_with_bounds(out, u.bounds(Repr::Tight))
}

/// x_i + y_i per limb (a loose value; the carries are obligations).
fn add_limbwise(b: &mut Builder, x: &[Var], y: &[Var]) -> Vec<Var> {
    let zero = b.constant(0);
    x.iter()
        .zip(y)
        .map(|(&xi, &yi)| {
            let (s, cy) = b.add_carry(xi, yi, zero);
            b.check_at_most(cy, 0, "a limb of an uncarried sum");
            s
        })
        .collect()
}

/// x_i + 2p_i − y_i per limb (a loose value; no limb borrows: obligations).
fn sub_limbwise(b: &mut Builder, u: &Unsaturated, x: Option<&[Var]>, y: &[Var]) -> Vec<Var> {
    let zero = b.constant(0);
    let two_p: Vec<u64> = u.p_limbs().iter().map(|p| 2 * p).collect();
    (0..u.m)
        .map(|i| {
            let tp = b.constant(two_p[i]);
            let t = match x {
                Some(x) => {
                    let (s, cy) = b.add_carry(x[i], tp, zero);
                    b.check_at_most(cy, 0, "a limb of x + 2p");
                    s
                }
                None => tp,
            };
            let (d, bo) = b.sub_borrow(t, y[i], zero);
            b.check_at_most(bo, 0, "the borrow of a limb of 2p − y");
            d
        })
        .collect()
}

/// The loose result of an addition-like operation, carried back to tight.
fn finish_tight(mut b: Builder, u: &Unsaturated, loose: Vec<Var>) -> Func {
    let out = carry_pass(&mut b, u, loose.into_iter().map(Dw::word).collect());
    b.finish_with_bounds(out, u.bounds(Repr::Tight))
}

/// a + b mod p: tight in, the loose sum, one carry pass, tight out.
pub fn lower_add(u: &Unsaturated) -> Func {
    let mut b = Builder::new(u.w);
    let x = b.input(u.bounds(Repr::Tight));
    let y = b.input(u.bounds(Repr::Tight));
    let s = add_limbwise(&mut b, &x, &y);
    finish_tight(b, u, s)
}

/// 2a mod p: tight in and out.
pub fn lower_double(u: &Unsaturated) -> Func {
    let mut b = Builder::new(u.w);
    let x = b.input(u.bounds(Repr::Tight));
    let s = add_limbwise(&mut b, &x, &x);
    finish_tight(b, u, s)
}

/// a − b mod p as a + 2p − b limb by limb: tight in and out.
pub fn lower_sub(u: &Unsaturated) -> Func {
    let mut b = Builder::new(u.w);
    let x = b.input(u.bounds(Repr::Tight));
    let y = b.input(u.bounds(Repr::Tight));
    let d = sub_limbwise(&mut b, u, Some(&x), &y);
    finish_tight(b, u, d)
}

/// −a mod p as 2p − a limb by limb: tight in and out.
pub fn lower_neg(u: &Unsaturated) -> Func {
    let mut b = Builder::new(u.w);
    let x = b.input(u.bounds(Repr::Tight));
    let d = sub_limbwise(&mut b, u, None, &x);
    finish_tight(b, u, d)
}

/// The loose sum a + b without a carry pass (the uncarried addition of the loose state; the
/// product lowerings take such values).
pub fn lower_add_loose(u: &Unsaturated) -> Func {
    let mut b = Builder::new(u.w);
    let x = b.input(u.bounds(Repr::Tight));
    let y = b.input(u.bounds(Repr::Tight));
    let s = add_limbwise(&mut b, &x, &y);
    b.finish_with_bounds(s, u.bounds(Repr::Loose))
}

/// The loose difference a + 2p − b without a carry pass.
pub fn lower_sub_loose(u: &Unsaturated) -> Func {
    let mut b = Builder::new(u.w);
    let x = b.input(u.bounds(Repr::Tight));
    let y = b.input(u.bounds(Repr::Tight));
    let d = sub_limbwise(&mut b, u, Some(&x), &y);
    b.finish_with_bounds(d, u.bounds(Repr::Loose))
}

/// The canonical value of a tight value as n saturated w-bit limbs (value in [0, p)).
///
/// A tight value v is below 2p. The first pass computes q = ⌊(v + c)/2^k⌋ ∈ {0, 1}, which is
/// 1 exactly when v ≥ p; the second computes v + c·q limb by limb with exact carries and drops
/// the carry out of bit k, leaving v − q·p (the method of ref10's `fe_tobytes`, Bernstein et
/// al.). The digits are then packed into words.
pub fn lower_canonical(u: &Unsaturated) -> Func {
    let mut b = Builder::new(u.w);
    let x = b.input(u.bounds(Repr::Tight));
    let zero = b.constant(0);
    let cc = b.constant(u.c);
    let mut carry = cc;
    for (i, &xi) in x.iter().enumerate() {
        let (t, cy) = b.add_carry(xi, carry, zero);
        b.check_at_most(cy, 0, "a limb of v + c");
        carry = b.shr(t, u.width(i));
    }
    let q = carry;
    b.check_at_most(q, 1, "the quotient of a tight value by 2^k");
    let mut carry = b.mul_lo(q, cc);
    let mut digits = Vec::with_capacity(u.m);
    for (i, &xi) in x.iter().enumerate() {
        let (t, cy) = b.add_carry(xi, carry, zero);
        b.check_at_most(cy, 0, "a limb of v + c·q");
        let mask = b.constant((1u64 << u.width(i)) - 1);
        digits.push(b.and(t, mask));
        // The carry out of the top limb is q·2^k, which the subtraction of q·p removes.
        carry = b.shr(t, u.width(i));
    }
    let out = pack(&mut b, u, &digits);
    b.finish(out)
}

/// Packs exact digits (limb i below 2^(b_i)) into n saturated words.
fn pack(b: &mut Builder, u: &Unsaturated, digits: &[Var]) -> Vec<Var> {
    let w = u.w;
    (0..u.n)
        .map(|j| {
            let j: u32 = fit(j);
            let (lo, hi) = (j * w, (j + 1) * w);
            let mut word: Option<Var> = None;
            for (i, &d) in digits.iter().enumerate() {
                let (s, e) = (u.pos[i], u.pos[i + 1]);
                if e <= lo || s >= hi {
                    continue;
                }
                let part = if s >= lo {
                    if s == lo {
                        d
                    } else {
                        b.shl(d, s - lo)
                    }
                } else {
                    b.shr(d, lo - s)
                };
                word = Some(match word {
                    None => part,
                    Some(acc) => b.or(acc, part),
                });
            }
            word.unwrap_or_else(|| b.constant(0))
        })
        .collect()
}

/// The tight limbs of a canonical value given as n saturated w-bit limbs (below p).
pub fn lower_from_canonical(fc: &FieldConsts, u: &Unsaturated) -> Func {
    let w = u.w;
    let mut b = Builder::new(w);
    let x = b.input(super::reduced_bounds(fc));
    let out = (0..u.m)
        .map(|i| {
            let (s, bi) = (u.pos[i], u.width(i));
            let (j, off) = ((s / w) as usize, s % w);
            let mut v = if off == 0 { x[j] } else { b.shr(x[j], off) };
            if off + bi > w && j + 1 < u.n {
                let up = b.shl(x[j + 1], w - off);
                v = b.or(v, up);
            }
            let mask = b.constant((1u64 << bi) - 1);
            b.and(v, mask)
        })
        .collect();
    b.finish_with_bounds(out, u.bounds(Repr::Tight))
}

/// The limbs of x mod p in this layout (for constants).
pub fn limbs_of(u: &Unsaturated, fc: &FieldConsts, x: &BigUint) -> Vec<u64> {
    split(&(x % &fc.modulus), &u.pos)
}

/// The saturated limbs of x (for tests).
pub fn saturated(fc: &FieldConsts, x: &BigUint) -> Vec<u64> {
    to_limbs(x, fc.w(), fc.limbs)
}
