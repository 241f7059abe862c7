//! Fp12 = Fp6\[w\]/(w² − v), the target field of the pairing (GT is its subgroup of order r).
//!
//! Writing c0 = a0 + a1·v + a2·v² and c1 = b0 + b1·v + b2·v², an element is
//! a0 + b0·w + a1·w² + b1·w³ + a2·w⁴ + b2·w⁵ with w⁶ = ξ; the Frobenius maps act coefficient
//! by coefficient through the generated constants γk\[j\] (see [`crate::BnParams::FROB1`]).

use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use fieldgen_field::Field;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

use crate::fp2::Fp2;
use crate::fp6::Fp6;
use crate::BnParams;

/// c0 + c1·w in Fp12 = Fp6\[w\]/(w² − v).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fp12<C: BnParams> {
    /// Coefficient of 1.
    pub c0: Fp6<C>,
    /// Coefficient of w.
    pub c1: Fp6<C>,
}

impl<C: BnParams> Fp12<C> {
    /// One (the identity of GT).
    pub const ONE: Self = Fp12 {
        c0: Fp6::<C>::ONE,
        c1: Fp6::<C>::ZERO,
    };
    /// Zero.
    pub const ZERO: Self = Fp12 {
        c0: Fp6::<C>::ZERO,
        c1: Fp6::<C>::ZERO,
    };

    /// c0 + c1·w.
    pub const fn new(c0: Fp6<C>, c1: Fp6<C>) -> Self {
        Fp12 { c0, c1 }
    }

    /// The twelve Fp coefficients in mcl's order: c0.c0.c0, c0.c0.c1, c0.c1.c0, …, c1.c2.c1.
    pub fn to_coeffs(&self) -> [C::Fp; 12] {
        let mut out = [<C::Fp as Field>::ZERO; 12];
        for (k, x) in [
            self.c0.c0, self.c0.c1, self.c0.c2, self.c1.c0, self.c1.c1, self.c1.c2,
        ]
        .iter()
        .enumerate()
        {
            out[2 * k] = x.c0;
            out[2 * k + 1] = x.c1;
        }
        out
    }

    /// The inverse of [`Fp12::to_coeffs`].
    pub fn from_coeffs(c: &[C::Fp; 12]) -> Self {
        let f = |k: usize| Fp2::new(c[2 * k], c[2 * k + 1]);
        Fp12 {
            c0: Fp6::new(f(0), f(1), f(2)),
            c1: Fp6::new(f(3), f(4), f(5)),
        }
    }

    /// GT's encoding: the twelve coefficients of [`Fp12::to_coeffs`], each big-endian in
    /// `Fp::BYTES` bytes, concatenated (12·BYTES bytes: 384 for BN254).
    pub fn write_be_bytes(&self, out: &mut [u8]) -> Result<(), crate::Error> {
        let n = <C::Fp as Field>::BYTES;
        if out.len() != 12 * n {
            return Err(crate::Error::InvalidLength);
        }
        for (k, x) in self.to_coeffs().iter().enumerate() {
            out[k * n..(k + 1) * n].copy_from_slice(x.to_be_bytes().as_ref());
        }
        Ok(())
    }

    /// Decodes [`Fp12::write_be_bytes`]'s format as an element of GT: the length, every
    /// coefficient below p, and membership in the subgroup of order r (x^r = 1, variable
    /// time) are checked.
    pub fn gt_from_be_bytes(bytes: &[u8]) -> Result<Self, crate::Error> {
        let n = <C::Fp as Field>::BYTES;
        if bytes.len() != 12 * n {
            return Err(crate::Error::InvalidLength);
        }
        let mut c = [<C::Fp as Field>::ZERO; 12];
        for (k, x) in c.iter_mut().enumerate() {
            let mut b = <<C::Fp as Field>::Bytes as fieldgen_field::ByteArray>::zeroed();
            b.as_mut().copy_from_slice(&bytes[k * n..(k + 1) * n]);
            *x =
                Option::from(C::Fp::from_be_bytes(&b)).ok_or(crate::Error::CoordinateOutOfRange)?;
        }
        let e = Self::from_coeffs(&c);
        if e.is_in_gt_vartime() {
            Ok(e)
        } else {
            Err(crate::Error::NotInSubgroup)
        }
    }

