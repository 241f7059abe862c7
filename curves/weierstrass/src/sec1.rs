//! SEC 1 v2 point encodings (§2.3.3 point to octets, §2.3.4 octets to point) for curves over
//! GF(p).
//!
//! Encodings: the identity as the single octet 0x00; compressed as 0x02 | 0x03 (the parity
//! of y) followed by x; uncompressed as 0x04, x, y. Coordinates are big-endian,
//! `Base::BYTES` octets each. The hybrid forms 0x06/0x07 are rejected (SEC 1 allows them as an
//! option; no peer emits them). Every curve here has cofactor 1, so a point on the curve is in
//! the prime-order group and no subgroup check is needed.

use alloc::vec::Vec;

use fieldgen_field::{ByteArray, Field, PrimeField};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

use crate::group::{AKind, AffinePoint, CurveParams, ProjectivePoint};
use crate::Error;

impl<C: CurveParams> AffinePoint<C>
where
    C::Base: PrimeField,
{
    /// The SEC 1 encoding: 1 octet for the identity, 1 + BYTES compressed, 1 + 2·BYTES
    /// uncompressed (SEC 1 §2.3.3).
    pub fn to_sec1_bytes(&self, compressed: bool) -> Vec<u8> {
        if bool::from(self.infinity) {
            return alloc::vec![0u8];
        }
        let mut out = Vec::with_capacity(1 + 2 * C::Base::BYTES);
        if compressed {
            out.push(0x02 | self.y.is_odd().unwrap_u8());
            out.extend_from_slice(self.x.to_be_bytes().as_ref());
        } else {
            out.push(0x04);
            out.extend_from_slice(self.x.to_be_bytes().as_ref());
            out.extend_from_slice(self.y.to_be_bytes().as_ref());
        }
        out
    }

    /// Decodes a SEC 1 encoding (§2.3.4) with full validation: the length fits the tag, each
    /// coordinate is below p, the point satisfies the curve equation (a compressed x must
    /// have a square root of x³ + a·x + b, chosen by parity with the field's sqrt). The single
    /// octet 0x00 decodes to the identity; callers that need a finite point use
    /// [`AffinePoint::from_sec1_bytes_nonidentity`]. Variable time in the tag and lengths
    /// only (public data).
    pub fn from_sec1_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let n = C::Base::BYTES;
        let (&tag, rest) = bytes.split_first().ok_or(Error::InvalidLength)?;
        match tag {
            0x00 if rest.is_empty() => Ok(Self::identity()),
            0x00 => Err(Error::InvalidLength),
            0x02 | 0x03 => {
                if rest.len() != n {
                    return Err(Error::InvalidLength);
                }
                let x = decode_coordinate::<C::Base>(rest)?;
                let rhs = curve_rhs::<C>(&x);
                let y = Option::<C::Base>::from(rhs.sqrt()).ok_or(Error::NotOnCurve)?;
                let flip = y
                    .is_odd()
                    .ct_eq(&Choice::from(tag & 1))
                    .ct_eq(&Choice::from(0));
                let y = C::Base::conditional_select(&y, &-y, flip);
                Ok(AffinePoint {
                    x,
                    y,
                    infinity: Choice::from(0),
                })
            }
            0x04 => {
                if rest.len() != 2 * n {
                    return Err(Error::InvalidLength);
                }
                let x = decode_coordinate::<C::Base>(&rest[..n])?;
                let y = decode_coordinate::<C::Base>(&rest[n..])?;
                Option::from(AffinePoint::from_xy(x, y)).ok_or(Error::NotOnCurve)
            }
            _ => Err(Error::InvalidTag),
        }
    }

    /// [`AffinePoint::from_sec1_bytes`], rejecting the identity with [`Error::Identity`]
    /// (public keys: SEC 1 §3.2.2.1 step 1).
    pub fn from_sec1_bytes_nonidentity(bytes: &[u8]) -> Result<Self, Error> {
        let p = Self::from_sec1_bytes(bytes)?;
        if bool::from(p.infinity) {
            return Err(Error::Identity);
        }
        Ok(p)
    }
}

impl<C: CurveParams> ProjectivePoint<C>
where
    C::Base: PrimeField,
{
    /// The SEC 1 encoding of the affine point (one inversion).
    pub fn to_sec1_bytes(&self, compressed: bool) -> Vec<u8> {
        self.to_affine().to_sec1_bytes(compressed)
    }
}

/// x³ + a·x + b.
pub(crate) fn curve_rhs<C: CurveParams>(x: &C::Base) -> C::Base {
    match C::A_KIND {
        AKind::Zero => x.square() * *x + C::B,
        _ => (x.square() + C::A) * *x + C::B,
    }
}

/// A big-endian coordinate of exactly BYTES octets, rejected unless below p.
fn decode_coordinate<F: Field>(bytes: &[u8]) -> Result<F, Error> {
    let mut b = F::Bytes::zeroed();
    b.as_mut().copy_from_slice(bytes);
    Option::from(F::from_be_bytes(&b)).ok_or(Error::CoordinateOutOfRange)
}
