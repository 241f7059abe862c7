//! The register-window BMI2/ADX backend of the RSA contexts (kernels in
//! [`crate::backend::x86_64::runtime`]): for sizes that are multiples of 8 limbs, the Karatsuba leaves
//! (product and square), the Montgomery reduction by eight-row stripes, and for 16 limbs (the
//! CRT halves of RSA-2048) the whole Montgomery product and square as one `asm!` block each.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::emit::RsaShape;
use crate::api::field::lit;
use crate::backend::x86_64::asm::{memory_kernel_fn, PtrParam};
use crate::backend::x86_64::program::{Pointer, VProgram};
use crate::backend::x86_64::regalloc::{allocate, REGISTERS};
use crate::backend::x86_64::runtime;

/// Whether the window kernels exist for `limbs` (a multiple of 8, at least 8).
pub fn leaf_supported(limbs: usize) -> bool {
    limbs.is_multiple_of(runtime::W) && limbs >= runtime::W
}

/// Whether the Montgomery product and square of `limbs` run on the window kernels.
pub fn mont_supported(limbs: usize) -> bool {
    limbs.is_multiple_of(runtime::W) && limbs >= 2 * runtime::W
}

/// Largest size whose whole Montgomery product is one block (larger sizes call a Karatsuba
/// product and then the stripe kernel n/8 times).
pub const ONE_BLOCK_MAX: usize = 16;

