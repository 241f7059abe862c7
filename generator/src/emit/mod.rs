//! Stage 5: emitters. [`portable`] prints IR as plain Rust; [`field`] wraps a target's core
//! functions in the public field API, which is the same on every target.

pub mod field;
pub mod portable;
