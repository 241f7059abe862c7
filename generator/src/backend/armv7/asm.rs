//! The printer: an allocated kernel becomes one safe `fn` around one `core::arch::asm!` block.
//! One template line per instruction, registers named literally, every pointer pinned to its
//! register and every other written register declared. The accumulator buffer is a local
//! `MaybeUninit` array the block fills; p and n0' are a `static` next to the code.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use super::cfg_gate;
use super::program::Input;
use super::Allocation;
use crate::backend::isa::asm::{as_ptr, operand_list, safety_note};

/// Emits `fn name(params..) -> [u32; n]` running `alloc`, gated on [`cfg_gate`]. `params`
/// names the operand arrays; `modulus` is p's limbs, least significant first, and `n0` is n0'.
pub fn kernel_fn(
    name: &Ident,
    alloc: &Allocation,
    params: &[&str],
    modulus: &[u32],
    n0: u32,
    doc: &str,
) -> TokenStream {
    let n = alloc.layout.limbs;
    let n_lit = Literal::usize_unsuffixed(n);
    let len = Literal::usize_unsuffixed(alloc.layout.buffer_words);
    let consts_len = Literal::usize_unsuffixed(n + 1);
    let consts = modulus
        .iter()
        .chain([&n0])
        .map(|w| Literal::u32_unsuffixed(*w));
    let lines: Vec<String> = alloc.insts.iter().map(|i| i.text()).collect();
    let operands = operand_list(
        &alloc.inputs,
        |what| match what {
            Input::Operand(k) => as_ptr(params[*k]),
            Input::Modulus => quote!(MODULUS_N0.as_ptr()),
            Input::Buffer => quote!(t.as_mut_ptr()),
        },
        &[],
        &[],
        &alloc.written,
    );
    let ptr_params = params.iter().map(|p| {
        let id = format_ident!("{}", p);
        quote!(#id: &[u32; #n_lit])
    });
    let note = safety_note(&format!(
        "UMAAL is in every ARM-state processor from ARMv6 and in Thumb-2 from ARMv6T2 (A and R profiles) or with the DSP extension (ARMv7E-M), which the cfg above admits. The block reads only the {n} words behind each operand pointer and the {} of MODULUS_N0, writes only the {} words of t and the registers it declares, and does not touch the stack.",
        n + 1,
        alloc.layout.buffer_words
    ));
    let read_note = safety_note(&format!(
        "the block stores every one of the first {n} words of t (the result) before it returns."
    ));
    let gate = cfg_gate();
    let doc = format!(" {doc}");
    quote! {
        #[doc = #doc]
        #[cfg(#gate)]
        #[inline]
        #[allow(unused_doc_comments)]
        fn #name(#(#ptr_params),*) -> [u32; #n_lit] {
            /// p, least significant word first, then n0' = −p⁻¹ mod 2^32.
            static MODULUS_N0: [u32; #consts_len] = [#(#consts),*];
            let mut t = ::core::mem::MaybeUninit::<[u32; #len]>::uninit();
            #note
            unsafe {
                ::core::arch::asm!(
                    #(#lines,)*
                    #(#operands,)*
                    options(nostack)
                )
            };
            #read_note
            unsafe { t.as_ptr().cast::<[u32; #n_lit]>().read() }
        }
    }
}
