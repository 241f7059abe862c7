//! The x86-64 BMI2/ADX backend of an RSA size: `addmul_row_adx_{k}` row kernels, CPU detection,
//! and the CIOS and SOS Montgomery products built on the rows or on the register-window kernels
//! (`emit::rsa_window`).

use super::*;

/// `addmul_row_adx_{k}`: t[0..k) += x·v, carries into t\[k\] and t\[k+1\].
fn row_kernel(k: usize) -> TokenStream {
    use crate::backend::x86_64::rows;
    let kl = lit(k);
    let name = format_ident!("addmul_row_adx_{}", k);
    let row: Vec<String> = rows::addmul_row(k).iter().map(|i| i.text()).collect();
    let clobbers = rows::ROW_CLOBBERS.iter().map(|r| {
        let name = r.name();
        quote!(out(#name) _)
    });
    let note = crate::backend::x86_64::asm::safety_note(&format!(
        "the caller guarantees BMI2 and ADX and that t points to {} writable words; the block reads {k} words behind v and writes only t[0..{}] and the registers it declares.",
        k + 2,
        k + 2
    ));
    quote! {
        /// t[0..k) += x·v, carries into t\[k\] and t\[k+1\] (x86-64 BMI2/ADX: mulx, adcx/adox).
        ///
        /// # Safety
        ///
        /// BMI2 and ADX; t points to k + 2 writable words; the true sum fits them.
        #[cfg(target_arch = "x86_64")]
        #[inline(always)]
        #[allow(unused_doc_comments)]
        unsafe fn #name(t: *mut u64, v: &[u64; #kl], x: u64) {
            #note
            unsafe {
                ::core::arch::asm!(
                    #(#row,)*
                    in("rdi") t,
                    in("rsi") v.as_ptr(),
                    in("rdx") x,
                    #(#clobbers,)*
                    options(nostack)
                )
            }
        }
    }
}

/// The BMI2/ADX backend: row kernels, CPU detection, CIOS and SOS Montgomery products.
pub(super) fn asm_fns(shape: &RsaShape) -> TokenStream {
    use crate::backend::x86_64::rows;
    let n = shape.limbs;
    let nl = lit(n);
    let n2 = lit(2 * n);
    let n22 = lit(2 * n + 2);
    let top_mul = format_ident!("mul_{}", n);
    let top_sq = format_ident!("square_{}", n);
    let text = |insts: Vec<
        crate::backend::x86_64::inst::Inst<crate::backend::x86_64::inst::Reg>,
    >|
     -> Vec<String> { insts.iter().map(|i| i.text()).collect() };
    let leaf = *shape.levels().last().unwrap();
    let window_leaf = crate::rsa::window::leaf_supported(leaf);
    let mut row_fns = row_kernel(n);
    if leaf != n && !window_leaf {
        row_fns.extend(row_kernel(leaf));
    }
    let (kl, k2, k22) = (lit(leaf), lit(2 * leaf), lit(2 * leaf + 2));
    let leaf_row = format_ident!("addmul_row_adx_{}", leaf);
    let n_row = format_ident!("addmul_row_adx_{}", n);
    let leaf_call_note = crate::backend::x86_64::asm::safety_note(&format!(
        "the caller guarantees BMI2 and ADX; row i writes t[i..i + {}], inside the {} words of t.",
        leaf + 2,
        2 * leaf + 2
    ));
    let rows_leaf = quote! {
        /// The {2k}-limb product of two leaf-size values by assembly rows (operand scanning).
        ///
        /// # Safety
        ///
        /// BMI2 and ADX.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[allow(unused_doc_comments)]
        unsafe fn mul_leaf_adx(a: &[u64; #kl], b: &[u64; #kl]) -> [u64; #k2] {
            let mut t = [0u64; #k22];
            let mut i = 0;
            while i < #kl {
                #leaf_call_note
                unsafe {
                    Self::#leaf_row(t.as_mut_ptr().add(i), a, b[i]);
                }
                i += 1;
            }
            let mut out = [0u64; #k2];
            out.copy_from_slice(&t[..#k2]);
            out
        }
    };
    if !window_leaf {
        row_fns.extend(rows_leaf);
    }
    row_fns.extend(crate::rsa::window::window_fns(shape));
    let row_top = text(rows::addmul_row_top(n));
    let top_reg = rows::top_register(n);
    let top_name = top_reg.name();
    let clobbers_top = rows::ROW_CLOBBERS
        .iter()
        .filter(|r| **r != top_reg)
        .map(|r| {
            let name = r.name();
            quote!(out(#name) _)
        });
    let row_top_note = crate::backend::x86_64::asm::safety_note(&format!(
        "the caller guarantees BMI2 and ADX and that t points to {n} writable words; the block reads {n} words behind v and writes only t[0..{n}] and the registers it declares."
    ));
    let call_note = crate::backend::x86_64::asm::safety_note(&format!(
        "the caller guarantees BMI2 and ADX; row i writes t[i..i + {}], inside the {} words of t.",
        n + 2,
        2 * n + 2
    ));
    let window = shape.adx_window_mont;
    let mul_body = if window {
        quote!(self.mul_adx_window(a, b))
    } else if shape.adx_mul_sos {
        quote!(self.redc_adx(&Self::#top_mul(a, b, true)))
    } else {
        quote!(self.mul_adx_cios(a, b))
    };
    let square_body = if window {
        quote!(self.square_adx_window(a))
    } else if shape.adx_square_sos {
        quote!(self.redc_adx(&Self::#top_sq(a, true)))
    } else {
        quote!(self.mul_adx_cios(a, a))
    };
    let adx_check = crate::api::dispatch::cpu_check(
        &[
            " Whether the BMI2/ADX kernels can run: at compile time when the build enables both",
            " target features, else CPUID.(EAX=7, ECX=0):EBX bits 8 and 19, read once per program.",
        ],
        "adx",
        &["bmi2", "adx"],
        "adx",
    );
    quote! {
        #adx_check

        #row_fns
        /// t[0..n) += x·v, returning the carry word (x86-64 BMI2/ADX).
        ///
        /// # Safety
        ///
        /// BMI2 and ADX; t points to n writable words.
        #[cfg(target_arch = "x86_64")]
        #[inline(always)]
        #[allow(unused_doc_comments)]
        unsafe fn addmul_row_top_adx(t: *mut u64, v: &[u64; #nl], x: u64) -> u64 {
            let top: u64;
            #row_top_note
            unsafe {
                ::core::arch::asm!(
                    #(#row_top,)*
                    in("rdi") t,
                    in("rsi") v.as_ptr(),
                    in("rdx") x,
                    lateout(#top_name) top,
                    #(#clobbers_top,)*
                    options(nostack)
                )
            }
            top
        }

        /// Montgomery product by interleaved rows over a moving window (CIOS without the
        /// shift): for each limb b\[i\], t += a·b\[i\]·2^(64i), then t += m·n·2^(64i) with
        /// m = t\[i\]·n0', which clears word i; the result is t\[n..2n\] + t\[2n\]·R < 2n, then one
        /// constant-time subtraction.
        ///
        /// # Safety
        ///
        /// BMI2 and ADX.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[allow(unused_doc_comments)]
        unsafe fn mul_adx_cios(&self, a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
            let mut t = [0u64; #n22];
            let mut i = 0;
            while i < #nl {
                #call_note
                unsafe {
                    Self::#n_row(t.as_mut_ptr().add(i), a, b[i]);
                }
                let m = t[i].wrapping_mul(self.n0);
                #call_note
                unsafe {
                    Self::#n_row(t.as_mut_ptr().add(i), &self.p, m);
                }
                i += 1;
            }
            let mut hi = [0u64; #nl];
            hi.copy_from_slice(&t[#nl..#n2]);
            self.final_subtract(&hi, t[#n2])
        }

        /// Montgomery reduction of a 2n-limb t < n·R with assembly rows (SOS).
        ///
        /// # Safety
        ///
        /// BMI2 and ADX.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[allow(unused_doc_comments)]
        unsafe fn redc_adx(&self, t: &[u64; #n2]) -> [u64; #nl] {
            let mut t = *t;
            let mut ext = 0u64;
            let mut i = 0;
            while i < #nl {
                let m = t[i].wrapping_mul(self.n0);
                #call_note
                let top = unsafe { Self::addmul_row_top_adx(t.as_mut_ptr().add(i), &self.p, m) };
                let s = t[i + #nl] as u128 + top as u128 + ext as u128;
                t[i + #nl] = s as u64;
                ext = (s >> 64) as u64;
                i += 1;
            }
            let mut hi = [0u64; #nl];
            hi.copy_from_slice(&t[#nl..]);
            self.final_subtract(&hi, ext)
        }

        /// The BMI2/ADX Montgomery product (CIOS or SOS rows, as measured for this size).
        ///
        /// # Safety
        ///
        /// BMI2 and ADX.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[allow(unused_doc_comments)]
        unsafe fn mul_adx(&self, a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
            /// SAFETY: the caller guarantees BMI2 and ADX, all the kernels called need.
            unsafe { #mul_body }
        }

        /// The BMI2/ADX Montgomery square.
        ///
        /// # Safety
        ///
        /// BMI2 and ADX.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[allow(unused_doc_comments)]
        unsafe fn square_adx(&self, a: &[u64; #nl]) -> [u64; #nl] {
            /// SAFETY: the caller guarantees BMI2 and ADX, all the kernels called need.
            unsafe { #square_body }
        }
    }
}
