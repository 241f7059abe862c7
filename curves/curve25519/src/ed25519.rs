//! Ed25519 signatures (RFC 8032 §5.1), shaped like ed25519-dalek 3.
//!
//! Keys and signatures: a [`SigningKey`] is the 32-byte seed of RFC 8032 §5.1.5; a
//! [`VerifyingKey`] is the 32-byte encoding of the point A; a [`Signature`] is the 64 bytes
//! R ‖ S. Hashing is SHA-512 (`sha2` crate). Signing is constant time in the secret key and
//! the nonce: the fixed-base scalar multiplication reads its table by masking, and scalar
//! arithmetic mod l is the generated field's constant-time code. Secret material is zeroized
//! when a [`SigningKey`] is dropped, and the secret scalars a and r of a signing operation
//! (generated field elements, `zeroize::Zeroize` through the generated crate's `zeroize`
//! feature) are wiped after use.
//!
//! # Which signatures are accepted
//!
//! In the terms of Chalkias, Garillot, Nikolaenko, "Taming the many EdDSAs" (SSR 2020), whose
//! verifier properties are: the verification equation (cofactorless \[S\]B = R + \[k\]A or
//! cofactored \[8\]\[S\]B = \[8\]R + \[8\]\[k\]A), the check S < l, whether non-canonical encodings of
//! A and R are accepted, and whether small-order A and R are rejected:
//!
//! | rule | [`VerifyingKey::verify`] | [`VerifyingKey::verify_strict`] | `verify_batch` (`alloc`) |
//! |---|---|---|---|
//! | S < l (rejects malleable S ≥ l) | yes | yes | yes |
//! | non-canonical A (y ≥ p, or x = 0 with sign bit 1) | rejected by [`VerifyingKey::from_bytes`] | same | same |
//! | non-canonical R | rejected (decoded with RFC 8032 §5.1.3, which accepts only canonical encodings) | same | same |
//! | R not on the curve | rejected | rejected | rejected |
//! | small-order A | accepted | rejected | accepted |
//! | small-order R | accepted | rejected | accepted |
//! | equation | cofactorless | cofactorless | cofactored, random linear combination |
//! | k = SHA-512(R ‖ A ‖ M) over | the bytes as received | same | same |
//!
//! The same rules apply to the Ed25519ctx and Ed25519ph functions (`sign_ctx`, `verify_ctx`,
//! `verify_ctx_strict`, `sign_prehashed`, `verify_prehashed`, `verify_prehashed_strict`),
//! which put RFC 8032's dom2(phflag, context) before every hash; `verify_batch` is pure
//! Ed25519 only.
//!
//! Single verification checks the equation in half-size form (lattice-reduced scalars,
//! Pornin 2020; see `VerifyingKey::verify`), which accepts exactly the signatures the
//! full-size equation accepts.
//!
//! Everything here except `verify_batch` and `verify_batch_with_entropy` (feature `alloc`)
//! works without an allocator: key generation, signing and single verification keep their
//! per-call tables (8 odd multiples of each variable point) in fixed-size arrays.
//!
//! `verify` is RFC 8032 §5.1.7 with the cofactorless equation (the RFC allows either), as
//! in ed25519-dalek's `verify`; `verify_strict` adds the small-order rejections of
//! ed25519-dalek's `verify_strict`. Every signature that `verify` accepts is accepted by
//! `verify_batch`; the cofactored batch equation may also accept a signature whose
//! \[S\]B − \[k\]A differs from R by a point of order 2, 4 or 8, which `verify` rejects
//! (the inconsistency "Taming the many EdDSAs" §3 describes for any cofactorless single
//! verifier paired with a cofactored batch verifier). Honest signatures never hit it.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use sha2::digest::consts::U64;
use sha2::Digest;
pub use sha2::Sha512;
use zeroize::{Zeroize, ZeroizeOnDrop};

#[cfg(feature = "alloc")]
use crate::edwards::multiscalar_mul_vartime;
use crate::edwards::{
    double_scalar_mul_basepoint_vartime, is_identity_quad_vartime, mul_base, EdwardsPoint,
};
use crate::field::Scalar;
use crate::lattice::{half_scalars_vartime, split_128, HalfScalars};
use crate::scalar::{scalar_from_bytes_mod_order, scalar_from_wide};
use crate::Error;

/// Length of a secret key (the seed), in bytes.
pub const SECRET_KEY_LENGTH: usize = 32;
/// Length of an encoded public key, in bytes.
pub const PUBLIC_KEY_LENGTH: usize = 32;
/// Length of a signature R ‖ S, in bytes.
pub const SIGNATURE_LENGTH: usize = 64;

/// An Ed25519 signature: R (32-byte point encoding) ‖ S (32-byte little-endian scalar).
///
/// This is the `ed25519` crate's (version 3) `Signature`, the type ed25519-dalek 3 uses, so
/// code written against `signature::Signer<ed25519::Signature>` or
/// `signature::Verifier<ed25519::Signature>` takes our keys unchanged. Parsing never fails
/// on content: R and S are checked by the verification functions (S < l in all of them).
pub use ::ed25519::Signature;

/// A `signature::Error` carrying our error as its source where there is an allocator.
fn to_signature_error(e: Error) -> signature::Error {
    #[cfg(feature = "alloc")]
    {
        signature::Error::from_source(e)
    }
    #[cfg(not(feature = "alloc"))]
    {
        let _ = e;
        signature::Error::new()
    }
}

