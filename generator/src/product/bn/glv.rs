//! The GLV/GLS scalar decompositions: a reduced lattice basis of the endomorphism's kernel and
//! Babai rounding with precomputed fixed-point constants (Gallant, Lambert and Vanstone,
//! CRYPTO 2001; Galbraith, Lin and Scott, EUROCRYPT 2009).

use super::*;
use crate::narrow::fit;

/// A lattice decomposition k ≡ Σ k_i·μ^i (mod r) for an endomorphism with eigenvalue μ, by
/// Babai rounding against a basis of {v : Σ v_i·μ^i ≡ 0 (mod r)} (GLV §4 for D = 2,
/// Galbraith–Scott for D = 4); the rounding constants are fixed-point (module docs of
/// `curves/bn/src/endo.rs`).
#[derive(Clone, Debug)]
pub struct Decomp {
    /// The basis rows b_j.
    pub basis: Vec<Vec<BigInt>>,
    /// |g_j| = round(2^shift·|a_j| / |det|), with β_j = k·a_j/|det| the exact coordinate.
    pub round: Vec<BigUint>,
    /// M\[j\]\[i\] = −sign(a_j)·b_j\[i\] mod r.
    pub mat: Vec<Vec<BigUint>>,
    /// The fixed-point shift, a multiple of 64.
    pub shift: u32,
    /// Every |k_i| is below 2^half_bits.
    pub half_bits: u32,
}

fn det(m: &[Vec<BigInt>]) -> BigInt {
    if m.len() == 1 {
        return m[0][0].clone();
    }
    let mut s = BigInt::zero();
    for j in 0..m.len() {
        let minor: Vec<Vec<BigInt>> = m[1..]
            .iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .filter(|(c, _)| *c != j)
                    .map(|(_, v)| v.clone())
                    .collect()
            })
            .collect();
        let t = &m[0][j] * det(&minor);
        if j % 2 == 0 {
            s += t;
        } else {
            s -= t;
        }
    }
    s
}

/// Checks the basis and derives the rounding constants; an error names what failed.
pub(super) fn decomposition(
    basis: Vec<Vec<BigInt>>,
    r: &BigUint,
    mu: &BigUint,
) -> Result<Decomp, BnError> {
    let d = basis.len();
    let rr = BigInt::from(r.clone());
    let mu_i = BigInt::from(mu.clone());
    for b in &basis {
        let mut s = BigInt::zero();
        let mut pw = BigInt::one();
        for v in b {
            s += v * &pw;
            pw = (pw * &mu_i) % &rr;
        }
        if !s.mod_floor(&rr).is_zero() {
            return Err(BnError::BadEndomorphism(
                "a lattice basis vector is not in the lattice",
            ));
        }
    }
    let dt = det(&basis);
    if dt.is_zero() {
        return Err(BnError::BadEndomorphism("singular lattice basis"));
    }
    // Row 0 of adj(B): the cofactors C_{j0} (delete row j, column 0).
    let a: Vec<BigInt> = (0..d)
        .map(|j| {
            if d == 1 {
                return BigInt::one();
            }
            let minor: Vec<Vec<BigInt>> = basis
                .iter()
                .enumerate()
                .filter(|(rw, _)| *rw != j)
                .map(|(_, row)| row[1..].to_vec())
                .collect();
            let c = det(&minor);
            let c = if j % 2 == 0 { c } else { -c };
            if dt.is_negative() {
                -c
            } else {
                c
            }
        })
        .collect();
    let dabs = dt.abs().to_biguint().unwrap();
    let limbs: u32 = fit(r.bits().div_ceil(64));
    let shift = 64 * (limbs + 1);
    let round: Vec<BigUint> = a
        .iter()
        .map(|aj| {
            let num = aj.abs().to_biguint().unwrap() << shift;
            (num + (&dabs >> 1u32)) / &dabs
        })
        .collect();
    let mat: Vec<Vec<BigUint>> = (0..d)
        .map(|j| {
            (0..d)
                .map(|i| {
                    let v = if a[j].is_negative() {
                        basis[j][i].clone()
                    } else {
                        -basis[j][i].clone()
                    };
                    mod_p(&v, r)
                })
                .collect()
        })
        .collect();
    let bound: BigUint = (0..d)
        .map(|i| {
            (0..d)
                .map(|j| basis[j][i].abs().to_biguint().unwrap())
                .fold(BigUint::zero(), |x, y| x + y)
        })
        .max()
        .unwrap();
    let half_bits: u32 = fit(bound.bits());
    let dec = Decomp {
        basis,
        round,
        mat,
        shift,
        half_bits,
    };
    // The fixed-point split of a spread of scalars: every half below 2^half_bits and
    // Σ k_i·μ^i ≡ k.
    let mut k = BigUint::zero();
    let step = (r / 97u32) + 12345u32;
    for _ in 0..100 {
        let ks = dec.split(&k, r);
        let mut s = BigInt::zero();
        let mut pw = BigInt::one();
        for ki in &ks {
            if ki.abs().bits() >= u64::from(half_bits) {
                return Err(BnError::BadEndomorphism("a half exceeds its bound"));
            }
            s += ki * &pw;
            pw = (pw * &mu_i) % &rr;
        }
        if mod_p(&s, r) != k {
            return Err(BnError::BadEndomorphism("the split does not rebuild k"));
        }
        k = (k + &step) % r;
    }
    let ks = dec.split(&(r - 1u32), r);
    if ks.iter().any(|x| x.abs().bits() >= u64::from(half_bits)) {
        return Err(BnError::BadEndomorphism("a half exceeds its bound"));
    }
    Ok(dec)
}

