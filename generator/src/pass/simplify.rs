//! Constant folding, copy propagation and carry elimination by range analysis.
//!
//! Each variable carries an inclusive range [min, max]. A rule fires only when it holds for
//! every value in the operands' ranges, so the pass is sound for all inputs within the
//! function's declared input bounds.

use crate::narrow::{fit, lo64};
use std::collections::HashMap;

use crate::ir::{word_mask, Func, Instr, Op, Range, Var};

/// What a variable of the input function became.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    Const(u64),
    Var(Var),
}

/// The ranges of every variable of `f` (indexed by `Var`), from its input bounds.
pub fn ranges(f: &Func) -> Vec<Range> {
    let w = f.w;
    let mut r = vec![Range::full(w); f.num_vars as usize];
    for ins in &f.instrs {
        let (lo, hi) = range_of(&ins.op, &r, w, &f.inputs);
        r[ins.outs[0].0 as usize] = lo;
        if let Some(h) = hi {
            r[ins.outs[1].0 as usize] = h;
        }
    }
    r
}

fn range_of(op: &Op, r: &[Range], w: u32, inputs: &[Vec<u64>]) -> (Range, Option<Range>) {
    let m = word_mask(w) as u128;
    let g = |v: Var| r[v.0 as usize];
    let full = Range::full(w);
    let split = |min: u128, max: u128| -> (Range, Option<Range>) {
        // Low word is exact only when the whole range lies in one 2^w block.
        let lo = if min >> w == max >> w {
            Range {
                min: lo64(min & m),
                max: lo64(max & m),
            }
        } else {
            full
        };
        (
            lo,
            // Both below 2^(2w): the high words.
            Some(Range {
                min: lo64(min >> w),
                max: lo64(max >> w),
            }),
        )
    };
    match *op {
        Op::Const(c) => (Range::exact(c), None),
        Op::Input { arg, limb } => (
            Range {
                min: 0,
                max: inputs[arg as usize][limb as usize],
            },
            None,
        ),
        Op::MulAdd { a, b, c, d } => {
            let (a, b, c, d) = (g(a), g(b), g(c), g(d));
            let min = a.min as u128 * b.min as u128 + c.min as u128 + d.min as u128;
            let max = a.max as u128 * b.max as u128 + c.max as u128 + d.max as u128;
            split(min, max)
        }
        Op::AddCarry { a, b, cin } => {
            let (a, b, cin) = (g(a), g(b), g(cin));
            let min = a.min as u128 + b.min as u128 + cin.min as u128;
            let max = a.max as u128 + b.max as u128 + cin.max as u128;
            split(min, max)
        }
        Op::SubBorrow { a, b, bin } => {
            let (a, b, bin) = (g(a), g(b), g(bin));
            let low = a.min as i128 - b.max as i128 - bin.max as i128;
            let high = a.max as i128 - b.min as i128 - bin.min as i128;
            if low >= 0 {
                // 0 ≤ low ≤ high ≤ a.max < 2^w.
                (
                    Range {
                        min: fit(low),
                        max: fit(high),
                    },
                    Some(Range::exact(0)),
                )
            } else if high < 0 {
                let add = 1i128 << w;
                (
                    // −2^w ≤ low ≤ high < 0: both sums lie in [0, 2^w).
                    Range {
                        min: fit(low + add),
                        max: fit(high + add),
                    },
                    Some(Range::exact(1)),
                )
            } else {
                (full, Some(Range { min: 0, max: 1 }))
            }
        }
        Op::Shr { a, k } => {
            let a = g(a);
            (
                Range {
                    min: a.min >> k,
                    max: a.max >> k,
                },
                None,
            )
        }
        Op::And { a, b } => {
            let (a, b) = (g(a), g(b));
            (
                Range {
                    min: 0,
                    max: a.max.min(b.max),
                },
                None,
            )
        }
        Op::Mask { bit } => {
            let bit = g(bit);
            let mk = |x: u64| x.wrapping_neg() & lo64(m);
            if bit.max == 0 {
                (Range::exact(0), None)
            } else if bit.min == 1 {
                (Range::exact(mk(1)), None)
            } else {
                (full, None)
            }
        }
        Op::Select { a, b, .. } => {
            let (a, b) = (g(a), g(b));
            (
                Range {
                    min: a.min.min(b.min),
                    max: a.max.max(b.max),
                },
                None,
            )
        }
        Op::Or { a, b } | Op::Xor { a, b } => {
            let (a, b) = (g(a), g(b));
            let bits = 64 - (a.max | b.max).leading_zeros();
            let max = if bits >= 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            (
                Range {
                    min: 0,
                    max: max.min(lo64(m)),
                },
                None,
            )
        }
        Op::MulLo { a, b } => {
            let (a, b) = (g(a), g(b));
            let max = a.max as u128 * b.max as u128;
            if max <= m {
                (
                    Range {
                        // min ≤ max ≤ m < 2^64.
                        min: lo64(a.min as u128 * b.min as u128),
                        max: lo64(max),
                    },
                    None,
                )
            } else {
                (full, None)
            }
        }
        Op::Shl { a, k } => {
            let a = g(a);
            if (a.max as u128) << k <= m {
                (
                    Range {
                        min: a.min << k,
                        max: a.max << k,
                    },
                    None,
                )
            } else {
                (full, None)
            }
        }
        Op::Not { .. } => (full, None),
    }
}

