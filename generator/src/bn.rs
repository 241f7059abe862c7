//! BN curves from their parameter z: every constant of a Barreto–Naehrig curve, its sextic
//! twist, its tower Fp2/Fp6/Fp12 and its optimal ate pairing, derived with num-bigint from
//! (z, b, ξ_a) and written as one Rust source file per curve into `curves/bn/src/params/`.
//!
//! Family (Barreto and Naehrig, "Pairing-friendly elliptic curves of prime order", SAC 2005):
//! p(z) = 36z⁴ + 36z³ + 24z² + 6z + 1, r(z) = 36z⁴ + 36z³ + 18z² + 6z + 1, E: y² = x³ + b over
//! Fp with #E(Fp) = r. Tower (mcl's): Fp2 = Fp\[i\]/(i² + 1), ξ = ξ_a + i, Fp6 = Fp2\[v\]/(v³ − ξ),
//! Fp12 = Fp6\[w\]/(w² − v), so w⁶ = ξ; the D-type twist E′: y² = x³ + b/ξ over Fp2 has
//! #E′(Fp2) = r·(2p − r).
//!
//! Checks, each a [`BnError`]: p and r prime (Baillie–PSW), z odd (p ≡ 3 mod 4, so i² = −1 makes
//! a field), ξ neither a square nor a cube in Fp2 (a sextic non-residue), the G1 generator of
//! order r (else b selects a twist of the wrong order) and the G2 generator of order r on E′.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

use crate::spec::is_probable_prime;

/// A published generator pair, as decimal strings (an Fp2 value a + b·i as [a, b]).
#[derive(Clone, Copy, Debug)]
pub struct PublishedGenerators {
    /// G1 (x, y); x may be negative ("-1").
    pub g1: (&'static str, &'static str),
    /// G2 x = [a, b], y = [a, b].
    pub g2: ([&'static str; 2], [&'static str; 2]),
    /// Where they are published.
    pub source: &'static str,
}

/// A named BN curve: its inputs and where its code goes.
#[derive(Clone, Copy, Debug)]
pub struct BnPreset {
    /// File stem and module name (`bn254`).
    pub module: &'static str,
    /// The marker type (`Bn254`).
    pub type_name: &'static str,
    /// The display name.
    pub display: &'static str,
    /// What the curve is known as elsewhere.
    pub aliases: &'static str,
    /// z in decimal or `0x` hex with an optional leading minus sign.
    pub z: &'static str,
    /// The curve constant b.
    pub b: u64,
    /// ξ = ξ_a + i.
    pub xi_a: u64,
    /// The generated field presets of p and r (`bn254-p`, `bn254-r`): module stems.
    pub fp_module: &'static str,
    /// The scalar field module stem.
    pub fr_module: &'static str,
    /// The standard's generators, when one fixes them.
    pub generators: Option<PublishedGenerators>,
}

/// The four curves of mcl's `CurveParam` (herumi/mcl include/mcl/curve_type.hpp).
pub const BN_PRESETS: &[BnPreset] = &[
    BnPreset {
        module: "bn254",
        type_name: "Bn254",
        display: "BN254",
        aliases: "alt_bn128, Ethereum's EIP-196/197 curve, mcl BN_SNARK1",
        z: "4965661367192848881",
        b: 3,
        xi_a: 9,
        fp_module: "bn254_p",
        fr_module: "bn254_r",
        generators: Some(PublishedGenerators {
            g1: ("1", "2"),
            g2: (
                [
                    "10857046999023057135944570762232829481370756359578518086990519993285655852781",
                    "11559732032986387107991004021392285783925812861821192530917403151452391805634",
                ],
                [
                    "8495653923123431417604973247489272438418190587263600148770280649306958101930",
                    "4082367875863433681332203403145435568316851327593401208105741076214120093531",
                ],
            ),
            source: "EIP-197 (P1 = (1, 2), P2 as specified there)",
        }),
    },
    BnPreset {
        module: "fp254bnb",
        type_name: "Fp254Bnb",
        display: "Fp254BNb",
        aliases: "mcl CurveFp254BNb (mcl's \"BN254\"), Nogami et al.'s z = -(2^62 + 2^55 + 1)",
        z: "-0x4080000000000001",
        b: 2,
        xi_a: 1,
        fp_module: "fp254bnb_p",
        fr_module: "fp254bnb_r",
        generators: Some(PublishedGenerators {
            g1: ("-1", "1"),
            g2: (
                [
                    "12723517038133731887338407189719511622662176727675373276651903807414909099441",
                    "4168783608814932154536427934509895782246573715297911553964171371032945126671",
                ],
                [
                    "13891744915211034074451795021214165905772212241412891944830863846330766296736",
                    "7937318970632701341203597196594272556916396164729705624521405069090520231616",
                ],
            ),
            source: "mcl test/bn_test.cpp (g_testSetTbl, the points of its BN254 pairing test)",
        }),
    },
    BnPreset {
        module: "bn381",
        type_name: "Bn381",
        display: "BN381_1",
        aliases: "mcl CurveFp381",
        z: "-0x400011000000000000000001",
        b: 2,
        xi_a: 1,
        fp_module: "bn381_p",
        fr_module: "bn381_r",
        generators: None,
    },
    BnPreset {
        module: "bn462",
        type_name: "Bn462",
        display: "BN462",
        aliases: "mcl CurveFp462",
        z: "0x4001fffffffffffffffffffffbfff",
        b: 5,
        xi_a: 2,
        fp_module: "bn462_p",
        fr_module: "bn462_r",
        generators: None,
    },
];

