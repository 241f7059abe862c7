//! G1 = E(Fp), E: y² = x³ + b, and G2 ⊂ E′(Fp2), E′: y² = x³ + b/ξ (the D-type sextic
//! twist), as instances of the group layer of `fieldgen-weierstrass` (complete
//! Renes–Costello–Batina formulas for a = 0, constant-time and wNAF scalar multiplication).
//!
//! Encodings (big-endian coordinates; an Fp2 value as c1 then c0, EIP-197's order):
//! - uncompressed: x ‖ y (2·BYTES bytes for G1, 4·BYTES for G2), the identity all zero;
//! - compressed: x (BYTES bytes for G1, 2·BYTES for G2) with two flags in the top bits of the
//!   first byte: bit 7 the RFC 9380 `sgn0` of y, bit 6 the identity (then every other bit
//!   zero). Every prime here has p < 2^(8·BYTES − 2), so these bits are never coordinate bits.
//!
//! Decoding checks the length, the flags, every coordinate below p, the curve equation and,
//! for G2, membership in the subgroup of order r ([`G2SubgroupCheck`]).

use core::marker::PhantomData;

use fieldgen_field::{ByteArray, Field, PrimeField};
use fieldgen_weierstrass::group::{AKind, AffinePoint, CurveParams, ProjectivePoint};
use subtle::{Choice, ConditionallySelectable};

use crate::fp2::Fp2;
use crate::{words_to_le_bytes, BnParams, Error};

/// The group-layer parameters of G1 of curve `C`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct G1Params<C>(PhantomData<C>);

/// The group-layer parameters of the twist E′ carrying G2 of curve `C`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct G2Params<C>(PhantomData<C>);

impl<C: BnParams> CurveParams for G1Params<C> {
    type Base = C::Fp;
    const NAME: &'static str = C::NAME;
    const A: C::Fp = <C::Fp as Field>::ZERO;
    const B: C::Fp = C::B;
    const B3: C::Fp = C::B3;
    const A_KIND: AKind = AKind::Zero;
    const GENERATOR_X: C::Fp = C::G1_X;
    const GENERATOR_Y: C::Fp = C::G1_Y;
}

impl<C: BnParams> CurveParams for G2Params<C> {
    type Base = Fp2<C::Fp>;
    const NAME: &'static str = C::NAME;
    const A: Fp2<C::Fp> = <Fp2<C::Fp> as Field>::ZERO;
    const B: Fp2<C::Fp> = C::B_TWIST;
    const B3: Fp2<C::Fp> = C::B3_TWIST;
    const A_KIND: AKind = AKind::Zero;
    const GENERATOR_X: Fp2<C::Fp> = C::G2_X;
    const GENERATOR_Y: Fp2<C::Fp> = C::G2_Y;
}

/// A G1 point in affine coordinates.
pub type G1Affine<C> = AffinePoint<G1Params<C>>;
/// A G1 point in projective coordinates.
pub type G1Projective<C> = ProjectivePoint<G1Params<C>>;
/// A point of E′(Fp2) in affine coordinates (in G2 when decoded or computed from G2 points).
pub type G2Affine<C> = AffinePoint<G2Params<C>>;
/// A point of E′(Fp2) in projective coordinates.
pub type G2Projective<C> = ProjectivePoint<G2Params<C>>;

/// The bit flags of the compressed form, in the first byte.
const FLAG_SIGN: u8 = 0x80;
const FLAG_INFINITY: u8 = 0x40;

/// Encodes (x, y) or the identity, and decodes with validation, for a coordinate field `K`
/// (Fp for G1, Fp2 for G2) whose top two encoding bits are free.
fn encode_uncompressed<K: Field>(p: &AffinePoint<impl CurveParams<Base = K>>, out: &mut [u8]) {
    let n = K::BYTES;
    let x = p.x().unwrap_or(K::ZERO);
    let y = p.y().unwrap_or(K::ZERO);
    out[..n].copy_from_slice(x.to_be_bytes().as_ref());
    out[n..2 * n].copy_from_slice(y.to_be_bytes().as_ref());
}

fn read<K: Field>(bytes: &[u8]) -> Result<K, Error> {
    let mut b = K::Bytes::zeroed();
    b.as_mut().copy_from_slice(bytes);
    Option::from(K::from_be_bytes(&b)).ok_or(Error::CoordinateOutOfRange)
}

fn decode_uncompressed<P: CurveParams>(bytes: &[u8]) -> Result<AffinePoint<P>, Error> {
    let n = P::Base::BYTES;
    if bytes.len() != 2 * n {
        return Err(Error::InvalidLength);
    }
    if bytes.iter().all(|&b| b == 0) {
        return Ok(AffinePoint::identity());
    }
    let x: P::Base = read(&bytes[..n])?;
    let y: P::Base = read(&bytes[n..])?;
    Option::from(AffinePoint::from_xy(x, y)).ok_or(Error::NotOnCurve)
}

