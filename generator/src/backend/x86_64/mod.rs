//! The `x86_64-adx` target: Montgomery multiplication and squaring for one modulus as
//! straight-line `core::arch::asm!`, with `mulx` for the products and two independent carry
//! chains (`adcx` on CF, `adox` on OF).
//!
//! The pipeline of this target, one stage per file, in order:
//!
//! 1. kernels over virtual values: [`mul`] (CIOS, two chains per pass) and [`square`]
//!    (off-diagonal products once, doubling with the squares, SOS reduction), sharing the
//!    reduction step and the final subtraction in [`reduce`]; written with [`program::Builder`]
//!    as [`inst::Inst`] values — instructions are data, never strings;
//! 2. [`regalloc`]: registers for every value (all 15 usable ones: 14 plus `rdx` for the
//!    multiplier), spilling the value used furthest ahead to the stack when they run out;
//! 3. [`asm`]: the one place that prints instructions, as the template of an `asm!` block with
//!    its operand list.
//!
//! [`select`] is the other way to stage 1: instruction selection from the optimised IR (the CIOS
//! product and the square the portable code runs). [`core_fns`] emits the selected kernel where
//! it has no more instructions and no more `mulx` than the hand-written one
//! ([`chosen_kernel`]), else the hand-written kernel. [`sim`] executes kernels before and after
//! allocation, so tests check them against num-bigint without compiling. The field wrapper ([`crate::api::core`]) decides when a kernel runs: compile
//! time with `target_feature = "bmi2"` and `"adx"`, else CPUID once, else the portable code.

pub mod asm;
pub mod ifma;
pub mod ifma_lanes;
pub mod inst;
pub mod mul;
pub mod program;
pub mod pseudo_mersenne;
pub mod reduce;
pub mod regalloc;
pub mod rows;
pub mod runtime;
pub mod select;
pub mod sim;
pub mod square;
pub mod wide;

use proc_macro2::TokenStream;
use quote::format_ident;

use crate::spec::FieldConsts;
use crate::strategy::MulAlgorithm;
use program::VProgram;
use regalloc::{allocate, Allocation, REGISTERS};

/// The target's name, as `--target` spells it and `backend()` reports it.
pub const NAME: &str = "x86_64-adx";

/// The largest limb count the kernels are emitted for. Results leave the `asm!` block in
/// registers (13 are available); larger moduli use the portable code.
pub const MAX_LIMBS: usize = 12;

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
}

impl Kernel {
    pub(crate) fn new(program: VProgram) -> Kernel {
        let alloc = allocate(&program, &REGISTERS);
        Kernel { program, alloc }
    }

    /// Instructions in the `asm!` block.
    pub fn instructions(&self) -> usize {
        self.alloc.insts.len()
    }

    /// `mulx` instructions.
    pub fn mulx(&self) -> usize {
        self.program.mulx_count()
    }

    /// Registers used (excluding `rsp`).
    pub fn registers(&self) -> usize {
        self.alloc.written.len()
            + self.alloc.saved.len()
            + self
                .alloc
                .inputs
                .iter()
                .filter(|(r, _)| !self.alloc.written.contains(r))
                .count()
    }
}

/// The multiplication kernel for `c`.
pub fn mul_kernel(c: &FieldConsts) -> Kernel {
    Kernel::new(mul::mul_kernel(c))
}

/// The squaring kernel for `c`.
pub fn square_kernel(c: &FieldConsts) -> Kernel {
    Kernel::new(square::square_kernel(c))
}

/// The kernel selected from the optimised IR of the CIOS product (`square` false) or of the
/// square ([`select::compile`]); an error when the selector cannot take that IR.
///
/// The IR's product rows multiply by the limbs of its second argument, which the selector
/// keeps in `rdx`; the product is symmetric, so the kernel's first operand `a` is passed as
/// that argument: the rows then multiply by the limbs of `a`, as the hand-written kernel does
/// (measured faster when `a` is the accumulator of a chain, see [`mul`]).
pub fn selected_kernel(c: &FieldConsts, square: bool) -> Result<Kernel, String> {
    let (f, operands): (_, &[usize]) = if square {
        (crate::strategy::square::lower_square(c), &[0])
    } else {
        (
            crate::strategy::montgomery::lower_mul(c, MulAlgorithm::Cios),
            &[1, 0],
        )
    };
    select::compile(&crate::pass::optimize(&f), &c.modulus_limbs, operands)
}

