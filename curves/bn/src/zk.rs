//! The zkcrypto traits (feature `zkcrypto`): `group` 0.14 (`Group`, `Curve`,
//! `GroupEncoding`, `prime::PrimeGroup`, `prime::PrimeCurve`, `UncompressedEncoding`) on
//! [`G1`], [`G2`] and their affine forms, `pairing` 0.24 (`Engine`, `MultiMillerLoop`,
//! `PairingCurveAffine`, `MillerLoopResult`) on [`Bn`], with `ff::PrimeField` on Fr (the
//! generated fields' `ff` feature), for all four curves.
//!
//! The group layer's points are generic types of another crate, so the traits sit on
//! newtypes here. [`G2`] and [`G2Aff`] hold points of G2 (the subgroup of order r): every
//! way in (the generator, decoding with the subgroup check, hashing, the group operations)
//! keeps that, and a caller wrapping a point of its own must too, since scalar multiplication
//! uses GLS (ψ = \[p\] holds on G2 only). [`Gt`] is written additively as the `group` traits
//! require: `+` is the Fp12 product, `-x` the conjugate (the inverse in GT), `k·x` the
//! power x^k.
//!
//! Encodings: `GroupEncoding` is the compressed form of [`crate::groups`], `UncompressedEncoding`
//! the uncompressed one, both with full validation on decoding (`from_bytes_unchecked` still
//! checks the curve equation and, for G2, the subgroup).

// GT and Miller-loop values are written additively (the traits' notation): `+` is the Fp12
// product on purpose.
#![allow(clippy::suspicious_arithmetic_impl, clippy::suspicious_op_assign_impl)]

use alloc::vec::Vec;
use core::fmt;
use core::iter::Sum;
use core::marker::PhantomData;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use fieldgen_field::Repr;
use group::prime::{PrimeCurve, PrimeGroup};
use group::{Curve, CurveAffine, Group, GroupEncoding, UncompressedEncoding};
use pairing::{Engine, MillerLoopResult, MultiMillerLoop, PairingCurveAffine};
use rand_core::TryRng;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

use crate::endo::{g1_mul, g2_mul};
use crate::groups::{G1Encoding, G1Projective, G2Projective, G2SubgroupCheck};
use crate::{Bn254, Bn381, Bn462, BnParams, Fp12, Fp254Bnb};

/// A point of G1 (projective), for the `group` traits.
pub struct G1<C: BnParams>(pub G1Projective<C>);
/// A point of G1 (affine), for the `group` traits.
pub struct G1Aff<C: BnParams>(pub crate::G1Affine<C>);
/// A point of G2 (projective), for the `group` traits; holds points of G2 only (module docs).
pub struct G2<C: BnParams>(pub G2Projective<C>);
/// A point of G2 (affine), for the `group` traits; holds points of G2 only.
pub struct G2Aff<C: BnParams>(pub crate::G2Affine<C>);
/// An element of GT ⊂ Fp12, written additively (module docs).
pub struct Gt<C: BnParams>(pub Fp12<C>);
/// The output of a (multi-)Miller loop before the final exponentiation.
pub struct MillerOutput<C: BnParams>(pub Fp12<C>);
/// The `pairing::Engine` of curve `C`.
pub struct Bn<C: BnParams>(PhantomData<C>);

macro_rules! common {
    ($($t:ident),*) => {$(
        impl<C: BnParams> Clone for $t<C> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<C: BnParams> Copy for $t<C> {}
        impl<C: BnParams> fmt::Debug for $t<C> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_tuple(stringify!($t)).field(&self.0).finish()
            }
        }
        impl<C: BnParams> PartialEq for $t<C> {
            fn eq(&self, o: &Self) -> bool {
                self.0.ct_eq(&o.0).into()
            }
        }
        impl<C: BnParams> Eq for $t<C> {}
        impl<C: BnParams> ConstantTimeEq for $t<C> {
            fn ct_eq(&self, o: &Self) -> Choice {
                self.0.ct_eq(&o.0)
            }
        }
        impl<C: BnParams> ConditionallySelectable for $t<C> {
            fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
                $t(ConditionallySelectable::conditional_select(&a.0, &b.0, c))
            }
        }
    )*};
}
common!(G1, G1Aff, G2, G2Aff, Gt, MillerOutput);

