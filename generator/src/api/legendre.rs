//! Constant-time Legendre symbol by a binary GCD that tracks the Jacobi symbol, emitted for one
//! modulus.
//!
//! Algorithm: T. Pornin's optimised binary GCD ("Optimized Binary GCD for Modular Inversion",
//! IACR eprint 2020/972) with the Jacobi symbol tracked by M. Hamburg's rules for the symbol
//! (x / |y|) of possibly negative values ("Computing the Jacobi symbol using Bernstein–Yang",
//! eprint 2021/1271), as in the binary Jacobi symbol algorithms built on Pornin's GCD.
//!
//! From a = x, b = p (both non-negative, b odd), each step does: if a is odd and a < b, swap
//! them; if a is odd, a ← a − b; then a ← a/2. Every step lowers len(a) + len(b) by at least one
//! bit while a ≠ 0, so from len(x) + len(p) ≤ 2·bits the state a = 0, b = gcd(x, p) = 1 is
//! reached within 2·bits − 1 steps (Pornin's bound). The symbol (a / |b|) changes only at a swap
//! (quadratic reciprocity: −1 when a ≡ b ≡ 3 mod 4) and at a halving ((2 / |b|) = −1 when
//! b ≡ ±3 mod 8), so three low bits of a and b suffice.
//!
//! The steps run in batches of [`JACOBI_BATCH`] on 64-bit approximations of a and b (Pornin's
//! 33 top bits of the longer one's length over 31 exact low bits; exact once both fit in 64
//! bits): a batch yields a 2×2 matrix, applied to the full values with an exact division by
//! 2^29, and a or b is negated when an approximate comparison made it negative. Pornin's
//! analysis (for batches of 31 steps) shows that such a divergence still shortens the values as
//! much as the exact steps would, and that a and b are then never both negative, the case where
//! Hamburg's reciprocity rule for (x / |y|) would need their signs; negating a multiplies the
//! symbol by (−1 / b), −1 when b ≡ 3 mod 4. A batch here runs 29 steps, not 31, so that three
//! exact low bits remain at its last step, as (2 / |b|) needs. That adaptation is not covered by
//! a published proof: `generator/tests/jacobi_bound.rs` simulates it over num-bigint (a and b
//! never both negative, convergence within the count, the symbol equal to Euler's
//! criterion) on inputs sharing long runs of top bits with p, where the approximations diverge.
//!
//! Every call runs ⌈(2·bits − 1)/29⌉ batches, with no branch or index depending on the value.
//! The emitted code works on the canonical little-endian encoding.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::spec::{to_limbs, FieldConsts, LimbBits};

/// Steps per batch: three of the 31 exact low bits of an approximation must remain after the
/// batch's halvings, since (2 / |b|) reads b mod 8.
pub const JACOBI_BATCH: u32 = 29;

/// Binary GCD steps that bring any 0 ≤ x < p to a = 0 for a modulus of `bits` bits: Pornin's
/// bound 2·bits − 1 (each step lowers len(a) + len(b) by one from at most 2·bits down to 1).
pub fn jacobi_steps_bound(bits: u32) -> u64 {
    2 * u64::from(bits) - 1
}

/// Batches of [`JACOBI_BATCH`] steps every call runs: the bound rounded up to whole batches.
pub fn jacobi_batches(bits: u32) -> u64 {
    jacobi_steps_bound(bits).div_ceil(u64::from(JACOBI_BATCH))
}

