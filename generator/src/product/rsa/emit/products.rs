//! The portable product, square and Montgomery reduction of an RSA size: straight-line Comba
//! leaves and Karatsuba levels (`lower::karatsuba`), SOS reduction (`lower::runtime`), each lowered
//! to IR, optimised and printed by the portable emitter.

use super::*;

fn fn_item(f: &crate::ir::Func, name: &str, args: &[&str], doc: &str) -> TokenStream {
    emit_fn(&optimize(f), &format_ident!("{}", name), args, doc)
}

/// The product and square chain: Comba leaves and Karatsuba levels, as associated functions
/// `mul_{m}` / `square_{m}` for every level m (the top level is `mul_{n}`).
pub(super) fn product_fns(shape: &RsaShape) -> TokenStream {
    let levels = shape.levels();
    let leaf = *levels.last().unwrap();
    let square_levels = shape.square_levels();
    let sleaf = *square_levels.last().unwrap();
    let mut items = TokenStream::new();
    let k = lit(leaf);
    let k2 = lit(2 * leaf);
    let (sk, sk2) = (lit(sleaf), lit(2 * sleaf));
    let comba_mul = fn_item(
        &karatsuba::lower_comba_mul(64, leaf),
        &format!("comba_mul_{leaf}"),
        &["a", "b"],
        &format!(
            "The {}-limb product of two {leaf}-limb values, product scanning (Comba).",
            2 * leaf
        ),
    );
    let comba_sq = fn_item(
        &karatsuba::lower_comba_square(64, sleaf),
        &format!("comba_square_{sleaf}"),
        &["a"],
        &format!("The {}-limb square of a {sleaf}-limb value, product scanning with each off-diagonal product once.", 2 * sleaf),
    );
    let adx_note = crate::backend::x86_64::asm::safety_note(
        "adx() is true only when the CPU has BMI2 and ADX.",
    );
    let mul_leaf = format_ident!("mul_{}", leaf);
    let sq_leaf = format_ident!("square_{}", sleaf);
    let comba_mul_id = format_ident!("comba_mul_{}", leaf);
    let comba_sq_id = format_ident!("comba_square_{}", sleaf);
    let leaf_adx = if crate::rsa::window::leaf_supported(leaf) {
        quote!(Self::mul_leaf_window(a, b))
    } else {
        quote!(Self::mul_leaf_adx(a, b))
    };
    let sleaf_adx = if crate::rsa::window::leaf_supported(sleaf) {
        quote! {
            #[cfg(target_arch = "x86_64")]
            {
                if asm && Self::adx() {
                    #adx_note
                    return unsafe { Self::square_leaf_window(a) };
                }
            }
        }
    } else {
        quote!()
    };
    items.extend(quote! {
        #comba_mul
        #comba_sq
        /// Leaf of the product recursion: assembly (register window or rows) with BMI2/ADX,
        /// else Comba.
        #[inline]
        #[allow(unused_doc_comments)]
        fn #mul_leaf(a: &[u64; #k], b: &[u64; #k], asm: bool) -> [u64; #k2] {
            let _ = asm;
            #[cfg(target_arch = "x86_64")]
            {
                if asm && Self::adx() {
                    #adx_note
                    return unsafe { #leaf_adx };
                }
            }
            Self::#comba_mul_id(a, b)
        }
        /// Leaf of the square recursion: the register-window assembly square with BMI2/ADX
        /// (eight-limb multiples), else Comba.
        #[inline]
        #[allow(unused_doc_comments)]
        fn #sq_leaf(a: &[u64; #sk], asm: bool) -> [u64; #sk2] {
            let _ = asm;
            #sleaf_adx
            Self::#comba_sq_id(a)
        }
    });
    for pair in levels.windows(2) {
        let (m, h) = (pair[0], pair[1]);
        let sub_abs = format_ident!("sub_abs_{}", h);
        let combine = format_ident!("karatsuba_combine_{}", m);
        items.extend(fn_item(
            &karatsuba::lower_sub_abs(64, h),
            &format!("sub_abs_{h}"),
            &["x", "y"],
            &format!("|x − y| of {h}-limb values and a mask (all ones when x < y), constant time."),
        ));
        items.extend(fn_item(
            &karatsuba::lower_karatsuba_combine(64, h),
            &format!("karatsuba_combine_{m}"),
            &["z0", "z2", "z1", "neg"],
            &format!("Karatsuba combination for {m} limbs: z0 + (z0 + z2 ± z1)·X + z2·X², X = 2^{}, minus z1 when `neg` is all ones.", 64 * h),
        ));
        let (ml, hl, m2, h1) = (lit(m), lit(h), lit(2 * m), lit(h + 1));
        let mul_m = format_ident!("mul_{}", m);
        let mul_h = format_ident!("mul_{}", h);
        let sq_m = format_ident!("square_{}", m);
        let sq_h = format_ident!("square_{}", h);
        let mul_doc = format!(" The {}-limb product of two {m}-limb values: subtractive Karatsuba over {h}-limb halves (three half-size products, signs applied by masks).", 2 * m);
        let sq_doc = format!(
            " The {}-limb square of an {m}-limb value: Karatsuba over {h}-limb halves, middle term z0 + z2 − (a0 − a1)².",
            2 * m
        );
        let square_here = square_levels.contains(&h);
        let square_fn = if square_here {
            quote! {
                #[doc = #sq_doc]
                #[inline]
                fn #sq_m(a: &[u64; #ml], asm: bool) -> [u64; #m2] {
                    let (a0, a1) = Self::halves::<#hl, #ml>(a);
                    let z0 = Self::#sq_h(a0, asm);
                    let z2 = Self::#sq_h(a1, asm);
                    let d: [u64; #h1] = Self::#sub_abs(a0, a1);
                    let z1 = Self::#sq_h(Self::head::<#hl, #h1>(&d), asm);
                    Self::#combine(&z0, &z2, &z1, &[u64::MAX])
                }
            }
        } else {
            quote!()
        };
        items.extend(square_fn);
        items.extend(quote! {
            #[doc = #mul_doc]
            #[inline]
            fn #mul_m(a: &[u64; #ml], b: &[u64; #ml], asm: bool) -> [u64; #m2] {
                let (a0, a1) = Self::halves::<#hl, #ml>(a);
                let (b0, b1) = Self::halves::<#hl, #ml>(b);
                let z0 = Self::#mul_h(a0, b0, asm);
                let z2 = Self::#mul_h(a1, b1, asm);
                let da: [u64; #h1] = Self::#sub_abs(a0, a1);
                let db: [u64; #h1] = Self::#sub_abs(b1, b0);
                let z1 = Self::#mul_h(Self::head::<#hl, #h1>(&da), Self::head::<#hl, #h1>(&db), asm);
                Self::#combine(&z0, &z2, &z1, &[da[#hl] ^ db[#hl]])
            }
        });
    }
    items
}

