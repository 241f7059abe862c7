//! Constant-time square roots for p ≡ 1 (mod 8): Tonelli–Shanks whose discrete logarithm in the
//! 2-Sylow subgroup is found a window of bits at a time from precomputed tables (the table
//! method of D. J. Bernstein, "Faster square roots in annoying finite fields", 2001), so a
//! field of 2-adicity s pays about s squarings and s²/(2·W²) table products instead of the s²/2
//! squarings of the textbook loop (RFC 9380, Appendix I.4). P-224 (s = 96) and the pairing
//! scalar fields (BN254 r: s = 28, BLS12-381 r: s = 32) are the fields this is for.
//!
//! With p − 1 = 2^s·t (t odd), g a primitive 2^s-th root of unity and x = a^((t+1)/2),
//! b = a^t = x²/a lies in ⟨g⟩: b = g^e. When a is a square, e is even and x·g^(−e/2) is a root.
//! e is split into windows e_0 … e_(k−1) of w_j bits at offsets o_j (the first window takes the
//! remainder s − (k−1)·W, the others W bits). Window j is read from
//! c_j = b^(2^(s−o_j−w_j)) · Π_(i<j) g^(−e_i·2^(o_i+s−o_j−w_j)) = (g^(2^(s−w_j)))^(e_j),
//! by comparing c_j with every power of that primitive 2^(w_j)-th root. Every table read scans
//! all entries with masked selection; the loops run a fixed number of times.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::field::lit;

/// Window width in bits: tables of 2^W field elements.
const W: u32 = 4;

/// The windows of an s-bit logarithm: (width, offset) of each, least significant first.
fn windows(s: u32) -> Vec<(u32, u32)> {
    let k = s.div_ceil(W);
    let first = s - (k - 1) * W;
    let mut out = Vec::with_capacity(k as usize);
    let mut offset = 0;
    for j in 0..k {
        let w = if j == 0 { first } else { W };
        out.push((w, offset));
        offset += w;
    }
    out
}

/// The table plan: every distinct table (2^W exponents of g, `None` for padding) and, per
/// window, which table each step reads.
struct Plan {
    /// Tables as exponents e of g^e (the padding entry of a lookup table is g^0 = 1; of a
    /// logarithm table, `None`, emitted as zero so that it never matches).
    tables: Vec<Vec<Option<BigUint>>>,
    /// `chain[j][i]` (i < j): the table giving g^(−e_i·2^(o_i+s−o_j−w_j)).
    chain: Vec<Vec<usize>>,
    /// `dlog[j]`: the powers of g^(2^(s−w_j)).
    dlog: Vec<usize>,
    /// `fin[j]`: g^(−e_j·2^(o_j)/2), the window's share of the root's correction.
    fin: Vec<usize>,
}

fn plan(s: u32, order: &BigUint) -> Plan {
    let ws = windows(s);
    let k = ws.len();
    let mut tables: Vec<Vec<Option<BigUint>>> = Vec::new();
    let mut intern = |t: Vec<Option<BigUint>>| -> usize {
        if let Some(i) = tables.iter().position(|u| *u == t) {
            return i;
        }
        tables.push(t);
        tables.len() - 1
    };
    // −m·2^sh modulo the order 2^s of g.
    let neg = |m: u64, sh: u32| -> BigUint {
        let v = (BigUint::from(m) << sh as usize) % order;
        if v.is_zero() {
            v
        } else {
            order - v
        }
    };
    let size = 1u64 << W;
    let lookup = |w: u32, exp: &dyn Fn(u64) -> BigUint| -> Vec<Option<BigUint>> {
        (0..size)
            .map(|m| {
                Some(if m < (1 << w) {
                    exp(m)
                } else {
                    BigUint::zero()
                })
            })
            .collect()
    };
    let mut chain = vec![Vec::new(); k];
    let mut dlog = Vec::with_capacity(k);
    let mut fin = Vec::with_capacity(k);
    for (j, &(wj, oj)) in ws.iter().enumerate() {
        for &(wi, oi) in &ws[..j] {
            let sh = oi + s - oj - wj;
            chain[j].push(intern(lookup(wi, &|m| neg(m, sh))));
        }
        let d = (0..size)
            .map(|m| (m < (1 << wj)).then(|| (BigUint::from(m) << (s - wj) as usize) % order))
            .collect();
        dlog.push(intern(d));
        // e_0 is even for a square: g^(−⌊e_0/2⌋); later windows: g^(−e_j·2^(o_j − 1)).
        let f = if oj == 0 {
            lookup(wj, &|m| neg(m >> 1, 0))
        } else {
            lookup(wj, &|m| neg(m, oj - 1))
        };
        fin.push(intern(f));
    }
    Plan {
        tables,
        chain,
        dlog,
        fin,
    }
}

