//! Row kernels for operands too large for registers (the RSA sizes): one `asm!` block adds
//! x·v to a window of an accumulator in memory, T[0..n) += x·v[0..n), carrying into T\[n\] and
//! T\[n+1\]. Emitted code runs it in a loop: Montgomery multiplication as interleaved product and
//! reduction rows over a moving window (CIOS without the shift, Koç–Acar–Kaliski 1996), each
//! row two independent carry chains (`mulx` products; `adox` adds T\[j\] to the low word, `adcx`
//! adds the previous high word: Ozturk et al., Intel white paper 327831, 2012).
//!
//! Registers are fixed (no allocation is needed: a row uses six): T in `rdi`, v in `rsi`, x in
//! `rdx`; `rax` the low word, `r10`/`r11` alternate as high words, `r8` a zero, `rcx` the carry
//! word. The caller guarantees that the true sum fits T[0..n+2) with T\[n+1\] ≤ 1 afterwards.

use super::inst::{AluOp, Inst, Mem, Reg, Src};
use crate::narrow::fit;

fn mem(base: Reg, k: usize) -> Mem<Reg> {
    Mem {
        base,
        disp: fit(8 * k),
    }
}

/// T[0..n) += x·v[0..n), the carries added into T\[n\] and T\[n+1\].
pub fn addmul_row(n: usize) -> Vec<Inst<Reg>> {
    let (mut out, prev) = addmul_body(n);
    out.extend(carry_into_memory(n, prev));
    out
}

/// T[0..n) += x·v[0..n), returning the carry word (the last high word plus both carries, which
/// cannot overflow: T + x·v < 2^(64(n+1))) in the register [`top_register`]`(n)`, for
/// reductions whose caller adds it above the window itself.
pub fn addmul_row_top(n: usize) -> Vec<Inst<Reg>> {
    let (mut out, prev) = addmul_body(n);
    out.push(Inst::Alu {
        op: AluOp::Adcx,
        dst: prev,
        src: Src::Reg(Reg::R8),
    });
    out.push(Inst::Alu {
        op: AluOp::Adox,
        dst: prev,
        src: Src::Reg(Reg::R8),
    });
    out
}

/// Where [`addmul_row_top`] leaves the carry word.
pub fn top_register(n: usize) -> Reg {
    if n == 0 {
        Reg::R8
    } else {
        [Reg::R10, Reg::R11][(n - 1) % 2]
    }
}

fn addmul_body(n: usize) -> (Vec<Inst<Reg>>, Reg) {
    let (t, v, zero, lo) = (Reg::Rdi, Reg::Rsi, Reg::R8, Reg::Rax);
    let hi = [Reg::R10, Reg::R11];
    let mut out = vec![Inst::Zero { dst: zero }];
    let mut prev = zero;
    for j in 0..n {
        let h = hi[j % 2];
        out.push(Inst::Mulx {
            hi: h,
            lo,
            src: Src::Mem(mem(v, j)),
        });
        out.push(Inst::Alu {
            op: AluOp::Adox,
            dst: lo,
            src: Src::Mem(mem(t, j)),
        });
        out.push(Inst::Alu {
            op: AluOp::Adcx,
            dst: lo,
            src: Src::Reg(prev),
        });
        out.push(Inst::Store {
            dst: mem(t, j),
            src: lo,
        });
        prev = h;
    }
    (out, prev)
}

fn carry_into_memory(n: usize, prev: Reg) -> Vec<Inst<Reg>> {
    let (t, zero) = (Reg::Rdi, Reg::R8);
    vec![
        // T[n] += hi + CF + OF: the high word absorbs CF (it is at most 2^64 − 2), OF comes with T[n].
        Inst::Alu {
            op: AluOp::Adcx,
            dst: prev,
            src: Src::Reg(zero),
        },
        Inst::Alu {
            op: AluOp::Adox,
            dst: prev,
            src: Src::Mem(mem(t, n)),
        },
        Inst::Store {
            dst: mem(t, n),
            src: prev,
        },
        Inst::Mov {
            dst: Reg::Rcx,
            src: Src::Mem(mem(t, n + 1)),
        },
        Inst::Alu {
            op: AluOp::Adox,
            dst: Reg::Rcx,
            src: Src::Reg(zero),
        },
        Inst::Store {
            dst: mem(t, n + 1),
            src: Reg::Rcx,
        },
    ]
}

/// The registers a row writes besides memory (to declare as clobbers).
pub const ROW_CLOBBERS: [Reg; 5] = [Reg::Rax, Reg::Rcx, Reg::R8, Reg::R10, Reg::R11];
