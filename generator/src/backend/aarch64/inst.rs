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
            Inst::CsetCond { dst, cond, mask } => Inst::CsetCond {
                dst: f(dst),
                cond,
                mask,
            },
            Inst::Movz { dst, imm, shift } => Inst::Movz {
                dst: f(dst),
                imm,
                shift,
            },
            Inst::Movn { dst, imm, shift } => Inst::Movn {
                dst: f(dst),
                imm,
                shift,
            },
            Inst::Movk {
                dst,
                src,
                imm,
                shift,
            } => Inst::Movk {
                src: f(src),
                dst: f(dst),
                imm,
                shift,
            },
            Inst::Logic { op, dst, a, b } => Inst::Logic {
                op,
                a: f(a),
                b: f(b),
                dst: f(dst),
            },
            Inst::Mvn { dst, a } => Inst::Mvn {
                a: f(a),
                dst: f(dst),
            },
            Inst::Neg { dst, a } => Inst::Neg {
                a: f(a),
                dst: f(dst),
            },
            Inst::Shift { left, dst, a, k } => Inst::Shift {
                left,
                a: f(a),
                dst: f(dst),
                k,
            },
        }
    }
}

/// A condition on C: `cs` (C = 1) or `cc` (C = 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    /// C = 1 (`cs`, also spelled `hs`).
    Cs,
    /// C = 0 (`cc`, also spelled `lo`).
    Cc,
}

impl Cond {
    /// The condition code.
    pub fn text(self) -> &'static str {
        match self {
            Cond::Cs => "cs",
            Cond::Cc => "cc",
        }
    }

    /// Whether the condition holds for carry flag `c`.
    pub fn holds(self, c: bool) -> bool {
        match self {
            Cond::Cs => c,
            Cond::Cc => !c,
        }
    }
}

/// A bitwise operation on two registers; flags unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LogicOp {
    /// `and`.
    And,
    /// `orr`.
    Orr,
    /// `eor`.
    Eor,
}

