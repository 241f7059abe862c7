//! The sibling IR of the XMM kernels: straight-line SSA over 128-bit `__m128i` values.
//!
//! Every instruction defines one value, named by its index ([`V`]); operands are values defined
//! earlier. An instruction is a *statement* (`let name = op;`, or a store, which defines nothing
//! read later) or *inline* (printed inside each statement that reads it, as a nested intrinsic
//! call or a loop variable). [`Gen`](super::gen::Gen) builds the instructions and lists the
//! statements in emission order; [`schedule`] reorders that list from the operand lists and the
//! per-operation latencies; [`Xir::print`] turns statements into tokens, one intrinsic per
//! operation. In tests, [`Xir::run`] executes statements on words (carry-less semantics on
//! `u128`), so a kernel can be checked against the bit-serial polynomials of
//! [`crate::binary::poly`].

use super::*;
use crate::narrow::fit;

/// An SSA value: the index of the instruction defining it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct V(u32);

/// An input array of the kernel: `a` or `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Src {
    /// The first operand, `a`.
    A,
    /// The second operand, `b`.
    B,
}

/// One operation on `__m128i` values (lane 0 = the low 64 bits; bytes little-endian).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Op {
    /// `cur{t}` of `square_n`'s loop: a value carried between iterations.
    Param(usize),
    /// Words `word` and `word + 1` of `src` (`_mm_loadu_si128`).
    LoadPair { src: Src, word: usize },
    /// Word `word` of `src` in lane 0, lane 1 zero (`_mm_loadl_epi64`).
    LoadWord { src: Src, word: usize },
    /// The constant with words (lo, hi) (`_mm_set_epi64x`).
    Set { lo: u64, hi: u64 },
    /// Every byte `b` (`_mm_set1_epi8`).
    Splat8(u8),
    /// Bytes 0..16 in order (`_mm_setr_epi8`).
    Bytes([u8; 16]),
    /// The carry-less product of word `imm & 1` of `a` and word `imm >> 4 & 1` of `b`.
    Clmul { a: V, b: V, imm: u8 },
    /// Bitwise xor (`_mm_xor_si128`): the sum in GF(2)[x].
    Xor(V, V),
    /// Bitwise and (`_mm_and_si128`).
    And(V, V),
    /// The 128-bit value moved `k` bytes up (`_mm_slli_si128`).
    ByteShl(V, u8),
    /// The 128-bit value moved `k` bytes down (`_mm_srli_si128`).
    ByteShr(V, u8),
    /// Bytes `k..k + 16` of `hi:lo` (`_mm_alignr_epi8`).
    Alignr { hi: V, lo: V, k: u8 },
    /// Each 64-bit lane moved up by `k` bits (`_mm_slli_epi64`).
    Shl64(V, u8),
    /// Each 64-bit lane moved down by `k` bits (`_mm_srli_epi64`).
    Shr64(V, u8),
    /// Each 16-bit lane moved down by `k` bits (`_mm_srli_epi16`).
    Shr16(V, u8),
    /// Lane 1 of both: (a.1, b.1) (`_mm_unpackhi_epi64`).
    UnpackHi64(V, V),
    /// Lane 0, lane 1 cleared (`_mm_move_epi64`).
    MoveLo(V),
    /// Byte i = `table` byte `idx[i] & 15`, or 0 if bit 7 of `idx[i]` is set (`_mm_shuffle_epi8`).
    Shuffle8 { table: V, idx: V },
    /// The low eight bytes of `a` and `b` interleaved, `a` first (`_mm_unpacklo_epi8`).
    UnpackLo8(V, V),
    /// The high eight bytes of `a` and `b` interleaved, `a` first (`_mm_unpackhi_epi8`).
    UnpackHi8(V, V),
    /// Writes lane 0 (and with `pair` lane 1) of `v` (zero if absent) to `out[word..]`.
    Store {
        word: usize,
        v: Option<V>,
        pair: bool,
    },
}

impl Op {
    /// The operand values, in order.
    pub(super) fn operands(&self) -> Vec<V> {
        match *self {
            Op::Param(_)
            | Op::LoadPair { .. }
            | Op::LoadWord { .. }
            | Op::Set { .. }
            | Op::Splat8(_)
            | Op::Bytes(_) => vec![],
            Op::Clmul { a, b, .. }
            | Op::Xor(a, b)
            | Op::And(a, b)
            | Op::Alignr { hi: a, lo: b, .. }
            | Op::UnpackHi64(a, b)
            | Op::Shuffle8 { table: a, idx: b }
            | Op::UnpackLo8(a, b)
            | Op::UnpackHi8(a, b) => vec![a, b],
            Op::ByteShl(a, _)
            | Op::ByteShr(a, _)
            | Op::Shl64(a, _)
            | Op::Shr64(a, _)
            | Op::Shr16(a, _)
            | Op::MoveLo(a) => vec![a],
            Op::Store { v, .. } => v.into_iter().collect(),
        }
    }

