//! Tests of the oracle itself: the suite is only as good as its reference arithmetic and its edge
//! values. Small moduli are checked exhaustively against brute force over machine integers; large
//! ones against algebraic identities.

use fieldgen_tests::ctx::{costly_subset_len, parse_cases};
use fieldgen_tests::edge::spaced_subset;
use fieldgen_tests::oracle::{self, *};
use fieldgen_tests::proptest::prelude::*;
use fieldgen_tests::{edge_values, FieldCtx, ALL_PAIRS_MAX_EDGES, DEFAULT_CASES};
use num_bigint::BigUint;
use num_traits::{One, Zero};

const SMALL_PRIMES: [u64; 9] = [3, 5, 7, 11, 13, 17, 251, 257, 65521];

fn big(v: u64) -> BigUint {
    BigUint::from(v)
}

fn pow2(e: usize) -> BigUint {
    BigUint::one() << e
}

/// Well-known prime moduli, written from their published definitions.
fn named_primes() -> Vec<(&'static str, BigUint)> {
    let hex = |s: &str| parse_modulus(s).unwrap();
    vec![
        ("2^61-1", pow2(61) - 1u32),
        ("2^64-59", pow2(64) - 59u32),
        ("2^127-1", pow2(127) - 1u32),
        ("2^255-19", pow2(255) - 19u32),
        ("secp256k1", pow2(256) - pow2(32) - 977u32),
        (
            "p256",
            pow2(256) - pow2(224) + pow2(192) + pow2(96) - 1u32,
        ),
        (
            "bn254",
            hex("0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47"),
        ),
        (
            "bls12-381",
            hex("0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab"),
        ),
        ("2^521-1", pow2(521) - 1u32),
    ]
}

#[test]
fn parse_modulus_accepts_hex_and_decimal() {
    assert_eq!(parse_modulus("0x1f").unwrap(), big(31));
    assert_eq!(parse_modulus("0X1F").unwrap(), big(31));
    assert_eq!(parse_modulus("31").unwrap(), big(31));
    assert_eq!(parse_modulus(" 0xffff_ffff ").unwrap(), big(0xffff_ffff));
    assert_eq!(parse_modulus("65_521").unwrap(), big(65521));
    assert_eq!(
        parse_modulus(
            "57896044618658097711785492504343953926634992332820282019728792003956564819949"
        )
        .unwrap(),
        pow2(255) - 19u32
    );
}

#[test]
fn parse_modulus_rejects_junk() {
    for bad in ["", "0x", "  ", "0x1g", "12a", "-7", "2^255-19", "1.5"] {
        assert!(parse_modulus(bad).is_err(), "{bad:?} was accepted");
    }
}

#[test]
fn named_primes_are_prime() {
    for (name, p) in named_primes() {
        assert!(is_probable_prime(&p), "{name} is not prime");
    }
}

#[test]
fn primality_rejects_composites() {
    let composites = [
        big(1),
        big(0),
        big(4),
        big(9),
        big(561),                       // Carmichael number
        big(3_215_031_751),             // strong pseudoprime to bases 2, 3, 5, 7
        big(3_825_123_056_546_413_051), // strong pseudoprime to the first nine prime bases
        (pow2(127) - 1u32) * (pow2(61) - 1u32),
        pow2(256) - 1u32,
    ];
    for n in composites {
        assert!(!is_probable_prime(&n), "{n} reported prime");
    }
    for p in SMALL_PRIMES {
        assert!(is_probable_prime(&big(p)), "{p} reported composite");
    }
    assert!(is_probable_prime(&big(2)));
}

#[test]
fn modular_ops_match_brute_force_for_small_primes() {
    for p in [3u64, 5, 7, 11, 13, 17, 251] {
        let pb = big(p);
        for a in 0..p {
            assert_eq!(neg_mod(&big(a), &pb), big((p - a) % p));
            assert_eq!(square_mod(&big(a), &pb), big(a * a % p));
            for b in 0..p {
                let (ab, bb) = (big(a), big(b));
                assert_eq!(add_mod(&ab, &bb, &pb), big((a + b) % p));
                assert_eq!(sub_mod(&ab, &bb, &pb), big((a + p - b) % p));
                assert_eq!(mul_mod(&ab, &bb, &pb), big(a * b % p));
            }
        }
    }
}

