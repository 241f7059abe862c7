//! Key encodings through the RustCrypto `der`, `sec1`, `pkcs8` and `spki` crates:
//!
//! - secret keys as SEC 1 `ECPrivateKey` (SEC 1 v2 §C.4, RFC 5915 §3; PEM label
//!   `EC PRIVATE KEY`) and as PKCS#8 `PrivateKeyInfo` / `OneAsymmetricKey` (RFC 5208 §5,
//!   RFC 5958 §2; algorithm id-ecPublicKey with the named-curve OID, RFC 5480 §2.1.1, wrapping
//!   an `ECPrivateKey`; PEM label `PRIVATE KEY`);
//! - public keys as X.509 `SubjectPublicKeyInfo` (RFC 5480 §2; PEM label `PUBLIC KEY`).
//!
//! Encoders write what OpenSSL and the RustCrypto curve crates write: `ECPrivateKey` version 1
//! with the private key as exactly `Scalar::BYTES` big-endian octets, the public key as an
//! uncompressed SEC 1 point, and the named curve as parameters in the SEC 1 form (omitted
//! inside PKCS#8, where the algorithm identifier carries it); PKCS#8 version 1 (v1); PEM with
//! LF line endings.
//!
//! Decoders are strict DER (the `der` crate) and validate in full: `ECPrivateKey` version 1,
//! a private key of exactly `Scalar::BYTES` octets (RFC 5915 §3: ⌈log2(n)/8⌉) with
//! 0 < d < n, parameters absent or this curve's named-curve OID (explicit parameters
//! refused), an embedded public key (in `ECPrivateKey` or the RFC 5958 `publicKey` field)
//! only if it is a valid point equal to d·G; the PKCS#8 algorithm must be id-ecPublicKey with
//! this curve's OID. PEM must carry the expected label. Every failure is
//! [`Error::InvalidPrivateKey`] (or [`Error::InvalidSpki`] for public keys, or the point's
//! own error).
//!
//! The `sec1::DecodeEcPrivateKey`/`EncodeEcPrivateKey`, `pkcs8::DecodePrivateKey`/
//! `EncodePrivateKey` and `spki::DecodePublicKey`/`EncodePublicKey` traits are implemented
//! on top, so the keys plug into code written against them.

use alloc::string::String;
use alloc::vec::Vec;

use der::asn1::{AnyRef, BitStringRef, OctetStringRef};
use der::pem::LineEnding;
use der::{Decode, Encode, SecretDocument};
use fieldgen_field::Field;
use pkcs8::PrivateKeyInfoRef;
use sec1::{EcParameters, EcPrivateKey};
use spki::{AlgorithmIdentifierRef, ObjectIdentifier, SubjectPublicKeyInfoRef};
use zeroize::Zeroizing;

use crate::ecdsa::{PublicKey, SecretKey};
use crate::protocol::PrimeGroup;
use crate::Error;

/// id-ecPublicKey (RFC 5480 §2.1.1).
const ID_EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");

/// The PEM label of SEC 1 `ECPrivateKey` (RFC 7468 §13 names it as OpenSSL writes it).
pub const SEC1_PEM_LABEL: &str = "EC PRIVATE KEY";
/// The PEM label of PKCS#8 `PrivateKeyInfo` (RFC 7468 §10).
pub const PKCS8_PEM_LABEL: &str = "PRIVATE KEY";
/// The PEM label of `SubjectPublicKeyInfo` (RFC 7468 §13).
pub const SPKI_PEM_LABEL: &str = "PUBLIC KEY";

fn curve_oid<G: PrimeGroup>() -> Result<ObjectIdentifier, Error> {
    ObjectIdentifier::new(G::CURVE_OID).map_err(|_| Error::InvalidSpki)
}

impl<G: PrimeGroup> SecretKey<G> {
    /// The key from a DER `ECPrivateKey` (SEC 1 §C.4, RFC 5915 §3), validated as in the
    /// module docs. Errors: [`Error::InvalidPrivateKey`].
    pub fn from_sec1_der(der: &[u8]) -> Result<Self, Error> {
        let key = EcPrivateKey::from_der(der).map_err(|_| Error::InvalidPrivateKey)?;
        Self::from_ec_private_key(&key)
    }

    /// The DER `ECPrivateKey`: version 1, d as `Scalar::BYTES` big-endian octets, the named
    /// curve as `[0]` parameters, the uncompressed public key as `[1]`. Zeroed on drop.
    pub fn to_sec1_der(&self) -> Zeroizing<Vec<u8>> {
        self.ec_private_key_der(true)
    }