    /// c0 − c1·w: the p⁶-th power Frobenius, which is the inverse in the cyclotomic subgroup
    /// (every pairing value after the easy part of the final exponentiation).
    #[inline]
    pub fn conjugate(&self) -> Self {
        Fp12 {
            c0: self.c0,
            c1: -self.c1,
        }
    }

    /// self² by the complex method without lazy reduction: (c0 + c1w)² =
    /// (c0 + c1)(c0 + v·c1) − c0c1 − v·c0c1 + 2c0c1·w, two Fp6 multiplications.
    pub fn square_full(&self) -> Self {
        let ab = self.c0 * self.c1;
        let t = (self.c0 + self.c1) * (self.c0 + self.c1.mul_by_v());
        Fp12 {
            c0: t - ab - ab.mul_by_v(),
            c1: ab + ab,
        }
    }

    /// self², by [`Fp12::square_full`]: with the ξ-multiplication by additions and Fp6
    /// products that are already lazy, it measures 2–6 % faster than [`Fp12::square_lazy`]
    /// (whose extra double-width additions cost more than the reductions they save).
    pub fn square(&self) -> Self {
        self.square_full()
    }

    /// self² by lazy reduction: both Fp6 products double width, 6 reductions in all.
    pub fn square_lazy(&self) -> Self {
        let ab = self.c0.mul_wide(&self.c1);
        let t = (self.c0 + self.c1).mul_wide(&(self.c0 + self.c1.mul_by_v()));
        Fp12 {
            c0: t.sub(&ab).sub(&ab.mul_by_v()).reduce(),
            c1: ab.add(&ab).reduce(),
        }
    }

    /// self·o by lazy reduction: Karatsuba over w with the three Fp6 products double width
    /// (54 `mul_wide`), one reduction per Fp coefficient (12).
    pub fn mul_lazy(&self, o: &Self) -> Self {
        let aa = self.c0.mul_wide(&o.c0);
        let bb = self.c1.mul_wide(&o.c1);
        let s = (self.c0 + self.c1).mul_wide(&(o.c0 + o.c1));
        Fp12 {
            c0: aa.add(&bb.mul_by_v()).reduce(),
            c1: s.sub(&aa).sub(&bb).reduce(),
        }
    }

    /// The inverse: (c0 − c1w)/(c0² − v·c1²); none for zero.
    pub fn invert(&self) -> CtOption<Self> {
        let d = self.c0.square() - self.c1.square().mul_by_v();
        d.invert().map(|di| Fp12 {
            c0: self.c0 * di,
            c1: -(self.c1 * di),
        })
    }

    /// self^(p^k): the coefficient of w^j maps to its conjugate (odd k) times γk\[j\].
    pub fn frobenius(&self, k: usize) -> Self {
        let (g, odd) = match k % 12 {
            0 => return *self,
            1 => (&C::FROB1, true),
            2 => (&C::FROB2, false),
            3 => (&C::FROB3, true),
            m => return self.frobenius(3).frobenius(m - 3),
        };
        let c = |x: &Fp2<C::Fp>| if odd { x.conjugate() } else { *x };
        Fp12 {
            c0: Fp6::new(c(&self.c0.c0), c(&self.c0.c1) * g[2], c(&self.c0.c2) * g[4]),
            c1: Fp6::new(
                c(&self.c1.c0) * g[1],
                c(&self.c1.c1) * g[3],
                c(&self.c1.c2) * g[5],
            ),
        }
    }

    /// self·(l0 + l3·w + l4·w³), the product by a line value of the D-type twist (positions
    /// 0, 3 and 4 of the twelve, "mul_by_034"): Karatsuba over w with the sparse factors
    /// l0 (an Fp2 scalar) and l3 + l4·v: 13 Fp2 products, kept double width, 12 reductions.
    #[inline]
    pub fn mul_by_034(&self, l0: &Fp2<C::Fp>, l3: &Fp2<C::Fp>, l4: &Fp2<C::Fp>) -> Self {
        self.mul_by_034_lazy(l0, l3, l4)
    }

