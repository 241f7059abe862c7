//! Montgomery multiplication as an ARMv7 kernel: CIOS (Koç, Acar, Kaliski, "Analyzing and
//! comparing Montgomery multiplication algorithms", IEEE Micro 1996) with the product and the
//! reduction of each row fused into one pass over the words, built on `umaal`.
//!
//! `umaal lo, hi, x, y` sets hi:lo = x·y + lo + hi, which never exceeds 2^64 − 1
//! ((2^32 − 1)² + 2(2^32 − 1) = 2^64 − 1), so a row needs no carry flag at all: word j of row i
//! is `umaal t[j], c1, a[i], b[j]` then `umaal t[j], c2, m, p[j]`, with c1 and c2 the two
//! running carries (of a\[i\]·b and of m·p) and the sum stored one word down (the division by
//! 2^32). m = (t\[0\] + a\[i\]·b\[0\])·n0' mod 2^32 is taken after the first product. The row ends
//! with c1 + c2 + t\[n\]: with a spare bit (2p < 2^(32n)) t stays below 2p and the sum is one
//! word (`add`); without one, t\[n\] is a bit and `umaal c1, c2, t[n], t[n]` adds it
//! (t\[n\]² = t\[n\]). This is UMAAL operand scanning as in Fujii and Aranha, "Curve25519 for the
//! Cortex-M4 and beyond" (LATINCRYPT 2017), with the reduction interleaved per word.
//!
//! ARM has only 11 registers an `asm!` block can use on every ARMv7 target (r0–r5, r8–r10,
//! r12, lr: r6 is LLVM's base pointer, r7 or r11 the frame pointer, sp and pc unusable), so
//! the operands, p and t stay in memory and each word is loaded where it is used: a row costs
//! 6 instructions per word (3 loads, 2 `umaal`, 1 store) and at most 10 values are live.
//!
//! The final subtraction rides on the last row: its words go through a `subs`/`sbcs` chain
//! against p as they are produced (`umaal`, `ldr`, `str` and `mul` leave the flags alone), d =
//! t − p is stored, the borrow becomes a mask (`sbc m, x, x` = C − 1), and a second pass adds
//! p & mask back: the result is d when t ≥ p and t otherwise, in constant time.

use super::inst::{AluOp, Opnd, V};
use super::program::{Builder, Input, Layout, VProgram};
use crate::spec::FieldConsts;

/// The chain operation for one position: carry in unless first, carry out unless last.
fn add_op(carry_in: bool, carry_out: bool) -> AluOp {
    match (carry_in, carry_out) {
        (false, false) => AluOp::Add,
        (false, true) => AluOp::Adds,
        (true, false) => AluOp::Adc,
        (true, true) => AluOp::Adcs,
    }
}

/// The CIOS kernel for the modulus of `c` (32-bit limbs): a·b·R⁻¹ mod p, or a²·R⁻¹ mod p
/// when `square` (one operand pointer). The result is the first n words of the buffer.
pub fn kernel(c: &FieldConsts, square: bool) -> VProgram {
    assert_eq!(c.w(), 32, "the armv7 kernels use 32-bit limbs");
    let n = c.limbs;
    // Without a spare bit t < 2p needs a bit above its n words, kept in the buffer.
    let full = c.spare_bits == 0;
    let mut k = Builder::new();
    let a_ptr = k.input(Input::Operand(0));
    let b_ptr = if square {
        a_ptr
    } else {
        k.input(Input::Operand(1))
    };
    let p_ptr = k.input(Input::Modulus);
    let t_ptr = k.input(Input::Buffer);

    // The words of the last row go straight into the subtraction chain d = t − p.
    let mut first_sub = true;
    let emit_word = |k: &mut Builder, last_row: bool, word: V, j: usize, first_sub: &mut bool| {
        if last_row {
            let pj = k.ldr(p_ptr, j);
            let op = if *first_sub { AluOp::Subs } else { AluOp::Sbcs };
            *first_sub = false;
            let d = k.alu(op, word, Opnd::Reg(pj));
            k.str(d, t_ptr, j);
        } else {
            k.str(word, t_ptr, j);
        }
    };

    for i in 0..n {
        let last_row = i + 1 == n;
        let ai = k.ldr(a_ptr, i);
        let b0 = k.ldr(b_ptr, 0);
        let (t0, c1) = if i == 0 {
            k.umull(ai, b0)
        } else {
            let t0 = k.ldr(t_ptr, 0);
            let z = k.zero();
            k.umaal(t0, z, ai, b0)
        };
        let m = if c.n0_inv == 1 {
            // A copy: the umaal below overwrites t0.
            k.alu(AluOp::Add, t0, Opnd::Imm(0))
        } else {
            let n0 = k.ldr(p_ptr, n);
            k.mul(t0, n0)
        };
        let p0 = k.ldr(p_ptr, 0);
        let z = k.zero();
        // The low word is 0 by the choice of m; only the carry c2 is kept.
        let (_zero, mut c2) = k.umaal(t0, z, m, p0);
        let mut c1 = c1;
        for j in 1..n {
            let bj = k.ldr(b_ptr, j);
            let tj = if i == 0 { k.zero() } else { k.ldr(t_ptr, j) };
            let (tj, c1n) = k.umaal(tj, c1, ai, bj);
            let pj = k.ldr(p_ptr, j);
            let (tj, c2n) = k.umaal(tj, c2, m, pj);
            c1 = c1n;
            c2 = c2n;
            emit_word(&mut k, last_row, tj, j - 1, &mut first_sub);
        }
        if full {
            // t[n] + c1 + c2 as two words: t[n] is a bit, so t[n]·t[n] = t[n].
            let tn = if i == 0 { k.zero() } else { k.ldr(t_ptr, n) };
            let (lo, hi) = k.umaal(c1, c2, tn, tn);
            emit_word(&mut k, last_row, lo, n - 1, &mut first_sub);
            if last_row {
                // The bit takes part in the borrow chain; its difference is not needed.
                k.alu(AluOp::Sbcs, hi, Opnd::Imm(0));
            } else {
                k.str(hi, t_ptr, n);
            }
        } else {
            let s = k.alu(AluOp::Add, c1, Opnd::Reg(c2));
            emit_word(&mut k, last_row, s, n - 1, &mut first_sub);
        }
    }
    // mask = all ones when t < p (borrow, C = 0): then add p back.
    let mask = k.alu(AluOp::Sbc, p_ptr, Opnd::Reg(p_ptr));
    for j in 0..n {
        let d = k.ldr(t_ptr, j);
        let pj = k.ldr(p_ptr, j);
        let q = k.alu(AluOp::And, pj, Opnd::Reg(mask));
        let r = k.alu(add_op(j > 0, j + 1 < n), d, Opnd::Reg(q));
        k.str(r, t_ptr, j);
    }
    let buffer_words = if full { n + 1 } else { n };
    k.finish_with(
        Vec::new(),
        Layout {
            limbs: n,
            buffer_words,
        },
    )
}
