//! x86-64 instructions as values: registers, operands and the instruction enum, generic over
//! the register type so that the same instructions describe a kernel before register
//! allocation ([`VReg`]) and after it ([`Reg`]). Text is produced only by [`Inst::text`], at the
//! very end (Intel syntax, as `core::arch::asm!` expects by default).

use std::fmt;

use crate::backend::isa::{Isa, Value};

/// A 64-bit general-purpose register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reg {
    /// `rax` (encoding 0).
    Rax,
    /// `rcx` (encoding 1).
    Rcx,
    /// `rdx` (encoding 2): the multiplier that `mulx` reads implicitly.
    Rdx,
    /// `rbx` (encoding 3): reserved by LLVM, saved and restored by a kernel that uses it.
    Rbx,
    /// `rsp` (encoding 4): the stack pointer; spill slots are addressed from it.
    Rsp,
    /// `rbp` (encoding 5): reserved by LLVM, saved and restored by a kernel that uses it.
    Rbp,
    /// `rsi` (encoding 6).
    Rsi,
    /// `rdi` (encoding 7).
    Rdi,
    /// `r8` (encoding 8).
    R8,
    /// `r9` (encoding 9).
    R9,
    /// `r10` (encoding 10).
    R10,
    /// `r11` (encoding 11).
    R11,
    /// `r12` (encoding 12).
    R12,
    /// `r13` (encoding 13).
    R13,
    /// `r14` (encoding 14).
    R14,
    /// `r15` (encoding 15).
    R15,
}

impl Reg {
    /// Every register, in encoding order.
    pub const ALL: [Reg; 16] = [
        Reg::Rax,
        Reg::Rcx,
        Reg::Rdx,
        Reg::Rbx,
        Reg::Rsp,
        Reg::Rbp,
        Reg::Rsi,
        Reg::Rdi,
        Reg::R8,
        Reg::R9,
        Reg::R10,
        Reg::R11,
        Reg::R12,
        Reg::R13,
        Reg::R14,
        Reg::R15,
    ];

    /// The assembler name.
    pub fn name(self) -> &'static str {
        match self {
            Reg::Rax => "rax",
            Reg::Rcx => "rcx",
            Reg::Rdx => "rdx",
            Reg::Rbx => "rbx",
            Reg::Rsp => "rsp",
            Reg::Rbp => "rbp",
            Reg::Rsi => "rsi",
            Reg::Rdi => "rdi",
            Reg::R8 => "r8",
            Reg::R9 => "r9",
            Reg::R10 => "r10",
            Reg::R11 => "r11",
            Reg::R12 => "r12",
            Reg::R13 => "r13",
            Reg::R14 => "r14",
            Reg::R15 => "r15",
        }
    }

    /// Registers that `asm!` refuses as operands (LLVM reserves them): a kernel may still use
    /// them after saving them with `push` and restoring them with `pop`.
    pub fn reserved_by_llvm(self) -> bool {
        matches!(self, Reg::Rbx | Reg::Rbp)
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A register before allocation: the multiplier register `rdx` (fixed, because `mulx` reads
/// it implicitly) or a virtual value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VReg {
    /// The physical `rdx`.
    Rdx,
    /// Virtual value number `k`.
    V(u32),
}

/// The register type of an instruction: physical or virtual.
pub trait RegName: Copy + Eq + std::hash::Hash + fmt::Debug {
    /// The multiplier register read implicitly by `mulx`.
    const RDX: Self;
}

impl RegName for Reg {
    const RDX: Reg = Reg::Rdx;
}

impl RegName for VReg {
    const RDX: VReg = VReg::Rdx;
}

impl Value for VReg {
    fn nth(k: u32) -> VReg {
        VReg::V(k)
    }
}

/// The instruction set, for the shared kernel builder and printer. Allocation ([`super::regalloc`])
/// and simulation ([`super::sim`]) are this target's own: values are updated in place by
/// two-operand instructions, `rdx` is fixed, and values spill to the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct X86_64;

impl Isa for X86_64 {
    type Reg = Reg;
    type Value = VReg;
    type Input = super::program::Pointer;
    type Layout = ();
    type Inst<R: Copy + fmt::Debug> = Inst<R>;

    fn registers() -> Vec<Reg> {
        super::regalloc::REGISTERS.to_vec()
    }

    fn map<R: Copy + Eq + fmt::Debug, S: Copy + Eq + fmt::Debug>(
        inst: &Inst<R>,
        mut f: impl FnMut(R) -> S,
    ) -> Inst<S> {
        let src = |s: Src<R>, f: &mut dyn FnMut(R) -> S| match s {
            Src::Reg(r) => Src::Reg(f(r)),
            Src::Mem(m) => Src::Mem(Mem {
                base: f(m.base),
                disp: m.disp,
            }),
            Src::Imm(i) => Src::Imm(i),
        };
        match *inst {
            Inst::Mov { dst, src: s } => Inst::Mov {
                dst: f(dst),
                src: src(s, &mut f),
            },
            Inst::MovImm { dst, imm } => Inst::MovImm { dst: f(dst), imm },
            Inst::Store { dst, src: s } => Inst::Store {
                dst: Mem {
                    base: f(dst.base),
                    disp: dst.disp,
                },
                src: f(s),
            },
            Inst::Mulx { hi, lo, src: s } => Inst::Mulx {
                hi: f(hi),
                lo: f(lo),
                src: src(s, &mut f),
            },
            Inst::Alu { op, dst, src: s } => Inst::Alu {
                op,
                dst: f(dst),
                src: src(s, &mut f),
            },
            Inst::Shld { dst, src, k } => Inst::Shld {
                dst: f(dst),
                src: f(src),
                k,
            },
            Inst::Zero { dst } => Inst::Zero { dst: f(dst) },
            Inst::Push(r) => Inst::Push(f(r)),
            Inst::Pop(r) => Inst::Pop(f(r)),
            Inst::AllocStack(k) => Inst::AllocStack(k),
            Inst::FreeStack(k) => Inst::FreeStack(k),
        }
    }
}

/// A 64-bit memory operand `qword ptr [base + disp]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mem<R> {
    /// Base register (a pointer value; `rsp` for spill slots).
    pub base: R,
    /// Byte displacement.
    pub disp: i32,
}

