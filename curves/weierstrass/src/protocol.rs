//! The interface ECDH and ECDSA are written against: a prime-order group with its scalar
//! field, a constant-time scalar multiplication, a variable-time double multiplication, the
//! affine x-coordinate as an integer, and validated SEC 1 encodings.
//!
//! [`WeierstrassCurve`] curves get it through a blanket impl; a binary curve
//! y² + xy = x³ + ax² + b implements [`PrimeGroup`] directly (its x is a GF(2^m) element read
//! as an integer, SEC 1 §2.3.9) and reuses [`crate::ecdh`] and [`crate::ecdsa`] unchanged.

use alloc::vec::Vec;

use digest::common::BlockSizeUser;
use digest::{Digest, Update};
use fieldgen_field::ct::declassify;
use fieldgen_field::{ByteArray, Field, PrimeField};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};
use zeroize::Zeroize;

use crate::group::{AffinePoint, CurveParams, FixedBaseTable, ProjectivePoint, WnafBaseTable};
use crate::Error;

/// A short-Weierstrass curve over GF(p) with a prime-order group (cofactor 1), its scalar
/// field GF(n), and its protocol defaults.
pub trait WeierstrassCurve: CurveParams
where
    Self::Base: PrimeField,
{
    /// GF(n) for the group order n.
    type Scalar: PrimeField + Zeroize;
    /// The hash of [`signature::Signer`] and of the RFC 6979 HMAC for prehashed input.
    type Digest: Digest + Update + BlockSizeUser + Clone;
    /// Whether signing normalises s to at most n/2 (secp256k1's convention).
    const SIGN_LOW_S: bool;
    /// The named-curve object identifier (dotted decimal), as in SPKI `ECParameters`.
    const OID: &'static str;

    /// A shared precomputed table of the generator for fixed-base multiplication, when the
    /// curve keeps one (with the `std` feature); none otherwise.
    fn generator_table() -> Option<&'static FixedBaseTable<Self>> {
        None
    }

    /// A shared table of the generator's odd multiples for verification's a·G + b·P
    /// ([`WnafBaseTable`]), when the curve keeps one (with the `std` feature); none otherwise.
    fn generator_wnaf_table() -> Option<&'static WnafBaseTable<Self>> {
        None
    }

    /// k·P in constant time. The default is the signed fixed window of
    /// [`ProjectivePoint::mul_le_bytes`]; a curve with an endomorphism overrides it (GLV,
    /// [`crate::glv::mul`]).
    fn mul_scalar(p: &ProjectivePoint<Self>, k: &Self::Scalar) -> ProjectivePoint<Self> {
        let mut bytes = k.to_le_bytes();
        let r = p.mul_le_bytes(bytes.as_ref());
        bytes.as_mut().zeroize();
        r
    }

    /// a·G + b·P for public a, b, P, variable time (ECDSA verification). The default is the
    /// two-scalar Straus of [`WnafBaseTable::mul_add_vartime`] with the curve's
    /// [`WeierstrassCurve::generator_wnaf_table`], or of
    /// [`ProjectivePoint::double_mul_vartime`] without one; a curve with an endomorphism
    /// overrides it (the four-scalar GLV Straus, [`crate::glv::double_mul_vartime`]).
    fn mul_base_add_scalar_vartime(
        a: &Self::Scalar,
        p: &ProjectivePoint<Self>,
        b: &Self::Scalar,
    ) -> ProjectivePoint<Self> {
        if let Some(table) = Self::generator_wnaf_table() {
            return table.mul_add_vartime(a.to_le_bytes().as_ref(), p, b.to_le_bytes().as_ref());
        }
        ProjectivePoint::GENERATOR.double_mul_vartime(
            a.to_le_bytes().as_ref(),
            p,
            b.to_le_bytes().as_ref(),
        )
    }
}

