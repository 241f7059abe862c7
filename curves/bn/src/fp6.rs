//! Fp6 = Fp2\[v\]/(v³ − ξ).
//!
//! Multiplication (`*`) is Karatsuba with lazy reduction ([`Fp6::mul_wide`]: the six Fp2
//! products kept double width, the terms that wrap around v³ = ξ multiplied by ξ in double
//! width, one reduction per output coefficient — 6 instead of 18; Aranha et al., EUROCRYPT
//! 2011, §3.2); Fp12 keeps the Fp6 products wide across its own Karatsuba step too.
//! [`Fp6::mul_full`] is the same without lazy reduction. As in [`crate::fp2`],
//! the wide sums are taken modulo p·R, so there is no bound to exhaust.

use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use fieldgen_field::Field;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

use crate::fp2::{Fp2, Fp2Wide};
use crate::BnParams;

/// c0 + c1·v + c2·v² in Fp6 = Fp2\[v\]/(v³ − ξ).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fp6<C: BnParams> {
    /// Coefficient of 1.
    pub c0: Fp2<C::Fp>,
    /// Coefficient of v.
    pub c1: Fp2<C::Fp>,
    /// Coefficient of v².
    pub c2: Fp2<C::Fp>,
}

impl<C: BnParams> Fp6<C> {
    /// Zero.
    pub const ZERO: Self = Fp6 {
        c0: Fp2::<C::Fp>::ZERO,
        c1: Fp2::<C::Fp>::ZERO,
        c2: Fp2::<C::Fp>::ZERO,
    };
    /// One.
    pub const ONE: Self = Fp6 {
        c0: Fp2::<C::Fp>::ONE,
        c1: Fp2::<C::Fp>::ZERO,
        c2: Fp2::<C::Fp>::ZERO,
    };

    /// c0 + c1·v + c2·v².
    pub const fn new(c0: Fp2<C::Fp>, c1: Fp2<C::Fp>, c2: Fp2<C::Fp>) -> Self {
        Fp6 { c0, c1, c2 }
    }

    /// ξ·x in Fp2.
    #[inline]
    pub(crate) fn xi(x: &Fp2<C::Fp>) -> Fp2<C::Fp> {
        x.mul_by_xi(C::XI_A)
    }

    /// self·v = ξ·c2 + c0·v + c1·v².
    #[inline]
    pub fn mul_by_v(&self) -> Self {
        Fp6 {
            c0: Self::xi(&self.c2),
            c1: self.c0,
            c2: self.c1,
        }
    }

    /// self² (Chung–Hasan SQR2, "Asymmetric squaring formulae", ARITH 2007: 2 squarings and
    /// 3 multiplications in Fp2).
    pub fn square(&self) -> Self {
        let s0 = self.c0.square();
        let ab = self.c0 * self.c1;
        let s1 = ab.double();
        let s2 = (self.c0 - self.c1 + self.c2).square();
        let bc = self.c1 * self.c2;
        let s3 = bc.double();
        let s4 = self.c2.square();
        Fp6 {
            c0: s0 + Self::xi(&s3),
            c1: s1 + Self::xi(&s4),
            c2: s1 + s2 + s3 - s0 - s4,
        }
    }

    /// self·(b0 + b1·v), the sparse product of the line functions: with v0 = a0b0,
    /// v1 = a1b1, it is (v0 + ξa2b1) + ((a0 + a1)(b0 + b1) − v0 − v1)·v + (a2b0 + v1)·v², five
    /// Fp2 products.
    #[inline]
    pub fn mul_by_01(&self, b0: &Fp2<C::Fp>, b1: &Fp2<C::Fp>) -> Self {
        let v0 = self.c0 * *b0;
        let v1 = self.c1 * *b1;
        let t = (self.c0 + self.c1) * (*b0 + *b1);
        Fp6 {
            c0: v0 + Self::xi(&(self.c2 * *b1)),
            c1: t - v0 - v1,
            c2: self.c2 * *b0 + v1,
        }
    }

    /// The product by lazy reduction: [`Fp6::mul_wide`] then one reduction per coefficient.
    #[inline]
    pub fn mul_lazy(&self, o: &Self) -> Self {
        self.mul_wide(o).reduce()
    }