impl<C: BnParams> Clone for Bn<C> {
    fn clone(&self) -> Self {
        Bn(PhantomData)
    }
}
impl<C: BnParams> fmt::Debug for Bn<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bn<{}>", C::NAME)
    }
}

/// Binary operators for a by-value impl, with the by-reference variants forwarded to it.
macro_rules! binop {
    ($lhs:ident, $rhs:ty, $tr:ident, $f:ident, $atr:ident, $af:ident, |$a:ident, $b:ident| $body:expr) => {
        impl<C: BnParams> $tr<$rhs> for $lhs<C> {
            type Output = $lhs<C>;
            fn $f(self, $b: $rhs) -> $lhs<C> {
                let $a = self;
                $body
            }
        }
        impl<'r, C: BnParams> $tr<&'r $rhs> for $lhs<C> {
            type Output = $lhs<C>;
            fn $f(self, b: &'r $rhs) -> $lhs<C> {
                $tr::$f(self, *b)
            }
        }
        impl<'l, C: BnParams> $tr<$rhs> for &'l $lhs<C> {
            type Output = $lhs<C>;
            fn $f(self, b: $rhs) -> $lhs<C> {
                $tr::$f(*self, b)
            }
        }
        impl<'l, 'r, C: BnParams> $tr<&'r $rhs> for &'l $lhs<C> {
            type Output = $lhs<C>;
            fn $f(self, b: &'r $rhs) -> $lhs<C> {
                $tr::$f(*self, *b)
            }
        }
        impl<C: BnParams> $atr<$rhs> for $lhs<C> {
            fn $af(&mut self, b: $rhs) {
                *self = $tr::$f(*self, b);
            }
        }
        impl<'r, C: BnParams> $atr<&'r $rhs> for $lhs<C> {
            fn $af(&mut self, b: &'r $rhs) {
                *self = $tr::$f(*self, *b);
            }
        }
    };
}

macro_rules! point_ops {
    ($p:ident, $a:ident, $mul:ident) => {
        binop!($p, $p<C>, Add, add, AddAssign, add_assign, |a, b| $p(a
            .0
            .add_point(&b.0)));
        binop!($p, $p<C>, Sub, sub, SubAssign, sub_assign, |a, b| $p(a
            .0
            .add_point(&-b.0)));
        binop!($p, $a<C>, Add, add, AddAssign, add_assign, |a, b| $p(a
            .0
            .add_mixed(&b.0)));
        binop!($p, $a<C>, Sub, sub, SubAssign, sub_assign, |a, b| $p(a
            .0
            .add_mixed(&-b.0)));
        impl<C: BnParams> Neg for $p<C> {
            type Output = Self;
            fn neg(self) -> Self {
                $p(-self.0)
            }
        }
        impl<C: BnParams> Neg for &$p<C> {
            type Output = $p<C>;
            fn neg(self) -> $p<C> {
                $p(-self.0)
            }
        }
        impl<C: BnParams> Sum for $p<C> {
            fn sum<I: Iterator<Item = Self>>(it: I) -> Self {
                it.fold($p(ProjectivePointAlias::IDENTITY), |a, b| a + b)
            }
        }
        impl<'a, C: BnParams> Sum<&'a $p<C>> for $p<C> {
            fn sum<I: Iterator<Item = &'a Self>>(it: I) -> Self {
                it.fold($p(ProjectivePointAlias::IDENTITY), |a, b| a + b)
            }
        }
        impl<C: BnParams> Neg for $a<C> {
            type Output = Self;
            fn neg(self) -> Self {
                $a(-self.0)
            }
        }
        impl<C: BnParams> From<$a<C>> for $p<C> {
            fn from(a: $a<C>) -> Self {
                $p(a.0.to_projective())
            }
        }
        impl<C: BnParams> From<$p<C>> for $a<C> {
            fn from(p: $p<C>) -> Self {
                $a(p.0.to_affine())
            }
        }
        impl<C: BnParams> Default for $p<C> {
            fn default() -> Self {
                $p(ProjectivePointAlias::IDENTITY)
            }
        }
        impl<C: BnParams> Default for $a<C> {
            fn default() -> Self {
                $a(fieldgen_weierstrass::AffinePoint::identity())
            }
        }
    };
}

