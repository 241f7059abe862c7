//! The portable carry-less product: "multiplication with holes" on reduced-radix limbs, and
//! Karatsuba-like formulae over the limbs.
//!
//! A limb product a·b of L-bit limbs is computed with integer multiplications: a and b are
//! split into four parts holding the bits ≡ i (mod 4); a part has at most ⌈L/4⌉ bits, so each
//! of the 16 integer products of parts has at most ⌈L/4⌉ terms at any bit position and, when
//! that is ≤ 15, its carries stay in the three-bit holes between positions. Products whose
//! positions share a residue are combined by xor and the holes masked off (T. Pornin's
//! constant-time GHASH in BearSSL, generalised to full double-length products). At 64-bit words
//! the limbs have L = ⌈m/⌈m/60⌉⌉ ≤ 60 bits (15-bit parts, products as `u128`), so no top bits
//! need a separate correction; at 32-bit words the limbs are the words (8-bit parts, products as
//! `u64`). Limb products are combined by two-, three- and five-term Karatsuba-like formulae
//! (P. L. Montgomery, "Five, six, and seven-term Karatsuba-like formulae", IEEE Trans. Computers
//! 54(3), 2005: 3, 6 and 13 products), chosen per size by a count of operations.
//!
//! The product is constant time only where the integer multiplier is. 64-bit words are used on
//! 64-bit CPUs whose multipliers are (x86-64, AArch64), so the 64-bit module always uses it. A
//! 32-bit module may also run on cores whose multiplier finishes early for small operands
//! (ARM7TDMI/ARM9, Cortex-M0/M3, PowerPC 7xx/74xx, some SPARC and MIPS), so it carries the
//! López–Dahab comb as well (no multiplier, see `emit::comb`) and uses this product only on the
//! allow-list of [`ct_mul32_cfg`]; everywhere else the comb.

use crate::narrow::fit;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use std::collections::HashMap;

use super::formula::{combinations, FORMULAS};

type Opd = Option<Ident>;

/// Operation weights for choosing a formula, in word operations: a limb product (16 integer
/// products, the splits, the xors of the classes and the masks) and an xor of two limbs or of
/// two double-length limb products.
const PRODUCT_COST: usize = 75;

/// Straight-line statements of a product of limb vectors.
struct Emit<'a> {
    stmts: Vec<TokenStream>,
    next: usize,
    products: usize,
    cost: usize,
    /// The formula index chosen for each length (by [`plan`]).
    plan: &'a [usize],
    memo: HashMap<(Vec<Opd>, Vec<Opd>), Vec<Opd>>,
    /// Sums already computed (x ^ y, keyed by the ordered pair).
    sums: HashMap<(Ident, Ident), Ident>,
    /// Cost of an xor of coefficients (double-length) relative to an xor of limbs.
    coef_xor: usize,
}

