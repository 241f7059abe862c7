//! Pseudo-Mersenne multiplication and squaring as BMI2/ADX kernels, for p = 2^k − c with
//! k = 64n − 1 and c below 2^12 (2^255 − 19, 2^127 − 1; loose representation) and for k = 64n
//! with c below 2^40 (secp256k1; tight representation), following the portable lowering of
//! [`crate::strategy::pseudo_mersenne`] step for step, so the kernels and the portable code return
//! the same limbs.
//!
//! 1. The 2n-word product: rows of `mulx` with two carry chains (as the product pass of
//!    [`super::mul`]), or for squaring the off-diagonal products once, doubled, plus the squares
//!    ([`super::square::square_product`]).
//! 2. The fold at the word boundary: t mod 2^(64n) + 2c·⌊t/2^(64n)⌋, n `mulx` by the constant
//!    2c with two chains; the top word is at most about 2c.
//! 3. The fold at bit k: `btr` moves bit k to CF and clears it, `adc q, q` makes
//!    q = 2·top + bit, `imul` by c, and one addition chain adds c·q. The result has the top limb
//!    at most 2^63, the loose bound, as the portable code's bounds pass proves for the same
//!    steps.
//!
//! For k = 64n (no spare bit) steps 2 and 3 are: the fold at 2^k by c (in `rdx`, two chains),
//! then c·top by one more `mulx` added with one chain, whose carry e is added back as c·e
//! (`cmovc` picks c or 0; the wrap-fold lemma of the portable lowering shows this cannot carry),
//! and a constant-time subtraction of p makes the value tight.

use super::inst::{AluOp, Src, VReg};
use super::program::{word, Builder, Pointer, VProgram};
use super::reduce::{final_subtract, Modulus};
use super::square::{mul_product, square_product};
use crate::narrow::fit;
use crate::spec::FieldConsts;
use crate::strategy::pseudo_mersenne::PseudoMersenne;
use num_traits::ToPrimitive;

/// Why the kernels do not apply to this field, if they do not.
pub fn unsupported(c: &FieldConsts, pm: &PseudoMersenne) -> Option<String> {
    let small = pm.c.to_u64().filter(|&v| v < 1 << 12);
    if c.w() != 64 {
        Some("the x86_64-adx kernels use 64-bit limbs".into())
    } else if c.limbs < 2 {
        Some("the pseudo-Mersenne kernels need at least two limbs".into())
    } else if c.limbs > super::MAX_LIMBS {
        Some(format!(
            "the x86_64-adx kernels go up to {} limbs",
            super::MAX_LIMBS
        ))
    } else if (pm.k as usize == 64 * c.limbs - 1 && small.is_some())
        || (pm.k as usize == 64 * c.limbs && pm.c.bits() <= 40)
    {
        None
    } else {
        Some(
            "the pseudo-Mersenne kernels need k = 64n - 1 with c below 2^12, or k = 64n with c below 2^40"
                .into(),
        )
    }
}

/// Steps 2 and 3 for k = 64n: the folds by c, the wrap, the subtraction of p; tight limbs.
fn fold_tight(b: &mut Builder, t: &[VReg], n: usize, c: u64, p: &Modulus) -> Vec<VReg> {
    let lo: Vec<VReg> = t[..n].to_vec();
    b.set_rdx_const(c);
    let z = b.zero();
    let mut top = None;
    for j in 0..n {
        let (hi, l) = b.mulx(Src::Reg(t[n + j]));
        b.alu_reg(AluOp::Adox, lo[j], l);
        if j + 1 < n {
            b.alu_reg(AluOp::Adcx, lo[j + 1], hi);
        } else {
            b.alu_reg(AluOp::Adcx, hi, z);
            b.alu_reg(AluOp::Adox, hi, z);
            top = Some(hi);
        }
    }
    // c·top: top ≤ c + 1, so the product's high word is small.
    let (hi, l) = b.mulx(Src::Reg(top.expect("n ≥ 1")));
    b.alu_reg(AluOp::Add, lo[0], l);
    b.alu_reg(AluOp::Adc, lo[1], hi);
    for l in lo.iter().skip(2) {
        b.alu(AluOp::Adc, *l, Src::Imm(0));
    }
    // The carry e out of the top limb stands for e·2^k ≡ e·c.
    let ce = b.load(Src::Imm(0));
    b.alu_reg(AluOp::Cmovc, ce, VReg::Rdx);
    b.alu_reg(AluOp::Add, lo[0], ce);
    for l in lo.iter().skip(1) {
        b.alu(AluOp::Adc, *l, Src::Imm(0));
    }
    final_subtract(b, p, &lo, None)
}

