//! The hardware carry-less products and the dispatch between backends: Karatsuba over word
//! products (PCLMULQDQ in XMM registers on x86-64, see `binary::x86`; PMULL on aarch64), their
//! squares, and the `backend()` choice, CPU check and test hooks of the module.

use super::*;
use crate::api::dispatch;

/// Statements computing a Karatsuba product of word vectors with a word primitive `clmul`
/// returning (low, high). Operands are identifiers or `None` for a known zero word.
pub(super) struct Karatsuba<'a> {
    stmts: Vec<TokenStream>,
    next: usize,
    clmul: &'a TokenStream,
    products: usize,
}

type Opd = Option<Ident>;

impl Karatsuba<'_> {
    pub(super) fn fresh(&mut self, prefix: &str) -> Ident {
        self.next += 1;
        format_ident!("{}{}", prefix, self.next)
    }

    pub(super) fn xor(&mut self, x: &Opd, y: &Opd) -> Opd {
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
    pub(super) fn mul(&mut self, a: &[Opd], b: &[Opd]) -> Vec<Opd> {
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
pub(super) fn backend_items(c: &Ctx, s: &BinarySpec, target: BinaryTarget) -> TokenStream {
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
        let ct = crate::binary::holes::ct_mul32_cfg();
        let portable = |name: &str, detect| dispatch::Backend {
            name: name.to_string(),
            gate: None,
            detect,
        };
        let wrap = |e: TokenStream| dispatch::Call::Expr(quote!(Self::reduce(&#e)));
        let square = wrap(quote!(Self::square_wide_portable(&self.0)));
        let (backend_doc, backends, mul_arms, square_arms) = if c.w == 64 {
            (
                format!(" The backend of the carry-less products: always `{portable_name}` (Karatsuba-like formulae over integer multiplication with holes)."),
                vec![portable(portable_name, dispatch::Detect::Build)],
                vec![(0, wrap(quote!(Self::mul_wide_portable(&self.0, &rhs.0))))],
                vec![(0, square)],
            )
        } else {
            // Both 32-bit products are built everywhere; `cfg!` picks the preferred one.
            (
                " The backend of the carry-less products, fixed at compile time: `portable32-holes` (Karatsuba-like formulae over integer multiplication with holes) where the 32×32 → 64-bit multiply is constant time — x86, x86-64, AArch64, wasm32, ARMv7-A (`target_feature` `v7` without `mclass`), Cortex-M4/M7 (`mclass` with `dsp`) — else `portable32`, the López–Dahab comb, which uses no multiplier and so stays constant time on cores whose multiplier finishes early (Cortex-M0/M3, ARMv4T/v5TE, PowerPC, SPARC, MIPS). Stable rustc does not set the ARM features, so ARM builds on stable use the comb.".to_string(),
                vec![
                    portable("portable32-holes", dispatch::Detect::Prefer(ct)),
                    portable("portable32", dispatch::Detect::Build),
                ],
                vec![
                    (1, wrap(quote!(Self::mul_wide_comb(&self.0, &rhs.0)))),
                    (0, wrap(quote!(Self::mul_wide_holes(&self.0, &rhs.0)))),
                ],
                vec![(1, square.clone()), (0, square)],
            )
        };
        let hook = |docs: &[&str], sig: TokenStream, arms| dispatch::Hook {
            docs: docs.iter().map(|d| d.to_string()).collect(),
            attrs: quote!(#[doc(hidden)]),
            sig,
            form: dispatch::HookForm::Wrap(quote!(Self)),
            arms,
        };
        let dispatched = dispatch::items(&dispatch::Dispatch {
            backends,
            gated: dispatch::Gated::Return,
            // The products have one function each (the 32-bit one chooses by `cfg`).
            ops: vec![],
            backend_docs: vec![backend_doc],
            backend_attrs: quote!(),
            hooks: vec![
                hook(
                    &[
                        " Test hook: `self · rhs` by the named backend, or `None` when this build or CPU",
                        " cannot run it. Not a stable API.",
                    ],
                    quote!(pub fn __mul_with_backend(&self, rhs: &Self, backend: &str) -> ::core::option::Option<Self>),
                    mul_arms,
                ),
                hook(
                    &[" Test hook: `self²` by the named backend, or `None`. Not a stable API."],
                    quote!(pub fn __square_with_backend(&self, backend: &str) -> ::core::option::Option<Self>),
                    square_arms,
                ),
            ],
        });
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

            #dispatched
        };
    }
    let arm = quote!(clmul_aarch64);
    let (mul_arm, _) = karatsuba_body(c, &arm);
    let sq_arm = square_clmul_body(c, &arm);
    let x86_kernels = crate::binary::x86::kernels(s);
    let safety = |text: &str| {
        let text = format!(" SAFETY: {text}");
        quote!(#[doc = #text])
    };
    let s_feature = safety("x86_64_clmul_available() is true only when the CPU has PCLMULQDQ and SSSE3 (the build enables the target features, or CPUID reported them); SSE2 is part of x86-64.");
    let s_pmull = safety("this code is compiled only when the build enables the `aes` target feature (which implies `neon`), so PMULL is present.");
    let has_matrices = !crate::binary::multisquare::matrix_runs(s, target).is_empty();
    let matrix_items = crate::binary::multisquare::items(s, target);
    let bmi2_items = crate::binary::bmi2::items(s, target);
    let pdep = crate::binary::bmi2::squares_with_pdep(s, target);
    let xmm = crate::binary::x86::xmm_reduction(s);
    let s_bmi2 = safety("x86_64_bmi2_available() is true only when CPUID reported BMI2.");
    let clmul_available = dispatch::cpu_check(
        &[
            " Whether PCLMULQDQ (and SSSE3, whose byte shuffle spreads the bits of a square) can",
            " run: always when the build enables both target features, else as CPUID reports",
            " (CPUID.(EAX=1):ECX bits 1 and 9, read once per program).",
        ],
        "x86_64_clmul_available",
        &["pclmulqdq", "ssse3"],
        "clmul",
    );
    // Backends in order of preference; AVX-512 and BMI2 serve only some squarings, so
    // `backend()` (the backend of the product) never names them.
    let (pmull, avx512, bmi2, clmul, portable) = (0, 1, 2, 3, 4);
    let backend = |name: &str, gate: TokenStream, detect| dispatch::Backend {
        name: name.to_string(),
        gate: Some(gate),
        detect,
    };
    let x86 = quote!(target_arch = "x86_64");
    let backends = vec![
        backend(
            "aarch64-pmull",
            quote!(all(target_arch = "aarch64", target_feature = "aes")),
            dispatch::Detect::Build,
        ),
        backend(
            "x86_64-avx512",
            x86.clone(),
            dispatch::Detect::Cpu {
                check: "x86_64_avx512_available",
            },
        ),
        backend(
            "x86_64-bmi2",
            x86.clone(),
            dispatch::Detect::Cpu {
                check: "x86_64_bmi2_available",
            },
        ),
        backend(
            "x86_64-clmul",
            x86,
            dispatch::Detect::Cpu {
                check: "x86_64_clmul_available",
            },
        ),
        dispatch::Backend {
            name: "portable64".to_string(),
            gate: None,
            detect: dispatch::Detect::Build,
        },
    ];
    let expr = |e: TokenStream| Some(dispatch::Call::Expr(e));
    let feature = |e: TokenStream| {
        Some(dispatch::Call::Unsafe {
            note: s_feature.clone(),
            expr: e,
        })
    };
    let with_bmi2 = |e: TokenStream| {
        pdep.then(|| dispatch::Call::Unsafe {
            note: s_bmi2.clone(),
            expr: e,
        })
    };
    // One dispatching function: `calls` by backend index.
    let op = |docs: &[&str],
              attrs: TokenStream,
              sig: TokenStream,
              calls: Vec<(usize, Option<dispatch::Call>)>| {
        let mut per = vec![None; backends.len()];
        for (b, c) in calls {
            per[b] = c;
        }
        dispatch::Op {
            docs: docs.iter().map(|d| d.to_string()).collect(),
            attrs,
            sig,
            args: quote!(),
            calls: per,
        }
    };
    let hot = quote! {
        #[inline(always)]
        #[allow(unreachable_code, unused_doc_comments)]
    };
    let chain = quote! {
        #[inline]
        #[allow(unreachable_code, unused_doc_comments)]
    };
    let mut ops = vec![
        op(
            &[" a·b mod f (n words) by the preferred backend this build and CPU can run."],
            hot.clone(),
            quote!(fn mul_words(a: &[u64; #n], b: &[u64; #n]) -> [u64; #n]),
            vec![
                (pmull, expr(quote!(Self::reduce(&Self::mul_wide_aarch64_pmull(a, b))))),
                (clmul, feature(quote!(Self::mul_x86_64_clmul(a, b)))),
                (portable, expr(quote!(Self::reduce(&Self::mul_wide_portable(a, b))))),
            ],
        ),
        op(
            &[" a² mod f (n words) by the preferred backend this build and CPU can run."],
            hot.clone(),
            quote!(fn square_words(a: &[u64; #n]) -> [u64; #n]),
            vec![
                (pmull, expr(quote!(Self::reduce(&Self::square_wide_aarch64_pmull(a))))),
                (bmi2, with_bmi2(quote!(Self::square_x86_64_bmi2(a)))),
                (clmul, feature(quote!(Self::square_x86_64_clmul(a)))),
                (portable, expr(quote!(Self::reduce(&Self::square_wide_portable(a))))),
            ],
        ),
        op(
            &[
                " a^(2^k) mod f (n words): on x86-64 with AVX-512F, the multi-squaring matrices for",
                " the longest runs that fit, then the rest as `square_n_chain_words`.",
            ],
            chain.clone(),
            quote!(fn square_n_words(a: &[u64; #n], k: u32) -> [u64; #n]),
            vec![
                (
                    avx512,
                    has_matrices.then(|| {
                        dispatch::Call::Stmts(quote! {
                            let (x, rest) = Self::multi_square_x86_64_avx512_words(a, k);
                            return Self::square_n_chain_words(&x, rest);
                        })
                    }),
                ),
                (portable, expr(quote!(Self::square_n_chain_words(a, k)))),
            ],
        ),
        op(
            &[
                " a^(2^k) mod f (n words): k squarings by the preferred backend (on x86-64 with the",
                " value kept in XMM registers throughout when the reduction runs there).",
            ],
            chain,
            quote!(fn square_n_chain_words(a: &[u64; #n], k: u32) -> [u64; #n]),
            vec![
                (bmi2, with_bmi2(quote!(Self::square_n_x86_64_bmi2(a, k)))),
                (clmul, if xmm { feature(quote!(Self::square_n_x86_64_clmul(a, k))) } else { None }),
                (
                    portable,
                    Some(dispatch::Call::Stmts(quote! {
                        let mut x = *a;
                        let mut i = 0;
                        while i < k {
                            x = Self::square_words(&x);
                            i += 1;
                        }
                        x
                    })),
                ),
            ],
        ),
    ];
    if barrett {
        ops.push(op(
            &[" The double-length product for Barrett reduction, by the preferred backend."],
            hot,
            quote!(fn mul_wide(a: &[u64; #n], b: &[u64; #n]) -> [u64; #n2]),
            vec![
                (pmull, expr(quote!(Self::mul_wide_aarch64_pmull(a, b)))),
                (clmul, feature(quote!(Self::mul_wide_x86_64_clmul(a, b)))),
                (portable, expr(quote!(Self::mul_wide_portable(a, b)))),
            ],
        ));
    }
    let hook = |docs: &[&str], sig: TokenStream, arms: Vec<(usize, Option<dispatch::Call>)>| {
        dispatch::Hook {
            docs: docs.iter().map(|d| d.to_string()).collect(),
            attrs: quote! {
                #[doc(hidden)]
                #[allow(unused_doc_comments)]
            },
            sig,
            form: dispatch::HookForm::Words(quote!([u64; #n])),
            arms: arms
                .into_iter()
                .filter_map(|(b, c)| c.map(|c| (b, c)))
                .collect(),
        }
    };
    let hooks = vec![
        hook(
            &[
                " Test hook: `self · rhs` by the named backend, or `None` when this build or CPU",
                " cannot run it. Not a stable API.",
            ],
            quote!(pub fn __mul_with_backend(&self, rhs: &Self, backend: &str) -> ::core::option::Option<Self>),
            vec![
                (
                    portable,
                    expr(quote!(Self::reduce(&Self::mul_wide_portable(
                        &self.0, &rhs.0
                    )))),
                ),
                (
                    clmul,
                    feature(quote!(Self::mul_x86_64_clmul(&self.0, &rhs.0))),
                ),
                (
                    pmull,
                    expr(quote!(Self::reduce(&Self::mul_wide_aarch64_pmull(
                        &self.0, &rhs.0
                    )))),
                ),
            ],
        ),
        hook(
            &[" Test hook: `self²` by the named backend, or `None`. Not a stable API."],
            quote!(pub fn __square_with_backend(&self, backend: &str) -> ::core::option::Option<Self>),
            vec![
                (
                    portable,
                    expr(quote!(Self::reduce(&Self::square_wide_portable(&self.0)))),
                ),
                (clmul, feature(quote!(Self::square_x86_64_clmul(&self.0)))),
                (bmi2, with_bmi2(quote!(Self::square_x86_64_bmi2(&self.0)))),
                (
                    pmull,
                    expr(quote!(Self::reduce(&Self::square_wide_aarch64_pmull(
                        &self.0
                    )))),
                ),
            ],
        ),
    ];
    let dispatched = dispatch::items(&dispatch::Dispatch {
        backends,
        gated: dispatch::Gated::Return,
        ops,
        backend_docs: vec![
            " The backend of the carry-less products in use: `x86_64-clmul` (PCLMULQDQ),".into(),
            " `aarch64-pmull` (PMULL, when the build enables the `aes` target feature) or".into(),
            " `portable64` (Karatsuba over integer multiplication with holes).".into(),
        ],
        backend_attrs: quote!(#[allow(unreachable_code)]),
        hooks,
    });
    quote! {
        #x86_kernels

        #bmi2_items

        #matrix_items

        #clmul_available

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

        #dispatched
    }
}
