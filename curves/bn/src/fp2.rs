//! Fp2 = Fp\[i\]/(i² + 1), for p ≡ 3 mod 4 (every BN prime with odd z), generic over the
//! generated base field.
//!
//! Multiplication (`*`) is Karatsuba with lazy reduction ([`Fp2::mul_wide`] then
//! [`Fp2Wide::reduce`]: three double-width products a0·b0, a1·b1 and (a0 + a1)(b0 + b1)
//! combined with [`WideField::add_wide`]/`sub_wide`, each output coefficient reduced once —
//! the "FpDbl" technique of Aranha, Karabina, Longa, Gebotys and López, "Faster explicit
//! formulas for computing pairings over ordinary curves", EUROCRYPT 2011, §3): two
//! reductions instead of three, measured faster than three fused products
//! ([`Fp2::mul_full`]) now that the generated `mul_wide`/`reduce_wide` have mulx/adx
//! kernels (fields of up to 6 limbs; above, `*` is [`Fp2::mul_full`]); Fp6 and Fp12 keep the
//! same wide values across their own Karatsuba steps. Bound of the lazy form: `add_wide` and
//! `sub_wide` work modulo p·R, so every intermediate stays below p·R, the input bound of
//! `reduce_wide`, whatever the number of terms (the cost is one conditional correction per
//! wide addition); the Karatsuba step inside [`Fp2::mul_wide`] uses the headroom between p²
//! and p·R instead ([`WideField::WIDE_HEADROOM`]): unreduced operand sums and exact
//! subtractions, the bound argued there.

use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use fieldgen_field::{ByteArray, Field, WideField};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

use crate::FpExt;

/// c0 + c1·i in Fp2 = Fp\[i\]/(i² + 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fp2<F> {
    /// The real part.
    pub c0: F,
    /// The coefficient of i.
    pub c1: F,
}

/// A double-width Fp2 value (two unreduced [`WideField::Wide`] coefficients).
#[derive(Clone, Copy, Debug, Default)]
pub struct Fp2Wide<F: WideField> {
    /// Real part, below p·R.
    pub c0: F::Wide,
    /// Imaginary part, below p·R.
    pub c1: F::Wide,
}

impl<F: WideField> Fp2Wide<F> {
    /// Coefficient-wise sum modulo p·R.
    #[inline(always)]
    pub fn add(&self, o: &Self) -> Self {
        Fp2Wide {
            c0: F::add_wide(&self.c0, &o.c0),
            c1: F::add_wide(&self.c1, &o.c1),
        }
    }
    /// Coefficient-wise difference modulo p·R.
    #[inline(always)]
    pub fn sub(&self, o: &Self) -> Self {
        Fp2Wide {
            c0: F::sub_wide(&self.c0, &o.c0),
            c1: F::sub_wide(&self.c1, &o.c1),
        }
    }
    /// One Montgomery reduction per coefficient.
    #[inline(always)]
    pub fn reduce(&self) -> Fp2<F> {
        Fp2 {
            c0: F::reduce_wide(&self.c0),
            c1: F::reduce_wide(&self.c1),
        }
    }
    /// ξ·self for ξ = xi_a + i: (xi_a·c0 − c1) + (xi_a·c1 + c0)·i, the small multiple by
    /// doublings and additions modulo p·R.
    #[inline(always)]
    pub fn mul_by_xi(&self, xi_a: u32) -> Self {
        let k0 = small_mul_wide::<F>(&self.c0, xi_a);
        let k1 = small_mul_wide::<F>(&self.c1, xi_a);
        Fp2Wide {
            c0: F::sub_wide(&k0, &self.c1),
            c1: F::add_wide(&k1, &self.c0),
        }
    }
}

/// k·t modulo p·R by double-and-add (k ≥ 1 is a public curve constant; inlined so the loop
/// unrolls for the constant).
#[inline(always)]
fn small_mul_wide<F: WideField>(t: &F::Wide, k: u32) -> F::Wide {
    if k == 0 {
        return F::Wide::default();
    }
    let mut acc = *t;
    for bit in (0..31 - k.leading_zeros()).rev() {
        acc = F::add_wide(&acc, &acc);
        if (k >> bit) & 1 == 1 {
            acc = F::add_wide(&acc, t);
        }
    }
    acc
}

/// k·x by double-and-add (k is a public curve constant; inlined so the loop unrolls).
#[inline(always)]
fn small_mul<F: Field>(x: &F, k: u32) -> F {
    if k == 0 {
        return F::ZERO;
    }
    let mut acc = *x;
    for bit in (0..31 - k.leading_zeros()).rev() {
        acc = acc.double();
        if (k >> bit) & 1 == 1 {
            acc += *x;
        }
    }
    acc
}

