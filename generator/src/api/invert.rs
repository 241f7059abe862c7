//! Constant-time inversion by Bernstein–Yang divsteps ("safegcd"), emitted for one modulus.
//!
//! Algorithm: D. J. Bernstein and B.-Y. Yang, "Fast constant-time gcd computation and modular
//! inversion", TCHES 2019(3), with divsteps batched B at a time on the low word of f and g
//! (B = 62 for 64-bit limb fields, 30 for 32-bit ones): each batch builds a 2×2 transition matrix
//! scaled by 2^B, then applies it to the full-size f, g (exact division by 2^B) and to d, e modulo
//! p (division by 2^B made exact by adding a multiple of p chosen with p⁻¹ mod 2^B). The
//! matrix entries satisfy |u| + |v| ≤ 2^B, which keeps d and e in (−2p, p) when each update
//! first adds the matrix row for the negative ones (the range argument of P. Wuille's
//! write-up of the batched algorithm for libsecp256k1, "The safegcd implementation in
//! libsecp256k1 explained").
//!
//! The steps are "hddivsteps" (P. Wuille, "Bounds on divsteps iterations in safegcd", the
//! half-delta variant: δ starts at 1/2, kept doubled as an integer, so a step adds 2 where the
//! original adds 1), which need about 20 % fewer steps: for 0 ≤ g ≤ f ≤ M with
//! 4257874 ≤ M ≤ 2^3805, ⌊(3787·log2(M) + 2166)/1644⌋ steps suffice (a bound verified there by
//! exact convex-hull computation for every M in that range; 590 for 256-bit inputs, the count
//! libsecp256k1 uses). Outside that range the original divsteps run, with the paper's proven
//! bound (Theorem 11.2) for a d-bit modulus, ⌊(49d + 57)/17⌋ for d ≥ 46 and ⌊(49d + 80)/17⌋
//! below. Either count is rounded up to whole batches; every call runs exactly that many, with
//! no branch or index depending on the value.
//!
//! The emitted code works on the canonical little-endian encoding (`to_le_bytes` /
//! `from_le_bytes`), so it serves every internal representation of the field alike.

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::spec::{FieldConsts, LimbBits};

/// Divsteps the Bernstein–Yang bound requires for a modulus of `bits` bits (and any input
/// below it).
pub fn divsteps_bound(bits: u32) -> u64 {
    let d = u64::from(bits);
    if d >= 46 {
        (49 * d + 57) / 17
    } else {
        (49 * d + 80) / 17
    }
}

/// The largest modulus size, in bits, for which the hddivsteps bound has been verified.
pub const HDDIVSTEPS_MAX_BITS: u32 = 3805;

/// hddivsteps that suffice for any 0 ≤ g ≤ f < 2^bits (Wuille's bound with M = 2^bits, which
/// covers every modulus of that size), or `None` outside the verified range 4257874 ≤ M ≤
/// 2^3805 (so below 23 bits and above 3805 bits).
pub fn hddivsteps_bound(bits: u32) -> Option<u64> {
    if !(23..=HDDIVSTEPS_MAX_BITS).contains(&bits) {
        return None;
    }
    Some((3787 * u64::from(bits) + 2166) / 1644)
}

/// Which divstep variant an inversion runs, and how many steps.
pub fn divsteps_plan(bits: u32) -> (Variant, u64) {
    match hddivsteps_bound(bits) {
        Some(n) => (Variant::HalfDelta, n),
        None => (Variant::Original, divsteps_bound(bits)),
    }
}

/// The divstep variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Bernstein–Yang's divsteps, δ starting at 1.
    Original,
    /// hddivsteps: δ starting at 1/2 (stored doubled).
    HalfDelta,
}

/// The shape of the emitted inversion for one field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SafegcdShape {
    /// Divsteps per batch: 62 (64-bit limb fields) or 30 (32-bit).
    pub batch: u32,
    /// Signed limbs of B bits holding f, g, d, e (the top one carries the sign).
    pub limbs: usize,
    /// Batches per inversion.
    pub batches: u64,
    /// The divstep variant and the bound it needs.
    pub variant: Variant,
    /// Divsteps the bound requires (before rounding up to whole batches).
    pub steps: u64,
}

