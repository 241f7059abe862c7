//! The zkcrypto traits (feature `zkcrypto`): `group` 0.14 (`Group`, `Curve`,
//! `GroupEncoding`, `prime::PrimeGroup`, `prime::PrimeCurve`, `UncompressedEncoding`) on
//! [`G1`], [`G2`] and their affine forms, `pairing` 0.24 (`Engine`, `MultiMillerLoop`,
//! `PairingCurveAffine`, `MillerLoopResult`) on [`Bn`], with `ff::PrimeField` on Fr, for every
//! curve `C: BnParams`: the four presets (their fields get `ff` from the generated fields' `ff`
//! feature) and curves made by `fieldgen_macros::bn_curve!` (whose expansion implements `ff`
//! on its GF(p) and GF(r) when this crate has the `zkcrypto` feature; the calling crate enables
//! only that). `Bn<Bn254>` is a `pairing::Engine` with `Fr` the generated
//! `bn254_r` field; `Bn<MyBn>` one with `Fr = MyBnFr`.
//!
//! ```
//! use fieldgen_bn::{zk::Bn, Bn254};
//! use group::{Curve, CurveAffine, Group};
//! use pairing::Engine;
//!
//! /// Written against the traits only.
//! fn check<E: Engine>() -> bool {
//!     let a = E::Fr::from(6);
//!     let p = (E::G1::generator() * a).to_affine();
//!     let q = E::G2Affine::generator();
//!     E::pairing(&p, &q) == E::pairing(&E::G1Affine::generator(), &q) * a
//! }
//! assert!(check::<Bn<Bn254>>());
//! ```
//!
//! Every impl is generic over `C` (with `C::Fr: ff::PrimeField`), so they hold for a curve
//! defined in another crate, which could not add them itself (`G1<MyBn>` is a type of this
//! crate). Two things that differ per curve are written generically: the scalar
//! multiplications take any `S: Borrow<C::Fr>` (that is `C::Fr` and `&C::Fr`; two impls, one
//! for each, would overlap for the compiler), and the encoding types are
//! `fieldgen_field::Repr<N>` of the curve's lengths, named through [`FpExt`]'s byte arrays and
//! [`EncodingBytes`] (for BN254: `Repr<32>` compressed G1, `Repr<64>` compressed G2 and
//! uncompressed G1, `Repr<128>` uncompressed G2).
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
use core::borrow::Borrow;
use core::fmt;
use core::iter::Sum;
use core::marker::PhantomData;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use group::prime::{PrimeCurve, PrimeGroup};
use group::{Curve, CurveAffine, Group, GroupEncoding, UncompressedEncoding};
use pairing::{Engine, MillerLoopResult, MultiMillerLoop, PairingCurveAffine};
use rand_core::TryRng;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

use crate::endo::{g1_mul, g2_mul};
use crate::groups::{G1Encoding, G1Projective, G2Projective, G2SubgroupCheck};
use crate::{BnParams, EncodingBytes, Fp12, FpExt};

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

/// A uniformly random nonzero scalar: `group`'s `try_random` returns a non-identity element,
/// so k = 0 (probability 1/r) is drawn again. Which draw is kept depends only on whether k is
/// zero, so the time taken reveals nothing about the kept k.
fn nonzero_scalar<C: BnParams, R: TryRng + ?Sized>(rng: &mut R) -> Result<C::Fr, R::Error>
where
    C::Fr: ff::PrimeField,
{
    loop {
        let k = <C::Fr as ff::Field>::try_random(rng)?;
        if !bool::from(ff::Field::is_zero(&k)) {
            return Ok(k);
        }
    }
}

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

