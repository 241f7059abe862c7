//! BMI2/ADX kernels for a modulus known only at run time (the RSA sizes), with the running
//! window of the accumulator in registers and the operands, the modulus and the finished words
//! in memory.
//!
//! The one primitive is a *window row*: eight accumulator words w[0..8) live in registers, and
//! a row adds rdx·y[0..8) to them with `mulx` and the two ADX carry chains (low words on OF with
//! `adox`, high words on CF with `adcx`; Ozturk, Guilford, Gopal, Feghali, Intel white paper
//! 327831, 2012). The ninth word is the last high word plus both carries, which cannot overflow
//! because the window holds less than 2^512 before the row; w\[0\] then leaves the window and the
//! ninth word enters. Kernels are sequences of such rows over eight-limb column chunks of one
//! operand (Hybrid scanning: Gura, Patel, Wander, Eberle, Shantz, CHES 2004), so the
//! accumulator touches memory once per row instead of once per product:
//!
//! - [`product_kernel`]: the 2n-limb product x·y, one pass of n rows per chunk of y; a chunk's
//!   words are added to the earlier chunks' with one add/adc chain.
//! - [`square_kernel`]: the 2n-limb square: the off-diagonal products a_i·a_j (i < j) once, by
//!   rows that skip the products below the diagonal, then one pass that doubles the sum on CF
//!   (`adcx x, x`) while adding the squares a_i² on OF.
//! - [`redc_stripe_kernel`]: eight rows of Montgomery reduction (SOS, Koç–Acar–Kaliski 1996)
//!   over the whole modulus: the first eight window rows take the quotients
//!   m = w\[0\]·n0' mod 2^64 one after another (each clears the word it is taken from), the
//!   remaining rows reuse them against the next chunks of n; the n-word result is added to the
//!   accumulator in memory with a carry word in and out (OpenSSL's mulx squaring code also
//!   reduces in eight-row stripes).
//! - [`mont_kernel`]: a whole Montgomery product or square for n ≤ 16 in one block: the
//!   product or square, n/8 reduction stripes, and the constant-time final subtraction (`sbb`
//!   chain, `cmovc`).
//!
//! Scratch layouts are fixed per kernel and documented on each; n must be a multiple of 8.

use super::inst::{AluOp, Inst, Mem, Src, VReg};
use super::program::{Builder, Pointer, VProgram};
use crate::narrow::fit;

/// Window width in limbs.
pub const W: usize = 8;

fn at(base: VReg, k: i64) -> Src<VReg> {
    Src::Mem(Mem {
        base,
        disp: fit(8 * k),
    })
}

/// One window row: w (W words) += rdx · y\[col + j\] for j in start..W, the product by y\[col + j\]
/// landing at w\[j\]; returns the word leaving the window (w\[0\]) and shifts the new top in. Rdx
/// must hold the multiplier.
fn row(b: &mut Builder, w: &mut Vec<VReg>, y: VReg, col: i64, start: usize) -> VReg {
    debug_assert!(start < W && w.len() == W);
    let z = b.zero();
    let mut top = None;
    for j in start..W {
        let (hi, lo) = b.mulx(at(y, col + j as i64));
        b.alu_reg(AluOp::Adox, w[j], lo);
        if j + 1 < W {
            b.alu_reg(AluOp::Adcx, w[j + 1], hi);
        } else {
            top = Some(hi);
        }
    }
    let top = top.expect("start < W");
    // The window held < 2^512 and gains < 2^576 − 2^512: the ninth word takes both carries.
    b.alu_reg(AluOp::Adcx, top, z);
    b.alu_reg(AluOp::Adox, top, z);
    let out = w.remove(0);
    w.push(top);
    out
}

fn zeros(b: &mut Builder) -> Vec<VReg> {
    (0..W).map(|_| b.constant(0)).collect()
}

