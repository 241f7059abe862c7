//! A kernel before register allocation: SSA instructions over virtual values, its inputs and its
//! result values, written by [`Builder`] (the shared [`crate::backend::isa::Builder`] with this
//! target's instructions).

use super::inst::{Aarch64, AluOp, Inst, Opnd, V};
use crate::backend::isa;
use crate::narrow::fit;

/// What an input of a kernel holds on entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A pointer to the `k`-th operand (`a`, then `b`): n limbs, least significant first.
    Operand(usize),
    /// A pointer to the limbs of the modulus p.
    Modulus,
    /// The value n0' = −p⁻¹ mod 2^64.
    N0,
}

/// A kernel over virtual values.
pub type VProgram = isa::VProgram<Aarch64>;

/// Writes a [`VProgram`].
pub type Builder = isa::Builder<Aarch64>;

impl isa::Builder<Aarch64> {
    /// Word `k` behind `base`.
    pub fn ldr(&mut self, base: V, k: usize) -> V {
        let k = fit(k);
        self.def(|dst| Inst::Ldr { dst, base, k })
    }

    /// Words `k` and `k + 1` behind `base`.
    pub fn ldp(&mut self, base: V, k: usize) -> [V; 2] {
        let dst = [self.fresh(), self.fresh()];
        let k = fit(k);
        self.push(Inst::Ldp { dst, base, k });
        dst
    }

    /// The low word of a·b.
    pub fn mul(&mut self, a: V, b: V) -> V {
        self.def(|dst| Inst::Mul { dst, a, b })
    }

    /// The high word of a·b.
    pub fn umulh(&mut self, a: V, b: V) -> V {
        self.def(|dst| Inst::Umulh { dst, a, b })
    }

    /// `a op b` into a new value.
    pub fn alu(&mut self, op: AluOp, a: Opnd<V>, b: Opnd<V>) -> V {
        self.def(|d| Inst::Alu {
            op,
            dst: Some(d),
            a,
            b,
        })
    }

    /// `op xzr, a, b`: only the flags.
    pub fn alu_flags(&mut self, op: AluOp, a: Opnd<V>, b: Opnd<V>) {
        self.push(Inst::Alu {
            op,
            dst: None,
            a,
            b,
        });
    }

    /// `cmp a, #1`.
    pub fn cmp_one(&mut self, a: V) {
        self.push(Inst::CmpOne { a });
    }

    /// C as a word.
    pub fn cset(&mut self) -> V {
        self.def(|dst| Inst::Cset { dst })
    }

    /// `C ? a : b`.
    pub fn csel(&mut self, a: V, b: V) -> V {
        self.def(|dst| Inst::Csel { dst, a, b })
    }
}
