//! Squaring in general-purpose registers with BMI2 `PDEP` on x86-64, for the trinomials.
//!
//! a² spreads the bits of a to the even positions; `PDEP` with the mask 0x5555…5555 does it
//! for 32 bits at a time, and the field's word-shift reduction (`reduce`, Hankerson, Menezes,
//! Vanstone, "Guide to Elliptic Curve Cryptography", §2.3.5) finishes in the same registers.
//! No PCLMULQDQ is issued, so a chain of squarings (the short runs of the Itoh–Tsujii chain) is
//! not held to the carry-less multiplier's throughput, which on AMD Zen 4 is one PCLMULQDQ
//! every two cycles: 23 products a squaring at sect409.
//!
//! `PDEP` runs in constant time (three cycles) on Intel processors since Haswell and on AMD
//! since Zen 3; AMD's earlier BMI2 processors run it as microcode that takes up to hundreds of
//! cycles. The kernel therefore runs only where CPUID names an Intel processor, or an AMD one
//! of family 19h or later, with BMI2.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{BinarySpec, BinaryTarget, Reduction};

/// Whether the field squares with `PDEP` on x86-64 where the CPU allows it (see the module
/// docs): 64-bit words, f a trinomial, and either no XMM squaring by shifts
/// ([`super::x86::trinomial_shift_reduction`]) or at most [`PDEP_MAX_FOLD_WORDS`] words of the
/// square to fold. Measured on AMD Zen 4 (EPYC, CPUID family 19h model 11h, 2026-12-01 20:38
/// UTC, the `binary_interleaved` example, one squaring in chains of 16, PCLMULQDQ folds →
/// PDEP): gf2-155 7.8 → 4.4 ns, sect193 7.8 → 5.6, sect233 10.3 → 6.9, sect239 10.3 → 6.9,
/// sect409 11.3 → 10.3. A pentanomial's reduction takes twice the shifts and the XMM squaring
/// stays faster (an earlier run: sect163 5.0 → 4.7, sect283 5.3 → 10.0, sect571 9.7 → 18.8).
pub fn squares_with_pdep(s: &BinarySpec, target: BinaryTarget) -> bool {
    s.w == 64
        && target == BinaryTarget::Auto
        && s.reduction == Reduction::Sparse
        && s.exponents.len() == 3
        && (!super::x86::trinomial_shift_reduction(s) || fold_words(s) <= PDEP_MAX_FOLD_WORDS)
}

/// Words of a square at or above word n, which the `PDEP` kernel folds one after another.
fn fold_words(s: &BinarySpec) -> usize {
    (2 * s.m - 1).div_ceil(64) - s.n
}

/// Up to this many words to fold, `PDEP` squares faster than the XMM squaring with the
/// trinomial's shift reduction; beyond, slower. On AMD Zen 4 (2026-12-01 23:58 UTC, the
/// `binary_interleaved` example, three runs, the best; XMM with shifts against PDEP): gf2-155
/// (2 words to fold) 5.23 against 3.98 ns, sect193 (3) 5.71 against 5.24, sect233 (4) 5.55
/// against 6.57, sect409 (6) 6.96 against 10.16.
const PDEP_MAX_FOLD_WORDS: usize = 3;

