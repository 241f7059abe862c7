//! The x86-64 PCLMULQDQ kernels of a binary field, written over `__m128i` values so that the
//! product and the reduction stay in XMM registers.
//!
//! Operands are loaded as pairs of 64-bit words (one `__m128i` per two words); a word product
//! is `_mm_clmulepi64_si128` with the selector naming the two words, so no word is ever moved
//! between general and vector registers. The double-length product is kept as *diagonals*: D_k
//! is a 128-bit value whose low word adds to word k of the product and whose high word adds to
//! word k + 1. Karatsuba over 128-bit halves (operands split at a pair boundary, so the sums of
//! halves are pair xors) or schoolbook over pairs is chosen per size by counting instructions.
//! Diagonals become aligned pairs with byte shifts (R_t = D_2t + D_(2t+1)·x^64 +
//! D_(2t−1)·x^−64).
//!
//! Reduction by carry-less multiplication with f: for f = x^m + g with s + deg g < 128, where
//! s = 64n − m, every word c_i at or above word n is folded as c_i·x^(64(i−n))·G with
//! G = x^s·g (one or two word products), repeated until nothing is left at or above word n;
//! then the bits of word n − 1 at or above x^m are folded once with g. Each fold strictly lowers
//! the degree (the sparse form guarantees deg g ≤ m − 64), and the last leaves degree < m.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use super::{BinarySpec, Poly, Reduction};

fn arch(name: &str) -> TokenStream {
    let id = format_ident!("{}", name);
    quote!(::core::arch::x86_64::#id)
}

fn usize_lit(x: usize) -> Literal {
    Literal::usize_unsuffixed(x)
}

/// Which 64-bit lanes of a pair may be non-zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    lo: bool,
    hi: bool,
}

impl Shape {
    const ZERO: Shape = Shape {
        lo: false,
        hi: false,
    };

    fn lane(self, i: usize) -> bool {
        if i == 0 {
            self.lo
        } else {
            self.hi
        }
    }

    fn or(self, o: Shape) -> Shape {
        Shape {
            lo: self.lo || o.lo,
            hi: self.hi || o.hi,
        }
    }

    fn words(self) -> usize {
        self.lo as usize + self.hi as usize
    }
}

/// How a product of two pair vectors is computed.
#[derive(Clone, Debug)]
enum Plan {
    /// Every pair of words, one PCLMULQDQ each.
    School,
    /// Karatsuba with the low half of `h` pairs: (low, high, sums).
    Kara(usize, Box<Plan>, Box<Plan>, Box<Plan>),
}

/// The cheapest plan for operands of these shapes and its cost (a PCLMULQDQ counts 1, any
/// other vector operation 1/20: PCLMULQDQ issues on one port, xors on three, and in a chain
/// of products the PCLMULQDQ port is the bottleneck; measured on an AVX-512 Xeon, sect571's
/// Karatsuba plan with 76 products takes 28 ns against 34 ns for the 92 of a weight of 1/3).
fn plan(a: &[Shape], b: &[Shape]) -> (f64, Plan) {
    let l = a.len();
    let mut products = 0usize;
    for x in a {
        for y in b {
            products += x.words() * y.words();
        }
    }
    let school = products as f64 * (1.0 + 1.0 / 20.0);
    let mut best = (school, Plan::School);
    if l == 1 || products == 0 {
        return best;
    }
    for h in l.div_ceil(2)..l {
        let pad = |v: &[Shape]| {
            let mut hi = v[h..].to_vec();
            hi.resize(h, Shape::ZERO);
            hi
        };
        let (a0, b0) = (&a[..h], &b[..h]);
        let (a1, b1) = (pad(a), pad(b));
        let sa: Vec<Shape> = (0..h).map(|i| a0[i].or(a1[i])).collect();
        let sb: Vec<Shape> = (0..h).map(|i| b0[i].or(b1[i])).collect();
        let (c0, p0) = plan(a0, b0);
        let (c2, p2) = plan(&a1, &b1);
        let (c1, p1) = plan(&sa, &sb);
        // Sums of halves, then three xors per middle diagonal.
        let extra = (2 * h + 3 * (4 * h - 1)) as f64 / 20.0;
        let cost = c0 + c1 + c2 + extra;
        if cost < best.0 {
            best = (
                cost,
                Plan::Kara(h, Box::new(p0), Box::new(p2), Box::new(p1)),
            );
        }
    }
    best
}

#[derive(Clone)]
struct Opnd {
    id: Ident,
    shape: Shape,
}

