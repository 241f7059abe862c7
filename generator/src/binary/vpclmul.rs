//! The x86-64 VPCLMULQDQ multiplication kernel: four 64×64-bit carry-less products per
//! instruction on 512-bit vectors, for fields of 3 to 8 words whose reduction runs in XMM
//! registers (see [`super::x86`]).
//!
//! a is one ZMM vector of pairs (lane p = words 2p, 2p + 1). For each pair q of b, broadcast to
//! all four lanes, the four selectors give in lane p the products a_2p·b_2q (diagonal 2(p + q):
//! even, q lanes up), a_(2p+1)·b_(2q+1) (even, q + 1 lanes up) and a_(2p+1)·b_2q,
//! a_2p·b_(2q+1) (odd diagonal 2(p + q) + 1, q lanes up). The sums S_u of everything u lanes
//! up (odd diagonals split by in-lane byte shifts into their halves at lanes u and u + 1) are
//! moved up by `valignq` into two ZMM vectors holding the 2n-word product, so n = 5 takes 10
//! VPCLMULQDQ where the XMM kernel takes 25 PCLMULQDQ. The pairs are then extracted and
//! reduced by the XMM kernel's reduction.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

use super::x86::{arch, reduce_xmm, store, usize_lit, xmm_reduction, Gen};
use super::{BinarySpec, BinaryTarget};

/// Whether the field gets the VPCLMULQDQ kernel: 64-bit words, 3 ≤ n ≤ 8 (a in one ZMM
/// vector), the XMM reduction, and the `auto` target.
pub fn applies(s: &BinarySpec, target: BinaryTarget) -> bool {
    target == BinaryTarget::Auto && s.w == 64 && (3..=8).contains(&s.n) && xmm_reduction(s)
}

