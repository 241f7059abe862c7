//! Pollard's rho with Brent's cycle detection and batched gcds (R. P. Brent, "An improved Monte
//! Carlo factorization algorithm", BIT 20, 1980) over Montgomery arithmetic on 64-bit limbs: the
//! factor search behind the multiplicative generator, with a fixed work budget.

use super::*;
use crate::narrow::lo64;

/// A proper divisor of the odd composite `c` (not a perfect power) by Pollard's rho with
/// Brent's cycle detection and batched gcds (R. P. Brent, "An improved Monte Carlo
/// factorization algorithm", BIT 20, 1980), over Montgomery arithmetic. Tries the maps
/// x ↦ x² + k for k = 1, 2, ... until `work_left` (see [`RHO_WORK`]) runs out.
pub(super) fn rho_divisor(c: &BigUint, work_left: &mut u64) -> Option<BigUint> {
    if c.is_even() {
        return Some(BigUint::from(2u32));
    }
    let mont = Montgomery::new(c);
    let limbs = mont.n.len() as u64;
    let cost = limbs * limbs + 16;
    for k in 1..=u64::from(u32::MAX) {
        let budget = *work_left / cost;
        if budget == 0 {
            return None;
        }
        let (divisor, used) = mont.brent(k, budget);
        *work_left = work_left.saturating_sub(used.max(1).saturating_mul(cost));
        if let Some(d) = divisor {
            if !d.is_one() && d < *c && (c % &d).is_zero() {
                return Some(d);
            }
        }
    }
    None
}

/// Arithmetic modulo an odd n > 1 in Montgomery form with R = 2^(64·len), on little-endian
/// 64-bit limbs. Residues are kept below n.
pub(super) struct Montgomery {
    n: Vec<u64>,
    /// -n⁻¹ mod 2^64.
    n0: u64,
    modulus: BigUint,
}

