//! A simulator of the instruction subset over virtual or physical registers, so the kernels and
//! their allocation are checked against num-bigint on the build machine. It is stricter than
//! the processor: reading a register never written, C before any instruction set it, a word
//! outside the operand, modulus and buffer arrays, or an accumulator buffer word before it was
//! stored is an error, and so are writing a register an allocated kernel does not declare, a
//! `umaal` whose results are not in the registers of its inputs, and `umull`/`umaal` with equal
//! destination registers (UNPREDICTABLE on ARM).

use std::collections::HashMap;
use std::hash::Hash;

use super::inst::{AluOp, Inst, Opnd};
use super::program::{Input, VProgram};
use super::regalloc::Allocation;

fn address(k: usize) -> u32 {
    0x1000_0000 * (k as u32 + 1)
}

const MODULUS_AT: u32 = 0x7000_0000;
const BUFFER_AT: u32 = 0x8000_0000;

struct Machine<R> {
    regs: HashMap<R, u32>,
    c: Option<bool>,
    mem: HashMap<u32, u32>,
    buffer_words: usize,
}

impl<R: Copy + Eq + Hash + std::fmt::Debug> Machine<R> {
    fn get(&self, r: R) -> Result<u32, String> {
        self.regs
            .get(&r)
            .copied()
            .ok_or_else(|| format!("{r:?} read before it was written"))
    }

    fn carry(&self) -> Result<bool, String> {
        self.c.ok_or_else(|| "C read before it was set".to_string())
    }

    fn at(&self, base: R, k: u32) -> Result<u32, String> {
        Ok(self.get(base)?.wrapping_add(4 * k))
    }

    fn step(&mut self, inst: &Inst<R>, physical: bool) -> Result<(), String> {
        match *inst {
            Inst::Ldr { dst, base, k } => {
                let at = self.at(base, k)?;
                let v =
                    self.mem.get(&at).copied().ok_or_else(|| {
                        format!("load from unmapped or unwritten address {at:#x}")
                    })?;
                self.regs.insert(dst, v);
            }
            Inst::Str { src, base, k } => {
                let at = self.at(base, k)?;
                if !(BUFFER_AT..BUFFER_AT + 4 * self.buffer_words as u32).contains(&at) {
                    return Err(format!("store outside the buffer at {at:#x}"));
                }
                let v = self.get(src)?;
                self.mem.insert(at, v);
            }
            Inst::MovZero { dst } => {
                self.regs.insert(dst, 0);
            }
            Inst::Mul { dst, a, b } => {
                let v = self.get(a)?.wrapping_mul(self.get(b)?);
                self.regs.insert(dst, v);
            }
            Inst::Umull { lo, hi, a, b } => {
                if lo == hi {
                    return Err("umull with equal destinations".into());
                }
                let v = self.get(a)? as u64 * self.get(b)? as u64;
                self.regs.insert(lo, v as u32);
                self.regs.insert(hi, (v >> 32) as u32);
            }
            Inst::Umaal {
                lo,
                hi,
                lo_in,
                hi_in,
                a,
                b,
            } => {
                if physical && (lo != lo_in || hi != hi_in) {
                    return Err("umaal results not in the registers of its inputs".into());
                }
                if lo == hi || lo_in == hi_in {
                    return Err("umaal with equal accumulators".into());
                }
                let v = self.get(a)? as u64 * self.get(b)? as u64
                    + self.get(lo_in)? as u64
                    + self.get(hi_in)? as u64;
                self.regs.insert(lo, v as u32);
                self.regs.insert(hi, (v >> 32) as u32);
            }
            Inst::Alu { op, dst, a, b } => {
                let x = self.get(a)? as u64;
                let y = match b {
                    Opnd::Reg(r) => self.get(r)? as u64,
                    Opnd::Imm(k) => k as u64,
                };
                let cin = if op.reads_carry() {
                    self.carry()? as u64
                } else {
                    0
                };
                let (v, c) = match op {
                    AluOp::Add | AluOp::Adds | AluOp::Adc | AluOp::Adcs => {
                        let s = x + y + cin;
                        (s as u32, s >> 32 != 0)
                    }
                    AluOp::Subs => (x.wrapping_sub(y) as u32, x >= y),
                    AluOp::Sbcs | AluOp::Sbc => {
                        let sub = y + 1 - cin;
                        (x.wrapping_sub(sub) as u32, x >= sub)
                    }
                    AluOp::And => ((x & y) as u32, false),
                };
                if op.sets_carry() {
                    self.c = Some(c);
                }
                self.regs.insert(dst, v);
            }
        }
        Ok(())
    }
}

#[allow(clippy::too_many_arguments)]
fn run<R: Copy + Eq + Hash + std::fmt::Debug>(
    insts: &[Inst<R>],
    inputs: &[(R, Input)],
    limbs: usize,
    buffer_words: usize,
    operands: &[&[u32]],
    modulus: &[u32],
    n0: u32,
    physical: bool,
) -> Result<Vec<u32>, String> {
    let mut m = Machine {
        regs: HashMap::new(),
        c: None,
        mem: HashMap::new(),
        buffer_words,
    };
    for (k, op) in operands.iter().enumerate() {
        for (j, w) in op.iter().enumerate() {
            m.mem.insert(address(k) + 4 * j as u32, *w);
        }
    }
    for (j, w) in modulus.iter().chain([&n0]).enumerate() {
        m.mem.insert(MODULUS_AT + 4 * j as u32, *w);
    }
    for (r, what) in inputs {
        let v = match what {
            Input::Operand(k) => address(*k),
            Input::Modulus => MODULUS_AT,
            Input::Buffer => BUFFER_AT,
        };
        m.regs.insert(*r, v);
    }
    for inst in insts {
        m.step(inst, physical)?;
    }
    (0..limbs)
        .map(|j| {
            m.mem
                .get(&(BUFFER_AT + 4 * j as u32))
                .copied()
                .ok_or_else(|| format!("result word {j} never stored"))
        })
        .collect()
}

/// Runs a kernel before allocation on `operands` (limbs, least significant first).
pub fn run_virtual(
    prog: &VProgram,
    operands: &[&[u32]],
    modulus: &[u32],
    n0: u32,
) -> Result<Vec<u32>, String> {
    run(
        &prog.insts,
        &prog.inputs,
        prog.limbs,
        prog.buffer_words,
        operands,
        modulus,
        n0,
        false,
    )
}

/// Runs an allocated kernel; also checks that it writes only the registers it declares.
pub fn run_allocated(
    alloc: &Allocation,
    operands: &[&[u32]],
    modulus: &[u32],
    n0: u32,
) -> Result<Vec<u32>, String> {
    for inst in &alloc.insts {
        for r in inst.writes() {
            if !alloc.written.contains(&r) {
                return Err(format!("{r} written but not declared"));
            }
        }
    }
    run(
        &alloc.insts,
        &alloc.inputs,
        alloc.limbs,
        alloc.buffer_words,
        operands,
        modulus,
        n0,
        true,
    )
}