/// The BMI2 items: `square_x86_64_bmi2`, `square_n_x86_64_bmi2` and the CPU check
/// `x86_64_bmi2_available`. Empty when [`squares_with_pdep`] is false.
pub fn items(s: &BinarySpec, target: BinaryTarget) -> TokenStream {
    if !squares_with_pdep(s, target) {
        return quote!();
    }
    let n = s.n;
    let nl = Literal::usize_unsuffixed(n);
    let n2 = Literal::usize_unsuffixed(2 * n);
    let np = (2 * s.m - 2) / 64 + 1;
    let mut body = Vec::new();
    for i in 0..n {
        let ii = Literal::usize_unsuffixed(i);
        let lo = Literal::usize_unsuffixed(2 * i);
        let hi = Literal::usize_unsuffixed(2 * i + 1);
        body.push(quote!(r[#lo] = ::core::arch::x86_64::_pdep_u64(a[#ii], 0x5555_5555_5555_5555);));
        if 2 * i + 1 < np {
            body.push(
                quote!(r[#hi] = ::core::arch::x86_64::_pdep_u64(a[#ii] >> 32, 0x5555_5555_5555_5555);),
            );
        }
    }
    // Folds of a whole word c[i] (i ≥ n) for each lower term x^e of f: c[i]·x^(64i − m + e),
    // at word i − n + q and bit r for q·64 + r = 64n − m + e.
    let mut folds = Vec::new();
    for &e in &s.exponents[1..] {
        let d = 64 * n - s.m + e;
        let (q, r) = (d / 64, d % 64);
        // Word offsets and shifts written without `+ 0` and `<< 0` (lint-clean output).
        let at = |k: usize| {
            if k == 0 {
                quote!(i - #nl)
            } else {
                let k = Literal::usize_unsuffixed(k);
                quote!(i - #nl + #k)
            }
        };
        let lo = at(q);
        if r == 0 {
            folds.push(quote!(c[#lo] ^= t;));
        } else {
            let rl = Literal::usize_unsuffixed(r);
            folds.push(quote!(c[#lo] ^= t << #rl;));
            let hi = at(q + 1);
            let rr = Literal::usize_unsuffixed(64 - r);
            folds.push(quote!(c[#hi] ^= t >> #rr;));
        }
    }
    // Then the bits of word n − 1 at or above x^m, once per lower term (each lands below x^m:
    // the sparse form has m − e ≥ 64).
    let top = s.m - 64 * (n - 1);
    let mut last = Vec::new();
    if top < 64 {
        let topl = Literal::usize_unsuffixed(top);
        let mask = Literal::u64_unsuffixed((1u64 << top) - 1);
        let last_word = Literal::usize_unsuffixed(n - 1);
        last.push(quote!(let t = c[#last_word] >> #topl; c[#last_word] &= #mask;));
        for &e in &s.exponents[1..] {
            let (q, r) = (Literal::usize_unsuffixed(e / 64), e % 64);
            if r == 0 {
                last.push(quote!(c[#q] ^= t;));
            } else {
                let rl = Literal::usize_unsuffixed(r);
                last.push(quote!(c[#q] ^= t << #rl;));
            }
            if r != 0 && e / 64 + 1 < n {
                let rr = Literal::usize_unsuffixed(64 - r);
                let q1 = Literal::usize_unsuffixed(e / 64 + 1);
                last.push(quote!(c[#q1] ^= t >> #rr;));
            }
        }
    }
    let top_word = Literal::usize_unsuffixed(np - 1);
    let outs = (0..n).map(|i| {
        let il = Literal::usize_unsuffixed(i);
        quote!(c[#il])
    });
    let available = crate::api::dispatch::cpu_check(
        &[
            " Whether the `PDEP` squaring runs: BMI2 (CPUID.(EAX=7,ECX=0):EBX bit 8) on an Intel",
            " processor, or on an AMD one of family 19h (Zen 3) or later, where `PDEP` takes a",
            " fixed three cycles; read once per program. A",
            " `target_feature` cannot tell: builds for Zen 2 enable `bmi2`, whose `PDEP` is slow",
            " microcode.",
        ],
        "x86_64_bmi2_available",
        &[],
        "bmi2_fast_pdep",
    );
    quote! {
        /// C mod f for a square C (2n words), as `reduce` computes it, with the word folds
        /// written as a loop over the words at or above x^m, top first (the indices are public).
        /// The straight-line `reduce` lets LLVM's SLP vectorizer move the words to vector
        /// registers and back, which doubled the time of a squaring on AMD Zen 4.
        #[cfg(target_arch = "x86_64")]
        #[inline(always)]
        fn reduce_x86_64_bmi2(c: &[u64; #n2]) -> [u64; #nl] {
            let mut c = *c;
            let mut i = #top_word;
            while i >= #nl {
                let t = c[i];
                #(#folds)*
                i -= 1;
            }
            #(#last)*
            [#(#outs),*]
        }

        /// a² as 2n words: each half-word's bits deposited at the even positions by `PDEP`.
        /// SAFETY: the caller guarantees BMI2.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[target_feature(enable = "bmi2")]
        #[allow(unused_unsafe, unused_doc_comments)]
        unsafe fn square_wide_x86_64_bmi2(a: &[u64; #nl]) -> [u64; #n2] {
            let mut r = [0u64; #n2];
            /// SAFETY: `PDEP` on words of a, under the BMI2 the caller guarantees.
            unsafe {
                #(#body)*
            }
            r
        }

        /// a² mod f: `square_wide_x86_64_bmi2`, then `reduce_x86_64_bmi2`. SAFETY: the caller guarantees
        /// BMI2.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[target_feature(enable = "bmi2")]
        #[allow(unused_unsafe, unused_doc_comments)]
        unsafe fn square_x86_64_bmi2(a: &[u64; #nl]) -> [u64; #nl] {
            /// SAFETY: the caller guarantees BMI2.
            Self::reduce_x86_64_bmi2(&unsafe { Self::square_wide_x86_64_bmi2(a) })
        }

        /// a^(2^k) mod f: k squarings as in `square_x86_64_bmi2`, the value kept in
        /// general-purpose registers (k is public). SAFETY: the caller guarantees BMI2.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[target_feature(enable = "bmi2")]
        #[allow(unused_unsafe, unused_doc_comments)]
        unsafe fn square_n_x86_64_bmi2(a: &[u64; #nl], k: u32) -> [u64; #nl] {
            let mut x = *a;
            let mut i = 0;
            while i < k {
                /// SAFETY: the caller guarantees BMI2.
                let wide = unsafe { Self::square_wide_x86_64_bmi2(&x) };
                x = Self::reduce_x86_64_bmi2(&wide);
                i += 1;
            }
            x
        }

        #available
    }
}