use fieldgen_weierstrass::ProjectivePoint as ProjectivePointAlias;

point_ops!(G1, G1Aff, g1_mul);
point_ops!(G2, G2Aff, g2_mul);

macro_rules! group_impls {
    ($p:ident, $a:ident, $c:ident) => {
        impl Group for $p<$c> {
            type Scalar = <$c as BnParams>::Fr;
            fn try_random<R: TryRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
                let k = <<$c as BnParams>::Fr as ff::Field>::try_random(rng)?;
                Ok(Self::generator() * k)
            }
            fn identity() -> Self {
                $p(ProjectivePointAlias::IDENTITY)
            }
            fn generator() -> Self {
                $p(ProjectivePointAlias::GENERATOR)
            }
            fn is_identity(&self) -> Choice {
                self.0.is_identity()
            }
            fn double(&self) -> Self {
                $p(self.0.double())
            }
        }
        impl Curve for $p<$c> {
            type Affine = $a<$c>;
            fn to_affine(&self) -> $a<$c> {
                $a(self.0.to_affine())
            }
            fn batch_normalize(p: &[Self], q: &mut [$a<$c>]) {
                let inner: Vec<_> = p.iter().map(|x| x.0).collect();
                let mut out = alloc::vec![fieldgen_weierstrass::AffinePoint::identity(); p.len()];
                ProjectivePointAlias::batch_to_affine(&inner, &mut out);
                for (d, s) in q.iter_mut().zip(out) {
                    *d = $a(s);
                }
            }
        }
        impl CurveAffine for $a<$c> {
            type Curve = $p<$c>;
            type Scalar = <$c as BnParams>::Fr;
            fn identity() -> Self {
                $a(fieldgen_weierstrass::AffinePoint::identity())
            }
            fn generator() -> Self {
                $a(fieldgen_weierstrass::AffinePoint::generator())
            }
            fn is_identity(&self) -> Choice {
                self.0.is_identity()
            }
            fn to_curve(&self) -> $p<$c> {
                $p(self.0.to_projective())
            }
        }
        impl PrimeGroup for $p<$c> {
        }
        impl PrimeCurve for $p<$c> {
        }
    };
}

/// Multiplication by a scalar of one curve (one impl per curve: a generic `Mul<C::Fr>` would
/// overlap `Mul<&C::Fr>` for the compiler).
macro_rules! scalar_ops {
    ($t:ident, $c:ident, |$a:ident, $k:ident| $body:expr) => {
        impl Mul<<$c as BnParams>::Fr> for $t<$c> {
            type Output = $t<$c>;
            fn mul(self, $k: <$c as BnParams>::Fr) -> $t<$c> {
                let $a = self;
                $body
            }
        }
        impl<'r> Mul<&'r <$c as BnParams>::Fr> for $t<$c> {
            type Output = $t<$c>;
            fn mul(self, k: &'r <$c as BnParams>::Fr) -> $t<$c> {
                self * *k
            }
        }
        impl<'l> Mul<<$c as BnParams>::Fr> for &'l $t<$c> {
            type Output = $t<$c>;
            fn mul(self, k: <$c as BnParams>::Fr) -> $t<$c> {
                *self * k
            }
        }
        impl<'l, 'r> Mul<&'r <$c as BnParams>::Fr> for &'l $t<$c> {
            type Output = $t<$c>;
            fn mul(self, k: &'r <$c as BnParams>::Fr) -> $t<$c> {
                *self * *k
            }
        }
        impl MulAssign<<$c as BnParams>::Fr> for $t<$c> {
            fn mul_assign(&mut self, k: <$c as BnParams>::Fr) {
                *self = *self * k;
            }
        }
        impl<'r> MulAssign<&'r <$c as BnParams>::Fr> for $t<$c> {
            fn mul_assign(&mut self, k: &'r <$c as BnParams>::Fr) {
                *self = *self * *k;
            }
        }
    };
}