    /// [`Fp12::mul_by_034`] without lazy reduction (full Fp products).
    #[inline]
    pub fn mul_by_034_full(&self, l0: &Fp2<C::Fp>, l3: &Fp2<C::Fp>, l4: &Fp2<C::Fp>) -> Self {
        let a = self.c0.mul_fp2(l0);
        let b = self.c1.mul_by_01(l3, l4);
        let s = (self.c0 + self.c1).mul_by_01(&(*l0 + *l3), l4);
        Fp12 {
            c0: a + b.mul_by_v(),
            c1: s - a - b,
        }
    }

    /// [`Fp12::mul_by_034`] by lazy reduction (13 Fp2 products double width, 12 reductions).
    #[inline]
    pub fn mul_by_034_lazy(&self, l0: &Fp2<C::Fp>, l3: &Fp2<C::Fp>, l4: &Fp2<C::Fp>) -> Self {
        let a = self.c0.mul_fp2_wide(l0);
        let b = self.c1.mul_by_01_wide(l3, l4);
        let s = (self.c0 + self.c1).mul_by_01_wide(&(*l0 + *l3), l4);
        Fp12 {
            c0: a.add(&b.mul_by_v()).reduce(),
            c1: s.sub(&a).sub(&b).reduce(),
        }
    }

    /// self² for self in the cyclotomic subgroup (norm 1 over Fp6 and its p⁴ − p² + 1
    /// relative), by Granger and Scott, "Faster squaring in the cyclotomic subgroup of sixth
    /// degree extensions", PKC 2010, §3.2: viewed over Fp4 = Fp2\[t\]/(t² − ξ), t = w³, as
    /// A + B·w + C·w², the square is (3A² − 2Ā) + (3t·C² + 2B̄)·w + (3B² − 2C̄)·w² — three
    /// Fp4 squarings (six Fp2 squarings' worth). Wrong for values outside that subgroup.
    pub fn cyclotomic_square(&self) -> Self {
        // A = a0 + b1·t, B = b0 + a2·t, C = a1 + b2·t.
        let (a0, b1) = (self.c0.c0, self.c1.c1);
        let (b0, a2) = (self.c1.c0, self.c0.c2);
        let (a1, b2) = (self.c0.c1, self.c1.c2);
        let fp4_sq = |x: &Fp2<C::Fp>, y: &Fp2<C::Fp>| {
            // (x + y·t)² = x² + ξy² + 2xy·t.
            let x2 = x.square();
            let y2 = y.square();
            (x2 + Fp6::<C>::xi(&y2), (*x + *y).square() - x2 - y2)
        };
        let (ta0, ta1) = fp4_sq(&a0, &b1);
        let (tb0, tb1) = fp4_sq(&b0, &a2);
        let (tc0, tc1) = fp4_sq(&a1, &b2);
        // 3T − 2X for the conjugate −: 3t0 − 2x0, 3t1 + 2x1.
        let m = |t: Fp2<C::Fp>, x: Fp2<C::Fp>| (t - x).double() + t;
        let p = |t: Fp2<C::Fp>, x: Fp2<C::Fp>| (t + x).double() + t;
        // New A from A²: (3ta0 − 2a0) + (3ta1 + 2b1)t.
        let na0 = m(ta0, a0);
        let nb1 = p(ta1, b1);
        // New B from t·C² = ξ·tc1 + tc0·t: (3ξtc1 + 2b0) + (3tc0 − 2a2)t.
        let na_b0 = p(Fp6::<C>::xi(&tc1), b0);
        let na2 = m(tc0, a2);
        // New C from B²: (3tb0 − 2a1) + (3tb1 + 2b2)t.
        let na1 = m(tb0, a1);
        let nb2 = p(tb1, b2);
        Fp12 {
            c0: Fp6::new(na0, na1, na2),
            c1: Fp6::new(na_b0, nb1, nb2),
        }
    }

