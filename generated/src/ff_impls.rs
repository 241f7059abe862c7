//! `ff::Field` and `ff::PrimeField` (zkcrypto ff 0.13) for the generated fields, written once
//! against the inherent API every generated field has.

/// The `ff::PrimeField::Repr` of a field with `B`-byte encodings: the canonical little-endian
/// bytes. A newtype because arrays longer than 32 bytes have no `Default`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repr<const B: usize>(pub [u8; B]);

impl<const B: usize> Default for Repr<B> {
    fn default() -> Self {
        Repr([0u8; B])
    }
}

impl<const B: usize> AsRef<[u8]> for Repr<B> {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl<const B: usize> AsMut<[u8]> for Repr<B> {
    fn as_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
}

/// Implements the ff traits for a generated field type `$t` whose canonical encoding is
/// `$bytes` bytes. `Repr` is the little-endian encoding.
macro_rules! impl_ff {
    ($t:ty, $bytes:expr) => {
        impl ff::Field for $t {
            const ZERO: Self = <$t>::ZERO;
            const ONE: Self = <$t>::ONE;

            /// Uniform by rejection sampling: draw B bytes, clear the bits above NUM_BITS,
            /// retry while the value is at least p (variable time in the random draw only).
            fn random(mut rng: impl rand_core::RngCore) -> Self {
                loop {
                    let mut bytes = [0u8; $bytes];
                    rng.fill_bytes(&mut bytes);
                    let excess = 8 * $bytes - <$t>::NUM_BITS as usize;
                    bytes[$bytes - 1] &= 0xffu8 >> excess;
                    let candidate = <$t>::from_le_bytes(&bytes);
                    if bool::from(candidate.is_some()) {
                        return candidate.unwrap();
                    }
                }
            }

            fn square(&self) -> Self {
                <$t>::square(self)
            }

            fn double(&self) -> Self {
                <$t>::double(self)
            }

            fn invert(&self) -> subtle::CtOption<Self> {
                <$t>::invert(self)
            }

            fn sqrt(&self) -> subtle::CtOption<Self> {
                <$t>::sqrt(self)
            }

            fn sqrt_ratio(num: &Self, div: &Self) -> (subtle::Choice, Self) {
                ff::helpers::sqrt_ratio_generic(num, div)
            }

            fn is_zero(&self) -> subtle::Choice {
                <$t>::is_zero(self)
            }

            fn pow_vartime<S: AsRef<[u64]>>(&self, exp: S) -> Self {
                <$t>::pow_vartime(self, exp.as_ref())
            }
        }

        impl ff::PrimeField for $t {
            type Repr = $crate::ff_impls::Repr<$bytes>;

            fn from_repr(repr: Self::Repr) -> subtle::CtOption<Self> {
                <$t>::from_le_bytes(&repr.0)
            }

            fn to_repr(&self) -> Self::Repr {
                $crate::ff_impls::Repr(<$t>::to_le_bytes(self))
            }

            fn is_odd(&self) -> subtle::Choice {
                subtle::Choice::from(<$t>::to_le_bytes(self)[0] & 1)
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