fn xor(g: &mut Gen, x: Option<Ident>, y: Option<Ident>) -> Option<Ident> {
    match (x, y) {
        (None, v) | (v, None) => v,
        (Some(a), Some(b)) => {
            let f = arch("_mm512_xor_si512");
            Some(g.bind("z", quote!(#f(#a, #b))))
        }
    }
}

/// a as one ZMM vector from XMM loads of its pairs (a load as wide as the vector would not
/// be forwarded from the narrower stores that wrote a).
fn load_zmm(g: &mut Gen, n: usize) -> Ident {
    let pairs: Vec<Ident> = (0..n.div_ceil(2))
        .map(|t| {
            let idx = usize_lit(2 * t);
            let f = if 2 * t + 1 < n {
                arch("_mm_loadu_si128")
            } else {
                arch("_mm_loadl_epi64")
            };
            g.bind("a", quote!(#f(a.as_ptr().add(#idx).cast())))
        })
        .collect();
    let (c128, ins128, c256, ins256) = (
        arch("_mm256_castsi128_si256"),
        arch("_mm256_inserti128_si256"),
        arch("_mm512_castsi256_si512"),
        arch("_mm512_inserti64x4"),
    );
    let half = |g: &mut Gen, ps: &[Ident]| -> Ident {
        let lo = &ps[0];
        match ps.get(1) {
            Some(hi) => g.bind("y", quote!(#ins128(#c128(#lo), #hi, 1))),
            None => {
                let z = arch("_mm256_zextsi128_si256");
                g.bind("y", quote!(#z(#lo)))
            }
        }
    };
    let lo = half(g, &pairs[..pairs.len().min(2)]);
    if pairs.len() > 2 {
        let hi = half(g, &pairs[2..]);
        g.bind("za", quote!(#ins256(#c256(#lo), #hi, 1)))
    } else {
        let z = arch("_mm512_zextsi256_si512");
        g.bind("za", quote!(#z(#lo)))
    }
}

/// The kernel `mul_x86_64_vpclmul` and the feature check `x86_64_vpclmul_available`.
pub fn items(s: &BinarySpec, target: BinaryTarget) -> TokenStream {
    if !applies(s, target) {
        return quote!();
    }
    let n = s.n;
    let lanes = n.div_ceil(2);
    let mut g = Gen {
        stmts: Vec::new(),
        next: 0,
        clmuls: 0,
    };
    let za = load_zmm(&mut g, n);
    let clmul = arch("_mm512_clmulepi64_epi128");
    // E[u], O[u]: sums of the even and odd diagonals u lanes up.
    let mut e: Vec<Option<Ident>> = vec![None; lanes + 1];
    let mut o: Vec<Option<Ident>> = vec![None; lanes + 1];
    let mut vclmuls = 0usize;
    for q in 0..lanes {
        let idx = usize_lit(2 * q);
        let hi = 2 * q + 1 < n;
        let bq = if hi {
            let (bc, ld) = (arch("_mm512_broadcast_i32x4"), arch("_mm_loadu_si128"));
            g.bind("b", quote!(#bc(#ld(b.as_ptr().add(#idx).cast()))))
        } else {
            // Only the low word is read (selectors 0x00 and 0x01).
            let set1 = arch("_mm512_set1_epi64");
            g.bind("b", quote!(#set1(b[#idx] as i64)))
        };
        let mut prod = |g: &mut Gen, imm: i32| {
            vclmuls += 1;
            let imm = Literal::i32_unsuffixed(imm);
            Some(g.bind("p", quote!(#clmul(#za, #bq, #imm))))
        };
        let p00 = prod(&mut g, 0x00);
        e[q] = xor(&mut g, e[q].take(), p00);
        let p01 = prod(&mut g, 0x01);
        o[q] = xor(&mut g, o[q].take(), p01);
        if hi {
            let p10 = prod(&mut g, 0x10);
            o[q] = xor(&mut g, o[q].take(), p10);
            let p11 = prod(&mut g, 0x11);
            e[q + 1] = xor(&mut g, e[q + 1].take(), p11);
        }
    }
    let (sl, sr) = (arch("_mm512_bslli_epi128"), arch("_mm512_bsrli_epi128"));
    let align = arch("_mm512_alignr_epi64");
    let setzero = arch("_mm512_setzero_si512");
    let zero = g.bind("zero", quote!(#setzero()));
    let (mut lo, mut hi): (Option<Ident>, Option<Ident>) = (None, None);
    for u in 0..=lanes {
        let mut su = e[u].clone();
        if let Some(x) = o[u].clone() {
            let v = g.bind("u", quote!(#sl(#x, 8)));
            su = xor(&mut g, su, Some(v));
        }
        if u > 0 {
            if let Some(x) = o[u - 1].clone() {
                let v = g.bind("v", quote!(#sr(#x, 8)));
                su = xor(&mut g, su, Some(v));
            }
        }
        let Some(su) = su else { continue };
        // S_u occupies lanes u .. u + lanes − 1 of the eight-lane product.
        if u == 0 {
            lo = xor(&mut g, lo, Some(su));
            continue;
        }
        let imm = Literal::i32_unsuffixed((8 - 2 * u) as i32);
        if u < 4 {
            let l = g.bind("l", quote!(#align(#su, #zero, #imm)));
            lo = xor(&mut g, lo, Some(l));
        }
        if u + lanes > 4 {
            let h = if u == 4 {
                su
            } else {
                g.bind("h", quote!(#align(#zero, #su, #imm)))
            };
            hi = xor(&mut g, hi, Some(h));
        }
    }
    // The n product pairs as XMM values.
    let (cast, ext) = (
        arch("_mm512_castsi512_si128"),
        arch("_mm512_extracti32x4_epi32"),
    );
    let pairs: Vec<Option<Ident>> = (0..n)
        .map(|t| {
            let src = if t < 4 { lo.clone() } else { hi.clone() };
            let src = src?;
            let lane = t % 4;
            Some(if lane == 0 {
                g.bind("r", quote!(#cast(#src)))
            } else {
                let l = Literal::i32_unsuffixed(lane as i32);
                g.bind("r", quote!(#ext(#src, #l)))
            })
        })
        .collect();
    let np = (2 * s.m - 2) / 64 + 1;
    let r = reduce_xmm(&mut g, s, pairs, np - 1);
    store(&mut g, &r, n);
    let nl = usize_lit(n);
    let stmts = g.stmts;
    let doc = format!(
        " a·b mod f with VPCLMULQDQ on 512-bit vectors ({vclmuls} instructions for the {n}×{n} word products; see the generator's `binary::vpclmul`), then the reduction of `mul_x86_64_clmul` in XMM registers ({} PCLMULQDQ).",
        g.clmuls
    );
    let safety = quote!(#[doc = " SAFETY: the caller checked `x86_64_vpclmul_available()`; the masked load reads only words 0..n of `a`, the 16-byte loads of `b` read words 2q, 2q + 1 < n, and every store writes inside `out`."]);
    quote! {
        #[doc = #doc]
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw,vpclmulqdq,pclmulqdq,sse2")]
        #[allow(unused_unsafe, unused_doc_comments)]
        unsafe fn mul_x86_64_vpclmul(a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
            let mut out = [0u64; #nl];
            #safety
            unsafe {
                #(#stmts)*
            }
            out
        }

        /// Whether the VPCLMULQDQ kernel can run: always when the build enables the
        /// `avx512f`, `avx512bw`, `vpclmulqdq` and `pclmulqdq` target features, else as CPUID
        /// and XCR0 report (read once).
        #[cfg(target_arch = "x86_64")]
        #[inline(always)]
        fn x86_64_vpclmul_available() -> bool {
            #[cfg(all(target_feature = "avx512f", target_feature = "avx512bw", target_feature = "vpclmulqdq", target_feature = "pclmulqdq"))]
            {
                true
            }
            #[cfg(not(all(target_feature = "avx512f", target_feature = "avx512bw", target_feature = "vpclmulqdq", target_feature = "pclmulqdq")))]
            {
                Self::x86_64_vpclmul_detected()
            }
        }

        /// CPUID.(EAX=7,ECX=0): EBX bits 16 (AVX512F) and 30 (AVX512BW), ECX bit 10
        /// (VPCLMULQDQ); CPUID.1:ECX bit 1 (PCLMULQDQ); the OS saving the opmask and ZMM state
        /// (CPUID.1:ECX.OSXSAVE and XCR0 bits 1, 2, 5, 6, 7). Read once and cached: 0 = not
        /// read yet, 1 = absent, 2 = present.
        #[cfg(all(target_arch = "x86_64", not(all(target_feature = "avx512f", target_feature = "avx512bw", target_feature = "vpclmulqdq", target_feature = "pclmulqdq"))))]
        #[inline]
        #[allow(unused_doc_comments, unused_unsafe)]
        fn x86_64_vpclmul_detected() -> bool {
            static STATE: ::core::sync::atomic::AtomicU8 = ::core::sync::atomic::AtomicU8::new(0);
            let state = STATE.load(::core::sync::atomic::Ordering::Relaxed);
            if state != 0 {
                return state == 2;
            }
            /// SAFETY: CPUID exists on every x86-64 processor; leaves 0 and 1 always exist and
            /// leaf 7 is read only when leaf 0 reports it; XGETBV runs only when OSXSAVE is set.
            let present = unsafe {
                let max = ::core::arch::x86_64::__cpuid(0).eax;
                let ecx1 = ::core::arch::x86_64::__cpuid(1).ecx;
                max >= 7 && ecx1 & (1 << 27) != 0 && ecx1 & (1 << 1) != 0 && {
                    let l7 = ::core::arch::x86_64::__cpuid_count(7, 0);
                    Self::xcr0_vpclmul_x86_64() & 0xe6 == 0xe6
                        && l7.ebx & (1 << 16) != 0
                        && l7.ebx & (1 << 30) != 0
                        && l7.ecx & (1 << 10) != 0
                }
            };
            STATE.store(if present { 2 } else { 1 }, ::core::sync::atomic::Ordering::Relaxed);
            present
        }

        /// XCR0 (XGETBV with ECX = 0). SAFETY: the caller checked CPUID.1:ECX.OSXSAVE.
        #[cfg(all(target_arch = "x86_64", not(all(target_feature = "avx512f", target_feature = "avx512bw", target_feature = "vpclmulqdq", target_feature = "pclmulqdq"))))]
        #[inline]
        #[target_feature(enable = "xsave")]
        #[allow(unused_unsafe)]
        unsafe fn xcr0_vpclmul_x86_64() -> u64 {
            unsafe { ::core::arch::x86_64::_xgetbv(0) }
        }
    }
}
