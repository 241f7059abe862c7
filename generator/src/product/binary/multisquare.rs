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
//! x. A horizontal xor of each `acc_t` gives word t of x^(2^k). Cost: ⌈m/8⌉·n masked xors;
//! with the even/odd split of the larger fields ([`splits`]), 2·⌈⌈m/2⌉/8⌉·n and one
//! multiplication.
//!
//! Which runs of the Itoh–Tsujii chain get a matrix is decided by a cost model from timings of
//! this kernel and of the XMM squaring chain (see [`matrix_runs`]).

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote};

use super::{BinarySpec, BinaryTarget, ChainStep, Poly};

/// Largest degree given matrices: one matrix takes ⌈c/8⌉·8·n words for c columns (m, or
/// ⌈m/2⌉ with the split: 20.3 KiB at m = 571), and the committed presets end at 571.
pub const MAX_MATRIX_DEGREE: usize = 640;

/// At most this many matrices per field, the longest runs first.
pub const MAX_MATRICES: usize = 4;

/// Kernels with at most this many masked xors (⌈m/8⌉·n) loop once per byte of x; larger ones
/// once per word, its eight bytes written out.
pub const BYTE_LOOP_MAX_XORS: usize = 100;

/// L1 data cache the matrices of one field should fit in together: AMD Zen 4's 32 KiB, the
/// smaller of the two bench machines (the AVX-512 Xeon has 48 KiB). On the Zen 4 (EPYC,
/// 2026-12-01) sect283's four matrices (46 KiB) made `invert` 620–664 ns against 549–589 ns with
/// the two (k = 141, 35) chosen for 32 KiB (one-off harness, best of 400 chains of 32,
/// three runs each); sect409, before its matrices were split, went from k = 204, 51 to
/// k = 204, 102, 51 and from 1445–1582 ns to 1355–1498 ns.
pub const L1_BYTES: usize = 32 * 1024;

/// Cost model of [`matrix_runs`], in cycles, calibrated on the 2.9–3.0 GHz AVX-512 Xeon (the
/// interleaved example and one-off kernel timings of 2026-12-01): a product whose matrices all
/// fit in [`L1_BYTES`] costs `0.75·x + 30` for x masked xors (⌈m/8⌉·n; 2·⌈⌈m/2⌉/8⌉·n with the
/// split; measured 152, 269 and 453 cycles at 283, 409 and 571 bits without it); one whose
/// matrices do not, so that each product streams its matrix from L2, `1.4·x + 30` (504 and 885
/// cycles at 409 and 571 bits, four matrices in turn); the split adds its multiplication,
/// [`SPLIT_MUL_CYCLES`] per word; a squaring in XMM registers 21 cycles (measured 12–31 across
/// the presets, 21 at 571 bits). On the Zen 4 the products run 1.2–1.4 times as many cycles
/// (sect283 72 ns, sect571 with the split 193–232 ns at about 3.7 GHz), the same order.
fn product_cycles(s: &BinarySpec, matrices: usize) -> usize {
    let x = matrix_columns(s).div_ceil(8) * s.n * if splits(s) { 2 } else { 1 };
    let base = if matrices * matrix_bytes(s) <= L1_BYTES {
        75 * x / 100 + 30
    } else {
        140 * x / 100 + 30
    };
    base + if splits(s) { SPLIT_MUL_CYCLES * s.n } else { 0 }
}

/// Cycles per word of the multiplication by t^(2^k) that ends a split product (sect409 about 96,
/// sect571 about 118 cycles on the Zen 4).
const SPLIT_MUL_CYCLES: usize = 13;

/// Whether the field's matrices use the even/odd split: x = e(t)² + t·o(t)², where e and o hold
/// the even and odd coefficients of x, so x^(2^k) = e^(2^(k+1)) + t^(2^k)·o^(2^(k+1)). Both
/// terms use one matrix of the ⌈m/2⌉ even columns of the full one (column j = t^(j·2^(k+1))),
/// applied to e and to o in the same pass (each column block loaded once, two masked xors),
/// then one field multiplication by the constant t^(2^k). Half the matrix bytes for one
/// multiplication more: taken where one full matrix fills more than half of [`L1_BYTES`]
/// (sect409, sect571), whose full matrices stream from L2.
pub fn splits(s: &BinarySpec) -> bool {
    s.m.div_ceil(8) * 64 * s.n > L1_BYTES / 2
}