/// Straight-line statements over `__m128i` values.
struct Gen {
    stmts: Vec<TokenStream>,
    next: usize,
    clmuls: usize,
}

impl Gen {
    fn bind(&mut self, prefix: &str, expr: TokenStream) -> Ident {
        self.next += 1;
        let id = format_ident!("{}{}", prefix, self.next);
        self.stmts.push(quote!(let #id = #expr;));
        id
    }

    fn xor(&mut self, x: Option<Ident>, y: Option<Ident>) -> Option<Ident> {
        match (x, y) {
            (None, v) | (v, None) => v,
            (Some(a), Some(b)) => {
                let f = arch("_mm_xor_si128");
                Some(self.bind("x", quote!(#f(#a, #b))))
            }
        }
    }

    fn clmul(&mut self, a: &Ident, b: &Ident, imm: u8) -> Ident {
        self.clmuls += 1;
        let f = arch("_mm_clmulepi64_si128");
        let imm = Literal::i32_unsuffixed(imm as i32);
        self.bind("p", quote!(#f(#a, #b, #imm)))
    }

    /// Diagonals D_0..D_(4L−2) of the product of two vectors of L pairs.
    fn mul(&mut self, a: &[Option<Opnd>], b: &[Option<Opnd>], p: &Plan) -> Vec<Option<Ident>> {
        let l = a.len();
        let mut out: Vec<Option<Ident>> = vec![None; 4 * l - 1];
        match p {
            Plan::School => {
                // Highest diagonals first: the reduction needs them, so its products can
                // start while the low diagonals are still being summed.
                let mut terms = Vec::new();
                for (t, x) in a.iter().enumerate() {
                    let Some(x) = x else { continue };
                    for (u, y) in b.iter().enumerate() {
                        let Some(y) = y else { continue };
                        for i in 0..2 {
                            for j in 0..2 {
                                if x.shape.lane(i) && y.shape.lane(j) {
                                    terms.push((
                                        2 * t + i + 2 * u + j,
                                        x.id.clone(),
                                        y.id.clone(),
                                        (i | (j << 4)) as u8,
                                    ));
                                }
                            }
                        }
                    }
                }
                terms.sort_by(|p, q| q.0.cmp(&p.0));
                for (k, x, y, imm) in terms {
                    let prod = self.clmul(&x, &y, imm);
                    out[k] = self.xor(out[k].take(), Some(prod));
                }
            }
            Plan::Kara(h, p0, p2, p1) => {
                let h = *h;
                let pad = |v: &[Option<Opnd>]| {
                    let mut hi = v[h..].to_vec();
                    hi.resize(h, None);
                    hi
                };
                let (a1, b1) = (pad(a), pad(b));
                let sum = |g: &mut Gen, lo: &[Option<Opnd>], hi: &[Option<Opnd>]| {
                    (0..h)
                        .map(|i| match (&lo[i], &hi[i]) {
                            (None, v) | (v, None) => v.clone(),
                            (Some(x), Some(y)) => {
                                let f = arch("_mm_xor_si128");
                                let (xi, yi) = (&x.id, &y.id);
                                let id = g.bind("s", quote!(#f(#xi, #yi)));
                                Some(Opnd {
                                    id,
                                    shape: x.shape.or(y.shape),
                                })
                            }
                        })
                        .collect::<Vec<_>>()
                };
                let sa = sum(self, &a[..h], &a1);
                let sb = sum(self, &b[..h], &b1);
                let d0 = self.mul(&a[..h], &b[..h], p0);
                let d2 = self.mul(&a1, &b1, p2);
                let d1 = self.mul(&sa, &sb, p1);
                let mut wide: Vec<Option<Ident>> = vec![None; 8 * h - 1];
                for (k, v) in d0.iter().enumerate() {
                    wide[k] = v.clone();
                }
                for (k, v) in d2.iter().enumerate() {
                    wide[4 * h + k] = self.xor(wide[4 * h + k].take(), v.clone());
                }
                for k in 0..4 * h - 1 {
                    let m0 = self.xor(d1[k].clone(), d0[k].clone());
                    let mid = self.xor(m0, d2[k].clone());
                    wide[2 * h + k] = self.xor(wide[2 * h + k].take(), mid);
                }
                for (k, v) in wide.into_iter().enumerate() {
                    if k < out.len() {
                        out[k] = v;
                    } else {
                        assert!(v.is_none(), "a diagonal beyond the product's degree");
                    }
                }
            }
        }
        out
    }

    /// Aligned pairs R_0..R_(npairs−1) from diagonals.
    fn combine(&mut self, d: &[Option<Ident>], npairs: usize) -> Vec<Option<Ident>> {
        let (sl, sr) = (arch("_mm_slli_si128"), arch("_mm_srli_si128"));
        (0..npairs)
            .map(|t| {
                let mut r = d.get(2 * t).cloned().flatten();
                if let Some(Some(x)) = d.get(2 * t + 1) {
                    let v = self.bind("u", quote!(#sl(#x, 8)));
                    r = self.xor(r, Some(v));
                }
                if t > 0 {
                    if let Some(Some(x)) = d.get(2 * t - 1) {
                        let v = self.bind("v", quote!(#sr(#x, 8)));
                        r = self.xor(r, Some(v));
                    }
                }
                r
            })
            .collect()
    }
}

/// Whether the field's reduction runs in XMM registers: sparse f and G = x^s·g in two words.
pub fn xmm_reduction(s: &BinarySpec) -> bool {
    if s.w != 64 || s.reduction != Reduction::Sparse {
        return false;
    }
    let d = s.exponents[1];
    let shift = 64 * s.n - s.m;
    shift + d < 128
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
            Some(Opnd {
                id,
                shape: Shape { lo: true, hi: full },
            })
        })
        .collect()
}

/// Reduction of the aligned product pairs `r` (2n words, `top` the highest word that may be
/// non-zero) to n words, then the stores into `out`.
fn reduce_xmm(
    g: &mut Gen,
    s: &BinarySpec,
    mut r: Vec<Option<Ident>>,
    mut top: usize,
) -> Vec<Option<Ident>> {
    let n = s.n;
    let m = s.m;
    let d = s.exponents[1];
    let shift = 64 * n - m;
    let gpoly = s.poly.low(m);
    let big_g = gpoly.shl(shift);
    let gw = (shift + d) / 64 + 1;
    let gwords = words_of(&big_g, 2);
    let gvec = g.bind("g", set_pair(gwords[0], gwords[1]));
    let move_lo = arch("_mm_move_epi64");
    while top >= n {
        let mut diags: Vec<Option<Ident>> = vec![None; 2 * n + 2];
        let mut new_top = n - 1;
        for i in n..=top {
            let Some(pair) = r[i / 2].clone() else {
                continue;
            };
            for j in 0..gw {
                let p = g.clmul(&pair, &gvec, ((i % 2) | (j << 4)) as u8);
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
                low[n / 2] = Some(g.bind("k", quote!(#move_lo(#x))));
            }
        }
        let r_len = n.div_ceil(2) + 1;
        let folded = g.combine(&diags, r_len);
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
            let fw = words_of(&gpoly, 2);
            let fvec = g.bind("f", set_pair(fw[0], fw[1]));
            let lane = (n - 1) % 2;
            let mut diags: Vec<Option<Ident>> = vec![None; 4];
            for (j, word) in fw.iter().enumerate() {
                if *word != 0 {
                    let p = g.clmul(&t, &fvec, (lane | (j << 4)) as u8);
                    diags[j] = g.xor(diags[j].take(), Some(p));
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
            let folded = g.combine(&diags, 2);
            for (t, v) in folded.into_iter().enumerate() {
                r[t] = g.xor(r[t].take(), v);
            }
        }
    }
    r.truncate(n.div_ceil(2));
    r
}

/// Stores the n-word result held in ceil(n/2) pairs into `out`.
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

/// The product kernel's statements: operands loaded, diagonals, aligned pairs of 2n words.
fn product(g: &mut Gen, n: usize) -> Vec<Option<Ident>> {
    let a = load_pairs(g, &format_ident!("a"), n);
    let b = load_pairs(g, &format_ident!("b"), n);
    let shapes: Vec<Shape> = a.iter().map(|o| o.as_ref().unwrap().shape).collect();
    let (_, p) = plan(&shapes, &shapes);
    let d = g.mul(&a, &b, &p);
    g.combine(&d, n)
}

fn square_pairs(g: &mut Gen, n: usize) -> Vec<Option<Ident>> {
    let a = load_pairs(g, &format_ident!("a"), n);
    square_of(g, &a, n)
}

fn square_of(g: &mut Gen, a: &[Option<Opnd>], n: usize) -> Vec<Option<Ident>> {
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
    let s_kernel = safety("the caller guarantees PCLMULQDQ (SSE2 is part of x86-64); every load reads 8 or 16 bytes inside the input array (word index + 1 < n for a 16-byte load) and every store writes inside `out`.");
    let np = (2 * s.m - 2) / 64 + 1;
    if xmm_reduction(s) {
        let mut gm = Gen {
            stmts: Vec::new(),
            next: 0,
            clmuls: 0,
        };
        let r = product(&mut gm, n);
        let r = reduce_xmm(&mut gm, s, r, np - 1);
        store(&mut gm, &r, n);
        let mul_doc = format!(
            " a·b mod f with PCLMULQDQ ({} word products), all in XMM registers: Karatsuba / schoolbook over 128-bit pairs, then reduction by carry-less multiplication with f (see the generator's `binary::x86`).",
            gm.clmuls
        );
        let mut gs = Gen {
            stmts: Vec::new(),
            next: 0,
            clmuls: 0,
        };
        let r = square_pairs(&mut gs, n);
        let r = reduce_xmm(&mut gs, s, r, np - 1);
        store(&mut gs, &r, n);
        // square_n: the value stays in XMM registers across the k squarings.
        let mut gl = Gen {
            stmts: Vec::new(),
            next: 0,
            clmuls: 0,
        };
        let cur: Vec<Ident> = (0..n.div_ceil(2))
            .map(|t| format_ident!("cur{}", t))
            .collect();
        let init = load_pairs(&mut gl, &format_ident!("a"), n);
        let init_ids: Vec<Ident> = init
            .iter()
            .map(|o| o.as_ref().unwrap().id.clone())
            .collect();
        let load_stmts = std::mem::take(&mut gl.stmts);
        let opnds: Vec<Option<Opnd>> = cur
            .iter()
            .enumerate()
            .map(|(t, id)| {
                Some(Opnd {
                    id: id.clone(),
                    shape: Shape {
                        lo: true,
                        hi: 2 * t + 1 < n,
                    },
                })
            })
            .collect();
        let sq = square_of(&mut gl, &opnds, n);
        let red = reduce_xmm(&mut gl, s, sq, np - 1);
        let zero = arch("_mm_setzero_si128");
        let next_vals: Vec<TokenStream> = red
            .iter()
            .map(|v| match v {
                Some(x) => quote!(#x),
                None => quote!(#zero()),
            })
            .collect();
        let body = std::mem::take(&mut gl.stmts);
        let cur_opt: Vec<Option<Ident>> = cur.iter().cloned().map(Some).collect();
        store(&mut gl, &cur_opt, n);
        let store_stmts = gl.stmts;
        let (ms, ss) = (gm.stmts, gs.stmts);
        return quote! {
            #[doc = #mul_doc]
            #[cfg(target_arch = "x86_64")]
            #[inline]
            #[target_feature(enable = "pclmulqdq,sse2")]
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
            #[target_feature(enable = "pclmulqdq,sse2")]
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

            /// a² mod f with one PCLMULQDQ per word, then the same reduction as `mul_x86_64_clmul`.
            #[cfg(target_arch = "x86_64")]
            #[inline]
            #[target_feature(enable = "pclmulqdq,sse2")]
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
    let mut gm = Gen {
        stmts: Vec::new(),
        next: 0,
        clmuls: 0,
    };
    let r = product(&mut gm, n);
    store(&mut gm, r);
    let mut gs = Gen {
        stmts: Vec::new(),
        next: 0,
        clmuls: 0,
    };
    let r = square_pairs(&mut gs, n);
    store(&mut gs, r);
    let mul_doc = format!(
        " The double-length a·b (2n words) with PCLMULQDQ ({} word products) over 128-bit pairs in XMM registers.",
        gm.clmuls
    );
    let (ms, ss) = (gm.stmts, gs.stmts);
    quote! {
        #[doc = #mul_doc]
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[target_feature(enable = "pclmulqdq,sse2")]
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
        #[target_feature(enable = "pclmulqdq,sse2")]
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
        #[target_feature(enable = "pclmulqdq,sse2")]
        #[allow(unused_unsafe, unused_doc_comments)]
        unsafe fn mul_x86_64_clmul(a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
            #s_kernel
            Self::reduce(&unsafe { Self::mul_wide_x86_64_clmul(a, b) })
        }

        /// a² mod f: the PCLMULQDQ square, then `reduce`.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[target_feature(enable = "pclmulqdq,sse2")]
        #[allow(unused_unsafe, unused_doc_comments)]
        unsafe fn square_x86_64_clmul(a: &[u64; #nl]) -> [u64; #nl] {
            #s_kernel
            Self::reduce(&unsafe { Self::square_wide_x86_64_clmul(a) })
        }
    }
}