/// An Ed25519 public key: the point A and its 32-byte encoding.
#[derive(Clone, Copy)]
pub struct VerifyingKey {
    compressed: [u8; 32],
    point: EdwardsPoint,
    /// −A, the point the verification equation multiplies.
    neg_point: EdwardsPoint,
}

impl core::fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "VerifyingKey(")?;
        for b in self.compressed {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

impl PartialEq for VerifyingKey {
    fn eq(&self, other: &Self) -> bool {
        self.compressed == other.compressed
    }
}

impl Eq for VerifyingKey {}

/// Hashes the 32-byte encoding, the same bytes [`PartialEq`] compares.
impl core::hash::Hash for VerifyingKey {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.compressed.hash(state);
    }
}

impl VerifyingKey {
    fn from_point(point: EdwardsPoint) -> VerifyingKey {
        VerifyingKey {
            compressed: point.compress(),
            point,
            neg_point: point.neg(),
        }
    }

    /// Decodes a public key (RFC 8032 §5.1.3). Errors: [`Error::InvalidPointEncoding`] for
    /// y ≥ p, a y with no curve point, or x = 0 with the sign bit set. Small-order keys are
    /// accepted here (see [`VerifyingKey::is_weak`] and [`VerifyingKey::verify_strict`]).
    pub fn from_bytes(bytes: &[u8; PUBLIC_KEY_LENGTH]) -> Result<VerifyingKey, Error> {
        let point = EdwardsPoint::decompress(bytes).ok_or(Error::InvalidPointEncoding)?;
        Ok(VerifyingKey {
            compressed: *bytes,
            point,
            neg_point: point.neg(),
        })
    }

    /// The 32-byte encoding of A.
    pub fn to_bytes(&self) -> [u8; PUBLIC_KEY_LENGTH] {
        self.compressed
    }

    /// The 32-byte encoding of A, borrowed.
    pub fn as_bytes(&self) -> &[u8; PUBLIC_KEY_LENGTH] {
        &self.compressed
    }

    /// Whether A has small order (order 1, 2, 4 or 8): such a key verifies signatures for
    /// which no secret key is needed.
    pub fn is_weak(&self) -> bool {
        self.point.is_small_order()
    }