/// Where the words of one chunk go: `t[pos..]` in memory holds the earlier chunks' words below
/// `written` (exclusive); the chunk's words start at `pos`: the first `in_tmp` are in the
/// scratch at `tmp`, the rest are registers. Adds them in with one carry chain (fresh positions
/// take the word plus the carry); returns the new end of the written positions.
#[allow(clippy::too_many_arguments)]
fn add_chunk(
    b: &mut Builder,
    t: VReg,
    pos: i64,
    written: i64,
    tmp: i64,
    in_tmp: usize,
    regs: &[VReg],
) -> i64 {
    let total = in_tmp + regs.len();
    for idx in 0..total {
        let p = pos + idx as i64;
        let op = if idx == 0 { AluOp::Add } else { AluOp::Adc };
        let v = if idx < in_tmp {
            let v = b.load(at(t, tmp + idx as i64));
            if p < written {
                b.alu(op, v, at(t, p));
            } else {
                b.alu(op, v, Src::Imm(0));
            }
            v
        } else {
            let v = regs[idx - in_tmp];
            if p < written {
                b.alu(op, v, at(t, p));
            } else {
                b.alu(op, v, Src::Imm(0));
            }
            v
        };
        b.store(t, p, v);
    }
    // The sum fits the positions written so far: no carry leaves the last one.
    written.max(pos + total as i64)
}

/// Words the product and square kernels use beyond the 2n-limb result (at t[2n + 1..3n + 1)).
pub fn product_scratch(n: usize) -> usize {
    3 * n + 1
}

/// The product x·y of two n-limb values into t[0..2n); t[2n + 1..3n + 1) is scratch (t\[2n\] is
/// left alone: reductions keep their carry word there).
fn product_body(b: &mut Builder, x: VReg, y: VReg, t: VReg, n: usize) {
    assert!(n.is_multiple_of(W) && n >= W);
    let tmp = 2 * n as i64 + 1;
    let mut written = 0i64;
    for c in 0..n / W {
        let mut w = zeros(b);
        let pos = (W * c) as i64;
        for i in 0..n {
            b.set_rdx(at(x, i as i64));
            let out = row(b, &mut w, y, pos, 0);
            let dst = if c == 0 { i as i64 } else { tmp + i as i64 };
            b.store(t, dst, out);
        }
        if c == 0 {
            for (j, v) in w.iter().enumerate() {
                b.store(t, (n + j) as i64, *v);
            }
            written = (n + W) as i64;
        } else {
            written = add_chunk(b, t, pos, written, tmp, n, &w);
        }
    }
    debug_assert_eq!(written, 2 * n as i64);
}

/// The square a² of an n-limb value into t[0..2n); scratch as [`product_body`].
fn square_body(b: &mut Builder, a: VReg, t: VReg, n: usize) {
    assert!(n.is_multiple_of(W) && n >= W);
    let tmp = 2 * n as i64 + 1;
    let mut written = 0i64;
    // Off-diagonal sum: chunk c holds the products a_i·a_j with j in [8c, 8c + 8) and i < j;
    // row i starts at column max(0, i + 1 − 8c) of the chunk; the last row is i = 8c + 6.
    for c in 0..n / W {
        let mut w = zeros(b);
        let pos = (W * c) as i64;
        let rows = W * c + W - 1;
        for i in 0..rows {
            let start = (i + 1).saturating_sub(W * c);
            b.set_rdx(at(a, i as i64));
            let out = row(b, &mut w, a, pos, start);
            let dst = if c == 0 { i as i64 } else { tmp + i as i64 };
            b.store(t, dst, out);
        }
        if c == 0 {
            for (j, v) in w.iter().enumerate() {
                b.store(t, (rows + j) as i64, *v);
            }
            written = (rows + W) as i64;
        } else {
            written = add_chunk(b, t, pos, written, tmp, rows, &w);
        }
    }
    // The off-diagonal sum is below 2^(64(2n − 1)): its top word is zero.
    debug_assert_eq!(written, 2 * n as i64 - 1);
    let z = b.constant(0);
    b.store(t, 2 * n as i64 - 1, z);
    // Double on CF, add the squares on OF.
    let _flags = b.zero();
    for i in 0..n {
        b.set_rdx(at(a, i as i64));
        let (hi, lo) = b.mulx(Src::Reg(VReg::Rdx));
        for (k, part) in [(2 * i, lo), (2 * i + 1, hi)] {
            let x = b.load(at(t, k as i64));
            b.alu_reg(AluOp::Adcx, x, x);
            b.alu_reg(AluOp::Adox, x, part);
            b.store(t, k as i64, x);
        }
    }
}

