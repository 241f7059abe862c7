//! Register allocation for straight-line kernels: every virtual value gets a register, and when
//! more values are live than there are registers, the value whose next use is furthest away is
//! spilled to a stack slot (Belady's rule, optimal for one basic block up to the cost of the
//! stores).
//!
//! - Registers: the 14 general registers other than `rsp` and `rdx` (the multiplier of `mulx`),
//!   caller-saved ones first, then `r12`–`r15` (saved by the compiler around the `asm!` block),
//!   then `rbx` and `rbp`, which `asm!` refuses as operands and the kernel therefore saves and
//!   restores itself with `push`/`pop`. So kernels up to 6 limbs run entirely in registers.
//! - Spills: a value leaves its register by `mov [rsp + 8k], r` (unless its slot already holds
//!   it) and comes back by `mov r, [rsp + 8k]`. A spilled value read as a source operand is read
//!   straight from its slot (`adcx r, qword ptr [rsp + 8k]`), and an in-place addition into a
//!   spilled value whose other operand dies swaps the operands (the ADX additions commute), so
//!   the sum lands in the dying operand's register without a reload.
//! - Only `mov` is inserted, so CF and OF survive every spill and reload.
//! - Results end in registers `asm!` accepts as outputs.

use std::collections::{BTreeSet, HashMap};

use super::inst::{Inst, Mem, Reg, Src, VReg};
use super::program::{Pointer, VProgram};

/// Allocation order: caller-saved first, then callee-saved, then the two LLVM reserves.
pub const REGISTERS: [Reg; 14] = [
    Reg::Rax,
    Reg::Rcx,
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
    Reg::Rbx,
    Reg::Rbp,
];

/// Registers `asm!` accepts as operands, for inputs and results.
pub const OPERAND_REGISTERS: [Reg; 13] = [
    Reg::Rax,
    Reg::Rcx,
    Reg::Rdx,
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

/// A kernel after allocation.
#[derive(Clone, Debug)]
pub struct Allocation {
    /// The instructions, including the saves, restores and stack adjustment.
    pub insts: Vec<Inst<Reg>>,
    /// The register of each pointer argument on entry, and what it points to.
    pub inputs: Vec<(Reg, Pointer)>,
    /// The register of each result limb on exit.
    pub outputs: Vec<Reg>,
    /// Operand registers the code writes (to declare as outputs or clobbers).
    pub written: BTreeSet<Reg>,
    /// Reserved registers saved on entry and restored on exit.
    pub saved: Vec<Reg>,
    /// Stack slots used for spills (8 bytes each).
    pub slots: u32,
    /// Spill stores and reloads inserted.
    pub spill_moves: usize,
}

impl Allocation {
    /// Whether the code touches the stack (then `asm!` must not get `nostack`).
    pub fn uses_stack(&self) -> bool {
        self.slots > 0 || !self.saved.is_empty()
    }
}

struct Alloc<'a> {
    pool: &'a [Reg],
    /// Instruction indices reading each value (outputs read it at `end`), ascending.
    uses: Vec<Vec<usize>>,
    reg_of: Vec<Option<Reg>>,
    slot_of: Vec<Option<u32>>,
    holder: HashMap<Reg, u32>,
    free_slots: Vec<u32>,
    slots: u32,
    out: Vec<Inst<Reg>>,
    spill_moves: usize,
}

fn vnum(v: VReg) -> Option<u32> {
    match v {
        VReg::V(k) => Some(k),
        VReg::Rdx => None,
    }
}

fn slot_mem(s: u32) -> Mem<Reg> {
    Mem {
        base: Reg::Rsp,
        disp: 8 * s as i32,
    }
}

