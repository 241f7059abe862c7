//! ARMv7 (A32/T32 unified syntax) instructions as values, generic over the register type:
//! virtual values ([`V`]) before allocation, [`Reg`] after it. Text is produced only by
//! [`Inst::text`], at the end.
//!
//! Values are single-assignment. `umaal` reads and overwrites its two accumulator registers, so
//! it names the incoming values (`lo_in`, `hi_in`) and the results (`lo`, `hi`) separately;
//! the allocator gives each result the register of its incoming value, which must die there.

use std::fmt;

/// A general-purpose register `r0`..`r12` or `lr` (14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg(pub u8);

impl Reg {
    /// The assembler name (`lr` for 14), which is also the name `asm!` operands take.
    pub fn name(self) -> String {
        if self.0 == 14 {
            "lr".into()
        } else {
            format!("r{}", self.0)
        }
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

pub use crate::backend::isa::arm::AluOp;
pub use crate::backend::isa::V;
use crate::backend::isa::{Isa, Operands};

/// The instruction set, for the shared builder, allocator, simulator and printer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Armv7;

impl Isa for Armv7 {
    type Reg = Reg;
    type Value = V;
    type Input = super::program::Input;
    type Layout = super::program::Layout;
    type Inst<R: Copy + fmt::Debug> = Inst<R>;

    /// `r0`–`r5`, `r8`–`r10`, `r12` and `lr` (last: the compiler saves it) — what `asm!`
    /// accepts on every ARMv7 target: `r6` is LLVM's base pointer, `r7` (Thumb) or `r11` (ARM)
    /// the frame pointer, `sp` and `pc` are not general registers.
    fn registers() -> Vec<Reg> {
        [0, 1, 2, 3, 12, 4, 5, 8, 9, 10, 14].map(Reg).to_vec()
    }

    fn map<R: Copy + Eq + fmt::Debug, S: Copy + Eq + fmt::Debug>(
        inst: &Inst<R>,
        mut f: impl FnMut(R) -> S,
    ) -> Inst<S> {
        match *inst {
            Inst::Ldr { dst, base, k } => Inst::Ldr {
                base: f(base),
                dst: f(dst),
                k,
            },
            Inst::Str { src, base, k } => Inst::Str {
                src: f(src),
                base: f(base),
                k,
            },
            Inst::MovZero { dst } => Inst::MovZero { dst: f(dst) },
            Inst::Shift { left, dst, a, k } => Inst::Shift {
                left,
                a: f(a),
                dst: f(dst),
                k,
            },
            Inst::Mul { dst, a, b } => Inst::Mul {
                a: f(a),
                b: f(b),
                dst: f(dst),
            },
            Inst::Umull { lo, hi, a, b } => Inst::Umull {
                a: f(a),
                b: f(b),
                lo: f(lo),
                hi: f(hi),
            },
            Inst::Umaal {
                lo,
                hi,
                lo_in,
                hi_in,
                a,
                b,
            } => Inst::Umaal {
                lo_in: f(lo_in),
                hi_in: f(hi_in),
                a: f(a),
                b: f(b),
                lo: f(lo),
                hi: f(hi),
            },
            Inst::Alu { op, dst, a, b } => {
                let a = f(a);
                let b = match b {
                    Opnd::Reg(r) => Opnd::Reg(f(r)),
                    Opnd::Imm(k) => Opnd::Imm(k),
                };
                Inst::Alu {
                    op,
                    dst: f(dst),
                    a,
                    b,
                }
            }
        }
    }
}

/// A second source operand: a register or a small immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opnd<R> {
    /// A register.
    Reg(R),
    /// `#k`.
    Imm(u8),
}

/// One instruction over registers of type `R`.
///
/// Field names follow the operand order of the assembly: `dst` is the register written, `a` and
/// `b` the sources, `base` a register holding a limb array's address, `k` a word index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Inst<R> {
    /// `ldr dst, [base, #4k]`.
    Ldr {
        /// The register loaded.
        dst: R,
        /// The address of the limb array.
        base: R,
        /// The index of the word loaded (byte offset 4·k).
        k: u32,
    },
    /// `str src, [base, #4k]`.
    Str {
        /// The register stored.
        src: R,
        /// The address of the limb array.
        base: R,
        /// The index of the word written (byte offset 4·k).
        k: u32,
    },
    /// `mov dst, #0` (no flags).
    MovZero {
        /// The register cleared.
        dst: R,
    },
    /// `lsl dst, a, #k` (`left`) or `lsr dst, a, #k`, 0 < k < 32. Flags unchanged.
    Shift {
        /// Left (`lsl`) or right (`lsr`).
        left: bool,
        /// The register written.
        dst: R,
        /// The word shifted.
        a: R,
        /// The shift count in bits.
        k: u8,
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
    /// `umull lo, hi, a, b`: hi:lo = a·b. Flags unchanged.
    Umull {
        /// The low word of the product.
        lo: R,
        /// The high word of the product.
        hi: R,
        /// The first factor.
        a: R,
        /// The second factor.
        b: R,
    },
    /// `umaal lo, hi, a, b`: hi:lo = a·b + lo_in + hi_in, which never exceeds 2^64 − 1. Flags
    /// unchanged. After allocation `lo == lo_in` and `hi == hi_in`.
    Umaal {
        /// The low word of the result.
        lo: R,
        /// The high word of the result.
        hi: R,
        /// The first addend (in the register that becomes `lo`).
        lo_in: R,
        /// The second addend (in the register that becomes `hi`).
        hi_in: R,
        /// The first factor.
        a: R,
        /// The second factor.
        b: R,
    },
    /// `op dst, a, b`.
    Alu {
        /// The operation; [`AluOp`] says which read C and which set it.
        op: AluOp,
        /// The register written.
        dst: R,
        /// The first operand.
        a: R,
        /// The second operand: a register or an immediate (subtracted, for the subtractions).
        b: Opnd<R>,
    },
}

impl<R: Copy + Eq> Inst<R> {
    /// Whether the instruction reads C.
    pub fn reads_carry(&self) -> bool {
        matches!(self, Inst::Alu { op, .. } if op.reads_carry())
    }

