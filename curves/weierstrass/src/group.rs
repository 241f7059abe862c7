//! The generic group law of y² = x³ + a·x + b over any [`Field`].
//!
//! Points are kept in homogeneous projective coordinates (X : Y : Z), x = X/Z, y = Y/Z, the
//! identity being (0 : 1 : 0). Every addition uses the complete formulas of Renes, Costello
//! and Batina, "Complete addition formulas for prime order elliptic curves" (EUROCRYPT 2016):
//! Algorithms 1–2 for a general a, 4–5 for a = −3 and 7–8 for a = 0, chosen at compile time
//! from [`CurveParams::A_KIND`]. Complete means no input (the identity, P = Q, P = −Q) needs a
//! branch, which is what makes the constant-time scalar multiplication simple. Doubling is
//! RCB16 Algorithm 3 or 9 for a general a and a = 0, and dbl-2007-bl for a = −3; runs of
//! doublings go through Jacobian coordinates ([`ProjectivePoint::double_n`]). Neither needs a
//! branch either: on a prime-order curve only the identity is exceptional for them, and it is
//! handled by a select.
//!
//! Nothing here needs a prime field: the arithmetic is written against [`Field`] only, so an
//! extension field (Fp2 for a pairing's G2) plugs in. The pieces that need GF(p) (SEC 1
//! encodings) live in [`crate::sec1`].

use core::fmt;
use core::ops::{Add, AddAssign, Neg, Sub, SubAssign};

use fieldgen_field::Field;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};
use zeroize::Zeroize;

/// Which of the Renes–Costello–Batina formula families a curve uses, fixed by its a.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AKind {
    /// a = 0 (secp256k1, BN curves): Algorithms 7–9, 12M + 2·m(3b) per addition.
    Zero,
    /// a = −3 (the NIST curves): Algorithms 4–6, 12M + 2·m(b) per addition.
    MinusThree,
    /// Any other a: Algorithms 1–3, 12M + 3·m(a) + 2·m(3b) per addition.
    Generic,
}

/// The constants of one curve y² = x³ + a·x + b (the shape of arkworks' `SWCurveConfig` and
/// RustCrypto's `PrimeCurveParams`). Implemented by a zero-sized marker type per curve.
///
/// The implementer guarantees that the constants agree: `A` is −3 or 0 when `A_KIND` says
/// so, `B3` = 3·b, and the generator lies on the curve (the curve tests check each).
pub trait CurveParams: Copy + Clone + fmt::Debug + Default + Send + Sync + 'static {
    /// The coordinate field.
    type Base: Field;
    /// A short name for messages ("P-256").
    const NAME: &'static str;
    /// The coefficient a.
    const A: Self::Base;
    /// The coefficient b.
    const B: Self::Base;
    /// 3·b, the constant the a = 0 and general formulas multiply by.
    const B3: Self::Base;
    /// Which formula family `A` selects.
    const A_KIND: AKind;
    /// Affine x of the base point of the prime-order subgroup.
    const GENERATOR_X: Self::Base;
    /// Affine y of the base point.
    const GENERATOR_Y: Self::Base;

    /// 3·b·x. The default multiplies by [`CurveParams::B3`]; a curve whose 3·b is a small
    /// integer (secp256k1: 21) overrides it with the field's cheaper multiplication by a word.
    #[inline(always)]
    fn mul_by_b3(x: &Self::Base) -> Self::Base {
        Self::B3 * *x
    }

    /// a·x, with the multiplication replaced by additions for a = 0 and a = −3.
    #[inline(always)]
    fn mul_by_a(x: &Self::Base) -> Self::Base {
        match Self::A_KIND {
            AKind::Zero => Self::Base::ZERO,
            AKind::MinusThree => -(x.double() + *x),
            AKind::Generic => Self::A * *x,
        }
    }
}

/// A point in affine coordinates (x, y), or the identity (then x = y = 0 and `infinity` set).
#[derive(Clone, Copy)]
pub struct AffinePoint<C: CurveParams> {
    pub(crate) x: C::Base,
    pub(crate) y: C::Base,
    pub(crate) infinity: Choice,
}

/// A point in homogeneous projective coordinates (X : Y : Z), x = X/Z, y = Y/Z; the identity
/// is any (0 : Y : 0).
#[derive(Clone, Copy)]
pub struct ProjectivePoint<C: CurveParams> {
    pub(crate) x: C::Base,
    pub(crate) y: C::Base,
    pub(crate) z: C::Base,
}

impl<C: CurveParams> fmt::Debug for AffinePoint<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if bool::from(self.infinity) {
            write!(f, "AffinePoint<{}>(identity)", C::NAME)
        } else {
            write!(f, "AffinePoint<{}>({:?}, {:?})", C::NAME, self.x, self.y)
        }
    }
}

impl<C: CurveParams> fmt::Debug for ProjectivePoint<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ProjectivePoint<{}>({:?} : {:?} : {:?})",
            C::NAME,
            self.x,
            self.y,
            self.z
        )
    }
}

impl<C: CurveParams> AffinePoint<C> {
    /// The identity.
    pub fn identity() -> Self {
        AffinePoint {
            x: C::Base::ZERO,
            y: C::Base::ZERO,
            infinity: Choice::from(1),
        }
    }

    /// The base point (GENERATOR_X, GENERATOR_Y).
    pub fn generator() -> Self {
        AffinePoint {
            x: C::GENERATOR_X,
            y: C::GENERATOR_Y,
            infinity: Choice::from(0),
        }
    }

    /// The point (x, y) if it lies on the curve; none otherwise. Constant time.
    pub fn from_xy(x: C::Base, y: C::Base) -> CtOption<Self> {
        let p = AffinePoint {
            x,
            y,
            infinity: Choice::from(0),
        };
        let on = p.is_on_curve();
        CtOption::new(p, on)
    }

    /// The finite point (x, y) as given, without a check: the caller guarantees
    /// y² = x³ + a·x + b (the image of a curve point under an endomorphism, say);
    /// [`AffinePoint::is_on_curve`] tests it.
    pub fn from_coordinates_unchecked(x: C::Base, y: C::Base) -> Self {
        AffinePoint {
            x,
            y,
            infinity: Choice::from(0),
        }
    }

    /// y² = x³ + a·x + b (true for the identity). Constant time.
    pub fn is_on_curve(&self) -> Choice {
        let rhs = (self.x.square() + C::A) * self.x + C::B;
        let rhs = match C::A_KIND {
            AKind::Zero => self.x.square() * self.x + C::B,
            _ => rhs,
        };
        self.y.square().ct_eq(&rhs) | self.infinity
    }

    /// Whether this is the identity.
    pub fn is_identity(&self) -> Choice {
        self.infinity
    }

    /// The affine x-coordinate; none for the identity.
    pub fn x(&self) -> CtOption<C::Base> {
        CtOption::new(self.x, !self.infinity)
    }

