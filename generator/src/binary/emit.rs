//! Emits a binary field's module: carry-less products (portable: Karatsuba-like formulae over
//! integer multiplication with holes, see `holes`; PCLMULQDQ in XMM
//! registers, see `x86`; Karatsuba over PMULL word products), squaring, reduction
//! specialised to f, and the public API (encodings, Itoh–Tsujii inversion, √ via √x, trace,
//! half-trace, z² + z = c).
//!
//! A 32-bit module carries two portable products and picks one by `cfg`: the holes product
//! (`portable32-holes`) where the 32×32 → 64-bit multiply is constant time (the allow-list of
//! `holes::ct_mul32_cfg`), else the López–Dahab comb with masks (`portable32`), which
//! uses no multiplier, for cores whose multiplier finishes early on small operands. Both stay
//! reachable through the backend test hooks.
//!
//! Word-level work is straight-line for the given m: every word index, shift amount and
//! constant is a literal. The only loops run a public, fixed number of times (the comb's bit
//! positions, squaring chains, exponent bits), so no branch or index depends on an element.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

use super::{BinarySpec, BinaryTarget, ChainStep, Poly, Reduction};
use crate::emit::x86_64::cpuid;

/// Backend names, in order of preference.
pub fn backends(s: &BinarySpec, target: BinaryTarget) -> Vec<&'static str> {
    match (s.w, target) {
        (64, BinaryTarget::Auto) => vec!["x86_64-clmul", "aarch64-pmull", "portable64"],
        (64, _) => vec!["portable64"],
        _ => vec!["portable32"],
    }
}

fn usize_lit(x: usize) -> Literal {
    Literal::usize_unsuffixed(x)
}

fn u32_lit(x: u32) -> Literal {
    Literal::u32_unsuffixed(x)
}

/// Shapes and literal helpers for one word size.
struct Ctx {
    w: u32,
    n: usize,
    /// Words of the double-length product that can be non-zero: (2m − 2)/w + 1.
    np: usize,
    m: usize,
}

impl Ctx {
    fn word(&self) -> TokenStream {
        if self.w == 64 {
            quote!(u64)
        } else {
            quote!(u32)
        }
    }