fn encode_compressed<P: CurveParams>(
    p: &AffinePoint<P>,
    sgn0: impl Fn(&P::Base) -> Choice,
    out: &mut [u8],
) {
    let id = bool::from(p.is_identity());
    if id {
        out.iter_mut().for_each(|b| *b = 0);
        out[0] = FLAG_INFINITY;
        return;
    }
    let x = p.x().unwrap_or(P::Base::ZERO);
    let y = p.y().unwrap_or(P::Base::ZERO);
    out.copy_from_slice(x.to_be_bytes().as_ref());
    out[0] |= u8::conditional_select(&0, &FLAG_SIGN, sgn0(&y));
}

fn decode_compressed<P: CurveParams>(
    bytes: &[u8],
    sgn0: impl Fn(&P::Base) -> Choice,
) -> Result<AffinePoint<P>, Error> {
    let n = P::Base::BYTES;
    if bytes.len() != n {
        return Err(Error::InvalidLength);
    }
    let flags = bytes[0] & 0xc0;
    if flags & FLAG_INFINITY != 0 {
        let rest_zero = bytes[0] == FLAG_INFINITY && bytes[1..].iter().all(|&b| b == 0);
        return if rest_zero {
            Ok(AffinePoint::identity())
        } else {
            Err(Error::InvalidFlags)
        };
    }
    let mut b = <P::Base as Field>::Bytes::zeroed();
    b.as_mut().copy_from_slice(bytes);
    b.as_mut()[0] &= 0x3f;
    let x: P::Base = Option::from(P::Base::from_be_bytes(&b)).ok_or(Error::CoordinateOutOfRange)?;
    let rhs = x.square() * x + P::B;
    let y: P::Base = Option::from(rhs.sqrt()).ok_or(Error::NotOnCurve)?;
    let want = Choice::from(((flags & FLAG_SIGN) != 0) as u8);
    let y = P::Base::conditional_select(&y, &-y, sgn0(&y) ^ want);
    Option::from(AffinePoint::from_xy(x, y)).ok_or(Error::NotOnCurve)
}

/// G1 encodings and checks. G1 = E(Fp) has prime order r (cofactor 1), so a point on the
/// curve is in G1.
pub trait G1Encoding: Sized {
    /// x ‖ y, each big-endian in BYTES bytes; the identity is all zero. `out` must be
    /// 2·BYTES long (else [`Error::InvalidLength`]).
    fn write_uncompressed(&self, out: &mut [u8]) -> Result<(), Error>;
    /// x big-endian in BYTES bytes with the flags of the module docs.
    fn write_compressed(&self, out: &mut [u8]) -> Result<(), Error>;
    /// Decodes x ‖ y with full validation.
    fn from_uncompressed(bytes: &[u8]) -> Result<Self, Error>;
    /// Decodes the compressed form with full validation.
    fn from_compressed(bytes: &[u8]) -> Result<Self, Error>;
}

impl<C: BnParams> G1Encoding for G1Affine<C> {
    fn write_uncompressed(&self, out: &mut [u8]) -> Result<(), Error> {
        if out.len() != 2 * <C::Fp as Field>::BYTES {
            return Err(Error::InvalidLength);
        }
        encode_uncompressed(self, out);
        Ok(())
    }
    fn write_compressed(&self, out: &mut [u8]) -> Result<(), Error> {
        if out.len() != <C::Fp as Field>::BYTES {
            return Err(Error::InvalidLength);
        }
        encode_compressed(self, |y: &C::Fp| y.is_odd(), out);
        Ok(())
    }
    fn from_uncompressed(bytes: &[u8]) -> Result<Self, Error> {
        decode_uncompressed(bytes)
    }
    fn from_compressed(bytes: &[u8]) -> Result<Self, Error> {
        decode_compressed(bytes, |y: &C::Fp| y.is_odd())
    }
}

/// G2 encodings and the subgroup check.
pub trait G2SubgroupCheck: Sized {
    /// Whether the point is in G2, the subgroup of order r of E′(Fp2), by the test of
    /// El Housni, Guillevic and Piellard, "Co-factor clearing and subgroup membership testing
    /// on pairing-friendly curves" (AFRICACRYPT 2022, the BN case):
    /// Q ∈ G2 ⟺ \[z + 1\]Q + ψ(\[z\]Q) + ψ²(\[z\]Q) = ψ³(\[2z\]Q) — one multiplication by z instead
    /// of by r. Variable time (Q is public wherever this is used).
    fn is_torsion_free_vartime(&self) -> bool;
    /// The same membership test by r·Q = O (slower; the reference for the fast test).
    fn is_torsion_free_by_order_vartime(&self) -> bool;
    /// x ‖ y, each Fp2 value big-endian as c1 ‖ c0; the identity all zero. `out` is 4·BYTES.
    fn write_uncompressed(&self, out: &mut [u8]) -> Result<(), Error>;
    /// x (c1 ‖ c0) with the flags of the module docs, 2·BYTES.
    fn write_compressed(&self, out: &mut [u8]) -> Result<(), Error>;
    /// Decodes with full validation, the subgroup check included.
    fn from_uncompressed(bytes: &[u8]) -> Result<Self, Error>;
    /// Decodes the compressed form with full validation, the subgroup check included.
    fn from_compressed(bytes: &[u8]) -> Result<Self, Error>;
    /// (2p − r)·Q: maps any point of E′(Fp2) into G2.
    fn clear_cofactor(&self) -> Self;
}

