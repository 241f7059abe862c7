//! The x86-64 PCLMULQDQ kernels of a binary field, written over `__m128i` values so that the
//! product and the reduction stay in XMM registers.
//!
//! Operands are loaded as pairs of 64-bit words (one `__m128i` per two words); a word product
//! is `_mm_clmulepi64_si128` with the selector naming the two words, so no word is ever moved
//! between general and vector registers. The double-length product is kept as *diagonals*: D_k
//! is a 128-bit value whose low word adds to word k of the product and whose high word adds to
//! word k + 1. Karatsuba over 128-bit halves (operands split at a pair boundary, so the sums of
//! halves are pair xors), schoolbook over pairs, or from five words also splits at any word and
//! the three- and five-term formulae of [`super::formula`] is chosen per size by counting
//! instructions.
//! Diagonals become aligned pairs with byte shifts (R_t = D_2t + D_(2t+1)·x^64 +
//! D_(2t−1)·x^−64).
//!
//! Reduction by carry-less multiplication with f: for f = x^m + g with s + deg g < 128, where
//! s = 64n − m, every word c_i at or above word n is folded as c_i·x^(64(i−n))·G with
//! G = x^s·g (one or two word products), repeated until nothing is left at or above word n;
//! then the bits of word n − 1 at or above x^m are folded once with g. Each fold strictly lowers
//! the degree (the sparse form guarantees deg g ≤ m − 64), and the last leaves degree < m.

use std::collections::HashMap;

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use super::formula::{programs, Formula, Programs, FORMULAS};
use super::{BinarySpec, Poly, Reduction};

