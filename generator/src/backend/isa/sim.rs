//! The simulator's shared part: machine state (registers, the carry flag, word memory), the
//! memory layout of a kernel's arguments, and the run loop over a kernel before or after
//! allocation. An ISA supplies the semantics of one instruction ([`Sim::step`]), what its inputs
//! hold and where its results are.
//!
//! It is stricter than a processor: reading a register never written, C before any instruction
//! set it, a word outside the mapped arrays or not yet stored, or a store outside the writable
//! region is an error, and so is an allocated kernel writing a register it does not declare.

use crate::narrow::lo32;
use std::collections::HashMap;
use std::fmt::{Debug, LowerHex};
use std::hash::Hash;

use super::{Allocation, Isa, Operands, VProgram};

/// A machine word.
pub trait Word: Copy + Eq + Hash + Debug + LowerHex {
    /// Bytes in a word.
    const BYTES: u64;
    /// The low bits of `x`.
    fn from_u64(x: u64) -> Self;
    /// The word as an integer.
    fn to_u64(self) -> u64;
}

impl Word for u64 {
    const BYTES: u64 = 8;
    fn from_u64(x: u64) -> u64 {
        x
    }
    fn to_u64(self) -> u64 {
        self
    }
}

impl Word for u32 {
    const BYTES: u64 = 4;
    fn from_u64(x: u64) -> u32 {
        lo32(x)
    }
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
}

/// Where the `k`-th operand array is mapped.
pub fn operand_address<W: Word>(k: usize) -> W {
    W::from_u64(0x1000_0000 * (k as u64 + 1))
}

/// Where the constants (the modulus, then whatever the ISA adds) are mapped.
pub fn constants_address<W: Word>() -> W {
    W::from_u64(0x7000_0000)
}

/// Where a writable buffer is mapped.
pub fn buffer_address<W: Word>() -> W {
    W::from_u64(0x8000_0000)
}

/// Registers, the carry flag and memory, over registers of type `R`.
#[derive(Clone, Debug)]
pub struct Machine<R, W> {
    regs: HashMap<R, W>,
    c: Option<bool>,
    mem: HashMap<W, W>,
    /// The writable range `[lo, hi)` of addresses.
    writable: Option<(u64, u64)>,
}

impl<R: Copy + Eq + Hash + Debug, W: Word> Machine<R, W> {
    /// A machine with `operands` and `constants` mapped (read-only) and nothing writable.
    pub fn new(operands: &[&[W]], constants: &[W]) -> Self {
        let mut m = Machine {
            regs: HashMap::new(),
            c: None,
            mem: HashMap::new(),
            writable: None,
        };
        for (k, op) in operands.iter().enumerate() {
            m.map_words(operand_address(k), op);
        }
        m.map_words(constants_address(), constants);
        m
    }

    fn offset(at: W, k: u64) -> W {
        W::from_u64(at.to_u64().wrapping_add(k * W::BYTES))
    }

    fn map_words(&mut self, at: W, words: &[W]) {
        for (j, w) in words.iter().enumerate() {
            self.mem.insert(Self::offset(at, j as u64), *w);
        }
    }

    /// Makes `words` words from `at` writable (and unmapped until stored).
    pub fn writable(&mut self, at: W, words: usize) {
        let lo = at.to_u64();
        self.writable = Some((lo, lo + words as u64 * W::BYTES));
    }

    /// Reads a register.
    pub fn get(&self, r: R) -> Result<W, String> {
        self.regs
            .get(&r)
            .copied()
            .ok_or_else(|| format!("{r:?} read before it was written"))
    }

    /// Writes a register.
    pub fn set(&mut self, r: R, v: W) {
        self.regs.insert(r, v);
    }

    /// Reads C.
    pub fn carry(&self) -> Result<bool, String> {
        self.c.ok_or_else(|| "C read before it was set".to_string())
    }

    /// Sets C.
    pub fn set_carry(&mut self, c: bool) {
        self.c = Some(c);
    }

    /// The word at address `at`.
    pub fn word(&self, at: W) -> Result<W, String> {
        self.mem
            .get(&at)
            .copied()
            .ok_or_else(|| format!("load from unmapped or unwritten address {at:#x}"))
    }