    /// [`SecretKey::from_sec1_der`] from PEM with the label `EC PRIVATE KEY`.
    pub fn from_sec1_pem(pem: &str) -> Result<Self, Error> {
        let doc = decode_pem(pem, SEC1_PEM_LABEL).map_err(|_| Error::InvalidPrivateKey)?;
        Self::from_sec1_der(doc.as_bytes())
    }

    /// [`SecretKey::to_sec1_der`] as PEM (`EC PRIVATE KEY`, LF line endings).
    pub fn to_sec1_pem(&self) -> Zeroizing<String> {
        encode_pem(&self.to_sec1_der(), SEC1_PEM_LABEL)
    }

    /// The key from a DER PKCS#8 `PrivateKeyInfo` (RFC 5208) or `OneAsymmetricKey`
    /// (RFC 5958, version 2 with the optional public key), validated as in the module docs.
    /// Errors: [`Error::InvalidPrivateKey`].
    pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, Error> {
        let info = PrivateKeyInfoRef::from_der(der).map_err(|_| Error::InvalidPrivateKey)?;
        Self::from_private_key_info(&info)
    }

    /// The DER PKCS#8 `PrivateKeyInfo` (version 1): id-ecPublicKey with the named curve,
    /// wrapping an `ECPrivateKey` without parameters and with the uncompressed public key.
    /// Zeroed on drop.
    pub fn to_pkcs8_der(&self) -> Zeroizing<Vec<u8>> {
        let inner = self.ec_private_key_der(false);
        let oid = curve_oid::<G>().expect("the curve's OID is well formed");
        let info = PrivateKeyInfoRef::new(
            AlgorithmIdentifierRef {
                oid: ID_EC_PUBLIC_KEY,
                parameters: Some(AnyRef::from(&oid)),
            },
            OctetStringRef::new(&inner).expect("an ECPrivateKey fits an OCTET STRING"),
        );
        Zeroizing::new(info.to_der().expect("PrivateKeyInfo encodes"))
    }

    /// [`SecretKey::from_pkcs8_der`] from PEM with the label `PRIVATE KEY`.
    pub fn from_pkcs8_pem(pem: &str) -> Result<Self, Error> {
        let doc = decode_pem(pem, PKCS8_PEM_LABEL).map_err(|_| Error::InvalidPrivateKey)?;
        Self::from_pkcs8_der(doc.as_bytes())
    }

    /// [`SecretKey::to_pkcs8_der`] as PEM (`PRIVATE KEY`, LF line endings).
    pub fn to_pkcs8_pem(&self) -> Zeroizing<String> {
        encode_pem(&self.to_pkcs8_der(), PKCS8_PEM_LABEL)
    }

    fn ec_private_key_der(&self, with_parameters: bool) -> Zeroizing<Vec<u8>> {
        let d = self.to_bytes();
        let q = self.public_key().to_sec1_bytes(false);
        let oid = curve_oid::<G>().expect("the curve's OID is well formed");
        let key = EcPrivateKey {
            private_key: &d,
            parameters: with_parameters.then_some(EcParameters::NamedCurve(oid)),
            public_key: Some(&q),
        };
        Zeroizing::new(key.to_der().expect("ECPrivateKey encodes"))
    }

    fn from_ec_private_key(key: &EcPrivateKey<'_>) -> Result<Self, Error> {
        if key.private_key.len() != G::Scalar::BYTES {
            return Err(Error::InvalidPrivateKey);
        }
        if let Some(params) = &key.parameters {
            if params.named_curve() != Some(curve_oid::<G>()?) {
                return Err(Error::InvalidPrivateKey);
            }
        }
        let sk = Self::from_bytes(key.private_key).map_err(|_| Error::InvalidPrivateKey)?;
        if let Some(q) = key.public_key {
            sk.check_public(q)?;
        }
        Ok(sk)
    }

    fn from_private_key_info(info: &PrivateKeyInfoRef<'_>) -> Result<Self, Error> {
        info.algorithm
            .assert_oids(ID_EC_PUBLIC_KEY, curve_oid::<G>()?)
            .map_err(|_| Error::InvalidPrivateKey)?;
        let key = EcPrivateKey::from_der(info.private_key.as_bytes())
            .map_err(|_| Error::InvalidPrivateKey)?;
        let sk = Self::from_ec_private_key(&key)?;
        if let Some(q) = &info.public_key {
            let q = q.as_bytes().ok_or(Error::InvalidPrivateKey)?;
            sk.check_public(q)?;
        }
        Ok(sk)
    }