/// Columns of one matrix: m, or ⌈m/2⌉ with the split.
fn matrix_columns(s: &BinarySpec) -> usize {
    if splits(s) {
        s.m.div_ceil(2)
    } else {
        s.m
    }
}

/// Cycles of one squaring in the model of [`product_cycles`].
const SQUARE_CYCLES: usize = 21;

/// Bytes of one matrix: ⌈c/8⌉ blocks of eight columns of n words, c the columns (m, or
/// ⌈m/2⌉ with the split).
pub fn matrix_bytes(s: &BinarySpec) -> usize {
    matrix_columns(s).div_ceil(8) * 64 * s.n
}

/// Modeled cycles of the chain's doubling runs with matrices for `ks` (descending): each run is
/// covered greedily, longest matrix first and as often as it fits, the rest squared.
fn chain_cycles(s: &BinarySpec, ks: &[usize]) -> usize {
    let p = product_cycles(s, ks.len());
    s.chain
        .iter()
        .map(|c| match c {
            ChainStep::Double(k) => {
                let mut r = *k;
                let mut cycles = 0;
                for &kk in ks {
                    cycles += r / kk * p;
                    r %= kk;
                }
                cycles + r * SQUARE_CYCLES
            }
            ChainStep::Increment(_) => 0,
        })
        .sum()
}

/// The runs a matrix may serve: the chain's doubling runs k ≥ max(8, m/16) (below that, k
/// squarings measured no slower than one matrix product), distinct, longest first.
fn matrix_candidates(s: &BinarySpec) -> Vec<usize> {
    let threshold = (s.m / 16).max(8);
    let mut cands: Vec<usize> = s
        .chain
        .iter()
        .filter_map(|c| match c {
            ChainStep::Double(k) if *k >= threshold => Some(*k),
            _ => None,
        })
        .collect();
    cands.sort_unstable_by(|a, b| b.cmp(a));
    cands.dedup();
    cands
}

/// The run lengths k (distinct, descending) that get a matrix (none for 32-bit words or a
/// portable target).
///
/// Candidates are the chain's doubling runs k ≥ max(8, m/16) (below that k squarings beat a
/// product); of their subsets of at most [`MAX_MATRICES`], the one with the least modeled
/// time (`product_cycles`; ties: fewer matrices, then longer runs). The model matters where
/// the matrices outgrow L1: sect283 (11.5 KiB each) gets two, k = 141 and 35 (the run 70 is
/// two products of the 35 one, the run 17 squared), which fit together; sect409 (split, 11.4 KiB
/// each) two, k = 204 and 51 (the run 102 two products of the 51 one); sect571 (split, 20.3 KiB
/// each) k = 285, 142 and 71 from L2, the run 35 squared. The fields up to sect239 keep all
/// four.
pub fn matrix_runs(s: &BinarySpec, target: BinaryTarget) -> Vec<usize> {
    if s.w != 64 || target != BinaryTarget::Auto || s.m > MAX_MATRIX_DEGREE {
        return Vec::new();
    }
    let cands = matrix_candidates(s);
    let mut best: Option<(usize, Vec<usize>)> = None;
    for mask in 1u32..1 << cands.len() {
        if mask.count_ones() as usize > MAX_MATRICES {
            continue;
        }
        let ks: Vec<usize> = (0..cands.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| cands[i])
            .collect();
        let cost = chain_cycles(s, &ks);
        let better = match &best {
            None => true,
            Some((c, b)) => {
                (cost, ks.len()) < (*c, b.len()) || ((cost, ks.len()) == (*c, b.len()) && ks > *b)
            }
        };
        if better {
            best = Some((cost, ks));
        }
    }
    best.map(|(_, ks)| ks).unwrap_or_default()
}

