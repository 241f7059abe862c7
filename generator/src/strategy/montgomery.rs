//! Montgomery multiplication a·b·R⁻¹ mod p, R = 2^(w·n), in four algorithms.

use super::karatsuba::Acc;
use super::square::montgomery_reduce;
use super::wide::mul_wide;
use super::{final_subtract, reduced_bounds, MulAlgorithm};
use crate::ir::{Builder, Func, Var};
use crate::spec::FieldConsts;

/// Lowers Montgomery multiplication of two inputs in `[0, p)` with `alg`.
/// Panics if `alg` does not apply to the modulus (see [`MulAlgorithm::applies_to`]).
pub fn lower_mul(c: &FieldConsts, alg: MulAlgorithm) -> Func {
    let mut b = Builder::new(c.w());
    let x = b.input(reduced_bounds(c));
    let y = b.input(reduced_bounds(c));
    let out = mul_body(&mut b, c, alg, &x, &y);
    b.finish(out)
}

/// Lowers conversion out of Montgomery form: a·R⁻¹ mod p, as a Montgomery product with the
/// constant 1 (the optimiser folds the constant operand away).
pub fn lower_from_montgomery(c: &FieldConsts, alg: MulAlgorithm) -> Func {
    let mut b = Builder::new(c.w());
    let x = b.input(reduced_bounds(c));
    let mut one = vec![0u64; c.limbs];
    one[0] = 1;
    let y = b.constants(&one);
    let out = mul_body(&mut b, c, alg, &x, &y);
    b.finish(out)
}

/// Emits the Montgomery product of `x` and `y` into `b` and returns its limbs.
pub fn mul_body(
    b: &mut Builder,
    c: &FieldConsts,
    alg: MulAlgorithm,
    x: &[Var],
    y: &[Var],
) -> Vec<Var> {
    assert!(
        alg.applies_to(c),
        "{} does not apply to this modulus",
        alg.name()
    );
    match alg {
        MulAlgorithm::Cios => cios(b, c, x, y),
        MulAlgorithm::CiosNoCarry => cios_no_carry(b, c, x, y),
        MulAlgorithm::ProductScanning => product_scanning(b, c, x, y),
        // SOS (Koç–Acar–Kaliski 1996, §3): the schoolbook product, then the reduction the square
        // and the double-width API use. x·y < p² < p·R is the reduction's input bound.
        MulAlgorithm::Sos => {
            let t = mul_wide(b, x, y);
            montgomery_reduce(b, c, &t)
        }
    }
}

/// CIOS with an (n+2)-word accumulator (Koç–Acar–Kaliski 1996, §4).
fn cios(b: &mut Builder, c: &FieldConsts, x: &[Var], y: &[Var]) -> Vec<Var> {
    let n = c.limbs;
    let p = b.constants(&c.modulus_limbs);
    let n0 = b.constant(c.n0_inv);
    let zero = b.constant(0);
    let mut t = vec![zero; n + 2];
    for yi in y.iter().take(n) {
        // t += x·y[i]
        let mut carry = zero;
        for j in 0..n {
            let (lo, hi) = b.mul_add(x[j], *yi, t[j], carry);
            t[j] = lo;
            carry = hi;
        }
        let (s, cy) = b.add_carry(t[n], carry, zero);
        t[n] = s;
        t[n + 1] = cy;
        // t = (t + m·p) / 2^w with m = t[0]·n0' mod 2^w
        let m = b.mul_lo(t[0], n0);
        let (_, mut carry) = b.mul_add(m, p[0], t[0], zero);
        for j in 1..n {
            let (lo, hi) = b.mul_add(m, p[j], t[j], carry);
            t[j - 1] = lo;
            carry = hi;
        }
        let (s, cy) = b.add_carry(t[n], carry, zero);
        t[n - 1] = s;
        // t[n+1] + cy < 2: the true accumulator stays below 2p.
        let (s, _) = b.add_carry(t[n + 1], cy, zero);
        t[n] = s;
    }
    final_subtract(b, c, &t[..n], t[n])
}

/// CIOS without the extra words, valid when the top limb of p < (2^w−1)/2 − 1: the accumulator
/// then always fits n words (gnark-crypto, "Faster big-integer modular multiplication for most
/// moduli", hackmd.io/@gnark/modular_multiplication).
fn cios_no_carry(b: &mut Builder, c: &FieldConsts, x: &[Var], y: &[Var]) -> Vec<Var> {
    let n = c.limbs;
    let p = b.constants(&c.modulus_limbs);
    let n0 = b.constant(c.n0_inv);
    let zero = b.constant(0);
    let mut t = vec![zero; n];
    for yi in y.iter().take(n) {
        let (t0, mut a_carry) = b.mul_add(x[0], *yi, t[0], zero);
        let m = b.mul_lo(t0, n0);
        let (_, mut m_carry) = b.mul_add(m, p[0], t0, zero);
        for j in 1..n {
            let (lo, hi) = b.mul_add(x[j], *yi, t[j], a_carry);
            a_carry = hi;
            let (lo2, hi2) = b.mul_add(m, p[j], lo, m_carry);
            t[j - 1] = lo2;
            m_carry = hi2;
        }
        // No carry out: a_carry + m_carry < 2^w under the precondition.
        let (s, _) = b.add_carry(a_carry, m_carry, zero);
        t[n - 1] = s;
    }
    final_subtract(b, c, &t, zero)
}

/// Product scanning (FIPS, Koç–Acar–Kaliski 1996, §6): each column of a·b and m·p is summed in
/// a three-word accumulator, and the Montgomery quotient digits m\[i\] come out column by column.
fn product_scanning(b: &mut Builder, c: &FieldConsts, x: &[Var], y: &[Var]) -> Vec<Var> {
    let n = c.limbs;
    let p = b.constants(&c.modulus_limbs);
    let n0 = b.constant(c.n0_inv);
    let zero = b.constant(0);
    let mut acc = Acc {
        t0: zero,
        t1: zero,
        t2: zero,
    };
    let mut m: Vec<Var> = Vec::with_capacity(n);
    for i in 0..n {
        for j in 0..i {
            acc.add_product(b, zero, x[j], y[i - j]);
            acc.add_product(b, zero, m[j], p[i - j]);
        }
        acc.add_product(b, zero, x[i], y[0]);
        let mi = b.mul_lo(acc.t0, n0);
        acc.add_product(b, zero, mi, p[0]);
        m.push(mi);
        acc.shift(zero); // the low word is 0 by the choice of m[i]
    }
    let mut r = Vec::with_capacity(n);
    for i in n..2 * n {
        for j in (i - n + 1)..n {
            acc.add_product(b, zero, x[j], y[i - j]);
            acc.add_product(b, zero, m[j], p[i - j]);
        }
        r.push(acc.shift(zero));
    }
    let top = acc.t0;
    final_subtract(b, c, &r, top)
}
