//! Public-API emission: what a user of a generated module calls, the same on every target.
//! [`field`] wraps a target's core functions in the prime field's API (constants, encodings,
//! operator traits, `pow`, batch inversion); [`field_layer`] adds the `fieldgen-field` trait
//! impls, `const fn` constructors and the double-width type from a small description of the
//! field ([`field_layer::FieldShape`]), shared by prime and binary fields; [`dispatch`] writes
//! the run-time dispatch between backends (`backend()`, CPU checks, test hooks) for every
//! product; [`invert`] (Bernstein–Yang), [`sqrt`] and [`legendre`] the derived operations.

pub mod core;
pub mod dispatch;
pub mod field;
pub mod field_layer;
pub mod invert;
pub mod legendre;
pub mod sqrt;
