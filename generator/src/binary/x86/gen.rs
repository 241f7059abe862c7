//! The statement builder of the XMM kernels (`Gen`: fresh names, pair loads, products, the
//! diagonals' combination into aligned pairs) and the list scheduler that orders its statements
//! by critical path.

use super::*;

/// One 64-bit word of an operand: lane `lane` of the `__m128i` `v`; for an input word, `load`
/// reads it alone into lane 0 (a load instead of a lane move).
#[derive(Clone)]
pub(super) struct Word {
    pub(super) v: Ident,
    pub(super) lane: u8,
    pub(super) load: Option<TokenStream>,
}

#[derive(Clone)]
pub(super) struct Opnd {
    pub(super) id: Ident,
}

/// Straight-line statements over `__m128i` values.
pub(super) struct Gen {
    pub(super) stmts: Vec<TokenStream>,
    next: usize,
    pub(super) clmuls: usize,
    /// Xors (and word products) already emitted, by operand names (a sum of pairs serves both
    /// lanes).
    xors: HashMap<(String, String), Ident>,
    /// Words already moved to lane 0, by (vector, lane).
    low: HashMap<String, Ident>,
    /// For the product pair holding words n − 1 and n (n odd): the pair without D_n's low
    /// word, so word n − 1 (lane 0) does not wait for the products of D_n.
    pub(super) low_word: Option<(Ident, Ident)>,
}

impl Gen {
    pub(super) fn new() -> Gen {
        Gen {
            stmts: Vec::new(),
            next: 0,
            clmuls: 0,
            xors: HashMap::new(),
            low: HashMap::new(),
            low_word: None,
        }
    }

    pub(super) fn bind(&mut self, prefix: &str, expr: TokenStream) -> Ident {
        self.next += 1;
        let id = format_ident!("{}{}", prefix, self.next);
        self.stmts.push(quote!(let #id = #expr;));
        id
    }

    pub(super) fn xor(&mut self, x: Option<Ident>, y: Option<Ident>) -> Option<Ident> {
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

    pub(super) fn clmul(&mut self, a: &Ident, b: &Ident, imm: u8) -> Ident {
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
    pub(super) fn xor_tree(&mut self, mut terms: Vec<Ident>) -> Option<Ident> {
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
    pub(super) fn xor_once(&mut self, x: &Ident, y: &Ident) -> Ident {
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
    pub(super) fn low_lane(&mut self, w: &Word) -> Word {
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

    pub(super) fn word_sum(&mut self, x: &Option<Word>, y: &Option<Word>) -> Option<Word> {
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
    pub(super) fn mul(
        &mut self,
        a: &[Option<Word>],
        b: &[Option<Word>],
        p: &Plan,
    ) -> Vec<Option<Ident>> {
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
    pub(super) fn combine(
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
pub(super) fn schedule(stmts: Vec<TokenStream>) -> Vec<TokenStream> {
    pub(super) fn idents(ts: &TokenStream, out: &mut Vec<String>) {
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
