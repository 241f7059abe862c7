//! Instruction selection from the IR ([`crate::ir::Func`], w = 32) to an ARMv7 kernel over
//! virtual values, for the shared allocator, simulator and printer: the backend consumes the
//! lowered and optimised IR (the CIOS product and the square the portable code runs) instead
//! of only the hand-written kernel ([`super::kernel`]).
//!
//! Rules, one IR instruction at a time, in the IR's order or in [`schedule`]'s (whichever
//! kernel is shorter):
//!
//! - `MulAdd` a·b + c + d (a 32×32 → 64-bit product plus two 32-bit addends, which never
//!   overflows: (2^32 − 1)² + 2(2^32 − 1) = 2^64 − 1) is one `umaal`, the addends in the two
//!   accumulator registers it overwrites; an addend still used afterwards is copied first, an
//!   addend 0 is a fresh `mov #0`, and with both addends 0 it is `umull`. `MulLo` is `mul`.
//! - `AddCarry`/`SubBorrow` are `adds`/`adcs` and `subs`/`sbcs`. The selector tracks what C
//!   holds (a carry, or the inverse of a borrow: ARM's C after a subtraction is NOT borrow), so
//!   a link whose carry-in is still in C reads it directly, and a carry bit added as an operand
//!   with carry-in 0 is `adcs a, #0`; otherwise the bit is put back into C (`subs x, bit, #1`
//!   for a carry, `subs x, 0, bit` for a borrow). Every carry out is also materialised
//!   (`adc c, 0, #0`; a borrow as `sbc` and `and #1`), and dead-code elimination removes what
//!   nothing reads. A sum whose carry is needed only as a word, with both addends dying
//!   there, becomes `umaal` with zero factors instead ([`sum_with_umaal`]): c:s = 0·0 + a + b.
//! - `Mask` of a borrow still in C is `sbc m, x, x` (C − 1), else `subs m, 0, bit`. The
//!   selects of the final subtraction, mask = 0 ? d : t word by word with d = t − p a
//!   subtraction chain, are the add chain d + (p & mask) (`and`, `adds`/`adcs`), as in the hand
//!   kernel, so t need not stay live; any other `Select` is a ^ ((a ^ b) & mask). No
//!   branches: every rule is straight-line and constant time.
//! - Constants are `mov #0`, small immediates, or loads of p's limbs and n0' from the modulus
//!   pointer; input limbs are `ldr` from the operand pointers; results are stored to the first
//!   n words of the accumulator buffer.
//!
//! ARMv7 leaves 11 registers to an `asm!` block, 4 of them pointers, so [`spill`] then bounds
//! the values live at once (Belady's furthest-next-use eviction): loads from the operands and
//! the modulus and `mov #0` are re-executed at the next use, other values are stored to spill
//! slots behind the result in the accumulator buffer and loaded back. `And`, `Or`, `Xor`,
//! `Shl` and `Shr` are `and`, `orr`, `eor`, `lsl` and `lsr` (the square's IR doubles its
//! off-diagonal products with shifts); `Not` has no rule and makes selection fail.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::inst::{AluOp, Inst, Opnd, V};
use super::program::{Builder, Input, Layout, VProgram};
use super::{allocate, registers, Allocation, Armv7};
use crate::backend::isa::{Isa, Operands};
use crate::ir::{Func, Op, Var};
use crate::narrow::fit;

/// A selected and allocated kernel.
#[derive(Clone, Debug)]
pub struct Selected {
    /// Before allocation (spill code included).
    pub program: VProgram,
    /// After allocation.
    pub alloc: Allocation,
    /// Spill slots: words of the accumulator buffer beyond the result.
    pub spilled: usize,
}

impl Selected {
    /// Instructions after allocation, spill code included.
    pub fn instructions(&self) -> usize {
        self.alloc.insts.len()
    }

    /// `mul`, `umull` and `umaal` instructions.
    pub fn multiplies(&self) -> usize {
        self.program.multiplies()
    }
}

