//! ECDSA, SEC 1 v2 §4.1, over any [`PrimeGroup`], with RFC 6979 deterministic nonces.
//!
//! Keys: [`SecretKey`] (d, 0 < d < n, BYTES big-endian octets; zeroed on drop) and
//! [`PublicKey`] (Q = d·G, SEC 1 point encodings, validated). Signatures: [`Signature`] as r ‖ s
//! (2·BYTES big-endian octets) or as DER `SEQUENCE { INTEGER r, INTEGER s }` (SEC 1 §C.8,
//! RFC 3279 §2.2.3) through the `der` crate in strict DER.
//!
//! The digest may have any length: its leftmost ⌈log2 n⌉ bits are taken (SEC 1 §4.1.3
//! step 5). Nonces follow RFC 6979 §3.2 with HMAC over the message hash, optionally with
//! caller randomness appended to the HMAC input as RFC 6979 §3.6's additional data k'.

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use der::asn1::UintRef;
use der::{Decode, Encode, Sequence};
use digest::common::BlockSizeUser;
use digest::{Digest, KeyInit, Mac, Update};
use fieldgen_field::ct::declassify;
use fieldgen_field::{ByteArray, Field, PrimeField};
use hmac::SimpleHmac;
use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::protocol::{bits2int, hash_to_scalar, scalar_from_be_bytes_nonzero, PrimeGroup};
use crate::Error;

/// A secret key d with 0 < d < n and its public key d·G. Zeroes d on drop.
pub struct SecretKey<G: PrimeGroup> {
    d: G::Scalar,
    public: PublicKey<G>,
}

/// The ECDSA name for [`SecretKey`].
pub type SigningKey<G> = SecretKey<G>;
/// The ECDSA name for [`PublicKey`].
pub type VerifyingKey<G> = PublicKey<G>;

/// A public key Q: a finite point of the prime-order group.
#[derive(Clone, Copy)]
pub struct PublicKey<G: PrimeGroup> {
    point: G::Point,
}

/// An ECDSA signature (r, s) with 0 < r, s < n.
#[derive(Clone, Copy)]
pub struct Signature<G: PrimeGroup> {
    r: G::Scalar,
    s: G::Scalar,
    _group: PhantomData<G>,
}

impl<G: PrimeGroup> Drop for SecretKey<G> {
    fn drop(&mut self) {
        self.d.zeroize();
    }
}
impl<G: PrimeGroup> ZeroizeOnDrop for SecretKey<G> {}

impl<G: PrimeGroup> Clone for SecretKey<G> {
    fn clone(&self) -> Self {
        SecretKey {
            d: self.d,
            public: self.public,
        }
    }
}

impl<G: PrimeGroup> fmt::Debug for SecretKey<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SecretKey")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

impl<G: PrimeGroup> fmt::Debug for PublicKey<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({:02x?})", G::encode(&self.point, true))
    }
}

impl<G: PrimeGroup> fmt::Debug for Signature<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Signature({:02x?})", self.to_bytes())
    }
}

impl<G: PrimeGroup> PartialEq for Signature<G> {
    fn eq(&self, other: &Self) -> bool {
        bool::from(self.r.ct_eq(&other.r) & self.s.ct_eq(&other.s))
    }
}
impl<G: PrimeGroup> Eq for Signature<G> {}

