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

use crate::narrow::fit;
use num_bigint::BigUint;
use num_integer::Integer;
use num_prime::nt_funcs;
use num_prime::PrimalityTestConfig;
use num_traits::{One, ToPrimitive, Zero};

mod rho;

use rho::rho_divisor;

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
        a >>= twos;
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
            primes.push(fit(i));
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
mod tests;
