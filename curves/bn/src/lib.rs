//! Barreto–Naehrig pairing-friendly curves on fieldgen's generated fields: BN254 (alt_bn128,
//! Ethereum's EIP-196/197 curve), Fp254BNb, BN381_1 and BN462 — the four BN curves of mcl —
//! with G1, G2, the tower Fp2/Fp6/Fp12, the optimal ate pairing and, for BN254, the Ethereum
//! precompiles `ecadd`, `ecmul` and `ecpairing`.
//!
//! A BN curve is named by its parameter z, its constant b and the non-residue ξ = ξ_a + i:
//! p = 36z⁴ + 36z³ + 24z² + 6z + 1, r = 36z⁴ + 36z³ + 18z² + 6z + 1, E: y² = x³ + b over Fp of
//! prime order r. Every other constant (Frobenius coefficients, the twist constant b/ξ, the
//! Miller-loop digits of 6z + 2, the generators, the G2 cofactor) is derived by the generator
//! (`generator/src/product/bn/`) and committed in `src/params/`; see [`BnParams`].
//!
//! Tower (mcl's, so values compare directly): Fp2 = Fp\[i\]/(i² + 1), Fp6 = Fp2\[v\]/(v³ − ξ),
//! Fp12 = Fp6\[w\]/(w² − v). G2 is the D-type sextic twist E′: y² = x³ + b/ξ over Fp2.
//!
//! ```
//! use fieldgen_bn::{pairing, Bn254, G1Projective, G2Projective};
//! let p = G1Projective::<Bn254>::GENERATOR.to_affine();
//! let q = G2Projective::<Bn254>::GENERATOR.to_affine();
//! let e = pairing::<Bn254>(&p, &q);
//! // Bilinearity: e(2P, Q) = e(P, Q)².
//! let p2 = G1Projective::<Bn254>::GENERATOR.double().to_affine();
//! assert_eq!(pairing::<Bn254>(&p2, &q), e.square());
//! ```
//!
//! Constant time: field, tower and group arithmetic and the pairing of finite points are
//! constant time (scalar multiplication through [`G1Projective::mul_le_bytes`]); decoding,
//! subgroup checks, the `_vartime` functions and the Ethereum precompiles (public data) are not.

#![no_std]
#![deny(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

use core::fmt;

use fieldgen_field::{ByteArray, PrimeField, WideField};

pub mod endo;
pub mod eth;
pub mod fp12;
pub mod fp2;
pub mod fp6;
pub mod groups;
pub mod hash;
pub mod msm;
pub mod pairing;
mod params;
#[cfg(feature = "zkcrypto")]
pub mod zk;

pub use fp12::Fp12;
pub use fp2::Fp2;
pub use fp6::Fp6;
pub use groups::{
    G1Affine, G1Params, G1Projective, G2Affine, G2Params, G2Projective, G2SubgroupCheck,
};
pub use pairing::{
    final_exponentiation, miller_loop, multi_miller_loop, multi_pairing, pairing,
    pairing_product_is_one,
};
pub use pairing::{multi_miller_loop_prepared, pairing_prepared, G2Prepared};
pub use params::{Bn254, Bn381, Bn462, Fp254Bnb};

/// What went wrong decoding or checking an input. Every malformed input is one of these;
/// nothing here panics on bad input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// The input has the wrong length for its format.
    InvalidLength,
    /// The flag bits of a compressed or uncompressed encoding are not a valid combination
    /// (or an identity encoding has nonzero bits).
    InvalidFlags,
    /// A coordinate is not below p.
    CoordinateOutOfRange,
    /// The point is not on the curve (or a compressed x has no y).
    NotOnCurve,
    /// A G2 point on the twist but outside the subgroup of order r.
    NotInSubgroup,
    /// A hash-to-curve input out of range: an empty or over-long (> 255 bytes) domain
    /// separation tag, or too long an `expand_message_xmd` output.
    InvalidHashInput,
    /// Two slices that must have one length (MSM points and scalars) differ.
    LengthMismatch,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Error::InvalidLength => "wrong input length",
            Error::InvalidFlags => "invalid flag bits in a point encoding",
            Error::CoordinateOutOfRange => "coordinate not below the field modulus",
            Error::NotOnCurve => "point not on the curve",
            Error::NotInSubgroup => "point not in the subgroup of order r",
            Error::InvalidHashInput => "hash-to-curve tag or output length out of range",
            Error::LengthMismatch => "points and scalars differ in number",
        })
    }
}