impl Alloc<'_> {
    fn next_use(&self, v: u32, k: usize) -> usize {
        let u = &self.uses[v as usize];
        let i = u.partition_point(|&x| x < k);
        u.get(i).copied().unwrap_or(usize::MAX)
    }

    fn last_use(&self, v: u32) -> Option<usize> {
        self.uses[v as usize].last().copied()
    }

    fn take_slot(&mut self) -> u32 {
        self.free_slots.pop().unwrap_or_else(|| {
            self.slots += 1;
            self.slots - 1
        })
    }

    fn drop_slot(&mut self, v: u32) {
        if let Some(s) = self.slot_of[v as usize].take() {
            self.free_slots.push(s);
        }
    }

    fn bind(&mut self, v: u32, r: Reg) {
        self.reg_of[v as usize] = Some(r);
        self.holder.insert(r, v);
    }

    fn unbind(&mut self, v: u32) -> Option<Reg> {
        let r = self.reg_of[v as usize].take()?;
        self.holder.remove(&r);
        Some(r)
    }

    /// A free register, evicting the value used furthest in the future (never one in `keep`).
    fn get_reg(&mut self, k: usize, keep: &BTreeSet<u32>) -> Reg {
        if let Some(r) = self.pool.iter().find(|r| !self.holder.contains_key(r)) {
            return *r;
        }
        let victim = self
            .holder
            .values()
            .copied()
            .filter(|v| !keep.contains(v))
            .max_by_key(|&v| (self.next_use(v, k), v))
            .expect("an instruction never needs every register at once");
        let r = self.unbind(victim).expect("victim holds a register");
        if self.slot_of[victim as usize].is_none() {
            let s = self.take_slot();
            self.slot_of[victim as usize] = Some(s);
            self.out.push(Inst::Store {
                dst: slot_mem(s),
                src: r,
            });
            self.spill_moves += 1;
        }
        r
    }

    /// The register of `v`, reloading it from its slot if needed.
    fn ensure_reg(&mut self, v: u32, k: usize, keep: &BTreeSet<u32>) -> Reg {
        if let Some(r) = self.reg_of[v as usize] {
            return r;
        }
        let s = self.slot_of[v as usize]
            .unwrap_or_else(|| panic!("value {v} read at instruction {k} before it is defined"));
        let r = self.get_reg(k, keep);
        self.out.push(Inst::Mov {
            dst: r,
            src: Src::Mem(slot_mem(s)),
        });
        self.spill_moves += 1;
        self.bind(v, r);
        r
    }

    fn reg(&mut self, v: VReg, k: usize, keep: &BTreeSet<u32>) -> Reg {
        match vnum(v) {
            None => Reg::Rdx,
            Some(n) => self.ensure_reg(n, k, keep),
        }
    }

    /// A source operand: registers stay registers, spilled values are read from their slot,
    /// memory bases are brought into registers.
    fn src(&mut self, s: Src<VReg>, k: usize, keep: &BTreeSet<u32>) -> Src<Reg> {
        match s {
            Src::Imm(i) => Src::Imm(i),
            Src::Mem(m) => Src::Mem(Mem {
                base: self.reg(m.base, k, keep),
                disp: m.disp,
            }),
            Src::Reg(VReg::Rdx) => Src::Reg(Reg::Rdx),
            Src::Reg(VReg::V(v)) => match self.reg_of[v as usize] {
                Some(r) => Src::Reg(r),
                None => Src::Mem(slot_mem(self.slot_of[v as usize].unwrap_or_else(|| {
                    panic!("value {v} read at instruction {k} before it is defined")
                }))),
            },
        }
    }

    /// A register for a value defined at instruction `k`.
    fn define(&mut self, v: VReg, k: usize, keep: &BTreeSet<u32>) -> Reg {
        match vnum(v) {
            None => Reg::Rdx,
            Some(n) => {
                assert!(
                    self.reg_of[n as usize].is_none() && self.slot_of[n as usize].is_none(),
                    "value {n} defined twice"
                );
                let r = self.get_reg(k, keep);
                self.bind(n, r);
                r
            }
        }
    }

    /// Releases the values whose last use is `k`, and values defined at `k` that are never used.
    fn release(&mut self, inst: &Inst<VReg>, k: usize) {
        let mut vals: Vec<u32> = inst.reads().into_iter().filter_map(vnum).collect();
        vals.extend(inst.writes().into_iter().filter_map(vnum));
        for v in vals {
            if self.last_use(v).is_none_or(|l| l <= k) {
                self.unbind(v);
                self.drop_slot(v);
            }
        }
    }

    fn step(&mut self, inst: &Inst<VReg>, k: usize) {
        let keep: BTreeSet<u32> = inst
            .reads()
            .into_iter()
            .chain(inst.writes())
            .filter_map(vnum)
            .collect();
        match *inst {
            Inst::Mov { dst, src } => {
                // A copy of a value read for the last time is a renaming.
                if let (Some(d), Src::Reg(VReg::V(s))) = (vnum(dst), src) {
                    if self.last_use(s) == Some(k) && self.reg_of[s as usize].is_some() {
                        let r = self.unbind(s).expect("in a register");
                        self.drop_slot(s);
                        self.bind(d, r);
                        return;
                    }
                }
                let src = self.src(src, k, &keep);
                let dst = self.define(dst, k, &keep);
                self.out.push(Inst::Mov { dst, src });
            }
            Inst::MovImm { dst, imm } => {
                let dst = self.define(dst, k, &keep);
                self.out.push(Inst::MovImm { dst, imm });
            }
            Inst::Shld { dst, src, k: count } => {
                let rd = self.reg(dst, k, &keep);
                let rs = self.reg(src, k, &keep);
                if let Some(d) = vnum(dst) {
                    // The slot copy, if any, is stale now.
                    self.drop_slot(d);
                }
                self.out.push(Inst::Shld {
                    dst: rd,
                    src: rs,
                    k: count,
                });
            }
            Inst::Zero { dst } => {
                let dst = self.define(dst, k, &keep);
                self.out.push(Inst::Zero { dst });
            }
            Inst::Mulx { hi, lo, src } => {
                let src = self.src(src, k, &keep);
                let hi = self.define(hi, k, &keep);
                let lo = self.define(lo, k, &keep);
                self.out.push(Inst::Mulx { hi, lo, src });
            }
            Inst::Alu { op, dst, src } => {
                if let (Some(d), Src::Reg(VReg::V(s))) = (vnum(dst), src) {
                    let swappable = op.commutative()
                        && s != d
                        && self.reg_of[d as usize].is_none()
                        && self.reg_of[s as usize].is_some()
                        && self.last_use(s) == Some(k);
                    if swappable {
                        let rs = self.unbind(s).expect("in a register");
                        self.drop_slot(s);
                        let slot = self.slot_of[d as usize].expect("spilled value has a slot");
                        self.out.push(Inst::Alu {
                            op,
                            dst: rs,
                            src: Src::Mem(slot_mem(slot)),
                        });
                        self.drop_slot(d);
                        self.bind(d, rs);
                        return;
                    }
                }
                let rd = self.reg(dst, k, &keep);
                let src = self.src(src, k, &keep);
                if let Some(d) = vnum(dst) {
                    // The slot copy, if any, is stale now.
                    self.drop_slot(d);
                }
                self.out.push(Inst::Alu { op, dst: rd, src });
            }
            Inst::Store { dst, src } => {
                // Kernels that write memory (scratch buffers) store registers only.
                let base = self.reg(dst.base, k, &keep);
                let src = self.reg(src, k, &keep);
                self.out.push(Inst::Store {
                    dst: Mem {
                        base,
                        disp: dst.disp,
                    },
                    src,
                });
            }
            Inst::Push(_) | Inst::Pop(_) | Inst::AllocStack(_) | Inst::FreeStack(_) => {
                panic!("kernels do not manage memory or the stack themselves")
            }
        }
    }
}