    /// RFC 8032 §5.1.7 for pure Ed25519 (`dom` = `None`), Ed25519ctx and Ed25519ph, with
    /// the cofactorless equation; `strict` adds the rejections of
    /// [`VerifyingKey::verify_strict`].
    ///
    /// The equation R = \[S\]B − \[k\]A is checked in its half-size form
    /// \[v1\]R − \[v1·S\]B + \[v0\]A = 0 ([`crate::lattice`]), which accepts exactly the same
    /// signatures: R is decoded (an R that does not decode is not the encoding of \[S\]B − \[k\]A,
    /// since every decodable encoding is canonical), and v1 is odd with v0 ≡ v1·k mod 8l.
    fn verify_with(
        &self,
        dom: Option<Dom2<'_>>,
        msg: &[u8],
        sig: &Signature,
        strict: bool,
    ) -> Result<(), Error> {
        let r_point = EdwardsPoint::decompress(sig.r_bytes());
        if strict {
            let r = r_point.as_ref().ok_or(Error::InvalidPointEncoding)?;
            if self.point.is_small_order() || r.is_small_order() {
                return Err(Error::SmallOrderPoint);
            }
        }
        let s = Option::<Scalar>::from(Scalar::from_le_bytes(sig.s_bytes()))
            .ok_or(Error::ScalarOutOfRange)?;
        let r_point = r_point.ok_or(Error::InvalidSignature)?;
        let k = challenge(dom, sig.r_bytes(), &self.compressed, msg);
        let holds = match half_scalars_vartime(&k.to_le_bytes()) {
            Some(h) => self.half_size_equation_holds(&h, &s, &r_point),
            None => self.full_size_equation_holds(&k, &s, &r_point),
        };
        if holds {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }

    /// \[v1\]R − \[v1·S\]B + \[v0\]A = 0 for the short vector (v0, ±v1) of the challenge k.
    fn half_size_equation_holds(&self, h: &HalfScalars, s: &Scalar, r: &EdwardsPoint) -> bool {
        // |v1| < 2^132 < l: canonical.
        let v1 = Scalar::from_le_bytes(&h.v1).unwrap();
        let (b_lo, b_hi) = split_128(&(-(v1 * s)).to_le_bytes());
        // v0 ≡ −|v1|·k: multiply the whole equation by −1, which negates A's term.
        let a = if h.v1_negative {
            &self.neg_point
        } else {
            &self.point
        };
        is_identity_quad_vartime(&h.v1, r, &h.v0, a, &b_lo, &b_hi)
    }

    /// R = \[S\]B − \[k\]A with full-size scalars: the fallback when the lattice reduction finds
    /// no short odd vector.
    fn full_size_equation_holds(&self, k: &Scalar, s: &Scalar, r: &EdwardsPoint) -> bool {
        bool::from(double_scalar_mul_basepoint_vartime(k, &self.neg_point, s).ct_eq(r))
    }

    /// Verifies `sig` on `msg` by RFC 8032 §5.1.7 with the cofactorless equation: accepts
    /// iff S < l and R is the (canonical) encoding of \[S\]B − \[k\]A. The acceptance rules are
    /// tabulated in the [module documentation](self).
    ///
    /// Errors: [`Error::ScalarOutOfRange`], [`Error::InvalidSignature`]. Variable time (all
    /// inputs are public).
    pub fn verify(&self, msg: &[u8], sig: &Signature) -> Result<(), Error> {
        self.verify_with(None, msg, sig, false)
    }

    /// Like [`VerifyingKey::verify`], and also rejects a small-order A or R and an R that
    /// does not decode (RFC 8032 §5.1.3). The acceptance rules are tabulated in the
    /// [module documentation](self).
    ///
    /// Errors: [`Error::InvalidPointEncoding`] (R), [`Error::SmallOrderPoint`],
    /// [`Error::ScalarOutOfRange`], [`Error::InvalidSignature`].
    pub fn verify_strict(&self, msg: &[u8], sig: &Signature) -> Result<(), Error> {
        self.verify_with(None, msg, sig, true)
    }

    /// Verifies an Ed25519ctx signature (RFC 8032 §5.1, dom2(0, context)) with the rules of
    /// [`VerifyingKey::verify`].
    ///
    /// Errors: [`Error::ContextTooLong`] (more than 255 bytes), and those of `verify`.
    pub fn verify_ctx(&self, msg: &[u8], context: &[u8], sig: &Signature) -> Result<(), Error> {
        self.verify_with(Some(Dom2::new(0, context)?), msg, sig, false)
    }

    /// Verifies an Ed25519ctx signature with the rules of [`VerifyingKey::verify_strict`].
    ///
    /// Errors: [`Error::ContextTooLong`], and those of `verify_strict`.
    pub fn verify_ctx_strict(
        &self,
        msg: &[u8],
        context: &[u8],
        sig: &Signature,
    ) -> Result<(), Error> {
        self.verify_with(Some(Dom2::new(0, context)?), msg, sig, true)
    }

    /// Verifies an Ed25519ph signature (RFC 8032 §5.1, dom2(1, context), PH = SHA-512) on
    /// the message whose hash state is `prehashed_message`, with the rules of
    /// [`VerifyingKey::verify`]. As in ed25519-dalek, any 64-byte-output digest is
    /// accepted; RFC 8032's Ed25519ph is [`Sha512`]. `None` is the empty context.
    ///
    /// Errors: [`Error::ContextTooLong`], and those of `verify`.
    pub fn verify_prehashed<D>(
        &self,
        prehashed_message: D,
        context: Option<&[u8]>,
        sig: &Signature,
    ) -> Result<(), Error>
    where
        D: Digest<OutputSize = U64>,
    {
        let dom = Dom2::new(1, context.unwrap_or(&[]))?;
        let ph = prehashed_message.finalize();
        self.verify_with(Some(dom), &ph, sig, false)
    }

    /// [`VerifyingKey::verify_prehashed`] with the rules of [`VerifyingKey::verify_strict`].
    ///
    /// Errors: [`Error::ContextTooLong`], and those of `verify_strict`.
    pub fn verify_prehashed_strict<D>(
        &self,
        prehashed_message: D,
        context: Option<&[u8]>,
        sig: &Signature,
    ) -> Result<(), Error>
    where
        D: Digest<OutputSize = U64>,
    {
        let dom = Dom2::new(1, context.unwrap_or(&[]))?;
        let ph = prehashed_message.finalize();
        self.verify_with(Some(dom), &ph, sig, true)
    }
}

/// The prefix dom2(phflag, context) of RFC 8032 §2 that Ed25519ctx (phflag 0) and Ed25519ph
/// (phflag 1) put before every SHA-512 input; pure Ed25519 has none.
#[derive(Clone, Copy)]
struct Dom2<'a> {
    phflag: u8,
    /// The context's length, the octet dom2 puts before it (at most 255).
    context_len: u8,
    context: &'a [u8],
}

impl<'a> Dom2<'a> {
    /// Errors: [`Error::ContextTooLong`] for a context over 255 bytes.
    fn new(phflag: u8, context: &'a [u8]) -> Result<Dom2<'a>, Error> {
        let context_len = u8::try_from(context.len()).map_err(|_| Error::ContextTooLong)?;
        Ok(Dom2 {
            phflag,
            context_len,
            context,
        })
    }
}

/// Starts a SHA-512 computation with dom2 when there is one.
fn hasher(dom: Option<Dom2<'_>>) -> Sha512 {
    let mut h = Sha512::new();
    if let Some(d) = dom {
        h.update(b"SigEd25519 no Ed25519 collisions");
        h.update([d.phflag, d.context_len]);
        h.update(d.context);
    }
    h
}

/// k = SHA-512(dom2 ‖ R ‖ A ‖ M) mod l (RFC 8032 §5.1.6 step 4, §5.1.7 step 2).
fn challenge(dom: Option<Dom2<'_>>, r: &[u8; 32], a: &[u8; 32], msg: &[u8]) -> Scalar {
    let mut h = hasher(dom);
    h.update(r);
    h.update(a);
    h.update(msg);
    scalar_from_wide(&h.finalize().into())
}

/// An Ed25519 secret key: the 32-byte seed and the values RFC 8032 §5.1.5 derives from it
/// (the scalar a mod l, the 32-byte nonce prefix, and the public key). Zeroized on drop.
#[derive(Clone)]
pub struct SigningKey {
    seed: [u8; SECRET_KEY_LENGTH],
    /// a mod l, canonical little-endian bytes (a = the clamped first half of SHA-512(seed)).
    scalar: [u8; 32],
    /// The second half of SHA-512(seed).
    prefix: [u8; 32],
    verifying_key: VerifyingKey,
}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SigningKey")
            .field("verifying_key", &self.verifying_key)
            .finish_non_exhaustive()
    }
}

