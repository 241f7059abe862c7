//! Probable-prime test and the multiplicative generator of a prime field.
//!
//! Primality is the Baillie–PSW test (a strong probable-prime test to base 2 followed by a
//! strong Lucas probable-prime test with Selfridge's parameters; Baillie and Wagstaff, "Lucas
//! pseudoprimes", Math. Comp. 35, 1980) as implemented by the `num-prime` crate, after trial
//! division by small primes. Below 2^64 the test is deterministic. No composite is known to pass
//! Baillie–PSW.
//!
//! The generator needs the prime factors of p-1: they are found by trial division, by dividing
//! out a short table of known large factors (for the presets), and by Pollard's rho with a fixed
//! iteration budget, so the answer is the same on every machine and the search always ends.

use num_bigint::BigUint;
use num_integer::Integer;
use num_prime::nt_funcs;
use num_prime::PrimalityTestConfig;
use num_traits::{One, ToPrimitive, Zero};

/// Odd primes below this bound are tried as divisors before the probable-prime test.
const PRETEST_BOUND: u32 = 1000;

/// Primes below this bound are divided out of p-1 by trial division.
const TRIAL_BOUND: u32 = 1 << 16;

/// Work allowed to Pollard's rho for one factorization, in iterations × (limbs² + 16), where
/// limbs counts the 64-bit words of the number being split: the time of one iteration is about
/// proportional to that (two Montgomery multiplications plus a fixed overhead), so the total is
/// bounded whatever the size, around a second in an optimized build. That is about 2.6 million
/// iterations on a 384-bit cofactor (most factors up to 40 bits are found), 4.2 million on a
/// 256-bit one, 8 000 on an 8192-bit one.
const RHO_WORK: u64 = 1 << 27;

/// Candidates g = 2, 3, ... tried before [`multiplicative_generator`] gives up. The least
/// primitive root of a prime is almost always below 100.
const MAX_GENERATOR_CANDIDATES: u32 = 10_000;

/// Prime factors of p-1, for the presets and a few other widely used primes, that Pollard's rho
/// cannot find in its budget (and a few it would find slowly): tried as divisors of any
/// cofactor. An entry is only ever used after it divides exactly, and every factor is checked
/// for primality, so a wrong entry can make the search fail but never give a wrong answer.
/// Found with ECM; the tests check that each entry is prime and divides one of those p-1.
const KNOWN_FACTORS: &[&str] = &[
    // curve25519-l
    "198211423230930754013084525763697",
    // p256-n
    "1002328039319",
    // secp256k1-n
    "107361793816595537",
    "174723607534414371449",
    // bls12-381-p
    "2584487767265781317813",
    // bn254-p
    "11465965001",
    // bn254-r
    "1670836401704629",
    // fp254bnb-p
    "5994341377",
    "22009001472962227",
    // fp254bnb-r
    "101148471075752777",
    // bn381-p, bn381-r
    "1508116460504329693",
    "1081183294818244278029",
    "13499161359826741",
    // bn462-p, bn462-r
    "3085062888764119",
    "10091442111589109206349",
    "151738455137",
    // NIST P-384 (FIPS 186-4 D.1.2.4): p = 2^384-2^128-2^96+2^32-1
    "807145746439",
    // NIST P-521 (FIPS 186-4 D.1.2.5): p = 2^521-1
    "65427463921",
    "108140989558681",
    "145295143558111",
    // Ed448-Goldilocks (RFC 7748 §4.2): p = 2^448-2^224-1
    "1469495262398780123809",
    "167773885276849215533569",
    "596242599987116128415063",
];

/// Baillie–PSW probable-prime test.
///
/// Exact for `n < 2^64`; above that, no composite is known to pass. Returns `false` for 0 and 1.
/// Cost in an optimized build: about 0.2 s for a 4096-bit prime and 1 s for an 8192-bit one
/// (the Lucas part dominates); most composites are rejected by trial division or the base-2
/// test, in at most a third of that.
pub fn is_probable_prime(n: &BigUint) -> bool {
    if let Some(small) = n.to_u64() {
        return nt_funcs::is_prime64(small);
    }
    if n.is_even() {
        return false;
    }
    // n > 2^64, so a small divisor means composite.
    if small_primes(PRETEST_BOUND)
        .iter()
        .skip(1)
        .any(|&q| (n % q).is_zero())
    {
        return false;
    }
    nt_funcs::is_prime(n, Some(PrimalityTestConfig::bpsw())).probably()
}