macro_rules! affine_scalar_ops {
    ($a:ident, $p:ident, $c:ident, $mul:ident) => {
        impl Mul<<$c as BnParams>::Fr> for $a<$c> {
            type Output = $p<$c>;
            fn mul(self, k: <$c as BnParams>::Fr) -> $p<$c> {
                $p($mul::<$c>(&self.0.to_projective(), &k))
            }
        }
        impl<'r> Mul<&'r <$c as BnParams>::Fr> for $a<$c> {
            type Output = $p<$c>;
            fn mul(self, k: &'r <$c as BnParams>::Fr) -> $p<$c> {
                $p($mul::<$c>(&self.0.to_projective(), k))
            }
        }
    };
}

/// The encodings and scalar multiplications per curve (array lengths are per curve, so one
/// impl each).
macro_rules! encodings {
    ($($c:ident, $b:literal;)*) => {$(
        scalar_ops!(G1, $c, |a, k| G1(g1_mul::<$c>(&a.0, &k)));
        scalar_ops!(G2, $c, |a, k| G2(g2_mul::<$c>(&a.0, &k)));
        scalar_ops!(Gt, $c, |a, k| Gt(crate::pairing::gt_pow::<$c>(&a.0, &k)));
        affine_scalar_ops!(G1Aff, G1, $c, g1_mul);
        affine_scalar_ops!(G2Aff, G2, $c, g2_mul);
        group_impls!(G1, G1Aff, $c);
        group_impls!(G2, G2Aff, $c);
        engine_impls!($c);
        impl GroupEncoding for G1<$c> {
            type Repr = Repr<$b>;
            fn from_bytes(bytes: &Repr<$b>) -> CtOption<Self> {
                match crate::G1Affine::<$c>::from_compressed(&bytes.0) {
                    Ok(p) => CtOption::new(G1(p.to_projective()), Choice::from(1)),
                    Err(_) => CtOption::new(Self::default(), Choice::from(0)),
                }
            }
            fn from_bytes_unchecked(bytes: &Repr<$b>) -> CtOption<Self> {
                Self::from_bytes(bytes)
            }
            fn to_bytes(&self) -> Repr<$b> {
                let mut out = [0u8; $b];
                let _ = self.0.to_affine().write_compressed(&mut out);
                Repr(out)
            }
        }
        impl GroupEncoding for G2<$c> {
            type Repr = Repr<{ 2 * $b }>;
            fn from_bytes(bytes: &Self::Repr) -> CtOption<Self> {
                match <crate::G2Affine<$c> as G2SubgroupCheck>::from_compressed(&bytes.0) {
                    Ok(p) => CtOption::new(G2(p.to_projective()), Choice::from(1)),
                    Err(_) => CtOption::new(Self::default(), Choice::from(0)),
                }
            }
            fn from_bytes_unchecked(bytes: &Self::Repr) -> CtOption<Self> {
                Self::from_bytes(bytes)
            }
            fn to_bytes(&self) -> Self::Repr {
                let mut out = [0u8; 2 * $b];
                let _ = G2SubgroupCheck::write_compressed(&self.0.to_affine(), &mut out);
                Repr(out)
            }
        }
        impl GroupEncoding for G1Aff<$c> {
            type Repr = Repr<$b>;
            fn from_bytes(bytes: &Repr<$b>) -> CtOption<Self> {
                G1::<$c>::from_bytes(bytes).map(|p| G1Aff(p.0.to_affine()))
            }
            fn from_bytes_unchecked(bytes: &Repr<$b>) -> CtOption<Self> {
                Self::from_bytes(bytes)
            }
            fn to_bytes(&self) -> Repr<$b> {
                G1(self.0.to_projective()).to_bytes()
            }
        }
        impl GroupEncoding for G2Aff<$c> {
            type Repr = Repr<{ 2 * $b }>;
            fn from_bytes(bytes: &Self::Repr) -> CtOption<Self> {
                G2::<$c>::from_bytes(bytes).map(|p| G2Aff(p.0.to_affine()))
            }
            fn from_bytes_unchecked(bytes: &Self::Repr) -> CtOption<Self> {
                Self::from_bytes(bytes)
            }
            fn to_bytes(&self) -> Self::Repr {
                G2(self.0.to_projective()).to_bytes()
            }
        }
        impl UncompressedEncoding for G1Aff<$c> {
            type Uncompressed = Repr<{ 2 * $b }>;
            fn from_uncompressed(bytes: &Self::Uncompressed) -> CtOption<Self> {
                match crate::G1Affine::<$c>::from_uncompressed(&bytes.0) {
                    Ok(p) => CtOption::new(G1Aff(p), Choice::from(1)),
                    Err(_) => CtOption::new(Self::default(), Choice::from(0)),
                }
            }
            fn from_uncompressed_unchecked(bytes: &Self::Uncompressed) -> CtOption<Self> {
                Self::from_uncompressed(bytes)
            }
            fn to_uncompressed(&self) -> Self::Uncompressed {
                let mut out = [0u8; 2 * $b];
                let _ = self.0.write_uncompressed(&mut out);
                Repr(out)
            }
        }
        impl UncompressedEncoding for G2Aff<$c> {
            type Uncompressed = Repr<{ 4 * $b }>;
            fn from_uncompressed(bytes: &Self::Uncompressed) -> CtOption<Self> {
                match <crate::G2Affine<$c> as G2SubgroupCheck>::from_uncompressed(&bytes.0) {
                    Ok(p) => CtOption::new(G2Aff(p), Choice::from(1)),
                    Err(_) => CtOption::new(Self::default(), Choice::from(0)),
                }
            }
            fn from_uncompressed_unchecked(bytes: &Self::Uncompressed) -> CtOption<Self> {
                Self::from_uncompressed(bytes)
            }
            fn to_uncompressed(&self) -> Self::Uncompressed {
                let mut out = [0u8; 4 * $b];
                let _ = G2SubgroupCheck::write_uncompressed(&self.0, &mut out);
                Repr(out)
            }
        }
    )*};
}