impl<F: FpExt> Fp2<F> {
    /// Karatsuba over three full (fused) Fp products, the product before lazy reduction
    /// became the default (kept as a second method and for the benchmark).
    #[inline]
    pub fn mul_full(&self, o: &Self) -> Self {
        let t0 = self.c0 * o.c0;
        let t1 = self.c1 * o.c1;
        let t2 = (self.c0 + self.c1) * (o.c0 + o.c1);
        Fp2 {
            c0: t0 - t1,
            c1: t2 - t0 - t1,
        }
    }

    /// c0 + c1·i.
    pub const fn new(c0: F, c1: F) -> Self {
        Fp2 { c0, c1 }
    }

    /// The embedding of Fp.
    pub fn from_base(c0: F) -> Self {
        Fp2 { c0, c1: F::ZERO }
    }

    /// c0 − c1·i, the p-th power Frobenius.
    #[inline]
    pub fn conjugate(&self) -> Self {
        Fp2 {
            c0: self.c0,
            c1: -self.c1,
        }
    }

    /// self·s for s in Fp.
    #[inline]
    pub fn mul_base(&self, s: &F) -> Self {
        Fp2 {
            c0: self.c0 * *s,
            c1: self.c1 * *s,
        }
    }

    /// The double-width product (Karatsuba, three `mul_wide`, no reduction): with
    /// t0 = a0·b0, t1 = a1·b1 (each below p²), the real part is t0 − t1 modulo p·R and the
    /// imaginary part (a0 + a1)(b0 + b1) − t0 − t1.
    ///
    /// Bounds: when [`WideField::WIDE_HEADROOM`] ≥ 4 (every BN field: 4p² < p·R needs
    /// R > 4p, two spare bits) the sums a0 + a1 and b0 + b1 stay unreduced
    /// ([`WideField::mul_wide_sums`], each below 2p), so t2 = (a0 + a1)(b0 + b1) is the exact
    /// integer, below 4p² < p·R, and t2 − t0 − t1 = a0·b1 + a1·b0 lies in [0, 2p²): both
    /// subtractions are exact and need no correction ([`WideField::sub_wide_unreduced`]).
    /// Otherwise the sums are reduced mod p and the differences taken modulo p·R. Either way
    /// both output coefficients are below p·R; the imaginary one, in the first case, below 2p².
    #[inline(always)]
    pub fn mul_wide(&self, o: &Self) -> Fp2Wide<F> {
        let t0 = F::mul_wide(&self.c0, &o.c0);
        let t1 = F::mul_wide(&self.c1, &o.c1);
        if F::WIDE_HEADROOM >= 4 {
            let t2 = F::mul_wide_sums(&self.c0, &self.c1, &o.c0, &o.c1);
            Fp2Wide {
                c0: F::sub_wide(&t0, &t1),
                c1: F::sub_wide_unreduced(&F::sub_wide_unreduced(&t2, &t0), &t1),
            }
        } else {
            let t2 = F::mul_wide(&(self.c0 + self.c1), &(o.c0 + o.c1));
            Fp2Wide {
                c0: F::sub_wide(&t0, &t1),
                c1: F::sub_wide(&F::sub_wide(&t2, &t0), &t1),
            }
        }
    }

    /// The double-width square: (c0 + c1)(c0 − c1) + 2·c0·c1·i. With
    /// [`WideField::WIDE_HEADROOM`] ≥ 4 the sum c0 + c1 stays unreduced (below 2p; the real part
    /// is then below 2p²); both parts are below p·R either way.
    #[inline(always)]
    pub fn square_wide(&self) -> Fp2Wide<F> {
        let c0 = if F::WIDE_HEADROOM >= 4 {
            F::mul_wide_sums(&self.c0, &self.c1, &(self.c0 - self.c1), &F::ZERO)
        } else {
            F::mul_wide(&(self.c0 + self.c1), &(self.c0 - self.c1))
        };
        Fp2Wide {
            c0,
            c1: F::mul_wide(&self.c0.double(), &self.c1),
        }
    }