impl<C: BnParams> G2SubgroupCheck for G2Affine<C> {
    fn is_torsion_free_vartime(&self) -> bool {
        let z = C::Z_ABS.to_le_bytes();
        let zq = self.to_projective().mul_le_bytes_vartime(&z);
        let zq = if C::Z_NEG { -zq } else { zq };
        let zq_a = zq.to_affine();
        let lhs = zq
            + self.to_projective()
            + psi::<C>(&zq_a).to_projective()
            + psi2::<C>(&zq_a).to_projective();
        let rhs = psi::<C>(&psi2::<C>(&zq.double().to_affine()));
        lhs.to_affine() == rhs
    }
    fn is_torsion_free_by_order_vartime(&self) -> bool {
        let mut k = [0u8; 128];
        let n = words_to_le_bytes(C::R_WORDS, &mut k);
        bool::from(
            self.to_projective()
                .mul_le_bytes_vartime(&k[..n])
                .is_identity(),
        )
    }
    fn write_uncompressed(&self, out: &mut [u8]) -> Result<(), Error> {
        if out.len() != 4 * <C::Fp as Field>::BYTES {
            return Err(Error::InvalidLength);
        }
        encode_uncompressed(self, out);
        Ok(())
    }
    fn write_compressed(&self, out: &mut [u8]) -> Result<(), Error> {
        if out.len() != 2 * <C::Fp as Field>::BYTES {
            return Err(Error::InvalidLength);
        }
        encode_compressed(self, |y: &Fp2<C::Fp>| y.sgn0(), out);
        Ok(())
    }
    fn from_uncompressed(bytes: &[u8]) -> Result<Self, Error> {
        let q: Self = decode_uncompressed(bytes)?;
        if q.is_torsion_free_vartime() {
            Ok(q)
        } else {
            Err(Error::NotInSubgroup)
        }
    }
    fn from_compressed(bytes: &[u8]) -> Result<Self, Error> {
        let q: Self = decode_compressed(bytes, |y: &Fp2<C::Fp>| y.sgn0())?;
        if q.is_torsion_free_vartime() {
            Ok(q)
        } else {
            Err(Error::NotInSubgroup)
        }
    }
    fn clear_cofactor(&self) -> Self {
        let mut k = [0u8; 128];
        let n = words_to_le_bytes(C::G2_COFACTOR_WORDS, &mut k);
        self.to_projective().mul_le_bytes(&k[..n]).to_affine()
    }
}

/// ψ(Q) = (x̄·γ1\[2\], ȳ·γ1\[3\]): the untwist–Frobenius–twist endomorphism of E′, which acts on
/// G2 as multiplication by p.
pub fn psi<C: BnParams>(q: &G2Affine<C>) -> G2Affine<C> {
    let x = q.x().unwrap_or(Fp2::ZERO).conjugate() * C::FROB1[2];
    let y = q.y().unwrap_or(Fp2::ZERO).conjugate() * C::FROB1[3];
    let image = AffinePoint::from_xy(x, y).unwrap_or(AffinePoint::identity());
    AffinePoint::conditional_select(&image, &AffinePoint::identity(), q.is_identity())
}

/// ψ²(Q) = (x·γ2\[2\], y·γ2\[3\]).
pub fn psi2<C: BnParams>(q: &G2Affine<C>) -> G2Affine<C> {
    let x = q.x().unwrap_or(Fp2::ZERO) * C::FROB2[2];
    let y = q.y().unwrap_or(Fp2::ZERO) * C::FROB2[3];
    let image = AffinePoint::from_xy(x, y).unwrap_or(AffinePoint::identity());
    AffinePoint::conditional_select(&image, &AffinePoint::identity(), q.is_identity())
}

/// k·P for a scalar in Fr, constant time (through the group layer's signed-window ladder).
pub fn mul_fr<P: CurveParams, Fr: PrimeField>(
    p: &ProjectivePoint<P>,
    k: &Fr,
) -> ProjectivePoint<P> {
    p.mul_le_bytes(k.to_le_bytes().as_ref())
}