impl<G: PrimeGroup> SecretKey<G> {
    /// The key for d given as exactly `Scalar::BYTES` big-endian octets; errors unless
    /// 0 < d < n (SEC 1 §3.2.1). Computes Q = d·G in constant time.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let d = scalar_from_be_bytes_nonzero::<G::Scalar>(bytes)?;
        Ok(Self::from_scalar(d))
    }

    pub(crate) fn from_scalar(d: G::Scalar) -> Self {
        let public = PublicKey {
            point: G::mul_base(&d),
        };
        SecretKey { d, public }
    }

    /// A fresh key (SEC 1 §3.2.1): candidates of `Scalar::BYTES` random octets, the bits above
    /// ⌈log2 n⌉ cleared, until one lies in [1, n) (rejection sampling, FIPS 186-5 A.2.2).
    pub fn random<R: CryptoRng + ?Sized>(rng: &mut R) -> Self {
        let mut buf = Zeroizing::new(alloc::vec![0u8; G::Scalar::BYTES]);
        let excess = 8 * G::Scalar::BYTES - G::Scalar::NUM_BITS as usize;
        loop {
            rng.fill_bytes(&mut buf);
            buf[0] &= 0xff >> excess;
            if let Ok(d) = scalar_from_be_bytes_nonzero::<G::Scalar>(&buf) {
                return Self::from_scalar(d);
            }
        }
    }

    /// d as `Scalar::BYTES` big-endian octets (zeroed when dropped).
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        Zeroizing::new(self.d.to_be_bytes().as_ref().to_vec())
    }

    /// The public key d·G.
    pub fn public_key(&self) -> &PublicKey<G> {
        &self.public
    }

    pub(crate) fn scalar(&self) -> &G::Scalar {
        &self.d
    }

    /// Signs a message digest `prehash` (any length) with an RFC 6979 nonce whose HMAC uses
    /// the hash `D` (RFC 6979 §3.2 asks for the message's hash), appending `extra` (empty for
    /// plain RFC 6979; fresh randomness for hedged signing, §3.6) to the HMAC seed.
    /// SEC 1 §4.1.3; s is normalised to ≤ n/2 when the curve's `SIGN_LOW_S` says so.
    /// Constant time in d and k.
    pub fn sign_prehash_with<D>(&self, prehash: &[u8], extra: &[u8]) -> Signature<G>
    where
        D: Digest + Update + BlockSizeUser + Clone,
    {
        let e = hash_to_scalar::<G::Scalar>(prehash);
        let mut drbg = Rfc6979::<D>::new(&self.d.to_be_bytes(), &e.to_be_bytes(), extra);
        loop {
            let mut k = drbg.next_scalar::<G::Scalar>();
            let sig = self.sign_with_k(&e, &k);
            k.zeroize();
            if let Some(sig) = sig {
                return sig;
            }
            // r = 0 or s = 0 (probability about 2/n): the next k.
        }
    }

    /// SEC 1 §4.1.3 steps 2–7 for a given nonce k in [1, n): R = k·G, r = x(R) mod n,
    /// s = k⁻¹·(e + r·d); none when r or s is 0. Normalises s per `SIGN_LOW_S`.
    fn sign_with_k(&self, e: &G::Scalar, k: &G::Scalar) -> Option<Signature<G>> {
        let r_point = G::mul_base(k);
        // x(R) mod n (SEC 1 §4.1.3 steps 2–4); R is finite since 0 < k < n.
        let x: Option<Vec<u8>> = G::x_be_bytes(&r_point).into();
        let x = Zeroizing::new(x.unwrap_or_default());
        let r = crate::protocol::scalar_from_be_bytes_reduced::<G::Scalar>(&x);
        let mut kinv = k.invert().unwrap_or(G::Scalar::ZERO);
        let s = kinv * (*e + r * self.d);
        kinv.zeroize();
        // r = 0 or s = 0 is public: the nonce is redrawn (RFC 6979 §3.2 step h.3).
        if bool::from(declassify(r.is_zero() | s.is_zero())) {
            return None;
        }
        let sig = Signature {
            r,
            s,
            _group: PhantomData,
        };
        Some(if G::SIGN_LOW_S {
            sig.normalize_s()
        } else {
            sig
        })
    }

    /// **Test use only: never sign with a nonce you chose.** Signs the digest `prehash`
    /// (SEC 1 §4.1.3) with the caller's nonce k (exactly `Scalar::BYTES` big-endian octets,
    /// 0 < k < n) instead of an RFC 6979 one, to reproduce known-answer tests such as NIST
    /// CAVP `SigGen` (which give d and k). Reusing a k for two messages, or a k that is
    /// predictable or biased in even a few bits, reveals d (lattice attacks recover it from
    /// many signatures with slightly biased nonces). Errors: [`Error::InvalidLength`],
    /// [`Error::InvalidScalar`] for k outside [1, n), [`Error::InvalidSignature`] when r or
    /// s comes out 0.
    #[doc(hidden)]
    pub fn sign_prehash_with_nonce(&self, prehash: &[u8], k: &[u8]) -> Result<Signature<G>, Error> {
        let e = hash_to_scalar::<G::Scalar>(prehash);
        let mut k = scalar_from_be_bytes_nonzero::<G::Scalar>(k)?;
        let sig = self.sign_with_k(&e, &k);
        k.zeroize();
        sig.ok_or(Error::InvalidSignature)
    }

    /// [`SecretKey::sign_prehash_with`] with the curve's hash for the HMAC and no extra input.
    pub fn sign_prehash(&self, prehash: &[u8]) -> Signature<G> {
        self.sign_prehash_with::<G::Digest>(prehash, &[])
    }

    /// Hashes `msg` with the curve's hash and signs (deterministic RFC 6979).
    pub fn sign_message(&self, msg: &[u8]) -> Signature<G> {
        let h = <G::Digest as Digest>::digest(msg);
        self.sign_prehash(&h)
    }

    /// Hedged signing: as [`SecretKey::sign_message`] with `Scalar::BYTES` octets from `rng`
    /// mixed into the nonce derivation (RFC 6979 §3.6), so a fault or a bad RNG alone does
    /// not leak d.
    pub fn sign_message_with_rng<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Signature<G> {
        let mut extra = Zeroizing::new(alloc::vec![0u8; G::Scalar::BYTES]);
        rng.fill_bytes(&mut extra);
        let h = <G::Digest as Digest>::digest(msg);
        self.sign_prehash_with::<G::Digest>(&h, &extra)
    }
}

