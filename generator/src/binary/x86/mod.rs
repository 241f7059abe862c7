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

mod gen;
mod plan;
mod reduce;

use gen::{schedule, Gen, Opnd, Word};
use plan::{plan, Plan, FINE_WORDS, SPREAD_WORDS};
use reduce::{
    load_pairs, reduce_trinomial_shifts, reduce_xmm, shift_last_fold, split_top_word, store,
};
pub use reduce::{trinomial_shift_reduction, xmm_reduction};

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
