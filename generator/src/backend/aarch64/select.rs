//! Instruction selection from the IR ([`crate::ir::Func`], w = 64) to an AArch64 kernel over
//! virtual values, for the shared allocator, simulator and printer: the backend consumes the
//! lowered and optimised IR instead of re-deriving an algorithm.
//!
//! Rules, one IR instruction at a time in a schedule that keeps carry chains together:
//!
//! - `MulAdd` is `mul`/`umulh` and, per addend other than the constant 0, `adds` on the low word
//!   and `adc` of the carry into the high word; `MulLo` is `mul`.
//! - `AddCarry`/`SubBorrow` are `adds`/`adcs` and `subs`/`sbcs`. The selector tracks what C
//!   holds (a carry, or the inverse of a borrow: ARM's C after a subtraction is NOT borrow), so
//!   a link whose carry-in is still in C reads it directly; otherwise the carry word is put
//!   back into C (`cmp c, #1` for a carry, `cmp xzr, b` for a borrow, or a constant C).
//!   Every carry out is also materialised (`cset`), and dead-code elimination removes the
//!   materialisations nothing reads.
//! - [`schedule`] moves the instructions between two links of a chain (a carry whose only use
//!   is the next link's carry-in) before or after the chain, so no flag-setting instruction
//!   separates the links; a link that depends on such an instruction ends the chain.
//! - `Mask` of a bit still in C is `csetm` (carry) or `sbc m, xzr, xzr` (borrow), else `neg`;
//!   `Select` is `csel` on C, after `cmp mask, #1` unless C already tells whether the mask is
//!   0. No branches: every rule is straight-line and constant time.
//! - Constants are `xzr` (0), the register input n0', a load from the modulus pointer (a limb
//!   of p that would take more than one `mov`), or `movz`/`movn` and `movk`; input limbs are `ldr` from the operand
//!   pointers. Both are materialised at their first use (or at each use, [`Leaves`]) so the
//!   kernel fits the register file without spilling.
//!
//! A final pass removes instructions whose results and flags are dead and turns `adds`/`adcs`
//! whose carry is dead into `add`/`adc`.

use crate::narrow::fit;
use std::collections::{HashMap, HashSet};

use super::inst::{AluOp, Cond, Inst, LogicOp, Opnd, V};
use super::program::{Builder, Input, VProgram};
use super::{allocate, registers, Allocation};
use crate::backend::isa::Operands;
use crate::ir::{Func, Op, Var};

/// Where constants and input limbs are materialised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaves {
    /// Once, at the first use; kept in a register until the last.
    Once,
    /// Constants at each use (input limbs once).
    ConstantsEachUse,
    /// Constants and input limbs at each use.
    EachUse,
}

/// A selected and allocated kernel.
#[derive(Clone, Debug)]
pub struct Selected {
    /// Before allocation.
    pub program: VProgram,
    /// After allocation.
    pub alloc: Allocation,
    /// The leaf placement that fitted the register file.
    pub leaves: Leaves,
}

impl Selected {
    /// Instructions after allocation.
    pub fn instructions(&self) -> usize {
        self.alloc.insts.len()
    }

    /// `mul` and `umulh` instructions.
    pub fn multiplies(&self) -> usize {
        self.program.multiplies()
    }
}

/// What the kernel is given besides its operands, for constants equal to one of them: the
/// limbs behind the modulus pointer ([`Input::Modulus`]) and the value of the register input
/// [`Input::N0`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Given<'a> {
    /// The limbs of p.
    pub modulus: Option<&'a [u64]>,
    /// n0' = −p⁻¹ mod 2^64.
    pub n0: Option<u64>,
}