/// Why (z, b, ξ_a) does not make a BN curve with this tower.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BnError {
    /// z could not be read.
    BadZ(String),
    /// z = 0.
    ZeroZ,
    /// p(z) is not prime.
    PNotPrime(BigUint),
    /// r(z) is not prime.
    RNotPrime(BigUint),
    /// z even: p ≡ 1 mod 4, −1 is a square and Fp\[i\]/(i² + 1) is not a field.
    ZEven,
    /// ξ = ξ_a + i is a square or a cube in Fp2.
    XiNotSexticNonResidue(u64),
    /// b = 0 mod p or E: y² = x³ + b has no point of order r (b picks another twist).
    NoPointsOfOrderR(u64),
    /// A published generator is off the curve or not of order r.
    BadPublishedGenerator(&'static str),
    /// An endomorphism constant failed its check (a bug in the derivation, not an input
    /// condition).
    BadEndomorphism(&'static str),
}

impl fmt::Display for BnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BnError::BadZ(s) => write!(f, "z `{s}` is not a decimal or 0x-hex integer"),
            BnError::ZeroZ => write!(f, "z = 0 gives p = 1"),
            BnError::PNotPrime(p) => write!(f, "p(z) = {p} is not prime"),
            BnError::RNotPrime(r) => write!(f, "r(z) = {r} is not prime"),
            BnError::ZEven => write!(
                f,
                "z is even: p = 1 mod 4, so -1 is a square and Fp[i]/(i^2 + 1) is not a field"
            ),
            BnError::XiNotSexticNonResidue(a) => write!(
                f,
                "xi = {a} + i is a square or a cube in Fp2, not a sextic non-residue: Fp6/Fp12 cannot be built over it"
            ),
            BnError::NoPointsOfOrderR(b) => write!(
                f,
                "y^2 = x^3 + {b} has no point of order r over Fp (its order is not r: try another b)"
            ),
            BnError::BadEndomorphism(w) => write!(f, "endomorphism constants: {w}"),
            BnError::BadPublishedGenerator(w) => {
                write!(f, "the published {w} generator is off the curve or not of order r")
            }
        }
    }
}

impl std::error::Error for BnError {}

/// An element a + b·i of Fp2, canonical.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct F2 {
    /// Real part.
    pub a: BigUint,
    /// Imaginary part.
    pub b: BigUint,
}

/// Fp and Fp2 arithmetic modulo p (the slow reference the derivations use).
struct Ctx {
    p: BigUint,
}