impl LogicOp {
    /// The mnemonic.
    pub fn mnemonic(self) -> &'static str {
        match self {
            LogicOp::And => "and",
            LogicOp::Orr => "orr",
            LogicOp::Eor => "eor",
        }
    }

    /// `a op b`.
    pub fn apply(self, a: u64, b: u64) -> u64 {
        match self {
            LogicOp::And => a & b,
            LogicOp::Orr => a | b,
            LogicOp::Eor => a ^ b,
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
///
/// Field names follow the operand order of the assembly: `dst` is the register written, `a` and
/// `b` the first and second source, `base` a register holding a limb array's address, `k` a
/// word index or shift count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Inst<R> {
    /// `ldr dst, [base, #8k]`.
    Ldr {
        /// The register loaded.
        dst: R,
        /// The address of the limb array.
        base: R,
        /// The index of the word loaded (byte offset 8·k).
        k: u32,
    },
    /// `ldp d0, d1, [base, #8k]`: words k and k + 1.
    Ldp {
        /// The registers loaded: word k, then word k + 1.
        dst: [R; 2],
        /// The address of the limb array.
        base: R,
        /// The index of the first word loaded (byte offset 8·k).
        k: u32,
    },
    /// `mul dst, a, b`: the low word of a·b. Flags unchanged.
    Mul {
        /// The low word of the product.
        dst: R,
        /// The first factor.
        a: R,
        /// The second factor.
        b: R,
    },
    /// `umulh dst, a, b`: the high word of a·b. Flags unchanged.
    Umulh {
        /// The high word of the product.
        dst: R,
        /// The first factor.
        a: R,
        /// The second factor.
        b: R,
    },
    /// `op dst, a, b`; a `dst` of `None` is `xzr` (only the flags are kept).
    Alu {
        /// The operation; [`AluOp`] says which read C and which set it.
        op: AluOp,
        /// The result register, or `None` for `xzr`.
        dst: Option<R>,
        /// The first operand.
        a: Opnd<R>,
        /// The second operand (subtracted, for the subtractions).
        b: Opnd<R>,
    },
    /// `cmp a, #1`: C = 1 exactly when a ≠ 0.
    CmpOne {
        /// The register compared with 1.
        a: R,
    },
    /// `cset dst, cs`: dst ← C.
    Cset {
        /// The register that receives C (0 or 1).
        dst: R,
    },
    /// `csel dst, a, b, cs`: dst ← a when C = 1, else b; constant time.
    Csel {
        /// The register written.
        dst: R,
        /// The value taken when C = 1.
        a: R,
        /// The value taken when C = 0.
        b: R,
    },
    /// `cset dst, cond` (dst ← 1 when `cond` holds, else 0), or `csetm dst, cond` when `mask`
    /// (all ones or 0).
    CsetCond {
        /// The register written.
        dst: R,
        /// The condition on C.
        cond: Cond,
        /// `csetm` (all ones when `cond` holds) instead of `cset` (1).
        mask: bool,
    },
    /// `movz dst, #imm, lsl #shift`: dst ← imm·2^shift.
    Movz {
        /// The register written.
        dst: R,
        /// The 16-bit immediate.
        imm: u16,
        /// The left shift of the immediate in bits: 0, 16, 32 or 48.
        shift: u8,
    },
    /// `movn dst, #imm, lsl #shift`: dst ← NOT (imm·2^shift).
    Movn {
        /// The register written.
        dst: R,
        /// The 16-bit immediate, inverted after the shift.
        imm: u16,
        /// The left shift of the immediate in bits: 0, 16, 32 or 48.
        shift: u8,
    },
    /// `movk dst, #imm, lsl #shift`: src with bits shift..shift + 16 replaced by imm; dst and src
    /// share a register.
    Movk {
        /// The register written (the same register as `src` after allocation).
        dst: R,
        /// The value whose other bits are kept.
        src: R,
        /// The 16-bit immediate inserted.
        imm: u16,
        /// The bit position of the inserted immediate: 0, 16, 32 or 48.
        shift: u8,
    },
    /// `op dst, a, b` for a bitwise `op`; flags unchanged.
    Logic {
        /// The bitwise operation.
        op: LogicOp,
        /// The register written.
        dst: R,
        /// The first operand.
        a: R,
        /// The second operand.
        b: R,
    },
    /// `mvn dst, a`: NOT a.
    Mvn {
        /// The register written.
        dst: R,
        /// The operand inverted.
        a: R,
    },
    /// `neg dst, a`: 0 − a mod 2^64; flags unchanged.
    Neg {
        /// The register written.
        dst: R,
        /// The operand negated.
        a: R,
    },
    /// `lsl dst, a, #k` (`left`) or `lsr dst, a, #k`, 0 < k < 64.
    Shift {
        /// `lsl` when true, `lsr` when false.
        left: bool,
        /// The register written.
        dst: R,
        /// The operand shifted.
        a: R,
        /// The shift count in bits, 0 < k < 64.
        k: u32,
    },
}

impl<R: Copy + Eq> Inst<R> {
    /// Whether the instruction reads C.
    pub fn reads_carry(&self) -> bool {
        match self {
            Inst::Alu { op, .. } => op.reads_carry(),
            Inst::Cset { .. } | Inst::Csel { .. } | Inst::CsetCond { .. } => true,
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
            Inst::CmpOne { a }
            | Inst::Mvn { a, .. }
            | Inst::Neg { a, .. }
            | Inst::Shift { a, .. } => vec![*a],
            Inst::Logic { a, b, .. } => vec![*a, *b],
            Inst::Movk { src, .. } => vec![*src],
            Inst::Cset { .. } | Inst::CsetCond { .. } | Inst::Movz { .. } | Inst::Movn { .. } => {
                vec![]
            }
        }
    }

    /// Registers written.
    fn writes(&self) -> Vec<R> {
        match self {
            Inst::Ldr { dst, .. }
            | Inst::Mul { dst, .. }
            | Inst::Umulh { dst, .. }
            | Inst::Cset { dst }
            | Inst::Csel { dst, .. }
            | Inst::CsetCond { dst, .. }
            | Inst::Movz { dst, .. }
            | Inst::Movn { dst, .. }
            | Inst::Movk { dst, .. }
            | Inst::Logic { dst, .. }
            | Inst::Mvn { dst, .. }
            | Inst::Neg { dst, .. }
            | Inst::Shift { dst, .. } => vec![*dst],
            Inst::Ldp { dst, .. } => dst.to_vec(),
            Inst::Alu { dst, .. } => dst.iter().copied().collect(),
            Inst::CmpOne { .. } => vec![],
        }
    }

    /// `movk` updates its source register in place.
    fn ties(&self) -> Vec<(R, R)> {
        match self {
            Inst::Movk { dst, src, .. } => vec![(*dst, *src)],
            _ => Vec::new(),
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
            Inst::CsetCond { dst, cond, mask } => {
                let m = if *mask { "csetm" } else { "cset" };
                format!("{m} {dst}, {}", cond.text())
            }
            Inst::Movz { dst, imm, shift } => format!("movz {dst}, #{imm}, lsl #{shift}"),
            Inst::Movn { dst, imm, shift } => format!("movn {dst}, #{imm}, lsl #{shift}"),
            Inst::Movk {
                dst, imm, shift, ..
            } => format!("movk {dst}, #{imm}, lsl #{shift}"),
            Inst::Logic { op, dst, a, b } => format!("{} {dst}, {a}, {b}", op.mnemonic()),
            Inst::Mvn { dst, a } => format!("mvn {dst}, {a}"),
            Inst::Neg { dst, a } => format!("neg {dst}, {a}"),
            Inst::Shift { left, dst, a, k } => {
                let m = if *left { "lsl" } else { "lsr" };
                format!("{m} {dst}, {a}, #{k}")
            }
        }
    }
}