/// Associated items of the field type: `legendre_binary`, `legendre_binary_vartime` and their
/// helpers.
pub fn jacobi_items(c: &FieldConsts) -> TokenStream {
    let (w, dw, sdw, wbits) = match c.limb_bits {
        LimbBits::W64 => (
            format_ident!("u64"),
            format_ident!("u128"),
            format_ident!("i128"),
            64u32,
        ),
        LimbBits::W32 => (
            format_ident!("u32"),
            format_ident!("u64"),
            format_ident!("i64"),
            32u32,
        ),
    };
    // Words in the window the approximation is cut from: 128 bits (64-bit words) or 96 bits
    // (32-bit words), enough for 64 bits below the top word's leading one.
    let m = match c.limb_bits {
        LimbBits::W64 => 2usize,
        LimbBits::W32 => 3usize,
    };
    let ls = c.limbs.max(m);
    let p_words = to_limbs(&c.modulus, wbits, ls);
    // Words of `wbits` bits: the digits fit the word type.
    let p_lits = p_words.iter().map(|&v| Literal::u64_unsuffixed(v));
    let l = Literal::usize_unsuffixed(ls);
    let ml = Literal::usize_unsuffixed(m);
    let wb = Literal::u32_unsuffixed(wbits);
    let wbytes = Literal::usize_unsuffixed((wbits / 8) as usize);
    let nb = Literal::usize_unsuffixed(c.bytes);
    let batch = Literal::u32_unsuffixed(JACOBI_BATCH);
    let batches = Literal::u64_unsuffixed(jacobi_batches(c.bits));
    let window_shift = Literal::usize_unsuffixed(m * wbits as usize - 64);
    let doc_batches = format!(
        " {} batches of {} steps ({} ≥ Pornin's bound 2·{} − 1 = {}), on {} {}-bit words.",
        jacobi_batches(c.bits),
        JACOBI_BATCH,
        jacobi_batches(c.bits) * u64::from(JACOBI_BATCH),
        c.bits,
        jacobi_steps_bound(c.bits),
        ls,
        wbits
    );
    let p_doc = format!(" p in {ls} {wbits}-bit words, least significant first.");
    // Casts that are no-ops at one word size are left out, with their parentheses (clippy's
    // unnecessary_cast and double_parens).
    let w64 = c.limb_bits == LimbBits::W64;
    let cast = |e: TokenStream, ty: &str, needed: bool| -> TokenStream {
        let ty = format_ident!("{ty}");
        if needed {
            quote!((#e) as #ty)
        } else {
            e
        }
    };
    let z_bit = cast(
        quote!(((top | top.wrapping_neg()) >> (#wb - 1)) ^ 1),
        "u32",
        w64,
    );
    let last_bit = cast(quote!((x >> (#wb - 1)) ^ 1), "u32", w64);
    // An indexed word needs no parentheses around it.
    let cast_word = |e: TokenStream, ty: &str, needed: bool| -> TokenStream {
        let ty = format_ident!("{ty}");
        if needed {
            quote!(#e as #ty)
        } else {
            e
        }
    };
    let a_low = cast_word(quote!(a[0]), "u64", !w64);
    let b_low = cast_word(quote!(b[0]), "u64", !w64);
    let flip = cast(quote!(sa & b[0]), "u64", !w64);
    let coef = |i: usize| {
        let i = Literal::usize_unsuffixed(i);
        cast_word(quote!(m[#i]), "i128", w64)
    };
    let (m0, m1, m2, m3) = (coef(0), coef(1), coef(2), coef(3));
    quote! {
        #[doc = #p_doc]
        const JACOBI_P: [#w; #l] = [#(#p_lits),*];

        /// Leading zero bits of `x` (the word size for zero), branch-free.
        #[inline(always)]
        fn jacobi_clz(x: #w) -> u32 {
            let mut x = x;
            let mut n: u32 = 0;
            let mut s: u32 = #wb / 2;
            while s > 0 {
                // z = 1 when the top s bits are zero: shift them out.
                let top = x >> (#wb - s);
                let z = #z_bit;
                x <<= s * z;
                n += s * z;
                s >>= 1;
            }
            n + (#last_bit)
        }

        /// 64-bit approximations of a and b: the 33 bits below the leading one of the longer
        /// one (both exact when they fit in 64 bits) over their 31 exact low bits.
        #[inline(always)]
        fn jacobi_approx(a: &[#w; #l], b: &[#w; #l]) -> (u64, u64) {
            // The window of the highest word index where a or b is non-zero (at least M − 1).
            let mut wa: [#w; #ml] = [0; #ml];
            let mut wb: [#w; #ml] = [0; #ml];
            let mut k = 0;
            while k < #ml {
                wa[k] = a[k];
                wb[k] = b[k];
                k += 1;
            }
            let mut i = #ml;
            while i < #l {
                let nz = a[i] | b[i];
                let take = ::fieldgen_field::barrier::#w(((nz | nz.wrapping_neg()) >> (#wb - 1)).wrapping_neg());
                k = 0;
                while k < #ml {
                    wa[k] ^= (wa[k] ^ a[i + 1 + k - #ml]) & take;
                    wb[k] ^= (wb[k] ^ b[i + 1 + k - #ml]) & take;
                    k += 1;
                }
                i += 1;
            }
            let z = Self::jacobi_clz(wa[#ml - 1] | wb[#ml - 1]);
            let mut ta: u128 = 0;
            let mut tb: u128 = 0;
            k = 0;
            while k < #ml {
                ta |= (wa[k] as u128) << (#wb * k as u32);
                tb |= (wb[k] as u128) << (#wb * k as u32);
                k += 1;
            }
            let ha = ((ta << z) >> #window_shift) as u64;
            let hb = ((tb << z) >> #window_shift) as u64;
            const LOW: u64 = (1 << 31) - 1;
            ((ha & !LOW) | (#a_low & LOW), (hb & !LOW) | (#b_low & LOW))
        }

        /// One batch of binary GCD steps on the approximations, branch-free: returns the matrix
        /// (f0, g0, f1, g1) with 2^B·a' = f0·a + g0·b and 2^B·b' = f1·a + g1·b, and flips bit 1
        /// of `t` with the symbol.
        #[inline(always)]
        fn jacobi_steps(mut a: u64, mut b: u64, t: &mut u64) -> [i64; 4] {
            let (mut f0, mut g0, mut f1, mut g1): (i64, i64, i64, i64) = (1, 0, 0, 1);
            let mut j = *t;
            let mut i = 0;
            while i < #batch {
                // odd: all ones when a is odd; swap: and a < b.
                let odd = (a & 1).wrapping_neg();
                let lt = (a.overflowing_sub(b).1 as u64).wrapping_neg();
                let swap = odd & lt;
                let d = (a ^ b) & swap;
                a ^= d;
                b ^= d;
                let s = swap as i64;
                let df = (f0 ^ f1) & s;
                f0 ^= df;
                f1 ^= df;
                let dg = (g0 ^ g1) & s;
                g0 ^= dg;
                g1 ^= dg;
                // Reciprocity on a swap: −1 when both are 3 mod 4.
                j ^= swap & a & b;
                a = a.wrapping_sub(b & odd);
                f0 = f0.wrapping_sub(f1 & odd as i64);
                g0 = g0.wrapping_sub(g1 & odd as i64);
                a >>= 1;
                f1 <<= 1;
                g1 <<= 1;
                // (2 / |b|) = −1 when b ≡ 3 or 5 mod 8.
                j ^= b ^ (b >> 1);
                i += 1;
            }
            *t = j;
            [f0, g0, f1, g1]
        }

        /// x ← −x when `s` is all ones (x holds a magnitude below 2^(W·L)), branch-free.
        #[inline(always)]
        fn jacobi_negate(x: &mut [#w; #l], s: #w) {
            let mut c = (s & 1) as #dw;
            let mut i = 0;
            while i < #l {
                let v = (x[i] ^ s) as #dw + c;
                x[i] = v as #w;
                c = v >> #wb;
                i += 1;
            }
        }

        /// (a, b) ← (|f0·a + g0·b|, |f1·a + g1·b|)/2^B, exact divisions; a negated a flips the
        /// symbol by (−1 / b) (b is then non-negative).
        #[inline(always)]
        fn jacobi_update(a: &mut [#w; #l], b: &mut [#w; #l], m: &[i64; 4], t: &mut u64) {
            let (f0, g0, f1, g1) = (#m0, #m1, #m2, #m3);
            let mut ra: [#w; #l] = [0; #l];
            let mut rb: [#w; #l] = [0; #l];
            let mut ca: #sdw = 0;
            let mut cb: #sdw = 0;
            let mut i = 0;
            while i < #l {
                ca += a[i] as #sdw * f0 + b[i] as #sdw * g0;
                cb += a[i] as #sdw * f1 + b[i] as #sdw * g1;
                ra[i] = ca as #w;
                rb[i] = cb as #w;
                ca >>= #wb;
                cb >>= #wb;
                i += 1;
            }
            i = 0;
            while i + 1 < #l {
                a[i] = (ra[i] >> #batch) | (ra[i + 1] << (#wb - #batch));
                b[i] = (rb[i] >> #batch) | (rb[i + 1] << (#wb - #batch));
                i += 1;
            }
            a[#l - 1] = (ra[#l - 1] >> #batch) | ((ca as #w) << (#wb - #batch));
            b[#l - 1] = (rb[#l - 1] >> #batch) | ((cb as #w) << (#wb - #batch));
            let sa = ::fieldgen_field::barrier::#w((ca >> (2 * #wb - 1)) as #w);
            let sb = ::fieldgen_field::barrier::#w((cb >> (2 * #wb - 1)) as #w);
            *t ^= #flip;
            Self::jacobi_negate(a, sa);
            Self::jacobi_negate(b, sb);
        }

        /// (a, b) = (self, p) from the canonical encoding.
        #[inline(always)]
        fn jacobi_start(&self) -> ([#w; #l], [#w; #l]) {
            let x = self.to_le_bytes();
            let mut a: [#w; #l] = [0; #l];
            let mut j = 0;
            while j < #nb {
                a[j / #wbytes] |= (x[j] as #w) << (8 * (j % #wbytes));
                j += 1;
            }
            (a, Self::JACOBI_P)
        }

        /// The symbol from the final state: 1 − 2·(bit 1 of t) when b = gcd = 1, else 0 (self
        /// is zero). Branch-free.
        #[inline(always)]
        fn jacobi_finish(b: &[#w; #l], t: u64) -> i8 {
            let mut diff = b[0] ^ 1;
            let mut i = 1;
            while i < #l {
                diff |= b[i];
                i += 1;
            }
            let one = (((diff | diff.wrapping_neg()) >> (#wb - 1)) ^ 1) as i8;
            (1 - 2 * ((t >> 1) & 1) as i8) * one
        }

        /// The Legendre symbol by the binary GCD with Jacobi tracking, constant time.
        #[doc = #doc_batches]
        fn legendre_binary(&self) -> i8 {
            let (mut a, mut b) = self.jacobi_start();
            let mut t: u64 = 0;
            let mut n = 0;
            while n < #batches {
                let (xa, xb) = Self::jacobi_approx(&a, &b);
                let m = Self::jacobi_steps(xa, xb, &mut t);
                Self::jacobi_update(&mut a, &mut b, &m, &mut t);
                n += 1;
            }
            Self::jacobi_finish(&b, t)
        }

        /// The same batches in variable time, stopping once a = 0.
        fn legendre_binary_vartime(&self) -> i8 {
            let (mut a, mut b) = self.jacobi_start();
            let mut t: u64 = 0;
            let mut n = 0;
            while n < #batches {
                let (xa, xb) = Self::jacobi_approx(&a, &b);
                let m = Self::jacobi_steps(xa, xb, &mut t);
                Self::jacobi_update(&mut a, &mut b, &m, &mut t);
                n += 1;
                if a.iter().all(|&w| w == 0) {
                    break;
                }
            }
            Self::jacobi_finish(&b, t)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The batch count against Pornin's bound 2·bits − 1 for every modulus size the generator
    /// accepts: enough whole batches, and no spare one.
    #[test]
    fn batches_cover_the_bound() {
        for bits in 2u32..=u32::try_from(crate::spec::MAX_MODULUS_BITS).unwrap() {
            let steps = 2 * u64::from(bits) - 1;
            assert_eq!(jacobi_steps_bound(bits), steps);
            let n = jacobi_batches(bits);
            assert!(n * u64::from(JACOBI_BATCH) >= steps, "bits = {bits}");
            assert!((n - 1) * u64::from(JACOBI_BATCH) < steps, "bits = {bits}");
        }
    }
}
