//! A kernel before register allocation: SSA instructions over virtual values, its pointer
//! inputs and the length of the buffer it writes its result to. [`Builder`] writes one.

use super::inst::{AluOp, Inst, Opnd, V};

/// What an input register of a kernel holds on entry. Every input is a pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// The `k`-th operand (`a`, then `b`): n words, least significant first.
    Operand(usize),
    /// The n words of the modulus p followed by n0' = −p⁻¹ mod 2^32.
    Modulus,
    /// The accumulator buffer ([`VProgram::buffer_words`] words): written before it is read;
    /// on exit its first n words are the result.
    Buffer,
}

/// A kernel over virtual values.
#[derive(Clone, Debug)]
pub struct VProgram {
    /// The instructions, in order.
    pub insts: Vec<Inst<V>>,
    /// Inputs: the value holding each on entry.
    pub inputs: Vec<(V, Input)>,
    /// Limbs of the operands and of the result.
    pub limbs: usize,
    /// Words of the accumulator buffer: n, or n + 1 when p has no spare bit.
    pub buffer_words: usize,
    /// Number of virtual values.
    pub num_values: u32,
}

impl VProgram {
    /// `mul`, `umull` and `umaal` instructions.
    pub fn multiplies(&self) -> usize {
        self.insts.iter().filter(|i| i.is_multiply()).count()
    }

    /// `umaal` instructions.
    pub fn umaals(&self) -> usize {
        self.insts
            .iter()
            .filter(|i| matches!(i, Inst::Umaal { .. }))
            .count()
    }
}

/// Writes a [`VProgram`].
#[derive(Default)]
pub struct Builder {
    insts: Vec<Inst<V>>,
    inputs: Vec<(V, Input)>,
    next: u32,
}

impl Builder {
    /// An empty kernel.
    pub fn new() -> Builder {
        Builder::default()
    }

    fn fresh(&mut self) -> V {
        let v = V(self.next);
        self.next += 1;
        v
    }

    /// Declares an input and returns the value holding it.
    pub fn input(&mut self, what: Input) -> V {
        let v = self.fresh();
        self.inputs.push((v, what));
        v
    }

    /// Word `k` behind `base`.
    pub fn ldr(&mut self, base: V, k: usize) -> V {
        let dst = self.fresh();
        self.insts.push(Inst::Ldr {
            dst,
            base,
            k: k as u32,
        });
        dst
    }

    /// Stores `src` at word `k` behind `base`.
    pub fn str(&mut self, src: V, base: V, k: usize) {
        self.insts.push(Inst::Str {
            src,
            base,
            k: k as u32,
        });
    }

    /// A zero word.
    pub fn zero(&mut self) -> V {
        let dst = self.fresh();
        self.insts.push(Inst::MovZero { dst });
        dst
    }

    /// The low word of a·b.
    pub fn mul(&mut self, a: V, b: V) -> V {
        let dst = self.fresh();
        self.insts.push(Inst::Mul { dst, a, b });
        dst
    }

    /// a·b as (low, high).
    pub fn umull(&mut self, a: V, b: V) -> (V, V) {
        let (lo, hi) = (self.fresh(), self.fresh());
        self.insts.push(Inst::Umull { lo, hi, a, b });
        (lo, hi)
    }

    /// a·b + lo + hi as (low, high); `lo` and `hi` must not be used afterwards.
    pub fn umaal(&mut self, lo_in: V, hi_in: V, a: V, b: V) -> (V, V) {
        let (lo, hi) = (self.fresh(), self.fresh());
        self.insts.push(Inst::Umaal {
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
        let dst = self.fresh();
        self.insts.push(Inst::Alu { op, dst, a, b });
        dst
    }

    /// Finishes the kernel.
    pub fn finish(self, limbs: usize, buffer_words: usize) -> VProgram {
        VProgram {
            insts: self.insts,
            inputs: self.inputs,
            limbs,
            buffer_words,
            num_values: self.next,
        }
    }
}
