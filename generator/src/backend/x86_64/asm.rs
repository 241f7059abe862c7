//! The printer: an allocated kernel becomes one `unsafe fn` around one `core::arch::asm!` block.
//! Each instruction is one template line (Intel syntax); registers are named literally in the
//! template, and the operand list pins every pointer argument and result to its register and
//! declares every other register the code writes ([`operand_list`]).

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::program::Pointer;
use super::regalloc::Allocation;
pub use crate::backend::isa::asm::safety_note;
use crate::backend::isa::asm::{as_ptr, operand_list};

/// Emits `unsafe fn name(params..) -> [u64; n]` running `alloc`. `params` names the operand
/// arrays (`a`, `b`), each of n limbs; the modulus pointer is `Self::MODULUS_LIMBS`.
pub fn kernel_fn(name: &Ident, alloc: &Allocation, params: &[&str], doc: &str) -> TokenStream {
    let n = alloc.outputs.len();
    let sized: Vec<(&str, usize)> = params.iter().map(|p| (*p, n)).collect();
    kernel_fn_sized(name, alloc, &sized, doc)
}

/// [`kernel_fn`] with a length per operand array (the double-width kernels read 2n limbs or
/// write them).
pub fn kernel_fn_sized(
    name: &Ident,
    alloc: &Allocation,
    params: &[(&str, usize)],
    doc: &str,
) -> TokenStream {
    let n = alloc.outputs.len();
    let n_lit = proc_macro2::Literal::usize_unsuffixed(n);
    let lines: Vec<String> = alloc.insts.iter().map(|i| i.text()).collect();
    let outs: Vec<Ident> = (0..n).map(|j| format_ident!("r{}", j)).collect();
    let operands = operand_list(
        &alloc.inputs,
        |what| match what {
            Pointer::Operand(k) => as_ptr(params[*k].0),
            Pointer::Modulus => quote!(Self::MODULUS_LIMBS.as_ptr()),
            Pointer::Scratch => unreachable!("field kernels take no scratch buffer"),
        },
        &alloc.outputs,
        &outs,
        &alloc.written,
    );
    let options = if alloc.uses_stack() {
        quote!(options(pure, readonly))
    } else {
        quote!(options(pure, readonly, nostack))
    };
    let ptr_params = params.iter().map(|(p, len)| {
        let id = format_ident!("{}", p);
        let len = proc_macro2::Literal::usize_unsuffixed(*len);
        quote!(#id: &[u64; #len])
    });
    let lens: Vec<usize> = params.iter().map(|(_, len)| *len).collect();
    let reads = if lens.iter().all(|l| *l == n) {
        format!("the {n} limbs behind each pointer it is given")
    } else {
        let each: Vec<String> = params
            .iter()
            .map(|(p, len)| format!("{len} behind {p}"))
            .collect();
        format!(
            "the limbs behind the pointers it is given ({})",
            each.join(", ")
        )
    };
    let note = safety_note(&format!(
        "the caller guarantees BMI2 and ADX. The block reads only {reads}, writes only the registers it declares{}, and restores rsp{}.",
        if alloc.slots > 0 {
            " and stack memory below rsp that it releases"
        } else {
            ""
        },
        if alloc.saved.is_empty() {
            ""
        } else {
            ", rbx and rbp (saved with push, restored with pop)"
        }
    ));
    let doc = format!(" {doc}");
    quote! {
        #[doc = #doc]
        ///
        /// # Safety
        ///
        /// The CPU must support BMI2 and ADX.
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[allow(unused_doc_comments)]
        unsafe fn #name(#(#ptr_params),*) -> [u64; #n_lit] {
            #(let #outs: u64;)*
            #note
            let () = unsafe {
                ::core::arch::asm!(
                    #(#lines,)*
                    #(#operands,)*
                    #options
                )
            };
            [#(#outs),*]
        }
    }
}

/// A pointer parameter of a kernel that writes memory: what it points to, its name, its Rust
/// type and the expression that yields the raw pointer.
pub struct PtrParam {
    /// What the kernel expects behind it.
    pub what: Pointer,
    /// Parameter name.
    pub name: Ident,
    /// Parameter type (`&[u64; 16]`, `*mut u64`).
    pub ty: TokenStream,
    /// The pointer passed to the block (`a.as_ptr()`, `t`).
    pub expr: TokenStream,
}

/// Emits `unsafe fn name(params..)` running `alloc`, a kernel with no register results that
/// reads and writes memory behind its pointers (scratch buffers): every pointer is pinned as an
/// input, every written register declared, and the block may touch memory and the stack.
/// `safety` states the caller's obligations and what the block touches.
pub fn memory_kernel_fn(
    name: &Ident,
    alloc: &Allocation,
    params: &[PtrParam],
    doc: &str,
    safety: &str,
) -> TokenStream {
    assert!(
        alloc.outputs.is_empty(),
        "memory kernels return nothing in registers"
    );
    let lines: Vec<String> = alloc.insts.iter().map(|i| i.text()).collect();
    let operands = operand_list(
        &alloc.inputs,
        |what| {
            let param = params
                .iter()
                .find(|p| p.what == *what)
                .expect("every pointer of the kernel has a parameter");
            param.expr.clone()
        },
        &[],
        &[],
        &alloc.written,
    );
    let options = if alloc.uses_stack() {
        quote!()
    } else {
        quote!(options(nostack))
    };
    let decls = params.iter().map(|p| {
        let (n, ty) = (&p.name, &p.ty);
        quote!(#n: #ty)
    });
    let note = safety_note(&format!(
        "{safety} The block writes only the registers it declares{}, and restores rsp{}.",
        if alloc.slots > 0 {
            " and stack memory below rsp that it releases"
        } else {
            ""
        },
        if alloc.saved.is_empty() {
            ""
        } else {
            ", rbx and rbp (saved with push, restored with pop)"
        }
    ));
    let doc = format!(" {doc}");
    let safety_doc = format!(" {safety}");
    quote! {
        #[doc = #doc]
        ///
        /// # Safety
        ///
        #[doc = #safety_doc]
        #[cfg(target_arch = "x86_64")]
        #[inline]
        #[allow(unused_doc_comments)]
        unsafe fn #name(#(#decls),*) {
            #note
            unsafe {
                ::core::arch::asm!(
                    #(#lines,)*
                    #(#operands,)*
                    #options
                )
            }
        }
    }
}
