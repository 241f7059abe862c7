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

mod kernels;
mod portable;
mod reduce;

use kernels::backend_items;
use portable::{bit_helpers, portable32_items, square_portable};
use reduce::{invert_body, reduce_fn};

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
    let m = usize_lit(s.m);
    let last = usize_lit(c.n - 1);
    let top = c.lit(c.top_mask());
    let exps: Vec<Literal> = s.exponents.iter().map(|&e| usize_lit(e)).collect();
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
    let half_trace_reps = usize_lit((s.m - 1) / 2);
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
        let reps = usize_lit(s.m - 1);
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

    let (layer_methods, layer_impls) = crate::api::field_layer::binary_items(
        &crate::api::field_layer::FieldShape::binary(c.w, c.n, s.bytes),
        name,
        c.m,
    );
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