    /// self·(b0 + b1·v) unreduced, Karatsuba on the first two coefficients: with
    /// v0 = a0b0, v1 = a1b1, the product is (v0 + ξa2b1) + ((a0 + a1)(b0 + b1) − v0 − v1)·v +
    /// (a2b0 + v1)·v², five Fp2 products.
    #[inline(always)]
    pub fn mul_by_01_wide(&self, b0: &Fp2<C::Fp>, b1: &Fp2<C::Fp>) -> Fp6Wide<C> {
        let v0 = self.c0.mul_wide(b0);
        let v1 = self.c1.mul_wide(b1);
        let t = (self.c0 + self.c1).mul_wide(&(*b0 + *b1));
        Fp6Wide {
            c0: v0.add(&self.c2.mul_wide(b1).mul_by_xi(C::XI_A)),
            c1: t.sub(&v0).sub(&v1),
            c2: self.c2.mul_wide(b0).add(&v1),
        }
    }

    /// self·b for b in Fp2, unreduced.
    #[inline(always)]
    pub fn mul_fp2_wide(&self, b: &Fp2<C::Fp>) -> Fp6Wide<C> {
        Fp6Wide {
            c0: self.c0.mul_wide(b),
            c1: self.c1.mul_wide(b),
            c2: self.c2.mul_wide(b),
        }
    }

    /// self·b for b in Fp2.
    #[inline]
    pub fn mul_fp2(&self, b: &Fp2<C::Fp>) -> Self {
        Fp6 {
            c0: self.c0 * *b,
            c1: self.c1 * *b,
            c2: self.c2 * *b,
        }
    }

    /// The inverse (zero has none): with t0 = c0² − ξc1c2, t1 = ξc2² − c0c1, t2 = c1² − c0c2,
    /// 1/self = (t0 + t1·v + t2·v²)/(c0t0 + ξ(c2t1 + c1t2)).
    pub fn invert(&self) -> CtOption<Self> {
        let t0 = self.c0.square() - Self::xi(&(self.c1 * self.c2));
        let t1 = Self::xi(&self.c2.square()) - self.c0 * self.c1;
        let t2 = self.c1.square() - self.c0 * self.c2;
        let d = self.c0 * t0 + Self::xi(&(self.c2 * t1 + self.c1 * t2));
        d.invert().map(|di| Fp6 {
            c0: t0 * di,
            c1: t1 * di,
            c2: t2 * di,
        })
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> Choice {
        self.c0.is_zero() & self.c1.is_zero() & self.c2.is_zero()
    }

    /// self^(p^k) for k = 1, 2, 3 (other k reduce mod 6 by repetition): coefficient c_j of
    /// v^j = w^(2j) maps to c̄_j·γk\[2j\] (conjugated for odd k).
    pub fn frobenius(&self, k: usize) -> Self {
        let g = match k % 6 {
            0 => return *self,
            1 => &C::FROB1,
            2 => &C::FROB2,
            3 => &C::FROB3,
            _ => return self.frobenius(3).frobenius(k % 6 - 3),
        };
        let conj = |x: &Fp2<C::Fp>| if k % 2 == 1 { x.conjugate() } else { *x };
        Fp6 {
            c0: conj(&self.c0),
            c1: conj(&self.c1) * g[2],
            c2: conj(&self.c2) * g[4],
        }
    }
}

impl<C: BnParams> ConstantTimeEq for Fp6<C> {
    fn ct_eq(&self, o: &Self) -> Choice {
        self.c0.ct_eq(&o.c0) & self.c1.ct_eq(&o.c1) & self.c2.ct_eq(&o.c2)
    }
}

impl<C: BnParams> ConditionallySelectable for Fp6<C> {
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        Fp6 {
            c0: Fp2::conditional_select(&a.c0, &b.c0, c),
            c1: Fp2::conditional_select(&a.c1, &b.c1, c),
            c2: Fp2::conditional_select(&a.c2, &b.c2, c),
        }
    }
}

impl<C: BnParams> Add for Fp6<C> {
    type Output = Self;
    #[inline]
    fn add(self, o: Self) -> Self {
        Fp6 {
            c0: self.c0 + o.c0,
            c1: self.c1 + o.c1,
            c2: self.c2 + o.c2,
        }
    }
}
impl<C: BnParams> Sub for Fp6<C> {
    type Output = Self;
    #[inline]
    fn sub(self, o: Self) -> Self {
        Fp6 {
            c0: self.c0 - o.c0,
            c1: self.c1 - o.c1,
            c2: self.c2 - o.c2,
        }
    }
}
impl<C: BnParams> Neg for Fp6<C> {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Fp6 {
            c0: -self.c0,
            c1: -self.c1,
            c2: -self.c2,
        }
    }
}

impl<C: BnParams> Mul for Fp6<C> {
    type Output = Self;
    #[inline]
    fn mul(self, o: Self) -> Self {
        self.mul_lazy(&o)
    }
}