/// The body of `sqrt` for p ≡ 1 (mod 8): binds `x`, a root when `self` is a square (the caller
/// checks x² = self). `pow_w` computes self^((t−1)/2); `elem` turns a canonical value into the
/// stored form's limb array literal.
pub fn tonelli_shanks_body(
    name: &Ident,
    p: &BigUint,
    root_of_unity: &BigUint,
    s: u32,
    pow_w: TokenStream,
    elem: &dyn Fn(&BigUint) -> TokenStream,
) -> TokenStream {
    let order = BigUint::one() << s as usize;
    let pl = plan(s, &order);
    let k = pl.dlog.len();
    let tables = pl.tables.iter().map(|t| {
        let entries = t.iter().map(|e| {
            let v = match e {
                Some(e) => root_of_unity.modpow(e, p),
                None => BigUint::zero(),
            };
            let limbs = elem(&v);
            quote!(#name(#limbs))
        });
        quote!([#(#entries),*])
    });
    let nt = lit(pl.tables.len());
    let size = lit(1usize << W);
    let kk = lit(k);
    let last = lit(k - 1);
    let widths = windows(s).into_iter().map(|(w, _)| lit(w as usize));
    let chain = pl.chain.iter().map(|row| {
        let mut full: Vec<usize> = row.clone();
        full.resize(k, 0);
        let full = full.into_iter().map(lit);
        quote!([#(#full),*])
    });
    let dlog = pl.dlog.iter().map(|&v| lit(v));
    let fin = pl.fin.iter().map(|&v| lit(v));
    quote! {
        // Tonelli–Shanks with the logarithm of b = self^t read 4 bits at a time (module doc of
        // the generator's `emit::sqrt`): g^(…) tables, the windows' widths, and per window the
        // tables its steps read.
        static TS_TABLES: [[#name; #size]; #nt] = [#(#tables),*];
        const TS_WIDTHS: [u32; #kk] = [#(#widths),*];
        const TS_CHAIN: [[usize; #kk]; #kk] = [#(#chain),*];
        const TS_DLOG: [usize; #kk] = [#(#dlog),*];
        const TS_FINAL: [usize; #kk] = [#(#fin),*];
        fn ts_lookup(table: &[#name; #size], index: u8) -> #name {
            let mut r = #name::ONE;
            for (m, entry) in table.iter().enumerate() {
                let hit = ::fieldgen_field::subtle::ConstantTimeEq::ct_eq(&(m as u8), &index);
                <#name as ::fieldgen_field::subtle::ConditionallySelectable>::conditional_assign(&mut r, entry, hit);
            }
            r
        }
        let w = #pow_w;
        let mut x = self.mul(&w);
        // b^(2^(s − o_j − w_j)) for every window j, by squaring down from b itself.
        let mut powers = [#name::ZERO; #kk];
        powers[#last] = x.mul(&w);
        let mut j: usize = #last;
        while j > 0 {
            let mut y = powers[j];
            for _ in 0..TS_WIDTHS[j] {
                y = y.square();
            }
            powers[j - 1] = y;
            j -= 1;
        }
        let mut digits = [0u8; #kk];
        for (j, power) in powers.iter().enumerate() {
            let mut c = *power;
            for (digit, table) in digits.iter().zip(TS_CHAIN[j].iter()).take(j) {
                c = c.mul(&ts_lookup(&TS_TABLES[*table], *digit));
            }
            let mut d = 0u8;
            for (m, entry) in TS_TABLES[TS_DLOG[j]].iter().enumerate() {
                let hit = ::fieldgen_field::subtle::ConstantTimeEq::ct_eq(&c, entry);
                <u8 as ::fieldgen_field::subtle::ConditionallySelectable>::conditional_assign(&mut d, &(m as u8), hit);
            }
            digits[j] = d;
        }
        for (digit, table) in digits.iter().zip(TS_FINAL.iter()) {
            x = x.mul(&ts_lookup(&TS_TABLES[*table], *digit));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plan read back over the integers: for every logarithm e of a square (e even) the
    /// digits the tables yield recover e, and the final tables multiply to g^(−e/2). This
    /// checks the plan against plain modular arithmetic on exponents, independent of any field.
    #[test]
    fn plan_recovers_every_logarithm() {
        for s in [1u32, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13] {
            let order = BigUint::one() << s as usize;
            let pl = plan(s, &order);
            let ws = windows(s);
            assert_eq!(ws.iter().map(|w| w.0).sum::<u32>(), s);
            // Exponents of g (mod 2^s) stand for the elements.
            let exp = |t: usize, m: u8| pl.tables[t][m as usize].clone().unwrap();
            for e in 0..(1u64 << s) {
                let b = BigUint::from(e);
                let mut digits = Vec::new();
                for (j, &(wj, oj)) in ws.iter().enumerate() {
                    let mut c = (&b << (s - oj - wj) as usize) % &order;
                    for (i, &d) in digits.iter().enumerate() {
                        c = (c + exp(pl.chain[j][i], d)) % &order;
                    }
                    let found: Vec<u8> = (0..(1u8 << W))
                        .filter(|&m| pl.tables[pl.dlog[j]][m as usize].as_ref() == Some(&c))
                        .collect();
                    assert_eq!(found.len(), 1, "s = {s}, e = {e}, window {j}");
                    digits.push(found[0]);
                }
                let mut back = 0u64;
                for (&d, &(_, o)) in digits.iter().zip(&ws) {
                    back += (d as u64) << o;
                }
                assert_eq!(back, e, "s = {s}");
                if e % 2 == 0 {
                    let mut corr = BigUint::zero();
                    for (j, &d) in digits.iter().enumerate() {
                        corr = (corr + exp(pl.fin[j], d)) % &order;
                    }
                    let half = BigUint::from(e / 2);
                    assert_eq!((corr + half) % &order, BigUint::zero(), "s = {s}, e = {e}");
                }
            }
        }
    }
}