/// The smallest g ≥ 2 that generates the multiplicative group (Z/p)^*, for an odd prime p
/// (for p = 3 it is 2).
///
/// Returns `None` when p is not a probable prime (including p < 3), when p-1 could not be fully
/// factored into probable primes within a fixed work budget, or when no generator is found
/// among the first 10 000 candidates. The budget is counted in iterations, not time, so the
/// result depends only on p. g is checked against every prime factor q of p-1:
/// g^((p-1)/q) ≠ 1 (mod p); in particular g is a quadratic non-residue.
pub fn multiplicative_generator(p: &BigUint) -> Option<BigUint> {
    if *p < BigUint::from(3u32) || p.is_even() {
        return None;
    }
    // Factor first: when that fails, the (costly, for thousands of bits) primality test of p
    // is not needed.
    let factors = prime_factors(&(p - 1u32), RHO_WORK, true)?;
    if !is_probable_prime(p) {
        return None;
    }
    generator_from_factors(p, &factors)
}

/// The least g ≥ 2 with g^((p-1)/q) ≠ 1 for every q in `factors` (the distinct prime factors
/// of p-1, ascending).
fn generator_from_factors(p: &BigUint, factors: &[BigUint]) -> Option<BigUint> {
    let one = BigUint::one();
    let p_minus_1 = p - 1u32;
    let cofactors: Vec<BigUint> = factors.iter().map(|q| &p_minus_1 / q).collect();
    for candidate in 2..MAX_GENERATOR_CANDIDATES.saturating_add(2) {
        let g = BigUint::from(candidate);
        if g >= *p {
            return None;
        }
        // A generator is a non-residue: the Jacobi symbol rules most candidates out cheaply.
        if jacobi(&g, p) != -1 {
            continue;
        }
        if cofactors.iter().all(|e| g.modpow(e, p) != one) {
            return Some(g);
        }
    }
    None
}

/// The distinct prime factors of `n` (ascending), or `None` if a composite cofactor resisted
/// Pollard's rho within `rho_work` (see [`RHO_WORK`]). `use_known` enables the
/// [`KNOWN_FACTORS`] table.
pub(crate) fn prime_factors(n: &BigUint, rho_work: u64, use_known: bool) -> Option<Vec<BigUint>> {
    if n.is_zero() {
        return None;
    }
    let mut found: Vec<BigUint> = Vec::new();
    let mut rest = n.clone();
    for q in small_primes(TRIAL_BOUND) {
        if (&rest % q).is_zero() {
            found.push(BigUint::from(q));
            while (&rest % q).is_zero() {
                rest /= q;
            }
        }
        if rest.is_one() {
            break;
        }
    }

    let known: Vec<BigUint> = if use_known {
        KNOWN_FACTORS
            .iter()
            .filter_map(|s| BigUint::parse_bytes(s.as_bytes(), 10))
            .collect()
    } else {
        Vec::new()
    };
    let mut work_left = rho_work;
    let mut todo = vec![rest];
    while let Some(c) = todo.pop() {
        if c.is_one() {
            continue;
        }
        if is_probable_prime(&c) {
            found.push(c);
            continue;
        }
        if let Some(small) = c.to_u64() {
            found.extend(nt_funcs::factorize64(small).into_keys().map(BigUint::from));
            continue;
        }
        if let Some(k) = known
            .iter()
            .find(|k| **k > BigUint::one() && **k < c && (&c % *k).is_zero())
        {
            todo.push(&c / k);
            todo.push(k.clone());
            continue;
        }
        if let Some(root) = perfect_power_root(&c) {
            todo.push(root);
            continue;
        }
        let d = rho_divisor(&c, &mut work_left)?;
        todo.push(&c / &d);
        todo.push(d);
    }
    found.sort();
    found.dedup();
    Some(found)
}