#[test]
fn ops_reduce_unreduced_inputs() {
    let p = big(13);
    assert_eq!(add_mod(&big(20), &big(30), &p), big(50 % 13));
    assert_eq!(sub_mod(&big(14), &big(27), &p), big(0));
    assert_eq!(sub_mod(&big(13), &big(1), &p), big(12));
    assert_eq!(neg_mod(&big(26), &p), big(0));
    assert_eq!(pow_mod(&big(15), &big(2), &p), big(4));
}

#[test]
fn inverse_times_x_is_one_for_small_primes() {
    for p in SMALL_PRIMES {
        let pb = big(p);
        assert_eq!(inverse_mod(&BigUint::zero(), &pb), None);
        assert_eq!(inverse_mod(&pb, &pb), None);
        for a in 1..p.min(3000) {
            let inv = inverse_mod(&big(a), &pb).expect("non-zero is invertible");
            assert!(inv < pb);
            assert_eq!(
                mul_mod(&big(a), &inv, &pb),
                BigUint::one(),
                "p = {p}, a = {a}"
            );
        }
    }
}

#[test]
fn inverse_needs_coprime() {
    let m = big(15);
    assert_eq!(inverse_mod(&big(5), &m), None);
    assert_eq!(inverse_mod(&big(6), &m), None);
    assert_eq!(inverse_mod(&big(7), &m), Some(big(13)));
}

#[test]
fn inverse_of_edge_values_for_named_primes() {
    for (name, p) in named_primes() {
        for w in [32u32, 64] {
            for x in edge_values(&p, w) {
                match inverse_mod(&x, &p) {
                    None => assert!(x.is_zero(), "{name}: {x:#x} has no inverse"),
                    Some(inv) => {
                        assert!(inv < p);
                        assert_eq!(mul_mod(&x, &inv, &p), BigUint::one(), "{name}: {x:#x}");
                        // Fermat's little theorem gives the same inverse.
                        assert_eq!(inv, pow_mod(&x, &(&p - 2u32), &p), "{name}: {x:#x}");
                    }
                }
            }
        }
    }
}

#[test]
fn legendre_matches_brute_force_for_small_primes() {
    for p in SMALL_PRIMES {
        let pb = big(p);
        let index = |x: u64| usize::try_from(x).unwrap();
        let mut is_sq = vec![false; index(p)];
        for y in 0..p {
            is_sq[index(y * y % p)] = true;
        }
        // (p - 1) / 2 non-zero squares, by Euler.
        assert_eq!(is_sq.iter().filter(|s| **s).count() as u64, (p - 1) / 2 + 1);
        for a in 0..p {
            let want = if a == 0 {
                0
            } else if is_sq[index(a)] {
                1
            } else {
                -1
            };
            assert_eq!(legendre(&big(a), &pb), want, "p = {p}, a = {a}");
            assert_eq!(is_square(&big(a), &pb), want >= 0, "p = {p}, a = {a}");
        }
    }
}

#[test]
#[should_panic(expected = "not an odd prime")]
fn legendre_detects_composite_modulus() {
    // 2^((15-1)/2) = 128 = 8 mod 15: neither 1 nor -1.
    legendre(&big(2), &big(15));
}

#[test]
fn smallest_non_residue_is_smallest() {
    for p in SMALL_PRIMES {
        let pb = big(p);
        let z = smallest_non_residue(&pb);
        assert_eq!(legendre(&z, &pb), -1);
        for a in 1..z.to_u64_digits()[0] {
            assert_eq!(legendre(&big(a), &pb), 1, "p = {p}, a = {a}");
        }
    }
    assert_eq!(smallest_non_residue(&big(7)), big(3));
    assert_eq!(smallest_non_residue(&big(17)), big(3));
    assert_eq!(smallest_non_residue(&big(11)), big(2));
}

