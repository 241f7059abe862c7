//! SEC 1 v2 point encodings over GF(2^m) (§2.3.3–2.3.4, the characteristic-two rules).
//!
//! A field element is its coefficient vector read as an integer, big-endian, in ⌈m/8⌉ octets
//! (§2.3.5, §2.3.9). Points: 0x00 (the identity), 0x02/0x03 ‖ x (compressed: the low bit of
//! the tag is ỹ, the last bit of y/x, or 0 when x = 0) and 0x04 ‖ x ‖ y (uncompressed).
//! Hybrid forms (0x06/0x07) are refused. Decompression (§2.3.4 step 2.4.3): for x = 0,
//! y = √b; otherwise β = x + a + b/x², z with z² + z = β by
//! [`BinaryField::solve_quadratic`] (none: not on the curve), z flipped to z + 1 when its
//! last bit differs from ỹ, and y = x·z.
//!
//! Encodings are public data: decoding uses variable-time inversion.

use alloc::vec::Vec;

use fieldgen_field::{BinaryField, ByteArray, Field};

use crate::group::{AffinePoint, BinaryCurve};
use crate::Error;

/// A field element from exactly `Base::BYTES` big-endian octets; errors on bits at or above
/// x^m ([`Error::CoordinateOutOfRange`]).
pub fn field_from_be<F: Field>(bytes: &[u8]) -> Result<F, Error> {
    if bytes.len() != F::BYTES {
        return Err(Error::InvalidLength);
    }
    let mut b = F::Bytes::zeroed();
    b.as_mut().copy_from_slice(bytes);
    Option::<F>::from(F::from_be_bytes(&b)).ok_or(Error::CoordinateOutOfRange)
}

/// The last bit of y/x (SEC 1 §2.3.3 step 3.2, ỹ), 0 when x = 0. Variable time.
fn y_tilde<C: BinaryCurve>(p: &AffinePoint<C>) -> u8 {
    match p.x.invert_vartime() {
        Some(xinv) => (p.y * xinv).to_le_bytes().as_ref()[0] & 1,
        None => 0,
    }
}

/// Decodes a SEC 1 point, identity included, checking length, tag, canonical coordinates
/// and the curve equation (not the subgroup).
pub fn decode<C: BinaryCurve>(bytes: &[u8]) -> Result<AffinePoint<C>, Error> {
    let n = C::Base::BYTES;
    let (&tag, rest) = bytes.split_first().ok_or(Error::InvalidLength)?;
    match tag {
        0x00 => {
            if rest.is_empty() {
                Ok(AffinePoint::identity())
            } else {
                Err(Error::InvalidLength)
            }
        }
        0x02 | 0x03 => {
            if rest.len() != n {
                return Err(Error::InvalidLength);
            }
            let x: C::Base = field_from_be(rest)?;
            let want = tag & 1;
            let y = match x.invert_vartime() {
                None => {
                    if want != 0 {
                        return Err(Error::NotOnCurve);
                    }
                    Option::<C::Base>::from(C::B.sqrt()).ok_or(Error::NotOnCurve)?
                }
                Some(xinv) => {
                    let beta = x + C::a() + C::B * xinv.square();
                    let mut z: C::Base =
                        Option::from(beta.solve_quadratic()).ok_or(Error::NotOnCurve)?;
                    if z.to_le_bytes().as_ref()[0] & 1 != want {
                        z += C::Base::ONE;
                    }
                    x * z
                }
            };
            Option::from(AffinePoint::from_xy(x, y)).ok_or(Error::NotOnCurve)
        }
        0x04 => {
            if rest.len() != 2 * n {
                return Err(Error::InvalidLength);
            }
            let x = field_from_be(&rest[..n])?;
            let y = field_from_be(&rest[n..])?;
            Option::from(AffinePoint::from_xy(x, y)).ok_or(Error::NotOnCurve)
        }
        _ => Err(Error::InvalidTag),
    }
}

/// The SEC 1 encoding: 0x00 for the identity, else compressed (1 + BYTES octets) or
/// uncompressed (1 + 2·BYTES).
pub fn encode<C: BinaryCurve>(p: &AffinePoint<C>, compressed: bool) -> Vec<u8> {
    if bool::from(p.infinity) {
        return alloc::vec![0];
    }
    let mut out = Vec::with_capacity(1 + 2 * C::Base::BYTES);
    if compressed {
        out.push(0x02 | y_tilde(p));
        out.extend_from_slice(p.x.to_be_bytes().as_ref());
    } else {
        out.push(0x04);
        out.extend_from_slice(p.x.to_be_bytes().as_ref());
        out.extend_from_slice(p.y.to_be_bytes().as_ref());
    }
    out
}
