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

mod glv;
mod params;
mod presets;
mod svdw;
mod tower;

pub use presets::{BnPreset, PublishedGenerators, BN_PRESETS};
pub use tower::F2;
use tower::{Ctx, Pt};

pub use glv::Decomp;
use glv::{decomposition, glv_basis};
pub use params::{params_uses, PARAMS_HELPERS};
pub use svdw::SvdwConstants;

/// Why (z, b, ξ_a) does not make a BN curve with this tower.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BnError {
    /// z could not be read.
    BadZ(String),
    /// z = 0.
    ZeroZ,
    /// |z| ≥ 2^126: p and r would reach 2^512, past what the curve code handles (its scalar
    /// splits work on at most 8 words, and `BnParams::Z_ABS` is a `u128`).
    ZTooLarge,
    /// ξ_a ≥ 2^32: the curve code keeps ξ_a in a `u32` (`BnParams::XI_A`).
    XiTooLarge(u64),
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
            BnError::ZTooLarge => write!(
                f,
                "|z| must be below 2^126, so that p and r stay below 2^512, the most the curve code handles (BN curves in use have |z| < 2^120)"
            ),
            BnError::XiTooLarge(a) => write!(
                f,
                "xi_a = {a} must be below 2^32 (the curve code keeps it in a u32); small values such as 1, 2, 9 are the usual choice"
            ),
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
    if z.abs().bits() > 126 {
        return Err(BnError::ZTooLarge);
    }
    if xi_a > u64::from(u32::MAX) {
        return Err(BnError::XiTooLarge(xi_a));
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
