//! The double-width (lazy reduction) operations of a Montgomery field as BMI2/ADX kernels:
//! `mul_wide` (the 2n-word product ã·b̃, no reduction), `square_wide` (off-diagonal products
//! once) and `reduce_wide` (Montgomery reduction of a 2n-word T < p·R). They reuse the product
//! rows, the squaring passes and the SOS reduction of the fused kernels, so a tower product
//! reduced once per output coefficient runs the same instructions as the fused product minus
//! the reductions it saves.
//!
//! The 2n words of a product leave the `asm!` block in registers: the kernels exist for
//! n ≤ [`MAX_WIDE_LIMBS`] (BN254, BN381, BLS12-381, P-384); larger fields keep the portable
//! code.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::inst::{Src, VReg};
use super::program::{word, Builder, Pointer, VProgram};
use super::reduce::{sos_reduce, Modulus};
use super::square::{mul_product, square_product};
use super::Kernel;
use crate::spec::FieldConsts;

/// The largest limb count with double-width kernels: 2n results in the 13 registers an `asm!`
/// block can return values in.
pub const MAX_WIDE_LIMBS: usize = 6;

/// Whether `c` gets the double-width kernels (64-bit limbs, at most [`MAX_WIDE_LIMBS`]).
pub fn supported(c: &FieldConsts) -> bool {
    c.w() == 64 && c.limbs <= MAX_WIDE_LIMBS
}

/// ã·b̃ as 2n words (operands behind pointers 0 and 1).
pub fn mul_wide_kernel(c: &FieldConsts) -> VProgram {
    let mut b = Builder::new();
    let rows = b.pointer(Pointer::Operand(0));
    let cols = b.pointer(Pointer::Operand(1));
    let t = mul_product(&mut b, rows, cols, c.limbs);
    b.finish(t)
}

/// ã² as 2n words (operand behind pointer 0, loaded once).
pub fn square_wide_kernel(c: &FieldConsts) -> VProgram {
    let mut b = Builder::new();
    let a_ptr = b.pointer(Pointer::Operand(0));
    let a: Vec<VReg> = (0..c.limbs).map(|i| b.load(word(a_ptr, i))).collect();
    let t = square_product(&mut b, &a);
    b.finish(t)
}

/// T·R⁻¹ mod p for the 2n words T < p·R behind pointer 0, canonical: the low half is loaded,
/// the high half added from memory after the reduction steps.
pub fn reduce_wide_kernel(c: &FieldConsts) -> VProgram {
    let n = c.limbs;
    let mut b = Builder::new();
    let t_ptr = b.pointer(Pointer::Operand(0));
    let low: Vec<VReg> = (0..n).map(|i| b.load(word(t_ptr, i))).collect();
    let p = Modulus::new(&c.modulus_limbs, b.pointer(Pointer::Modulus));
    let high: Vec<Src<VReg>> = (n..2 * n).map(|i| word(t_ptr, i)).collect();
    let out = sos_reduce(&mut b, c, &p, low, &high);
    b.finish(out)
}

/// Emits `mul_wide_x86_64_adx`, `square_wide_x86_64_adx` and `reduce_wide_x86_64_adx`
/// (`unsafe fn`, gated on `target_arch = "x86_64"`).
pub fn wide_fns(c: &FieldConsts) -> TokenStream {
    let n = c.limbs;
    let mul = Kernel::new(mul_wide_kernel(c));
    let square = Kernel::new(square_wide_kernel(c));
    let reduce = Kernel::new(reduce_wide_kernel(c));
    let mul_fn = super::asm::kernel_fn_sized(
        &format_ident!("mul_wide_x86_64_adx"),
        &mul.alloc,
        &[("a", n), ("b", n)],
        &format!(
            "The 2n-limb product a·b in x86-64 BMI2/ADX assembly: mulx rows, two carry chains (adcx/adox), no reduction. {}.",
            super::shape(&mul)
        ),
    );
    let square_fn = super::asm::kernel_fn_sized(
        &format_ident!("square_wide_x86_64_adx"),
        &square.alloc,
        &[("a", n)],
        &format!(
            "The 2n-limb square a² in x86-64 BMI2/ADX assembly: off-diagonal products once, doubled on one carry chain while the squares are added on the other. {}.",
            super::shape(&square)
        ),
    );
    let reduce_fn = super::asm::kernel_fn_sized(
        &format_ident!("reduce_wide_x86_64_adx"),
        &reduce.alloc,
        &[("t", 2 * n)],
        &format!(
            "T·R⁻¹ mod p for T below p·R in x86-64 BMI2/ADX assembly: SOS Montgomery reduction with two-word quotients, the high half added once, a constant-time final subtraction. {}.",
            super::shape(&reduce)
        ),
    );
    quote!(#mul_fn #square_fn #reduce_fn)
}
