//! Hashing to G1 and G2 (RFC 9380): `expand_message_xmd` with SHA-256 (§5.3.1),
//! `hash_to_field` (§5.2, L = ceil((ceil(log2 p) + 128)/8) bytes per Fp element), the
//! Shallue–van de Woestijne map (§6.6.1, the straight-line form of Appendix F.1) to E and to
//! the twist E′, and, for G2, cofactor clearing by the method of Fuentes-Castañeda, Knapp and
//! Rodríguez-Henríquez ("Faster hashing to G2", SAC 2011, §6.1 for BN curves).
//!
//! `hash_to_g1` / `hash_to_g2` are the random-oracle encodings (two field elements, two map
//! evaluations added, §3); `encode_to_g1` / `encode_to_g2` the non-uniform ones (one).
//! RFC 9380 defines no BN suite; with SHA-256 and Z from its Appendix H.1 rule these agree
//! with the suites `BN254G1_XMD:SHA-256_SVDW_RO_` / `BN254G2_XMD:SHA-256_SVDW_RO_` of
//! gnark-crypto (tested on its vectors). Constant time in the message content (the length
//! is public).

use fieldgen_field::{Field, PrimeField};
use fieldgen_weierstrass::group::{AffinePoint, CurveParams};
use sha2::{Digest, Sha256};
use subtle::{Choice, ConditionallySelectable};

use crate::endo::psi;
use crate::fp2::Fp2;
use crate::groups::{G1Affine, G1Params, G1Projective, G2Params, G2Projective};
use crate::{BnParams, Error, FpExt};

/// Constants of the SvdW map for y² = g(x) = x³ + B (A = 0), RFC 9380 §6.6.1, derived by the
/// generator: Z by Appendix H.1's `find_z_svdw` (the first of 1, −1, 2, −2, … that fits).
#[derive(Clone, Copy, Debug)]
pub struct Svdw<F> {
    /// Z.
    pub z: F,
    /// c1 = g(Z).
    pub c1: F,
    /// c2 = −Z/2.
    pub c2: F,
    /// c3 = sqrt(−g(Z)·3Z²) with sgn0(c3) = 0.
    pub c3: F,
    /// c4 = −4·g(Z)/(3Z²).
    pub c4: F,
}

/// The longest output `expand_message_xmd` gives with SHA-256: 255 blocks of 32 bytes.
pub const MAX_XMD_BYTES: usize = 255 * 32;

/// RFC 9380 §5.3.1 `expand_message_xmd` with SHA-256: fills `out` (its length is
/// len_in_bytes) from `msg` and the domain separation tag `dst`.
///
/// Errors with [`Error::InvalidHashInput`] when `out` is empty or longer than
/// [`MAX_XMD_BYTES`], or `dst` is empty or longer than 255 bytes (§5.3.3 hashes long tags
/// first; do that before calling).
pub fn expand_message_xmd(msg: &[u8], dst: &[u8], out: &mut [u8]) -> Result<(), Error> {
    let len = out.len();
    if len == 0 || len > MAX_XMD_BYTES || dst.is_empty() || dst.len() > 255 {
        return Err(Error::InvalidHashInput);
    }
    let ell = len.div_ceil(32);
    // Both fit after the checks above (MAX_XMD_BYTES < 2^16).
    let dst_len = [u8::try_from(dst.len()).map_err(|_| Error::InvalidHashInput)?];
    let len_bytes = u16::try_from(len)
        .map_err(|_| Error::InvalidHashInput)?
        .to_be_bytes();
    let b0 = Sha256::new()
        .chain_update([0u8; 64])
        .chain_update(msg)
        .chain_update(len_bytes)
        .chain_update([0u8])
        .chain_update(dst)
        .chain_update(dst_len)
        .finalize();
    let mut bi = Sha256::new()
        .chain_update(b0)
        .chain_update([1u8])
        .chain_update(dst)
        .chain_update(dst_len)
        .finalize();
    for i in 1..=ell {
        let start = 32 * (i - 1);
        let end = (start + 32).min(len);
        out[start..end].copy_from_slice(&bi[..end - start]);
        if i < ell {
            let mut x = [0u8; 32];
            for (j, v) in x.iter_mut().enumerate() {
                *v = b0[j] ^ bi[j];
            }
            // i + 1 ≤ ell ≤ 255 (MAX_XMD_BYTES = 255·32).
            let next = u8::try_from(i + 1).map_err(|_| Error::InvalidHashInput)?;
            bi = Sha256::new()
                .chain_update(x)
                .chain_update([next])
                .chain_update(dst)
                .chain_update(dst_len)
                .finalize();
        }
    }
    Ok(())
}

