//! The signed-term Solinas reduction (NIST P-256, P-224, P-192) through the IR interpreter,
//! before and after optimisation, against num-bigint at w = 64 and 32, on random values and
//! the edges (0, 1, p − 1, limbs at their bound); the bounds pass proves both functions; the
//! term table derived for P-256 is the one printed in FIPS 186-4 D.2.3.

use fieldgen_test_support::SplitMix64 as Rng;
use generator::ir::interpret;
use generator::pass::{optimize, verify_bounds};
use generator::spec::{to_limbs, FieldConsts, LimbBits};
use generator::strategy::signed_solinas::{self as ss, SignedSolinas};
use num_bigint::BigUint;
use num_traits::{One, Zero};

fn p256() -> BigUint {
    (BigUint::one() << 256) - (BigUint::one() << 224)
        + (BigUint::one() << 192)
        + (BigUint::one() << 96)
        - 1u32
}

fn value(limbs: &[u64], w: u32) -> BigUint {
    limbs
        .iter()
        .rev()
        .fold(BigUint::zero(), |acc, &l| (acc << w as usize) + l)
}

fn check(p: &BigUint, lb: LimbBits, count: usize, seed: u64) {
    let fc = FieldConsts::new(p, lb).unwrap();
    let w = fc.w();
    let s = SignedSolinas::detect(&fc).expect("a signed Solinas prime");
    let mut rng = Rng(seed);
    let mut vals: Vec<BigUint> = vec![
        BigUint::zero(),
        BigUint::one(),
        p - 1u32,
        p - 2u32,
        (p >> 1) + 1u32,
        BigUint::one() << (fc.bits as usize - 1),
    ];
    for _ in 0..count {
        vals.push(rng.below(p));
    }
    for (name, f) in [
        ("mul", ss::lower_mul(&fc, &s)),
        ("square", ss::lower_square(&fc, &s)),
        ("mul_small", ss::lower_mul_small(&fc, &s)),
    ] {
        verify_bounds(&f, name).unwrap_or_else(|e| panic!("{p:#x} w={w}: {e}"));
        let opt = optimize(&f);
        for (i, a) in vals.iter().enumerate() {
            let b = &vals[(i * 5 + 1) % vals.len()];
            let (al, bl) = (to_limbs(a, w, fc.limbs), to_limbs(b, w, fc.limbs));
            // Multipliers for mul_small: the extremes, a24 of curve25519, a random half word.
            let k = [0u64, 1, u32::MAX as u64, 121665, bl[0] & u32::MAX as u64][i % 5];
            let ks = [k];
            let (want, args): (BigUint, Vec<&[u64]>) = if name == "mul" {
                ((a * b) % p, vec![&al, &bl])
            } else if name == "mul_small" {
                ((a * k) % p, vec![&al, &ks])
            } else {
                ((a * a) % p, vec![&al])
            };
            for g in [&f, &opt] {
                let out = interpret(g, &args).unwrap_or_else(|e| panic!("{e:?}"));
                assert_eq!(value(&out, w), want, "{p:#x} w={w} {name} {a:#x} {b:#x}");
            }
        }
    }
}

#[test]
fn nist_primes() {
    let p224 = (BigUint::one() << 224) - (BigUint::one() << 96) + 1u32;
    let p192 = (BigUint::one() << 192) - (BigUint::one() << 64) - 1u32;
    for (i, p) in [p256(), p192].iter().enumerate() {
        check(p, LimbBits::W64, 300, 10 + i as u64);
        check(p, LimbBits::W32, 300, 20 + i as u64);
    }
    // 224 bits is not a whole number of 64-bit words (values would be loose there).
    check(&p224, LimbBits::W32, 300, 30);
    let fc = FieldConsts::new(&p224, LimbBits::W64).unwrap();
    assert!(SignedSolinas::detect(&fc).is_none());
}

/// FIPS 186-4 D.2.3: B = s1 + 2s2 + 2s3 + s4 + s5 − s6 − s7 − s8 − s9 with the terms below
/// (digits most significant first, as printed; 0 for an empty digit).
#[test]
fn p256_terms_match_fips_186_4() {
    let fc = FieldConsts::new(&p256(), LimbBits::W64).unwrap();
    let s = SignedSolinas::detect(&fc).unwrap();
    let fips_plus: [[usize; 8]; 6] = [
        [15, 14, 13, 12, 11, 0, 0, 0],  // s2
        [15, 14, 13, 12, 11, 0, 0, 0],  // s2 again
        [0, 15, 14, 13, 12, 0, 0, 0],   // s3
        [0, 15, 14, 13, 12, 0, 0, 0],   // s3 again
        [15, 14, 0, 0, 0, 10, 9, 8],    // s4
        [8, 13, 15, 14, 13, 11, 10, 9], // s5
    ];
    let fips_minus: [[usize; 8]; 4] = [
        [10, 8, 0, 0, 0, 13, 12, 11],  // s6
        [11, 9, 0, 0, 15, 14, 13, 12], // s7
        [12, 0, 10, 9, 8, 15, 14, 13], // s8
        [13, 0, 11, 10, 9, 0, 15, 14], // s9
    ];
    // Compare, position by position, the multiset of product digits added and subtracted.
    let columns = |terms: &[Vec<Option<usize>>]| -> Vec<Vec<usize>> {
        (0..8)
            .map(|i| {
                let mut v: Vec<usize> = terms.iter().filter_map(|t| t[i]).collect();
                v.sort();
                v
            })
            .collect()
    };
    let fips_columns = |terms: &[[usize; 8]]| -> Vec<Vec<usize>> {
        (0..8)
            .map(|i| {
                let mut v: Vec<usize> =
                    terms.iter().map(|t| t[7 - i]).filter(|&j| j != 0).collect();
                v.sort();
                v
            })
            .collect()
    };
    assert_eq!(columns(&s.plus), fips_columns(&fips_plus));
    assert_eq!(columns(&s.minus), fips_columns(&fips_minus));
}

#[test]
fn not_signed_solinas() {
    // secp256k1: c = 2^32 + 977 has a digit 977.
    let k1 = (BigUint::one() << 256) - (BigUint::one() << 32) - 977u32;
    let fc = FieldConsts::new(&k1, LimbBits::W64).unwrap();
    assert!(SignedSolinas::detect(&fc).is_none());
    // 2^255 − 19: k not a multiple of 32.
    let p = (BigUint::one() << 255) - 19u32;
    let fc = FieldConsts::new(&p, LimbBits::W64).unwrap();
    assert!(SignedSolinas::detect(&fc).is_none());
}