fn arch(name: &str) -> TokenStream {
    let id = format_ident!("{}", name);
    quote!(::core::arch::x86_64::#id)
}

fn usize_lit(x: usize) -> Literal {
    Literal::usize_unsuffixed(x)
}

/// How a product of two word vectors is computed.
#[derive(Clone, Debug)]
enum Plan {
    /// Every pair of words, one PCLMULQDQ each.
    School,
    /// The symmetric formula `FORMULAS[i]` over its k words, here the three-term (6 products)
    /// and five-term (13 products) ones (see [`super::formula`]).
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
const FINE_WORDS: usize = 5;

/// Operand length in words from which a square's word squares are byte shuffles (`PSHUFB`
/// spreading each nibble to a byte, then byte interleaves) instead of one PCLMULQDQ per word.
/// On AMD Zen 4, where PCLMULQDQ issues every other cycle, sect571's squaring (9 words, 9
/// squares and 9 folds) went from 9.4 to 6.3 ns in a chain (example `binary_interleaved`, 71
/// squarings), while at 5 and 3 words, where a squaring is latency-bound, the longer shuffle
/// path lost: sect283 4.8 → 5.0 ns, sect163 4.8 → 5.3 ns.
const SPREAD_WORDS: usize = 7;

/// The cheapest plan for operands with these words present and its cost in PCLMULQDQs (see
/// [`XOR`], [`MOVE`]). With `fine`, splits are at any word, so the halves' word sums may sit in
/// different lanes; without, at pairs only.
fn plan(a: &[bool], b: &[bool], fine: bool, memo: &mut PlanMemo) -> (f64, Plan) {
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

/// One 64-bit word of an operand: lane `lane` of the `__m128i` `v`; for an input word, `load`
/// reads it alone into lane 0 (a load instead of a lane move).
#[derive(Clone)]
struct Word {
    v: Ident,
    lane: u8,
    load: Option<TokenStream>,
}

#[derive(Clone)]
struct Opnd {
    id: Ident,
}

/// Straight-line statements over `__m128i` values.
struct Gen {
    stmts: Vec<TokenStream>,
    next: usize,
    clmuls: usize,
    /// Xors (and word products) already emitted, by operand names (a sum of pairs serves both
    /// lanes).
    xors: HashMap<(String, String), Ident>,
    /// Words already moved to lane 0, by (vector, lane).
    low: HashMap<String, Ident>,
    /// For the product pair holding words n − 1 and n (n odd): the pair without D_n's low
    /// word, so word n − 1 (lane 0) does not wait for the products of D_n.
    low_word: Option<(Ident, Ident)>,
}

impl Gen {
    fn new() -> Gen {
        Gen {
            stmts: Vec::new(),
            next: 0,
            clmuls: 0,
            xors: HashMap::new(),
            low: HashMap::new(),
            low_word: None,
        }
    }

    fn bind(&mut self, prefix: &str, expr: TokenStream) -> Ident {
        self.next += 1;
        let id = format_ident!("{}{}", prefix, self.next);
        self.stmts.push(quote!(let #id = #expr;));
        id
    }

    fn xor(&mut self, x: Option<Ident>, y: Option<Ident>) -> Option<Ident> {
        match (x, y) {
            (None, v) | (v, None) => v,
            // v + v = 0: the middle terms of an unbalanced Karatsuba split can be one product
            // twice (emitted once by `clmul`).
            (Some(a), Some(b)) if a == b => None,
            (Some(a), Some(b)) => {
                let f = arch("_mm_xor_si128");
                Some(self.bind("x", quote!(#f(#a, #b))))
            }
        }
    }

    fn clmul(&mut self, a: &Ident, b: &Ident, imm: u8) -> Ident {
        // The same word product may come up twice (a word of a low half that is also the
        // word of a sum with an absent high word): emitted once.
        let key = (format!("{a}·{b}"), imm.to_string());
        if let Some(id) = self.xors.get(&key) {
            return id.clone();
        }
        self.clmuls += 1;
        let f = arch("_mm_clmulepi64_si128");
        let lit = Literal::i32_unsuffixed(imm as i32);
        let id = self.bind("p", quote!(#f(#a, #b, #lit)));
        self.xors.insert(key, id.clone());
        id
    }

    /// The xor of all `terms` as a balanced tree (None for no terms).
    fn xor_tree(&mut self, mut terms: Vec<Ident>) -> Option<Ident> {
        while terms.len() > 1 {
            let mut next = Vec::with_capacity(terms.len().div_ceil(2));
            for pair in terms.chunks(2) {
                match pair {
                    [a, b] => next.push(self.xor(Some(a.clone()), Some(b.clone())).expect("two")),
                    [a] => next.push(a.clone()),
                    _ => unreachable!(),
                }
            }
            terms = next;
        }
        terms.pop()
    }

    /// x + y as one vector, emitted once per pair of operands.
    fn xor_once(&mut self, x: &Ident, y: &Ident) -> Ident {
        let (xs, ys) = (x.to_string(), y.to_string());
        let key = if xs <= ys { (xs, ys) } else { (ys, xs) };
        if let Some(id) = self.xors.get(&key) {
            return id.clone();
        }
        let f = arch("_mm_xor_si128");
        let id = self.bind("s", quote!(#f(#x, #y)));
        self.xors.insert(key, id.clone());
        id
    }

    /// The word in lane 0: a load for an input word, else the high lane copied down.
    fn low_lane(&mut self, w: &Word) -> Word {
        if w.lane == 0 {
            return w.clone();
        }
        let key = w.v.to_string();
        let id = match self.low.get(&key) {
            Some(id) => id.clone(),
            None => {
                let expr = match &w.load {
                    Some(e) => e.clone(),
                    None => {
                        let f = arch("_mm_unpackhi_epi64");
                        let v = &w.v;
                        quote!(#f(#v, #v))
                    }
                };
                let id = self.bind("l", expr);
                self.low.insert(key, id.clone());
                id
            }
        };
        Word {
            v: id,
            lane: 0,
            load: None,
        }
    }

    fn word_sum(&mut self, x: &Option<Word>, y: &Option<Word>) -> Option<Word> {
        match (x, y) {
            (None, v) | (v, None) => v.clone(),
            (Some(x), Some(y)) => {
                let (x, y) = if x.lane == y.lane {
                    (x.clone(), y.clone())
                } else {
                    (self.low_lane(x), self.low_lane(y))
                };
                let v = self.xor_once(&x.v, &y.v);
                Some(Word {
                    v,
                    lane: x.lane,
                    load: None,
                })
            }
        }
    }

    /// Diagonals D_0..D_(2l−2) of the product of two vectors of l words: D_k holds the
    /// 128-bit sum of the word products a_i·b_j with i + j = k.
    fn mul(&mut self, a: &[Option<Word>], b: &[Option<Word>], p: &Plan) -> Vec<Option<Ident>> {
        let l = a.len();
        if l > 1 && a[l - 1].is_none() && b[l - 1].is_none() {
            let mut out = self.mul(&a[..l - 1], &b[..l - 1], p);
            out.resize(2 * l - 1, None);
            return out;
        }
        let mut out: Vec<Option<Ident>> = vec![None; 2 * l - 1];
        match p {
            Plan::School => {
                // Highest diagonals first: the reduction needs them, so its products can
                // start while the low diagonals are still being summed.
                let mut terms = Vec::new();
                for (i, x) in a.iter().enumerate() {
                    let Some(x) = x else { continue };
                    for (j, y) in b.iter().enumerate() {
                        let Some(y) = y else { continue };
                        terms.push((i + j, x.clone(), y.clone()));
                    }
                }
                terms.sort_by_key(|t| core::cmp::Reverse(t.0));
                for (k, x, y) in terms {
                    let prod = self.clmul(&x.v, &y.v, x.lane | (y.lane << 4));
                    out[k] = self.xor(out[k].take(), Some(prod));
                }
            }
            Plan::Formula(fi) => {
                let Programs {
                    terms,
                    outputs: outs,
                } = programs(&FORMULAS[*fi]);
                let sums = |g: &mut Gen, v: &[Option<Word>]| -> Vec<Word> {
                    let mut vals = v.to_vec();
                    for &(x, y) in &terms.steps {
                        let w = g.word_sum(&vals[x], &vals[y]);
                        vals.push(w);
                    }
                    terms
                        .outputs
                        .iter()
                        .map(|o| vals[o.expect("non-empty subset")].clone().expect("present"))
                        .collect()
                };
                let (sa, sb) = (sums(self, a), sums(self, b));
                // Products of the high terms first, as the reduction needs the top diagonals.
                let mut prods: Vec<Option<Ident>> = vec![None; sa.len()];
                for p in (0..sa.len()).rev() {
                    let (x, y) = (&sa[p], &sb[p]);
                    prods[p] = Some(self.clmul(&x.v, &y.v, x.lane | (y.lane << 4)));
                }
                for &(x, y) in &outs.steps {
                    let v = self.xor(prods[x].clone(), prods[y].clone());
                    prods.push(v);
                }
                out = outs
                    .outputs
                    .iter()
                    .map(|o| o.and_then(|v| prods[v].clone()))
                    .collect();
            }
            Plan::Kara(h, p0, p2, p1) => {
                let h = *h;
                let pad = |v: &[Option<Word>]| {
                    let mut hi = v[h..].to_vec();
                    hi.resize(h, None);
                    hi
                };
                let (a1, b1) = (pad(a), pad(b));
                let sa: Vec<Option<Word>> = (0..h).map(|i| self.word_sum(&a[i], &a1[i])).collect();
                let sb: Vec<Option<Word>> = (0..h).map(|i| self.word_sum(&b[i], &b1[i])).collect();
                let d0 = self.mul(&a[..h], &b[..h], p0);
                let d2 = self.mul(&a1, &b1, p2);
                let d1 = self.mul(&sa, &sb, p1);
                let mut wide: Vec<Option<Ident>> = vec![None; 4 * h - 1];
                for (k, v) in d0.iter().enumerate() {
                    wide[k] = v.clone();
                }
                for (k, v) in d2.iter().enumerate() {
                    wide[2 * h + k] = self.xor(wide[2 * h + k].take(), v.clone());
                }
                for k in 0..2 * h - 1 {
                    let m0 = self.xor(d1[k].clone(), d0[k].clone());
                    let mid = self.xor(m0, d2[k].clone());
                    wide[h + k] = self.xor(wide[h + k].take(), mid);
                }
                // Diagonals at or beyond 2l − 1 are zero as polynomials (the middle terms of an
                // unbalanced split cancel) and are dropped unused.
                for (k, v) in wide.into_iter().enumerate().take(out.len()) {
                    out[k] = v;
                }
            }
        }
        out
    }

    /// Aligned pairs R_0..R_(npairs−1) from diagonals. For pair `split`, R without
    /// D_(2·split+1)'s low word (its lane 0 is already final) is kept in `low_word`.
    fn combine(
        &mut self,
        d: &[Option<Ident>],
        npairs: usize,
        split: Option<usize>,
    ) -> Vec<Option<Ident>> {
        let (sl, sr) = (arch("_mm_slli_si128"), arch("_mm_srli_si128"));
        (0..npairs)
            .map(|t| {
                let mut r = d.get(2 * t).cloned().flatten();
                let mut high = None;
                if let Some(Some(x)) = d.get(2 * t + 1) {
                    high = Some(self.bind("u", quote!(#sl(#x, 8))));
                }
                if split != Some(t) {
                    r = self.xor(r, high.take());
                }
                if t > 0 {
                    if let Some(Some(x)) = d.get(2 * t - 1) {
                        let v = self.bind("v", quote!(#sr(#x, 8)));
                        r = self.xor(r, Some(v));
                    }
                }
                if let Some(h) = high {
                    let lo = r.clone().expect("a product pair below its high diagonal");
                    r = self.xor(r, Some(h));
                    self.low_word = Some((r.clone().expect("non-empty"), lo));
                }
                r
            })
            .collect()
    }
}

/// Reorders straight-line statements by list scheduling: each statement's height is its
/// latency (PCLMULQDQ 3 cycles, loads 5, other vector operations 1) plus the largest height
/// among its users, and of the statements whose operands are ready the highest comes first
/// (ties in the original order). The out-of-order core issues the oldest ready instruction
/// first, so the products and folds on the longest path to the stores — the reduction of the
/// top words — then no longer wait behind products only the low words need.
fn schedule(stmts: Vec<TokenStream>) -> Vec<TokenStream> {
    fn idents(ts: &TokenStream, out: &mut Vec<String>) {
        for t in ts.clone() {
            match t {
                proc_macro2::TokenTree::Ident(i) => out.push(i.to_string()),
                proc_macro2::TokenTree::Group(g) => idents(&g.stream(), out),
                _ => {}
            }
        }
    }
    let n = stmts.len();
    let mut defined: HashMap<String, usize> = HashMap::new();
    let mut deps: Vec<Vec<usize>> = Vec::with_capacity(n);
    let mut lat: Vec<u32> = Vec::with_capacity(n);
    for (i, st) in stmts.iter().enumerate() {
        let mut ids = Vec::new();
        idents(st, &mut ids);
        let is_let = ids.first().map(String::as_str) == Some("let");
        let uses = if is_let { &ids[2..] } else { &ids[..] };
        let mut d: Vec<usize> = uses
            .iter()
            .filter_map(|u| defined.get(u).copied())
            .collect();
        d.sort_unstable();
        d.dedup();
        deps.push(d);
        lat.push(if uses.iter().any(|u| u == "_mm_clmulepi64_si128") {
            3
        } else if uses.iter().any(|u| u.starts_with("_mm_load")) {
            5
        } else {
            1
        });
        if is_let {
            defined.insert(ids[1].clone(), i);
        }
    }
    let mut height = lat.clone();
    for i in (0..n).rev() {
        for &d in &deps[i] {
            height[d] = height[d].max(lat[d] + height[i]);
        }
    }
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut waiting: Vec<usize> = deps.iter().map(Vec::len).collect();
    for (i, d) in deps.iter().enumerate() {
        for &j in d {
            users[j].push(i);
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&i| waiting[i] == 0).collect();
    let mut order = Vec::with_capacity(n);
    while !ready.is_empty() {
        let (pos, _) = ready
            .iter()
            .enumerate()
            .max_by_key(|(_, &i)| (height[i], std::cmp::Reverse(i)))
            .expect("non-empty");
        let i = ready.swap_remove(pos);
        order.push(i);
        for &u in &users[i] {
            waiting[u] -= 1;
            if waiting[u] == 0 {
                ready.push(u);
            }
        }
    }
    assert_eq!(order.len(), n, "statements form a DAG");
    let mut slots: Vec<Option<TokenStream>> = stmts.into_iter().map(Some).collect();
    order
        .into_iter()
        .map(|i| slots[i].take().unwrap())
        .collect()
}

/// Whether word n − 1 of the XMM product (n odd) is taken without D_n (the diagonal that
/// only adds to word n) and, in the last round of folds, without clearing word n from its
/// pair (the final mask clears it): word n − 1 is stored first and its top bits are folded
/// last, so both sit on a chain's critical path. Only where G = x^s·g is one word, each
/// fold one product per word: measured in a chain of multiplications on an AVX-512 Xeon,
/// sect163, sect283 and sect571 gained 2–5%, while gf2-155 (G in two words) lost 2%.
fn split_top_word(s: &BinarySpec) -> bool {
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
fn shift_last_fold(s: &BinarySpec) -> bool {
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
fn shift_pairs(
    g: &mut Gen,
    p: &[Option<Ident>],
    s: usize,
    right: bool,
    out: usize,
) -> Vec<Option<Ident>> {
    let (q, r) = ((s / 64) as isize, (s % 64) as i32);
    let (alignr, sl8, sr8) = (
        arch("_mm_alignr_epi8"),
        arch("_mm_slli_si128"),
        arch("_mm_srli_si128"),
    );
    let (sll, srl) = (arch("_mm_slli_epi64"), arch("_mm_srli_epi64"));
    // The pair of source words (w, w + 1), w possibly negative or odd.
    let pair_at = |g: &mut Gen, w: isize| -> Option<Ident> {
        let get = |i: isize| -> Option<Ident> {
            if i < 0 {
                None
            } else {
                p.get(i as usize).cloned().flatten()
            }
        };
        if w.rem_euclid(2) == 0 {
            return get(w.div_euclid(2));
        }
        let (lo, hi) = (get(w.div_euclid(2)), get(w.div_euclid(2) + 1));
        match (lo, hi) {
            (None, None) => None,
            (Some(lo), None) => Some(g.bind("w", quote!(#sr8(#lo, 8)))),
            (None, Some(hi)) => Some(g.bind("w", quote!(#sl8(#hi, 8)))),
            (Some(lo), Some(hi)) => Some(g.bind("w", quote!(#alignr(#hi, #lo, 8)))),
        }
    };
    let rl = Literal::i32_unsuffixed(r);
    let rc = Literal::i32_unsuffixed(64 - r);
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
            let (fa, fb) = if right { (&srl, &sll) } else { (&sll, &srl) };
            let a = a.map(|a| g.bind("y", quote!(#fa(#a, #rl))));
            let b = b.map(|b| g.bind("z", quote!(#fb(#b, #rc))));
            g.xor(a, b)
        })
        .collect()
}

/// `pairs` (⌈n/2⌉ of them) with every bit at or above x^m cleared.
fn mask_below_m(g: &mut Gen, s: &BinarySpec, pairs: &[Option<Ident>]) -> Vec<Option<Ident>> {
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
    let and = arch("_mm_and_si128");
    (0..np)
        .map(|t| {
            let v = pairs.get(t).cloned().flatten()?;
            if words[2 * t] == u64::MAX && words[2 * t + 1] == u64::MAX {
                return Some(v);
            }
            let mask = set_pair(words[2 * t], words[2 * t + 1]);
            Some(g.bind("k", quote!(#and(#v, #mask))))
        })
        .collect()
}

/// C mod f for a square C (the pairs `r` of its 2n words) and a trinomial f = x^m + x^e + 1
/// with 2e − 2 < m, by shifts only (Hankerson, Menezes, Vanstone, "Guide to Elliptic Curve
/// Cryptography", §2.3.5, on whole pairs instead of words): with C = L + x^m·H and
/// x^e·H = M + x^m·H2 (M below x^m), C ≡ L + H + M + H2 + x^e·H2, every term below x^m, where
/// H = C·x^−m and H2 = C·x^−(2m−e). No PCLMULQDQ: the reduction runs on the vector shift and
/// shuffle ports while the products or word squares keep the carry-less multiplier busy.
fn reduce_trinomial_shifts(g: &mut Gen, s: &BinarySpec, r: &[Option<Ident>]) -> Vec<Option<Ident>> {
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
            let terms: Vec<Ident> = [&l, &h, &mm, &h2, &h2e]
                .iter()
                .filter_map(|v| v.get(t).cloned().flatten())
                .collect();
            g.xor_tree(terms)
        })
        .collect()
}

/// The words of a constant as `__m128i` pairs, word 2t + l in lane l of pair t.
fn const_pairs(g: &mut Gen, prefix: &str, words: &[u64]) -> Vec<Ident> {
    words
        .chunks(2)
        .map(|c| g.bind(prefix, set_pair(c[0], c.get(1).copied().unwrap_or(0))))
        .collect()
}

fn words_of(p: &Poly, count: usize) -> Vec<u64> {
    p.to_words(64, count)
}

fn set_pair(lo: u64, hi: u64) -> TokenStream {
    let f = arch("_mm_set_epi64x");
    let hex = |v: u64| {
        let l: syn::LitInt =
            syn::LitInt::new(&format!("{v:#018x}u64"), proc_macro2::Span::call_site());
        quote!(#l as i64)
    };
    let (lo, hi) = (hex(lo), hex(hi));
    quote!(#f(#hi, #lo))
}

fn load_pairs(g: &mut Gen, src: &Ident, n: usize) -> Vec<Option<Opnd>> {
    (0..n.div_ceil(2))
        .map(|t| {
            let idx = usize_lit(2 * t);
            let full = 2 * t + 1 < n;
            let f = if full {
                arch("_mm_loadu_si128")
            } else {
                arch("_mm_loadl_epi64")
            };
            let id = g.bind("a", quote!(#f(#src.as_ptr().add(#idx).cast())));
            Some(Opnd { id })
        })
        .collect()
}

/// Reduction of the aligned product pairs `r` (2n words, `top` the highest word that may be
/// non-zero) to n words, then the stores into `out`; with `shift_fold`, the last fold by word
/// shifts (see [`shift_last_fold`]).
fn reduce_xmm(
    g: &mut Gen,
    s: &BinarySpec,
    mut r: Vec<Option<Ident>>,
    mut top: usize,
    shift_fold: bool,
) -> Vec<Option<Ident>> {
    let n = s.n;
    let m = s.m;
    let d = s.exponents[1];
    let shift = 64 * n - m;
    let gpoly = s.poly.low(m);
    let big_g = gpoly.shl(shift);
    let gw = (shift + d) / 64 + 1;
    let gwords = words_of(&big_g, gw);
    let gvecs = const_pairs(g, "g", &gwords);
    let move_lo = arch("_mm_move_epi64");
    while top >= n {
        let mut diags: Vec<Option<Ident>> = vec![None; 2 * n + gw];
        let mut new_top = n - 1;
        for i in n..=top {
            let Some(pair) = r[i / 2].clone() else {
                continue;
            };
            for j in (0..gw).filter(|&j| gwords[j] != 0) {
                let p = g.clmul(&pair, &gvecs[j / 2], ((i % 2) | ((j % 2) << 4)) as u8);
                let k = i - n + j;
                diags[k] = g.xor(diags[k].take(), Some(p));
            }
            // deg(c_i·x^(64(i−n))·G) ≤ 64(i − n) + 63 + s + d.
            new_top = new_top.max((64 * (i - n) + 63 + shift + d) / 64);
        }
        // Keep words below n: whole pairs, and the low word of a pair holding words n−1, n.
        let mut low: Vec<Option<Ident>> = r[..n.div_ceil(2)].to_vec();
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
                    g.bind("k", quote!(#move_lo(#x)))
                });
            }
        }
        let r_len = n.div_ceil(2).max(new_top / 2 + 1);
        let folded = g.combine(&diags, r_len, None);
        r = (0..r_len)
            .map(|t| {
                let lo = low.get(t).cloned().flatten();
                g.xor(lo, folded[t].clone())
            })
            .collect();
        top = new_top;
    }
    // Bits of word n − 1 at or above x^m (r = m − 64(n − 1) of them stay).
    let rbits = m - 64 * (n - 1);
    let last = (n - 1) / 2;
    if rbits < 64 {
        if let Some(x) = r[last].clone() {
            let srl = arch("_mm_srli_epi64");
            let rb = Literal::i32_unsuffixed(rbits as i32);
            let t = g.bind("h", quote!(#srl(#x, #rb)));
            let fw = words_of(&gpoly, d / 64 + 1);
            let lane = (n - 1) % 2;
            let mut diags: Vec<Option<Ident>> = vec![None; fw.len() + 1];
            if shift_fold {
                // t·g as a sum of shifts of t, word n cleared from the pair first: one
                // PCLMULQDQ fewer for the port that bounds the kernel, no longer a path.
                let sll = arch("_mm_slli_epi64");
                let t0 = g.bind("h", quote!(#move_lo(#t)));
                let terms: Vec<Ident> = s.exponents[1..]
                    .iter()
                    .map(|&e| {
                        if e == 0 {
                            t0.clone()
                        } else {
                            let el = Literal::i32_unsuffixed(e as i32);
                            g.bind("f", quote!(#sll(#t0, #el)))
                        }
                    })
                    .collect();
                diags[0] = g.xor_tree(terms);
            } else {
                let fvecs = const_pairs(g, "f", &fw);
                for (j, word) in fw.iter().enumerate() {
                    if *word != 0 {
                        let p = g.clmul(&t, &fvecs[j / 2], (lane | ((j % 2) << 4)) as u8);
                        diags[j] = g.xor(diags[j].take(), Some(p));
                    }
                }
            }
            let top_mask = (1u64 << rbits) - 1;
            let mask = if lane == 1 {
                set_pair(u64::MAX, top_mask)
            } else {
                set_pair(top_mask, 0)
            };
            let and = arch("_mm_and_si128");
            let kept = g.bind("k", quote!(#and(#x, #mask)));
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
fn store(g: &mut Gen, r: &[Option<Ident>], n: usize) {
    let zero = arch("_mm_setzero_si128");
    for t in 0..n.div_ceil(2) {
        let idx = usize_lit(2 * t);
        let v = match &r[t] {
            Some(x) => quote!(#x),
            None => quote!(#zero()),
        };
        let f = if 2 * t + 1 < n {
            arch("_mm_storeu_si128")
        } else {
            arch("_mm_storel_epi64")
        };
        g.stmts
            .push(quote!(#f(out.as_mut_ptr().add(#idx).cast(), #v);));
    }
}

/// The product kernel's statements: operands loaded as pairs, the word-level plan's
/// diagonals, aligned pairs of 2n words. With `split` (n odd), the pair of words n − 1 and n
/// is also kept without D_n (see [`Gen::combine`]) for [`reduce_xmm`].
fn product(g: &mut Gen, n: usize, split: bool) -> Vec<Option<Ident>> {
    let words = |g: &mut Gen, src: &Ident| {
        let pairs = load_pairs(g, src, n);
        let loadl = arch("_mm_loadl_epi64");
        (0..n)
            .map(|i| {
                let idx = usize_lit(i);
                Some(Word {
                    v: pairs[i / 2].as_ref().unwrap().id.clone(),
                    lane: (i % 2) as u8,
                    load: Some(quote!(#loadl(#src.as_ptr().add(#idx).cast()))),
                })
            })
            .collect::<Vec<_>>()
    };
    let a = words(g, &format_ident!("a"));
    let b = words(g, &format_ident!("b"));
    let present = vec![true; n];
    let (_, p) = plan(&present, &present, n >= FINE_WORDS, &mut HashMap::new());
    let d = g.mul(&a, &b, &p);
    let split = if split && n % 2 == 1 {
        Some(n / 2)
    } else {
        None
    };
    g.combine(&d, n, split)
}

fn square_pairs(g: &mut Gen, n: usize, spread: bool) -> Vec<Option<Ident>> {
    let a = load_pairs(g, &format_ident!("a"), n);
    square_of(g, &a, n, spread)
}

/// The squares of the n words of `a` (pairs), one aligned pair each (pair i = a_i²): with
/// `spread` by byte shuffles, each nibble's bits spread through a 16-entry table (a register
/// constant, indexed by the vector shuffle, so no memory index depends on `a`), else one
/// PCLMULQDQ per word.
// Word indices follow the schoolbook layout of the formulas.
#[allow(clippy::needless_range_loop)]
fn square_of(g: &mut Gen, a: &[Option<Opnd>], n: usize, spread: bool) -> Vec<Option<Ident>> {
    if spread {
        let (and, shuf, srl, set1, setr, unlo, unhi) = (
            arch("_mm_and_si128"),
            arch("_mm_shuffle_epi8"),
            arch("_mm_srli_epi16"),
            arch("_mm_set1_epi8"),
            arch("_mm_setr_epi8"),
            arch("_mm_unpacklo_epi8"),
            arch("_mm_unpackhi_epi8"),
        );
        let mask = g.bind("m", quote!(#set1(0x0f)));
        let table = g.bind(
            "t",
            quote!(#setr(0, 1, 4, 5, 16, 17, 20, 21, 64, 65, 68, 69, 80, 81, 84, 85)),
        );
        let mut out = Vec::new();
        for j in 0..n.div_ceil(2) {
            let x = a[j].as_ref().unwrap().id.clone();
            let lo = g.bind("l", quote!(#shuf(#table, #and(#x, #mask))));
            let hi = g.bind("h", quote!(#shuf(#table, #and(#srl(#x, 4), #mask))));
            out.push(Some(g.bind("q", quote!(#unlo(#lo, #hi)))));
            if 2 * j + 1 < n {
                out.push(Some(g.bind("q", quote!(#unhi(#lo, #hi)))));
            }
        }
        return out;
    }
    (0..n)
        .map(|i| {
            let x = a[i / 2].as_ref().unwrap().id.clone();
            let sel = if i % 2 == 0 { 0x00 } else { 0x11 };
            Some(g.clmul(&x, &x, sel))
        })
        .collect()
}

/// The x86-64 kernel items: `mul_x86_64_clmul` and `square_x86_64_clmul` (n words in, n
/// reduced words out) and, when the reduction is not the XMM one, the double-length
/// `mul_wide_x86_64_clmul` / `square_wide_x86_64_clmul` they reduce with `reduce`.
pub fn kernels(s: &BinarySpec) -> TokenStream {
    let n = s.n;
    let nl = usize_lit(n);
    let n2 = usize_lit(2 * n);
    let safety = |text: &str| {
        let text = format!(" SAFETY: {text}");
        quote!(#[doc = #text])
    };
    let s_kernel = safety("the caller guarantees PCLMULQDQ and SSSE3 (SSE2 is part of x86-64); every load reads 8 or 16 bytes inside the input array (word index + 1 < n for a 16-byte load) and every store writes inside `out`.");
    let np = (2 * s.m - 2) / 64 + 1;
    // A trinomial's shift reduction keeps the vector shift and shuffle ports busy, so its word
    // squares stay PCLMULQDQs on their own port: sect409 squaring 9.07 ns with byte shuffles,
    // 6.96 ns with PCLMULQDQ (AMD Zen 4, the `binary_interleaved` example, best of three).
    let spread = n >= SPREAD_WORDS && !trinomial_shift_reduction(s);
    if xmm_reduction(s) {
        let mut gm = Gen::new();
        let r = product(&mut gm, n, split_top_word(s));
        let r = if trinomial_shift_reduction(s) {
            reduce_trinomial_shifts(&mut gm, s, &r)
        } else {
            reduce_xmm(&mut gm, s, r, np - 1, false)
        };
        store(&mut gm, &r, n);
        let mul_doc = format!(
            " a·b mod f with PCLMULQDQ ({} word products), all in XMM registers: the word-level plan (Karatsuba, the three- and five-term formulae or schoolbook), then reduction {} (see the generator's `binary::x86`).",
            gm.clmuls,
            if trinomial_shift_reduction(s) {
                "by the trinomial's multiword shifts"
            } else {
                "by carry-less multiplication with f"
            }
        );
        let square_doc = format!(
            " a² mod f: the word squares by {}{}.",
            if spread { "byte shuffles" } else { "PCLMULQDQ" },
            if trinomial_shift_reduction(s) {
                ", then the trinomial's reduction by multiword shifts (see the generator's `binary::x86`)"
            } else if shift_last_fold(s) {
                ", then the reduction of `mul_x86_64_clmul`, its last fold by word shifts"
            } else {
                ", then the reduction of `mul_x86_64_clmul`"
            }
        );
        let reduce_square = |g: &mut Gen, r: Vec<Option<Ident>>| {
            if trinomial_shift_reduction(s) {
                reduce_trinomial_shifts(g, s, &r)
            } else {
                reduce_xmm(g, s, r, np - 1, shift_last_fold(s))
            }
        };
        let mut gs = Gen::new();
        let r = square_pairs(&mut gs, n, spread);
        let r = reduce_square(&mut gs, r);
        store(&mut gs, &r, n);
        // square_n: the value stays in XMM registers across the k squarings.
        let mut gl = Gen::new();
        let cur: Vec<Ident> = (0..n.div_ceil(2))
            .map(|t| format_ident!("cur{}", t))
            .collect();
        let init = load_pairs(&mut gl, &format_ident!("a"), n);
        let init_ids: Vec<Ident> = init
            .iter()
            .map(|o| o.as_ref().unwrap().id.clone())
            .collect();
        let load_stmts = std::mem::take(&mut gl.stmts);
        let opnds: Vec<Option<Opnd>> = cur.iter().map(|id| Some(Opnd { id: id.clone() })).collect();
        let sq = square_of(&mut gl, &opnds, n, spread);
        let red = reduce_square(&mut gl, sq);
        let zero = arch("_mm_setzero_si128");
        let next_vals: Vec<TokenStream> = red
            .iter()
            .map(|v| match v {
                Some(x) => quote!(#x),
                None => quote!(#zero()),
            })
            .collect();
        let body = schedule(std::mem::take(&mut gl.stmts));
        let cur_opt: Vec<Option<Ident>> = cur.iter().cloned().map(Some).collect();
        store(&mut gl, &cur_opt, n);
        let store_stmts = gl.stmts;
        let (ms, ss) = (schedule(gm.stmts), schedule(gs.stmts));
        return quote! {
            #[doc = #mul_doc]
            #[cfg(target_arch = "x86_64")]
            #[inline]
            #[target_feature(enable = "pclmulqdq,sse2,ssse3")]
            #[allow(unused_unsafe, unused_doc_comments)]
            unsafe fn mul_x86_64_clmul(a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
                let mut out = [0u64; #nl];
                #s_kernel
                unsafe {
                    #(#ms)*
                }
                out
            }

            /// a^(2^k) mod f: k squarings as in `square_x86_64_clmul`, the value kept in XMM
            /// registers between them (k is public).
            #[cfg(target_arch = "x86_64")]
            #[inline]
            #[target_feature(enable = "pclmulqdq,sse2,ssse3")]
            #[allow(unused_unsafe, unused_doc_comments)]
            unsafe fn square_n_x86_64_clmul(a: &[u64; #nl], k: u32) -> [u64; #nl] {
                let mut out = [0u64; #nl];
                #s_kernel
                unsafe {
                    #(#load_stmts)*
                    #(let mut #cur = #init_ids;)*
                    let mut i = 0u32;
                    while i < k {
                        #(#body)*
                        #(#cur = #next_vals;)*
                        i += 1;
                    }
                    #(#store_stmts)*
                }
                out
            }

            #[doc = #square_doc]
            #[cfg(target_arch = "x86_64")]
            #[inline]
            #[target_feature(enable = "pclmulqdq,sse2,ssse3")]
            #[allow(unused_unsafe, unused_doc_comments)]
            unsafe fn square_x86_64_clmul(a: &[u64; #nl]) -> [u64; #nl] {
                let mut out = [0u64; #nl];
                #s_kernel
                unsafe {
                    #(#ss)*
                }
                out
            }
        };
    }
    // Double-length kernels, reduced by `reduce`.
    let store = |g: &mut Gen, r: Vec<Option<Ident>>| {
        let zero = arch("_mm_setzero_si128");
        let st = arch("_mm_storeu_si128");
        for (t, v) in r.iter().enumerate() {
            let idx = usize_lit(2 * t);
            let v = match v {
                Some(x) => quote!(#x),
                None => quote!(#zero()),
            };
            g.stmts
                .push(quote!(#st(out.as_mut_ptr().add(#idx).cast(), #v);));
        }
    };
    let mut gm = Gen::new();
    let r = product(&mut gm, n, false);
    store(&mut gm, r);
    let mut gs = Gen::new();
    let r = square_pairs(&mut gs, n, n >= SPREAD_WORDS);
    store(&mut gs, r);
    let mul_doc = format!(
        " The double-length a·b (2n words) with PCLMULQDQ ({} word products) over 128-bit pairs in XMM registers.",
        gm.clmuls
    );
    let (ms, ss) = (schedule(gm.stmts), schedule(gs.stmts));
    quote! {
        #[doc = #mul_doc]
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[target_feature(enable = "pclmulqdq,sse2,ssse3")]
        #[allow(unused_unsafe, unused_doc_comments)]
        unsafe fn mul_wide_x86_64_clmul(a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #n2] {
            let mut out = [0u64; #n2];
            #s_kernel
            unsafe {
                #(#ms)*
            }
            out
        }

        /// The double-length a² with one PCLMULQDQ per word.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[target_feature(enable = "pclmulqdq,sse2,ssse3")]
        #[allow(unused_unsafe, unused_doc_comments)]
        unsafe fn square_wide_x86_64_clmul(a: &[u64; #nl]) -> [u64; #n2] {
            let mut out = [0u64; #n2];
            #s_kernel
            unsafe {
                #(#ss)*
            }
            out
        }

        /// a·b mod f: the PCLMULQDQ product, then `reduce`.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[target_feature(enable = "pclmulqdq,sse2,ssse3")]
        #[allow(unused_unsafe, unused_doc_comments)]
        unsafe fn mul_x86_64_clmul(a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
            #s_kernel
            Self::reduce(&unsafe { Self::mul_wide_x86_64_clmul(a, b) })
        }

        /// a² mod f: the PCLMULQDQ square, then `reduce`.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[target_feature(enable = "pclmulqdq,sse2,ssse3")]
        #[allow(unused_unsafe, unused_doc_comments)]
        unsafe fn square_x86_64_clmul(a: &[u64; #nl]) -> [u64; #nl] {
            #s_kernel
            Self::reduce(&unsafe { Self::square_wide_x86_64_clmul(a) })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scheduled kernel of every 64-bit preset is a permutation of the emitted statements
    /// in which each statement comes after the statements binding the names it reads.
    #[test]
    fn schedule_respects_dependencies() {
        for preset in super::super::BINARY_PRESETS {
            let poly = super::super::parse_poly(preset.poly).unwrap();
            let s = BinarySpec::new(&poly, crate::spec::LimbBits::W64).unwrap();
            let mut g = Gen::new();
            let r = product(&mut g, s.n, xmm_reduction(&s) && split_top_word(&s));
            if xmm_reduction(&s) {
                let np = (2 * s.m - 2) / 64 + 1;
                let r = reduce_xmm(&mut g, &s, r, np - 1, false);
                store(&mut g, &r, s.n);
            }
            let before: Vec<String> = g.stmts.iter().map(|t| t.to_string()).collect();
            let after: Vec<String> = schedule(g.stmts).iter().map(|t| t.to_string()).collect();
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
