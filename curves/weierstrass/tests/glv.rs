//! secp256k1's GLV endomorphism against num-bigint: every constant from its definition (cube
//! roots of unity, λ·G = (β·x, y) in an affine reference, the lattice basis re-derived by the
//! extended Euclidean algorithm of GLV 2001 §4, g1 and g2 by exact rounding), the scalar split
//! on edge and random scalars, and the GLV scalar multiplications against the reference.
//! `WEIERSTRASS_GLV_ROUNDS=n` sets the number of random scalars (default 16).

use fieldgen_field::Field;
use fieldgen_weierstrass::curves::Secp256k1;
use fieldgen_weierstrass::glv::{self, GlvParams, HalfScalar};
use fieldgen_weierstrass::{PrimeGroup, ProjectivePoint};
use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use sha2::{Digest, Sha256};

type Fr = <Secp256k1 as PrimeGroup>::Scalar;

// SEC 2 v2 §2.4.1.
const P: &str = "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f";
const N: &str = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
const GX: &str = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";
const GY: &str = "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8";

fn hex(s: &str) -> BigUint {
    BigUint::parse_bytes(s.as_bytes(), 16).unwrap()
}

fn rounds() -> u32 {
    std::env::var("WEIERSTRASS_GLV_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16)
}

type Pt = Option<(BigUint, BigUint)>;

/// Affine y² = x³ + 7 over GF(p) with num-bigint (SEC 1 §2.2.1).
struct Reference {
    p: BigUint,
}

impl Reference {
    fn inv(&self, x: &BigUint) -> BigUint {
        x.modpow(&(&self.p - 2u32), &self.p)
    }
    fn sub(&self, x: &BigUint, y: &BigUint) -> BigUint {
        (x + &self.p - y % &self.p) % &self.p
    }
    fn add(&self, a: &Pt, b: &Pt) -> Pt {
        let (Some((x1, y1)), Some((x2, y2))) = (a, b) else {
            return a.clone().or(b.clone());
        };
        let l = if x1 == x2 {
            if ((y1 + y2) % &self.p).is_zero() {
                return None;
            }
            BigUint::from(3u32) * x1 * x1 * self.inv(&(y1 * 2u32)) % &self.p
        } else {
            self.sub(y2, y1) * self.inv(&self.sub(x2, x1)) % &self.p
        };
        let x3 = self.sub(&self.sub(&(&l * &l % &self.p), x1), x2);
        let y3 = self.sub(&(&l * self.sub(x1, &x3) % &self.p), y1);
        Some((x3, y3))
    }
    fn mul(&self, q: &Pt, k: &BigUint) -> Pt {
        let mut acc = None;
        for i in (0..k.bits()).rev() {
            acc = self.add(&acc, &acc);
            if k.bit(i) {
                acc = self.add(&acc, q);
            }
        }
        acc
    }
}

fn to_ref(p: &ProjectivePoint<Secp256k1>) -> Pt {
    let a = p.to_affine();
    if bool::from(a.is_identity()) {
        return None;
    }
    let x = BigUint::from_bytes_be(a.x().unwrap().to_be_bytes().as_ref());
    let y = BigUint::from_bytes_be(a.y().unwrap().to_be_bytes().as_ref());
    Some((x, y))
}

fn fe<F: Field>(v: &F) -> BigUint {
    BigUint::from_bytes_be(v.to_be_bytes().as_ref())
}

fn scalar(v: &BigUint) -> Fr {
    let mut b = v.to_bytes_le();
    b.resize(32, 0);
    let arr: [u8; 32] = b.try_into().unwrap();
    Option::from(<Fr as Field>::from_le_bytes(&arr)).unwrap()
}

fn limbs(v: &[u64; 4]) -> BigUint {
    v.iter()
        .rev()
        .fold(BigUint::zero(), |acc, &l| (acc << 64u32) + l)
}

fn signed(h: &HalfScalar) -> BigInt {
    let m = BigInt::from_bytes_le(Sign::Plus, &h.magnitude);
    if bool::from(h.negative) {
        -m
    } else {
        m
    }
}

/// round(a / b) for b > 0, halves rounded up.
fn round_div(a: &BigInt, b: &BigInt) -> BigInt {
    let (num, den): (BigInt, BigInt) = (a * 2 + b, b * 2);
    num.div_floor(&den)
}

/// The reduced basis of {(x, y) : x + y·λ ≡ 0 mod n} by GLV 2001 §4: the extended Euclidean
/// algorithm on (n, λ) gives r_i = s_i·n + t_i·λ; with m the last index where r_m ≥ √n,
/// v1 = (r_{m+1}, −t_{m+1}) and v2 the shorter of (r_m, −t_m), (r_{m+2}, −t_{m+2}).
fn glv_basis(n: &BigInt, lambda: &BigInt) -> [(BigInt, BigInt); 2] {
    let sqrt_n = n.sqrt();
    let (mut r, mut t) = (
        vec![n.clone(), lambda.clone()],
        vec![BigInt::zero(), BigInt::one()],
    );
    while !r.last().unwrap().is_zero() {
        let k = r.len();
        let q = &r[k - 2] / &r[k - 1];
        r.push(&r[k - 2] - &q * &r[k - 1]);
        t.push(&t[k - 2] - &q * &t[k - 1]);
    }
    let m = (0..r.len()).rev().find(|&i| r[i] >= sqrt_n).unwrap();
    let v1 = (r[m + 1].clone(), -t[m + 1].clone());
    let norm = |v: &(BigInt, BigInt)| &v.0 * &v.0 + &v.1 * &v.1;
    let a = (r[m].clone(), -t[m].clone());
    let b = (r[m + 2].clone(), -t[m + 2].clone());
    let v2 = if norm(&a) <= norm(&b) { a } else { b };
    [v1, v2]
}

#[test]
fn constants_from_their_definitions() {
    let (p, n) = (hex(P), hex(N));
    let beta = fe(&Secp256k1::BETA);
    let lambda = fe(&Secp256k1::LAMBDA);
    // Primitive cube roots of unity.
    assert_eq!(beta.modpow(&3u32.into(), &p), BigUint::one());
    assert_ne!(beta, BigUint::one());
    assert_eq!(lambda.modpow(&3u32.into(), &n), BigUint::one());
    assert_ne!(lambda, BigUint::one());
    // λ·G = (β·Gx, Gy): the pair matches (the other cube root of unity would give β²).
    let r = Reference { p: p.clone() };
    let g = Some((hex(GX), hex(GY)));
    assert_eq!(r.mul(&g, &lambda), Some((&beta * hex(GX) % &p, hex(GY))));
    assert_eq!(r.mul(&g, &n), None);

    // The basis, re-derived; b1 < 0 < a1, a2, b2 for this λ.
    let (ni, li) = (BigInt::from(n.clone()), BigInt::from(lambda.clone()));
    let [(a1, b1), (a2, b2)] = glv_basis(&ni, &li);
    assert!(((&a1 + &b1 * &li) % &ni).is_zero());
    assert!(((&a2 + &b2 * &li) % &ni).is_zero());
    assert_eq!((&a1 * &b2 - &a2 * &b1).abs(), ni);
    assert_eq!(
        (
            a1.to_str_radix(16),
            b1.to_str_radix(16),
            a2.to_str_radix(16),
            b2.to_str_radix(16)
        ),
        (
            "3086d221a7d46bcde86c90e49284eb15".to_string(),
            "-e4437ed6010e88286f547fa90abfe4c3".to_string(),
            "114ca50f7a8e2f3f657c1108d9d44cfd8".to_string(),
            "3086d221a7d46bcde86c90e49284eb15".to_string()
        )
    );
    let modn = |v: &BigInt| v.mod_floor(&ni).to_biguint().unwrap();
    assert_eq!(fe(&Secp256k1::MINUS_B1), modn(&-&b1));
    assert_eq!(fe(&Secp256k1::MINUS_B2), modn(&-&b2));
    let two384 = BigInt::one() << 384u32;
    assert_eq!(
        BigInt::from(limbs(&Secp256k1::G1)),
        round_div(&(&two384 * &b2), &ni)
    );
    assert_eq!(
        BigInt::from(limbs(&Secp256k1::G2)),
        round_div(&(&two384 * -&b1), &ni)
    );
    // The half-scalar bound of the module docs: |a1| + |a2| and |b1| + |b2| below 2^129.
    let bound = BigInt::one() << 129u32;
    assert!(a1.abs() + a2.abs() < bound && b1.abs() + b2.abs() < bound);
}

fn random(label: &str, i: u32) -> BigUint {
    BigUint::from_bytes_be(
        &Sha256::new()
            .chain_update(label)
            .chain_update(i.to_le_bytes())
            .finalize(),
    )
}

fn edge_scalars(n: &BigUint) -> Vec<BigUint> {
    let lambda = fe(&Secp256k1::LAMBDA);
    let two128 = BigUint::one() << 128u32;
    vec![
        BigUint::zero(),
        BigUint::one(),
        BigUint::from(2u32),
        n - 1u32,
        n - 2u32,
        n >> 1u32,
        (n >> 1u32) + 1u32,
        two128.clone() - 1u32,
        two128.clone(),
        n - &two128,
        lambda.clone(),
        n - &lambda,
        (&lambda * &two128) % n,
        (BigUint::one() << 255u32) % n,
    ]
}

#[test]
fn split_rebuilds_the_scalar_with_short_halves() {
    let n = hex(N);
    let ni = BigInt::from(n.clone());
    let lambda = BigInt::from(fe(&Secp256k1::LAMBDA));
    let mut ks = edge_scalars(&n);
    ks.extend((0..16 * rounds()).map(|i| random("split", i) % &n));
    let bound = BigInt::one() << 129u32;
    for k in ks {
        let (k1, k2) = glv::decompose::<Secp256k1>(&scalar(&k));
        let (s1, s2) = (signed(&k1), signed(&k2));
        assert_eq!(
            (&s1 + &s2 * &lambda).mod_floor(&ni),
            BigInt::from(k.clone()),
            "k = {k:x}"
        );
        assert!(s1.abs() < bound && s2.abs() < bound, "k = {k:x}");
    }
}

#[test]
fn glv_multiplication_against_the_reference() {
    let n = hex(N);
    let r = Reference { p: hex(P) };
    let g = Some((hex(GX), hex(GY)));
    let gp = ProjectivePoint::<Secp256k1>::GENERATOR;
    let id = ProjectivePoint::<Secp256k1>::IDENTITY;
    let mut ks = edge_scalars(&n);
    ks.extend((0..rounds()).map(|i| random("mul", i) % &n));
    for (i, k) in ks.iter().enumerate() {
        // A base point that is not G: m·G for a random m.
        let m = random("base", u32::try_from(i).unwrap()) % &n;
        let base = gp.mul_le_bytes(&{
            let mut b = m.to_bytes_le();
            b.resize(32, 0);
            b
        });
        let want = r.mul(&r.mul(&g, &m), k);
        let ks = scalar(k);
        assert_eq!(to_ref(&glv::mul(&base, &ks)), want, "k = {k:x}");
        assert_eq!(to_ref(&glv::mul(&gp, &ks)), r.mul(&g, k), "k·G, k = {k:x}");
        assert_eq!(to_ref(&glv::mul(&id, &ks)), None, "k·O");
        assert_eq!(
            to_ref(&<Secp256k1 as PrimeGroup>::mul(&base, &ks)),
            want,
            "PrimeGroup::mul"
        );
        // a·G + b·P by the four-scalar Straus, with a = k and b from the list too.
        let b = &ks;
        let a_big = random("a", u32::try_from(i).unwrap()) % &n;
        let sum = r.add(&r.mul(&g, &a_big), &want);
        assert_eq!(
            to_ref(&glv::double_mul_vartime(&gp, &scalar(&a_big), &base, b)),
            sum,
            "Straus, k = {k:x}"
        );
        assert_eq!(
            to_ref(&<Secp256k1 as PrimeGroup>::mul_base_add_vartime(
                &scalar(&a_big),
                &base,
                b
            )),
            sum
        );
        assert_eq!(
            to_ref(&glv::double_mul_vartime(&gp, b, &id, &scalar(&a_big))),
            r.mul(&g, k),
            "Straus with the identity"
        );
    }
}

/// The variable-time chain branches on the exceptional cases of its Jacobian formulas (the
/// identity, adding a point to itself or to its negative): sums whose tables coincide, whose
/// terms cancel, and small scalars reach them. Expected values by the generic signed-window
/// multiplication (itself checked against num-bigint in group_laws.rs), to keep the test fast.
#[test]
fn straus_exceptional_cases() {
    let n = hex(N);
    let lambda = fe(&Secp256k1::LAMBDA);
    let gp = ProjectivePoint::<Secp256k1>::GENERATOR;
    let lg = glv::mul(&gp, &Secp256k1::LAMBDA); // φ(G) = λ·G
    let small = [0u32, 1, 2, 3, 15, 16, 17, 31, 32, 33];
    let mut pairs: Vec<(BigUint, BigUint)> = Vec::new();
    for &x in &small {
        for &y in &small {
            pairs.push((x.into(), y.into()));
            pairs.push((x.into(), (&n - y) % &n));
        }
    }
    pairs.push((lambda.clone(), &n - BigUint::one()));
    pairs.push((BigUint::one(), &n - &lambda));
    for (a, b) in pairs {
        for (base, m) in [(gp, BigUint::one()), (lg, lambda.clone()), (-gp, &n - 1u32)] {
            let mut k = ((&a + &b * &m) % &n).to_bytes_le();
            k.resize(32, 0);
            let want = gp.mul_le_bytes(&k);
            let got = glv::double_mul_vartime(&gp, &scalar(&a), &base, &scalar(&b));
            let tabled = glv::mul_base_add_vartime(&scalar(&a), &base, &scalar(&b));
            assert_eq!(
                tabled, want,
                "G table, a = {a:x}, b = {b:x}, base = {m:x}·G"
            );
            assert_eq!(got, want, "a = {a:x}, b = {b:x}, base = {m:x}·G");
        }
    }
}