impl<G: PrimeGroup> PublicKey<G> {
    /// Decodes and validates a SEC 1 public key (SEC 1 §3.2.2.1: length, coordinates < p,
    /// on the curve, not the identity; cofactor 1 needs no subgroup check, groups with
    /// [`PrimeGroup::COFACTOR`] > 1 also check n·Q = O in [`PrimeGroup::decode_public`]).
    pub fn from_sec1_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Ok(PublicKey {
            point: G::decode_public(bytes)?,
        })
    }

    /// Decodes an X.509 SubjectPublicKeyInfo (RFC 5480 §2) in strict DER through the `spki`
    /// crate: the algorithm must be id-ecPublicKey (1.2.840.10045.2.1) with the curve's
    /// named-curve OID as parameters (explicit curve parameters are refused, as RFC 5480
    /// §2.1.1 requires of conforming CAs), and the key a valid SEC 1 point as in
    /// [`PublicKey::from_sec1_bytes`]. Errors: [`Error::InvalidSpki`] or the point's error.
    pub fn from_spki_der(der: &[u8]) -> Result<Self, Error> {
        use spki::der::Decode;
        let info = spki::SubjectPublicKeyInfoRef::from_der(der).map_err(|_| Error::InvalidSpki)?;
        let id_ec = spki::ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
        let curve = spki::ObjectIdentifier::new(G::CURVE_OID).map_err(|_| Error::InvalidSpki)?;
        if info.algorithm.oid != id_ec {
            return Err(Error::InvalidSpki);
        }
        let params = info.algorithm.parameters.ok_or(Error::InvalidSpki)?;
        let named: spki::ObjectIdentifier = params.decode_as().map_err(|_| Error::InvalidSpki)?;
        if named != curve {
            return Err(Error::InvalidSpki);
        }
        let point = info
            .subject_public_key
            .as_bytes()
            .ok_or(Error::InvalidSpki)?;
        Self::from_sec1_bytes(point)
    }

    /// The SEC 1 encoding, compressed (1 + BYTES octets) or uncompressed (1 + 2·BYTES).
    pub fn to_sec1_bytes(&self, compressed: bool) -> Vec<u8> {
        G::encode(&self.point, compressed)
    }

    /// The point Q.
    pub fn as_point(&self) -> &G::Point {
        &self.point
    }

    /// Verifies a signature on a digest of any length (SEC 1 §4.1.4), variable time (public
    /// inputs): u1 = e·s⁻¹, u2 = r·s⁻¹, R = u1·G + u2·Q by Straus, accept iff R is finite and
    /// x(R) mod n = r. Any s in [1, n) is accepted (ECDSA's s and n − s both verify).
    pub fn verify_prehash(&self, prehash: &[u8], sig: &Signature<G>) -> Result<(), Error> {
        let e = hash_to_scalar::<G::Scalar>(prehash);
        let w = sig.s.invert_vartime().ok_or(Error::InvalidSignature)?;
        let u1 = e * w;
        let u2 = sig.r * w;
        let r_point = G::mul_base_add_vartime(&u1, &self.point, &u2);
        if G::x_mod_n_eq_vartime(&r_point, &sig.r) {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }

    /// [`PublicKey::verify_prehash`] that also rejects s > n/2 (Bitcoin's low-s rule,
    /// BIP 146), so each signature has a single valid encoding.
    pub fn verify_prehash_strict_low_s(
        &self,
        prehash: &[u8],
        sig: &Signature<G>,
    ) -> Result<(), Error> {
        if !bool::from(sig.is_low_s()) {
            return Err(Error::InvalidSignature);
        }
        self.verify_prehash(prehash, sig)
    }

    /// Hashes `msg` with the curve's hash and verifies.
    pub fn verify_message(&self, msg: &[u8], sig: &Signature<G>) -> Result<(), Error> {
        let h = <G::Digest as Digest>::digest(msg);
        self.verify_prehash(&h, sig)
    }
}

