//! The Shallue–van de Woestijne map's constants (RFC 9380, §6.6.1) for hashing to G1 over Fp and to G2 over Fp2: Z by RFC 9380 Appendix H.1, then c1..c4.

use super::*;

/// Constants of the Shallue–van de Woestijne map (RFC 9380 §6.6.1) for y² = x³ + B (A = 0).
#[derive(Clone, Debug)]
pub struct SvdwConstants {
    /// Z, found by RFC 9380 Appendix H.1's `find_z_svdw`.
    pub z: F2,
    /// c1 = g(Z).
    pub c1: F2,
    /// c2 = −Z/2.
    pub c2: F2,
    /// c3 = sqrt(−g(Z)·3Z²) with sgn0(c3) = 0.
    pub c3: F2,
    /// c4 = −4·g(Z)/(3Z²).
    pub c4: F2,
}

impl Ctx {
    pub(super) fn is_square(&self, x: &F2) -> bool {
        let p = &self.p;
        let n = (&x.a * &x.a + &x.b * &x.b) % p;
        n.is_zero() || n.modpow(&((p - 1u32) >> 1), p).is_one()
    }
    pub(super) fn is_square_fp(&self, x: &F2) -> bool {
        x.a.is_zero() || x.a.modpow(&((&self.p - 1u32) >> 1), &self.p).is_one()
    }
    /// RFC 9380 §4.1 sgn0 for m = 1 and m = 2.
    pub(super) fn sgn0(x: &F2) -> bool {
        let s0 = x.a.is_odd();
        s0 || (x.a.is_zero() && x.b.is_odd())
    }
    /// `find_z_svdw` (RFC 9380 Appendix H.1) over Fp (`ext` false) or Fp2, A = 0, and the
    /// map's constants.
    pub(super) fn svdw(&self, b: &F2, ext: bool) -> SvdwConstants {
        let sq = |x: &F2| {
            if ext {
                self.is_square(x)
            } else {
                self.is_square_fp(x)
            }
        };
        let g = |x: &F2| self.add(&self.mul(&self.mul(x, x), x), b);
        let three = self.f(BigUint::from(3u32));
        let four = self.f(BigUint::from(4u32));
        let two_inv = self.inv(&self.f(BigUint::from(2u32)));
        let mut ctr = 1u32;
        let z = loop {
            let pos = self.f(BigUint::from(ctr));
            let cands = [pos.clone(), self.neg(&pos)];
            let found = cands.into_iter().find(|zc| {
                let gz = g(zc);
                if Self::is_zero(&gz) {
                    return false;
                }
                let num = self.neg(&self.mul(&three, &self.mul(zc, zc)));
                let h = self.mul(&num, &self.inv(&self.mul(&four, &gz)));
                if Self::is_zero(&h) || !sq(&h) {
                    return false;
                }
                let mz2 = self.neg(&self.mul(zc, &two_inv));
                sq(&gz) || sq(&g(&mz2))
            });
            if let Some(z) = found {
                break z;
            }
            ctr += 1;
        };
        let gz = g(&z);
        let tz2 = self.mul(&three, &self.mul(&z, &z));
        let c1 = gz.clone();
        let c2 = self.neg(&self.mul(&z, &two_inv));
        let c3 = self
            .sqrt(&self.neg(&self.mul(&gz, &tz2)))
            .expect("−g(Z)·3Z² is a square by the choice of Z");
        let c3 = if Self::sgn0(&c3) { self.neg(&c3) } else { c3 };
        let c4 = self.neg(&self.mul(&self.mul(&four, &gz), &self.inv(&tz2)));
        SvdwConstants { z, c1, c2, c3, c4 }
    }
}
