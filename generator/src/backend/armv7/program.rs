//! A kernel before register allocation: SSA instructions over virtual values, its pointer
//! inputs and the size of the buffer it writes its result to ([`Layout`]), written by
//! [`Builder`] (the shared [`crate::backend::isa::Builder`] with this target's instructions).

use super::inst::{AluOp, Armv7, Inst, Opnd, V};
use crate::backend::isa;
use crate::narrow::fit;

/// What an input register of a kernel holds on entry. Every input is a pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// The `k`-th operand (`a`, then `b`): n words, least significant first.
    Operand(usize),
    /// The n words of the modulus p followed by n0' = −p⁻¹ mod 2^32.
    Modulus,
    /// The accumulator buffer ([`Layout::buffer_words`] words): written before it is read;
    /// on exit its first n words are the result.
    Buffer,
}

/// Where a kernel's result is: the first `limbs` words of its accumulator buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Limbs of the operands and of the result.
    pub limbs: usize,
    /// Words of the accumulator buffer: n, or n + 1 when p has no spare bit, then the spill
    /// slots of a selected kernel ([`super::select::spill`]).
    pub buffer_words: usize,
}

/// A kernel over virtual values.
pub type VProgram = isa::VProgram<Armv7>;

/// Writes a [`VProgram`].
pub type Builder = isa::Builder<Armv7>;

impl isa::VProgram<Armv7> {
    /// `umaal` instructions.
    pub fn umaals(&self) -> usize {
        self.insts
            .iter()
            .filter(|i| matches!(i, Inst::Umaal { .. }))
            .count()
    }
}

impl isa::Builder<Armv7> {
    /// Word `k` behind `base`.
    pub fn ldr(&mut self, base: V, k: usize) -> V {
        let k = fit(k);
        self.def(|dst| Inst::Ldr { dst, base, k })
    }

    /// Stores `src` at word `k` behind `base`.
    pub fn str(&mut self, src: V, base: V, k: usize) {
        let k = fit(k);
        self.push(Inst::Str { src, base, k });
    }

    /// A zero word.
    pub fn zero(&mut self) -> V {
        self.def(|dst| Inst::MovZero { dst })
    }

    /// The low word of a·b.
    pub fn mul(&mut self, a: V, b: V) -> V {
        self.def(|dst| Inst::Mul { dst, a, b })
    }

    /// a·b as (low, high).
    pub fn umull(&mut self, a: V, b: V) -> (V, V) {
        let (lo, hi) = (self.fresh(), self.fresh());
        self.push(Inst::Umull { lo, hi, a, b });
        (lo, hi)
    }

    /// a·b + lo + hi as (low, high); `lo` and `hi` must not be used afterwards.
    pub fn umaal(&mut self, lo_in: V, hi_in: V, a: V, b: V) -> (V, V) {
        let (lo, hi) = (self.fresh(), self.fresh());
        self.push(Inst::Umaal {
            lo,
            hi,
            lo_in,
            hi_in,
            a,
            b,
        });
        (lo, hi)
    }

    /// `a op b` into a new value.
    pub fn alu(&mut self, op: AluOp, a: V, b: Opnd<V>) -> V {
        self.def(|dst| Inst::Alu { op, dst, a, b })
    }
}
