//! Register allocation for the straight-line SSA kernels: linear scan in program order. Every
//! value lives from its definition to its last use, so the live ranges are intervals and
//! assigning registers in order of definition needs exactly as many registers as values are
//! live at once. There is no spilling: the kernel builder keeps fewer limbs in registers until
//! the kernel fits ([`super::kernel::residency`]).
//!
//! Registers: `x0`–`x17`, `x20`–`x28` and `x30`: all but `x18` (the platform register on some
//! systems), `x19` (reserved by LLVM), `x29` (frame pointer) and `sp`. A register whose value
//! dies at an instruction may hold that instruction's result (every instruction reads its
//! operands before writing), except for `ldp`, whose destinations never reuse its base.

use std::collections::{BTreeSet, HashMap};

use super::inst::{Inst, Reg, V};
use super::program::{Input, VProgram};

/// Allocation order: caller-saved first, then callee-saved (saved by the compiler around the
/// block when used), then the link register.
pub fn registers() -> Vec<Reg> {
    (0..=17).chain(20..=28).chain([30]).map(Reg).collect()
}

/// A kernel after allocation.
#[derive(Clone, Debug)]
pub struct Allocation {
    /// The instructions.
    pub insts: Vec<Inst<Reg>>,
    /// The register of each input on entry, and what it holds.
    pub inputs: Vec<(Reg, Input)>,
    /// The register of each result limb on exit.
    pub outputs: Vec<Reg>,
    /// Registers the code writes.
    pub written: BTreeSet<Reg>,
    /// The most registers live at once.
    pub pressure: usize,
}

/// Allocates `prog` over `pool`; an error when more values are live at once than `pool` holds.
pub fn allocate(prog: &VProgram, pool: &[Reg]) -> Result<Allocation, String> {
    let end = prog.insts.len();
    let mut last_use: HashMap<V, usize> = HashMap::new();
    for (k, inst) in prog.insts.iter().enumerate() {
        for v in inst.reads() {
            last_use.insert(v, k);
        }
    }
    for v in &prog.outputs {
        last_use.insert(*v, end);
    }
    let mut free: Vec<Reg> = pool.iter().rev().copied().collect();
    let mut reg_of: HashMap<V, Reg> = HashMap::new();
    let mut pressure = 0;
    let take = |free: &mut Vec<Reg>, v: V, reg_of: &mut HashMap<V, Reg>| -> Result<Reg, String> {
        let r = free
            .pop()
            .ok_or_else(|| format!("more than {} values live at once", pool.len()))?;
        reg_of.insert(v, r);
        Ok(r)
    };
    let mut inputs = Vec::new();
    for (v, what) in &prog.inputs {
        let r = take(&mut free, *v, &mut reg_of)?;
        inputs.push((r, *what));
        if !last_use.contains_key(v) {
            free.push(r);
        }
    }
    let mut insts = Vec::with_capacity(end);
    let mut written = BTreeSet::new();
    for (k, inst) in prog.insts.iter().enumerate() {
        pressure = pressure.max(pool.len() - free.len());
        let reads = inst.reads();
        let dying: Vec<V> = reads
            .iter()
            .copied()
            .filter(|v| last_use.get(v) == Some(&k))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let release = |free: &mut Vec<Reg>, reg_of: &HashMap<V, Reg>| {
            for v in &dying {
                free.push(reg_of[v]);
            }
        };
        let is_ldp = matches!(inst, Inst::Ldp { .. });
        if !is_ldp {
            release(&mut free, &reg_of);
        }
        for v in inst.writes() {
            let r = take(&mut free, v, &mut reg_of)?;
            written.insert(r);
        }
        pressure = pressure.max(pool.len() - free.len());
        if is_ldp {
            release(&mut free, &reg_of);
        }
        let mapped = inst.map(|v| reg_of[&v]);
        for v in inst.writes() {
            if !last_use.contains_key(&v) {
                free.push(reg_of[&v]);
            }
        }
        insts.push(mapped);
    }
    let outputs = prog.outputs.iter().map(|v| reg_of[v]).collect();
    Ok(Allocation {
        insts,
        inputs,
        outputs,
        written,
        pressure,
    })
}
