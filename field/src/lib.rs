//! The field layer every fieldgen-generated field builds on.
//!
//! A generated field is a concrete type with inherent methods (`Fp::mul`, `Fp::invert`, ...).
//! This crate gives those types a common shape so that curve and protocol code can be written
//! once, generic over the field:
//!
//! - [`Field`]: the ring operations, inversion, square roots, canonical byte encodings and the
//!   `subtle` constant-time traits, for prime fields GF(p) and binary fields GF(2^m) alike;
//! - [`PrimeField`]: GF(p) with its modulus, 2-adicity and roots of unity, small-integer entry
//!   and the Legendre symbol;
//! - [`BinaryField`]: GF(2^m) in polynomial basis with its trace, half-trace and the solver
//!   of z² + z = c (SEC 1 §2.3.4 point decompression);
//! - [`WideField`]: a Montgomery-form GF(p) that exposes its double-width product and the
//!   separate Montgomery reduction, so an extension tower (Fp2, Fp6, Fp12) can add products
//!   before reducing once ("lazy reduction": Scott, "Implementing cryptographic pairings",
//!   2007; Aranha, Karabina, Longa, Gebotys, López, "Faster explicit formulas for computing
//!   pairings over ordinary curves", EUROCRYPT 2011, §3).
//!
//! [`konst`] holds the `const fn` helpers the generated `from_canonical` and
//! `from_hex_vartime` constructors call, so curve constants are compile-time constants.
//!
//! [`ct::declassify`] marks a value the algorithm makes public, for the constant-time check
//! under valgrind (a no-op unless the `ctgrind` feature is on).
//!
//! [`rsa`] holds the size-independent big-integer helpers of the generated RSA contexts
//! (constant-time GCD and inverse, Baillie–PSW, prime and RSA-CRT key generation, the CRT
//! recombination), generic over the limb count and written against [`rsa::MontContext`].
//!
//! [`carry`] holds the add-with-carry and subtract-with-borrow steps of the generated carry
//! chains (`adc`/`sbb` on x86-64).
//!
//! [`cpu`] (x86-64 only) holds the run-time CPU feature checks the generated x86-64 kernels
//! dispatch on, each read once per program.
//!
//! The crate is `no_std`, allocation-free and re-exports [`subtle`], whose `Choice`,
//! `CtOption`, `ConstantTimeEq` and `ConditionallySelectable` appear in every signature.

#![no_std]
#![deny(missing_docs)]

pub use subtle;

pub mod barrier;
pub mod carry;
#[cfg(target_arch = "x86_64")]
pub mod cpu;
pub mod ct;
pub mod konst;
pub mod rsa;
mod traits;

pub use traits::{BinaryField, ByteArray, Field, PrimeField, WideField};

mod ecosystem;
#[cfg(feature = "ff")]
pub use ecosystem::Repr;

/// What the ecosystem macros ([`impl_ff!`], [`impl_zeroize!`]) name in the user's crate; not
/// an API.
#[doc(hidden)]
pub mod __private {
    #[cfg(feature = "ff")]
    pub use ff;
    #[cfg(feature = "ff")]
    pub use rand_core;
    #[cfg(feature = "zeroize")]
    pub use zeroize;
}