impl Drop for SigningKey {
    fn drop(&mut self) {
        self.seed.zeroize();
        self.scalar.zeroize();
        self.prefix.zeroize();
    }
}

impl ZeroizeOnDrop for SigningKey {}

impl SigningKey {
    /// The key of a 32-byte seed (RFC 8032 §5.1.5): h = SHA-512(seed), a = clamp(h[0..32]),
    /// prefix = h[32..64], A = \[a\]B. Constant time in the seed.
    pub fn from_bytes(seed: &[u8; SECRET_KEY_LENGTH]) -> SigningKey {
        let mut h: [u8; 64] = Sha512::digest(seed).into();
        let mut a = [0u8; 32];
        a.copy_from_slice(&h[..32]);
        a[0] &= 248;
        a[31] &= 127;
        a[31] |= 64;
        let mut s = scalar_from_bytes_mod_order(&a);
        let mut prefix = [0u8; 32];
        prefix.copy_from_slice(&h[32..]);
        let verifying_key = VerifyingKey::from_point(mul_base(&s));
        let key = SigningKey {
            seed: *seed,
            scalar: s.to_le_bytes(),
            prefix,
            verifying_key,
        };
        h.zeroize();
        a.zeroize();
        s.zeroize();
        prefix.zeroize();
        key
    }

    /// A new key from 32 bytes of `rng` (the seed of RFC 8032 §5.1.5), as ed25519-dalek 3's
    /// `SigningKey::generate`. The seed buffer is wiped after use.
    pub fn generate<R: rand_core::CryptoRng + ?Sized>(rng: &mut R) -> SigningKey {
        let mut seed = [0u8; SECRET_KEY_LENGTH];
        rng.fill_bytes(&mut seed);
        let key = SigningKey::from_bytes(&seed);
        seed.zeroize();
        key
    }

    /// The 32-byte seed.
    pub fn to_bytes(&self) -> [u8; SECRET_KEY_LENGTH] {
        self.seed
    }

    /// The 32-byte seed, borrowed.
    pub fn as_bytes(&self) -> &[u8; SECRET_KEY_LENGTH] {
        &self.seed
    }

    /// The public key A.
    pub fn verifying_key(&self) -> VerifyingKey {
        self.verifying_key
    }

    /// RFC 8032 §5.1.6 with an optional dom2 prefix: r = SHA-512(dom2 ‖ prefix ‖ M) mod l,
    /// R = \[r\]B, k = SHA-512(dom2 ‖ R ‖ A ‖ M) mod l, S = r + k·a mod l.
    fn sign_with(&self, dom: Option<Dom2<'_>>, msg: &[u8]) -> Signature {
        let mut h = hasher(dom);
        h.update(self.prefix);
        h.update(msg);
        let mut rh: [u8; 64] = h.finalize().into();
        let mut r = scalar_from_wide(&rh);
        rh.zeroize();
        let big_r = mul_base(&r).compress();
        let k = challenge(dom, &big_r, &self.verifying_key.compressed, msg);
        // The stored scalar is canonical, so decoding cannot fail; selecting (not unwrapping)
        // keeps the secret-derived validity flag off a branch.
        let mut a = Scalar::from_le_bytes(&self.scalar).unwrap_or(Scalar::ZERO);
        let s = r + k * a;
        r.zeroize();
        a.zeroize();
        Signature::from_components(big_r, s.to_le_bytes())
    }

    /// Signs `msg` (RFC 8032 §5.1.6): r = SHA-512(prefix ‖ M) mod l, R = \[r\]B,
    /// k = SHA-512(R ‖ A ‖ M) mod l, S = r + k·a mod l. Deterministic; constant time in the
    /// key and r.
    pub fn sign(&self, msg: &[u8]) -> Signature {
        self.sign_with(None, msg)
    }

    /// Signs `msg` as Ed25519ctx (RFC 8032 §5.1 with dom2(0, context)). RFC 8032 advises a
    /// non-empty context for Ed25519ctx; an empty one is accepted (and differs from pure
    /// Ed25519, whose hashes have no dom2 prefix).
    ///
    /// Errors: [`Error::ContextTooLong`] for a context over 255 bytes.
    pub fn sign_ctx(&self, msg: &[u8], context: &[u8]) -> Result<Signature, Error> {
        Ok(self.sign_with(Some(Dom2::new(0, context)?), msg))
    }

    /// Signs as Ed25519ph (RFC 8032 §5.1 with dom2(1, context)) the message whose hash state
    /// is `prehashed_message`: PH(M) is its 64-byte output. RFC 8032's Ed25519ph uses
    /// [`Sha512`]; as in ed25519-dalek any digest with a 64-byte output is accepted.
    /// `None` is the empty context.
    ///
    /// Errors: [`Error::ContextTooLong`] for a context over 255 bytes.
    pub fn sign_prehashed<D>(
        &self,
        prehashed_message: D,
        context: Option<&[u8]>,
    ) -> Result<Signature, Error>
    where
        D: Digest<OutputSize = U64>,
    {
        let dom = Dom2::new(1, context.unwrap_or(&[]))?;
        let ph = prehashed_message.finalize();
        Ok(self.sign_with(Some(dom), &ph))
    }

