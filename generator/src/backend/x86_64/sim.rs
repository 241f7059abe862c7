//! A small simulator of the instruction subset, over virtual or physical registers, so kernels
//! and their allocation are checked against num-bigint without compiling anything.
//!
//! It is stricter than the processor: reading a register never written, a flag an instruction
//! left unusable (OF after `add`, both after `imul` or `sub rsp`) or an unmapped memory word is
//! an error, as are `mulx` with equal destinations, stores outside the stack region, and a
//! physical kernel that leaves `rsp`, `rbx` or `rbp` changed or writes a register it does not
//! declare.

use crate::narrow::lo64;
use std::collections::{HashMap, HashSet};

use super::inst::{AluOp, Inst, Reg, RegName, Src};
use super::program::{Pointer, VProgram};
use super::regalloc::Allocation;

/// Machine state over registers of type `R`.
#[derive(Clone, Debug)]
pub struct Machine<R: RegName> {
    regs: HashMap<R, u64>,
    cf: Option<bool>,
    of: Option<bool>,
    mem: HashMap<u64, u64>,
    /// The writable (stack) address range `[lo, hi)`.
    stack: (u64, u64),
    /// Further writable ranges `[lo, hi)` (scratch buffers).
    writable: Vec<(u64, u64)>,
    /// The stack pointer register, if the code may use the stack.
    sp: Option<R>,
    /// Registers written so far.
    pub written: HashSet<R>,
    /// Instructions executed.
    pub executed: usize,
}

const STACK_TOP: u64 = 0x9000_0000;
const STACK_SIZE: u64 = 0x10_0000;
const MODULUS_AT: u64 = 0x7000_0000;
const SENTINEL: u64 = 0x5a5a_1234_a5a5_4321;

fn operand_address(k: usize) -> u64 {
    0x1000_0000 * (k as u64 + 1)
}

impl<R: RegName> Machine<R> {
    /// An empty machine; `sp` names the stack pointer when the code uses the stack.
    pub fn new(sp: Option<R>) -> Machine<R> {
        let mut m = Machine {
            regs: HashMap::new(),
            cf: None,
            of: None,
            mem: HashMap::new(),
            stack: (STACK_TOP - STACK_SIZE, STACK_TOP),
            writable: Vec::new(),
            sp,
            written: HashSet::new(),
            executed: 0,
        };
        if let Some(sp) = sp {
            m.regs.insert(sp, STACK_TOP);
        }
        m
    }

    /// Sets a register (an input, not counted as written).
    pub fn set(&mut self, r: R, v: u64) {
        self.regs.insert(r, v);
    }

    /// Reads a register.
    pub fn get(&self, r: R) -> Result<u64, String> {
        self.regs
            .get(&r)
            .copied()
            .ok_or_else(|| format!("read of {r:?} before any write"))
    }

    /// Maps `words` at `addr` (read-only unless inside the stack region).
    pub fn map_words(&mut self, addr: u64, words: &[u64]) {
        for (i, w) in words.iter().enumerate() {
            self.mem.insert(addr + 8 * i as u64, *w);
        }
    }

    fn addr(&self, base: R, disp: i32) -> Result<u64, String> {
        let a = self.get(base)?.wrapping_add(disp as i64 as u64);
        if a % 8 != 0 {
            return Err(format!("unaligned address {a:#x}"));
        }
        Ok(a)
    }

    fn load(&self, a: u64) -> Result<u64, String> {
        self.mem
            .get(&a)
            .copied()
            .ok_or_else(|| format!("read of unmapped or unwritten memory {a:#x}"))
    }

    fn store(&mut self, a: u64, v: u64) -> Result<(), String> {
        let in_scratch = self.writable.iter().any(|(lo, hi)| a >= *lo && a < *hi);
        if (a < self.stack.0 || a >= self.stack.1) && !in_scratch {
            return Err(format!("store outside the stack and scratch at {a:#x}"));
        }
        self.mem.insert(a, v);
        Ok(())
    }

    fn src(&self, s: &Src<R>) -> Result<u64, String> {
        match s {
            Src::Reg(r) => self.get(*r),
            Src::Mem(m) => self.load(self.addr(m.base, m.disp)?),
            Src::Imm(i) => Ok(*i as i64 as u64),
        }
    }

    fn write(&mut self, r: R, v: u64) {
        self.regs.insert(r, v);
        self.written.insert(r);
    }

    fn cf(&self) -> Result<bool, String> {
        self.cf.ok_or_else(|| "CF read while unusable".to_string())
    }

    fn of(&self) -> Result<bool, String> {
        self.of.ok_or_else(|| "OF read while unusable".to_string())
    }

    fn sp(&self) -> Result<R, String> {
        self.sp
            .ok_or_else(|| "stack use without a stack pointer".to_string())
    }