/// Selects `f` and allocates it over the kernel register file, with leaves materialised once
/// if that fits, else at each use. A constant equal to n0' is the register input, one equal to
/// a limb of p that would take more than one move is loaded. An error when `f` is not over
/// 64-bit words or no placement fits.
pub fn compile(f: &Func, given: Given) -> Result<Selected, String> {
    let pool = registers();
    let mut last = String::new();
    for leaves in [Leaves::Once, Leaves::ConstantsEachUse, Leaves::EachUse] {
        let mut program = select(f, given, leaves)?;
        fuse_carry_adds(&mut program);
        match allocate(&program, &pool) {
            Ok(mut alloc) => {
                // Loads of neighbouring words become `ldp` where the longer live range still
                // fits: the closest pairs first, each kept only if the kernel still allocates.
                let mut accepted = Vec::new();
                for pair in load_pairs(&program) {
                    accepted.push(pair);
                    let paired = pair_loads(&program, &accepted);
                    match allocate(&paired, &pool) {
                        Ok(a) => alloc = a,
                        Err(_) => {
                            accepted.pop();
                        }
                    }
                }
                let program = pair_loads(&program, &accepted);
                return Ok(Selected {
                    program,
                    alloc,
                    leaves,
                });
            }
            Err(e) => last = e,
        }
    }
    Err(format!("no leaf placement fits the register file: {last}"))
}

pub use crate::backend::isa::schedule::{schedule, Schedule};

/// What C holds, as facts about IR variables: `(v, true)` is C = (v ≠ 0), `(v, false)` is
/// C = (v = 0).
type Flags = Vec<(Var, bool)>;

struct Selector<'a> {
    b: Builder,
    f: &'a Func,
    given: Given<'a>,
    leaves: Leaves,
    consts: HashMap<Var, u64>,
    inputs: HashMap<Var, (u16, u16)>,
    vals: HashMap<Var, V>,
    ptrs: Vec<(Input, V)>,
    flags: Flags,
    uses: HashMap<Var, usize>,
    defs: HashMap<Var, Op>,
}