    /// The affine y-coordinate; none for the identity.
    pub fn y(&self) -> CtOption<C::Base> {
        CtOption::new(self.y, !self.infinity)
    }

    /// (x, y, 1), or (0 : 1 : 0) for the identity.
    pub fn to_projective(&self) -> ProjectivePoint<C> {
        ProjectivePoint::conditional_select(
            &ProjectivePoint {
                x: self.x,
                y: self.y,
                z: C::Base::ONE,
            },
            &ProjectivePoint::IDENTITY,
            self.infinity,
        )
    }
}

impl<C: CurveParams> ConditionallySelectable for AffinePoint<C> {
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        AffinePoint {
            x: C::Base::conditional_select(&a.x, &b.x, choice),
            y: C::Base::conditional_select(&a.y, &b.y, choice),
            infinity: Choice::conditional_select(&a.infinity, &b.infinity, choice),
        }
    }
}

impl<C: CurveParams> ConstantTimeEq for AffinePoint<C> {
    fn ct_eq(&self, other: &Self) -> Choice {
        (self.infinity & other.infinity)
            | (!self.infinity & !other.infinity & self.x.ct_eq(&other.x) & self.y.ct_eq(&other.y))
    }
}

impl<C: CurveParams> PartialEq for AffinePoint<C> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}
impl<C: CurveParams> Eq for AffinePoint<C> {}

impl<C: CurveParams> Neg for AffinePoint<C> {
    type Output = Self;
    fn neg(self) -> Self {
        AffinePoint {
            x: self.x,
            y: C::Base::conditional_select(&-self.y, &C::Base::ZERO, self.infinity),
            infinity: self.infinity,
        }
    }
}

impl<C: CurveParams> Default for AffinePoint<C> {
    fn default() -> Self {
        Self::identity()
    }
}

impl<C: CurveParams> ConditionallySelectable for ProjectivePoint<C> {
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        ProjectivePoint {
            x: C::Base::conditional_select(&a.x, &b.x, choice),
            y: C::Base::conditional_select(&a.y, &b.y, choice),
            z: C::Base::conditional_select(&a.z, &b.z, choice),
        }
    }
}

impl<C: CurveParams> ConstantTimeEq for ProjectivePoint<C> {
    /// Cross-multiplied comparison X1·Z2 = X2·Z1 and Y1·Z2 = Y2·Z1 (two identities compare
    /// equal, the identity and a finite point do not since Y ≠ 0 on both).
    fn ct_eq(&self, other: &Self) -> Choice {
        (self.x * other.z).ct_eq(&(other.x * self.z))
            & (self.y * other.z).ct_eq(&(other.y * self.z))
    }
}

impl<C: CurveParams> PartialEq for ProjectivePoint<C> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}
impl<C: CurveParams> Eq for ProjectivePoint<C> {}

impl<C: CurveParams> Default for ProjectivePoint<C> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<C: CurveParams> From<AffinePoint<C>> for ProjectivePoint<C> {
    fn from(p: AffinePoint<C>) -> Self {
        p.to_projective()
    }
}

impl<C: CurveParams> ProjectivePoint<C> {
    /// The identity (0 : 1 : 0).
    pub const IDENTITY: Self = ProjectivePoint {
        x: C::Base::ZERO,
        y: C::Base::ONE,
        z: C::Base::ZERO,
    };

    /// The base point (GENERATOR_X : GENERATOR_Y : 1).
    pub const GENERATOR: Self = ProjectivePoint {
        x: C::GENERATOR_X,
        y: C::GENERATOR_Y,
        z: C::Base::ONE,
    };

    /// Whether this is the identity (Z = 0).
    pub fn is_identity(&self) -> Choice {
        self.z.is_zero()
    }

    /// The coordinates (X, Y, Z), for maps computed on them (endomorphisms).
    pub fn coordinates(&self) -> (C::Base, C::Base, C::Base) {
        (self.x, self.y, self.z)
    }

    /// (X : Y : Z) as given, without a check: the caller guarantees Y²Z = X³ + aXZ² + bZ³
    /// with (X, Z) ≠ (0, 0) (the image of a curve point under an endomorphism, say);
    /// [`ProjectivePoint::is_on_curve`] tests it.
    pub fn from_coordinates_unchecked(x: C::Base, y: C::Base, z: C::Base) -> Self {
        ProjectivePoint { x, y, z }
    }

    /// The affine point: one constant-time inversion of Z; the identity maps to the identity.
    pub fn to_affine(&self) -> AffinePoint<C> {
        let zinv = self.z.invert().unwrap_or(C::Base::ZERO);
        let inf = self.z.is_zero();
        AffinePoint {
            x: self.x * zinv,
            y: self.y * zinv,
            infinity: inf,
        }
    }

    /// Normalises many points with one inversion (Montgomery's trick through
    /// [`Field::batch_invert`]); `out[i]` is `points[i].to_affine()`. Constant time for a
    /// given length. Panics if the lengths differ (a caller bug, not an input condition).
    pub fn batch_to_affine(points: &[Self], out: &mut [AffinePoint<C>]) {
        assert_eq!(points.len(), out.len(), "batch_to_affine: lengths differ");
        for (chunk_p, chunk_o) in points.chunks(64).zip(out.chunks_mut(64)) {
            let mut zs = [C::Base::ZERO; 64];
            for (z, p) in zs.iter_mut().zip(chunk_p) {
                *z = p.z;
            }
            C::Base::batch_invert(&mut zs[..chunk_p.len()]);
            for ((o, p), zinv) in chunk_o.iter_mut().zip(chunk_p).zip(zs.iter()) {
                *o = AffinePoint {
                    x: p.x * *zinv,
                    y: p.y * *zinv,
                    infinity: p.z.is_zero(),
                };
            }
        }
    }

    /// Y²·Z = X³ + a·X·Z² + b·Z³ (true for the identity). Constant time.
    pub fn is_on_curve(&self) -> Choice {
        let z2 = self.z.square();
        let lhs = self.y.square() * self.z;
        let rhs = self.x.square() * self.x + C::mul_by_a(&(self.x * z2)) + C::B * z2 * self.z;
        lhs.ct_eq(&rhs)
    }

    /// 2·self, constant time, correct for every point. For a = 0 and a general a the complete
    /// doubling (RCB16 Algorithm 9 or 3); for a = −3 dbl-2007-bl of the Explicit-Formulas
    /// Database (w = 3(X − Z)(X + Z), s = 2YZ, R = Y·s, B = 2X·R, h = w² − 2B, X3 = h·s,
    /// Y3 = w(B − h) − 2R², Z3 = s³; 7M + 3S against RCB16 Algorithm 6's 8M + 3S + 2·m(b)).
    /// dbl-2007-bl only fails where s = 2YZ = 0: at the identity, whose (0 : 0 : 0) result is
    /// mended by selecting Y3 = 1, and at points of order 2, which a prime-order curve lacks.
    #[inline]
    pub fn double(&self) -> Self {
        match C::A_KIND {
            AKind::Zero => self.double_a0(),
            AKind::MinusThree => self.double_to_jacobian().to_projective_ct(),
            AKind::Generic => self.double_generic(),
        }
    }