/// A proper divisor of the odd composite `c` (not a perfect power) by Pollard's rho with
/// Brent's cycle detection and batched gcds (R. P. Brent, "An improved Monte Carlo
/// factorization algorithm", BIT 20, 1980), over Montgomery arithmetic. Tries the maps
/// x ↦ x² + k for k = 1, 2, ... until `work_left` (see [`RHO_WORK`]) runs out.
fn rho_divisor(c: &BigUint, work_left: &mut u64) -> Option<BigUint> {
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
struct Montgomery {
    n: Vec<u64>,
    /// -n⁻¹ mod 2^64.
    n0: u64,
    modulus: BigUint,
}

impl Montgomery {
    fn new(n: &BigUint) -> Self {
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

    fn limbs_of(&self, x: &BigUint) -> Vec<u64> {
        let mut v: Vec<u64> = (x % &self.modulus).iter_u64_digits().collect();
        v.resize(self.n.len(), 0);
        v
    }

    fn to_big(x: &[u64]) -> BigUint {
        let bytes: Vec<u8> = x.iter().flat_map(|w| w.to_le_bytes()).collect();
        BigUint::from_bytes_le(&bytes)
    }

    /// x ≥ n, for x extended by the word `top`.
    fn at_least_n(&self, x: &[u64], top: u64) -> bool {
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
    fn sub_n(&self, x: &mut [u64]) {
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
    fn mul(&self, a: &[u64], b: &[u64], out: &mut [u64], t: &mut [u64]) {
        let n = &self.n[..];
        let len = n.len();
        let (a, b, out, t) = (&a[..len], &b[..len], &mut out[..len], &mut t[..len + 2]);
        t.fill(0);
        for &bi in b {
            let mut carry = 0u64;
            for (tj, &aj) in t.iter_mut().zip(a) {
                let v = *tj as u128 + aj as u128 * bi as u128 + carry as u128;
                *tj = v as u64;
                carry = (v >> 64) as u64;
            }
            let v = t[len] as u128 + carry as u128;
            t[len] = v as u64;
            t[len + 1] = (v >> 64) as u64;
            let m = t[0].wrapping_mul(self.n0);
            let mut carry = ((t[0] as u128 + m as u128 * n[0] as u128) >> 64) as u64;
            for j in 1..len {
                let v = t[j] as u128 + m as u128 * n[j] as u128 + carry as u128;
                t[j - 1] = v as u64;
                carry = (v >> 64) as u64;
            }
            let v = t[len] as u128 + carry as u128;
            t[len - 1] = v as u64;
            t[len] = t[len + 1] + (v >> 64) as u64;
        }
        out.copy_from_slice(&t[..len]);
        if self.at_least_n(out, t[len]) {
            self.sub_n(out);
        }
    }

    /// x = x + k mod n, for k < n.
    fn add_small(&self, x: &mut [u64], k: u64) {
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
    fn sub(&self, a: &[u64], b: &[u64], out: &mut [u64]) {
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
    fn brent(&self, k: u64, budget: u64) -> (Option<BigUint>, u64) {
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

/// If `c` is a perfect power, an r with c = r^k for the smallest prime k that works (r has the
/// same prime factors as c). Assumes every prime factor of `c` is at least [`TRIAL_BOUND`],
/// which bounds k.
fn perfect_power_root(c: &BigUint) -> Option<BigUint> {
    let max_k = (c.bits() / u64::from(TRIAL_BOUND.ilog2())).max(2);
    let max_k = u32::try_from(max_k).unwrap_or(u32::MAX);
    for k in small_primes(max_k.saturating_add(1).min(1 << 20)) {
        let root = c.nth_root(k);
        if root > BigUint::one() && root.pow(k) == *c {
            return Some(root);
        }
    }
    None
}

/// Jacobi symbol (a/n) for odd n ≥ 3 (Cohen, "A Course in Computational Algebraic Number
/// Theory", Algorithm 1.4.10).
fn jacobi(a: &BigUint, n: &BigUint) -> i8 {
    let mut a = a % n;
    let mut n = n.clone();
    let mut sign = 1i8;
    while !a.is_zero() {
        let twos = a.trailing_zeros().unwrap_or(0);
        a >>= twos as usize;
        let n_mod_8 = (&n % 8u32).to_u32().unwrap_or(0);
        if twos % 2 == 1 && (n_mod_8 == 3 || n_mod_8 == 5) {
            sign = -sign;
        }
        if (&a % 4u32).to_u32() == Some(3) && n_mod_8 % 4 == 3 {
            sign = -sign;
        }
        core::mem::swap(&mut a, &mut n);
        a %= &n;
    }
    if n.is_one() {
        sign
    } else {
        0
    }
}

/// Primes below `bound`, ascending (sieve of Eratosthenes).
fn small_primes(bound: u32) -> Vec<u32> {
    let bound = bound as usize;
    if bound < 3 {
        return Vec::new();
    }
    let mut composite = vec![false; bound];
    let mut primes = Vec::new();
    for i in 2..bound {
        if !composite[i] {
            primes.push(i as u32);
            let mut j = i * i;
            while j < bound {
                composite[j] = true;
                j += i;
            }
        }
    }
    primes
}

#[cfg(test)]
mod tests {
    use super::super::{parse_modulus_expr, PRESETS};
    use super::*;
    use num_traits::Num;

    fn big(s: &str) -> BigUint {
        parse_modulus_expr(s).unwrap()
    }

    /// Deterministic pseudo-random numbers (SplitMix64).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        fn below_pow2(&mut self, bits: u32) -> BigUint {
            let words = bits.div_ceil(64);
            let mut x = BigUint::zero();
            for _ in 0..words {
                x = (x << 64) + self.next();
            }
            x >> (words * 64 - bits) as usize
        }
    }

    /// Miller–Rabin with the given bases, written independently of the code under test.
    fn miller_rabin(n: &BigUint, bases: &[u32]) -> bool {
        let one = BigUint::one();
        if *n < BigUint::from(2u32) {
            return false;
        }
        for &b in bases {
            if *n == BigUint::from(b) {
                return true;
            }
            if (n % b).is_zero() {
                return false;
            }
        }
        let n1 = n - 1u32;
        let s = n1.trailing_zeros().unwrap();
        let d = &n1 >> s as usize;
        'bases: for &b in bases {
            let mut x = BigUint::from(b).modpow(&d, n);
            if x == one || x == n1 {
                continue;
            }
            for _ in 1..s {
                x = x.modpow(&BigUint::from(2u32), n);
                if x == n1 {
                    continue 'bases;
                }
            }
            return false;
        }
        true
    }

    const MR_BASES: [u32; 20] = [
        2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71,
    ];

    #[test]
    fn known_primes() {
        for s in [
            "2",
            "3",
            "5",
            "7",
            "65537",
            "2^31-1",
            "2^61-1",
            "2^64-59",
            "2^89-1",
            "2^107-1",
            "2^127-1",
            "2^521-1",
            "2^607-1",
            "2^255-19",
            "2^130-5",
            "2^448-2^224-1",
        ] {
            assert!(is_probable_prime(&big(s)), "{s}");
        }
        for preset in PRESETS {
            assert!(is_probable_prime(&big(preset.modulus)), "{}", preset.name);
        }
    }

    #[test]
    fn known_composites() {
        let carmichael = [
            "561",
            "41041",
            "825265",
            "321197185",
            "5394826801",
            "232250619601",
            "9746347772161",
        ];
        let strong_pseudoprimes = [
            "2047",                      // spsp(2)
            "3215031751",                // spsp(2, 3, 5, 7)
            "3825123056546413051",       // spsp to bases 2..23
            "318665857834031151167461",  // spsp to bases 2..37
            "3317044064679887385961981", // spsp to bases 2..41
        ];
        for s in carmichael.iter().chain(&strong_pseudoprimes) {
            let n = big(s);
            assert!(!is_probable_prime(&n), "{s}");
        }
        // The pseudoprimes really do fool Miller–Rabin with the first primes as bases.
        assert!(miller_rabin(&big("3825123056546413051"), &MR_BASES[..9]));
        assert!(miller_rabin(
            &big("318665857834031151167461"),
            &MR_BASES[..12]
        ));
        assert!(miller_rabin(
            &big("3317044064679887385961981"),
            &MR_BASES[..13]
        ));
        assert!(!is_probable_prime(&BigUint::zero()));
        for s in [
            "1",
            "4",
            "9",
            "2^64",
            "2^64+1",
            "2^128+1",
            "2^521+1",
            "(2^127-1)^2",
            "(2^89-1)^3",
        ] {
            assert!(!is_probable_prime(&big(s)), "{s}");
        }
        // Products of two large primes, and of a large prime with a small one.
        let pairs = [
            ("2^127-1", "2^89-1"),
            ("2^255-19", "2^130-5"),
            ("2^521-1", "2^607-1"),
            ("2^127-1", "2^127-1"),
            ("2^255-19", "1009"),
        ];
        for (a, b) in pairs {
            assert!(!is_probable_prime(&(big(a) * big(b))), "{a} * {b}");
        }
        for preset in PRESETS {
            let p = big(preset.modulus);
            assert!(!is_probable_prime(&(&p * &p)), "{}^2", preset.name);
        }
    }

    #[test]
    fn agrees_with_miller_rabin_on_random_odd_numbers() {
        let mut rng = Rng(0x5eed_1234_abcd_0001);
        let mut primes = 0;
        for i in 0..3000 {
            let bits = 2 + (i % 127) as u32;
            let n = rng.below_pow2(bits) | BigUint::one();
            let expected = miller_rabin(&n, &MR_BASES);
            assert_eq!(is_probable_prime(&n), expected, "{n}");
            primes += expected as u32;
        }
        assert!(primes > 100, "too few primes sampled: {primes}");
        // Dense primes near 2^128: n = 2^128 - k for odd k.
        let top = BigUint::one() << 128;
        for k in (1u32..4000).step_by(2) {
            let n = &top - k;
            assert_eq!(
                is_probable_prime(&n),
                miller_rabin(&n, &MR_BASES),
                "2^128-{k}"
            );
        }
    }

    #[test]
    fn jacobi_matches_euler_criterion() {
        for p in [3u32, 5, 7, 11, 13, 101, 65537] {
            let pb = BigUint::from(p);
            for a in 0..60u32 {
                let euler = BigUint::from(a).modpow(&BigUint::from((p - 1) / 2), &pb);
                let expected = if euler.is_zero() {
                    0
                } else if euler.is_one() {
                    1
                } else {
                    -1
                };
                assert_eq!(jacobi(&BigUint::from(a), &pb), expected, "({a}/{p})");
            }
        }
        // Composite modulus: (2/15) = (2/3)(2/5) = 1, (7/15) = (7/3)(7/5) = 1·(-1) = -1.
        assert_eq!(jacobi(&BigUint::from(2u32), &BigUint::from(15u32)), 1);
        assert_eq!(jacobi(&BigUint::from(7u32), &BigUint::from(15u32)), -1);
        assert_eq!(jacobi(&BigUint::from(5u32), &BigUint::from(15u32)), 0);
    }

    /// Checks that g generates (Z/p)^* given the complete factorization of p-1, and that no
    /// smaller candidate does.
    fn check_generator(p: &BigUint, g: &BigUint, factors: &[BigUint]) {
        let one = BigUint::one();
        let p_minus_1 = p - 1u32;
        let mut rest = p_minus_1.clone();
        for q in factors {
            assert!(is_probable_prime(q), "factor {q} of p-1 is not prime");
            assert!((&rest % q).is_zero(), "{q} does not divide p-1");
            while (&rest % q).is_zero() {
                rest /= q;
            }
        }
        assert!(
            rest.is_one(),
            "factorization of p-1 is incomplete for p = {p}"
        );
        for q in factors {
            assert_ne!(
                g.modpow(&(&p_minus_1 / q), p),
                one,
                "g = {g} has order dividing (p-1)/{q}"
            );
        }
        if *p > BigUint::from(2u32) {
            assert_eq!(
                g.modpow(&(&p_minus_1 >> 1), p),
                p_minus_1,
                "g = {g} is a square"
            );
        }
        let mut h = BigUint::from(2u32);
        while h < *g {
            assert!(
                factors
                    .iter()
                    .any(|q| h.modpow(&(&p_minus_1 / q), p) == one),
                "{h} < {g} is also a generator"
            );
            h += 1u32;
        }
    }

    /// Presets whose p − 1 has a 371-bit composite cofactor (p384-n: p − 1 = 2·3²·7²·13·c)
    /// that neither Pollard's rho in its budget nor a short ECM run split, so no generator is
    /// known. Their fields need none: p384-n has 2-adicity 1 and its root of unity is −1.
    const UNFACTORED_PRESETS: &[&str] = &["p384-n"];

    #[test]
    fn generators_of_the_presets() {
        for preset in PRESETS {
            if UNFACTORED_PRESETS.contains(&preset.name) {
                continue;
            }
            let p = big(preset.modulus);
            let g = multiplicative_generator(&p)
                .unwrap_or_else(|| panic!("no generator for {}", preset.name));
            let factors = prime_factors(&(&p - 1u32), RHO_WORK, true).unwrap();
            check_generator(&p, &g, &factors);
        }
    }

    #[test]
    fn generators_agree_with_independent_values() {
        // Least primitive roots computed separately from the full factorizations of p-1. The
        // bn254 and bls12-381 values are also those of the arkworks and `ff` field definitions.
        let expected = [
            ("curve25519-p", 2u32),
            ("curve25519-l", 2),
            ("p256-p", 6),
            ("p256-n", 7),
            ("secp256k1-p", 3),
            ("secp256k1-n", 7),
            ("bls12-381-p", 2),
            ("bls12-381-r", 7),
            ("bn254-p", 3),
            ("bn254-r", 5),
            ("fp254bnb-p", 3),
            ("fp254bnb-r", 2),
            ("bn381-p", 2),
            ("bn381-r", 2),
            ("bn462-p", 2),
            ("bn462-r", 5),
            // sympy's primitive_root, from its factorization of p − 1.
            ("p127-p", 43),
            ("p384-p", 19),
            ("p224-p", 22),
            ("p224-n", 2),
        ];
        // No independent least primitive root for these (p − 1 was not factored separately);
        // `generators_of_the_presets` checks their generators against the factorization.
        let elsewhere = ["p521-p", "goldilocks-p"];
        assert_eq!(
            expected.len() + elsewhere.len() + UNFACTORED_PRESETS.len(),
            PRESETS.len()
        );
        for (name, g) in expected {
            let p = big(super::super::find_preset(name).unwrap().modulus);
            assert_eq!(
                multiplicative_generator(&p),
                Some(BigUint::from(g)),
                "{name}"
            );
        }
    }

    #[test]
    fn generators_of_small_primes() {
        assert_eq!(
            multiplicative_generator(&BigUint::from(3u32)),
            Some(BigUint::from(2u32))
        );
        assert_eq!(
            multiplicative_generator(&BigUint::from(5u32)),
            Some(BigUint::from(2u32))
        );
        assert_eq!(
            multiplicative_generator(&BigUint::from(7u32)),
            Some(BigUint::from(3u32))
        );
        assert_eq!(
            multiplicative_generator(&BigUint::from(17u32)),
            Some(BigUint::from(3u32))
        );
        assert_eq!(
            multiplicative_generator(&BigUint::from(41u32)),
            Some(BigUint::from(6u32))
        );
        assert_eq!(
            multiplicative_generator(&BigUint::from(65537u32)),
            Some(BigUint::from(3u32))
        );
        assert_eq!(
            multiplicative_generator(&BigUint::from(191u32)),
            Some(BigUint::from(19u32))
        );
        for p in small_primes(3000).into_iter().skip(1) {
            let pb = BigUint::from(p);
            let g = multiplicative_generator(&pb).unwrap();
            // Order of g by brute force is p-1.
            let mut x = g.clone();
            let mut order = 1u32;
            while !x.is_one() {
                x = (x * &g) % &pb;
                order += 1;
            }
            assert_eq!(order, p - 1, "g = {g} mod {p}");
            let factors = prime_factors(&(&pb - 1u32), RHO_WORK, false).unwrap();
            check_generator(&pb, &g, &factors);
        }
        for n in [0u32, 1, 2, 4, 9, 15, 561, 65535] {
            assert_eq!(multiplicative_generator(&BigUint::from(n)), None, "{n}");
        }
    }

    #[test]
    fn generators_of_other_primes() {
        // Least primitive roots computed separately; p-1 is within reach of trial division
        // and rho.
        let expected = [
            ("2^61-1", 37u32),
            ("2^64-59", 2),
            ("2^127-1", 43),
            ("2^130-5", 2),
            ("2^224-2^96+1", 22),
        ];
        for (s, g) in expected {
            let p = big(s);
            let factors =
                prime_factors(&(&p - 1u32), RHO_WORK, false).unwrap_or_else(|| panic!("{s}"));
            let found = generator_from_factors(&p, &factors).unwrap();
            assert_eq!(found, BigUint::from(g), "{s}");
            check_generator(&p, &found, &factors);
            assert_eq!(multiplicative_generator(&p), Some(found), "{s}");
        }
    }

    #[test]
    fn rho_finds_moderate_factors_without_the_table() {
        // bn254-p - 1 has a 34-bit factor beyond trial division; p256-n - 1 a 40-bit one.
        for name in [
            "bn254-p",
            "p256-n",
            "bls12-381-r",
            "curve25519-p",
            "secp256k1-p",
        ] {
            let p = big(super::super::find_preset(name).unwrap().modulus);
            let with_table = prime_factors(&(&p - 1u32), RHO_WORK, true).unwrap();
            let without =
                prime_factors(&(&p - 1u32), RHO_WORK, false).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(with_table, without, "{name}");
        }
    }

    #[test]
    fn gives_up_when_p_minus_1_resists() {
        // p - 1 = 2·q1·q2·k with q1, q2 primes of 111 and 131 bits: far beyond any rho budget.
        let next_prime = |mut n: BigUint| loop {
            n += 1u32;
            if is_probable_prime(&n) {
                break n;
            }
        };
        let q1 = next_prime(big("3^70"));
        let q2 = next_prime(big("5^56"));
        let base = BigUint::from(2u32) * &q1 * &q2;
        let mut k = 1u32;
        let p = loop {
            let candidate = &base * k + 1u32;
            if is_probable_prime(&candidate) {
                break candidate;
            }
            k += 1;
        };
        assert!(prime_factors(&(&p - 1u32), 1 << 12, false).is_none());
        // The whole budget runs out and the answer is None, not a hang.
        assert_eq!(multiplicative_generator(&p), None);
        // With the factors known, the generator is found and checks out.
        let mut factors = prime_factors(&BigUint::from(2 * k), RHO_WORK, false).unwrap();
        factors.extend([q1, q2]);
        factors.sort();
        factors.dedup();
        let g = generator_from_factors(&p, &factors).unwrap();
        check_generator(&p, &g, &factors);
    }

    #[test]
    fn factorization_handles_powers_and_u64_cofactors() {
        let q = big("2^61-1");
        // (2^61-1)^3 · 12: perfect-power cofactor beyond 64 bits.
        let n = q.pow(3) * 12u32;
        assert_eq!(
            prime_factors(&n, RHO_WORK, false).unwrap(),
            vec![BigUint::from(2u32), BigUint::from(3u32), q.clone()]
        );
        // A u64 composite cofactor with two 32-bit factors.
        let a = BigUint::from(4294967291u64);
        let b = BigUint::from(4294967279u64);
        let n = &a * &b * 6u32;
        assert_eq!(
            prime_factors(&n, RHO_WORK, false).unwrap(),
            vec![
                BigUint::from(2u32),
                BigUint::from(3u32),
                b.clone(),
                a.clone()
            ]
        );
        let m = BigUint::from_str_radix(
            "1000000000000000000000000000000000000000000000000000000000000",
            10,
        )
        .unwrap();
        assert_eq!(
            prime_factors(&m, RHO_WORK, false).unwrap(),
            vec![BigUint::from(2u32), BigUint::from(5u32)]
        );
        assert_eq!(
            prime_factors(&BigUint::one(), RHO_WORK, false).unwrap(),
            Vec::<BigUint>::new()
        );
        assert!(prime_factors(&BigUint::zero(), RHO_WORK, false).is_none());
    }

    /// Primes outside the presets whose p-1 factors need the table.
    const OTHER_TABLED: [(&str, u32); 3] = [
        ("2^384-2^128-2^96+2^32-1", 19),
        ("2^521-1", 3),
        ("2^448-2^224-1", 7),
    ];

    #[test]
    fn generators_of_tabled_primes() {
        // Least primitive roots computed separately from the full factorizations of p-1.
        for (s, g) in OTHER_TABLED {
            let p = big(s);
            let found = multiplicative_generator(&p).unwrap_or_else(|| panic!("{s}"));
            assert_eq!(found, BigUint::from(g), "{s}");
            let factors = prime_factors(&(&p - 1u32), RHO_WORK, true).unwrap();
            check_generator(&p, &found, &factors);
        }
    }

    #[test]
    fn known_factor_table_is_prime_and_used() {
        let moduli: Vec<BigUint> = PRESETS
            .iter()
            .map(|p| big(p.modulus))
            .chain(OTHER_TABLED.iter().map(|(s, _)| big(s)))
            .collect();
        for s in KNOWN_FACTORS {
            let k = BigUint::parse_bytes(s.as_bytes(), 10).unwrap();
            assert!(is_probable_prime(&k), "{s}");
            assert!(k > BigUint::from(TRIAL_BOUND));
            assert!(
                moduli.iter().any(|p| ((p - 1u32) % &k).is_zero()),
                "{s} divides no p-1"
            );
        }
    }
}