    /// An embedded public key must be a valid point equal to d·G (compared as points, so
    /// either SEC 1 form is accepted).
    fn check_public(&self, sec1: &[u8]) -> Result<(), Error> {
        let q = PublicKey::<G>::from_sec1_bytes(sec1).map_err(|_| Error::InvalidPrivateKey)?;
        let ours = self.public_key().to_sec1_bytes(false);
        if q.to_sec1_bytes(false) == ours {
            Ok(())
        } else {
            Err(Error::InvalidPrivateKey)
        }
    }
}

impl<G: PrimeGroup> PublicKey<G> {
    /// The DER `SubjectPublicKeyInfo` (RFC 5480 §2): id-ecPublicKey, the named-curve OID,
    /// the uncompressed SEC 1 point as the BIT STRING.
    pub fn to_spki_der(&self) -> Vec<u8> {
        let q = self.to_sec1_bytes(false);
        let oid = curve_oid::<G>().expect("the curve's OID is well formed");
        let info = SubjectPublicKeyInfoRef {
            algorithm: AlgorithmIdentifierRef {
                oid: ID_EC_PUBLIC_KEY,
                parameters: Some(AnyRef::from(&oid)),
            },
            subject_public_key: BitStringRef::from_bytes(&q).expect("a point fits a BIT STRING"),
        };
        info.to_der().expect("SubjectPublicKeyInfo encodes")
    }

    /// [`PublicKey::to_spki_der`] as PEM (`PUBLIC KEY`, LF line endings).
    pub fn to_spki_pem(&self) -> String {
        String::from(encode_pem(&self.to_spki_der(), SPKI_PEM_LABEL).as_str())
    }

    /// [`PublicKey::from_spki_der`] from PEM with the label `PUBLIC KEY`. Errors:
    /// [`Error::InvalidSpki`] or the point's error.
    pub fn from_spki_pem(pem: &str) -> Result<Self, Error> {
        let doc = decode_pem(pem, SPKI_PEM_LABEL).map_err(|_| Error::InvalidSpki)?;
        Self::from_spki_der(doc.as_bytes())
    }
}

/// A PEM document's DER, refused unless its label is `label`.
fn decode_pem(pem: &str, label: &str) -> Result<SecretDocument, ()> {
    let (found, doc) = SecretDocument::from_pem(pem).map_err(|_| ())?;
    if found != label {
        return Err(());
    }
    Ok(doc)
}

fn encode_pem(der: &[u8], label: &'static str) -> Zeroizing<String> {
    let doc = SecretDocument::try_from(der).expect("our own DER parses");
    doc.to_pem(label, LineEnding::LF)
        .expect("PEM encoding of a small document")
}

// The RustCrypto traits, on top of the methods above.

impl<G: PrimeGroup> sec1::DecodeEcPrivateKey for SecretKey<G> {
    fn from_sec1_der(bytes: &[u8]) -> sec1::Result<Self> {
        SecretKey::from_sec1_der(bytes).map_err(|_| sec1::Error::Crypto)
    }
}

impl<G: PrimeGroup> sec1::EncodeEcPrivateKey for SecretKey<G> {
    fn to_sec1_der(&self) -> sec1::Result<SecretDocument> {
        Ok(SecretDocument::try_from(
            SecretKey::to_sec1_der(self).as_slice(),
        )?)
    }
}

impl<G: PrimeGroup> TryFrom<PrivateKeyInfoRef<'_>> for SecretKey<G> {
    type Error = pkcs8::Error;

    fn try_from(info: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        Self::from_private_key_info(&info)
            .map_err(|_| pkcs8::Error::KeyMalformed(pkcs8::KeyError::Invalid))
    }
}

impl<G: PrimeGroup> pkcs8::EncodePrivateKey for SecretKey<G> {
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        Ok(SecretDocument::try_from(
            SecretKey::to_pkcs8_der(self).as_slice(),
        )?)
    }
}

impl<G: PrimeGroup> TryFrom<SubjectPublicKeyInfoRef<'_>> for PublicKey<G> {
    type Error = spki::Error;

    fn try_from(info: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        let der = info.to_der()?;
        PublicKey::from_spki_der(&der).map_err(|_| spki::Error::KeyMalformed)
    }
}

impl<G: PrimeGroup> spki::EncodePublicKey for PublicKey<G> {
    fn to_public_key_der(&self) -> spki::Result<der::Document> {
        Ok(der::Document::try_from(self.to_spki_der())?)
    }
}
