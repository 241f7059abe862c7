//! The const helpers against num-bigint on random moduli of several sizes, including moduli
//! with the top bit set (no spare bit) and all-ones limbs.

use fieldgen_field::konst::{
    lt_u32, lt_u64, mont_mul_u32, mont_mul_u64, parse_hex_u32, parse_hex_u64, split_u64,
};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::prelude::*;

fn to_big64(l: &[u64]) -> BigUint {
    l.iter()
        .rev()
        .fold(BigUint::zero(), |acc, &x| (acc << 64) + x)
}
fn to_big32(l: &[u32]) -> BigUint {
    l.iter()
        .rev()
        .fold(BigUint::zero(), |acc, &x| (acc << 32) + x)
}
fn limbs64<const N: usize>(x: &BigUint) -> [u64; N] {
    let mut out = [0u64; N];
    for (o, d) in out.iter_mut().zip(x.to_u64_digits()) {
        *o = d;
    }
    out
}
fn limbs32<const N: usize>(x: &BigUint) -> [u32; N] {
    let mut out = [0u32; N];
    for (o, d) in out.iter_mut().zip(x.to_u32_digits()) {
        *o = d;
    }
    out
}
/// −p⁻¹ mod 2^w by Newton iteration.
fn n0(p0: u64, w: u32) -> u64 {
    let mut inv: u64 = 1;
    for _ in 0..7 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(p0.wrapping_mul(inv)));
    }
    let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    inv.wrapping_neg() & mask
}

fn check64<const N: usize>(p: BigUint, a: BigUint, b: BigUint) {
    let (a, b) = (a % &p, b % &p);
    let pl = limbs64::<N>(&p);
    let r = BigUint::one() << (64 * N);
    let rinv = r.modinv(&p).unwrap();
    let got = mont_mul_u64::<N>(&limbs64(&a), &limbs64(&b), &pl, n0(pl[0], 64));
    assert_eq!(to_big64(&got), (&a * &b * rinv) % &p);
    assert!(lt_u64(&limbs64::<N>(&a), &pl));
    assert!(!lt_u64(&pl, &pl));
}

fn check32<const N: usize>(p: BigUint, a: BigUint, b: BigUint) {
    let (a, b) = (a % &p, b % &p);
    let pl = limbs32::<N>(&p);
    let r = BigUint::one() << (32 * N);
    let rinv = r.modinv(&p).unwrap();
    let got = mont_mul_u32::<N>(
        &limbs32(&a),
        &limbs32(&b),
        &pl,
        u32::try_from(n0(pl[0] as u64, 32)).unwrap(),
    );
    assert_eq!(to_big32(&got), (&a * &b * rinv) % &p);
    assert!(lt_u32(&limbs32::<N>(&a), &pl));
}

fn big(bytes: &[u8]) -> BigUint {
    BigUint::from_bytes_le(bytes)
}

proptest! {
    #[test]
    fn mont_mul_matches_bigint(pb in prop::collection::vec(any::<u8>(), 32),
                               ab in prop::collection::vec(any::<u8>(), 32),
                               bb in prop::collection::vec(any::<u8>(), 32),
                               top in any::<bool>()) {
        // An odd modulus of 256 bits (top bit set) or fewer (p's own top bits).
        let mut p = big(&pb) | BigUint::one();
        if top { p |= BigUint::one() << 255; }
        prop_assume!(p > BigUint::one());
        check64::<4>(p.clone(), big(&ab), big(&bb));
        check32::<8>(p, big(&ab), big(&bb));
    }

    #[test]
    fn hex_roundtrip(xb in prop::collection::vec(any::<u8>(), 48)) {
        let x = big(&xb);
        let s = format!("0x{:x}", x);
        prop_assert_eq!(to_big64(&parse_hex_u64::<6>(&s).unwrap()), x.clone());
        prop_assert_eq!(to_big32(&parse_hex_u32::<12>(&s.to_uppercase().replace("0X", "0x")).unwrap()), x);
    }

    #[test]
    fn split_matches_bigint(xb in prop::collection::vec(any::<u8>(), 32)) {
        let x = big(&xb) >> 1usize; // below 2^255
        let pos: Vec<u32> = (0..=5u32).map(|i| 51 * i).collect();
        let got = split_u64::<4, 5>(&limbs64(&x), &pos);
        for (i, g) in got.iter().enumerate() {
            let want = (&x >> (51 * i)) & ((BigUint::one() << 51usize) - 1u32);
            prop_assert_eq!(BigUint::from(*g), want);
        }
    }
}

#[test]
fn all_ones_modulus_edges() {
    // p = 2^256 − 189 (prime; limbs all ones but the lowest), a = p − 1, b = p − 1.
    let p = (BigUint::one() << 256usize) - 189u32;
    let pm1 = &p - 1u32;
    check64::<4>(p.clone(), pm1.clone(), pm1.clone());
    check64::<4>(p.clone(), BigUint::zero(), pm1.clone());
    check32::<8>(p, pm1.clone(), pm1);
}
