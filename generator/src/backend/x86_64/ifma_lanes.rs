//! Lane-parallel pseudo-Mersenne fields on AVX-512 IFMA: four independent elements of
//! GF(2^k − c) in unsaturated radix 2^r (m = k/r limbs), limb i of all four lanes in one ymm
//! register, products by `vpmadd52luq`/`vpmadd52huq` on 256-bit vectors (AVX-512VL).
//!
//! The layout is the one of the 4-way Montgomery ladders (Hisil, Egrioglu, Koçak, "Fast 4 way
//! vectorized ladder for the complete set of Montgomery curves", 2020; Nath and
//! Sarkar, "Efficient 4-way vectorizations of the Montgomery ladder", 2020): one
//! field operation acts on four ladder quantities at once, and lane permutes and blends move
//! values between them.
//!
//! # Bounds
//!
//! IFMA reads only bits 0..51 of each operand, so every limb fed to a product must be below
//! 2^52. The type keeps one invariant, checked here for the given (k, c, r) before any code is
//! emitted: every limb of every value is at most T ("tight"), with T < 2^52. Every operation
//! accepts tight inputs and returns tight outputs, so no sequence of safe calls leaves it.
//!
//! * Products (`mul`, `square`): a_i·b_j < 2^104 splits as lo + hi·2^52 with lo < 2^52,
//!   hi ≤ ⌊T²/2^52⌋. lo lands in column i + j, hi in column i + j + 1 with weight 2^(52 − r).
//!   Columns m..2m−1 fold into 0..m−1 times c (2^k ≡ c). The largest folded column Z must be
//!   below 2^64.
//! * `add`: columns below 2T. `sub`: a + B − b with B = 2^e·p written limb-wise
//!   (2^e(2^r − c), 2^e(2^r − 1), ...), the least e with every limb of B at least T, so no limb
//!   goes negative; columns below T + max B.
//! * `mul_small` by K < 2^32 per lane: lo(a_i·K) + 2^(52−r)·hi(a_{i−1}·K), the top limb's hi
//!   folded times c.
//! * Every operation ends with one parallel carry round: column i keeps its low r bits and
//!   takes column i − 1's carry (column 0 takes c times column m − 1's carry). The result is
//!   at most 2^r − 1 + c·⌊Z/2^r⌋, which must again be at most T; T is the least fixed point of
//!   this map reached from 2^r − 1.
//!
//! Conversions to bytes run scalar code: three sequential carry passes give limbs below 2^r
//! and a value below 2^k, then p is subtracted under a mask when value + c reaches 2^k.

use crate::narrow::fit;
use num_bigint::BigUint;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::api::field::lit;

/// A lane field to emit.
#[derive(Clone, Debug)]
pub struct LaneField {
    /// p = 2^k − c.
    pub k: u32,
    /// p = 2^k − c.
    pub c: u64,
    /// Limb count m; k = m·r.
    pub limbs: usize,
    /// Type name, e.g. `FpX4`.
    pub name: String,
    /// Path of the scalar field type the lanes convert from and to, e.g.
    /// `super::curve25519_p_64::Fp` (its `to_le_bytes`/`from_le_bytes` are used).
    pub scalar: String,
    /// A one-line description for the docs.
    pub description: String,
}

/// The limb bounds of a lane field (see the module notes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneBounds {
    /// Radix bits r = k/m.
    pub radix: u32,
    /// Every limb of every value is at most this.
    pub tight: u64,
    /// The largest column before the carry round, over all operations.
    pub column: u128,
    /// The bias of `sub` is 2^e·p.
    pub bias_shift: u32,
}

/// Largest constant `mul_small` accepts (exclusive): 2^32.
pub const SMALL_LIMIT: u128 = 1 << 32;

impl LaneField {
    /// The lane field for p = `modulus` if it is 2^k − c with c below 2^(r − 1) for r = k/m,
    /// and the bounds pass (module notes) succeeds.
    pub fn for_modulus(
        modulus: &BigUint,
        limbs: usize,
        name: &str,
        scalar: &str,
        description: &str,
    ) -> Result<LaneField, String> {
        let k = u32::try_from(modulus.bits())
            .map_err(|_| format!("a {}-bit prime is too large", modulus.bits()))?;
        let c = (BigUint::from(1u8) << k) - modulus;
        let c: u64 = c
            .try_into()
            .map_err(|_| "the prime is not 2^k - c with a one-word c".to_string())?;
        let f = LaneField {
            k,
            c,
            limbs,
            name: name.to_string(),
            scalar: scalar.to_string(),
            description: description.to_string(),
        };
        f.bounds()?;
        Ok(f)
    }

