//! The trait family implemented by every generated field.

use core::fmt::Debug;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

/// A fixed-length byte array: the canonical encoding of a field element, `[u8; B]` for the
/// field's byte length B (implemented for every length, also those above 32 where the standard
/// library has no `Default`).
pub trait ByteArray:
    Copy + Clone + Debug + Eq + AsRef<[u8]> + AsMut<[u8]> + Send + Sync + 'static
{
    /// All zero bytes.
    fn zeroed() -> Self;
}

impl<const B: usize> ByteArray for [u8; B] {
    #[inline]
    fn zeroed() -> Self {
        [0u8; B]
    }
}

/// A finite field as a generated type implements it: GF(p) or GF(2^m).
///
/// Every method is constant time in the values of its operands except those named
/// `_vartime` and the length of slices. Encodings are the canonical integer (GF(p)) or the
/// coefficient vector read as an integer (GF(2^m), coefficient i at bit i), in
/// [`Field::BYTES`] bytes; decoding rejects non-canonical values.
pub trait Field:
    Copy
    + Clone
    + Default
    + Debug
    + Eq
    + Send
    + Sync
    + 'static
    + ConstantTimeEq
    + ConditionallySelectable
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
{
    /// The canonical encoding, `[u8; BYTES]`.
    type Bytes: ByteArray;

    /// Length in bytes of the canonical encoding: ⌈bits/8⌉ of p − 1 (GF(p)) or of the
    /// degree m (GF(2^m)).
    const BYTES: usize;
    /// The additive identity.
    const ZERO: Self;
    /// The multiplicative identity.
    const ONE: Self;
    /// True for GF(2^m), where x + x = 0 and negation is the identity.
    const CHARACTERISTIC_TWO: bool;

    /// self².
    fn square(&self) -> Self;
    /// 2·self (zero in characteristic two).
    fn double(&self) -> Self;
    /// self^(2^k): k squarings.
    fn square_n(&self, k: u32) -> Self {
        let mut x = *self;
        for _ in 0..k {
            x = x.square();
        }
        x
    }
    /// The multiplicative inverse; none for zero.
    fn invert(&self) -> CtOption<Self>;
    /// The multiplicative inverse of a public value; none for zero. Variable time (several
    /// times faster than [`Field::invert`]): only for values that are not secret.
    fn invert_vartime(&self) -> Option<Self>;
    /// A square root; none when self is not a square (every element of GF(2^m) is one).
    fn sqrt(&self) -> CtOption<Self>;
    /// Whether self is zero.
    fn is_zero(&self) -> Choice;
    /// self^e for e given as little-endian 64-bit words; constant time in self and e, the
    /// time depending only on the number of words.
    fn pow(&self, exp_le: &[u64]) -> Self;
    /// self^e for a public exponent; the time depends on e.
    fn pow_vartime(&self, exp_le: &[u64]) -> Self;
    /// Inverts every element in place; zeros stay zero. Montgomery's trick over chunks of 32
    /// (one inversion and three multiplications per element), constant time for a given
    /// length, no allocation.
    fn batch_invert(elems: &mut [Self]) {
        const CHUNK: usize = 32;
        for chunk in elems.chunks_mut(CHUNK) {
            let mut prefix = [Self::ONE; CHUNK];
            let mut acc = Self::ONE;
            for (slot, e) in prefix.iter_mut().zip(chunk.iter()) {
                *slot = acc;
                acc = Self::conditional_select(&(acc * *e), &acc, e.is_zero());
            }
            let mut inv = acc.invert().unwrap_or(Self::ZERO);
            for (slot, e) in prefix.iter().zip(chunk.iter_mut()).rev() {
                let zero = e.is_zero();
                let next = Self::conditional_select(&(inv * *e), &inv, zero);
                *e = Self::conditional_select(&(inv * *slot), &Self::ZERO, zero);
                inv = next;
            }
        }
    }

    /// The canonical little-endian encoding.
    fn to_le_bytes(&self) -> Self::Bytes;
    /// The canonical big-endian encoding.
    fn to_be_bytes(&self) -> Self::Bytes;
    /// Decodes a little-endian encoding; none unless canonical.
    fn from_le_bytes(bytes: &Self::Bytes) -> CtOption<Self>;
    /// Decodes a big-endian encoding; none unless canonical.
    fn from_be_bytes(bytes: &Self::Bytes) -> CtOption<Self>;
}

/// GF(p) for an odd prime p.
pub trait PrimeField: Field {
    /// Bit length of p.
    const NUM_BITS: u32;
    /// p as `0x` and big-endian hex digits, 2·BYTES of them.
    const MODULUS_HEX: &'static str;
    /// s with p − 1 = 2^s·t, t odd.
    const TWO_ADICITY: u32;
    /// A primitive 2^s-th root of unity.
    const ROOT_OF_UNITY: Self;
    /// 1/2.
    const TWO_INV: Self;

    /// p, little-endian.
    fn modulus_le_bytes() -> Self::Bytes;
    /// x mod p.
    fn from_u64(x: u64) -> Self;
    /// self · k for a small integer k, cheaper than a full product where the form allows.
    fn mul_small(&self, k: u32) -> Self;
    /// The Legendre symbol (self / p): 1, −1, or 0 for zero.
    fn legendre(&self) -> i8;
    /// Bit 0 of the canonical value (the "sign" of SEC 1 §2.3.3 and RFC 9380 `sgn0`).
    fn is_odd(&self) -> Choice {
        Choice::from(self.to_le_bytes().as_ref()[0] & 1)
    }
}

