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
        let text = if self.w == 64 {
            format!("0x{v:016x}_u64")
        } else {
            format!("0x{v:08x}_u32")
        };
        let lit = syn::LitInt::new(&text, Span::call_site());
        quote!(#lit)
    }

    /// An array literal of limbs.
    pub fn lits(&self, vs: &[u64]) -> TokenStream {
        let items = vs.iter().map(|v| self.lit(*v));
        quote!([#(#items),*])
    }
}

/// Functions with more instructions than this are emitted with a pool of reused mutable
/// locals instead of one `let` per value: thousands of nested `let` scopes overflow the
/// compiler's stack when it writes debug info, and the pool keeps the scope depth at the
/// number of simultaneously live values.
pub const POOLED_THRESHOLD: usize = 1000;

/// The words an instruction defines: an optional double-word temporary `t` and, for each used
/// output, its variable and an expression (which may read `t`).
struct Defs {
    temp: Option<TokenStream>,
    outs: Vec<(Var, TokenStream)>,
    /// A call returning the pair (low word, high word) (the 64-bit carry helpers of
    /// `fieldgen_field::carry`); each output's expression is then its index in the pair.
    pair: Option<TokenStream>,
}

/// The most selects one `selectK` helper of `fieldgen_field::barrier` takes.
const SELECT_GROUP: usize = 4;

/// The consecutive `Select`s from instruction `start` on under the same `mask`, up to
/// [`SELECT_GROUP`] of them, none reading another's result.
fn select_run(f: &Func, start: usize, mask: Var) -> Vec<usize> {
    let mut run = Vec::new();
    let mut outs = Vec::new();
    for (j, ins) in f.instrs.iter().enumerate().skip(start) {
        match ins.op {
            Op::Select { mask: m, a, b } if m == mask && run.len() < SELECT_GROUP => {
                if outs.contains(&a) || outs.contains(&b) {
                    break;
                }
                run.push(j);
                outs.push(ins.outs[0]);
            }
            _ => break,
        }
    }
    run
}

/// Emits `f` as a Rust function `fn name(a: &[W; n0], b: &[W; n1], ...) -> [W; out]`.
/// `args` names the input arrays in order. The function is `#[inline]` and private.
pub fn emit_fn(f: &Func, name: &Ident, args: &[&str], doc: &str) -> TokenStream {
    let words = Words { w: f.w };
    let word = words.word();
    let dword = words.dword();
    let w = crate::api::field::lit(f.w as usize);
    assert_eq!(args.len(), f.inputs.len());
    let pooled = f.instrs.len() > POOLED_THRESHOLD;

    // Last instruction reading each variable (outputs count as read at the end).
    let end = f.instrs.len();
    let mut last_use: Vec<Option<usize>> = vec![None; f.num_vars as usize];
    for (idx, ins) in f.instrs.iter().enumerate() {
        for v in ins.op.operands() {
            last_use[v.0 as usize] = Some(idx);
        }
    }
    for v in &f.outputs {
        last_use[v.0 as usize] = Some(end);
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
                let l = crate::api::field::lit(limb as usize);
                inline[ins.outs[0].0 as usize] = Some(quote!(#a[#l]));
            }
            _ => {}
        }
    }
    // Names of computed values: `xN` (one let each) or a pool slot `rK`.
    let mut names: Vec<Option<Ident>> = vec![None; f.num_vars as usize];
    let mut free_slots: Vec<usize> = Vec::new();
    let mut slot_of: Vec<Option<usize>> = vec![None; f.num_vars as usize];
    let mut num_slots = 0usize;
    let mut body = Vec::new();
    // Selects emitted as part of a group (see `Op::Select` below).
    let mut grouped = vec![false; f.instrs.len()];
    for (idx, ins) in f.instrs.iter().enumerate() {
        if grouped[idx] {
            continue;
        }
        let val = |v: Var| -> TokenStream {
            match (&inline[v.0 as usize], &names[v.0 as usize]) {
                (Some(t), _) => t.clone(),
                (None, Some(id)) => quote!(#id),
                (None, None) => panic!("{v:?} used before definition"),
            }
        };
        let wide = |v: Var| -> TokenStream {
            let e = val(v);
            quote!((#e as #dword))
        };
        let [o0, o1] = ins.outs;
        let two = ins.op.arity_out() == 2;
        let u0 = last_use[o0.0 as usize].is_some();
        let u1 = two && last_use[o1.0 as usize].is_some();
        let t = if pooled {
            format_ident!("t")
        } else {
            format_ident!("t{}", o0.0)
        };
        let one = |e: TokenStream| Defs {
            temp: None,
            outs: vec![(o0, e)],
            pair: None,
        };
        // The outputs of a carry helper's pair that are read, by their index in the pair.
        let pair_outs = || {
            let mut outs = Vec::new();
            if u0 {
                outs.push((o0, quote!(0)));
            }
            outs.push((o1, quote!(1)));
            outs
        };
        let defs = match ins.op {
            Op::Const(_) | Op::Input { .. } => continue,
            Op::MulAdd { a, b, c, d } => {
                let (wa, wb, wc, wd) = (wide(a), wide(b), wide(c), wide(d));
                let mut sum = quote!(#wa * #wb);
                if constval[c.0 as usize] != Some(0) {
                    sum = quote!(#sum + #wc);
                }
                if constval[d.0 as usize] != Some(0) {
                    sum = quote!(#sum + #wd);
                }
                let mut outs = Vec::new();
                if u0 {
                    outs.push((o0, quote!(#t as #word)));
                }
                if u1 {
                    outs.push((o1, quote!((#t >> #w) as #word)));
                }
                Defs {
                    temp: Some(sum),
                    outs,
                    pair: None,
                }
            }
            Op::MulLo { a, b } => {
                let (a, b) = (val(a), val(b));
                one(quote!(#a.wrapping_mul(#b)))
            }
            Op::AddCarry { a, b, cin } if u1 && f.w == 64 => {
                // `adc` on x86-64 (see `fieldgen_field::carry`).
                let (a, b, c) = (val(a), val(b), val(cin));
                Defs {
                    temp: None,
                    outs: pair_outs(),
                    pair: Some(quote!(::fieldgen_field::carry::add_u64(#a, #b, #c))),
                }
            }
            Op::AddCarry { a, b, cin } if u1 => {
                let (wa, wb, wc) = (wide(a), wide(b), wide(cin));
                let mut outs = Vec::new();
                if u0 {
                    outs.push((o0, quote!(#t as #word)));
                }
                outs.push((o1, quote!((#t >> #w) as #word)));
                Defs {
                    temp: Some(quote!(#wa + #wb + #wc)),
                    outs,
                    pair: None,
                }
            }
            Op::AddCarry { a, b, cin } => {
                let (a, b, c) = (val(a), val(b), val(cin));
                one(quote!(#a.wrapping_add(#b).wrapping_add(#c)))
            }
            Op::SubBorrow { a, b, bin } if u1 && f.w == 64 => {
                // `sbb` on x86-64 (see `fieldgen_field::carry`).
                let (a, b, c) = (val(a), val(b), val(bin));
                Defs {
                    temp: None,
                    outs: pair_outs(),
                    pair: Some(quote!(::fieldgen_field::carry::sub_u64(#a, #b, #c))),
                }
            }
            Op::SubBorrow { a, b, bin } if u1 => {
                let top = crate::api::field::lit(2 * f.w as usize - 1);
                let mut outs = Vec::new();
                if u0 {
                    outs.push((o0, quote!(#t as #word)));
                }
                outs.push((o1, quote!((#t >> #top) as #word)));
                // Two overflowing subtractions rather than one in the double word: LLVM turns
                // the pair into a sub/sbb chain, the double-word form into extra moves and
                // shifts. The borrow is packed in the top bit so the outputs read alike.
                let (a, b, c) = (val(a), val(b), val(bin));
                Defs {
                    temp: Some(quote!({
                        let (d, b1) = #a.overflowing_sub(#b);
                        let (d, b2) = d.overflowing_sub(#c);
                        (d as #dword) | (((b1 | b2) as #dword) << #top)
                    })),
                    outs,
                    pair: None,
                }
            }
            Op::SubBorrow { a, b, bin } => {
                let (a, b, c) = (val(a), val(b), val(bin));
                one(quote!(#a.wrapping_sub(#b).wrapping_sub(#c)))
            }
            Op::And { a, b } => {
                let (a, b) = (val(a), val(b));
                one(quote!(#a & #b))
            }
            Op::Or { a, b } => {
                let (a, b) = (val(a), val(b));
                one(quote!(#a | #b))
            }
            Op::Xor { a, b } => {
                let (a, b) = (val(a), val(b));
                one(quote!(#a ^ #b))
            }
            Op::Not { a } => {
                let a = val(a);
                one(quote!(!#a))
            }
            Op::Shl { a, k } => {
                let (a, k) = (val(a), crate::api::field::lit(k as usize));
                one(quote!(#a << #k))
            }
            Op::Shr { a, k } => {
                let (a, k) = (val(a), crate::api::field::lit(k as usize));
                one(quote!(#a >> #k))
            }
            Op::Mask { bit } => {
                // Through a value barrier: a mask the optimiser knows to be 0 or all ones can
                // become a branch again (see `fieldgen_field::barrier`); found in
                // `canonical_limbs` on 32-bit limbs and, as a masked addition of p, could be in
                // any reduction.
                let bit = val(bit);
                let barrier = format_ident!("{}", if f.w == 64 { "u64" } else { "u32" });
                let zero_lit: TokenStream = format!("0{word}").parse().unwrap();
                one(quote!(::fieldgen_field::barrier::#barrier(#zero_lit.wrapping_sub(#bit))))
            }
            Op::Select { mask, .. } if !pooled && select_run(f, idx, mask).len() > 1 => {
                // A run of selects under one mask (a final conditional subtraction): one
                // `test` and a `cmov` per limb in one asm block (`selectK_u64`) instead of a
                // `test`/`cmov`/`xor` per limb.
                let run = select_run(f, idx, mask);
                let m = val(mask);
                let (mut xs, mut ys, mut ids) = (Vec::new(), Vec::new(), Vec::new());
                for &j in &run {
                    if let Op::Select { a, b, .. } = f.instrs[j].op {
                        xs.push(val(a));
                        ys.push(val(b));
                    }
                    let o = f.instrs[j].outs[0];
                    ids.push(if last_use[o.0 as usize].is_some() {
                        format_ident!("x{}", o.0)
                    } else {
                        format_ident!("_")
                    });
                }
                let select = format_ident!("select{}_u{}", run.len(), f.w);
                body.push(quote! {
                    let [#(#ids),*] = ::fieldgen_field::barrier::#select(#m, [#(#xs),*], [#(#ys),*]);
                });
                for &j in &run {
                    grouped[j] = true;
                    let o = f.instrs[j].outs[0];
                    names[o.0 as usize] = Some(format_ident!("x{}", o.0));
                }
                continue;
            }
            Op::Select { mask, a, b } => {
                // b where mask is all ones, a where it is zero, by `test`/`cmov` (`cmp`/`csel`)
                // in an asm block: LLVM once turned the masked form's `cmov` into a branch in
                // an addition's final subtraction inlined into a loop (x86 cmov conversion).
                let (m, a, b) = (val(mask), val(a), val(b));
                let select = format_ident!(
                    "{}",
                    if f.w == 64 {
                        "select_u64"
                    } else {
                        "select_u32"
                    }
                );
                one(quote!(::fieldgen_field::barrier::#select(#m, #a, #b)))
            }
        };
        if let (false, Some(call)) = (pooled, &defs.pair) {
            let ids: Vec<Ident> = defs
                .outs
                .iter()
                .map(|(v, _)| format_ident!("x{}", v.0))
                .collect();
            if ids.len() == 2 {
                body.push(quote!(let (#(#ids),*) = #call;));
            } else {
                let (id, k) = (&ids[0], &defs.outs[0].1);
                body.push(quote!(let #id = #call.#k;));
            }
            for ((v, _), id) in defs.outs.iter().zip(ids) {
                names[v.0 as usize] = Some(id);
            }
            continue;
        }
        if !pooled {
            let ids: Vec<Ident> = defs
                .outs
                .iter()
                .map(|(v, _)| format_ident!("x{}", v.0))
                .collect();
            let es = defs.outs.iter().map(|(_, e)| e);
            // The double-word temporary lives in a block and a pair of outputs is bound by a
            // tuple pattern: clippy's `unnecessary_cast` follows a cast operand back through
            // `let` initialisers, which is exponential in a long let chain and stops at a
            // pattern binding. The optimiser sees the same dataflow either way.
            match (&defs.temp, ids.len()) {
                (Some(temp), 1) => {
                    body.push(quote!(let #(#ids)* = { let #t: #dword = #temp; #(#es)* };))
                }
                (Some(temp), _) => {
                    body.push(quote!(let (#(#ids),*) = { let #t: #dword = #temp; (#(#es),*) };))
                }
                (None, _) => {
                    for (id, e) in ids.iter().zip(es) {
                        body.push(quote!(let #id = #e;));
                    }
                }
            }
            for ((v, _), id) in defs.outs.iter().zip(ids) {
                names[v.0 as usize] = Some(id);
            }
            continue;
        }
        // Pooled: operands read for the last time free their slots before the outputs are
        // written; every right-hand side is evaluated before any assignment.
        for v in ins.op.operands() {
            if last_use[v.0 as usize] == Some(idx) {
                if let Some(s) = slot_of[v.0 as usize].take() {
                    free_slots.push(s);
                }
            }
        }
        let mut assigns = Vec::new();
        for (v, e) in &defs.outs {
            let s = free_slots.pop().unwrap_or_else(|| {
                num_slots += 1;
                num_slots - 1
            });
            slot_of[v.0 as usize] = Some(s);
            let id = format_ident!("r{}", s);
            assigns.push(quote!(#id = #e;));
            names[v.0 as usize] = Some(id);
        }
        if let Some(call) = &defs.pair {
            let assigns = defs.outs.iter().map(|(v, k)| {
                let id = &names[v.0 as usize];
                quote!(#id = #t.#k;)
            });
            body.push(quote!({
                let #t = #call;
                #(#assigns)*
            }));
            continue;
        }
        match &defs.temp {
            Some(temp) => body.push(quote!({
                let #t: #dword = #temp;
                #(#assigns)*
            })),
            None => body.extend(assigns),
        }
    }
    let outs: Vec<TokenStream> = f
        .outputs
        .iter()
        .map(|v| match (&inline[v.0 as usize], &names[v.0 as usize]) {
            (Some(t), _) => t.clone(),
            (None, Some(id)) => quote!(#id),
            (None, None) => panic!("output {v:?} never defined"),
        })
        .collect();
    let slots = (0..num_slots).map(|s| {
        let id = format_ident!("r{}", s);
        quote!(let mut #id: #word;)
    });
    let params = args.iter().zip(&f.inputs).map(|(name, bounds)| {
        let id = format_ident!("{}", name);
        let len = crate::api::field::lit(bounds.len());
        quote!(#id: &[#word; #len])
    });
    let out_len = crate::api::field::lit(f.outputs.len());
    let doc = format!(" {doc}");
    // A pooled slot may be read and rewritten by one instruction (`r0 = r0 >> 25`): that is
    // the pool's register reuse, not a missed `>>=`.
    let allow = if pooled {
        quote!(#[allow(unused_parens, unused_assignments, clippy::assign_op_pattern)])
    } else {
        quote!(#[allow(unused_parens, unused_assignments)])
    };
    quote! {
        #[doc = #doc]
        #[inline]
        #allow
        fn #name(#(#params),*) -> [#word; #out_len] {
            #(#slots)*
            #(#body)*
            [#(#outs),*]
        }
    }
}
