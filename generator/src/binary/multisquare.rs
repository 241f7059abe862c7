//! Multi-squaring by a precomputed bit matrix on x86-64 with AVX-512F.
//!
//! x ↦ x^(2^k) mod f is GF(2)-linear, so a run of k squarings is one product of an m×m bit
//! matrix with the bit vector of x: column i is x^(i·2^k) mod f (J. W. Bos, T. Kleinjung,
//! R. Niederhagen, P. Schwabe, "ECC2K-130 on Cell CPUs", AFRICACRYPT 2010, multi-squaring;
//! N. Taverne, A. Faz-Hernández, D. F. Aranha, F. Rodríguez-Henríquez, D. Hankerson,
//! J. López, "Speeding scalar multiplication over binary elliptic curves using the new carry-less
//! multiplication instruction", J. Cryptographic Engineering 1 (2011), §3, use the same map with
//! tables indexed by 4-bit chunks of x).
//!
//! A table index would depend on the secret x, so the product here is a masked accumulation
//! instead: for each byte s of x, the eight columns 8s..8s+7 of word t of the matrix are stored
//! as one 512-bit vector, and `acc_t ^= cols & mask` with the byte of x as the AVX-512 lane
//! mask (`vpxorq zmm{k}`), so every column is loaded for every x and only lane masks depend on
//! x. A horizontal xor of each `acc_t` gives word t of x^(2^k). Cost: ⌈m/8⌉·n masked xors.
//!
//! Which runs of the Itoh–Tsujii chain get a matrix is decided from timings of this kernel and
//! of the XMM squaring chain on an AVX-512 Xeon (see [`matrix_runs`]).

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote};

use super::{BinarySpec, BinaryTarget, ChainStep, Poly};

/// Largest degree given matrices: one matrix takes ⌈m/8⌉·8·n words (41 KiB at m = 571), and
/// the committed presets end at 571.
pub const MAX_MATRIX_DEGREE: usize = 640;

/// At most this many matrices per field, the longest runs first.
pub const MAX_MATRICES: usize = 4;

/// The run lengths k (distinct, descending) of the chain's doubling steps that get a matrix
/// (none for 32-bit words or a portable target).
///
/// A matrix costs about ⌈m/8⌉·n/2 cycles (two 64-byte loads per cycle), a squaring in XMM
/// registers about 1.5·n + 12 cycles of latency; measured on the bench machine, the matrix wins
/// from k ≈ m/16 (sect283: k ≥ 17; sect571: k ≥ 35). Runs below `max(8, m / 16)` keep the
/// squaring loop.
pub fn matrix_runs(s: &BinarySpec, target: BinaryTarget) -> Vec<usize> {
    if s.w != 64 || target != BinaryTarget::Auto || s.m > MAX_MATRIX_DEGREE {
        return Vec::new();
    }
    let threshold = (s.m / 16).max(8);
    let mut ks: Vec<usize> = s
        .chain
        .iter()
        .filter_map(|c| match c {
            ChainStep::Double(k) if *k >= threshold => Some(*k),
            _ => None,
        })
        .collect();
    ks.sort_unstable_by(|a, b| b.cmp(a));
    ks.dedup();
    ks.truncate(MAX_MATRICES);
    ks
}

/// The matrix of x ↦ x^(2^k) mod f in the kernel's layout: entry ((s·n + t)·8 + j) is word t of
/// column 8s + j (x^((8s+j)·2^k) mod f; zero for 8s + j ≥ m).
pub fn matrix_words(s: &BinarySpec, k: usize) -> Vec<u64> {
    let (m, n) = (s.m, s.n);
    let bytes = m.div_ceil(8);
    let y = Poly::monomial(1).square_n_mod(k, &s.poly);
    let mut col = Poly::one();
    let mut out = vec![0u64; bytes * 8 * n];
    for i in 0..m {
        let words = col.to_words(64, n);
        let (sb, j) = (i / 8, i % 8);
        for (t, w) in words.iter().enumerate() {
            out[(sb * n + t) * 8 + j] = *w;
        }
        col = col.mulmod(&y, &s.poly);
    }
    out
}

