//! The RSA-size Montgomery context: one type `MontN` per operand size N (768..4096 bits),
//! whose modulus is a run-time value. Everything that depends only on the size is specialised:
//! the straight-line Comba leaves, the Karatsuba levels above them, the Montgomery reduction
//! (straight-line, or one straight-line row run n times for large n), the exponent window and
//! the table. The modulus limbs and n0' are fields of the context and IR inputs of the kernels.
//!
//! Montgomery multiplication is SOS (Koç–Acar–Kaliski 1996, §3): the 2n-limb product (or
//! square), then reduction. `new` derives n0' by Newton's iteration and R² mod n by a few
//! doublings and Montgomery squarings from R mod n; `modexp` is a fixed-window exponentiation
//! reading its table by masking (constant time in the exponent's value and in the base);
//! `modexp_vartime` is a sliding window for public exponents.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::api::dispatch;
use crate::api::field::lit;
use crate::backend::portable::emit_fn;
use crate::pass::optimize;
use crate::strategy::{karatsuba, runtime};

mod asm;
mod products;
mod shape;

pub use shape::{
    modexp_window, RsaShape, DEFAULT_ADX_MUL_SOS_FROM, DEFAULT_ADX_SQUARE_SOS_FROM,
    DEFAULT_KARATSUBA_LEAF, DEFAULT_REDC_FULL_MAX, DEFAULT_SQUARE_LEAF, WINDOW_SQUARE_LEAF,
};

use asm::asm_fns;
use products::{product_fns, redc_fns};