impl core::error::Error for Error {}

/// A base field Fp of a BN curve: a generated Montgomery field with double-width products,
/// plus the byte-array types of the point encodings, which are two and four Fp encodings long
/// (an Fp2 value; an uncompressed G2 point). Every byte array here, the field's own
/// `Bytes` included, is an [`EncodingBytes`], so the zkcrypto encodings (module `zk`, feature
/// `zkcrypto`) can name their `Repr` types for any curve.
pub trait FpExt: WideField<Bytes: EncodingBytes> {
    /// `[u8; 2·BYTES]`: an Fp2 value, a compressed G2 point, an uncompressed G1 point.
    type Bytes2: EncodingBytes;
    /// `[u8; 4·BYTES]`: an uncompressed G2 point.
    type Bytes4: EncodingBytes;
}

/// A byte array `[u8; N]` that holds a point encoding. With the `zkcrypto` feature it also
/// names the `group` crate's `Repr` type for that length, `fieldgen_field::Repr<N>` (the
/// `[u8; N]` of the standard library has no `Default` above 32 bytes). Implemented for every
/// `[u8; N]` and for nothing else (the trait is sealed).
pub trait EncodingBytes: ByteArray + sealed::Sealed {
    /// `fieldgen_field::Repr<N>`: the `GroupEncoding::Repr` / `UncompressedEncoding::Uncompressed`
    /// type of an encoding of N bytes.
    #[cfg(feature = "zkcrypto")]
    type Repr: Copy + Default + fmt::Debug + Eq + Send + Sync + 'static + AsRef<[u8]> + AsMut<[u8]>;
}

impl<const N: usize> EncodingBytes for [u8; N] {
    #[cfg(feature = "zkcrypto")]
    type Repr = fieldgen_field::Repr<N>;
}

mod sealed {
    /// Keeps [`super::EncodingBytes`] to the byte arrays.
    pub trait Sealed {}
    impl<const N: usize> Sealed for [u8; N] {}
}

macro_rules! fp_ext {
    ($($m:ident, $bytes:literal;)*) => {$(
        impl FpExt for fieldgen_generated::$m::Fp {
            type Bytes2 = [u8; 2 * $bytes];
            type Bytes4 = [u8; 4 * $bytes];
        }
    )*};
}

#[cfg(target_pointer_width = "64")]
fp_ext! {
    bn254_p_64, 32;
    fp254bnb_p_64, 32;
    bn381_p_64, 48;
    bn462_p_64, 58;
}
#[cfg(not(target_pointer_width = "64"))]
fp_ext! {
    bn254_p_32, 32;
    fp254bnb_p_32, 32;
    bn381_p_32, 48;
    bn462_p_32, 58;
}

/// What the expansion of `fieldgen_macros::bn_curve!` names in the calling crate; not an API.
#[doc(hidden)]
pub mod __private {
    #[cfg(feature = "zkcrypto")]
    pub use fieldgen_field::impl_ff;
}

/// `ff::Field` and `ff::PrimeField` for a field of a `bn_curve!` curve when this crate has its
/// `zkcrypto` feature, nothing without it: the macro's expansion calls it for GF(p) and GF(r),
/// so a macro curve gets the traits the `zk` impls need from the feature its crate enables
/// on this crate (which turns on `fieldgen-field`'s `ff`). Not an API.
#[cfg(feature = "zkcrypto")]
#[doc(hidden)]
#[macro_export]
macro_rules! __zkcrypto_field {
    ($t:ty, $bytes:expr) => {
        $crate::__private::impl_ff!($t, $bytes);
    };
}

/// Without the `zkcrypto` feature: nothing.
#[cfg(not(feature = "zkcrypto"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __zkcrypto_field {
    ($t:ty, $bytes:expr) => {};
}