impl Selector<'_> {
    fn ptr(&mut self, what: Input) -> V {
        if let Some((_, v)) = self.ptrs.iter().find(|(w, _)| *w == what) {
            return *v;
        }
        let v = self.b.input(what);
        self.ptrs.push((what, v));
        v
    }

    /// `x` in a register: built with `movz`/`movn` and `movk`, or loaded when it is a limb of p
    /// that would take more than one move.
    fn constant(&mut self, x: u64) -> V {
        let bytes = x.to_le_bytes();
        let chunks: Vec<u16> = (0..4)
            .map(|k| u16::from_le_bytes([bytes[2 * k], bytes[2 * k + 1]]))
            .collect();
        let zeros = chunks.iter().filter(|c| **c == 0).count();
        let ones = chunks.iter().filter(|c| **c == 0xffff).count();
        let moves = 4 - zeros.max(ones);
        if moves > 1 && self.given.n0 == Some(x) {
            return self.ptr(Input::N0);
        }
        if moves > 1 {
            if let Some(j) = self
                .given
                .modulus
                .and_then(|m| m.iter().position(|l| *l == x))
            {
                let p = self.ptr(Input::Modulus);
                return self.b.ldr(p, j);
            }
        }
        let inverted = ones > zeros;
        let skip = if inverted { 0xffff } else { 0 };
        let mut v: Option<V> = None;
        for (k, &c) in chunks.iter().enumerate() {
            if c == skip {
                continue;
            }
            let shift = fit(16 * k);
            v = Some(match v {
                None if inverted => self.b.def(|dst| Inst::Movn {
                    dst,
                    imm: !c,
                    shift,
                }),
                None => self.b.def(|dst| Inst::Movz { dst, imm: c, shift }),
                Some(src) => self.b.def(|dst| Inst::Movk {
                    dst,
                    src,
                    imm: c,
                    shift,
                }),
            });
        }
        v.unwrap_or_else(|| {
            if inverted {
                self.b.def(|dst| Inst::Movn {
                    dst,
                    imm: 0,
                    shift: 0,
                })
            } else {
                self.b.def(|dst| Inst::Movz {
                    dst,
                    imm: 0,
                    shift: 0,
                })
            }
        })
    }

    /// The register holding `v`, materialising a constant or input limb.
    fn reg(&mut self, v: Var) -> V {
        if let Some(r) = self.vals.get(&v) {
            return *r;
        }
        let (r, keep) = if let Some(&x) = self.consts.get(&v) {
            (self.constant(x), self.leaves == Leaves::Once)
        } else if let Some(&(arg, limb)) = self.inputs.get(&v) {
            let p = self.ptr(Input::Operand(arg.into()));
            (self.b.ldr(p, limb.into()), self.leaves != Leaves::EachUse)
        } else {
            panic!("{v:?} used before its definition")
        };
        if keep {
            self.vals.insert(v, r);
        }
        r
    }

    /// `v` as an operand: `xzr` for the constant 0.
    fn opnd(&mut self, v: Var) -> Opnd<V> {
        if self.consts.get(&v) == Some(&0) {
            Opnd::Zero
        } else {
            Opnd::Reg(self.reg(v))
        }
    }

    /// Whether C holds `v` (`(v, true)`: C = v for a bit) or its inverse.
    fn flag(&self, v: Var) -> Option<bool> {
        self.flags.iter().find(|(x, _)| *x == v).map(|(_, p)| *p)
    }

    fn alu(&mut self, op: AluOp, a: Opnd<V>, b: Opnd<V>) -> V {
        if op.sets_carry() {
            self.flags.clear();
        }
        self.b.alu(op, a, b)
    }

    fn set_flags(&mut self, op: AluOp, a: Opnd<V>, b: Opnd<V>) {
        self.flags.clear();
        self.b.alu_flags(op, a, b);
    }

    /// Puts the bit `bit` in C (`want` true: C = bit; false: C = NOT bit).
    fn carry_in(&mut self, bit: Var, want: bool) {
        if self.flag(bit) == Some(want) {
            return;
        }
        match self.consts.get(&bit) {
            // subs xzr, xzr, xzr sets C; adds xzr, xzr, xzr clears it.
            Some(&x) => {
                let op = if (x != 0) == want {
                    AluOp::Subs
                } else {
                    AluOp::Adds
                };
                self.set_flags(op, Opnd::Zero, Opnd::Zero);
            }
            None => {
                let r = self.reg(bit);
                self.flags.clear();
                if want {
                    self.b.cmp_one(r);
                } else {
                    self.b.alu_flags(AluOp::Subs, Opnd::Zero, Opnd::Reg(r));
                }
            }
        }
        self.flags = vec![(bit, want)];
    }

    /// Whether `a·b + t` is 0 mod 2^64 for every t: the Montgomery reduction step, with `a` the
    /// quotient t·n0' (or t itself when n0' = 1) and `b` the limb p\[0\].
    fn quotient_step(&self, a: Var, b: Var, t: Var) -> bool {
        let (Some(&p0), false) = (self.consts.get(&b), self.consts.contains_key(&t)) else {
            return false;
        };
        let n0 = if a == t {
            Some(1)
        } else {
            match self.defs.get(&a) {
                Some(&Op::MulLo { a: x, b: y }) if x == t => self.consts.get(&y).copied(),
                Some(&Op::MulLo { a: x, b: y }) if y == t => self.consts.get(&x).copied(),
                _ => None,
            }
        };
        n0.is_some_and(|n0| n0.wrapping_mul(p0) == u64::MAX)
    }

    /// A row of `MulAdd`s, each high word an addend of the next: Σ (a_j·b_j + x_j)·2^(64j) as
    /// two carry chains, the low words of the products and the addends x_j at positions j,
    /// then the high words at positions j + 1; the top word takes both chains' carries (the
    /// row's sum fits its words, so it does not overflow). When the first link is a
    /// Montgomery quotient step whose low word is dead, that word is 0 and its carry is
    /// t ≠ 0 (`cmp t, #1`), without the `mul`.
    fn mul_row(&mut self, links: &[usize]) {
        let f = self.f;
        let k = links.len();
        let mut terms = Vec::with_capacity(k);
        let mut prev_hi: Option<Var> = None;
        for &l in links {
            let Op::MulAdd { a, b, c, d } = f.instrs[l].op else {
                unreachable!("rows are MulAdd links")
            };
            let x = match prev_hi {
                Some(h) if c == h => d,
                Some(_) => c,
                None if self.consts.get(&c) == Some(&0) => d,
                None => c,
            };
            terms.push((a, b, x, f.instrs[l].outs));
            prev_hi = Some(f.instrs[l].outs[1]);
        }
        // Chain 1: the low words and the addends.
        let mut r: Vec<Option<V>> = vec![None; k];
        let mut started = false;
        for (j, &(a, b, x, outs)) in terms.iter().enumerate() {
            if j == 0
                && !self.uses.contains_key(&outs[0])
                && self.consts.get(&x) != Some(&0)
                && self.quotient_step(a, b, x)
            {
                let t = self.reg(x);
                self.flags.clear();
                self.b.cmp_one(t);
                started = true;
                continue;
            }
            let (ra, rb) = (self.reg(a), self.reg(b));
            let p = self.b.mul(ra, rb);
            let xo = self.opnd(x);
            r[j] = Some(if xo == Opnd::Zero && !started {
                p
            } else {
                let op = if started { AluOp::Adcs } else { AluOp::Adds };
                started = true;
                self.alu(op, Opnd::Reg(p), xo)
            });
        }
        let (a, b, _, outs) = terms[k - 1];
        let (ra, rb) = (self.reg(a), self.reg(b));
        let mut top = self.b.umulh(ra, rb);
        if started {
            top = self.alu(AluOp::Adc, Opnd::Reg(top), Opnd::Zero);
        }
        // Chain 2: the high words one position up.
        for j in 1..k {
            let (a, b, _, _) = terms[j - 1];
            let (ra, rb) = (self.reg(a), self.reg(b));
            let h = self.b.umulh(ra, rb);
            let op = if j == 1 { AluOp::Adds } else { AluOp::Adcs };
            r[j] = Some(match r[j] {
                Some(w) => self.alu(op, Opnd::Reg(w), Opnd::Reg(h)),
                None => unreachable!("only the first word can be skipped"),
            });
        }
        top = self.alu(AluOp::Adc, Opnd::Reg(top), Opnd::Zero);
        for (j, &(_, _, _, o)) in terms.iter().enumerate() {
            if let Some(w) = r[j] {
                self.vals.insert(o[0], w);
            }
        }
        self.vals.insert(outs[1], top);
    }

    fn select_instr(&mut self, op: &Op, outs: [Var; 2]) {
        let [o0, o1] = outs;
        match *op {
            Op::Const(x) => {
                self.consts.insert(o0, x);
            }
            Op::Input { arg, limb } => {
                self.inputs.insert(o0, (arg, limb));
            }
            Op::MulAdd { a, b, c, d } => {
                let (ra, rb) = (self.reg(a), self.reg(b));
                let mut lo = self.b.mul(ra, rb);
                let mut hi = self.b.umulh(ra, rb);
                for x in [c, d] {
                    if self.consts.get(&x) == Some(&0) {
                        continue;
                    }
                    let x = self.opnd(x);
                    lo = self.alu(AluOp::Adds, Opnd::Reg(lo), x);
                    hi = self.alu(AluOp::Adc, Opnd::Reg(hi), Opnd::Zero);
                }
                self.vals.insert(o0, lo);
                self.vals.insert(o1, hi);
            }
            Op::MulLo { a, b } => {
                let (ra, rb) = (self.reg(a), self.reg(b));
                let r = self.b.mul(ra, rb);
                self.vals.insert(o0, r);
            }
            Op::AddCarry { a, b, cin } => {
                let op = if self.consts.get(&cin) == Some(&0) {
                    AluOp::Adds
                } else {
                    self.carry_in(cin, true);
                    AluOp::Adcs
                };
                let (x, y) = (self.opnd(a), self.opnd(b));
                let s = self.alu(op, x, y);
                self.flags = vec![(o1, true)];
                let c = self.b.def(|dst| Inst::CsetCond {
                    dst,
                    cond: Cond::Cs,
                    mask: false,
                });
                self.vals.insert(o0, s);
                self.vals.insert(o1, c);
            }
            Op::SubBorrow { a, b, bin } => {
                let op = if self.consts.get(&bin) == Some(&0) {
                    AluOp::Subs
                } else {
                    self.carry_in(bin, false);
                    AluOp::Sbcs
                };
                let (x, y) = (self.opnd(a), self.opnd(b));
                let s = self.alu(op, x, y);
                self.flags = vec![(o1, false)];
                let c = self.b.def(|dst| Inst::CsetCond {
                    dst,
                    cond: Cond::Cc,
                    mask: false,
                });
                self.vals.insert(o0, s);
                self.vals.insert(o1, c);
            }
            Op::And { a, b } | Op::Or { a, b } | Op::Xor { a, b } => {
                let lop = match op {
                    Op::And { .. } => LogicOp::And,
                    Op::Or { .. } => LogicOp::Orr,
                    _ => LogicOp::Eor,
                };
                let (a, b) = (self.reg(a), self.reg(b));
                let r = self.b.def(|dst| Inst::Logic { op: lop, dst, a, b });
                self.vals.insert(o0, r);
            }
            Op::Not { a } => {
                let a = self.reg(a);
                let r = self.b.def(|dst| Inst::Mvn { dst, a });
                self.vals.insert(o0, r);
            }
            Op::Shl { a, k } | Op::Shr { a, k } => {
                let left = matches!(op, Op::Shl { .. });
                let a = self.reg(a);
                let r = self.b.def(|dst| Inst::Shift { left, dst, a, k });
                self.vals.insert(o0, r);
            }
            Op::Mask { bit } => {
                let r = match self.flag(bit) {
                    Some(true) => self.b.def(|dst| Inst::CsetCond {
                        dst,
                        cond: Cond::Cs,
                        mask: true,
                    }),
                    // C = NOT bit: sbc m, xzr, xzr is C − 1 = −bit.
                    Some(false) => self.b.alu(AluOp::Sbc, Opnd::Zero, Opnd::Zero),
                    None => {
                        let a = self.reg(bit);
                        self.b.def(|dst| Inst::Neg { dst, a })
                    }
                };
                // The mask is non-zero exactly when the bit is.
                if let Some(p) = self.flag(bit) {
                    self.flags.push((o0, p));
                }
                self.vals.insert(o0, r);
            }
            Op::Select { mask, a, b } => {
                // mask = 0 ? a : b.
                let (ra, rb) = (self.reg(a), self.reg(b));
                let nonzero_is_c = match self.flag(mask) {
                    Some(p) => p,
                    None => {
                        let m = self.reg(mask);
                        self.flags.clear();
                        self.b.cmp_one(m);
                        self.flags = vec![(mask, true)];
                        true
                    }
                };
                let r = if nonzero_is_c {
                    self.b.csel(rb, ra)
                } else {
                    self.b.csel(ra, rb)
                };
                self.vals.insert(o0, r);
            }
        }
    }
}

