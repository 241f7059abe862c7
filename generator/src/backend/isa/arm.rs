//! What the two ARM targets share: the data-processing operations on the carry flag C, with
//! their simulated semantics. ARM's C after a subtraction is the inverse of a borrow.

use crate::narrow::lo64;
use std::fmt::Debug;
use std::hash::Hash;

use super::sim::{Machine, Word};

/// Three-operand data processing `dst ← a op b`, on the carry flag C (the same mnemonics in
/// AArch64 and in ARMv7's unified syntax).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AluOp {
    /// `a + b`; flags unchanged.
    Add,
    /// `a + b`; C = carry out.
    Adds,
    /// `a + b + C`; flags unchanged.
    Adc,
    /// `a + b + C`; C = carry out.
    Adcs,
    /// `a − b`; C = 1 when there is no borrow (a ≥ b).
    Subs,
    /// `a − b − (1 − C)`; C = 1 when there is no borrow.
    Sbcs,
    /// `a − b − (1 − C)`; flags unchanged (`sbc m, x, x` is C − 1: the borrow as a mask).
    Sbc,
    /// `a & b`; flags unchanged.
    And,
    /// `a ^ b`; flags unchanged (ARMv7 `eor`; the AArch64 kernels use their own logic
    /// instructions).
    Eor,
    /// `a | b`; flags unchanged (ARMv7 `orr`).
    Orr,
}

impl AluOp {
    /// The mnemonic.
    pub fn mnemonic(self) -> &'static str {
        match self {
            AluOp::Add => "add",
            AluOp::Adds => "adds",
            AluOp::Adc => "adc",
            AluOp::Adcs => "adcs",
            AluOp::Subs => "subs",
            AluOp::Sbcs => "sbcs",
            AluOp::Sbc => "sbc",
            AluOp::And => "and",
            AluOp::Eor => "eor",
            AluOp::Orr => "orr",
        }
    }

    /// Whether the operation reads C.
    pub fn reads_carry(self) -> bool {
        matches!(self, AluOp::Adc | AluOp::Adcs | AluOp::Sbcs | AluOp::Sbc)
    }

    /// Whether the operation sets C.
    pub fn sets_carry(self) -> bool {
        matches!(self, AluOp::Adds | AluOp::Adcs | AluOp::Subs | AluOp::Sbcs)
    }

    /// `x op y` on `m`'s C: reads C if the operation does (an error when unset), sets it if the
    /// operation does, and returns the result word.
    pub fn execute<R: Copy + Eq + Hash + Debug, W: Word>(
        self,
        m: &mut Machine<R, W>,
        x: W,
        y: W,
    ) -> Result<W, String> {
        let (x, y) = (u128::from(x.to_u64()), u128::from(y.to_u64()));
        let cin = u128::from(self.reads_carry() && m.carry()?);
        let bits = 8 * W::BYTES;
        let (v, c) = match self {
            AluOp::Add | AluOp::Adds | AluOp::Adc | AluOp::Adcs => {
                let s = x + y + cin;
                (s, s >> bits != 0)
            }
            AluOp::Subs => (x.wrapping_sub(y), x >= y),
            AluOp::Sbcs | AluOp::Sbc => {
                let sub = y + 1 - cin;
                (x.wrapping_sub(sub), x >= sub)
            }
            AluOp::And => (x & y, false),
            AluOp::Eor => (x ^ y, false),
            AluOp::Orr => (x | y, false),
        };
        if self.sets_carry() {
            m.set_carry(c);
        }
        Ok(W::from_u64(lo64(v)))
    }
}
