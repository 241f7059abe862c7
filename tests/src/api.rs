//! The generated prime-field API, as the suite sees it.
//!
//! [`prime_field_suite!`](crate::prime_field_suite) wraps the generated type `Fp` in a local
//! newtype and implements [`FieldUnderTest`] for it, one method per item of the API, each calling
//! exactly that item with the exact signature the generator promises (the wrapper's bodies carry
//! type annotations, so a missing item or a changed signature is a compile error in the test
//! crate). The suite's properties ([`crate::suite`]) are then ordinary generic Rust.
//!
//! Byte arrays cross this trait as slices of length `B` and `subtle` types as `bool`/`Option`;
//! the wrapper converts.

use core::fmt::Debug;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};
use subtle::{ConditionallySelectable, ConstantTimeEq};

/// One generated prime field, seen through the API every generated `Fp` must have. Implemented
/// by the wrapper that [`prime_field_suite!`](crate::prime_field_suite) defines; not meant to be
/// implemented by hand.
///
/// Method names mirror the generated API; `op_*` methods go through the `core::ops` traits, the
/// other methods through `Fp`'s inherent items of the same name.
pub trait FieldUnderTest: Copy + Debug + 'static {
    /// `Fp::NUM_BITS`.
    const NUM_BITS: u32;
    /// `Fp::MODULUS_LE_BYTES`, as a vector of `B` bytes.
    fn modulus_le_bytes() -> Vec<u8>;
    /// `Fp::ZERO`.
    fn zero() -> Self;
    /// `Fp::ONE`.
    fn one() -> Self;
    /// `<Fp as Default>::default()`.
    fn default_value() -> Self;
    /// `Fp::from_u64(v)`.
    fn from_u64(v: u64) -> Self;
    /// `Fp::from_le_bytes(&[u8; B])`; `bytes` must have length `B`.
    fn from_le_bytes(bytes: &[u8]) -> Option<Self>;
    /// `Fp::from_be_bytes(&[u8; B])`; `bytes` must have length `B`.
    fn from_be_bytes(bytes: &[u8]) -> Option<Self>;
    /// `Fp::to_le_bytes(&self)`.
    fn to_le_bytes(&self) -> Vec<u8>;
    /// `Fp::to_be_bytes(&self)`.
    fn to_be_bytes(&self) -> Vec<u8>;

    /// Inherent `Fp::add(&self, &Fp)`.
    fn add(&self, rhs: &Self) -> Self;
    /// Inherent `Fp::sub(&self, &Fp)`.
    fn sub(&self, rhs: &Self) -> Self;
    /// Inherent `Fp::mul(&self, &Fp)`.
    fn mul(&self, rhs: &Self) -> Self;
    /// `Fp::mul_small(&self, u32)`: the product with a small integer.
    fn mul_small(&self, k: u32) -> Self;
    /// Inherent `Fp::neg(&self)`.
    fn neg(&self) -> Self;
    /// `Fp::double(&self)`.
    fn double(&self) -> Self;
    /// `Fp::square(&self)`.
    fn square(&self) -> Self;
    /// `Fp::pow(&self, &[u64])`, exponent as little-endian words.
    fn pow(&self, exp_le: &[u64]) -> Self;
    /// `Fp::pow_vartime(&self, &[u64])`, exponent as little-endian words.
    fn pow_vartime(&self, exp_le: &[u64]) -> Self;
    /// `Fp::invert(&self)`.
    fn invert(&self) -> Option<Self>;
    /// `Fp::invert_vartime(&self)`.
    fn invert_vartime(&self) -> Option<Self>;
    /// `Fp::sqrt(&self)`.
    fn sqrt(&self) -> Option<Self>;
    /// `Fp::legendre(&self)`.
    fn legendre(&self) -> i8;
    /// `Fp::legendre_vartime(&self)`.
    fn legendre_vartime(&self) -> i8;
    /// `Fp::legendre_euler(&self)`.
    fn legendre_euler(&self) -> i8;
    /// `Fp::is_zero(&self)`.
    fn is_zero(&self) -> bool;
    /// `Fp::batch_invert(&mut [Fp])`.
    fn batch_invert(elems: &mut [Self]);

    /// `a + b`.
    fn op_add(self, rhs: Self) -> Self;
    /// `&a + &b`.
    fn op_add_ref(&self, rhs: &Self) -> Self;
    /// `a += b`.
    fn op_add_assign(&mut self, rhs: Self);
    /// `a += &b`.
    fn op_add_assign_ref(&mut self, rhs: &Self);
    /// `a - b`.
    fn op_sub(self, rhs: Self) -> Self;
    /// `&a - &b`.
    fn op_sub_ref(&self, rhs: &Self) -> Self;
    /// `a -= b`.
    fn op_sub_assign(&mut self, rhs: Self);
    /// `a -= &b`.
    fn op_sub_assign_ref(&mut self, rhs: &Self);
    /// `a * b`.
    fn op_mul(self, rhs: Self) -> Self;
    /// `&a * &b`.
    fn op_mul_ref(&self, rhs: &Self) -> Self;
    /// `a *= b`.
    fn op_mul_assign(&mut self, rhs: Self);
    /// `a *= &b`.
    fn op_mul_assign_ref(&mut self, rhs: &Self);
    /// `-a`.
    fn op_neg(self) -> Self;
    /// `-&a`.
    fn op_neg_ref(&self) -> Self;

    /// `a == b` (`PartialEq`).
    fn partial_eq(&self, rhs: &Self) -> bool;
    /// `a != b` (`PartialEq`).
    fn partial_ne(&self, rhs: &Self) -> bool;
    /// `subtle::ConstantTimeEq::ct_eq`.
    fn ct_eq(&self, rhs: &Self) -> bool;
    /// `subtle::ConditionallySelectable::conditional_select(a, b, choice)`.
    fn conditional_select(a: &Self, b: &Self, choice: bool) -> Self;
    /// `subtle::ConditionallySelectable::conditional_assign`.
    fn conditional_assign(&mut self, other: &Self, choice: bool);
    /// `subtle::ConditionallySelectable::conditional_swap`.
    fn conditional_swap(a: &mut Self, b: &mut Self, choice: bool);
    /// `format!("{:?}", fp)`.
    fn debug_string(&self) -> String;
}

/// Compiles only if `T` has every trait the generated field type must implement:
/// `Copy + Clone + Debug + Default + PartialEq + Eq + ConstantTimeEq + ConditionallySelectable`,
/// `Add`, `Sub`, `Mul` on values and on references (`&a + &b`), `Neg` on both, and `AddAssign`,
/// `SubAssign`, `MulAssign` with a value or a reference on the right, every output being `T`.
///
/// Mixed forms (`a + &b`, `&a + b`) are not required.
pub fn assert_api_traits<T>()
where
    T: Copy
        + Clone
        + Debug
        + Default
        + PartialEq
        + Eq
        + ConstantTimeEq
        + ConditionallySelectable
        + Add<Output = T>
        + Sub<Output = T>
        + Mul<Output = T>
        + Neg<Output = T>
        + AddAssign
        + SubAssign
        + MulAssign
        + for<'a> AddAssign<&'a T>
        + for<'a> SubAssign<&'a T>
        + for<'a> MulAssign<&'a T>,
    for<'a> &'a T:
        Add<&'a T, Output = T> + Sub<&'a T, Output = T> + Mul<&'a T, Output = T> + Neg<Output = T>,
{
}