    /// ξ·self for ξ = xi_a + i: the small multiples by doublings and additions (xi_a is a
    /// public curve constant, 1, 2 or 9 for the presets), not by Montgomery products.
    #[inline(always)]
    pub fn mul_by_xi(&self, xi_a: u32) -> Self {
        let k0 = small_mul::<F>(&self.c0, xi_a);
        let k1 = small_mul::<F>(&self.c1, xi_a);
        Fp2 {
            c0: k0 - self.c1,
            c1: k1 + self.c0,
        }
    }

    /// The norm c0² + c1² (in Fp).
    #[inline]
    pub fn norm(&self) -> F {
        F::reduce_wide(&F::add_wide(
            &F::square_wide(&self.c0),
            &F::square_wide(&self.c1),
        ))
    }

    /// self^e for a public exponent (little-endian words); variable time in e.
    pub fn pow_vartime_words(&self, e: &[u64]) -> Self {
        let mut acc = Self::ONE;
        for w in e.iter().rev() {
            for b in (0..64).rev() {
                acc = acc.square();
                if (w >> b) & 1 == 1 {
                    acc *= *self;
                }
            }
        }
        acc
    }

    /// RFC 9380 §4.1 `sgn0` for m = 2: the parity of c0, or of c1 when c0 = 0.
    pub fn sgn0(&self) -> Choice {
        self.c0.is_odd() | (self.c0.is_zero() & self.c1.is_odd())
    }
}

impl<F: FpExt> ConstantTimeEq for Fp2<F> {
    fn ct_eq(&self, o: &Self) -> Choice {
        self.c0.ct_eq(&o.c0) & self.c1.ct_eq(&o.c1)
    }
}

impl<F: FpExt> ConditionallySelectable for Fp2<F> {
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        Fp2 {
            c0: F::conditional_select(&a.c0, &b.c0, c),
            c1: F::conditional_select(&a.c1, &b.c1, c),
        }
    }
}

impl<F: FpExt> Add for Fp2<F> {
    type Output = Self;
    #[inline]
    fn add(self, o: Self) -> Self {
        Fp2 {
            c0: self.c0 + o.c0,
            c1: self.c1 + o.c1,
        }
    }
}
impl<F: FpExt> Sub for Fp2<F> {
    type Output = Self;
    #[inline]
    fn sub(self, o: Self) -> Self {
        Fp2 {
            c0: self.c0 - o.c0,
            c1: self.c1 - o.c1,
        }
    }
}
impl<F: FpExt> Mul for Fp2<F> {
    type Output = Self;
    #[inline]
    fn mul(self, o: Self) -> Self {
        // Up to 6 limbs the generated `mul_wide`/`reduce_wide` have mulx/adx kernels and the
        // lazy form wins; above (BN462's 8 limbs) they are portable code and three fused
        // products measure faster. The size is a compile-time constant.
        if core::mem::size_of::<F>() <= 48 {
            self.mul_wide(&o).reduce()
        } else {
            self.mul_full(&o)
        }
    }
}
impl<F: FpExt> Neg for Fp2<F> {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Fp2 {
            c0: -self.c0,
            c1: -self.c1,
        }
    }
}
impl<F: FpExt> AddAssign for Fp2<F> {
    #[inline]
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}
impl<F: FpExt> SubAssign for Fp2<F> {
    #[inline]
    fn sub_assign(&mut self, o: Self) {
        *self = *self - o;
    }
}
impl<F: FpExt> MulAssign for Fp2<F> {
    #[inline]
    fn mul_assign(&mut self, o: Self) {
        *self = *self * o;
    }
}

fn split<F: FpExt>(bytes: &F::Bytes2) -> (F::Bytes, F::Bytes) {
    let mut lo = F::Bytes::zeroed();
    let mut hi = F::Bytes::zeroed();
    let n = F::BYTES;
    lo.as_mut().copy_from_slice(&bytes.as_ref()[..n]);
    hi.as_mut().copy_from_slice(&bytes.as_ref()[n..]);
    (lo, hi)
}

fn join<F: FpExt>(lo: &F::Bytes, hi: &F::Bytes) -> F::Bytes2 {
    let mut out = F::Bytes2::zeroed();
    let n = F::BYTES;
    out.as_mut()[..n].copy_from_slice(lo.as_ref());
    out.as_mut()[n..].copy_from_slice(hi.as_ref());
    out
}

/// Fp2 as a [`Field`], so the group layer's formulas run over it for G2. Encodings are
/// 2·BYTES bytes: little-endian c0 then c1; big-endian c1 then c0 (the order of EIP-197).
impl<F: FpExt> Field for Fp2<F> {
    type Bytes = F::Bytes2;
    const BYTES: usize = 2 * F::BYTES;
    const ZERO: Self = Fp2 {
        c0: F::ZERO,
        c1: F::ZERO,
    };
    const ONE: Self = Fp2 {
        c0: F::ONE,
        c1: F::ZERO,
    };
    const CHARACTERISTIC_TWO: bool = false;