/// Selects `f` (64-bit words) as an AArch64 kernel: operand `k` of `f` is read through the
/// pointer input [`Input::Operand`]`(k)`, limbs of p (when given) through [`Input::Modulus`],
/// n0' (when given) is [`Input::N0`]; the results are registers, least significant first,
/// each a distinct value. An error when `f` is not over 64-bit words.
pub fn select(f: &Func, given: Given, leaves: Leaves) -> Result<VProgram, String> {
    if f.w != 64 {
        return Err(format!(
            "the aarch64 selector takes 64-bit words, not {}",
            f.w
        ));
    }
    let mut s = Selector {
        b: Builder::new(),
        f,
        given,
        leaves,
        consts: HashMap::new(),
        inputs: HashMap::new(),
        vals: HashMap::new(),
        ptrs: Vec::new(),
        flags: Vec::new(),
        uses: HashMap::new(),
        defs: HashMap::new(),
    };
    for ins in &f.instrs {
        for v in ins.op.operands() {
            *s.uses.entry(v).or_insert(0) += 1;
        }
        s.defs.insert(ins.outs[0], ins.op);
    }
    for v in &f.outputs {
        *s.uses.entry(*v).or_insert(0) += 1;
    }
    let sched = schedule(f);
    let mut row_of: HashMap<usize, usize> = HashMap::new();
    for (r, row) in sched.rows.iter().enumerate() {
        for &k in row {
            row_of.insert(k, r);
        }
    }
    for k in sched.order {
        match row_of.get(&k) {
            Some(&r) if sched.rows[r][0] == k => s.mul_row(&sched.rows[r]),
            Some(_) => {}
            None => {
                let ins = s.f.instrs[k];
                s.select_instr(&ins.op, ins.outs);
            }
        }
    }
    let mut outs = Vec::with_capacity(f.outputs.len());
    let mut seen = HashSet::new();
    for &v in &f.outputs {
        let mut r = s.reg(v);
        if !seen.insert(r) {
            r = s.b.alu(AluOp::Add, Opnd::Reg(r), Opnd::Zero);
            seen.insert(r);
        }
        outs.push(r);
    }
    let mut prog = s.b.finish(outs);
    dce(&mut prog);
    Ok(prog)
}