/// A source operand: register, memory, or a sign-extended 32-bit immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Src<R> {
    /// A register.
    Reg(R),
    /// A memory word.
    Mem(Mem<R>),
    /// An immediate (sign-extended to 64 bits).
    Imm(i32),
}

/// Two-operand operations `dst ← dst op src`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AluOp {
    /// `dst + src`; sets CF (OF is set too, but no kernel relies on it).
    Add,
    /// `dst + src + CF`; sets CF.
    Adc,
    /// `dst + src + CF`; sets CF only (ADX).
    Adcx,
    /// `dst + src + OF`; sets OF only (ADX).
    Adox,
    /// `dst − src`; sets CF to the borrow.
    Sub,
    /// `dst − src − CF`; sets CF to the borrow.
    Sbb,
    /// `dst · src mod 2^64`; leaves CF and OF unusable.
    Imul,
    /// `dst ← src` when CF = 1 (`cmovc`, a.k.a. `cmovb`); constant time.
    Cmovc,
    /// `btr dst, imm`: CF ← bit `imm` of dst, which is cleared (pseudo-Mersenne folds split a
    /// word at bit k this way); OF unusable afterwards.
    Btr,
    /// `shl dst, imm`: dst << imm (0 < imm < 64); the selector treats both flags as unusable.
    Shl,
    /// `shr dst, imm`: dst >> imm (0 < imm < 64); the selector treats both flags as unusable.
    Shr,
    /// `and dst, src`; both flags unusable afterwards (the simulator is stricter than the CPU).
    And,
    /// `or dst, src`; both flags unusable afterwards.
    Or,
    /// `xor dst, src` (with −1: bitwise not); both flags unusable afterwards. `xor r, r` as a
    /// zeroing idiom is [`Inst::Zero`].
    Xor,
}

