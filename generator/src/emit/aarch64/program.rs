//! A kernel before register allocation: SSA instructions over virtual values, its inputs and its
//! result values. [`Builder`] writes one.

use super::inst::{AluOp, Inst, Opnd, V};

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
#[derive(Clone, Debug)]
pub struct VProgram {
    /// The instructions, in order.
    pub insts: Vec<Inst<V>>,
    /// Inputs: the value holding each on entry.
    pub inputs: Vec<(V, Input)>,
    /// The result limbs, least significant first.
    pub outputs: Vec<V>,
    /// Number of virtual values.
    pub num_values: u32,
}

impl VProgram {
    /// `mul` and `umulh` instructions.
    pub fn multiplies(&self) -> usize {
        self.insts.iter().filter(|i| i.is_multiply()).count()
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

    /// Words `k` and `k + 1` behind `base`.
    pub fn ldp(&mut self, base: V, k: usize) -> [V; 2] {
        let dst = [self.fresh(), self.fresh()];
        self.insts.push(Inst::Ldp {
            dst,
            base,
            k: k as u32,
        });
        dst
    }

    /// The low word of a·b.
    pub fn mul(&mut self, a: V, b: V) -> V {
        let dst = self.fresh();
        self.insts.push(Inst::Mul { dst, a, b });
        dst
    }

    /// The high word of a·b.
    pub fn umulh(&mut self, a: V, b: V) -> V {
        let dst = self.fresh();
        self.insts.push(Inst::Umulh { dst, a, b });
        dst
    }

    /// `a op b` into a new value.
    pub fn alu(&mut self, op: AluOp, a: Opnd<V>, b: Opnd<V>) -> V {
        let dst = self.fresh();
        self.insts.push(Inst::Alu {
            op,
            dst: Some(dst),
            a,
            b,
        });
        dst
    }

    /// `op xzr, a, b`: only the flags.
    pub fn alu_flags(&mut self, op: AluOp, a: Opnd<V>, b: Opnd<V>) {
        self.insts.push(Inst::Alu {
            op,
            dst: None,
            a,
            b,
        });
    }

    /// `cmp a, #1`.
    pub fn cmp_one(&mut self, a: V) {
        self.insts.push(Inst::CmpOne { a });
    }

    /// C as a word.
    pub fn cset(&mut self) -> V {
        let dst = self.fresh();
        self.insts.push(Inst::Cset { dst });
        dst
    }

    /// `C ? a : b`.
    pub fn csel(&mut self, a: V, b: V) -> V {
        let dst = self.fresh();
        self.insts.push(Inst::Csel { dst, a, b });
        dst
    }

    /// Finishes the kernel.
    pub fn finish(self, outputs: Vec<V>) -> VProgram {
        VProgram {
            insts: self.insts,
            inputs: self.inputs,
            outputs,
            num_values: self.next,
        }
    }
}