/// The `group` impls of a point type and its affine form, for every curve. Each carries
/// `C::Fr: ff::PrimeField` beside `C: BnParams` (the traits' scalars are `ff` fields): the
/// presets' Fr has it from `fieldgen-generated`'s `ff` feature, a `bn_curve!` curve's from its
/// expansion (both turned on by `zkcrypto`).
macro_rules! group_impls {
    ($p:ident, $a:ident) => {
        impl<C: BnParams> Group for $p<C>
        where
            C::Fr: ff::PrimeField,
        {
            type Scalar = C::Fr;
            fn try_random<R: TryRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
                Ok(Self::generator() * nonzero_scalar::<C, R>(rng)?)
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
        impl<C: BnParams> Curve for $p<C>
        where
            C::Fr: ff::PrimeField,
        {
            type Affine = $a<C>;
            fn to_affine(&self) -> $a<C> {
                $a(self.0.to_affine())
            }
            fn batch_normalize(p: &[Self], q: &mut [$a<C>]) {
                let inner: Vec<_> = p.iter().map(|x| x.0).collect();
                let mut out = alloc::vec![fieldgen_weierstrass::AffinePoint::identity(); p.len()];
                ProjectivePointAlias::batch_to_affine(&inner, &mut out);
                for (d, s) in q.iter_mut().zip(out) {
                    *d = $a(s);
                }
            }
        }
        impl<C: BnParams> CurveAffine for $a<C>
        where
            C::Fr: ff::PrimeField,
        {
            type Curve = $p<C>;
            type Scalar = C::Fr;
            fn identity() -> Self {
                $a(fieldgen_weierstrass::AffinePoint::identity())
            }
            fn generator() -> Self {
                $a(fieldgen_weierstrass::AffinePoint::generator())
            }
            fn is_identity(&self) -> Choice {
                self.0.is_identity()
            }
            fn to_curve(&self) -> $p<C> {
                $p(self.0.to_projective())
            }
        }
        impl<C: BnParams> PrimeGroup for $p<C> where C::Fr: ff::PrimeField {}
        impl<C: BnParams> PrimeCurve for $p<C> where C::Fr: ff::PrimeField {}
    };
}

/// Multiplication by a scalar: any `S: Borrow<C::Fr>`, which is `C::Fr` and `&C::Fr` (what
/// the `group` traits ask for). One generic impl per operand type: separate impls for `C::Fr`
/// and `&C::Fr` would overlap for the compiler, which cannot rule out `C::Fr = &D::Fr` for
/// some curves C, D.
macro_rules! scalar_ops {
    ($t:ident, |$a:ident, $k:ident| $body:expr) => {
        impl<C: BnParams, S: Borrow<C::Fr>> Mul<S> for $t<C> {
            type Output = $t<C>;
            fn mul(self, k: S) -> $t<C> {
                let $a = self;
                let $k: &C::Fr = k.borrow();
                $body
            }
        }
        impl<C: BnParams, S: Borrow<C::Fr>> Mul<S> for &$t<C> {
            type Output = $t<C>;
            fn mul(self, k: S) -> $t<C> {
                *self * k
            }
        }
        impl<C: BnParams, S: Borrow<C::Fr>> MulAssign<S> for $t<C> {
            fn mul_assign(&mut self, k: S) {
                *self = *self * k;
            }
        }
    };
}

/// Affine point times scalar, a projective point (what `CurveAffine` asks for).
macro_rules! affine_scalar_ops {
    ($a:ident, $p:ident, $mul:ident) => {
        impl<C: BnParams, S: Borrow<C::Fr>> Mul<S> for $a<C> {
            type Output = $p<C>;
            fn mul(self, k: S) -> $p<C> {
                $p($mul::<C>(&self.0.to_projective(), k.borrow()))
            }
        }
        impl<C: BnParams, S: Borrow<C::Fr>> Mul<S> for &$a<C> {
            type Output = $p<C>;
            fn mul(self, k: S) -> $p<C> {
                *self * k
            }
        }
    };
}

scalar_ops!(G1, |a, k| G1(g1_mul::<C>(&a.0, k)));
scalar_ops!(G2, |a, k| G2(g2_mul::<C>(&a.0, k)));
scalar_ops!(Gt, |a, k| Gt(crate::pairing::gt_pow::<C>(&a.0, k)));
affine_scalar_ops!(G1Aff, G1, g1_mul);
affine_scalar_ops!(G2Aff, G2, g2_mul);
group_impls!(G1, G1Aff);
group_impls!(G2, G2Aff);

// --- encodings ---

/// The encoding types, by their lengths in Fp encodings: `fieldgen_field::Repr<N>` for
/// N = BYTES, 2·BYTES, 4·BYTES of the curve's Fp (through [`EncodingBytes`], as the lengths
/// differ per curve).
type Repr1<C> = <<<C as BnParams>::Fp as fieldgen_field::Field>::Bytes as EncodingBytes>::Repr;
type Repr2<C> = <<<C as BnParams>::Fp as FpExt>::Bytes2 as EncodingBytes>::Repr;
type Repr4<C> = <<<C as BnParams>::Fp as FpExt>::Bytes4 as EncodingBytes>::Repr;

/// A decoding result as a `CtOption` (decoding is variable time: the input is public).
fn ct_from<T: Default>(r: Result<T, crate::Error>) -> CtOption<T> {
    match r {
        Ok(v) => CtOption::new(v, Choice::from(1)),
        Err(_) => CtOption::new(T::default(), Choice::from(0)),
    }
}

impl<C: BnParams> GroupEncoding for G1<C> {
    /// The compressed form of [`crate::groups`], BYTES long.
    type Repr = Repr1<C>;
    fn from_bytes(bytes: &Self::Repr) -> CtOption<Self> {
        ct_from(
            crate::G1Affine::<C>::from_compressed(bytes.as_ref()).map(|p| G1(p.to_projective())),
        )
    }
    fn from_bytes_unchecked(bytes: &Self::Repr) -> CtOption<Self> {
        Self::from_bytes(bytes)
    }
    fn to_bytes(&self) -> Self::Repr {
        let mut out = Self::Repr::default();
        // The length is right by construction: this cannot fail.
        let _ = self.0.to_affine().write_compressed(out.as_mut());
        out
    }
}

impl<C: BnParams> GroupEncoding for G2<C> {
    /// The compressed form of [`crate::groups`], 2·BYTES long.
    type Repr = Repr2<C>;
    fn from_bytes(bytes: &Self::Repr) -> CtOption<Self> {
        ct_from(
            <crate::G2Affine<C> as G2SubgroupCheck>::from_compressed(bytes.as_ref())
                .map(|p| G2(p.to_projective())),
        )
    }
    fn from_bytes_unchecked(bytes: &Self::Repr) -> CtOption<Self> {
        Self::from_bytes(bytes)
    }
    fn to_bytes(&self) -> Self::Repr {
        let mut out = Self::Repr::default();
        let _ = G2SubgroupCheck::write_compressed(&self.0.to_affine(), out.as_mut());
        out
    }
}

impl<C: BnParams> GroupEncoding for G1Aff<C> {
    /// As [`G1`]'s.
    type Repr = Repr1<C>;
    fn from_bytes(bytes: &Self::Repr) -> CtOption<Self> {
        ct_from(crate::G1Affine::<C>::from_compressed(bytes.as_ref()).map(G1Aff))
    }
    fn from_bytes_unchecked(bytes: &Self::Repr) -> CtOption<Self> {
        Self::from_bytes(bytes)
    }
    fn to_bytes(&self) -> Self::Repr {
        let mut out = Self::Repr::default();
        let _ = self.0.write_compressed(out.as_mut());
        out
    }
}

impl<C: BnParams> GroupEncoding for G2Aff<C> {
    /// As [`G2`]'s.
    type Repr = Repr2<C>;
    fn from_bytes(bytes: &Self::Repr) -> CtOption<Self> {
        ct_from(<crate::G2Affine<C> as G2SubgroupCheck>::from_compressed(bytes.as_ref()).map(G2Aff))
    }
    fn from_bytes_unchecked(bytes: &Self::Repr) -> CtOption<Self> {
        Self::from_bytes(bytes)
    }
    fn to_bytes(&self) -> Self::Repr {
        let mut out = Self::Repr::default();
        let _ = G2SubgroupCheck::write_compressed(&self.0, out.as_mut());
        out
    }
}

impl<C: BnParams> UncompressedEncoding for G1Aff<C> {
    /// The uncompressed form of [`crate::groups`], 2·BYTES long.
    type Uncompressed = Repr2<C>;
    fn from_uncompressed(bytes: &Self::Uncompressed) -> CtOption<Self> {
        ct_from(crate::G1Affine::<C>::from_uncompressed(bytes.as_ref()).map(G1Aff))
    }
    fn from_uncompressed_unchecked(bytes: &Self::Uncompressed) -> CtOption<Self> {
        Self::from_uncompressed(bytes)
    }
    fn to_uncompressed(&self) -> Self::Uncompressed {
        let mut out = Self::Uncompressed::default();
        let _ = self.0.write_uncompressed(out.as_mut());
        out
    }
}

impl<C: BnParams> UncompressedEncoding for G2Aff<C> {
    /// The uncompressed form of [`crate::groups`], 4·BYTES long.
    type Uncompressed = Repr4<C>;
    fn from_uncompressed(bytes: &Self::Uncompressed) -> CtOption<Self> {
        ct_from(
            <crate::G2Affine<C> as G2SubgroupCheck>::from_uncompressed(bytes.as_ref()).map(G2Aff),
        )
    }
    fn from_uncompressed_unchecked(bytes: &Self::Uncompressed) -> CtOption<Self> {
        Self::from_uncompressed(bytes)
    }
    fn to_uncompressed(&self) -> Self::Uncompressed {
        let mut out = Self::Uncompressed::default();
        let _ = G2SubgroupCheck::write_uncompressed(&self.0, out.as_mut());
        out
    }
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
impl<C: BnParams> Group for Gt<C>
where
    C::Fr: ff::PrimeField,
{
    type Scalar = C::Fr;
    fn try_random<R: TryRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        Ok(Self::generator() * nonzero_scalar::<C, R>(rng)?)
    }
    fn identity() -> Self {
        Gt(Fp12::ONE)
    }
    /// e(G1, G2) for the curve's generators (computed on each call).
    fn generator() -> Self {
        Gt(crate::pairing::pairing::<C>(
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

impl<C: BnParams> MillerLoopResult for MillerOutput<C>
where
    C::Fr: ff::PrimeField,
{
    type Gt = Gt<C>;
    fn final_exponentiation(&self) -> Gt<C> {
        Gt(crate::pairing::final_exponentiation::<C>(&self.0))
    }
}

// --- the engine ---

impl<C: BnParams> PairingCurveAffine for G1Aff<C>
where
    C::Fr: ff::PrimeField,
{
    type Pair = G2Aff<C>;
    type PairingResult = Gt<C>;
    fn pairing_with(&self, q: &G2Aff<C>) -> Gt<C> {
        Gt(crate::pairing::pairing::<C>(&self.0, &q.0))
    }
}

impl<C: BnParams> PairingCurveAffine for G2Aff<C>
where
    C::Fr: ff::PrimeField,
{
    type Pair = G1Aff<C>;
    type PairingResult = Gt<C>;
    fn pairing_with(&self, p: &G1Aff<C>) -> Gt<C> {
        Gt(crate::pairing::pairing::<C>(&p.0, &self.0))
    }
}

impl<C: BnParams> Engine for Bn<C>
where
    C::Fr: ff::PrimeField,
{
    type Fr = C::Fr;
    type G1 = G1<C>;
    type G1Affine = G1Aff<C>;
    type G2 = G2<C>;
    type G2Affine = G2Aff<C>;
    type Gt = Gt<C>;
    fn pairing(p: &G1Aff<C>, q: &G2Aff<C>) -> Gt<C> {
        Gt(crate::pairing::pairing::<C>(&p.0, &q.0))
    }
}

impl<C: BnParams> MultiMillerLoop for Bn<C>
where
    C::Fr: ff::PrimeField,
{
    /// Q's Miller-loop line coefficients, computed once ([`crate::G2Prepared`]).
    type G2Prepared = crate::pairing::G2Prepared<C>;
    type Result = MillerOutput<C>;
    fn multi_miller_loop(terms: &[(&G1Aff<C>, &crate::pairing::G2Prepared<C>)]) -> MillerOutput<C> {
        let pairs: Vec<_> = terms.iter().map(|(p, q)| (p.0, *q)).collect();
        MillerOutput(crate::pairing::multi_miller_loop_prepared::<C>(&pairs))
    }
}

impl<C: BnParams> From<G2Aff<C>> for crate::pairing::G2Prepared<C> {
    fn from(q: G2Aff<C>) -> Self {
        crate::pairing::G2Prepared::new(&q.0)
    }
}
