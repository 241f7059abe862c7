//! AArch64 instructions as values, generic over the register type: virtual values ([`V`])
//! before allocation, [`Reg`] after it. Text is produced only by [`Inst::text`], at the end.
//!
//! Every instruction defines fresh values (static single assignment): a value is written once
//! and read until its last use, so its live range is one interval.

use std::fmt;

/// A 64-bit general-purpose register `x0`..`x30`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg(pub u8);

impl Reg {
    /// The assembler name.
    pub fn name(self) -> String {
        format!("x{}", self.0)
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.0)
    }
}

pub use crate::backend::isa::arm::AluOp;
pub use crate::backend::isa::V;
use crate::backend::isa::{Isa, Operands};

/// The instruction set, for the shared builder, allocator, simulator and printer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aarch64;

impl Isa for Aarch64 {
    type Reg = Reg;
    type Value = V;
    type Input = super::program::Input;
    type Layout = ();
    type Inst<R: Copy + fmt::Debug> = Inst<R>;

    /// Allocation order: caller-saved first, then callee-saved (saved by the compiler around
    /// the block when used), then the link register. Not `x18` (the platform register on some
    /// systems), `x19` (reserved by LLVM), `x29` (frame pointer) or `sp`.
    fn registers() -> Vec<Reg> {
        (0..=17).chain(20..=28).chain([30]).map(Reg).collect()
    }

    fn map<R: Copy + Eq + fmt::Debug, S: Copy + Eq + fmt::Debug>(
        inst: &Inst<R>,
        mut f: impl FnMut(R) -> S,
    ) -> Inst<S> {
        let o = |x: Opnd<R>, f: &mut dyn FnMut(R) -> S| match x {
            Opnd::Reg(r) => Opnd::Reg(f(r)),
            Opnd::Zero => Opnd::Zero,
        };
        match *inst {
            Inst::Ldr { dst, base, k } => Inst::Ldr {
                base: f(base),
                dst: f(dst),
                k,
            },
            Inst::Ldp { dst, base, k } => Inst::Ldp {
                base: f(base),
                dst: [f(dst[0]), f(dst[1])],
                k,
            },
            Inst::Mul { dst, a, b } => Inst::Mul {
                a: f(a),
                b: f(b),
                dst: f(dst),
            },
            Inst::Umulh { dst, a, b } => Inst::Umulh {
                a: f(a),
                b: f(b),
                dst: f(dst),
            },
            Inst::Alu { op, dst, a, b } => {
                let a = o(a, &mut f);
                let b = o(b, &mut f);
                Inst::Alu {
                    op,
                    dst: dst.map(&mut f),
                    a,
                    b,
                }
            }
            Inst::CmpOne { a } => Inst::CmpOne { a: f(a) },
            Inst::Cset { dst } => Inst::Cset { dst: f(dst) },
            Inst::Csel { dst, a, b } => Inst::Csel {
                a: f(a),
                b: f(b),
                dst: f(dst),
            },
        }
    }
}

/// A source operand: a register or the zero register `xzr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opnd<R> {
    /// A register.
    Reg(R),
    /// `xzr`, reads as 0.
    Zero,
}

/// One instruction over registers of type `R`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Inst<R> {
    /// `ldr dst, [base, #8k]`.
    Ldr { dst: R, base: R, k: u32 },
    /// `ldp d0, d1, [base, #8k]`: words k and k + 1.
    Ldp { dst: [R; 2], base: R, k: u32 },
    /// `mul dst, a, b`: the low word of a·b. Flags unchanged.
    Mul { dst: R, a: R, b: R },
    /// `umulh dst, a, b`: the high word of a·b. Flags unchanged.
    Umulh { dst: R, a: R, b: R },
    /// `op dst, a, b`; a `dst` of `None` is `xzr` (only the flags are kept).
    Alu {
        op: AluOp,
        dst: Option<R>,
        a: Opnd<R>,
        b: Opnd<R>,
    },
    /// `cmp a, #1`: C = 1 exactly when a ≠ 0.
    CmpOne { a: R },
    /// `cset dst, cs`: dst ← C.
    Cset { dst: R },
    /// `csel dst, a, b, cs`: dst ← a when C = 1, else b; constant time.
    Csel { dst: R, a: R, b: R },
}

