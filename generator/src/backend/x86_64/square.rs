//! Montgomery squaring a²·R⁻¹ mod p as a BMI2/ADX kernel, in three passes:
//!
//! 1. the off-diagonal products a\[i\]·a\[j\], i < j, each computed once (n(n−1)/2 `mulx`), summed
//!    row by row with two carry chains;
//! 2. doubling and the diagonal squares a\[i\]² in one pass: `adcx t, t` doubles on CF while
//!    `adox` adds the squares on OF (n `mulx`);
//! 3. Montgomery reduction of the 2n-word square (SOS, Koç–Acar–Kaliski 1996): n reduction steps
//!    on the low half with the shared two-chain step, two steps per quotient (m = u·(−p⁻¹) mod
//!    2^128, so the serial quotient → product → sum chain is walked once per two words), then the
//!    high half added once, then the final subtraction (n² `mulx`, plus one per quotient pair).
//!
//! The limbs of a are loaded into registers once; the multiplication kernel instead reads its
//! second operand from memory (see [`super::mul`]).
//!
//! Bounds: the reduction window stays below R unless the top limb of p is 2^64 − 1, and the
//! result before the final subtraction is below 2p, so a top word exists only when p has no spare
//! bit.

use super::inst::{AluOp, Src, VReg};
use super::program::{word, Builder, Pointer, VProgram};
use super::reduce::{sos_reduce, Modulus};
use crate::spec::FieldConsts;

/// The squaring kernel for the modulus of `c` (64-bit limbs).
pub fn square_kernel(c: &FieldConsts) -> VProgram {
    assert_eq!(c.w(), 64, "the x86-64 kernels use 64-bit limbs");
    let n = c.limbs;
    let mut b = Builder::new();
    let a_ptr = b.pointer(Pointer::Operand(0));
    // The limbs of a, loaded once: each is used about n times, and the operand is usually the
    // result just stored by the previous operation (each load would wait for store forwarding).
    let a: Vec<VReg> = (0..n).map(|i| b.load(word(a_ptr, i))).collect();
    let p = Modulus::new(&c.modulus_limbs, b.pointer(Pointer::Modulus));
    debug_assert_eq!(p.n0, c.n0_inv);
    let t = square_product(&mut b, &a);
    // 3. Montgomery reduction.
    let high: Vec<Src<VReg>> = t[n..].iter().map(|w| Src::Reg(*w)).collect();
    let out = sos_reduce(&mut b, c, &p, t[..n].to_vec(), &high);
    b.finish(out)
}

/// The 2n-word product a·b of the limbs behind `rows` and `cols` (memory operands): one `mulx`
/// row per limb of a, low words added on OF and high words on CF. Shared with the
/// pseudo-Mersenne and double-width kernels.
pub fn mul_product(b: &mut Builder, rows: VReg, cols: VReg, n: usize) -> Vec<VReg> {
    b.set_rdx(word(rows, 0));
    let mut t = first_row(b, cols, n);
    for i in 1..n {
        // t += a[i]·b·2^(64i): low words on OF, high words on CF.
        b.set_rdx(word(rows, i));
        let z = b.zero();
        for j in 0..n {
            let (hi, lo) = b.mulx(word(cols, j));
            b.alu_reg(AluOp::Adox, t[i + j], lo);
            if j + 1 < n {
                b.alu_reg(AluOp::Adcx, t[i + j + 1], hi);
            } else {
                // Position i + n is fresh; the partial product fits, so no carry out.
                b.alu_reg(AluOp::Adcx, hi, z);
                b.alu_reg(AluOp::Adox, hi, z);
                t.push(hi);
            }
        }
    }
    t
}

