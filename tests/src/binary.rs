//! The oracle suite for generated binary fields GF(2^m).
//!
//! [`binary_field_suite!`](crate::binary_field_suite) wraps a generated type in a local newtype,
//! implements [`BinaryFieldUnderTest`] for it (each method calls exactly one item of the
//! generated API, with its exact signature), and expands to one `#[test]` per property below.
//! Every result is compared with [`Gf2Oracle`], a shift/xor reference over
//! [`BigUint`](num_bigint::BigUint) (bit i = coefficient of x^i) built from the polynomial as
//! the *test author* wrote it. The oracle computes everything from the definitions:
//! schoolbook carry-less products, bit-serial remainder, inverse = a^(2^m − 2), √a =
//! a^(2^(m−1)), Tr(a) = Σ a^(2^i), H(a) = Σ a^(4^i); and it checks f with Rabin's
//! irreducibility test (M. O. Rabin, "Probabilistic algorithms in finite fields", SIAM J.
//! Comput. 9 (1980)), a different test from the generator's Ben-Or.
//!
//! ```ignore
//! fieldgen_tests::binary_field_suite!(sect163_64, fieldgen_generated::sect163_64::F163,
//!     "x^163+x^7+x^6+x^3+1", 64, half_trace);
//! ```
//!
//! The last argument is `half_trace` for odd m (the type then must have `half_trace`) and
//! `no_half_trace` for even m. The word size only shapes the edge values.
//!
//! | test | what is checked |
//! | --- | --- |
//! | `constants` | `ZERO`, `ONE`, `Default`, `DEGREE` = m, `MODULUS_EXPONENTS` = f's exponents, `is_zero` |
//! | `modulus_is_irreducible` | the test's f passes Rabin's test (a typo guard) |
//! | `encoding` | `to_le_bytes`/`to_be_bytes` = the oracle's bytes; both decoders round-trip; `Debug` = `0x` + big-endian hex |
//! | `decoding_rejects_high_bits` | every single bit at a position ≥ m in the B-byte encoding, and random high junk, is refused by both decoders |
//! | `add_sub_neg` | = xor, in method and operator forms |
//! | `mul_edges`, `mul_random` | every operator form = oracle product mod f |
//! | `square` | = oracle and = `mul(a, a)`; `square_n` |
//! | `pow` | `pow`, `pow_vartime` = oracle on edge and random exponents |
//! | `invert` | zero → none; `a·a⁻¹ = 1` by the oracle's product; = oracle a^(2^m − 2) on the first values; `invert_vartime` the same |
//! | `sqrt` | squares back to a by the oracle's product; = oracle a^(2^(m−1)) on the first values |
//! | `trace_half_trace_quadratic` | `trace` = oracle; `half_trace` (odd m) = oracle; `solve_quadratic` gives z with z² + z = c exactly when Tr(c) = 0 |
//! | `eq_select` | `==`, `ct_eq`, `conditional_select` |
//! | `multi_square` | x^(2^k) for the multi-squaring matrices' k, k + 1, 2k and m − 1 by `square_n` and every multi-squaring backend = oracle k squarings; AVX-512F CPU ⇒ the matrix kernel is in use and ran |
//! | `backends` | every backend the build can run (`__mul_with_backend`, `__square_with_backend`, the squaring-only `x86_64-bmi2`) = oracle |
//!
//! Random cases per property: `FIELDGEN_CASES` (default 24), drawn from a fixed-seed SplitMix64,
//! so failures replay exactly.

use num_bigint::BigUint;
use num_traits::{One, Zero};

/// GF(2)[x]/(f) over BigUint bit vectors.
#[derive(Clone, Debug)]
pub struct Gf2Oracle {
    /// f, bit i = coefficient of x^i.
    pub f: BigUint,
    /// deg f.
    pub m: usize,
    /// f's exponents, highest first.
    pub exponents: Vec<u32>,
}

/// Carry-less product: the sum of b·x^i over the set bits i of a (schoolbook, shift and xor
/// on the 64-bit digits of the BigUints).
pub fn clmul(a: &BigUint, b: &BigUint) -> BigUint {
    let (a, b) = (a.to_u64_digits(), b.to_u64_digits());
    let mut r = vec![0u64; a.len() + b.len() + 1];
    for (i, &aw) in a.iter().enumerate() {
        for bit in 0..64 {
            if aw >> bit & 1 == 1 {
                for (j, &bw) in b.iter().enumerate() {
                    r[i + j] ^= bw << bit;
                    if bit != 0 {
                        r[i + j + 1] ^= bw >> (64 - bit);
                    }
                }
            }
        }
    }
    from_digits(&r)
}

