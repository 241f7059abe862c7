//! Backends: the code that turns a strategy's IR, or a kernel built for one ISA, into Rust.
//! [`portable`] prints IR as plain Rust over `u64`/`u128` or `u32`/`u64`; [`x86_64`]
//! (BMI2/ADX), [`aarch64`] and [`armv7`] build assembly kernels on the shared builder,
//! register allocator, simulator and `asm!` printer of [`isa`]; [`special`] and
//! [`unsaturated`] are the target cores of the special-form and unsaturated-radix strategies.
//! The public API around a core is emitted by [`crate::api`].

pub mod aarch64;
pub mod armv7;
pub mod isa;
pub mod portable;
pub mod special;
pub mod unsaturated;
pub mod x86_64;

pub use crate::target::Target;