impl AluOp {
    /// The mnemonic.
    pub fn mnemonic(self) -> &'static str {
        match self {
            AluOp::Add => "add",
            AluOp::Adc => "adc",
            AluOp::Adcx => "adcx",
            AluOp::Adox => "adox",
            AluOp::Sub => "sub",
            AluOp::Sbb => "sbb",
            AluOp::Imul => "imul",
            AluOp::Cmovc => "cmovc",
            AluOp::Btr => "btr",
            AluOp::Shl => "shl",
            AluOp::Shr => "shr",
            AluOp::And => "and",
            AluOp::Or => "or",
            AluOp::Xor => "xor",
        }
    }

    /// Whether `dst op src` = `src op dst` in value and flags, so the allocator may swap the
    /// operands (the result then lives in the source's register).
    pub fn commutative(self) -> bool {
        matches!(
            self,
            AluOp::Add
                | AluOp::Adc
                | AluOp::Adcx
                | AluOp::Adox
                | AluOp::Imul
                | AluOp::And
                | AluOp::Or
                | AluOp::Xor
        )
    }

    /// Whether the source may be an immediate (`imul r, imm` is the three-operand form with
    /// the destination repeated).
    pub fn takes_imm(self) -> bool {
        matches!(
            self,
            AluOp::Add
                | AluOp::Adc
                | AluOp::Sub
                | AluOp::Sbb
                | AluOp::Imul
                | AluOp::Btr
                | AluOp::Shl
                | AluOp::Shr
                | AluOp::And
                | AluOp::Or
                | AluOp::Xor
        )
    }
}

/// One instruction over registers of type `R`.
///
/// Two-operand instructions update `dst` in place (`dst ← dst op src`), as in the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Inst<R> {
    /// `mov dst, src`: register from register, memory or 32-bit immediate. Flags unchanged.
    Mov {
        /// The register written.
        dst: R,
        /// The value copied.
        src: Src<R>,
    },
    /// `mov dst, imm64` (movabs). Flags unchanged.
    MovImm {
        /// The register written.
        dst: R,
        /// The 64-bit immediate.
        imm: u64,
    },
    /// `mov qword ptr [..], src`. Flags unchanged.
    Store {
        /// The memory word written.
        dst: Mem<R>,
        /// The register stored.
        src: R,
    },
    /// `mulx hi, lo, src`: hi:lo ← rdx · src. Flags unchanged.
    Mulx {
        /// The high word of the product.
        hi: R,
        /// The low word of the product.
        lo: R,
        /// The factor multiplied by `rdx`.
        src: Src<R>,
    },
    /// `op dst, src`.
    Alu {
        /// The operation.
        op: AluOp,
        /// The first operand, overwritten by the result.
        dst: R,
        /// The second operand.
        src: Src<R>,
    },
    /// `shld dst, src, k`: dst ← (dst << k) | (src >> (64 − k)), 0 < k < 64 (one word of a
    /// multiword left shift); the flags are unusable afterwards.
    Shld {
        /// The word shifted, overwritten by the result.
        dst: R,
        /// The word whose top k bits are shifted in.
        src: R,
        /// The shift count.
        k: u8,
    },
    /// `xor dst, dst`: dst ← 0 and CF = OF = 0 (starts both carry chains).
    Zero {
        /// The register cleared.
        dst: R,
    },
    /// `push r`.
    Push(R),
    /// `pop r`.
    Pop(R),
    /// `sub rsp, k` (k bytes of spill slots; flags unusable afterwards).
    AllocStack(u32),
    /// `add rsp, k`.
    FreeStack(u32),
}

impl<R: RegName> Inst<R> {
    /// Registers the instruction reads (including memory bases and the implicit `rdx` of
    /// `mulx`). `xor r, r` reads nothing: it is the zeroing idiom.
    pub fn reads(&self) -> Vec<R> {
        let src = |s: &Src<R>| match s {
            Src::Reg(r) => vec![*r],
            Src::Mem(m) => vec![m.base],
            Src::Imm(_) => vec![],
        };
        match self {
            Inst::Mov { src: s, .. } => src(s),
            Inst::MovImm { .. } | Inst::Zero { .. } => vec![],
            Inst::Store { dst, src: s } => vec![dst.base, *s],
            Inst::Mulx { src: s, .. } => {
                let mut v = src(s);
                v.push(R::RDX);
                v
            }
            Inst::Alu { dst, src: s, .. } => {
                let mut v = src(s);
                v.push(*dst);
                v
            }
            Inst::Shld { dst, src, .. } => vec![*src, *dst],
            Inst::Push(r) => vec![*r],
            Inst::Pop(_) | Inst::AllocStack(_) | Inst::FreeStack(_) => vec![],
        }
    }

