//! Implementations of the ecosystem's traits for any field type with the generated inherent
//! API, written once here so that committed fields and fields made by the `prime_field!` macro
//! get the same ones: zkcrypto `ff` 0.14 (`Field`, `PrimeField`) with the `ff` feature, and
//! `zeroize::Zeroize` with the `zeroize` feature.
//!
//! The macros expand in the user's crate and name everything through this crate
//! (`$crate::__private`), so the user's crate needs no `ff`, `rand_core`, `zeroize` or `subtle`
//! dependency of its own, only the feature of this crate.

/// The `ff::PrimeField::Repr` of a field with `B`-byte encodings: the canonical little-endian
/// bytes. A newtype because arrays longer than 32 bytes have no `Default`.
#[cfg(feature = "ff")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repr<const B: usize>(pub [u8; B]);

#[cfg(feature = "ff")]
impl<const B: usize> Default for Repr<B> {
    fn default() -> Self {
        Repr([0u8; B])
    }
}

#[cfg(feature = "ff")]
impl<const B: usize> AsRef<[u8]> for Repr<B> {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

#[cfg(feature = "ff")]
impl<const B: usize> AsMut<[u8]> for Repr<B> {
    fn as_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
}

/// Implements `ff::Field` and `ff::PrimeField` (ff 0.14) for a generated prime field type `$t`
/// whose canonical encoding is `$bytes` bytes; `Repr` is [`Repr<$bytes>`](crate::Repr), the
/// little-endian encoding. Needs this crate's `ff` feature (without it the macro is a
/// compile error saying so).
///
/// `random` draws `$bytes` bytes, clears the bits above `NUM_BITS` and retries while the value
/// is at least p (rejection sampling: uniform, variable time in the random draw only);
/// `sqrt_ratio` is ff's generic helper over the field's constant-time `sqrt`.
#[cfg(feature = "ff")]
#[macro_export]
macro_rules! impl_ff {
    ($t:ty, $bytes:expr) => {
        impl $crate::__private::ff::Field for $t {
            const ZERO: Self = <$t>::ZERO;
            const ONE: Self = <$t>::ONE;

            fn try_random<R: $crate::__private::rand_core::TryRng + ?Sized>(
                rng: &mut R,
            ) -> ::core::result::Result<Self, R::Error> {
                loop {
                    let mut bytes = [0u8; $bytes];
                    rng.try_fill_bytes(&mut bytes)?;
                    let excess = 8 * $bytes - <$t>::NUM_BITS as usize;
                    bytes[$bytes - 1] &= 0xffu8 >> excess;
                    let candidate = <$t>::from_le_bytes(&bytes);
                    if bool::from(candidate.is_some()) {
                        return ::core::result::Result::Ok(candidate.unwrap());
                    }
                }
            }

            fn square(&self) -> Self {
                <$t>::square(self)
            }

            fn double(&self) -> Self {
                <$t>::double(self)
            }

            fn invert(&self) -> $crate::subtle::CtOption<Self> {
                <$t>::invert(self)
            }

            fn sqrt(&self) -> $crate::subtle::CtOption<Self> {
                <$t>::sqrt(self)
            }

            fn sqrt_ratio(num: &Self, div: &Self) -> ($crate::subtle::Choice, Self) {
                $crate::__private::ff::helpers::sqrt_ratio_generic(num, div)
            }

            fn is_zero(&self) -> $crate::subtle::Choice {
                <$t>::is_zero(self)
            }

            fn pow_vartime<S: ::core::convert::AsRef<[u64]>>(&self, exp: S) -> Self {
                <$t>::pow_vartime(self, exp.as_ref())
            }
        }

        impl $crate::__private::ff::PrimeField for $t {
            type Repr = $crate::Repr<$bytes>;

            fn from_repr(repr: Self::Repr) -> $crate::subtle::CtOption<Self> {
                <$t>::from_le_bytes(&repr.0)
            }

            fn to_repr(&self) -> Self::Repr {
                $crate::Repr(<$t>::to_le_bytes(self))
            }

            fn is_odd(&self) -> $crate::subtle::Choice {
                $crate::subtle::Choice::from(<$t>::to_le_bytes(self)[0] & 1)
            }

            const MODULUS: &'static str = <$t>::MODULUS_HEX;
            const NUM_BITS: u32 = <$t>::NUM_BITS;
            const CAPACITY: u32 = <$t>::NUM_BITS - 1;
            const TWO_INV: Self = <$t>::TWO_INV;
            const MULTIPLICATIVE_GENERATOR: Self = <$t>::MULTIPLICATIVE_GENERATOR;
            const S: u32 = <$t>::TWO_ADICITY;
            const ROOT_OF_UNITY: Self = <$t>::ROOT_OF_UNITY;
            const ROOT_OF_UNITY_INV: Self = <$t>::ROOT_OF_UNITY_INV;
            const DELTA: Self = <$t>::DELTA;
        }
    };
}

/// Without the `ff` feature: a compile error that names the missing feature.
#[cfg(not(feature = "ff"))]
#[macro_export]
macro_rules! impl_ff {
    ($($tt:tt)*) => {
        ::core::compile_error!(
            "the ff trait impls need the `ff` feature of fieldgen-field: \
             fieldgen-field = { version = \"0.1\", features = [\"ff\"] }"
        );
    };
}

/// Implements `zeroize::Zeroize` for a field type `$t` with a `ZERO` constant and `Copy`: a
/// volatile write of `ZERO` over the value, then a compiler fence, as the zeroize crate does
/// for its primitive types, so the store is not removed as dead. Needs this crate's `zeroize`
/// feature (without it the macro is a compile error saying so).
#[cfg(feature = "zeroize")]
#[macro_export]
macro_rules! impl_zeroize {
    ($t:ty) => {
        impl $crate::__private::zeroize::Zeroize for $t {
            fn zeroize(&mut self) {
                // SAFETY: `self` is a valid, aligned, exclusive reference to a `Copy` value with
                // no drop glue, so overwriting it in place is sound.
                unsafe { ::core::ptr::write_volatile(self, <$t>::ZERO) };
                ::core::sync::atomic::compiler_fence(::core::sync::atomic::Ordering::SeqCst);
            }
        }
    };
}

/// Without the `zeroize` feature: a compile error that names the missing feature.
#[cfg(not(feature = "zeroize"))]
#[macro_export]
macro_rules! impl_zeroize {
    ($($tt:tt)*) => {
        ::core::compile_error!(
            "the Zeroize impl needs the `zeroize` feature of fieldgen-field: \
             fieldgen-field = { version = \"0.1\", features = [\"zeroize\"] }"
        );
    };
}
