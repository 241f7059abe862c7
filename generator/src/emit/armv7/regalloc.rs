//! Register allocation for the straight-line SSA kernels: linear scan in program order, as for
//! AArch64 ([`crate::emit::aarch64::regalloc`]). Live ranges are intervals, so assigning
//! registers in order of definition needs exactly as many registers as values are live at
//! once; the kernel is designed to keep that at most 10 and there is no spilling.
//!
//! Registers: `r0`–`r5`, `r8`–`r10`, `r12` and `lr` — what `asm!` accepts on every ARMv7
//! target: `r6` is LLVM's base pointer, `r7` (Thumb) or `r11` (ARM) the frame pointer, `sp`
//! and `pc` are not general registers. A value dying at an instruction frees its register for
//! that instruction's results (every instruction reads before it writes); a `umaal` result
//! takes the register of its tied input, which must die there.

use std::collections::{BTreeSet, HashMap};

use super::inst::{Inst, Reg, V};
use super::program::{Input, VProgram};

/// The registers the kernels may use, in allocation order (`lr` last: the compiler saves it).
pub fn registers() -> Vec<Reg> {
    [0, 1, 2, 3, 12, 4, 5, 8, 9, 10, 14].map(Reg).to_vec()
}

/// A kernel after allocation.
#[derive(Clone, Debug)]
pub struct Allocation {
    /// The instructions.
    pub insts: Vec<Inst<Reg>>,
    /// The register of each input on entry, and what it holds.
    pub inputs: Vec<(Reg, Input)>,
    /// Limbs of the operands and the result.
    pub limbs: usize,
    /// Words of the accumulator buffer.
    pub buffer_words: usize,
    /// Registers the code writes.
    pub written: BTreeSet<Reg>,
    /// The most registers live at once.
    pub pressure: usize,
}

/// Allocates `prog` over `pool`; an error when more values are live at once than `pool` holds
/// or a tied input is still used after its `umaal`.
pub fn allocate(prog: &VProgram, pool: &[Reg]) -> Result<Allocation, String> {
    let mut last_use: HashMap<V, usize> = HashMap::new();
    for (k, inst) in prog.insts.iter().enumerate() {
        for v in inst.reads() {
            last_use.insert(v, k);
        }
    }
    let mut free: Vec<Reg> = pool.iter().rev().copied().collect();
    let mut reg_of: HashMap<V, Reg> = HashMap::new();
    let mut pressure = 0;
    let mut inputs = Vec::new();
    for (v, what) in &prog.inputs {
        let r = free
            .pop()
            .ok_or_else(|| format!("more than {} inputs", pool.len()))?;
        reg_of.insert(*v, r);
        inputs.push((r, *what));
        if !last_use.contains_key(v) {
            free.push(r);
        }
    }
    let mut insts = Vec::with_capacity(prog.insts.len());
    let mut written = BTreeSet::new();
    for (k, inst) in prog.insts.iter().enumerate() {
        pressure = pressure.max(pool.len() - free.len());
        let ties = inst.ties();
        for (_, input) in &ties {
            if last_use.get(input) != Some(&k) {
                return Err(format!("{input:?} is used after the umaal it feeds"));
            }
        }
        let dying: BTreeSet<V> = inst
            .reads()
            .into_iter()
            .filter(|v| last_use.get(v) == Some(&k))
            .collect();
        let tied_inputs: Vec<V> = ties.iter().map(|(_, i)| *i).collect();
        for v in &dying {
            if !tied_inputs.contains(v) {
                free.push(reg_of[v]);
            }
        }
        for v in inst.writes() {
            let r = match ties.iter().find(|(out, _)| *out == v) {
                Some((_, input)) => reg_of[input],
                None => free
                    .pop()
                    .ok_or_else(|| format!("more than {} values live at once", pool.len()))?,
            };
            reg_of.insert(v, r);
            written.insert(r);
        }
        pressure = pressure.max(pool.len() - free.len());
        insts.push(inst.map(|v| reg_of[&v]));
        for v in inst.writes() {
            if !last_use.contains_key(&v) {
                free.push(reg_of[&v]);
            }
        }
    }
    Ok(Allocation {
        insts,
        inputs,
        limbs: prog.limbs,
        buffer_words: prog.buffer_words,
        written,
        pressure,
    })
}