    /// The bounds, or why this (k, c, m) cannot be emitted.
    pub fn bounds(&self) -> Result<LaneBounds, String> {
        let m = self.limbs;
        if m < 2 || !(self.k as usize).is_multiple_of(m) {
            return Err(format!("{} bits do not split into {m} equal limbs", self.k));
        }
        let r = self.k / u32::try_from(m).map_err(|_| format!("{m} limbs are too many"))?;
        if r > 52 {
            return Err(format!("radix 2^{r} exceeds the 52-bit IFMA operands"));
        }
        let c = self.c as u128;
        if c == 0 || c >= 1 << (r - 1) {
            return Err(format!("c = {c} is not below 2^{}", r - 1));
        }
        let radix = 1u128 << r;
        let s = 1u128 << (52 - r);
        let lo_max = (1u128 << 52) - 1;
        let max64 = u64::MAX as u128;
        let mut t = radix - 1;
        for _ in 0..16 {
            if t >= 1 << 52 {
                break;
            }
            let hi = (t * t) >> 52;
            let mut col = vec![0u128; 2 * m];
            for i in 0..m {
                for j in 0..m {
                    col[i + j] += lo_max.min(t * t);
                    col[i + j + 1] += s * hi;
                }
            }
            let mut z = (0..m).map(|i| col[i] + c * col[i + m]).max().unwrap();
            let small_hi = (t * (SMALL_LIMIT - 1)) >> 52;
            z = z.max(lo_max + c * s * small_hi).max(2 * t);
            let mut e = 1;
            while (radix - c) << e < t {
                e += 1;
            }
            z = z.max(t + ((radix - 1) << e));
            if z > max64 {
                return Err(format!("a column reaches {z:#x}, beyond 64 bits"));
            }
            let next = radix - 1 + c * (z >> r);
            if next <= t {
                return Ok(LaneBounds {
                    radix: r,
                    // t < 2^52 (the loop stops before).
                    tight: fit(t),
                    column: z,
                    bias_shift: e,
                });
            }
            t = next;
        }
        Err("limbs do not stay below 2^52 after a carry round".into())
    }