/// Selects `f`, bounds its live values by spilling and allocates it over the 11 registers:
/// an error when `f` is not over 32-bit words, uses an operation the selector has no rule for,
/// or needs a constant that is neither 0, a small immediate, a limb of p nor n0'.
///
/// `modulus` is p's limbs and `n0` is n0' = −p⁻¹ mod 2^32: the words behind the modulus
/// pointer ([`Input::Modulus`]), from which constants equal to them are loaded.
///
/// Three orders are tried, the IR's and [`schedule`]'s two, and the shortest kernel kept: with
/// few limbs everything fits the registers in any, with many the fused orders spill less.
pub fn compile(f: &Func, modulus: &[u64], n0: u64) -> Result<Selected, String> {
    let pool = registers();
    let mut best: Option<Selected> = None;
    let orders = [
        (0..f.instrs.len()).collect(),
        schedule(f, false),
        schedule(f, true),
    ];
    for order in orders {
        let program = select(f, &order, modulus, n0)?;
        let before = program.layout.buffer_words;
        let program = spill(&program, pool.len())?;
        let alloc = allocate(&program, &pool)?;
        if best
            .as_ref()
            .is_none_or(|b| alloc.insts.len() < b.instructions())
        {
            best = Some(Selected {
                spilled: program.layout.buffer_words - before,
                program,
                alloc,
            });
        }
    }
    best.ok_or_else(|| "no order".into())
}

/// What C holds, as facts about IR variables: `(v, true)` is C = (v ≠ 0), `(v, false)` is
/// C = (v = 0).
type Flags = Vec<(Var, bool)>;

