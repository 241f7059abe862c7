//! Key import and export: PKCS#1 (RFC 8017 A.1.1, A.1.2), PKCS#8 (RFC 5208/5958) and
//! SubjectPublicKeyInfo (RFC 5280 §4.1.2.7) with the rsaEncryption algorithm identifier
//! (OID 1.2.840.113549.1.1.1, NULL parameters; RFC 8017 A.1), in DER and PEM (RFC 7468),
//! through the RustCrypto `der`, `pkcs1`, `pkcs8` and `spki` crates. Imported private keys are
//! validated ([`RsaPrivateKey::from_crt_components`]); multi-prime keys are refused.

use alloc::string::String;
use alloc::vec::Vec;

use der::asn1::{BitStringRef, OctetStringRef, UintRef};
use der::pem::LineEnding;
use der::{Decode, Encode};
use zeroize::Zeroizing;

use crate::key::{RsaPrivateKey, RsaPublicKey};
use crate::Error;

/// PEM label of a PKCS#1 RSAPublicKey.
const PKCS1_PUBLIC_LABEL: &str = "RSA PUBLIC KEY";
/// PEM label of a PKCS#1 RSAPrivateKey.
const PKCS1_PRIVATE_LABEL: &str = "RSA PRIVATE KEY";
/// PEM label of a PKCS#8 PrivateKeyInfo.
const PKCS8_LABEL: &str = "PRIVATE KEY";
/// PEM label of a SubjectPublicKeyInfo.
const SPKI_LABEL: &str = "PUBLIC KEY";

/// The DER of a PEM document with the expected label.
fn pem_body(pem: &str, label: &str) -> Result<Zeroizing<Vec<u8>>, Error> {
    let (got, der) = der::pem::decode_vec(pem.as_bytes()).map_err(|_| Error::Encoding)?;
    let der = Zeroizing::new(der);
    if got != label {
        return Err(Error::Encoding);
    }
    Ok(der)
}

/// The PEM text (LF line endings) of `der` under `label`.
fn pem_text(der: &[u8], label: &str) -> Result<Zeroizing<String>, Error> {
    der::pem::encode_string(label, LineEnding::LF, der)
        .map(Zeroizing::new)
        .map_err(|_| Error::Encoding)
}

/// A DER INTEGER view of a non-negative big-endian value (leading zeros dropped).
fn u(x: &[u8]) -> Result<UintRef<'_>, Error> {
    let start = x
        .iter()
        .position(|b| *b != 0)
        .unwrap_or(x.len().saturating_sub(1));
    UintRef::new(&x[start..]).map_err(|_| Error::Encoding)
}

/// Checks that the algorithm identifier is rsaEncryption with absent or NULL parameters.
fn check_algorithm(alg: &spki::AlgorithmIdentifierRef<'_>) -> Result<(), Error> {
    if alg.oid != pkcs1::ALGORITHM_OID {
        return Err(Error::Encoding);
    }
    match alg.parameters {
        None => Ok(()),
        Some(p) if p == der::asn1::AnyRef::NULL => Ok(()),
        Some(_) => Err(Error::Encoding),
    }
}

impl RsaPublicKey {
    /// The key from a DER RSAPublicKey (PKCS#1, RFC 8017 A.1.1).
    ///
    /// # Errors
    /// [`Error::Encoding`] for malformed DER; the errors of [`RsaPublicKey::new`].
    pub fn from_pkcs1_der(der: &[u8]) -> Result<Self, Error> {
        let k = pkcs1::RsaPublicKeyRef::from_der(der).map_err(|_| Error::Encoding)?;
        Self::new(k.modulus.as_bytes(), k.public_exponent.as_bytes())
    }

