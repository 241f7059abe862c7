//! Stage 5: emitters. [`portable`] prints IR as plain Rust; [`x86_64`] builds BMI2/ADX assembly
//! kernels for multiplication and squaring; [`field`] wraps a target's core functions in the
//! public field API, which is the same on every target.

pub mod field;
pub mod portable;
pub mod x86_64;