// --- GT ---

binop!(Gt, Gt<C>, Add, add, AddAssign, add_assign, |a, b| Gt(
    a.0 * b.0
));
binop!(Gt, Gt<C>, Sub, sub, SubAssign, sub_assign, |a, b| Gt(
    a.0 * b.0.conjugate()
));

impl<C: BnParams> Neg for Gt<C> {
    type Output = Self;
    fn neg(self) -> Self {
        Gt(self.0.conjugate())
    }
}
impl<C: BnParams> Neg for &Gt<C> {
    type Output = Gt<C>;
    fn neg(self) -> Gt<C> {
        Gt(self.0.conjugate())
    }
}
impl<C: BnParams> Sum for Gt<C> {
    fn sum<I: Iterator<Item = Self>>(it: I) -> Self {
        it.fold(Gt(Fp12::ONE), |a, b| a + b)
    }
}
impl<'a, C: BnParams> Sum<&'a Gt<C>> for Gt<C> {
    fn sum<I: Iterator<Item = &'a Self>>(it: I) -> Self {
        it.fold(Gt(Fp12::ONE), |a, b| a + b)
    }
}
impl<C: BnParams> Default for Gt<C> {
    fn default() -> Self {
        Gt(Fp12::ONE)
    }
}

// --- Miller loop output ---

