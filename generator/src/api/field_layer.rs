//! What a generated prime field adds for the field layer (`fieldgen-field`): `const fn`
//! constructors for compile-time constants, the double-width Montgomery arithmetic of
//! [`crate::strategy::wide`], and the impls of the layer's traits over the inherent API.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::field::{lit, StoredForm};
use crate::backend::portable::{emit_fn, Words};
use crate::pass::{optimize, verify_bounds};
use crate::spec::FieldConsts;
use crate::strategy::wide;

/// The `konst` helper named `base` for the limb size (`lt_u64`, `mont_mul_u32`, ...).
fn konst_fn(c: &FieldConsts, base: &str) -> TokenStream {
    let f = format_ident!("{}_u{}", base, c.w());
    quote!(::fieldgen_field::konst::#f)
}

/// How a generated field stores its elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// An integer mod p: Montgomery, plain (canonical or loose) or unsaturated limbs.
    Prime(StoredForm),
    /// A polynomial mod f over GF(2) in polynomial basis: coefficient words, bit i of the
    /// vector the coefficient of x^i.
    Polynomial,
}

/// Which optional operations the inherent API has beside those every field has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoreOps {
    /// `square_n(&self, k)`: k squarings.
    pub square_n: bool,
    /// `batch_invert(&mut [Self])`.
    pub batch_invert: bool,
}

/// The small description of a field that the public-API emitters shared by prime and binary
/// fields take; where the two APIs differ, each emitter keeps its own items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldShape {
    /// The stored form.
    pub stored: Stored,
    /// Bits per word of the canonical representation (`u32` or `u64` words).
    pub word_bits: u32,
    /// Words of the canonical representation (`from_canonical` takes `[word; limbs]`).
    pub limbs: usize,
    /// Bytes of the encodings.
    pub bytes: usize,
    /// The optional operations present.
    pub ops: CoreOps,
}

impl FieldShape {
    /// A prime field of constants `c` stored as `form`.
    pub fn prime(c: &FieldConsts, form: StoredForm) -> FieldShape {
        FieldShape {
            stored: Stored::Prime(form),
            word_bits: c.w(),
            limbs: c.limbs,
            bytes: c.bytes,
            ops: CoreOps {
                square_n: false,
                batch_invert: true,
            },
        }
    }

    /// A binary field of `words` w-bit coefficient words and `bytes`-byte encodings.
    pub fn binary(w: u32, words: usize, bytes: usize) -> FieldShape {
        FieldShape {
            stored: Stored::Polynomial,
            word_bits: w,
            limbs: words,
            bytes,
            ops: CoreOps {
                square_n: true,
                batch_invert: false,
            },
        }
    }

    fn characteristic_two(&self) -> bool {
        self.stored == Stored::Polynomial
    }

    /// What the canonical words are called in the emitted code.
    fn words_name(&self) -> Ident {
        match self.stored {
            Stored::Prime(_) => format_ident!("limbs"),
            Stored::Polynomial => format_ident!("words"),
        }
    }
}

/// `from_hex_vartime` (inside `impl Name`): big-endian hex digits parsed at compile time into
/// canonical words, then `from_canonical`. `doc` says what the digits give.
fn from_hex_item(shape: &FieldShape, name: &Ident, doc: &str) -> TokenStream {
    let hex = format_ident!("parse_hex_u{}", shape.word_bits);
    let n = lit(shape.limbs);
    let words = shape.words_name();
    quote! {
        #[doc = #doc]
        pub const fn from_hex_vartime(hex: &str) -> ::core::option::Option<#name> {
            match ::fieldgen_field::konst::#hex::<#n>(hex) {
                ::core::option::Option::Some(#words) => Self::from_canonical(#words),
                ::core::option::Option::None => ::core::option::Option::None,
            }
        }
    }
}