    /// 2^n·self, constant time in self (n is public), correct for every point. For n ≥ 2 the
    /// chain runs in Jacobian coordinates: the first doubling takes the homogeneous input to a
    /// Jacobian result ([`ProjectivePoint::double`]'s dbl-2007-bl without its last two
    /// products: (h : Y3 : s), since x = h·s / s³ = h / s²), the others are Jacobian doublings
    /// (dbl-2001-b for a = −3, 3M + 5S; dbl-2009-l for a = 0, 2M + 5S; dbl-2007-bl otherwise)
    /// and the result goes back as (X·Z : Y : Z³). None of them has an exceptional case on a
    /// prime-order curve except the identity, which stays Z = 0 throughout and gets Y = 1 back
    /// at the end by a select; this is the approach of crrl's `xdouble`.
    ///
    /// Kept out of line, with the Jacobian doubling out of line too, so that no field
    /// operation's masked select sits in the body of a loop: LLVM's x86 cmov-conversion pass
    /// may turn a select inside a loop into a branch (seen on the borrow mask of the P-256
    /// subtraction under the constant-time checker).
    #[inline(never)]
    pub fn double_n(&self, n: u32) -> Self {
        match n {
            0 => *self,
            1 => self.double(),
            _ => {
                let mut j = self.double_to_jacobian();
                for _ in 1..n {
                    j = j.double_ct();
                }
                j.to_projective_ct()
            }
        }
    }

    /// 2·self as a Jacobian point (h : Y3 : s) by dbl-2007-bl (see [`ProjectivePoint::double`];
    /// w = 3X² for a = 0, 3X² + a·Z² in general): 5M + 2S for a = −3, 4M + 3S for a = 0. The
    /// identity gives Z = 0 (with X = Y = 0).
    #[inline]
    fn double_to_jacobian(&self) -> JacobianPoint<C> {
        let (x, y, z) = (self.x, self.y, self.z);
        let w = match C::A_KIND {
            AKind::Zero => {
                let xx = x.square();
                xx.double() + xx
            }
            AKind::MinusThree => {
                let t = (x - z) * (x + z);
                t.double() + t
            }
            AKind::Generic => {
                let xx = x.square();
                xx.double() + xx + C::mul_by_a(&z.square())
            }
        };
        let s = (y * z).double();
        let r = y * s;
        let b = (x * r).double();
        let h = w.square() - b.double();
        let y3 = w * (b - h) - r.square().double();
        JacobianPoint { x: h, y: y3, z: s }
    }

    /// self + rhs by the complete addition (RCB16 Algorithm 1, 4 or 7).
    #[inline]
    pub fn add_point(&self, rhs: &Self) -> Self {
        match C::A_KIND {
            AKind::Zero => self.add_a0(rhs),
            AKind::MinusThree => self.add_am3(rhs),
            AKind::Generic => self.add_generic(rhs),
        }
    }

    /// self + rhs for an affine rhs by the mixed addition (RCB16 Algorithm 2, 5 or 8; Z2 = 1),
    /// with the identity case of rhs, which the mixed formulas do not cover, selected in
    /// constant time.
    #[inline]
    pub fn add_mixed(&self, rhs: &AffinePoint<C>) -> Self {
        let sum = match C::A_KIND {
            AKind::Zero => self.add_mixed_a0(rhs),
            AKind::MinusThree => self.add_mixed_am3(rhs),
            AKind::Generic => self.add_mixed_generic(rhs),
        };
        Self::conditional_select(&sum, self, rhs.infinity)
    }