/// Steps 2 and 3 on the 2n-word product `t`; returns the n loose limbs.
fn fold(b: &mut Builder, t: &[VReg], n: usize, c: u64) -> Vec<VReg> {
    let lo: Vec<VReg> = t[..n].to_vec();
    b.set_rdx(Src::Imm(fit(2 * c)));
    let z = b.zero();
    let mut top = None;
    for j in 0..n {
        let (hi, l) = b.mulx(Src::Reg(t[n + j]));
        b.alu_reg(AluOp::Adox, lo[j], l);
        if j + 1 < n {
            b.alu_reg(AluOp::Adcx, lo[j + 1], hi);
        } else {
            // t < 2^(128n): lo + 2c·hi < 2^(64n)·(2c + 1), so the top word takes both carries.
            b.alu_reg(AluOp::Adcx, hi, z);
            b.alu_reg(AluOp::Adox, hi, z);
            top = Some(hi);
        }
    }
    let q = top.expect("n ≥ 1");
    b.alu(AluOp::Btr, lo[n - 1], Src::Imm(63));
    b.alu_reg(AluOp::Adc, q, q);
    b.alu(AluOp::Imul, q, Src::Imm(fit(c)));
    b.alu_reg(AluOp::Add, lo[0], q);
    for l in lo.iter().skip(1) {
        b.alu(AluOp::Adc, *l, Src::Imm(0));
    }
    lo
}

/// The multiplication kernel: rows by the limbs of the first operand (the receiver), the second
/// read from memory, then the folds.
pub fn mul_kernel(c: &FieldConsts, pm: &PseudoMersenne) -> VProgram {
    let n = c.limbs;
    let cc = pm.c.to_u64().expect("checked by unsupported");
    let mut b = Builder::new();
    let rows = b.pointer(Pointer::Operand(0));
    let cols = b.pointer(Pointer::Operand(1));
    let p = (!pm.is_loose()).then(|| Modulus::new(&c.modulus_limbs, b.pointer(Pointer::Modulus)));
    let t = mul_product(&mut b, rows, cols, n);
    let out = match &p {
        Some(p) => fold_tight(&mut b, &t, n, cc, p),
        None => fold(&mut b, &t, n, cc),
    };
    b.finish(out)
}

/// The squaring kernel: the operand in registers, off-diagonal products once, then the folds.
pub fn square_kernel(c: &FieldConsts, pm: &PseudoMersenne) -> VProgram {
    let n = c.limbs;
    let cc = pm.c.to_u64().expect("checked by unsupported");
    let mut b = Builder::new();
    let a_ptr = b.pointer(Pointer::Operand(0));
    let a: Vec<VReg> = (0..n).map(|i| b.load(word(a_ptr, i))).collect();
    let p = (!pm.is_loose()).then(|| Modulus::new(&c.modulus_limbs, b.pointer(Pointer::Modulus)));
    let t = square_product(&mut b, &a);
    let out = match &p {
        Some(p) => fold_tight(&mut b, &t, n, cc, p),
        None => fold(&mut b, &t, n, cc),
    };
    b.finish(out)
}

/// Emits `mul_limbs_x86_64_adx` and `square_limbs_x86_64_adx` (`unsafe fn`, gated on
/// `target_arch = "x86_64"`).
pub fn core_fns(c: &FieldConsts, pm: &PseudoMersenne) -> proc_macro2::TokenStream {
    let mul = super::Kernel::new(mul_kernel(c, pm));
    let square = super::Kernel::new(square_kernel(c, pm));
    let mul_doc = if pm.is_loose() {
        format!(
            "a·b mod p (loose in and out) in x86-64 BMI2/ADX assembly: mulx rows with two carry chains, a fold at 2^{} by 2c with two chains, a fold at bit {} (btr, imul by c). {}.",
            64 * c.limbs,
            pm.k,
            super::shape(&mul)
        )
    } else {
        format!(
            "a·b mod p (tight in and out) in x86-64 BMI2/ADX assembly: mulx rows with two carry chains, a fold at 2^{} by c with two chains, c times the top word, the wrap fold (cmovc), a constant-time subtraction of p. {}.",
            pm.k,
            super::shape(&mul)
        )
    };
    let square_doc = format!(
        "a² mod p in x86-64 BMI2/ADX assembly: off-diagonal products once, doubled with the squares added, then the folds of the multiplication. {}.",
        super::shape(&square)
    );
    let mul_fn = super::asm::kernel_fn(
        &quote::format_ident!("mul_limbs_x86_64_adx"),
        &mul.alloc,
        &["a", "b"],
        &mul_doc,
    );
    let square_fn = super::asm::kernel_fn(
        &quote::format_ident!("square_limbs_x86_64_adx"),
        &square.alloc,
        &["a"],
        &square_doc,
    );
    quote::quote!(#mul_fn #square_fn)
}