struct Selector<'a> {
    b: Builder,
    modulus: &'a [u64],
    n0: u64,
    consts: HashMap<Var, u64>,
    inputs: HashMap<Var, (u16, u16)>,
    vals: HashMap<Var, V>,
    ptrs: Vec<(Input, V)>,
    flags: Flags,
    /// IR uses not yet selected.
    uses: HashMap<Var, usize>,
    /// Each difference of a subtraction chain: (minuend, subtrahend, the chain's first
    /// difference, position in the chain).
    sub_links: HashMap<Var, (Var, Var, Var, usize)>,
    /// The borrow out of each link: (the chain's first difference, position).
    sub_borrows: HashMap<Var, (Var, usize)>,
    /// An add-back chain whose carry C holds: (mask, the subtraction chain's first difference,
    /// the next position).
    add_back: Option<(Var, Var, usize)>,
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

    /// A register holding the constant `x`, newly materialised.
    fn constant(&mut self, x: u64) -> Result<V, String> {
        if x == 0 {
            return Ok(self.b.zero());
        }
        let p = self.ptr(Input::Modulus);
        if let Some(j) = self.modulus.iter().position(|l| *l == x) {
            return Ok(self.b.ldr(p, j));
        }
        if x == self.n0 {
            return Ok(self.b.ldr(p, self.modulus.len()));
        }
        if let Ok(k) = u8::try_from(x) {
            let z = self.b.zero();
            return Ok(self.b.alu(AluOp::Add, z, Opnd::Imm(k)));
        }
        Err(format!(
            "the constant {x:#x} is not 0, a small immediate, a limb of p or n0'"
        ))
    }

    /// A new register holding the leaf (constant or input limb) `v`, or `None` if `v` is not
    /// a leaf.
    fn leaf(&mut self, v: Var) -> Result<Option<V>, String> {
        if let Some(&x) = self.consts.get(&v) {
            return self.constant(x).map(Some);
        }
        if let Some(&(arg, limb)) = self.inputs.get(&v) {
            let p = self.ptr(Input::Operand(arg.into()));
            return Ok(Some(self.b.ldr(p, limb.into())));
        }
        Ok(None)
    }

    /// The register holding `v`, materialising a leaf at its first use (kept until its last:
    /// [`spill`] re-materialises it where registers run short).
    fn reg(&mut self, v: Var) -> Result<V, String> {
        if let Some(r) = self.vals.get(&v) {
            return Ok(*r);
        }
        match self.leaf(v)? {
            Some(r) => {
                self.vals.insert(v, r);
                Ok(r)
            }
            None => Err(format!("{v:?} used before its definition")),
        }
    }

    /// A register holding `v` that the instruction may overwrite (a `umaal` accumulator): `v`'s
    /// own when this is its last use, else a copy. `taken` is a register already given to the
    /// same instruction, which must not be reused.
    fn consumed(&mut self, v: Var, taken: Option<V>) -> Result<V, String> {
        let last = self.uses.get(&v).copied().unwrap_or(0) == 0;
        if self.consts.get(&v) == Some(&0) {
            return Ok(self.b.zero());
        }
        if let Some(&r) = self.vals.get(&v) {
            if last && Some(r) != taken {
                self.vals.remove(&v);
                return Ok(r);
            }
            if let Some(fresh) = self.leaf(v)? {
                return Ok(fresh);
            }
            return Ok(self.b.alu(AluOp::Add, r, Opnd::Imm(0)));
        }
        match self.leaf(v)? {
            Some(r) => Ok(r),
            None => Err(format!("{v:?} used before its definition")),
        }
    }

    /// `v` as a second operand: an immediate when it is a constant below 256.
    fn opnd(&mut self, v: Var) -> Result<Opnd<V>, String> {
        if let Some(k) = self.consts.get(&v).and_then(|&x| u8::try_from(x).ok()) {
            return Ok(Opnd::Imm(k));
        }
        Ok(Opnd::Reg(self.reg(v)?))
    }

    fn flag(&self, v: Var) -> Option<bool> {
        self.flags.iter().find(|(x, _)| *x == v).map(|(_, p)| *p)
    }

    fn is_const(&self, v: Var, x: u64) -> bool {
        self.consts.get(&v) == Some(&x)
    }

    /// `a op b`, forgetting what C held when `op` sets it.
    fn alu(&mut self, op: AluOp, a: V, b: Opnd<V>) -> V {
        if op.sets_carry() {
            self.flags.clear();
            self.add_back = None;
        }
        self.b.alu(op, a, b)
    }

    /// Puts the bit `bit` in C (`want` true: C = bit; false: C = NOT bit).
    fn carry_in(&mut self, bit: Var, want: bool) -> Result<(), String> {
        if self.flag(bit) == Some(want) {
            return Ok(());
        }
        if let Some(&x) = self.consts.get(&bit) {
            // subs x, r, #0 sets C (no borrow); adds x, r, #0 clears it (any r: a pointer).
            let r = self.ptr(Input::Modulus);
            let op = if (x != 0) == want {
                AluOp::Subs
            } else {
                AluOp::Adds
            };
            self.alu(op, r, Opnd::Imm(0));
        } else {
            let r = self.reg(bit)?;
            if want {
                // C = (bit ≥ 1).
                self.alu(AluOp::Subs, r, Opnd::Imm(1));
            } else {
                // C = (0 ≥ bit).
                let z = self.b.zero();
                self.alu(AluOp::Subs, z, Opnd::Reg(r));
            }
        }
        self.flags = vec![(bit, want)];
        Ok(())
    }

    /// Whether `Select { mask, a, b }` is the next word of an add-back chain: `a` is link k of
    /// a subtraction chain from its first word, `b` that link's minuend, and k = 0 or the
    /// previous word of the same chain with the same mask was the last instruction to set C.
    fn adds_back(&self, mask: Var, a: Var, b: Var) -> bool {
        match self.sub_links.get(&a) {
            Some(&(t, _, root, pos)) if t == b => {
                pos == 0 || self.add_back == Some((mask, root, pos))
            }
            _ => false,
        }
    }

    fn select_instr(&mut self, op: &Op, outs: [Var; 2]) -> Result<(), String> {
        let [o0, o1] = outs;
        for v in op.operands() {
            if let Some(u) = self.uses.get_mut(&v) {
                *u -= 1;
            }
        }
        match *op {
            Op::Const(x) => {
                self.consts.insert(o0, x);
            }
            Op::Input { arg, limb } => {
                self.inputs.insert(o0, (arg, limb));
            }
            Op::MulAdd { a, b, c, d } => {
                let (ra, rb) = (self.reg(a)?, self.reg(b)?);
                let (lo, hi) = if self.is_const(c, 0) && self.is_const(d, 0) {
                    self.b.umull(ra, rb)
                } else if c == d {
                    let r = self.reg(c)?;
                    let hi_in = self.b.alu(AluOp::Add, r, Opnd::Imm(0));
                    let lo_in = self.consumed(c, Some(hi_in))?;
                    self.b.umaal(lo_in, hi_in, ra, rb)
                } else {
                    let lo_in = self.consumed(c, None)?;
                    let hi_in = self.consumed(d, Some(lo_in))?;
                    self.b.umaal(lo_in, hi_in, ra, rb)
                };
                self.vals.insert(o0, lo);
                self.vals.insert(o1, hi);
            }
            Op::MulLo { a, b } => {
                let (ra, rb) = (self.reg(a)?, self.reg(b)?);
                let r = self.b.mul(ra, rb);
                self.vals.insert(o0, r);
            }
            Op::AddCarry { a, b, cin } => {
                // A constant first operand goes second, where it may be an immediate.
                let (a, b) = if self.consts.contains_key(&a) && !self.consts.contains_key(&b) {
                    (b, a)
                } else {
                    (a, b)
                };
                // A carry bit still in C, added with carry-in 0, is the carry-in.
                let (b, cin) = if self.is_const(cin, 0) && self.flag(b) == Some(true) {
                    (cin, b)
                } else {
                    (b, cin)
                };
                let op = if self.is_const(cin, 0) {
                    AluOp::Adds
                } else {
                    self.carry_in(cin, true)?;
                    AluOp::Adcs
                };
                let (x, y) = (self.reg(a)?, self.opnd(b)?);
                let s = self.alu(op, x, y);
                self.flags = vec![(o1, true)];
                let z = self.b.zero();
                let c = self.b.alu(AluOp::Adc, z, Opnd::Imm(0));
                self.vals.insert(o0, s);
                self.vals.insert(o1, c);
            }
            Op::SubBorrow { a, b, bin } => {
                let op = if self.is_const(bin, 0) {
                    AluOp::Subs
                } else {
                    self.carry_in(bin, false)?;
                    AluOp::Sbcs
                };
                let (x, y) = (self.reg(a)?, self.opnd(b)?);
                let s = self.alu(op, x, y);
                self.flags = vec![(o1, false)];
                let (root, pos) = match self.sub_borrows.get(&bin) {
                    Some(&(root, pos)) if !self.is_const(bin, 0) => (root, pos + 1),
                    _ => (o0, 0),
                };
                self.sub_links.insert(o0, (a, b, root, pos));
                self.sub_borrows.insert(o1, (root, pos));
                // sbc m, x, x = C − 1 = −borrow; its low bit is the borrow.
                let m = self.b.alu(AluOp::Sbc, x, Opnd::Reg(x));
                let bit = self.b.alu(AluOp::And, m, Opnd::Imm(1));
                self.vals.insert(o0, s);
                self.vals.insert(o1, bit);
            }
            Op::Mask { bit } => {
                let r = if self.flag(bit) == Some(false) {
                    let x = self.ptr(Input::Modulus);
                    self.b.alu(AluOp::Sbc, x, Opnd::Reg(x))
                } else {
                    let r = self.reg(bit)?;
                    let z = self.b.zero();
                    let m = self.alu(AluOp::Subs, z, Opnd::Reg(r));
                    self.flags = vec![(bit, false)];
                    m
                };
                self.vals.insert(o0, r);
            }
            Op::And { a, b } | Op::Xor { a, b } | Op::Or { a, b } => {
                let lop = match op {
                    Op::And { .. } => AluOp::And,
                    Op::Xor { .. } => AluOp::Eor,
                    _ => AluOp::Orr,
                };
                let (x, y) = (self.reg(a)?, self.opnd(b)?);
                let r = self.b.alu(lop, x, y);
                self.vals.insert(o0, r);
            }
            Op::Select { mask, a, b } if self.adds_back(mask, a, b) => {
                // a is link k of d = t − p and b its minuend t: t = d + p mod 2^(32(k+1)), so
                // mask = 0 ? d : t is word k of d + (p & mask), an add chain over the words.
                let (_, p, root, pos) = self.sub_links[&a];
                let (rm, rp) = (self.reg(mask)?, self.opnd(p)?);
                let q = self.b.alu(AluOp::And, rm, rp);
                let d = self.reg(a)?;
                let op = if pos == 0 { AluOp::Adds } else { AluOp::Adcs };
                let r = self.alu(op, d, Opnd::Reg(q));
                self.add_back = Some((mask, root, pos + 1));
                self.vals.insert(o0, r);
            }
            Op::Select { mask, a, b } => {
                // mask = 0 ? a : b = a ^ ((a ^ b) & mask).
                let (ra, rb, rm) = (self.reg(a)?, self.reg(b)?, self.reg(mask)?);
                let x = self.b.alu(AluOp::Eor, ra, Opnd::Reg(rb));
                let y = self.b.alu(AluOp::And, x, Opnd::Reg(rm));
                let r = self.b.alu(AluOp::Eor, ra, Opnd::Reg(y));
                self.vals.insert(o0, r);
            }
            Op::Shl { a, k } | Op::Shr { a, k } => {
                let left = matches!(op, Op::Shl { .. });
                let k: u8 = fit(k);
                let x = self.reg(a)?;
                let r = self.b.def(|dst| Inst::Shift { left, dst, a: x, k });
                self.vals.insert(o0, r);
            }
            Op::Not { .. } => {
                return Err(format!(
                    "the armv7 selector has no rule for {}",
                    crate::ir::op_name(op)
                ));
            }
        }
        Ok(())
    }
}