    /// self^|z| by cyclotomic squarings (z public) over a signed window form of |z| (the
    /// width-w NAF: digits odd, in (−2^(w−1), 2^(w−1)), at least w − 1 zeros between nonzero
    /// ones), with the odd powers self, self³, …, self^(2^(w−1) − 1) computed first; a negative
    /// digit multiplies by the conjugate, which is the inverse in the cyclotomic subgroup. The
    /// width is chosen for z, counting a product as two cyclotomic squarings: BN254's |z| has
    /// 24 nonzero NAF digits (23 products) but 14 width-4 digits (13 products, plus 3 and one
    /// squaring for the table); for the sparse z of the other presets (3 or 4 nonzero digits)
    /// the plain NAF (w = 2) stays best. The sequence of operations depends only on z.
    pub fn cyclotomic_pow_z_abs(&self) -> Self {
        let (w, naf, n) = const { z_abs_wnaf(C::Z_ABS) };
        if n == 0 {
            return Self::ONE;
        }
        // table[j] = self^(2j + 1).
        let mut table = [*self; 1 << (MAX_Z_WINDOW - 2)];
        if w > 2 {
            let sq = self.cyclotomic_square();
            for j in 1..1 << (w - 2) {
                table[j] = table[j - 1] * sq;
            }
        }
        let odd = |d: i8| (d.unsigned_abs() as usize - 1) / 2;
        // The top digit of a positive number's NAF is positive.
        let mut acc = table[odd(naf[n - 1])];
        for &d in naf[..n - 1].iter().rev() {
            acc = acc.cyclotomic_square();
            if d > 0 {
                acc *= table[odd(d)];
            } else if d < 0 {
                acc *= table[odd(d)].conjugate();
            }
        }
        acc
    }

    /// The compressed form (h1, h2, h4, h5) of self = Σ h_i·w^i (h0 = a0, h1 = b0, h2 = a1,
    /// h3 = b1, h4 = a2, h5 = b2), which determines a cyclotomic element (Karabina, "Squaring
    /// in cyclotomic subgroups", Math. Comp. 2013).
    fn compress(&self) -> [Fp2<C::Fp>; 4] {
        [self.c1.c0, self.c0.c1, self.c0.c2, self.c1.c2]
    }

    /// The square of a compressed cyclotomic element (Karabina 2013, §3.2, over the
    /// Granger–Scott view of [`Fp12::cyclotomic_square`]: B′ = 3t·C² + 2B̄, C′ = 3B² − 2C̄
    /// with B = h1 + h4·t, C = h2 + h5·t): h1′ = 6ξ·h2h5 + 2h1, h4′ = 3(h2² + ξh5²) − 2h4,
    /// h2′ = 3(h1² + ξh4²) − 2h2, h5′ = 6·h1h4 + 2h5; six Fp2 squarings against nine.
    fn compressed_square(g: &[Fp2<C::Fp>; 4]) -> [Fp2<C::Fp>; 4] {
        let [h1, h2, h4, h5] = *g;
        let s1 = h1.square();
        let s2 = h2.square();
        let s4 = h4.square();
        let s5 = h5.square();
        let h2h5 = (h2 + h5).square() - s2 - s5; // 2·h2h5
        let h1h4 = (h1 + h4).square() - s1 - s4; // 2·h1h4
        let t = Fp6::<C>::xi(&h2h5);
        let n1 = (t + h1).double() + t;
        let u = s2 + Fp6::<C>::xi(&s5);
        let n4 = (u - h4).double() + u;
        let v = s1 + Fp6::<C>::xi(&s4);
        let n2 = (v - h2).double() + v;
        let n5 = (h1h4 + h5).double() + h1h4;
        [n1, n2, n4, n5]
    }

    /// The numerator and denominator of h3 for a compressed element (Karabina 2013, §3.3):
    /// h3 = (ξh5² + 3h2² − 2h4) / (4h1), or 2h2h5 / h4 when h1 = 0 (selected in constant
    /// time); a zero denominator (only for one, where every part is zero) becomes one.
    fn decompress_parts(g: &[Fp2<C::Fp>; 4]) -> (Fp2<C::Fp>, Fp2<C::Fp>) {
        let [h1, h2, h4, h5] = *g;
        let s2 = h2.square();
        let num = Fp6::<C>::xi(&h5.square()) + s2.double() + s2 - h4.double();
        let den = h1.double().double();
        let h1_zero = h1.is_zero();
        let num = Fp2::conditional_select(&num, &(h2 * h5).double(), h1_zero);
        let den = Fp2::conditional_select(&den, &h4, h1_zero);
        let den = Fp2::conditional_select(&den, &Fp2::ONE, den.is_zero());
        (num, den)
    }