/// Rewriting state: what each old variable became, the ranges of the new function's variables,
/// and one materialised variable per distinct constant.
struct Simplifier {
    w: u32,
    val: Vec<Val>,
    range: Vec<Range>,
    out: Vec<Instr>,
    const_var: HashMap<u64, Var>,
    next: u32,
}

impl Simplifier {
    fn konst(&self, v: Var) -> Option<u64> {
        match self.val[v.0 as usize] {
            Val::Const(c) => Some(c),
            Val::Var(_) => None,
        }
    }

    /// The new-function variable holding what old variable `v` became.
    fn resolve(&mut self, v: Var) -> Var {
        match self.val[v.0 as usize] {
            Val::Var(x) => x,
            Val::Const(c) => self.constant(c),
        }
    }

    fn constant(&mut self, c: u64) -> Var {
        if let Some(v) = self.const_var.get(&c) {
            return *v;
        }
        let v = Var(self.next);
        self.next += 1;
        self.range.push(Range::exact(c));
        self.out.push(Instr {
            op: Op::Const(c),
            outs: [v, v],
        });
        self.const_var.insert(c, v);
        v
    }

    fn set_range(&mut self, v: Var, r: Range) {
        if self.range.len() <= v.0 as usize {
            self.range.resize(v.0 as usize + 1, Range::full(self.w));
        }
        self.range[v.0 as usize] = r;
    }
}

