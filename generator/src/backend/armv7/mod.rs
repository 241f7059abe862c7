//! The `armv7` target: Montgomery multiplication and squaring for one modulus on 32-bit limbs
//! as straight-line `core::arch::asm!` built on `umaal` (ARMv6 and later in ARM state; Thumb-2
//! with the DSP extension on M-profile cores).
//!
//! The same stages as [`super::aarch64`]: [`kernel`] (fused CIOS over virtual values written as
//! [`inst::Inst`]), [`allocate`] (the shared linear scan over the 11 registers `asm!` allows on
//! every ARMv7 target; a `umaal` result takes its accumulator's register), [`asm`] (the
//! printer). [`select`] is the other way to stage 1: instruction selection from the optimised
//! IR (the CIOS product and the square the portable code runs: each
//! multiply-accumulate-accumulate is one `umaal`, add chains are `adds`/`adcs`), with spill
//! code where more than 11 values would be live. [`core_fns`] emits the selected kernel
//! wherever it has no more instructions than the hand-written one ([`chosen_kernel`]), and the
//! hand-written kernel otherwise; each function's doc comment says which it is. [`sim`] runs
//! kernels before and after allocation, so tests check them against
//! num-bigint on any host.
//!
//! Selection is at compile time, by [`cfg_gate`]: stable Rust exposes no ARM target features
//! to `cfg`, so the gate takes `target_has_atomic = "64"` (ldrexd/strexd: ARMv6K and later,
//! A and R profiles, all of which have UMAAL) or `target_feature = "dsp"` (visible to `cfg` on
//! toolchains that report ARM features; the ARMv7E-M cores). Other ARM targets — ARMv4T/v5TE,
//! the M profile without DSP (thumbv6m, thumbv7m), and on stable Rust thumbv7em — use the
//! portable code.

pub mod asm;
pub mod inst;
pub mod kernel;
pub mod program;
pub mod select;
pub mod sim;

use crate::narrow::fit;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::backend::isa::{self, Isa};
use crate::spec::FieldConsts;
use crate::strategy::MulAlgorithm;
use inst::Armv7;
use program::VProgram;

pub use crate::backend::isa::regalloc::allocate;

/// A kernel after register allocation.
pub type Allocation = isa::Allocation<Armv7>;

/// The 11 registers the kernels may use, in allocation order.
pub fn registers() -> Vec<inst::Reg> {
    Armv7::registers()
}

/// The target's name, as `--target` spells it and `backend()` reports it.
pub const NAME: &str = "armv7";

/// The largest limb count the kernels are emitted for (512 bits); larger fields use the
/// portable code, whose size grows as fast and which rustc schedules across the whole product.
pub const MAX_LIMBS: usize = 16;

/// The `cfg` predicate under which the kernels are compiled and used.
pub fn cfg_gate() -> TokenStream {
    quote!(all(
        target_arch = "arm",
        any(target_has_atomic = "64", target_feature = "dsp")
    ))
}

/// Why the kernels cannot be emitted for this field and algorithm, if they cannot.
pub fn unsupported(c: &FieldConsts, alg: MulAlgorithm) -> Option<String> {
    crate::backend::isa::unsupported(NAME, 32, MAX_LIMBS, c, alg)
}

/// Whether `auto` should carry the kernels for this modulus. The portable code folds limbs of p
/// equal to 0, 1 or 2^32 − 1 (their products become shifts, subtractions or nothing) and LLVM
/// keeps it in registers, so when fewer than a quarter of p's limbs are general (P-256's p, the
/// Goldilocks and P-384 primes in Montgomery form) it takes fewer instructions than the kernel,
/// which loads and multiplies every limb: P-256's p, 432 portable against 495.
pub fn preferred(c: &FieldConsts) -> bool {
    let general = c
        .modulus_limbs
        .iter()
        .filter(|&&l| l != 0 && l != 1 && l != u64::from(u32::MAX))
        .count();
    4 * general >= c.limbs
}

/// A kernel and its allocation.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Before allocation.
    pub program: VProgram,
    /// After allocation.
    pub alloc: Allocation,
}

impl Kernel {
    fn new(c: &FieldConsts, square: bool) -> Kernel {
        let program = kernel::kernel(c, square);
        let alloc = allocate(&program, &registers())
            .expect("the kernel keeps at most 10 values live, within the 11 registers");
        Kernel { program, alloc }
    }

    /// Instructions in the `asm!` block.
    pub fn instructions(&self) -> usize {
        self.alloc.insts.len()
    }

