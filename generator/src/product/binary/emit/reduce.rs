//! Reduction of the double-length product modulo f (word-level shifts and xors for sparse f,
//! Barrett otherwise) and the Itoh–Tsujii inversion over the field's addition chain.

use super::*;

/// Words of C div x^m for a 2n-word C, as expressions over `src`.
fn shr_m(c: &Ctx, src: &Ident) -> Vec<TokenStream> {
    let w = c.w as usize;
    let (q, r) = (c.m / w, c.m % w);
    (0..c.n)
        .map(|j| {
            let lo = q + j;
            let hi = q + j + 1;
            let l = usize_lit(lo);
            if r == 0 {
                if lo < 2 * c.n {
                    quote!(#src[#l])
                } else {
                    let word = c.word();
                    format!("0{word}").parse::<TokenStream>().unwrap()
                }
            } else {
                let rr = usize_lit(r);
                let rl = usize_lit(w - r);
                let hl = usize_lit(hi);
                if hi < 2 * c.n {
                    quote!(((#src[#l] >> #rr) | (#src[#hl] << #rl)))
                } else {
                    quote!((#src[#l] >> #rr))
                }
            }
        })
        .collect()
}

pub(super) fn reduce_fn(c: &Ctx, s: &BinarySpec) -> TokenStream {
    let word = c.word();
    let n = usize_lit(c.n);
    let n2 = usize_lit(2 * c.n);
    let w = c.w as usize;
    let top = c.lit(c.top_mask());
    let last = usize_lit(c.n - 1);
    match &s.reduction {
        Reduction::Sparse => {
            let lower = &s.exponents[1..];
            let (p, r) = (c.m / w, c.m % w);
            let first_full = if r == 0 { p } else { p + 1 };
            let mut stmts = Vec::new();
            for i in (first_full..c.np).rev() {
                let ii = usize_lit(i);
                let t = format_ident!("t{}", i);
                stmts.push(quote!(let #t = c[#ii];));
                for &k in lower {
                    let sft = i * w - c.m + k;
                    let (q, o) = (sft / w, sft % w);
                    let ql = usize_lit(q);
                    if o == 0 {
                        stmts.push(quote!(c[#ql] ^= #t;));
                    } else {
                        let ol = usize_lit(o);
                        let orl = usize_lit(w - o);
                        let q1 = usize_lit(q + 1);
                        stmts.push(quote!(c[#ql] ^= #t << #ol;));
                        stmts.push(quote!(c[#q1] ^= #t >> #orl;));
                    }
                }
            }
            if r != 0 && p < c.np {
                let pl = usize_lit(p);
                let rl = usize_lit(r);
                stmts.push(quote!(let t = c[#pl] >> #rl;));
                stmts.push(quote!(c[#pl] &= #top;));
                for &k in lower {
                    let (q, o) = (k / w, k % w);
                    let ql = usize_lit(q);
                    if o == 0 {
                        stmts.push(quote!(c[#ql] ^= t;));
                    } else {
                        let ol = usize_lit(o);
                        stmts.push(quote!(c[#ql] ^= t << #ol;));
                        if o > r {
                            let orl = usize_lit(w - o);
                            let q1 = usize_lit(q + 1);
                            stmts.push(quote!(c[#q1] ^= t >> #orl;));
                        }
                    }
                }
            }
            let outs = (0..c.n).map(|i| {
                let il = usize_lit(i);
                quote!(c[#il])
            });
            let terms = s
                .exponents
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            let doc = format!(
                " C mod f for a product C of degree ≤ 2m − 2 (2n words): each word at or above x^m, top first, is folded down once per term of f (exponents {terms}) with word shifts and xors, then the bits of the word holding x^m. One pass suffices because m − k ≥ w for every lower exponent k (Hankerson, Menezes, Vanstone, §2.3.5)."
            );
            quote! {
                #[doc = #doc]
                #[inline(always)]
                fn reduce(c: &[#word; #n2]) -> [#word; #n] {
                    let mut c = *c;
                    #(#stmts)*
                    [#(#outs),*]
                }
            }
        }
        Reduction::Barrett { .. } => {
            let cc = format_ident!("c");
            let tt = format_ident!("t");
            let uu = format_ident!("u");
            let h = shr_m(c, &cc);
            let th = shr_m(c, &tt);
            let low = |src: &Ident| -> Vec<TokenStream> {
                (0..c.n)
                    .map(|i| {
                        let il = usize_lit(i);
                        if i == c.n - 1 && !c.m.is_multiple_of(c.w as usize) {
                            quote!((#src[#il] & #top))
                        } else {
                            quote!(#src[#il])
                        }
                    })
                    .collect()
            };
            let lc = low(&cc);
            let lu = low(&uu);
            let qs = (0..c.n).map(|i| {
                let il = usize_lit(i);
                let t = &th[i];
                quote!(h[#il] ^ #t)
            });
            let rs = (0..c.n).map(|i| {
                let l = &lc[i];
                let u = &lu[i];
                quote!(#l ^ #u)
            });
            let _ = last;
            quote! {
                /// C mod f for a product C of degree ≤ 2m − 2 (2n words) by Barrett reduction
                /// over GF(2)\[x\]: with H = C div x^m and μ = x^(2m) div f, the quotient is
                /// exactly (H·μ) div x^m = H + (H·(μ − x^m)) div x^m, and the remainder is
                /// C + q·(f − x^m) mod x^m. Exact (no correction) because deg C < 2m.
                #[inline(always)]
                fn reduce(c: &[#word; #n2]) -> [#word; #n] {
                    let h: [#word; #n] = [#(#h),*];
                    let t = Self::mul_wide(&h, &Self::BARRETT_MU_LOW);
                    let q: [#word; #n] = [#(#qs),*];
                    let u = Self::mul_wide(&q, &Self::POLY_LOW);
                    [#(#rs),*]
                }
            }
        }
    }
}

/// The Itoh–Tsujii body: β_1 = a, then the chain, then a⁻¹ = β_(m−1)².
pub(super) fn invert_body(s: &BinarySpec) -> TokenStream {
    let mut stmts = Vec::new();
    for st in &s.chain {
        match st {
            ChainStep::Double(k) => {
                let kl = usize_lit(*k);
                stmts.push(quote!(beta = beta.square_n(#kl).mul(&beta);));
            }
            ChainStep::Increment(_) => {
                stmts.push(quote!(beta = beta.square().mul(self);));
            }
        }
    }
    let binding = if stmts.is_empty() {
        quote!(let beta = *self;)
    } else {
        quote!(let mut beta = *self;)
    };
    quote! {
        #binding
        #(#stmts)*
        beta.square()
    }
}
