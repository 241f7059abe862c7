//! Signing and verifying key types with the RustCrypto `signature` 3 traits: [`Signer`],
//! [`RandomizedSigner`], [`DigestSigner`] and [`Verifier`] (plus [`DigestVerifier`]) for
//! RSASSA-PKCS1-v1_5 ([`pkcs1v15`]) and RSASSA-PSS ([`pss`]), the hash chosen by the type
//! parameter `D` (any [`RsaHash`]: `sha1::Sha1`, `sha2::Sha256`, …).
//!
//! [`Signer`]: signature::Signer
//! [`RandomizedSigner`]: signature::RandomizedSigner
//! [`DigestSigner`]: signature::DigestSigner
//! [`Verifier`]: signature::Verifier
//! [`DigestVerifier`]: signature::DigestVerifier

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::convert::Infallible;

use rand_core::{TryCryptoRng, TryRng};

use crate::hash::RsaHash;

/// An RSA signature: exactly k bytes, big-endian (a leading zero byte is part of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature(Box<[u8]>);

impl Signature {
    /// The signature bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl From<Vec<u8>> for Signature {
    fn from(v: Vec<u8>) -> Self {
        Signature(v.into_boxed_slice())
    }
}

impl TryFrom<&[u8]> for Signature {
    type Error = signature::Error;
    /// Any length is taken here; verification refuses a length other than k.
    fn try_from(v: &[u8]) -> Result<Self, Self::Error> {
        Ok(Signature(v.into()))
    }
}

impl From<Signature> for Box<[u8]> {
    fn from(s: Signature) -> Self {
        s.0
    }
}

impl AsRef<[u8]> for Signature {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl signature::SignatureEncoding for Signature {
    type Repr = Box<[u8]>;
}

/// A fallible random source seen as an infallible one: a failure fills zeros and is recorded,
/// and the caller discards the result.
struct Checked<'a, R: TryCryptoRng + ?Sized> {
    rng: &'a mut R,
    failed: bool,
}

impl<R: TryCryptoRng + ?Sized> TryRng for Checked<'_, R> {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        if self.rng.try_fill_bytes(dst).is_err() {
            dst.fill(0);
            self.failed = true;
        }
        Ok(())
    }
}

impl<R: TryCryptoRng + ?Sized> TryCryptoRng for Checked<'_, R> {}

/// Runs `f` with `rng` as an infallible source; an error if the source failed.
fn with_checked<R: TryCryptoRng + ?Sized, T>(
    rng: &mut R,
    f: impl FnOnce(&mut Checked<'_, R>) -> Result<T, crate::Error>,
) -> Result<T, signature::Error> {
    let mut c = Checked { rng, failed: false };
    let out = f(&mut c);
    if c.failed {
        return Err(signature::Error::new());
    }
    out.map_err(|_| signature::Error::new())
}

/// The hash of the message that `f` feeds into a fresh `D`.
fn digest_of<D: RsaHash>(
    f: impl Fn(&mut D) -> Result<(), signature::Error>,
) -> Result<Vec<u8>, signature::Error> {
    let mut d = D::default();
    f(&mut d)?;
    Ok(digest::Digest::finalize(d).to_vec())
}

macro_rules! verifying_key {
    ($scheme:expr) => {
        /// A verifying key for the scheme with the hash `D`.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct VerifyingKey<D: RsaHash> {
            key: RsaPublicKey,
            _hash: PhantomData<D>,
        }

        impl<D: RsaHash> VerifyingKey<D> {
            /// The verifying key of `key`.
            pub fn new(key: RsaPublicKey) -> Self {
                VerifyingKey {
                    key,
                    _hash: PhantomData,
                }
            }

            /// The public key.
            pub fn public_key(&self) -> &RsaPublicKey {
                &self.key
            }
        }

        impl<D: RsaHash> Verifier<Signature> for VerifyingKey<D> {
            fn verify(&self, msg: &[u8], sig: &Signature) -> Result<(), signature::Error> {
                $scheme(D::ALG)
                    .verify(&self.key, msg, sig.as_bytes())
                    .map_err(|_| signature::Error::new())
            }
        }

        impl<D: RsaHash> DigestVerifier<D, Signature> for VerifyingKey<D> {
            fn verify_digest<F: Fn(&mut D) -> Result<(), signature::Error>>(
                &self,
                f: F,
                sig: &Signature,
            ) -> Result<(), signature::Error> {
                $scheme(D::ALG)
                    .verify_digest(&self.key, &digest_of::<D>(f)?, sig.as_bytes())
                    .map_err(|_| signature::Error::new())
            }
        }
    };
}

/// RSASSA-PKCS1-v1_5 key types (RFC 8017 §8.2). Signing is deterministic; the private
/// operation's fresh blinding values come from the caller's random source
/// ([`RandomizedSigner`](signature::RandomizedSigner)) or from a key-derived stream
/// ([`Signer`](signature::Signer), [`DigestSigner`](signature::DigestSigner)).
pub mod pkcs1v15 {
    use core::marker::PhantomData;

