//! Edge values: the field elements most likely to expose a carry, borrow or reduction bug.
//!
//! Random inputs almost never have a limb equal to `0` or `2^w - 1`, nor land within a few units
//! of `p`, yet these are exactly the inputs on which a missing carry, an off-by-one final
//! subtraction or a dropped top-limb overflow shows. Multi-precision libraries have shipped such
//! bugs for years while passing random tests; for instance OpenSSL's CVE-2017-3736 (a carry bug in
//! the x86_64 `bn_sqrx8x_internal` squaring, whose regression vector is an all-ones operand) and
//! CVE-2019-1551 (an overflow in `rsaz_512_sqr`), and the NIST P-256 reduction bug of OpenSSL
//! 0.9.8g turned into a key-recovery attack by Brumley, Barbosa, Page and Vercauteren ("Practical
//! realisation and elimination of an ECC-related software bug attack", CT-RSA 2012). The usual
//! remedy, followed here, is to seed the tests with carry-boundary values: all-ones and all-zero
//! limbs, powers of the limb radix, and the neighbourhood of `p` and of `p/2`.
//!
//! The same set is used in both the standard and the Montgomery domain: a value whose internal
//! representation `x·R mod p` is a boundary value is produced as `t·R⁻¹ mod p` for the boundary
//! value `t`.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use std::collections::HashSet;

use crate::oracle;

/// Boundary values of `Z/pZ` for a representation with `limb_bits`-bit limbs, all in `[0, p)`,
/// without duplicates, in a fixed order (the structural values first).
///
/// With `w = limb_bits`, `n = ceil(bits(p) / w)` and `R = 2^(w·n)`, the set is, each reduced mod `p`:
///
/// - `0, 1, 2, p-1, p-2, (p-1)/2, (p+1)/2` (the neighbourhoods of 0, of `p` and of `p/2`, where a
///   doubling or an addition crosses `p`);
/// - for every `k` in `0..=n`: `2^(w·k) - 1` (the lowest `k` limbs all ones) and `2^(w·k)` (a
///   single one just above them);
/// - for every limb position `k` in `0..n`: the value with limb `k` all ones and the others zero,
///   `p - 2^(w·k)` when positive, `p` with limb `k` cleared (a zero limb below `p`), and `p` with
///   limb `k` set to all ones;
/// - `2^(bits-1)`, `2^(bits-1) - 1`, `2^bits - 1` and `2^(8·B) - 1` (top-bit boundaries of the
///   `bits`-bit and of the `B`-byte encodings);
/// - `R mod p` and `R² mod p` (Montgomery's constants: the representations of 1 and of `R`);
/// - `t·R⁻¹ mod p` for `t` in `{1, 2, p-1, p-2}`, `2^(w·k) - 1` for `k` in `1..=n`, and the
///   single-limb all-ones values: the elements whose Montgomery representation is a boundary value.
///
/// Panics if `p < 2` or `limb_bits == 0`. For an even `p` (only in tests of the helper itself)
/// the Montgomery-domain values are omitted, as `R` is not invertible.
pub fn edge_values(p: &BigUint, limb_bits: u32) -> Vec<BigUint> {
    assert!(p > &BigUint::one(), "modulus must be at least 2");
    assert!(limb_bits > 0, "limb width must be positive");
    let w = limb_bits as usize;
    let bits = oracle::bit_len(p) as usize;
    let n = oracle::limb_count(p, limb_bits);
    let byte_len = oracle::byte_len(p);
    let one = BigUint::one();
    let pow2 = |e: usize| -> BigUint { &one << e };
    let limb_mask = pow2(w) - 1u32;

    let mut raw: Vec<BigUint> = vec![
        BigUint::zero(),
        one.clone(),
        BigUint::from(2u32),
        p - 1u32,
        p - BigUint::from(2u32).min(p.clone()),
        (p - 1u32) >> 1,
        (p + 1u32) >> 1,
    ];
    for k in 0..=n {
        raw.push(pow2(w * k) - 1u32);
        raw.push(pow2(w * k));
    }
    for k in 0..n {
        let limb = &limb_mask << (w * k);
        raw.push(limb.clone());
        let radix_k = pow2(w * k);
        if p > &radix_k {
            raw.push(p - &radix_k);
        }
        // p with limb k cleared: p & !limb, computed as p - (p & limb).
        raw.push(p - (p & &limb));
        raw.push(p | &limb);
    }
    raw.push(pow2(bits - 1));
    raw.push(pow2(bits - 1) - 1u32);
    raw.push(pow2(bits) - 1u32);
    raw.push(pow2(8 * byte_len) - 1u32);
    let r = pow2(w * n);
    raw.push(r.clone());
    raw.push(&r * &r);

    if let Some(r_inv) = oracle::inverse_mod(&r, p) {
        let mut targets: Vec<BigUint> = vec![
            one.clone(),
            BigUint::from(2u32),
            p - 1u32,
            p - BigUint::from(2u32).min(p.clone()),
        ];
        for k in 1..=n {
            targets.push(pow2(w * k) - 1u32);
        }
        for k in 0..n {
            targets.push(&limb_mask << (w * k));
        }
        for t in targets {
            raw.push(oracle::mul_mod(&t, &r_inv, p));
        }
    }

    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for v in raw {
        let v = v % p;
        if seen.insert(v.clone()) {
            out.push(v);
        }
    }
    out
}

/// The first `structural` values of `edges` followed by evenly spaced ones, `count` values in all
/// (all of `edges` when it has at most `count`). Used to bound the cost of the expensive per-value
/// properties (pow, invert, sqrt) on very wide fields.
pub fn spaced_subset(edges: &[BigUint], structural: usize, count: usize) -> Vec<BigUint> {
    if edges.len() <= count {
        return edges.to_vec();
    }
    let head = structural.min(count).min(edges.len());
    let mut out: Vec<BigUint> = edges[..head].to_vec();
    let rest = &edges[head..];
    let want = count - head;
    for i in 0..want {
        out.push(rest[i * rest.len() / want].clone());
    }
    out
}