    /// `mul`, `umull` and `umaal` instructions.
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
        "{} instructions, {} umaal, {} registers",
        k.instructions(),
        k.program.umaals(),
        k.alloc.pressure
    )
}

/// The kernel a product emits: the one selected from the IR when it has no more
/// instructions (after allocation, spill code included) than the hand-written kernel, else the
/// hand-written one.
#[derive(Clone, Debug)]
pub enum Chosen {
    /// Selected from the optimised IR function ([`select::compile`]).
    Selected(select::Selected),
    /// The hand-written kernel ([`kernel`]), and why the selected one was not taken (a
    /// clause for the doc comment).
    Hand(Kernel, String),
}

impl Chosen {
    /// The allocated kernel.
    pub fn alloc(&self) -> &Allocation {
        match self {
            Chosen::Selected(s) => &s.alloc,
            Chosen::Hand(k, _) => &k.alloc,
        }
    }

    /// Instructions in the `asm!` block.
    pub fn instructions(&self) -> usize {
        self.alloc().insts.len()
    }

    /// A sentence for the doc comment: where the kernel comes from and its size.
    fn describe(&self, ir_name: &str) -> String {
        match self {
            Chosen::Selected(s) => format!(
                "Selected from the optimised IR {ir_name} ({} instructions, {} umaal, {} spill slots, {} registers).",
                s.instructions(),
                s.program.umaals(),
                s.spilled,
                s.alloc.pressure
            ),
            Chosen::Hand(k, why) => format!(
                "Hand-written kernel ({}) for the {ir_name}: {why}.",
                shape(k)
            ),
        }
    }
}

/// The kernel selected from the optimised IR of the CIOS product (`square` false) or of the
/// square, allocated; an error when the selector cannot take that IR.
pub fn selected_kernel(c: &FieldConsts, square: bool) -> Result<select::Selected, String> {
    let f = if square {
        crate::strategy::square::lower_square(c)
    } else {
        crate::strategy::montgomery::lower_mul(c, MulAlgorithm::Cios)
    };
    select::compile(&crate::pass::optimize(&f), &c.modulus_limbs, c.n0_inv)
}

/// The multiplication (`square` false) or squaring kernel a product emits for `c` ([`Chosen`]).
pub fn chosen_kernel(c: &FieldConsts, square: bool) -> Chosen {
    let hand = if square {
        square_kernel(c)
    } else {
        mul_kernel(c)
    };
    match selected_kernel(c, square) {
        Ok(sel) if sel.instructions() <= hand.instructions() => Chosen::Selected(sel),
        Ok(sel) => {
            let why = format!(
                "the one selected from the IR is longer ({} instructions)",
                sel.instructions()
            );
            Chosen::Hand(hand, why)
        }
        Err(e) => Chosen::Hand(hand, format!("the IR cannot be selected ({e})")),
    }
}

/// Emits `mont_mul_armv7` and `mont_square_armv7`, gated on [`cfg_gate`].
pub fn core_fns(c: &FieldConsts) -> TokenStream {
    let mul = chosen_kernel(c, false);
    let square = chosen_kernel(c, true);
    // 32-bit limbs and n0' (mod 2^32), held in u64s by `FieldConsts`.
    let modulus: Vec<u32> = c.modulus_limbs.iter().map(|&l| fit(l)).collect();
    let n0: u32 = fit(c.n0_inv);
    let mul_doc = format!(
        "Montgomery product a·b·R⁻¹ mod p of two values below p, in ARMv7 assembly: CIOS on umaal (carry-free multiply-accumulates), operands in memory, constant-time final subtraction. {}",
        mul.describe("CIOS product"),
    );
    let square_shape = match square {
        Chosen::Selected(_) => {
            "the off-diagonal products once, doubled, plus the squares, then the reduction"
        }
        Chosen::Hand(..) => "the multiplication kernel with one operand pointer",
    };
    let square_doc = format!(
        "Montgomery square a²·R⁻¹ mod p of a value below p, in ARMv7 assembly: {square_shape}. {}",
        square.describe("square"),
    );
    let mul_fn = asm::kernel_fn(
        &format_ident!("mont_mul_armv7"),
        mul.alloc(),
        &["a", "b"],
        &modulus,
        n0,
        &mul_doc,
    );
    let square_fn = asm::kernel_fn(
        &format_ident!("mont_square_armv7"),
        square.alloc(),
        &["a"],
        &modulus,
        n0,
        &square_doc,
    );
    quote!(#mul_fn #square_fn)
}