impl Emit<'_> {
    fn fresh(&mut self, prefix: &str) -> Ident {
        self.next += 1;
        format_ident!("{}{}", prefix, self.next)
    }

    fn xor(&mut self, x: &Opd, y: &Opd, weight: usize) -> Opd {
        match (x, y) {
            (None, v) | (v, None) => v.clone(),
            (Some(a), Some(b)) if a == b => None,
            (Some(a), Some(b)) => {
                let key = if a < b {
                    (a.clone(), b.clone())
                } else {
                    (b.clone(), a.clone())
                };
                if let Some(t) = self.sums.get(&key) {
                    return Some(t.clone());
                }
                let t = self.fresh("t");
                self.cost += weight;
                self.stmts.push(quote!(let #t = #a ^ #b;));
                self.sums.insert(key, t.clone());
                Some(t)
            }
        }
    }

    /// The 2n − 1 coefficients (double-length limb products) of the product of two n-limb
    /// vectors.
    fn mul(&mut self, a: &[Opd], b: &[Opd]) -> Vec<Opd> {
        let n = a.len();
        if a.iter().all(Option::is_none) || b.iter().all(Option::is_none) {
            return vec![None; 2 * n - 1];
        }
        // Known-zero top limbs in both operands (a padded block): a shorter product.
        let live = 1
            + (0..n)
                .rev()
                .find(|&i| a[i].is_some() || b[i].is_some())
                .expect("some limb is live");
        if live < n {
            let mut r = self.mul(&a[..live], &b[..live]);
            r.resize(2 * n - 1, None);
            return r;
        }
        let key = (a.to_vec(), b.to_vec());
        if let Some(r) = self.memo.get(&key) {
            return r.clone();
        }
        let out = if n == 1 {
            let (x, y) = (a[0].as_ref().unwrap(), b[0].as_ref().unwrap());
            let p = self.fresh("p");
            self.products += 1;
            self.cost += PRODUCT_COST;
            self.stmts.push(quote!(let #p = Self::clmul_limb(#x, #y);));
            vec![Some(p)]
        } else {
            let f = &FORMULAS[self.plan[n]];
            let s = n.div_ceil(f.k);
            let block = |v: &[Opd], i: usize| -> Vec<Opd> {
                (0..s)
                    .map(|j| v.get(i * s + j).cloned().flatten())
                    .collect()
            };
            let mut prods = Vec::new();
            for &set in f.subsets {
                let mut sa = vec![None; s];
                let mut sb = vec![None; s];
                for i in (0..f.k).filter(|i| set >> i & 1 == 1) {
                    let (ba, bb) = (block(a, i), block(b, i));
                    for j in 0..s {
                        sa[j] = self.xor(&sa[j], &ba[j], 1);
                        sb[j] = self.xor(&sb[j], &bb[j], 1);
                    }
                }
                prods.push(self.mul(&sa, &sb));
            }
            let combos = combinations(f).expect("formula spans its outputs");
            let mut out: Vec<Opd> = vec![None; 2 * n - 1];
            for (t, combo) in combos.iter().enumerate() {
                let mut sum: Vec<Opd> = vec![None; 2 * s - 1];
                for (p, prod) in prods.iter().enumerate() {
                    if combo >> p & 1 == 1 {
                        for (j, c) in prod.iter().enumerate() {
                            sum[j] = self.xor(&sum[j], c, self.coef_xor);
                        }
                    }
                }
                for (j, c) in sum.iter().enumerate() {
                    // Coefficients beyond 2n − 2 are zero (sums of equal products).
                    if t * s + j < 2 * n - 1 {
                        out[t * s + j] = self.xor(&out[t * s + j], c, self.coef_xor);
                    }
                }
            }
            out
        };
        self.memo.insert(key, out.clone());
        out
    }
}

/// For each length 0..=n the formula index with the lowest cost (length 0 and 1 unused).
fn plan(n: usize, coef_xor: usize) -> Vec<usize> {
    let mut plan = vec![0usize; n + 1];
    for len in 2..=n {
        let mut best: Option<(usize, usize)> = None;
        for (fi, f) in FORMULAS.iter().enumerate() {
            let s = len.div_ceil(f.k);
            if f.k > len || (f.k - 1) * s >= len {
                continue;
            }
            plan[len] = fi;
            let (_, _, cost) = emit(len, &plan, coef_xor);
            if best.is_none_or(|(c, _)| cost < c) {
                best = Some((cost, fi));
            }
        }
        plan[len] = best.expect("Karatsuba always applies").1;
    }
    plan
}

/// The statements, output coefficients, product count and cost for n limbs `a0..`, `b0..`.
fn emit(n: usize, plan: &[usize], coef_xor: usize) -> (Emit<'_>, Vec<Opd>, usize) {
    let mut e = Emit {
        stmts: Vec::new(),
        next: 0,
        products: 0,
        cost: 0,
        plan,
        memo: HashMap::new(),
        sums: HashMap::new(),
        coef_xor,
    };
    let a: Vec<Opd> = (0..n).map(|i| Some(format_ident!("a{}", i))).collect();
    let b: Vec<Opd> = (0..n).map(|i| Some(format_ident!("b{}", i))).collect();
    let out = e.mul(&a, &b);
    let cost = e.cost;
    (e, out, cost)
}

fn lit_u64(v: u64, digits: usize) -> TokenStream {
    let l = syn::LitInt::new(&format!("{v:#0w$x}", w = digits + 2), Span::call_site());
    quote!(#l)
}

fn lit_u128(v: u128) -> TokenStream {
    let l = syn::LitInt::new(&format!("{v:#034x}"), Span::call_site());
    quote!(#l)
}

fn usize_lit(x: usize) -> Literal {
    Literal::usize_unsuffixed(x)
}

fn u32_lit(x: u32) -> Literal {
    Literal::u32_unsuffixed(x)
}

/// The `cfg` predicate under which a 32-bit module uses this product instead of the comb:
/// architectures whose 32×32 → 64-bit multiply takes the same time for every operand in
/// practice (T. Pornin, "Constant-Time Mul", bearssl.org/ctmul.html, and the cores' manuals):
/// x86 and x86-64, AArch64, wasm32 (JIT-compiled to such a host's multiplier), ARMv7-A/R
/// (`umull`; `target_feature = "v7"` without `"mclass"`) and Cortex-M4/M7 (`"mclass"` with
/// `"dsp"`, single-cycle `umull`). The rest get the comb: Cortex-M3 and ARM7TDMI/ARM9
/// (multipliers that finish early on small operands), Cortex-M0 (no long multiply; not
/// verified), PowerPC 7xx/74xx, SPARC, MIPS and anything unknown. rustc sets the ARM features
/// `v7`, `mclass` and `dsp` only where `arm_target_feature` is enabled (not on stable 1.95:
/// `--print cfg` lists none for armv7-unknown-linux-gnueabihf or thumbv7em-none-eabihf), so a
/// stable ARM build gets the comb: slower, never variable-time.
pub fn ct_mul32_cfg() -> TokenStream {
    quote! {
        any(
            target_arch = "x86",
            target_arch = "x86_64",
            target_arch = "aarch64",
            target_arch = "wasm32",
            all(target_arch = "arm", target_feature = "v7", not(target_feature = "mclass")),
            all(target_arch = "arm", target_feature = "mclass", target_feature = "dsp")
        )
    }
}

/// Bits ≡ r (mod 4) of a `bits`-bit word.
fn class_mask(bits: u32, r: u32) -> u128 {
    (0..bits)
        .filter(|p| p % 4 == r)
        .fold(0u128, |m, p| m | (1u128 << p))
}

/// Limb width for m-bit elements at word size w: 60 bits at most at w = 64 (15-bit parts), the
/// word itself at w = 32 (8-bit parts).
pub fn limb_bits(w: u32, m: usize) -> usize {
    if w == 64 {
        m.div_ceil(m.div_ceil(60))
    } else {
        32
    }
}

/// `clmul_limb` and the double-length product `fn_name` (`mul_wide_portable` at 64-bit words,
/// `mul_wide_holes` at 32-bit words, where `emit` adds the comb and the choice between them) for
/// m-bit elements in n words of w bits.
pub fn portable_items(w: u32, n: usize, m: usize, fn_name: &str) -> TokenStream {
    let fn_name = format_ident!("{}", fn_name);
    let l = limb_bits(w, m);
    let nl = m.div_ceil(l);
    let coef_xor = 2; // a coefficient is two words
    let plan = plan(nl, coef_xor);
    let (e, out, _) = emit(nl, &plan, coef_xor);
    let products = e.products;
    let stmts = e.stmts;
    let nn = usize_lit(n);
    let n2 = usize_lit(2 * n);
    let (word, wide) = if w == 64 {
        (quote!(u64), quote!(u128))
    } else {
        (quote!(u32), quote!(u64))
    };
    let digits = w as usize / 4;
    let m_narrow: Vec<TokenStream> = (0..4)
        .map(|r| lit_u64(fit(class_mask(w, r)), digits))
        .collect();
    let m_wide: Vec<TokenStream> = (0..4)
        .map(|r| {
            if w == 64 {
                lit_u128(class_mask(128, r))
            } else {
                lit_u64(fit(class_mask(64, r)), 16)
            }
        })
        .collect();
    let mut prods = Vec::new();
    for k in 0..4usize {
        let terms = (0..4usize).map(|i| {
            let (il, jl) = (usize_lit(i), usize_lit((k + 4 - i) % 4));
            quote!(((x[#il] as #wide) * (y[#jl] as #wide)))
        });
        let z = format_ident!("z{}", k);
        prods.push(quote!(let #z = #(#terms)^*;));
    }

    // Limbs from words.
    let mut pre = Vec::new();
    for (name, src) in [("a", quote!(a)), ("b", quote!(b))] {
        for j in 0..nl {
            let id = format_ident!("{}{}", name, j);
            if l == w as usize {
                let jj = usize_lit(j);
                pre.push(quote!(let #id = #src[#jj];));
                continue;
            }
            let off = l * j;
            let (q, s) = (off / 64, fit::<usize, u32>(off % 64));
            let ql = usize_lit(q);
            let mut v = if s == 0 {
                quote!(#src[#ql])
            } else {
                let sl = u32_lit(s);
                quote!(#src[#ql] >> #sl)
            };
            if s as usize + l > 64 && q + 1 < n {
                let q1 = usize_lit(q + 1);
                let sl = u32_lit(64 - s);
                v = quote!((#v) | (#src[#q1] << #sl));
            }
            // The top limb needs no mask: the bits at and above m are zero.
            if off + l < m {
                let mask = lit_u64((1u64 << l) - 1, 16);
                v = if s == 0 {
                    quote!(#v & #mask)
                } else {
                    quote!((#v) & #mask)
                };
            }
            pre.push(quote!(let #id = #v;));
        }
    }

    // Coefficients (2l − 1 bits at bit offset l·t) into words.
    let mut pieces: Vec<Vec<TokenStream>> = vec![Vec::new(); 2 * n];
    for (t, c) in out.iter().enumerate() {
        let Some(c) = c else { continue };
        if l == w as usize {
            pieces[t].push(quote!((#c as #word)));
            if t + 1 < 2 * n {
                let wl = u32_lit(w);
                pieces[t + 1].push(quote!(((#c >> #wl) as #word)));
            }
            continue;
        }
        let off = l * t;
        let (q, s) = (off / 64, fit::<usize, u32>(off % 64));
        let top = s as usize + 2 * l - 1; // bits spanned from word q
        if s == 0 {
            pieces[q].push(quote!((#c as u64)));
            if q + 1 < 2 * n {
                pieces[q + 1].push(quote!(((#c >> 64) as u64)));
            }
        } else {
            let sl = u32_lit(s);
            pieces[q].push(quote!(((#c << #sl) as u64)));
            if q + 1 < 2 * n {
                let r = u32_lit(64 - s);
                pieces[q + 1].push(quote!(((#c >> #r) as u64)));
            }
            if top > 128 && q + 2 < 2 * n {
                let r = u32_lit(128 - s);
                pieces[q + 2].push(quote!(((#c >> #r) as u64)));
            }
        }
    }
    let outs = pieces.iter().map(|p| {
        if p.is_empty() {
            quote!(0)
        } else {
            quote!(#(#p)^*)
        }
    });

    let limb_doc = if l == w as usize {
        format!(" The limbs are the {w}-bit words.")
    } else {
        format!(
            " The limbs are {nl} of {l} bits, taken from and returned to 64-bit words by shifts."
        )
    };
    let doc = format!(
        " The double-length product a·b (2n words, least significant first): {products} limb products by `clmul_limb` combined by Karatsuba-like formulae (Montgomery, IEEE Trans. Computers 54(3), 2005).{limb_doc} Constant time where integer multiplication is."
    );
    let part_bits = l.div_ceil(4);
    let clmul_doc = format!(
        " One carry-less product of limbs of at most {l} bits, with integer multiplications: a and b split into the bits ≡ i (mod 4), parts of at most {part_bits} bits, so each of the 16 products of parts has at most {part_bits} terms at any bit position (at most 15 fit) and its integer carries stay in the three-bit holes between positions; the products whose positions share a residue are combined by xor and the holes masked off (the \"multiplication with holes\" of T. Pornin, BearSSL's constant-time GHASH, generalised to double-length products). Constant time on CPUs whose integer multiplier is (x86-64, AArch64, ARMv7-A `umull`)."
    );
    quote! {
        #[doc = #clmul_doc]
        #[inline(always)]
        fn clmul_limb(a: #word, b: #word) -> #wide {
            const M: [#word; 4] = [#(#m_narrow),*];
            const MW: [#wide; 4] = [#(#m_wide),*];
            let x = [a & M[0], a & M[1], a & M[2], a & M[3]];
            let y = [b & M[0], b & M[1], b & M[2], b & M[3]];
            #(#prods)*
            (z0 & MW[0]) | (z1 & MW[1]) | (z2 & MW[2]) | (z3 & MW[3])
        }

        #[doc = #doc]
        #[inline]
        fn #fn_name(a: &[#word; #nn], b: &[#word; #nn]) -> [#word; #n2] {
            #(#pre)*
            #(#stmts)*
            [#(#outs),*]
        }
    }
}

/// Limb products of the plan for m-bit elements at word size w.
#[cfg(test)]
fn product_count(w: u32, m: usize) -> usize {
    let nl = m.div_ceil(limb_bits(w, m));
    let coef_xor = 2;
    let plan = plan(nl, coef_xor);
    emit(nl, &plan, coef_xor).0.products
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limbs_fit_the_holes() {
        for m in 2..=1024 {
            let l = limb_bits(64, m);
            assert!(l <= 60 && l * m.div_ceil(l) >= m);
            assert_eq!(m.div_ceil(l), m.div_ceil(60));
        }
    }

    #[test]
    fn product_counts() {
        // 5 limbs: the five-term formula; 3 limbs: the three-term one.
        assert_eq!(product_count(64, 283), 13);
        assert_eq!(product_count(64, 163), 6);
        assert_eq!(product_count(64, 233), 9);
    }
}
