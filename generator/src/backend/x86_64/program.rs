//! A kernel before register allocation: straight-line [`Inst`]s over virtual values
//! ([`VReg::V`]) and the fixed multiplier register `rdx`, its pointer arguments and its
//! result values. [`Builder`] writes one.
//!
//! A virtual value is defined once (by `mov`, `mulx` or `xor v, v`) and may then be updated in
//! place by two-operand instructions (`adcx v, src` adds into `v`), so its live range is one
//! interval. The allocator ([`super::regalloc`]) gives each value a register or a stack slot.

use super::inst::{AluOp, Inst, Mem, Src, VReg, X86_64};
use crate::backend::isa;
use crate::narrow::fit;

/// What a pointer argument of a kernel points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pointer {
    /// The `k`-th operand (`a`, then `b`): n limbs, least significant first.
    Operand(usize),
    /// The limbs of the modulus p.
    Modulus,
    /// A writable scratch buffer (kernels for a run-time modulus keep their accumulator and
    /// their results there); the pointer may point inside it, so displacements can be negative.
    Scratch,
}

/// A kernel over virtual values.
pub type VProgram = isa::VProgram<X86_64>;

impl isa::VProgram<X86_64> {
    /// Number of `mulx` instructions.
    pub fn mulx_count(&self) -> usize {
        self.insts.iter().filter(|i| i.is_mulx()).count()
    }
}

/// Writes a [`VProgram`].
pub type Builder = isa::Builder<X86_64>;

/// The `k`-th 64-bit word behind pointer `base`.
pub fn word(base: VReg, k: usize) -> Src<VReg> {
    Src::Mem(Mem {
        base,
        disp: fit(8 * k),
    })
}

impl isa::Builder<X86_64> {
    /// Declares a pointer argument and returns the value holding it.
    pub fn pointer(&mut self, what: Pointer) -> VReg {
        self.input(what)
    }

    /// A new value loaded from `src` (`mov v, src`; flags unchanged).
    pub fn load(&mut self, src: Src<VReg>) -> VReg {
        let v = self.fresh();
        self.push(Inst::Mov { dst: v, src });
        v
    }

    /// A new value holding the 64-bit constant `k` (`mov v, imm64`).
    pub fn constant(&mut self, k: u64) -> VReg {
        let v = self.fresh();
        self.push(Inst::MovImm { dst: v, imm: k });
        v
    }

    /// `rdx ← src`.
    pub fn set_rdx(&mut self, src: Src<VReg>) {
        self.push(Inst::Mov {
            dst: VReg::Rdx,
            src,
        });
    }

    /// `rdx ← k` (`mov rdx, imm64`; flags unchanged).
    pub fn set_rdx_const(&mut self, k: u64) {
        self.push(Inst::MovImm {
            dst: VReg::Rdx,
            imm: k,
        });
    }

    /// `rdx ← rdx_init · src mod 2^64` where `rdx_init` is the 64-bit constant `k`.
    pub fn rdx_mul_const(&mut self, k: u64, src: Src<VReg>) {
        self.push(Inst::MovImm {
            dst: VReg::Rdx,
            imm: k,
        });
        self.push(Inst::Alu {
            op: AluOp::Imul,
            dst: VReg::Rdx,
            src,
        });
    }

    /// `(hi, lo) ← rdx · src`.
    pub fn mulx(&mut self, src: Src<VReg>) -> (VReg, VReg) {
        let hi = self.fresh();
        let lo = self.fresh();
        self.push(Inst::Mulx { hi, lo, src });
        (hi, lo)
    }

    /// `dst ← dst op src`, in place.
    pub fn alu(&mut self, op: AluOp, dst: VReg, src: Src<VReg>) {
        self.push(Inst::Alu { op, dst, src });
    }

    /// `dst ← dst op reg`, in place.
    pub fn alu_reg(&mut self, op: AluOp, dst: VReg, src: VReg) {
        self.alu(op, dst, Src::Reg(src));
    }

    /// `mov qword ptr [base + 8·k], src` (flags unchanged); `k` may be negative.
    pub fn store(&mut self, base: VReg, k: i64, src: VReg) {
        self.push(Inst::Store {
            dst: Mem {
                base,
                disp: fit(8 * k),
            },
            src,
        });
    }

    /// A new zero value, clearing CF and OF (`xor v, v`): the start of two carry chains.
    pub fn zero(&mut self) -> VReg {
        let v = self.fresh();
        self.push(Inst::Zero { dst: v });
        v
    }
}
