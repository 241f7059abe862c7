//! The pieces both kernels share: one word of Montgomery reduction with two carry chains, and
//! the constant-time final subtraction of p.
//!
//! Notation: the accumulator is a window of n words `t[0..n)` plus `above`, the words at
//! positions n and n + 1 that exist at this point (none, a full word, or a full word and a carry
//! bit). Which of them exist is decided from value bounds by the kernels, never guessed: a word
//! that the bounds prove zero is not represented at all.

use super::inst::{AluOp, Src, VReg};
use super::program::{word, Builder};
use crate::narrow::lo64;
use crate::spec::FieldConsts;

/// The modulus as a kernel sees it: its limbs (folded into the code where they are 0 or fit an
/// immediate), n0' = −p⁻¹ mod 2^64 and the next word of −p⁻¹ mod 2^128, and the pointer to its
/// limbs in memory.
#[derive(Clone, Debug)]
pub struct Modulus {
    /// Limbs of p, least significant first.
    pub limbs: Vec<u64>,
    /// −p⁻¹ mod 2^64.
    pub n0: u64,
    /// Bits 64..128 of −p⁻¹ mod 2^128.
    pub n1: u64,
    /// The value holding the pointer to the limbs.
    pub ptr: VReg,
}

impl Modulus {
    /// The modulus with limbs `limbs` (p odd), reached through pointer `ptr`.
    pub fn new(limbs: &[u64], ptr: VReg) -> Modulus {
        let p = limbs[0] as u128 | (limbs.get(1).copied().unwrap_or(0) as u128) << 64;
        // p⁻¹ mod 2^128 by Newton's iteration (each step doubles the correct low bits).
        let mut inv: u128 = 1;
        for _ in 0..8 {
            inv = inv.wrapping_mul(2u128.wrapping_sub(p.wrapping_mul(inv)));
        }
        let neg = inv.wrapping_neg();
        Modulus {
            limbs: limbs.to_vec(),
            n0: lo64(neg),
            n1: (neg >> 64) as u64,
            ptr,
        }
    }

    /// Limb `j` as a source operand: a sign-extended immediate when it fits (e.g. 2^64 − 1 is
    /// −1), else a memory operand.
    pub fn limb(&self, j: usize) -> Src<VReg> {
        match i32::try_from(self.limbs[j] as i64) {
            Ok(v) => Src::Imm(v),
            Err(_) => word(self.ptr, j),
        }
    }

    /// Limb `j` as a `mulx` source (memory; `mulx` takes no immediate).
    pub fn limb_mem(&self, j: usize) -> Src<VReg> {
        word(self.ptr, j)
    }
}

/// A zero operand: `z` is a value known to be 0.
fn or_zero(v: Option<VReg>, z: VReg) -> Src<VReg> {
    Src::Reg(v.unwrap_or(z))
}

/// A new word holding CF + OF (the two pending carries into the same position), given `z` = 0.
/// Used only where the bounds say the sum is at most 1.
pub fn carries_to_bit(b: &mut Builder, z: VReg) -> VReg {
    let bit = b.load(Src::Imm(0));
    b.alu_reg(AluOp::Adcx, bit, z);
    b.alu_reg(AluOp::Adox, bit, z);
    bit
}

/// One step of Montgomery reduction: with m = t\[0\]·n0' mod 2^64 (in `rdx`), adds m·p to the
/// accumulator and drops its low word, which is zero by the choice of m. Returns the new window
/// and the words above it.
///
/// The products m·p\[j\] are added with two independent carry chains: OF carries t\[j\] + lo(m·p\[j\]),
/// CF carries + hi(m·p\[j−1\]) (the low product first: it is ready first); both chains meet at
/// word n. Products with a limb of p equal to 0 are
/// skipped (their chain steps only propagate the carry), and n0' = 1 needs no multiplication.
///
/// `above` is what sits above the window: `[]` (nothing: the word n position receives only the
/// last high word and the carries), `[w]` (a full word) or `[w, bit]`. `need_bit` says whether
/// the bounds allow a carry out of word n, in which case it is kept as a new bit word.
pub fn reduce_step(
    b: &mut Builder,
    p: &Modulus,
    t: &[VReg],
    above: &[VReg],
    need_bit: bool,
) -> (Vec<VReg>, Vec<VReg>) {
    if p.n0 == 1 {
        b.set_rdx(Src::Reg(t[0]));
    } else {
        b.rdx_mul_const(p.n0, Src::Reg(t[0]));
    }
    reduce_step_by_rdx(b, p, t, above, need_bit)
}

/// Two quotient words at once: (m0, m1) with m0 + m1·2^64 = (u0 + u1·2^64)·N' mod 2^128,
/// N' = −p⁻¹ mod 2^128. Two reduction steps by m0 then m1 ([`reduce_step_by_rdx`]) clear two
/// words, and m1 does not wait for the first step: the serial chain quotient → product → sum →
/// quotient is walked once per two words.
pub fn quotient_pair(b: &mut Builder, p: &Modulus, u0: VReg, u1: VReg) -> (VReg, VReg) {
    // m1 = hi(u0·n0) + u0·n1 + u1·n0 mod 2^64.
    let (m0, m1) = if p.n0 == 1 {
        let m0 = b.load(Src::Reg(u0));
        let m1 = b.constant(p.n1);
        b.alu_reg(AluOp::Imul, m1, u0);
        b.alu_reg(AluOp::Add, m1, u1);
        (m0, m1)
    } else {
        b.set_rdx(Src::Reg(u0));
        let k = b.constant(p.n0);
        let (h, m0) = b.mulx(Src::Reg(k));
        b.alu_reg(AluOp::Imul, k, u1);
        let x = b.constant(p.n1);
        b.alu_reg(AluOp::Imul, x, u0);
        b.alu_reg(AluOp::Add, h, k);
        b.alu_reg(AluOp::Add, h, x);
        (m0, h)
    };
    (m0, m1)
}