impl<G: PrimeGroup> Signature<G> {
    /// (r, s) from scalars; errors unless both are nonzero.
    pub fn from_scalars(r: G::Scalar, s: G::Scalar) -> Result<Self, Error> {
        // r = 0 or s = 0 is public: the nonce is redrawn (RFC 6979 §3.2 step h.3).
        if bool::from(declassify(r.is_zero() | s.is_zero())) {
            return Err(Error::InvalidScalar);
        }
        Ok(Signature {
            r,
            s,
            _group: PhantomData,
        })
    }

    /// r ‖ s, each `Scalar::BYTES` big-endian octets; errors on any other length and unless
    /// 0 < r, s < n.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        let n = G::Scalar::BYTES;
        if bytes.len() != 2 * n {
            return Err(Error::InvalidLength);
        }
        let r = scalar_from_be_bytes_nonzero::<G::Scalar>(&bytes[..n])?;
        let s = scalar_from_be_bytes_nonzero::<G::Scalar>(&bytes[n..])?;
        Ok(Signature {
            r,
            s,
            _group: PhantomData,
        })
    }

    /// r ‖ s, 2·`Scalar::BYTES` octets, big-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.r.to_be_bytes().as_ref().to_vec();
        out.extend_from_slice(self.s.to_be_bytes().as_ref());
        out
    }

    /// Decodes DER `SEQUENCE { INTEGER r, INTEGER s }` strictly (the `der` crate: definite
    /// minimal lengths, minimal non-negative integers, no trailing data); errors with
    /// [`Error::MalformedDer`], or [`Error::InvalidScalar`] unless 0 < r, s < n.
    pub fn from_der(bytes: &[u8]) -> Result<Self, Error> {
        let parsed = DerSignature::from_der(bytes).map_err(|_| Error::MalformedDer)?;
        let r = uint_to_scalar::<G::Scalar>(parsed.r.as_bytes())?;
        let s = uint_to_scalar::<G::Scalar>(parsed.s.as_bytes())?;
        Ok(Signature {
            r,
            s,
            _group: PhantomData,
        })
    }

    /// The DER encoding (at most 2·BYTES + 9 octets).
    pub fn to_der(&self) -> Vec<u8> {
        let r = self.r.to_be_bytes();
        let s = self.s.to_be_bytes();
        // UintRef strips leading zeros and adds the sign octet where needed; values below
        // n always fit, so encoding cannot fail.
        let sig = DerSignature {
            r: UintRef::new(r.as_ref()).expect("r fits a DER INTEGER"),
            s: UintRef::new(s.as_ref()).expect("s fits a DER INTEGER"),
        };
        sig.to_der().expect("a two-integer SEQUENCE encodes")
    }

    /// r.
    pub fn r(&self) -> &G::Scalar {
        &self.r
    }

    /// s.
    pub fn s(&self) -> &G::Scalar {
        &self.s
    }

    /// Whether s ≤ (n − 1)/2, i.e. s < (n + 1)/2 = 1/2 mod n.
    pub fn is_low_s(&self) -> Choice {
        let half = G::Scalar::TWO_INV.to_be_bytes();
        ct_less_be(self.s.to_be_bytes().as_ref(), half.as_ref())
    }

    /// (r, n − s) when s > n/2, else unchanged (both verify; BIP 62 keeps the low one).
    pub fn normalize_s(&self) -> Self {
        let mut s = self.s;
        let neg = -s;
        let low = self.is_low_s();
        s = <G::Scalar as subtle::ConditionallySelectable>::conditional_select(&neg, &s, low);
        Signature {
            r: self.r,
            s,
            _group: PhantomData,
        }
    }
}

