//! Reduction modulo f in XMM registers: the word folds by G = x^s·g, the trinomial shift
//! reduction, and the stores of the reduced words.

use super::*;
use crate::narrow::fit;

/// Whether word n − 1 of the XMM product (n odd) is taken without D_n (the diagonal that
/// only adds to word n) and, in the last round of folds, without clearing word n from its
/// pair (the final mask clears it): word n − 1 is stored first and its top bits are folded
/// last, so both sit on a chain's critical path. Only where G = x^s·g is one word, each
/// fold one product per word: measured in a chain of multiplications on an AVX-512 Xeon,
/// sect163, sect283 and sect571 gained 2–5%, while gf2-155 (G in two words) lost 2%.
pub(super) fn split_top_word(s: &BinarySpec) -> bool {
    let shift = 64 * s.n - s.m;
    s.n % 2 == 1 && shift + s.exponents[1] < 64
}

/// Whether the last fold of the XMM squaring's reduction (the bits of word n − 1 at or above
/// x^m, times g) is a sum of word shifts instead of a PCLMULQDQ: n odd and at least 5 (the word
/// in lane 0), and the product inside one word (sect283, sect571). Measured on AMD Zen 4 (one
/// PCLMULQDQ every two cycles) in a one-off harness (best of 400 runs; three runs each), a
/// squaring in chains of 16 and `invert`: sect283 5.42 → 4.89 ns, 554 → 536–544 ns; sect571
/// 8.41 → 8.2 ns, 1661 ns both; sect163 (3 words) lost, 4.58 → 4.85 ns and 236 → 243 ns. The
/// product, with the same fold as scheduled, ran slower (sect283 11.95 → 12.26 ns), so `mul`
/// keeps the PCLMULQDQ.
pub(super) fn shift_last_fold(s: &BinarySpec) -> bool {
    let rbits = s.m - 64 * (s.n - 1);
    // deg(t·g) = 63 − rbits + deg g < 64 also keeps every term of g below x^64.
    s.n % 2 == 1 && s.n >= 5 && rbits < 64 && 63 - rbits + s.exponents[1] < 64
}

/// Whether the field's reduction runs in XMM registers: sparse f and G = x^s·g in two words.
/// (Tried: a wider G with two non-zero words, as sect239's x^175 + x^17; each fold lowers the
/// degree by only m − d = 81 bits, so three rounds of products replace one pass of shifts,
/// and on an AVX-512 Xeon the chain of products was no faster, so the stored product's
/// portable reduction stays.)
pub fn xmm_reduction(s: &BinarySpec) -> bool {
    if s.w != 64 || s.reduction != Reduction::Sparse {
        return false;
    }
    let d = s.exponents[1];
    let shift = 64 * s.n - s.m;
    shift + d < 128
}

/// Whether the XMM product and squaring of a trinomial f = x^m + x^e + 1 reduce by multiword
/// shifts instead of PCLMULQDQ folds (see [`reduce_trinomial_shifts`]): 64-bit words, the XMM
/// reduction, and 2e − 2 < m, so that two rounds leave nothing at or above x^m. For the four
/// presets it applies to, G = x^(64n−m)·g spans two words, so the folds took two PCLMULQDQ per
/// word on the port the products need (where G fits one word, as for the test polynomial
/// x^127 + x + 1, it was one per word; not measured). Measured on AMD Zen 4 (2026-12-02
/// 00:10 UTC, the `binary_interleaved` example, best of four runs), PCLMULQDQ folds → shifts:
/// mul gf2-155 11.7 → 8.9 ns, sect193 11.6 → 11.0, sect233 14.2 → 10.6, sect409 25.4 → 22.7;
/// one squaring in chains of 16 gf2-155 7.6 → 5.2, sect193 7.4 → 5.9, sect233 10.0 → 5.6,
/// sect409 10.3 → 7.0 (then with PCLMULQDQ word squares, see [`kernels`]).
pub fn trinomial_shift_reduction(s: &BinarySpec) -> bool {
    s.w == 64 && xmm_reduction(s) && s.exponents.len() == 3 && 2 * s.exponents[1] < s.m + 2
}

