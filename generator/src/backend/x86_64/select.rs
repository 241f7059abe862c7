//! Instruction selection from the IR ([`crate::ir::Func`], w = 64) to an x86-64 BMI2/ADX kernel
//! over virtual values, for this target's allocator ([`super::regalloc`]), simulator
//! ([`super::sim`]) and printer ([`super::asm`]): the backend consumes the lowered and
//! optimised IR (the CIOS product and the square the portable code runs) instead of only the
//! hand-written kernels ([`super::mul`], [`super::square`]).
//!
//! Rules, one IR instruction at a time in the order of
//! [`crate::backend::isa::schedule::schedule`] (carry chains and multiply-accumulate rows
//! contiguous):
//!
//! - A row of `MulAdd`s (each high word an addend of the next) whose links share a factor is
//!   `mulx` with that factor in `rdx`, the other factor a memory operand where it is an input
//!   limb or a limb of p. With an addend per link, the low words and the addends are summed on
//!   CF (`adcx`) and the high words one position up on OF (`adox`), both chains started by
//!   `xor z, z` and meeting in the top word (`adcx top, z`, `adox top, z`; the row's sum fits
//!   its words, so neither overflows), as Ozturk et al. (Intel white paper 327831, 2012)
//!   describe; without addends the high words are one `add`/`adc` chain. A top word whose one
//!   use is a sum with carry-in 0 and a dead carry takes both chains' carries in that sum.
//! - A `MulAdd` outside a row is `mulx` and, per addend, `add` to the low word and `adc hi, 0`;
//!   an addend still in CF is the carry-in of the first `adc`.
//! - `MulLo` whose result is only ever a factor is computed in `rdx` (`mov rdx, k`,
//!   `imul rdx, t`), the Montgomery quotient ready for the next row; otherwise `imul`.
//! - `AddCarry`/`SubBorrow` are `add`/`adc` (`adcx`/`adox` when the carry-in is in CF/OF and
//!   the other flag must survive) and `sub`/`sbb`. The selector tracks which IR bits CF and OF
//!   hold, so a carry still in a flag is read from it; otherwise the bit is put into CF with
//!   `add t, -1`; a sum of a word and a bit still in CF is `adc r, 0`. A carry is materialised (`mov c, 0`, `adcx c, c` or `adox c, c`) only when
//!   an instruction would clobber its flag while it is still needed.
//! - `Mask` of a bit in CF is kept in CF (no code); `Select` is `cmovc` on it (after
//!   `add t, 1` on the mask when CF does not hold it). No branches: every rule is straight-line
//!   and constant time.
//! - `And`, `Or`, `Xor`, `Not` (`xor r, -1`), `Shl` and `Shr` are the two-operand
//!   instructions on a copy of the first operand; `(x << k) | (y >> (64 − k))` with both
//!   shifts read only there (one word of the square's doubling) is `shld x, y, k`.
//! - Constants are immediates where the instruction takes one and the value sign-extends from
//!   32 bits, memory operands where they equal a limb of p, else `mov r, imm64`; input limbs
//!   are memory operands (loaded when a register is needed).
//!
//! Values are defined once and updated in place by the two-operand instructions, so every
//! result starts as a copy of its first operand: the allocator renames a copy of a value read
//! for the last time, so the copy costs nothing then.

use std::collections::{HashMap, HashSet};

use super::inst::{AluOp, Inst, Src, VReg};
use super::program::{word, Builder, Pointer, VProgram};
use super::Kernel;
use crate::backend::isa::schedule::schedule;
use crate::ir::{Func, Op, Var};

/// What a flag holds about an IR value `v`: the flag is `v ≠ 0`, `v` a bit or a mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Bit,
    Mask,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flag {
    Cf,
    Of,
}

