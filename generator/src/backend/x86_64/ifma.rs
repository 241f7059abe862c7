//! The AVX-512 IFMA backend of the RSA contexts: constant-time exponentiation in radix 2^52.
//!
//! Values are L = ⌈(N + 2)/52⌉ limbs of 52 bits in V = ⌈L/8⌉ zmm registers (eight 64-bit lanes
//! each, the lanes above L zero). The product is word-by-word Montgomery multiplication in radix
//! 2^52 with R' = 2^(52L) ("almost Montgomery multiplication", Gueron and Krasnov, "Software
//! implementation of modular exponentiation, using advanced vector instructions architectures",
//! WAIFI 2012; in radix 2^52 with `vpmadd52luq`/`vpmadd52huq`: Drucker and Gueron, "Fast
//! modular squaring with AVX512IFMA", ITNG 2019). For each limb b_i:
//!
//! 1. acc += lo52(a·b_i); y = (acc_0·k0) mod 2^52 with k0 = −n⁻¹ mod 2^52;
//! 2. acc += lo52(n·y), which clears the low 52 bits of lane 0;
//! 3. acc /= 2^52: every lane moves down one (`valignq`), lane 0's carry (bits 52..63) joins the
//!    new lane 0;
//! 4. acc += hi52(a·b_i) + hi52(n·y), the high halves, which weigh one lane more than the low
//!    halves and so land at the lanes of the shifted accumulator.
//!
//! The accumulator is two vectors, r for the a·b_i terms and s for the n·y terms, so each has a
//! chain of two multiply-adds and one shift per step, and y waits for neither: lane 0 of the
//! next step (lane 1 of r and s before the shift plus lo52(a_1·b_i) + hi52(a_0·b_i) +
//! lo52(n_1·y) + hi52(n_0·y)) and lane 0's carry are computed in scalar registers, so the
//! dependency from one y to the next is a few scalar multiplications, not the vector chain.
//!
//! Lanes are not normalised inside the loop: each lane of r and of s gains at most two values
//! below 2^52 per step, so after L ≤ 79 steps r + s is below 4·79·2^52 < 2^61 and never wraps. After the loop two
//! carry rounds normalise: one vector shift of the carries (bits 52..63, below 2^9), then the
//! carries of at most 1 resolved all at once as a carry-lookahead addition on the lane masks
//! (generate = lane above 2^52 − 1, propagate = lane equal to 2^52 − 1), with no branch.
//!
//! Bound: for a, b < 2n and 4n ≤ R', the result (a·b + m·n)/R' with m < R' is below
//! 4n²/R' + n ≤ 2n, so results feed the next product without a subtraction. N + 2 ≤ 52L
//! gives 4n ≤ R'. Only the last step (a product by 1: (acc + m·n)/R' ≤ n) and one conditional
//! subtraction on 64-bit limbs make the result canonical.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::api::field::lit;

/// Radix-2^52 limbs L for N-bit operands: N + 2 ≤ 52L, so that 4n ≤ R' = 2^(52L).
pub fn radix52_limbs(bits: usize) -> usize {
    (bits + 2).div_ceil(52)
}

/// zmm vectors V per value (eight lanes each).
pub fn vectors(bits: usize) -> usize {
    radix52_limbs(bits).div_ceil(8)
}

/// Doublings d that turn R² mod n (R = 2^(64k)) into R'² mod n: d = 2·52L − 128k ≥ 0.
pub fn rr_doublings(bits: usize) -> usize {
    2 * 52 * radix52_limbs(bits) - 2 * bits
}

fn id(prefix: &str, k: usize, v: usize) -> Ident {
    format_ident!("{}{}_{}", prefix, k, v)
}