/// Passes 1 and 2: the 2n-word square of the limbs `a` (in registers), off-diagonal products
/// once, doubled on CF while the squares are added on OF. Shared with the pseudo-Mersenne
/// kernels.
pub fn square_product(b: &mut Builder, a: &[VReg]) -> Vec<VReg> {
    let n = a.len();
    let limb = |i: usize| Src::Reg(a[i]);
    // t[k]: the word at position k of the 2n-word square, once it exists.
    let mut t: Vec<Option<VReg>> = vec![None; 2 * n];

    // 1. Off-diagonal products.
    if n >= 2 {
        // Row 0 writes fresh words t[1..=n] with one chain.
        b.set_rdx(limb(0));
        let (hi, lo) = b.mulx(limb(1));
        t[1] = Some(lo);
        let mut carry = hi;
        for (j, tj) in t.iter_mut().enumerate().take(n).skip(2) {
            let (hi, lo) = b.mulx(limb(j));
            let op = if j == 2 { AluOp::Add } else { AluOp::Adc };
            b.alu_reg(op, carry, lo);
            *tj = Some(carry);
            carry = hi;
        }
        if n >= 3 {
            b.alu(AluOp::Adc, carry, Src::Imm(0));
        }
        t[n] = Some(carry);
        // Row i adds a[i]·a[j], j > i, at positions i + j: lows on OF, highs on CF.
        for i in 1..n.saturating_sub(1) {
            b.set_rdx(limb(i));
            let z = b.zero();
            for j in (i + 1)..n {
                let (hi, lo) = b.mulx(limb(j));
                b.alu_reg(AluOp::Adox, t[i + j].expect("written by row i-1"), lo);
                if j + 1 < n {
                    b.alu_reg(AluOp::Adcx, t[i + j + 1].expect("written by row i-1"), hi);
                } else {
                    // Position i + n is fresh; the partial sum fits 2n words, so no carry out.
                    b.alu_reg(AluOp::Adcx, hi, z);
                    b.alu_reg(AluOp::Adox, hi, z);
                    t[i + n] = Some(hi);
                }
            }
        }
    }

    // 2. Double the off-diagonal sum and add the squares a[i]².
    let z = b.zero();
    for i in 0..n {
        b.set_rdx(limb(i));
        let (hi, lo) = b.mulx(Src::Reg(VReg::Rdx));
        if i == 0 {
            // Position 0 holds no off-diagonal product.
            t[0] = Some(lo);
        } else {
            let w = t[2 * i].expect("off-diagonal word");
            b.alu_reg(AluOp::Adcx, w, w);
            b.alu_reg(AluOp::Adox, w, lo);
        }
        match t[2 * i + 1] {
            Some(w) => {
                b.alu_reg(AluOp::Adcx, w, w);
                b.alu_reg(AluOp::Adox, w, hi);
            }
            None => {
                // The top word: the doubled word below carries in on CF, no carry out.
                if n > 1 {
                    b.alu_reg(AluOp::Adcx, hi, z);
                    b.alu_reg(AluOp::Adox, hi, z);
                }
                t[2 * i + 1] = Some(hi);
            }
        }
    }
    let t: Vec<VReg> = t
        .into_iter()
        .map(|w| w.expect("every word written"))
        .collect();
    t
}

/// The n + 1 words of rdx·b for the n limbs of b behind `cols` (rdx already set): one carry
/// chain, the top word absorbing the last carry (rdx·b < 2^(64(n+1))). The first row of every
/// product kernel.
pub fn first_row(b: &mut Builder, cols: VReg, n: usize) -> Vec<VReg> {
    let (hi, lo) = b.mulx(word(cols, 0));
    let mut t = vec![lo];
    let mut carry = hi;
    for j in 1..n {
        let (hi, lo) = b.mulx(word(cols, j));
        let op = if j == 1 { AluOp::Add } else { AluOp::Adc };
        b.alu_reg(op, carry, lo);
        t.push(carry);
        carry = hi;
    }
    if n > 1 {
        b.alu(AluOp::Adc, carry, Src::Imm(0));
    }
    t.push(carry);
    t
}
