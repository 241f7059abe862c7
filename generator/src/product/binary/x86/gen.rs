//! The builder of the XMM kernels' [`Xir`] (`Gen`: fresh names, pair loads, products, the
//! diagonals' combination into aligned pairs).

use super::*;

/// One 64-bit word of an operand: lane `lane` of the value `v`; for an input word, `load`
/// names it in its array, read alone into lane 0 (a load instead of a lane move).
#[derive(Clone)]
pub(super) struct Word {
    pub(super) v: V,
    pub(super) lane: u8,
    pub(super) load: Option<(Src, usize)>,
}

/// The builder of one kernel's [`Xir`]: fresh names, pair loads, products, the diagonals'
/// combination into aligned pairs; `stmts` lists its statements in emission order.
pub(super) struct Gen {
    pub(super) ir: Xir,
    pub(super) stmts: Vec<V>,
    next: usize,
    pub(super) clmuls: usize,
    /// Word products already emitted, by operands and selector.
    products: HashMap<(V, V, u8), V>,
    /// Xors of pairs already emitted, by operands (smaller first; a sum of pairs serves both
    /// lanes).
    xors: HashMap<(V, V), V>,
    /// Words already moved to lane 0, by the vector holding them in lane 1.
    low: HashMap<V, V>,
    /// For the product pair holding words n − 1 and n (n odd): the pair without D_n's low
    /// word, so word n − 1 (lane 0) does not wait for the products of D_n.
    pub(super) low_word: Option<(V, V)>,
}

impl Gen {
    pub(super) fn new() -> Gen {
        Gen {
            ir: Xir::default(),
            stmts: Vec::new(),
            next: 0,
            clmuls: 0,
            products: HashMap::new(),
            xors: HashMap::new(),
            low: HashMap::new(),
            low_word: None,
        }
    }

    /// A statement `let {prefix}{k} = op;` with a fresh k.
    pub(super) fn bind(&mut self, prefix: &str, op: Op) -> V {
        self.next += 1;
        let v = self.ir.bind(format_ident!("{}{}", prefix, self.next), op);
        self.stmts.push(v);
        v
    }

    /// An operation printed inside the statements reading it.
    pub(super) fn inline(&mut self, op: Op) -> V {
        self.ir.inline(op)
    }

    /// A store statement.
    pub(super) fn effect(&mut self, op: Op) {
        let v = self.ir.effect(op);
        self.stmts.push(v);
    }

    /// The statements of `stmts`, printed in that order.
    pub(super) fn print(&self, stmts: &[V]) -> Vec<TokenStream> {
        stmts.iter().map(|&v| self.ir.print(v)).collect()
    }

    /// The statements, scheduled (see [`schedule`]) and printed.
    pub(super) fn scheduled(&self) -> Vec<TokenStream> {
        self.print(&schedule(&self.ir, self.stmts.clone()))
    }

    pub(super) fn xor(&mut self, x: Option<V>, y: Option<V>) -> Option<V> {
        match (x, y) {
            (None, v) | (v, None) => v,
            // v + v = 0: the middle terms of an unbalanced Karatsuba split can be one product
            // twice (emitted once by `clmul`).
            (Some(a), Some(b)) if a == b => None,
            (Some(a), Some(b)) => Some(self.bind("x", Op::Xor(a, b))),
        }
    }

    pub(super) fn clmul(&mut self, a: V, b: V, imm: u8) -> V {
        // The same word product may come up twice (a word of a low half that is also the
        // word of a sum with an absent high word): emitted once.
        if let Some(&v) = self.products.get(&(a, b, imm)) {
            return v;
        }
        self.clmuls += 1;
        let v = self.bind("p", Op::Clmul { a, b, imm });
        self.products.insert((a, b, imm), v);
        v
    }