#[test]
fn pow_conventions() {
    let p = big(13);
    assert_eq!(
        pow_mod(&BigUint::zero(), &BigUint::zero(), &p),
        BigUint::one()
    );
    assert_eq!(pow_mod_words(&big(5), &[], &p), BigUint::one());
    assert_eq!(pow_mod_words(&big(5), &[0, 0, 0], &p), BigUint::one());
    assert_eq!(pow_mod_words(&BigUint::zero(), &[3], &p), BigUint::zero());
    assert_eq!(pow_mod_words(&big(2), &[12], &p), BigUint::one());
    assert_eq!(
        pow_mod_words(&big(2), &[0, 1], &p),
        pow_mod(&big(2), &pow2(64), &p)
    );
    assert_eq!(from_u64_words_le(&[1, 2]), (big(2) << 64u32) + 1u32);
    assert_eq!(from_u64_words_le(&[]), BigUint::zero());
    assert_eq!(to_u64_words_le(&((big(2) << 64u32) + 1u32)), vec![1, 2]);
}

#[test]
fn fermat_and_euler_hold_for_named_primes() {
    for (name, p) in named_primes() {
        for x in [big(2), big(3), &p - 5u32, (&p >> 1u32) + 7u32] {
            assert_eq!(pow_mod(&x, &(&p - 1u32), &p), BigUint::one(), "{name}");
            assert_eq!(pow_mod(&x, &p, &p), &x % &p, "{name}");
        }
        let z = smallest_non_residue(&p);
        assert_eq!(legendre(&z, &p), -1, "{name}");
        assert_eq!(legendre(&square_mod(&z, &p), &p), 1, "{name}");
    }
}

#[test]
fn encodings() {
    let x = big(0x0102_0304);
    assert_eq!(to_le_bytes(&x, 6), vec![4, 3, 2, 1, 0, 0]);
    assert_eq!(to_be_bytes(&x, 6), vec![0, 0, 1, 2, 3, 4]);
    assert_eq!(to_le_bytes(&BigUint::zero(), 3), vec![0, 0, 0]);
    assert_eq!(to_le_bytes(&BigUint::zero(), 0), Vec::<u8>::new());
    assert_eq!(from_le_bytes(&[4, 3, 2, 1, 0, 0]), x);
    assert_eq!(from_be_bytes(&[0, 0, 1, 2, 3, 4]), x);
    assert!(fits_in_bytes(&big(255), 1));
    assert!(!fits_in_bytes(&big(256), 1));
    assert_eq!(hex_be(&big(1), 2), "0x0001");
    assert_eq!(hex_be(&big(0xabcdef), 4), "0x00abcdef");
    let p = pow2(255) - 19u32;
    assert_eq!(byte_len(&p), 32);
    assert_eq!(bit_len(&p), 255);
    assert_eq!(limb_count(&p, 64), 4);
    assert_eq!(limb_count(&p, 51), 5);
    assert_eq!(byte_len(&big(3)), 1);
    assert_eq!(byte_len(&big(257)), 2);
    let bls = &named_primes()[7].1;
    assert_eq!(
        (bit_len(bls), byte_len(bls), limb_count(bls, 64)),
        (381, 48, 6)
    );
}

#[test]
#[should_panic(expected = "does not fit")]
fn encoding_too_wide_panics() {
    to_le_bytes(&big(256), 1);
}