    /// Cycles until the result is ready, as the scheduler weighs them: PCLMULQDQ 3, loads 5,
    /// every other vector operation 1.
    fn latency(&self) -> u32 {
        match self {
            Op::Clmul { .. } => 3,
            Op::LoadPair { .. } | Op::LoadWord { .. } => 5,
            _ => 1,
        }
    }
}

/// How an instruction is printed.
#[derive(Clone, Debug)]
enum Kind {
    /// `let name = op;`
    Bound(Ident),
    /// In place, in every statement reading it.
    Inline,
    /// `op;` (a store).
    Effect,
}

#[derive(Clone, Debug)]
struct Inst {
    op: Op,
    kind: Kind,
}

/// The instructions of one kernel, indexed by [`V`].
#[derive(Default)]
pub(super) struct Xir {
    insts: Vec<Inst>,
}

impl Xir {
    fn push(&mut self, op: Op, kind: Kind) -> V {
        self.insts.push(Inst { op, kind });
        V(fit(self.insts.len() - 1))
    }

    /// A statement `let name = op;`.
    pub(super) fn bind(&mut self, name: Ident, op: Op) -> V {
        self.push(op, Kind::Bound(name))
    }

    /// An operation printed inside the statements that read it.
    pub(super) fn inline(&mut self, op: Op) -> V {
        self.push(op, Kind::Inline)
    }

    /// A statement without a value read later (a store).
    pub(super) fn effect(&mut self, op: Op) -> V {
        self.push(op, Kind::Effect)
    }

    /// The operation defining `v`.
    fn op(&self, v: V) -> &Op {
        &self.insts[v.0 as usize].op
    }

    fn inst(&self, v: V) -> &Inst {
        &self.insts[v.0 as usize]
    }

    /// The statement values `v` reads, through inline operations, and the latency of `v` with
    /// its inline operations (the largest of them).
    fn reads(&self, v: V, out: &mut Vec<V>) -> u32 {
        let op = self.op(v);
        let mut lat = op.latency();
        for u in op.operands() {
            match self.inst(u).kind {
                Kind::Inline => lat = lat.max(self.reads(u, out)),
                _ => out.push(u),
            }
        }
        lat
    }

