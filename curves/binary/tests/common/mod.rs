//! Helpers shared by the integration tests: vector loading, and an independent affine
//! reference of the curve arithmetic over GF(2)[x] written with `num-bigint` (a polynomial
//! is the BigUint whose bit i is the coefficient of x^i).
#![allow(dead_code)]

use std::path::PathBuf;

use fieldgen_binary_curves::{AffinePoint, BinaryCurve};
use fieldgen_field::Field;
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// Decodes hex; panics on malformed test data.
pub fn unhex(s: &str) -> Vec<u8> {
    let s = if s.len() % 2 == 1 {
        format!("0{s}")
    } else {
        s.to_string()
    };
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

/// The path of a file under tests/vectors.
pub fn vector(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors")
        .join(name)
}

/// Reads and parses a JSON vector file.
pub fn json(name: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(vector(name)).expect("vector file");
    serde_json::from_str(&text).expect("vector JSON")
}

/// A big-endian integer (any number of leading zero octets) as exactly `len` octets; None
/// when it does not fit.
pub fn fixed_be(bytes: &[u8], len: usize) -> Option<Vec<u8>> {
    let first = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
    let trimmed = &bytes[first..];
    if trimmed.len() > len {
        return None;
    }
    let mut out = vec![0u8; len - trimmed.len()];
    out.extend_from_slice(trimmed);
    Some(out)
}

/// `fast` by default, `full` when FIELDGEN_BINARY_FULL is set (the heavy suites).
pub fn rounds(fast: usize, full: usize) -> usize {
    if full_run() {
        full
    } else {
        fast
    }
}

/// Whether FIELDGEN_BINARY_FULL is set.
pub fn full_run() -> bool {
    std::env::var_os("FIELDGEN_BINARY_FULL").is_some()
}

/// The shared deterministic stream (SplitMix64) for test inputs.
#[allow(
    unused_imports,
    reason = "every test crate includes this module; only some draw random inputs"
)]
pub use fieldgen_test_support::SplitMix64 as Rng;

/// GF(2^m) = GF(2)[x]/(f) on BigUint, and the curve y² + xy = x³ + ax² + b in affine
/// coordinates (None is the point at infinity): the textbook chord-and-tangent rules
/// (Guide to ECC §3.1.2), inversion by the extended Euclidean algorithm on polynomials.
pub struct Reference {
    pub m: u64,
    pub f: BigUint,
    pub a: BigUint,
    pub b: BigUint,
}

pub type RefPoint = Option<(BigUint, BigUint)>;

fn deg(p: &BigUint) -> i64 {
    p.bits() as i64 - 1
}

impl Reference {
    /// The reference for a curve, given f as its exponents and a, b as hex.
    pub fn new(exps: &[u64], a: &str, b: &str) -> Self {
        let mut f = BigUint::zero();
        for &e in exps {
            f.set_bit(e, true);
        }
        Reference {
            m: exps[0],
            f,
            a: BigUint::parse_bytes(a.as_bytes(), 16).unwrap(),
            b: BigUint::parse_bytes(b.as_bytes(), 16).unwrap(),
        }
    }

    pub fn reduce(&self, mut p: BigUint) -> BigUint {
        let m = self.m as i64;
        while deg(&p) >= m {
            p ^= &self.f << (deg(&p) - m);
        }
        p
    }

    pub fn mul(&self, a: &BigUint, b: &BigUint) -> BigUint {
        let mut r = BigUint::zero();
        for i in 0..b.bits() {
            if b.bit(i) {
                r ^= a << i;
            }
        }
        self.reduce(r)
    }

    pub fn inv(&self, a: &BigUint) -> BigUint {
        assert!(!a.is_zero());
        // Invariant: g1·a ≡ u, g2·a ≡ v (mod f).
        let (mut u, mut v) = (a.clone(), self.f.clone());
        let (mut g1, mut g2) = (BigUint::one(), BigUint::zero());
        while !u.is_one() {
            let mut j = deg(&u) - deg(&v);
            if j < 0 {
                std::mem::swap(&mut u, &mut v);
                std::mem::swap(&mut g1, &mut g2);
                j = -j;
            }
            u ^= &v << j;
            g1 ^= &g2 << j;
        }
        self.reduce(g1)
    }

