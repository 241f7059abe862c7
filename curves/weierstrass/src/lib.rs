//! Prime-order short-Weierstrass groups y² = x³ + a·x + b on fieldgen's generated fields, and
//! ECDH and ECDSA written once over them.
//!
//! - [`group`]: the group law over any [`fieldgen_field::Field`] (complete projective formulas
//!   of Renes–Costello–Batina 2016, a = 0 and a = −3 chosen at compile time), batch
//!   normalisation, constant-time signed fixed-window scalar multiplication, variable-time wNAF
//!   and Straus double multiplication;
//! - [`sec1`]: SEC 1 v2 §2.3.3–2.3.4 point encodings over GF(p), with full validation;
//! - [`curves`]: P-224, P-256, P-384 (FIPS 186-5, SP 800-186 §3.2.1) and secp256k1
//!   (SEC 2 v2 §2.4.1) as parameter types over the generated base and scalar fields;
//! - [`glv`]: the Gallant–Lambert–Vanstone endomorphism method (secp256k1): a constant-time
//!   scalar multiplication on two half-length scalars and a four-scalar Straus for
//!   verification;
//! - [`protocol`]: the "prime-order group with a scalar field" interface the protocols use;
//! - [`ecdh`] (SEC 1 §3.3.1) and [`ecdsa`] (SEC 1 §4.1, RFC 6979 nonces, the `signature`
//!   traits, fixed-size and DER signatures);
//! - [`msm`]: Pippenger's bucket method for Σ k_i·P_i over public data (signed digits,
//!   mixed additions into Jacobian buckets);
//! - [`keys`]: SEC 1 and PKCS#8 private keys and SPKI public keys, DER and PEM, through the
//!   `der`, `sec1`, `pkcs8` and `spki` crates.
//!
//! The crate is `no_std` and uses `alloc` for variable-length encodings (SEC 1 points, DER
//! signatures, shared secrets). The default `std` feature keeps one lazily built
//! [`FixedBaseTable`] of the generator per curve (a `std::sync::OnceLock`), which
//! fixed-base multiplication (key generation, signing) uses; without it they take the
//! variable-base path.

#![no_std]
#![deny(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod curves;
pub mod ecdh;
pub mod ecdsa;
pub mod glv;
pub mod group;
pub mod keys;
pub mod msm;
pub mod protocol;
pub mod sec1;

pub use group::{AKind, AffinePoint, CurveParams, FixedBaseTable, ProjectivePoint, WnafBaseTable};
pub use protocol::{PrimeGroup, WeierstrassCurve};

use core::fmt;

/// Why an encoding, key or signature was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// The input has the wrong length for its format.
    InvalidLength,
    /// A SEC 1 point's leading octet is not one this format allows (0x00, 0x02, 0x03, 0x04).
    InvalidTag,
    /// A coordinate is not below p (not a canonical field element).
    CoordinateOutOfRange,
    /// The coordinates do not satisfy the curve equation (or a compressed x has no y).
    NotOnCurve,
    /// The point at infinity where a finite point is required (public keys, shared secrets).
    Identity,
    /// A scalar (secret key, r or s) is zero or not below the group order n.
    InvalidScalar,
    /// A DER signature does not parse as SEQUENCE { INTEGER r, INTEGER s } in strict DER.
    MalformedDer,
    /// The signature does not verify (or has a high s under the strict low-s rule).
    InvalidSignature,
    /// A SubjectPublicKeyInfo is not strict DER, not id-ecPublicKey, or names another curve
    /// (or gives explicit curve parameters).
    InvalidSpki,
    /// A SEC 1 `ECPrivateKey` or PKCS#8 private key (DER or PEM) is malformed, has the wrong
    /// version, length or curve, a scalar outside [1, n), or a public key that is not d·G.
    InvalidPrivateKey,
    /// A point on a curve with a cofactor that is not in the subgroup of prime order n
    /// (n·Q ≠ O, SEC 1 §3.2.2.1 step 4).
    NotInSubgroup,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Error::InvalidLength => "wrong input length",
            Error::InvalidTag => "unsupported SEC 1 point tag",
            Error::CoordinateOutOfRange => "coordinate not below the field modulus",
            Error::NotOnCurve => "point not on the curve",
            Error::Identity => "the point at infinity is not allowed here",
            Error::InvalidScalar => "scalar is zero or not below the group order",
            Error::MalformedDer => "malformed DER signature",
            Error::InvalidSignature => "signature does not verify",
            Error::InvalidSpki => "SubjectPublicKeyInfo is malformed or for another curve",
            Error::InvalidPrivateKey => "private key encoding is malformed or inconsistent",
            Error::NotInSubgroup => "point not in the prime-order subgroup",
        })
    }
}

impl core::error::Error for Error {}
