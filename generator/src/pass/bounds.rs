//! The bounds pass: proves every range obligation of a function ([`crate::ir::Check`] and the
//! declared output bounds) by interval range analysis from its input bounds, or refuses it.
//!
//! Lowerings that drop a carry or keep a high word in fewer bits than a full product (the
//! pseudo-Mersenne and Solinas folds, the loose representations) state what they rely on as
//! obligations; nothing is emitted unless this pass proves them all, so the generated code
//! cannot overflow a word on any input its callers may pass.

use super::ranges;
use crate::ir::Func;

/// Why a function was refused: the obligation that range analysis could not prove.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundsError {
    /// The function's name.
    pub func: String,
    /// The obligation and the range found for it.
    pub detail: String,
}

impl core::fmt::Display for BoundsError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "refusing to emit {}: {} (range analysis cannot rule out an overflow)",
            self.func, self.detail
        )
    }
}

impl std::error::Error for BoundsError {}

/// Proves every obligation of `f` (named `name` in errors) from its input bounds.
pub fn verify_bounds(f: &Func, name: &str) -> Result<(), BoundsError> {
    let r = ranges(f);
    for ch in &f.checks {
        let got = r[ch.var.0 as usize];
        if got.max > ch.max {
            return Err(BoundsError {
                func: name.to_string(),
                detail: format!(
                    "{} needs at most {:#x}, but the value may reach {:#x}",
                    ch.what, ch.max, got.max
                ),
            });
        }
    }
    for (k, (v, &b)) in f.outputs.iter().zip(&f.output_bounds).enumerate() {
        let got = r[v.0 as usize];
        if got.max > b {
            return Err(BoundsError {
                func: name.to_string(),
                detail: format!(
                    "output limb {k} must stay at most {b:#x}, but may reach {:#x}",
                    got.max
                ),
            });
        }
    }
    Ok(())
}
