//! Register allocation for straight-line SSA kernels: linear scan in program order. Every value
//! lives from its definition to its last use (results: to the end), so the live ranges are
//! intervals and assigning registers in order of definition needs exactly as many registers as
//! values are live at once. There is no spilling: a kernel builder that may run out keeps fewer
//! limbs in registers until its kernel fits.
//!
//! A register whose value dies at an instruction may hold that instruction's results, unless
//! the instruction says otherwise ([`Operands::results_may_reuse_operands`]); a tied result
//! ([`Operands::ties`]) takes the register of its input, which must die there.

use std::collections::{BTreeSet, HashMap};

use super::{Allocation, Isa, Operands, VProgram};

/// Allocates `prog` over `pool` (in preference order); an error when more values are live at
/// once than `pool` holds, or a tied input is still used after the instruction it feeds.
pub fn allocate<I: Isa>(prog: &VProgram<I>, pool: &[I::Reg]) -> Result<Allocation<I>, String>
where
    I::Inst<I::Value>: Operands<I::Value>,
{
    let end = prog.insts.len();
    let mut last_use: HashMap<I::Value, usize> = HashMap::new();
    for (k, inst) in prog.insts.iter().enumerate() {
        for v in inst.reads() {
            last_use.insert(v, k);
        }
    }
    for v in &prog.outputs {
        last_use.insert(*v, end);
    }
    let mut free: Vec<I::Reg> = pool.iter().rev().copied().collect();
    let mut reg_of: HashMap<I::Value, I::Reg> = HashMap::new();
    let mut pressure = 0;
    let full = || format!("more than {} values live at once", pool.len());
    let mut inputs = Vec::new();
    for (v, what) in &prog.inputs {
        let r = free.pop().ok_or_else(full)?;
        reg_of.insert(*v, r);
        inputs.push((r, *what));
        if !last_use.contains_key(v) {
            free.push(r);
        }
    }
    let mut insts = Vec::with_capacity(end);
    let mut written = BTreeSet::new();
    for (k, inst) in prog.insts.iter().enumerate() {
        pressure = pressure.max(pool.len() - free.len());
        let ties = inst.ties();
        for (_, input) in &ties {
            if last_use.get(input) != Some(&k) {
                return Err(format!("{input:?} is used after the instruction it feeds"));
            }
        }
        // Dying operands in value order; a tied input keeps its register for its result.
        let dying: Vec<I::Value> = inst
            .reads()
            .into_iter()
            .filter(|v| last_use.get(v) == Some(&k) && !ties.iter().any(|(_, i)| i == v))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let release = |free: &mut Vec<I::Reg>, reg_of: &HashMap<I::Value, I::Reg>| {
            free.extend(dying.iter().map(|v| reg_of[v]));
        };
        let early = inst.results_may_reuse_operands();
        if early {
            release(&mut free, &reg_of);
        }
        for v in inst.writes() {
            let r = match ties.iter().find(|(out, _)| *out == v) {
                Some((_, input)) => reg_of[input],
                None => free.pop().ok_or_else(full)?,
            };
            reg_of.insert(v, r);
            written.insert(r);
        }
        pressure = pressure.max(pool.len() - free.len());
        if !early {
            release(&mut free, &reg_of);
        }
        insts.push(I::map(inst, |v| reg_of[&v]));
        for v in inst.writes() {
            if !last_use.contains_key(&v) {
                free.push(reg_of[&v]);
            }
        }
    }
    let outputs = prog.outputs.iter().map(|v| reg_of[v]).collect();
    Ok(Allocation {
        insts,
        inputs,
        outputs,
        layout: prog.layout,
        written,
        pressure,
    })
}