fn arr(n: usize) -> TokenStream {
    let n = lit(n);
    quote!(&[u64; #n])
}

fn param(what: Pointer, name: &str, ty: TokenStream, expr: TokenStream) -> PtrParam {
    PtrParam {
        what,
        name: format_ident!("{}", name),
        ty,
        expr,
    }
}

fn kernel(
    prog: &VProgram,
    name: &str,
    params: &[PtrParam],
    doc: &str,
    safety: &str,
) -> TokenStream {
    let alloc = allocate(prog, &REGISTERS);
    let doc = format!(
        "{doc} {} instructions, {} mulx{}.",
        alloc.insts.len(),
        runtime::mulx_count(prog),
        if alloc.slots > 0 {
            format!(", {} spill slots", alloc.slots)
        } else {
            String::new()
        }
    );
    memory_kernel_fn(&format_ident!("{}", name), &alloc, params, &doc, safety)
}

/// Items of the window backend for `shape` (inside the context's impl).
pub fn window_fns(shape: &RsaShape) -> TokenStream {
    let mut items = TokenStream::new();
    let n = shape.limbs;
    let leaf = *shape.levels().last().unwrap();
    let sleaf = *shape.square_levels().last().unwrap();
    if leaf_supported(leaf) {
        let (kl, k2, ks) = (
            lit(leaf),
            lit(2 * leaf),
            lit(runtime::product_scratch(leaf)),
        );
        let name = format!("product_window_{leaf}");
        items.extend(kernel(
            &runtime::product_kernel(leaf),
            &name,
            &[
                param(Pointer::Operand(0), "a", arr(leaf), quote!(a.as_ptr())),
                param(Pointer::Operand(1), "b", arr(leaf), quote!(b.as_ptr())),
                param(Pointer::Scratch, "t", quote!(*mut u64), quote!(t)),
            ],
            &format!("t[0..{}) = a·b ({leaf} limbs each), eight-limb chunks of b with the accumulator window in registers; t has {} words.", 2 * leaf, runtime::product_scratch(leaf)),
            &format!("BMI2 and ADX; t points to {} writable words.", runtime::product_scratch(leaf)),
        ));
        let id = format_ident!("{}", name);
        let note = crate::backend::x86_64::asm::safety_note(&format!(
            "the caller guarantees BMI2 and ADX; t has the {} words the kernel needs.",
            runtime::product_scratch(leaf)
        ));
        items.extend(quote! {
            /// The product of two leaf-size values by the register-window kernel.
            ///
            /// # Safety
            ///
            /// BMI2 and ADX.
            #[cfg(target_arch = "x86_64")]
            #[inline]
            #[allow(unused_doc_comments)]
            unsafe fn mul_leaf_window(a: &[u64; #kl], b: &[u64; #kl]) -> [u64; #k2] {
                let mut t = [0u64; #ks];
                #note
                unsafe { Self::#id(a, b, t.as_mut_ptr()) };
                let mut out = [0u64; #k2];
                out.copy_from_slice(&t[..#k2]);
                out
            }
        });
    }
    if leaf_supported(sleaf) {
        let (kl, k2, ks) = (
            lit(sleaf),
            lit(2 * sleaf),
            lit(runtime::product_scratch(sleaf)),
        );
        let name = format!("square_window_{sleaf}");
        items.extend(kernel(
            &runtime::square_kernel(sleaf),
            &name,
            &[
                param(Pointer::Operand(0), "a", arr(sleaf), quote!(a.as_ptr())),
                param(Pointer::Scratch, "t", quote!(*mut u64), quote!(t)),
            ],
            &format!("t[0..{}) = a² ({sleaf} limbs): off-diagonal products once by window rows, then doubling on CF and the squares on OF; t has {} words.", 2 * sleaf, runtime::product_scratch(sleaf)),
            &format!("BMI2 and ADX; t points to {} writable words.", runtime::product_scratch(sleaf)),
        ));
        let id = format_ident!("{}", name);
        let note = crate::backend::x86_64::asm::safety_note(&format!(
            "the caller guarantees BMI2 and ADX; t has the {} words the kernel needs.",
            runtime::product_scratch(sleaf)
        ));
        items.extend(quote! {
            /// The square of a leaf-size value by the register-window kernel.
            ///
            /// # Safety
            ///
            /// BMI2 and ADX.
            #[cfg(target_arch = "x86_64")]
            #[inline]
            #[allow(unused_doc_comments)]
            unsafe fn square_leaf_window(a: &[u64; #kl]) -> [u64; #k2] {
                let mut t = [0u64; #ks];
                #note
                unsafe { Self::#id(a, t.as_mut_ptr()) };
                let mut out = [0u64; #k2];
                out.copy_from_slice(&t[..#k2]);
                out
            }
        });
    }
    if !mont_supported(n) {
        return items;
    }
    let nl = lit(n);
    if n <= ONE_BLOCK_MAX {
        let ms = runtime::mont_scratch(n);
        let msl = lit(ms);
        let last = lit(ms - 1);
        let safety = format!(
            "BMI2 and ADX; t points to {ms} writable words, the last holding n0' = −p⁻¹ mod 2^64; the operands are below p."
        );
        items.extend(kernel(
            &runtime::mont_kernel(n, false),
            &format!("mont_mul_window_{n}"),
            &[
                param(Pointer::Operand(0), "a", arr(n), quote!(a.as_ptr())),
                param(Pointer::Operand(1), "b", arr(n), quote!(b.as_ptr())),
                param(Pointer::Modulus, "p", arr(n), quote!(p.as_ptr())),
                param(Pointer::Scratch, "t", quote!(*mut u64), quote!(t)),
            ],
            &format!("t[0..{n}) = a·b·R⁻¹ mod p in one block: the product by eight-limb chunks, {} reduction stripes of eight rows (accumulator window in registers), constant-time final subtraction.", n / 8),
            &safety,
        ));
        items.extend(kernel(
            &runtime::mont_kernel(n, true),
            &format!("mont_square_window_{n}"),
            &[
                param(Pointer::Operand(0), "a", arr(n), quote!(a.as_ptr())),
                param(Pointer::Modulus, "p", arr(n), quote!(p.as_ptr())),
                param(Pointer::Scratch, "t", quote!(*mut u64), quote!(t)),
            ],
            &format!("t[0..{n}) = a²·R⁻¹ mod p in one block: the square with off-diagonal products once, {} reduction stripes, constant-time final subtraction.", n / 8),
            &safety,
        ));
        let mul_id = format_ident!("mont_mul_window_{}", n);
        let sq_id = format_ident!("mont_square_window_{}", n);
        let note = crate::backend::x86_64::asm::safety_note(&format!(
            "the caller guarantees BMI2 and ADX; t has the {ms} words the kernel needs with n0' in the last."
        ));
        items.extend(quote! {
            /// Montgomery product by the one-block register-window kernel.
            ///
            /// # Safety
            ///
            /// BMI2 and ADX.
            #[cfg(target_arch = "x86_64")]
            #[inline]
            #[allow(unused_doc_comments)]
            unsafe fn mul_adx_window(&self, a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
                let mut t = [0u64; #msl];
                t[#last] = self.n0;
                #note
                unsafe { Self::#mul_id(a, b, &self.p, t.as_mut_ptr()) };
                let mut out = [0u64; #nl];
                out.copy_from_slice(&t[..#nl]);
                out
            }

            /// Montgomery square by the one-block register-window kernel.
            ///
            /// # Safety
            ///
            /// BMI2 and ADX.
            #[cfg(target_arch = "x86_64")]
            #[inline]
            #[allow(unused_doc_comments)]
            unsafe fn square_adx_window(&self, a: &[u64; #nl]) -> [u64; #nl] {
                let mut t = [0u64; #msl];
                t[#last] = self.n0;
                #note
                unsafe { Self::#sq_id(a, &self.p, t.as_mut_ptr()) };
                let mut out = [0u64; #nl];
                out.copy_from_slice(&t[..#nl]);
                out
            }
        });
        return items;
    }
    let pad = runtime::stripe_pad(n);
    let (padl, bufl, n2) = (lit(pad), lit(pad + 2 * n), lit(2 * n));
    let stripes = lit(n / 8);
    let stripe_id = format_ident!("redc_stripe_window_{}", n);
    items.extend(kernel(
        &runtime::redc_stripe_kernel(n),
        &stripe_id.to_string(),
        &[
            param(Pointer::Scratch, "t", quote!(*mut u64), quote!(t)),
            param(Pointer::Modulus, "p", arr(n), quote!(p.as_ptr())),
        ],
        &format!("Eight rows of Montgomery reduction at t: quotients from t[0..8) and n0' = t[−1], t[8..{}) += the {n}-word result, carry word in and out at t[−2]; scratch t[−{pad}..−2).", n + 8),
        &format!("BMI2 and ADX; t − {pad} .. t + {} are writable words of one buffer, nothing below t is needed any more.", n + 8),
    ));
    let top_mul = format_ident!("mul_{}", n);
    let top_sq = format_ident!("square_{}", n);
    let note = crate::backend::x86_64::asm::safety_note(&format!(
        "the caller guarantees BMI2 and ADX; stripe s works on buf[8s..8s + {}] of the {} words, and the words below its pointer are dead (stripes run upwards).",
        pad + n + 8,
        pad + 2 * n
    ));
    items.extend(quote! {
        /// Montgomery reduction of a 2n-limb t < n·R by the register-window stripes: n/8
        /// stripes of eight rows each, a carry word between them, then one constant-time
        /// subtraction.
        ///
        /// # Safety
        ///
        /// BMI2 and ADX.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[allow(unused_doc_comments)]
        unsafe fn redc_adx_window(&self, t: &[u64; #n2]) -> [u64; #nl] {
            let mut buf = [0u64; #bufl];
            buf[#padl..].copy_from_slice(t);
            let mut carry = 0u64;
            let mut s = 0;
            while s < #stripes {
                let o = #padl + 8 * s;
                buf[o - 1] = self.n0;
                buf[o - 2] = carry;
                #note
                unsafe { Self::#stripe_id(buf.as_mut_ptr().add(o), &self.p) };
                carry = buf[o - 2];
                s += 1;
            }
            let mut hi = [0u64; #nl];
            hi.copy_from_slice(&buf[#padl + #nl..]);
            self.final_subtract(&hi, carry)
        }

        /// Montgomery product: Karatsuba product (window leaves), then the stripe reduction.
        ///
        /// # Safety
        ///
        /// BMI2 and ADX.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[allow(unused_doc_comments)]
        unsafe fn mul_adx_window(&self, a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
            /// SAFETY: the caller guarantees BMI2 and ADX, all the reduction needs.
            unsafe { self.redc_adx_window(&Self::#top_mul(a, b, true)) }
        }

        /// Montgomery square: Karatsuba square (window leaves), then the stripe reduction.
        ///
        /// # Safety
        ///
        /// BMI2 and ADX.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[allow(unused_doc_comments)]
        unsafe fn square_adx_window(&self, a: &[u64; #nl]) -> [u64; #nl] {
            /// SAFETY: the caller guarantees BMI2 and ADX, all the reduction needs.
            unsafe { self.redc_adx_window(&Self::#top_sq(a, true)) }
        }
    });
    items
}