/// Where a reduction stripe finds its inputs and scratch, in words relative to its pointer.
#[derive(Clone, Copy, Debug)]
struct StripeLayout {
    /// The stripe's first accumulator word.
    base: i64,
    /// The eight quotients.
    m: i64,
    /// n − 8 finished words waiting to be added.
    tmp: i64,
    /// n0' = −n⁻¹ mod 2^64.
    n0: i64,
}

/// Eight rows of Montgomery reduction of the accumulator at t[base..base + n + 8): quotients
/// m_r = (t\[base + r\] + ...)·n0', t += Σ m_r·p·2^(64(base + r)); the carry word `cin` (if any)
/// enters at base + n, the returned carry word (0..2) leaves at base + n + 8.
fn stripe_body(
    b: &mut Builder,
    t: VReg,
    p: VReg,
    n: usize,
    lay: StripeLayout,
    cin: Option<VReg>,
) -> VReg {
    assert!(n.is_multiple_of(W) && n >= 2 * W);
    let mut w: Vec<VReg> = (0..W).map(|j| b.load(at(t, lay.base + j as i64))).collect();
    // First chunk of p: the quotients, one per row, each clearing the word leaving the window.
    for r in 0..W {
        b.set_rdx(at(t, lay.n0));
        b.alu_reg(AluOp::Imul, VReg::Rdx, w[0]);
        b.store(t, lay.m + r as i64, VReg::Rdx);
        let _zero_word = row(b, &mut w, p, 0, 0);
    }
    // Further chunks of p against the same quotients; the window runs on.
    for c in 1..n / W {
        for r in 0..W {
            b.set_rdx(at(t, lay.m + r as i64));
            let out = row(b, &mut w, p, (W * c) as i64, 0);
            b.store(t, lay.tmp + (W * (c - 1) + r) as i64, out);
        }
    }
    // t[base + 8..base + n + 8) += the n result words (CF), the carry word in at base + n (OF).
    let z = b.zero();
    for k in 0..n {
        let pos = lay.base + (W + k) as i64;
        let v = if k < n - W {
            let v = b.load(at(t, lay.tmp + k as i64));
            b.alu(AluOp::Adcx, v, at(t, pos));
            v
        } else {
            let v = w[k - (n - W)];
            b.alu(AluOp::Adcx, v, at(t, pos));
            v
        };
        if k == n - W {
            if let Some(c) = cin {
                b.alu_reg(AluOp::Adox, v, c);
            }
        } else if k > n - W && cin.is_some() {
            b.alu_reg(AluOp::Adox, v, z);
        }
        b.store(t, pos, v);
    }
    let cout = b.constant(0);
    b.alu_reg(AluOp::Adcx, cout, z);
    if cin.is_some() {
        b.alu_reg(AluOp::Adox, cout, z);
    }
    cout
}

/// Scratch words below the stripe pointer that [`redc_stripe_kernel`] uses.
pub fn stripe_pad(n: usize) -> usize {
    n + 2
}