impl<C: BnParams> Default for MillerOutput<C> {
    fn default() -> Self {
        MillerOutput(Fp12::ONE)
    }
}
impl<C: BnParams> Add for MillerOutput<C> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        MillerOutput(self.0 * o.0)
    }
}
impl<'a, C: BnParams> Add<&'a MillerOutput<C>> for MillerOutput<C> {
    type Output = Self;
    fn add(self, o: &'a Self) -> Self {
        MillerOutput(self.0 * o.0)
    }
}
impl<C: BnParams> AddAssign for MillerOutput<C> {
    fn add_assign(&mut self, o: Self) {
        self.0 *= o.0;
    }
}
impl<'a, C: BnParams> AddAssign<&'a MillerOutput<C>> for MillerOutput<C> {
    fn add_assign(&mut self, o: &'a Self) {
        self.0 *= o.0;
    }
}
macro_rules! engine_impls {
    ($c:ident) => {
        impl Group for Gt<$c> {
            type Scalar = <$c as BnParams>::Fr;
            fn try_random<R: TryRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
                let k = <<$c as BnParams>::Fr as ff::Field>::try_random(rng)?;
                Ok(Self::generator() * k)
            }
            fn identity() -> Self {
                Gt(Fp12::ONE)
            }
            /// e(G1, G2) for the curve's generators (computed on each call).
            fn generator() -> Self {
                Gt(crate::pairing::pairing::<$c>(
                    &fieldgen_weierstrass::AffinePoint::generator(),
                    &fieldgen_weierstrass::AffinePoint::generator(),
                ))
            }
            fn is_identity(&self) -> Choice {
                self.0.is_one()
            }
            fn double(&self) -> Self {
                Gt(self.0.cyclotomic_square())
            }
        }

        impl MillerLoopResult for MillerOutput<$c> {
            type Gt = Gt<$c>;
            fn final_exponentiation(&self) -> Gt<$c> {
                Gt(crate::pairing::final_exponentiation::<$c>(&self.0))
            }
        }

        // --- the engine ---

        impl PairingCurveAffine for G1Aff<$c> {
            type Pair = G2Aff<$c>;
            type PairingResult = Gt<$c>;
            fn pairing_with(&self, q: &G2Aff<$c>) -> Gt<$c> {
                Gt(crate::pairing::pairing::<$c>(&self.0, &q.0))
            }
        }

        impl PairingCurveAffine for G2Aff<$c> {
            type Pair = G1Aff<$c>;
            type PairingResult = Gt<$c>;
            fn pairing_with(&self, p: &G1Aff<$c>) -> Gt<$c> {
                Gt(crate::pairing::pairing::<$c>(&p.0, &self.0))
            }
        }

        impl Engine for Bn<$c> {
            type Fr = <$c as BnParams>::Fr;
            type G1 = G1<$c>;
            type G1Affine = G1Aff<$c>;
            type G2 = G2<$c>;
            type G2Affine = G2Aff<$c>;
            type Gt = Gt<$c>;
            fn pairing(p: &G1Aff<$c>, q: &G2Aff<$c>) -> Gt<$c> {
                Gt(crate::pairing::pairing::<$c>(&p.0, &q.0))
            }
        }

        impl MultiMillerLoop for Bn<$c> {
            /// Q's Miller-loop line coefficients, computed once ([`crate::G2Prepared`]).
            type G2Prepared = crate::pairing::G2Prepared<$c>;
            type Result = MillerOutput<$c>;
            fn multi_miller_loop(
                terms: &[(&G1Aff<$c>, &crate::pairing::G2Prepared<$c>)],
            ) -> MillerOutput<$c> {
                let pairs: Vec<_> = terms.iter().map(|(p, q)| (p.0, *q)).collect();
                MillerOutput(crate::pairing::multi_miller_loop_prepared::<$c>(&pairs))
            }
        }

        impl From<G2Aff<$c>> for crate::pairing::G2Prepared<$c> {
            fn from(q: G2Aff<$c>) -> Self {
                crate::pairing::G2Prepared::new(&q.0)
            }
        }
    };
}

encodings! {
    Bn254, 32;
    Fp254Bnb, 32;
    Bn381, 48;
    Bn462, 58;
}