    /// Registers the instruction writes.
    pub fn writes(&self) -> Vec<R> {
        match self {
            Inst::Mov { dst, .. }
            | Inst::MovImm { dst, .. }
            | Inst::Alu { dst, .. }
            | Inst::Shld { dst, .. }
            | Inst::Zero { dst } => vec![*dst],
            Inst::Mulx { hi, lo, .. } => vec![*hi, *lo],
            Inst::Pop(r) => vec![*r],
            Inst::Store { .. } | Inst::Push(_) | Inst::AllocStack(_) | Inst::FreeStack(_) => {
                vec![]
            }
        }
    }

    /// Checks that the instruction has an encoding: `mulx` takes no immediate, the ALU
    /// operations other than add/adc/sub/sbb take none either, and `mulx` destinations differ.
    pub fn validate(&self) -> Result<(), String> {
        match self {
            Inst::Mulx {
                src: Src::Imm(_), ..
            } => Err("mulx with an immediate".into()),
            Inst::Mulx { hi, lo, .. } if hi == lo => Err("mulx with equal destinations".into()),
            Inst::Alu {
                op,
                src: Src::Imm(_),
                ..
            } if !op.takes_imm() => Err(format!("{} with an immediate", op.mnemonic())),
            Inst::Alu {
                op: AluOp::Btr,
                src,
                ..
            } if !matches!(src, Src::Imm(0..=63)) => Err("btr takes a bit index 0..=63".into()),
            Inst::Alu {
                op: AluOp::Shl | AluOp::Shr,
                src,
                ..
            } if !matches!(src, Src::Imm(1..=63)) => Err("shifts take a count 1..=63".into()),
            Inst::Shld { k, .. } if !(1..=63).contains(k) => {
                Err("shld takes a count 1..=63".into())
            }
            _ => Ok(()),
        }
    }

    /// Whether this is a multiplication `mulx`.
    pub fn is_mulx(&self) -> bool {
        matches!(self, Inst::Mulx { .. })
    }
}

fn mem_text(m: &Mem<Reg>) -> String {
    match m.disp {
        0 => format!("qword ptr [{}]", m.base),
        d if d < 0 => format!("qword ptr [{} - {}]", m.base, -(d as i64)),
        d => format!("qword ptr [{} + {}]", m.base, d),
    }
}

fn src_text(s: &Src<Reg>) -> String {
    match s {
        Src::Reg(r) => r.name().to_string(),
        Src::Mem(m) => mem_text(m),
        Src::Imm(i) => i.to_string(),
    }
}

impl Inst<Reg> {
    /// The instruction in Intel syntax, as one line of an `asm!` template.
    pub fn text(&self) -> String {
        match self {
            Inst::Mov { dst, src } => format!("mov {dst}, {}", src_text(src)),
            Inst::MovImm { dst, imm } => format!("mov {dst}, {imm:#x}"),
            Inst::Store { dst, src } => format!("mov {}, {src}", mem_text(dst)),
            Inst::Mulx { hi, lo, src } => format!("mulx {hi}, {lo}, {}", src_text(src)),
            // The two-operand `imul r, imm` is the three-operand form with r repeated.
            Inst::Alu {
                op: AluOp::Imul,
                dst,
                src: Src::Imm(i),
            } => format!("imul {dst}, {dst}, {i}"),
            Inst::Alu { op, dst, src } => {
                format!("{} {dst}, {}", op.mnemonic(), src_text(src))
            }
            Inst::Shld { dst, src, k } => format!("shld {dst}, {src}, {k}"),
            Inst::Zero { dst } => format!("xor {}, {}", dst.name(), dst.name()),
            Inst::Push(r) => format!("push {r}"),
            Inst::Pop(r) => format!("pop {r}"),
            Inst::AllocStack(k) => format!("sub rsp, {k}"),
            Inst::FreeStack(k) => format!("add rsp, {k}"),
        }
    }
}