    /// Executes one instruction.
    pub fn step(&mut self, inst: &Inst<R>) -> Result<(), String> {
        self.executed += 1;
        inst.validate()?;
        match inst {
            Inst::Mov { dst, src } => {
                let v = self.src(src)?;
                self.write(*dst, v);
            }
            Inst::MovImm { dst, imm } => self.write(*dst, *imm),
            Inst::Store { dst, src } => {
                let a = self.addr(dst.base, dst.disp)?;
                let v = self.get(*src)?;
                self.store(a, v)?;
            }
            Inst::Mulx { hi, lo, src } => {
                if hi == lo {
                    return Err("mulx with equal destinations".into());
                }
                let x = self.get(R::RDX)? as u128 * self.src(src)? as u128;
                self.write(*lo, lo64(x));
                self.write(*hi, (x >> 64) as u64);
            }
            Inst::Alu { op, dst, src } => {
                let s = self.src(src)?;
                let d = self.get(*dst)?;
                let (v, cf, of) = match op {
                    AluOp::Add => {
                        let (v, c) = d.overflowing_add(s);
                        (v, Some(c), None)
                    }
                    AluOp::Adc => {
                        let t = d as u128 + s as u128 + self.cf()? as u128;
                        (lo64(t), Some(t >> 64 != 0), None)
                    }
                    AluOp::Adcx => {
                        let t = d as u128 + s as u128 + self.cf()? as u128;
                        (lo64(t), Some(t >> 64 != 0), self.of)
                    }
                    AluOp::Adox => {
                        let t = d as u128 + s as u128 + self.of()? as u128;
                        (lo64(t), self.cf, Some(t >> 64 != 0))
                    }
                    AluOp::Sub => {
                        let (v, b) = d.overflowing_sub(s);
                        (v, Some(b), None)
                    }
                    AluOp::Sbb => {
                        let bin = self.cf()? as u128;
                        let borrow = (d as u128) < s as u128 + bin;
                        let v = lo64(d as u128 + (1u128 << 64) - s as u128 - bin);
                        (v, Some(borrow), None)
                    }
                    AluOp::Imul => (d.wrapping_mul(s), None, None),
                    AluOp::Cmovc => {
                        let c = self.cf()?;
                        (if c { s } else { d }, self.cf, self.of)
                    }
                    AluOp::Btr => (d & !(1u64 << s), Some((d >> s) & 1 == 1), None),
                    AluOp::Shl => (d << s, None, None),
                    AluOp::Shr => (d >> s, None, None),
                    AluOp::And => (d & s, None, None),
                    AluOp::Or => (d | s, None, None),
                    AluOp::Xor => (d ^ s, None, None),
                };
                self.write(*dst, v);
                self.cf = cf;
                self.of = of;
            }
            Inst::Shld { dst, src, k } => {
                let (d, s) = (self.get(*dst)?, self.get(*src)?);
                self.write(*dst, (d << k) | (s >> (64 - u32::from(*k))));
                self.cf = None;
                self.of = None;
            }
            Inst::Zero { dst } => {
                self.write(*dst, 0);
                self.cf = Some(false);
                self.of = Some(false);
            }
            Inst::Push(r) => {
                let sp = self.sp()?;
                let v = self.get(*r)?;
                let a = self.get(sp)? - 8;
                self.regs.insert(sp, a);
                self.store(a, v)?;
            }
            Inst::Pop(r) => {
                let sp = self.sp()?;
                let a = self.get(sp)?;
                let v = self.load(a)?;
                self.regs.insert(sp, a + 8);
                self.write(*r, v);
            }
            Inst::AllocStack(k) | Inst::FreeStack(k) => {
                let sp = self.sp()?;
                let a = self.get(sp)?;
                let a = if matches!(inst, Inst::AllocStack(_)) {
                    a - *k as u64
                } else {
                    a + *k as u64
                };
                self.regs.insert(sp, a);
                self.cf = None;
                self.of = None;
            }
        }
        Ok(())
    }

    /// Executes every instruction in order.
    pub fn run(&mut self, insts: &[Inst<R>]) -> Result<(), String> {
        for (k, inst) in insts.iter().enumerate() {
            self.step(inst)
                .map_err(|e| format!("instruction {k} ({inst:?}): {e}"))?;
        }
        Ok(())
    }
}

fn map_inputs<R: RegName>(
    m: &mut Machine<R>,
    inputs: &[(R, Pointer)],
    operands: &[&[u64]],
    modulus: &[u64],
) {
    for (r, what) in inputs {
        let addr = match what {
            Pointer::Operand(k) => {
                m.map_words(operand_address(*k), operands[*k]);
                operand_address(*k)
            }
            Pointer::Modulus => {
                m.map_words(MODULUS_AT, modulus);
                MODULUS_AT
            }
            // Field kernels take no scratch: any access faults as unmapped.
            Pointer::Scratch => 0x6000_0000,
        };
        m.set(*r, addr);
    }
}