impl Ctx {
    fn f(&self, a: BigUint) -> F2 {
        F2 {
            a: a % &self.p,
            b: BigUint::zero(),
        }
    }
    fn add(&self, x: &F2, y: &F2) -> F2 {
        F2 {
            a: (&x.a + &y.a) % &self.p,
            b: (&x.b + &y.b) % &self.p,
        }
    }
    fn neg(&self, x: &F2) -> F2 {
        F2 {
            a: (&self.p - &x.a) % &self.p,
            b: (&self.p - &x.b) % &self.p,
        }
    }
    fn sub(&self, x: &F2, y: &F2) -> F2 {
        self.add(x, &self.neg(y))
    }
    fn mul(&self, x: &F2, y: &F2) -> F2 {
        let p = &self.p;
        let re = (&x.a * &y.a + p * p - (&x.b * &y.b) % (p * p)) % p;
        let im = (&x.a * &y.b + &x.b * &y.a) % p;
        F2 { a: re, b: im }
    }
    fn pow(&self, x: &F2, e: &BigUint) -> F2 {
        let mut acc = self.f(BigUint::one());
        for i in (0..e.bits()).rev() {
            acc = self.mul(&acc, &acc);
            if e.bit(i) {
                acc = self.mul(&acc, x);
            }
        }
        acc
    }
    fn inv(&self, x: &F2) -> F2 {
        // 1/(a + bi) = (a − bi)/(a² + b²).
        let p = &self.p;
        let n = (&x.a * &x.a + &x.b * &x.b) % p;
        let ni = n.modpow(&(p - 2u32), p);
        F2 {
            a: (&x.a * &ni) % p,
            b: ((p - &x.b) * &ni) % p,
        }
    }
    fn is_zero(x: &F2) -> bool {
        x.a.is_zero() && x.b.is_zero()
    }
    /// A square root in Fp (p ≡ 3 mod 4): a^((p+1)/4), checked.
    fn sqrt_fp(&self, a: &BigUint) -> Option<BigUint> {
        let s = a.modpow(&((&self.p + 1u32) >> 2), &self.p);
        ((&s * &s) % &self.p == a % &self.p).then_some(s)
    }
    /// A square root in Fp2 through the norm: with n = a² + b² = s², x0² = (a ± s)/2 and
    /// x1 = b/(2·x0).
    fn sqrt(&self, x: &F2) -> Option<F2> {
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
type Pt = Option<(F2, F2)>;

impl Ctx {
    fn pt_add(&self, p1: &Pt, p2: &Pt) -> Pt {
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
    fn pt_mul(&self, pt: &Pt, k: &BigUint) -> Pt {
        let mut acc: Pt = None;
        for i in (0..k.bits()).rev() {
            acc = self.pt_add(&acc, &acc);
            if k.bit(i) {
                acc = self.pt_add(&acc, pt);
            }
        }
        acc
    }
    fn on_curve(&self, pt: &Pt, b: &F2) -> bool {
        match pt {
            None => true,
            Some((x, y)) => self.mul(y, y) == self.add(&self.mul(&self.mul(x, x), x), b),
        }
    }
}

/// Every derived constant of one BN curve.
#[derive(Clone, Debug)]
pub struct BnConstants {
    /// z.
    pub z: BigInt,
    /// b.
    pub b: u64,
    /// ξ_a.
    pub xi_a: u64,
    /// p(z).
    pub p: BigUint,
    /// r(z).
    pub r: BigUint,
    /// b′ = b/ξ, the D-type twist's constant.
    pub b_twist: F2,
    /// γ1\[k\] = ξ^(k(p−1)/6), k = 0..5: w^(kp) = γ1\[k\]·w^k.
    pub frob1: Vec<F2>,
    /// γ2\[k\] = ξ^(k(p²−1)/6) (in Fp).
    pub frob2: Vec<F2>,
    /// γ3\[k\] = ξ^(k(p³−1)/6).
    pub frob3: Vec<F2>,
    /// Non-adjacent form of |6z + 2|, least significant digit first.
    pub ate_naf: Vec<i8>,
    /// The G2 cofactor 2p − r.
    pub h2: BigUint,
    /// G1 generator.
    pub g1: (BigUint, BigUint),
    /// G2 generator.
    pub g2: (F2, F2),
    /// Where the generators come from.
    pub generator_rule: String,
    /// β, a primitive cube root of unity in Fp with (β·x, y) = \[λ\](x, y) on G1.
    pub beta: BigUint,
    /// λ in Fr, the eigenvalue of (x, y) ↦ (β·x, y) on G1.
    pub lambda: BigUint,
    /// The 2-dimensional GLV decomposition for λ.
    pub glv: Decomp,
    /// The 4-dimensional GLS decomposition for ψ (eigenvalue p mod r on G2).
    pub gls: Decomp,
    /// SvdW constants for E(Fp).
    pub svdw1: SvdwConstants,
    /// SvdW constants for E′(Fp2).
    pub svdw2: SvdwConstants,
}

fn parse_int(s: &str) -> Result<BigInt, BnError> {
    let t = s.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let mag = if let Some(h) = body.strip_prefix("0x") {
        BigUint::parse_bytes(h.as_bytes(), 16)
    } else {
        BigUint::parse_bytes(body.as_bytes(), 10)
    }
    .ok_or_else(|| BnError::BadZ(s.to_string()))?;
    Ok(BigInt::from_biguint(
        if neg { Sign::Minus } else { Sign::Plus },
        mag,
    ))
}

fn mod_p(x: &BigInt, p: &BigUint) -> BigUint {
    x.mod_floor(&BigInt::from(p.clone())).to_biguint().unwrap()
}

/// Non-adjacent form of n, least significant digit first.
pub fn naf(n: &BigUint) -> Vec<i8> {
    let mut n = BigInt::from(n.clone());
    let mut out = Vec::new();
    while !n.is_zero() {
        if n.is_odd() {
            let m4 = (&n % 4u32).to_u32_digits().1.first().copied().unwrap_or(0);
            let d: i8 = if m4 == 1 { 1 } else { -1 };
            n -= d;
            out.push(d);
        } else {
            out.push(0);
        }
        n >>= 1;
    }
    out
}

/// Derives every constant of the BN curve (z, b, ξ_a); `published` fixes the generators (checked),
/// otherwise the rule of [`BnConstants::generator_rule`] picks them.
pub fn derive(
    z: &str,
    b: u64,
    xi_a: u64,
    published: Option<&PublishedGenerators>,
) -> Result<BnConstants, BnError> {
    let z = parse_int(z)?;
    if z.is_zero() {
        return Err(BnError::ZeroZ);
    }
    let z2 = &z * &z;
    let z3 = &z2 * &z;
    let z4 = &z3 * &z;
    let p: BigInt = BigInt::from(36) * &z4
        + BigInt::from(36) * &z3
        + BigInt::from(24) * &z2
        + BigInt::from(6) * &z
        + BigInt::one();
    let r: BigInt = BigInt::from(36) * &z4
        + BigInt::from(36) * &z3
        + BigInt::from(18) * &z2
        + BigInt::from(6) * &z
        + BigInt::one();
    let p = p.to_biguint().unwrap();
    let r = r.to_biguint().unwrap();
    if !is_probable_prime(&p) {
        return Err(BnError::PNotPrime(p));
    }
    if !is_probable_prime(&r) {
        return Err(BnError::RNotPrime(r));
    }
    if z.is_even() {
        return Err(BnError::ZEven);
    }
    let c = Ctx { p: p.clone() };
    let one = c.f(BigUint::one());
    let xi = F2 {
        a: BigUint::from(xi_a) % &p,
        b: BigUint::one(),
    };
    let p2m1 = &p * &p - 1u32;
    if c.pow(&xi, &(&p2m1 / 2u32)) == one || c.pow(&xi, &(&p2m1 / 3u32)) == one {
        return Err(BnError::XiNotSexticNonResidue(xi_a));
    }
    let bf = c.f(BigUint::from(b));
    if bf.a.is_zero() {
        return Err(BnError::NoPointsOfOrderR(b));
    }
    let b_twist = c.mul(&bf, &c.inv(&xi));
    let frob = |e: BigUint| -> Vec<F2> {
        let g = c.pow(&xi, &(e / 6u32));
        let mut v = vec![one.clone()];
        for k in 1..6 {
            v.push(c.mul(&v[k - 1], &g));
        }
        v
    };
    let frob1 = frob(&p - 1u32);
    let frob2 = frob(&p * &p - 1u32);
    let frob3 = frob(&p * &p * &p - 1u32);
    let six_z_2 = (BigInt::from(6) * &z + BigInt::from(2))
        .abs()
        .to_biguint()
        .unwrap();
    let ate_naf = naf(&six_z_2);
    let h2: BigUint = &p + &p - &r;

    let (g1, g2, rule) = if let Some(g) = published {
        let g1x = mod_p(&parse_int(g.g1.0).unwrap(), &p);
        let g1y = mod_p(&parse_int(g.g1.1).unwrap(), &p);
        let f2 = |s: [&str; 2]| F2 {
            a: mod_p(&parse_int(s[0]).unwrap(), &p),
            b: mod_p(&parse_int(s[1]).unwrap(), &p),
        };
        let g1 = (g1x, g1y);
        let g2 = (f2(g.g2.0), f2(g.g2.1));
        let pt1: Pt = Some((c.f(g1.0.clone()), c.f(g1.1.clone())));
        if !c.on_curve(&pt1, &bf) || c.pt_mul(&pt1, &r).is_some() {
            return Err(if c.pt_mul(&pt1, &r).is_some() && c.on_curve(&pt1, &bf) {
                BnError::NoPointsOfOrderR(b)
            } else {
                BnError::BadPublishedGenerator("G1")
            });
        }
        let pt2: Pt = Some(g2.clone());
        if !c.on_curve(&pt2, &b_twist) || c.pt_mul(&pt2, &r).is_some() {
            return Err(BnError::BadPublishedGenerator("G2"));
        }
        (g1, g2, format!("published: {}", g.source))
    } else {
        // G1: x = −1, 1, 2, 3, … first with x³ + b a square; y the smaller root. The group
        // has prime order r, so any point generates it.
        let mut found = None;
        let cands = std::iter::once(BigInt::from(-1)).chain((1..1000).map(BigInt::from));
        for x in cands {
            let xm = mod_p(&x, &p);
            let rhs = (&xm * &xm * &xm + b) % &p;
            if let Some(y) = c.sqrt_fp(&rhs) {
                let y = y.clone().min(&p - &y);
                found = Some((xm, y));
                break;
            }
        }
        let g1 = found.ok_or(BnError::NoPointsOfOrderR(b))?;
        let pt1: Pt = Some((c.f(g1.0.clone()), c.f(g1.1.clone())));
        if c.pt_mul(&pt1, &r).is_some() {
            return Err(BnError::NoPointsOfOrderR(b));
        }
        // G2: x = k + i for k = 0, 1, 2, … first with x³ + b′ a square in Fp2, y the root
        // with the smaller (imaginary, real) pair, then cleared by the cofactor 2p − r.
        let mut g2 = None;
        for k in 0u32..1000 {
            let x = F2 {
                a: BigUint::from(k),
                b: BigUint::one(),
            };
            let rhs = c.add(&c.mul(&c.mul(&x, &x), &x), &b_twist);
            if let Some(y) = c.sqrt(&rhs) {
                let ny = c.neg(&y);
                let y = if (&ny.b, &ny.a) < (&y.b, &y.a) { ny } else { y };
                let q = c.pt_mul(&Some((x, y)), &h2);
                if q.is_some() {
                    if c.pt_mul(&q, &r).is_some() {
                        return Err(BnError::NoPointsOfOrderR(b));
                    }
                    g2 = q;
                    break;
                }
            }
        }
        let g2 = g2.ok_or(BnError::NoPointsOfOrderR(b))?;
        (
            g1,
            g2,
            "derived: G1 = (x, y) for the first x in -1, 1, 2, 3, ... with x^3 + b a square, y the smaller root; G2 = (2p - r)·(x, y) for the first x = k + i, k = 0, 1, 2, ..., with x^3 + b' a square in Fp2, y the root with the smaller (imaginary, real) pair".to_string(),
        )
    };
    // GLV on G1: β = a^((p−1)/3) ≠ 1 for the first a = 2, 3, …; λ the root of
    // λ² + λ + 1 in Fr with φ(G1) = λ·G1 (checked on the generator).
    let third = |m: &BigUint| -> BigUint {
        let mut a = BigUint::from(2u32);
        loop {
            let w = a.modpow(&((m - 1u32) / 3u32), m);
            if !w.is_one() {
                return w;
            }
            a += 1u32;
        }
    };
    let beta = third(&p);
    let l0 = third(&r);
    let g1pt: Pt = Some((c.f(g1.0.clone()), c.f(g1.1.clone())));
    let phi_g1: Pt = Some((c.f((&beta * &g1.0) % &p), c.f(g1.1.clone())));
    let lambda = [l0.clone(), (&l0 * &l0) % &r]
        .into_iter()
        .find(|l| c.pt_mul(&g1pt, l) == phi_g1)
        .ok_or(BnError::BadEndomorphism(
            "no cube root λ of unity matches β",
        ))?;
    let glv = decomposition(glv_basis(&r, &lambda), &r, &lambda)?;
    // GLS on G2: ψ acts as p; the basis of Galbraith and Scott ("Exponentiation in
    // pairing-friendly groups using homomorphisms", Pairing 2008, §6, BN curves), a sublattice
    // of index 3, checked by `decomposition`.
    let one_i = BigInt::one();
    let z2p = &z + &z;
    let gs = vec![
        vec![&z + &one_i, z.clone(), z.clone(), -z2p.clone()],
        vec![&z2p + &one_i, -z.clone(), -(&z + &one_i), -z.clone()],
        vec![z2p.clone(), &z2p + &one_i, &z2p + &one_i, &z2p + &one_i],
        vec![
            &z - &one_i,
            BigInt::from(4) * &z + 2,
            -&z2p + 1,
            &z - &one_i,
        ],
    ];
    let gls = decomposition(gs, &r, &(&p % &r))?;
    let svdw1 = c.svdw(&bf, false);
    let svdw2 = c.svdw(&b_twist, true);
    Ok(BnConstants {
        beta,
        lambda,
        glv,
        gls,
        svdw1,
        svdw2,
        z,
        b,
        xi_a,
        p,
        r,
        b_twist,
        frob1,
        frob2,
        frob3,
        ate_naf,
        h2,
        g1,
        g2,
        generator_rule: rule,
    })
}

fn hex(x: &BigUint, bytes: usize) -> String {
    format!("0x{:0width$x}", x, width = 2 * bytes)
}

fn words(x: &BigUint) -> String {
    let w: Vec<String> = x
        .to_u64_digits()
        .iter()
        .map(|d| format!("0x{d:016x}"))
        .collect();
    format!("&[{}]", w.join(", "))
}

impl BnConstants {
    /// The Rust source of `curves/bn/src/params/<module>.rs`: the marker type and its
    /// `BnParams` impl over the generated fields `fp_module`, `fr_module` (64-bit limbs on
    /// 64-bit targets, 32-bit elsewhere).
    pub fn to_rust(
        &self,
        type_name: &str,
        display: &str,
        aliases: &str,
        fp_module: &str,
        fr_module: &str,
    ) -> String {
        let nb = self.p.bits().div_ceil(8) as usize;
        let fp = |x: &BigUint| format!("fp(\"{}\")", hex(x, nb));
        let nr = self.r.bits().div_ceil(8) as usize;
        let fr = |x: &BigUint| format!("fr(\"{}\")", hex(x, nr));
        let f2 = |x: &F2| format!("fp2(\"{}\", \"{}\")", hex(&x.a, nb), hex(&x.b, nb));
        let arr = |v: &[F2]| {
            let items: Vec<String> = v.iter().map(|x| format!("        {},\n", f2(x))).collect();
            format!("[\n{}    ]", items.concat())
        };
        let b3 = (BigUint::from(self.b) * 3u32) % &self.p;
        let c = Ctx { p: self.p.clone() };
        let b3t = c.mul(&c.f(BigUint::from(3u32)), &self.b_twist);
        let naf: Vec<String> = self.ate_naf.iter().map(|d| d.to_string()).collect();
        let zabs = self.z.abs().to_biguint().unwrap();
        let mut s = String::new();
        s += "// @generated by `cargo run -p generator -- regen`. Do not edit.\n";
        s += &format!(
            "//! {display} ({aliases}): the constants of the BN curve with z = {z}, b = {b}, \
             ξ = {xa} + i, derived by the generator (generator/src/bn.rs).\n//!\n",
            z = self.z,
            b = self.b,
            xa = self.xi_a
        );
        s += &format!("//! p = {:#x} ({} bits)\n", self.p, self.p.bits());
        s += &format!("//! r = {:#x} ({} bits)\n", self.r, self.r.bits());
        s += &format!(
            "//! 6z + 2 = {}\n",
            BigInt::from(6) * &self.z + BigInt::from(2)
        );
        s += &format!("//! Generators: {}.\n\n", self.generator_rule);
        s += &format!(
            "#[cfg(target_pointer_width = \"64\")]\nuse fieldgen_generated::{{{fp_module}_64::Fp, {fr_module}_64::Fr}};\n"
        );
        s += &format!(
            "#[cfg(not(target_pointer_width = \"64\"))]\nuse fieldgen_generated::{{{fp_module}_32::Fp, {fr_module}_32::Fr}};\n\n"
        );
        s += "use crate::endo::Decomposition;\nuse crate::fp2::Fp2;\nuse crate::hash::Svdw;\nuse crate::BnParams;\n\n";
        s += "const fn fp(h: &str) -> Fp {\n    match Fp::from_hex_vartime(h) {\n        Some(x) => x,\n        None => panic!(\"constant not below p\"),\n    }\n}\n\n";
        s += "const fn fp2(a: &str, b: &str) -> Fp2<Fp> {\n    Fp2::new(fp(a), fp(b))\n}\n\n";
        s += "const fn fr(h: &str) -> Fr {\n    match Fr::from_hex_vartime(h) {\n        Some(x) => x,\n        None => panic!(\"constant not below r\"),\n    }\n}\n\n";
        s += &format!(
            "/// {display} ({aliases}): z = {}, b = {}, ξ = {} + i.\n",
            self.z, self.b, self.xi_a
        );
        s += &format!(
            "#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]\npub struct {type_name};\n\n"
        );
        s += &format!("impl BnParams for {type_name} {{\n");
        s += "    type Fp = Fp;\n    type Fr = Fr;\n";
        s += &format!("    const NAME: &'static str = \"{display}\";\n");
        s += &format!("    const Z_ABS: u128 = {:#x};\n", zabs);
        s += &format!("    const Z_NEG: bool = {};\n", self.z.is_negative());
        s += &format!(
            "    const ATE_NAF: &'static [i8] = &[{}];\n",
            naf.join(", ")
        );
        s += &format!("    const XI_A: u32 = {};\n", self.xi_a);
        s += &format!("    const B: Fp = {};\n", fp(&BigUint::from(self.b)));
        s += &format!("    const B3: Fp = {};\n", fp(&b3));
        s += &format!("    const B_TWIST: Fp2<Fp> = {};\n", f2(&self.b_twist));
        s += &format!("    const B3_TWIST: Fp2<Fp> = {};\n", f2(&b3t));
        s += &format!("    const FROB1: [Fp2<Fp>; 6] = {};\n", arr(&self.frob1));
        s += &format!("    const FROB2: [Fp2<Fp>; 6] = {};\n", arr(&self.frob2));
        s += &format!("    const FROB3: [Fp2<Fp>; 6] = {};\n", arr(&self.frob3));
        s += &format!("    const G1_X: Fp = {};\n", fp(&self.g1.0));
        s += &format!("    const G1_Y: Fp = {};\n", fp(&self.g1.1));
        s += &format!("    const G2_X: Fp2<Fp> = {};\n", f2(&self.g2.0));
        s += &format!("    const G2_Y: Fp2<Fp> = {};\n", f2(&self.g2.1));
        s += &format!("    const R_WORDS: &'static [u64] = {};\n", words(&self.r));
        s += &format!(
            "    const G2_COFACTOR_WORDS: &'static [u64] = {};\n",
            words(&self.h2)
        );
        s += &format!("    const BETA: Fp = {};\n", fp(&self.beta));
        s += &format!("    const LAMBDA: Fr = {};\n", fr(&self.lambda));
        s += &format!(
            "    const GLV: Decomposition<Fr, 2> = {};\n",
            self.glv.to_rust(&fr)
        );
        s += &format!(
            "    const GLS: Decomposition<Fr, 4> = {};\n",
            self.gls.to_rust(&fr)
        );
        let sv = |v: &SvdwConstants, f: &dyn Fn(&F2) -> String| {
            format!(
                "Svdw {{ z: {}, c1: {}, c2: {}, c3: {}, c4: {} }}",
                f(&v.z),
                f(&v.c1),
                f(&v.c2),
                f(&v.c3),
                f(&v.c4)
            )
        };
        s += &format!(
            "    const SVDW_G1: Svdw<Fp> = {};\n",
            sv(&self.svdw1, &|x: &F2| fp(&x.a))
        );
        s += &format!(
            "    const SVDW_G2: Svdw<Fp2<Fp>> = {};\n",
            sv(&self.svdw2, &f2)
        );
        s += &format!(
            "    const HASH_FIELD_BYTES: usize = {};\n",
            (self.p.bits() + 128).div_ceil(8)
        );
        s += "}\n";
        s
    }
}

impl Decomp {
    fn to_rust(&self, fr: &dyn Fn(&BigUint) -> String) -> String {
        let round: Vec<String> = self.round.iter().map(words).collect();
        let mat: Vec<String> = self
            .mat
            .iter()
            .map(|row| {
                let v: Vec<String> = row.iter().map(fr).collect();
                format!("[{}]", v.join(", "))
            })
            .collect();
        format!(
            "Decomposition {{ round: [{}], shift: {}, mat: [{}], half_bits: {} }}",
            round.join(", "),
            self.shift,
            mat.join(", "),
            self.half_bits
        )
    }
}

impl BnPreset {
    /// Derives this preset's constants.
    pub fn derive(&self) -> Result<BnConstants, BnError> {
        derive(self.z, self.b, self.xi_a, self.generators.as_ref())
    }
    /// The emitted file.
    pub fn to_rust(&self) -> Result<String, BnError> {
        Ok(self.derive()?.to_rust(
            self.type_name,
            self.display,
            self.aliases,
            self.fp_module,
            self.fr_module,
        ))
    }
}

/// Every file regen owns under `curves/bn/`, relative to it.
pub fn expected_files() -> Result<BTreeMap<PathBuf, String>, String> {
    let mut files = BTreeMap::new();
    for p in BN_PRESETS {
        let text = p.to_rust().map_err(|e| format!("{}: {e}", p.display))?;
        files.insert(PathBuf::from(format!("src/params/{}.rs", p.module)), text);
    }
    Ok(files)
}

/// Differences between `dir` (the `curves/bn` crate) and what regen writes.
pub fn check(dir: &Path) -> Result<Vec<String>, String> {
    let mut problems = Vec::new();
    for (rel, text) in expected_files()? {
        match std::fs::read_to_string(dir.join(&rel)) {
            Ok(on_disk) if on_disk == text => {}
            Ok(_) => problems.push(format!("differs: curves/bn/{}", rel.display())),
            Err(_) => problems.push(format!("missing: curves/bn/{}", rel.display())),
        }
    }
    Ok(problems)
}

/// Writes the parameter files under `dir` (the `curves/bn` crate).
pub fn write(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let files = expected_files()?;
    std::fs::create_dir_all(dir.join("src/params")).map_err(|e| e.to_string())?;
    let mut written = Vec::new();
    for (rel, text) in files {
        let path = dir.join(&rel);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        written.push(rel);
    }
    Ok(written)
}

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
fn decomposition(basis: Vec<Vec<BigInt>>, r: &BigUint, mu: &BigUint) -> Result<Decomp, BnError> {
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
    let limbs = r.bits().div_ceil(64) as u32;
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
    let half_bits = bound.bits() as u32;
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
            if ki.abs().bits() as u32 >= half_bits {
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
    if ks.iter().any(|x| x.abs().bits() as u32 >= half_bits) {
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
fn glv_basis(r: &BigUint, mu: &BigUint) -> Vec<Vec<BigInt>> {
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
    fn is_square(&self, x: &F2) -> bool {
        let p = &self.p;
        let n = (&x.a * &x.a + &x.b * &x.b) % p;
        n.is_zero() || n.modpow(&((p - 1u32) >> 1), p).is_one()
    }
    fn is_square_fp(&self, x: &F2) -> bool {
        x.a.is_zero() || x.a.modpow(&((&self.p - 1u32) >> 1), &self.p).is_one()
    }
    /// RFC 9380 §4.1 sgn0 for m = 1 and m = 2.
    fn sgn0(x: &F2) -> bool {
        let s0 = x.a.is_odd();
        s0 || (x.a.is_zero() && x.b.is_odd())
    }
    /// `find_z_svdw` (RFC 9380 Appendix H.1) over Fp (`ext` false) or Fp2, A = 0, and the
    /// map's constants.
    fn svdw(&self, b: &F2, ext: bool) -> SvdwConstants {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_derive() {
        for p in BN_PRESETS {
            let c = p.derive().unwrap();
            // w^6 = ξ, so γ1[1]^6 = ξ^(p−1); and γ2 lies in Fp.
            assert!(c.frob2.iter().all(|g| g.b.is_zero()), "{}", p.display);
            assert_eq!(c.ate_naf.last(), Some(&1));
        }
    }

    /// BN254's SvdW constants against published ones: G1 from constantine
    /// (constantine/math/curves/bn254_snarks_hash_to_curve_g1.nim), G2 from gnark-crypto
    /// (ecc/bn254/hash_to_g2.go, converted out of Montgomery form).
    #[test]
    fn svdw_constants_match_published() {
        let c = BN_PRESETS[0].derive().unwrap();
        let h = |s: &str| BigUint::parse_bytes(s.as_bytes(), 16).unwrap();
        let s1 = &c.svdw1;
        assert_eq!(s1.z.a, BigUint::one());
        assert_eq!(s1.c1.a, BigUint::from(4u32));
        assert_eq!(
            s1.c2.a,
            h("183227397098d014dc2822db40c0ac2ecbc0b548b438e5469e10460b6c3e7ea3")
        );
        assert_eq!(
            s1.c3.a,
            h("16789af3a83522eb353c98fc6b36d713d5d8d1cc5dffffffa")
        );
        assert_eq!(
            s1.c4.a,
            h("10216f7ba065e00de81ac1e7808072c9dd2b2385cd7b438469602eb24829a9bd")
        );
        let s2 = &c.svdw2;
        assert_eq!(
            (s2.z.a.clone(), s2.z.b.clone()),
            (BigUint::one(), BigUint::zero())
        );
        assert_eq!(
            s2.c3.a,
            h("29fd332ab7260112b801fa95b21af64e2e6da55f90a3e510fcbe57377b5ca1ec")
        );
        assert_eq!(
            s2.c3.b,
            h("303d1eff1426764bf8408aee24ba0b865e76f77b1267a846b1e9154d01565034")
        );
        assert_eq!(
            s2.c4.a,
            h("17365bbe63b1d2078632fe0eb2ac5a41b4e6a9c08b98676721010b008d4eaf99")
        );
        assert_eq!(
            s2.c4.b,
            h("f57ffe5fc79e19cd689d7aa4209cad8fe164d7f4694786b388732a995d03755")
        );
        // GLV: β·x on G1 is λ·P (checked in derive); λ is a cube root of unity mod r.
        let l = &c.lambda;
        assert_eq!((l * l * l) % &c.r, BigUint::one());
    }

    #[test]
    fn errors() {
        assert!(matches!(
            derive("2", 3, 9, None),
            Err(BnError::PNotPrime(_)) | Err(BnError::RNotPrime(_))
        ));
        // Some small ξ_a makes ξ_a + i a square or a cube in Fp2 (about five in six do); the
        // check must reject it. ξ_a = 0 gives ξ = i = ((1 + i)²/2), a square.
        assert_eq!(
            derive("-0x4080000000000001", 2, 0, None).err(),
            Some(BnError::XiNotSexticNonResidue(0))
        );
        // An even z: 6z + 1 is then 1 mod 4 (z = 2 is filtered by the primality checks first,
        // so look for the first even z with p and r prime is not needed: the ZEven check
        // runs after them, and the message is tested through Display).
        assert!(BnError::ZEven.to_string().contains("even"));
        assert_eq!(
            derive("-0x4080000000000001", 3, 1, None).err(),
            Some(BnError::NoPointsOfOrderR(3))
        );
    }
}