impl SafegcdShape {
    /// The shape for a field of `bits` bits whose limbs are `limb_bits` wide.
    pub fn new(bits: u32, limb_bits: LimbBits) -> SafegcdShape {
        let batch = match limb_bits {
            LimbBits::W64 => 62,
            LimbBits::W32 => 30,
        };
        // Values up to 2^(bits+1) in magnitude: the B-bit limbs below the top one hold
        // B·(limbs−1) bits and the signed top limb one more than B, which covers bits + 2.
        let limbs = (bits / batch) as usize + 1;
        let (variant, steps) = divsteps_plan(bits);
        let batches = steps.div_ceil(u64::from(batch));
        SafegcdShape {
            batch,
            limbs,
            batches,
            variant,
            steps,
        }
    }
}

/// Signed B-bit limbs of `x` (non-negative), least significant first.
fn signed_limbs(x: &BigUint, batch: u32, n: usize) -> Vec<u64> {
    let mask = (BigUint::one() << batch) - 1u32;
    (0..n)
        .map(|i| ((x >> (batch as usize * i)) & &mask).to_u64().unwrap())
        .collect()
}

/// Associated items of the field type: `invert_safegcd` (used by `invert`) and its helpers.
pub fn safegcd_items(c: &FieldConsts) -> TokenStream {
    let shape = SafegcdShape::new(c.bits, c.limb_bits);
    let (sw, uw, dw) = match c.limb_bits {
        LimbBits::W64 => (
            format_ident!("i64"),
            format_ident!("u64"),
            format_ident!("i128"),
        ),
        LimbBits::W32 => (
            format_ident!("i32"),
            format_ident!("u32"),
            format_ident!("i64"),
        ),
    };
    let word_bits = Literal::u32_unsuffixed(c.limb_bits.bits());
    let b = Literal::u32_unsuffixed(shape.batch);
    let l = Literal::usize_unsuffixed(shape.limbs);
    let batches = Literal::u64_unsuffixed(shape.batches);
    let vartime_batches =
        Literal::u64_unsuffixed(divsteps_bound(c.bits).div_ceil(u64::from(shape.batch)));
    let nb = Literal::usize_unsuffixed(c.bytes);
    let p_limbs = signed_limbs(&c.modulus, shape.batch, shape.limbs);
    // Each limb is below 2^batch (62 or 30 bits): the digits fit the signed limb type.
    let p_lits = p_limbs.iter().map(|&v| Literal::u64_unsuffixed(v));
    // p⁻¹ mod 2^B, by Newton's iteration on the low word (p is odd).
    let modulus_low = c.modulus_limbs[0];
    let mut inv: u64 = 1;
    for _ in 0..6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(modulus_low.wrapping_mul(inv)));
    }
    let inv = inv & ((1u64 << shape.batch) - 1);
    // Below 2^batch: the digits fit the signed limb type.
    let inv_lit = Literal::u64_unsuffixed(inv);
    let (kind, bound_name, step) = match shape.variant {
        Variant::HalfDelta => ("hddivsteps", "Wuille's hddivsteps bound", 2u32),
        Variant::Original => ("divsteps", "the Bernstein–Yang bound", 1u32),
    };
    let step = Literal::u32_unsuffixed(step);
    let doc_steps = format!(
        " {} batches of {} {kind} ({} ≥ {bound_name} {} for {} bits) on {} signed {}-bit limbs.",
        shape.batches,
        shape.batch,
        shape.batches * u64::from(shape.batch),
        shape.steps,
        c.bits,
        shape.limbs,
        shape.batch
    );

    let p_doc = format!(
        " p in signed {}-bit limbs, least significant first.",
        shape.batch
    );
    quote! {
        #[doc = #p_doc]
        const SAFEGCD_P: [#sw; #l] = [#(#p_lits),*];
        /// p⁻¹ mod 2^B.
        const SAFEGCD_P_INV: #sw = #inv_lit;
        /// 2^B − 1.
        const SAFEGCD_MASK: #sw = (1 << #b) - 1;

        /// B divsteps on the low words of f and g, from `delta`: returns the new delta and the
        /// transition matrix (u, v, q, r), scaled by 2^B, with 2^B·f' = u·f + v·g and
        /// 2^B·g' = q·f + r·g. Branch-free: every step runs the same instructions.
        #[inline(always)]
        fn safegcd_divsteps(mut delta: #sw, f0: #uw, g0: #uw) -> (#sw, [#sw; 4]) {
            let (mut f, mut g) = (f0, g0);
            let (mut u, mut v, mut q, mut r): (#sw, #sw, #sw, #sw) = (1, 0, 0, 1);
            let mut i = 0;
            while i < #b {
                // c1: all ones when delta > 0; c2: all ones when g is odd.
                let c1 = delta.wrapping_neg() >> (#word_bits - 1);
                let c2 = ((g & 1) as #sw).wrapping_neg();
                // g ± f (minus when delta > 0), applied when g is odd.
                let x = ((f as #sw ^ c1).wrapping_sub(c1)) as #uw;
                let y = (u ^ c1).wrapping_sub(c1);
                let z = (v ^ c1).wrapping_sub(c1);
                g = g.wrapping_add(x & c2 as #uw);
                q = q.wrapping_add(y & c2);
                r = r.wrapping_add(z & c2);
                // Swap when delta > 0 and g was odd: f ← old g, delta ← −delta; then delta
                // grows by one step (1, or 2 for hddivsteps, where delta holds 2δ).
                let c3 = c1 & c2;
                delta = (delta ^ c3).wrapping_sub(c3).wrapping_add(#step);
                f = f.wrapping_add(g & c3 as #uw);
                u = u.wrapping_add(q & c3);
                v = v.wrapping_add(r & c3);
                g >>= 1;
                u = u.wrapping_shl(1);
                v = v.wrapping_shl(1);
                i += 1;
            }
            (delta, [u, v, q, r])
        }

        /// (f, g) ← ((u·f + v·g)/2^B, (q·f + r·g)/2^B), exact divisions.
        #[inline(always)]
        fn safegcd_update_fg(f: &mut [#sw; #l], g: &mut [#sw; #l], t: &[#sw; 4]) {
            let (u, v, q, r) = (t[0] as #dw, t[1] as #dw, t[2] as #dw, t[3] as #dw);
            let mut cf = u * f[0] as #dw + v * g[0] as #dw;
            let mut cg = q * f[0] as #dw + r * g[0] as #dw;
            cf >>= #b;
            cg >>= #b;
            let mut i = 1;
            while i < #l {
                cf += u * f[i] as #dw + v * g[i] as #dw;
                cg += q * f[i] as #dw + r * g[i] as #dw;
                f[i - 1] = cf as #sw & Self::SAFEGCD_MASK;
                g[i - 1] = cg as #sw & Self::SAFEGCD_MASK;
                cf >>= #b;
                cg >>= #b;
                i += 1;
            }
            f[#l - 1] = cf as #sw;
            g[#l - 1] = cg as #sw;
        }

        /// (d, e) ← ((u·d + v·e)/2^B, (q·d + r·e)/2^B) mod p, keeping both in (−2p, p): first
        /// add the matrix row of each negative input (so the sum is as if d, e were in
        /// (−p, p)), then the multiple of p that clears the low B bits.
        #[inline(always)]
        fn safegcd_update_de(d: &mut [#sw; #l], e: &mut [#sw; #l], t: &[#sw; 4]) {
            let (u, v, q, r) = (t[0], t[1], t[2], t[3]);
            let sd = ::fieldgen_field::barrier::#sw(d[#l - 1] >> (#word_bits - 1));
            let se = ::fieldgen_field::barrier::#sw(e[#l - 1] >> (#word_bits - 1));
            let mut md = (u & sd).wrapping_add(v & se);
            let mut me = (q & sd).wrapping_add(r & se);
            let (u, v, q, r) = (u as #dw, v as #dw, q as #dw, r as #dw);
            let mut cd = u * d[0] as #dw + v * e[0] as #dw;
            let mut ce = q * d[0] as #dw + r * e[0] as #dw;
            md = md.wrapping_sub(
                Self::SAFEGCD_P_INV.wrapping_mul(cd as #sw).wrapping_add(md) & Self::SAFEGCD_MASK,
            );
            me = me.wrapping_sub(
                Self::SAFEGCD_P_INV.wrapping_mul(ce as #sw).wrapping_add(me) & Self::SAFEGCD_MASK,
            );
            let (md, me) = (md as #dw, me as #dw);
            cd += Self::SAFEGCD_P[0] as #dw * md;
            ce += Self::SAFEGCD_P[0] as #dw * me;
            cd >>= #b;
            ce >>= #b;
            let mut i = 1;
            while i < #l {
                cd += u * d[i] as #dw + v * e[i] as #dw + Self::SAFEGCD_P[i] as #dw * md;
                ce += q * d[i] as #dw + r * e[i] as #dw + Self::SAFEGCD_P[i] as #dw * me;
                d[i - 1] = cd as #sw & Self::SAFEGCD_MASK;
                e[i - 1] = ce as #sw & Self::SAFEGCD_MASK;
                cd >>= #b;
                ce >>= #b;
                i += 1;
            }
            d[#l - 1] = cd as #sw;
            e[#l - 1] = ce as #sw;
        }

        /// x ← (−x if `neg` is all ones, else x) + (p if `add_p` is all ones), carries
        /// propagated so every limb but the top one is in [0, 2^B).
        #[inline(always)]
        fn safegcd_negate_add_p(x: &mut [#sw; #l], neg: #sw, add_p: #sw) {
            let mut carry: #sw = 0;
            let mut i = 0;
            while i < #l {
                let t = (x[i] ^ neg)
                    .wrapping_sub(neg)
                    .wrapping_add(Self::SAFEGCD_P[i] & add_p)
                    .wrapping_add(carry);
                if i + 1 < #l {
                    x[i] = t & Self::SAFEGCD_MASK;
                    carry = t >> #b;
                } else {
                    x[i] = t;
                }
                i += 1;
            }
        }

        /// (f, g) = (p, self) in signed B-bit limbs, from the canonical encoding.
        #[inline(always)]
        fn safegcd_start(&self) -> ([#sw; #l], [#sw; #l]) {
            let x = self.to_le_bytes();
            let mut g: [#sw; #l] = [0; #l];
            let mut acc: u128 = 0;
            let mut have = 0u32;
            let mut k = 0;
            let mut j = 0;
            while j < #nb {
                acc |= (x[j] as u128) << have;
                have += 8;
                if have >= #b {
                    g[k] = (acc as #sw) & Self::SAFEGCD_MASK;
                    acc >>= #b;
                    have -= #b;
                    k += 1;
                }
                j += 1;
            }
            if k < #l {
                g[k] = acc as #sw;
            }
            (Self::SAFEGCD_P, g)
        }

        /// From g = 0 and f = ±1 (or f = ±p for x = 0, where d = 0): x⁻¹ = ±d with d in
        /// (−2p, p), made canonical and converted back to a field element. Constant time.
        #[inline(always)]
        fn safegcd_finish(f: &[#sw; #l], mut d: [#sw; #l]) -> Self {
            // The sign masks go through a value barrier: LLVM unswitched the corrections
            // on them into branches on the sign of the (secret) inverse.
            let negative = ::fieldgen_field::barrier::#sw(d[#l - 1] >> (#word_bits - 1));
            Self::safegcd_negate_add_p(&mut d, 0, negative);
            let f_negative = ::fieldgen_field::barrier::#sw(f[#l - 1] >> (#word_bits - 1));
            Self::safegcd_negate_add_p(&mut d, f_negative, 0);
            let negative = ::fieldgen_field::barrier::#sw(d[#l - 1] >> (#word_bits - 1));
            Self::safegcd_negate_add_p(&mut d, 0, negative);
            // d is canonical in [0, p): back to bytes.
            let mut out = [0u8; #nb];
            let mut acc: u128 = 0;
            let mut have = 0u32;
            let mut k = 0;
            let mut j = 0;
            while j < #nb {
                if have < 8 && k < #l {
                    acc |= ((d[k] as #uw as u128) & ((1u128 << #b) - 1)) << have;
                    have += #b;
                    k += 1;
                }
                out[j] = acc as u8;
                acc >>= 8;
                have = have.saturating_sub(8);
                j += 1;
            }
            Self::from_le_bytes(&out).unwrap_or(Self::ZERO)
        }

        /// The inverse of `self` (zero for zero) by Bernstein–Yang divsteps, constant time.
        #[doc = #doc_steps]
        fn invert_safegcd(&self) -> Self {
            // f ≡ d·x and g ≡ e·x (mod p) throughout, from d = 0, e = 1.
            let (mut f, mut g) = self.safegcd_start();
            let mut d: [#sw; #l] = [0; #l];
            let mut e: [#sw; #l] = [0; #l];
            e[0] = 1;
            // δ = 1 (divsteps) or δ = 1/2 held doubled (hddivsteps): 1 either way.
            let mut delta: #sw = 1;
            let mut n = 0;
            while n < #batches {
                let (next, t) = Self::safegcd_divsteps(delta, f[0] as #uw, g[0] as #uw);
                delta = next;
                Self::safegcd_update_fg(&mut f, &mut g, &t);
                Self::safegcd_update_de(&mut d, &mut e, &t);
                n += 1;
            }
            Self::safegcd_finish(&f, d)
        }

        /// Up to B original divsteps on the low words of f and g in variable time, with
        /// η = −δ: runs of zero bits of g are shifted out at once, and each odd g is cleared of
        /// up to four low bits by adding w·f, w = −g/f mod 2^k (k ≤ η + 1, so no swap falls
        /// inside; P. Wuille, "The safegcd implementation in libsecp256k1 explained", §7). The
        /// same transition matrix as B constant-time divsteps from the same state.
        #[inline(always)]
        fn safegcd_divsteps_vartime(mut eta: #sw, f0: #uw, g0: #uw) -> (#sw, [#sw; 4]) {
            // −f⁻¹ mod 16 for odd f = 1, 3, …, 15.
            const NEG_INV16: [u8; 8] = [15, 5, 3, 9, 7, 13, 11, 1];
            let (mut f, mut g) = (f0, g0);
            let (mut u, mut v, mut q, mut r): (#sw, #sw, #sw, #sw) = (1, 0, 0, 1);
            let mut i: u32 = #b;
            loop {
                let zeros = (g | (#uw::MAX << i)).trailing_zeros();
                g >>= zeros;
                u = u.wrapping_shl(zeros);
                v = v.wrapping_shl(zeros);
                eta = eta.wrapping_sub(zeros as #sw);
                i -= zeros;
                if i == 0 {
                    break;
                }
                // g is odd: swap (f, g) ← (g, −f) when δ > 0, as the divstep would.
                if eta < 0 {
                    eta = eta.wrapping_neg();
                    let (of, ou, ov) = (f, u, v);
                    f = g;
                    u = q;
                    v = r;
                    g = of.wrapping_neg();
                    q = ou.wrapping_neg();
                    r = ov.wrapping_neg();
                }
                let limit = ((eta + 1) as u32).min(i).min(4);
                let mask = (#uw::MAX >> (#word_bits - limit)) & 15;
                let w = g.wrapping_mul(NEG_INV16[((f >> 1) & 7) as usize] as #uw) & mask;
                g = g.wrapping_add(f.wrapping_mul(w));
                q = q.wrapping_add(u.wrapping_mul(w as #sw));
                r = r.wrapping_add(v.wrapping_mul(w as #sw));
            }
            (eta, [u, v, q, r])
        }

        /// The inverse of `self` (zero for zero) by divsteps in variable time: the batches of
        /// [`Self::safegcd_divsteps_vartime`] stop as soon as g = 0.
        fn invert_safegcd_vartime(&self) -> Self {
            let (mut f, mut g) = self.safegcd_start();
            let mut d: [#sw; #l] = [0; #l];
            let mut e: [#sw; #l] = [0; #l];
            e[0] = 1;
            let mut eta: #sw = -1;
            let mut n = 0;
            // g = 0 within the Bernstein–Yang bound of original divsteps.
            while n < #vartime_batches {
                let (next, t) = Self::safegcd_divsteps_vartime(eta, f[0] as #uw, g[0] as #uw);
                eta = next;
                Self::safegcd_update_fg(&mut f, &mut g, &t);
                Self::safegcd_update_de(&mut d, &mut e, &t);
                n += 1;
                if g.iter().all(|&x| x == 0) {
                    break;
                }
            }
            Self::safegcd_finish(&f, d)
        }
    }
}
