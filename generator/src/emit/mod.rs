//! Stage 5: emitters. [`portable`] prints IR as plain Rust; [`x86_64`] builds BMI2/ADX assembly
//! kernels for multiplication and squaring, [`aarch64`] and [`armv7`] theirs, all three on the
//! shared builder and printer of [`isa`]; [`invert`] writes the Bernstein–Yang inversion;
//! [`field`] wraps a target's core functions in the
//! public field API, which is the same on every target; [`dispatch`] writes the dispatch
//! between backends of every product.

pub mod aarch64;
pub mod armv7;
pub mod dispatch;
pub mod field;
pub mod field_layer;
pub mod invert;
pub mod isa;
pub mod legendre;
pub mod portable;
pub mod rsa;
pub mod rsa_helpers;
pub mod rsa_window;
pub mod special;
pub mod sqrt;
pub mod unsaturated;
pub mod x86_64;

pub use crate::target::Target;
