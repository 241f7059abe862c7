//! X25519 (RFC 7748) and Ed25519 (RFC 8032) on fieldgen's generated fields.
//!
//! All field arithmetic comes from the `fieldgen-generated` crate: GF(2^255 − 19) (preset
//! `curve25519-p`) for coordinates and GF(l), l = 2^252 + 27742317777372353535851937790883648493
//! (preset `curve25519-l`), for scalars, with 64-bit limbs on 64-bit targets and 32-bit limbs
//! elsewhere. Only their public API is used. This crate holds the curve code: the Montgomery
//! ladder, extended twisted Edwards formulas, scalar recodings, the fixed-base table and the
//! multi-scalar multiplications.
//!
//! - [`x25519`], [`x25519_base`], [`x25519_checked`]: Diffie–Hellman on curve25519; the
//!   typed keys [`StaticSecret`], [`EphemeralSecret`], [`PublicKey`] and [`SharedSecret`] in
//!   the shapes of x25519-dalek 3 (secrets and shared secrets zeroized on drop).
//! - [`ed25519`]: signing keys, verifying keys, signatures and (with `alloc`) batch
//!   verification, with the API of ed25519-dalek 3 and the RustCrypto `signature` 3 traits
//!   (the signature type is the `ed25519` crate's `Signature`).
//!
//! ```
//! use fieldgen_curve25519::ed25519::SigningKey;
//! use fieldgen_curve25519::{x25519, x25519_base};
//!
//! let (a, b) = ([1u8; 32], [2u8; 32]);
//! assert_eq!(x25519(a, x25519_base(b)), x25519(b, x25519_base(a)));
//!
//! let sk = SigningKey::from_bytes(&[7u8; 32]);
//! let sig = sk.sign(b"message");
//! assert!(sk.verifying_key().verify_strict(b"message", &sig).is_ok());
//! ```
//!
//! Secret-dependent code is constant time (no branch or table index depends on a secret);
//! functions whose time depends on their (public) inputs end in `_vartime` or are
//! verification functions, whose inputs are all public.
//!
//! # Features
//!
//! - `std` (default): enables `alloc`, and the AVX-512 IFMA code of the Edwards arithmetic
//!   (verification, the fixed-base \[a\]B), whose run-time detection, per-thread backend
//!   forcing and once-per-process lane tables come from the standard library.
//! - `alloc`: batch verification (`ed25519::verify_batch` and
//!   `ed25519::verify_batch_with_entropy`), which needs storage for a number of signatures
//!   known only at run time (its decodings and its multi-scalar multiplication), the PKCS#8 /
//!   SPKI DER encoders, and `signature::Error` values that carry our [`Error`] as their source.
//! - Without an allocator (`--no-default-features`) everything else works: X25519 and its
//!   typed keys, Ed25519 key generation, signing and single verification (pure, ctx and ph,
//!   `verify` and `verify_strict`), whose per-call tables are fixed-size arrays.
//! - `pkcs8`, `serde`: key formats (see the crate README).

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// Only batch verification (its decodings and its multi-scalar multiplication of 2n + 1
// terms) needs heap storage; single verification and signing use fixed-size arrays.
#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

#[cfg(feature = "alloc")]
mod decode_x4;
mod edwards;
// The Edwards lane code keeps per-thread state (backend forcing for tests, run counters) and
// lane tables built once per process: it needs `std`. Without it the scalar code runs.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
mod edwards_x4;
mod field;
mod lattice;
mod scalar;
mod x25519;
#[cfg(target_arch = "x86_64")]
mod x25519_ifma;
mod x25519_keys;

pub mod ed25519;

pub use x25519_keys::{EphemeralSecret, PublicKey, SharedSecret, StaticSecret};

pub use x25519::{
    clamp, x25519, x25519_backend, x25519_base, x25519_checked, x25519_with, X25519Backend,
    BASEPOINT_U,
};

/// Hooks for the instruction-count example (`examples/x25519_count.rs`); not a stable API.
#[doc(hidden)]
pub mod __measure {
    use crate::field::Fe;

    /// 1/x (0 for 0) of the canonical 32-byte little-endian `x` by the generated field's
    /// constant-time `invert` (hddivsteps), the inversion [`crate::x25519`] uses; a
    /// non-canonical `x` gives 0.
    pub fn invert_safegcd(x: &[u8; 32]) -> [u8; 32] {
        let x = Fe::from_le_bytes(x).unwrap_or(Fe::ZERO);
        x.invert().unwrap_or(Fe::ZERO).to_le_bytes()
    }
}

/// Why an operation refused its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// A 32-byte point encoding is not the RFC 8032 §5.1.3 encoding of a curve point: its y
    /// is ≥ p, no x satisfies the curve equation, or x = 0 with the sign bit set.
    InvalidPointEncoding,
    /// The S half of a signature is not below l (RFC 8032 §5.1.7 step 1).
    ScalarOutOfRange,
    /// `verify_strict` only: the public key A or the signature's R has small order
    /// (its multiple by the cofactor 8 is the identity).
    SmallOrderPoint,
    /// The signature does not satisfy the verification equation.
    InvalidSignature,
    /// X25519 produced the all-zero shared secret: the peer's u is a low-order point.
    LowOrderPoint,
    /// The messages, signatures and keys of a batch differ in number.
    BatchLengthMismatch,
    /// A byte slice has the wrong length (the expected length is given).
    InvalidLength(usize),
    /// An Ed25519ctx or Ed25519ph context string is longer than 255 bytes (RFC 8032 §5.1).
    ContextTooLong,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::InvalidPointEncoding => f.write_str("invalid Edwards point encoding"),
            Error::ScalarOutOfRange => f.write_str("signature scalar S is not below l"),
            Error::SmallOrderPoint => f.write_str("public key or R has small order"),
            Error::InvalidSignature => f.write_str("signature verification failed"),
            Error::LowOrderPoint => {
                f.write_str("X25519 shared secret is all zero (low-order point)")
            }
            Error::BatchLengthMismatch => {
                f.write_str("batch has different numbers of messages, signatures and keys")
            }
            Error::InvalidLength(n) => write!(f, "wrong length: expected {n} bytes"),
            Error::ContextTooLong => f.write_str("context string longer than 255 bytes"),
        }
    }
}

impl core::error::Error for Error {}

/// Whether the standard library detects AVX-512F/VL/IFMA: the unit tests' check of the lane
/// field's own CPUID code.
#[cfg(test)]
pub(crate) fn std_detects_ifma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512ifma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
