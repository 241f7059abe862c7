//! The portable carry-less products and squaring: the López–Dahab comb with masks (no
//! multiplier), the 32-bit module's choice between it and the holes product, the squaring by bit
//! spreading and the bit helpers they share.

use super::*;

/// The portable comb: C = Σ_j Σ_k a_(j,k)·x^(wj+k)·B as the left-to-right comb of López and
/// Dahab (J. López, R. Dahab, "High-speed software multiplication in F_(2^m)", INDOCRYPT 2000;
/// Hankerson–Menezes–Vanstone Algorithm 2.34) with window one bit: for each bit position k of
/// the words of a, from the top, C ← C·x, then C{j} ← C{j} + (B AND mask(a_(j,k))). The mask
/// replaces both the branch and the table lookup, so nothing depends on a's bits but data.
pub(super) fn comb(c: &Ctx) -> TokenStream {
    let word = c.word();
    let wm1 = u32_lit(c.w - 1);
    let wbits = u32_lit(c.w);
    // c <<= 1 over the live words, top first.
    let mut shift = Vec::new();
    for i in (0..c.np).rev() {
        let ii = usize_lit(i);
        if i == 0 {
            shift.push(quote!(acc[0] <<= 1;));
        } else {
            let lo = usize_lit(i - 1);
            shift.push(quote!(acc[#ii] = (acc[#ii] << 1) | (acc[#lo] >> #wm1);));
        }
    }
    let mut adds = Vec::new();
    for j in 0..c.n {
        let jj = usize_lit(j);
        let mask = format_ident!("m{}", j);
        let zero_lit: TokenStream = format!("0{word}").parse().unwrap();
        adds.push(quote!(let #mask = #zero_lit.wrapping_sub((a[#jj] >> k) & 1);));
        for i in 0..c.n {
            if i + j >= c.np {
                continue;
            }
            let t = usize_lit(i + j);
            let ii = usize_lit(i);
            adds.push(quote!(acc[#t] ^= b[#ii] & #mask;));
        }
    }
    let n2 = usize_lit(2 * c.n);
    let n = usize_lit(c.n);
    let zero_lit: TokenStream = format!("0{word}").parse().unwrap();
    quote! {
        /// The double-length product a·b (2n words, least significant first) by the López–Dahab
        /// left-to-right comb with masks: w iterations, each a one-bit shift of the accumulator
        /// and, for each word of a, B added under the mask of that word's bit (Hankerson,
        /// Menezes, Vanstone, "Guide to Elliptic Curve Cryptography", Algorithm 2.34). Constant
        /// time on any core: no branch or index depends on a or b, and no multiplier is used.
        #[inline]
        fn mul_wide_comb(a: &[#word; #n], b: &[#word; #n]) -> [#word; #n2] {
            let mut acc = [#zero_lit; #n2];
            let mut k: u32 = #wbits;
            while k > 0 {
                k -= 1;
                #(#shift)*
                #(#adds)*
            }
            acc
        }
    }
}

/// The 32-bit module's portable product: the comb and the holes product, and the choice between
/// them at compile time (see `holes::ct_mul32_cfg`).
pub(super) fn portable32_items(c: &Ctx) -> TokenStream {
    let n = usize_lit(c.n);
    let n2 = usize_lit(2 * c.n);
    let comb = comb(c);
    let holes = crate::binary::holes::portable_items(c.w, c.n, c.m, "mul_wide_holes");
    let ct = crate::binary::holes::ct_mul32_cfg();
    quote! {
        #comb

        #holes

        /// The double-length product by the portable backend of this build: `mul_wide_holes`
        /// (about three times faster) where the 32×32 → 64-bit integer multiply is constant
        /// time — x86, x86-64, AArch64, wasm32, ARMv7-A (`target_feature` `v7` without
        /// `mclass`) and Cortex-M4/M7 (`mclass` with `dsp`) — and the multiplier-free
        /// `mul_wide_comb` everywhere else (Cortex-M0/M3, ARMv4T/v5TE, PowerPC, SPARC, MIPS,
        /// unknown), whose multipliers may finish early on small operands. Stable rustc does
        /// not set the ARM features, so ARM builds on stable use the comb.
        #[inline(always)]
        fn mul_wide_portable(a: &[u32; #n], b: &[u32; #n]) -> [u32; #n2] {
            #[cfg(#ct)]
            {
                Self::mul_wide_holes(a, b)
            }
            #[cfg(not(#ct))]
            {
                Self::mul_wide_comb(a, b)
            }
        }
    }
}

/// Portable squaring: bit i of a moves to bit 2i (squaring is linear over GF(2)).
pub(super) fn square_portable(c: &Ctx) -> TokenStream {
    let word = c.word();
    let n = usize_lit(c.n);
    let n2 = usize_lit(2 * c.n);
    let half = u32_lit(c.w / 2);
    let mut body = Vec::new();
    for i in 0..c.n {
        let ii = usize_lit(i);
        let lo = usize_lit(2 * i);
        let hi = usize_lit(2 * i + 1);
        body.push(quote!(r[#lo] = Self::spread(a[#ii]);));
        if 2 * i + 1 < c.np {
            body.push(quote!(r[#hi] = Self::spread(a[#ii] >> #half);));
        }
    }
    let zero_lit: TokenStream = format!("0{word}").parse().unwrap();
    quote! {
        /// a² as 2n words: each word's bits spread to the even positions (no products).
        #[inline]
        fn square_wide_portable(a: &[#word; #n]) -> [#word; #n2] {
            let mut r = [#zero_lit; #n2];
            #(#body)*
            r
        }
    }
}

/// `spread` (low half-word to even bits) and `compress` (even bits to the low half-word), by
/// the usual mask-and-shift ladder; both branch-free.
pub(super) fn bit_helpers(c: &Ctx) -> TokenStream {
    let word = c.word();
    let masks: Vec<(u32, u64)> = if c.w == 64 {
        vec![
            (16, 0x0000_ffff_0000_ffff),
            (8, 0x00ff_00ff_00ff_00ff),
            (4, 0x0f0f_0f0f_0f0f_0f0f),
            (2, 0x3333_3333_3333_3333),
            (1, 0x5555_5555_5555_5555),
        ]
    } else {
        vec![
            (8, 0x00ff_00ff),
            (4, 0x0f0f_0f0f),
            (2, 0x3333_3333),
            (1, 0x5555_5555),
        ]
    };
    let half_mask = c.lit(c.all_ones() >> (c.w / 2));
    let spread_steps = masks.iter().map(|(s, m)| {
        let s = u32_lit(*s);
        let m = c.lit(*m);
        quote!(x = (x | (x << #s)) & #m;)
    });
    let mut rev = masks.clone();
    rev.reverse();
    let first = c.lit(rev[0].1);
    let compress_steps = rev.iter().enumerate().map(|(i, (s, _))| {
        let s = u32_lit(*s);
        let next = if i + 1 < rev.len() {
            c.lit(rev[i + 1].1)
        } else {
            half_mask.clone()
        };
        quote!(x = (x | (x >> #s)) & #next;)
    });
    quote! {
        /// The low w/2 bits of x moved to the even bit positions (bit i to bit 2i).
        #[inline(always)]
        fn spread(x: #word) -> #word {
            let mut x = x & #half_mask;
            #(#spread_steps)*
            x
        }

        /// The even bits of x packed into the low w/2 bits (bit 2i to bit i).
        #[inline(always)]
        fn compress(x: #word) -> #word {
            let mut x = x & #first;
            #(#compress_steps)*
            x
        }
    }
}
