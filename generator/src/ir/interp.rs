//! The IR interpreter: runs a [`Func`] on concrete words. The oracle tests check every
//! lowering through it, independently of any emitter.

use super::{word_mask, Func, Op};
use crate::narrow::lo64;

/// Why interpretation failed: a malformed function or arguments that break its contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InterpError {
    /// Wrong number of arguments or limbs.
    BadArguments(String),
    /// A variable was used before it was defined.
    Undefined(u32),
    /// An argument limb exceeds its declared bound.
    InputOutOfBounds {
        /// The index of the argument.
        arg: usize,
        /// The index of the limb in the argument, least significant first.
        limb: usize,
    },
    /// A carry/borrow/select operand was not 0/1 or a mask, or `MulAdd` overflowed.
    ContractViolated(String),
}

/// Executes `f` on `args` (one limb slice per input, limbs below 2^w) and returns its outputs.
pub fn interpret(f: &Func, args: &[&[u64]]) -> Result<Vec<u64>, InterpError> {
    let w = f.w;
    let m = word_mask(w);
    if args.len() != f.inputs.len() {
        return Err(InterpError::BadArguments(format!(
            "{} arguments, expected {}",
            args.len(),
            f.inputs.len()
        )));
    }
    for (i, (a, bounds)) in args.iter().zip(&f.inputs).enumerate() {
        if a.len() != bounds.len() {
            return Err(InterpError::BadArguments(format!(
                "argument {i} has {} limbs, expected {}",
                a.len(),
                bounds.len()
            )));
        }
        for (k, (&x, &b)) in a.iter().zip(bounds).enumerate() {
            if x > b {
                return Err(InterpError::InputOutOfBounds { arg: i, limb: k });
            }
        }
    }
    let mut vals: Vec<Option<u64>> = vec![None; f.num_vars as usize];
    let get = |vals: &Vec<Option<u64>>, v: super::Var| {
        vals.get(v.0 as usize)
            .copied()
            .flatten()
            .ok_or(InterpError::Undefined(v.0))
    };
    let bit = |x: u64, what: &str| -> Result<u128, InterpError> {
        if x > 1 {
            Err(InterpError::ContractViolated(format!(
                "{what} is {x}, not a bit"
            )))
        } else {
            Ok(x as u128)
        }
    };
    for ins in &f.instrs {
        let (lo, hi): (u64, Option<u64>) = match ins.op {
            Op::Const(c) => (c, None),
            Op::Input { arg, limb } => (args[arg as usize][limb as usize], None),
            Op::MulAdd { a, b, c, d } => {
                let t = get(&vals, a)? as u128 * get(&vals, b)? as u128
                    + get(&vals, c)? as u128
                    + get(&vals, d)? as u128;
                // Fits: (2^w-1)^2 + 2(2^w-1) = 2^(2w) - 1.
                (lo64(t) & m, Some(lo64(t >> w)))
            }
            Op::MulLo { a, b } => ((get(&vals, a)?.wrapping_mul(get(&vals, b)?)) & m, None),
            Op::AddCarry { a, b, cin } => {
                let t = get(&vals, a)? as u128
                    + get(&vals, b)? as u128
                    + bit(get(&vals, cin)?, "carry-in")?;
                (lo64(t) & m, Some(lo64(t >> w)))
            }
            Op::SubBorrow { a, b, bin } => {
                let x = get(&vals, a)? as u128;
                let y = get(&vals, b)? as u128 + bit(get(&vals, bin)?, "borrow-in")?;
                let borrow = (x < y) as u64;
                let d = lo64(x + ((borrow as u128) << w) - y);
                (d, Some(borrow))
            }
            Op::And { a, b } => (get(&vals, a)? & get(&vals, b)?, None),
            Op::Or { a, b } => (get(&vals, a)? | get(&vals, b)?, None),
            Op::Xor { a, b } => (get(&vals, a)? ^ get(&vals, b)?, None),
            Op::Not { a } => (!get(&vals, a)? & m, None),
            Op::Shl { a, k } => ((get(&vals, a)? << k) & m, None),
            Op::Shr { a, k } => (get(&vals, a)? >> k, None),
            Op::Mask { bit: b } => {
                let x = lo64(bit(get(&vals, b)?, "mask bit")?);
                (x.wrapping_neg() & m, None)
            }
            Op::Select { mask, a, b } => {
                let k = get(&vals, mask)?;
                if k != 0 && k != m {
                    return Err(InterpError::ContractViolated(format!(
                        "select mask {k:#x} is not all zeros or all ones"
                    )));
                }
                (
                    if k == 0 {
                        get(&vals, a)?
                    } else {
                        get(&vals, b)?
                    },
                    None,
                )
            }
        };
        vals[ins.outs[0].0 as usize] = Some(lo);
        if let Some(h) = hi {
            vals[ins.outs[1].0 as usize] = Some(h);
        }
    }
    for ch in &f.checks {
        let x = get(&vals, ch.var)?;
        if x > ch.max {
            return Err(InterpError::ContractViolated(format!(
                "{}: {x:#x} exceeds {:#x}",
                ch.what, ch.max
            )));
        }
    }
    let outs: Vec<u64> = f
        .outputs
        .iter()
        .map(|&v| get(&vals, v))
        .collect::<Result<_, _>>()?;
    for (k, (&x, &b)) in outs.iter().zip(&f.output_bounds).enumerate() {
        if x > b {
            return Err(InterpError::ContractViolated(format!(
                "output limb {k} is {x:#x}, above its bound {b:#x}"
            )));
        }
    }
    Ok(outs)
}