struct Selector<'a> {
    b: Builder,
    f: &'a Func,
    modulus: &'a [u64],
    /// The pointer each IR argument is read through.
    operands: &'a [usize],
    consts: HashMap<Var, u64>,
    inputs: HashMap<Var, (u16, u16)>,
    /// The register holding each computed value (possibly `rdx`).
    home: HashMap<Var, VReg>,
    ptrs: Vec<(Pointer, VReg)>,
    cf: Vec<(Var, Kind)>,
    of: Vec<(Var, Kind)>,
    /// The value `rdx` holds (a copy of it, or its home when `home` says `rdx`).
    rdx: Option<Var>,
    /// Position in the schedule of each value's last use (`usize::MAX` for results).
    last: HashMap<Var, usize>,
    /// Position being selected.
    pos: usize,
    /// Every use of each value.
    uses: HashMap<Var, Vec<usize>>,
}

fn imm(x: u64) -> Option<i32> {
    i32::try_from(x as i64).ok()
}

impl Selector<'_> {
    fn ptr(&mut self, what: Pointer) -> VReg {
        if let Some((_, v)) = self.ptrs.iter().find(|(w, _)| *w == what) {
            return *v;
        }
        let v = self.b.pointer(what);
        self.ptrs.push((what, v));
        v
    }

    fn is_zero(&self, v: Var) -> bool {
        self.consts.get(&v) == Some(&0)
    }

    fn is_leaf(&self, v: Var) -> bool {
        self.consts.contains_key(&v) || self.inputs.contains_key(&v)
    }

    /// Whether `v` is read after the position being selected.
    fn needed(&self, v: Var) -> bool {
        self.last.get(&v).is_some_and(|&l| l > self.pos)
    }

    fn facts(&mut self, flag: Flag) -> &mut Vec<(Var, Kind)> {
        match flag {
            Flag::Cf => &mut self.cf,
            Flag::Of => &mut self.of,
        }
    }

    fn flag_of(&self, v: Var) -> Option<(Flag, Kind)> {
        if let Some((_, k)) = self.cf.iter().find(|(x, _)| *x == v) {
            return Some((Flag::Cf, *k));
        }
        self.of
            .iter()
            .find(|(x, _)| *x == v)
            .map(|(_, k)| (Flag::Of, *k))
    }

    /// Gives `v`, held only in a flag, a register: `mov c, 0` then `adcx c, c` (CF, which
    /// becomes 0), `adox c, c` (OF) or, for a mask in CF, `sbb c, 0` (CF kept, OF clobbered).
    fn materialise(&mut self, v: Var) {
        let Some((flag, kind)) = self.flag_of(v) else {
            panic!("{v:?} is neither in a register nor in a flag")
        };
        if kind == Kind::Mask && flag == Flag::Cf {
            self.protect(Flag::Of);
            let m = self.b.load(Src::Imm(0));
            self.b.alu(AluOp::Sbb, m, Src::Imm(0));
            self.of.clear();
            self.home.insert(v, m);
            return;
        }
        assert_eq!(kind, Kind::Bit, "masks live in CF only");
        let c = self.b.load(Src::Imm(0));
        let op = match flag {
            Flag::Cf => AluOp::Adcx,
            Flag::Of => AluOp::Adox,
        };
        self.b.alu_reg(op, c, c);
        // Every bit the flag held equals it; the flag is 0 now.
        let facts = std::mem::take(self.facts(flag));
        for (x, k) in facts {
            if k == Kind::Bit {
                self.home.entry(x).or_insert(c);
            }
        }
    }

    /// Before an instruction clobbers `flag`: values held only there and still needed get a
    /// register.
    fn protect(&mut self, flag: Flag) {
        if flag == Flag::Cf {
            let masks: Vec<Var> = self
                .cf
                .iter()
                .filter(|(v, k)| *k == Kind::Mask && self.needed(*v) && !self.home.contains_key(v))
                .map(|(v, _)| *v)
                .collect();
            for m in masks {
                self.materialise(m);
            }
        }
        let facts = self.facts(flag).clone();
        if let Some(&(v, _)) = facts.iter().find(|(v, k)| {
            *k == Kind::Bit && self.needed(*v) && !self.home.contains_key(v) && !self.is_leaf(*v)
        }) {
            self.materialise(v);
        }
    }

    /// Appends `op dst, src`, saving what the flags it clobbers hold first.
    fn emit(&mut self, op: AluOp, dst: VReg, src: Src<VReg>) {
        let (cf, of) = match op {
            AluOp::Adcx => (true, false),
            AluOp::Adox => (false, true),
            AluOp::Cmovc => (false, false),
            _ => (true, true),
        };
        if of {
            self.protect(Flag::Of);
        }
        if cf {
            self.protect(Flag::Cf);
        }
        self.b.alu(op, dst, src);
        if cf {
            self.cf.clear();
        }
        if of {
            self.of.clear();
        }
    }

    /// A fresh zero with CF = OF = 0: the start of two carry chains.
    fn zero(&mut self) -> VReg {
        self.protect(Flag::Of);
        self.protect(Flag::Cf);
        self.cf.clear();
        self.of.clear();
        self.b.zero()
    }

    /// `v` as a source operand: a register, an immediate (when `imm_ok` and it fits), an
    /// input limb or a limb of p in memory, or a constant moved into a register.
    fn src_as(&mut self, v: Var, imm_ok: bool) -> Src<VReg> {
        if let Some(r) = self.home.get(&v) {
            return Src::Reg(*r);
        }
        if let Some(&(arg, limb)) = self.inputs.get(&v) {
            let k = self
                .operands
                .get(usize::from(arg))
                .copied()
                .unwrap_or(arg.into());
            let p = self.ptr(Pointer::Operand(k));
            return word(p, limb.into());
        }
        if let Some(&x) = self.consts.get(&v) {
            if let (true, Some(i)) = (imm_ok, imm(x)) {
                return Src::Imm(i);
            }
            if let Some(j) = self.modulus.iter().position(|l| *l == x) {
                let p = self.ptr(Pointer::Modulus);
                return word(p, j);
            }
            let r = self.b.constant(x);
            self.home.insert(v, r);
            return Src::Reg(r);
        }
        self.materialise(v);
        Src::Reg(self.home[&v])
    }

    fn src(&mut self, v: Var) -> Src<VReg> {
        self.src_as(v, true)
    }

    /// A new value holding `v`, to be updated in place.
    fn copy(&mut self, v: Var) -> VReg {
        if let Some(&x) = self.consts.get(&v) {
            if imm(x).is_none() && !self.modulus.contains(&x) {
                return self.b.constant(x);
            }
        }
        let s = self.src(v);
        self.b.load(s)
    }

    /// Of two operands of a commutative operation, the one to copy first: one that is in a
    /// register and dies here (the copy is then a renaming), else a register, else `a`.
    fn order(&self, a: Var, b: Var) -> (Var, Var) {
        let score = |v: Var| {
            let reg = self.home.get(&v).is_some_and(|r| *r != VReg::Rdx);
            (reg && !self.needed(v), reg)
        };
        if score(b) > score(a) {
            (b, a)
        } else {
            (a, b)
        }
    }

    /// Points `rdx` at `v`, saving a value whose only home is `rdx` when it is still needed.
    fn set_rdx(&mut self, v: Var) {
        if self.rdx == Some(v) {
            return;
        }
        self.free_rdx();
        if let Some(&x) = self.consts.get(&v) {
            if imm(x).is_none() && !self.modulus.contains(&x) {
                self.b.set_rdx_const(x);
                self.rdx = Some(v);
                return;
            }
        }
        let s = self.src(v);
        self.b.set_rdx(s);
        self.rdx = Some(v);
    }

    /// Before `rdx` is overwritten: a value living only there that is still needed (or read
    /// at this position) moves to a register of its own.
    fn free_rdx(&mut self) {
        if let Some(u) = self.rdx.take() {
            if self.home.get(&u) == Some(&VReg::Rdx) {
                if self.last.get(&u).is_some_and(|&l| l >= self.pos) {
                    let c = self.b.load(Src::Reg(VReg::Rdx));
                    self.home.insert(u, c);
                } else {
                    self.home.remove(&u);
                }
            }
        }
    }

    /// Puts the bit `bit` in CF.
    fn carry_in(&mut self, bit: Var) {
        if self.cf.contains(&(bit, Kind::Bit)) {
            return;
        }
        let t = self.copy(bit);
        // bit + (2^64 − 1) carries exactly when bit = 1.
        self.emit(AluOp::Add, t, Src::Imm(-1));
        self.cf = vec![(bit, Kind::Bit)];
    }

    /// Gives the carry-in or addends of the instruction at the current position that sit
    /// only in a flag and are read again later a register, so the instruction may consume the
    /// flag. (A mask that `Select` reads from CF stays there: `cmovc` keeps the flags.)
    fn settle_operands(&mut self, op: &Op) {
        let consumed = match *op {
            Op::AddCarry { cin, .. } => vec![cin],
            Op::SubBorrow { bin, .. } => vec![bin],
            Op::MulAdd { c, d, .. } => vec![c, d],
            _ => vec![],
        };
        for v in consumed {
            if self.needed(v)
                && !self.home.contains_key(&v)
                && !self.is_leaf(v)
                && self.flag_of(v).is_some()
            {
                self.materialise(v);
            }
        }
    }

    /// Whether every use of `v` is as a factor of a `MulAdd`.
    fn factor_only(&self, v: Var) -> bool {
        self.uses.get(&v).is_some_and(|us| {
            us.iter().all(|&k| {
                k != usize::MAX
                    && matches!(self.f.instrs[k].op,
                        Op::MulAdd { a, b, c, d } if (a == v || b == v) && c != v && d != v)
            })
        })
    }

    fn mul_add(&mut self, a: Var, b: Var, c: Var, d: Var, outs: [Var; 2]) {
        let (x, y) = if self.rdx == Some(b)
            || (self.rdx != Some(a) && self.home.contains_key(&b) && !self.home.contains_key(&a))
        {
            (b, a)
        } else {
            (a, b)
        };
        self.set_rdx(x);
        let s = if self.rdx == Some(y) {
            Src::Reg(VReg::Rdx)
        } else {
            self.src_as(y, false)
        };
        let (hi, lo) = self.b.mulx(s);
        let addends: Vec<Var> = [c, d].into_iter().filter(|v| !self.is_zero(*v)).collect();
        let in_cf = addends
            .iter()
            .position(|v| self.cf.contains(&(*v, Kind::Bit)))
            .filter(|_| addends.len() < 2 || addends[0] != addends[1]);
        let mut rest = addends.clone();
        if let Some(k) = in_cf {
            // lo + other + CF, the carry into hi: two instructions for both addends.
            let e = rest.remove(k);
            let s = match rest.pop() {
                Some(o) => self.src(o),
                None => Src::Imm(0),
            };
            if self.cf.contains(&(e, Kind::Bit)) {
                self.emit(AluOp::Adc, lo, s);
                self.emit(AluOp::Adc, hi, Src::Imm(0));
            } else {
                // Reading the other addend cost the carry: add it as a word.
                self.emit(AluOp::Add, lo, s);
                self.emit(AluOp::Adc, hi, Src::Imm(0));
                rest.push(e);
            }
        }
        for e in rest {
            let s = self.src(e);
            self.emit(AluOp::Add, lo, s);
            self.emit(AluOp::Adc, hi, Src::Imm(0));
        }
        self.home.insert(outs[0], lo);
        self.home.insert(outs[1], hi);
    }

    /// A row of `MulAdd`s (`links`, each high word an addend of the next) sharing a factor;
    /// false (nothing emitted) when the links share none. `next` is the instruction after the
    /// row in the schedule, for the fused top word; returns whether it was fused.
    fn mul_row(&mut self, links: &[usize], next: Option<usize>) -> Option<bool> {
        let f = self.f;
        let ops: Vec<(Var, Var, Var, Var)> = links
            .iter()
            .map(|&l| match f.instrs[l].op {
                Op::MulAdd { a, b, c, d } => (a, b, c, d),
                _ => unreachable!("rows are MulAdd links"),
            })
            .collect();
        let (a0, b0, _, _) = ops[0];
        let shared = [a0, b0]
            .into_iter()
            .find(|s| ops.iter().all(|(a, b, _, _)| a == s || b == s))?;
        let mut terms = Vec::with_capacity(links.len());
        let mut prev_hi: Option<Var> = None;
        for (k, &(a, b, c, d)) in ops.iter().enumerate() {
            let other = if a == shared { b } else { a };
            let x = match prev_hi {
                Some(h) if c == h => d,
                Some(_) => c,
                None if self.is_zero(c) => d,
                None => c,
            };
            terms.push((other, x, f.instrs[links[k]].outs));
            prev_hi = Some(f.instrs[links[k]].outs[1]);
        }
        // Addends held only in a flag get a register before the chains start.
        for &(_, x, _) in &terms {
            if !self.home.contains_key(&x) && !self.is_leaf(x) && self.flag_of(x).is_some() {
                self.materialise(x);
            }
        }
        self.set_rdx(shared);
        let two = terms.iter().any(|(_, x, _)| !self.is_zero(*x));
        let z = if two { Some(self.zero()) } else { None };
        let mut words = Vec::with_capacity(terms.len());
        let mut prev: Option<VReg> = None;
        for (j, &(other, x, _)) in terms.iter().enumerate() {
            let s = if self.rdx == Some(other) {
                Src::Reg(VReg::Rdx)
            } else {
                self.src_as(other, false)
            };
            let (hi, lo) = self.b.mulx(s);
            match z {
                Some(z) => {
                    if !self.is_zero(x) {
                        let s = self.src_as(x, false);
                        self.b.alu(AluOp::Adcx, lo, s);
                    } else if j > 0 {
                        self.b.alu_reg(AluOp::Adcx, lo, z);
                    }
                    if let Some(h) = prev {
                        self.b.alu_reg(AluOp::Adox, lo, h);
                    }
                }
                None => {
                    if let Some(h) = prev {
                        let op = if j == 1 { AluOp::Add } else { AluOp::Adc };
                        self.emit(op, lo, Src::Reg(h));
                    }
                }
            }
            words.push(lo);
            prev = Some(hi);
        }
        let top = prev.expect("a row has links");
        let top_var = terms.last().expect("a row has links").2[1];
        for (w, &(_, _, outs)) in words.iter().zip(&terms) {
            self.home.insert(outs[0], *w);
        }
        // A top word whose one use is the next instruction, a sum with carry-in 0 whose
        // carry is dead: the sum takes both chains' carries.
        if let (Some(z), Some(k)) = (z, next) {
            if let Op::AddCarry { a, b, cin } = f.instrs[k].op {
                let outs = f.instrs[k].outs;
                let o = if a == top_var { b } else { a };
                let fusable = self.uses.get(&top_var).map(Vec::len) == Some(1)
                    && (a == top_var) != (b == top_var)
                    && self.is_zero(cin)
                    && !self.uses.contains_key(&outs[1])
                    && (self.home.contains_key(&o) || self.is_leaf(o));
                if fusable {
                    let r = self.copy(o);
                    self.b.alu_reg(AluOp::Adcx, r, top);
                    self.b.alu_reg(AluOp::Adox, r, z);
                    self.cf.clear();
                    self.of.clear();
                    self.home.insert(outs[0], r);
                    return Some(true);
                }
            }
        }
        match z {
            Some(z) => {
                self.b.alu_reg(AluOp::Adcx, top, z);
                self.b.alu_reg(AluOp::Adox, top, z);
            }
            None => {
                self.emit(AluOp::Adc, top, Src::Imm(0));
            }
        }
        self.cf.clear();
        self.of.clear();
        self.home.insert(top_var, top);
        Some(false)
    }

    /// `out = (x << k) | (y >> (64 − k))` as `shld` on a copy of x.
    fn shld(&mut self, x: Var, y: Var, k: u8, out: Var) {
        let r = self.copy(x);
        let src = match self.src_as(y, false) {
            Src::Reg(v) => v,
            other => self.b.load(other),
        };
        self.protect(Flag::Of);
        self.protect(Flag::Cf);
        self.cf.clear();
        self.of.clear();
        self.b.push(Inst::Shld { dst: r, src, k });
        self.home.insert(out, r);
    }

    fn select_instr(&mut self, op: &Op, outs: [Var; 2]) -> Result<(), String> {
        let [o0, o1] = outs;
        self.settle_operands(op);
        match *op {
            Op::Const(x) => {
                self.consts.insert(o0, x);
            }
            Op::Input { arg, limb } => {
                self.inputs.insert(o0, (arg, limb));
            }
            Op::MulAdd { a, b, c, d } => self.mul_add(a, b, c, d, outs),
            Op::MulLo { a, b } => {
                let in_rdx = [a, b].iter().all(|v| self.home.get(v) != Some(&VReg::Rdx));
                if in_rdx && self.factor_only(o0) {
                    // Computed where the next row wants it.
                    let (k, t) = if self.consts.contains_key(&a) {
                        (a, b)
                    } else {
                        (b, a)
                    };
                    self.set_rdx(k);
                    let s = self.src(t);
                    self.emit(AluOp::Imul, VReg::Rdx, s);
                    self.home.insert(o0, VReg::Rdx);
                    self.rdx = Some(o0);
                } else {
                    let (x, y) = self.order(a, b);
                    let r = self.copy(x);
                    let s = self.src(y);
                    self.emit(AluOp::Imul, r, s);
                    self.home.insert(o0, r);
                }
            }
            Op::AddCarry { a, b, cin }
                if self.is_zero(cin)
                    && a != b
                    && [a, b].iter().any(|v| self.cf.contains(&(*v, Kind::Bit))) =>
            {
                // A bit still in CF plus a word: the bit is the carry-in of `adc r, 0`.
                let (bit, x) = if self.cf.contains(&(a, Kind::Bit)) {
                    (a, b)
                } else {
                    (b, a)
                };
                let r = self.copy(x);
                self.carry_in(bit);
                self.emit(AluOp::Adc, r, Src::Imm(0));
                self.cf = vec![(o1, Kind::Bit)];
                self.home.insert(o0, r);
            }
            Op::AddCarry { a, b, cin } => {
                let (x, y) = self.order(a, b);
                let r = self.copy(x);
                if self.is_zero(cin) {
                    let s = self.src(y);
                    self.emit(AluOp::Add, r, s);
                    self.cf = vec![(o1, Kind::Bit)];
                } else if self.of.contains(&(cin, Kind::Bit)) {
                    let s = self.src_as(y, false);
                    // Reading y may have cost the carry (then it is put into CF).
                    if self.of.contains(&(cin, Kind::Bit)) {
                        self.emit(AluOp::Adox, r, s);
                        self.of = vec![(o1, Kind::Bit)];
                    } else {
                        self.carry_in(cin);
                        self.emit(AluOp::Adcx, r, s);
                        self.cf = vec![(o1, Kind::Bit)];
                    }
                } else {
                    let s = self.src_as(y, false);
                    self.carry_in(cin);
                    // adcx keeps OF for the other chain.
                    self.emit(AluOp::Adcx, r, s);
                    self.cf = vec![(o1, Kind::Bit)];
                }
                self.home.insert(o0, r);
            }
            Op::SubBorrow { a, b, bin } => {
                let r = self.copy(a);
                let s = self.src(b);
                if self.is_zero(bin) {
                    self.emit(AluOp::Sub, r, s);
                } else {
                    self.carry_in(bin);
                    self.emit(AluOp::Sbb, r, s);
                }
                self.cf = vec![(o1, Kind::Bit)];
                self.home.insert(o0, r);
            }
            Op::And { a, b } | Op::Or { a, b } | Op::Xor { a, b } => {
                let aop = match op {
                    Op::And { .. } => AluOp::And,
                    Op::Or { .. } => AluOp::Or,
                    _ => AluOp::Xor,
                };
                let (x, y) = self.order(a, b);
                let r = self.copy(x);
                let s = self.src(y);
                self.emit(aop, r, s);
                self.home.insert(o0, r);
            }
            Op::Not { a } => {
                let r = self.copy(a);
                self.emit(AluOp::Xor, r, Src::Imm(-1));
                self.home.insert(o0, r);
            }
            Op::Shl { a, k } | Op::Shr { a, k } => {
                let aop = if matches!(op, Op::Shl { .. }) {
                    AluOp::Shl
                } else {
                    AluOp::Shr
                };
                let r = self.copy(a);
                let k = i32::try_from(k).map_err(|_| "shift count out of range".to_string())?;
                self.emit(aop, r, Src::Imm(k));
                self.home.insert(o0, r);
            }
            Op::Mask { bit } => {
                if self.cf.contains(&(bit, Kind::Bit)) {
                    self.cf.push((o0, Kind::Mask));
                } else {
                    let m = self.b.load(Src::Imm(0));
                    let s = self.src(bit);
                    // 0 − bit borrows exactly when bit = 1.
                    self.emit(AluOp::Sub, m, s);
                    self.cf = vec![(bit, Kind::Bit), (o0, Kind::Mask)];
                    self.home.insert(o0, m);
                }
            }
            Op::Select { mask, a, b } => {
                // mask = 0 ? a : b.
                let r = self.copy(a);
                let s = self.src_as(b, false);
                if self.flag_of(mask).map(|(f, _)| f) != Some(Flag::Cf) {
                    let t = self.copy(mask);
                    // All ones + 1 carries; 0 + 1 does not.
                    self.emit(AluOp::Add, t, Src::Imm(1));
                    self.cf = vec![(mask, Kind::Mask)];
                }
                self.emit(AluOp::Cmovc, r, s);
                self.home.insert(o0, r);
            }
        }
        Ok(())
    }
}