/// a < b for equal-length big-endian byte strings, constant time.
fn ct_less_be(a: &[u8], b: &[u8]) -> Choice {
    // Scan from the least significant octet: the most significant difference decides.
    let mut lt = 0u8;
    for (x, y) in a.iter().zip(b).rev() {
        let (x, y) = (*x as u16, *y as u16);
        let less = (x.wrapping_sub(y) >> 15) as u8 & 1;
        let eq = x.ct_eq(&y).unwrap_u8();
        lt = less | (eq & lt);
    }
    Choice::from(lt)
}

/// A DER INTEGER's magnitude (leading zeros stripped by `der`) as a scalar in [1, n).
fn uint_to_scalar<S: PrimeField>(bytes: &[u8]) -> Result<S, Error> {
    let n = S::BYTES;
    if bytes.len() > n {
        return Err(Error::InvalidScalar);
    }
    let mut padded = alloc::vec![0u8; n];
    padded[n - bytes.len()..].copy_from_slice(bytes);
    scalar_from_be_bytes_nonzero::<S>(&padded)
}

#[derive(Sequence)]
struct DerSignature<'a> {
    r: UintRef<'a>,
    s: UintRef<'a>,
}

/// The HMAC_DRBG of RFC 6979 §3.2 steps b–h.
struct Rfc6979<D: Digest + BlockSizeUser + Clone> {
    k: Zeroizing<Vec<u8>>,
    v: Zeroizing<Vec<u8>>,
    _d: PhantomData<D>,
}

impl<D: Digest + Update + BlockSizeUser + Clone> Rfc6979<D> {
    fn hmac(key: &[u8], parts: &[&[u8]]) -> Zeroizing<Vec<u8>> {
        let mut mac =
            <SimpleHmac<D> as KeyInit>::new_from_slice(key).expect("HMAC takes keys of any length");
        for p in parts {
            Mac::update(&mut mac, p);
        }
        Zeroizing::new(mac.finalize().into_bytes().to_vec())
    }

