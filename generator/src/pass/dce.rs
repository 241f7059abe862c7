//! Dead-code elimination: drop instructions none of whose outputs reach the function's outputs.

use crate::ir::Func;

/// Removes instructions whose results are never used.
pub fn dce(f: &Func) -> Func {
    let mut live = vec![false; f.num_vars as usize];
    for v in &f.outputs {
        live[v.0 as usize] = true;
    }
    let mut keep = vec![false; f.instrs.len()];
    for (idx, ins) in f.instrs.iter().enumerate().rev() {
        let used = live[ins.outs[0].0 as usize]
            || (ins.op.arity_out() == 2 && live[ins.outs[1].0 as usize]);
        if used {
            keep[idx] = true;
            for v in ins.op.operands() {
                live[v.0 as usize] = true;
            }
        }
    }
    let instrs = f
        .instrs
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(i, _)| *i)
        .collect();
    Func {
        instrs,
        ..f.clone()
    }
}