    /// The element with compressed form g and h3 = `h3`: h0 = ξ(2h3² + h1h5 − 3h2h4) + 1.
    fn decompress_with(g: &[Fp2<C::Fp>; 4], h3: Fp2<C::Fp>) -> Self {
        let [h1, h2, h4, h5] = *g;
        let t = h2 * h4;
        let h0 = Fp6::<C>::xi(&(h3.square().double() + h1 * h5 - t.double() - t)) + Fp2::ONE;
        Fp12 {
            c0: Fp6::new(h0, h2, h4),
            c1: Fp6::new(h1, h3, h5),
        }
    }

    /// self^(2^k) for self in the cyclotomic subgroup by k compressed squarings (Karabina
    /// 2013) and one decompression (one inversion). Constant time for a given k. Wrong for
    /// values outside that subgroup.
    pub fn cyclotomic_pow2k_compressed(&self, k: usize) -> Self {
        if k == 0 {
            return *self;
        }
        let mut g = self.compress();
        for _ in 0..k {
            g = Self::compressed_square(&g);
        }
        let (num, den) = Self::decompress_parts(&g);
        Self::decompress_with(&g, num * den.invert().unwrap_or(Fp2::ZERO))
    }

    /// self^|z| like [`Fp12::cyclotomic_pow_z_abs`], by one chain of compressed squarings
    /// (Aranha, Karabina, Longa, Gebotys, López, "Faster explicit formulas for computing
    /// pairings over ordinary curves", EUROCRYPT 2011, §5.1): self^(2^i) is kept compressed
    /// for every position i of a nonzero NAF digit of |z|, the kept values are decompressed
    /// together with one inversion (Montgomery's trick) and multiplied (conjugated for a
    /// negative digit). Constant time: the sequence depends only on z.
    pub fn cyclotomic_pow_z_abs_compressed(&self) -> Self {
        let (naf, n) = const { wnaf(C::Z_ABS, 2) };
        if n == 0 {
            return Self::ONE;
        }
        let mut kept = [[Fp2::<C::Fp>::ZERO; 4]; 129];
        let mut signs = [0i8; 129];
        let mut m = 0;
        let mut g = self.compress();
        for &d in &naf[1..n] {
            g = Self::compressed_square(&g);
            if d != 0 {
                kept[m] = g;
                signs[m] = d;
                m += 1;
            }
        }
        let mut nums = [Fp2::<C::Fp>::ZERO; 129];
        let mut dens = [Fp2::<C::Fp>::ZERO; 129];
        for j in 0..m {
            (nums[j], dens[j]) = Self::decompress_parts(&kept[j]);
        }
        Fp2::batch_invert(&mut dens[..m]);
        let mut acc = match naf[0] {
            0 => Self::ONE,
            d if d > 0 => *self,
            _ => self.conjugate(),
        };
        for j in 0..m {
            let f = Self::decompress_with(&kept[j], nums[j] * dens[j]);
            acc *= if signs[j] > 0 { f } else { f.conjugate() };
        }
        acc
    }

    /// Whether this is one.
    pub fn is_one(&self) -> Choice {
        self.ct_eq(&Self::ONE)
    }

    /// self^e for e as little-endian 64-bit words, by square-and-multiply with constant-time
    /// selects (time depends only on the number of words).
    pub fn pow(&self, exp_le: &[u64]) -> Self {
        let mut acc = Self::ONE;
        for w in exp_le.iter().rev() {
            for b in (0..64).rev() {
                acc = acc.square();
                let m = acc * *self;
                acc = Self::conditional_select(&acc, &m, Choice::from(((w >> b) & 1) as u8));
            }
        }
        acc
    }

    /// Whether self lies in GT (the subgroup of order r of Fp12*): self^r = 1. Variable time.
    pub fn is_in_gt_vartime(&self) -> bool {
        let mut acc = Self::ONE;
        for w in C::R_WORDS.iter().rev() {
            for b in (0..64).rev() {
                acc = acc.square();
                if (w >> b) & 1 == 1 {
                    acc *= *self;
                }
            }
        }
        acc == Self::ONE
    }
}

/// The widest window [`Fp12::cyclotomic_pow_z_abs`] considers (a table of 2^(w−2) odd
/// powers).
const MAX_Z_WINDOW: u32 = 5;