/// The constants of one BN curve, implemented by a zero-sized marker type per curve
/// ([`Bn254`], [`Fp254Bnb`], [`Bn381`], [`Bn462`]). The impls are generated from (z, b, ξ_a)
/// by `cargo run -p generator -- regen`; `cargo run -p generator -- bn --z … --b … --xi-a …`
/// prints one for a curve of your own.
pub trait BnParams:
    Copy + Clone + fmt::Debug + Default + PartialEq + Eq + Send + Sync + 'static
{
    /// GF(p).
    type Fp: FpExt;
    /// GF(r), the scalar field.
    type Fr: PrimeField;
    /// A display name.
    const NAME: &'static str;
    /// |z|.
    const Z_ABS: u128;
    /// Whether z < 0.
    const Z_NEG: bool;
    /// The non-adjacent form of |6z + 2|, least significant digit first (digits −1, 0, 1).
    const ATE_NAF: &'static [i8];
    /// ξ = ξ_a + i.
    const XI_A: u32;
    /// b.
    const B: Self::Fp;
    /// 3·b.
    const B3: Self::Fp;
    /// b′ = b/ξ, the constant of the twist E′: y² = x³ + b′.
    const B_TWIST: Fp2<Self::Fp>;
    /// 3·b′.
    const B3_TWIST: Fp2<Self::Fp>;
    /// γ1\[k\] = ξ^(k(p−1)/6): (c·w^k)^p = c̄·γ1\[k\]·w^k for c in Fp2.
    const FROB1: [Fp2<Self::Fp>; 6];
    /// γ2\[k\] = ξ^(k(p²−1)/6) (in Fp): (c·w^k)^(p²) = c·γ2\[k\]·w^k.
    const FROB2: [Fp2<Self::Fp>; 6];
    /// γ3\[k\] = ξ^(k(p³−1)/6): (c·w^k)^(p³) = c̄·γ3\[k\]·w^k.
    const FROB3: [Fp2<Self::Fp>; 6];
    /// Affine x of the G1 generator.
    const G1_X: Self::Fp;
    /// Affine y of the G1 generator.
    const G1_Y: Self::Fp;
    /// Affine x of the G2 generator.
    const G2_X: Fp2<Self::Fp>;
    /// Affine y of the G2 generator.
    const G2_Y: Fp2<Self::Fp>;
    /// r as little-endian 64-bit words.
    const R_WORDS: &'static [u64];
    /// The G2 cofactor 2p − r (#E′(Fp2) = r·(2p − r)) as little-endian 64-bit words.
    const G2_COFACTOR_WORDS: &'static [u64];
    /// β, a primitive cube root of unity in Fp: φ(x, y) = (β·x, y) is \[λ\] on G1.
    const BETA: Self::Fp;
    /// λ, the eigenvalue of φ on G1 (a primitive cube root of unity in Fr).
    const LAMBDA: Self::Fr;
    /// The GLV split for φ on G1 ([`endo`]).
    const GLV: endo::Decomposition<Self::Fr, 2>;
    /// The 4-dimensional GLS split for ψ (eigenvalue p mod r) on G2 ([`endo`]).
    const GLS: endo::Decomposition<Self::Fr, 4>;
    /// Shallue–van de Woestijne constants for E (RFC 9380 §6.6.1, [`hash`]).
    const SVDW_G1: hash::Svdw<Self::Fp>;
    /// Shallue–van de Woestijne constants for the twist E′.
    const SVDW_G2: hash::Svdw<Fp2<Self::Fp>>;
    /// L = ceil((ceil(log2 p) + 128)/8), the bytes per field element in hash_to_field
    /// (RFC 9380 §5, security level k = 128).
    const HASH_FIELD_BYTES: usize;
}

/// Little-endian bytes of little-endian 64-bit words (for the group layer's byte scalars).
pub(crate) fn words_to_le_bytes(words: &[u64], out: &mut [u8; 128]) -> usize {
    let mut n = 0;
    for w in words {
        out[n..n + 8].copy_from_slice(&w.to_le_bytes());
        n += 8;
    }
    n
}