    // RCB16 Algorithm 1: complete addition, general a.
    fn add_generic(&self, q: &Self) -> Self {
        let (x1, y1, z1, x2, y2, z2) = (self.x, self.y, self.z, q.x, q.y, q.z);
        let mut t0 = x1 * x2;
        let mut t1 = y1 * y2;
        let mut t2 = z1 * z2;
        let mut t3 = x1 + y1;
        let mut t4 = x2 + y2;
        t3 *= t4;
        t4 = t0 + t1;
        t3 -= t4;
        t4 = x1 + z1;
        let mut t5 = x2 + z2;
        t4 *= t5;
        t5 = t0 + t2;
        t4 -= t5;
        t5 = y1 + z1;
        let mut x3 = y2 + z2;
        t5 *= x3;
        x3 = t1 + t2;
        t5 -= x3;
        let mut z3 = C::mul_by_a(&t4);
        x3 = C::mul_by_b3(&t2);
        z3 = x3 + z3;
        x3 = t1 - z3;
        z3 += t1;
        let mut y3 = x3 * z3;
        t1 = t0.double() + t0;
        t2 = C::mul_by_a(&t2);
        t4 = C::mul_by_b3(&t4);
        t1 += t2;
        t2 = t0 - t2;
        t2 = C::mul_by_a(&t2);
        t4 += t2;
        t0 = t1 * t4;
        y3 += t0;
        t0 = t5 * t4;
        x3 *= t3;
        x3 -= t0;
        t0 = t3 * t1;
        z3 *= t5;
        z3 += t0;
        ProjectivePoint {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    // RCB16 Algorithm 2: mixed addition (Z2 = 1), general a.
    fn add_mixed_generic(&self, q: &AffinePoint<C>) -> Self {
        let (x1, y1, z1, x2, y2) = (self.x, self.y, self.z, q.x, q.y);
        let mut t0 = x1 * x2;
        let mut t1 = y1 * y2;
        let mut t3 = x2 + y2;
        let mut t4 = x1 + y1;
        t3 *= t4;
        t4 = t0 + t1;
        t3 -= t4;
        t4 = x2 * z1;
        t4 += x1;
        let mut t5 = y2 * z1;
        t5 += y1;
        let mut z3 = C::mul_by_a(&t4);
        let mut x3 = C::mul_by_b3(&z1);
        z3 = x3 + z3;
        x3 = t1 - z3;
        z3 += t1;
        let mut y3 = x3 * z3;
        t1 = t0.double() + t0;
        let mut t2 = C::mul_by_a(&z1);
        t4 = C::mul_by_b3(&t4);
        t1 += t2;
        t2 = t0 - t2;
        t2 = C::mul_by_a(&t2);
        t4 += t2;
        t0 = t1 * t4;
        y3 += t0;
        t0 = t5 * t4;
        x3 *= t3;
        x3 -= t0;
        t0 = t3 * t1;
        z3 *= t5;
        z3 += t0;
        ProjectivePoint {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    // RCB16 Algorithm 3: doubling, general a.
    fn double_generic(&self) -> Self {
        let (x, y, z) = (self.x, self.y, self.z);
        let mut t0 = x.square();
        let t1 = y.square();
        let mut t2 = z.square();
        let mut t3 = x * y;
        t3 = t3.double();
        let mut z3 = x * z;
        z3 = z3.double();
        let mut x3 = C::mul_by_a(&z3);
        let mut y3 = C::mul_by_b3(&t2);
        y3 += x3;
        x3 = t1 - y3;
        y3 += t1;
        y3 *= x3;
        x3 *= t3;
        z3 = C::mul_by_b3(&z3);
        t2 = C::mul_by_a(&t2);
        t3 = t0 - t2;
        t3 = C::mul_by_a(&t3);
        t3 += z3;
        z3 = t0.double();
        t0 += z3;
        t0 += t2;
        t0 *= t3;
        y3 += t0;
        t2 = y * z;
        t2 = t2.double();
        t0 = t2 * t3;
        x3 -= t0;
        z3 = t2 * t1;
        z3 = z3.double().double();
        ProjectivePoint {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    // RCB16 Algorithm 4: complete addition, a = −3.
    fn add_am3(&self, q: &Self) -> Self {
        let (x1, y1, z1, x2, y2, z2) = (self.x, self.y, self.z, q.x, q.y, q.z);
        let b = C::B;
        let mut t0 = x1 * x2;
        let mut t1 = y1 * y2;
        let mut t2 = z1 * z2;
        let mut t3 = x1 + y1;
        let mut t4 = x2 + y2;
        t3 *= t4;
        t4 = t0 + t1;
        t3 -= t4;
        t4 = y1 + z1;
        let mut x3 = y2 + z2;
        t4 *= x3;
        x3 = t1 + t2;
        t4 -= x3;
        x3 = x1 + z1;
        let mut y3 = x2 + z2;
        x3 *= y3;
        y3 = t0 + t2;
        y3 = x3 - y3;
        let mut z3 = b * t2;
        x3 = y3 - z3;
        z3 = x3.double();
        x3 += z3;
        z3 = t1 - x3;
        x3 += t1;
        y3 = b * y3;
        t1 = t2.double();
        t2 += t1;
        y3 -= t2;
        y3 -= t0;
        t1 = y3.double();
        y3 += t1;
        t1 = t0.double();
        t0 += t1;
        t0 -= t2;
        t1 = t4 * y3;
        t2 = t0 * y3;
        y3 = x3 * z3;
        y3 += t2;
        x3 *= t3;
        x3 -= t1;
        z3 *= t4;
        t1 = t3 * t0;
        z3 += t1;
        ProjectivePoint {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    // RCB16 Algorithm 5: mixed addition (Z2 = 1), a = −3.
    fn add_mixed_am3(&self, q: &AffinePoint<C>) -> Self {
        let (x1, y1, z1, x2, y2) = (self.x, self.y, self.z, q.x, q.y);
        let b = C::B;
        let mut t0 = x1 * x2;
        let mut t1 = y1 * y2;
        let mut t3 = x2 + y2;
        let mut t4 = x1 + y1;
        t3 *= t4;
        t4 = t0 + t1;
        t3 -= t4;
        t4 = y2 * z1;
        t4 += y1;
        let mut y3 = x2 * z1;
        y3 += x1;
        let mut z3 = b * z1;
        let mut x3 = y3 - z3;
        z3 = x3.double();
        x3 += z3;
        z3 = t1 - x3;
        x3 += t1;
        y3 = b * y3;
        t1 = z1.double();
        let mut t2 = t1 + z1;
        y3 -= t2;
        y3 -= t0;
        t1 = y3.double();
        y3 += t1;
        t1 = t0.double();
        t0 += t1;
        t0 -= t2;
        t1 = t4 * y3;
        t2 = t0 * y3;
        y3 = x3 * z3;
        y3 += t2;
        x3 *= t3;
        x3 -= t1;
        z3 *= t4;
        t1 = t3 * t0;
        z3 += t1;
        ProjectivePoint {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    // RCB16 Algorithm 7: complete addition, a = 0.
    fn add_a0(&self, q: &Self) -> Self {
        let (x1, y1, z1, x2, y2, z2) = (self.x, self.y, self.z, q.x, q.y, q.z);
        let mut t0 = x1 * x2;
        let mut t1 = y1 * y2;
        let mut t2 = z1 * z2;
        let mut t3 = x1 + y1;
        let mut t4 = x2 + y2;
        t3 *= t4;
        t4 = t0 + t1;
        t3 -= t4;
        t4 = y1 + z1;
        let mut x3 = y2 + z2;
        t4 *= x3;
        x3 = t1 + t2;
        t4 -= x3;
        x3 = x1 + z1;
        let mut y3 = x2 + z2;
        x3 *= y3;
        y3 = t0 + t2;
        y3 = x3 - y3;
        x3 = t0.double();
        t0 += x3;
        t2 = C::mul_by_b3(&t2);
        let mut z3 = t1 + t2;
        t1 -= t2;
        y3 = C::mul_by_b3(&y3);
        x3 = t4 * y3;
        t2 = t3 * t1;
        x3 = t2 - x3;
        y3 *= t0;
        t1 *= z3;
        y3 += t1;
        t0 *= t3;
        z3 *= t4;
        z3 += t0;
        ProjectivePoint {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    // RCB16 Algorithm 8: mixed addition (Z2 = 1), a = 0.
    fn add_mixed_a0(&self, q: &AffinePoint<C>) -> Self {
        let (x1, y1, z1, x2, y2) = (self.x, self.y, self.z, q.x, q.y);
        let mut t0 = x1 * x2;
        let mut t1 = y1 * y2;
        let mut t3 = x2 + y2;
        let mut t4 = x1 + y1;
        t3 *= t4;
        t4 = t0 + t1;
        t3 -= t4;
        t4 = y2 * z1;
        t4 += y1;
        let mut y3 = x2 * z1;
        y3 += x1;
        let mut x3 = t0.double();
        t0 += x3;
        let mut t2 = C::mul_by_b3(&z1);
        let mut z3 = t1 + t2;
        t1 -= t2;
        y3 = C::mul_by_b3(&y3);
        x3 = t4 * y3;
        t2 = t3 * t1;
        x3 = t2 - x3;
        y3 *= t0;
        t1 *= z3;
        y3 += t1;
        t0 *= t3;
        z3 *= t4;
        z3 += t0;
        ProjectivePoint {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    // RCB16 Algorithm 9: doubling, a = 0.
    fn double_a0(&self) -> Self {
        let (x, y, z) = (self.x, self.y, self.z);
        let mut t0 = y.square();
        let mut z3 = t0.double().double().double();
        let mut t1 = y * z;
        let mut t2 = z.square();
        t2 = C::mul_by_b3(&t2);
        let mut x3 = t2 * z3;
        let mut y3 = t0 + t2;
        z3 *= t1;
        t1 = t2.double();
        t2 += t1;
        t0 -= t2;
        y3 *= t0;
        y3 += x3;
        t1 = x * y;
        x3 = t0 * t1;
        x3 = x3.double();
        ProjectivePoint {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// k·self for k given as little-endian bytes (any length), constant time in k and self:
    /// the time depends only on k.len().
    ///
    /// Fixed window of 5 bits with signed digits in [−16, 16) (the recoding of Joye and
    /// Tunstall, "Exponent recoding and regular exponentiation algorithms", AFRICACRYPT 2009,
    /// for radix 32): a table of 1·P … 16·P, each digit read by a scan of all sixteen entries
    /// with `conditional_select` and negated with `conditional_select`, then per digit five
    /// doublings in Jacobian coordinates ([`ProjectivePoint::double_n`]) and one complete
    /// addition.
    pub fn mul_le_bytes(&self, k: &[u8]) -> Self {
        if k.len() > MAX_SCALAR_BYTES {
            // A longer scalar: k = hi·2^576 + lo, each half by this same routine.
            let hi = self.mul_le_bytes(&k[MAX_SCALAR_BYTES..]);
            let hi = hi.double_n(MAX_SCALAR_BITS);
            return hi.add_point(&self.mul_le_bytes(&k[..MAX_SCALAR_BYTES]));
        }
        let table = multiples_16(self);
        let mut digits = [0i8; RADIX32_DIGITS];
        let n = recode_signed_radix32(k, &mut digits);
        let mut acc = lookup(&table, digits[n]);
        for i in (0..n).rev() {
            acc = acc.double_n(5);
            acc = acc.add_point(&lookup(&table, digits[i]));
        }
        digits.zeroize();
        acc
    }

    /// k·self for k given as little-endian bytes, variable time (width-5 wNAF): only for a
    /// public k and point (signature verification). Scalars longer than 72 bytes take the
    /// constant-time path.
    pub fn mul_le_bytes_vartime(&self, k: &[u8]) -> Self {
        if k.len() > MAX_SCALAR_BYTES {
            return self.mul_le_bytes(k);
        }
        let mut naf = [0i8; 8 * MAX_SCALAR_BYTES + 1];
        let len = wnaf_vartime(k, &mut naf);
        let table = odd_multiples_vartime(self);
        let mut acc = Self::IDENTITY;
        for &d in naf[..len].iter().rev() {
            acc = acc.double();
            acc = add_digit_vartime(&acc, &table, d);
        }
        acc
    }

    /// a·self + b·other for public a, b (little-endian bytes), variable time: Straus's
    /// interleaving of two width-5 wNAF expansions with a shared chain of doublings (the
    /// u1·G + u2·Q of ECDSA verification, SEC 1 §4.1.4 step 5). The tables are normalised to
    /// affine with one inversion and the chain runs in Jacobian coordinates
    /// (cheaper doublings and mixed additions than the complete formulas).
    pub fn double_mul_vartime(&self, a: &[u8], other: &Self, b: &[u8]) -> Self {
        if a.len() > MAX_SCALAR_BYTES || b.len() > MAX_SCALAR_BYTES {
            return self.mul_le_bytes(a).add_point(&other.mul_le_bytes(b));
        }
        let mut na = [0i8; 8 * MAX_SCALAR_BYTES + 1];
        let mut nb = [0i8; 8 * MAX_SCALAR_BYTES + 1];
        let la = wnaf_vartime(a, &mut na);
        let lb = wnaf_vartime(b, &mut nb);
        let mut proj = [Self::IDENTITY; 16];
        proj[..8].copy_from_slice(&odd_multiples_vartime(self));
        proj[8..].copy_from_slice(&odd_multiples_vartime(other));
        let mut t = [AffinePoint::identity(); 16];
        Self::batch_to_affine(&proj, &mut t);
        let mut acc = JacobianPoint::<C>::IDENTITY;
        for i in (0..la.max(lb)).rev() {
            acc = acc.double_vartime();
            acc = acc.add_digit_vartime(&t[..8], na[i]);
            acc = acc.add_digit_vartime(&t[8..], nb[i]);
        }
        acc.to_projective()
    }
}

/// A point in Jacobian coordinates (X : Y : Z), x = X/Z², y = Y/Z³; Z = 0 is the identity.
/// Only for variable-time chains (public scalars and points): the formulas below branch on
/// their exceptional cases.
#[derive(Clone, Copy)]
pub(crate) struct JacobianPoint<C: CurveParams> {
    x: C::Base,
    y: C::Base,
    z: C::Base,
}

impl<C: CurveParams> JacobianPoint<C> {
    pub(crate) const IDENTITY: Self = JacobianPoint {
        x: C::Base::ONE,
        y: C::Base::ONE,
        z: C::Base::ZERO,
    };

    fn is_identity_vartime(&self) -> bool {
        bool::from(self.z.is_zero())
    }

    /// 2·self, branching on the identity (which [`JacobianPoint::double_ct`] handles too; the
    /// branch only skips the work).
    pub(crate) fn double_vartime(&self) -> Self {
        if self.is_identity_vartime() {
            return *self;
        }
        self.double_ct()
    }

    /// 2·self without a branch: dbl-2009-l for a = 0 (A = X², B = Y², C = B²,
    /// D = 2((X + B)² − A − C), E = 3A, X3 = E² − 2D, Y3 = E(D − X3) − 8C, Z3 = 2YZ; 2M + 5S),
    /// dbl-2001-b for a = −3 (δ = Z², γ = Y², β = Xγ, α = 3(X − δ)(X + δ), X3 = α² − 8β,
    /// Z3 = (Y + Z)² − γ − δ, Y3 = α(4β − X3) − 8γ²; 3M + 5S), dbl-2007-bl otherwise
    /// (M = 3X² + a·Z⁴). Each gives Z3 = 2YZ: zero for the identity (Z = 0), so it stays the
    /// identity whatever X3 and Y3 become, and nonzero for every other point of a prime-order
    /// curve (no point of order 2, so Y ≠ 0). Out of line: it runs in loops (see
    /// [`ProjectivePoint::double_n`]).
    #[inline(never)]
    pub(crate) fn double_ct(&self) -> Self {
        let (x, y, z) = (self.x, self.y, self.z);
        match C::A_KIND {
            AKind::Zero => {
                let a = x.square();
                let b = y.square();
                let c = b.square();
                let d = ((x + b).square() - a - c).double();
                let e = a.double() + a;
                let x3 = e.square() - d.double();
                let y3 = e * (d - x3) - c.double().double().double();
                let z3 = (y * z).double();
                JacobianPoint {
                    x: x3,
                    y: y3,
                    z: z3,
                }
            }
            AKind::MinusThree => {
                let delta = z.square();
                let gamma = y.square();
                let beta = x * gamma;
                let t = (x - delta) * (x + delta);
                let alpha = t.double() + t;
                let beta4 = beta.double().double();
                let x3 = alpha.square() - beta4.double();
                let z3 = (y + z).square() - gamma - delta;
                let y3 = alpha * (beta4 - x3) - gamma.square().double().double().double();
                JacobianPoint {
                    x: x3,
                    y: y3,
                    z: z3,
                }
            }
            AKind::Generic => {
                let xx = x.square();
                let yy = y.square();
                let yyyy = yy.square();
                let zz = z.square();
                let s = ((x + yy).square() - xx - yyyy).double();
                let m = xx.double() + xx + C::mul_by_a(&zz.square());
                let t = m.square() - s.double();
                let y3 = m * (s - t) - yyyy.double().double().double();
                let z3 = (y + z).square() - yy - zz;
                JacobianPoint { x: t, y: y3, z: z3 }
            }
        }
    }

    /// (X·Z : Y : Z³) in homogeneous projective coordinates without a branch; for Z = 0 the
    /// result is (0 : 1 : 0) (Y is replaced by a select, as X and Y of a Jacobian identity
    /// may both be zero after [`JacobianPoint::double_ct`]).
    #[inline]
    pub(crate) fn to_projective_ct(self) -> ProjectivePoint<C> {
        let zz = self.z.square();
        ProjectivePoint {
            x: self.x * self.z,
            y: C::Base::conditional_select(&self.y, &C::Base::ONE, self.z.is_zero()),
            z: zz * self.z,
        }
    }

    /// madd-2007-bl (Z2 = 1): H = X2·Z1² − X1, r = 2(Y2·Z1³ − Y1), I = 4H², J = H·I,
    /// V = X1·I, X3 = r² − J − 2V, Y3 = r(V − X3) − 2·Y1·J, Z3 = (Z1 + H)² − Z1² − H².
    /// H = 0 means x1 = x2: a doubling when r = 0 too, else P + (−P) = O.
    pub(crate) fn add_affine_vartime(&self, q: &AffinePoint<C>) -> Self {
        if bool::from(q.infinity) {
            return *self;
        }
        if self.is_identity_vartime() {
            return JacobianPoint {
                x: q.x,
                y: q.y,
                z: C::Base::ONE,
            };
        }
        let z1z1 = self.z.square();
        let u2 = q.x * z1z1;
        let s2 = q.y * self.z * z1z1;
        let h = u2 - self.x;
        let r = (s2 - self.y).double();
        if bool::from(h.is_zero()) {
            if bool::from(r.is_zero()) {
                return self.double_vartime();
            }
            return Self::IDENTITY;
        }
        let hh = h.square();
        let i = hh.double().double();
        let j = h * i;
        let v = self.x * i;
        let x3 = r.square() - j - v.double();
        let y3 = r * (v - x3) - (self.y * j).double();
        let z3 = (self.z + h).square() - z1z1 - hh;
        JacobianPoint {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// self + q by add-2007-bl of the Explicit-Formulas Database (Z1Z1 = Z1², Z2Z2 = Z2²,
    /// U1 = X1·Z2Z2, U2 = X2·Z1Z1, S1 = Y1·Z2·Z2Z2, S2 = Y2·Z1·Z1Z1, H = U2 − U1, I = (2H)²,
    /// J = H·I, r = 2(S2 − S1), V = U1·I, X3 = r² − J − 2V, Y3 = r(V − X3) − 2·S1·J,
    /// Z3 = ((Z1 + Z2)² − Z1Z1 − Z2Z2)·H; 11M + 5S), branching on the identity and on H = 0
    /// (a doubling when r = 0 too, else P + (−P) = O) as [`JacobianPoint::add_affine_vartime`].
    pub(crate) fn add_vartime(&self, q: &Self) -> Self {
        if q.is_identity_vartime() {
            return *self;
        }
        if self.is_identity_vartime() {
            return *q;
        }
        let z1z1 = self.z.square();
        let z2z2 = q.z.square();
        let u1 = self.x * z2z2;
        let u2 = q.x * z1z1;
        let s1 = self.y * q.z * z2z2;
        let s2 = q.y * self.z * z1z1;
        let h = u2 - u1;
        let r = (s2 - s1).double();
        if bool::from(h.is_zero()) {
            if bool::from(r.is_zero()) {
                return self.double_vartime();
            }
            return Self::IDENTITY;
        }
        let i = h.double().square();
        let j = h * i;
        let v = u1 * i;
        let x3 = r.square() - j - v.double();
        let y3 = r * (v - x3) - (s1 * j).double();
        let z3 = ((self.z + q.z).square() - z1z1 - z2z2) * h;
        JacobianPoint {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// self ± table[|d|/2] for a wNAF digit d (table = odd multiples 1·P, 3·P, …).
    pub(crate) fn add_digit_vartime(&self, table: &[AffinePoint<C>], d: i8) -> Self {
        match d {
            0 => *self,
            d if d > 0 => self.add_affine_vartime(&table[(d as usize) / 2]),
            d => self.add_affine_vartime(&-table[((-d) as usize) / 2]),
        }
    }

    /// (X·Z : Y : Z³) in homogeneous projective coordinates.
    pub(crate) fn to_projective(self) -> ProjectivePoint<C> {
        if self.is_identity_vartime() {
            return ProjectivePoint::IDENTITY;
        }
        let zz = self.z.square();
        ProjectivePoint {
            x: self.x * self.z,
            y: self.y,
            z: zz * self.z,
        }
    }
}

/// Longest scalar (in bits) the recoding buffers hold: 576, enough for P-521.
pub(crate) const MAX_SCALAR_BITS: u32 = 576;

/// [`MAX_SCALAR_BITS`] in bytes.
pub(crate) const MAX_SCALAR_BYTES: usize = MAX_SCALAR_BITS as usize / 8;

/// Length of the radix-32 digit buffers: ⌈8·MAX_SCALAR_BYTES / 5⌉ digits and a carry.
pub(crate) const RADIX32_DIGITS: usize = (8 * MAX_SCALAR_BYTES).div_ceil(5) + 1;

/// Signed radix-32 digits of a little-endian k of at most MAX_SCALAR_BYTES bytes: digits[i] in
/// [−16, 16) for i < m = ⌈8·len / 5⌉ and digits[m] in {0, 1}, with k = Σ digits[i]·32^i.
/// Returns m. Constant time (no branch or index on k; the bit positions are public).
pub(crate) fn recode_signed_radix32(k: &[u8], digits: &mut [i8; RADIX32_DIGITS]) -> usize {
    let m = (8 * k.len()).div_ceil(5);
    let mut carry = 0i8;
    for (i, d) in digits[..m].iter_mut().enumerate() {
        let bit = 5 * i;
        let lo = k[bit / 8] as u16;
        let hi = k.get(bit / 8 + 1).map_or(0, |&b| b as u16);
        let v = ((((hi << 8) | lo) >> (bit % 8)) & 31) as i8 + carry;
        // carry = 1 when v ≥ 16 (v ≤ 32), computed without a branch.
        carry = (v + 16) >> 5;
        *d = v - (carry << 5);
    }
    digits[m] = carry;
    m
}

/// 1·P, 2·P, …, 16·P: even multiples by doubling, odd ones by adding P (8 doublings and 7
/// complete additions), constant time.
pub(crate) fn multiples_16<C: CurveParams>(p: &ProjectivePoint<C>) -> [ProjectivePoint<C>; 16] {
    let mut t = [*p; 16];
    for i in 1..8 {
        t[2 * i - 1] = t[i - 1].double();
        t[2 * i] = t[2 * i - 1].add_point(p);
    }
    t[15] = t[7].double();
    t
}

/// A precomputed table for multiples of one fixed point B (the generator): row i holds
/// j·32^i·B for j = 1..16 in affine form, one row per signed radix-32 digit of the longest
/// scalar, so k·B = Σ dᵢ·32^i·B costs one mixed addition per digit and no doubling.
///
/// Size: (⌈8·bytes / 5⌉ + 1) rows × 16 affine points, e.g. 53 × 16 points (about 60 KiB with
/// 64-bit limbs) for 32-byte scalars. Built with one batch normalisation per 64 points. Each
/// row is read by a masked scan of all sixteen entries, so [`FixedBaseTable::mul_le_bytes`] is
/// constant time like [`ProjectivePoint::mul_le_bytes`].
#[derive(Clone)]
pub struct FixedBaseTable<C: CurveParams> {
    rows: alloc::vec::Vec<[AffinePoint<C>; 16]>,
    bytes: usize,
}

impl<C: CurveParams> FixedBaseTable<C> {
    /// The table of `base` for scalars of up to `scalar_bytes` bytes (at most 72).
    pub fn new(base: &ProjectivePoint<C>, scalar_bytes: usize) -> Self {
        let scalar_bytes = scalar_bytes.min(MAX_SCALAR_BYTES);
        let rows_n = (8 * scalar_bytes).div_ceil(5) + 1;
        let mut proj = alloc::vec::Vec::with_capacity(rows_n * 16);
        let mut row_base = *base;
        for _ in 0..rows_n {
            let mut p = row_base;
            for _ in 0..16 {
                proj.push(p);
                p = p.add_point(&row_base);
            }
            // 32·B for the next row: the 16th multiple doubled.
            row_base = proj[proj.len() - 1].double();
        }
        let mut affine = alloc::vec![AffinePoint::identity(); proj.len()];
        ProjectivePoint::batch_to_affine(&proj, &mut affine);
        let rows = affine
            .chunks(16)
            .map(|c| core::array::from_fn(|j| c[j]))
            .collect();
        FixedBaseTable {
            rows,
            bytes: scalar_bytes,
        }
    }

    /// k·B for k given as little-endian bytes, constant time in k (the time depends only on
    /// k.len()). A k longer than the table was built for takes the generic path.
    pub fn mul_le_bytes(&self, k: &[u8]) -> ProjectivePoint<C> {
        if k.len() > self.bytes {
            let base = self.rows[0][0].to_projective();
            return base.mul_le_bytes(k);
        }
        let mut digits = [0i8; RADIX32_DIGITS];
        let n = recode_signed_radix32(k, &mut digits);
        let mut acc = ProjectivePoint::IDENTITY;
        for (row, &d) in self.rows.iter().zip(digits[..=n].iter()) {
            let sign = (d >> 7) as u8 & 1;
            // |d| ≤ 16: i8 arithmetic does not overflow.
            let abs = ((d ^ -(sign as i8)) + sign as i8) as u8;
            let mut e = AffinePoint::identity();
            for (j, p) in (1..=u8::MAX).zip(row.iter()) {
                e.conditional_assign(p, abs.ct_eq(&j));
            }
            e.y = C::Base::conditional_select(&e.y, &-e.y, Choice::from(sign));
            acc = acc.add_mixed(&e);
        }
        digits.zeroize();
        acc
    }
}

/// Width of the NAF digits of the fixed point's scalar in [`WnafBaseTable`].
pub const WNAF_BASE_WIDTH: u32 = 8;

/// The odd multiples 1·B, 3·B, …, 127·B of a fixed point B (the generator) in affine form, for
/// width-8 NAF digits of B's scalar in a·B + b·Q (ECDSA verification, SEC 1 §4.1.4 step 5):
/// 64 points (about 4.5 KiB for P-256 with 64-bit limbs), built once with one batch
/// normalisation. About a ninth of the digits of a width-8 NAF are nonzero, against a sixth at
/// width 5, and the table is not rebuilt per call.
#[derive(Clone)]
pub struct WnafBaseTable<C: CurveParams> {
    odd: alloc::vec::Vec<AffinePoint<C>>,
}

impl<C: CurveParams> WnafBaseTable<C> {
    /// The table of `base`.
    pub fn new(base: &ProjectivePoint<C>) -> Self {
        let n = 1usize << (WNAF_BASE_WIDTH - 2);
        let twice = base.double();
        let mut proj = alloc::vec![*base; n];
        for i in 1..n {
            proj[i] = proj[i - 1].add_point(&twice);
        }
        let mut odd = alloc::vec![AffinePoint::identity(); n];
        ProjectivePoint::batch_to_affine(&proj, &mut odd);
        WnafBaseTable { odd }
    }

    /// a·B + b·Q for public a, b (little-endian bytes) and Q, variable time: Straus's
    /// interleaving of a width-8 NAF of a (digits read from this table) and a width-5 NAF of
    /// b (odd multiples of Q normalised with one inversion), one chain of Jacobian doublings
    /// and mixed additions as in [`ProjectivePoint::double_mul_vartime`]. Scalars longer than
    /// 72 bytes take the constant-time path.
    pub fn mul_add_vartime(
        &self,
        a: &[u8],
        q: &ProjectivePoint<C>,
        b: &[u8],
    ) -> ProjectivePoint<C> {
        if a.len() > MAX_SCALAR_BYTES || b.len() > MAX_SCALAR_BYTES {
            let base = self.odd[0].to_projective();
            return base.mul_le_bytes(a).add_point(&q.mul_le_bytes(b));
        }
        let mut na = [0i8; 8 * MAX_SCALAR_BYTES + 1];
        let mut nb = [0i8; 8 * MAX_SCALAR_BYTES + 1];
        let la = wnaf_width_vartime(a, WNAF_BASE_WIDTH, &mut na);
        let lb = wnaf_vartime(b, &mut nb);
        let mut tq = [AffinePoint::identity(); 8];
        ProjectivePoint::batch_to_affine(&odd_multiples_vartime(q), &mut tq);
        let mut acc = JacobianPoint::<C>::IDENTITY;
        for i in (0..la.max(lb)).rev() {
            acc = acc.double_vartime();
            acc = acc.add_digit_vartime(&self.odd, na[i]);
            acc = acc.add_digit_vartime(&tq, nb[i]);
        }
        acc.to_projective()
    }
}

/// d·P from table[j] = (j+1)·P for a digit d in [−N, N] (N ≤ 127), constant time: every
/// entry is read.
pub(crate) fn lookup<C: CurveParams, const N: usize>(
    table: &[ProjectivePoint<C>; N],
    d: i8,
) -> ProjectivePoint<C> {
    // |d| and the sign without a branch.
    let sign = (d >> 7) as u8 & 1;
    // |d| ≤ 127: i8 arithmetic does not overflow.
    let abs = ((d ^ -(sign as i8)) + sign as i8) as u8;
    let mut r = ProjectivePoint::IDENTITY;
    for (j, e) in (1..=u8::MAX).zip(table.iter()) {
        r.conditional_assign(e, abs.ct_eq(&j));
    }
    let y = C::Base::conditional_select(&r.y, &-r.y, Choice::from(sign));
    ProjectivePoint { x: r.x, y, z: r.z }
}

/// P, 3P, 5P, …, 15P for width-5 wNAF digits.
pub(crate) fn odd_multiples_vartime<C: CurveParams>(
    p: &ProjectivePoint<C>,
) -> [ProjectivePoint<C>; 8] {
    let p2 = p.double();
    let mut t = [*p; 8];
    for i in 1..8 {
        t[i] = t[i - 1].add_point(&p2);
    }
    t
}

pub(crate) fn add_digit_vartime<C: CurveParams>(
    acc: &ProjectivePoint<C>,
    table: &[ProjectivePoint<C>; 8],
    d: i8,
) -> ProjectivePoint<C> {
    match d {
        0 => *acc,
        d if d > 0 => acc.add_point(&table[(d as usize) / 2]),
        d => acc.add_point(&-table[((-d) as usize) / 2]),
    }
}

/// Width-5 NAF of a little-endian scalar (Hankerson, Menezes, Vanstone, "Guide to Elliptic
/// Curve Cryptography", Algorithm 3.35): digits odd in (−16, 16) or zero, any two nonzero
/// digits at least 5 apart. Returns the number of digits written. Variable time.
pub(crate) fn wnaf_vartime(k: &[u8], out: &mut [i8]) -> usize {
    wnaf_width_vartime(k, 5, out)
}

/// Width-w NAF (2 ≤ w ≤ 8) of a little-endian scalar, as [`wnaf_vartime`]: digits odd in
/// (−2^(w−1), 2^(w−1)) or zero, nonzero digits at least w apart.
#[allow(
    clippy::cast_possible_truncation,
    reason = "a digit lies in (−2^(w−1), 2^(w−1)) and w ≤ 8 (asserted in debug builds): it fits i8"
)]
pub(crate) fn wnaf_width_vartime(k: &[u8], w: u32, out: &mut [i8]) -> usize {
    debug_assert!((2..=8).contains(&w));
    // The scalar as little-endian 64-bit limbs with one limb of headroom for the carries.
    let mut limbs = [0u64; MAX_SCALAR_BYTES / 8 + 2];
    for (i, b) in k.iter().enumerate() {
        limbs[i / 8] |= (*b as u64) << (8 * (i % 8));
    }
    let mut len = 0;
    let mut pos = 0;
    while limbs.iter().any(|&l| l != 0) {
        let d = if limbs[0] & 1 == 1 {
            let m = (limbs[0] & ((1 << w) - 1)) as i64;
            let d = if m >= 1 << (w - 1) { m - (1 << w) } else { m };
            // limbs -= d (d odd, |d| < 2^(w−1)).
            if d > 0 {
                limbs[0] -= d as u64; // the low bits equal d: no borrow
            } else {
                let mut carry = (-d) as u64;
                for l in limbs.iter_mut() {
                    let (s, c) = l.overflowing_add(carry);
                    *l = s;
                    carry = c as u64;
                    if carry == 0 {
                        break;
                    }
                }
            }
            d as i8
        } else {
            0
        };
        out[pos] = d;
        pos += 1;
        if d != 0 {
            len = pos;
        }
        // limbs >>= 1
        for i in 0..limbs.len() {
            let next = if i + 1 < limbs.len() { limbs[i + 1] } else { 0 };
            limbs[i] = (limbs[i] >> 1) | (next << 63);
        }
    }
    len
}

impl<C: CurveParams> Add for ProjectivePoint<C> {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        self.add_point(&rhs)
    }
}
impl<C: CurveParams> Add<&AffinePoint<C>> for ProjectivePoint<C> {
    type Output = Self;
    fn add(self, rhs: &AffinePoint<C>) -> Self {
        self.add_mixed(rhs)
    }
}
impl<C: CurveParams> Sub for ProjectivePoint<C> {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        self.add_point(&-rhs)
    }
}
impl<C: CurveParams> AddAssign for ProjectivePoint<C> {
    fn add_assign(&mut self, rhs: Self) {
        *self = self.add_point(&rhs);
    }
}
impl<C: CurveParams> SubAssign for ProjectivePoint<C> {
    fn sub_assign(&mut self, rhs: Self) {
        *self = self.add_point(&-rhs);
    }
}
impl<C: CurveParams> Neg for ProjectivePoint<C> {
    type Output = Self;
    fn neg(self) -> Self {
        ProjectivePoint {
            x: self.x,
            y: -self.y,
            z: self.z,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(naf: &[i8]) -> i128 {
        naf.iter().rev().fold(0i128, |acc, &d| 2 * acc + d as i128)
    }

    #[test]
    fn wnaf_digits_rebuild_the_scalar() {
        for v in [0u64, 1, 2, 15, 16, 17, 31, 0xdead_beef, u64::MAX] {
            let mut out = [0i8; 8 * MAX_SCALAR_BYTES + 1];
            let len = wnaf_vartime(&v.to_le_bytes(), &mut out);
            assert_eq!(eval(&out[..len]), v as i128, "{v}");
            for w in out[..len].windows(5) {
                assert!(w.iter().filter(|&&d| d != 0).count() <= 1);
            }
        }
    }

    #[test]
    fn wnaf_of_every_width_rebuilds_the_scalar() {
        for w in 2..=8u32 {
            for v in [0u64, 1, 127, 128, 255, 0x1234_5678_9abc_def0, u64::MAX] {
                let mut out = [0i8; 8 * MAX_SCALAR_BYTES + 1];
                let len = wnaf_width_vartime(&v.to_le_bytes(), w, &mut out);
                assert_eq!(eval(&out[..len]), v as i128, "{v} w = {w}");
                for d in &out[..len] {
                    assert!(*d == 0 || (d % 2 != 0 && (d.unsigned_abs() as u32) < 1 << (w - 1)));
                }
                for win in out[..len].windows(w as usize) {
                    assert!(win.iter().filter(|&&d| d != 0).count() <= 1);
                }
            }
        }
    }
}
