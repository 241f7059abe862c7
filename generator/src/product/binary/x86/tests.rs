//! Tests of the XMM kernels: the scheduler keeps every statement after the ones it reads, and
//! each kernel's IR, run by [`Xir::run`], agrees with the bit-serial polynomial arithmetic of
//! [`crate::binary::poly`] on every 64-bit preset.

use super::*;
use crate::binary::{parse_poly, BINARY_PRESETS};

/// The scheduled product and square of every 64-bit preset are permutations of the emitted statements
/// statements in which each statement comes after the statements binding the names it reads:
/// checked on the printed tokens, not through the IR's operand lists.
#[test]
fn schedule_respects_dependencies() {
    for preset in BINARY_PRESETS {
        let poly = parse_poly(preset.poly).unwrap();
        let s = BinarySpec::new(&poly, crate::spec::LimbBits::W64).unwrap();
        for g in [mul_kernel(&s), square_kernel(&s)] {
            let before: Vec<String> = g.print(&g.stmts).iter().map(|t| t.to_string()).collect();
            let after: Vec<String> = g.scheduled().iter().map(|t| t.to_string()).collect();
            let (mut a, mut b) = (before.clone(), after.clone());
            a.sort();
            b.sort();
            assert_eq!(a, b, "{}: not a permutation", preset.name);
            let mut bound = std::collections::HashSet::new();
            let names: std::collections::HashSet<String> = before
                .iter()
                .filter_map(|t| {
                    t.strip_prefix("let ")
                        .map(|r| r.split(' ').next().unwrap().to_string())
                })
                .collect();
            for st in &after {
                let body = st.split_once(" = ").map_or(st.as_str(), |(_, r)| r);
                for word in body.split(|c: char| !c.is_alphanumeric() && c != '_') {
                    if names.contains(word) {
                        assert!(
                            bound.contains(word),
                            "{}: {word} read before bound in {st}",
                            preset.name
                        );
                    }
                }
                if let Some(r) = st.strip_prefix("let ") {
                    bound.insert(r.split(' ').next().unwrap().to_string());
                }
            }
        }
    }
}

/// A deterministic stream of test words (SplitMix64).
struct Words(u64);

impl Words {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A field element: n words, the bits at or above x^m cleared. Every third one is all
    /// ones, the operand with the most products and folds.
    fn element(&mut self, s: &BinarySpec) -> Vec<u64> {
        let ones = self.next().is_multiple_of(3);
        (0..s.n)
            .map(|i| {
                let w = if ones { u64::MAX } else { self.next() };
                let bits = s.m.saturating_sub(64 * i).min(64);
                if bits == 64 {
                    w
                } else {
                    w & ((1u64 << bits) - 1)
                }
            })
            .collect()
    }
}

/// Runs `g`'s statements, in emission order and as scheduled, on `a` and `b`; the words
/// written to `out` (both orders must agree).
fn run(g: &Gen, a: &[u64], b: &[u64], out_words: usize) -> Vec<u64> {
    let mut outs = Vec::new();
    for order in [g.stmts.clone(), schedule(&g.ir, g.stmts.clone())] {
        let mut out = vec![0u64; out_words];
        g.ir.run(&order, (a, b, &[]), &mut HashMap::new(), &mut out);
        outs.push(out);
    }
    assert_eq!(outs[0], outs[1], "the schedule changed the result");
    outs.pop().unwrap()
}

/// Every 64-bit preset's `mul` and `square` kernels (reduced with the XMM reduction, else the
/// double-length product) against `Poly::mul` / `Poly::square` and `rem`.
#[test]
fn kernels_match_poly() {
    let mut rng = Words(1);
    for preset in BINARY_PRESETS {
        let f = parse_poly(preset.poly).unwrap();
        let s = BinarySpec::new(&f, crate::spec::LimbBits::W64).unwrap();
        let (mul, square) = (mul_kernel(&s), square_kernel(&s));
        let xmm = xmm_reduction(&s);
        let out_words = if xmm { s.n } else { 2 * s.n };
        for _ in 0..6 {
            let (a, b) = (rng.element(&s), rng.element(&s));
            let (pa, pb) = (Poly::from_words(&a), Poly::from_words(&b));
            let (ab, aa) = if xmm {
                (pa.mulmod(&pb, &f), pa.square().rem(&f))
            } else {
                (pa.mul(&pb), pa.square())
            };
            assert_eq!(
                run(&mul, &a, &b, out_words),
                ab.to_words(64, out_words),
                "{}: a·b, a = {a:x?}, b = {b:x?}",
                preset.name
            );
            assert_eq!(
                run(&square, &a, &[], out_words),
                aa.to_words(64, out_words),
                "{}: a², a = {a:x?}",
                preset.name
            );
        }
    }
}

/// `square_n`'s loads, loop body (run k times, `cur` fed from `next`) and stores against
/// `Poly::square_n_mod`, for every preset with the XMM reduction.
#[test]
fn square_n_matches_poly() {
    let mut rng = Words(2);
    for preset in BINARY_PRESETS {
        let f = parse_poly(preset.poly).unwrap();
        let s = BinarySpec::new(&f, crate::spec::LimbBits::W64).unwrap();
        if !xmm_reduction(&s) {
            continue;
        }
        let sn = square_n_kernel(&s);
        for k in [0, 1, 5] {
            let a = rng.element(&s);
            let mut vals = HashMap::new();
            let mut out = vec![0u64; s.n];
            sn.g.ir.run(&sn.load, (&a, &[], &[]), &mut vals, &mut out);
            let mut cur: Vec<u128> = sn.init.iter().map(|v| vals[v]).collect();
            assert_eq!(cur.len(), sn.cur.len());
            for _ in 0..k {
                let mut body = HashMap::new();
                sn.g.ir.run(&sn.body, (&a, &[], &cur), &mut body, &mut out);
                cur = sn.next.iter().map(|v| v.map_or(0, |v| body[&v])).collect();
            }
            sn.g.ir.run(&sn.store, (&a, &[], &cur), &mut vals, &mut out);
            let want = Poly::from_words(&a).square_n_mod(k, &f);
            assert_eq!(
                out,
                want.to_words(64, s.n),
                "{}: a^(2^{k}), a = {a:x?}",
                preset.name
            );
        }
    }
}