#[test]
fn edge_values_are_canonical_distinct_and_complete() {
    let mut cases: Vec<(String, BigUint)> = SMALL_PRIMES
        .iter()
        .map(|p| (p.to_string(), big(*p)))
        .collect();
    cases.extend(named_primes().into_iter().map(|(n, p)| (n.to_string(), p)));
    for (name, p) in &cases {
        for w in [8u32, 32, 51, 64] {
            let edges = edge_values(p, w);
            let n = limb_count(p, w);
            let r = pow2(w as usize * n);
            let ctx = format!("{name}, w = {w}");
            assert!(edges.iter().all(|e| e < p), "{ctx}: value ≥ p");
            let mut sorted = edges.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), edges.len(), "{ctx}: duplicates");
            let must = [
                BigUint::zero(),
                BigUint::one(),
                big(2) % p,
                p - 1u32,
                p - 2u32,
                (p - 1u32) >> 1u32,
                (p + 1u32) >> 1u32,
                &r % p,
                (&r * &r) % p,
                pow2(bit_len(p) as usize - 1),
            ];
            for v in must {
                assert!(edges.contains(&v), "{ctx}: {v:#x} missing");
            }
            // The structural values come first.
            assert_eq!(edges[0], BigUint::zero(), "{ctx}");
            assert_eq!(edges[1], BigUint::one(), "{ctx}");
            for k in 0..n {
                let limb = (pow2(w as usize) - 1u32) << (w as usize * k);
                assert!(
                    edges.contains(&(&limb % p)),
                    "{ctx}: limb {k} all ones missing"
                );
                let radix = pow2(w as usize * k);
                assert!(edges.contains(&(&radix % p)), "{ctx}: 2^(w·{k}) missing");
                assert!(
                    edges.contains(&((&radix - 1u32) % p)),
                    "{ctx}: 2^(w·{k}) - 1 missing"
                );
                if p > &radix {
                    assert!(
                        edges.contains(&(p - &radix)),
                        "{ctx}: p - 2^(w·{k}) missing"
                    );
                }
            }
            // The value whose Montgomery representation is 1: R^-1 mod p.
            let r_inv = inverse_mod(&r, p).unwrap();
            assert!(edges.contains(&r_inv), "{ctx}: R^-1 missing");
        }
    }
}

#[test]
fn edge_values_for_a_four_limb_field_are_a_few_dozen() {
    let p = parse_modulus("0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47")
        .unwrap();
    let n = edge_values(&p, 64).len();
    assert!((30..=60).contains(&n), "{n} edge values");
}

#[test]
fn edge_values_of_limb_boundaries_have_all_ones_or_zero_limbs() {
    // p = 2^255 - 19 with w = 64: 2^128 - 1 has limbs [ones, ones, 0, 0].
    let p = pow2(255) - 19u32;
    let edges = edge_values(&p, 64);
    let v = pow2(128) - 1u32;
    assert!(edges.contains(&v));
    assert_eq!(to_u64_words_le(&v), vec![u64::MAX, u64::MAX]);
    // p with limb 1 cleared: a zero limb below p.
    let cleared = &p - ((&p >> 64u32) & (pow2(64) - 1u32)) * pow2(64);
    assert!(edges.contains(&cleared));
    assert_eq!(to_u64_words_le(&cleared)[1], 0);
}

#[test]
fn spaced_subset_keeps_structural_values() {
    let edges: Vec<BigUint> = (0u32..100).map(BigUint::from).collect();
    let sub = spaced_subset(&edges, 7, 20);
    assert_eq!(sub.len(), 20);
    assert_eq!(&sub[..7], &edges[..7]);
    let mut sorted = sub.clone();
    sorted.dedup();
    assert_eq!(sorted.len(), 20);
    assert_eq!(spaced_subset(&edges[..10], 7, 20), edges[..10].to_vec());
}

#[test]
fn field_ctx_derives_shapes() {
    let ctx = FieldCtx::new(
        "bn254",
        "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
        64,
    );
    assert_eq!((ctx.bits, ctx.byte_len, ctx.limbs), (254, 32, 4));
    assert_eq!(legendre(&ctx.non_residue, &ctx.p), -1);
    assert_eq!(ctx.costly_edges(), ctx.edges);
    assert_eq!(ctx.edge_pairs().len(), ctx.edges.len() * ctx.edges.len());
    assert_eq!(ctx.hex(&big(1)).len(), 2 + 64);

    let wide = FieldCtx::new("m1279", &format!("{:#x}", mersenne_1279()), 64);
    assert_eq!((wide.bits, wide.byte_len, wide.limbs), (1279, 160, 20));
    let costly = wide.costly_edges();
    assert_eq!(costly.len(), costly_subset_len(1279).min(wide.edges.len()));
    assert_eq!(&costly[..7], &wide.edges[..7]);

    // 4-bit limbs give 64 limb positions, hence more edge values than are paired exhaustively.
    let narrow_limbs = FieldCtx::new(
        "p25519/w4",
        "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
        4,
    );
    assert!(narrow_limbs.edges.len() > ALL_PAIRS_MAX_EDGES);
    let pairs = narrow_limbs.edge_pairs();
    assert!(pairs.len() < narrow_limbs.edges.len() * narrow_limbs.edges.len());
    for e in &narrow_limbs.edges {
        assert!(
            pairs.iter().any(|(a, b)| a == e && b.is_zero()),
            "{e:#x} not paired with 0"
        );
        assert!(
            pairs.iter().any(|(a, b)| a.is_zero() && b == e),
            "0 not paired with {e:#x}"
        );
    }
}