    /// Whether the instruction sets C.
    pub fn sets_carry(&self) -> bool {
        matches!(self, Inst::Alu { op, .. } if op.sets_carry())
    }
}

impl<R: Copy + Eq> Operands<R> for Inst<R> {
    /// Registers read.
    fn reads(&self) -> Vec<R> {
        match *self {
            Inst::Ldr { base, .. } => vec![base],
            Inst::Str { src, base, .. } => vec![src, base],
            Inst::MovZero { .. } => vec![],
            Inst::Shift { a, .. } => vec![a],
            Inst::Mul { a, b, .. } | Inst::Umull { a, b, .. } => vec![a, b],
            Inst::Umaal {
                lo_in, hi_in, a, b, ..
            } => vec![lo_in, hi_in, a, b],
            Inst::Alu { a, b, .. } => match b {
                Opnd::Reg(r) => vec![a, r],
                Opnd::Imm(_) => vec![a],
            },
        }
    }

    /// Registers written.
    fn writes(&self) -> Vec<R> {
        match *self {
            Inst::Ldr { dst, .. }
            | Inst::MovZero { dst }
            | Inst::Shift { dst, .. }
            | Inst::Mul { dst, .. }
            | Inst::Alu { dst, .. } => vec![dst],
            Inst::Umull { lo, hi, .. } | Inst::Umaal { lo, hi, .. } => vec![lo, hi],
            Inst::Str { .. } => vec![],
        }
    }

    /// The incoming value each written value must share its register with (`umaal`).
    fn ties(&self) -> Vec<(R, R)> {
        match *self {
            Inst::Umaal {
                lo,
                hi,
                lo_in,
                hi_in,
                ..
            } => vec![(lo, lo_in), (hi, hi_in)],
            _ => vec![],
        }
    }

    /// Whether this is `mul`, `umull` or `umaal`.
    fn is_multiply(&self) -> bool {
        matches!(
            self,
            Inst::Mul { .. } | Inst::Umull { .. } | Inst::Umaal { .. }
        )
    }
}

fn offset_text(base: Reg, k: u32) -> String {
    crate::backend::isa::asm::word_address(base, k, 4)
}

impl Inst<Reg> {
    /// The instruction as one line of an `asm!` template (valid in ARM and Thumb-2 state).
    pub fn text(&self) -> String {
        match self {
            Inst::Ldr { dst, base, k } => format!("ldr {dst}, {}", offset_text(*base, *k)),
            Inst::Str { src, base, k } => format!("str {src}, {}", offset_text(*base, *k)),
            Inst::MovZero { dst } => format!("mov {dst}, #0"),
            Inst::Shift { left, dst, a, k } => {
                format!("{} {dst}, {a}, #{k}", if *left { "lsl" } else { "lsr" })
            }
            Inst::Mul { dst, a, b } => format!("mul {dst}, {a}, {b}"),
            Inst::Umull { lo, hi, a, b } => format!("umull {lo}, {hi}, {a}, {b}"),
            Inst::Umaal { lo, hi, a, b, .. } => format!("umaal {lo}, {hi}, {a}, {b}"),
            Inst::Alu { op, dst, a, b } => {
                let b = match b {
                    Opnd::Reg(r) => r.name(),
                    Opnd::Imm(k) => format!("#{k}"),
                };
                format!("{} {dst}, {a}, {b}", op.mnemonic())
            }
        }
    }
}
