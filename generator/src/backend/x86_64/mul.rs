//! Montgomery multiplication a·b·R⁻¹ mod p as a BMI2/ADX kernel: CIOS (Koç, Acar, Kaliski,
//! "Analyzing and comparing Montgomery multiplication algorithms", IEEE Micro 1996), one row per
//! limb of b, each row a product pass and a reduction pass, and each pass two independent carry
//! chains (Ozturk, Guilford, Gopal, Feghali, "New instructions supporting large integer
//! arithmetic on Intel architecture processors", Intel white paper 327831, 2012): `mulx` leaves the
//! flags alone, `adcx` carries the low words on CF while `adox` carries the high words on OF.
//!
//! Carry words come from bounds. Between rows the accumulator t is below 2p (CIOS invariant), so
//! when p has a spare bit (2p < R) it fits n words and the product pass needs exactly one word
//! above it: this is the "no-carry" CIOS (gnark-crypto's optimisation, and more: the exact
//! two-chain additions need only one spare bit). When p has no spare bit, t keeps a carry bit at
//! word n and the product pass a bit at word n + 1.

use super::inst::{AluOp, Src, VReg};
use super::program::{word, Builder, Pointer, VProgram};
use super::reduce::{carries_to_bit, final_subtract, reduce_step, reduce_step_by_rdx, Modulus};
use super::square::first_row;
use crate::spec::FieldConsts;

/// The multiplication kernel for the modulus of `c` (64-bit limbs).
pub fn mul_kernel(c: &FieldConsts) -> VProgram {
    assert_eq!(c.w(), 64, "the x86-64 kernels use 64-bit limbs");
    let n = c.limbs;
    let full = c.spare_bits == 0;
    let mut b = Builder::new();
    // Row i multiplies by limb i of the first operand (in rdx) the limbs of the second, read from
    // memory. The first operand is the receiver of `mul`, typically the accumulator of a chain
    // (x ← x·y, exponentiation): each row then waits only for its own limb, while the second
    // operand's limbs are loaded from memory over and over. Measured 5–8% lower latency than
    // the other way round.
    let rows = b.pointer(Pointer::Operand(0));
    let cols = b.pointer(Pointer::Operand(1));
    let p = Modulus::new(&c.modulus_limbs, b.pointer(Pointer::Modulus));
    debug_assert_eq!(p.n0, c.n0_inv);

    // Row 0: t = a·b[0] with one carry chain (t starts at zero, so the high words are fresh).
    // The first quotient m = lo(a[0]·b[0])·n0' = a[0]·(b[0]·n0' mod 2^64): the second factor does
    // not depend on a, so m is one multiplication away from a[0] instead of a mulx and an imul.
    let first_m = (p.n0 != 1).then(|| {
        let a0 = b.load(word(rows, 0));
        let m = b.constant(p.n0);
        b.alu(AluOp::Imul, m, word(cols, 0));
        b.alu_reg(AluOp::Imul, m, a0);
        b.set_rdx(Src::Reg(a0));
        m
    });
    if first_m.is_none() {
        b.set_rdx(word(rows, 0));
    }
    let mut t = first_row(&mut b, cols, n);
    let carry = t.pop().expect("n + 1 words");
    let (mut t, mut above) = match first_m {
        Some(m) => {
            b.set_rdx(Src::Reg(m));
            reduce_step_by_rdx(&mut b, &p, &t, &[carry], full)
        }
        None => reduce_step(&mut b, &p, &t, &[carry], full),
    };

    for i in 1..n {
        // Product pass: t += a·b[i]; low words on OF, high words on CF.
        b.set_rdx(word(rows, i));
        let z = b.zero();
        let mut top_hi: Option<VReg> = None;
        for j in 0..n {
            let (hi, lo) = b.mulx(word(cols, j));
            b.alu_reg(AluOp::Adox, t[j], lo);
            if j + 1 < n {
                b.alu_reg(AluOp::Adcx, t[j + 1], hi);
            } else {
                top_hi = Some(hi);
            }
        }
        let w = top_hi.expect("n ≥ 1");
        above = match above.as_slice() {
            // t < 2p < R: word n is the last high word plus both carries, with no carry out.
            [] => {
                b.alu_reg(AluOp::Adcx, w, z);
                b.alu_reg(AluOp::Adox, w, z);
                vec![w]
            }
            // t < 2p ≤ 2R: the bit at word n joins the CF chain, and word n + 1 gets a bit.
            [bit] => {
                b.alu_reg(AluOp::Adcx, w, *bit);
                b.alu_reg(AluOp::Adox, w, z);
                let next = carries_to_bit(&mut b, z);
                vec![w, next]
            }
            _ => unreachable!("between rows at most a bit sits above t"),
        };
        // Reduction pass.
        let (nt, na) = reduce_step(&mut b, &p, &t, &above, full);
        t = nt;
        above = na;
    }
    let top = above.first().copied();
    debug_assert_eq!(top.is_some(), full);
    let out = final_subtract(&mut b, &p, &t, top);
    b.finish(out)
}