/// Selects `f` (64-bit words) as an x86-64 kernel: argument `k` of `f` is read through the
/// pointer input [`Pointer::Operand`]`(operands[k])` (`k` when `operands` has no entry),
/// constants equal to a limb of `modulus` through [`Pointer::Modulus`]; the results are
/// distinct values, least significant first. An error when `f` is not over 64-bit words.
pub fn select(f: &Func, modulus: &[u64], operands: &[usize]) -> Result<VProgram, String> {
    if f.w != 64 {
        return Err(format!(
            "the x86-64 selector takes 64-bit words, not {}",
            f.w
        ));
    }
    let sched = schedule(f);
    let mut uses: HashMap<Var, Vec<usize>> = HashMap::new();
    for (k, ins) in f.instrs.iter().enumerate() {
        for v in ins.op.operands() {
            uses.entry(v).or_default().push(k);
        }
    }
    for v in &f.outputs {
        uses.entry(*v).or_default().push(usize::MAX);
    }
    let shlds = double_shifts(f, &uses);
    let mut pos_of = vec![0; f.instrs.len()];
    for (p, &k) in sched.order.iter().enumerate() {
        pos_of[k] = p;
    }
    // A shift fused into `shld` reads its operand where the `or` is.
    let mut read_at: HashMap<usize, usize> = HashMap::new();
    for (&or, &(shl, shr, _)) in &shlds {
        read_at.insert(shl, pos_of[or]);
        read_at.insert(shr, pos_of[or]);
    }
    let mut last: HashMap<Var, usize> = HashMap::new();
    for (p, &k) in sched.order.iter().enumerate() {
        let at = read_at.get(&k).copied().unwrap_or(p);
        for v in f.instrs[k].op.operands() {
            let l = last.entry(v).or_insert(at);
            *l = (*l).max(at);
        }
    }
    for v in &f.outputs {
        last.insert(*v, usize::MAX);
    }
    let mut s = Selector {
        b: Builder::new(),
        f,
        modulus,
        operands,
        consts: HashMap::new(),
        inputs: HashMap::new(),
        home: HashMap::new(),
        ptrs: Vec::new(),
        cf: Vec::new(),
        of: Vec::new(),
        rdx: None,
        last,
        pos: 0,
        uses,
    };
    let mut row_of: HashMap<usize, usize> = HashMap::new();
    for (r, row) in sched.rows.iter().enumerate() {
        for &k in row {
            row_of.insert(k, r);
        }
    }
    let mut done: HashSet<usize> = HashSet::new();
    for (p, &k) in sched.order.iter().enumerate() {
        if done.contains(&k) {
            continue;
        }
        s.pos = p;
        if let Some(&r) = row_of.get(&k) {
            let row = &sched.rows[r];
            if row[0] == k {
                let end = p + row.len();
                let next = sched.order.get(end).copied();
                match s.mul_row(row, next) {
                    Some(fused) => {
                        done.extend(row.iter().copied());
                        if fused {
                            done.extend(next);
                        }
                        continue;
                    }
                    None => {
                        // No shared factor: the links one by one.
                    }
                }
            }
        }
        if read_at.contains_key(&k) {
            // A shift of a `shld`, selected with its `or`.
            continue;
        }
        let ins = f.instrs[k];
        match shlds.get(&k) {
            Some(&(shl, shr, count)) => {
                let (Op::Shl { a: x, .. }, Op::Shr { a: y, .. }) =
                    (f.instrs[shl].op, f.instrs[shr].op)
                else {
                    unreachable!("double_shifts pairs a Shl with a Shr")
                };
                s.shld(x, y, count, ins.outs[0]);
            }
            None => s.select_instr(&ins.op, ins.outs)?,
        }
    }
    s.pos = sched.order.len();
    let mut outs = Vec::with_capacity(f.outputs.len());
    let mut seen = HashSet::new();
    for &v in &f.outputs {
        let r = match s.home.get(&v) {
            Some(&r) if r != VReg::Rdx && !seen.contains(&r) => r,
            _ => s.copy(v),
        };
        seen.insert(r);
        outs.push(r);
    }
    Ok(s.b.finish(outs))
}