    fn lit(&self, v: u64) -> TokenStream {
        let text = format!("{:#0width$x}", v, width = self.w as usize / 4 + 2);
        let l: syn::LitInt = syn::LitInt::new(&text, Span::call_site());
        quote!(#l)
    }

    fn words(&self, p: &Poly) -> Vec<TokenStream> {
        p.to_words(self.w, self.n)
            .into_iter()
            .map(|v| self.lit(v))
            .collect()
    }

    fn top_mask(&self) -> u64 {
        let r = self.m % self.w as usize;
        if r == 0 {
            self.all_ones()
        } else {
            (1u64 << r) - 1
        }
    }

    fn all_ones(&self) -> u64 {
        if self.w == 64 {
            u64::MAX
        } else {
            u32::MAX as u64
        }
    }
}

/// The portable comb: C = Σ_j Σ_k a_(j,k)·x^(wj+k)·B as the left-to-right comb of López and
/// Dahab (J. López, R. Dahab, "High-speed software multiplication in F_(2^m)", INDOCRYPT 2000;
/// Hankerson–Menezes–Vanstone Algorithm 2.34) with window one bit: for each bit position k of
/// the words of a, from the top, C ← C·x, then C{j} ← C{j} + (B AND mask(a_(j,k))). The mask
/// replaces both the branch and the table lookup, so nothing depends on a's bits but data.
fn comb(c: &Ctx) -> TokenStream {
    let word = c.word();
    let wm1 = u32_lit(c.w - 1);
    let wbits = u32_lit(c.w);
    // c <<= 1 over the live words, top first.
    let mut shift = Vec::new();
    for i in (0..c.np).rev() {
        let ii = usize_lit(i);
        if i == 0 {
            shift.push(quote!(acc[0] <<= 1;));
        } else {
            let lo = usize_lit(i - 1);
            shift.push(quote!(acc[#ii] = (acc[#ii] << 1) | (acc[#lo] >> #wm1);));
        }
    }
    let mut adds = Vec::new();
    for j in 0..c.n {
        let jj = usize_lit(j);
        let mask = format_ident!("m{}", j);
        let zero_lit: TokenStream = format!("0{word}").parse().unwrap();
        adds.push(quote!(let #mask = #zero_lit.wrapping_sub((a[#jj] >> k) & 1);));
        for i in 0..c.n {
            if i + j >= c.np {
                continue;
            }
            let t = usize_lit(i + j);
            let ii = usize_lit(i);
            adds.push(quote!(acc[#t] ^= b[#ii] & #mask;));
        }
    }
    let n2 = usize_lit(2 * c.n);
    let n = usize_lit(c.n);
    let zero_lit: TokenStream = format!("0{word}").parse().unwrap();
    quote! {
        /// The double-length product a·b (2n words, least significant first) by the López–Dahab
        /// left-to-right comb with masks: w iterations, each a one-bit shift of the accumulator
        /// and, for each word of a, B added under the mask of that word's bit (Hankerson,
        /// Menezes, Vanstone, "Guide to Elliptic Curve Cryptography", Algorithm 2.34). Constant
        /// time on any core: no branch or index depends on a or b, and no multiplier is used.
        #[inline]
        fn mul_wide_comb(a: &[#word; #n], b: &[#word; #n]) -> [#word; #n2] {
            let mut acc = [#zero_lit; #n2];
            let mut k: u32 = #wbits;
            while k > 0 {
                k -= 1;
                #(#shift)*
                #(#adds)*
            }
            acc
        }
    }
}

/// The 32-bit module's portable product: the comb and the holes product, and the choice between
/// them at compile time (see `holes::ct_mul32_cfg`).
fn portable32_items(c: &Ctx) -> TokenStream {
    let n = usize_lit(c.n);
    let n2 = usize_lit(2 * c.n);
    let comb = comb(c);
    let holes = super::holes::portable_items(c.w, c.n, c.m, "mul_wide_holes");
    let ct = super::holes::ct_mul32_cfg();
    quote! {
        #comb

        #holes

        /// The double-length product by the portable backend of this build: `mul_wide_holes`
        /// (about three times faster) where the 32×32 → 64-bit integer multiply is constant
        /// time — x86, x86-64, AArch64, wasm32, ARMv7-A (`target_feature` `v7` without
        /// `mclass`) and Cortex-M4/M7 (`mclass` with `dsp`) — and the multiplier-free
        /// `mul_wide_comb` everywhere else (Cortex-M0/M3, ARMv4T/v5TE, PowerPC, SPARC, MIPS,
        /// unknown), whose multipliers may finish early on small operands. Stable rustc does
        /// not set the ARM features, so ARM builds on stable use the comb.
        #[inline(always)]
        fn mul_wide_portable(a: &[u32; #n], b: &[u32; #n]) -> [u32; #n2] {
            #[cfg(#ct)]
            {
                Self::mul_wide_holes(a, b)
            }
            #[cfg(not(#ct))]
            {
                Self::mul_wide_comb(a, b)
            }
        }
    }
}

/// Portable squaring: bit i of a moves to bit 2i (squaring is linear over GF(2)).
fn square_portable(c: &Ctx) -> TokenStream {
    let word = c.word();
    let n = usize_lit(c.n);
    let n2 = usize_lit(2 * c.n);
    let half = u32_lit(c.w / 2);
    let mut body = Vec::new();
    for i in 0..c.n {
        let ii = usize_lit(i);
        let lo = usize_lit(2 * i);
        let hi = usize_lit(2 * i + 1);
        body.push(quote!(r[#lo] = Self::spread(a[#ii]);));
        if 2 * i + 1 < c.np {
            body.push(quote!(r[#hi] = Self::spread(a[#ii] >> #half);));
        }
    }
    let zero_lit: TokenStream = format!("0{word}").parse().unwrap();
    quote! {
        /// a² as 2n words: each word's bits spread to the even positions (no products).
        #[inline]
        fn square_wide_portable(a: &[#word; #n]) -> [#word; #n2] {
            let mut r = [#zero_lit; #n2];
            #(#body)*
            r
        }
    }
}

/// `spread` (low half-word to even bits) and `compress` (even bits to the low half-word), by
/// the usual mask-and-shift ladder; both branch-free.
fn bit_helpers(c: &Ctx) -> TokenStream {
    let word = c.word();
    let masks: Vec<(u32, u64)> = if c.w == 64 {
        vec![
            (16, 0x0000_ffff_0000_ffff),
            (8, 0x00ff_00ff_00ff_00ff),
            (4, 0x0f0f_0f0f_0f0f_0f0f),
            (2, 0x3333_3333_3333_3333),
            (1, 0x5555_5555_5555_5555),
        ]
    } else {
        vec![
            (8, 0x00ff_00ff),
            (4, 0x0f0f_0f0f),
            (2, 0x3333_3333),
            (1, 0x5555_5555),
        ]
    };
    let half_mask = c.lit(c.all_ones() >> (c.w / 2));
    let spread_steps = masks.iter().map(|(s, m)| {
        let s = u32_lit(*s);
        let m = c.lit(*m);
        quote!(x = (x | (x << #s)) & #m;)
    });
    let mut rev = masks.clone();
    rev.reverse();
    let first = c.lit(rev[0].1);
    let compress_steps = rev.iter().enumerate().map(|(i, (s, _))| {
        let s = u32_lit(*s);
        let next = if i + 1 < rev.len() {
            c.lit(rev[i + 1].1)
        } else {
            half_mask.clone()
        };
        quote!(x = (x | (x >> #s)) & #next;)
    });
    quote! {
        /// The low w/2 bits of x moved to the even bit positions (bit i to bit 2i).
        #[inline(always)]
        fn spread(x: #word) -> #word {
            let mut x = x & #half_mask;
            #(#spread_steps)*
            x
        }

        /// The even bits of x packed into the low w/2 bits (bit 2i to bit i).
        #[inline(always)]
        fn compress(x: #word) -> #word {
            let mut x = x & #first;
            #(#compress_steps)*
            x
        }
    }
}

/// Statements computing a Karatsuba product of word vectors with a word primitive `clmul`
/// returning (low, high). Operands are identifiers or `None` for a known zero word.
struct Karatsuba<'a> {
    stmts: Vec<TokenStream>,
    next: usize,
    clmul: &'a TokenStream,
    products: usize,
}

type Opd = Option<Ident>;

impl Karatsuba<'_> {
    fn fresh(&mut self, prefix: &str) -> Ident {
        self.next += 1;
        format_ident!("{}{}", prefix, self.next)
    }

    fn xor(&mut self, x: &Opd, y: &Opd) -> Opd {
        match (x, y) {
            (None, v) | (v, None) => v.clone(),
            (Some(a), Some(b)) => {
                let t = self.fresh("t");
                self.stmts.push(quote!(let #t = #a ^ #b;));
                Some(t)
            }
        }
    }

    /// The 2·len product of two operands of equal length.
    fn mul(&mut self, a: &[Opd], b: &[Opd]) -> Vec<Opd> {
        let n = a.len();
        if a.iter().all(Option::is_none) || b.iter().all(Option::is_none) {
            return vec![None; 2 * n];
        }
        if n == 1 {
            let (x, y) = (a[0].as_ref().unwrap(), b[0].as_ref().unwrap());
            let lo = self.fresh("p");
            let hi = self.fresh("p");
            let clmul = self.clmul;
            self.products += 1;
            self.stmts
                .push(quote!(let (#lo, #hi) = Self::#clmul(#x, #y);));
            return vec![Some(lo), Some(hi)];
        }
        let h = n.div_ceil(2);
        let (a0, a1) = a.split_at(h);
        let (b0, b1) = b.split_at(h);
        let p0 = self.mul(a0, b0);
        let p2 = self.mul(a1, b1);
        let mut sa = Vec::new();
        let mut sb = Vec::new();
        for i in 0..h {
            let x1 = a1.get(i).cloned().flatten();
            let y1 = b1.get(i).cloned().flatten();
            sa.push(self.xor(&a0[i], &x1));
            sb.push(self.xor(&b0[i], &y1));
        }
        let p1 = self.mul(&sa, &sb);
        // middle = p1 + p0 + p2, added at word h.
        let mut out: Vec<Opd> = vec![None; 2 * n];
        for (i, v) in p0.iter().enumerate() {
            out[i] = v.clone();
        }
        for (i, v) in p2.iter().enumerate() {
            out[2 * h + i] = v.clone();
        }
        for i in 0..2 * h {
            let mid0 = self.xor(&p1[i], &p0[i]);
            let mid = self.xor(&mid0, &p2.get(i).cloned().flatten());
            let cur = out[h + i].clone();
            out[h + i] = self.xor(&cur, &mid);
        }
        out
    }
}

/// A Karatsuba product kernel over a word primitive; returns its body and clmul count.
fn karatsuba_body(c: &Ctx, clmul: &TokenStream) -> (TokenStream, usize) {
    let mut k = Karatsuba {
        stmts: Vec::new(),
        next: 0,
        clmul,
        products: 0,
    };
    let mut pre = Vec::new();
    let a: Vec<Opd> = (0..c.n)
        .map(|i| {
            let id = format_ident!("a{}", i);
            let ii = usize_lit(i);
            pre.push(quote!(let #id = a[#ii];));
            Some(id)
        })
        .collect();
    let b: Vec<Opd> = (0..c.n)
        .map(|i| {
            let id = format_ident!("b{}", i);
            let ii = usize_lit(i);
            pre.push(quote!(let #id = b[#ii];));
            Some(id)
        })
        .collect();
    let out = k.mul(&a, &b);
    let word = c.word();
    let outs = out.iter().map(|o| match o {
        Some(id) => quote!(#id),
        None => format!("0{word}").parse::<TokenStream>().unwrap(),
    });
    let stmts = k.stmts;
    (
        quote! {
            #(#pre)*
            #(#stmts)*
            [#(#outs),*]
        },
        k.products,
    )
}

fn square_clmul_body(c: &Ctx, clmul: &TokenStream) -> TokenStream {
    let mut stmts = Vec::new();
    let mut outs = Vec::new();
    for i in 0..c.n {
        let ii = usize_lit(i);
        let lo = format_ident!("s{}", 2 * i);
        let hi = format_ident!("s{}", 2 * i + 1);
        stmts.push(quote!(let (#lo, #hi) = Self::#clmul(a[#ii], a[#ii]);));
        outs.push(quote!(#lo));
        outs.push(quote!(#hi));
    }
    quote! {
        #(#stmts)*
        [#(#outs),*]
    }
}

/// The x86-64 PCLMULQDQ and aarch64 PMULL kernels and the dispatch between backends.
fn backend_items(c: &Ctx, s: &BinarySpec, target: BinaryTarget) -> TokenStream {
    let word = c.word();
    let n = usize_lit(c.n);
    let n2 = usize_lit(2 * c.n);
    let portable_name = if c.w == 64 {
        "portable64"
    } else {
        "portable32"
    };
    let barrett = matches!(s.reduction, Reduction::Barrett { .. });
    let with_hw = c.w == 64 && target == BinaryTarget::Auto;
    if !with_hw {
        let ct = super::holes::ct_mul32_cfg();
        let (backend_doc, backend_body, mul_hook, square_hook) = if c.w == 64 {
            (
                format!(" The backend of the carry-less products: always `{portable_name}` (Karatsuba-like formulae over integer multiplication with holes)."),
                quote!(#portable_name),
                quote! {
                    if backend == #portable_name {
                        ::core::option::Option::Some(Self(Self::reduce(&Self::mul_wide_portable(&self.0, &rhs.0))))
                    } else {
                        ::core::option::Option::None
                    }
                },
                quote! {
                    if backend == #portable_name {
                        ::core::option::Option::Some(Self(Self::reduce(&Self::square_wide_portable(&self.0))))
                    } else {
                        ::core::option::Option::None
                    }
                },
            )
        } else {
            (
                " The backend of the carry-less products, fixed at compile time: `portable32-holes` (Karatsuba-like formulae over integer multiplication with holes) where the 32×32 → 64-bit multiply is constant time — x86, x86-64, AArch64, wasm32, ARMv7-A (`target_feature` `v7` without `mclass`), Cortex-M4/M7 (`mclass` with `dsp`) — else `portable32`, the López–Dahab comb, which uses no multiplier and so stays constant time on cores whose multiplier finishes early (Cortex-M0/M3, ARMv4T/v5TE, PowerPC, SPARC, MIPS). Stable rustc does not set the ARM features, so ARM builds on stable use the comb.".to_string(),
                quote! {
                    if cfg!(#ct) {
                        "portable32-holes"
                    } else {
                        "portable32"
                    }
                },
                quote! {
                    match backend {
                        "portable32" => ::core::option::Option::Some(Self(Self::reduce(&Self::mul_wide_comb(&self.0, &rhs.0)))),
                        "portable32-holes" => ::core::option::Option::Some(Self(Self::reduce(&Self::mul_wide_holes(&self.0, &rhs.0)))),
                        _ => ::core::option::Option::None,
                    }
                },
                quote! {
                    match backend {
                        "portable32" | "portable32-holes" => ::core::option::Option::Some(Self(Self::reduce(&Self::square_wide_portable(&self.0)))),
                        _ => ::core::option::Option::None,
                    }
                },
            )
        };
        let mul_wide = if barrett {
            quote! {
                /// The double-length product for Barrett reduction.
                #[inline(always)]
                fn mul_wide(a: &[#word; #n], b: &[#word; #n]) -> [#word; #n2] {
                    Self::mul_wide_portable(a, b)
                }
            }
        } else {
            quote!()
        };
        return quote! {
            /// a·b mod f (n words).
            #[inline(always)]
            fn mul_words(a: &[#word; #n], b: &[#word; #n]) -> [#word; #n] {
                Self::reduce(&Self::mul_wide_portable(a, b))
            }

            /// a² mod f (n words).
            #[inline(always)]
            fn square_words(a: &[#word; #n]) -> [#word; #n] {
                Self::reduce(&Self::square_wide_portable(a))
            }

            /// a^(2^k) mod f (n words): k squarings.
            #[inline]
            fn square_n_words(a: &[#word; #n], k: u32) -> [#word; #n] {
                Self::square_n_chain_words(a, k)
            }

            /// a^(2^k) mod f (n words): k squarings.
            #[inline]
            fn square_n_chain_words(a: &[#word; #n], k: u32) -> [#word; #n] {
                let mut x = *a;
                let mut i = 0;
                while i < k {
                    x = Self::square_words(&x);
                    i += 1;
                }
                x
            }

            #mul_wide

            #[doc = #backend_doc]
            pub fn backend() -> &'static str {
                #backend_body
            }

            /// Test hook: `self · rhs` by the named backend, or `None` when this build or CPU
            /// cannot run it. Not a stable API.
            #[doc(hidden)]
            pub fn __mul_with_backend(&self, rhs: &Self, backend: &str) -> ::core::option::Option<Self> {
                #mul_hook
            }

            /// Test hook: `self²` by the named backend, or `None`. Not a stable API.
            #[doc(hidden)]
            pub fn __square_with_backend(&self, backend: &str) -> ::core::option::Option<Self> {
                #square_hook
            }
        };
    }
    let arm = quote!(clmul_aarch64);
    let (mul_arm, _) = karatsuba_body(c, &arm);
    let sq_arm = square_clmul_body(c, &arm);
    let x86_kernels = super::x86::kernels(s);
    let safety = |text: &str| {
        let text = format!(" SAFETY: {text}");
        quote!(#[doc = #text])
    };
    let s_feature = safety("x86_64_clmul_available() is true only when the CPU has PCLMULQDQ and SSSE3 (the build enables the target features, or CPUID reported them); SSE2 is part of x86-64.");
    let s_cpuid = safety("CPUID exists on every x86-64 processor; leaf 1 always exists.");
    let clmul_cached = cpuid::cached(
        quote! {
            #s_cpuid
            let ecx = unsafe { ::core::arch::x86_64::__cpuid(1).ecx };
            let present = ecx & (1 << 1) != 0 && ecx & (1 << 9) != 0;
        },
        &format_ident!("present"),
    );
    let s_pmull = safety("this code is compiled only when the build enables the `aes` target feature (which implies `neon`), so PMULL is present.");
    let mul_wide = if barrett {
        quote! {
            /// The double-length product for Barrett reduction, by the preferred backend.
            #[inline(always)]
            #[allow(unreachable_code, unused_doc_comments)]
            fn mul_wide(a: &[u64; #n], b: &[u64; #n]) -> [u64; #n2] {
                #[cfg(all(target_arch = "aarch64", target_feature = "aes"))]
                {
                    return Self::mul_wide_aarch64_pmull(a, b);
                }
                #[cfg(target_arch = "x86_64")]
                {
                    if Self::x86_64_clmul_available() {
                        #s_feature
                        return unsafe { Self::mul_wide_x86_64_clmul(a, b) };
                    }
                }
                Self::mul_wide_portable(a, b)
            }
        }
    } else {
        quote!()
    };
    let square_n_x86 = if super::x86::xmm_reduction(s) {
        quote! {
            #[cfg(target_arch = "x86_64")]
            {
                if Self::x86_64_clmul_available() {
                    #s_feature
                    return unsafe { Self::square_n_x86_64_clmul(a, k) };
                }
            }
        }
    } else {
        quote!()
    };
    let has_matrices = !super::multisquare::matrix_runs(s, target).is_empty();
    let matrix_prefix = if has_matrices {
        quote! {
            #[cfg(target_arch = "x86_64")]
            {
                if Self::x86_64_avx512_available() {
                    let (x, rest) = Self::multi_square_x86_64_avx512_words(a, k);
                    return Self::square_n_chain_words(&x, rest);
                }
            }
        }
    } else {
        quote!()
    };
    let matrix_items = super::multisquare::items(s, target);
    let bmi2_items = super::bmi2::items(s, target);
    let pdep = super::bmi2::squares_with_pdep(s, target);
    let s_bmi2 = safety("x86_64_bmi2_available() is true only when CPUID reported BMI2.");
    let (square_bmi2, square_n_bmi2, hook_bmi2) = if pdep {
        (
            quote! {
                #[cfg(target_arch = "x86_64")]
                {
                    if Self::x86_64_bmi2_available() {
                        #s_bmi2
                        return unsafe { Self::square_x86_64_bmi2(a) };
                    }
                }
            },
            quote! {
                #[cfg(target_arch = "x86_64")]
                {
                    if Self::x86_64_bmi2_available() {
                        #s_bmi2
                        return unsafe { Self::square_n_x86_64_bmi2(a, k) };
                    }
                }
            },
            quote! {
                #[cfg(target_arch = "x86_64")]
                "x86_64-bmi2" if Self::x86_64_bmi2_available() => {
                    #s_bmi2
                    unsafe { Self::square_x86_64_bmi2(&self.0) }
                }
            },
        )
    } else {
        (quote!(), quote!(), quote!())
    };
    quote! {
        #x86_kernels

        #bmi2_items

        #matrix_items

        /// Whether PCLMULQDQ (and SSSE3, whose byte shuffle spreads the bits of a square) can
        /// run: always when the build enables both target features, else as CPUID reports
        /// (read once).
        #[cfg(target_arch = "x86_64")]
        #[inline(always)]
        fn x86_64_clmul_available() -> bool {
            #[cfg(all(target_feature = "pclmulqdq", target_feature = "ssse3"))]
            {
                true
            }
            #[cfg(not(all(target_feature = "pclmulqdq", target_feature = "ssse3")))]
            {
                Self::x86_64_clmul_detected()
            }
        }

        /// CPUID.(EAX=1):ECX bits 1 (PCLMULQDQ) and 9 (SSSE3), read once and cached: 0 = not read yet,
        /// 1 = absent, 2 = present.
        #[cfg(all(
            target_arch = "x86_64",
            not(all(target_feature = "pclmulqdq", target_feature = "ssse3"))
        ))]
        #[inline]
        #[allow(unused_doc_comments, unused_unsafe)]
        fn x86_64_clmul_detected() -> bool {
            #clmul_cached
        }

        /// One 64×64 → 128-bit carry-less product with PMULL: (low word, high word).
        #[cfg(all(target_arch = "aarch64", target_feature = "aes"))]
        #[inline(always)]
        #[allow(unused_doc_comments)]
        fn clmul_aarch64(a: u64, b: u64) -> (u64, u64) {
            #s_pmull
            let p: u128 = unsafe { ::core::arch::aarch64::vmull_p64(a, b) };
            (p as u64, (p >> 64) as u64)
        }

        /// a·b by Karatsuba over 64-bit words with PMULL word products.
        #[cfg(all(target_arch = "aarch64", target_feature = "aes"))]
        #[inline]
        fn mul_wide_aarch64_pmull(a: &[u64; #n], b: &[u64; #n]) -> [u64; #n2] {
            #mul_arm
        }

        /// a² with one PMULL per word.
        #[cfg(all(target_arch = "aarch64", target_feature = "aes"))]
        #[inline]
        fn square_wide_aarch64_pmull(a: &[u64; #n]) -> [u64; #n2] {
            #sq_arm
        }

        /// a·b mod f (n words) by the preferred backend this build and CPU can run.
        #[inline(always)]
        #[allow(unreachable_code, unused_doc_comments)]
        fn mul_words(a: &[u64; #n], b: &[u64; #n]) -> [u64; #n] {
            #[cfg(all(target_arch = "aarch64", target_feature = "aes"))]
            {
                return Self::reduce(&Self::mul_wide_aarch64_pmull(a, b));
            }
            #[cfg(target_arch = "x86_64")]
            {
                if Self::x86_64_clmul_available() {
                    #s_feature
                    return unsafe { Self::mul_x86_64_clmul(a, b) };
                }
            }
            Self::reduce(&Self::mul_wide_portable(a, b))
        }

        /// a² mod f (n words) by the preferred backend this build and CPU can run.
        #[inline(always)]
        #[allow(unreachable_code, unused_doc_comments)]
        fn square_words(a: &[u64; #n]) -> [u64; #n] {
            #[cfg(all(target_arch = "aarch64", target_feature = "aes"))]
            {
                return Self::reduce(&Self::square_wide_aarch64_pmull(a));
            }
            #square_bmi2
            #[cfg(target_arch = "x86_64")]
            {
                if Self::x86_64_clmul_available() {
                    #s_feature
                    return unsafe { Self::square_x86_64_clmul(a) };
                }
            }
            Self::reduce(&Self::square_wide_portable(a))
        }

        /// a^(2^k) mod f (n words): on x86-64 with AVX-512F, the multi-squaring matrices for
        /// the longest runs that fit, then the rest as `square_n_chain_words`.
        #[inline]
        #[allow(unreachable_code, unused_doc_comments)]
        fn square_n_words(a: &[u64; #n], k: u32) -> [u64; #n] {
            #matrix_prefix
            Self::square_n_chain_words(a, k)
        }

        /// a^(2^k) mod f (n words): k squarings by the preferred backend (on x86-64 with the
        /// value kept in XMM registers throughout when the reduction runs there).
        #[inline]
        #[allow(unreachable_code, unused_doc_comments)]
        fn square_n_chain_words(a: &[u64; #n], k: u32) -> [u64; #n] {
            #square_n_bmi2
            #square_n_x86
            let mut x = *a;
            let mut i = 0;
            while i < k {
                x = Self::square_words(&x);
                i += 1;
            }
            x
        }

        #mul_wide

        /// The backend of the carry-less products in use: `x86_64-clmul` (PCLMULQDQ),
        /// `aarch64-pmull` (PMULL, when the build enables the `aes` target feature) or
        /// `portable64` (Karatsuba over integer multiplication with holes).
        #[allow(unreachable_code)]
        pub fn backend() -> &'static str {
            #[cfg(all(target_arch = "aarch64", target_feature = "aes"))]
            {
                return "aarch64-pmull";
            }
            #[cfg(target_arch = "x86_64")]
            {
                if Self::x86_64_clmul_available() {
                    return "x86_64-clmul";
                }
            }
            "portable64"
        }

        /// Test hook: `self · rhs` by the named backend, or `None` when this build or CPU
        /// cannot run it. Not a stable API.
        #[doc(hidden)]
        #[allow(unused_doc_comments)]
        pub fn __mul_with_backend(&self, rhs: &Self, backend: &str) -> ::core::option::Option<Self> {
            let r: [u64; #n] = match backend {
                "portable64" => Self::reduce(&Self::mul_wide_portable(&self.0, &rhs.0)),
                #[cfg(target_arch = "x86_64")]
                "x86_64-clmul" if Self::x86_64_clmul_available() => {
                    #s_feature
                    unsafe { Self::mul_x86_64_clmul(&self.0, &rhs.0) }
                }
                #[cfg(all(target_arch = "aarch64", target_feature = "aes"))]
                "aarch64-pmull" => Self::reduce(&Self::mul_wide_aarch64_pmull(&self.0, &rhs.0)),
                _ => return ::core::option::Option::None,
            };
            ::core::option::Option::Some(Self(r))
        }

        /// Test hook: `self²` by the named backend, or `None`. Not a stable API.
        #[doc(hidden)]
        #[allow(unused_doc_comments)]
        pub fn __square_with_backend(&self, backend: &str) -> ::core::option::Option<Self> {
            let r: [u64; #n] = match backend {
                "portable64" => Self::reduce(&Self::square_wide_portable(&self.0)),
                #[cfg(target_arch = "x86_64")]
                "x86_64-clmul" if Self::x86_64_clmul_available() => {
                    #s_feature
                    unsafe { Self::square_x86_64_clmul(&self.0) }
                }
                #hook_bmi2
                #[cfg(all(target_arch = "aarch64", target_feature = "aes"))]
                "aarch64-pmull" => Self::reduce(&Self::square_wide_aarch64_pmull(&self.0)),
                _ => return ::core::option::Option::None,
            };
            ::core::option::Option::Some(Self(r))
        }
    }
}

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
                let rr = u32_lit(r as u32);
                let rl = u32_lit((w - r) as u32);
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

fn reduce_fn(c: &Ctx, s: &BinarySpec) -> TokenStream {
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
                        let ol = u32_lit(o as u32);
                        let orl = u32_lit((w - o) as u32);
                        let q1 = usize_lit(q + 1);
                        stmts.push(quote!(c[#ql] ^= #t << #ol;));
                        stmts.push(quote!(c[#q1] ^= #t >> #orl;));
                    }
                }
            }
            if r != 0 && p < c.np {
                let pl = usize_lit(p);
                let rl = u32_lit(r as u32);
                stmts.push(quote!(let t = c[#pl] >> #rl;));
                stmts.push(quote!(c[#pl] &= #top;));
                for &k in lower {
                    let (q, o) = (k / w, k % w);
                    let ql = usize_lit(q);
                    if o == 0 {
                        stmts.push(quote!(c[#ql] ^= t;));
                    } else {
                        let ol = u32_lit(o as u32);
                        stmts.push(quote!(c[#ql] ^= t << #ol;));
                        if o > r {
                            let orl = u32_lit((w - o) as u32);
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
fn invert_body(s: &BinarySpec) -> TokenStream {
    let mut stmts = Vec::new();
    for st in &s.chain {
        match st {
            ChainStep::Double(k) => {
                let kl = u32_lit(*k as u32);
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

/// Emits the whole module body for type `name`.
pub fn field_module(s: &BinarySpec, name: &Ident, target: BinaryTarget, doc: &str) -> TokenStream {
    let c = Ctx {
        w: s.w,
        n: s.n,
        np: (2 * s.m - 2) / s.w as usize + 1,
        m: s.m,
    };
    let word = c.word();
    let n = usize_lit(c.n);
    let nb = usize_lit(s.bytes);
    let wbytes = usize_lit(c.w as usize / 8);
    let wbits = u32_lit(c.w);
    let m = u32_lit(s.m as u32);
    let last = usize_lit(c.n - 1);
    let top = c.lit(c.top_mask());
    let exps: Vec<Literal> = s.exponents.iter().map(|&e| u32_lit(e as u32)).collect();
    let nexps = usize_lit(exps.len());
    let one = c.words(&Poly::one());
    let sqrt_x = c.words(&s.sqrt_x);
    let trace_words = s.trace_mask.to_words(c.w, c.n);
    let modulus_words = s.poly.to_words(c.w, c.n + 1).into_iter().map(|v| c.lit(v));
    let n1 = usize_lit(c.n + 1);
    let poly_low = c.words(&s.poly.low(s.m));
    let barrett_consts = match &s.reduction {
        Reduction::Barrett { mu_low } => {
            let mu = c.words(mu_low);
            quote! {
                /// μ − x^m for μ = x^(2m) div f (Barrett reduction).
                const BARRETT_MU_LOW: [#word; #n] = [#(#mu),*];
                /// f − x^m.
                const POLY_LOW: [#word; #n] = [#(#poly_low),*];
            }
        }
        Reduction::Sparse => quote!(),
    };
    let comb_fn = if c.w == 64 {
        super::holes::portable_items(c.w, c.n, c.m, "mul_wide_portable")
    } else {
        portable32_items(&c)
    };
    let square_fn = square_portable(&c);
    let helpers = bit_helpers(&c);
    let backend = backend_items(&c, s, target);
    let reduce = reduce_fn(&c, s);
    let invert = invert_body(s);
    let multi_square_public = super::multisquare::public_items(s, target);
    let chain_len = s.chain.len();
    let runs = super::multisquare::matrix_runs(s, target);
    let matrix_note = if runs.is_empty() {
        String::new()
    } else {
        format!(
            " On x86-64 with AVX-512F the runs of k = {} squarings are one bit-matrix product each (see `square_n_backend`).",
            runs.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(", ")
        )
    };
    let invert_doc = format!(
        " The inverse, none for zero. Itoh–Tsujii (Information and Computation 78, 1988): a⁻¹ = (a^(2^(m−1) − 1))², with β_k = a^(2^k − 1) built along an addition chain for m − 1 = {} ({chain_len} multiplications, m − 1 = {} squarings).{matrix_note} Constant time.",
        s.m - 1,
        s.m - 1
    );

    // sqrt: even and odd coefficient halves.
    let half = u32_lit(c.w / 2);
    let mut even = Vec::new();
    let mut odd = Vec::new();
    for j in 0..c.n {
        let lo = 2 * j;
        let hi = 2 * j + 1;
        let ll = usize_lit(lo);
        let hl = usize_lit(hi);
        let (e, o) = if lo >= c.n {
            (quote!(0), quote!(0))
        } else if hi >= c.n {
            (
                quote!(Self::compress(a[#ll])),
                quote!(Self::compress(a[#ll] >> 1)),
            )
        } else {
            (
                quote!(Self::compress(a[#ll]) | (Self::compress(a[#hl]) << #half)),
                quote!(Self::compress(a[#ll] >> 1) | (Self::compress(a[#hl] >> 1) << #half)),
            )
        };
        even.push(e);
        odd.push(o);
    }

    // trace: parity of a AND mask, over the non-zero mask words.
    let trace_terms: Vec<TokenStream> = trace_words
        .iter()
        .enumerate()
        .filter(|(_, &v)| v != 0)
        .map(|(i, &v)| {
            let il = usize_lit(i);
            let ml = c.lit(v);
            quote!(t ^= self.0[#il] & #ml;)
        })
        .collect();
    let mut folds = Vec::new();
    let mut sh = c.w / 2;
    while sh >= 1 {
        let sl = u32_lit(sh);
        folds.push(quote!(t ^= t >> #sl;));
        sh /= 2;
    }
    let trace_list = s
        .trace_mask
        .exponents()
        .iter()
        .rev()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let trace_doc = format!(
        " The absolute trace Tr(a) = a + a² + a⁴ + … + a^(2^(m−1)), 0 or 1. Tr is GF(2)-linear, so it is the parity of the coefficients of a at the exponents i with Tr(x^i) = 1 (here {{{trace_list}}}, from Newton's identities on f). Constant time."
    );

    let odd_m = s.m % 2 == 1;
    let half_trace_reps = u32_lit(((s.m - 1) / 2) as u32);
    let half_trace = if odd_m {
        quote! {
            /// The half-trace H(a) = Σ_{i=0}^{(m−1)/2} a^(4^i) (m odd), by Horner's rule:
            /// h ← h⁴ + a, (m − 1)/2 times. H(c) solves z² + z = c + Tr(c). Constant time.
            pub fn half_trace(&self) -> Self {
                let mut h = *self;
                let mut i = 0u32;
                while i < #half_trace_reps {
                    h = h.square().square().add(self);
                    i += 1;
                }
                h
            }
        }
    } else {
        quote!()
    };
    let solve_body = if odd_m {
        quote!(let z = self.half_trace();)
    } else {
        let trace_one = c.words(&s.trace_one);
        let reps = u32_lit(s.m as u32 - 1);
        quote! {
            // m even: IEEE Std 1363-2000 A.4.7 with a fixed ρ of trace 1 (an x^i).
            let rho = Self([#(#trace_one),*]);
            let mut z = Self::ZERO;
            let mut w = *self;
            let mut i = 0u32;
            while i < #reps {
                let w2 = w.square();
                z = z.square().add(&w2.mul(&rho));
                w = w2.add(self);
                i += 1;
            }
        }
    };
    let solve_doc = if odd_m {
        " A solution z of z² + z = self, none when Tr(self) = 1. The other solution is z + 1. m is odd, so z = H(self), the half-trace (IEEE Std 1363-2000 A.4.7). Constant time."
    } else {
        " A solution z of z² + z = self, none when Tr(self) = 1. The other solution is z + 1. m is even: z = Σ_{i=1}^{m−1} (Σ_{j=0}^{i−1} c^(2^j))² ρ^(2^(m−i))-style iteration of IEEE Std 1363-2000 A.4.7 with a fixed ρ of trace 1 (m − 1 multiplications). Constant time."
    };

    let op_impls = op_impls(name);
    let degree_doc = format!(" The degree m = {} of f: elements have m bits.", s.m);
    let exps_doc = format!(
        " The exponents of f's terms, highest first: f = {}.",
        s.poly
    );
    let enc_doc = format!(
        " Decodes {b} little-endian bytes: bit i (bit i%8 of byte i/8) is the coefficient of x^i. None when any bit at position ≥ m = {m} is set.",
        b = s.bytes,
        m = s.m
    );
    let enc_be_doc = format!(
        " Decodes {} big-endian bytes (the reverse of `from_le_bytes`'s order). None when any bit at position ≥ {} is set.",
        s.bytes, s.m
    );

    let (layer_methods, layer_impls) =
        crate::emit::field_layer::binary_items(name, c.w, c.n, s.bytes, c.m);
    let zero_lit: TokenStream = format!("0{word}").parse().unwrap();
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy)]
        pub struct #name([#word; #n]);

        impl #name {
            /// The zero polynomial.
            pub const ZERO: #name = #name([0; #n]);
            /// The constant polynomial 1.
            pub const ONE: #name = #name([#(#one),*]);
            #[doc = #degree_doc]
            pub const DEGREE: u32 = #m;
            #[doc = #exps_doc]
            pub const MODULUS_EXPONENTS: [u32; #nexps] = [#(#exps),*];
            /// f as n + 1 words, least significant first.
            const MODULUS: [#word; #n1] = [#(#modulus_words),*];
            /// The bits of the top word below x^m.
            const TOP_MASK: #word = #top;
            /// √x = x^(2^(m−1)) mod f.
            const SQRT_X: [#word; #n] = [#(#sqrt_x),*];
            #barrett_consts

            #layer_methods

            #[doc = #enc_doc]
            pub fn from_le_bytes(bytes: &[u8; #nb]) -> ::fieldgen_field::subtle::CtOption<#name> {
                let mut w = [#zero_lit; #n];
                let mut i = 0;
                while i < #nb {
                    w[i / #wbytes] |= (bytes[i] as #word) << (8 * (i % #wbytes));
                    i += 1;
                }
                let ok = ::fieldgen_field::subtle::ConstantTimeEq::ct_eq(&(w[#last] & !Self::TOP_MASK), &0);
                ::fieldgen_field::subtle::CtOption::new(#name(w), ok)
            }

            #[doc = #enc_be_doc]
            pub fn from_be_bytes(bytes: &[u8; #nb]) -> ::fieldgen_field::subtle::CtOption<#name> {
                let mut le = *bytes;
                le.reverse();
                Self::from_le_bytes(&le)
            }

            /// The coefficients as little-endian bytes: bit i%8 of byte i/8 is the coefficient
            /// of x^i.
            pub fn to_le_bytes(&self) -> [u8; #nb] {
                let mut out = [0u8; #nb];
                let mut i = 0;
                while i < #nb {
                    out[i] = (self.0[i / #wbytes] >> (8 * (i % #wbytes))) as u8;
                    i += 1;
                }
                out
            }

            /// The coefficients as big-endian bytes (reverse of `to_le_bytes`).
            pub fn to_be_bytes(&self) -> [u8; #nb] {
                let mut out = self.to_le_bytes();
                out.reverse();
                out
            }

            /// self + rhs: coefficient-wise xor.
            #[inline]
            pub fn add(&self, rhs: &#name) -> #name {
                let mut r = [#zero_lit; #n];
                let mut i = 0;
                while i < #n {
                    r[i] = self.0[i] ^ rhs.0[i];
                    i += 1;
                }
                #name(r)
            }

            /// self − rhs, which in characteristic two is self + rhs.
            #[inline]
            pub fn sub(&self, rhs: &#name) -> #name {
                self.add(rhs)
            }

            /// −self, which in characteristic two is self.
            #[inline]
            pub fn neg(&self) -> #name {
                *self
            }

            /// self · rhs mod f: a carry-less product by the backend in use (see `backend()`),
            /// then reduction modulo f. Constant time.
            #[inline]
            pub fn mul(&self, rhs: &#name) -> #name {
                #name(Self::mul_words(&self.0, &rhs.0))
            }

            /// self² mod f. Squaring is GF(2)-linear: the bits spread to even positions (or one
            /// carry-less square per word), then reduction. Constant time.
            #[inline]
            pub fn square(&self) -> #name {
                #name(Self::square_words(&self.0))
            }

            /// self^(2^k): k successive squarings (k is public; constant time in self).
            pub fn square_n(&self, k: u32) -> #name {
                #name(Self::square_n_words(&self.0, k))
            }

            #multi_square_public

            /// self^e for e given as little-endian 64-bit words (any length, empty = 0);
            /// x^0 = 1. Square-and-multiply over every bit of every word with a constant-time
            /// select, so the time depends on the length of e only.
            pub fn pow(&self, exp_le: &[u64]) -> #name {
                let mut r = Self::ONE;
                for e in exp_le.iter().rev() {
                    let mut i = 64;
                    while i > 0 {
                        i -= 1;
                        r = r.square();
                        let t = r.mul(self);
                        r = <Self as ::fieldgen_field::subtle::ConditionallySelectable>::conditional_select(&r, &t, ::fieldgen_field::subtle::Choice::from(((e >> i) & 1) as u8));
                    }
                }
                r
            }

            /// self^e like `pow`, branching on the bits of e: only for public exponents.
            pub fn pow_vartime(&self, exp_le: &[u64]) -> #name {
                let mut r = Self::ONE;
                for e in exp_le.iter().rev() {
                    let mut i = 64;
                    while i > 0 {
                        i -= 1;
                        r = r.square();
                        if (e >> i) & 1 == 1 {
                            r = r.mul(self);
                        }
                    }
                }
                r
            }

            #[doc = #invert_doc]
            pub fn invert(&self) -> ::fieldgen_field::subtle::CtOption<#name> {
                let inv = { #invert };
                ::fieldgen_field::subtle::CtOption::new(inv, !self.is_zero())
            }

            /// The inverse by the extended Euclidean algorithm over GF(2)\[x\] (Hankerson,
            /// Menezes, Vanstone, Algorithm 2.48); None for zero. Variable time: the number of
            /// steps and the shifts depend on the value, so use it only on public data.
            pub fn invert_vartime(&self) -> ::core::option::Option<#name> {
                fn degree(x: &[#word; #n1]) -> i64 {
                    let mut i = #n1;
                    while i > 0 {
                        i -= 1;
                        if x[i] != 0 {
                            return (i as i64) * #wbits + (#wbits - 1 - x[i].leading_zeros()) as i64;
                        }
                    }
                    -1
                }
                fn add_shifted(dst: &mut [#word; #n1], src: &[#word; #n1], s: usize) {
                    let (q, r) = (s / #wbits, s % #wbits);
                    let mut i = #n1;
                    while i > q {
                        i -= 1;
                        let lo = src[i - q] << r;
                        let hi = if r != 0 && i - q >= 1 { src[i - q - 1] >> (#wbits - r) } else { 0 };
                        dst[i] ^= lo | hi;
                    }
                }
                let mut u = [#zero_lit; #n1];
                u[..#n].copy_from_slice(&self.0);
                if degree(&u) < 0 {
                    return ::core::option::Option::None;
                }
                let mut v = Self::MODULUS;
                let mut g1 = [#zero_lit; #n1];
                g1[0] = 1;
                let mut g2 = [#zero_lit; #n1];
                loop {
                    let du = degree(&u);
                    if du == 0 {
                        break;
                    }
                    let mut dv = degree(&v);
                    let mut du = du;
                    if du < dv {
                        ::core::mem::swap(&mut u, &mut v);
                        ::core::mem::swap(&mut g1, &mut g2);
                        ::core::mem::swap(&mut du, &mut dv);
                    }
                    let j = (du - dv) as usize;
                    add_shifted(&mut u, &v, j);
                    add_shifted(&mut g1, &g2, j);
                }
                let mut r = [#zero_lit; #n];
                r.copy_from_slice(&g1[..#n]);
                ::core::option::Option::Some(#name(r))
            }

            /// The square root, which always exists and is unique: √a = Σ a_(2i)·x^i +
            /// √x · Σ a_(2i+1)·x^i, the even and odd coefficients of a, with the constant √x =
            /// x^(2^(m−1)) mod f (one multiplication; K. Fong, D. Hankerson, J. López, A.
            /// Menezes, "Field inversion and point halving revisited", IEEE Trans. Computers
            /// 53(8), 2004). Constant time.
            pub fn sqrt(&self) -> #name {
                let a = &self.0;
                let even = #name([#(#even),*]);
                let odd = #name([#(#odd),*]);
                even.add(&odd.mul(&#name(Self::SQRT_X)))
            }

            #[doc = #trace_doc]
            pub fn trace(&self) -> u8 {
                let mut t: #word = 0;
                #(#trace_terms)*
                #(#folds)*
                (t & 1) as u8
            }

            #half_trace

            #[doc = #solve_doc]
            pub fn solve_quadratic(&self) -> ::fieldgen_field::subtle::CtOption<#name> {
                #solve_body
                let ok = ::fieldgen_field::subtle::ConstantTimeEq::ct_eq(&self.trace(), &0u8);
                ::fieldgen_field::subtle::CtOption::new(z, ok)
            }

            /// 1 when self is zero (constant time).
            pub fn is_zero(&self) -> ::fieldgen_field::subtle::Choice {
                ::fieldgen_field::subtle::ConstantTimeEq::ct_eq(self, &Self::ZERO)
            }

            #reduce
            #comb_fn
            #square_fn
            #helpers
            #backend
        }

        impl ::core::fmt::Debug for #name {
            /// `0x` and the coefficients as 2·B lowercase hex digits, big-endian.
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str("0x")?;
                for byte in self.to_be_bytes().iter() {
                    write!(f, "{:02x}", byte)?;
                }
                Ok(())
            }
        }

        impl ::core::default::Default for #name {
            #[inline]
            fn default() -> #name { Self::ZERO }
        }

        impl ::fieldgen_field::subtle::ConstantTimeEq for #name {
            fn ct_eq(&self, other: &#name) -> ::fieldgen_field::subtle::Choice {
                let mut diff: #word = 0;
                let mut i = 0;
                while i < #n {
                    diff |= self.0[i] ^ other.0[i];
                    i += 1;
                }
                ::fieldgen_field::subtle::ConstantTimeEq::ct_eq(&diff, &0)
            }
        }

        impl ::core::cmp::PartialEq for #name {
            #[inline]
            fn eq(&self, other: &#name) -> bool { ::fieldgen_field::subtle::ConstantTimeEq::ct_eq(self, other).into() }
        }

        impl ::core::cmp::Eq for #name {}

        impl ::fieldgen_field::subtle::ConditionallySelectable for #name {
            #[inline]
            fn conditional_select(a: &#name, b: &#name, choice: ::fieldgen_field::subtle::Choice) -> #name {
                let mut out = [#zero_lit; #n];
                let mut i = 0;
                while i < #n {
                    out[i] = <#word as ::fieldgen_field::subtle::ConditionallySelectable>::conditional_select(&a.0[i], &b.0[i], choice);
                    i += 1;
                }
                #name(out)
            }
        }

        impl ::core::ops::Neg for #name {
            type Output = #name;
            #[inline]
            fn neg(self) -> #name { self }
        }

        impl ::core::ops::Neg for &#name {
            type Output = #name;
            #[inline]
            fn neg(self) -> #name { *self }
        }

        #(#op_impls)*

        impl ::core::iter::Sum for #name {
            fn sum<I: Iterator<Item = #name>>(iter: I) -> #name { iter.fold(#name::ZERO, |a, b| #name::add(&a, &b)) }
        }

        impl<'a> ::core::iter::Sum<&'a #name> for #name {
            fn sum<I: Iterator<Item = &'a #name>>(iter: I) -> #name { iter.fold(#name::ZERO, |a, b| #name::add(&a, b)) }
        }

        impl ::core::iter::Product for #name {
            fn product<I: Iterator<Item = #name>>(iter: I) -> #name { iter.fold(#name::ONE, |a, b| #name::mul(&a, &b)) }
        }

        impl<'a> ::core::iter::Product<&'a #name> for #name {
            fn product<I: Iterator<Item = &'a #name>>(iter: I) -> #name { iter.fold(#name::ONE, |a, b| #name::mul(&a, b)) }
        }

        #layer_impls
    }
}

fn op_impls(name: &Ident) -> Vec<TokenStream> {
    let mut out = Vec::new();
    for (tr, method, tra, method_a) in [
        ("Add", "add", "AddAssign", "add_assign"),
        ("Sub", "sub", "SubAssign", "sub_assign"),
        ("Mul", "mul", "MulAssign", "mul_assign"),
    ] {
        let tr = format_ident!("{}", tr);
        let method = format_ident!("{}", method);
        let tra = format_ident!("{}", tra);
        let method_a = format_ident!("{}", method_a);
        out.push(quote! {
            impl ::core::ops::#tr for #name {
                type Output = #name;
                #[inline]
                fn #method(self, rhs: #name) -> #name { #name::#method(&self, &rhs) }
            }

            impl ::core::ops::#tr<&#name> for &#name {
                type Output = #name;
                #[inline]
                fn #method(self, rhs: &#name) -> #name { #name::#method(self, rhs) }
            }

            impl ::core::ops::#tra for #name {
                #[inline]
                fn #method_a(&mut self, rhs: #name) { *self = #name::#method(self, &rhs); }
            }

            impl ::core::ops::#tra<&#name> for #name {
                #[inline]
                fn #method_a(&mut self, rhs: &#name) { *self = #name::#method(self, rhs); }
            }
        });
    }
    out
}