fn from_digits(d: &[u64]) -> BigUint {
    let mut bytes = Vec::with_capacity(8 * d.len());
    for w in d {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    BigUint::from_bytes_le(&bytes)
}

/// Remainder of a modulo f: for each set bit at or above deg f, from the top, add f shifted
/// there.
pub fn poly_rem(a: &BigUint, f: &BigUint) -> BigUint {
    let m = usize::try_from(f.bits()).expect("the degree fits usize") - 1;
    let fd = f.to_u64_digits();
    let mut r = a.to_u64_digits();
    let top = r.len() * 64;
    for e in (m..top).rev() {
        if r[e / 64] >> (e % 64) & 1 == 1 {
            let s = e - m;
            let (q, o) = (s / 64, s % 64);
            for (j, &fw) in fd.iter().enumerate() {
                r[q + j] ^= fw << o;
                if o != 0 && q + j + 1 < r.len() {
                    r[q + j + 1] ^= fw >> (64 - o);
                }
            }
        }
    }
    from_digits(&r)
}

fn poly_gcd(a: &BigUint, b: &BigUint) -> BigUint {
    let (mut a, mut b) = (a.clone(), b.clone());
    while !b.is_zero() {
        let r = poly_rem(&a, &b);
        a = b;
        b = r;
    }
    a
}

impl Gf2Oracle {
    /// From `x^163+x^7+x^6+x^3+1`-style text (terms `x^k`, `x`, `1`, joined by `+`).
    pub fn new(text: &str) -> Gf2Oracle {
        let mut f = BigUint::zero();
        let mut exponents = Vec::new();
        for term in text.split('+').map(str::trim) {
            let e: u32 = match term {
                "1" => 0,
                "x" => 1,
                t => t
                    .strip_prefix("x^")
                    .and_then(|d| d.parse().ok())
                    .unwrap_or_else(|| panic!("bad term `{t}` in {text}")),
            };
            assert!(!f.bit(e as u64), "repeated term in {text}");
            f.set_bit(e as u64, true);
            exponents.push(e);
        }
        exponents.sort_unstable_by(|a, b| b.cmp(a));
        let m = exponents[0] as usize;
        Gf2Oracle { f, m, exponents }
    }

    /// Encoding length B = ceil(m/8).
    pub fn bytes(&self) -> usize {
        self.m.div_ceil(8)
    }

    /// a·b mod f.
    pub fn mul(&self, a: &BigUint, b: &BigUint) -> BigUint {
        poly_rem(&clmul(a, b), &self.f)
    }

    /// a^(2^k) mod f.
    pub fn square_n(&self, a: &BigUint, k: usize) -> BigUint {
        let mut x = a.clone();
        for _ in 0..k {
            x = self.mul(&x, &x);
        }
        x
    }

    /// a^e (e as little-endian u64 words), square-and-multiply.
    pub fn pow(&self, a: &BigUint, exp_le: &[u64]) -> BigUint {
        let mut r = BigUint::one();
        for w in exp_le.iter().rev() {
            for i in (0..64).rev() {
                r = self.mul(&r, &r);
                if w >> i & 1 == 1 {
                    r = self.mul(&r, a);
                }
            }
        }
        r
    }

    /// a^(2^m − 2): the inverse for a ≠ 0 (the multiplicative group has order 2^m − 1).
    pub fn inverse(&self, a: &BigUint) -> BigUint {
        // a^(2^m - 2) = Π_{i=1}^{m-1} a^(2^i).
        let mut r = BigUint::one();
        let mut x = self.mul(a, a);
        for _ in 1..self.m {
            r = self.mul(&r, &x);
            x = self.mul(&x, &x);
        }
        r
    }

    /// a^(2^(m−1)), the square root.
    pub fn sqrt(&self, a: &BigUint) -> BigUint {
        self.square_n(a, self.m - 1)
    }

    /// Σ_{i<m} a^(2^i), which must be 0 or 1.
    pub fn trace(&self, a: &BigUint) -> u8 {
        let mut t = BigUint::zero();
        let mut x = a.clone();
        for _ in 0..self.m {
            t ^= &x;
            x = self.mul(&x, &x);
        }
        assert!(t.bits() <= 1, "trace outside GF(2): f is not irreducible?");
        t.bit(0) as u8
    }

    /// Σ_{i=0}^{(m−1)/2} a^(4^i) (m odd).
    pub fn half_trace(&self, a: &BigUint) -> BigUint {
        let mut h = BigUint::zero();
        let mut x = a.clone();
        for _ in 0..=(self.m - 1) / 2 {
            h ^= &x;
            x = self.square_n(&x, 2);
        }
        h
    }

    /// Rabin's test: x^(2^m) ≡ x (mod f) and gcd(x^(2^(m/q)) − x, f) = 1 for each prime q | m.
    pub fn is_irreducible(&self) -> bool {
        let x = BigUint::from(2u32);
        let m = self.m;
        if self.square_n(&x, m) != poly_rem(&x, &self.f) {
            return false;
        }
        let mut primes = Vec::new();
        let mut k = m;
        let mut q = 2;
        while q * q <= k {
            if k.is_multiple_of(q) {
                primes.push(q);
                while k.is_multiple_of(q) {
                    k /= q;
                }
            }
            q += 1;
        }
        if k > 1 {
            primes.push(k);
        }
        primes.iter().all(|&q| {
            let h = self.square_n(&x, m / q) ^ poly_rem(&x, &self.f);
            poly_gcd(&self.f, &h).is_one()
        })
    }

    /// B-byte little-endian encoding.
    pub fn to_le(&self, a: &BigUint) -> Vec<u8> {
        let mut v = a.to_bytes_le();
        if a.is_zero() {
            v.clear();
        }
        v.resize(self.bytes(), 0);
        v
    }

    /// Edge values: 0, 1, x, x^(m−1), 2^m − 1, x^(m−1) + 1, f − x^m; at every word boundary
    /// k·w below m: x^(kw−1), x^(kw), the all-ones word k, and the values below x^(kw) all ones.
    pub fn edge_values(&self, w: usize) -> Vec<BigUint> {
        let m = self.m;
        let one = BigUint::one();
        let all = (&one << m) - &one;
        let mut v = vec![
            BigUint::zero(),
            one.clone(),
            BigUint::from(2u32) & &all,
            &one << (m - 1),
            all.clone(),
            (&one << (m - 1)) | &one,
            &self.f ^ (&one << m),
        ];
        let mut k = w;
        while k < m + w {
            let lo = k - w;
            for e in [k.wrapping_sub(1), k, lo] {
                if e < m {
                    v.push(&one << e);
                }
            }
            let word = ((&one << k) - (&one << lo)) & &all;
            v.push(word);
            v.push(((&one << k.min(m)) - &one) & &all);
            k += w;
        }
        v.sort();
        v.dedup();
        v
    }
}

/// Random cases per property: `FIELDGEN_CASES` or 24.
pub fn binary_cases() -> usize {
    std::env::var(crate::CASES_ENV)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(24)
}

/// SplitMix64 (the workspace's shared stream), for reproducible random elements.
pub use fieldgen_test_support::SplitMix64 as SplitMix;

/// Random binary-field elements from the stream.
pub trait RandomElement {
    /// A uniformly random polynomial of degree < m: `m.div_ceil(64)` outputs, least
    /// significant first, masked to m bits.
    fn element(&mut self, m: usize) -> BigUint;
}

impl RandomElement for SplitMix {
    fn element(&mut self, m: usize) -> BigUint {
        let words: Vec<u64> = (0..m.div_ceil(64)).map(|_| self.next_u64()).collect();
        let mut bytes = Vec::new();
        for w in words {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        BigUint::from_bytes_le(&bytes) & ((BigUint::one() << m) - 1u32)
    }
}

/// A generated binary field, seen through its API. Implemented by the suite's wrapper.
pub trait BinaryFieldUnderTest: Copy + core::fmt::Debug + PartialEq + 'static {
    /// `F::DEGREE`.
    const DEGREE: u32;
    /// `F::MODULUS_EXPONENTS`.
    fn modulus_exponents() -> Vec<u32>;
    /// `F::ZERO`.
    fn zero() -> Self;
    /// `F::ONE`.
    fn one() -> Self;
    /// `F::default()`.
    fn default_value() -> Self;
    /// `F::from_le_bytes`.
    fn from_le_bytes(b: &[u8]) -> Option<Self>;
    /// `F::from_be_bytes`.
    fn from_be_bytes(b: &[u8]) -> Option<Self>;
    /// `F::to_le_bytes`.
    fn to_le_bytes(&self) -> Vec<u8>;
    /// `F::to_be_bytes`.
    fn to_be_bytes(&self) -> Vec<u8>;
    /// Inherent `add`.
    fn add(&self, r: &Self) -> Self;
    /// Inherent `sub`.
    fn sub(&self, r: &Self) -> Self;
    /// Inherent `neg`.
    fn neg(&self) -> Self;
    /// Inherent `mul`.
    fn mul(&self, r: &Self) -> Self;
    /// `square`.
    fn square(&self) -> Self;
    /// `square_n`.
    fn square_n(&self, k: u32) -> Self;
    /// `pow`.
    fn pow(&self, e: &[u64]) -> Self;
    /// `pow_vartime`.
    fn pow_vartime(&self, e: &[u64]) -> Self;
    /// `invert`.
    fn invert(&self) -> Option<Self>;
    /// `invert_vartime`.
    fn invert_vartime(&self) -> Option<Self>;
    /// `sqrt`.
    fn sqrt(&self) -> Self;
    /// `trace`.
    fn trace(&self) -> u8;
    /// `half_trace` (None when the suite was instantiated with `no_half_trace`).
    fn half_trace(&self) -> Option<Self>;
    /// `solve_quadratic`.
    fn solve_quadratic(&self) -> Option<Self>;
    /// `is_zero`.
    fn is_zero(&self) -> bool;
    /// `ct_eq`.
    fn ct_eq(&self, r: &Self) -> bool;
    /// `conditional_select(a, b, choice)`.
    fn select(a: &Self, b: &Self, choice: bool) -> Self;
    /// The four operator forms of `op` (0 = +, 1 = −, 2 = ·): `a op b`, `&a op &b`, `a op= b`,
    /// `a op= &b`, and unary `-a`, `-&a`.
    fn op_forms(&self, r: &Self, op: u8) -> [Self; 4];
    /// `-a` and `-&a`.
    fn op_neg(&self) -> [Self; 2];
    /// `format!("{:?}", F)`.
    fn debug(&self) -> String;
    /// `backend()`.
    fn backend() -> &'static str;
    /// `__mul_with_backend`.
    fn mul_with(&self, r: &Self, backend: &str) -> Option<Self>;
    /// `__square_with_backend`.
    fn square_with(&self, backend: &str) -> Option<Self>;
    /// `MULTI_SQUARE_RUNS`.
    fn multi_square_runs() -> Vec<u32>;
    /// `square_n_backend()`.
    fn square_n_backend() -> &'static str;
    /// `__square_n_with_backend`.
    fn square_n_with(&self, k: u32, backend: &str) -> Option<Self>;
}

/// The properties, generic over the field under test.
pub mod props {
    use super::*;

    fn enc<F: BinaryFieldUnderTest>(o: &Gf2Oracle, a: &BigUint) -> F {
        F::from_le_bytes(&o.to_le(a)).unwrap_or_else(|| panic!("decoding {a:#x} failed"))
    }

    fn dec<F: BinaryFieldUnderTest>(x: &F) -> BigUint {
        BigUint::from_bytes_le(&x.to_le_bytes())
    }

    fn check<F: BinaryFieldUnderTest>(o: &Gf2Oracle, got: &F, want: &BigUint, what: &str) {
        let g = dec(got);
        assert_eq!(g, *want, "GF(2^{}) {what}: got {g:#x}, want {want:#x}", o.m);
        assert!(*got == enc::<F>(o, want), "{what}: not canonical");
    }

    /// For properties that cost about m oracle multiplications per value: a spaced subset of
    /// the edge values and fewer random ones as m grows.
    fn sample_costly(o: &Gf2Oracle, w: usize, seed: u64) -> Vec<BigUint> {
        let mut r = SplitMix(seed ^ (o.m as u64) << 32 ^ w as u64);
        let edges = o.edge_values(w);
        let keep = if o.m > 300 { 5 } else { 10 };
        let step = edges.len().div_ceil(keep);
        let mut v: Vec<BigUint> = edges.into_iter().step_by(step).collect();
        let k = (binary_cases() * 64 / o.m).clamp(2, binary_cases());
        for _ in 0..k {
            v.push(r.element(o.m));
        }
        v
    }

    fn sample(o: &Gf2Oracle, w: usize, seed: u64) -> Vec<BigUint> {
        let mut r = SplitMix(seed ^ (o.m as u64) << 32 ^ w as u64);
        let mut v = o.edge_values(w);
        for _ in 0..binary_cases() {
            v.push(r.element(o.m));
        }
        v
    }

    /// Constants and `is_zero`.
    pub fn constants<F: BinaryFieldUnderTest>(o: &Gf2Oracle) {
        assert_eq!(F::DEGREE as usize, o.m);
        assert_eq!(F::modulus_exponents(), o.exponents);
        check(o, &F::zero(), &BigUint::zero(), "ZERO");
        check(o, &F::one(), &BigUint::one(), "ONE");
        assert!(F::default_value() == F::zero());
        assert!(F::zero().is_zero() && !F::one().is_zero());
    }

    /// Rabin's test on the test's f.
    pub fn modulus_is_irreducible(o: &Gf2Oracle) {
        assert!(o.is_irreducible(), "the test's polynomial is reducible");
    }

    /// Encodings and Debug.
    pub fn encoding<F: BinaryFieldUnderTest>(o: &Gf2Oracle, w: usize) {
        for a in sample(o, w, 1) {
            let x = enc::<F>(o, &a);
            let le = o.to_le(&a);
            assert_eq!(x.to_le_bytes(), le);
            let mut be = le.clone();
            be.reverse();
            assert_eq!(x.to_be_bytes(), be);
            assert!(F::from_be_bytes(&be) == Some(x));
            let hex: String = be.iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(x.debug(), format!("0x{hex}"));
        }
    }

    /// Bits at positions ≥ m are refused.
    pub fn decoding_rejects_high_bits<F: BinaryFieldUnderTest>(o: &Gf2Oracle) {
        let b = o.bytes();
        let mut r = SplitMix(7);
        for bit in o.m..8 * b {
            for base in [BigUint::zero(), r.element(o.m)] {
                let mut le = o.to_le(&base);
                le[bit / 8] |= 1 << (bit % 8);
                assert!(F::from_le_bytes(&le).is_none(), "bit {bit} accepted (LE)");
                le.reverse();
                assert!(F::from_be_bytes(&le).is_none(), "bit {bit} accepted (BE)");
            }
        }
        if !o.m.is_multiple_of(8) {
            let mut le = vec![0xffu8; b];
            assert!(F::from_le_bytes(&le).is_none());
            le[b - 1] = (1u8 << (o.m % 8)) - 1;
            assert!(F::from_le_bytes(&le).is_some(), "all m bits set refused");
        }
    }

    /// Addition, subtraction, negation.
    pub fn add_sub_neg<F: BinaryFieldUnderTest>(o: &Gf2Oracle, w: usize) {
        let v = sample(o, w, 2);
        for (i, a) in v.iter().enumerate() {
            let b = &v[(i * 7 + 3) % v.len()];
            let (x, y) = (enc::<F>(o, a), enc::<F>(o, b));
            let want = a ^ b;
            check(o, &x.add(&y), &want, "add");
            check(o, &x.sub(&y), &want, "sub");
            for f in x.op_forms(&y, 0).iter().chain(x.op_forms(&y, 1).iter()) {
                check(o, f, &want, "operator + / -");
            }
            check(o, &x.neg(), a, "neg");
            for f in x.op_neg() {
                check(o, &f, a, "unary -");
            }
        }
    }

    /// Products of all pairs of edge values.
    pub fn mul_edges<F: BinaryFieldUnderTest>(o: &Gf2Oracle, w: usize) {
        let v = o.edge_values(w);
        // All pairs up to 40 edge values; beyond, every value against a spaced subset of 40.
        let step = v.len().div_ceil(40);
        let right: Vec<&BigUint> = v.iter().step_by(step).collect();
        for a in &v {
            for b in right.iter().copied() {
                let want = o.mul(a, b);
                check(
                    o,
                    &enc::<F>(o, a).mul(&enc::<F>(o, b)),
                    &want,
                    "mul (edges)",
                );
            }
        }
    }

    /// Random products, every operator form.
    pub fn mul_random<F: BinaryFieldUnderTest>(o: &Gf2Oracle) {
        let mut r = SplitMix(3 ^ o.m as u64);
        for _ in 0..binary_cases() * 4 {
            let (a, b) = (r.element(o.m), r.element(o.m));
            let (x, y) = (enc::<F>(o, &a), enc::<F>(o, &b));
            let want = o.mul(&a, &b);
            check(o, &x.mul(&y), &want, "mul");
            for f in x.op_forms(&y, 2) {
                check(o, &f, &want, "operator *");
            }
        }
    }

    /// Squaring.
    pub fn square<F: BinaryFieldUnderTest>(o: &Gf2Oracle, w: usize) {
        for (i, a) in sample(o, w, 4).iter().enumerate() {
            let x = enc::<F>(o, a);
            check(o, &x.square(), &o.mul(a, a), "square");
            let k = 3 * u32::try_from(i % 5).unwrap();
            check(o, &x.square_n(k), &o.square_n(a, k as usize), "square_n");
        }
    }

    /// Exponentiation.
    pub fn pow<F: BinaryFieldUnderTest>(o: &Gf2Oracle, w: usize) {
        let mut r = SplitMix(5);
        let order_words = {
            let mut e: Vec<u64> = ((BigUint::one() << o.m) - 1u32).to_u64_digits();
            e.push(0);
            e
        };
        let mut exps: Vec<Vec<u64>> = vec![
            vec![],
            vec![0],
            vec![1],
            vec![2],
            vec![u64::MAX, 1],
            order_words,
        ];
        for i in 0..4 {
            exps.push((0..i + 1).map(|_| r.next_u64()).collect());
        }
        let v = sample_costly(o, w, 6);
        for (i, a) in v.iter().enumerate() {
            let x = enc::<F>(o, a);
            let e = &exps[i % exps.len()];
            let want = o.pow(a, e);
            check(o, &x.pow(e), &want, "pow");
            check(o, &x.pow_vartime(e), &want, "pow_vartime");
        }
    }

    /// Inversion, both kinds.
    pub fn invert<F: BinaryFieldUnderTest>(o: &Gf2Oracle, w: usize) {
        assert!(F::zero().invert().is_none());
        assert!(F::zero().invert_vartime().is_none());
        // a·b = 1 in the oracle determines b; the oracle's a^(2^m − 2) is compared on the first
        // values too (it costs 2m products).
        for (i, a) in sample_costly(o, w, 8)
            .iter()
            .filter(|a| !a.is_zero())
            .enumerate()
        {
            let x = enc::<F>(o, a);
            let inv = x.invert().expect("non-zero has an inverse");
            assert_eq!(
                o.mul(a, &dec(&inv)),
                BigUint::one(),
                "GF(2^{}) a·a⁻¹ for {a:#x}",
                o.m
            );
            check(o, &x.mul(&inv), &BigUint::one(), "a·a⁻¹");
            if i < 3 {
                check(o, &inv, &o.inverse(a), "invert");
            }
            check(
                o,
                &x.invert_vartime().expect("inverse"),
                &dec(&inv),
                "invert_vartime",
            );
        }
    }

    /// Square roots.
    pub fn sqrt<F: BinaryFieldUnderTest>(o: &Gf2Oracle, w: usize) {
        // Squaring is a bijection, so s² = a in the oracle determines s; the oracle's
        // a^(2^(m−1)) is compared on the first values too.
        for (i, a) in sample_costly(o, w, 9).into_iter().enumerate() {
            let x = enc::<F>(o, &a);
            let s = x.sqrt();
            let sd = dec(&s);
            assert_eq!(o.mul(&sd, &sd), a, "GF(2^{}) sqrt({a:#x})²", o.m);
            if i < 3 {
                check(o, &s, &o.sqrt(&a), "sqrt");
            }
            check(o, &s.square(), &a, "sqrt squared");
        }
    }

    /// Trace, half-trace and z² + z = c.
    pub fn trace_half_trace_quadratic<F: BinaryFieldUnderTest>(o: &Gf2Oracle, w: usize) {
        let mut seen = [false; 2];
        let mut cs = sample_costly(o, w, 10);
        // Both traces must occur: add random values until they do (half of all have trace 1).
        let mut r = SplitMix(10);
        for _ in 0..6 {
            cs.push(r.element(o.m));
        }
        for c in cs {
            let x = enc::<F>(o, &c);
            let t = o.trace(&c);
            assert_eq!(x.trace(), t, "trace of {c:#x}");
            seen[t as usize] = true;
            if let Some(h) = x.half_trace() {
                check(o, &h, &o.half_trace(&c), "half_trace");
            }
            match x.solve_quadratic() {
                Some(z) => {
                    assert_eq!(t, 0, "solution for trace-1 {c:#x}");
                    let zz = dec(&z);
                    check(o, &z.square().add(&z), &c, "z² + z");
                    assert_eq!(o.mul(&zz, &zz) ^ &zz, c, "oracle z² + z");
                }
                None => assert_eq!(t, 1, "no solution for trace-0 {c:#x}"),
            }
        }
        assert!(seen[0] && seen[1], "both traces occur among the samples");
    }

    /// Equality and selection.
    pub fn eq_select<F: BinaryFieldUnderTest>(o: &Gf2Oracle, w: usize) {
        let v = sample(o, w, 11);
        for (i, a) in v.iter().enumerate() {
            let b = &v[(i * 5 + 1) % v.len()];
            let (x, y) = (enc::<F>(o, a), enc::<F>(o, b));
            assert_eq!(x == y, a == b);
            assert_eq!(x.ct_eq(&y), a == b);
            assert!(x.ct_eq(&x));
            assert!(F::select(&x, &y, false) == x);
            assert!(F::select(&x, &y, true) == y);
            assert_eq!(x.is_zero(), a.is_zero());
        }
    }

    /// Long runs x^(2^k) (the multi-squaring matrices' k, k + 1, 2k, and m − 1) by `square_n`
    /// and by each multi-squaring backend the build and CPU can run, against the oracle's k
    /// squarings. On an x86-64 CPU with AVX-512F a field with matrices must be using them
    /// (fails loudly rather than skipping).
    pub fn multi_square<F: BinaryFieldUnderTest>(o: &Gf2Oracle, w: usize) {
        let runs = F::multi_square_runs();
        let avx512 = {
            #[cfg(target_arch = "x86_64")]
            {
                std::is_x86_feature_detected!("avx512f")
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                false
            }
        };
        if !runs.is_empty() && avx512 {
            assert_eq!(F::square_n_backend(), "x86_64-avx512-matrix");
        }
        let mut ks: Vec<u32> = vec![u32::try_from(o.m).unwrap() - 1];
        for &k in &runs {
            // 2k: a run covered by two products of one matrix (sect409's 102 = 2·51).
            ks.extend([k, k + 1, 2 * k]);
        }
        let mut v = sample_costly(o, w, 13);
        v.truncate(5);
        let mut ran = 0;
        for k in ks {
            for a in &v {
                let x = enc::<F>(o, a);
                let want = o.square_n(a, k as usize);
                check(o, &x.square_n(k), &want, "square_n (long run)");
                for name in [
                    "x86_64-avx512-matrix",
                    "squarings",
                    "x86_64-clmul",
                    "x86_64-bmi2",
                ] {
                    if let Some(y) = x.square_n_with(k, name) {
                        check(o, &y, &want, name);
                        ran += (name == "x86_64-avx512-matrix") as usize;
                    }
                }
            }
        }
        if !runs.is_empty() && avx512 {
            assert!(ran > 0, "the AVX-512 multi-squaring kernel did not run");
        }
    }

    /// Every backend this build and CPU can run, against the oracle. Returns the names run.
    pub fn backends<F: BinaryFieldUnderTest>(o: &Gf2Oracle, w: usize) -> Vec<&'static str> {
        // At 32-bit words both portable products are always compiled in (the comb
        // `portable32`, the holes product `portable32-holes`), whichever `backend()` names.
        let names = [
            "portable64",
            "portable32",
            "portable32-holes",
            "x86_64-clmul",
            "aarch64-pmull",
        ];
        let v = sample(o, w, 12);
        let mut ran = Vec::new();
        for name in names {
            let x0 = enc::<F>(o, &v[0]);
            if x0.mul_with(&x0, name).is_none() {
                continue;
            }
            ran.push(name);
            for (i, a) in v.iter().enumerate() {
                let b = &v[(i * 3 + 2) % v.len()];
                let (x, y) = (enc::<F>(o, a), enc::<F>(o, b));
                check(o, &x.mul_with(&y, name).unwrap(), &o.mul(a, b), name);
                check(o, &x.square_with(name).unwrap(), &o.mul(a, a), name);
                // The product with itself and a second partner: the portable products split
                // elements at limb boundaries that are not word boundaries.
                check(o, &x.mul_with(&x, name).unwrap(), &o.mul(a, a), name);
                let c = &v[(i * 7 + 5) % v.len()];
                let z = enc::<F>(o, c);
                check(o, &x.mul_with(&z, name).unwrap(), &o.mul(a, c), name);
            }
        }
        assert!(
            ran.contains(&F::backend()),
            "backend() = {} did not run",
            F::backend()
        );
        // Squaring-only kernels: the PDEP squaring of the trinomials on x86-64.
        for name in ["x86_64-bmi2"] {
            if enc::<F>(o, &v[0]).square_with(name).is_none() {
                continue;
            }
            ran.push(name);
            for a in &v {
                check(
                    o,
                    &enc::<F>(o, a).square_with(name).unwrap(),
                    &o.mul(a, a),
                    name,
                );
            }
        }
        ran
    }
}