impl<R: Copy + Eq> Inst<R> {
    /// Whether the instruction reads C.
    pub fn reads_carry(&self) -> bool {
        match self {
            Inst::Alu { op, .. } => op.reads_carry(),
            Inst::Cset { .. } | Inst::Csel { .. } => true,
            _ => false,
        }
    }

    /// Whether the instruction sets C.
    pub fn sets_carry(&self) -> bool {
        match self {
            Inst::Alu { op, .. } => op.sets_carry(),
            Inst::CmpOne { .. } => true,
            _ => false,
        }
    }
}

impl<R: Copy + Eq> Operands<R> for Inst<R> {
    /// Registers read.
    fn reads(&self) -> Vec<R> {
        let o = |x: &Opnd<R>| match x {
            Opnd::Reg(r) => Some(*r),
            Opnd::Zero => None,
        };
        match self {
            Inst::Ldr { base, .. } | Inst::Ldp { base, .. } => vec![*base],
            Inst::Mul { a, b, .. } | Inst::Umulh { a, b, .. } | Inst::Csel { a, b, .. } => {
                vec![*a, *b]
            }
            Inst::Alu { a, b, .. } => o(a).into_iter().chain(o(b)).collect(),
            Inst::CmpOne { a } => vec![*a],
            Inst::Cset { .. } => vec![],
        }
    }

    /// Registers written.
    fn writes(&self) -> Vec<R> {
        match self {
            Inst::Ldr { dst, .. }
            | Inst::Mul { dst, .. }
            | Inst::Umulh { dst, .. }
            | Inst::Cset { dst }
            | Inst::Csel { dst, .. } => vec![*dst],
            Inst::Ldp { dst, .. } => dst.to_vec(),
            Inst::Alu { dst, .. } => dst.iter().copied().collect(),
            Inst::CmpOne { .. } => vec![],
        }
    }

    /// Whether this is `mul` or `umulh`.
    fn is_multiply(&self) -> bool {
        matches!(self, Inst::Mul { .. } | Inst::Umulh { .. })
    }

    /// `ldp`'s destinations never reuse its base register.
    fn results_may_reuse_operands(&self) -> bool {
        !matches!(self, Inst::Ldp { .. })
    }
}

fn opnd_text(o: &Opnd<Reg>) -> String {
    match o {
        Opnd::Reg(r) => r.name(),
        Opnd::Zero => "xzr".into(),
    }
}

fn offset_text(base: Reg, k: u32) -> String {
    crate::backend::isa::asm::word_address(base, k, 8)
}

impl Inst<Reg> {
    /// The instruction as one line of an `asm!` template.
    pub fn text(&self) -> String {
        match self {
            Inst::Ldr { dst, base, k } => format!("ldr {dst}, {}", offset_text(*base, *k)),
            Inst::Ldp { dst, base, k } => {
                format!("ldp {}, {}, {}", dst[0], dst[1], offset_text(*base, *k))
            }
            Inst::Mul { dst, a, b } => format!("mul {dst}, {a}, {b}"),
            Inst::Umulh { dst, a, b } => format!("umulh {dst}, {a}, {b}"),
            Inst::Alu { op, dst, a, b } => format!(
                "{} {}, {}, {}",
                op.mnemonic(),
                dst.map(|d| d.name()).unwrap_or_else(|| "xzr".into()),
                opnd_text(a),
                opnd_text(b)
            ),
            Inst::CmpOne { a } => format!("cmp {a}, #1"),
            Inst::Cset { dst } => format!("cset {dst}, cs"),
            Inst::Csel { dst, a, b } => format!("csel {dst}, {a}, {b}, cs"),
        }
    }
}