/// `amm52_x{kk}`: kk independent almost-Montgomery products in one loop (two dependency chains
/// for kk = 2, so that one product's scalar step overlaps the other's vector work).
fn amm_kernel(bits: usize, kk: usize) -> TokenStream {
    let l = radix52_limbs(bits);
    let vn = vectors(bits);
    let ll = lit(l);
    let vl = lit(vn);
    let lp = lit(8 * vn);
    let kl = lit(kk);
    let name = format_ident!("amm52_x{}", kk);
    let mut setup = TokenStream::new();
    let mut step = TokenStream::new();
    let mut finish = TokenStream::new();
    for k in 0..kk {
        let kx = lit(k);
        let bw = format_ident!("bw{}", k);
        let (a0, a1, n0, n1) = (
            format_ident!("a{}_limb0", k),
            format_ident!("a{}_limb1", k),
            format_ident!("n{}_limb0", k),
            format_ident!("n{}_limb1", k),
        );
        let (u, c) = (format_ident!("u{}", k), format_ident!("carry{}", k));
        setup.extend(quote! {
            let #bw: [u64; #lp] = ::core::mem::transmute::<[__m512i; #vl], [u64; #lp]>(b[#kx]);
            let aw: [u64; #lp] = ::core::mem::transmute::<[__m512i; #vl], [u64; #lp]>(a[#kx]);
            let nw: [u64; #lp] = ::core::mem::transmute::<[__m512i; #vl], [u64; #lp]>(n[#kx]);
            let (#a0, #a1, #n0, #n1) = (aw[0], aw[1], nw[0], nw[1]);
            let mut #u = 0u64;
            let mut #c = 0u64;
        });
        for v in 0..vn {
            let (ai, ni, ri, si) = (id("a", k, v), id("n", k, v), id("r", k, v), id("s", k, v));
            let vx = lit(v);
            setup.extend(quote! {
                let #ai = a[#kx][#vx];
                let #ni = n[#kx][#vx];
                let mut #ri = zero;
                let mut #si = zero;
            });
        }
    }
    // Scalar part first for every product: y from the predicted lane 0, then the next lane 0.
    for k in 0..kk {
        let kx = lit(k);
        let bw = format_ident!("bw{}", k);
        let (a0, a1, n0, n1) = (
            format_ident!("a{}_limb0", k),
            format_ident!("a{}_limb1", k),
            format_ident!("n{}_limb0", k),
            format_ident!("n{}_limb1", k),
        );
        let (u, c) = (format_ident!("u{}", k), format_ident!("carry{}", k));
        let (bi, bv, y, yv) = (
            format_ident!("b{}", k),
            format_ident!("bv{}", k),
            format_ident!("y{}", k),
            format_ident!("yv{}", k),
        );
        let (r0, s0) = (id("r", k, 0), id("s", k, 0));
        step.extend(quote! {
            let #bi = #bw[i];
            let #bv = _mm512_set1_epi64(#bi as i64);
            // Lane 1 of each accumulator before this step (it becomes lane 0).
            let r_lane1 = _mm_extract_epi64::<1>(_mm512_castsi512_si128(#r0)) as u64;
            let s_lane1 = _mm_extract_epi64::<1>(_mm512_castsi512_si128(#s0)) as u64;
            let pa = #a0 as u128 * #bi as u128;
            let t = #u.wrapping_add(#c).wrapping_add((pa as u64) & MASK52);
            let #y = t.wrapping_mul(k0[#kx]) & MASK52;
            let pn = #n0 as u128 * #y as u128;
            // t + lo52(n_0·y) is a multiple of 2^52: its quotient carries into the next lane 0.
            #c = t.wrapping_add((pn as u64) & MASK52) >> 52;
            #u = r_lane1
                .wrapping_add(((#a1 as u128 * #bi as u128) as u64) & MASK52)
                .wrapping_add((pa >> 52) as u64)
                .wrapping_add(s_lane1)
                .wrapping_add(((#n1 as u128 * #y as u128) as u64) & MASK52)
                .wrapping_add((pn >> 52) as u64);
            let #yv = _mm512_set1_epi64(#y as i64);
        });
    }
    // r += a·b_i and s += n·y, low or high 52-bit halves of the products, for every chain.
    let madd = |step: &mut TokenStream, half: &str| {
        let op = format_ident!("_mm512_madd52{}_epu64", half);
        for k in 0..kk {
            let (bv, yv) = (format_ident!("bv{}", k), format_ident!("yv{}", k));
            for v in 0..vn {
                let (ai, ri) = (id("a", k, v), id("r", k, v));
                step.extend(quote!(#ri = #op(#ri, #ai, #bv);));
            }
            for v in 0..vn {
                let (ni, si) = (id("n", k, v), id("s", k, v));
                step.extend(quote!(#si = #op(#si, #ni, #yv);));
            }
        }
    };
    madd(&mut step, "lo");
    for k in 0..kk {
        for acc in ["r", "s"] {
            for v in 0..vn {
                let ri = id(acc, k, v);
                let next = if v + 1 < vn {
                    let rn = id(acc, k, v + 1);
                    quote!(#rn)
                } else {
                    quote!(zero)
                };
                step.extend(quote!(#ri = _mm512_alignr_epi64::<1>(#next, #ri);));
            }
        }
    }
    madd(&mut step, "hi");
    // Normalisation, per product: r + s + carry at lane 0, then the two carry rounds.
    for k in 0..kk {
        let kx = lit(k);
        let c = format_ident!("carry{}", k);
        // Lane masks widened and shifted into place; the first term stands alone (no `0 |`,
        // no `<< 0`) so the emitted code is lint-clean.
        let mut gen: Option<TokenStream> = None;
        let mut prop: Option<TokenStream> = None;
        for v in 0..vn {
            let (ri, si, ci) = (id("r", k, v), id("s", k, v), id("c", k, v));
            let plus_carry = if v == 0 {
                quote!(#ri = _mm512_add_epi64(#ri, _mm512_maskz_set1_epi64(1, #c as i64));)
            } else {
                quote!()
            };
            finish.extend(quote! {
                #ri = _mm512_add_epi64(#ri, #si);
                #plus_carry
                let #ci = _mm512_srli_epi64::<52>(#ri);
                #ri = _mm512_and_si512(#ri, mask);
            });
        }
        for v in 0..vn {
            let (ri, ci) = (id("r", k, v), id("c", k, v));
            let below = if v == 0 {
                quote!(zero)
            } else {
                let cb = id("c", k, v - 1);
                quote!(#cb)
            };
            let shift = lit(8 * v);
            finish.extend(quote! {
                #ri = _mm512_add_epi64(#ri, _mm512_alignr_epi64::<7>(#ci, #below));
            });
            let shifted = |e: TokenStream| {
                if v == 0 {
                    quote!((#e as u128))
                } else {
                    quote!(((#e as u128) << #shift))
                }
            };
            let g = shifted(quote!(_mm512_cmpgt_epu64_mask(#ri, mask)));
            let p = shifted(quote!(_mm512_cmpeq_epu64_mask(#ri, mask)));
            gen = Some(match gen {
                None => g,
                Some(acc) => quote!(#acc | #g),
            });
            prop = Some(match prop {
                None => p,
                Some(acc) => quote!(#acc | #p),
            });
        }
        let carries = format_ident!("carries{}", k);
        let (gen, prop) = (
            gen.expect("at least one vector"),
            prop.expect("at least one vector"),
        );
        finish.extend(quote! {
            let generate: u128 = #gen;
            let propagate: u128 = #prop;
            // Lanes that receive a carry: the carry-lookahead sum of generate and propagate.
            let #carries = (generate << 1).wrapping_add(propagate) ^ propagate;
        });
        for v in 0..vn {
            let ri = id("r", k, v);
            let shift = lit(8 * v);
            let vx = lit(v);
            let lanes = if v == 0 {
                quote!(#carries as u8)
            } else {
                quote!((#carries >> #shift) as u8)
            };
            finish.extend(quote! {
                let masked = _mm512_and_si512(#ri, mask);
                out[#kx][#vx] = _mm512_and_si512(
                    _mm512_mask_sub_epi64(masked, #lanes, masked, minus_one),
                    mask,
                );
            });
        }
    }
    let doc = format!(
        " {kk} almost-Montgomery product(s) a·b·2^(−52·{l}) mod n in radix 2^52 ({l} limbs in {vn} zmm vectors, lanes above {l} zero): results below 2n for inputs below 2n, normalised limbs. Word-by-word Montgomery steps with lazy lane carries, a·b_i and n·y in separate accumulators, lane 0 tracked in scalar registers (see the module notes of the generator's IFMA emitter)."
    );
    quote! {
        #[doc = #doc]
        ///
        /// # Safety
        ///
        /// AVX-512F and AVX-512 IFMA; limbs of a and b below 2^52.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx512f,avx512ifma")]
        #[inline]
        #[allow(unused_unsafe, unused_mut, unused_doc_comments, clippy::needless_range_loop)]
        unsafe fn #name(
            a: &[[::core::arch::x86_64::__m512i; #vl]; #kl],
            b: &[[::core::arch::x86_64::__m512i; #vl]; #kl],
            n: &[[::core::arch::x86_64::__m512i; #vl]; #kl],
            k0: &[u64; #kl],
        ) -> [[::core::arch::x86_64::__m512i; #vl]; #kl] {
            use ::core::arch::x86_64::*;
            const MASK52: u64 = (1u64 << 52) - 1;
            /// SAFETY: AVX-512F and AVX-512 IFMA are enabled on this function and guaranteed by
            /// its caller, which is all the intrinsics need; the transmutes reinterpret vectors as
            /// arrays of 64-bit words of the same size (every bit pattern is valid for both).
            unsafe {
                let zero = _mm512_setzero_si512();
                let mask = _mm512_set1_epi64(MASK52 as i64);
                let minus_one = _mm512_set1_epi64(-1);
                #setup
                let mut i = 0;
                while i < #ll {
                    #step
                    i += 1;
                }
                let mut out = [[zero; #vl]; #kl];
                #finish
                out
            }
        }
    }
}

/// `pow_ifma_x{kk}`: kk fixed-window exponentiations with exponents of one length, run
/// together on `amm52_x{kk}`.
fn pow_fn(bits: usize, n: usize, window: usize, kk: usize) -> TokenStream {
    let vn = vectors(bits);
    let vl = lit(vn);
    let lp = lit(8 * vn);
    let nl = lit(n);
    let kl = lit(kk);
    let wl = lit(window);
    let table = lit(1 << window);
    let name = format_ident!("pow_ifma_x{}", kk);
    let amm = format_ident!("amm52_x{}", kk);
    let doc = format!(
        " {kk} exponentiation(s) x_k^e_k mod n_k on AVX-512 IFMA: x_k < n_k plain little-endian limbs, exponents big-endian bytes, all of one length; results plain and canonical. Fixed window of {window} bits; each table entry read by masking over all entries; time depends only on the exponent length."
    );
    quote! {
        #[doc = #doc]
        ///
        /// # Safety
        ///
        /// AVX-512F and AVX-512 IFMA.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx512f,avx512ifma")]
        #[allow(unused_unsafe, unused_doc_comments, clippy::needless_range_loop)]
        unsafe fn #name(
            ctx: [&Self; #kl],
            x: [&[u64; #nl]; #kl],
            exp_be: [&[u8]; #kl],
        ) -> [[u64; #nl]; #kl] {
            use ::core::arch::x86_64::*;
            type Value = [[__m512i; #vl]; #kl];
            /// SAFETY: AVX-512F and AVX-512 IFMA are enabled on this function and guaranteed by
            /// its caller, which is all the intrinsics need; every `amm52` operand has normalised
            /// limbs below 2^52 (from `to_radix52` or an `amm52` result), as it requires; the
            /// transmutes reinterpret arrays of 64-bit words as vectors of the same size and back
            /// (every bit pattern is valid for both).
            unsafe {
                let zero = _mm512_setzero_si512();
                let vec = |w: [u64; #lp]| ::core::mem::transmute::<[u64; #lp], [__m512i; #vl]>(w);
                let mut nn: Value = [[zero; #vl]; #kl];
                let mut rr: Value = [[zero; #vl]; #kl];
                let mut xs: Value = [[zero; #vl]; #kl];
                let mut unit: Value = [[zero; #vl]; #kl];
                let mut k0 = [0u64; #kl];
                let mut k = 0;
                while k < #kl {
                    nn[k] = vec(ctx[k].n52);
                    rr[k] = vec(ctx[k].rr52);
                    xs[k] = vec(Self::to_radix52(x[k]));
                    let mut u = [0u64; #lp];
                    u[0] = 1;
                    unit[k] = vec(u);
                    k0[k] = ctx[k].n0 & ((1u64 << 52) - 1);
                    k += 1;
                }
                // x·R' (x < n, R'² mod n < n: below 2n) and R' mod n (a product by 1: at most n).
                let base = Self::#amm(&xs, &rr, &nn, &k0);
                let one = Self::#amm(&rr, &unit, &nn, &k0);
                let mut table: [Value; #table] = [[[zero; #vl]; #kl]; #table];
                table[0] = one;
                table[1] = base;
                let mut i = 2;
                while i < #table {
                    table[i] = if i % 2 == 0 {
                        Self::#amm(&table[i / 2], &table[i / 2], &nn, &k0)
                    } else {
                        Self::#amm(&table[i - 1], &base, &nn, &k0)
                    };
                    i += 1;
                }
                let bits = exp_be[0].len() * 8;
                let windows = bits.div_ceil(#wl);
                let mut acc = one;
                let mut w = windows;
                while w > 0 {
                    w -= 1;
                    // Masks selecting each product's digit, then one pass over the table.
                    let mut digit = [0u64; #kl];
                    let mut k = 0;
                    while k < #kl {
                        digit[k] = Self::exp_bits(exp_be[k], w * #wl, #wl) as u64;
                        k += 1;
                    }
                    let mut entry: Value = [[zero; #vl]; #kl];
                    let mut idx = 0;
                    while idx < #table {
                        let mut k = 0;
                        while k < #kl {
                            let eq = ::fieldgen_field::subtle::ConstantTimeEq::ct_eq(&(idx as u64), &digit[k]);
                            let m = _mm512_set1_epi64(0i64.wrapping_sub(eq.unwrap_u8() as i64));
                            let mut v = 0;
                            while v < #vl {
                                entry[k][v] = _mm512_or_si512(entry[k][v], _mm512_and_si512(table[idx][k][v], m));
                                v += 1;
                            }
                            k += 1;
                        }
                        idx += 1;
                    }
                    if w + 1 == windows {
                        // The first window: acc is one, so no squarings (the position is public).
                        acc = entry;
                    } else {
                        let mut j = 0;
                        while j < #wl {
                            acc = Self::#amm(&acc, &acc, &nn, &k0);
                            j += 1;
                        }
                        acc = Self::#amm(&acc, &entry, &nn, &k0);
                    }
                }
                // Out of the Montgomery domain: a product by 1 gives a value ≤ n.
                let plain = Self::#amm(&acc, &unit, &nn, &k0);
                let mut out = [[0u64; #nl]; #kl];
                let mut k = 0;
                while k < #kl {
                    let limbs = Self::from_radix52(&::core::mem::transmute::<[__m512i; #vl], [u64; #lp]>(plain[k]));
                    out[k] = ctx[k].final_subtract(&limbs, 0);
                    k += 1;
                }
                out
            }
        }
    }
}

/// The IFMA items of a context of `n` 64-bit limbs and `bits` bits (inside its `impl`):
/// detection, radix conversion, the set-up of the radix-2^52 constants, the product kernels for
/// one and two chains, and the exponentiations on them.
pub fn ifma_fns(bits: usize, n: usize, window: usize) -> TokenStream {
    let l = radix52_limbs(bits);
    let vn = vectors(bits);
    let ll = lit(l);
    let lp = lit(8 * vn);
    let nl = lit(n);
    let d = lit(rr_doublings(bits));
    let kernels = [amm_kernel(bits, 1), amm_kernel(bits, 2)];
    let pows = [pow_fn(bits, n, window, 1), pow_fn(bits, n, window, 2)];
    let to_doc = format!(
        " The {l} radix-2^52 limbs (padded with zeros to {}) of a {n}-limb value.",
        8 * vn
    );
    let from_doc = format!(
        " The {n} 64-bit limbs of a value below 2^{} given as radix-2^52 limbs below 2^52.",
        64 * n
    );
    let ifma_check = crate::api::dispatch::cpu_check(
        &[
            " Whether the AVX-512 IFMA exponentiation can run: at compile time when the build",
            " enables AVX-512F and IFMA, else CPUID (leaf 7: EBX bits 16 AVX512F, 21 AVX512IFMA,",
            " 31 AVX512VL) and XGETBV (the OS saves the opmask and zmm state: XCR0 bits 1, 2, 5,",
            " 6, 7), read once per program.",
        ],
        "ifma",
        &["avx512f", "avx512ifma"],
        "avx512ifma",
    );
    quote! {
        #ifma_check

        #[doc = #to_doc]
        fn to_radix52(x: &[u64; #nl]) -> [u64; #lp] {
            let mut out = [0u64; #lp];
            let mut j = 0;
            while j < #ll {
                let bit = 52 * j;
                let (w, s) = (bit / 64, bit % 64);
                let mut v = if w < #nl { x[w] >> s } else { 0 };
                if s > 12 && w + 1 < #nl {
                    v |= x[w + 1] << (64 - s);
                }
                out[j] = v & ((1u64 << 52) - 1);
                j += 1;
            }
            out
        }

        #[doc = #from_doc]
        #[allow(dead_code)]
        fn from_radix52(x: &[u64; #lp]) -> [u64; #nl] {
            let mut out = [0u64; #nl];
            let mut i = 0;
            while i < #nl {
                let bit = 64 * i;
                let (j, s) = (bit / 52, bit % 52);
                let mut v = x[j] >> s;
                if j + 1 < #lp {
                    v |= x[j + 1] << (52 - s);
                }
                if s > 40 && j + 2 < #lp {
                    v |= x[j + 2] << (104 - s);
                }
                out[i] = v;
                i += 1;
            }
            out
        }

        /// Sets the radix-2^52 constants from p and R² mod n: n in radix 2^52 and
        /// R'² mod n = R²·2^d mod n (d modular doublings, d = 2·52L − 2N).
        fn ifma_init(&mut self) {
            self.n52 = Self::to_radix52(&self.p);
            let mut r = self.r2;
            let mut i = 0;
            while i < #d {
                r = self.add_mod(&r, &r);
                i += 1;
            }
            self.rr52 = Self::to_radix52(&r);
        }

        #(#kernels)*
        #(#pows)*
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bounds the kernel relies on, for every multiple of 64 bits up to 4096 (the sizes
    /// the generator accepts are among them): 4n ≤ R' (N + 2 ≤ 52L), lanes that never wrap
    /// (r + s < 4L·2^52 plus the lane-0 carry below 2^63), lane masks that fit a u128, and
    /// R'² mod n reachable from R² mod n by doublings.
    #[test]
    fn radix52_bounds() {
        for bits in (64..=4096).step_by(64) {
            let l = radix52_limbs(bits);
            assert!(bits + 2 <= 52 * l, "{bits}");
            assert!(52 * (l - 1) < bits + 2, "{bits}: L is not the least");
            assert!((4 * l as u128) << 52 < 1u128 << 63, "{bits}");
            assert!(vectors(bits) * 8 <= 128, "{bits}");
            assert!(vectors(bits) * 8 >= l);
            assert_eq!(rr_doublings(bits), 104 * l - 2 * bits);
        }
    }
}
