//! Stage 4: optimisation passes over straight-line IR, run in a fixed order by [`optimize`]:
//!
//! 1. [`simplify`] — constant folding, copy propagation and range analysis in one forward pass.
//!    Limbs of p equal to 0 or 2^w−1, n0' = 1, zero accumulators and constant operands fold
//!    away; a carry or high word whose range analysis proves it zero becomes the constant 0.
//! 2. [`dce`] — dead-code elimination.
//!
//! Before either, [`verify_bounds`] proves the lowering's range obligations (dropped carries,
//! output representation bounds) or refuses the function.
//!
//! Both passes preserve the function's meaning on every input satisfying its input bounds; the
//! oracle tests run optimised and unoptimised IR side by side through the interpreter.

mod bounds;
mod dce;
mod simplify;

pub use bounds::{verify_bounds, BoundsError};
pub use dce::dce;
pub use simplify::{ranges, simplify};

use crate::ir::Func;

/// Runs every pass in order.
pub fn optimize(f: &Func) -> Func {
    dce(&simplify(f))
}
