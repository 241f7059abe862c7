//! Stage 3: a straight-line SSA intermediate representation over machine words, and an
//! interpreter that executes it on concrete words.
//!
//! A [`Func`] takes fixed-size limb arrays as inputs and returns one limb array. Every value is
//! a word of `w` bits (32 or 64). Two-output instructions (`MulAdd`, `AddCarry`, `SubBorrow`)
//! return a low word and a high word / carry bit. There are no branches and no memory: the
//! lowerings in [`crate::strategy`] produce straight-line code by construction, so emitted code has
//! no secret-dependent control flow or indexing.

mod builder;
mod interp;

pub use builder::Builder;
pub use interp::{interpret, InterpError};

/// An SSA value: the index of the instruction output that defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub u32);

/// One word-level operation. Operands are [`Var`]s defined earlier in the same [`Func`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// A literal word.
    Const(u64),
    /// Limb `limb` of input argument `arg`.
    Input {
        /// The index of the argument in [`Func::inputs`].
        arg: u16,
        /// The index of the limb in the argument, least significant first.
        limb: u16,
    },
    /// `a·b + c + d` as (low word, high word); never overflows two words.
    MulAdd {
        /// The first factor.
        a: Var,
        /// The second factor.
        b: Var,
        /// The first addend.
        c: Var,
        /// The second addend.
        d: Var,
    },
    /// `a·b mod 2^w`.
    MulLo {
        /// The first factor.
        a: Var,
        /// The second factor.
        b: Var,
    },
    /// `a + b + cin` as (sum mod 2^w, carry bit); `cin` is 0 or 1.
    AddCarry {
        /// The first addend.
        a: Var,
        /// The second addend.
        b: Var,
        /// The carry in, 0 or 1.
        cin: Var,
    },
    /// `a - b - bin` as (difference mod 2^w, borrow bit); `bin` is 0 or 1.
    SubBorrow {
        /// The minuend.
        a: Var,
        /// The subtrahend.
        b: Var,
        /// The borrow in, 0 or 1.
        bin: Var,
    },
    /// Bitwise and.
    And {
        /// The first operand.
        a: Var,
        /// The second operand.
        b: Var,
    },
    /// Bitwise or.
    Or {
        /// The first operand.
        a: Var,
        /// The second operand.
        b: Var,
    },
    /// Bitwise xor.
    Xor {
        /// The first operand.
        a: Var,
        /// The second operand.
        b: Var,
    },
    /// Bitwise not.
    Not {
        /// The operand.
        a: Var,
    },
    /// `a << k mod 2^w`, `0 < k < w`.
    Shl {
        /// The word shifted.
        a: Var,
        /// The shift count in bits, `0 < k < w`.
        k: u32,
    },
    /// `a >> k`, `0 < k < w`.
    Shr {
        /// The word shifted.
        a: Var,
        /// The shift count in bits, `0 < k < w`.
        k: u32,
    },
    /// `0 - bit mod 2^w`: turns a 0/1 bit into an all-zeros/all-ones mask.
    Mask {
        /// The bit, 0 or 1.
        bit: Var,
    },
    /// Constant-time select: `mask == 0 ? a : b`, with `mask` all zeros or all ones.
    Select {
        /// All zeros (take `a`) or all ones (take `b`).
        mask: Var,
        /// The word taken when `mask` is zero.
        a: Var,
        /// The word taken when `mask` is all ones.
        b: Var,
    },
}

impl Op {
    /// Number of words the operation defines (1 or 2).
    pub fn arity_out(&self) -> usize {
        match self {
            Op::MulAdd { .. } | Op::AddCarry { .. } | Op::SubBorrow { .. } => 2,
            _ => 1,
        }
    }

    /// The operand variables, in order.
    pub fn operands(&self) -> Vec<Var> {
        match *self {
            Op::Const(_) | Op::Input { .. } => vec![],
            Op::MulAdd { a, b, c, d } => vec![a, b, c, d],
            Op::MulLo { a, b } | Op::And { a, b } | Op::Or { a, b } | Op::Xor { a, b } => {
                vec![a, b]
            }
            Op::AddCarry { a, b, cin } => vec![a, b, cin],
            Op::SubBorrow { a, b, bin } => vec![a, b, bin],
            Op::Not { a } | Op::Shl { a, .. } | Op::Shr { a, .. } => vec![a],
            Op::Mask { bit } => vec![bit],
            Op::Select { mask, a, b } => vec![mask, a, b],
        }
    }