/// Word pairs of `p` (pairs of 64-bit words, absent = zero) moved by `s` bits: towards word 0
/// (`right`, x^−s, the bits below x^0 dropped) or away from it (x^s), as `out` pairs. Word j of
/// the result joins words j ± q and j ± (q + 1) of `p` (s = 64q + r): per pair, two lane shifts
/// by r and 64 − r of the pair at the right word offset, which for an odd offset straddles two
/// pairs (`_mm_alignr_epi8`).
fn shift_pairs(g: &mut Gen, p: &[Option<V>], s: usize, right: bool, out: usize) -> Vec<Option<V>> {
    let (q, r): (isize, u8) = ((s / 64) as isize, fit(s % 64));
    // The pair of source words (w, w + 1), w possibly negative or odd.
    let pair_at = |g: &mut Gen, w: isize| -> Option<V> {
        let get = |i: isize| -> Option<V> {
            if i < 0 {
                None
            } else {
                p.get(i as usize).copied().flatten()
            }
        };
        if w.rem_euclid(2) == 0 {
            return get(w.div_euclid(2));
        }
        let (lo, hi) = (get(w.div_euclid(2)), get(w.div_euclid(2) + 1));
        match (lo, hi) {
            (None, None) => None,
            (Some(lo), None) => Some(g.bind("w", Op::ByteShr(lo, 8))),
            (None, Some(hi)) => Some(g.bind("w", Op::ByteShl(hi, 8))),
            (Some(lo), Some(hi)) => Some(g.bind("w", Op::Alignr { hi, lo, k: 8 })),
        }
    };
    (0..out as isize)
        .map(|t| {
            let w = 2 * t;
            // Right: word j = (c[j + q] >> r) | (c[j + q + 1] << (64 − r)).
            // Left: word j = (c[j − q] << r) | (c[j − q − 1] >> (64 − r)).
            let (a, b) = if right {
                (
                    pair_at(g, w + q),
                    if r == 0 { None } else { pair_at(g, w + q + 1) },
                )
            } else {
                (
                    pair_at(g, w - q),
                    if r == 0 { None } else { pair_at(g, w - q - 1) },
                )
            };
            if r == 0 {
                return a;
            }
            // Each 64-bit lane moved up (x^k) or down by k bits.
            let lanes = |v: V, k: u8, up: bool| if up { Op::Shl64(v, k) } else { Op::Shr64(v, k) };
            let a = a.map(|a| g.bind("y", lanes(a, r, !right)));
            let b = b.map(|b| g.bind("z", lanes(b, 64 - r, right)));
            g.xor(a, b)
        })
        .collect()
}

/// `pairs` (⌈n/2⌉ of them) with every bit at or above x^m cleared.
fn mask_below_m(g: &mut Gen, s: &BinarySpec, pairs: &[Option<V>]) -> Vec<Option<V>> {
    let np = s.n.div_ceil(2);
    let mut words = vec![u64::MAX; 2 * np];
    for (i, w) in words.iter_mut().enumerate() {
        let lo = 64 * i;
        *w = if lo >= s.m {
            0
        } else if s.m - lo >= 64 {
            u64::MAX
        } else {
            (1u64 << (s.m - lo)) - 1
        };
    }
    (0..np)
        .map(|t| {
            let v = pairs.get(t).copied().flatten()?;
            if words[2 * t] == u64::MAX && words[2 * t + 1] == u64::MAX {
                return Some(v);
            }
            let mask = g.inline(Op::Set {
                lo: words[2 * t],
                hi: words[2 * t + 1],
            });
            Some(g.bind("k", Op::And(v, mask)))
        })
        .collect()
}

