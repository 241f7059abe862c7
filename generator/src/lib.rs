//! fieldgen's generator: turns a prime modulus, an irreducible polynomial over GF(2) or an RSA
//! size into straight-line Rust field arithmetic.
//!
//! One entry point: [`generate`] takes a [`Request`] (a product, its options, a [`Target`])
//! and returns [`Generated`] or an [`Error`]. [`target::TARGETS`] is the one table of which
//! target serves which product; [`pipeline`] lists each product's stages in the order they
//! run (see `docs/ARCHITECTURE.md`); [`header::Header`] writes every file's provenance
//! header. The stages live in the [`product`] modules ([`prime`], [`binary`], [`rsa`],
//! [`lanes`], [`bn`]) and use the shared layers, one folder each: [`spec`] parses and validates
//! the modulus and derives constants; [`strategy`] turns each field operation into [`ir`] (CIOS,
//! SOS, product scanning, Karatsuba, pseudo-Mersenne, Solinas, unsaturated, run-time REDC);
//! [`pass`] proves bounds, folds constants and removes dead code; [`backend`] prints Rust for a
//! target (portable IR printer, x86-64/AArch64/ARMv7 kernels); [`api`] emits the public API and
//! the run-time dispatch around a backend's core. The CLI and the proc macros call the same
//! pipeline, so they produce the same tokens.
//!
//! The package is `fieldgen-generator`; its library keeps the crate name `generator`. Without
//! features it depends on num-bigint, num-prime, proc-macro2, quote and syn only: what the proc
//! macros need. Feature `format` adds `to_file` (the tokens formatted by prettyplease, as the
//! CLI writes them); feature `cli` adds `regen` and `rsa::{expected_files, check, write}`, the
//! committed crates' manifest and file sets, with toml and serde.

pub mod api;
pub mod backend;
mod error;
pub mod header;
pub mod ir;
mod narrow;
pub mod pass;
pub mod pipeline;
pub mod product;
#[cfg(feature = "cli")]
pub mod regen;
mod request;
pub mod spec;
pub mod strategy;
pub mod target;

pub use crate::error::{validate_type_name, Error, GenError};
pub use crate::prime::{
    generate_prime_field, generate_prime_field_for, GeneratedField, PrimeFieldOptions,
};
pub use crate::product::{binary, bn, lanes, prime, rsa};
pub use crate::request::{generate, Generated, Request};
pub use crate::target::{Product, Target};

/// The generator's version, printed in every file header.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