    /// The DER RSAPublicKey.
    ///
    /// # Errors
    /// [`Error::Encoding`] if the encoder fails (not expected for a valid key).
    pub fn to_pkcs1_der(&self) -> Result<Vec<u8>, Error> {
        let k = pkcs1::RsaPublicKeyRef {
            modulus: UintRef::new(self.modulus()).map_err(|_| Error::Encoding)?,
            public_exponent: UintRef::new(self.exponent()).map_err(|_| Error::Encoding)?,
        };
        k.to_der().map_err(|_| Error::Encoding)
    }

    /// The key from a PEM "RSA PUBLIC KEY" document.
    ///
    /// # Errors
    /// As [`from_pkcs1_der`](Self::from_pkcs1_der), and [`Error::Encoding`] for bad PEM or
    /// another label.
    pub fn from_pkcs1_pem(pem: &str) -> Result<Self, Error> {
        Self::from_pkcs1_der(&pem_body(pem, PKCS1_PUBLIC_LABEL)?)
    }

    /// The PEM "RSA PUBLIC KEY" document (LF line endings).
    ///
    /// # Errors
    /// As [`to_pkcs1_der`](Self::to_pkcs1_der).
    pub fn to_pkcs1_pem(&self) -> Result<String, Error> {
        Ok(pem_text(&self.to_pkcs1_der()?, PKCS1_PUBLIC_LABEL)?
            .as_str()
            .into())
    }

    /// The key from a DER SubjectPublicKeyInfo with the rsaEncryption algorithm.
    ///
    /// # Errors
    /// [`Error::Encoding`] for malformed DER or another algorithm; the errors of
    /// [`RsaPublicKey::new`].
    pub fn from_public_key_der(der: &[u8]) -> Result<Self, Error> {
        let info = spki::SubjectPublicKeyInfoRef::from_der(der).map_err(|_| Error::Encoding)?;
        check_algorithm(&info.algorithm)?;
        let bits = info.subject_public_key.as_bytes().ok_or(Error::Encoding)?;
        Self::from_pkcs1_der(bits)
    }

    /// The DER SubjectPublicKeyInfo.
    ///
    /// # Errors
    /// As [`to_pkcs1_der`](Self::to_pkcs1_der).
    pub fn to_public_key_der(&self) -> Result<Vec<u8>, Error> {
        let inner = self.to_pkcs1_der()?;
        let info = spki::SubjectPublicKeyInfoRef {
            algorithm: pkcs1::ALGORITHM_ID,
            subject_public_key: BitStringRef::from_bytes(&inner).map_err(|_| Error::Encoding)?,
        };
        info.to_der().map_err(|_| Error::Encoding)
    }

    /// The key from a PEM "PUBLIC KEY" (SubjectPublicKeyInfo) document.
    ///
    /// # Errors
    /// As [`from_public_key_der`](Self::from_public_key_der).
    pub fn from_public_key_pem(pem: &str) -> Result<Self, Error> {
        Self::from_public_key_der(&pem_body(pem, SPKI_LABEL)?)
    }

    /// The PEM "PUBLIC KEY" document.
    ///
    /// # Errors
    /// As [`to_pkcs1_der`](Self::to_pkcs1_der).
    pub fn to_public_key_pem(&self) -> Result<String, Error> {
        Ok(pem_text(&self.to_public_key_der()?, SPKI_LABEL)?
            .as_str()
            .into())
    }
}

impl RsaPrivateKey {
    /// The key from a DER RSAPrivateKey (PKCS#1, RFC 8017 A.1.2, version 0), validated.
    ///
    /// # Errors
    /// [`Error::Encoding`] for malformed DER; [`Error::MultiPrime`] for a multi-prime key;
    /// the errors of [`RsaPrivateKey::from_crt_components`].
    pub fn from_pkcs1_der(der: &[u8]) -> Result<Self, Error> {
        let k = pkcs1::RsaPrivateKeyRef::from_der(der).map_err(|_| Error::Encoding)?;
        if k.other_prime_infos.is_some() {
            return Err(Error::MultiPrime);
        }
        Self::from_crt_components(
            k.modulus.as_bytes(),
            k.public_exponent.as_bytes(),
            k.private_exponent.as_bytes(),
            k.prime1.as_bytes(),
            k.prime2.as_bytes(),
            k.exponent1.as_bytes(),
            k.exponent2.as_bytes(),
            k.coefficient.as_bytes(),
        )
    }