impl<C: BnParams> Fp6<C> {
    /// Karatsuba over full Fp2 products: with v_k = a_k·b_k, c0 = v0 + ξ((a1 + a2)(b1 + b2) − v1 − v2),
    /// c1 = (a0 + a1)(b0 + b1) − v0 − v1 + ξv2, c2 = (a0 + a2)(b0 + b2) − v0 − v2 + v1.
    #[inline]
    pub fn mul_full(&self, o: &Self) -> Self {
        let (a, b) = (self, o);
        let v0 = a.c0 * b.c0;
        let v1 = a.c1 * b.c1;
        let v2 = a.c2 * b.c2;
        let t12 = (a.c1 + a.c2) * (b.c1 + b.c2);
        let t01 = (a.c0 + a.c1) * (b.c0 + b.c1);
        let t02 = (a.c0 + a.c2) * (b.c0 + b.c2);
        Fp6 {
            c0: v0 + Self::xi(&(t12 - v1 - v2)),
            c1: t01 - v0 - v1 + Self::xi(&v2),
            c2: t02 - v0 - v2 + v1,
        }
    }
}

/// A double-width Fp6 value: three [`Fp2Wide`] coefficients, reduced by [`Fp6Wide::reduce`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Fp6Wide<C: BnParams> {
    /// Coefficient of 1.
    pub c0: Fp2Wide<C::Fp>,
    /// Coefficient of v.
    pub c1: Fp2Wide<C::Fp>,
    /// Coefficient of v².
    pub c2: Fp2Wide<C::Fp>,
}

impl<C: BnParams> Fp6Wide<C> {
    /// Coefficient-wise sum modulo p·R.
    #[inline(always)]
    pub fn add(&self, o: &Self) -> Self {
        Fp6Wide {
            c0: self.c0.add(&o.c0),
            c1: self.c1.add(&o.c1),
            c2: self.c2.add(&o.c2),
        }
    }
    /// Coefficient-wise difference modulo p·R.
    #[inline(always)]
    pub fn sub(&self, o: &Self) -> Self {
        Fp6Wide {
            c0: self.c0.sub(&o.c0),
            c1: self.c1.sub(&o.c1),
            c2: self.c2.sub(&o.c2),
        }
    }
    /// self·v = ξ·c2 + c0·v + c1·v², in double width.
    #[inline(always)]
    pub fn mul_by_v(&self) -> Self {
        Fp6Wide {
            c0: self.c2.mul_by_xi(C::XI_A),
            c1: self.c0,
            c2: self.c1,
        }
    }
    /// One Montgomery reduction per Fp coefficient (six).
    #[inline(always)]
    pub fn reduce(&self) -> Fp6<C> {
        Fp6 {
            c0: self.c0.reduce(),
            c1: self.c1.reduce(),
            c2: self.c2.reduce(),
        }
    }
}

impl<C: BnParams> Fp6<C> {
    /// The unreduced product, Karatsuba in double width (Aranha et al., EUROCRYPT 2011,
    /// Alg. 4 without its reductions): with v_k = a_k·b_k, c0 = v0 + ξ((a1 + a2)(b1 + b2) −
    /// v1 − v2), c1 = (a0 + a1)(b0 + b1) − v0 − v1 + ξv2, c2 = (a0 + a2)(b0 + b2) − v0 − v2 + v1:
    /// six Fp2 products (18 `mul_wide`), no reduction.
    #[inline]
    pub fn mul_wide(&self, o: &Self) -> Fp6Wide<C> {
        let (a, b) = (self, o);
        let v0 = a.c0.mul_wide(&b.c0);
        let v1 = a.c1.mul_wide(&b.c1);
        let v2 = a.c2.mul_wide(&b.c2);
        let t12 = (a.c1 + a.c2).mul_wide(&(b.c1 + b.c2));
        let t01 = (a.c0 + a.c1).mul_wide(&(b.c0 + b.c1));
        let t02 = (a.c0 + a.c2).mul_wide(&(b.c0 + b.c2));
        Fp6Wide {
            c0: v0.add(&t12.sub(&v1).sub(&v2).mul_by_xi(C::XI_A)),
            c1: t01.sub(&v0).sub(&v1).add(&v2.mul_by_xi(C::XI_A)),
            c2: t02.sub(&v0).sub(&v2).add(&v1),
        }
    }
}
impl<C: BnParams> AddAssign for Fp6<C> {
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}
impl<C: BnParams> SubAssign for Fp6<C> {
    fn sub_assign(&mut self, o: Self) {
        *self = *self - o;
    }
}
impl<C: BnParams> MulAssign for Fp6<C> {
    fn mul_assign(&mut self, o: Self) {
        *self = *self * o;
    }
}