/// C mod f for a square C (the pairs `r` of its 2n words) and a trinomial f = x^m + x^e + 1
/// with 2e − 2 < m, by shifts only (Hankerson, Menezes, Vanstone, "Guide to Elliptic Curve
/// Cryptography", §2.3.5, on whole pairs instead of words): with C = L + x^m·H and
/// x^e·H = M + x^m·H2 (M below x^m), C ≡ L + H + M + H2 + x^e·H2, every term below x^m, where
/// H = C·x^−m and H2 = C·x^−(2m−e). No PCLMULQDQ: the reduction runs on the vector shift and
/// shuffle ports while the products or word squares keep the carry-less multiplier busy.
pub(super) fn reduce_trinomial_shifts(
    g: &mut Gen,
    s: &BinarySpec,
    r: &[Option<V>],
) -> Vec<Option<V>> {
    let (m, e) = (s.m, s.exponents[1]);
    let np = s.n.div_ceil(2);
    let h = shift_pairs(g, r, m, true, np);
    let h2 = shift_pairs(g, r, 2 * m - e, true, np);
    let he = shift_pairs(g, &h, e, false, np);
    let mm = mask_below_m(g, s, &he);
    let h2e = shift_pairs(g, &h2, e, false, np);
    let l = mask_below_m(g, s, r);
    (0..np)
        .map(|t| {
            let terms: Vec<V> = [&l, &h, &mm, &h2, &h2e]
                .iter()
                .filter_map(|v| v.get(t).copied().flatten())
                .collect();
            g.xor_tree(terms)
        })
        .collect()
}

/// The words of a constant as `__m128i` pairs, word 2t + l in lane l of pair t.
fn const_pairs(g: &mut Gen, prefix: &str, words: &[u64]) -> Vec<V> {
    words
        .chunks(2)
        .map(|c| {
            let (lo, hi) = (c[0], c.get(1).copied().unwrap_or(0));
            g.bind(prefix, Op::Set { lo, hi })
        })
        .collect()
}

fn words_of(p: &Poly, count: usize) -> Vec<u64> {
    p.to_words(64, count)
}

/// The n words of `src` as pairs, the last one alone when n is odd.
pub(super) fn load_pairs(g: &mut Gen, src: Src, n: usize) -> Vec<V> {
    (0..n.div_ceil(2))
        .map(|t| {
            let word = 2 * t;
            let op = if word + 1 < n {
                Op::LoadPair { src, word }
            } else {
                Op::LoadWord { src, word }
            };
            g.bind("a", op)
        })
        .collect()
}