/// Associated items inside `impl Name`: `from_canonical` and `from_hex_vartime`, both
/// `const fn`, with the private constants they need.
pub fn const_constructors(c: &FieldConsts, name: &Ident, form: StoredForm) -> TokenStream {
    let words = Words { w: c.w() };
    let word = words.word();
    let n = lit(c.limbs);
    let lt = konst_fn(c, "lt");
    let (consts, enter) = match form {
        StoredForm::Montgomery => {
            let mont_mul = konst_fn(c, "mont_mul");
            let n0 = words.lit(c.n0_inv);
            (
                quote! {
                    /// n0' = −p⁻¹ mod 2^w.
                    const N0: #word = #n0;
                },
                quote!(#mont_mul::<#n>(&limbs, &Self::R2, &Self::MODULUS_LIMBS, Self::N0)),
            )
        }
        StoredForm::Unsaturated { k, m } => {
            let split = konst_fn(c, "split");
            let pos = crate::strategy::unsaturated::positions(k, m);
            let len = lit(pos.len());
            let ml = lit(m);
            (
                quote! {
                    /// Bit positions of the unsaturated limbs (limb i holds bits pos\[i\]..pos\[i + 1\]).
                    const LIMB_POSITIONS: [u32; #len] = [#(#pos),*];
                },
                quote!(#split::<#n, #ml>(&limbs, &Self::LIMB_POSITIONS)),
            )
        }
        StoredForm::Canonical { .. } => (quote!(), quote!(limbs)),
    };
    let hex_doc = format!(
        " The element whose canonical value is given by big-endian hex digits (optional `0x`, `_` separators allowed), as a `const fn` for constants: `const X: {name} = match {name}::from_hex_vartime(\"0x..\") {{ Some(x) => x, None => panic!() }};`. None for a malformed string or a value ≥ p. Variable time in the digits (meant for public constants)."
    );
    let from_hex = from_hex_item(&FieldShape::prime(c, form), name, &hex_doc);
    quote! {
        #consts

        /// The element with canonical value `limbs` (little-endian, w-bit limbs), as a `const
        /// fn`: curve constants built with it are compile-time constants. None when the value
        /// is ≥ p. Constant time in a valid value (a borrow chain and, in Montgomery form, one
        /// CIOS product by R² mod p in `fieldgen_field::konst`); whether the value is valid
        /// shows in the result and the time, so decode secret input with `from_le_bytes`.
        pub const fn from_canonical(limbs: [#word; #n]) -> ::core::option::Option<#name> {
            if !#lt::<#n>(&limbs, &Self::MODULUS_LIMBS) {
                return ::core::option::Option::None;
            }
            ::core::option::Option::Some(#name(#enter))
        }

        #from_hex
    }
}

/// Double-width arithmetic for a Montgomery-form field `name`: the `<name>Wide` type (outside
/// the `impl`) and the methods (inside it). Empty for other stored forms.
pub struct WideItems {
    /// Items inside `impl Name`.
    pub methods: TokenStream,
    /// The wide type and its impls, at module level.
    pub items: TokenStream,
}

/// The name of the double-width type of field `name`.
pub fn wide_name(name: &Ident) -> Ident {
    format_ident!("{}Wide", name)
}

/// See [`WideItems`]. With `adx` (the field has the x86-64 BMI2/ADX kernels, and the
/// double-width kernels apply: [`crate::backend::x86_64::wide::supported`]), `mul_wide`,
/// `square_wide` and `reduce_wide` dispatch to assembly as the fused product does.
pub fn wide_items(c: &FieldConsts, name: &Ident, adx: bool) -> WideItems {
    let words = Words { w: c.w() };
    let word = words.word();
    let n2 = lit(2 * c.limbs);
    let wide = wide_name(name);
    let adx = adx && crate::backend::x86_64::wide::supported(c);
    let portable = |f: &'static str| -> &'static str {
        match (adx, f) {
            (false, f) => f,
            (true, "mul_wide_limbs") => "mul_wide_limbs_portable",
            (true, "square_wide_limbs") => "square_wide_limbs_portable",
            (true, "reduce_wide_limbs") => "reduce_wide_limbs_portable",
            (true, f) => f,
        }
    };
    let fns = [
        (
            portable("mul_wide_limbs"),
            wide::lower_mul_wide(c),
            &["a", "b"][..],
            "The 2n-limb product a·b of two values below p.",
        ),
        (
            portable("square_wide_limbs"),
            wide::lower_square_wide(c),
            &["a"][..],
            "The 2n-limb square a² of a value below p; off-diagonal products once.",
        ),
        (
            portable("reduce_wide_limbs"),
            wide::lower_reduce_wide(c),
            &["t"][..],
            "T·R⁻¹ mod p for T below p·R (Montgomery reduction, SOS).",
        ),
        (
            "add_wide_limbs",
            wide::lower_add_wide(c),
            &["a", "b"][..],
            "(a + b) mod p·R for a, b below p·R.",
        ),
        (
            "sub_wide_limbs",
            wide::lower_sub_wide(c),
            &["a", "b"][..],
            "(a − b) mod p·R for a, b below p·R.",
        ),
    ];
    let kernels = fns
        .iter()
        .map(|(fname, f, args, doc)| emit_fn(&optimize(f), &format_ident!("{}", fname), args, doc));
    let unreduced = unreduced_items(c, name, adx);
    let (unreduced_methods, unreduced_wide, unreduced_trait) = (
        unreduced.methods,
        unreduced.wide_methods,
        unreduced.trait_items,
    );
    let type_doc = format!(
        " A double-width value of [`{name}`]: an integer T below p·R (R = 2^{}), as {} little-endian {}-bit limbs, the input of Montgomery reduction. Products of Montgomery representatives (`{name}::mul_wide`) are such values, and `add`/`sub` keep the bound by working modulo p·R, so `{name}::reduce_wide` of a sum of products equals the sum of the reduced products (lazy reduction).",
        c.w() as usize * c.limbs,
        2 * c.limbs,
        c.w()
    );
    let n = lit(c.limbs);
    let dispatch = if adx {
        let asm = crate::backend::x86_64::wide::wide_fns(c);
        let note = crate::backend::x86_64::asm::safety_note(
            "x86_64_adx_available() is true only when the CPU has BMI2 and ADX: the build enables both target features, or CPUID reported both.",
        );
        quote! {
            #asm

            /// The 2n-limb product a·b: the BMI2/ADX kernel when this CPU has it, else portable.
            #[inline]
            #[allow(unused_doc_comments)]
            fn mul_wide_limbs(a: &[#word; #n], b: &[#word; #n]) -> [#word; #n2] {
                #[cfg(target_arch = "x86_64")]
                {
                    if Self::x86_64_adx_available() {
                        #note
                        return unsafe { Self::mul_wide_x86_64_adx(a, b) };
                    }
                }
                Self::mul_wide_limbs_portable(a, b)
            }

            /// The 2n-limb square a²: the BMI2/ADX kernel when this CPU has it, else portable.
            #[inline]
            #[allow(unused_doc_comments)]
            fn square_wide_limbs(a: &[#word; #n]) -> [#word; #n2] {
                #[cfg(target_arch = "x86_64")]
                {
                    if Self::x86_64_adx_available() {
                        #note
                        return unsafe { Self::square_wide_x86_64_adx(a) };
                    }
                }
                Self::square_wide_limbs_portable(a)
            }

            /// T·R⁻¹ mod p for T below p·R: the BMI2/ADX kernel when this CPU has it, else
            /// portable.
            #[inline]
            #[allow(unused_doc_comments)]
            fn reduce_wide_limbs(t: &[#word; #n2]) -> [#word; #n] {
                #[cfg(target_arch = "x86_64")]
                {
                    if Self::x86_64_adx_available() {
                        #note
                        return unsafe { Self::reduce_wide_x86_64_adx(t) };
                    }
                }
                Self::reduce_wide_limbs_portable(t)
            }
        }
    } else {
        quote!()
    };
    let methods = quote! {
        #(#kernels)*
        #dispatch
        #unreduced_methods

        /// The unreduced product of the Montgomery representatives, ã·b̃ < p² (2n limbs); see
        /// the wide type. One schoolbook product, no reduction.
        #[inline]
        pub fn mul_wide(&self, rhs: &#name) -> #wide { #wide(Self::mul_wide_limbs(&self.0, &rhs.0)) }
        /// The unreduced square ã² < p² (2n limbs).
        #[inline]
        pub fn square_wide(&self) -> #wide { #wide(Self::square_wide_limbs(&self.0)) }
        /// T·R⁻¹ mod p: one Montgomery reduction of a wide value, giving the field element
        /// whose Montgomery form it is (so `reduce_wide(a.mul_wide(b)) == a * b`).
        #[inline]
        pub fn reduce_wide(t: &#wide) -> #name { #name(Self::reduce_wide_limbs(&t.0)) }
    };
    let zero_lit: TokenStream = format!("0{word}").parse().unwrap();
    let items = quote! {
        #[doc = #type_doc]
        #[derive(Clone, Copy)]
        pub struct #wide([#word; #n2]);

        impl #wide {
            /// Zero.
            pub const ZERO: #wide = #wide([0; #n2]);
            /// (self + rhs) mod p·R.
            #[inline]
            pub fn add(&self, rhs: &#wide) -> #wide { #wide(#name::add_wide_limbs(&self.0, &rhs.0)) }
            /// (self − rhs) mod p·R.
            #[inline]
            pub fn sub(&self, rhs: &#wide) -> #wide { #wide(#name::sub_wide_limbs(&self.0, &rhs.0)) }
            /// The limbs, little-endian.
            pub const fn limbs(&self) -> &[#word; #n2] { &self.0 }
            #unreduced_wide
        }

        impl ::core::default::Default for #wide {
            #[inline]
            fn default() -> #wide { #wide::ZERO }
        }

        impl ::core::fmt::Debug for #wide {
            /// `0x` and the 2n limbs as big-endian hex.
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str("0x")?;
                for limb in self.0.iter().rev() {
                    write!(f, "{:0width$x}", limb, width = (#word::BITS / 4) as usize)?;
                }
                Ok(())
            }
        }

        impl ::fieldgen_field::subtle::ConditionallySelectable for #wide {
            #[inline]
            fn conditional_select(a: &#wide, b: &#wide, choice: ::fieldgen_field::subtle::Choice) -> #wide {
                let mut out = [#zero_lit; #n2];
                let mut i = 0;
                while i < #n2 {
                    out[i] = <#word as ::fieldgen_field::subtle::ConditionallySelectable>::conditional_select(&a.0[i], &b.0[i], choice);
                    i += 1;
                }
                #wide(out)
            }
        }

        impl ::fieldgen_field::WideField for #name {
            type Wide = #wide;
            #[inline]
            fn mul_wide(a: &#name, b: &#name) -> #wide { a.mul_wide(b) }
            #[inline]
            fn square_wide(a: &#name) -> #wide { a.square_wide() }
            #[inline]
            fn reduce_wide(t: &#wide) -> #name { #name::reduce_wide(t) }
            #[inline]
            fn add_wide(a: &#wide, b: &#wide) -> #wide { a.add(b) }
            #[inline]
            fn sub_wide(a: &#wide, b: &#wide) -> #wide { a.sub(b) }
            #unreduced_trait
        }
    };
    WideItems { methods, items }
}

/// The unreduced double-width operations of [`crate::strategy::wide`] for field `name`: items
/// inside `impl Name`, inside `impl NameWide` and inside its `WideField` impl. Each lowering
/// must pass [`verify_bounds`] (the dropped carries need a spare bit of p); when one does not,
/// none is emitted and the field keeps the trait's defaults (the modular operations and
/// products of reduced sums, which satisfy the same contracts).
struct UnreducedItems {
    methods: TokenStream,
    wide_methods: TokenStream,
    trait_items: TokenStream,
}

fn unreduced_items(c: &FieldConsts, name: &Ident, adx: bool) -> UnreducedItems {
    let words = Words { w: c.w() };
    let word = words.word();
    let n = lit(c.limbs);
    let n2 = lit(2 * c.limbs);
    let wide = wide_name(name);
    let headroom = wide::headroom(c);
    let headroom_lit = proc_macro2::Literal::u32_unsuffixed(headroom);
    let headroom_doc = |add: &str| {
        format!(
            " The headroom of [`{wide}`]: the largest k with k·(p − 1)² < p·R ({headroom} here), i.e. how many products of two reduced values may be summed with {add} before the sum reaches the input bound of [`{name}::reduce_wide`]."
        )
    };
    let lowered = [
        ("add_wide_unreduced_limbs", wide::lower_add_wide_unreduced(c), &["a", "b"][..],
         "a + b for a, b below p·R with a + b below p·R: no correction."),
        ("sub_wide_unreduced_limbs", wide::lower_sub_wide_unreduced(c), &["a", "b"][..],
         "a − b for a ≥ b: no correction."),
        ("add_unreduced_limbs", wide::lower_add_unreduced(c), &["a", "b"][..],
         "a + b for a, b below p, not reduced (below 2p)."),
        ("mul_wide_sums_limbs_portable", wide::lower_mul_wide_sums(c), &["a0", "a1", "b0", "b1"][..],
         "(a0 + a1)·(b0 + b1) for a0, a1, b0, b1 below p: the sums unreduced, the exact 2n-limb product (below 4p²)."),
        ("mul_wide_doubled_check", wide::lower_mul_wide_doubled(c), &["a", "b"][..], ""),
    ];
    let proved = lowered
        .iter()
        .all(|(fname, f, _, _)| verify_bounds(f, fname).is_ok());
    // Without the proofs there is no `add_unreduced` to link to.
    let headroom_doc = if proved {
        headroom_doc(&format!("[`{wide}::add_unreduced`]"))
    } else {
        headroom_doc("an unreduced addition")
    };
    let headroom_const = quote! {
        #[doc = #headroom_doc]
        pub const WIDE_HEADROOM: u32 = #headroom_lit;
    };
    if !proved {
        return UnreducedItems {
            methods: headroom_const,
            wide_methods: quote!(),
            trait_items: quote!(const WIDE_HEADROOM: u32 = #name::WIDE_HEADROOM;),
        };
    }
    // Emitted: the two double-width operations, and for a headroom of at least 4 the product
    // of unreduced sums (below that, (a0 + a1)(b0 + b1) may exceed p·R: outside the method's
    // contract, so such fields keep the trait's default, which code respecting the contract
    // never calls). `add_unreduced_limbs` feeds the x86-64 product kernel only; the last
    // lowering only states the bounds that kernel is used under and is not emitted.
    let sums_fit = headroom >= 4;
    let kernels = lowered[..4]
        .iter()
        .filter(|(fname, ..)| match *fname {
            "add_unreduced_limbs" => adx && sums_fit,
            "mul_wide_sums_limbs_portable" => sums_fit,
            _ => true,
        })
        .map(|(fname, f, args, doc)| {
            let item = emit_fn(&optimize(f), &format_ident!("{}", fname), args, doc);
            // Read only by the x86-64 branch of `mul_wide_sums_limbs`.
            if *fname == "add_unreduced_limbs" {
                quote! { #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] #item }
            } else {
                item
            }
        });
    let sums_limbs = if adx {
        quote! {
            /// (a0 + a1)·(b0 + b1): the unreduced sums (below 2p), then the 2n-limb product
            /// (the BMI2/ADX kernel when this CPU has it: its schoolbook rows are exact for any
            /// n-limb operands), below 4p².
            #[inline]
            fn mul_wide_sums_limbs(a0: &[#word; #n], a1: &[#word; #n], b0: &[#word; #n], b1: &[#word; #n]) -> [#word; #n2] {
                #[cfg(target_arch = "x86_64")]
                {
                    if Self::x86_64_adx_available() {
                        let s = Self::add_unreduced_limbs(a0, a1);
                        let t = Self::add_unreduced_limbs(b0, b1);
                        return Self::mul_wide_limbs(&s, &t);
                    }
                }
                Self::mul_wide_sums_limbs_portable(a0, a1, b0, b1)
            }
        }
    } else {
        quote! {
            /// (a0 + a1)·(b0 + b1), below 4p².
            #[inline]
            fn mul_wide_sums_limbs(a0: &[#word; #n], a1: &[#word; #n], b0: &[#word; #n], b1: &[#word; #n]) -> [#word; #n2] {
                Self::mul_wide_sums_limbs_portable(a0, a1, b0, b1)
            }
        }
    };
    let (sums, sums_trait) = if sums_fit {
        let sums = quote! {
            #sums_limbs

            /// (a0 + a1)·(b0 + b1) of the Montgomery representatives with both sums left
            /// unreduced (below 2p): the exact integer, below 4p² < p·R ([`Self::WIDE_HEADROOM`]
            /// is at least 4 here), so the Karatsuba middle term
            /// `mul_wide_sums(a0, a1, b0, b1) − a0·b0 − a1·b1` = a0·b1 + a1·b0 is non-negative
            /// and needs no correction.
            #[inline]
            pub fn mul_wide_sums(a0: &#name, a1: &#name, b0: &#name, b1: &#name) -> #wide {
                #wide(Self::mul_wide_sums_limbs(&a0.0, &a1.0, &b0.0, &b1.0))
            }
        };
        let sums_trait = quote! {
            #[inline]
            fn mul_wide_sums(a0: &#name, a1: &#name, b0: &#name, b1: &#name) -> #wide { #name::mul_wide_sums(a0, a1, b0, b1) }
        };
        (sums, sums_trait)
    } else {
        (quote!(), quote!())
    };
    let methods = quote! {
        #headroom_const
        #(#kernels)*
        #sums
    };
    let wide_methods = quote! {
        /// self + rhs with no correction: the caller keeps the sum below p·R (counting
        /// products of reduced values against `WIDE_HEADROOM`); a larger sum is not a valid
        /// input of `reduce_wide`.
        #[inline]
        pub fn add_unreduced(&self, rhs: &#wide) -> #wide { #wide(#name::add_wide_unreduced_limbs(&self.0, &rhs.0)) }
        /// self − rhs with no correction, for self ≥ rhs (as integers); otherwise the result
        /// wraps modulo 2^(2wn) and is meaningless.
        #[inline]
        pub fn sub_unreduced(&self, rhs: &#wide) -> #wide { #wide(#name::sub_wide_unreduced_limbs(&self.0, &rhs.0)) }
    };
    let trait_items = quote! {
        const WIDE_HEADROOM: u32 = #name::WIDE_HEADROOM;
        #[inline]
        fn add_wide_unreduced(a: &#wide, b: &#wide) -> #wide { a.add_unreduced(b) }
        #[inline]
        fn sub_wide_unreduced(a: &#wide, b: &#wide) -> #wide { a.sub_unreduced(b) }
        #sums_trait
    };
    UnreducedItems {
        methods,
        wide_methods,
        trait_items,
    }
}

/// `impl fieldgen_field::Field for Name` over the inherent API, the same for prime and binary
/// fields up to what `shape` tells apart: characteristic two (doubling is zero, every element
/// has a square root) and the optional operations present.
pub fn field_impl(shape: &FieldShape, name: &Ident) -> TokenStream {
    let nb = lit(shape.bytes);
    let char2 = shape.characteristic_two();
    let double = if char2 {
        quote! {
            /// Zero: x + x = 0 in characteristic two.
            #[inline]
            fn double(&self) -> #name { #name::ZERO }
        }
    } else {
        quote! {
            #[inline]
            fn double(&self) -> #name { #name::double(self) }
        }
    };
    let square_n = if shape.ops.square_n {
        quote! {
            #[inline]
            fn square_n(&self, k: u32) -> #name { #name::square_n(self, k) }
        }
    } else {
        quote!()
    };
    let sqrt = if char2 {
        quote! {
            /// Always some: squaring is a bijection of GF(2^m).
            #[inline]
            fn sqrt(&self) -> ::fieldgen_field::subtle::CtOption<#name> { ::fieldgen_field::subtle::CtOption::new(#name::sqrt(self), ::fieldgen_field::subtle::Choice::from(1)) }
        }
    } else {
        quote! {
            #[inline]
            fn sqrt(&self) -> ::fieldgen_field::subtle::CtOption<#name> { #name::sqrt(self) }
        }
    };
    let batch_invert = if shape.ops.batch_invert {
        quote! {
            #[inline]
            fn batch_invert(elems: &mut [#name]) { #name::batch_invert(elems) }
        }
    } else {
        quote!()
    };
    quote! {
        impl ::fieldgen_field::Field for #name {
            type Bytes = [u8; #nb];
            const BYTES: usize = #nb;
            const ZERO: #name = #name::ZERO;
            const ONE: #name = #name::ONE;
            const CHARACTERISTIC_TWO: bool = #char2;
            #[inline]
            fn square(&self) -> #name { #name::square(self) }
            #double
            #square_n
            #[inline]
            fn invert(&self) -> ::fieldgen_field::subtle::CtOption<#name> { #name::invert(self) }
            #[inline]
            fn invert_vartime(&self) -> ::core::option::Option<#name> { #name::invert_vartime(self) }
            #sqrt
            #batch_invert
            #[inline]
            fn is_zero(&self) -> ::fieldgen_field::subtle::Choice { #name::is_zero(self) }
            #[inline]
            fn pow(&self, exp_le: &[u64]) -> #name { #name::pow(self, exp_le) }
            #[inline]
            fn pow_vartime(&self, exp_le: &[u64]) -> #name { #name::pow_vartime(self, exp_le) }
            #[inline]
            fn to_le_bytes(&self) -> [u8; #nb] { #name::to_le_bytes(self) }
            #[inline]
            fn to_be_bytes(&self) -> [u8; #nb] { #name::to_be_bytes(self) }
            #[inline]
            fn from_le_bytes(bytes: &[u8; #nb]) -> ::fieldgen_field::subtle::CtOption<#name> { #name::from_le_bytes(bytes) }
            #[inline]
            fn from_be_bytes(bytes: &[u8; #nb]) -> ::fieldgen_field::subtle::CtOption<#name> { #name::from_be_bytes(bytes) }
        }
    }
}

/// `fieldgen_field::Field` and `fieldgen_field::PrimeField` for prime field `name`, over its
/// inherent methods.
pub fn prime_trait_impls(shape: &FieldShape, name: &Ident) -> TokenStream {
    let nb = lit(shape.bytes);
    let field = field_impl(shape, name);
    quote! {
        #field

        impl ::fieldgen_field::PrimeField for #name {
            const NUM_BITS: u32 = #name::NUM_BITS;
            const MODULUS_HEX: &'static str = #name::MODULUS_HEX;
            const TWO_ADICITY: u32 = #name::TWO_ADICITY;
            const ROOT_OF_UNITY: #name = #name::ROOT_OF_UNITY;
            const TWO_INV: #name = #name::TWO_INV;
            #[inline]
            fn modulus_le_bytes() -> [u8; #nb] { #name::MODULUS_LE_BYTES }
            #[inline]
            fn from_u64(x: u64) -> #name { #name::from_u64(x) }
            #[inline]
            fn mul_small(&self, k: u32) -> #name { #name::mul_small(self, k) }
            #[inline]
            fn legendre(&self) -> i8 { #name::legendre(self) }
        }
    }
}

/// For a binary field `name` of `words` w-bit words and `bytes`-byte encodings: the `const
/// fn` constructors (inside `impl Name`) and the impls of `fieldgen_field::Field` and
/// `fieldgen_field::BinaryField` (module level).
pub fn binary_items(shape: &FieldShape, name: &Ident, degree: usize) -> (TokenStream, TokenStream) {
    let w = shape.word_bits;
    let word = Words { w }.word();
    let n = lit(shape.limbs);
    let last = lit(shape.limbs - 1);
    let field = field_impl(shape, name);
    let hex_doc = format!(
        " The element whose coefficient vector (bit i the coefficient of x^i) is given by big-endian hex digits (optional `0x`, `_` separators allowed), as a `const fn` for constants: `const B: {name} = match {name}::from_hex_vartime(\"0x..\") {{ Some(x) => x, None => panic!() }};`. None for a malformed string or a degree ≥ m. Variable time in the digits (meant for public constants)."
    );
    let from_hex = from_hex_item(shape, name, &hex_doc);
    // With m a multiple of the word size every top word is canonical (and the test would
    // mask with zero).
    let top_check = if degree.is_multiple_of(w as usize) {
        quote!()
    } else {
        quote! {
            if words[#last] & !Self::TOP_MASK != 0 {
                return ::core::option::Option::None;
            }
        }
    };
    let methods = quote! {
        /// The element with coefficient words `words` (little-endian, bit i of the vector the
        /// coefficient of x^i), as a `const fn`; none when a coefficient at or above x^m is set.
        pub const fn from_canonical(words: [#word; #n]) -> ::core::option::Option<#name> {
            #top_check
            ::core::option::Option::Some(#name(words))
        }

        #from_hex
    };
    let impls = quote! {
        #field

        impl ::fieldgen_field::BinaryField for #name {
            const DEGREE: u32 = #name::DEGREE;
            #[inline]
            fn trace(&self) -> ::fieldgen_field::subtle::Choice { ::fieldgen_field::subtle::Choice::from(#name::trace(self)) }
            #[inline]
            fn solve_quadratic(&self) -> ::fieldgen_field::subtle::CtOption<#name> { #name::solve_quadratic(self) }
        }
    };
    (methods, impls)
}