    /// Verifies with this key's public key ([`VerifyingKey::verify`]).
    pub fn verify(&self, msg: &[u8], sig: &Signature) -> Result<(), Error> {
        self.verifying_key.verify(msg, sig)
    }
}

impl From<&[u8; SECRET_KEY_LENGTH]> for SigningKey {
    fn from(seed: &[u8; SECRET_KEY_LENGTH]) -> SigningKey {
        SigningKey::from_bytes(seed)
    }
}

/// A seed given as a slice. Errors: [`Error::InvalidLength`] (32) unless it has 32 bytes.
impl TryFrom<&[u8]> for SigningKey {
    type Error = Error;
    fn try_from(bytes: &[u8]) -> Result<SigningKey, Error> {
        let seed: &[u8; SECRET_KEY_LENGTH] = bytes
            .try_into()
            .map_err(|_| Error::InvalidLength(SECRET_KEY_LENGTH))?;
        Ok(SigningKey::from_bytes(seed))
    }
}

/// A public-key encoding given as a slice. Errors: [`Error::InvalidLength`] (32) unless it
/// has 32 bytes, then those of [`VerifyingKey::from_bytes`].
impl TryFrom<&[u8]> for VerifyingKey {
    type Error = Error;
    fn try_from(bytes: &[u8]) -> Result<VerifyingKey, Error> {
        let enc: &[u8; PUBLIC_KEY_LENGTH] = bytes
            .try_into()
            .map_err(|_| Error::InvalidLength(PUBLIC_KEY_LENGTH))?;
        VerifyingKey::from_bytes(enc)
    }
}

impl signature::Signer<Signature> for SigningKey {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature, signature::Error> {
        Ok(self.sign(msg))
    }
}

impl signature::Verifier<Signature> for VerifyingKey {
    fn verify(&self, msg: &[u8], sig: &Signature) -> Result<(), signature::Error> {
        VerifyingKey::verify(self, msg, sig).map_err(to_signature_error)
    }
}

impl signature::Verifier<Signature> for SigningKey {
    fn verify(&self, msg: &[u8], sig: &Signature) -> Result<(), signature::Error> {
        self.verifying_key
            .verify(msg, sig)
            .map_err(to_signature_error)
    }
}

/// Ed25519ph with the empty context: [`SigningKey::sign_prehashed`] of the digest that `f`
/// fills (RFC 8032's Ed25519ph takes [`Sha512`]; any 64-byte-output digest is accepted, as
/// in ed25519-dalek 3).
impl<D> signature::DigestSigner<D, Signature> for SigningKey
where
    D: Digest<OutputSize = U64> + sha2::digest::Update,
{
    fn try_sign_digest<F: Fn(&mut D) -> Result<(), signature::Error>>(
        &self,
        f: F,
    ) -> Result<Signature, signature::Error> {
        let mut digest = D::new();
        f(&mut digest)?;
        self.sign_prehashed(digest, None)
            .map_err(to_signature_error)
    }
}

/// Ed25519ph with the empty context: [`VerifyingKey::verify_prehashed`] of the digest that
/// `f` fills.
impl<D> signature::DigestVerifier<D, Signature> for VerifyingKey
where
    D: Digest<OutputSize = U64> + sha2::digest::Update,
{
    fn verify_digest<F: Fn(&mut D) -> Result<(), signature::Error>>(
        &self,
        f: F,
        sig: &Signature,
    ) -> Result<(), signature::Error> {
        let mut digest = D::new();
        f(&mut digest)?;
        self.verify_prehashed(digest, None, sig)
            .map_err(to_signature_error)
    }
}

impl signature::Keypair for SigningKey {
    type VerifyingKey = VerifyingKey;
    fn verifying_key(&self) -> VerifyingKey {
        self.verifying_key
    }
}

/// PKCS#8 (RFC 5958) and SPKI (RFC 5280) for Ed25519 keys, with the algorithm identifier
/// id-Ed25519 of RFC 8410, through the `ed25519` crate's `KeypairBytes`/`PublicKeyBytes`
/// (as ed25519-dalek 3). `DecodePrivateKey`/`DecodePublicKey` come with the `TryFrom`
/// impls; the encoders need `alloc`.
#[cfg(feature = "pkcs8")]
mod pkcs8_impls {
    use super::{SigningKey, VerifyingKey};
    use ::ed25519::pkcs8::{KeypairBytes, PublicKeyBytes};

