//! The instruction order the ISA selectors start from: every carry chain and every
//! multiply-accumulate row of an optimised IR function made contiguous, so that a flag-based
//! ISA (AArch64's C, x86-64's CF/OF) keeps each carry in its flag from one link to the next.

use std::collections::{HashMap, HashSet};

use crate::ir::{Func, Op, Var};

/// A schedule: an order of `f`'s instructions (indices) in which every carry chain and every
/// multiply-accumulate row is contiguous, and the rows (at least two `MulAdd`s, first link
/// first).
#[derive(Clone, Debug, Default)]
pub struct Schedule {
    /// Instruction indices in execution order.
    pub order: Vec<usize>,
    /// The multiply-accumulate rows.
    pub rows: Vec<Vec<usize>>,
}

/// The kind of a link: an addition chain, a subtraction chain or a multiply-accumulate row.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Add,
    Sub,
    Row,
}

fn kind(op: &Op) -> Option<Kind> {
    match op {
        Op::AddCarry { .. } => Some(Kind::Add),
        Op::SubBorrow { .. } => Some(Kind::Sub),
        Op::MulAdd { .. } => Some(Kind::Row),
        _ => None,
    }
}

/// Whether `op` takes `carry` (the previous link's carry or high word) as the next link of a
/// chain of `kind`: as the carry-in of a chain, as one addend of a row.
fn takes(op: &Op, kind: Kind, carry: Var) -> bool {
    let once = op.operands().iter().filter(|v| **v == carry).count() == 1;
    once && match (*op, kind) {
        (Op::AddCarry { cin, .. }, Kind::Add) => cin == carry,
        (Op::SubBorrow { bin, .. }, Kind::Sub) => bin == carry,
        (Op::MulAdd { c, d, .. }, Kind::Row) => c == carry || d == carry,
        _ => false,
    }
}

/// Schedules `f`: each chain (a carry whose only use is the next link's carry-in) and each row
/// (a high word whose only use is an addend of the next `MulAdd`) is made contiguous by moving
/// the instructions between its links that do not depend on it before it and the others
/// after it; a link that reads one of the latter ends the chain. A row starts at a `MulAdd`
/// with an addend 0 and never reads a low word of its own links.
pub fn schedule(f: &Func) -> Schedule {
    let n = f.instrs.len();
    let mut def: HashMap<Var, usize> = HashMap::new();
    let mut uses: HashMap<Var, Vec<usize>> = HashMap::new();
    let mut zero = HashSet::new();
    for (i, ins) in f.instrs.iter().enumerate() {
        for v in ins.op.operands() {
            uses.entry(v).or_default().push(i);
        }
        def.insert(ins.outs[0], i);
        if ins.op.arity_out() == 2 {
            def.insert(ins.outs[1], i);
        }
        if ins.op == Op::Const(0) {
            zero.insert(ins.outs[0]);
        }
    }
    for v in &f.outputs {
        uses.entry(*v).or_default().push(usize::MAX);
    }
    let mut order: Vec<usize> = (0..n).collect();
    let mut rows = Vec::new();
    let mut in_chain = vec![false; n];
    for start in 0..n {
        let Some(kind) = kind(&f.instrs[start].op) else {
            continue;
        };
        if in_chain[start] {
            continue;
        }
        if let Op::MulAdd { c, d, .. } = f.instrs[start].op {
            if !zero.contains(&c) && !zero.contains(&d) {
                continue;
            }
        }
        in_chain[start] = true;
        let mut links = vec![start];
        loop {
            let last = *links.last().expect("a chain has a link");
            let carry = f.instrs[last].outs[1];
            let next = match uses.get(&carry).map(Vec::as_slice) {
                Some(&[j]) if j != usize::MAX => j,
                _ => break,
            };
            let op = &f.instrs[next].op;
            if in_chain[next] || !takes(op, kind, carry) {
                break;
            }
            // A row reads no low word of its own links.
            if kind == Kind::Row
                && op.operands().iter().any(|v| {
                    def.get(v)
                        .is_some_and(|d| links.contains(d) && f.instrs[*d].outs[0] == *v)
                })
            {
                break;
            }
            // The instructions between the chain's first link and `next` that depend on a link:
            // `next` must not read one of them.
            let lo = order.iter().position(|&k| k == start).expect("scheduled");
            let hi = order.iter().position(|&k| k == next).expect("scheduled");
            let mut tainted: HashSet<usize> = links.iter().copied().collect();
            for &k in &order[lo..hi] {
                if f.instrs[k]
                    .op
                    .operands()
                    .iter()
                    .any(|v| def.get(v).is_some_and(|d| tainted.contains(d)))
                {
                    tainted.insert(k);
                }
            }
            let blocked = f.instrs[next]
                .op
                .operands()
                .iter()
                .filter(|v| **v != carry)
                .any(|v| {
                    def.get(v)
                        .is_some_and(|d| tainted.contains(d) && !links.contains(d))
                });
            if blocked {
                break;
            }
            in_chain[next] = true;
            links.push(next);
        }
        if links.len() < 2 {
            continue;
        }
        // Rearrange the window: independent instructions, the chain, then the dependent ones.
        let last = *links.last().expect("a chain has a link");
        let lo = order.iter().position(|&k| k == start).expect("scheduled");
        let hi = order.iter().position(|&k| k == last).expect("scheduled");
        let mut tainted: HashSet<usize> = links.iter().copied().collect();
        let (mut before, mut after) = (Vec::new(), Vec::new());
        for &k in &order[lo..=hi] {
            if links.contains(&k) {
                continue;
            }
            let dep = f.instrs[k]
                .op
                .operands()
                .iter()
                .any(|v| def.get(v).is_some_and(|d| tainted.contains(d)));
            if dep {
                tainted.insert(k);
                after.push(k);
            } else {
                before.push(k);
            }
        }
        let window: Vec<usize> = before
            .into_iter()
            .chain(links.iter().copied())
            .chain(after)
            .collect();
        order.splice(lo..=hi, window);
        if kind == Kind::Row {
            rows.push(links);
        }
    }
    Schedule { order, rows }
}