/// Removes instructions whose results and flags nothing reads, and drops the carry out of
/// `adds`/`adcs` when it is dead.
pub fn dce(prog: &mut VProgram) {
    let mut live: HashSet<V> = prog.outputs.iter().copied().collect();
    let mut c_live = false;
    let mut kept = Vec::with_capacity(prog.insts.len());
    for inst in prog.insts.iter().rev() {
        let mut inst = *inst;
        let value_live = inst.writes().iter().any(|v| live.contains(v));
        let flag_live = inst.sets_carry() && c_live;
        if !value_live && !flag_live {
            continue;
        }
        if let Inst::Alu { op, dst, a, b } = inst {
            let op = match op {
                AluOp::Adds if !c_live => AluOp::Add,
                AluOp::Adcs if !c_live => AluOp::Adc,
                _ => op,
            };
            let dst = dst.filter(|d| live.contains(d));
            inst = Inst::Alu { op, dst, a, b };
        }
        if inst.sets_carry() {
            c_live = false;
        }
        if inst.reads_carry() {
            c_live = true;
        }
        live.extend(inst.reads());
        kept.push(inst);
    }
    kept.reverse();
    prog.insts = kept;
}

/// Folds `x = adc b, xzr` whose one reader is a later `y = add p, x` (either operand order,
/// flags not set) into `y = adc b, p` at the `adc`, when p is defined before it: the carry is
/// read where it was, and the top word of a CIOS row takes its carry and the previous top word
/// in one instruction, as the hand kernel does.
pub fn fuse_carry_adds(prog: &mut VProgram) {
    let mut uses: HashMap<V, usize> = HashMap::new();
    for inst in &prog.insts {
        for r in inst.reads() {
            *uses.entry(r).or_default() += 1;
        }
    }
    for &o in &prog.outputs {
        *uses.entry(o).or_default() += 1;
    }
    let mut def: HashMap<V, usize> = HashMap::new();
    for (i, inst) in prog.insts.iter().enumerate() {
        for w in inst.writes() {
            def.insert(w, i);
        }
    }
    let mut removed = vec![false; prog.insts.len()];
    for i in 0..prog.insts.len() {
        let Inst::Alu {
            op: AluOp::Adc,
            dst: Some(x),
            a: Opnd::Reg(b),
            b: Opnd::Zero,
        } = prog.insts[i]
        else {
            continue;
        };
        if uses.get(&x) != Some(&1) {
            continue;
        }
        let Some(j) = (i + 1..prog.insts.len()).find(|&j| prog.insts[j].reads().contains(&x))
        else {
            continue;
        };
        let Inst::Alu {
            op: AluOp::Add,
            dst: Some(y),
            a,
            b: b2,
        } = prog.insts[j]
        else {
            continue;
        };
        let other = match (a, b2) {
            (Opnd::Reg(r), o) if r == x => o,
            (o, Opnd::Reg(r)) if r == x => o,
            _ => continue,
        };
        // `add x, x` reads x twice (uses would be 2); p must exist at the adc.
        if let Opnd::Reg(p) = other {
            if def.get(&p).is_some_and(|&d| d >= i) {
                continue;
            }
        }
        prog.insts[i] = Inst::Alu {
            op: AluOp::Adc,
            dst: Some(y),
            a: Opnd::Reg(b),
            b: other,
        };
        def.insert(y, i);
        removed[j] = true;
    }
    let mut k = 0;
    prog.insts.retain(|_| {
        k += 1;
        !removed[k - 1]
    });
}