/// The matrix of x ↦ x^(2^k) mod f in the kernel's layout: entry ((s·n + t)·8 + j) is word t of
/// column 8s + j (x^((8s+j)·2^k) mod f; zero for 8s + j ≥ m). With the split ([`splits`]),
/// the ⌈m/2⌉ columns x^((8s+j)·2^(k+1)) mod f.
pub fn matrix_words(s: &BinarySpec, k: usize) -> Vec<u64> {
    let (cols, n) = (matrix_columns(s), s.n);
    let bytes = cols.div_ceil(8);
    let y = Poly::monomial(1).square_n_mod(if splits(s) { k + 1 } else { k }, &s.poly);
    let mut col = Poly::one();
    let mut out = vec![0u64; bytes * 8 * n];
    for i in 0..cols {
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
    let runs_lits = runs.iter().map(|&k| Literal::usize_unsuffixed(k));
    let nruns = Literal::usize_unsuffixed(runs.len());
    let pdep = super::bmi2::squares_with_pdep(s, target);
    let clmul_chain = if super::x86::xmm_reduction(s) {
        quote!(unsafe { Self::square_n_x86_64_clmul(&self.0, k) })
    } else {
        quote! {{
            let mut x = self.0;
            let mut i = 0;
            while i < k {
                /// SAFETY: as above, the CPU has PCLMULQDQ and SSSE3.
                let next = unsafe { Self::square_x86_64_clmul(&x) };
                x = next;
                i += 1;
            }
            x
        }}
    };
    let mut chain_hooks = quote! {
        #[cfg(target_arch = "x86_64")]
        "x86_64-clmul" if Self::x86_64_clmul_available() => {
            /// SAFETY: x86_64_clmul_available() is true only when the CPU has PCLMULQDQ and SSSE3.
            #clmul_chain
        }
    };
    if pdep {
        chain_hooks.extend(quote! {
            #[cfg(target_arch = "x86_64")]
            "x86_64-bmi2" if Self::x86_64_bmi2_available() => {
                /// SAFETY: x86_64_bmi2_available() is true only when CPUID reported BMI2.
                unsafe { Self::square_n_x86_64_bmi2(&self.0, k) }
            }
        });
    }
    // The hardware squarings exist only in 64-bit modules with hardware products.
    if s.w != 64 || target != BinaryTarget::Auto {
        chain_hooks = quote!();
    }
    // What `square_n_backend()` reports: the matrices where the field has them and the CPU
    // AVX-512F, PDEP where the field and CPU allow, else the product's backend.
    let x86 = |name: &str, check| crate::api::dispatch::Backend {
        name: name.to_string(),
        gate: Some(quote!(target_arch = "x86_64")),
        detect: crate::api::dispatch::Detect::Cpu { check },
    };
    let mut backends = Vec::new();
    if !runs.is_empty() {
        backends.push(x86("x86_64-avx512-matrix", "x86_64_avx512_available"));
    }
    if pdep {
        backends.push(x86("x86_64-bmi2", "x86_64_bmi2_available"));
    }
    let named: Vec<(usize, crate::api::dispatch::Call)> = backends
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let name = &b.name;
            (i, crate::api::dispatch::Call::Expr(quote!(#name)))
        })
        .chain([(
            backends.len(),
            crate::api::dispatch::Call::Expr(quote!(Self::backend())),
        )])
        .collect();
    backends.push(crate::api::dispatch::Backend {
        name: "product".to_string(),
        gate: None,
        detect: crate::api::dispatch::Detect::Build,
    });
    let backend_body = crate::api::dispatch::Dispatch {
        backends,
        gated: crate::api::dispatch::Gated::Return,
        ops: vec![],
        backend_docs: vec![],
        backend_attrs: quote!(),
        hooks: vec![],
    }
    .select(&named, &quote!());
    let hook = if runs.is_empty() {
        quote!()
    } else {
        quote! {
            #[cfg(target_arch = "x86_64")]
            "x86_64-avx512-matrix" if Self::x86_64_avx512_available() => {
                let (x, rest) = Self::multi_square_x86_64_avx512_words(&self.0, k);
                Self::square_n_chain_words(&x, rest)
            }
        }
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
        /// matrices and the CPU AVX-512F, else the squarings' backend: `x86_64-bmi2` (PDEP,
        /// see `__square_with_backend`) where the field and CPU allow, else `backend()`.
        #[allow(unreachable_code)]
        pub fn square_n_backend() -> &'static str {
            #backend_body
        }

        /// Test hook: self^(2^k) by `x86_64-avx512-matrix` (matrices, then squarings),
        /// `squarings` (k squarings by the preferred squaring), or k squarings by
        /// `x86_64-clmul` or `x86_64-bmi2`; `None` when this build or CPU cannot run it. Not a
        /// stable API.
        #[doc(hidden)]
        #[allow(unused_doc_comments, unused_unsafe)]
        pub fn __square_n_with_backend(&self, k: u32, backend: &str) -> ::core::option::Option<Self> {
            let r = match backend {
                "squarings" => Self::square_n_chain_words(&self.0, k),
                #chain_hooks
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
    let split = splits(s);
    let bytes = matrix_columns(s).div_ceil(8);
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
    let odd_accs: Vec<_> = (0..n).map(|t| format_ident!("odd{}", t)).collect();
    // One byte of x (with the split: of e and of o): its mask, then one masked xor per word t
    // of the eight columns (with the split, two: the column block is loaded once).
    let byte_steps = |word: TokenStream, j: usize, base: TokenStream| {
        let sh = Literal::usize_unsuffixed(8 * j);
        let sh_is_zero = j == 0;
        let xors = (0..n).map(|t| {
            let acc = &accs[t];
            let off = Literal::usize_unsuffixed((j * n + t) * 8);
            if split {
                // Written as `vpxorq zmm{k}` in `asm!`: as intrinsics, LLVM turns the two masked
                // xors of one column block into zero-masked moves and plain xors and, with the
                // 18 accumulators of sect571, spills them (one product 392 → 164 ns).
                let odd = &odd_accs[t];
                let ins = "vpxorq {a}{{{k}}}, {a}, {c}";
                quote! {
                    let col = #load(#base.add(#off).cast());
                    ::core::arch::asm!(#ins, a = inout(zmm_reg) #acc, k = in(kreg) k, c = in(zmm_reg) col, options(pure, nomem, nostack, preserves_flags));
                    ::core::arch::asm!(#ins, a = inout(zmm_reg) #odd, k = in(kreg) ko, c = in(zmm_reg) col, options(pure, nomem, nostack, preserves_flags));
                }
            } else {
                quote!(#acc = #mxor(#acc, k, #acc, #load(#base.add(#off).cast()));)
            }
        });
        // Byte `sh / 8` of the word (no `>> 0` for the first).
        let byte = |src: TokenStream| {
            if sh_is_zero {
                quote!(#src as u8)
            } else {
                quote!((#src >> #sh) as u8)
            }
        };
        let odd_mask = if split {
            let b = byte(quote!(xo));
            quote!(let ko = #b;)
        } else {
            quote!()
        };
        let k_byte = byte(quote!(#word));
        quote! {
            let k = #k_byte;
            #odd_mask
            #(#xors)*
        }
    };
    // The words whose bytes mask the columns: a itself, or e and o.
    let (src, odd_src) = if split {
        (quote!(e), quote!(let xo = o[w];))
    } else {
        (quote!(a), quote!())
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
                let x = #src[w];
                #odd_src
                /// SAFETY: bytes 8w..8w+7 of x use words (8w·n .. (8w + 8)·n)·8 of `mat`,
                /// inside it for w < ⌊⌈c/8⌉/8⌋, c the matrix's columns (the full words of x, or
                /// of e and o with the split, whose `asm!` blocks are register-only masked xors
                /// under the AVX-512F the caller guarantees).
                let p = unsafe { mat.as_ptr().add(w * #word_stride) };
                /// SAFETY: every load reads eight words at p + 8(j·n + t) for byte j < 8 and
                /// word t < n, inside the block of `mat` named above; the masked xors need only
                /// the AVX-512F the caller guarantees.
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
        let odd_tail = if split {
            quote!(let xo = o[#fl];)
        } else {
            quote!()
        };
        quote! {
            let x = #src[#fl];
            #odd_tail
            /// SAFETY: the remaining bytes of x (or of e and o), whose blocks end at
            /// `mat.len()`; the split's `asm!` blocks as above.
            let p = unsafe { mat.as_ptr().add(#woff) };
            /// SAFETY: every load reads eight words at p + 8(j·n + t) for the remaining bytes j
            /// and word t < n, inside `mat`; the masked xors need only the AVX-512F the caller
            /// guarantees.
            unsafe {
                #(#steps)*
            }
        }
    };
    // Small matrices (at most BYTE_LOOP_MAX_XORS masked xors: sect163, sect193) keep one loop
    // iteration per byte of x; there the written-out words measured slower (sect193's
    // inversion 303 → 320 ns), above it faster (sect283 502 → 479 ns, sect239 683 → 600 ns).
    let products = if !split && bytes * n <= BYTE_LOOP_MAX_XORS {
        let bl = Literal::usize_unsuffixed(bytes);
        let row = if n == 1 {
            quote!(s * 8)
        } else {
            quote!(s * 8 * #nl)
        };
        let steps = (0..n).map(|t| {
            let acc = &accs[t];
            let off = Literal::usize_unsuffixed(8 * t);
            quote!(#acc = #mxor(#acc, k, #acc, #load(p.add(#off).cast()));)
        });
        quote! {
            let mut s = 0usize;
            while s < #bl {
                let k = (a[s / 8] >> (8 * (s % 8))) as u8;
                /// SAFETY: (s·n + t)·8 + 8 ≤ ⌈m/8⌉·8·n = mat.len() for s < ⌈m/8⌉, t < n.
                let p = unsafe { mat.as_ptr().add(#row) };
                /// SAFETY: the loads read eight words at p + 8t, t < n, inside `mat` by the
                /// bound above; the masked xors need only the AVX-512F the caller guarantees.
                unsafe {
                    #(#steps)*
                }
                s += 1;
            }
        }
    } else {
        quote! {
            #full_loop
            #tail
        }
    };
    let statics: Vec<TokenStream> = runs
        .iter()
        .map(|&k| {
            let id = format_ident!("MULTI_SQUARE_{}", k);
            let words = matrix_words(s, k).into_iter().map(hex);
            if split {
                let cid = format_ident!("MULTI_SQUARE_C_{}", k);
                let c = Poly::monomial(1).square_n_mod(k, &s.poly).to_words(64, n);
                let cw = c.into_iter().map(hex);
                let doc = format!(
                    " The bit matrix of y ↦ y^(2^{}) mod f on the ⌈m/2⌉-bit y for `multi_square_x86_64_avx512` (x^(2^{k}) by the even/odd split): entry (s·n + t)·8 + j is word t of x^((8s + j)·2^{}) mod f.",
                    k + 1,
                    k + 1
                );
                let cdoc = format!(" x^(2^{k}) mod f, the factor of the odd coefficients' term.");
                quote! {
                    #[doc = #doc]
                    static #id: Matrix = Matrix([#(#words),*]);
                    #[doc = #cdoc]
                    const #cid: [u64; #nl] = [#(#cw),*];
                }
            } else {
                let doc = format!(
                    " The bit matrix of x ↦ x^(2^{k}) mod f for `multi_square_x86_64_avx512`: entry (s·n + t)·8 + j is word t of x^((8s + j)·2^{k}) mod f."
                );
                quote! {
                    #[doc = #doc]
                    static #id: Matrix = Matrix([#(#words),*]);
                }
            }
        })
        .collect();
    let safety = quote!(#[doc = " SAFETY: called only after `x86_64_avx512_available()`."]);
    let covers = runs.iter().map(|&k| {
        let id = format_ident!("MULTI_SQUARE_{}", k);
        let kl = Literal::usize_unsuffixed(k);
        let call = if split {
            let cid = format_ident!("MULTI_SQUARE_C_{}", k);
            quote!(Self::multi_square_x86_64_avx512(&x, &#id.0, &#cid))
        } else {
            quote!(Self::multi_square_x86_64_avx512(&x, &#id.0))
        };
        quote! {
            while k >= #kl {
                #safety
                let next = unsafe { #call };
                x = next;
                k -= #kl;
            }
        }
    });
    let kernel = if split {
        let he = Literal::usize_unsuffixed(s.m.div_ceil(2).div_ceil(64));
        let spread = (0..n).map(|i| {
            let il = Literal::usize_unsuffixed(i);
            let wl = Literal::usize_unsuffixed(i / 2);
            let sh = Literal::usize_unsuffixed(32 * (i % 2));
            let pext = |mask: TokenStream| {
                let e = quote!(::core::arch::x86_64::_pext_u64(a[#il], #mask));
                if i % 2 == 0 {
                    e
                } else {
                    quote!(#e << #sh)
                }
            };
            let (pe, po) = (
                pext(quote!(0x5555_5555_5555_5555)),
                pext(quote!(0xaaaa_aaaa_aaaa_aaaa)),
            );
            quote! {
                e[#wl] |= #pe;
                o[#wl] |= #po;
            }
        });
        let even = accs.iter().map(|a| quote!(Self::hxor_x86_64_avx512(#a)));
        let odd = odd_accs
            .iter()
            .map(|a| quote!(Self::hxor_x86_64_avx512(#a)));
        let outs = (0..n).map(|t| {
            let tl = Literal::usize_unsuffixed(t);
            quote!(ye[#tl] ^ z[#tl])
        });
        quote! {
            /// x^(2^k) mod f by the even/odd split (see the matrix's doc): e and o from the
            /// even and odd bits of x (`PEXT`, fixed latency on every CPU with AVX-512F), one pass
            /// over the ⌈m/2⌉ columns with two masked xors per column block (byte s of e and of
            /// o as lane masks: no branch or address depends on x), a horizontal xor per word,
            /// then M·e + c·(M·o) with c = x^(2^k) mod f.
            #[cfg(target_arch = "x86_64")]
            #[inline]
            #[target_feature(enable = "avx512f,bmi2")]
            #[allow(unused_unsafe, unused_doc_comments)]
            unsafe fn multi_square_x86_64_avx512(
                a: &[u64; #nl],
                mat: &[u64; #len],
                c: &[u64; #nl],
            ) -> [u64; #nl] {
                let mut e = [0u64; #he];
                let mut o = [0u64; #he];
                /// SAFETY: `PEXT` on words of a, under the BMI2 the caller guarantees.
                unsafe {
                    #(#spread)*
                }
                #(let mut #accs = #zero();)*
                #(let mut #odd_accs = #zero();)*
                #products
                let ye = [#(#even),*];
                let yo = [#(#odd),*];
                let z = Self::mul_words(&yo, c);
                [#(#outs),*]
            }
        }
    } else {
        let outs = accs.iter().map(|a| quote!(Self::hxor_x86_64_avx512(#a)));
        quote! {
            /// x^(2^k) mod f by one bit-matrix product: for each byte s of x (public index), the
            /// eight columns of each word t are xored into `acc_t` under the lane mask given by
            /// that byte, so no branch or address depends on x; then a horizontal xor per word.
            /// Above `BYTE_LOOP_MAX_XORS` xors the eight bytes of a word of x are written out (one
            /// loop iteration per word, the masks shifted out of the word, which LLVM turns into
            /// one `kmovq` and `kshiftrq`s); there the per-byte loop ran at 0.6× the speed.
            #[cfg(target_arch = "x86_64")]
            #[inline]
            #[target_feature(enable = "avx512f")]
            #[allow(unused_unsafe, unused_doc_comments)]
            unsafe fn multi_square_x86_64_avx512(a: &[u64; #nl], mat: &[u64; #len]) -> [u64; #nl] {
                #(let mut #accs = #zero();)*
                #products
                [#(#outs),*]
            }
        }
    };
    let runs_doc = runs
        .iter()
        .map(|k| k.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let cover_doc = format!(
        " a^(2^k'): the matrices for k = {runs_doc}, longest first, as often as they fit in k; returns (a^(2^k'), k − k'). Only when `x86_64_avx512_available()`."
    );
    let available = crate::api::dispatch::cpu_check(
        &[
            " Whether AVX-512F (and BMI2, whose `PEXT` splits x for the larger fields' matrices;",
            " every CPU with AVX-512F has it) can run: always when the build enables both target",
            " features, else as CPUID and XCR0 report (read once per program).",
        ],
        "x86_64_avx512_available",
        &["avx512f", "bmi2"],
        "avx512f_bmi2",
    );
    quote! {
        #kernel

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

        #available
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse_binary_modulus, parse_poly, BINARY_PRESETS};
    use super::*;
    use crate::spec::LimbBits;

    fn spec(poly: &str) -> BinarySpec {
        let (f, _) = parse_binary_modulus(poly).unwrap();
        BinarySpec::new(&f, LimbBits::W64).unwrap()
    }

    /// The matrix applied to the bits of `v` (words) the way the kernel reads it: byte s of v
    /// masks the eight columns of block s, word t of each.
    fn apply(s: &BinarySpec, mat: &[u64], v: &[u64]) -> Vec<u64> {
        let mut acc = vec![0u64; s.n];
        for blk in 0..matrix_columns(s).div_ceil(8) {
            let byte = v[blk / 8].to_le_bytes()[blk % 8];
            for (t, a) in acc.iter_mut().enumerate() {
                for j in 0..8 {
                    if byte >> j & 1 == 1 {
                        *a ^= mat[(blk * s.n + t) * 8 + j];
                    }
                }
            }
        }
        acc
    }

    /// The matrix applied the way the kernel reads it (with the split: to the even and the odd
    /// coefficients of x, the second result times x^(2^k)) against k squarings of x by
    /// schoolbook square-and-reduce.
    #[test]
    fn matrix_layout_gives_repeated_squaring() {
        for (poly, k, split) in [
            ("sect163", 10, false),
            ("sect283", 17, false),
            ("x^71+x^6+1", 9, false),
            ("sect409", 51, true),
            ("sect571", 71, true),
        ] {
            let s = spec(poly);
            assert_eq!(splits(&s), split, "{poly}");
            let mat = matrix_words(&s, k);
            assert_eq!(mat.len() * 8, matrix_bytes(&s));
            let mut seed = 0x2545_f491_4f6c_dd1du64;
            for _ in 0..4 {
                let words: Vec<u64> = (0..s.n)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        seed
                    })
                    .collect();
                let x = Poly::from_words(&words).low(s.m);
                let xw = x.to_words(64, s.n);
                let acc = if split {
                    let bit = |i: usize| xw[i / 64] >> (i % 64) & 1;
                    let mut e = vec![0u64; s.n];
                    let mut o = vec![0u64; s.n];
                    for j in 0..s.m.div_ceil(2) {
                        e[j / 64] |= bit(2 * j) << (j % 64);
                        if 2 * j + 1 < s.m {
                            o[j / 64] |= bit(2 * j + 1) << (j % 64);
                        }
                    }
                    let ye = Poly::from_words(&apply(&s, &mat, &e));
                    let yo = Poly::from_words(&apply(&s, &mat, &o));
                    let c = Poly::monomial(1).square_n_mod(k, &s.poly);
                    ye.add(&yo.mulmod(&c, &s.poly)).to_words(64, s.n)
                } else {
                    apply(&s, &mat, &xw)
                };
                let mut want = x.clone();
                for _ in 0..k {
                    want = want.square().rem(&s.poly);
                }
                assert_eq!(acc, want.to_words(64, s.n), "{poly}, k = {k}");
            }
        }
    }

    /// The chosen runs are doubling runs of the chain, at most `MAX_MATRICES`, never cost more
    /// in the model than the longest candidates alone, and when all candidates fit in L1
    /// together (up to `MAX_MATRICES`) every one of them gets a matrix.
    #[test]
    fn chosen_runs_are_chain_runs_and_no_worse() {
        for p in BINARY_PRESETS {
            let s = spec(p.poly);
            let runs = matrix_runs(&s, BinaryTarget::Auto);
            assert!(!runs.is_empty() && runs.len() <= MAX_MATRICES, "{}", p.name);
            assert!(runs.windows(2).all(|w| w[0] > w[1]), "{}", p.name);
            let mut cands = matrix_candidates(&s);
            assert!(runs.iter().all(|k| cands.contains(k)), "{}", p.name);
            cands.truncate(MAX_MATRICES);
            assert!(
                chain_cycles(&s, &runs) <= chain_cycles(&s, &cands),
                "{}",
                p.name
            );
            if cands.len() * matrix_bytes(&s) <= L1_BYTES {
                assert_eq!(runs, cands, "{}", p.name);
            }
        }
        assert!(matrix_runs(&spec("sect283"), BinaryTarget::Portable64).is_empty());
        let s32 =
            BinarySpec::new(&parse_poly("x^283+x^12+x^7+x^5+1").unwrap(), LimbBits::W32).unwrap();
        assert!(matrix_runs(&s32, BinaryTarget::Auto).is_empty());
    }
}