/// OS2IP(bytes) mod p (big-endian), by Horner's rule on 64-bit chunks. Constant time for a
/// given length.
fn fp_from_be_bytes_reduce<F: PrimeField>(bytes: &[u8]) -> F {
    let two32 = F::from_u64(1 << 32);
    let two64 = two32 * two32;
    let mut acc = F::ZERO;
    let head = bytes.len() % 8;
    let mut chunks = bytes[head..].chunks(8);
    if head != 0 {
        let mut w = 0u64;
        for b in &bytes[..head] {
            w = (w << 8) | *b as u64;
        }
        acc = F::from_u64(w);
    }
    for c in &mut chunks {
        let w = u64::from_be_bytes(c.try_into().unwrap_or([0; 8]));
        acc = acc * two64 + F::from_u64(w);
    }
    acc
}

/// RFC 9380 §5.2 `hash_to_field` into Fp, count = 2 (`out.len()` elements, at most 4).
fn hash_to_fp<C: BnParams>(msg: &[u8], dst: &[u8], out: &mut [C::Fp]) -> Result<(), Error> {
    let l = C::HASH_FIELD_BYTES;
    let mut buf = [0u8; 4 * 2 * 80];
    let n = out.len() * l;
    expand_message_xmd(msg, dst, &mut buf[..n])?;
    for (i, o) in out.iter_mut().enumerate() {
        *o = fp_from_be_bytes_reduce(&buf[i * l..(i + 1) * l]);
    }
    Ok(())
}

/// RFC 9380 §5.2 `hash_to_field` into Fp2 (m = 2: e = e0 + e1·i from consecutive L-byte
/// strings).
fn hash_to_fp2<C: BnParams>(msg: &[u8], dst: &[u8], out: &mut [Fp2<C::Fp>]) -> Result<(), Error> {
    let l = C::HASH_FIELD_BYTES;
    let mut buf = [0u8; 4 * 2 * 80];
    let n = 2 * out.len() * l;
    expand_message_xmd(msg, dst, &mut buf[..n])?;
    for (i, o) in out.iter_mut().enumerate() {
        let e0 = fp_from_be_bytes_reduce(&buf[2 * i * l..(2 * i + 1) * l]);
        let e1 = fp_from_be_bytes_reduce(&buf[(2 * i + 1) * l..(2 * i + 2) * l]);
        *o = Fp2::new(e0, e1);
    }
    Ok(())
}

/// The field operations the map needs beyond [`Field`]: RFC 9380 §4.1 `sgn0` and
/// `is_square`, constant time.
pub trait SvdwField: Field {
    /// sgn0(x).
    fn sgn0(&self) -> Choice;
    /// Whether x is a square (0 is).
    fn is_square(&self) -> Choice;
}

impl<F: FpExt> SvdwField for Fp2<F> {
    fn sgn0(&self) -> Choice {
        Fp2::sgn0(self)
    }
    fn is_square(&self) -> Choice {
        // a + b·i is a square in Fp2 exactly when its norm a² + b² is a square in Fp.
        self.norm().sqrt().is_some()
    }
}

impl<F: FpExt> SvdwField for F {
    fn sgn0(&self) -> Choice {
        self.is_odd()
    }
    fn is_square(&self) -> Choice {
        self.sqrt().is_some()
    }
}

/// RFC 9380 §6.6.1 `map_to_curve_svdw` (Appendix F.1's straight-line steps, A = 0) onto
/// y² = x³ + `P::B`. Constant time; never the identity.
pub fn map_to_curve_svdw<P: CurveParams>(u: &P::Base, c: &Svdw<P::Base>) -> AffinePoint<P>
where
    P::Base: SvdwField,
{
    let g = |x: &P::Base| x.square() * *x + P::B;
    let mut tv1 = u.square() * c.c1;
    let tv2 = P::Base::ONE + tv1;
    tv1 = P::Base::ONE - tv1;
    let tv3 = (tv1 * tv2).invert().unwrap_or(P::Base::ZERO); // inv0
    let tv4 = *u * tv1 * tv3 * c.c3;
    let x1 = c.c2 - tv4;
    let e1 = g(&x1).is_square();
    let x2 = c.c2 + tv4;
    let e2 = g(&x2).is_square() & !e1;
    let x3 = (tv2.square() * tv3).square() * c.c4 + c.z;
    let mut x = P::Base::conditional_select(&x3, &x1, e1);
    x = P::Base::conditional_select(&x, &x2, e2);
    // One of g(x1), g(x2), g(x3) is a square (the map's theorem), so the root exists.
    let y = g(&x).sqrt().unwrap_or(P::Base::ZERO);
    let e3 = !(u.sgn0() ^ y.sgn0());
    let y = P::Base::conditional_select(&-y, &y, e3);
    AffinePoint::from_xy(x, y).unwrap_or(AffinePoint::identity())
}