/// The `Or`s of a `Shl` by k and a `Shr` by 64 − k, each read only by that `Or`: one word of a
/// multiword shift, `shld`. Maps the `Or`'s index to the `Shl`'s, the `Shr`'s and k.
fn double_shifts(f: &Func, uses: &HashMap<Var, Vec<usize>>) -> HashMap<usize, (usize, usize, u8)> {
    let mut def: HashMap<Var, usize> = HashMap::new();
    for (k, ins) in f.instrs.iter().enumerate() {
        def.insert(ins.outs[0], k);
    }
    let only_use = |v: Var, k: usize| uses.get(&v).is_some_and(|u| u.as_slice() == [k]);
    let mut out = HashMap::new();
    for (k, ins) in f.instrs.iter().enumerate() {
        let Op::Or { a, b } = ins.op else {
            continue;
        };
        if a == b || !only_use(a, k) || !only_use(b, k) {
            continue;
        }
        let (Some(&da), Some(&db)) = (def.get(&a), def.get(&b)) else {
            continue;
        };
        for (l, r) in [(da, db), (db, da)] {
            if let (Op::Shl { k: kl, .. }, Op::Shr { k: kr, .. }) = (f.instrs[l].op, f.instrs[r].op)
            {
                if kl + kr == 64 {
                    out.insert(k, (l, r, u8::try_from(kl).expect("0 < k < 64")));
                }
            }
        }
    }
    out
}

/// Selects and allocates `f` ([`select`]) over the kernel register file.
pub fn compile(f: &Func, modulus: &[u64], operands: &[usize]) -> Result<Kernel, String> {
    Ok(Kernel::new(select(f, modulus, operands)?))
}

/// How many instructions of each mnemonic the allocated kernel has, for reports.
pub fn mnemonics(k: &Kernel) -> std::collections::BTreeMap<String, usize> {
    let mut m = std::collections::BTreeMap::new();
    for inst in &k.alloc.insts {
        let name = inst
            .text()
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_string();
        *m.entry(name).or_insert(0) += 1;
    }
    m
}