    pub fn on_curve(&self, p: &RefPoint) -> bool {
        match p {
            None => true,
            Some((x, y)) => {
                let x2 = self.mul(x, x);
                let lhs = self.mul(y, y) ^ self.mul(x, y);
                let rhs = self.mul(&x2, x) ^ self.mul(&self.a, &x2) ^ &self.b;
                lhs == rhs
            }
        }
    }

    pub fn neg(&self, p: &RefPoint) -> RefPoint {
        p.as_ref().map(|(x, y)| (x.clone(), x ^ y))
    }

    pub fn add(&self, p: &RefPoint, q: &RefPoint) -> RefPoint {
        let (Some((x1, y1)), Some((x2, y2))) = (p, q) else {
            return if p.is_none() { q.clone() } else { p.clone() };
        };
        if x1 == x2 {
            if (y1 ^ y2) == *x1 || (x1.is_zero() && y1 == y2) {
                return None; // Q = −P (including P = Q of order 2)
            }
            return self.double(p);
        }
        let lambda = self.mul(&(y1 ^ y2), &self.inv(&(x1 ^ x2)));
        let x3 = self.mul(&lambda, &lambda) ^ &lambda ^ x1 ^ x2 ^ &self.a;
        let y3 = self.mul(&lambda, &(x1 ^ &x3)) ^ &x3 ^ y1;
        Some((x3, y3))
    }

    pub fn double(&self, p: &RefPoint) -> RefPoint {
        let (x, y) = p.as_ref()?;
        if x.is_zero() {
            return None;
        }
        let lambda = x ^ self.mul(y, &self.inv(x));
        let x3 = self.mul(&lambda, &lambda) ^ &lambda ^ &self.a;
        let y3 = self.mul(x, x) ^ self.mul(&lambda, &x3) ^ &x3;
        Some((x3, y3))
    }

    /// k·P by double-and-add, k big-endian bytes.
    pub fn mul_scalar(&self, p: &RefPoint, k_be: &[u8]) -> RefPoint {
        let k = BigUint::from_bytes_be(k_be);
        let mut acc = None;
        for i in (0..k.bits()).rev() {
            acc = self.double(&acc);
            if k.bit(i) {
                acc = self.add(&acc, p);
            }
        }
        acc
    }
}

/// A field element as a BigUint polynomial.
pub fn to_big<F: Field>(x: &F) -> BigUint {
    BigUint::from_bytes_be(x.to_be_bytes().as_ref())
}

/// A BigUint polynomial (degree < m) as a field element.
pub fn from_big<F: Field>(x: &BigUint) -> F {
    let bytes = fixed_be(&x.to_bytes_be(), F::BYTES).unwrap();
    let mut b = <F::Bytes as fieldgen_field::ByteArray>::zeroed();
    b.as_mut().copy_from_slice(&bytes);
    Option::from(F::from_be_bytes(&b)).unwrap()
}

/// An affine point of the crate as a reference point.
pub fn to_ref<C: BinaryCurve>(p: &AffinePoint<C>) -> RefPoint {
    if bool::from(p.infinity) {
        None
    } else {
        Some((to_big(&p.x), to_big(&p.y)))
    }
}

/// The SEC 2 reduction polynomials as exponent lists (SEC 2 v2, §3), for the reference.
pub const F163: &[u64] = &[163, 7, 6, 3, 0];
pub const F233: &[u64] = &[233, 74, 0];
pub const F239: &[u64] = &[239, 158, 0];
pub const F283: &[u64] = &[283, 12, 7, 5, 0];
pub const F409: &[u64] = &[409, 87, 0];
pub const F571: &[u64] = &[571, 10, 5, 2, 0];