/// The `--rsa-bits` module body for type `name` (items only: the struct and its impl).
pub fn rsa_module(shape: &RsaShape, name: &Ident, doc: &str) -> TokenStream {
    let n = shape.limbs;
    let bits = shape.bits;
    let nl = lit(n);
    let n2 = lit(2 * n);
    let nb = lit(bits / 8);
    let bits_u32 = proc_macro2::Literal::usize_unsuffixed(bits);
    let w = shape.window;
    let wl = lit(w);
    let table = lit(1 << w);
    let leaf_lit = lit(*shape.levels().last().unwrap());
    let sleaf_lit = lit(*shape.square_levels().last().unwrap());
    let top_mul = format_ident!("mul_{}", n);
    let top_sq = format_ident!("square_{}", n);
    // R² from R: N = k·2^s with k odd: k doublings give R·2^k, s Montgomery squarings R·2^N.
    let s = bits.trailing_zeros() as usize;
    let k = bits >> s;
    let (kl, sl) = (lit(k), lit(s));
    let helpers = super::helpers::helper_fns(n, bits, name);
    let helper_items = super::helpers::helper_items(n, bits, name);
    let products = product_fns(shape);
    let asm = asm_fns(shape);
    let adx_note = crate::backend::x86_64::asm::safety_note(
        "adx() is true only when the CPU has BMI2 and ADX.",
    );
    let ifma_note = crate::backend::x86_64::asm::safety_note(
        "ifma() is true only when the CPU has AVX-512F and IFMA and the OS saves the zmm state.",
    );
    let redc = redc_fns(shape);
    let ifma = crate::backend::x86_64::ifma::ifma_fns(bits, n, w);
    let lp52 = lit(8 * crate::backend::x86_64::ifma::vectors(bits));
    // `mul`, `square` and `modexp` choose at run time: x86-64 kernels when the CPU has their
    // features, else the 64-bit Montgomery code.
    let checked = |name: &str, check: &'static str, fallback: &str| dispatch::Dispatch {
        backends: vec![
            dispatch::Backend {
                name: name.to_string(),
                gate: Some(quote!(target_arch = "x86_64")),
                detect: dispatch::Detect::Cpu { check },
            },
            dispatch::Backend {
                name: fallback.to_string(),
                gate: None,
                detect: dispatch::Detect::Build,
            },
        ],
        gated: dispatch::Gated::Return,
        // The functions are written around the bodies below, among the others.
        ops: vec![],
        backend_docs: vec![],
        backend_attrs: quote!(),
        hooks: vec![],
    };
    let adx_dispatch = checked("x86_64-adx", "adx", "portable64");
    let ifma_dispatch = checked("x86_64-avx512ifma", "ifma", "montgomery64");
    let adx_or_portable = |kernel: TokenStream, portable: TokenStream| {
        adx_dispatch.select(
            &[
                (
                    0,
                    dispatch::Call::Unsafe {
                        note: adx_note.clone(),
                        expr: kernel,
                    },
                ),
                (1, dispatch::Call::Expr(portable)),
            ],
            &quote!(),
        )
    };
    let mul_body = adx_or_portable(quote!(self.mul_adx(a, b)), quote!(self.mul_portable(a, b)));
    let square_body = adx_or_portable(quote!(self.square_adx(a)), quote!(self.square_portable(a)));
    let backend_body = adx_dispatch.backend_body();
    let modexp_body = ifma_dispatch.select(
        &[
            (
                0,
                dispatch::Call::Stmts(quote! {
                    let x = self.reduce(&Self::limbs_from_be(base_be));
                    #ifma_note
                    let [y] = unsafe { Self::pow_ifma_x1([self], [&x], [exp_be]) };
                    return Self::be_from_limbs(&y);
                }),
            ),
            (
                1,
                dispatch::Call::Expr(quote!(self.modexp_montgomery64(base_be, exp_be))),
            ),
        ],
        &quote!(),
    );
    let modexp_backend_body = ifma_dispatch.select(
        &[
            (0, dispatch::Call::Expr(quote!("x86_64-avx512ifma"))),
            (1, dispatch::Call::Expr(quote!(Self::backend()))),
        ],
        &quote!(),
    );
    let (window_mul_arm, window_sq_arm) = if super::window::mont_supported(n) {
        (
            quote! {
                #[cfg(target_arch = "x86_64")]
                "x86_64-adx-window" if Self::adx() => {
                    #adx_note
                    ::core::option::Option::Some(unsafe { self.mul_adx_window(a, b) })
                }
            },
            quote! {
                #[cfg(target_arch = "x86_64")]
                "x86_64-adx-window" if Self::adx() => {
                    #adx_note
                    ::core::option::Option::Some(unsafe { self.square_adx_window(a) })
                }
            },
        )
    } else {
        (quote!(), quote!())
    };
    let window_doc = format!(
        " Window of `modexp` in bits (table of 2^{w} = {} entries, each read by masking).",
        1 << w
    );
    let struct_doc = format!(" {doc}");
    quote! {
        #[doc = #struct_doc]
        #[derive(Clone)]
        pub struct #name {
            /// The modulus n, little-endian limbs.
            p: [u64; #nl],
            /// n0' = −n⁻¹ mod 2^64.
            n0: u64,
            /// R mod n (one in Montgomery form), R = 2^N.
            one: [u64; #nl],
            /// R² mod n.
            r2: [u64; #nl],
            /// n in radix 2^52 (the AVX-512 IFMA exponentiation), zero-padded.
            #[allow(dead_code)]
            n52: [u64; #lp52],
            /// R'² mod n in radix 2^52, R' = 2^(52·⌈(N + 2)/52⌉).
            #[allow(dead_code)]
            rr52: [u64; #lp52],
        }

        // Pooled straight-line functions may declare a slot that is written once.
        #[allow(unused_mut)]
        impl #name {
            /// Length of the modulus and of every value in bytes (big-endian encodings).
            pub const BYTES: usize = #nb;
            /// Limbs (64-bit, little-endian) of a value in Montgomery form.
            pub const LIMBS: usize = #nl;
            /// Operand size N in bits; R = 2^N.
            pub const BITS: u32 = #bits_u32;
            #[doc = #window_doc]
            pub const WINDOW: u32 = #wl;
            /// Karatsuba leaf: products of operands of at most this many limbs are straight-line
            /// Comba; larger ones split in halves.
            pub const KARATSUBA_LEAF: usize = #leaf_lit;
            /// Karatsuba leaf of squaring: squares of at most this many limbs are Comba.
            pub const SQUARE_KARATSUBA_LEAF: usize = #sleaf_lit;

            /// A context for the modulus n given as BYTES big-endian bytes. None unless n is
            /// odd and its top byte is non-zero (n ≥ 2^(N−8)). Computes n0' = −n⁻¹ mod 2^64
            /// (Newton's iteration) and R² mod n (R mod n by at most eight conditional
            /// subtractions of shifted n, then doublings and Montgomery squarings). The modulus
            /// is public: only its validity is branched on.
            pub fn new(modulus_be: &[u8; #nb]) -> ::core::option::Option<#name> {
                if modulus_be[0] == 0 || modulus_be[#nb - 1] & 1 == 0 {
                    return ::core::option::Option::None;
                }
                let p = Self::limbs_from_be(modulus_be);
                // p·p ≡ 1 mod 8 for odd p; each step doubles the correct low bits: 3→6→…→96.
                let mut inv = p[0];
                let mut i = 0;
                while i < 5 {
                    inv = inv.wrapping_mul(2u64.wrapping_sub(p[0].wrapping_mul(inv)));
                    i += 1;
                }
                // R − n < R ≤ 256·n: reduce by n·2^j for j = 7..0.
                let (mut x, _) = Self::sub_limbs(&[0; #nl], &p);
                let mut top = 0u64;
                let mut j = 8;
                while j > 0 {
                    j -= 1;
                    let (shifted, shifted_top) = Self::shl_small(&p, j);
                    let (d, borrow) = Self::sub_limbs(&x, &shifted);
                    let (d_top, borrow_top) = Self::sub_word(top, shifted_top, borrow);
                    let keep = 0u64.wrapping_sub(borrow_top);
                    x = Self::select(keep, &d, &x);
                    top = (keep & top) | (!keep & d_top);
                }
                let mut ctx = #name { p, n0: inv.wrapping_neg(), one: x, r2: [0; #nl], n52: [0; #lp52], rr52: [0; #lp52] };
                let mut r = x;
                let mut i = 0;
                while i < #kl {
                    r = ctx.add_mod(&r, &r);
                    i += 1;
                }
                let mut i = 0;
                while i < #sl {
                    r = ctx.square(&r);
                    i += 1;
                }
                ctx.r2 = r;
                ctx.ifma_init();
                ::core::option::Option::Some(ctx)
            }

            /// The modulus n, BYTES big-endian bytes.
            pub fn modulus_be(&self) -> [u8; #nb] {
                Self::be_from_limbs(&self.p)
            }

            /// The modulus n, little-endian limbs.
            pub fn modulus_limbs(&self) -> &[u64; #nl] {
                &self.p
            }

            /// One in Montgomery form (R mod n).
            pub fn one(&self) -> [u64; #nl] {
                self.one
            }

            /// x·R mod n for any x < 2^N given as BYTES big-endian bytes (values ≥ n are
            /// reduced): one Montgomery multiplication by R² mod n. Constant time.
            pub fn to_montgomery(&self, x_be: &[u8; #nb]) -> [u64; #nl] {
                self.mul(&Self::limbs_from_be(x_be), &self.r2)
            }

            /// x·R mod n for any x < 2^N given as limbs (values ≥ n are reduced).
            pub fn to_montgomery_limbs(&self, x: &[u64; #nl]) -> [u64; #nl] {
                self.mul(x, &self.r2)
            }

            /// The value a·R⁻¹ mod n of a Montgomery-form value a < n, BYTES big-endian bytes.
            pub fn from_montgomery(&self, a: &[u64; #nl]) -> [u8; #nb] {
                Self::be_from_limbs(&self.from_montgomery_limbs(a))
            }

            /// a·R⁻¹ mod n as limbs.
            pub fn from_montgomery_limbs(&self, a: &[u64; #nl]) -> [u64; #nl] {
                let mut t = [0u64; #n2];
                t[..#nl].copy_from_slice(a);
                self.redc(&t)
            }

            /// Montgomery product a·b·R⁻¹ mod n of two values below n (Montgomery form in,
            /// Montgomery form out); also correct whenever a·b < n·R. Constant time.
            /// Runs the BMI2/ADX assembly when the CPU has it (see `backend`).
            #[inline]
            #[allow(unused_doc_comments)]
            pub fn mul(&self, a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
                #mul_body
            }

            /// The portable Montgomery product (the fallback of `mul`); public for
            /// differential tests.
            #[doc(hidden)]
            #[inline]
            pub fn mul_portable(&self, a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
                self.redc(&Self::#top_mul(a, b, false))
            }

            /// The portable Montgomery square (the fallback of `square`).
            #[doc(hidden)]
            #[inline]
            pub fn square_portable(&self, a: &[u64; #nl]) -> [u64; #nl] {
                self.redc(&Self::#top_sq(a, false))
            }

            /// Test and measurement hook: the Montgomery product by one named variant —
            /// "portable", "x86_64-adx-cios", "x86_64-adx-sos" or (sizes of 16, 24, 32 … limbs)
            /// "x86_64-adx-window" — or None when this build or CPU cannot run it. Not a stable
            /// API.
            #[doc(hidden)]
            #[allow(unused_doc_comments)]
            pub fn mul_with(&self, variant: &str, a: &[u64; #nl], b: &[u64; #nl]) -> ::core::option::Option<[u64; #nl]> {
                match variant {
                    "portable" => ::core::option::Option::Some(self.mul_portable(a, b)),
                    #[cfg(target_arch = "x86_64")]
                    "x86_64-adx-cios" if Self::adx() => {
                        #adx_note
                        ::core::option::Option::Some(unsafe { self.mul_adx_cios(a, b) })
                    }
                    #[cfg(target_arch = "x86_64")]
                    "x86_64-adx-sos" if Self::adx() => {
                        #adx_note
                        ::core::option::Option::Some(unsafe { self.redc_adx(&Self::#top_mul(a, b, true)) })
                    }
                    #window_mul_arm
                    _ => ::core::option::Option::None,
                }
            }

            /// Test and measurement hook: the Montgomery square by one named variant (as
            /// `mul_with`; "x86_64-adx-cios" squares as a product). Not a stable API.
            #[doc(hidden)]
            #[allow(unused_doc_comments)]
            pub fn square_with(&self, variant: &str, a: &[u64; #nl]) -> ::core::option::Option<[u64; #nl]> {
                match variant {
                    "portable" => ::core::option::Option::Some(self.square_portable(a)),
                    #[cfg(target_arch = "x86_64")]
                    "x86_64-adx-cios" if Self::adx() => {
                        #adx_note
                        ::core::option::Option::Some(unsafe { self.mul_adx_cios(a, a) })
                    }
                    #[cfg(target_arch = "x86_64")]
                    "x86_64-adx-sos" if Self::adx() => {
                        #adx_note
                        ::core::option::Option::Some(unsafe { self.redc_adx(&Self::#top_sq(a, true)) })
                    }
                    #window_sq_arm
                    _ => ::core::option::Option::None,
                }
            }

            /// The backend `mul` and `square` use on this machine: "x86_64-adx" (BMI2/ADX
            /// assembly rows) or "portable64".
            pub fn backend() -> &'static str {
                #backend_body
            }

            /// Montgomery square a²·R⁻¹ mod n of a value below n. Constant time.
            /// Runs the BMI2/ADX assembly when the CPU has it.
            #[inline]
            #[allow(unused_doc_comments)]
            pub fn square(&self, a: &[u64; #nl]) -> [u64; #nl] {
                #square_body
            }

            /// t mod n for t + top·R < 2n (top 0 or 1): one constant-time subtraction.
            #[inline]
            #[allow(dead_code)]
            fn final_subtract(&self, t: &[u64; #nl], top: u64) -> [u64; #nl] {
                let (d, borrow) = Self::sub_limbs(t, &self.p);
                let (_, keep) = Self::sub_word(top, 0, borrow);
                Self::select(0u64.wrapping_sub(keep), &d, t)
            }

            /// The full 2N-bit product of two N-bit values (little-endian limbs): Karatsuba
            /// above the leaf, assembly rows (BMI2/ADX) or Comba at the leaves. Constant time.
            #[inline]
            pub fn mul_wide(a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #n2] {
                Self::#top_mul(a, b, true)
            }

            /// The full 2N-bit square of an N-bit value. Constant time.
            #[inline]
            pub fn square_wide(a: &[u64; #nl]) -> [u64; #n2] {
                Self::#top_sq(a, true)
            }

            /// a + b mod n for a, b < n. Constant time.
            pub fn add_mod(&self, a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
                let (s, carry) = Self::add_limbs(a, b);
                let (d, borrow) = Self::sub_limbs(&s, &self.p);
                // Keep s exactly when s < n: no carry out and a borrow.
                let keep = 0u64.wrapping_sub(borrow & (carry ^ 1));
                Self::select(keep, &d, &s)
            }

            /// a − b mod n for a, b < n. Constant time.
            pub fn sub_mod(&self, a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
                let (d, borrow) = Self::sub_limbs(a, b);
                let (s, _) = Self::add_limbs(&d, &self.p);
                Self::select(0u64.wrapping_sub(borrow), &d, &s)
            }

            /// base^exp mod n, BYTES big-endian bytes. `base_be` may be any value below 2^N
            /// (it is reduced mod n); `exp_be` is big-endian of any length, zero allowed (the
            /// result is then 1). Constant time in the values of base and exponent: a fixed
            /// window of WINDOW bits over all 8·exp_be.len() bits, squarings and one
            /// multiplication per window, the table entry read by masking over every entry.
            /// The time depends only on exp_be.len().
            /// On x86-64 with AVX-512 IFMA (CPUID once) the exponentiation runs in radix 2^52
            /// (see `modexp_backend`).
            #[allow(unused_doc_comments)]
            pub fn modexp(&self, base_be: &[u8; #nb], exp_be: &[u8]) -> [u8; #nb] {
                #modexp_body
            }

            /// `modexp` on 64-bit limbs (`pow_ct`: BMI2/ADX assembly or portable), the
            /// fallback where AVX-512 IFMA is missing.
            #[doc(hidden)]
            pub fn modexp_montgomery64(&self, base_be: &[u8; #nb], exp_be: &[u8]) -> [u8; #nb] {
                let base = self.to_montgomery(base_be);
                let acc = self.pow_ct(&base, exp_be);
                self.from_montgomery(&acc)
            }

            /// Test and measurement hook: `modexp` by one named backend — "montgomery64" (the
            /// fallback) or "x86_64-avx512ifma" — or None when this build or CPU cannot run it.
            /// Not a stable API.
            #[doc(hidden)]
            #[allow(unused_doc_comments)]
            pub fn modexp_with(&self, variant: &str, base_be: &[u8; #nb], exp_be: &[u8]) -> ::core::option::Option<[u8; #nb]> {
                match variant {
                    "montgomery64" => ::core::option::Option::Some(self.modexp_montgomery64(base_be, exp_be)),
                    #[cfg(target_arch = "x86_64")]
                    "x86_64-avx512ifma" if Self::ifma() => {
                        let x = self.reduce(&Self::limbs_from_be(base_be));
                        #ifma_note
                        let [y] = unsafe { Self::pow_ifma_x1([self], [&x], [exp_be]) };
                        ::core::option::Option::Some(Self::be_from_limbs(&y))
                    }
                    _ => ::core::option::Option::None,
                }
            }

            /// The backend of `modexp` and of the CRT private operation on this machine:
            /// "x86_64-avx512ifma" (radix 2^52, AVX-512 IFMA) or the `backend` of `mul`.
            pub fn modexp_backend() -> &'static str {
                #modexp_backend_body
            }

            /// base^exp in Montgomery form, constant time as `modexp`.
            pub fn pow_ct(&self, base: &[u64; #nl], exp_be: &[u8]) -> [u64; #nl] {
                let mut table = [[0u64; #nl]; #table];
                table[0] = self.one;
                table[1] = *base;
                let mut i = 2;
                while i < #table {
                    table[i] = if i % 2 == 0 {
                        self.square(&table[i / 2])
                    } else {
                        self.mul(&table[i - 1], base)
                    };
                    i += 1;
                }
                let bits = exp_be.len() * 8;
                let windows = bits.div_ceil(#wl);
                let mut acc = self.one;
                let mut k = windows;
                while k > 0 {
                    k -= 1;
                    let digit = Self::exp_bits(exp_be, k * #wl, #wl);
                    let entry = Self::table_lookup(&table, digit);
                    if k + 1 == windows {
                        // The first window: acc is one, so no squarings (the position is public).
                        acc = entry;
                    } else {
                        let mut j = 0;
                        while j < #wl {
                            acc = self.square(&acc);
                            j += 1;
                        }
                        acc = self.mul(&acc, &entry);
                    }
                }
                acc
            }

            /// base^exp mod n for a public exponent (big-endian, any length; e.g. 3 or 65537):
            /// left-to-right sliding window over the exponent's bits, branching on them; the
            /// window grows with the exponent's length (1 bit, i.e. square-and-multiply, up to
            /// 32 bits). `base_be` may be any value below 2^N. Not constant time in the exponent.
            pub fn modexp_vartime(&self, base_be: &[u8; #nb], exp_be: &[u8]) -> [u8; #nb] {
                let base = self.to_montgomery(base_be);
                let acc = self.pow_vartime(&base, exp_be);
                self.from_montgomery(&acc)
            }

            /// base^exp in Montgomery form for a public exponent (see `modexp_vartime`).
            pub fn pow_vartime(&self, base: &[u64; #nl], exp_be: &[u8]) -> [u64; #nl] {
                let bit = |i: usize| (exp_be[exp_be.len() - 1 - i / 8] >> (i % 8)) & 1 == 1;
                let mut nbits = exp_be.len() * 8;
                while nbits > 0 && !bit(nbits - 1) {
                    nbits -= 1;
                }
                if nbits == 0 {
                    return self.one;
                }
                let width = if nbits <= 32 { 1 } else if nbits <= 256 { 4 } else { 5 };
                // Odd powers base^1, base^3, …, base^(2^width − 1).
                let mut odd = [[0u64; #nl]; 16];
                odd[0] = *base;
                let base2 = self.square(base);
                let mut i = 1;
                while i < (1usize << (width - 1)) {
                    odd[i] = self.mul(&odd[i - 1], &base2);
                    i += 1;
                }
                let mut acc: ::core::option::Option<[u64; #nl]> = ::core::option::Option::None;
                let mut i = nbits;
                while i > 0 {
                    let top = i - 1;
                    if !bit(top) {
                        if let ::core::option::Option::Some(a) = acc.as_mut() {
                            *a = self.square(a);
                        }
                        i -= 1;
                        continue;
                    }
                    // The longest window [low, top] of at most `width` bits ending in a 1.
                    let mut low = (top + 1).saturating_sub(width);
                    while !bit(low) {
                        low += 1;
                    }
                    let mut value = 0usize;
                    let mut j = top + 1;
                    while j > low {
                        j -= 1;
                        value = (value << 1) | bit(j) as usize;
                    }
                    let entry = &odd[value >> 1];
                    acc = ::core::option::Option::Some(match acc {
                        ::core::option::Option::None => *entry,
                        ::core::option::Option::Some(mut a) => {
                            let mut j = 0;
                            while j < top + 1 - low {
                                a = self.square(&a);
                                j += 1;
                            }
                            self.mul(&a, entry)
                        }
                    });
                    i = low;
                }
                acc.unwrap_or(self.one)
            }

            /// `count` ≤ 8 bits of the big-endian exponent starting at bit `pos` (from the
            /// least significant bit); bits beyond the exponent are zero. Positions are public.
            #[inline]
            fn exp_bits(exp_be: &[u8], pos: usize, count: usize) -> usize {
                let len = exp_be.len();
                let mut d = 0usize;
                let mut k = count;
                while k > 0 {
                    k -= 1;
                    let b = pos + k;
                    let v = if b < 8 * len { (exp_be[len - 1 - b / 8] >> (b % 8)) & 1 } else { 0 };
                    d = (d << 1) | v as usize;
                }
                d
            }

            /// table\[digit\], reading every entry and keeping one by masks (constant time).
            #[inline]
            fn table_lookup(table: &[[u64; #nl]; #table], digit: usize) -> [u64; #nl] {
                let mut out = [0u64; #nl];
                for (idx, entry) in table.iter().enumerate() {
                    let eq = ::fieldgen_field::subtle::ConstantTimeEq::ct_eq(&(idx as u64), &(digit as u64));
                    let mask = 0u64.wrapping_sub(eq.unwrap_u8() as u64);
                    let mut j = 0;
                    while j < #nl {
                        out[j] |= entry[j] & mask;
                        j += 1;
                    }
                }
                out
            }

            /// Little-endian limbs of a BYTES-byte big-endian value.
            pub fn limbs_from_be(bytes: &[u8; #nb]) -> [u64; #nl] {
                let mut limbs = [0u64; #nl];
                let mut i = 0;
                while i < #nl {
                    let mut w = [0u8; 8];
                    w.copy_from_slice(&bytes[#nb - 8 * (i + 1)..#nb - 8 * i]);
                    limbs[i] = u64::from_be_bytes(w);
                    i += 1;
                }
                limbs
            }

            /// The BYTES-byte big-endian encoding of little-endian limbs.
            pub fn be_from_limbs(limbs: &[u64; #nl]) -> [u8; #nb] {
                let mut bytes = [0u8; #nb];
                let mut i = 0;
                while i < #nl {
                    bytes[#nb - 8 * (i + 1)..#nb - 8 * i].copy_from_slice(&limbs[i].to_be_bytes());
                    i += 1;
                }
                bytes
            }

            /// a + b as limbs and the carry bit.
            #[inline]
            fn add_limbs(a: &[u64; #nl], b: &[u64; #nl]) -> ([u64; #nl], u64) {
                let mut out = [0u64; #nl];
                let mut carry = 0u64;
                let mut i = 0;
                while i < #nl {
                    let t = a[i] as u128 + b[i] as u128 + carry as u128;
                    out[i] = t as u64;
                    carry = (t >> 64) as u64;
                    i += 1;
                }
                (out, carry)
            }

            /// a − b as limbs and the borrow bit.
            #[inline]
            fn sub_limbs(a: &[u64; #nl], b: &[u64; #nl]) -> ([u64; #nl], u64) {
                let mut out = [0u64; #nl];
                let mut borrow = 0u64;
                let mut i = 0;
                while i < #nl {
                    let (d, bo) = Self::sub_word(a[i], b[i], borrow);
                    out[i] = d;
                    borrow = bo;
                    i += 1;
                }
                (out, borrow)
            }

            /// a − b − borrow_in as (difference, borrow out); borrow_in is 0 or 1.
            #[inline]
            fn sub_word(a: u64, b: u64, borrow_in: u64) -> (u64, u64) {
                let t = (a as u128).wrapping_sub(b as u128 + borrow_in as u128);
                (t as u64, (t >> 127) as u64)
            }

            /// mask == 0 ? a : b, limb by limb (mask all ones or zero).
            #[inline]
            fn select(mask: u64, a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
                let mut out = [0u64; #nl];
                let mut i = 0;
                while i < #nl {
                    out[i] = a[i] ^ (mask & (a[i] ^ b[i]));
                    i += 1;
                }
                out
            }

            /// a·2^j (j < 64) as limbs and the word shifted out.
            #[inline]
            fn shl_small(a: &[u64; #nl], j: u32) -> ([u64; #nl], u64) {
                let mut out = [0u64; #nl];
                if j == 0 {
                    return (*a, 0);
                }
                let mut carry = 0u64;
                let mut i = 0;
                while i < #nl {
                    out[i] = (a[i] << j) | carry;
                    carry = a[i] >> (64 - j);
                    i += 1;
                }
                (out, carry)
            }

            /// The two halves of a limb array.
            #[allow(dead_code)]
            #[inline(always)]
            fn halves<const H: usize, const M: usize>(a: &[u64; M]) -> (&[u64; H], &[u64; H]) {
                let (x, y) = a.split_at(H);
                // H + H = M by construction of the recursion: the conversions cannot fail.
                match (<&[u64; H]>::try_from(x), <&[u64; H]>::try_from(y)) {
                    (::core::result::Result::Ok(x), ::core::result::Result::Ok(y)) => (x, y),
                    _ => ::core::unreachable!("halves of an even-length array"),
                }
            }

            /// The first H limbs of an array of M ≥ H limbs.
            #[allow(dead_code)]
            #[inline(always)]
            fn head<const H: usize, const M: usize>(a: &[u64; M]) -> &[u64; H] {
                match <&[u64; H]>::try_from(&a[..H]) {
                    ::core::result::Result::Ok(x) => x,
                    ::core::result::Result::Err(_) => ::core::unreachable!("H ≤ M"),
                }
            }

            /// The N-limb window t\[i..i+N\] of a 2N-limb array (i ≤ N).
            #[allow(dead_code)]
            #[inline(always)]
            fn window(t: &[u64; #n2], i: usize) -> &[u64; #nl] {
                match <&[u64; #nl]>::try_from(&t[i..i + #nl]) {
                    ::core::result::Result::Ok(x) => x,
                    ::core::result::Result::Err(_) => ::core::unreachable!("i ≤ N"),
                }
            }

            #products
            #ifma
            #redc
            #asm
            #helpers
        }

        #helper_items

        impl ::core::fmt::Debug for #name {
            /// The modulus in hex; the context holds nothing secret beyond it.
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(::core::stringify!(#name))?;
                f.write_str("(n = 0x")?;
                for byte in self.modulus_be().iter() {
                    write!(f, "{:02x}", byte)?;
                }
                f.write_str(")")
            }
        }

    }
}