/// GF(2^m) in polynomial basis, modulo an irreducible f(x) of degree m.
pub trait BinaryField: Field {
    /// The degree m.
    const DEGREE: u32;
    /// Tr(self) = Σ self^(2^i), i < m: 0 or 1.
    fn trace(&self) -> Choice;
    /// A solution z of z² + z = self (the other is z + 1); none when Tr(self) = 1
    /// (half-trace for odd m, IEEE 1363-2000 A.4.5; A.4.7 for even m).
    fn solve_quadratic(&self) -> CtOption<Self>;
}

/// A Montgomery-form GF(p) with unreduced double-width products.
///
/// With R = 2^(w·n) for n limbs of w bits, an element a is stored as ã = a·R mod p. A
/// [`WideField::Wide`] value holds an integer below p·R (its type invariant, kept by every
/// method here); [`WideField::reduce_wide`] maps it to Montgomery form by one Montgomery
/// reduction, T·R⁻¹ mod p. Since mul_wide(a, b) = ã·b̃ (an integer below p², congruent to
/// a·b·R² mod p), `reduce_wide(mul_wide(a, b)) = a·b` and a sum of products can be reduced once:
/// `reduce_wide(add_wide(mul_wide(a, b), mul_wide(c, d))) = a·b + c·d`.
///
/// [`WideField::add_wide`] and [`WideField::sub_wide`] work modulo p·R (one conditional
/// correction each), so any sequence of them keeps the bound. The unreduced forms skip the
/// correction where the caller can bound the integers instead (Aranha, Karabina, Longa,
/// Gebotys, López, EUROCRYPT 2011, §3–4): up to [`WideField::WIDE_HEADROOM`] products of
/// reduced values add with [`WideField::add_wide_unreduced`] and stay below p·R; a difference
/// known to be non-negative needs no correction ([`WideField::sub_wide_unreduced`]); and
/// [`WideField::mul_wide_sums`] multiplies unreduced sums, so a Karatsuba middle term comes out
/// exact. Every unreduced method has a default over the modular ones with the same result on
/// the inputs its contract allows, so an implementation may override only what it speeds up.
pub trait WideField: PrimeField {
    /// The largest k with k·(p − 1)² < p·R: how many products of two reduced values (each at
    /// most (p − 1)²) may be summed by [`WideField::add_wide_unreduced`] while staying below
    /// p·R: about R/p (generated fields: 5 for BN254's p ≈ 2^253.6 at R = 2^256, 6 for
    /// Fp254BNb, 7 for BN381_1 at R = 2^384, `u32::MAX` for BN462, whose R/p is about 2^51; 1
    /// for moduli without a spare bit, such as P-256). The default, 1, holds for every p
    /// (p² < p·R).
    const WIDE_HEADROOM: u32 = 1;

    /// 2n limbs holding an integer below p·R.
    type Wide: Copy + Clone + Debug + Default + ConditionallySelectable + Send + Sync + 'static;

    /// ã·b̃ as a 2n-limb integer (below p²).
    fn mul_wide(a: &Self, b: &Self) -> Self::Wide;
    /// ã² as a 2n-limb integer (below p²).
    fn square_wide(a: &Self) -> Self::Wide;
    /// T·R⁻¹ mod p (Montgomery reduction of T < p·R), in Montgomery form.
    fn reduce_wide(t: &Self::Wide) -> Self;
    /// (a + b) mod p·R.
    fn add_wide(a: &Self::Wide, b: &Self::Wide) -> Self::Wide;
    /// (a − b) mod p·R.
    fn sub_wide(a: &Self::Wide, b: &Self::Wide) -> Self::Wide;

    /// a + b with no correction, for a + b < p·R (the caller counts the products of reduced
    /// values in the sum against [`WideField::WIDE_HEADROOM`]); on such inputs it equals
    /// [`WideField::add_wide`], the default.
    fn add_wide_unreduced(a: &Self::Wide, b: &Self::Wide) -> Self::Wide {
        Self::add_wide(a, b)
    }

    /// a − b with no correction, for a ≥ b (as integers); on such inputs it equals
    /// [`WideField::sub_wide`], the default.
    fn sub_wide_unreduced(a: &Self::Wide, b: &Self::Wide) -> Self::Wide {
        Self::sub_wide(a, b)
    }

    /// (ã0 + ã1)·(b̃0 + b̃1) as an integer: the sums of the Montgomery representatives are
    /// not reduced mod p, so the product is below 4p² and exactly
    /// ã0·b̃0 + ã0·b̃1 + ã1·b̃0 + ã1·b̃1 — a Karatsuba middle term
    /// `mul_wide_sums(a0, a1, b0, b1) − mul_wide(a0, b0) − mul_wide(a1, b1)` is then
    /// ã0·b̃1 + ã1·b̃0, non-negative, and [`WideField::sub_wide_unreduced`] applies. Requires
    /// [`WideField::WIDE_HEADROOM`] ≥ 4 (so that 4p² < p·R). The default sums the four
    /// products (generated fields with a spare bit of p add the operands unreduced and
    /// multiply once).
    fn mul_wide_sums(a0: &Self, a1: &Self, b0: &Self, b1: &Self) -> Self::Wide {
        let s0 = Self::add_wide_unreduced(&Self::mul_wide(a0, b0), &Self::mul_wide(a0, b1));
        let s1 = Self::add_wide_unreduced(&Self::mul_wide(a1, b0), &Self::mul_wide(a1, b1));
        Self::add_wide_unreduced(&s0, &s1)
    }
}
