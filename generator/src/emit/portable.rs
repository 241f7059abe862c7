//! The portable emitter: prints IR as plain Rust over `u64`/`u128` (w = 64) or `u32`/`u64`
//! (w = 32). Each SSA value becomes one `let`; constants and input limbs are inlined; an
//! instruction output that nothing reads is not computed.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::ir::{Func, Op, Var};

/// The Rust types for one word size.
#[derive(Clone, Copy, Debug)]
pub struct Words {
    /// Word size w in bits.
    pub w: u32,
}

impl Words {
    /// The limb type (`u64` or `u32`).
    pub fn word(&self) -> TokenStream {
        if self.w == 64 {
            quote!(u64)
        } else {
            quote!(u32)
        }
    }

    /// The double-width type (`u128` or `u64`).
    pub fn dword(&self) -> TokenStream {
        if self.w == 64 {
            quote!(u128)
        } else {
            quote!(u64)
        }
    }

    /// A suffixed hex literal of the limb type.
    pub fn lit(&self, v: u64) -> TokenStream {
        let text = if self.w == 64 { format!("0x{v:016x}_u64") } else { format!("0x{v:08x}_u32") };
        let lit = syn::LitInt::new(&text, Span::call_site());
        quote!(#lit)
    }

    /// An array literal of limbs.
    pub fn lits(&self, vs: &[u64]) -> TokenStream {
        let items = vs.iter().map(|v| self.lit(*v));
        quote!([#(#items),*])
    }
}

/// Emits `f` as a Rust function `fn name(a: &[W; n0], b: &[W; n1], ...) -> [W; out]`.
/// `args` names the input arrays in order. The function is `#[inline]` and private.
pub fn emit_fn(f: &Func, name: &Ident, args: &[&str], doc: &str) -> TokenStream {
    let words = Words { w: f.w };
    let word = words.word();
    let dword = words.dword();
    let w = super::field::lit(f.w as usize);
    assert_eq!(args.len(), f.inputs.len());

    // Which variables are read (by instructions or outputs).
    let mut used = vec![false; f.num_vars as usize];
    for ins in &f.instrs {
        for v in ins.op.operands() {
            used[v.0 as usize] = true;
        }
    }
    for v in &f.outputs {
        used[v.0 as usize] = true;
    }
    // Expressions for inlined values (constants, input limbs).
    let mut inline: Vec<Option<TokenStream>> = vec![None; f.num_vars as usize];
    let mut constval: Vec<Option<u64>> = vec![None; f.num_vars as usize];
    for ins in &f.instrs {
        match ins.op {
            Op::Const(c) => {
                inline[ins.outs[0].0 as usize] = Some(words.lit(c));
                constval[ins.outs[0].0 as usize] = Some(c);
            }
            Op::Input { arg, limb } => {
                let a = format_ident!("{}", args[arg as usize]);
                let l = super::field::lit(limb as usize);
                inline[ins.outs[0].0 as usize] = Some(quote!(#a[#l]));
            }
            _ => {}
        }
    }
    let val = |v: Var| -> TokenStream {
        match &inline[v.0 as usize] {
            Some(t) => t.clone(),
            None => {
                let id = format_ident!("x{}", v.0);
                quote!(#id)
            }
        }
    };
    let wide = |v: Var| -> TokenStream {
        let e = val(v);
        quote!((#e as #dword))
    };
    let mut body = Vec::new();
    for ins in &f.instrs {
        let [o0, o1] = ins.outs;
        let two = ins.op.arity_out() == 2;
        let u0 = used[o0.0 as usize];
        let u1 = two && used[o1.0 as usize];
        let n0 = format_ident!("x{}", o0.0);
        let n1 = format_ident!("x{}", o1.0);
        let t = format_ident!("t{}", o0.0);
        match ins.op {
            Op::Const(_) | Op::Input { .. } => {}
            Op::MulAdd { a, b, c, d } => {
                let (wa, wb, wc, wd) = (wide(a), wide(b), wide(c), wide(d));
                let is_zero = |v: Var| constval[v.0 as usize] == Some(0);
                let mut sum = quote!(#wa * #wb);
                if !is_zero(c) {
                    sum = quote!(#sum + #wc);
                }
                if !is_zero(d) {
                    sum = quote!(#sum + #wd);
                }
                body.push(quote!(let #t: #dword = #sum;));
                if u0 {
                    body.push(quote!(let #n0 = #t as #word;));
                }
                if u1 {
                    body.push(quote!(let #n1 = (#t >> #w) as #word;));
                }
            }
            Op::MulLo { a, b } => {
                let (a, b) = (val(a), val(b));
                body.push(quote!(let #n0 = #a.wrapping_mul(#b);));
            }
            Op::AddCarry { a, b, cin } => {
                if u1 {
                    let (wa, wb, wc) = (wide(a), wide(b), wide(cin));
                    body.push(quote!(let #t: #dword = #wa + #wb + #wc;));
                    if u0 {
                        body.push(quote!(let #n0 = #t as #word;));
                    }
                    body.push(quote!(let #n1 = (#t >> #w) as #word;));
                } else {
                    let (a, b, c) = (val(a), val(b), val(cin));
                    body.push(quote!(let #n0 = #a.wrapping_add(#b).wrapping_add(#c);));
                }
            }
            Op::SubBorrow { a, b, bin } => {
                if u1 {
                    let (wa, wb, wc) = (wide(a), wide(b), wide(bin));
                    let top = super::field::lit(2 * f.w as usize - 1);
                    body.push(quote!(let #t: #dword = #wa.wrapping_sub(#wb + #wc);));
                    if u0 {
                        body.push(quote!(let #n0 = #t as #word;));
                    }
                    body.push(quote!(let #n1 = (#t >> #top) as #word;));
                } else {
                    let (a, b, c) = (val(a), val(b), val(bin));
                    body.push(quote!(let #n0 = #a.wrapping_sub(#b).wrapping_sub(#c);));
                }
            }
            Op::And { a, b } => {
                let (a, b) = (val(a), val(b));
                body.push(quote!(let #n0 = #a & #b;));
            }
            Op::Or { a, b } => {
                let (a, b) = (val(a), val(b));
                body.push(quote!(let #n0 = #a | #b;));
            }
            Op::Xor { a, b } => {
                let (a, b) = (val(a), val(b));
                body.push(quote!(let #n0 = #a ^ #b;));
            }
            Op::Not { a } => {
                let a = val(a);
                body.push(quote!(let #n0 = !#a;));
            }
            Op::Shl { a, k } => {
                let (a, k) = (val(a), super::field::lit(k as usize));
                body.push(quote!(let #n0 = #a << #k;));
            }
            Op::Shr { a, k } => {
                let (a, k) = (val(a), super::field::lit(k as usize));
                body.push(quote!(let #n0 = #a >> #k;));
            }
            Op::Mask { bit } => {
                let bit = val(bit);
                body.push(quote!(let #n0 = (0 as #word).wrapping_sub(#bit);));
            }
            Op::Select { mask, a, b } => {
                // a ^ (mask & (a ^ b)): b where mask is all ones, a where it is zero.
                let (m, a, b) = (val(mask), val(a), val(b));
                body.push(quote!(let #n0 = #a ^ (#m & (#a ^ #b));));
            }
        }
    }
    let outs = f.outputs.iter().map(|v| val(*v));
    let params = args.iter().zip(&f.inputs).map(|(name, bounds)| {
        let id = format_ident!("{}", name);
        let len = super::field::lit(bounds.len());
        quote!(#id: &[#word; #len])
    });
    let out_len = super::field::lit(f.outputs.len());
    let doc = format!(" {doc}");
    quote! {
        #[doc = #doc]
        #[inline]
        #[allow(clippy::all, unused_parens)]
        fn #name(#(#params),*) -> [#word; #out_len] {
            #(#body)*
            [#(#outs),*]
        }
    }
}