/// Runs a kernel before allocation on `operands` (limbs, least significant first).
pub fn run_virtual(
    prog: &VProgram,
    operands: &[&[u64]],
    modulus: &[u64],
) -> Result<Vec<u64>, String> {
    let mut m = Machine::new(None);
    map_inputs(&mut m, &prog.inputs, operands, modulus);
    m.run(&prog.insts)?;
    prog.outputs.iter().map(|r| m.get(*r)).collect()
}

/// Runs an allocated kernel as the processor would, checking that it restores `rsp`, `rbx` and
/// `rbp` and writes no register outside [`Allocation::written`].
pub fn run_allocated(
    alloc: &Allocation,
    operands: &[&[u64]],
    modulus: &[u64],
) -> Result<Vec<u64>, String> {
    let mut m = Machine::new(Some(Reg::Rsp));
    m.set(Reg::Rbx, SENTINEL);
    m.set(Reg::Rbp, !SENTINEL);
    map_inputs(&mut m, &alloc.inputs, operands, modulus);
    m.run(&alloc.insts)?;
    if m.get(Reg::Rsp)? != STACK_TOP {
        return Err("rsp not restored".into());
    }
    if m.get(Reg::Rbx)? != SENTINEL || m.get(Reg::Rbp)? != !SENTINEL {
        return Err("rbx or rbp not restored".into());
    }
    for r in &m.written {
        let declared = alloc.written.contains(r) || alloc.saved.contains(r) || *r == Reg::Rsp;
        if !declared {
            return Err(format!("{r} written but not declared"));
        }
    }
    alloc.outputs.iter().map(|r| m.get(*r)).collect()
}

/// A memory region behind a pointer argument, for [`run_virtual_regions`] and
/// [`run_allocated_regions`].
#[derive(Clone, Debug)]
pub struct Region {
    /// The words of the region.
    pub words: Vec<u64>,
    /// The word index inside the region the pointer argument points to.
    pub at: usize,
    /// Whether the kernel may store into it.
    pub writable: bool,
}

fn map_regions<R: RegName>(
    m: &mut Machine<R>,
    inputs: &[(R, Pointer)],
    regions: &[(Pointer, Region)],
) -> Result<Vec<u64>, String> {
    let mut bases = Vec::new();
    for (k, (_, region)) in regions.iter().enumerate() {
        let base = operand_address(k);
        m.map_words(base, &region.words);
        if region.writable {
            m.writable
                .push((base, base + 8 * region.words.len() as u64));
        }
        bases.push(base);
    }
    for (r, what) in inputs {
        let k = regions
            .iter()
            .position(|(p, _)| p == what)
            .ok_or_else(|| format!("no region for pointer {what:?}"))?;
        m.set(*r, bases[k] + 8 * regions[k].1.at as u64);
    }
    Ok(bases)
}

fn read_regions<R: RegName>(
    m: &Machine<R>,
    regions: &[(Pointer, Region)],
    bases: &[u64],
) -> Result<Vec<Vec<u64>>, String> {
    regions
        .iter()
        .zip(bases)
        .map(|((_, region), base)| {
            (0..region.words.len())
                .map(|i| m.load(base + 8 * i as u64))
                .collect()
        })
        .collect()
}

/// Runs a kernel before allocation whose pointer arguments point into `regions` (one per
/// [`Pointer`] it takes); returns every region's words afterwards. Stores outside writable
/// regions and reads outside all regions are errors.
pub fn run_virtual_regions(
    prog: &VProgram,
    regions: &[(Pointer, Region)],
) -> Result<Vec<Vec<u64>>, String> {
    let mut m = Machine::new(None);
    let bases = map_regions(&mut m, &prog.inputs, regions)?;
    m.run(&prog.insts)?;
    read_regions(&m, regions, &bases)
}

/// [`run_virtual_regions`] for an allocated kernel, with the checks of [`run_allocated`]
/// (`rsp`, `rbx`, `rbp` restored; no undeclared register written).
pub fn run_allocated_regions(
    alloc: &Allocation,
    regions: &[(Pointer, Region)],
) -> Result<Vec<Vec<u64>>, String> {
    let mut m = Machine::new(Some(Reg::Rsp));
    m.set(Reg::Rbx, SENTINEL);
    m.set(Reg::Rbp, !SENTINEL);
    let bases = map_regions(&mut m, &alloc.inputs, regions)?;
    m.run(&alloc.insts)?;
    if m.get(Reg::Rsp)? != STACK_TOP {
        return Err("rsp not restored".into());
    }
    if m.get(Reg::Rbx)? != SENTINEL || m.get(Reg::Rbp)? != !SENTINEL {
        return Err("rbx or rbp not restored".into());
    }
    for r in &m.written {
        let declared = alloc.written.contains(r) || alloc.saved.contains(r) || *r == Reg::Rsp;
        if !declared {
            return Err(format!("{r} written but not declared"));
        }
    }
    read_regions(&m, regions, &bases)
}
