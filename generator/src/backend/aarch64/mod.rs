//! The `aarch64` target: Montgomery multiplication and squaring for one modulus as
//! straight-line `core::arch::asm!` with `mul`/`umulh` products and `adds`/`adcs` carry chains.
//!
//! The same design as [`super::x86_64`], in stages:
//!
//! 1. [`kernel`]: CIOS over virtual values ([`program::Builder`] writes [`inst::Inst`] values;
//!    instructions are data, never strings);
//! 2. [`allocate`]: the shared linear scan ([`crate::backend::isa::regalloc`]) over the 28
//!    registers the block may use, with the operand and modulus limbs kept in registers as far
//!    as they fit;
//! 3. [`asm`]: the one printer.
//!
//! [`select`] is the other way to stage 1: instruction selection from the optimised IR
//! (the CIOS product and the square the portable code runs), on the same allocator, simulator
//! and printer. [`core_fns`] emits the selected kernel wherever it is no longer than the
//! hand-written one (an equal count is the usual case for moduli without zero limbs: the
//! selector fuses a row's top-word carry and pairs loads into `ldp` as the hand kernel does),
//! and the hand-written kernel otherwise; each function's doc comment says which it is.
//!
//! [`sim`] runs kernels before and after allocation, so tests check them against num-bigint
//! without an AArch64 machine. The field wrapper ([`crate::api::core`]) uses the kernels whenever
//! the build is for `target_arch = "aarch64"`: no feature detection is needed.

pub mod asm;
pub mod inst;
pub mod kernel;
pub mod program;
pub mod select;
pub mod sim;

use proc_macro2::TokenStream;
use quote::format_ident;

use crate::backend::isa::{self, Isa};
use crate::spec::FieldConsts;
use crate::strategy::MulAlgorithm;
use inst::Aarch64;
use kernel::Residency;
use program::VProgram;

pub use crate::backend::isa::regalloc::allocate;

/// A kernel after register allocation.
pub type Allocation = isa::Allocation<Aarch64>;

/// The registers the kernels may use, in allocation order: `x0`–`x17`, `x20`–`x28`, `x30`.
pub fn registers() -> Vec<inst::Reg> {
    Aarch64::registers()
}

/// The target's name, as `--target` spells it and `backend()` reports it.
pub const NAME: &str = "aarch64";

/// The largest limb count the kernels are emitted for.
pub const MAX_LIMBS: usize = 8;

/// Why the kernels cannot be emitted for this field and algorithm, if they cannot.
pub fn unsupported(c: &FieldConsts, alg: MulAlgorithm) -> Option<String> {
    crate::backend::isa::unsupported(NAME, 64, MAX_LIMBS, c, alg)
}

/// A kernel and its allocation.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Before allocation.
    pub program: VProgram,
    /// After allocation.
    pub alloc: Allocation,
    /// Limbs kept in registers.
    pub residency: Residency,
}

impl Kernel {
    /// The kernel for `c` with the most limbs in registers that fits the register file.
    fn new(c: &FieldConsts, square: bool) -> Kernel {
        let pool = registers();
        for res in kernel::residency(c) {
            // The squaring kernel reads a once; only p's residency matters.
            if square && res.b != c.limbs {
                continue;
            }
            let program = if square {
                kernel::square_sos(c, res)
            } else {
                kernel::kernel(c, res, false)
            };
            if let Ok(alloc) = allocate(&program, &pool) {
                return Kernel {
                    program,
                    alloc,
                    residency: res,
                };
            }
        }
        unreachable!("with every limb loaded at its use, a kernel needs few registers")
    }

    /// Instructions in the `asm!` block.
    pub fn instructions(&self) -> usize {
        self.alloc.insts.len()
    }

    /// `mul` and `umulh` instructions.
    pub fn multiplies(&self) -> usize {
        self.program.multiplies()
    }
}

/// The multiplication kernel for `c`.
pub fn mul_kernel(c: &FieldConsts) -> Kernel {
    Kernel::new(c, false)
}

/// The squaring kernel for `c`.
pub fn square_kernel(c: &FieldConsts) -> Kernel {
    Kernel::new(c, true)
}

fn shape(k: &Kernel) -> String {
    format!(
        "{} instructions, {} mul/umulh, {} registers",
        k.instructions(),
        k.multiplies(),
        k.alloc.pressure
    )
}

/// The kernel a product emits: the one selected from the IR when it has no more
/// instructions than the hand-written kernel, else the hand-written one.
#[derive(Clone, Debug)]
pub enum Chosen {
    /// Selected from the optimised IR function ([`select::compile`]).
    Selected(select::Selected),
    /// The hand-written kernel ([`kernel`]).
    Hand(Kernel),
}

impl Chosen {
    /// The allocated kernel.
    pub fn alloc(&self) -> &Allocation {
        match self {
            Chosen::Selected(s) => &s.alloc,
            Chosen::Hand(k) => &k.alloc,
        }
    }

    /// A sentence for the doc comment: where the kernel comes from and its size.
    fn describe(&self, ir_name: &str) -> String {
        match self {
            Chosen::Selected(s) => format!(
                "Selected from the optimised IR {ir_name} ({} instructions, {} mul/umulh, {} registers).",
                s.instructions(),
                s.multiplies(),
                s.alloc.pressure
            ),
            Chosen::Hand(k) => format!(
                "Hand-written kernel ({}): the one selected from the IR {ir_name} is longer.",
                shape(k)
            ),
        }
    }
}

/// The multiplication (`square` false) or squaring kernel a product emits for `c` ([`Chosen`]).
pub fn chosen_kernel(c: &FieldConsts, square: bool) -> Chosen {
    let hand = if square {
        square_kernel(c)
    } else {
        mul_kernel(c)
    };
    let f = if square {
        crate::strategy::square::lower_square(c)
    } else {
        crate::strategy::montgomery::lower_mul(c, MulAlgorithm::Cios)
    };
    let given = select::Given {
        modulus: Some(&c.modulus_limbs),
        n0: Some(c.n0_inv),
    };
    match select::compile(&crate::pass::optimize(&f), given) {
        Ok(sel) if sel.instructions() <= hand.instructions() => Chosen::Selected(sel),
        _ => Chosen::Hand(hand),
    }
}

/// Emits `mont_mul_aarch64` and `mont_square_aarch64`, gated on `target_arch = "aarch64"`.
pub fn core_fns(c: &FieldConsts) -> TokenStream {
    let mul = chosen_kernel(c, false);
    let square = chosen_kernel(c, true);
    let mul_doc = format!(
        "Montgomery product a·b·R⁻¹ mod p of two values below p, in AArch64 assembly: CIOS, mul/umulh products, adds/adcs carry chains, constant-time final subtraction (csel). {}",
        mul.describe("CIOS product"),
    );
    let square_doc = format!(
        "Montgomery square a²·R⁻¹ mod p of a value below p, in AArch64 assembly: the off-diagonal products a[i]·a[j] once, doubled, plus the squares, then n reduction passes, constant-time final subtraction (csel). {}",
        square.describe("square"),
    );
    let mul_fn = asm::kernel_fn(
        &format_ident!("mont_mul_aarch64"),
        mul.alloc(),
        &["a", "b"],
        c.n0_inv,
        &mul_doc,
    );
    let square_fn = asm::kernel_fn(
        &format_ident!("mont_square_aarch64"),
        square.alloc(),
        &["a"],
        c.n0_inv,
        &square_doc,
    );
    quote::quote!(#mul_fn #square_fn)
}
