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
use inst::{AluOp, Inst, Reg, Src};
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

    /// The longest chain of dependent instructions in cycles, a latency model of a chained
    /// product (each call takes the previous result): `mulx` 4, `imul` 3, other ALU
    /// instructions and moves 1, a memory operand 5 more (an input limb or a spill reload,
    /// store-to-load forwarded), flags CF and OF tracked as values. Unlimited issue width:
    /// it bounds latency only; [`Kernel::instructions`] stands for throughput.
    pub fn critical_path(&self) -> u32 {
        critical_path(&self.alloc.insts)
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

/// [`Kernel::critical_path`] of allocated code.
fn critical_path(insts: &[Inst<Reg>]) -> u32 {
    use std::collections::HashMap;
    const LOAD: u32 = 5;
    let mut reg: HashMap<Reg, u32> = HashMap::new();
    let mut slot: HashMap<(Reg, i32), u32> = HashMap::new();
    let (mut cf, mut of) = (0u32, 0u32);
    let mut longest = 0;
    let at = |reg: &HashMap<Reg, u32>, r: Reg| reg.get(&r).copied().unwrap_or(0);
    for inst in insts {
        let src = |reg: &HashMap<Reg, u32>, slot: &HashMap<(Reg, i32), u32>, s: Src<Reg>| match s {
            Src::Reg(r) => at(reg, r),
            Src::Imm(_) => 0,
            Src::Mem(m) => {
                let base = at(reg, m.base);
                base.max(slot.get(&(m.base, m.disp)).copied().unwrap_or(0)) + LOAD
            }
        };
        let done = match *inst {
            Inst::Mov { dst, src: s } => {
                let t = src(&reg, &slot, s) + 1;
                reg.insert(dst, t);
                t
            }
            Inst::MovImm { dst, .. } | Inst::Zero { dst } => {
                reg.insert(dst, 1);
                if matches!(inst, Inst::Zero { .. }) {
                    (cf, of) = (1, 1);
                }
                1
            }
            Inst::Store { dst, src: s } => {
                let t = at(&reg, s).max(at(&reg, dst.base)) + 1;
                slot.insert((dst.base, dst.disp), t);
                t
            }
            Inst::Mulx { hi, lo, src: s } => {
                let t = src(&reg, &slot, s).max(at(&reg, Reg::Rdx)) + 4;
                reg.insert(hi, t);
                reg.insert(lo, t);
                t
            }
            Inst::Alu { op, dst, src: s } => {
                let mut t = src(&reg, &slot, s).max(at(&reg, dst));
                match op {
                    AluOp::Adc | AluOp::Sbb | AluOp::Adcx | AluOp::Cmovc => t = t.max(cf),
                    AluOp::Adox => t = t.max(of),
                    _ => {}
                }
                t += if op == AluOp::Imul { 3 } else { 1 };
                reg.insert(dst, t);
                match op {
                    AluOp::Adox => of = t,
                    AluOp::Cmovc => {}
                    _ => cf = t,
                }
                t
            }
            Inst::Shld { dst, src, .. } => {
                let t = at(&reg, dst).max(at(&reg, src)) + 1;
                reg.insert(dst, t);
                t
            }
            Inst::Push(_) | Inst::Pop(_) | Inst::AllocStack(_) | Inst::FreeStack(_) => 0,
        };
        longest = longest.max(done);
    }
    longest
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
/// (after allocation, spill code included), no more `mulx` and no longer a dependency chain
/// ([`Kernel::critical_path`]) than the hand-written kernel, else the hand-written one, which
/// is tuned on hardware (operand order, the first quotient computed early, two quotient words
/// at a time in the square).
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
        Ok(sel)
            if sel.instructions() <= hand.instructions()
                && sel.mulx() <= hand.mulx()
                && sel.critical_path() <= hand.critical_path() =>
        {
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
            "Selected from the optimised IR: it has no more instructions, no more mulx and no longer a dependency chain than the hand-written kernel ({}).",
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