/// The width-w NAF of k < 2^127, least significant digit first, and its length.
#[allow(
    clippy::cast_possible_truncation,
    reason = "w <= MAX_Z_WINDOW, so every digit lies in (-2^(w-1), 2^(w-1)) and fits an i8"
)]
const fn wnaf(mut k: u128, w: u32) -> ([i8; 129], usize) {
    let mut d = [0i8; 129];
    let mut n = 0;
    while k != 0 {
        if k & 1 == 1 {
            let mut m = (k & ((1 << w) - 1)) as i32;
            if m >= 1 << (w - 1) {
                m -= 1 << w;
            }
            d[n] = m as i8;
            if m > 0 {
                k -= m as u128;
            } else {
                k += (-m) as u128;
            }
        }
        k >>= 1;
        n += 1;
    }
    (d, n)
}

/// The window width in 2..=[`MAX_Z_WINDOW`] that makes self^k cheapest (a product counted as
/// two cyclotomic squarings: products for the nonzero digits but the first, plus the table's
/// 2^(w−2) − 1 products and one squaring), with its digits and their count.
const fn z_abs_wnaf(k: u128) -> (u32, [i8; 129], usize) {
    let mut best = (2, wnaf(k, 2));
    let mut best_cost = u32::MAX;
    let mut w = 2;
    while w <= MAX_Z_WINDOW {
        let (d, n) = wnaf(k, w);
        let mut nonzero = 0u32;
        let mut i = 0;
        while i < n {
            if d[i] != 0 {
                nonzero += 1;
            }
            i += 1;
        }
        let table = if w > 2 {
            2 * ((1 << (w - 2)) - 1) + 1
        } else {
            0
        };
        let cost = 2 * nonzero.saturating_sub(1) + table;
        if cost < best_cost {
            best_cost = cost;
            best = (w, (d, n));
        }
        w += 1;
    }
    (best.0, best.1 .0, best.1 .1)
}

impl<C: BnParams> ConstantTimeEq for Fp12<C> {
    fn ct_eq(&self, o: &Self) -> Choice {
        self.c0.ct_eq(&o.c0) & self.c1.ct_eq(&o.c1)
    }
}

impl<C: BnParams> ConditionallySelectable for Fp12<C> {
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        Fp12 {
            c0: Fp6::conditional_select(&a.c0, &b.c0, c),
            c1: Fp6::conditional_select(&a.c1, &b.c1, c),
        }
    }
}

impl<C: BnParams> Add for Fp12<C> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Fp12 {
            c0: self.c0 + o.c0,
            c1: self.c1 + o.c1,
        }
    }
}
impl<C: BnParams> Sub for Fp12<C> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Fp12 {
            c0: self.c0 - o.c0,
            c1: self.c1 - o.c1,
        }
    }
}
impl<C: BnParams> Neg for Fp12<C> {
    type Output = Self;
    fn neg(self) -> Self {
        Fp12 {
            c0: -self.c0,
            c1: -self.c1,
        }
    }
}
impl<C: BnParams> Mul for Fp12<C> {
    type Output = Self;
    /// Karatsuba over w with lazy reduction ([`Fp12::mul_lazy`]), measured faster than
    /// [`Fp12::mul_full`] on all four curves.
    #[inline]
    fn mul(self, o: Self) -> Self {
        self.mul_lazy(&o)
    }
}

impl<C: BnParams> Fp12<C> {
    /// Karatsuba over w with three full Fp6 products.
    pub fn mul_full(&self, o: &Self) -> Self {
        let aa = self.c0 * o.c0;
        let bb = self.c1 * o.c1;
        let s = (self.c0 + self.c1) * (o.c0 + o.c1);
        Fp12 {
            c0: aa + bb.mul_by_v(),
            c1: s - aa - bb,
        }
    }
}
impl<C: BnParams> AddAssign for Fp12<C> {
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}
impl<C: BnParams> SubAssign for Fp12<C> {
    fn sub_assign(&mut self, o: Self) {
        *self = *self - o;
    }
}
impl<C: BnParams> MulAssign for Fp12<C> {
    fn mul_assign(&mut self, o: Self) {
        *self = *self * o;
    }
}