/// The reduction: `redc(&self, t) -> [u64; n]`.
pub(super) fn redc_fns(shape: &RsaShape) -> TokenStream {
    let n = shape.limbs;
    let nl = lit(n);
    let n2 = lit(2 * n);
    let n1 = lit(n + 1);
    if n <= shape.redc_full_max {
        let f = fn_item(
            &runtime::lower_redc(64, n),
            "redc_straight",
            &["t", "p", "n0"],
            &format!("Montgomery reduction t·R⁻¹ mod p of t < p·R ({} limbs), straight-line, constant-time final subtraction.", 2 * n),
        );
        return quote! {
            #f
            /// Montgomery reduction t·R⁻¹ mod n of a 2n-limb t < n·R.
            #[inline]
            fn redc(&self, t: &[u64; #n2]) -> [u64; #nl] {
                Self::redc_straight(t, &self.p, &[self.n0])
            }
        };
    }
    let row = fn_item(
        &runtime::lower_redc_row(64, n),
        "redc_row",
        &["win", "top", "p", "n0"],
        "One word of Montgomery reduction: the window t[i..i+n], [t[i+n], carry bit], p, n0' → t[i+1..i+n+1] of t + m·p·2^(64i) and the new carry bit.",
    );
    let finish = fn_item(
        &runtime::lower_redc_finish(64, n),
        "redc_finish",
        &["t", "top", "p"],
        "Conditional subtraction of p from t + top·R < 2p, constant time.",
    );
    quote! {
        #row
        #finish
        /// Montgomery reduction t·R⁻¹ mod n of a 2n-limb t < n·R: one straight-line row per
        /// limb, n rows, then the constant-time final subtraction.
        #[inline]
        fn redc(&self, t: &[u64; #n2]) -> [u64; #nl] {
            let mut t = *t;
            let mut ext = 0u64;
            let mut i = 0;
            while i < #nl {
                let r: [u64; #n1] = Self::redc_row(Self::window(&t, i), &[t[i + #nl], ext], &self.p, &[self.n0]);
                t[i + 1..i + 1 + #nl].copy_from_slice(&r[..#nl]);
                ext = r[#nl];
                i += 1;
            }
            Self::redc_finish(Self::window(&t, #nl), &[ext], &self.p)
        }
    }
}