/// An order of `f`'s instructions (indices): constants and input limbs first, then the others
/// in the IR's order, each moved up to just after the definition of its latest operand unless
/// it reads an input limb no instruction before that point reads. In the CIOS product this
/// fuses the reduction into the product as the hand kernel does (the quotient right after the
/// row's first word, word j of m·p right after word j of a·b\[i\]) while a row still starts only
/// after the previous one, at the first use of b\[i\]: each accumulator word is then used
/// right after it is made, and few values are live at once.
///
/// Of two instructions moved to the same place the later goes first: in the CIOS rows this
/// places word j + 1 of a·b\[i\] before word j of m·p, a skew that spills less than strict
/// alternation. With `keep_order`, operations of the same kind other than `MulAdd` keep the
/// IR's order among themselves instead (the selects of the final subtraction, word by word,
/// which then become one add chain).
pub fn schedule(f: &Func, keep_order: bool) -> Vec<usize> {
    let leaf = |op: &Op| matches!(op, Op::Const(_) | Op::Input { .. });
    let mut order: Vec<usize> = (0..f.instrs.len())
        .filter(|&k| leaf(&f.instrs[k].op))
        .collect();
    let mut def: HashMap<Var, usize> = HashMap::new();
    let mut input_leaf: HashSet<Var> = HashSet::new();
    // The instruction each instruction was placed after.
    let mut anchored: HashMap<usize, usize> = HashMap::new();
    for &k in &order {
        def.insert(f.instrs[k].outs[0], k);
        if matches!(f.instrs[k].op, Op::Input { .. }) {
            input_leaf.insert(f.instrs[k].outs[0]);
        }
    }
    for (k, ins) in f.instrs.iter().enumerate() {
        if leaf(&ins.op) {
            continue;
        }
        let position: HashMap<usize, usize> =
            order.iter().enumerate().map(|(i, &x)| (x, i)).collect();
        let ops = ins.op.operands();
        let anchor = ops
            .iter()
            .filter_map(|v| def.get(v).copied())
            .max_by_key(|d| position[d]);
        let mut at = anchor.map_or(0, |d| position[&d] + 1);
        let kind = std::mem::discriminant(&ins.op);
        while keep_order
            && !matches!(ins.op, Op::MulAdd { .. })
            && at < order.len()
            && anchor.is_some()
            && anchored.get(&order[at]) == anchor.as_ref()
            && std::mem::discriminant(&f.instrs[order[at]].op) == kind
        {
            at += 1;
        }
        // An input limb not read before `at` keeps the instruction where the IR has it.
        let first_read = |v: Var| {
            order
                .iter()
                .position(|&x| f.instrs[x].op.operands().contains(&v))
                .unwrap_or(usize::MAX)
        };
        if ops
            .iter()
            .any(|v| input_leaf.contains(v) && first_read(*v) >= at)
        {
            at = order.len();
        }
        if let Some(a) = anchor {
            anchored.insert(k, a);
        }
        order.insert(at, k);
        def.insert(ins.outs[0], k);
        if ins.op.arity_out() == 2 {
            def.insert(ins.outs[1], k);
        }
    }
    order
}

