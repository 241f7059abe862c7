//! The semantics of the instruction subset for the shared simulator ([`crate::backend::isa::sim`]),
//! so the kernels and their allocation are checked against num-bigint without an AArch64
//! machine. Inputs are the operand and modulus pointers and n0' in a register; results are
//! registers.

use std::fmt::Debug;
use std::hash::Hash;

use super::inst::{Aarch64, Inst, Opnd};
use super::program::Input;
use crate::backend::isa::sim::{constants_address, operand_address, Machine, Sim};
pub use crate::backend::isa::sim::{run_allocated, run_virtual};

fn opnd<R: Copy + Eq + Hash + Debug>(m: &Machine<R, u64>, o: Opnd<R>) -> Result<u64, String> {
    match o {
        Opnd::Reg(r) => m.get(r),
        Opnd::Zero => Ok(0),
    }
}

impl Sim for Aarch64 {
    type Word = u64;

    fn constants(modulus: &[u64], _n0: u64) -> Vec<u64> {
        modulus.to_vec()
    }

    fn entry(what: Input, n0: u64) -> u64 {
        match what {
            Input::Operand(k) => operand_address(k),
            Input::Modulus => constants_address(),
            Input::N0 => n0,
        }
    }

    fn step<R: Copy + Eq + Hash + Debug>(
        m: &mut Machine<R, u64>,
        inst: &Inst<R>,
        physical: bool,
    ) -> Result<(), String> {
        match *inst {
            Inst::Ldr { dst, base, k } => {
                let v = m.load(base, k)?;
                m.set(dst, v);
            }
            Inst::Ldp { dst, base, k } => {
                if dst[0] == dst[1] {
                    return Err("ldp with equal destinations".into());
                }
                let (x, y) = (m.load(base, k)?, m.load(base, k + 1)?);
                m.set(dst[0], x);
                m.set(dst[1], y);
            }
            Inst::Mul { dst, a, b } => {
                let v = m.get(a)?.wrapping_mul(m.get(b)?);
                m.set(dst, v);
            }
            Inst::Umulh { dst, a, b } => {
                let v = ((m.get(a)? as u128 * m.get(b)? as u128) >> 64) as u64;
                m.set(dst, v);
            }
            Inst::Alu { op, dst, a, b } => {
                let (x, y) = (opnd(m, a)?, opnd(m, b)?);
                let v = op.execute(m, x, y)?;
                if let Some(d) = dst {
                    m.set(d, v);
                }
            }
            Inst::CmpOne { a } => {
                let c = m.get(a)? >= 1;
                m.set_carry(c);
            }
            Inst::Cset { dst } => {
                let v = m.carry()? as u64;
                m.set(dst, v);
            }
            Inst::Csel { dst, a, b } => {
                let v = if m.carry()? { m.get(a)? } else { m.get(b)? };
                m.set(dst, v);
            }
            Inst::CsetCond { dst, cond, mask } => {
                let v = u64::from(cond.holds(m.carry()?));
                m.set(dst, if mask { v.wrapping_neg() } else { v });
            }
            Inst::Movz { dst, imm, shift } => m.set(dst, u64::from(imm) << shift),
            Inst::Movn { dst, imm, shift } => m.set(dst, !(u64::from(imm) << shift)),
            Inst::Movk {
                dst,
                src,
                imm,
                shift,
            } => {
                if physical && dst != src {
                    return Err("movk with different source and destination".into());
                }
                let v = m.get(src)? & !(0xffffu64 << shift) | u64::from(imm) << shift;
                m.set(dst, v);
            }
            Inst::Logic { op, dst, a, b } => {
                let v = op.apply(m.get(a)?, m.get(b)?);
                m.set(dst, v);
            }
            Inst::Mvn { dst, a } => {
                let v = !m.get(a)?;
                m.set(dst, v);
            }
            Inst::Neg { dst, a } => {
                let v = m.get(a)?.wrapping_neg();
                m.set(dst, v);
            }
            Inst::Shift { left, dst, a, k } => {
                if k == 0 || k >= 64 {
                    return Err(format!("shift by {k}"));
                }
                let x = m.get(a)?;
                m.set(dst, if left { x << k } else { x >> k });
            }
        }
        Ok(())
    }
}