/// Instantiates the binary-field suite: `binary_field_suite!(module, Type, "poly", w, half_trace)`
/// (odd m) or `..., no_half_trace)` (even m). See the [module docs](crate::binary).
#[macro_export]
macro_rules! binary_field_suite {
    ($name:ident, $Field:ty, $poly:expr, $w:expr, half_trace) => {
        $crate::binary_field_suite!(@impl $name, $Field, $poly, $w, |x: &$Field| ::core::option::Option::Some(<$Field>::half_trace(x)));
    };
    ($name:ident, $Field:ty, $poly:expr, $w:expr, no_half_trace) => {
        $crate::binary_field_suite!(@impl $name, $Field, $poly, $w, |_x: &$Field| ::core::option::Option::<$Field>::None);
    };
    (@impl $name:ident, $Field:ty, $poly:expr, $w:expr, $half:expr) => {
        #[allow(unused_imports, dead_code, non_snake_case, clippy::all)]
        mod $name {
            use super::*;
            use $crate::binary::{props, BinaryFieldUnderTest, Gf2Oracle};

            const B: usize = (<$Field>::DEGREE as usize + 7) / 8;

            #[derive(Clone, Copy, Debug, PartialEq)]
            pub struct Under(pub $Field);

            fn oracle() -> &'static Gf2Oracle {
                static O: ::std::sync::OnceLock<Gf2Oracle> = ::std::sync::OnceLock::new();
                O.get_or_init(|| Gf2Oracle::new($poly))
            }

            fn arr(b: &[u8]) -> [u8; B] {
                ::core::convert::TryFrom::try_from(b).expect("B bytes")
            }

            impl BinaryFieldUnderTest for Under {
                const DEGREE: u32 = <$Field>::DEGREE;
                fn modulus_exponents() -> ::std::vec::Vec<u32> { <$Field>::MODULUS_EXPONENTS.to_vec() }
                fn zero() -> Self { Under(<$Field>::ZERO) }
                fn one() -> Self { Under(<$Field>::ONE) }
                fn default_value() -> Self { Under(<$Field as ::core::default::Default>::default()) }
                fn from_le_bytes(b: &[u8]) -> ::core::option::Option<Self> {
                    let d: $crate::subtle::CtOption<$Field> = <$Field>::from_le_bytes(&arr(b));
                    ::core::option::Option::<$Field>::from(d).map(Under)
                }
                fn from_be_bytes(b: &[u8]) -> ::core::option::Option<Self> {
                    let d: $crate::subtle::CtOption<$Field> = <$Field>::from_be_bytes(&arr(b));
                    ::core::option::Option::<$Field>::from(d).map(Under)
                }
                fn to_le_bytes(&self) -> ::std::vec::Vec<u8> { let a: [u8; B] = <$Field>::to_le_bytes(&self.0); a.to_vec() }
                fn to_be_bytes(&self) -> ::std::vec::Vec<u8> { let a: [u8; B] = <$Field>::to_be_bytes(&self.0); a.to_vec() }
                fn add(&self, r: &Self) -> Self { Under(<$Field>::add(&self.0, &r.0)) }
                fn sub(&self, r: &Self) -> Self { Under(<$Field>::sub(&self.0, &r.0)) }
                fn neg(&self) -> Self { Under(<$Field>::neg(&self.0)) }
                fn mul(&self, r: &Self) -> Self { Under(<$Field>::mul(&self.0, &r.0)) }
                fn square(&self) -> Self { Under(<$Field>::square(&self.0)) }
                fn square_n(&self, k: u32) -> Self { Under(<$Field>::square_n(&self.0, k)) }
                fn pow(&self, e: &[u64]) -> Self { Under(<$Field>::pow(&self.0, e)) }
                fn pow_vartime(&self, e: &[u64]) -> Self { Under(<$Field>::pow_vartime(&self.0, e)) }
                fn invert(&self) -> ::core::option::Option<Self> {
                    let i: $crate::subtle::CtOption<$Field> = <$Field>::invert(&self.0);
                    ::core::option::Option::<$Field>::from(i).map(Under)
                }
                fn invert_vartime(&self) -> ::core::option::Option<Self> {
                    let i: ::core::option::Option<$Field> = <$Field>::invert_vartime(&self.0);
                    i.map(Under)
                }
                fn sqrt(&self) -> Self { let s: $Field = <$Field>::sqrt(&self.0); Under(s) }
                fn trace(&self) -> u8 { let t: u8 = <$Field>::trace(&self.0); t }
                fn half_trace(&self) -> ::core::option::Option<Self> { ($half)(&self.0).map(Under) }
                fn solve_quadratic(&self) -> ::core::option::Option<Self> {
                    let z: $crate::subtle::CtOption<$Field> = <$Field>::solve_quadratic(&self.0);
                    ::core::option::Option::<$Field>::from(z).map(Under)
                }
                fn is_zero(&self) -> bool { let c: $crate::subtle::Choice = <$Field>::is_zero(&self.0); c.into() }
                fn ct_eq(&self, r: &Self) -> bool { $crate::subtle::ConstantTimeEq::ct_eq(&self.0, &r.0).into() }
                fn select(a: &Self, b: &Self, choice: bool) -> Self {
                    Under(<$Field as $crate::subtle::ConditionallySelectable>::conditional_select(&a.0, &b.0, $crate::subtle::Choice::from(choice as u8)))
                }
                fn op_forms(&self, r: &Self, op: u8) -> [Self; 4] {
                    let (a, b) = (self.0, r.0);
                    let (mut c, mut d) = (a, a);
                    let (e, f): ($Field, $Field) = match op {
                        0 => { c += b; d += &b; (a + b, &a + &b) }
                        1 => { c -= b; d -= &b; (a - b, &a - &b) }
                        _ => { c *= b; d *= &b; (a * b, &a * &b) }
                    };
                    [Under(e), Under(f), Under(c), Under(d)]
                }
                fn op_neg(&self) -> [Self; 2] { [Under(-self.0), Under(-&self.0)] }
                fn debug(&self) -> ::std::string::String { ::std::format!("{:?}", self.0) }
                fn backend() -> &'static str { <$Field>::backend() }
                fn mul_with(&self, r: &Self, backend: &str) -> ::core::option::Option<Self> {
                    <$Field>::__mul_with_backend(&self.0, &r.0, backend).map(Under)
                }
                fn square_with(&self, backend: &str) -> ::core::option::Option<Self> {
                    <$Field>::__square_with_backend(&self.0, backend).map(Under)
                }
                fn multi_square_runs() -> ::std::vec::Vec<u32> { <$Field>::MULTI_SQUARE_RUNS.to_vec() }
                fn square_n_backend() -> &'static str { <$Field>::square_n_backend() }
                fn square_n_with(&self, k: u32, backend: &str) -> ::core::option::Option<Self> {
                    <$Field>::__square_n_with_backend(&self.0, k, backend).map(Under)
                }
            }

            #[test] fn constants() { props::constants::<Under>(oracle()) }
            #[test] fn modulus_is_irreducible() { props::modulus_is_irreducible(oracle()) }
            #[test] fn encoding() { props::encoding::<Under>(oracle(), $w) }
            #[test] fn decoding_rejects_high_bits() { props::decoding_rejects_high_bits::<Under>(oracle()) }
            #[test] fn add_sub_neg() { props::add_sub_neg::<Under>(oracle(), $w) }
            #[test] fn mul_edges() { props::mul_edges::<Under>(oracle(), $w) }
            #[test] fn mul_random() { props::mul_random::<Under>(oracle()) }
            #[test] fn square() { props::square::<Under>(oracle(), $w) }
            #[test] fn pow() { props::pow::<Under>(oracle(), $w) }
            #[test] fn invert() { props::invert::<Under>(oracle(), $w) }
            #[test] fn sqrt() { props::sqrt::<Under>(oracle(), $w) }
            #[test] fn trace_half_trace_quadratic() { props::trace_half_trace_quadratic::<Under>(oracle(), $w) }
            #[test] fn eq_select() { props::eq_select::<Under>(oracle(), $w) }
            #[test] fn backends() { props::backends::<Under>(oracle(), $w); }
            #[test] fn multi_square() { props::multi_square::<Under>(oracle(), $w) }
        }
    };
}
