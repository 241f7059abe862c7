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
//!
//! A kernel is built as straight-line SSA over 128-bit values ([`ir`], by [`gen::Gen`]), whose
//! statements are list-scheduled by critical path and printed as intrinsic calls.

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
mod ir;
mod plan;
mod reduce;

use gen::{Gen, Word};
use ir::{schedule, Op, Src, Xir, V};
use plan::{plan, Plan, FINE_WORDS, SPREAD_WORDS};
use reduce::{
    load_pairs, reduce_trinomial_shifts, reduce_xmm, shift_last_fold, split_top_word, store,
};
pub use reduce::{trinomial_shift_reduction, xmm_reduction};

/// The product kernel's statements: operands loaded as pairs, the word-level plan's
/// diagonals, aligned pairs of 2n words. With `split` (n odd), the pair of words n − 1 and n
/// is also kept without D_n (see [`Gen::combine`]) for [`reduce_xmm`].
fn product(g: &mut Gen, n: usize, split: bool) -> Vec<Option<V>> {
    let words = |g: &mut Gen, src: Src| {
        let pairs = load_pairs(g, src, n);
        (0..n)
            .map(|i| {
                Some(Word {
                    v: pairs[i / 2],
                    lane: u8::from(i % 2 == 1),
                    load: Some((src, i)),
                })
            })
            .collect::<Vec<_>>()
    };
    let a = words(g, Src::A);
    let b = words(g, Src::B);
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

fn square_pairs(g: &mut Gen, n: usize, spread: bool) -> Vec<Option<V>> {
    let a = load_pairs(g, Src::A, n);
    square_of(g, &a, n, spread)
}

/// The squares of the n words of `a` (pairs), one aligned pair each (pair i = a_i²): with
/// `spread` by byte shuffles, each nibble's bits spread through a 16-entry table (a register
/// constant, indexed by the vector shuffle, so no memory index depends on `a`), else one
/// PCLMULQDQ per word.
// Word indices follow the schoolbook layout of the formulas.
#[allow(clippy::needless_range_loop)]
fn square_of(g: &mut Gen, a: &[V], n: usize, spread: bool) -> Vec<Option<V>> {
    if spread {
        let mask = g.bind("m", Op::Splat8(0x0f));
        // Byte i: the bits of nibble i spread to the even positions.
        let table = g.bind(
            "t",
            Op::Bytes([0, 1, 4, 5, 16, 17, 20, 21, 64, 65, 68, 69, 80, 81, 84, 85]),
        );
        let mut out = Vec::new();
        for j in 0..n.div_ceil(2) {
            let x = a[j];
            let idx = g.inline(Op::And(x, mask));
            let lo = g.bind("l", Op::Shuffle8 { table, idx });
            let top = g.inline(Op::Shr16(x, 4));
            let idx = g.inline(Op::And(top, mask));
            let hi = g.bind("h", Op::Shuffle8 { table, idx });
            out.push(Some(g.bind("q", Op::UnpackLo8(lo, hi))));
            if 2 * j + 1 < n {
                out.push(Some(g.bind("q", Op::UnpackHi8(lo, hi))));
            }
        }
        return out;
    }
    (0..n)
        .map(|i| {
            let x = a[i / 2];
            let sel = if i % 2 == 0 { 0x00 } else { 0x11 };
            Some(g.clmul(x, x, sel))
        })
        .collect()
}

/// Whether a square's word squares are byte shuffles. A trinomial's shift reduction keeps the
/// vector shift and shuffle ports busy, so its word squares stay PCLMULQDQs on their own port:
/// sect409 squaring 9.07 ns with byte shuffles, 6.96 ns with PCLMULQDQ (AMD Zen 4, the
/// `binary_interleaved` example, best of three).
fn spread(s: &BinarySpec) -> bool {
    s.n >= SPREAD_WORDS && !trinomial_shift_reduction(s)
}

/// The reduction of the XMM product or square.
fn reduce_kernel(g: &mut Gen, s: &BinarySpec, r: Vec<Option<V>>, square: bool) -> Vec<Option<V>> {
    if trinomial_shift_reduction(s) {
        reduce_trinomial_shifts(g, s, &r)
    } else {
        let np = (2 * s.m - 2) / 64 + 1;
        reduce_xmm(g, s, r, np - 1, square && shift_last_fold(s))
    }
}

/// The statements of `mul_x86_64_clmul` with the XMM reduction, else of
/// `mul_wide_x86_64_clmul`, in emission order.
fn mul_kernel(s: &BinarySpec) -> Gen {
    let mut g = Gen::new();
    if xmm_reduction(s) {
        let r = product(&mut g, s.n, split_top_word(s));
        let r = reduce_kernel(&mut g, s, r, false);
        store(&mut g, &r, s.n);
    } else {
        let r = product(&mut g, s.n, false);
        store_wide(&mut g, r);
    }
    g
}

/// The statements of `square_x86_64_clmul` with the XMM reduction, else of
/// `square_wide_x86_64_clmul`, in emission order.
fn square_kernel(s: &BinarySpec) -> Gen {
    let mut g = Gen::new();
    let r = square_pairs(&mut g, s.n, spread(s));
    if xmm_reduction(s) {
        let r = reduce_kernel(&mut g, s, r, true);
        store(&mut g, &r, s.n);
    } else {
        store_wide(&mut g, r);
    }
    g
}

/// Stores the 2n-word product held in n pairs into `out`.
fn store_wide(g: &mut Gen, r: Vec<Option<V>>) {
    for (t, v) in r.into_iter().enumerate() {
        g.effect(Op::Store {
            word: 2 * t,
            v,
            pair: true,
        });
    }
}

/// `square_n_x86_64_clmul`: the loads of `a` into `init`, a loop body (scheduled) squaring the
/// loop values `cur` into `next`, then the stores of `cur`.
struct SquareN {
    g: Gen,
    cur: Vec<V>,
    init: Vec<V>,
    load: Vec<V>,
    body: Vec<V>,
    next: Vec<Option<V>>,
    store: Vec<V>,
}

fn square_n_kernel(s: &BinarySpec) -> SquareN {
    let n = s.n;
    let mut g = Gen::new();
    let cur: Vec<V> = (0..n.div_ceil(2)).map(|t| g.inline(Op::Param(t))).collect();
    let init = load_pairs(&mut g, Src::A, n);
    let load = std::mem::take(&mut g.stmts);
    let sq = square_of(&mut g, &cur, n, spread(s));
    let next = reduce_kernel(&mut g, s, sq, true);
    let body = schedule(&g.ir, std::mem::take(&mut g.stmts));
    let cur_opt: Vec<Option<V>> = cur.iter().copied().map(Some).collect();
    store(&mut g, &cur_opt, n);
    let store = std::mem::take(&mut g.stmts);
    SquareN {
        g,
        cur,
        init,
        load,
        body,
        next,
        store,
    }
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
    let (gm, gs) = (mul_kernel(s), square_kernel(s));
    let (ms, ss) = (gm.scheduled(), gs.scheduled());
    if xmm_reduction(s) {
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
            if spread(s) {
                "byte shuffles"
            } else {
                "PCLMULQDQ"
            },
            if trinomial_shift_reduction(s) {
                ", then the trinomial's reduction by multiword shifts (see the generator's `binary::x86`)"
            } else if shift_last_fold(s) {
                ", then the reduction of `mul_x86_64_clmul`, its last fold by word shifts"
            } else {
                ", then the reduction of `mul_x86_64_clmul`"
            }
        );
        // square_n: the value stays in XMM registers across the k squarings.
        let sn = square_n_kernel(s);
        let ir = &sn.g.ir;
        let (load_stmts, body, store_stmts) = (
            sn.g.print(&sn.load),
            sn.g.print(&sn.body),
            sn.g.print(&sn.store),
        );
        let next_vals: Vec<TokenStream> = sn.next.iter().map(|&v| ir.value(v)).collect();
        let cur: Vec<TokenStream> = sn.cur.iter().map(|&c| ir.value(Some(c))).collect();
        let init_ids: Vec<TokenStream> = sn.init.iter().map(|&i| ir.value(Some(i))).collect();
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
    let mul_doc = format!(
        " The double-length a·b (2n words) with PCLMULQDQ ({} word products) over 128-bit pairs in XMM registers.",
        gm.clmuls
    );
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
mod tests;