/// Reduction of the aligned product pairs `r` (2n words, `top` the highest word that may be
/// non-zero) to n words, then the stores into `out`; with `shift_fold`, the last fold by word
/// shifts (see [`shift_last_fold`]).
pub(super) fn reduce_xmm(
    g: &mut Gen,
    s: &BinarySpec,
    mut r: Vec<Option<V>>,
    mut top: usize,
    shift_fold: bool,
) -> Vec<Option<V>> {
    let n = s.n;
    let m = s.m;
    let d = s.exponents[1];
    let shift = 64 * n - m;
    let gpoly = s.poly.low(m);
    let big_g = gpoly.shl(shift);
    let gw = (shift + d) / 64 + 1;
    let gwords = words_of(&big_g, gw);
    let gvecs = const_pairs(g, "g", &gwords);
    while top >= n {
        let mut diags: Vec<Option<V>> = vec![None; 2 * n + gw];
        let mut new_top = n - 1;
        for i in n..=top {
            let Some(pair) = r[i / 2] else {
                continue;
            };
            for j in (0..gw).filter(|&j| gwords[j] != 0) {
                let p = g.clmul(pair, gvecs[j / 2], fit((i % 2) | ((j % 2) << 4)));
                let k = i - n + j;
                diags[k] = g.xor(diags[k].take(), Some(p));
            }
            // deg(c_i·x^(64(i−n))·G) ≤ 64(i − n) + 63 + s + d.
            new_top = new_top.max((64 * (i - n) + 63 + shift + d) / 64);
        }
        // Keep words below n: whole pairs, and the low word of a pair holding words n−1, n.
        let mut low: Vec<Option<V>> = r[..n.div_ceil(2)].to_vec();
        if n % 2 == 1 {
            if let Some(x) = low[n / 2].take() {
                let x = match g.low_word.take() {
                    Some((pair, lo)) if pair == x => lo,
                    _ => x,
                };
                // In the last round, when the bits of word n − 1 above x^m are folded and
                // masked next, the mask clears the high lane: no move needed.
                let last_round = new_top < n && m - 64 * (n - 1) < 64 && split_top_word(s);
                low[n / 2] = Some(if last_round {
                    x
                } else {
                    g.bind("k", Op::MoveLo(x))
                });
            }
        }
        let r_len = n.div_ceil(2).max(new_top / 2 + 1);
        let folded = g.combine(&diags, r_len, None);
        r = (0..r_len)
            .map(|t| {
                let lo = low.get(t).copied().flatten();
                g.xor(lo, folded[t])
            })
            .collect();
        top = new_top;
    }
    // Bits of word n − 1 at or above x^m (r = m − 64(n − 1) of them stay).
    let rbits = m - 64 * (n - 1);
    let last = (n - 1) / 2;
    if rbits < 64 {
        if let Some(x) = r[last] {
            let t = g.bind("h", Op::Shr64(x, fit(rbits)));
            let fw = words_of(&gpoly, d / 64 + 1);
            let lane = (n - 1) % 2;
            let mut diags: Vec<Option<V>> = vec![None; fw.len() + 1];
            if shift_fold {
                // t·g as a sum of shifts of t, word n cleared from the pair first: one
                // PCLMULQDQ fewer for the port that bounds the kernel, no longer a path.
                let t0 = g.bind("h", Op::MoveLo(t));
                let terms: Vec<V> = s.exponents[1..]
                    .iter()
                    .map(|&e| {
                        if e == 0 {
                            t0
                        } else {
                            g.bind("f", Op::Shl64(t0, fit(e)))
                        }
                    })
                    .collect();
                diags[0] = g.xor_tree(terms);
            } else {
                let fvecs = const_pairs(g, "f", &fw);
                for (j, word) in fw.iter().enumerate() {
                    if *word != 0 {
                        let p = g.clmul(t, fvecs[j / 2], fit(lane | ((j % 2) << 4)));
                        diags[j] = g.xor(diags[j].take(), Some(p));
                    }
                }
            }
            let top_mask = (1u64 << rbits) - 1;
            let (lo, hi) = if lane == 1 {
                (u64::MAX, top_mask)
            } else {
                (top_mask, 0)
            };
            let mask = g.inline(Op::Set { lo, hi });
            let kept = g.bind("k", Op::And(x, mask));
            r[last] = Some(kept);
            // deg(t·g) ≤ 63 − rbits + d < m, so the fold stays inside the n words.
            let folded = g.combine(&diags, (63 - rbits + d) / 128 + 1, None);
            for (t, v) in folded.into_iter().enumerate() {
                r[t] = g.xor(r[t].take(), v);
            }
        }
    }
    r.truncate(n.div_ceil(2));
    r
}

/// Stores the n-word result held in ceil(n/2) pairs into `out`.
// Word indices follow the schoolbook layout of the formulas.
#[allow(clippy::needless_range_loop)]
pub(super) fn store(g: &mut Gen, r: &[Option<V>], n: usize) {
    for t in 0..n.div_ceil(2) {
        g.effect(Op::Store {
            word: 2 * t,
            v: r[t],
            pair: 2 * t + 1 < n,
        });
    }
}
