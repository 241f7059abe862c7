//! Primality, factoring and generator tests against independent oracles.

use super::super::{parse_modulus_expr, PRESETS};
use super::*;
use num_traits::Num;

fn big(s: &str) -> BigUint {
    parse_modulus_expr(s).unwrap()
}

use fieldgen_test_support::SplitMix64 as Rng;

/// A value below 2^`bits`: whole outputs, the first most significant, shifted down.
fn below_pow2(rng: &mut Rng, bits: u32) -> BigUint {
    let words = bits.div_ceil(64);
    let mut x = BigUint::zero();
    for _ in 0..words {
        x = (x << 64) + rng.next_u64();
    }
    x >> (words * 64 - bits) as usize
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
    let d = &n1 >> s;
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
        let n = below_pow2(&mut rng, bits) | BigUint::one();
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
        let factors = prime_factors(&(&p - 1u32), RHO_WORK, false).unwrap_or_else(|| panic!("{s}"));
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