/// Candidate `ldp` pairs: positions (i, j) of loads of words k and k + 1 behind one base
/// (k ≤ 62, the reach of `ldp`'s scaled offset), each load in at most one pair: pairs from an
/// even word first (so a run of words pairs up completely), then the closest in the program.
fn load_pairs(prog: &VProgram) -> Vec<(usize, usize)> {
    let loads: Vec<(usize, V, u32)> = prog
        .insts
        .iter()
        .enumerate()
        .filter_map(|(i, inst)| match *inst {
            Inst::Ldr { base, k, .. } => Some((i, base, k)),
            _ => None,
        })
        .collect();
    let mut candidates = Vec::new();
    for &(i, base, k) in &loads {
        for &(j, base2, k2) in &loads {
            if base2 == base && k2 == k + 1 && k < 63 {
                candidates.push((k % 2, i, j));
            }
        }
    }
    candidates.sort_by_key(|&(odd, i, j)| (odd, i.abs_diff(j), i.min(j)));
    let mut taken = HashSet::new();
    candidates
        .into_iter()
        .map(|(_, i, j)| (i, j))
        .filter(|&(i, j)| {
            if taken.contains(&i) || taken.contains(&j) {
                return false;
            }
            taken.insert(i);
            taken.insert(j);
            true
        })
        .collect()
}