/// hash_to_curve for G1 (RFC 9380 §3, random oracle): u0, u1 = hash_to_field(msg, 2),
/// map both, add (the cofactor of G1 is 1). Errors as [`expand_message_xmd`] on the `dst`.
pub fn hash_to_g1<C: BnParams>(msg: &[u8], dst: &[u8]) -> Result<G1Projective<C>, Error> {
    let mut u = [C::Fp::ZERO; 2];
    hash_to_fp::<C>(msg, dst, &mut u)?;
    let q0 = map_to_curve_svdw::<G1Params<C>>(&u[0], &C::SVDW_G1);
    let q1 = map_to_curve_svdw::<G1Params<C>>(&u[1], &C::SVDW_G1);
    Ok(q0.to_projective().add_mixed(&q1))
}

/// encode_to_curve for G1 (RFC 9380 §3, nonuniform): one field element, one map.
pub fn encode_to_g1<C: BnParams>(msg: &[u8], dst: &[u8]) -> Result<G1Affine<C>, Error> {
    let mut u = [C::Fp::ZERO; 1];
    hash_to_fp::<C>(msg, dst, &mut u)?;
    Ok(map_to_curve_svdw::<G1Params<C>>(&u[0], &C::SVDW_G1))
}

/// Fast cofactor clearing on the twist (Fuentes-Castañeda, Knapp, Rodríguez-Henríquez,
/// SAC 2011, §6.1): Q ↦ \[z\]Q + ψ(\[3z\]Q) + ψ²(\[z\]Q) + ψ³(Q), a multiple of the cofactor
/// 2p − r coprime to r (so G2 is reached and nothing of it lost), with one multiplication by
/// |z| (about a quarter of the bits of r) instead of one by 2p − r. Constant time.
pub fn clear_cofactor_g2<C: BnParams>(q: &G2Projective<C>) -> G2Projective<C> {
    let z = C::Z_ABS.to_le_bytes();
    let zq = q.mul_le_bytes(&z);
    let zq = if C::Z_NEG { -zq } else { zq };
    let z3q = zq.double() + zq;
    psi::<C>(&z3q) + zq + psi::<C>(&psi::<C>(&zq)) + psi::<C>(&psi::<C>(&psi::<C>(q)))
}

/// hash_to_curve for G2 (RFC 9380 §3, random oracle): u0, u1 in Fp2, both mapped to the
/// twist, added, and the cofactor cleared by [`clear_cofactor_g2`].
pub fn hash_to_g2<C: BnParams>(msg: &[u8], dst: &[u8]) -> Result<G2Projective<C>, Error> {
    let mut u = [Fp2::<C::Fp>::ZERO; 2];
    hash_to_fp2::<C>(msg, dst, &mut u)?;
    let q0 = map_to_curve_svdw::<G2Params<C>>(&u[0], &C::SVDW_G2);
    let q1 = map_to_curve_svdw::<G2Params<C>>(&u[1], &C::SVDW_G2);
    Ok(clear_cofactor_g2::<C>(&q0.to_projective().add_mixed(&q1)))
}

/// encode_to_curve for G2 (RFC 9380 §3, nonuniform): one Fp2 element, one map, cofactor
/// cleared.
pub fn encode_to_g2<C: BnParams>(msg: &[u8], dst: &[u8]) -> Result<G2Projective<C>, Error> {
    let mut u = [Fp2::<C::Fp>::ZERO; 1];
    hash_to_fp2::<C>(msg, dst, &mut u)?;
    let q = map_to_curve_svdw::<G2Params<C>>(&u[0], &C::SVDW_G2);
    Ok(clear_cofactor_g2::<C>(&q.to_projective()))
}

/// hash_to_field into Fp (count elements in `out`, at most 4), exposed for tests against
/// published u values.
pub fn hash_to_field_fp<C: BnParams>(
    msg: &[u8],
    dst: &[u8],
    out: &mut [C::Fp],
) -> Result<(), Error> {
    if out.len() > 4 {
        return Err(Error::InvalidHashInput);
    }
    hash_to_fp::<C>(msg, dst, out)
}

/// hash_to_field into Fp2 (at most 2 elements), exposed for tests against published u values.
pub fn hash_to_field_fp2<C: BnParams>(
    msg: &[u8],
    dst: &[u8],
    out: &mut [Fp2<C::Fp>],
) -> Result<(), Error> {
    if out.len() > 2 {
        return Err(Error::InvalidHashInput);
    }
    hash_to_fp2::<C>(msg, dst, out)
}