impl Montgomery {
    pub(super) fn new(n: &BigUint) -> Self {
        let limbs: Vec<u64> = n.iter_u64_digits().collect();
        // Newton's iteration for n⁻¹ mod 2^64: each step doubles the correct low bits.
        let mut inv: u64 = 1;
        for _ in 0..7 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(limbs[0].wrapping_mul(inv)));
        }
        Montgomery {
            n: limbs,
            n0: inv.wrapping_neg(),
            modulus: n.clone(),
        }
    }

    pub(super) fn limbs_of(&self, x: &BigUint) -> Vec<u64> {
        let mut v: Vec<u64> = (x % &self.modulus).iter_u64_digits().collect();
        v.resize(self.n.len(), 0);
        v
    }

    pub(super) fn to_big(x: &[u64]) -> BigUint {
        let bytes: Vec<u8> = x.iter().flat_map(|w| w.to_le_bytes()).collect();
        BigUint::from_bytes_le(&bytes)
    }

    /// x ≥ n, for x extended by the word `top`.
    pub(super) fn at_least_n(&self, x: &[u64], top: u64) -> bool {
        if top != 0 {
            return true;
        }
        for (a, b) in x.iter().zip(&self.n).rev() {
            if a != b {
                return a > b;
            }
        }
        true
    }

    /// x -= n (mod 2^(64·len)).
    pub(super) fn sub_n(&self, x: &mut [u64]) {
        let mut borrow = false;
        for (a, &b) in x.iter_mut().zip(&self.n) {
            let (d1, b1) = a.overflowing_sub(b);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            *a = d2;
            borrow = b1 | b2;
        }
    }

    /// out = a·b·R⁻¹ mod n (CIOS; Koç, Acar and Kaliski, "Analyzing and comparing Montgomery
    /// multiplication algorithms", IEEE Micro 16(3), 1996). `t` is scratch of len + 2 words.
    pub(super) fn mul(&self, a: &[u64], b: &[u64], out: &mut [u64], t: &mut [u64]) {
        let n = &self.n[..];
        let len = n.len();
        let (a, b, out, t) = (&a[..len], &b[..len], &mut out[..len], &mut t[..len + 2]);
        t.fill(0);
        for &bi in b {
            let mut carry = 0u64;
            for (tj, &aj) in t.iter_mut().zip(a) {
                let v = *tj as u128 + aj as u128 * bi as u128 + carry as u128;
                *tj = lo64(v);
                carry = (v >> 64) as u64;
            }
            let v = t[len] as u128 + carry as u128;
            t[len] = lo64(v);
            t[len + 1] = (v >> 64) as u64;
            let m = t[0].wrapping_mul(self.n0);
            let mut carry = ((t[0] as u128 + m as u128 * n[0] as u128) >> 64) as u64;
            for j in 1..len {
                let v = t[j] as u128 + m as u128 * n[j] as u128 + carry as u128;
                t[j - 1] = lo64(v);
                carry = (v >> 64) as u64;
            }
            let v = t[len] as u128 + carry as u128;
            t[len - 1] = lo64(v);
            t[len] = t[len + 1] + (v >> 64) as u64;
        }
        out.copy_from_slice(&t[..len]);
        if self.at_least_n(out, t[len]) {
            self.sub_n(out);
        }
    }

    /// x = x + k mod n, for k < n.
    pub(super) fn add_small(&self, x: &mut [u64], k: u64) {
        let mut carry = k;
        for w in x.iter_mut() {
            let (s, c) = w.overflowing_add(carry);
            *w = s;
            carry = c as u64;
            if carry == 0 {
                break;
            }
        }
        if self.at_least_n(x, carry) {
            self.sub_n(x);
        }
    }

    /// out = a - b mod n.
    pub(super) fn sub(&self, a: &[u64], b: &[u64], out: &mut [u64]) {
        let mut borrow = false;
        for i in 0..out.len() {
            let (d1, b1) = a[i].overflowing_sub(b[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            out[i] = d2;
            borrow = b1 | b2;
        }
        if borrow {
            let mut carry = false;
            for (o, &m) in out.iter_mut().zip(&self.n) {
                let (s1, c1) = o.overflowing_add(m);
                let (s2, c2) = s1.overflowing_add(carry as u64);
                *o = s2;
                carry = c1 | c2;
            }
        }
    }

    /// One run of Brent's rho on x ↦ x·x·R⁻¹ + k (a pseudo-random map like x² + k) from x₀ = 2,
    /// for at most `budget` steps. Returns a proper divisor of n, or `None` when the budget ran
    /// out or the walk cycled without splitting n, and the steps used.
    pub(super) fn brent(&self, k: u64, budget: u64) -> (Option<BigUint>, u64) {
        const BATCH: u64 = 1024;
        let len = self.n.len();
        // k < n, as `add_small` needs (n ≥ 2^64 when it has more than one limb).
        let k = if len == 1 { k % self.n[0] } else { k };
        let mut t = vec![0u64; len + 2];
        let mut tmp = vec![0u64; len];
        let mut diff = vec![0u64; len];
        let step = |v: &mut Vec<u64>, tmp: &mut Vec<u64>, t: &mut Vec<u64>| {
            self.mul(v, v, tmp, t);
            std::mem::swap(v, tmp);
            self.add_small(v, k);
        };
        let mut y = self.limbs_of(&BigUint::from(2u32));
        let mut q = self.limbs_of(&BigUint::one());
        let mut x = y.clone();
        let mut ys = y.clone();
        let mut used = 0u64;
        let mut r = 1u64;
        let mut g = BigUint::one();
        while g.is_one() {
            // x keeps y's value at the start of the round; y then takes r steps unchecked and
            // r more compared with x, and r doubles (Brent's cycle detection).
            x.copy_from_slice(&y);
            for _ in 0..r {
                if used >= budget {
                    return (None, used);
                }
                step(&mut y, &mut tmp, &mut t);
                used += 1;
            }
            let mut done = 0u64;
            while done < r && g.is_one() {
                if used >= budget {
                    return (None, used);
                }
                ys.copy_from_slice(&y);
                let batch = BATCH.min(r - done);
                for _ in 0..batch {
                    step(&mut y, &mut tmp, &mut t);
                    self.sub(&x, &y, &mut diff);
                    self.mul(&q, &diff, &mut tmp, &mut t);
                    std::mem::swap(&mut q, &mut tmp);
                }
                used += batch;
                done += batch;
                g = Self::to_big(&q).gcd(&self.modulus);
            }
            r = r.saturating_mul(2);
        }
        if g == self.modulus {
            // The batch overshot: redo its steps one gcd at a time.
            for _ in 0..BATCH.min(r) {
                step(&mut ys, &mut tmp, &mut t);
                used += 1;
                self.sub(&x, &ys, &mut diff);
                g = Self::to_big(&diff).gcd(&self.modulus);
                if !g.is_one() {
                    break;
                }
            }
        }
        if g.is_one() || g == self.modulus {
            (None, used)
        } else {
            (Some(g), used)
        }
    }
}