/// `prog` with each pair (i, j) of [`load_pairs`] (i loads word k, j word k + 1) as one `ldp`
/// at the earlier of the two places. Sound because the kernels only load: nothing stores to
/// memory before the results are returned.
fn pair_loads(prog: &VProgram, pairs: &[(usize, usize)]) -> VProgram {
    let mut out = prog.clone();
    let mut removed = vec![false; prog.insts.len()];
    for &(i, j) in pairs {
        let (Inst::Ldr { dst: lo, base, k }, Inst::Ldr { dst: hi, .. }) =
            (prog.insts[i], prog.insts[j])
        else {
            continue;
        };
        out.insts[i.min(j)] = Inst::Ldp {
            dst: [lo, hi],
            base,
            k,
        };
        removed[i.max(j)] = true;
    }
    let mut n = 0;
    out.insts.retain(|_| {
        n += 1;
        !removed[n - 1]
    });
    out
}

/// How many instructions of each mnemonic `prog` has, for reports.
pub fn mnemonics(prog: &VProgram) -> std::collections::BTreeMap<String, usize> {
    let mut m = std::collections::BTreeMap::new();
    for inst in &prog.insts {
        let name = match inst {
            Inst::Ldr { .. } => "ldr".to_string(),
            Inst::Ldp { .. } => "ldp".to_string(),
            Inst::Mul { .. } => "mul".to_string(),
            Inst::Umulh { .. } => "umulh".to_string(),
            Inst::Alu { op, .. } => op.mnemonic().to_string(),
            Inst::CmpOne { .. } => "cmp".to_string(),
            Inst::Cset { .. } => "cset".to_string(),
            Inst::Csel { .. } => "csel".to_string(),
            Inst::CsetCond { mask, .. } => if *mask { "csetm" } else { "cset" }.to_string(),
            Inst::Movz { .. } => "movz".to_string(),
            Inst::Movn { .. } => "movn".to_string(),
            Inst::Movk { .. } => "movk".to_string(),
            Inst::Logic { op, .. } => op.mnemonic().to_string(),
            Inst::Mvn { .. } => "mvn".to_string(),
            Inst::Neg { .. } => "neg".to_string(),
            Inst::Shift { left, .. } => if *left { "lsl" } else { "lsr" }.to_string(),
        };
        *m.entry(name).or_insert(0) += 1;
    }
    m
}