/// Selects `f` (32-bit words) as an ARMv7 kernel over virtual values, its instructions taken
/// in `order` (indices into `f.instrs`, operands before their uses: the IR's order or
/// [`schedule`]'s), without bounding the values live at once (see [`spill`]): operand `k` of
/// `f` is read through the pointer input [`Input::Operand`]`(k)`, p's limbs `modulus` and
/// n0' = `n0` through [`Input::Modulus`]; the results are stored to the first words of
/// [`Input::Buffer`].
pub fn select(f: &Func, order: &[usize], modulus: &[u64], n0: u64) -> Result<VProgram, String> {
    if f.w != 32 {
        return Err(format!(
            "the armv7 selector takes 32-bit words, not {}",
            f.w
        ));
    }
    let mut s = Selector {
        b: Builder::new(),
        modulus,
        n0,
        consts: HashMap::new(),
        inputs: HashMap::new(),
        vals: HashMap::new(),
        ptrs: Vec::new(),
        flags: Vec::new(),
        uses: HashMap::new(),
        sub_links: HashMap::new(),
        sub_borrows: HashMap::new(),
        add_back: None,
    };
    for ins in &f.instrs {
        for v in ins.op.operands() {
            *s.uses.entry(v).or_insert(0) += 1;
        }
    }
    for v in &f.outputs {
        *s.uses.entry(*v).or_insert(0) += 1;
    }
    // Every pointer is declared up front, in a fixed order.
    for k in 0..f.inputs.len() {
        s.ptr(Input::Operand(k));
    }
    s.ptr(Input::Modulus);
    let t = s.ptr(Input::Buffer);
    for &k in order {
        let ins = f.instrs[k];
        s.select_instr(&ins.op, ins.outs)?;
    }
    for (j, &v) in f.outputs.iter().enumerate() {
        let r = s.reg(v)?;
        s.b.str(r, t, j);
    }
    let n = f.outputs.len();
    let mut prog = s.b.finish_with(
        Vec::new(),
        Layout {
            limbs: n,
            buffer_words: n,
        },
    );
    dce(&mut prog);
    sum_with_umaal(&mut prog);
    Ok(prog)
}

