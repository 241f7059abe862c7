//! The printers' shared part: the operand list of an `asm!` block, with every input and result
//! pinned to its register by name and every other written register declared as clobbered.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Display;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// A `/// SAFETY: ...` note for the statement that follows it (comments do not survive token
/// streams, so the note is a doc attribute on the statement holding the `unsafe` block).
pub fn safety_note(text: &str) -> TokenStream {
    let doc = format!(" SAFETY: {text}");
    quote!(#[doc = #doc])
}

/// An ARM addressing mode `[base, #offset]` for word `k` of `bytes`-byte words (`[base]` for
/// word 0).
pub fn word_address(base: impl Display, k: u32, bytes: u32) -> String {
    if k == 0 {
        format!("[{base}]")
    } else {
        format!("[{base}, #{}]", bytes * k)
    }
}

/// `name.as_ptr()`: an array parameter passed to the block as a pointer.
pub fn as_ptr(name: &str) -> TokenStream {
    let p = format_ident!("{}", name);
    quote!(#p.as_ptr())
}

/// The operands of an `asm!` block: each input `in(reg) expr(what)`, or `inout` when the code
/// writes its register (into the result `outs[j]` when result j ends there, else discarded);
/// each other result `lateout(reg) outs[j]`, in register order; each other written register
/// `out(reg) _`.
pub fn operand_list<R: Copy + Ord + Display, W>(
    inputs: &[(R, W)],
    expr: impl Fn(&W) -> TokenStream,
    outputs: &[R],
    outs: &[Ident],
    written: &BTreeSet<R>,
) -> Vec<TokenStream> {
    let mut out_at: BTreeMap<R, usize> = outputs.iter().enumerate().map(|(j, r)| (*r, j)).collect();
    let mut operands = Vec::new();
    let mut pinned = BTreeSet::new();
    for (r, what) in inputs {
        let (r, expr) = (*r, expr(what));
        let reg = r.to_string();
        pinned.insert(r);
        operands.push(match out_at.remove(&r) {
            Some(j) => {
                let o = &outs[j];
                quote!(inout(#reg) #expr => #o)
            }
            None if written.contains(&r) => quote!(inout(#reg) #expr => _),
            None => quote!(in(#reg) #expr),
        });
    }
    for (r, j) in out_at {
        let reg = r.to_string();
        let o = &outs[j];
        pinned.insert(r);
        operands.push(quote!(lateout(#reg) #o));
    }
    for r in written.difference(&pinned) {
        let reg = r.to_string();
        operands.push(quote!(out(#reg) _));
    }
    operands
}
