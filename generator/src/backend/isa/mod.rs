//! What the assembly backends share, written once behind the [`Isa`] trait: a kernel before
//! allocation ([`VProgram`], written by [`Builder`]), a kernel after it ([`Allocation`]), the
//! linear-scan allocator ([`regalloc`]), the simulator's machine state and run loop ([`sim`]) and
//! the `asm!` operand list ([`asm`]), and the ALU operations of the two ARM targets ([`arm`]).
//!
//! An ISA supplies its registers, its instructions as values generic over the register type
//! (virtual values before allocation, physical registers after) with their reads, writes and
//! tied operands ([`Operands`]), and, for the simulator, the semantics of one instruction.

pub mod arm;
pub mod asm;
pub mod regalloc;
pub mod schedule;
pub mod sim;

use std::fmt::{Debug, Display};
use std::hash::Hash;

use crate::spec::FieldConsts;
use crate::strategy::MulAlgorithm;

/// Why a target's kernels (CIOS on `bits`-bit limbs, up to `max_limbs` limbs) cannot be
/// emitted for this field and algorithm, if they cannot; `name` is the target's name.
pub fn unsupported(
    name: &str,
    bits: u32,
    max_limbs: usize,
    c: &FieldConsts,
    alg: MulAlgorithm,
) -> Option<String> {
    if c.w() != bits {
        Some(format!("the {name} kernels use {bits}-bit limbs"))
    } else if c.limbs > max_limbs {
        Some(format!(
            "the {name} kernels go up to {max_limbs} limbs ({} bits); this modulus has {} limbs",
            bits as usize * max_limbs,
            c.limbs
        ))
    } else if !alg.is_cios() {
        Some(format!(
            "the {name} multiplication is CIOS; there is no {} kernel",
            alg.name()
        ))
    } else {
        None
    }
}

/// A virtual value: defined once, read until its last use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct V(pub u32);

/// The register type of a kernel before allocation.
pub trait Value: Copy + Eq + Ord + Hash + Debug {
    /// Virtual value number `k`.
    fn nth(k: u32) -> Self;
}

impl Value for V {
    fn nth(k: u32) -> V {
        V(k)
    }
}

/// The registers an instruction reads and writes, over either register type.
pub trait Operands<R> {
    /// Registers read (memory bases and implicit operands included).
    fn reads(&self) -> Vec<R>;
    /// Registers written.
    fn writes(&self) -> Vec<R>;
    /// Pairs (result, input) that must share one register; the input dies at the instruction.
    fn ties(&self) -> Vec<(R, R)> {
        Vec::new()
    }
    /// Whether a register freed by an operand dying here may hold a result (every instruction
    /// reads its operands before writing, except those whose address base must survive).
    fn results_may_reuse_operands(&self) -> bool {
        true
    }
    /// Whether this is a multiplication (for the counts in the generated docs).
    fn is_multiply(&self) -> bool;
}

/// An instruction set: registers, instructions and what a kernel's inputs hold.
pub trait Isa: Sized + 'static {
    /// A physical register.
    type Reg: Copy + Ord + Hash + Debug + Display;
    /// A register before allocation.
    type Value: Value;
    /// What an input register holds on entry.
    type Input: Copy + Eq + Debug;
    /// What a kernel carries besides its values (a result buffer's size; `()` when results are
    /// registers).
    type Layout: Copy + Debug;
    /// One instruction over registers of type `R`.
    type Inst<R: Copy + Debug>: Copy + Debug;

    /// The registers a kernel may use, in allocation order.
    fn registers() -> Vec<Self::Reg>;

    /// `inst` with every register passed through `f`.
    fn map<R: Copy + Eq + Debug, S: Copy + Eq + Debug>(
        inst: &Self::Inst<R>,
        f: impl FnMut(R) -> S,
    ) -> Self::Inst<S>;
}

/// A kernel over virtual values.
#[derive(Clone, Debug)]
pub struct VProgram<I: Isa> {
    /// The instructions, in order.
    pub insts: Vec<I::Inst<I::Value>>,
    /// Inputs: the value holding each on entry.
    pub inputs: Vec<(I::Value, I::Input)>,
    /// The result values, least significant first (none when results go to memory).
    pub outputs: Vec<I::Value>,
    /// What the kernel carries besides its values.
    pub layout: I::Layout,
    /// Number of virtual values.
    pub num_values: u32,
}

impl<I: Isa> VProgram<I>
where
    I::Inst<I::Value>: Operands<I::Value>,
{
    /// Multiplication instructions.
    pub fn multiplies(&self) -> usize {
        self.insts.iter().filter(|i| i.is_multiply()).count()
    }
}

/// A kernel after allocation.
#[derive(Clone, Debug)]
pub struct Allocation<I: Isa> {
    /// The instructions.
    pub insts: Vec<I::Inst<I::Reg>>,
    /// The register of each input on entry, and what it holds.
    pub inputs: Vec<(I::Reg, I::Input)>,
    /// The register of each result on exit.
    pub outputs: Vec<I::Reg>,
    /// As in the program.
    pub layout: I::Layout,
    /// Registers the code writes.
    pub written: std::collections::BTreeSet<I::Reg>,
    /// The most registers live at once.
    pub pressure: usize,
}

/// Writes a [`VProgram`]; each ISA adds its instructions in an `impl Builder<Isa>`.
#[derive(Debug)]
pub struct Builder<I: Isa> {
    insts: Vec<I::Inst<I::Value>>,
    inputs: Vec<(I::Value, I::Input)>,
    next: u32,
}

impl<I: Isa> Default for Builder<I> {
    fn default() -> Self {
        Builder {
            insts: Vec::new(),
            inputs: Vec::new(),
            next: 0,
        }
    }
}

impl<I: Isa> Builder<I> {
    /// An empty kernel.
    pub fn new() -> Self {
        Self::default()
    }

    /// A new value.
    pub fn fresh(&mut self) -> I::Value {
        let v = I::Value::nth(self.next);
        self.next += 1;
        v
    }

    /// Declares an input and returns the value holding it.
    pub fn input(&mut self, what: I::Input) -> I::Value {
        let v = self.fresh();
        self.inputs.push((v, what));
        v
    }

    /// Appends an instruction.
    pub fn push(&mut self, inst: I::Inst<I::Value>) {
        self.insts.push(inst);
    }

    /// Appends the instruction `f(v)` defining a new value `v`, and returns `v`.
    pub fn def(&mut self, f: impl FnOnce(I::Value) -> I::Inst<I::Value>) -> I::Value {
        let v = self.fresh();
        self.insts.push(f(v));
        v
    }

    /// Finishes the kernel.
    pub fn finish_with(self, outputs: Vec<I::Value>, layout: I::Layout) -> VProgram<I> {
        VProgram {
            insts: self.insts,
            inputs: self.inputs,
            outputs,
            layout,
            num_values: self.next,
        }
    }
}

impl<I: Isa<Layout = ()>> Builder<I> {
    /// Finishes a kernel whose results are the values `outputs`.
    pub fn finish(self, outputs: Vec<I::Value>) -> VProgram<I> {
        self.finish_with(outputs, ())
    }
}