/// Turns `s = adds a, b` whose carry only `c = adc z, #0` reads (z a `mov #0`: the carry as a
/// word) into `umaal s, c, z, z` with the accumulators a and b: c:s = 0·0 + a + b, one
/// instruction fewer and C left alone. Only where a and b are distinct and die at the `adds`
/// (`umaal` overwrites them) and z has no other reader.
pub fn sum_with_umaal(prog: &mut VProgram) {
    let mut last_use: HashMap<V, usize> = HashMap::new();
    let mut readers: HashMap<V, usize> = HashMap::new();
    for (k, inst) in prog.insts.iter().enumerate() {
        for r in inst.reads() {
            last_use.insert(r, k);
            *readers.entry(r).or_default() += 1;
        }
    }
    let mut removed = vec![false; prog.insts.len()];
    let mut i = 0;
    while i < prog.insts.len() {
        i += 1;
        let i = i - 1;
        let Inst::Alu {
            op: AluOp::Adds,
            dst: sum,
            a,
            b: Opnd::Reg(b),
        } = prog.insts[i]
        else {
            continue;
        };
        if a == b || last_use.get(&a) != Some(&i) || last_use.get(&b) != Some(&i) {
            continue;
        }
        // The first reader of this C, and no other before the next setter.
        let mut reader = None;
        let mut ok = true;
        for j in i + 1..prog.insts.len() {
            let inst = prog.insts[j];
            if inst.reads_carry() {
                if reader.is_some() {
                    ok = false;
                    break;
                }
                reader = Some(j);
            }
            if inst.sets_carry() {
                break;
            }
        }
        let Some(j) = reader.filter(|_| ok) else {
            continue;
        };
        let Inst::Alu {
            op: AluOp::Adc,
            dst: carry,
            a: z,
            b: Opnd::Imm(0),
        } = prog.insts[j]
        else {
            continue;
        };
        let Some(zdef) = prog.insts[..j]
            .iter()
            .position(|x| matches!(x, Inst::MovZero { dst } if *dst == z))
        else {
            continue;
        };
        if readers.get(&z) != Some(&1) || removed[zdef] {
            continue;
        }
        // The zero moves up to the `adds`, which becomes the umaal; the adc goes. Positions
        // from i on move by one with the inserted zero.
        prog.insts[i] = Inst::Umaal {
            lo: sum,
            hi: carry,
            lo_in: a,
            hi_in: b,
            a: z,
            b: z,
        };
        prog.insts.insert(i, Inst::MovZero { dst: z });
        removed.insert(i, false);
        removed[if zdef >= i { zdef + 1 } else { zdef }] = true;
        removed[j + 1] = true;
        // Positions after i moved by one.
        for v in last_use.values_mut() {
            if *v >= i {
                *v += 1;
            }
        }
    }
    let mut k = 0;
    prog.insts.retain(|_| {
        k += 1;
        !removed[k - 1]
    });
}

