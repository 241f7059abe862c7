//! A simulator of the instruction subset over virtual or physical registers, so the kernels and
//! their allocation are checked against num-bigint without an AArch64 machine. It is stricter
//! than the processor: reading a register never written, C before any instruction set it, or a
//! word outside the operand and modulus arrays is an error, and so is writing a register an
//! allocated kernel does not declare.

use std::collections::HashMap;
use std::hash::Hash;

use super::inst::{AluOp, Inst, Opnd};
use super::program::{Input, VProgram};
use super::regalloc::Allocation;

fn address(k: usize) -> u64 {
    0x1000_0000 * (k as u64 + 1)
}

const MODULUS_AT: u64 = 0x7000_0000;

struct Machine<R> {
    regs: HashMap<R, u64>,
    c: Option<bool>,
    mem: HashMap<u64, u64>,
}

impl<R: Copy + Eq + Hash + std::fmt::Debug> Machine<R> {
    fn get(&self, r: R) -> Result<u64, String> {
        self.regs
            .get(&r)
            .copied()
            .ok_or_else(|| format!("{r:?} read before it was written"))
    }

    fn opnd(&self, o: Opnd<R>) -> Result<u64, String> {
        match o {
            Opnd::Reg(r) => self.get(r),
            Opnd::Zero => Ok(0),
        }
    }

    fn carry(&self) -> Result<bool, String> {
        self.c.ok_or_else(|| "C read before it was set".to_string())
    }

    fn load(&self, base: R, k: u32) -> Result<u64, String> {
        let at = self.get(base)? + 8 * k as u64;
        self.mem
            .get(&at)
            .copied()
            .ok_or_else(|| format!("load from unmapped address {at:#x}"))
    }

    fn step(&mut self, inst: &Inst<R>) -> Result<(), String> {
        match *inst {
            Inst::Ldr { dst, base, k } => {
                let v = self.load(base, k)?;
                self.regs.insert(dst, v);
            }
            Inst::Ldp { dst, base, k } => {
                if dst[0] == dst[1] {
                    return Err("ldp with equal destinations".into());
                }
                let (x, y) = (self.load(base, k)?, self.load(base, k + 1)?);
                self.regs.insert(dst[0], x);
                self.regs.insert(dst[1], y);
            }
            Inst::Mul { dst, a, b } => {
                let v = self.get(a)?.wrapping_mul(self.get(b)?);
                self.regs.insert(dst, v);
            }
            Inst::Umulh { dst, a, b } => {
                let v = ((self.get(a)? as u128 * self.get(b)? as u128) >> 64) as u64;
                self.regs.insert(dst, v);
            }
            Inst::Alu { op, dst, a, b } => {
                let (x, y) = (self.opnd(a)? as u128, self.opnd(b)? as u128);
                let cin = if op.reads_carry() {
                    self.carry()? as u128
                } else {
                    0
                };
                let (v, c) = match op {
                    AluOp::Add | AluOp::Adds | AluOp::Adc | AluOp::Adcs => {
                        let s = x + y + cin;
                        (s as u64, s >> 64 != 0)
                    }
                    AluOp::Subs => (x.wrapping_sub(y) as u64, x >= y),
                    AluOp::Sbcs => {
                        let sub = y + 1 - cin;
                        (x.wrapping_sub(sub) as u64, x >= sub)
                    }
                };
                if op.sets_carry() {
                    self.c = Some(c);
                }
                if let Some(d) = dst {
                    self.regs.insert(d, v);
                }
            }
            Inst::CmpOne { a } => {
                self.c = Some(self.get(a)? >= 1);
            }
            Inst::Cset { dst } => {
                let v = self.carry()? as u64;
                self.regs.insert(dst, v);
            }
            Inst::Csel { dst, a, b } => {
                let v = if self.carry()? {
                    self.get(a)?
                } else {
                    self.get(b)?
                };
                self.regs.insert(dst, v);
            }
        }
        Ok(())
    }
}

fn run<R: Copy + Eq + Hash + std::fmt::Debug>(
    insts: &[Inst<R>],
    inputs: &[(R, Input)],
    outputs: &[R],
    operands: &[&[u64]],
    modulus: &[u64],
    n0: u64,
) -> Result<Vec<u64>, String> {
    let mut m = Machine {
        regs: HashMap::new(),
        c: None,
        mem: HashMap::new(),
    };
    for (k, op) in operands.iter().enumerate() {
        for (j, w) in op.iter().enumerate() {
            m.mem.insert(address(k) + 8 * j as u64, *w);
        }
    }
    for (j, w) in modulus.iter().enumerate() {
        m.mem.insert(MODULUS_AT + 8 * j as u64, *w);
    }
    for (r, what) in inputs {
        let v = match what {
            Input::Operand(k) => address(*k),
            Input::Modulus => MODULUS_AT,
            Input::N0 => n0,
        };
        m.regs.insert(*r, v);
    }
    for inst in insts {
        m.step(inst)?;
    }
    outputs.iter().map(|r| m.get(*r)).collect()
}

/// Runs a kernel before allocation on `operands` (limbs, least significant first).
pub fn run_virtual(
    prog: &VProgram,
    operands: &[&[u64]],
    modulus: &[u64],
    n0: u64,
) -> Result<Vec<u64>, String> {
    run(
        &prog.insts,
        &prog.inputs,
        &prog.outputs,
        operands,
        modulus,
        n0,
    )
}

/// Runs an allocated kernel; also checks that it writes only the registers it declares.
pub fn run_allocated(
    alloc: &Allocation,
    operands: &[&[u64]],
    modulus: &[u64],
    n0: u64,
) -> Result<Vec<u64>, String> {
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
        &alloc.outputs,
        operands,
        modulus,
        n0,
    )
}