/// One reduction stripe as a kernel: pointers `t` (Scratch: the stripe's first accumulator
/// word; t\[−1\] holds n0', t\[−2\] the carry word in, replaced by the carry word out;
/// t[−(n + 2)..−2) is scratch and the accumulator continues to t[n + 8)) and `p` (Modulus: n
/// limbs). Everything below t must be dead: the caller runs stripes upwards.
pub fn redc_stripe_kernel(n: usize) -> VProgram {
    let mut b = Builder::new();
    let t = b.pointer(Pointer::Scratch);
    let p = b.pointer(Pointer::Modulus);
    let lay = StripeLayout {
        base: 0,
        m: -10,
        tmp: -(n as i64 + 2),
        n0: -1,
    };
    let cin = b.load(at(t, -2));
    let cout = stripe_body(&mut b, t, p, n, lay, Some(cin));
    b.store(t, -2, cout);
    b.finish(Vec::new())
}

/// The product kernel: pointers `a`, `b` (Operand 0 and 1: n limbs) and `t` (Scratch:
/// [`product_scratch`] words); writes a·b to t[0..2n).
pub fn product_kernel(n: usize) -> VProgram {
    let mut b = Builder::new();
    let x = b.pointer(Pointer::Operand(0));
    let y = b.pointer(Pointer::Operand(1));
    let t = b.pointer(Pointer::Scratch);
    product_body(&mut b, x, y, t, n);
    b.finish(Vec::new())
}

/// The square kernel: pointers `a` (Operand 0) and `t` (Scratch, [`product_scratch`] words);
/// writes a² to t[0..2n).
pub fn square_kernel(n: usize) -> VProgram {
    let mut b = Builder::new();
    let a = b.pointer(Pointer::Operand(0));
    let t = b.pointer(Pointer::Scratch);
    square_body(&mut b, a, t, n);
    b.finish(Vec::new())
}

/// Scratch words of [`mont_kernel`]; n0' goes in the last one.
pub fn mont_scratch(n: usize) -> usize {
    3 * n + 10
}

/// A whole Montgomery product (`square` false: pointers a, b, p, t) or square (a, p, t):
/// t[0..2n) = the product, n/8 reduction stripes with the carry word in a register, then
/// t[0..n) = the result mod p, constant time. t has [`mont_scratch`] words with n0' in the
/// last; the result is correct for any inputs whose product is below p·R (values below p).
pub fn mont_kernel(n: usize, square: bool) -> VProgram {
    assert!(n.is_multiple_of(W) && n >= 2 * W);
    let mut b = Builder::new();
    let x = b.pointer(Pointer::Operand(0));
    let y = (!square).then(|| b.pointer(Pointer::Operand(1)));
    let p = b.pointer(Pointer::Modulus);
    let t = b.pointer(Pointer::Scratch);
    match y {
        Some(y) => product_body(&mut b, x, y, t, n),
        None => square_body(&mut b, x, t, n),
    }
    let mut carry = None;
    for s in 0..n / W {
        let lay = StripeLayout {
            base: (W * s) as i64,
            m: 3 * n as i64 + 1,
            tmp: 2 * n as i64 + 1,
            n0: 3 * n as i64 + 9,
        };
        carry = Some(stripe_body(&mut b, t, p, n, lay, carry));
    }
    let ext = carry.expect("n ≥ 16");
    // d = t[n..2n) − p into the scratch, then keep t[n..2n) exactly when ext·R + t < p.
    let tmp = 2 * n as i64 + 1;
    for j in 0..n {
        let v = b.load(at(t, (n + j) as i64));
        b.alu(
            if j == 0 { AluOp::Sub } else { AluOp::Sbb },
            v,
            at(p, j as i64),
        );
        b.store(t, tmp + j as i64, v);
    }
    b.alu(AluOp::Sbb, ext, Src::Imm(0));
    for j in 0..n {
        let v = b.load(at(t, tmp + j as i64));
        b.alu(AluOp::Cmovc, v, at(t, (n + j) as i64));
        b.store(t, j as i64, v);
    }
    b.finish(Vec::new())
}

/// Number of `mulx` of a kernel (for documentation).
pub fn mulx_count(p: &VProgram) -> usize {
    p.insts
        .iter()
        .filter(|i| matches!(i, Inst::Mulx { .. }))
        .count()
}