    /// (c0 + c1)(c0 − c1) + 2·c0·c1·i: two Fp products.
    #[inline]
    fn square(&self) -> Self {
        Fp2 {
            c0: (self.c0 + self.c1) * (self.c0 - self.c1),
            c1: self.c0.double() * self.c1,
        }
    }
    #[inline]
    fn double(&self) -> Self {
        Fp2 {
            c0: self.c0.double(),
            c1: self.c1.double(),
        }
    }
    /// (c0 − c1·i)/(c0² + c1²).
    fn invert(&self) -> CtOption<Self> {
        self.norm().invert().map(|n| Fp2 {
            c0: self.c0 * n,
            c1: -(self.c1 * n),
        })
    }
    fn invert_vartime(&self) -> Option<Self> {
        self.norm().invert_vartime().map(|n| Fp2 {
            c0: self.c0 * n,
            c1: -(self.c1 * n),
        })
    }
    /// Through the norm (p ≡ 3 mod 4): with s² = c0² + c1², a root is x0 + x1·i where
    /// x0² = (c0 + s)/2 or (c0 − s)/2 (whichever is a square) and x1 = c1/(2·x0); for c1 = 0 it
    /// is √c0 or √(−c0)·i. Constant time (every candidate computed, results selected), checked
    /// by squaring.
    fn sqrt(&self) -> CtOption<Self> {
        let s = self.norm().sqrt().unwrap_or(F::ZERO);
        let half = F::TWO_INV;
        let a_plus = (self.c0 + s) * half;
        let a_minus = (self.c0 - s) * half;
        let r_plus = a_plus.sqrt();
        let r_minus = a_minus.sqrt();
        let x0 = F::conditional_select(
            &r_minus.unwrap_or(F::ZERO),
            &r_plus.unwrap_or(F::ZERO),
            r_plus.is_some(),
        );
        let x1 = self.c1 * x0.double().invert().unwrap_or(F::ZERO);
        let general = Fp2 { c0: x0, c1: x1 };
        // c1 = 0: √c0 or √(−c0)·i.
        let r0 = self.c0.sqrt();
        let rn = (-self.c0).sqrt();
        let real = Fp2 {
            c0: r0.unwrap_or(F::ZERO),
            c1: F::ZERO,
        };
        let imag = Fp2 {
            c0: F::ZERO,
            c1: rn.unwrap_or(F::ZERO),
        };
        let pure = Self::conditional_select(&imag, &real, r0.is_some());
        let cand = Self::conditional_select(&general, &pure, self.c1.is_zero());
        CtOption::new(cand, cand.square().ct_eq(self))
    }
    fn is_zero(&self) -> Choice {
        self.c0.is_zero() & self.c1.is_zero()
    }
    /// Square-and-multiply over every bit of e with a constant-time select.
    fn pow(&self, exp_le: &[u64]) -> Self {
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
    fn pow_vartime(&self, exp_le: &[u64]) -> Self {
        self.pow_vartime_words(exp_le)
    }
    fn to_le_bytes(&self) -> Self::Bytes {
        join::<F>(&self.c0.to_le_bytes(), &self.c1.to_le_bytes())
    }
    fn to_be_bytes(&self) -> Self::Bytes {
        join::<F>(&self.c1.to_be_bytes(), &self.c0.to_be_bytes())
    }
    fn from_le_bytes(bytes: &Self::Bytes) -> CtOption<Self> {
        let (lo, hi) = split::<F>(bytes);
        let c0 = F::from_le_bytes(&lo);
        let c1 = F::from_le_bytes(&hi);
        CtOption::new(
            Fp2 {
                c0: c0.unwrap_or(F::ZERO),
                c1: c1.unwrap_or(F::ZERO),
            },
            c0.is_some() & c1.is_some(),
        )
    }
    fn from_be_bytes(bytes: &Self::Bytes) -> CtOption<Self> {
        let (hi, lo) = split::<F>(bytes);
        let c0 = F::from_be_bytes(&lo);
        let c1 = F::from_be_bytes(&hi);
        CtOption::new(
            Fp2 {
                c0: c0.unwrap_or(F::ZERO),
                c1: c1.unwrap_or(F::ZERO),
            },
            c0.is_some() & c1.is_some(),
        )
    }
}