    /// Errors: `KeyMalformed(Invalid)` when the optional public key does not belong to the
    /// seed.
    impl TryFrom<pkcs8::PrivateKeyInfoRef<'_>> for SigningKey {
        type Error = pkcs8::Error;
        fn try_from(info: pkcs8::PrivateKeyInfoRef<'_>) -> pkcs8::Result<SigningKey> {
            let pair = KeypairBytes::try_from(info)?;
            let key = SigningKey::from_bytes(&pair.secret_key);
            match pair.public_key {
                Some(pk) if pk.0 != key.verifying_key().to_bytes() => {
                    Err(pkcs8::Error::KeyMalformed(pkcs8::KeyError::Invalid))
                }
                _ => Ok(key),
            }
        }
    }

    /// Errors: `KeyMalformed` when the key is not a point encoding.
    impl TryFrom<pkcs8::SubjectPublicKeyInfoRef<'_>> for VerifyingKey {
        type Error = pkcs8::spki::Error;
        fn try_from(info: pkcs8::SubjectPublicKeyInfoRef<'_>) -> pkcs8::spki::Result<VerifyingKey> {
            let pk = PublicKeyBytes::try_from(info)?;
            VerifyingKey::from_bytes(&pk.0).map_err(|_| pkcs8::spki::Error::KeyMalformed)
        }
    }

    /// The seed and the public key (the PKCS#8 v2 "OneAsymmetricKey" form).
    #[cfg(feature = "alloc")]
    impl pkcs8::EncodePrivateKey for SigningKey {
        fn to_pkcs8_der(&self) -> pkcs8::Result<pkcs8::SecretDocument> {
            KeypairBytes {
                secret_key: self.to_bytes(),
                public_key: Some(PublicKeyBytes(self.verifying_key().to_bytes())),
            }
            .to_pkcs8_der()
        }
    }

    #[cfg(feature = "alloc")]
    impl pkcs8::EncodePublicKey for VerifyingKey {
        fn to_public_key_der(&self) -> pkcs8::spki::Result<pkcs8::Document> {
            PublicKeyBytes(self.to_bytes()).to_public_key_der()
        }
    }
}

/// serde for Ed25519 keys: each the 32 bytes of its `to_bytes` (the seed for a
/// [`SigningKey`]), written with `serialize_bytes` and read from bytes or a sequence, as
/// ed25519-dalek 3 does; signatures use the `ed25519` crate's own impls.
#[cfg(feature = "serde")]
mod serde_impls {
    use super::{SigningKey, VerifyingKey};
    use core::fmt;
    use serde::de::{Error as _, SeqAccess, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use zeroize::Zeroize;

    /// Reads 32 bytes given as bytes or as a sequence of 32 numbers.
    struct Bytes32;

    impl<'de> Visitor<'de> for Bytes32 {
        type Value = [u8; 32];
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("32 bytes")
        }
        fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<[u8; 32], E> {
            v.try_into()
                .map_err(|_| E::invalid_length(v.len(), &"32 bytes"))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<[u8; 32], A::Error> {
            let mut out = [0u8; 32];
            for (i, b) in out.iter_mut().enumerate() {
                *b = seq
                    .next_element()?
                    .ok_or_else(|| A::Error::invalid_length(i, &"32 bytes"))?;
            }
            if seq.next_element::<u8>()?.is_some() {
                out.zeroize();
                return Err(A::Error::invalid_length(33, &"32 bytes"));
            }
            Ok(out)
        }
    }

    impl Serialize for VerifyingKey {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(self.as_bytes())
        }
    }

    impl<'de> Deserialize<'de> for VerifyingKey {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<VerifyingKey, D::Error> {
            let bytes = d.deserialize_bytes(Bytes32)?;
            VerifyingKey::from_bytes(&bytes).map_err(D::Error::custom)
        }
    }

    impl Serialize for SigningKey {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(self.as_bytes())
        }
    }

    impl<'de> Deserialize<'de> for SigningKey {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SigningKey, D::Error> {
            let mut seed = d.deserialize_bytes(Bytes32)?;
            let key = SigningKey::from_bytes(&seed);
            seed.zeroize();
            Ok(key)
        }
    }
}

/// The implementations of the Edwards point arithmetic: the multi-scalar multiplications of
/// `verify*` and `verify_batch`, and the fixed-base \[a\]B of signing, key generation and
/// X25519 base; each takes the first one the CPU runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyBackend {
    /// One point per instruction stream: the four coordinates in the four 64-bit lanes of
    /// a ymm register, AVX-512 IFMA products (x86-64 CPUs with AVX-512F, AVX-512VL and
    /// AVX-512 IFMA; detected once at run time). The parallel formulas of Hisil, Wong,
    /// Carter, Dawson (ASIACRYPT 2008).
    Avx512Ifma,
    /// One field operation at a time on the generated scalar field (every target).
    Scalar,
}

/// The backend of the Edwards point arithmetic on this CPU: verification, and the fixed-base
/// \[a\]B of signing, key generation and [`crate::x25519_base`].
pub fn verify_backend() -> VerifyBackend {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if crate::edwards_x4::available() {
        return VerifyBackend::Avx512Ifma;
    }
    VerifyBackend::Scalar
}

/// Runs `f` with every verification and fixed-base multiplication \[a\]B on this thread
/// forced onto `backend`; `None` (and `f` not run) when this CPU cannot run it. For tests
/// and benchmarks that compare the backends; not a stable API.
#[doc(hidden)]
pub fn with_verify_backend<R>(backend: VerifyBackend, f: impl FnOnce() -> R) -> Option<R> {
    match backend {
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        VerifyBackend::Scalar => Some(crate::edwards_x4::with_forced(false, f)),
        #[cfg(not(all(target_arch = "x86_64", feature = "std")))]
        VerifyBackend::Scalar => Some(f()),
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        VerifyBackend::Avx512Ifma if crate::edwards_x4::available() => {
            Some(crate::edwards_x4::with_forced(true, f))
        }
        VerifyBackend::Avx512Ifma => None,
    }
}

