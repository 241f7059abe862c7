//! Polynomials over GF(2) for the generator: parsing `x^163+x^7+x^6+x^3+1`, arithmetic on
//! bit vectors (bit i = coefficient of x^i, 64-bit words, least significant first), and Ben-Or's
//! irreducibility test.
//!
//! Ben-Or: f of degree m is irreducible iff gcd(f, x^(2^i) − x mod f) = 1 for every
//! 1 ≤ i ≤ m/2 (M. Ben-Or, "Probabilistic algorithms in finite fields", FOCS 1981; see also
//! S. Gao and D. Panario, "Tests and constructions of irreducible polynomials over finite
//! fields", 1997, which measures it against Rabin's test).

use core::fmt;

/// A polynomial over GF(2): bit i of `words` is the coefficient of x^i. Trailing zero words are
/// trimmed, so equal polynomials have equal representations.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Poly {
    words: Vec<u64>,
}

impl fmt::Debug for Poly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl fmt::Display for Poly {
    /// Terms in descending order: `x^163+x^7+x^6+x^3+1`; `0` for the zero polynomial.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let terms = self.exponents();
        if terms.is_empty() {
            return f.write_str("0");
        }
        let parts: Vec<String> = terms
            .iter()
            .map(|&e| match e {
                0 => "1".to_string(),
                1 => "x".to_string(),
                e => format!("x^{e}"),
            })
            .collect();
        f.write_str(&parts.join("+"))
    }
}

impl Poly {
    /// The zero polynomial.
    pub fn zero() -> Poly {
        Poly { words: Vec::new() }
    }

    /// The constant 1.
    pub fn one() -> Poly {
        Poly::monomial(0)
    }

    /// x^e.
    pub fn monomial(e: usize) -> Poly {
        let mut p = Poly::zero();
        p.flip(e);
        p
    }

    /// The sum of x^e over `exps` (a repeated exponent cancels).
    pub fn from_exponents(exps: &[usize]) -> Poly {
        let mut p = Poly::zero();
        for &e in exps {
            p.flip(e);
        }
        p
    }

    /// From 64-bit words, least significant first.
    pub fn from_words(words: &[u64]) -> Poly {
        let mut p = Poly {
            words: words.to_vec(),
        };
        p.trim();
        p
    }

    fn trim(&mut self) {
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
    }

    /// Adds x^e.
    pub fn flip(&mut self, e: usize) {
        if self.words.len() <= e / 64 {
            self.words.resize(e / 64 + 1, 0);
        }
        self.words[e / 64] ^= 1 << (e % 64);
        self.trim();
    }

    /// The coefficient of x^e.
    pub fn bit(&self, e: usize) -> bool {
        self.words
            .get(e / 64)
            .is_some_and(|w| w >> (e % 64) & 1 == 1)
    }