    /// The DER RSAPrivateKey. Secret (zeroized on drop).
    ///
    /// # Errors
    /// [`Error::Encoding`] if the encoder fails (not expected for a valid key).
    pub fn to_pkcs1_der(&self) -> Result<Zeroizing<Vec<u8>>, Error> {
        let (p, q) = self.primes();
        let (dp, dq, qinv) = self.crt_values();
        let pk = self.public_key();
        let k = pkcs1::RsaPrivateKeyRef {
            modulus: u(pk.modulus())?,
            public_exponent: u(pk.exponent())?,
            private_exponent: u(self.private_exponent())?,
            prime1: u(p)?,
            prime2: u(q)?,
            exponent1: u(dp)?,
            exponent2: u(dq)?,
            coefficient: u(qinv)?,
            other_prime_infos: None,
        };
        k.to_der().map(Zeroizing::new).map_err(|_| Error::Encoding)
    }

    /// The key from a PEM "RSA PRIVATE KEY" document.
    ///
    /// # Errors
    /// As [`from_pkcs1_der`](Self::from_pkcs1_der), and [`Error::Encoding`] for bad PEM or
    /// another label.
    pub fn from_pkcs1_pem(pem: &str) -> Result<Self, Error> {
        Self::from_pkcs1_der(&pem_body(pem, PKCS1_PRIVATE_LABEL)?)
    }

    /// The PEM "RSA PRIVATE KEY" document. Secret.
    ///
    /// # Errors
    /// As [`to_pkcs1_der`](Self::to_pkcs1_der).
    pub fn to_pkcs1_pem(&self) -> Result<Zeroizing<String>, Error> {
        pem_text(&self.to_pkcs1_der()?, PKCS1_PRIVATE_LABEL)
    }

    /// The key from a DER PKCS#8 PrivateKeyInfo (v1 or v2) with the rsaEncryption
    /// algorithm.
    ///
    /// # Errors
    /// [`Error::Encoding`] for malformed DER or another algorithm; as
    /// [`from_pkcs1_der`](Self::from_pkcs1_der).
    pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, Error> {
        let info = pkcs8::PrivateKeyInfoRef::from_der(der).map_err(|_| Error::Encoding)?;
        check_algorithm(&info.algorithm)?;
        Self::from_pkcs1_der(info.private_key.as_bytes())
    }

    /// The DER PKCS#8 PrivateKeyInfo (version 1, no public key). Secret.
    ///
    /// # Errors
    /// As [`to_pkcs1_der`](Self::to_pkcs1_der).
    pub fn to_pkcs8_der(&self) -> Result<Zeroizing<Vec<u8>>, Error> {
        let inner = self.to_pkcs1_der()?;
        let info = pkcs8::PrivateKeyInfoRef::new(
            pkcs1::ALGORITHM_ID,
            OctetStringRef::new(&inner).map_err(|_| Error::Encoding)?,
        );
        info.to_der()
            .map(Zeroizing::new)
            .map_err(|_| Error::Encoding)
    }

    /// The key from a PEM "PRIVATE KEY" (PKCS#8) document.
    ///
    /// # Errors
    /// As [`from_pkcs8_der`](Self::from_pkcs8_der).
    pub fn from_pkcs8_pem(pem: &str) -> Result<Self, Error> {
        Self::from_pkcs8_der(&pem_body(pem, PKCS8_LABEL)?)
    }

    /// The PEM "PRIVATE KEY" document. Secret.
    ///
    /// # Errors
    /// As [`to_pkcs1_der`](Self::to_pkcs1_der).
    pub fn to_pkcs8_pem(&self) -> Result<Zeroizing<String>, Error> {
        pem_text(&self.to_pkcs8_der()?, PKCS8_LABEL)
    }
}