/// How many verification equations (multi-scalar multiplications) this thread has run on
/// [`VerifyBackend::Avx512Ifma`], so that tests can check which code ran; not a stable API.
#[doc(hidden)]
pub fn avx512ifma_equation_count() -> u64 {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    {
        crate::edwards_x4::runs()
    }
    #[cfg(not(all(target_arch = "x86_64", feature = "std")))]
    {
        0
    }
}

/// How many fixed-base multiplications \[a\]B (key generation, signing, X25519 base) this
/// thread has run on the AVX-512 IFMA lanes; [`with_verify_backend`] forces them onto the
/// same backend as verification. For tests; not a stable API.
#[doc(hidden)]
pub fn avx512ifma_base_mul_count() -> u64 {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    {
        crate::edwards_x4::base_runs()
    }
    #[cfg(not(all(target_arch = "x86_64", feature = "std")))]
    {
        0
    }
}

/// Verifies many signatures at once: accepts iff
/// \[8\](\[Σ z_i·S_i\]B − Σ \[z_i\]R_i − Σ \[z_i·k_i\]A_i) is the identity, for 128-bit
/// coefficients z_i (Bernstein et al., "High-speed high-security signatures", 2011, §5).
///
/// The z_i are the 16-byte quarters of SHA-512(seed ‖ ⌊i/4⌋), where the seed is SHA-512
/// over a domain label and every S_i and challenge k_i = SHA-512(R_i ‖ A_i ‖ M_i) mod l
/// (which binds R_i, A_i and M_i: another triple with the same k_i is a collision of
/// SHA-512 mod l, about 2^126 work, the security level of Ed25519): a forger would need to choose the batch so that a random
/// 128-bit combination of its errors vanishes, after seeing the coefficients it cannot
/// predict (Fiat–Shamir). [`verify_batch_with_entropy`] mixes in caller randomness too.
/// The multi-scalar multiplication is Straus's below 190 terms (2n + 1 for n signatures)
/// and Pippenger's above. Acceptance rules: see the [module documentation](self).
///
/// Errors: [`Error::BatchLengthMismatch`], [`Error::ScalarOutOfRange`],
/// [`Error::InvalidPointEncoding`] (an R), [`Error::InvalidSignature`] (the combined
/// equation fails: at least one signature is invalid). An empty batch verifies.
///
/// Needs the `alloc` feature: the decoded R_i, the challenges and the multi-scalar
/// multiplication's terms and tables grow with the batch.
#[cfg(feature = "alloc")]
pub fn verify_batch(
    messages: &[&[u8]],
    signatures: &[Signature],
    verifying_keys: &[VerifyingKey],
) -> Result<(), Error> {
    verify_batch_with_entropy(messages, signatures, verifying_keys, &[])
}

