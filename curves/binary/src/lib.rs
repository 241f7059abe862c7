//! SEC 2 binary elliptic curves y² + xy = x³ + a·x² + b over fieldgen's generated GF(2^m)
//! fields, with ECDH and ECDSA from `fieldgen-weierstrass` (one implementation of the
//! protocols over two kinds of curves).
//!
//! - [`group`]: the group law over any [`fieldgen_field::BinaryField`] in López–Dahab
//!   coordinates, the constant-time López–Dahab Montgomery ladder with y recovery, a
//!   constant-time fixed-base table, variable-time wNAF and interleaved double
//!   multiplication, batch normalisation;
//! - [`sec1`]: SEC 1 v2 §2.3.3–2.3.4 encodings with the characteristic-two rules
//!   (decompression by solving z² + z = β);
//! - [`curves`]: sect163k1, sect163r2, sect233k1, sect233r1, sect239k1, sect283k1, sect283r1,
//!   sect409k1, sect409r1, sect571k1, sect571r1 (SEC 2 v2 §3), each a
//!   [`fieldgen_weierstrass::PrimeGroup`], so [`ecdh`] and [`ecdsa`] (re-exported from
//!   `fieldgen-weierstrass`) work on them unchanged; public keys are checked to lie in the
//!   subgroup of order n (the cofactors are 2 and 4), and cofactor ECDH (SEC 1 §3.3.2) is
//!   [`ecdsa::SecretKey::diffie_hellman_cofactor`];
//! - [`tnaf`]: τ-adic NAF (Solinas 2000) on the Koblitz curves — partial reduction modulo
//!   δ = (τ^m − 1)/(τ − 1), width-w τNAF, k·P and the interleaved u1·G + u2·Q of ECDSA
//!   verification with the Frobenius map in place of doubling (variable time);
//! - [`ell1996`]: the GF(2^155) curve of the 1996 `ell.c` key exchange.
//!
//! The crate is `no_std` with `alloc`; the default `std` feature keeps lazily built tables of
//! each generator (fixed-base and verification), without which those paths use the ladder
//! and per-call tables.

#![no_std]
#![deny(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod curves;
pub mod ell1996;
pub mod group;
pub mod scalars;
pub mod sec1;
pub mod tnaf;

pub use curves::{
    SecCurve, Sect163k1, Sect163r2, Sect233k1, Sect233r1, Sect239k1, Sect283k1, Sect283r1,
    Sect409k1, Sect409r1, Sect571k1, Sect571r1,
};
pub use fieldgen_weierstrass::{ecdh, ecdsa, Error, PrimeGroup};
pub use group::{AffinePoint, BinaryCurve, FixedBaseTable, ProjectivePoint};