    /// Word `k` behind the pointer in `base`.
    pub fn load(&self, base: R, k: u32) -> Result<W, String> {
        self.word(Self::offset(self.get(base)?, k.into()))
    }

    /// Stores `v` at word `k` behind the pointer in `base`, inside the writable range.
    pub fn store(&mut self, base: R, k: u32, v: W) -> Result<(), String> {
        let at = Self::offset(self.get(base)?, k.into());
        match self.writable {
            Some((lo, hi)) if (lo..hi).contains(&at.to_u64()) => {
                self.mem.insert(at, v);
                Ok(())
            }
            _ => Err(format!("store outside the writable buffer at {at:#x}")),
        }
    }
}

/// The simulated semantics of an ISA.
pub trait Sim: Isa {
    /// The machine word.
    type Word: Word;

    /// The constants mapped at [`constants_address`]: the modulus and whatever else the
    /// kernels read from memory.
    fn constants(modulus: &[Self::Word], n0: Self::Word) -> Vec<Self::Word>;

    /// The value of an input register on entry.
    fn entry(what: Self::Input, n0: Self::Word) -> Self::Word;

    /// Prepares memory the kernel writes, if any.
    fn prepare<R: Copy + Eq + Hash + Debug>(
        _m: &mut Machine<R, Self::Word>,
        _layout: &Self::Layout,
    ) {
    }

    /// The result words on exit: the output registers, or memory.
    fn results<R: Copy + Eq + Hash + Debug>(
        m: &Machine<R, Self::Word>,
        outputs: &[R],
        _layout: &Self::Layout,
    ) -> Result<Vec<Self::Word>, String> {
        outputs.iter().map(|r| m.get(*r)).collect()
    }

    /// Executes one instruction; `physical` when registers are allocated (checks of register
    /// constraints the virtual code cannot violate).
    fn step<R: Copy + Eq + Hash + Debug>(
        m: &mut Machine<R, Self::Word>,
        inst: &Self::Inst<R>,
        physical: bool,
    ) -> Result<(), String>;
}

#[allow(clippy::too_many_arguments)]
fn run<I: Sim, R: Copy + Eq + Hash + Debug>(
    insts: &[I::Inst<R>],
    inputs: &[(R, I::Input)],
    outputs: &[R],
    layout: &I::Layout,
    operands: &[&[I::Word]],
    modulus: &[I::Word],
    n0: I::Word,
    physical: bool,
) -> Result<Vec<I::Word>, String> {
    let mut m = Machine::new(operands, &I::constants(modulus, n0));
    I::prepare(&mut m, layout);
    for (r, what) in inputs {
        m.set(*r, I::entry(*what, n0));
    }
    for inst in insts {
        I::step(&mut m, inst, physical)?;
    }
    I::results(&m, outputs, layout)
}

/// Runs a kernel before allocation on `operands` (limbs, least significant first).
pub fn run_virtual<I: Sim>(
    prog: &VProgram<I>,
    operands: &[&[I::Word]],
    modulus: &[I::Word],
    n0: I::Word,
) -> Result<Vec<I::Word>, String> {
    run::<I, I::Value>(
        &prog.insts,
        &prog.inputs,
        &prog.outputs,
        &prog.layout,
        operands,
        modulus,
        n0,
        false,
    )
}

/// Runs an allocated kernel; also checks that it writes only the registers it declares.
pub fn run_allocated<I: Sim>(
    alloc: &Allocation<I>,
    operands: &[&[I::Word]],
    modulus: &[I::Word],
    n0: I::Word,
) -> Result<Vec<I::Word>, String>
where
    I::Inst<I::Reg>: Operands<I::Reg>,
{
    for inst in &alloc.insts {
        for r in inst.writes() {
            if !alloc.written.contains(&r) {
                return Err(format!("{r} written but not declared"));
            }
        }
    }
    run::<I, I::Reg>(
        &alloc.insts,
        &alloc.inputs,
        &alloc.outputs,
        &alloc.layout,
        operands,
        modulus,
        n0,
        true,
    )
}