    /// The tokens of one statement.
    pub(super) fn print(&self, v: V) -> TokenStream {
        let e = self.expr(&self.inst(v).op);
        match &self.inst(v).kind {
            Kind::Bound(id) => quote!(let #id = #e;),
            Kind::Effect => quote!(#e;),
            Kind::Inline => panic!("an inline operation is not a statement"),
        }
    }

    /// The tokens reading `v` (its name, or the operation itself if inline; zero if absent).
    pub(super) fn value(&self, v: Option<V>) -> TokenStream {
        let Some(v) = v else {
            let zero = arch("_mm_setzero_si128");
            return quote!(#zero());
        };
        match &self.inst(v).kind {
            Kind::Bound(id) => quote!(#id),
            Kind::Inline => self.expr(&self.inst(v).op),
            Kind::Effect => panic!("a store has no value"),
        }
    }

    fn expr(&self, op: &Op) -> TokenStream {
        let val = |v: V| self.value(Some(v));
        let int = |k: u8| Literal::i32_unsuffixed(k as i32);
        let src_ptr = |src: Src, word: usize| {
            let s = match src {
                Src::A => format_ident!("a"),
                Src::B => format_ident!("b"),
            };
            let idx = usize_lit(word);
            quote!(#s.as_ptr().add(#idx).cast())
        };
        let call1 = |f: &str, a: V, k: u8| {
            let (f, a, k) = (arch(f), val(a), int(k));
            quote!(#f(#a, #k))
        };
        let call2 = |f: &str, a: V, b: V| {
            let (f, a, b) = (arch(f), val(a), val(b));
            quote!(#f(#a, #b))
        };
        match *op {
            Op::Param(t) => {
                let id = format_ident!("cur{}", t);
                quote!(#id)
            }
            Op::LoadPair { src, word } => {
                let (f, p) = (arch("_mm_loadu_si128"), src_ptr(src, word));
                quote!(#f(#p))
            }
            Op::LoadWord { src, word } => {
                let (f, p) = (arch("_mm_loadl_epi64"), src_ptr(src, word));
                quote!(#f(#p))
            }
            Op::Set { lo, hi } => {
                let f = arch("_mm_set_epi64x");
                let hex = |v: u64| {
                    let l =
                        syn::LitInt::new(&format!("{v:#018x}u64"), proc_macro2::Span::call_site());
                    quote!(#l as i64)
                };
                let (lo, hi) = (hex(lo), hex(hi));
                quote!(#f(#hi, #lo))
            }
            Op::Splat8(b) => {
                let f = arch("_mm_set1_epi8");
                let l = syn::LitInt::new(&format!("{b:#04x}"), proc_macro2::Span::call_site());
                quote!(#f(#l))
            }
            Op::Bytes(t) => {
                let f = arch("_mm_setr_epi8");
                let t = t.iter().map(|&b| Literal::u8_unsuffixed(b));
                quote!(#f(#(#t),*))
            }
            Op::Clmul { a, b, imm } => {
                let (f, a, b, imm) = (arch("_mm_clmulepi64_si128"), val(a), val(b), int(imm));
                quote!(#f(#a, #b, #imm))
            }
            Op::Xor(a, b) => call2("_mm_xor_si128", a, b),
            Op::And(a, b) => call2("_mm_and_si128", a, b),
            Op::ByteShl(a, k) => call1("_mm_slli_si128", a, k),
            Op::ByteShr(a, k) => call1("_mm_srli_si128", a, k),
            Op::Alignr { hi, lo, k } => {
                let (f, hi, lo, k) = (arch("_mm_alignr_epi8"), val(hi), val(lo), int(k));
                quote!(#f(#hi, #lo, #k))
            }
            Op::Shl64(a, k) => call1("_mm_slli_epi64", a, k),
            Op::Shr64(a, k) => call1("_mm_srli_epi64", a, k),
            Op::Shr16(a, k) => call1("_mm_srli_epi16", a, k),
            Op::UnpackHi64(a, b) => call2("_mm_unpackhi_epi64", a, b),
            Op::MoveLo(a) => {
                let (f, a) = (arch("_mm_move_epi64"), val(a));
                quote!(#f(#a))
            }
            Op::Shuffle8 { table, idx } => call2("_mm_shuffle_epi8", table, idx),
            Op::UnpackLo8(a, b) => call2("_mm_unpacklo_epi8", a, b),
            Op::UnpackHi8(a, b) => call2("_mm_unpackhi_epi8", a, b),
            Op::Store { word, v, pair } => {
                let f = arch(if pair {
                    "_mm_storeu_si128"
                } else {
                    "_mm_storel_epi64"
                });
                let (idx, v) = (usize_lit(word), self.value(v));
                quote!(#f(out.as_mut_ptr().add(#idx).cast(), #v))
            }
        }
    }
}

/// Reorders the statements `stmts` by list scheduling: each statement's height is its latency
/// (PCLMULQDQ 3 cycles, loads 5, other vector operations 1) plus the largest height among the
/// statements reading it, and of the statements whose operands are ready the highest comes
/// first (ties in the original order). Operands defined outside `stmts` count as ready. The
/// out-of-order core issues the oldest ready instruction first, so the products and folds on
/// the longest path to the stores — the reduction of the top words — then no longer wait
/// behind products only the low words need.
pub(super) fn schedule(ir: &Xir, stmts: Vec<V>) -> Vec<V> {
    let n = stmts.len();
    let pos: HashMap<V, usize> = stmts.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let mut deps: Vec<Vec<usize>> = Vec::with_capacity(n);
    let mut lat: Vec<u32> = Vec::with_capacity(n);
    for &v in &stmts {
        let mut reads = Vec::new();
        lat.push(ir.reads(v, &mut reads));
        let mut d: Vec<usize> = reads.iter().filter_map(|u| pos.get(u).copied()).collect();
        d.sort_unstable();
        d.dedup();
        deps.push(d);
    }
    let mut height = lat.clone();
    for i in (0..n).rev() {
        for &d in &deps[i] {
            height[d] = height[d].max(lat[d] + height[i]);
        }
    }
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut waiting: Vec<usize> = deps.iter().map(Vec::len).collect();
    for (i, d) in deps.iter().enumerate() {
        for &j in d {
            users[j].push(i);
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&i| waiting[i] == 0).collect();
    let mut order = Vec::with_capacity(n);
    while !ready.is_empty() {
        let (at, _) = ready
            .iter()
            .enumerate()
            .max_by_key(|(_, &i)| (height[i], std::cmp::Reverse(i)))
            .expect("non-empty");
        let i = ready.swap_remove(at);
        order.push(stmts[i]);
        for &u in &users[i] {
            waiting[u] -= 1;
            if waiting[u] == 0 {
                ready.push(u);
            }
        }
    }
    assert_eq!(order.len(), n, "statements form a DAG");
    order
}

/// The carry-less product of two 64-bit words.
#[cfg(test)]
fn clmul64(a: u64, b: u64) -> u128 {
    (0..64)
        .filter(|i| b >> i & 1 == 1)
        .fold(0u128, |acc, i| acc ^ ((a as u128) << i))
}

#[cfg(test)]
use crate::narrow::lo64;

#[cfg(test)]
impl Xir {
    /// Executes the statements `stmts` in order on the input words `a`, `b` and the loop values
    /// `params`, into `out`; `vals` holds the values already computed (by index) and receives
    /// the new ones. Panics on a value read before its statement ran.
    pub(super) fn run(
        &self,
        stmts: &[V],
        (a, b, params): (&[u64], &[u64], &[u128]),
        vals: &mut HashMap<V, u128>,
        out: &mut [u64],
    ) {
        for &v in stmts {
            let x = self.eval(v, (a, b, params), vals, out);
            vals.insert(v, x);
        }
    }

    fn eval(
        &self,
        v: V,
        inputs: (&[u64], &[u64], &[u128]),
        vals: &HashMap<V, u128>,
        out: &mut [u64],
    ) -> u128 {
        let get = |u: V| match self.inst(u).kind {
            Kind::Inline => self.eval(u, inputs, vals, &mut []),
            _ => *vals
                .get(&u)
                .unwrap_or_else(|| panic!("{u:?} read before it is defined")),
        };
        let word = |src: Src, i: usize| match src {
            Src::A => inputs.0[i],
            Src::B => inputs.1[i],
        };
        let lanes64 = |x: u128, f: &dyn Fn(u64) -> u64| {
            f(lo64(x)) as u128 | (f((x >> 64) as u64) as u128) << 64
        };
        let bytes = |x: u128| x.to_le_bytes();
        let interleave = |x: u128, y: u128, half: usize| {
            let (x, y) = (bytes(x), bytes(y));
            let mut r = [0u8; 16];
            for i in 0..8 {
                r[2 * i] = x[8 * half + i];
                r[2 * i + 1] = y[8 * half + i];
            }
            u128::from_le_bytes(r)
        };
        match *self.op(v) {
            Op::Param(t) => inputs.2[t],
            Op::LoadPair { src, word: i } => {
                word(src, i) as u128 | (word(src, i + 1) as u128) << 64
            }
            Op::LoadWord { src, word: i } => word(src, i) as u128,
            Op::Set { lo, hi } => lo as u128 | (hi as u128) << 64,
            Op::Splat8(b) => u128::from_le_bytes([b; 16]),
            Op::Bytes(t) => u128::from_le_bytes(t),
            Op::Clmul { a, b, imm } => {
                let (a, b) = (get(a), get(b));
                let x = lo64(a >> (64 * (imm & 1) as u32));
                let y = lo64(b >> (64 * (imm >> 4 & 1) as u32));
                clmul64(x, y)
            }
            Op::Xor(a, b) => get(a) ^ get(b),
            Op::And(a, b) => get(a) & get(b),
            Op::ByteShl(a, k) => get(a) << (8 * k as u32),
            Op::ByteShr(a, k) => get(a) >> (8 * k as u32),
            Op::Alignr { hi, lo, k } => {
                let (hi, lo) = (get(hi), get(lo));
                let k = 8 * k as u32;
                if k == 0 {
                    lo
                } else {
                    lo >> k | hi << (128 - k)
                }
            }
            Op::Shl64(a, k) => lanes64(get(a), &|w| w << k),
            Op::Shr64(a, k) => lanes64(get(a), &|w| w >> k),
            Op::Shr16(a, k) => {
                let mut r = bytes(get(a));
                for c in r.chunks_mut(2) {
                    let w = u16::from_le_bytes([c[0], c[1]]) >> k;
                    c.copy_from_slice(&w.to_le_bytes());
                }
                u128::from_le_bytes(r)
            }
            Op::UnpackHi64(a, b) => get(a) >> 64 | get(b) >> 64 << 64,
            Op::MoveLo(a) => get(a) & u64::MAX as u128,
            Op::Shuffle8 { table, idx } => {
                let (t, i) = (bytes(get(table)), bytes(get(idx)));
                let r = i.map(|i| {
                    if i & 0x80 != 0 {
                        0
                    } else {
                        t[(i & 15) as usize]
                    }
                });
                u128::from_le_bytes(r)
            }
            Op::UnpackLo8(a, b) => interleave(get(a), get(b), 0),
            Op::UnpackHi8(a, b) => interleave(get(a), get(b), 1),
            Op::Store { word, v, pair } => {
                let x = v.map_or(0, get);
                out[word] = lo64(x);
                if pair {
                    out[word + 1] = (x >> 64) as u64;
                }
                0
            }
        }
    }
}