/// Allocates `prog` to the registers of `pool` (in preference order; [`REGISTERS`] for real
/// kernels, fewer in tests to force spills).
pub fn allocate(prog: &VProgram, pool: &[Reg]) -> Allocation {
    let nv = prog.num_values as usize;
    let end = prog.insts.len();
    let mut uses: Vec<Vec<usize>> = vec![Vec::new(); nv];
    for (k, inst) in prog.insts.iter().enumerate() {
        for v in inst.reads().into_iter().filter_map(vnum) {
            if uses[v as usize].last() != Some(&k) {
                uses[v as usize].push(k);
            }
        }
    }
    for v in prog.outputs.iter().filter_map(|v| vnum(*v)) {
        uses[v as usize].push(end);
    }
    let mut st = Alloc {
        pool,
        uses,
        reg_of: vec![None; nv],
        slot_of: vec![None; nv],
        holder: HashMap::new(),
        free_slots: Vec::new(),
        slots: 0,
        out: Vec::new(),
        spill_moves: 0,
    };
    // Pointer arguments arrive in operand registers of the pool.
    let mut inputs = Vec::new();
    for (v, what) in &prog.inputs {
        let n = vnum(*v).expect("inputs are virtual values");
        let r = *pool
            .iter()
            .find(|r| !r.reserved_by_llvm() && !st.holder.contains_key(r))
            .expect("enough operand registers for the pointers");
        st.bind(n, r);
        inputs.push((r, *what));
    }
    for (k, inst) in prog.insts.iter().enumerate() {
        st.step(inst, k);
        st.release(inst, k);
    }
    // Results go to distinct operand registers (any of them: nothing else is live now).
    let mut outputs = Vec::new();
    let mut taken: BTreeSet<Reg> = BTreeSet::new();
    let mut moves = Vec::new();
    for v in &prog.outputs {
        let n = vnum(*v).expect("results are virtual values");
        match st.reg_of[n as usize] {
            Some(r) if !r.reserved_by_llvm() && taken.insert(r) => outputs.push(r),
            _ => outputs.push(Reg::Rsp), // placeholder, fixed below
        }
        moves.push(n);
    }
    for (i, n) in moves.iter().enumerate() {
        if outputs[i] != Reg::Rsp {
            continue;
        }
        let r = *OPERAND_REGISTERS
            .iter()
            .find(|r| !taken.contains(r) && !st.holder.contains_key(r))
            .expect("results fit the operand registers");
        taken.insert(r);
        let src = match st.reg_of[*n as usize] {
            Some(from) => Src::Reg(from),
            None => Src::Mem(slot_mem(st.slot_of[*n as usize].expect("result is live"))),
        };
        st.out.push(Inst::Mov { dst: r, src });
        outputs[i] = r;
    }

    let body = std::mem::take(&mut st.out);
    let mut written: BTreeSet<Reg> = body.iter().flat_map(|i| i.writes()).collect();
    written.remove(&Reg::Rsp);
    let saved: Vec<Reg> = written
        .iter()
        .copied()
        .filter(|r| r.reserved_by_llvm())
        .collect();
    written.retain(|r| !r.reserved_by_llvm());
    let mut insts = Vec::new();
    insts.extend(saved.iter().map(|r| Inst::Push(*r)));
    if st.slots > 0 {
        insts.push(Inst::AllocStack(8 * st.slots));
    }
    insts.extend(body);
    if st.slots > 0 {
        insts.push(Inst::FreeStack(8 * st.slots));
    }
    insts.extend(saved.iter().rev().map(|r| Inst::Pop(*r)));
    Allocation {
        insts,
        inputs,
        outputs,
        written,
        saved,
        slots: st.slots,
        spill_moves: st.spill_moves,
    }
}