/// A group of prime order n, written additively, with the operations the protocols need.
pub trait PrimeGroup: Copy + Clone + core::fmt::Debug + Default + Send + Sync + 'static {
    /// GF(n).
    type Scalar: PrimeField + Zeroize;
    /// A group element in the representation scalar multiplication returns.
    type Point: Copy + Clone + core::fmt::Debug + ConditionallySelectable + Send + Sync;
    /// See [`WeierstrassCurve::Digest`].
    type Digest: Digest + Update + BlockSizeUser + Clone;
    /// See [`WeierstrassCurve::SIGN_LOW_S`].
    const SIGN_LOW_S: bool;
    /// The named-curve OID (dotted decimal) of SPKI `ECParameters` (RFC 5480 §2.1.1).
    const CURVE_OID: &'static str;
    /// The cofactor h = #E / n: 1 for the prime-order curves, 2 or 4 for the SEC 2 binary
    /// curves, whose [`PrimeGroup::decode_public`] then also checks n·Q = O. Used by
    /// cofactor ECDH (SEC 1 §3.3.2).
    const COFACTOR: u64 = 1;

    /// The base point G.
    fn generator() -> Self::Point;
    /// k·G, constant time.
    fn mul_base(k: &Self::Scalar) -> Self::Point;
    /// k·P, constant time in k and P.
    fn mul(p: &Self::Point, k: &Self::Scalar) -> Self::Point;
    /// a·G + b·P for public a, b, P; variable time.
    fn mul_base_add_vartime(a: &Self::Scalar, p: &Self::Point, b: &Self::Scalar) -> Self::Point;
    /// Whether p is the identity.
    fn is_identity(p: &Self::Point) -> Choice;
    /// The affine x-coordinate as a big-endian integer of the field's byte length; none for
    /// the identity. Constant time in the coordinates; whether p is the identity is public
    /// (every use here reveals it: an ECDH error, never for an ECDSA nonce point), so the
    /// implementations pass it through [`fieldgen_field::ct::declassify`].
    fn x_be_bytes(p: &Self::Point) -> CtOption<Vec<u8>>;
    /// Decodes a public point with full validation (SEC 1 §3.2.2.1): length, coordinates
    /// canonical, on the curve, in the prime-order subgroup, not the identity.
    fn decode_public(bytes: &[u8]) -> Result<Self::Point, Error>;
    /// The SEC 1 encoding (§2.3.3) of a finite point.
    fn encode(p: &Self::Point, compressed: bool) -> Vec<u8>;

    /// Whether p is finite and its affine x-coordinate, read as an integer, is r modulo n:
    /// the last check of ECDSA verification (SEC 1 §4.1.4 steps 6–8). Variable time (public
    /// inputs). The default normalises p through [`PrimeGroup::x_be_bytes`]; a group may
    /// compare without the inversion.
    fn x_mod_n_eq_vartime(p: &Self::Point, r: &Self::Scalar) -> bool {
        let x: Option<Vec<u8>> = Self::x_be_bytes(p).into();
        x.is_some_and(|x| bool::from(scalar_from_be_bytes_reduced::<Self::Scalar>(&x).ct_eq(r)))
    }
}

