//! The word-level plan of a carry-less product (schoolbook, the three- and five-term formulae,
//! Karatsuba), chosen per operand shape by counting instructions: PCLMULQDQ issues on one port,
//! so products weigh 1 and xors, shifts and loads a fraction.

use super::*;

/// How a product of two word vectors is computed.
#[derive(Clone, Debug)]
pub(super) enum Plan {
    /// Every pair of words, one PCLMULQDQ each.
    School,
    /// The symmetric formula `FORMULAS[i]` over its k words, here the three-term (6 products)
    /// and five-term (13 products) ones (see [`crate::binary::formula`]).
    Formula(usize),
    /// Karatsuba with the low half of `h` words: (low, high, sums).
    Kara(usize, Box<Plan>, Box<Plan>, Box<Plan>),
}

/// Plans already costed, by operand shapes (which words may be non-zero).
type PlanMemo = HashMap<(Vec<bool>, Vec<bool>), (f64, Plan)>;

/// Cost of a vector xor, shift or load in units of one PCLMULQDQ: PCLMULQDQ issues on one port,
/// xors on three, and in a chain of products the PCLMULQDQ port is the bottleneck (measured on
/// an AVX-512 Xeon, sect571's Karatsuba plan with 76 products took 28 ns against 34 ns for the
/// 92 of a weight of 1/3).
const XOR: f64 = 1.0 / 20.0;

/// Cost of moving a word between lanes (a sum of two words in different lanes of their pairs):
/// as much as a product, as the move is a shuffle on the PCLMULQDQ port or a load on the
/// chain's critical path. Measured on the same Xeon at 1/20 instead: the 4-word fields took
/// in-lane Karatsuba everywhere and sect193's product chain slowed by 12%, its throughput
/// by 2.3×; at 1 sect193 keeps its pair plan and sect571 (53 products instead of 76) runs 8%
/// faster.
const MOVE: f64 = 1.0;

/// Operand length in words from which the plan may split at odd words and use the three- and
/// five-term formulae (`fine`); shorter operands split at pairs only. Measured with a chain of products
/// (each waiting for the last), both scheduled by [`schedule`]. On an AVX-512 Xeon (one
/// PCLMULQDQ a cycle) the word-level plans at 3 and 5 words cut the products from 14 to 11
/// (sect163) and 30 to 20 (sect283) but lengthened the chain by 6–8% (the sums before and the
/// xors after the products sit on its critical path), while at 7 and 9 words (sect409 45
/// instead of 49, sect571 47 instead of 76) the chain shortened by 2.5–6%. On AMD Zen 4 (EPYC,
/// family 19h model 11h: one PCLMULQDQ every two cycles, latency 4) the products set the pace:
/// sect283's plan (15 products, 20 with the reduction) runs 12.2 ns against 14.4 ns (example
/// `binary_interleaved`), while sect163 and gf2-155 at 3 words still lose (9.1 → 10.3 ns,
/// 12.0 → 13.4 ns). The five-term formula then took sect283 from 15 products to 13 (18 with the
/// reduction): independent products 10.9 → 9.75 ns and a chain in registers 10.8 → 9.8 ns
/// (best of eight alternating runs, 2026-12-01), while the example's chain through memory
/// stayed at 12.2–12.5 ns (its clock ticks 0.3 ns a step). sect571 (9 words) now splits 5 + 4
/// with the formula in the low half and the middle term: 37 products against 36 before, as
/// the cost model does not follow the lanes of the middle term's sums; unchanged at 26.8 ns
/// for independent products, 25.7 → 26.5 ns in a chain. The bench machine is now the Zen 4.
pub(super) const FINE_WORDS: usize = 5;

/// Operand length in words from which a square's word squares are byte shuffles (`PSHUFB`
/// spreading each nibble to a byte, then byte interleaves) instead of one PCLMULQDQ per word.
/// On AMD Zen 4, where PCLMULQDQ issues every other cycle, sect571's squaring (9 words, 9
/// squares and 9 folds) went from 9.4 to 6.3 ns in a chain (example `binary_interleaved`, 71
/// squarings), while at 5 and 3 words, where a squaring is latency-bound, the longer shuffle
/// path lost: sect283 4.8 → 5.0 ns, sect163 4.8 → 5.3 ns.
pub(super) const SPREAD_WORDS: usize = 7;

/// The cheapest plan for operands with these words present and its cost in PCLMULQDQs (see
/// [`XOR`], [`MOVE`]). With `fine`, splits are at any word, so the halves' word sums may sit in
/// different lanes; without, at pairs only.
pub(super) fn plan(a: &[bool], b: &[bool], fine: bool, memo: &mut PlanMemo) -> (f64, Plan) {
    if let Some(v) = memo.get(&(a.to_vec(), b.to_vec())) {
        return v.clone();
    }
    let l = a.len();
    if l > 1 && !a[l - 1] && !b[l - 1] {
        // A zero top word in both: the plan of the shorter operands (`Gen::mul` trims alike).
        let best = plan(&a[..l - 1], &b[..l - 1], fine, memo);
        memo.insert((a.to_vec(), b.to_vec()), best.clone());
        return best;
    }
    let count = |v: &[bool]| v.iter().filter(|&&x| x).count();
    let products = count(a) * count(b);
    let school = products as f64 * (1.0 + XOR);
    let mut best = (school, Plan::School);
    if l > 1 && products > 0 {
        for (fi, f) in FORMULAS.iter().enumerate().skip(1) {
            if fine && l == f.k && count(a) == l && count(b) == l {
                // The products, the sums of each operand's terms and the output xors.
                let cost = f.subsets.len() as f64 + formula_xors(f) as f64 * XOR;
                if cost < best.0 {
                    best = (cost, Plan::Formula(fi));
                }
            }
        }
        for h in l.div_ceil(2)..l {
            if !fine && h % 2 == 1 {
                continue;
            }
            let pad = |v: &[bool]| {
                let mut hi = v[h..].to_vec();
                hi.resize(h, false);
                hi
            };
            let (a0, b0) = (&a[..h], &b[..h]);
            let (a1, b1) = (pad(a), pad(b));
            let sa: Vec<bool> = (0..h).map(|i| a0[i] || a1[i]).collect();
            let sb: Vec<bool> = (0..h).map(|i| b0[i] || b1[i]).collect();
            let (c0, p0) = plan(a0, b0, fine, memo);
            let (c2, p2) = plan(&a1, &b1, fine, memo);
            let (c1, p1) = plan(&sa, &sb, fine, memo);
            // Sums of halves (a lane move each when h is odd), then three xors per middle
            // diagonal.
            let moves = if h % 2 == 1 { 2 * h } else { 0 };
            let extra = (2 * h + 3 * (2 * h - 1)) as f64 * XOR + moves as f64 * MOVE;
            let cost = c0 + c1 + c2 + extra;
            if cost < best.0 {
                best = (
                    cost,
                    Plan::Kara(h, Box::new(p0), Box::new(p2), Box::new(p1)),
                );
            }
        }
    }
    memo.insert((a.to_vec(), b.to_vec()), best.clone());
    best
}

/// Xors of a formula's word plan: the sums of both operands' terms and the output sums, as
/// [`programs`] shares them.
fn formula_xors(f: &Formula) -> usize {
    let p = programs(f);
    2 * p.terms.steps.len() + p.outputs.steps.len()
}