/// [`reduce_step`] with the quotient word m already in `rdx` (from [`quotient_pair`]).
pub fn reduce_step_by_rdx(
    b: &mut Builder,
    p: &Modulus,
    t: &[VReg],
    above: &[VReg],
    need_bit: bool,
) -> (Vec<VReg>, Vec<VReg>) {
    let n = t.len();
    let z = b.zero();
    let (hi0, lo0) = b.mulx(p.limb_mem(0));
    // lo(m·p[0]) + t[0] ≡ 0 (mod 2^64): only its carry is kept.
    b.alu_reg(AluOp::Adcx, lo0, t[0]);
    let mut prev_hi = Some(hi0);
    let mut window = Vec::with_capacity(n);
    for (j, &tj) in t.iter().enumerate().skip(1) {
        let prod = (p.limbs[j] != 0).then(|| b.mulx(p.limb_mem(j)));
        b.alu(AluOp::Adox, tj, or_zero(prod.map(|(_, lo)| lo), z));
        b.alu(AluOp::Adcx, tj, or_zero(prev_hi, z));
        window.push(tj);
        prev_hi = prod.map(|(hi, _)| hi);
    }
    // Word n: the last high word (the top limb of p is never 0), both carries and `above`.
    let top_hi = prev_hi.expect("the top limb of p is non-zero");
    let mut new_above = Vec::new();
    match above {
        [] => {
            b.alu_reg(AluOp::Adcx, top_hi, z);
            b.alu_reg(AluOp::Adox, top_hi, z);
            window.push(top_hi);
            if need_bit {
                new_above.push(carries_to_bit(b, z));
            }
        }
        [w] => {
            b.alu_reg(AluOp::Adcx, *w, top_hi);
            b.alu_reg(AluOp::Adox, *w, z);
            window.push(*w);
            if need_bit {
                new_above.push(carries_to_bit(b, z));
            }
        }
        [w, bit] => {
            b.alu_reg(AluOp::Adcx, *w, top_hi);
            b.alu_reg(AluOp::Adox, *w, z);
            window.push(*w);
            b.alu_reg(AluOp::Adcx, *bit, z);
            b.alu_reg(AluOp::Adox, *bit, z);
            new_above.push(*bit);
        }
        _ => unreachable!("at most two words above the window"),
    }
    (window, new_above)
}

/// Given t (n words) and an optional top word with t + top·2^(64n) < 2p, returns t mod p: the
/// difference d = t − p is computed with a borrow chain, and `cmovc` keeps t where the borrow
/// says t < p. No branch, no secret-dependent address.
pub fn final_subtract(b: &mut Builder, p: &Modulus, t: &[VReg], top: Option<VReg>) -> Vec<VReg> {
    let mut d = Vec::with_capacity(t.len());
    for (j, tj) in t.iter().enumerate() {
        let dj = b.load(Src::Reg(*tj));
        let op = if j == 0 { AluOp::Sub } else { AluOp::Sbb };
        b.alu(op, dj, p.limb(j));
        d.push(dj);
    }
    if let Some(top) = top {
        // Borrow out of the (n+1)-word subtraction: 1 exactly when t + top·R < p.
        b.alu(AluOp::Sbb, top, Src::Imm(0));
    }
    for (dj, tj) in d.iter().zip(t) {
        b.alu_reg(AluOp::Cmovc, *dj, *tj);
    }
    d
}

/// Montgomery reduction (SOS, Koç–Acar–Kaliski 1996) of the 2n-word T = low + high·2^(64n),
/// T < p·R: n reduction steps on the low half, two per quotient pair ([`quotient_pair`]), then
/// the high half added once (`high` in registers or memory) and the final subtraction. The
/// result before the subtraction is below (p·R + R·p)/R = 2p, so one subtraction makes it
/// canonical; the window gets a top bit only when p has no spare bit.
pub fn sos_reduce(
    b: &mut Builder,
    c: &FieldConsts,
    p: &Modulus,
    low: Vec<VReg>,
    high: &[Src<VReg>],
) -> Vec<VReg> {
    let n = c.limbs;
    let need_bit = c.modulus_limbs[n - 1] == u64::MAX;
    let mut window = low;
    let mut above: Vec<VReg> = Vec::new();
    let mut i = 0;
    while i < n {
        if i + 1 < n {
            // Two words per quotient: the steps share one serial chain.
            let (m0, m1) = quotient_pair(b, p, window[0], window[1]);
            for m in [m0, m1] {
                b.set_rdx(Src::Reg(m));
                let (w, a2) = reduce_step_by_rdx(b, p, &window, &above, need_bit);
                window = w;
                above = a2;
            }
            i += 2;
        } else {
            let (w, a2) = reduce_step(b, p, &window, &above, need_bit);
            window = w;
            above = a2;
            i += 1;
        }
    }
    let full = c.spare_bits == 0;
    let top = full.then(|| {
        above
            .first()
            .copied()
            .unwrap_or_else(|| b.load(Src::Imm(0)))
    });
    for (j, hi_word) in high.iter().enumerate() {
        let op = if j == 0 { AluOp::Add } else { AluOp::Adc };
        b.alu(op, window[j], *hi_word);
    }
    if let Some(top) = top {
        b.alu(AluOp::Adc, top, Src::Imm(0));
    }
    final_subtract(b, p, &window, top)
}