/// [`verify_batch`] with `entropy` (for example 32 bytes from the operating system's
/// generator) hashed into the coefficients, so that they are also unpredictable to whoever
/// chose the batch. Needs the `alloc` feature.
#[cfg(feature = "alloc")]
pub fn verify_batch_with_entropy(
    messages: &[&[u8]],
    signatures: &[Signature],
    verifying_keys: &[VerifyingKey],
    entropy: &[u8],
) -> Result<(), Error> {
    let n = signatures.len();
    if messages.len() != n || verifying_keys.len() != n {
        return Err(Error::BatchLengthMismatch);
    }
    if n == 0 {
        return Ok(());
    }
    let mut transcript = Sha512::new();
    transcript.update(b"fieldgen-curve25519 ed25519 batch v3");
    transcript.update((n as u64).to_le_bytes());
    transcript.update((entropy.len() as u64).to_le_bytes());
    transcript.update(entropy);
    let mut s_vals = Vec::with_capacity(n);
    let mut r_points = Vec::with_capacity(n);
    let mut ks = Vec::with_capacity(n);
    // Every R decoded first, four square roots at a time; errors are still reported in
    // signature order, S before R.
    let r_encodings: Vec<[u8; 32]> = signatures.iter().map(|sig| *sig.r_bytes()).collect();
    let decoded = EdwardsPoint::decompress_many(&r_encodings);
    for (((msg, sig), key), r) in messages
        .iter()
        .zip(signatures)
        .zip(verifying_keys)
        .zip(decoded)
    {
        let s = Option::<Scalar>::from(Scalar::from_le_bytes(sig.s_bytes()))
            .ok_or(Error::ScalarOutOfRange)?;
        let r = r.ok_or(Error::InvalidPointEncoding)?;
        s_vals.push(s);
        r_points.push(r.neg());
        ks.push(challenge(None, sig.r_bytes(), &key.compressed, msg));
        // k_i = SHA-512(R_i ‖ A_i ‖ M_i) mod l stands for R_i, A_i and M_i: it is already
        // computed, and another triple with the same k_i is a SHA-512 collision mod l.
        // 64 bytes per signature instead of 128 (half a SHA-512 block).
        transcript.update(sig.s_bytes());
        transcript.update(ks.last().expect("pushed above").to_le_bytes());
    }
    let seed = transcript.finalize();
    let mut scalars = Vec::with_capacity(2 * n);
    let mut points = Vec::with_capacity(2 * n);
    let mut b_coeff = Scalar::ZERO;
    let mut z_of = Vec::with_capacity(n);
    // Four 128-bit coefficients from each SHA-512(seed ‖ j) output.
    for (j, group) in s_vals.chunks(4).enumerate() {
        let mut h = Sha512::new();
        h.update(seed);
        h.update((j as u64).to_le_bytes());
        let out = h.finalize();
        for (s, zb16) in group.iter().zip(out.chunks_exact(16)) {
            let mut zb = [0u8; 32];
            zb[..16].copy_from_slice(zb16);
            let z = Scalar::from_le_bytes(&zb).unwrap();
            b_coeff += z * s;
            z_of.push(z);
        }
    }
    for i in 0..n {
        scalars.push(z_of[i]);
        points.push(r_points[i]);
        scalars.push(z_of[i] * ks[i]);
        points.push(verifying_keys[i].neg_point);
    }
    let sum = multiscalar_mul_vartime(&b_coeff, &scalars, &points);
    if bool::from(sum.mul_by_cofactor().is_identity()) {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The half-size and full-size equations agree, on valid signatures and on signatures
    /// whose R or S is off by a multiple of B or by a torsion point (so that the fallback
    /// path, rarely taken in practice, is checked as well).
    #[test]
    fn half_size_and_full_size_equations_agree() {
        let torsion = {
            // A point of order 2: (0, −1).
            let mut b = [0xffu8; 32];
            b[0] = 0xec;
            b[31] = 0x7f;
            EdwardsPoint::decompress(&b).expect("(0, −1) is on the curve")
        };
        let mut tested = 0;
        for i in 0..40u8 {
            let sk = SigningKey::from_bytes(&[i; 32]);
            let vk = sk.verifying_key();
            let msg = [i, i ^ 0x5a, 3];
            let sig = sk.sign(&msg);
            let s = Scalar::from_le_bytes(sig.s_bytes()).unwrap();
            let r = EdwardsPoint::decompress(sig.r_bytes()).unwrap();
            let k = challenge(None, sig.r_bytes(), &vk.compressed, &msg);
            let b = crate::edwards::basepoint();
            for (r_try, s_try, expect) in [
                (r, s, true),
                (r.add(&b), s, false),
                (r, s + Scalar::ONE, false),
                (r.add(&torsion), s, false),
            ] {
                assert_eq!(vk.full_size_equation_holds(&k, &s_try, &r_try), expect);
                if let Some(h) = half_scalars_vartime(&k.to_le_bytes()) {
                    assert_eq!(vk.half_size_equation_holds(&h, &s_try, &r_try), expect);
                    tested += 1;
                }
            }
            // A key with a torsion component: A + T. Both equations see the same R.
            let weak = VerifyingKey::from_point(vk.point.add(&torsion));
            let kw = challenge(None, sig.r_bytes(), &weak.compressed, &msg);
            if let Some(h) = half_scalars_vartime(&kw.to_le_bytes()) {
                assert_eq!(
                    weak.half_size_equation_holds(&h, &s, &r),
                    weak.full_size_equation_holds(&kw, &s, &r)
                );
            }
            // With R' = [S]B − [k]A' computed directly (torsion in A' and R'), both accept,
            // and reject R' + T.
            let r_weak = double_scalar_mul_basepoint_vartime(&kw, &weak.neg_point, &s);
            assert!(weak.full_size_equation_holds(&kw, &s, &r_weak));
            assert!(!weak.full_size_equation_holds(&kw, &s, &r_weak.add(&torsion)));
            if let Some(h) = half_scalars_vartime(&kw.to_le_bytes()) {
                assert!(weak.half_size_equation_holds(&h, &s, &r_weak));
                assert!(!weak.half_size_equation_holds(&h, &s, &r_weak.add(&torsion)));
            }
        }
        assert!(tested > 100);
    }

    /// A challenge for which the lattice reduction offers no half-size pair takes the
    /// full-size equation; that path accepts and rejects like the other on every backend,
    /// and on the IFMA lanes where the CPU has them (the differential tests count on every
    /// verification equation running on the forced backend).
    #[test]
    fn full_size_fallback_runs_on_the_forced_backend() {
        let sk = SigningKey::from_bytes(&[7; 32]);
        let vk = sk.verifying_key();
        let (msg, sig) = (0u32..)
            .map(|i| {
                let msg = i.to_le_bytes();
                (msg, sk.sign(&msg))
            })
            .find(|(msg, sig)| {
                let k = challenge(None, sig.r_bytes(), &vk.compressed, msg);
                half_scalars_vartime(&k.to_le_bytes()).is_none()
            })
            .expect("a challenge without a half-size pair");
        let mut bad = sig.to_bytes();
        bad[40] ^= 1;
        let ifma = crate::std_detects_ifma();
        for backend in [VerifyBackend::Avx512Ifma, VerifyBackend::Scalar] {
            let before = avx512ifma_equation_count();
            let Some(()) = with_verify_backend(backend, || {
                assert_eq!(vk.verify(&msg, &sig), Ok(()));
                assert_eq!(vk.verify_strict(&msg, &sig), Ok(()));
                assert!(vk.verify(&msg, &Signature::from_bytes(&bad)).is_err());
            }) else {
                assert!(!ifma);
                continue;
            };
            let ran = avx512ifma_equation_count() - before;
            match backend {
                VerifyBackend::Avx512Ifma => assert!(ran >= 3, "{ran} lane equations"),
                VerifyBackend::Scalar => assert_eq!(ran, 0),
            }
        }
    }
}