    /// True for the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.words.is_empty()
    }

    /// The degree; `None` for zero.
    pub fn degree(&self) -> Option<usize> {
        let top = *self.words.last()?;
        Some(64 * (self.words.len() - 1) + 63 - top.leading_zeros() as usize)
    }

    /// The exponents of the non-zero terms, highest first.
    pub fn exponents(&self) -> Vec<usize> {
        let mut v: Vec<usize> = (0..64 * self.words.len())
            .filter(|&e| self.bit(e))
            .collect();
        v.reverse();
        v
    }

    /// The coefficients as `count` words of `w` bits (32 or 64), least significant first;
    /// bits beyond `count·w` are dropped.
    pub fn to_words(&self, w: u32, count: usize) -> Vec<u64> {
        (0..count)
            .map(|i| {
                let mut x = 0u64;
                for b in 0..w as usize {
                    if self.bit(i * w as usize + b) {
                        x |= 1 << b;
                    }
                }
                x
            })
            .collect()
    }

    /// self + other (xor).
    pub fn add(&self, other: &Poly) -> Poly {
        let n = self.words.len().max(other.words.len());
        let words: Vec<u64> = (0..n)
            .map(|i| {
                self.words.get(i).copied().unwrap_or(0) ^ other.words.get(i).copied().unwrap_or(0)
            })
            .collect();
        Poly::from_words(&words)
    }

    /// self · x^s.
    pub fn shl(&self, s: usize) -> Poly {
        if self.is_zero() {
            return Poly::zero();
        }
        let (q, r) = (s / 64, s % 64);
        let mut words = vec![0u64; self.words.len() + q + 1];
        for (i, &w) in self.words.iter().enumerate() {
            words[i + q] ^= w << r;
            if r != 0 {
                words[i + q + 1] ^= w >> (64 - r);
            }
        }
        Poly::from_words(&words)
    }

    /// self div x^s.
    pub fn shr(&self, s: usize) -> Poly {
        let (q, r) = (s / 64, s % 64);
        let words: Vec<u64> = (q..self.words.len())
            .map(|i| {
                let lo = self.words[i] >> r;
                let hi = if r != 0 {
                    self.words.get(i + 1).map_or(0, |w| w << (64 - r))
                } else {
                    0
                };
                lo | hi
            })
            .collect();
        Poly::from_words(&words)
    }

    /// self mod x^s.
    pub fn low(&self, s: usize) -> Poly {
        let mut words: Vec<u64> = self.words.iter().take(s.div_ceil(64)).copied().collect();
        if !s.is_multiple_of(64) {
            if let Some(last) = words.get_mut(s / 64) {
                *last &= (1u64 << (s % 64)) - 1;
            }
        }
        Poly::from_words(&words)
    }

    /// The carry-less product.
    pub fn mul(&self, other: &Poly) -> Poly {
        let mut words = vec![0u64; self.words.len() + other.words.len()];
        for (i, &a) in self.words.iter().enumerate() {
            for b in 0..64 {
                if a >> b & 1 == 1 {
                    for (j, &c) in other.words.iter().enumerate() {
                        words[i + j] ^= c << b;
                        if b != 0 {
                            words[i + j + 1] ^= c >> (64 - b);
                        }
                    }
                }
            }
        }
        Poly::from_words(&words)
    }

    /// Quotient and remainder of division by `d` (non-zero).
    pub fn divrem(&self, d: &Poly) -> (Poly, Poly) {
        let dd = d.degree().expect("division by zero polynomial");
        let mut r = self.clone();
        let mut q = Poly::zero();
        while let Some(rd) = r.degree() {
            if rd < dd {
                break;
            }
            q.flip(rd - dd);
            r = r.add(&d.shl(rd - dd));
        }
        (q, r)
    }

    /// self mod d.
    pub fn rem(&self, d: &Poly) -> Poly {
        self.divrem(d).1
    }

    /// The greatest common divisor (monic: over GF(2) every non-zero polynomial is).
    pub fn gcd(&self, other: &Poly) -> Poly {
        let (mut a, mut b) = (self.clone(), other.clone());
        while !b.is_zero() {
            let r = a.rem(&b);
            a = b;
            b = r;
        }
        a
    }

    /// self² (bit i moves to bit 2i).
    pub fn square(&self) -> Poly {
        let mut words = vec![0u64; 2 * self.words.len()];
        for (i, &w) in self.words.iter().enumerate() {
            for b in 0..64 {
                if w >> b & 1 == 1 {
                    let e = 2 * (64 * i + b);
                    words[e / 64] |= 1 << (e % 64);
                }
            }
        }
        Poly::from_words(&words)
    }

    /// self^(2^k) mod f.
    pub fn square_n_mod(&self, k: usize, f: &Poly) -> Poly {
        let mut x = self.rem(f);
        for _ in 0..k {
            x = x.square().rem(f);
        }
        x
    }

    /// self · other mod f.
    pub fn mulmod(&self, other: &Poly, f: &Poly) -> Poly {
        self.mul(other).rem(f)
    }

    /// Ben-Or's test: true iff self, of degree ≥ 1, is irreducible over GF(2).
    pub fn is_irreducible(&self) -> bool {
        let Some(m) = self.degree() else {
            return false;
        };
        if m == 0 {
            return false;
        }
        if m == 1 {
            return true;
        }
        let x = Poly::monomial(1);
        let mut xp = x.clone(); // x^(2^i) mod f
        for _ in 1..=m / 2 {
            xp = xp.square().rem(self);
            if !self.gcd(&xp.add(&x)).eq(&Poly::one()) {
                return false;
            }
        }
        true
    }

    /// The inverse of self modulo f (f irreducible, self not divisible by f): self^(2^m − 2).
    pub fn invmod(&self, f: &Poly) -> Poly {
        let m = f.degree().expect("non-zero modulus");
        // Extended Euclid.
        let (mut r0, mut r1) = (f.clone(), self.rem(f));
        let (mut s0, mut s1) = (Poly::zero(), Poly::one());
        while !r1.is_zero() {
            let (q, r) = r0.divrem(&r1);
            let s = s0.add(&q.mul(&s1));
            r0 = r1;
            r1 = r;
            s0 = s1;
            s1 = s;
        }
        debug_assert!(
            r0 == Poly::one(),
            "not invertible mod a degree-{m} polynomial"
        );
        s0.rem(f)
    }
}

/// Why a polynomial text was refused. `Display` is one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolyParseError {
    /// Nothing but whitespace.
    Empty,
    /// A term that is not `x^k`, `x` or `1`.
    BadTerm(String),
    /// The same exponent twice.
    Repeated(usize),
    /// An exponent too large to be plausible (above 1,000,000).
    HugeExponent(String),
}