    /// The module: the token type, the lane type and its operations.
    pub fn emit(&self) -> TokenStream {
        let b = self.bounds().expect("checked by for_modulus");
        let m = self.limbs;
        let r = b.radix;
        let name = format_ident!("{}", self.name);
        let scalar: syn::Path = syn::parse_str(&self.scalar).expect("a type path");
        let ml = lit(m);
        let rl = lit(r as usize);
        let bytes = (self.k as usize).div_ceil(8);
        let bl = lit(bytes);
        let mask: u64 = (1u64 << r) - 1;
        let mask_l = quote!(#mask);
        let tight = b.tight;
        let c = self.c;
        let shift_hi = 52 - r;
        // Bias limbs of 2^e·p.
        let e = b.bias_shift;
        let bias: Vec<u64> = (0..m)
            .map(|i| {
                let limb = if i == 0 { mask + 1 - c } else { mask };
                limb << e
            })
            .collect();
        let bias_toks = bias.iter().map(|v| quote!(#v));
        let feat = quote!(#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]);

        // c·x as shifts and additions, one per set bit of c.
        let times_c = |x: TokenStream| -> TokenStream {
            let mut terms = Vec::new();
            for bit in 0..64 {
                if c >> bit & 1 == 1 {
                    let bl = lit(bit);
                    terms.push(if bit == 0 {
                        x.clone()
                    } else {
                        quote!(_mm256_slli_epi64::<#bl>(#x))
                    });
                }
            }
            let mut acc = terms[0].clone();
            for t in &terms[1..] {
                acc = quote!(_mm256_add_epi64(#acc, #t));
            }
            acc
        };
        let z = |i: usize| format_ident!("z{}", i);
        // The carry round on columns z0..z{m-1}, into `out`.
        let carry_round = {
            let mut ts = TokenStream::new();
            for i in 0..m {
                let (zi, ci) = (z(i), format_ident!("c{}", i));
                ts.extend(quote! {
                    let #ci = _mm256_srli_epi64::<#rl>(#zi);
                    let #zi = _mm256_and_si256(#zi, mask);
                });
            }
            let mut outs = Vec::new();
            for i in 0..m {
                let zi = z(i);
                let from = if i == 0 {
                    times_c(quote!(c_top))
                } else {
                    let ci = format_ident!("c{}", i - 1);
                    quote!(#ci)
                };
                outs.push(quote!(_mm256_add_epi64(#zi, #from)));
            }
            let ctop = format_ident!("c{}", m - 1);
            quote! {
                #ts
                let c_top = #ctop;
                [#(#outs),*]
            }
        };
        let hi_shift = |x: TokenStream| -> TokenStream {
            if shift_hi == 0 {
                x
            } else {
                let s = lit(shift_hi as usize);
                quote!(_mm256_slli_epi64::<#s>(#x))
            }
        };
        // Column sums lo_k + 2^(52-r)·hi_k folded into z0..z{m-1}.
        let fold_columns = |lo: &dyn Fn(usize) -> Ident, hi: &dyn Fn(usize) -> Ident| {
            let mut ts = TokenStream::new();
            for k in 0..2 * m {
                let zk = z(k);
                let (l, h) = (lo(k), hi(k));
                let hs = hi_shift(quote!(#h));
                ts.extend(if k == 0 {
                    quote!(let #zk = #l;)
                } else if k == 2 * m - 1 {
                    quote!(let #zk = #hs;)
                } else {
                    quote!(let #zk = _mm256_add_epi64(#l, #hs);)
                });
            }
            for k in 0..m {
                let (zk, zh) = (z(k), z(k + m));
                let folded = times_c(quote!(#zh));
                ts.extend(quote!(let #zk = _mm256_add_epi64(#zk, #folded);));
            }
            ts
        };
        let lo = |k: usize| format_ident!("lo{}", k);
        let hi = |k: usize| format_ident!("hi{}", k);
        let acc_init = {
            let mut ts = TokenStream::new();
            for k in 0..2 * m {
                let (l, h) = (lo(k), hi(k));
                ts.extend(quote!(let mut #l = zero; let mut #h = zero;));
            }
            ts
        };
        let a = |i: usize| {
            let il = lit(i);
            quote!(a[#il])
        };
        let bv = |i: usize| {
            let il = lit(i);
            quote!(b[#il])
        };
        // Product: every (i, j) into lo_{i+j} and hi_{i+j+1}.
        let mut mul_body = acc_init.clone();
        for k in 0..2 * m - 1 {
            for i in 0..m {
                if k < i || k - i >= m {
                    continue;
                }
                let j = k - i;
                let (l, h) = (lo(k), hi(k + 1));
                let (ai, bj) = (a(i), bv(j));
                mul_body.extend(quote! {
                    #l = _mm256_madd52lo_epu64(#l, #ai, #bj);
                    #h = _mm256_madd52hi_epu64(#h, #ai, #bj);
                });
            }
        }
        mul_body.extend(fold_columns(&lo, &hi));
        mul_body.extend(carry_round.clone());
        // Square: off-diagonal products once, doubled, then the diagonal.
        let mut sq_body = acc_init.clone();
        for k in 0..2 * m - 1 {
            for i in 0..m {
                if k < i || k - i >= m || k - i <= i {
                    continue;
                }
                let j = k - i;
                let (l, h) = (lo(k), hi(k + 1));
                let (ai, aj) = (a(i), a(j));
                sq_body.extend(quote! {
                    #l = _mm256_madd52lo_epu64(#l, #ai, #aj);
                    #h = _mm256_madd52hi_epu64(#h, #ai, #aj);
                });
            }
        }
        for k in 0..2 * m {
            let (l, h) = (lo(k), hi(k));
            sq_body.extend(quote! {
                #l = _mm256_add_epi64(#l, #l);
                #h = _mm256_add_epi64(#h, #h);
            });
        }
        for i in 0..m {
            let (l, h) = (lo(2 * i), hi(2 * i + 1));
            let ai = a(i);
            sq_body.extend(quote! {
                #l = _mm256_madd52lo_epu64(#l, #ai, #ai);
                #h = _mm256_madd52hi_epu64(#h, #ai, #ai);
            });
        }
        sq_body.extend(fold_columns(&lo, &hi));
        sq_body.extend(carry_round.clone());
        // Small constants: lo(a_i·K) in column i, hi(a_i·K) in column i + 1 (the top one
        // folded times c).
        let mut small_body = TokenStream::new();
        for i in 0..m {
            let (zi, ai) = (z(i), a(i));
            let (pl, ph) = (format_ident!("pl{}", i), format_ident!("ph{}", i));
            small_body.extend(quote! {
                let #pl = _mm256_madd52lo_epu64(zero, #ai, k);
                let #ph = _mm256_madd52hi_epu64(zero, #ai, k);
            });
            let _ = zi;
        }
        for i in 0..m {
            let zi = z(i);
            let pl = format_ident!("pl{}", i);
            let from = if i == 0 {
                let ph = format_ident!("ph{}", m - 1);
                times_c(hi_shift(quote!(#ph)))
            } else {
                let ph = format_ident!("ph{}", i - 1);
                hi_shift(quote!(#ph))
            };
            small_body.extend(quote!(let #zi = _mm256_add_epi64(#pl, #from);));
        }
        small_body.extend(carry_round.clone());
        // Additions: z_i from the limb-wise expression, then the carry round.
        let limbwise = |f: &dyn Fn(TokenStream, TokenStream, usize) -> TokenStream| {
            let mut ts = TokenStream::new();
            for i in 0..m {
                let zi = z(i);
                let e = f(a(i), bv(i), i);
                ts.extend(quote!(let #zi = #e;));
            }
            ts.extend(carry_round.clone());
            ts
        };
        let add_body = limbwise(&|x, y, _| quote!(_mm256_add_epi64(#x, #y)));
        let sub_body = limbwise(&|x, y, i| {
            let il = lit(i);
            quote!(_mm256_add_epi64(#x, _mm256_sub_epi64(bias[#il], #y)))
        });
        let add_sub_body = limbwise(&|x, y, i| {
            let il = lit(i);
            quote!(_mm256_add_epi64(#x, _mm256_mask_sub_epi64(#y, sub_lanes, bias[#il], #y)))
        });
        let carry_body = limbwise(&|x, _, _| x);

        let p_doc = format!(
            " Four independent elements of GF(p), p = 2^{} − {c} ({}), one per 64-bit lane, in unsaturated radix 2^{r}: {m} limbs, limb i of the four lanes in one 256-bit vector. Every limb is at most {tight:#x} (< 2^52, the IFMA operand width) before and after every operation; values are not canonical until converted out. Operations are AVX-512 IFMA code (`vpmadd52luq`/`vpmadd52huq` on ymm registers); a value exists only after [`{}Cpu::detect`] succeeded, so they never run on a CPU without it. Bounds: see the generator's lane-field notes.",
            self.k,
            self.description,
            self.name
        );
        let cpu = format_ident!("{}Cpu", self.name);
        let cpu_doc = format!(
            " Proof that this CPU runs the AVX-512 IFMA code of [`{}`]: only [`{cpu}::detect`] makes one.",
            self.name
        );
        let to_limbs_doc = format!(
            " The {m} radix-2^{r} limbs of four values below 2^{}: lane-major, limb i of lane j at `[j][i]`.",
            self.k
        );
        let tight_doc = format!(" Largest limb of any value: {tight:#x}.");
        let tl = quote!(#tight);
        let words = (self.k as usize).div_ceil(64);
        let wl = lit(words);
        quote! {
            use ::core::arch::x86_64::*;

            #[doc = #cpu_doc]
            #[derive(Clone, Copy, Debug)]
            pub struct #cpu(());

            #[allow(unused_doc_comments)]
            impl #cpu {
                /// Whether the CPU has AVX-512F, AVX-512VL and AVX-512 IFMA with the vector state
                /// enabled by the OS: at compile time when the build enables all three, else
                /// CPUID (leaf 7: EBX bits 16, 21, 31) and XGETBV (XCR0 bits 1, 2, 5, 6, 7), read
                /// once per program.
                #[allow(unreachable_code)]
                pub fn detect() -> Option<#cpu> {
                    #[cfg(all(target_feature = "avx512f", target_feature = "avx512vl", target_feature = "avx512ifma"))]
                    {
                        return Some(#cpu(()));
                    }
                    if ::fieldgen_field::cpu::avx512ifma() { Some(#cpu(())) } else { None }
                }

                /// Runs `f` inside a function compiled for AVX-512F/VL/IFMA, so that the lane
                /// operations it calls (all `#[inline(always)]`) compile to straight-line
                /// vector code without a call per operation.
                #[inline(always)]
                pub fn run<R, F: FnOnce() -> R>(self, f: F) -> R {
                    #feat
                    unsafe fn enter<R, F: FnOnce() -> R>(f: F) -> R {
                        f()
                    }
                    /// SAFETY: `self` exists only when `detect` found the three features `enter` is
                    /// compiled for.
                    unsafe { enter(f) }
                }
            }

            #[doc = #p_doc]
            #[derive(Clone, Copy)]
            pub struct #name([__m256i; #ml]);

            impl ::core::fmt::Debug for #name {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.debug_tuple(stringify!(#name)).field(&self.to_limbs()).finish()
                }
            }

            #[allow(unused_doc_comments)]
            impl #name {
                #[doc = #tight_doc]
                pub const TIGHT: u64 = #tl;
                /// Limb count.
                pub const LIMBS: usize = #ml;
                /// Radix bits.
                pub const RADIX_BITS: u32 = #rl;

                /// All four lanes zero.
                #[inline(always)]
                pub fn zero(_cpu: #cpu) -> Self {
                    /// SAFETY: `_cpu` proves AVX (a subset of AVX-512F), all the intrinsic needs.
                    #name(unsafe { [_mm256_setzero_si256(); #ml] })
                }

                /// Four lanes from radix-2^r limbs (lane-major: `limbs[j][i]` is limb i of
                /// lane j). `None` when a limb exceeds [`Self::TIGHT`].
                pub fn from_limbs(cpu: #cpu, limbs: &[[u64; #ml]; 4]) -> Option<Self> {
                    let mut v = [[0u64; 4]; #ml];
                    let mut ok = true;
                    for j in 0..4 {
                        for i in 0..#ml {
                            ok &= limbs[j][i] <= Self::TIGHT;
                            v[i][j] = limbs[j][i];
                        }
                    }
                    let _ = cpu;
                    /// SAFETY: plain reinterpretation of four u64 as one __m256i (same size, every bit
                    /// pattern valid).
                    ok.then(|| #name(unsafe { ::core::mem::transmute::<[[u64; 4]; #ml], [__m256i; #ml]>(v) }))
                }

                #[doc = #to_limbs_doc]
                pub fn to_limbs(&self) -> [[u64; #ml]; 4] {
                    /// SAFETY: plain reinterpretation of one __m256i as four u64 (same size, every bit
                    /// pattern valid).
                    let v = unsafe { ::core::mem::transmute::<[__m256i; #ml], [[u64; 4]; #ml]>(self.0) };
                    let mut out = [[0u64; #ml]; 4];
                    for j in 0..4 {
                        for i in 0..#ml {
                            out[j][i] = v[i][j];
                        }
                    }
                    out
                }

                /// Four canonical little-endian encodings. Constant time.
                pub fn to_le_bytes(&self) -> [[u8; #bl]; 4] {
                    let limbs = self.to_limbs();
                    let mut out = [[0u8; #bl]; 4];
                    for j in 0..4 {
                        let l = Self::canonical(limbs[j]);
                        let mut words = [0u64; #wl + 1];
                        for (i, li) in l.iter().enumerate() {
                            let bit = #rl * i;
                            words[bit / 64] |= li << (bit % 64);
                            if bit % 64 + #rl > 64 {
                                words[bit / 64 + 1] |= li >> (64 - bit % 64);
                            }
                        }
                        for (n, byte) in out[j].iter_mut().enumerate() {
                            *byte = (words[n / 8] >> (8 * (n % 8))) as u8;
                        }
                    }
                    out
                }

                /// Four lanes from four canonical little-endian encodings of values below
                /// 2^k (non-canonical values p..2^k − 1 are accepted and stay congruent).
                pub fn from_le_bytes(cpu: #cpu, bytes: &[[u8; #bl]; 4]) -> Self {
                    let mut limbs = [[0u64; #ml]; 4];
                    for j in 0..4 {
                        let mut words = [0u64; #wl + 1];
                        for (n, byte) in bytes[j].iter().enumerate() {
                            words[n / 8] |= (*byte as u64) << (8 * (n % 8));
                        }
                        for (i, limb) in limbs[j].iter_mut().enumerate() {
                            let bit = #rl * i;
                            let mut v = words[bit / 64] >> (bit % 64);
                            if bit % 64 + #rl > 64 {
                                v |= words[bit / 64 + 1] << (64 - bit % 64);
                            }
                            *limb = v & #mask_l;
                        }
                    }
                    // Limbs below 2^r are tight, so this is always Some.
                    match Self::from_limbs(cpu, &limbs) {
                        Some(v) => v,
                        None => Self::zero(cpu),
                    }
                }

                /// Four lanes from four elements of the scalar field (through their canonical
                /// encodings).
                pub fn from_scalars(cpu: #cpu, x: &[#scalar; 4]) -> Self {
                    Self::from_le_bytes(cpu, &[x[0].to_le_bytes(), x[1].to_le_bytes(), x[2].to_le_bytes(), x[3].to_le_bytes()])
                }

                /// The four lanes as elements of the scalar field.
                pub fn to_scalars(&self) -> [#scalar; 4] {
                    let b = self.to_le_bytes();
                    // Canonical encodings always decode.
                    let one = |b: &[u8; #bl]| #scalar::from_le_bytes(b).unwrap_or(#scalar::ZERO);
                    [one(&b[0]), one(&b[1]), one(&b[2]), one(&b[3])]
                }

                /// Canonical radix-2^r limbs of one lane from tight limbs: three carry passes
                /// (limbs below 2^r, value below 2^k), then p subtracted when value + c ≥ 2^k,
                /// selected by mask.
                fn canonical(mut l: [u64; #ml]) -> [u64; #ml] {
                    for _ in 0..3 {
                        let mut carry = 0u64;
                        for li in l.iter_mut() {
                            let v = *li + carry;
                            *li = v & #mask_l;
                            carry = v >> #rl;
                        }
                        l[0] += #c * carry;
                    }
                    let mut t = [0u64; #ml];
                    let mut carry = #c;
                    for i in 0..#ml {
                        let v = l[i] + carry;
                        t[i] = v & #mask_l;
                        carry = v >> #rl;
                    }
                    // carry is 1 exactly when value ≥ p; then t = value − p.
                    let keep = carry.wrapping_sub(1);
                    for i in 0..#ml {
                        l[i] = (l[i] & keep) | (t[i] & !keep);
                    }
                    l
                }

                /// Lane-wise a·b.
                #[inline(always)]
                pub fn mul(&self, b: &Self) -> Self {
                    /// SAFETY: a value exists only after `detect` found AVX-512F, AVX-512VL and AVX-512
                    /// IFMA, which the kernel needs.
                    #name(unsafe { Self::mul_kernel(&self.0, &b.0) })
                }

                /// Lane-wise a².
                #[inline(always)]
                pub fn square(&self) -> Self {
                    /// SAFETY: a value exists only after `detect` found AVX-512F, AVX-512VL and AVX-512
                    /// IFMA, which the kernel needs.
                    #name(unsafe { Self::square_kernel(&self.0) })
                }

                /// Lane-wise a + b.
                #[inline(always)]
                pub fn add(&self, b: &Self) -> Self {
                    /// SAFETY: a value exists only after `detect` found AVX-512F, AVX-512VL and AVX-512
                    /// IFMA, which the kernel needs.
                    #name(unsafe { Self::add_kernel(&self.0, &b.0) })
                }

                /// Lane-wise a − b (a + 2^e·p − b, no limb negative).
                #[inline(always)]
                pub fn sub(&self, b: &Self) -> Self {
                    /// SAFETY: a value exists only after `detect` found AVX-512F, AVX-512VL and AVX-512
                    /// IFMA, which the kernel needs.
                    #name(unsafe { Self::sub_kernel(&self.0, &b.0) })
                }

                /// a − b in the lanes set in `sub_lanes` (bit j: lane j), a + b in the others.
                #[inline(always)]
                pub fn add_sub(&self, b: &Self, sub_lanes: u8) -> Self {
                    /// SAFETY: a value exists only after `detect` found AVX-512F, AVX-512VL and AVX-512
                    /// IFMA, which the kernel needs.
                    #name(unsafe { Self::add_sub_kernel(&self.0, &b.0, sub_lanes) })
                }

                /// Lane-wise a·k_j for constants k_j < 2^32.
                #[inline(always)]
                pub fn mul_small(&self, k: [u32; 4]) -> Self {
                    /// SAFETY: a value exists only after `detect` found AVX-512F, AVX-512VL and AVX-512
                    /// IFMA, which the kernel needs.
                    #name(unsafe { Self::mul_small_kernel(&self.0, k) })
                }

                /// One carry round (limbs just below 2^r afterwards, except limb 0).
                #[inline(always)]
                pub fn carry(&self) -> Self {
                    /// SAFETY: a value exists only after `detect` found AVX-512F, AVX-512VL and AVX-512
                    /// IFMA, which the kernel needs.
                    #name(unsafe { Self::carry_kernel(&self.0, &self.0) })
                }

                /// Lanes permuted: lane j of the result is lane `(IMM >> 2j) & 3` of `self`
                /// (the `vpermq` immediate).
                #[inline(always)]
                pub fn permute<const IMM: i32>(&self) -> Self {
                    /// SAFETY: a value exists only after `detect` found AVX-512F, AVX-512VL and AVX-512
                    /// IFMA, which the kernel needs.
                    #name(unsafe { Self::permute_kernel::<IMM>(&self.0) })
                }

                /// Lane j from `b` where bit j of `lanes` is set, else from `self`. The mask is
                /// a public lane pattern, not secret data.
                #[inline(always)]
                pub fn blend(&self, b: &Self, lanes: u8) -> Self {
                    /// SAFETY: a value exists only after `detect` found AVX-512F, AVX-512VL and AVX-512
                    /// IFMA, which the kernel needs.
                    #name(unsafe { Self::blend_kernel(&self.0, &b.0, lanes) })
                }

                /// `b` if `choice` is set, else `self`, by masking (constant time).
                #[inline(always)]
                pub fn select(&self, b: &Self, choice: ::fieldgen_field::subtle::Choice) -> Self {
                    let m = 0u64.wrapping_sub(choice.unwrap_u8() as u64);
                    /// SAFETY: a value exists only after `detect` found AVX-512F, AVX-512VL and AVX-512
                    /// IFMA, which the kernel needs.
                    #name(unsafe { Self::select_kernel(&self.0, &b.0, m) })
                }

                /// Overwrites every limb with zero (volatile writes).
                pub fn clear(&mut self) {
                    for limb in self.0.iter_mut() {
                        /// SAFETY: a valid, aligned, exclusive reference; all-zero bits are a
                        /// valid __m256i.
                        unsafe { ::core::ptr::write_volatile(limb, ::core::mem::zeroed()) };
                    }
                    ::core::sync::atomic::compiler_fence(::core::sync::atomic::Ordering::SeqCst);
                }

                #feat
                #[inline]
                #[allow(unused_unsafe, unused_mut, unused_variables, unused_assignments, unused_doc_comments)]
                unsafe fn mul_kernel(a: &[__m256i; #ml], b: &[__m256i; #ml]) -> [__m256i; #ml] {
                    /// SAFETY: AVX-512F, AVX-512VL and AVX-512 IFMA are enabled on this function and
                    /// guaranteed by its caller (a lane value exists only after detection), which
                    /// is all the intrinsics need; the block touches no memory but its arguments.
                    unsafe {
                        let zero = _mm256_setzero_si256();
                        let mask = _mm256_set1_epi64x(#mask_l as i64);
                        #mul_body
                    }
                }

                #feat
                #[inline]
                #[allow(unused_unsafe, unused_mut, unused_variables, unused_assignments, unused_doc_comments)]
                unsafe fn square_kernel(a: &[__m256i; #ml]) -> [__m256i; #ml] {
                    /// SAFETY: AVX-512F, AVX-512VL and AVX-512 IFMA are enabled on this function and
                    /// guaranteed by its caller (a lane value exists only after detection), which
                    /// is all the intrinsics need; the block touches no memory but its arguments.
                    unsafe {
                        let zero = _mm256_setzero_si256();
                        let mask = _mm256_set1_epi64x(#mask_l as i64);
                        #sq_body
                    }
                }

                #feat
                #[inline]
                #[allow(unused_unsafe, unused_mut, unused_variables, unused_assignments, unused_doc_comments)]
                unsafe fn mul_small_kernel(a: &[__m256i; #ml], k: [u32; 4]) -> [__m256i; #ml] {
                    /// SAFETY: AVX-512F, AVX-512VL and AVX-512 IFMA are enabled on this function and
                    /// guaranteed by its caller (a lane value exists only after detection), which
                    /// is all the intrinsics need; the block touches no memory but its arguments.
                    unsafe {
                        let zero = _mm256_setzero_si256();
                        let mask = _mm256_set1_epi64x(#mask_l as i64);
                        let k = _mm256_setr_epi64x(k[0] as i64, k[1] as i64, k[2] as i64, k[3] as i64);
                        #small_body
                    }
                }

                #feat
                #[inline]
                #[allow(unused_unsafe, unused_mut, unused_variables, unused_assignments, unused_doc_comments)]
                unsafe fn add_kernel(a: &[__m256i; #ml], b: &[__m256i; #ml]) -> [__m256i; #ml] {
                    /// SAFETY: AVX-512F, AVX-512VL and AVX-512 IFMA are enabled on this function and
                    /// guaranteed by its caller (a lane value exists only after detection), which
                    /// is all the intrinsics need; the block touches no memory but its arguments.
                    unsafe {
                        let mask = _mm256_set1_epi64x(#mask_l as i64);
                        #add_body
                    }
                }

                #feat
                #[inline]
                #[allow(unused_unsafe, unused_mut, unused_variables, unused_assignments, unused_doc_comments)]
                unsafe fn sub_kernel(a: &[__m256i; #ml], b: &[__m256i; #ml]) -> [__m256i; #ml] {
                    /// SAFETY: AVX-512F, AVX-512VL and AVX-512 IFMA are enabled on this function and
                    /// guaranteed by its caller (a lane value exists only after detection), which
                    /// is all the intrinsics need; the block touches no memory but its arguments.
                    unsafe {
                        let mask = _mm256_set1_epi64x(#mask_l as i64);
                        let bias = [#(_mm256_set1_epi64x(#bias_toks as i64)),*];
                        #sub_body
                    }
                }

                #feat
                #[inline]
                #[allow(unused_unsafe, unused_mut, unused_variables, unused_assignments, unused_doc_comments)]
                unsafe fn add_sub_kernel(a: &[__m256i; #ml], b: &[__m256i; #ml], sub_lanes: u8) -> [__m256i; #ml] {
                    /// SAFETY: AVX-512F, AVX-512VL and AVX-512 IFMA are enabled on this function and
                    /// guaranteed by its caller (a lane value exists only after detection), which
                    /// is all the intrinsics need; the block touches no memory but its arguments.
                    unsafe {
                        let mask = _mm256_set1_epi64x(#mask_l as i64);
                        let bias = [#(_mm256_set1_epi64x(#bias as i64)),*];
                        #add_sub_body
                    }
                }

                #feat
                #[inline]
                #[allow(unused_unsafe, unused_mut, unused_variables, unused_assignments, unused_doc_comments)]
                #[allow(unused_variables)]
                unsafe fn carry_kernel(a: &[__m256i; #ml], b: &[__m256i; #ml]) -> [__m256i; #ml] {
                    /// SAFETY: AVX-512F, AVX-512VL and AVX-512 IFMA are enabled on this function and
                    /// guaranteed by its caller (a lane value exists only after detection), which
                    /// is all the intrinsics need; the block touches no memory but its arguments.
                    unsafe {
                        let mask = _mm256_set1_epi64x(#mask_l as i64);
                        #carry_body
                    }
                }

                #feat
                #[inline]
                #[allow(unused_unsafe, unused_mut, unused_variables, unused_assignments, unused_doc_comments)]
                unsafe fn permute_kernel<const IMM: i32>(a: &[__m256i; #ml]) -> [__m256i; #ml] {
                    /// SAFETY: AVX-512F, AVX-512VL and AVX-512 IFMA are enabled on this function and
                    /// guaranteed by its caller (a lane value exists only after detection), which
                    /// is all the intrinsics need; the block touches no memory but its arguments.
                    unsafe {
                        let mut out = *a;
                        for limb in out.iter_mut() {
                            *limb = _mm256_permute4x64_epi64::<IMM>(*limb);
                        }
                        out
                    }
                }

                #feat
                #[inline]
                #[allow(unused_unsafe, unused_mut, unused_variables, unused_assignments, unused_doc_comments)]
                unsafe fn blend_kernel(a: &[__m256i; #ml], b: &[__m256i; #ml], lanes: u8) -> [__m256i; #ml] {
                    /// SAFETY: AVX-512F, AVX-512VL and AVX-512 IFMA are enabled on this function and
                    /// guaranteed by its caller (a lane value exists only after detection), which
                    /// is all the intrinsics need; the block touches no memory but its arguments.
                    unsafe {
                        let mut out = *a;
                        for i in 0..#ml {
                            out[i] = _mm256_mask_blend_epi64(lanes, a[i], b[i]);
                        }
                        out
                    }
                }

                #feat
                #[inline]
                #[allow(unused_unsafe, unused_mut, unused_variables, unused_assignments, unused_doc_comments)]
                unsafe fn select_kernel(a: &[__m256i; #ml], b: &[__m256i; #ml], m: u64) -> [__m256i; #ml] {
                    /// SAFETY: AVX-512F, AVX-512VL and AVX-512 IFMA are enabled on this function and
                    /// guaranteed by its caller (a lane value exists only after detection), which
                    /// is all the intrinsics need; the block touches no memory but its arguments.
                    unsafe {
                        let m = _mm256_set1_epi64x(m as i64);
                        let mut out = *a;
                        for i in 0..#ml {
                            out[i] = _mm256_xor_si256(a[i], _mm256_and_si256(m, _mm256_xor_si256(a[i], b[i])));
                        }
                        out
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(k: u32, c: u64, m: usize) -> LaneField {
        LaneField {
            k,
            c,
            limbs: m,
            name: "F".into(),
            scalar: "F1".into(),
            description: String::new(),
        }
    }

    /// 2^255 − 19 in 5 × 51 bits: the bounds of the module notes, recomputed by hand.
    #[test]
    fn curve25519_bounds() {
        let b = field(255, 19, 5).bounds().unwrap();
        assert_eq!(b.radix, 51);
        assert_eq!(b.bias_shift, 1);
        assert!(b.tight < 1 << 52);
        // Column 0: one lo term plus 19 times column 5 (four lo, five hi terms doubled).
        let t = b.tight as u128;
        let (lo, hi) = ((1u128 << 52) - 1, (t * t) >> 52);
        assert!(b.column >= lo + 19 * (4 * lo + 10 * hi));
        assert_eq!(b.tight as u128, (1 << 51) - 1 + 19 * (b.column >> 51));
    }

    /// What cannot be emitted is refused with a reason: no equal split, radix above 52, c too
    /// large for one carry round.
    #[test]
    fn refusals() {
        assert!(field(255, 19, 4).bounds().is_err());
        assert!(field(255, 19, 3).bounds().is_err());
        assert!(field(256, (1 << 50) + 1, 8).bounds().is_err());
        assert!(field(130, 5, 5).bounds().is_ok());
    }
}