/// Removes instructions whose results and flags nothing reads (stores stay), and drops the
/// carry out of `adds`/`adcs` when it is dead.
pub fn dce(prog: &mut VProgram) {
    let mut live: HashSet<V> = HashSet::new();
    let mut c_live = false;
    let mut kept = Vec::with_capacity(prog.insts.len());
    for inst in prog.insts.iter().rev() {
        let mut inst = *inst;
        let store = matches!(inst, Inst::Str { .. });
        let value_live = inst.writes().iter().any(|v| live.contains(v));
        let flag_live = inst.sets_carry() && c_live;
        if !store && !value_live && !flag_live {
            continue;
        }
        if let Inst::Alu { op, dst, a, b } = inst {
            let op = match op {
                AluOp::Adds if !c_live => AluOp::Add,
                AluOp::Adcs if !c_live => AluOp::Adc,
                _ => op,
            };
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

/// `prog` with at most `regs` values live at once (inputs included): where more would be, the
/// value whose next use is furthest is evicted (Belady). A value defined by a load from an
/// operand or the modulus, or by `mov #0`, is re-executed at its next use; any other is stored
/// once to a spill slot (words of the accumulator buffer after the ones the layout had; a slot
/// is reused once its value has had its last use) and loaded back. Loads, stores and `mov` leave C alone, so carry chains survive. An error when
/// one instruction alone needs more than `regs` registers.
pub fn spill(prog: &VProgram, regs: usize) -> Result<VProgram, String> {
    let buffer = prog
        .inputs
        .iter()
        .find(|(_, w)| *w == Input::Buffer)
        .map(|(v, _)| *v)
        .ok_or("the kernel has no accumulator buffer")?;
    let pointers: HashSet<V> = prog.inputs.iter().map(|(v, _)| *v).collect();
    // Uses of each value, in program order.
    let mut uses: HashMap<V, Vec<usize>> = HashMap::new();
    let mut remat: HashMap<V, Inst<V>> = HashMap::new();
    for (k, inst) in prog.insts.iter().enumerate() {
        for r in inst.reads() {
            uses.entry(r).or_default().push(k);
        }
        match *inst {
            Inst::Ldr { dst, base, .. } if base != buffer && pointers.contains(&base) => {
                remat.insert(dst, *inst);
            }
            Inst::MovZero { dst } => {
                remat.insert(dst, *inst);
            }
            _ => {}
        }
    }
    let next_use = |v: V, k: usize| -> usize {
        uses.get(&v)
            .and_then(|u| u.iter().find(|&&i| i >= k).copied())
            .unwrap_or(usize::MAX)
    };
    let mut next = prog.num_values;
    let mut fresh = || {
        let v = V(next);
        next += 1;
        v
    };
    let base_words = prog.layout.buffer_words;
    let mut slots: HashMap<V, usize> = HashMap::new();
    // Slots whose value has had its last use, for reuse.
    let mut free_slots: Vec<usize> = Vec::new();
    let mut slot_count = 0;
    let mut cur: HashMap<V, V> = HashMap::new();
    // Values in registers (original names), pointers excluded.
    let mut resident: HashSet<V> = HashSet::new();
    let ptrs = pointers.len();
    let mut out: Vec<Inst<V>> = Vec::with_capacity(prog.insts.len() * 2);
    for (k, inst) in prog.insts.iter().enumerate() {
        let reads: Vec<V> = inst
            .reads()
            .into_iter()
            .filter(|r| !pointers.contains(r))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let missing: Vec<V> = reads
            .iter()
            .copied()
            .filter(|r| !resident.contains(r))
            .collect();
        let dying = reads
            .iter()
            .filter(|r| next_use(**r, k + 1) == usize::MAX)
            .count();
        let writes = inst.writes().len();
        // Registers needed while the instruction runs: before it (with the reloads) and after
        // (the dying operands freed, the results written).
        let need = |resident: usize| {
            let before = ptrs + resident + missing.len();
            before.max(before - dying + writes)
        };
        while need(resident.len()) > regs {
            let victim = resident
                .iter()
                .copied()
                .filter(|v| !reads.contains(v))
                .max_by_key(|v| (next_use(*v, k), remat.contains_key(v), v.0))
                .ok_or_else(|| format!("instruction {k} needs more than {regs} registers"))?;
            resident.remove(&victim);
            if !remat.contains_key(&victim) && !slots.contains_key(&victim) {
                let slot = free_slots.pop().unwrap_or_else(|| {
                    slot_count += 1;
                    base_words + slot_count - 1
                });
                slots.insert(victim, slot);
                out.push(Inst::Str {
                    src: cur[&victim],
                    base: buffer,
                    k: fit(slot),
                });
            }
        }
        for r in missing {
            let v = fresh();
            let load = match remat.get(&r) {
                Some(Inst::Ldr { base, k, .. }) => Inst::Ldr {
                    dst: v,
                    base: *base,
                    k: *k,
                },
                Some(_) => Inst::MovZero { dst: v },
                None => {
                    let slot = slots
                        .get(&r)
                        .ok_or_else(|| format!("{r:?} read after eviction without a slot"))?;
                    Inst::Ldr {
                        dst: v,
                        base: buffer,
                        k: fit(*slot),
                    }
                }
            };
            out.push(load);
            cur.insert(r, v);
            resident.insert(r);
        }
        out.push(Armv7::map(inst, |v| {
            if pointers.contains(&v) {
                v
            } else {
                cur.get(&v).copied().unwrap_or(v)
            }
        }));
        for r in &reads {
            if next_use(*r, k + 1) == usize::MAX {
                resident.remove(r);
                if let Some(slot) = slots.remove(r) {
                    free_slots.push(slot);
                }
            }
        }
        for w in inst.writes() {
            cur.insert(w, w);
            if next_use(w, k + 1) != usize::MAX {
                resident.insert(w);
            }
        }
    }
    Ok(VProgram {
        insts: out,
        inputs: prog.inputs.clone(),
        outputs: prog.outputs.clone(),
        layout: Layout {
            limbs: prog.layout.limbs,
            buffer_words: base_words + slot_count,
        },
        num_values: next,
    })
}