impl fmt::Display for PolyParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolyParseError::Empty => f.write_str("the polynomial is empty: give one such as x^163+x^7+x^6+x^3+1 or a preset name (--list-presets)"),
            PolyParseError::BadTerm(t) => write!(f, "cannot read the term `{t}`: write terms as x^k, x or 1, joined by +"),
            PolyParseError::Repeated(e) => write!(f, "the term x^{e} appears twice: write each term once"),
            PolyParseError::HugeExponent(t) => write!(f, "the exponent in `{t}` is too large"),
        }
    }
}

/// Parses `x^163+x^7+x^6+x^3+1` (spaces allowed; `X` and `z` accepted for the variable, `**`
/// for `^`; terms in any order). Does not check the degree or irreducibility.
pub fn parse_poly(text: &str) -> Result<Poly, PolyParseError> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.is_empty() {
        return Err(PolyParseError::Empty);
    }
    let mut p = Poly::zero();
    let mut seen = std::collections::HashSet::new();
    for term in compact.split('+') {
        let e = parse_term(term)?;
        if !seen.insert(e) {
            return Err(PolyParseError::Repeated(e));
        }
        p.flip(e);
    }
    Ok(p)
}

fn parse_term(term: &str) -> Result<usize, PolyParseError> {
    let bad = || PolyParseError::BadTerm(term.to_string());
    if term == "1" {
        return Ok(0);
    }
    let rest = term.strip_prefix(['x', 'X', 'z']).ok_or_else(bad)?;
    if rest.is_empty() {
        return Ok(1);
    }
    let digits = rest
        .strip_prefix('^')
        .or_else(|| rest.strip_prefix("**"))
        .ok_or_else(bad)?;
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    if digits.len() > 7 {
        return Err(PolyParseError::HugeExponent(term.to_string()));
    }
    let e: usize = digits.parse().map_err(|_| bad())?;
    if e > 1_000_000 {
        return Err(PolyParseError::HugeExponent(term.to_string()));
    }
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let p = parse_poly(" x^163 + x^7+x^6+x^3+1").unwrap();
        assert_eq!(p.exponents(), vec![163, 7, 6, 3, 0]);
        assert_eq!(p.to_string(), "x^163+x^7+x^6+x^3+1");
        assert_eq!(parse_poly("1+x+x^2").unwrap().to_string(), "x^2+x+1");
        for bad in ["", "x^", "y^3+1", "x^3+x^3+1", "x^3++1", "2x+1", "x^-1"] {
            assert!(parse_poly(bad).is_err(), "{bad}");
        }
    }

    /// All irreducible polynomials of degree ≤ 8 by trial division, against Ben-Or. Counts
    /// follow Gauss's formula (1/n)·Σ μ(d)·2^(n/d): 2, 1, 2, 3, 6, 9, 18, 30.
    #[test]
    fn ben_or_matches_trial_division() {
        let reducible_by_trial = |f: &Poly| {
            let m = f.degree().unwrap();
            (2u64..(1 << (m / 2 + 1)))
                .map(|d| Poly::from_words(&[d]))
                .filter(|d| d.degree().unwrap() <= m / 2 && d.degree().unwrap() >= 1)
                .any(|d| f.rem(&d).is_zero())
        };
        let expected = [2usize, 1, 2, 3, 6, 9, 18, 30];
        for m in 1..=8usize {
            let mut count = 0;
            for low in 0u64..(1 << m) {
                let f = Poly::from_words(&[(1u64 << m) | low]);
                let trial = !reducible_by_trial(&f);
                assert_eq!(f.is_irreducible(), trial, "{f}");
                count += trial as usize;
            }
            assert_eq!(count, expected[m - 1], "degree {m}");
        }
    }

    #[test]
    fn arithmetic() {
        let f = parse_poly("x^8+x^4+x^3+x+1").unwrap();
        // FIPS 197 §4.2: {57}·{83} = {c1}.
        let a = Poly::from_words(&[0x57]);
        let b = Poly::from_words(&[0x83]);
        assert_eq!(a.mulmod(&b, &f), Poly::from_words(&[0xc1]));
        // FIPS 197 §4.2.1 example: {53}^-1 = {ca}.
        assert_eq!(
            Poly::from_words(&[0x53]).invmod(&f),
            Poly::from_words(&[0xca])
        );
        let big = Poly::from_exponents(&[200, 100, 64, 63, 0]);
        assert_eq!(big.shl(70).shr(70), big);
        assert_eq!(big.low(64), Poly::from_exponents(&[63, 0]));
    }
}