    /// The xor of all `terms` as a balanced tree (None for no terms).
    pub(super) fn xor_tree(&mut self, mut terms: Vec<V>) -> Option<V> {
        while terms.len() > 1 {
            let mut next = Vec::with_capacity(terms.len().div_ceil(2));
            for pair in terms.chunks(2) {
                match *pair {
                    [a, b] => next.push(self.xor(Some(a), Some(b)).expect("two")),
                    [a] => next.push(a),
                    _ => unreachable!(),
                }
            }
            terms = next;
        }
        terms.pop()
    }

    /// x + y as one vector, emitted once per pair of operands.
    pub(super) fn xor_once(&mut self, x: V, y: V) -> V {
        let key = (x.min(y), x.max(y));
        if let Some(&v) = self.xors.get(&key) {
            return v;
        }
        let v = self.bind("s", Op::Xor(x, y));
        self.xors.insert(key, v);
        v
    }

    /// The word in lane 0: a load for an input word, else the high lane copied down.
    pub(super) fn low_lane(&mut self, w: &Word) -> Word {
        if w.lane == 0 {
            return w.clone();
        }
        let v = match self.low.get(&w.v) {
            Some(&v) => v,
            None => {
                let op = match w.load {
                    Some((src, word)) => Op::LoadWord { src, word },
                    None => Op::UnpackHi64(w.v, w.v),
                };
                let v = self.bind("l", op);
                self.low.insert(w.v, v);
                v
            }
        };
        Word {
            v,
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
                let v = self.xor_once(x.v, y.v);
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
    ) -> Vec<Option<V>> {
        let l = a.len();
        if l > 1 && a[l - 1].is_none() && b[l - 1].is_none() {
            let mut out = self.mul(&a[..l - 1], &b[..l - 1], p);
            out.resize(2 * l - 1, None);
            return out;
        }
        let mut out: Vec<Option<V>> = vec![None; 2 * l - 1];
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
                    let prod = self.clmul(x.v, y.v, x.lane | (y.lane << 4));
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
                let mut prods: Vec<Option<V>> = vec![None; sa.len()];
                for p in (0..sa.len()).rev() {
                    let (x, y) = (&sa[p], &sb[p]);
                    prods[p] = Some(self.clmul(x.v, y.v, x.lane | (y.lane << 4)));
                }
                for &(x, y) in &outs.steps {
                    let v = self.xor(prods[x], prods[y]);
                    prods.push(v);
                }
                out = outs
                    .outputs
                    .iter()
                    .map(|o| o.and_then(|v| prods[v]))
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
                let mut wide: Vec<Option<V>> = vec![None; 4 * h - 1];
                for (k, v) in d0.iter().enumerate() {
                    wide[k] = *v;
                }
                for (k, v) in d2.iter().enumerate() {
                    wide[2 * h + k] = self.xor(wide[2 * h + k].take(), *v);
                }
                for k in 0..2 * h - 1 {
                    let m0 = self.xor(d1[k], d0[k]);
                    let mid = self.xor(m0, d2[k]);
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
        d: &[Option<V>],
        npairs: usize,
        split: Option<usize>,
    ) -> Vec<Option<V>> {
        (0..npairs)
            .map(|t| {
                let mut r = d.get(2 * t).cloned().flatten();
                let mut high = None;
                if let Some(Some(x)) = d.get(2 * t + 1) {
                    high = Some(self.bind("u", Op::ByteShl(*x, 8)));
                }
                if split != Some(t) {
                    r = self.xor(r, high.take());
                }
                if t > 0 {
                    if let Some(Some(x)) = d.get(2 * t - 1) {
                        let v = self.bind("v", Op::ByteShr(*x, 8));
                        r = self.xor(r, Some(v));
                    }
                }
                if let Some(h) = high {
                    let lo = r.expect("a product pair below its high diagonal");
                    r = self.xor(r, Some(h));
                    self.low_word = Some((r.expect("non-empty"), lo));
                }
                r
            })
            .collect()
    }
}
