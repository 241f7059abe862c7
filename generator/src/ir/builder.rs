//! Incremental construction of a [`Func`].

use super::{word_mask, Check, Func, Instr, Op, Var};
use crate::narrow::fit;

/// Appends instructions to a function under construction. Lowerings use it to write IR
/// without folding anything: simplification is the optimiser's job ([`crate::pass`]).
pub struct Builder {
    w: u32,
    inputs: Vec<Vec<u64>>,
    instrs: Vec<Instr>,
    next: u32,
    checks: Vec<Check>,
}

impl Builder {
    /// A new function over `w`-bit words.
    pub fn new(w: u32) -> Builder {
        assert!(w == 32 || w == 64);
        Builder {
            w,
            inputs: Vec::new(),
            instrs: Vec::new(),
            next: 0,
            checks: Vec::new(),
        }
    }

    /// Word size.
    pub fn w(&self) -> u32 {
        self.w
    }

    fn fresh(&mut self) -> Var {
        let v = Var(self.next);
        self.next += 1;
        v
    }

    fn push1(&mut self, op: Op) -> Var {
        let v = self.fresh();
        self.instrs.push(Instr { op, outs: [v, v] });
        v
    }

    fn push2(&mut self, op: Op) -> (Var, Var) {
        let lo = self.fresh();
        let hi = self.fresh();
        self.instrs.push(Instr { op, outs: [lo, hi] });
        (lo, hi)
    }

    /// Declares a new input argument of `bounds.len()` limbs, limb `i` at most `bounds[i]`.
    pub fn input(&mut self, bounds: Vec<u64>) -> Vec<Var> {
        let arg = fit(self.inputs.len());
        let n = bounds.len();
        self.inputs.push(bounds);
        (0..n)
            .map(|limb| {
                self.push1(Op::Input {
                    arg,
                    limb: fit(limb),
                })
            })
            .collect()
    }

    /// A literal word.
    pub fn constant(&mut self, v: u64) -> Var {
        assert!(v <= word_mask(self.w));
        self.push1(Op::Const(v))
    }

    /// Literal limbs.
    pub fn constants(&mut self, vs: &[u64]) -> Vec<Var> {
        vs.iter().map(|&v| self.constant(v)).collect()
    }

    /// `a·b + c + d` as (lo, hi).
    pub fn mul_add(&mut self, a: Var, b: Var, c: Var, d: Var) -> (Var, Var) {
        self.push2(Op::MulAdd { a, b, c, d })
    }

    /// `a·b mod 2^w`.
    pub fn mul_lo(&mut self, a: Var, b: Var) -> Var {
        self.push1(Op::MulLo { a, b })
    }

    /// `a + b + cin` as (sum, carry).
    pub fn add_carry(&mut self, a: Var, b: Var, cin: Var) -> (Var, Var) {
        self.push2(Op::AddCarry { a, b, cin })
    }

    /// `a - b - bin` as (difference, borrow).
    pub fn sub_borrow(&mut self, a: Var, b: Var, bin: Var) -> (Var, Var) {
        self.push2(Op::SubBorrow { a, b, bin })
    }

    /// Bitwise and.
    pub fn and(&mut self, a: Var, b: Var) -> Var {
        self.push1(Op::And { a, b })
    }

    /// Bitwise or.
    pub fn or(&mut self, a: Var, b: Var) -> Var {
        self.push1(Op::Or { a, b })
    }

    /// Bitwise xor.
    pub fn xor(&mut self, a: Var, b: Var) -> Var {
        self.push1(Op::Xor { a, b })
    }

    /// Bitwise not.
    pub fn not(&mut self, a: Var) -> Var {
        self.push1(Op::Not { a })
    }

    /// Shift left by `k` (0 < k < w).
    pub fn shl(&mut self, a: Var, k: u32) -> Var {
        assert!(k > 0 && k < self.w);
        self.push1(Op::Shl { a, k })
    }

    /// Logical shift right by `k` (0 < k < w).
    pub fn shr(&mut self, a: Var, k: u32) -> Var {
        assert!(k > 0 && k < self.w);
        self.push1(Op::Shr { a, k })
    }

    /// All-ones when `bit` is 1, zero when it is 0.
    pub fn mask(&mut self, bit: Var) -> Var {
        self.push1(Op::Mask { bit })
    }

    /// `mask == 0 ? a : b` in constant time.
    pub fn select(&mut self, mask: Var, a: Var, b: Var) -> Var {
        self.push1(Op::Select { mask, a, b })
    }

    /// The largest value of each of `vs` that range analysis finds from the input bounds,
    /// over the instructions written so far (lowerings size their next step by it).
    pub fn range_max(&self, vs: &[Var]) -> Vec<u64> {
        let f = Func {
            w: self.w,
            inputs: self.inputs.clone(),
            instrs: self.instrs.clone(),
            outputs: Vec::new(),
            num_vars: self.next,
            checks: Vec::new(),
            output_bounds: Vec::new(),
        };
        let r = crate::pass::ranges(&f);
        vs.iter().map(|v| r[v.0 as usize].max).collect()
    }

    /// Records the obligation that `v` never exceeds `max` (0: a carry that is dropped must
    /// never happen). Verified by [`crate::pass::verify_bounds`], never assumed.
    pub fn check_at_most(&mut self, v: Var, max: u64, what: &'static str) {
        self.checks.push(Check { var: v, max, what });
    }

    /// Finishes the function, returning `outputs`.
    pub fn finish(self, outputs: Vec<Var>) -> Func {
        self.finish_with_bounds(outputs, Vec::new())
    }

    /// Finishes the function, returning `outputs`, whose limbs must stay within `bounds`
    /// (checked by [`crate::pass::verify_bounds`]).
    pub fn finish_with_bounds(self, outputs: Vec<Var>, bounds: Vec<u64>) -> Func {
        assert!(bounds.is_empty() || bounds.len() == outputs.len());
        Func {
            w: self.w,
            inputs: self.inputs,
            instrs: self.instrs,
            outputs,
            num_vars: self.next,
            checks: self.checks,
            output_bounds: bounds,
        }
    }
}
