//! Arithmetic in Fp and Fp2 = Fp[i]/(i² + 1) over num-bigint, and points of the twist E′ over
//! Fp2, for deriving and checking the constants (not constant time: public data only).

use super::*;

/// An element a + b·i of Fp2, canonical.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct F2 {
    /// Real part.
    pub a: BigUint,
    /// Imaginary part.
    pub b: BigUint,
}

/// Fp and Fp2 arithmetic modulo p (the slow reference the derivations use).
pub(super) struct Ctx {
    pub(super) p: BigUint,
}

impl Ctx {
    pub(super) fn f(&self, a: BigUint) -> F2 {
        F2 {
            a: a % &self.p,
            b: BigUint::zero(),
        }
    }
    pub(super) fn add(&self, x: &F2, y: &F2) -> F2 {
        F2 {
            a: (&x.a + &y.a) % &self.p,
            b: (&x.b + &y.b) % &self.p,
        }
    }
    pub(super) fn neg(&self, x: &F2) -> F2 {
        F2 {
            a: (&self.p - &x.a) % &self.p,
            b: (&self.p - &x.b) % &self.p,
        }
    }
    pub(super) fn sub(&self, x: &F2, y: &F2) -> F2 {
        self.add(x, &self.neg(y))
    }
    pub(super) fn mul(&self, x: &F2, y: &F2) -> F2 {
        let p = &self.p;
        let re = (&x.a * &y.a + p * p - (&x.b * &y.b) % (p * p)) % p;
        let im = (&x.a * &y.b + &x.b * &y.a) % p;
        F2 { a: re, b: im }
    }
    pub(super) fn pow(&self, x: &F2, e: &BigUint) -> F2 {
        let mut acc = self.f(BigUint::one());
        for i in (0..e.bits()).rev() {
            acc = self.mul(&acc, &acc);
            if e.bit(i) {
                acc = self.mul(&acc, x);
            }
        }
        acc
    }
    pub(super) fn inv(&self, x: &F2) -> F2 {
        // 1/(a + bi) = (a − bi)/(a² + b²).
        let p = &self.p;
        let n = (&x.a * &x.a + &x.b * &x.b) % p;
        let ni = n.modpow(&(p - 2u32), p);
        F2 {
            a: (&x.a * &ni) % p,
            b: ((p - &x.b) * &ni) % p,
        }
    }
    pub(super) fn is_zero(x: &F2) -> bool {
        x.a.is_zero() && x.b.is_zero()
    }
    /// A square root in Fp (p ≡ 3 mod 4): a^((p+1)/4), checked.
    pub(super) fn sqrt_fp(&self, a: &BigUint) -> Option<BigUint> {
        let s = a.modpow(&((&self.p + 1u32) >> 2), &self.p);
        ((&s * &s) % &self.p == a % &self.p).then_some(s)
    }
    /// A square root in Fp2 through the norm: with n = a² + b² = s², x0² = (a ± s)/2 and
    /// x1 = b/(2·x0).
    pub(super) fn sqrt(&self, x: &F2) -> Option<F2> {
        let p = &self.p;
        if x.b.is_zero() {
            if let Some(s) = self.sqrt_fp(&x.a) {
                return Some(self.f(s));
            }
            let s = self.sqrt_fp(&((p - &x.a) % p))?;
            return Some(F2 {
                a: BigUint::zero(),
                b: s,
            });
        }
        let s = self.sqrt_fp(&((&x.a * &x.a + &x.b * &x.b) % p))?;
        let half = (p + 1u32) >> 1;
        for cand in [(&x.a + &s) % p, (&x.a + p - &s) % p] {
            let c = (cand * &half) % p;
            if let Some(x0) = self.sqrt_fp(&c) {
                if x0.is_zero() {
                    continue;
                }
                let inv = (&x0 * 2u32).modpow(&(p - 2u32), p);
                let y = F2 {
                    a: x0,
                    b: (&x.b * inv) % p,
                };
                if self.mul(&y, &y) == *x {
                    return Some(y);
                }
            }
        }
        None
    }
}

/// An affine point, None the identity.
pub(super) type Pt = Option<(F2, F2)>;

impl Ctx {
    pub(super) fn pt_add(&self, p1: &Pt, p2: &Pt) -> Pt {
        let (Some((x1, y1)), Some((x2, y2))) = (p1, p2) else {
            return p1.clone().or(p2.clone());
        };
        let lambda = if x1 == x2 {
            if Self::is_zero(&self.add(y1, y2)) {
                return None;
            }
            let x1s = self.mul(x1, x1);
            let num = self.add(&self.add(&x1s, &x1s), &x1s);
            self.mul(&num, &self.inv(&self.add(y1, y1)))
        } else {
            self.mul(&self.sub(y2, y1), &self.inv(&self.sub(x2, x1)))
        };
        let x3 = self.sub(&self.sub(&self.mul(&lambda, &lambda), x1), x2);
        let y3 = self.sub(&self.mul(&lambda, &self.sub(x1, &x3)), y1);
        Some((x3, y3))
    }
    pub(super) fn pt_mul(&self, pt: &Pt, k: &BigUint) -> Pt {
        let mut acc: Pt = None;
        for i in (0..k.bits()).rev() {
            acc = self.pt_add(&acc, &acc);
            if k.bit(i) {
                acc = self.pt_add(&acc, pt);
            }
        }
        acc
    }
    pub(super) fn on_curve(&self, pt: &Pt, b: &F2) -> bool {
        match pt {
            None => true,
            Some((x, y)) => self.mul(y, y) == self.add(&self.mul(&self.mul(x, x), x), b),
        }
    }
}
