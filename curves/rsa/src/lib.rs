//! RSA on fieldgen's size-specialised Montgomery contexts: keys, the RFC 8017 primitives and
//! schemes, PKCS#1/PKCS#8/SPKI key encodings and the RustCrypto `signature` traits.
//!
//! - [`RsaPublicKey`], [`RsaPrivateKey`]: keys of 512 to 8192 bits (any bit length; each
//!   modulus up to 4096 bits runs on the smallest of the contexts `Mont768` … `Mont4096` of
//!   `fieldgen-rsa` that holds it, its primes likewise; larger moduli run their public
//!   operations on a portable fallback), generation at 1024 to 4096 bits, validation of
//!   imported keys, zeroization on drop; the raw primitives RSAEP, RSADP, RSASP1, RSAVP1
//!   (RFC 8017 §5) with their range checks.
//! - [`Pkcs1v15Sign`]: RSASSA-PKCS1-v1_5 signatures (RFC 8017 §8.2) with SHA-1, SHA-224,
//!   SHA-256, SHA-384, SHA-512 (and SHA-512/224, SHA-512/256).
//! - [`Pss`]: RSASSA-PSS (RFC 8017 §8.1) with MGF1, a fixed salt length or the length
//!   recovered on verification.
//! - [`Oaep`]: RSAES-OAEP (RFC 8017 §7.1) with labels.
//! - [`pkcs1v15`], [`pss`]: signing and verifying key types with the `signature` traits.
//!
//! **No PKCS#1 v1.5 encryption.** RSAES-PKCS1-v1_5 is not offered: its padding check is a
//! decryption oracle (Bleichenbacher, CRYPTO 1998) and implementations keep leaking it through
//! timing (the Marvin attack, 2023). Use OAEP.
//!
//! # Shapes
//!
//! Integers are big-endian byte strings. k is the byte length of n; signatures and
//! ciphertexts are exactly k bytes on input and output (a leading zero byte is kept, never
//! stripped), and any other length is an [`Error::InvalidLength`].
//!
//! # The private operation
//!
//! c^d mod n runs by the CRT on the prime contexts (constant time: fixed-window
//! exponentiation, masked table reads; two interleaved AVX-512 IFMA exponentiations where the
//! CPU has them) with base blinding — c·r^e, unblinded by r⁻¹ (constant-time binary GCD
//! modulo p and q) — and a fault check: the result raised to e must give the input back
//! before anything leaves (against the Bellcore/Lenstra fault attack on the CRT). A random r
//! serves 32 operations, the pair (r^e, r⁻¹) squared after each (Kocher 1996 §10, as
//! OpenSSL's `BN_BLINDING`); an operation that finds the key's pair in use by another thread
//! draws its own. Fresh values come from the caller's random source where the API takes one
//! (`rand_core` 0.10 `CryptoRng`) and otherwise from SHA-512 over a per-key secret seed, a
//! per-key counter and the input.
//!
//! # Timing
//!
//! Secret data is handled in constant time (no branch or memory index depends on it);
//! validation of an imported key branches only on its overall outcome. Public-key operations
//! are variable time in the public exponent. Prime generation is variable time in the
//! rejected candidates.
//!
//! ```
//! use fieldgen_rsa_schemes::{HashAlg, Pkcs1v15Sign, RsaPrivateKey};
//! # let pem = include_str!("../tests/vectors/doc_key_1024.pem");
//! let key = RsaPrivateKey::from_pkcs8_pem(pem).unwrap();
//! let scheme = Pkcs1v15Sign::new(HashAlg::Sha256);
//! let sig = scheme.sign(&key, b"message").unwrap();
//! assert_eq!(sig.len(), key.size());
//! assert!(scheme.verify(key.public_key(), b"message", &sig).is_ok());
//! ```

#![no_std]
#![warn(missing_docs)]

extern crate alloc;

mod ctx;
mod encoding;
mod hash;
mod key;
mod schemes;
pub mod traits;
mod uint;

pub use hash::{HashAlg, RsaHash};
pub use key::{
    miller_rabin_rounds, RsaPrivateKey, RsaPublicKey, DEFAULT_EXPONENT, MAX_GENERATED_BITS,
    MAX_MODULUS_BITS, MIN_GENERATED_BITS, MIN_MODULUS_BITS,
};
pub use schemes::{Oaep, Pkcs1v15Sign, Pss};
pub use traits::{pkcs1v15, pss, Signature};
pub use {sha1, sha2};

pub use rand_core;
pub use signature;
pub use zeroize::Zeroizing;

/// The errors of this crate. Every refusal is one of these; nothing panics on bad input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// The modulus is even (or zero).
    InvalidModulus,
    /// The modulus has this many bits, outside [`MIN_MODULUS_BITS`]..=[`MAX_MODULUS_BITS`]
    /// (for generation: outside [`MIN_GENERATED_BITS`]..=[`MAX_GENERATED_BITS`]).
    ModulusSize(usize),
    /// The public exponent is even, below 3, or not below n (generation: not below 2^62).
    InvalidExponent,
    /// A private key's values are inconsistent: p·q ≠ n, an even or unit prime, d out of
    /// range, d_P, d_Q or q_Inv wrong, or e·d ≢ 1 modulo p − 1 or q − 1.
    InconsistentKey,
    /// A multi-prime key (RFC 8017 A.1.2 version 1): not supported.
    MultiPrime,
    /// An input has the wrong length in bytes.
    InvalidLength {
        /// The length required.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// An integer input is not below the modulus (RFC 8017 §5 "out of range").
    OutOfRange,
    /// A signature does not verify.
    Verification,
    /// OAEP decryption failed (one error for every padding failure, RFC 8017 §7.1.2 note).
    Decryption,
    /// An OAEP message longer than k − 2·hLen − 2 bytes.
    MessageTooLong,
    /// The modulus is too short for the encoding (EMSA-PKCS1-v1_5: k < tLen + 11;
    /// EMSA-PSS: emLen < hLen + sLen + 2).
    KeyTooSmall,
    /// Malformed DER or PEM, a wrong PEM label or algorithm identifier.
    Encoding,
    /// The private operation's result failed the fault check (s^e ≠ m): nothing is output.
    FaultDetected,
    /// The random source failed (no prime or no blinding value in the allotted tries).
    RandomSource,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::InvalidModulus => f.write_str("RSA modulus is even"),
            Error::ModulusSize(bits) => write!(f, "RSA modulus of {bits} bits is out of range"),
            Error::InvalidExponent => f.write_str("RSA public exponent is invalid"),
            Error::InconsistentKey => f.write_str("RSA private key values are inconsistent"),
            Error::MultiPrime => f.write_str("multi-prime RSA keys are not supported"),
            Error::InvalidLength { expected, got } => {
                write!(f, "input of {got} bytes, expected {expected}")
            }
            Error::OutOfRange => f.write_str("integer input is not below the modulus"),
            Error::Verification => f.write_str("signature verification failed"),
            Error::Decryption => f.write_str("decryption error"),
            Error::MessageTooLong => f.write_str("message too long"),
            Error::KeyTooSmall => f.write_str("modulus too short for the encoding"),
            Error::Encoding => f.write_str("malformed key encoding"),
            Error::FaultDetected => f.write_str("fault detected in the private operation"),
            Error::RandomSource => f.write_str("random source failed"),
        }
    }
}

impl core::error::Error for Error {}

// Keys are shared between threads (the private key's blinding cache is behind a try-lock).
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<RsaPublicKey>();
    send_sync::<RsaPrivateKey>();
};