impl Decomp {
    /// The split of 0 ≤ k < r as the library computes it (signed halves).
    pub fn split(&self, k: &BigUint, r: &BigUint) -> Vec<BigInt> {
        let d = self.basis.len();
        let half = BigUint::one() << (self.shift - 1);
        let c: Vec<BigUint> = self
            .round
            .iter()
            .map(|g| (k * g + &half) >> self.shift)
            .collect();
        (0..d)
            .map(|i| {
                let mut v = if i == 0 { k.clone() } else { BigUint::zero() };
                for (cj, row) in c.iter().zip(&self.mat) {
                    v += cj * &row[i];
                }
                let v = v % r;
                if v > (r >> 1u32) {
                    -BigInt::from(r - v)
                } else {
                    BigInt::from(v)
                }
            })
            .collect()
    }
}

/// The reduced basis of {(x, y) : x + y·μ ≡ 0 (mod r)} by the extended Euclidean algorithm
/// (Gallant–Lambert–Vanstone, CRYPTO 2001, §4).
pub(super) fn glv_basis(r: &BigUint, mu: &BigUint) -> Vec<Vec<BigInt>> {
    let sqrt_r = r.sqrt();
    let (mut r0, mut r1) = (BigInt::from(r.clone()), BigInt::from(mu.clone()));
    let (mut t0, mut t1) = (BigInt::zero(), BigInt::one());
    let mut seq = vec![(r0.clone(), t0.clone()), (r1.clone(), t1.clone())];
    while !r1.is_zero() {
        let q = &r0 / &r1;
        let r2 = &r0 - &q * &r1;
        let t2 = &t0 - &q * &t1;
        r0 = r1;
        r1 = r2;
        t0 = t1;
        t1 = t2;
        seq.push((r1.clone(), t1.clone()));
    }
    let sq = BigInt::from(sqrt_r);
    let m = seq.iter().rposition(|(ri, _)| *ri >= sq).unwrap();
    let v = |i: usize| vec![seq[i].0.clone(), -seq[i].1.clone()];
    let norm = |x: &Vec<BigInt>| &x[0] * &x[0] + &x[1] * &x[1];
    let v1 = v(m + 1);
    let (a, b) = (v(m), v(m + 2));
    let v2 = if norm(&a) <= norm(&b) { a } else { b };
    vec![v1, v2]
}