    use signature::{DigestSigner, DigestVerifier, RandomizedSigner, Signer, Verifier};

    use super::{digest_of, with_checked, Signature};
    use crate::hash::RsaHash;
    use crate::{Pkcs1v15Sign, RsaPrivateKey, RsaPublicKey};
    use rand_core::TryCryptoRng;

    /// A signing key for RSASSA-PKCS1-v1_5 with the hash `D`.
    #[derive(Clone, Debug)]
    pub struct SigningKey<D: RsaHash> {
        key: RsaPrivateKey,
        _hash: PhantomData<D>,
    }

    impl<D: RsaHash> SigningKey<D> {
        /// The signing key of `key`.
        pub fn new(key: RsaPrivateKey) -> Self {
            SigningKey {
                key,
                _hash: PhantomData,
            }
        }

        /// The private key.
        pub fn private_key(&self) -> &RsaPrivateKey {
            &self.key
        }

        /// The matching verifying key.
        pub fn verifying_key(&self) -> VerifyingKey<D> {
            VerifyingKey::new(self.key.public_key().clone())
        }
    }

    impl<D: RsaHash> Signer<Signature> for SigningKey<D> {
        fn try_sign(&self, msg: &[u8]) -> Result<Signature, signature::Error> {
            Pkcs1v15Sign::new(D::ALG)
                .sign(&self.key, msg)
                .map(Signature::from)
                .map_err(|_| signature::Error::new())
        }
    }

    impl<D: RsaHash> RandomizedSigner<Signature> for SigningKey<D> {
        fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
            &self,
            rng: &mut R,
            msg: &[u8],
        ) -> Result<Signature, signature::Error> {
            with_checked(rng, |r| {
                Pkcs1v15Sign::new(D::ALG).sign_with_rng(&self.key, r, msg)
            })
            .map(Signature::from)
        }
    }

    impl<D: RsaHash> DigestSigner<D, Signature> for SigningKey<D> {
        fn try_sign_digest<F: Fn(&mut D) -> Result<(), signature::Error>>(
            &self,
            f: F,
        ) -> Result<Signature, signature::Error> {
            Pkcs1v15Sign::new(D::ALG)
                .sign_digest(&self.key, &digest_of::<D>(f)?)
                .map(Signature::from)
                .map_err(|_| signature::Error::new())
        }
    }

    verifying_key!(Pkcs1v15Sign::new);
}

/// RSASSA-PSS key types (RFC 8017 §8.1) with MGF1 over `D` and a salt of hLen bytes
/// (the verifier checks that length). Signing takes a random source (the salt):
/// [`RandomizedSigner`](signature::RandomizedSigner) and
/// [`RandomizedDigestSigner`](signature::RandomizedDigestSigner).
pub mod pss {
    use core::marker::PhantomData;

    use signature::{DigestVerifier, RandomizedDigestSigner, RandomizedSigner, Verifier};

    use super::{digest_of, with_checked, Signature};
    use crate::hash::RsaHash;
    use crate::{Pss, RsaPrivateKey, RsaPublicKey};
    use rand_core::TryCryptoRng;

    /// A signing key for RSASSA-PSS with the hash `D`.
    #[derive(Clone, Debug)]
    pub struct SigningKey<D: RsaHash> {
        key: RsaPrivateKey,
        _hash: PhantomData<D>,
    }

    impl<D: RsaHash> SigningKey<D> {
        /// The signing key of `key`.
        pub fn new(key: RsaPrivateKey) -> Self {
            SigningKey {
                key,
                _hash: PhantomData,
            }
        }

        /// The private key.
        pub fn private_key(&self) -> &RsaPrivateKey {
            &self.key
        }

        /// The matching verifying key.
        pub fn verifying_key(&self) -> VerifyingKey<D> {
            VerifyingKey::new(self.key.public_key().clone())
        }
    }

    impl<D: RsaHash> RandomizedSigner<Signature> for SigningKey<D> {
        fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
            &self,
            rng: &mut R,
            msg: &[u8],
        ) -> Result<Signature, signature::Error> {
            with_checked(rng, |r| Pss::new(D::ALG).sign(&self.key, r, msg)).map(Signature::from)
        }
    }

    impl<D: RsaHash> RandomizedDigestSigner<D, Signature> for SigningKey<D> {
        fn try_sign_digest_with_rng<
            R: TryCryptoRng + ?Sized,
            F: Fn(&mut D) -> Result<(), signature::Error>,
        >(
            &self,
            rng: &mut R,
            f: F,
        ) -> Result<Signature, signature::Error> {
            let digest = digest_of::<D>(f)?;
            with_checked(rng, |r| Pss::new(D::ALG).sign_digest(&self.key, r, &digest))
                .map(Signature::from)
        }
    }

    verifying_key!(Pss::new);
}