    /// Steps b–g with x = int2octets(d) and h1' = bits2octets(h1) (= e mod n as octets),
    /// plus the additional data of §3.6.
    fn new<B: AsRef<[u8]>>(x: &B, h1: &B, extra: &[u8]) -> Self {
        let hlen = <D as Digest>::output_size();
        let v = Zeroizing::new(alloc::vec![1u8; hlen]);
        let k = Zeroizing::new(alloc::vec![0u8; hlen]);
        let k = Self::hmac(&k, &[&v, &[0], x.as_ref(), h1.as_ref(), extra]);
        let v = Self::hmac(&k, &[&v]);
        let k = Self::hmac(&k, &[&v, &[1], x.as_ref(), h1.as_ref(), extra]);
        let v = Self::hmac(&k, &[&v]);
        Rfc6979 {
            k,
            v,
            _d: PhantomData,
        }
    }

    /// Step h: the next candidate k in [1, n), drawing qlen bits per try.
    fn next_scalar<S: PrimeField>(&mut self) -> S {
        loop {
            let mut t = Zeroizing::new(Vec::with_capacity(S::BYTES));
            while t.len() < S::BYTES {
                self.v = Self::hmac(&self.k, &[&self.v]);
                t.extend_from_slice(&self.v);
            }
            let bytes = Zeroizing::new(bits2int(&t[..S::BYTES], S::NUM_BITS));
            let mut arr = S::Bytes::zeroed();
            arr.as_mut().copy_from_slice(&bytes);
            let k = S::from_be_bytes(&arr);
            arr.as_mut().zeroize();
            // Advance the state before returning so a rejected r or s draws a fresh k.
            self.k = Self::hmac(&self.k, &[&self.v, &[0]]);
            self.v = Self::hmac(&self.k, &[&self.v]);
            let v = k.unwrap_or(S::ZERO);
            // Whether a candidate is rejected is public (the loop's length shows it).
            if bool::from(declassify(k.is_some() & !v.is_zero())) {
                return v;
            }
        }
    }
}

// The `signature` crate's traits.

impl<G: PrimeGroup> signature::Signer<Signature<G>> for SecretKey<G> {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature<G>, signature::Error> {
        Ok(self.sign_message(msg))
    }
}

impl<G: PrimeGroup> signature::hazmat::PrehashSigner<Signature<G>> for SecretKey<G> {
    fn sign_prehash(&self, prehash: &[u8]) -> Result<Signature<G>, signature::Error> {
        Ok(SecretKey::sign_prehash(self, prehash))
    }
}

impl<G: PrimeGroup, D> signature::DigestSigner<D, Signature<G>> for SecretKey<G>
where
    D: Digest + Update + BlockSizeUser + Clone,
{
    fn try_sign_digest<F: Fn(&mut D) -> Result<(), signature::Error>>(
        &self,
        f: F,
    ) -> Result<Signature<G>, signature::Error> {
        let mut d = D::new();
        f(&mut d)?;
        Ok(self.sign_prehash_with::<D>(&d.finalize(), &[]))
    }
}

impl<G: PrimeGroup> signature::Verifier<Signature<G>> for PublicKey<G> {
    fn verify(&self, msg: &[u8], sig: &Signature<G>) -> Result<(), signature::Error> {
        self.verify_message(msg, sig)
            .map_err(|_| signature::Error::new())
    }
}

impl<G: PrimeGroup> signature::hazmat::PrehashVerifier<Signature<G>> for PublicKey<G> {
    fn verify_prehash(&self, prehash: &[u8], sig: &Signature<G>) -> Result<(), signature::Error> {
        PublicKey::verify_prehash(self, prehash, sig).map_err(|_| signature::Error::new())
    }
}

impl<G: PrimeGroup, D> signature::DigestVerifier<D, Signature<G>> for PublicKey<G>
where
    D: Digest + Update,
{
    fn verify_digest<F: Fn(&mut D) -> Result<(), signature::Error>>(
        &self,
        f: F,
        sig: &Signature<G>,
    ) -> Result<(), signature::Error> {
        let mut d = D::new();
        f(&mut d)?;
        PublicKey::verify_prehash(self, &d.finalize(), sig).map_err(|_| signature::Error::new())
    }
}
