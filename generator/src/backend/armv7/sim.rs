//! The semantics of the instruction subset for the shared simulator ([`crate::backend::isa::sim`]),
//! so the kernels and their allocation are checked against num-bigint on the build machine.
//! Inputs are pointers (the constants are p's words and n0'); the result is the start of the
//! accumulator buffer, which must have been stored. Beyond the shared checks, a `umaal` whose
//! results are not in the registers of its inputs and `umull`/`umaal` with equal destination
//! registers (UNPREDICTABLE on ARM) are errors.

use crate::narrow::{fit, lo32};
use std::fmt::Debug;
use std::hash::Hash;

use super::inst::{Armv7, Inst, Opnd};
use super::program::{Input, Layout};
use crate::backend::isa::sim::{buffer_address, constants_address, operand_address, Machine, Sim};
pub use crate::backend::isa::sim::{run_allocated, run_virtual};

impl Sim for Armv7 {
    type Word = u32;

    fn constants(modulus: &[u32], n0: u32) -> Vec<u32> {
        modulus.iter().copied().chain([n0]).collect()
    }

    fn entry(what: Input, _n0: u32) -> u32 {
        match what {
            Input::Operand(k) => operand_address(k),
            Input::Modulus => constants_address(),
            Input::Buffer => buffer_address(),
        }
    }

    fn prepare<R: Copy + Eq + Hash + Debug>(m: &mut Machine<R, u32>, layout: &Layout) {
        m.writable(buffer_address(), layout.buffer_words);
    }

    fn results<R: Copy + Eq + Hash + Debug>(
        m: &Machine<R, u32>,
        _outputs: &[R],
        layout: &Layout,
    ) -> Result<Vec<u32>, String> {
        (0..layout.limbs)
            .map(|j| {
                m.word(buffer_address::<u32>() + fit::<usize, u32>(4 * j))
                    .map_err(|_| format!("result word {j} never stored"))
            })
            .collect()
    }

    fn step<R: Copy + Eq + Hash + Debug>(
        m: &mut Machine<R, u32>,
        inst: &Inst<R>,
        physical: bool,
    ) -> Result<(), String> {
        match *inst {
            Inst::Ldr { dst, base, k } => {
                let v = m.load(base, k)?;
                m.set(dst, v);
            }
            Inst::Str { src, base, k } => {
                let v = m.get(src)?;
                m.store(base, k, v)?;
            }
            Inst::MovZero { dst } => m.set(dst, 0),
            Inst::Shift { left, dst, a, k } => {
                if !(1..32).contains(&k) {
                    return Err(format!("shift by {k}"));
                }
                let x = m.get(a)?;
                m.set(dst, if left { x << k } else { x >> k });
            }
            Inst::Mul { dst, a, b } => {
                let v = m.get(a)?.wrapping_mul(m.get(b)?);
                m.set(dst, v);
            }
            Inst::Umull { lo, hi, a, b } => {
                if lo == hi {
                    return Err("umull with equal destinations".into());
                }
                let v = m.get(a)? as u64 * m.get(b)? as u64;
                m.set(lo, lo32(v));
                m.set(hi, lo32(v >> 32));
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
                let v = m.get(a)? as u64 * m.get(b)? as u64
                    + m.get(lo_in)? as u64
                    + m.get(hi_in)? as u64;
                m.set(lo, lo32(v));
                m.set(hi, lo32(v >> 32));
            }
            Inst::Alu { op, dst, a, b } => {
                let x = m.get(a)?;
                let y = match b {
                    Opnd::Reg(r) => m.get(r)?,
                    Opnd::Imm(k) => k.into(),
                };
                let v = op.execute(m, x, y)?;
                m.set(dst, v);
            }
        }
        Ok(())
    }
}