/// The kernel a product emits: the one selected from the IR when it has no more instructions
/// (after allocation, spill code included) and no more `mulx` than the hand-written kernel,
/// else the hand-written one, which is tuned on hardware (operand order, quotient latency).
#[derive(Clone, Debug)]
pub enum Chosen {
    /// Selected from the optimised IR function ([`selected_kernel`]).
    Selected(Kernel),
    /// The hand-written kernel ([`mul`], [`square`]).
    Hand(Kernel),
}

impl Chosen {
    /// The kernel.
    pub fn kernel(&self) -> &Kernel {
        match self {
            Chosen::Selected(k) | Chosen::Hand(k) => k,
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
    match selected_kernel(c, square) {
        Ok(sel) if sel.instructions() <= hand.instructions() && sel.mulx() <= hand.mulx() => {
            Chosen::Selected(sel)
        }
        _ => Chosen::Hand(hand),
    }
}

pub(crate) fn shape(k: &Kernel) -> String {
    let a = &k.alloc;
    format!(
        "{} instructions, {} mulx, {} registers{}",
        k.instructions(),
        k.mulx(),
        k.registers(),
        if a.slots > 0 {
            format!(", {} spill slots ({} spill moves)", a.slots, a.spill_moves)
        } else {
            String::new()
        }
    )
}

/// Emits `mont_mul_x86_64_adx` and `mont_square_x86_64_adx`, both `unsafe fn` gated on
/// `target_arch = "x86_64"`: the kernels of [`chosen_kernel`], each doc comment saying whether
/// it was selected from the IR (the hand-written kernels keep their description).
pub fn core_fns(c: &FieldConsts) -> TokenStream {
    let n = c.limbs;
    let mul = chosen_kernel(c, false);
    let square = chosen_kernel(c, true);
    let zero_limbs = c.modulus_limbs.iter().filter(|l| **l == 0).count();
    let hand_note = |hand: Kernel| {
        format!(
            "Selected from the optimised IR: it has no more instructions and no more mulx than the hand-written kernel ({}).",
            shape(&hand)
        )
    };
    let mul_doc = match &mul {
        Chosen::Hand(k) => format!(
            "Montgomery product a·b·R⁻¹ mod p of two values below p, in x86-64 BMI2/ADX assembly: CIOS with the reduction interleaved row by row, mulx products, two carry chains (adcx/adox), constant-time final subtraction (cmovc). {} (2n² = {}{}).",
            shape(k),
            2 * n * n,
            if zero_limbs > 0 {
                format!(", less {} for the zero limbs of p", n * zero_limbs)
            } else {
                String::new()
            }
        ),
        Chosen::Selected(k) => format!(
            "Montgomery product a·b·R⁻¹ mod p of two values below p, in x86-64 BMI2/ADX assembly: the CIOS product of the portable code, each row of mulx products summed on two carry chains (low words adcx, high words adox), constant-time final subtraction (cmovc). {}. {}",
            shape(k),
            hand_note(mul_kernel(c))
        ),
    };
    let pair_mulx = if c.n0_inv == 1 { 0 } else { n / 2 };
    let square_doc = match &square {
        Chosen::Hand(k) => format!(
            "Montgomery square a²·R⁻¹ mod p of a value below p, in x86-64 BMI2/ADX assembly: off-diagonal products once, doubled on one carry chain while the squares are added on the other, then Montgomery reduction with two-word quotients and a constant-time final subtraction. {} ((3n² + n)/2 = {}{}).",
            shape(k),
            (3 * n * n + n) / 2,
            if pair_mulx > 0 {
                format!(", plus {pair_mulx} for the two-word quotients")
            } else {
                String::new()
            }
        ),
        Chosen::Selected(k) => format!(
            "Montgomery square a²·R⁻¹ mod p of a value below p, in x86-64 BMI2/ADX assembly: the square of the portable code, off-diagonal products once (mulx rows on two carry chains), doubled by shifts, the squares added, then Montgomery reduction row by row and a constant-time final subtraction (cmovc). {}. {}",
            shape(k),
            hand_note(square_kernel(c))
        ),
    };
    let (mul, square) = (mul.kernel(), square.kernel());
    let mul_fn = asm::kernel_fn(
        &format_ident!("mont_mul_x86_64_adx"),
        &mul.alloc,
        &["a", "b"],
        &mul_doc,
    );
    let square_fn = asm::kernel_fn(
        &format_ident!("mont_square_x86_64_adx"),
        &square.alloc,
        &["a"],
        &square_doc,
    );
    quote::quote!(#mul_fn #square_fn)
}