/// The Mersenne prime 2^1279 - 1: a modulus wide enough for the sampling rules.
fn mersenne_1279() -> BigUint {
    pow2(1279) - 1u32
}

#[test]
#[should_panic(expected = "odd prime")]
fn field_ctx_rejects_even_modulus() {
    FieldCtx::new("even", "0x100", 64);
}

#[test]
#[should_panic(expected = "neither")]
fn field_ctx_rejects_bad_text() {
    FieldCtx::new("bad", "2^255-19", 64);
}

#[test]
fn cases_parsing() {
    assert_eq!(parse_cases("64"), Ok(64));
    assert_eq!(parse_cases(" 1000 \n"), Ok(1000));
    assert!(parse_cases("many").is_err());
    assert!(parse_cases("-1").is_err());
    assert_eq!(DEFAULT_CASES, 64);
}

fn bn254() -> BigUint {
    parse_modulus("0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47").unwrap()
}

fn element() -> impl Strategy<Value = BigUint> {
    let p = bn254();
    prop::collection::vec(any::<u8>(), 32).prop_map(move |b| from_le_bytes(&b) % &p)
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn ring_identities(a in element(), b in element(), c in element()) {
        let p = bn254();
        prop_assert_eq!(sub_mod(&add_mod(&a, &b, &p), &b, &p), a.clone());
        prop_assert_eq!(add_mod(&a, &neg_mod(&a, &p), &p), BigUint::zero());
        prop_assert_eq!(
            mul_mod(&a, &add_mod(&b, &c, &p), &p),
            add_mod(&mul_mod(&a, &b, &p), &mul_mod(&a, &c, &p), &p)
        );
        prop_assert_eq!(square_mod(&a, &p), mul_mod(&a, &a, &p));
    }

    #[test]
    fn inverse_random(a in element()) {
        let p = bn254();
        match inverse_mod(&a, &p) {
            None => prop_assert!(a.is_zero()),
            Some(inv) => prop_assert_eq!(mul_mod(&a, &inv, &p), BigUint::one()),
        }
    }

    #[test]
    fn pow_matches_naive(a in element(), e in prop::collection::vec(any::<u64>(), 0..4)) {
        let p = bn254();
        let exp = from_u64_words_le(&e);
        prop_assert_eq!(pow_mod(&a, &exp, &p), pow_mod_naive(&a, &exp, &p));
        prop_assert_eq!(pow_mod_words(&a, &e, &p), pow_mod_naive(&a, &exp, &p));
    }

    #[test]
    fn squares_are_squares(y in element()) {
        let p = bn254();
        let a = square_mod(&y, &p);
        prop_assert!(is_square(&a, &p));
        let z = smallest_non_residue(&p);
        if !y.is_zero() {
            prop_assert_eq!(legendre(&mul_mod(&z, &a, &p), &p), -1);
        }
    }

    #[test]
    fn encodings_round_trip(a in element()) {
        let le = to_le_bytes(&a, 32);
        let be = to_be_bytes(&a, 32);
        prop_assert_eq!(from_le_bytes(&le), a.clone());
        prop_assert_eq!(from_be_bytes(&be), a.clone());
        let mut rev = be.clone();
        rev.reverse();
        prop_assert_eq!(rev, le);
        prop_assert_eq!(oracle::hex_be(&a, 32), format!("0x{:064x}", a));
    }
}
