//! The printer: an allocated kernel becomes one safe `fn` around one `core::arch::asm!` block
//! (the instructions are base AArch64, present on every processor of the architecture). One
//! template line per instruction, registers named literally, every input and result pinned to
//! its register and every other written register declared.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::program::Input;
use super::Allocation;
use crate::backend::isa::asm::{as_ptr, operand_list, safety_note};

/// Emits `fn name(params..) -> [u64; n]` running `alloc`, gated on `target_arch = "aarch64"`.
/// `params` names the operand arrays; the modulus pointer is `Self::MODULUS_LIMBS`, and n0' is
/// passed as the literal `n0`.
pub fn kernel_fn(
    name: &Ident,
    alloc: &Allocation,
    params: &[&str],
    n0: u64,
    doc: &str,
) -> TokenStream {
    let n = alloc.outputs.len();
    let n_lit = proc_macro2::Literal::usize_unsuffixed(n);
    let lines: Vec<String> = alloc.insts.iter().map(|i| i.text()).collect();
    let outs: Vec<Ident> = (0..n).map(|j| format_ident!("r{}", j)).collect();
    let operands = operand_list(
        &alloc.inputs,
        |what| match what {
            Input::Operand(k) => as_ptr(params[*k]),
            Input::Modulus => quote!(Self::MODULUS_LIMBS.as_ptr()),
            Input::N0 => {
                let lit = proc_macro2::Literal::u64_suffixed(n0);
                quote!(#lit)
            }
        },
        &alloc.outputs,
        &outs,
        &alloc.written,
    );
    let ptr_params = params.iter().map(|p| {
        let id = format_ident!("{}", p);
        quote!(#id: &[u64; #n_lit])
    });
    let note = safety_note(&format!(
        "base AArch64 instructions only. The block reads only the {n} limbs behind each pointer it is given, writes only the registers it declares, and does not touch the stack."
    ));
    let doc = format!(" {doc}");
    quote! {
        #[doc = #doc]
        #[cfg(target_arch = "aarch64")]
        #[inline]
        #[allow(unused_doc_comments)]
        fn #name(#(#ptr_params),*) -> [u64; #n_lit] {
            #(let #outs: u64;)*
            #note
            let () = unsafe {
                ::core::arch::asm!(
                    #(#lines,)*
                    #(#operands,)*
                    options(pure, readonly, nostack)
                )
            };
            [#(#outs),*]
        }
    }
}