/// Forward pass: substitute known values, fold constants, drop impossible carries.
pub fn simplify(f: &Func) -> Func {
    let w = f.w;
    let m = word_mask(w);
    let mut s = Simplifier {
        w,
        val: (0..f.num_vars).map(|i| Val::Var(Var(i))).collect(),
        range: vec![Range::full(w); f.num_vars as usize],
        out: Vec::with_capacity(f.instrs.len()),
        const_var: HashMap::new(),
        next: f.num_vars,
    };
    for ins in &f.instrs {
        let op = ins.op;
        let (o0, o1) = (ins.outs[0].0 as usize, ins.outs[1].0 as usize);
        // Fold when every operand is constant.
        if !matches!(op, Op::Input { .. }) && op.operands().iter().all(|v| s.konst(*v).is_some()) {
            let args: Vec<u64> = op.operands().iter().map(|v| s.konst(*v).unwrap()).collect();
            let (lo, hi) = eval(&op, &args, w);
            s.val[o0] = Val::Const(lo);
            if let Some(h) = hi {
                s.val[o1] = Val::Const(h);
            }
            continue;
        }
        // 0 − 0 − bin: the borrow is bin itself and the difference its mask.
        if let Op::SubBorrow { a, b, bin } = op {
            if s.konst(a) == Some(0) && s.konst(b) == Some(0) {
                s.val[o1] = s.val[bin.0 as usize];
                let bit = s.resolve(bin);
                let mask_op = Op::Mask { bit };
                let (r, _) = range_of(&mask_op, &s.range, w, &f.inputs);
                s.set_range(ins.outs[0], r);
                s.val[o0] = Val::Var(ins.outs[0]);
                s.out.push(Instr {
                    op: mask_op,
                    outs: [ins.outs[0], ins.outs[0]],
                });
                continue;
            }
        }
        // Identities that make the result an existing value.
        let c = |v: Var| s.konst(v);
        let v = |x: Var| s.val[x.0 as usize];
        let zero_factor = |a: Var, b: Var| c(a) == Some(0) || c(b) == Some(0);
        let resolved: Option<(Val, Option<Val>)> = match op {
            Op::MulLo { a, b } if zero_factor(a, b) => Some((Val::Const(0), None)),
            Op::MulLo { a, b } if c(b) == Some(1) => Some((v(a), None)),
            Op::MulLo { a, b } if c(a) == Some(1) => Some((v(b), None)),
            Op::And { a, b } if zero_factor(a, b) => Some((Val::Const(0), None)),
            Op::And { a, b } if c(b) == Some(m) => Some((v(a), None)),
            Op::And { a, b } if c(a) == Some(m) => Some((v(b), None)),
            Op::Or { a, b } | Op::Xor { a, b } if c(b) == Some(0) => Some((v(a), None)),
            Op::Or { a, b } | Op::Xor { a, b } if c(a) == Some(0) => Some((v(b), None)),
            Op::Select { a, b, .. } if v(a) == v(b) => Some((v(a), None)),
            Op::Select { mask, a, b } if c(mask).is_some() => {
                Some((if c(mask) == Some(0) { v(a) } else { v(b) }, None))
            }
            Op::AddCarry { a, b, cin } if c(b) == Some(0) && c(cin) == Some(0) => {
                Some((v(a), Some(Val::Const(0))))
            }
            Op::AddCarry { a, b, cin } if c(a) == Some(0) && c(cin) == Some(0) => {
                Some((v(b), Some(Val::Const(0))))
            }
            Op::AddCarry { a, b, cin } if c(a) == Some(0) && c(b) == Some(0) => {
                Some((v(cin), Some(Val::Const(0))))
            }
            Op::SubBorrow { a, b, bin } if c(b) == Some(0) && c(bin) == Some(0) => {
                Some((v(a), Some(Val::Const(0))))
            }
            Op::MulAdd { a, b, c: x, d } if zero_factor(a, b) && c(x) == Some(0) => {
                Some((v(d), Some(Val::Const(0))))
            }
            Op::MulAdd { a, b, c: x, d } if zero_factor(a, b) && c(d) == Some(0) => {
                Some((v(x), Some(Val::Const(0))))
            }
            _ => None,
        };
        if let Some((lo, hi)) = resolved {
            s.val[o0] = lo;
            if let Some(h) = hi {
                s.val[o1] = h;
            }
            continue;
        }
        // Rewrites into a cheaper operation, then operands resolved to new variables.
        let new_op = match op {
            // 0·b + c + d = c + d; a·1 + 0 + d = a + d.
            Op::MulAdd { a, b, c: x, d } if zero_factor(a, b) => {
                let (x, d, z) = (s.resolve(x), s.resolve(d), s.constant(0));
                Op::AddCarry { a: x, b: d, cin: z }
            }
            Op::MulAdd { a, b, c: x, d }
                if c(x) == Some(0) && (c(a) == Some(1) || c(b) == Some(1)) =>
            {
                let other = if c(b) == Some(1) { a } else { b };
                let (o, d, z) = (s.resolve(other), s.resolve(d), s.constant(0));
                Op::AddCarry { a: o, b: d, cin: z }
            }
            other => {
                let mut map = HashMap::new();
                for x in other.operands() {
                    let r = s.resolve(x);
                    map.insert(x, r);
                }
                other.map_operands(|x| map[&x])
            }
        };
        // Range analysis on the rewritten instruction.
        let (rlo, rhi) = range_of(&new_op, &s.range, w, &f.inputs);
        s.set_range(ins.outs[0], rlo);
        let lo_const = rlo.min == rlo.max && !matches!(new_op, Op::Input { .. });
        s.val[o0] = if lo_const {
            Val::Const(rlo.min)
        } else {
            Val::Var(ins.outs[0])
        };
        let mut hi_live = false;
        if let Some(h) = rhi {
            s.set_range(ins.outs[1], h);
            hi_live = h.min != h.max;
            s.val[o1] = if hi_live {
                Val::Var(ins.outs[1])
            } else {
                Val::Const(h.min)
            };
        }
        if !lo_const || hi_live {
            s.out.push(Instr {
                op: new_op,
                outs: ins.outs,
            });
        }
    }
    let outputs = f.outputs.iter().map(|v| s.resolve(*v)).collect();
    Func {
        w,
        inputs: f.inputs.clone(),
        instrs: s.out,
        outputs,
        num_vars: s.next,
        // Obligations name variables of the input function; they are verified there.
        checks: Vec::new(),
        output_bounds: f.output_bounds.clone(),
    }
}

/// Evaluates `op` on constant operands.
fn eval(op: &Op, a: &[u64], w: u32) -> (u64, Option<u64>) {
    let m = word_mask(w);
    match *op {
        Op::Const(c) => (c, None),
        Op::Input { .. } => unreachable!("inputs are never constant"),
        Op::MulAdd { .. } => {
            let t = a[0] as u128 * a[1] as u128 + a[2] as u128 + a[3] as u128;
            (lo64(t) & m, Some(lo64(t >> w)))
        }
        Op::MulLo { .. } => (a[0].wrapping_mul(a[1]) & m, None),
        Op::AddCarry { .. } => {
            let t = a[0] as u128 + a[1] as u128 + a[2] as u128;
            (lo64(t) & m, Some(lo64(t >> w)))
        }
        Op::SubBorrow { .. } => {
            let y = a[1] as u128 + a[2] as u128;
            let borrow = ((a[0] as u128) < y) as u64;
            (
                lo64((a[0] as u128 + ((borrow as u128) << w)) - y),
                Some(borrow),
            )
        }
        Op::And { .. } => (a[0] & a[1], None),
        Op::Or { .. } => (a[0] | a[1], None),
        Op::Xor { .. } => (a[0] ^ a[1], None),
        Op::Not { .. } => (!a[0] & m, None),
        Op::Shl { k, .. } => ((a[0] << k) & m, None),
        Op::Shr { k, .. } => (a[0] >> k, None),
        Op::Mask { .. } => (a[0].wrapping_neg() & m, None),
        Op::Select { .. } => (if a[0] == 0 { a[1] } else { a[2] }, None),
    }
}