    /// The same operation with every operand passed through `f`.
    pub fn map_operands(&self, mut f: impl FnMut(Var) -> Var) -> Op {
        match *self {
            Op::Const(_) | Op::Input { .. } => *self,
            Op::MulAdd { a, b, c, d } => Op::MulAdd {
                a: f(a),
                b: f(b),
                c: f(c),
                d: f(d),
            },
            Op::MulLo { a, b } => Op::MulLo { a: f(a), b: f(b) },
            Op::AddCarry { a, b, cin } => Op::AddCarry {
                a: f(a),
                b: f(b),
                cin: f(cin),
            },
            Op::SubBorrow { a, b, bin } => Op::SubBorrow {
                a: f(a),
                b: f(b),
                bin: f(bin),
            },
            Op::And { a, b } => Op::And { a: f(a), b: f(b) },
            Op::Or { a, b } => Op::Or { a: f(a), b: f(b) },
            Op::Xor { a, b } => Op::Xor { a: f(a), b: f(b) },
            Op::Not { a } => Op::Not { a: f(a) },
            Op::Shl { a, k } => Op::Shl { a: f(a), k },
            Op::Shr { a, k } => Op::Shr { a: f(a), k },
            Op::Mask { bit } => Op::Mask { bit: f(bit) },
            Op::Select { mask, a, b } => Op::Select {
                mask: f(mask),
                a: f(a),
                b: f(b),
            },
        }
    }
}

/// An instruction: an operation and the variables it defines (`outs[1]` only for two-output ops).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instr {
    /// The operation.
    pub op: Op,
    /// Defined variables: low/sum/difference first, then high/carry/borrow.
    pub outs: [Var; 2],
}

/// Inclusive bounds on the value of a word, used to prove carries impossible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// Smallest possible value.
    pub min: u64,
    /// Largest possible value.
    pub max: u64,
}

impl Range {
    /// Any word of `w` bits.
    pub fn full(w: u32) -> Range {
        Range {
            min: 0,
            max: word_mask(w),
        }
    }

    /// Exactly `v`.
    pub fn exact(v: u64) -> Range {
        Range { min: v, max: v }
    }
}

/// `2^w - 1`.
pub fn word_mask(w: u32) -> u64 {
    if w == 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// A straight-line function over `w`-bit words.
#[derive(Clone, Debug)]
pub struct Func {
    /// Word size in bits (32 or 64).
    pub w: u32,
    /// For each input argument, the upper bound of each limb (the lowering's precondition, e.g.
    /// the top limb of a value below p is at most the top limb of p).
    pub inputs: Vec<Vec<u64>>,
    /// The instructions, in execution order.
    pub instrs: Vec<Instr>,
    /// The returned limbs.
    pub outputs: Vec<Var>,
    /// Number of variables allocated (all `Var`s are below this).
    pub num_vars: u32,
    /// Range obligations the lowering relies on (a dropped carry is zero, a folded word is
    /// small): [`crate::pass::verify_bounds`] proves each from the input bounds by range
    /// analysis or refuses the function, and the interpreter checks them on every run.
    pub checks: Vec<Check>,
    /// Upper bounds the returned limbs must respect (the output representation, e.g. a loose
    /// pseudo-Mersenne value that the next operation takes as input); empty when unchecked.
    pub output_bounds: Vec<u64>,
}

/// A range obligation: `var` is at most `max` on every input within the declared bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// The checked value.
    pub var: Var,
    /// Its largest allowed value (0 for a carry that must not happen).
    pub max: u64,
    /// What the obligation protects, for error messages.
    pub what: &'static str,
}

impl Func {
    /// Counts instructions by kind name, for reports and tests.
    pub fn op_counts(&self) -> std::collections::BTreeMap<&'static str, usize> {
        let mut m = std::collections::BTreeMap::new();
        for i in &self.instrs {
            *m.entry(op_name(&i.op)).or_insert(0) += 1;
        }
        m
    }
}

/// Short name of an operation kind.
pub fn op_name(op: &Op) -> &'static str {
    match op {
        Op::Const(_) => "const",
        Op::Input { .. } => "input",
        Op::MulAdd { .. } => "mul_add",
        Op::MulLo { .. } => "mul_lo",
        Op::AddCarry { .. } => "add_carry",
        Op::SubBorrow { .. } => "sub_borrow",
        Op::And { .. } => "and",
        Op::Or { .. } => "or",
        Op::Xor { .. } => "xor",
        Op::Not { .. } => "not",
        Op::Shl { .. } => "shl",
        Op::Shr { .. } => "shr",
        Op::Mask { .. } => "mask",
        Op::Select { .. } => "select",
    }
}