impl<C: WeierstrassCurve> PrimeGroup for C
where
    C::Base: PrimeField,
{
    type Scalar = C::Scalar;
    type Point = ProjectivePoint<C>;
    type Digest = C::Digest;
    const SIGN_LOW_S: bool = C::SIGN_LOW_S;
    const CURVE_OID: &'static str = C::OID;

    fn generator() -> Self::Point {
        ProjectivePoint::GENERATOR
    }

    fn mul_base(k: &Self::Scalar) -> Self::Point {
        match C::generator_table() {
            Some(table) => {
                let mut bytes = k.to_le_bytes();
                let r = table.mul_le_bytes(bytes.as_ref());
                bytes.as_mut().zeroize();
                r
            }
            None => Self::mul(&ProjectivePoint::GENERATOR, k),
        }
    }

    fn mul(p: &Self::Point, k: &Self::Scalar) -> Self::Point {
        C::mul_scalar(p, k)
    }

    fn mul_base_add_vartime(a: &Self::Scalar, p: &Self::Point, b: &Self::Scalar) -> Self::Point {
        C::mul_base_add_scalar_vartime(a, p, b)
    }

    fn is_identity(p: &Self::Point) -> Choice {
        p.is_identity()
    }

    /// Whether p is the identity is declassified (see [`PrimeGroup::x_be_bytes`]).
    fn x_be_bytes(p: &Self::Point) -> CtOption<Vec<u8>> {
        let a = p.to_affine();
        CtOption::new(a.x.to_be_bytes().as_ref().to_vec(), !declassify(a.infinity))
    }

    fn decode_public(bytes: &[u8]) -> Result<Self::Point, Error> {
        AffinePoint::<C>::from_sec1_bytes_nonidentity(bytes).map(|p| p.to_projective())
    }

    fn encode(p: &Self::Point, compressed: bool) -> Vec<u8> {
        p.to_sec1_bytes(compressed)
    }

    /// Projectively, without an inversion: x = X/Z ≡ r (mod n) with 0 ≤ x < p means x = r or
    /// x = r + n, since p < 2n (Hasse's bound with cofactor 1); so test X = r·Z, and
    /// X = (r + n)·Z when r + n < p.
    fn x_mod_n_eq_vartime(p: &Self::Point, r: &Self::Scalar) -> bool {
        if bool::from(p.z.is_zero()) || C::Base::BYTES != C::Scalar::BYTES {
            return !bool::from(p.z.is_zero())
                && bool::from(
                    scalar_from_be_bytes_reduced::<C::Scalar>(
                        p.to_affine().x.to_be_bytes().as_ref(),
                    )
                    .ct_eq(r),
                );
        }
        let matches = |le: &[u8]| {
            let mut b = <C::Base as Field>::Bytes::zeroed();
            b.as_mut().copy_from_slice(le);
            let x: Option<C::Base> = C::Base::from_le_bytes(&b).into();
            x.is_some_and(|x| bool::from(p.x.ct_eq(&(x * p.z))))
        };
        let rb = r.to_le_bytes();
        if matches(rb.as_ref()) {
            return true;
        }
        // r + n, unless it overflows the byte length (then it is not below p either).
        let nb = C::Scalar::modulus_le_bytes();
        let mut sum = rb;
        let mut carry = 0u16;
        for (s, n) in sum.as_mut().iter_mut().zip(nb.as_ref()) {
            let [low, high] = (*s as u16 + *n as u16 + carry).to_le_bytes();
            *s = low;
            carry = u16::from(high);
        }
        carry == 0 && matches(sum.as_ref())
    }
}

/// An integer given as big-endian bytes of any length, reduced mod the scalar field's
/// modulus: Horner's rule with field operations, constant time for a given length.
pub fn scalar_from_be_bytes_reduced<S: PrimeField>(bytes: &[u8]) -> S {
    let mut acc = S::ZERO;
    for &b in bytes {
        acc = acc.mul_small(256) + S::from_u64(b as u64);
    }
    acc
}

/// The leftmost `bits` bits of `h` as big-endian bytes of ⌈bits/8⌉ octets (shorter input is
/// zero-extended on the left): bits2int of RFC 6979 §2.3.2, the truncation of SEC 1 §4.1.3
/// step 5, before any reduction.
pub fn bits2int(h: &[u8], bits: u32) -> Vec<u8> {
    let nbytes = bits.div_ceil(8) as usize;
    let mut out = alloc::vec![0u8; nbytes];
    if h.len() * 8 <= bits as usize {
        out[nbytes - h.len()..].copy_from_slice(h);
        return out;
    }
    out.copy_from_slice(&h[..nbytes]);
    let shift = 8 * bits.div_ceil(8) - bits;
    if shift > 0 {
        for i in (0..nbytes).rev() {
            let prev = if i > 0 { out[i - 1] } else { 0 };
            out[i] = (out[i] >> shift) | (prev << (8 - shift));
        }
    }
    out
}

/// SEC 1 §4.1.3 step 5 / §4.1.4 step 3: the hash value e of a digest of any length, its
/// leftmost ⌈log2 n⌉ bits reduced mod n.
pub fn hash_to_scalar<S: PrimeField>(h: &[u8]) -> S {
    scalar_from_be_bytes_reduced(&bits2int(h, S::NUM_BITS))
}

/// A scalar from exactly BYTES big-endian octets; errors unless 0 < k < n.
pub fn scalar_from_be_bytes_nonzero<S: PrimeField>(bytes: &[u8]) -> Result<S, Error> {
    if bytes.len() != S::BYTES {
        return Err(Error::InvalidLength);
    }
    let mut b = <S::Bytes as fieldgen_field::ByteArray>::zeroed();
    b.as_mut().copy_from_slice(bytes);
    let k = S::from_be_bytes(&b);
    b.as_mut().zeroize();
    let v = k.unwrap_or(S::ZERO);
    // Whether 0 < k < n is public: the caller gets an error otherwise.
    if bool::from(declassify(k.is_some() & !v.is_zero())) {
        Ok(v)
    } else {
        Err(Error::InvalidScalar)
    }
}