fn hex(v: u64) -> TokenStream {
    let l = syn::LitInt::new(&format!("{v:#018x}"), Span::call_site());
    quote!(#l)
}

/// The public items every field carries: `MULTI_SQUARE_RUNS` (empty without matrices),
/// `square_n_backend()` and the test hook `__square_n_with_backend`.
pub fn public_items(s: &BinarySpec, target: BinaryTarget) -> TokenStream {
    let runs = matrix_runs(s, target);
    let runs_lits = runs.iter().map(|&k| Literal::u32_unsuffixed(k as u32));
    let nruns = Literal::usize_unsuffixed(runs.len());
    let (backend_body, hook) = if runs.is_empty() {
        (quote!(Self::backend()), quote!())
    } else {
        (
            quote! {
                #[cfg(target_arch = "x86_64")]
                {
                    if Self::x86_64_avx512_available() {
                        return "x86_64-avx512-matrix";
                    }
                }
                Self::backend()
            },
            quote! {
                #[cfg(target_arch = "x86_64")]
                "x86_64-avx512-matrix" if Self::x86_64_avx512_available() => {
                    let (x, rest) = Self::multi_square_x86_64_avx512_words(&self.0, k);
                    Self::square_n_chain_words(&x, rest)
                }
            },
        )
    };
    quote! {
        /// Run lengths k of x ↦ x^(2^k) that have a precomputed bit matrix for the x86-64
        /// AVX-512F multi-squaring kernel, longest first (empty when the field has none).
        /// `square_n` covers k with them, longest first, when the CPU has AVX-512F. Not a
        /// stable API.
        #[doc(hidden)]
        pub const MULTI_SQUARE_RUNS: [u32; #nruns] = [#(#runs_lits),*];

        /// What `square_n(k)` runs for k at least the shortest of `MULTI_SQUARE_RUNS`:
        /// `x86_64-avx512-matrix` (bit-matrix products, then squarings) when the field has
        /// matrices and the CPU AVX-512F, else squarings by `backend()`.
        #[allow(unreachable_code)]
        pub fn square_n_backend() -> &'static str {
            #backend_body
        }

        /// Test hook: self^(2^k) by `x86_64-avx512-matrix` (matrices, then squarings) or
        /// `squarings` (k squarings by the product backend), or `None` when this build or CPU
        /// cannot run it. Not a stable API.
        #[doc(hidden)]
        pub fn __square_n_with_backend(&self, k: u32, backend: &str) -> ::core::option::Option<Self> {
            let r = match backend {
                "squarings" => Self::square_n_chain_words(&self.0, k),
                #hook
                _ => return ::core::option::Option::None,
            };
            ::core::option::Option::Some(Self(r))
        }
    }
}

/// The items: the kernel, the AVX-512F check, and `multi_square_x86_64_avx512_words` (the greedy
/// cover of k by the matrices). Empty when the field has no matrices.
pub fn items(s: &BinarySpec, target: BinaryTarget) -> TokenStream {
    let runs = matrix_runs(s, target);
    if runs.is_empty() {
        return quote!();
    }
    let n = s.n;
    let nl = Literal::usize_unsuffixed(n);
    let bytes = s.m.div_ceil(8);
    let len = Literal::usize_unsuffixed(bytes * 8 * n);
    let arch = |name: &str| {
        let id = format_ident!("{}", name);
        quote!(::core::arch::x86_64::#id)
    };
    let (zero, mxor, load) = (
        arch("_mm512_setzero_si512"),
        arch("_mm512_mask_xor_epi64"),
        arch("_mm512_loadu_si512"),
    );
    let accs: Vec<_> = (0..n).map(|t| format_ident!("acc{}", t)).collect();
    // One byte of x: its mask, then one masked xor per word t of the eight columns.
    let byte_steps = |word: TokenStream, j: usize, base: TokenStream| {
        let sh = Literal::u32_unsuffixed(8 * j as u32);
        let xors = (0..n).map(|t| {
            let acc = &accs[t];
            let off = Literal::usize_unsuffixed((j * n + t) * 8);
            quote!(#acc = #mxor(#acc, k, #acc, #load(#base.add(#off).cast()));)
        });
        quote! {
            let k = (#word >> #sh) as u8;
            #(#xors)*
        }
    };
    let full = bytes / 8;
    let fl = Literal::usize_unsuffixed(full);
    let word_stride = Literal::usize_unsuffixed(64 * n);
    let body = (0..8).map(|j| byte_steps(quote!(x), j, quote!(p)));
    let full_loop = if full == 0 {
        quote!()
    } else {
        quote! {
            let mut w = 0usize;
            while w < #fl {
                let x = a[w];
                /// SAFETY: bytes 8w..8w+7 of x use words (8w·n .. (8w + 8)·n)·8 of `mat`,
                /// inside it for w < ⌊m/64⌋ (the full words of x).
                let p = unsafe { mat.as_ptr().add(w * #word_stride) };
                unsafe {
                    #(#body)*
                }
                w += 1;
            }
        }
    };
    let tail_bytes = bytes % 8;
    let tail = if tail_bytes == 0 {
        quote!()
    } else {
        let steps = (0..tail_bytes).map(|j| byte_steps(quote!(x), j, quote!(p)));
        let woff = Literal::usize_unsuffixed(full * 64 * n);
        quote! {
            let x = a[#fl];
            /// SAFETY: the remaining bytes of x, whose blocks end at `mat.len()`.
            let p = unsafe { mat.as_ptr().add(#woff) };
            unsafe {
                #(#steps)*
            }
        }
    };
    let outs = accs.iter().map(|a| quote!(Self::hxor_x86_64_avx512(#a)));
    let statics: Vec<TokenStream> = runs
        .iter()
        .map(|&k| {
            let id = format_ident!("MULTI_SQUARE_{}", k);
            let words = matrix_words(s, k).into_iter().map(hex);
            let doc = format!(
                " The bit matrix of x ↦ x^(2^{k}) mod f for `multi_square_x86_64_avx512`: entry (s·n + t)·8 + j is word t of x^((8s + j)·2^{k}) mod f."
            );
            quote! {
                #[doc = #doc]
                static #id: Matrix = Matrix([#(#words),*]);
            }
        })
        .collect();
    let safety = quote!(#[doc = " SAFETY: called only after `x86_64_avx512_available()`."]);
    let covers = runs.iter().map(|&k| {
        let id = format_ident!("MULTI_SQUARE_{}", k);
        let kl = Literal::u32_unsuffixed(k as u32);
        quote! {
            while k >= #kl {
                #safety
                let next = unsafe { Self::multi_square_x86_64_avx512(&x, &#id.0) };
                x = next;
                k -= #kl;
            }
        }
    });
    let runs_doc = runs
        .iter()
        .map(|k| k.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let cover_doc = format!(
        " a^(2^k'): the matrices for k = {runs_doc}, longest first, as often as they fit in k; returns (a^(2^k'), k − k'). Only when `x86_64_avx512_available()`."
    );
    quote! {
        /// x^(2^k) mod f by one bit-matrix product: for each byte s of x (public index), the
        /// eight columns of each word t are xored into `acc_t` under the lane mask given by
        /// that byte, so no branch or address depends on x; then a horizontal xor per word.
        /// The eight bytes of a word of x are written out (one loop iteration per word, the
        /// masks shifted out of the word, which LLVM turns into one `kmovq` and `kshiftrq`s):
        /// the per-byte loop ran at 0.6× the speed.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[target_feature(enable = "avx512f")]
        #[allow(unused_unsafe, unused_doc_comments)]
        unsafe fn multi_square_x86_64_avx512(a: &[u64; #nl], mat: &[u64; #len]) -> [u64; #nl] {
            #(let mut #accs = #zero();)*
            #full_loop
            #tail
            [#(#outs),*]
        }

        /// The xor of the eight 64-bit lanes of v.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[target_feature(enable = "avx512f")]
        fn hxor_x86_64_avx512(v: ::core::arch::x86_64::__m512i) -> u64 {
            use ::core::arch::x86_64::*;
            let h = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
            let q = _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256::<1>(h));
            _mm_cvtsi128_si64(_mm_xor_si128(q, _mm_unpackhi_epi64(q, q))) as u64
        }

        #[doc = #cover_doc]
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[allow(unused_unsafe, unused_doc_comments)]
        fn multi_square_x86_64_avx512_words(a: &[u64; #nl], k: u32) -> ([u64; #nl], u32) {
            /// A matrix aligned to the cache line, so that no 64-byte load splits across two
            /// lines (split loads halved the kernel's throughput).
            #[repr(C, align(64))]
            struct Matrix([u64; #len]);
            #(#statics)*
            let (mut x, mut k) = (*a, k);
            #(#covers)*
            (x, k)
        }

        /// Whether AVX-512F can run: always when the build enables the `avx512f` target feature,
        /// else as CPUID and XCR0 report (read once).
        #[cfg(target_arch = "x86_64")]
        #[inline(always)]
        fn x86_64_avx512_available() -> bool {
            #[cfg(target_feature = "avx512f")]
            {
                true
            }
            #[cfg(not(target_feature = "avx512f"))]
            {
                Self::x86_64_avx512_detected()
            }
        }

        /// CPUID.(EAX=7,ECX=0):EBX bit 16 (AVX512F) with the OS saving the opmask and ZMM state
        /// (CPUID.1:ECX.OSXSAVE and XCR0 bits 1, 2, 5, 6, 7), read once and cached: 0 = not read
        /// yet, 1 = absent, 2 = present.
        #[cfg(all(target_arch = "x86_64", not(target_feature = "avx512f")))]
        #[inline]
        #[allow(unused_doc_comments, unused_unsafe)]
        fn x86_64_avx512_detected() -> bool {
            static STATE: ::core::sync::atomic::AtomicU8 = ::core::sync::atomic::AtomicU8::new(0);
            let state = STATE.load(::core::sync::atomic::Ordering::Relaxed);
            if state != 0 {
                return state == 2;
            }
            /// SAFETY: CPUID exists on every x86-64 processor; leaves 0 and 1 always exist and
            /// leaf 7 is read only when leaf 0 reports it; XGETBV runs only when OSXSAVE is set.
            let present = unsafe {
                let max = ::core::arch::x86_64::__cpuid(0).eax;
                let osxsave = ::core::arch::x86_64::__cpuid(1).ecx & (1 << 27) != 0;
                max >= 7
                    && osxsave
                    && Self::xcr0_x86_64() & 0xe6 == 0xe6
                    && ::core::arch::x86_64::__cpuid_count(7, 0).ebx & (1 << 16) != 0
            };
            STATE.store(if present { 2 } else { 1 }, ::core::sync::atomic::Ordering::Relaxed);
            present
        }

        /// XCR0 (XGETBV with ECX = 0). SAFETY: the caller checked CPUID.1:ECX.OSXSAVE.
        #[cfg(all(target_arch = "x86_64", not(target_feature = "avx512f")))]
        #[inline]
        #[target_feature(enable = "xsave")]
        #[allow(unused_unsafe)]
        unsafe fn xcr0_x86_64() -> u64 {
            unsafe { ::core::arch::x86_64::_xgetbv(0) }
        }
    }
}
