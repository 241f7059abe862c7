//! The big-integer helpers RSA needs beside Montgomery arithmetic, as each `MontN` exposes them:
//! a constant-time binary extended GCD (gcd and modular inverse), the Baillie–PSW probable-prime
//! test (trial division, Miller–Rabin to base 2, strong Lucas with Selfridge's parameters),
//! random prime generation, and RSA-CRT key generation and the private-key operation for keys
//! whose primes have N bits.
//!
//! The algorithms are written once, generic over the limb count, in `fieldgen-field`'s `rsa`
//! module (which cites their sources: Pornin 2020 for the binary GCD, Baillie–Wagstaff 1980 and
//! FIPS 186-5 B.3 for Baillie–PSW, Garner 1959 for the CRT recombination, Jebelean 1993 for the
//! exact division by e). Here each context implements that module's `MontContext` trait with
//! its specialised kernels and keeps the helpers as thin inherent methods, so the public API of
//! `MontN` and `MontNCrtKey` is the same for every size; what stays size-specific is the choice
//! of the private operation's backend (AVX-512 IFMA or 64-bit Montgomery).

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::api::field::lit;

/// Items inside `impl Name`: the helpers, as wrappers of `::fieldgen_field::rsa`.
pub fn helper_fns(n: usize, bits: usize, name: &Ident) -> TokenStream {
    let nl = lit(n);
    let n2 = lit(2 * n);
    let nb = lit(bits / 8);
    let lp52 = lit(8 * crate::backend::x86_64::ifma::vectors(bits));
    let key = format_ident!("{}CrtKey", name);
    let from_primes_doc = format!(" The CRT key for given primes: [`{key}::from_primes`].");
    quote! {
        /// A context for any odd modulus 3 ≤ n < 2^N (little-endian limbs; no size
        /// condition), for the helpers and tests on small values. R mod n and R² mod n come
        /// from 2N constant-time modular doublings of 1. None for even n or n = 1.
        pub fn new_odd(modulus: &[u64; #nl]) -> ::core::option::Option<#name> {
            let (n0, one, r2) = ::fieldgen_field::rsa::odd_modulus_constants(modulus)?;
            let mut ctx = #name { p: *modulus, n0, one, r2, n52: [0; #lp52], rr52: [0; #lp52] };
            ctx.ifma_init();
            ::core::option::Option::Some(ctx)
        }

        /// x mod n for any x < 2^N (limbs). Constant time: two Montgomery multiplications.
        pub fn reduce(&self, x: &[u64; #nl]) -> [u64; #nl] {
            ::fieldgen_field::rsa::reduce::<Self, #nl>(self, x)
        }

        /// x mod n for any x < 2^(2N) (2N-bit little-endian limbs), as hi·R + lo. Constant time.
        pub fn reduce_wide(&self, x: &[u64; #n2]) -> [u64; #nl] {
            ::fieldgen_field::rsa::reduce_wide::<Self, #nl>(self, x)
        }

        /// gcd(x, m) for x < 2^N and an odd m (limbs). Constant time (the binary extended GCD).
        /// None when m is even.
        pub fn gcd(x: &[u64; #nl], m: &[u64; #nl]) -> ::core::option::Option<[u64; #nl]> {
            ::fieldgen_field::rsa::gcd(x, m)
        }

        /// x⁻¹ mod n (plain limbs in and out, not Montgomery form) for any x < 2^N; none when
        /// gcd(x, n) ≠ 1. Constant time: the binary extended GCD, 2N iterations.
        pub fn inv_mod(&self, x: &[u64; #nl]) -> ::fieldgen_field::subtle::CtOption<[u64; #nl]> {
            ::fieldgen_field::rsa::inv_mod(&self.p, x)
        }

        /// Whether n is a probable prime: trial division by the odd primes below 1024, then the
        /// Baillie–PSW test — Miller–Rabin to base 2 and the strong Lucas test with Selfridge's
        /// parameters (no composite is known to pass both). Variable time: for public or
        /// candidate values, as in prime generation.
        pub fn is_probable_prime_vartime(&self) -> bool {
            ::fieldgen_field::rsa::is_probable_prime_vartime::<Self, #nl>(self)
        }

        /// The strong probable-prime (Miller–Rabin) test of the odd n > 2 to `base`, given in
        /// Montgomery form: with n − 1 = d·2^s, d odd, true when base^d ≡ ±1 or
        /// base^(d·2^r) ≡ −1 for some r < s. Variable time.
        pub fn miller_rabin_vartime(&self, base: &[u64; #nl]) -> bool {
            ::fieldgen_field::rsa::miller_rabin_vartime::<Self, #nl>(self, base)
        }

        /// The strong Lucas probable-prime test of the odd n (Baillie–Wagstaff 1980; FIPS 186-5
        /// B.3.3) with Selfridge's method A: D the first of 5, −7, 9, −11, … with (D/n) = −1,
        /// P = 1, Q = (1 − D)/4. With n + 1 = d·2^s, d odd: true when U_d ≡ 0 or
        /// V_(d·2^r) ≡ 0 for some r < s. False for perfect squares and when some D shares a
        /// factor with n. Variable time.
        pub fn strong_lucas_vartime(&self) -> bool {
            ::fieldgen_field::rsa::strong_lucas_vartime::<Self, #nl>(self)
        }

        /// A random N-bit probable prime p with its top two bits set (so a product of two has
        /// exactly 2N bits) and gcd(p − 1, e) = 1, as BYTES big-endian bytes. `fill` supplies
        /// random bytes (a CSPRNG for keys); candidates are random odd values passing trial
        /// division and Baillie–PSW. `e` must be odd and at least 3. None when `e` is refused or
        /// when no prime turns up in 100·N candidates (a broken random source). Variable time
        /// in rejected candidates.
        pub fn random_prime(fill: &mut dyn FnMut(&mut [u8]), e: u64) -> ::core::option::Option<[u8; #nb]> {
            ::fieldgen_field::rsa::random_prime::<Self, #nl>(fill, e)
        }

        /// The CRT exponent d_p = e⁻¹ mod (p − 1) for the prime p of this context and a public
        /// odd e ≥ 3 below 2^62 with gcd(e, p − 1) = 1; none otherwise. Constant time in p:
        /// d_p = (1 + k·(p − 1))/e with k = −(p − 1)⁻¹ mod e, the division exact (Jebelean).
        pub fn crt_exponent(&self, e: u64) -> ::core::option::Option<[u64; #nl]> {
            ::fieldgen_field::rsa::crt_exponent(&self.p, e)
        }

        /// A random RSA key of 2N bits in CRT form, with N-bit primes p ≠ q from
        /// [`random_prime`](Self::random_prime) and the public exponent e (odd, 3 ≤ e < 2^62;
        /// 65537 is usual): d_p, d_q by [`crt_exponent`](Self::crt_exponent), q⁻¹ mod p by the
        /// constant-time inverse. None when e is refused or the random source fails.
        pub fn generate_crt_key(fill: &mut dyn FnMut(&mut [u8]), e: u64) -> ::core::option::Option<#key> {
            let (p_be, q_be) = ::fieldgen_field::rsa::random_prime_pair::<Self, #nl>(fill, e)?;
            #key::from_primes(&p_be, &q_be, e)
        }

        #[doc = #from_primes_doc]
        pub fn crt_key_from_primes(p_be: &[u8; #nb], q_be: &[u8; #nb], e: u64) -> ::core::option::Option<#key> {
            #key::from_primes(p_be, q_be, e)
        }
    }
}

/// Items beside the type: the `MontContext` implementation and the CRT key.
pub fn helper_items(n: usize, bits: usize, name: &Ident) -> TokenStream {
    let nl = lit(n);
    let nb = lit(bits / 8);
    let nb2 = lit(bits / 4);
    let n2 = lit(2 * n);
    let key = format_ident!("{}CrtKey", name);
    let ifma_note = crate::backend::x86_64::asm::safety_note(
        "backends 1 and 2 are chosen only when ifma() is true: the CPU has AVX-512F and IFMA and the OS saves the zmm state.",
    );
    let key_doc = format!(
        " An RSA private key of {} bits in CRT form: primes p, q of {bits} bits (contexts `{name}`), d_p, d_q, q⁻¹ mod p and the public exponent. Secret: the private operation is constant time.",
        2 * bits
    );
    let trait_doc = format!(
        " The context's arithmetic for the size-independent helpers of `fieldgen_field::rsa` ({n} limbs, {} bytes; double width {} limbs, {} bytes): each method is the inherent one of the same name.",
        bits / 8,
        2 * n,
        bits / 4
    );
    quote! {
        #[doc = #trait_doc]
        impl ::fieldgen_field::rsa::MontContext<#nl> for #name {
            type Bytes = [u8; #nb];
            type Wide = [u64; #n2];
            type WideBytes = [u8; #nb2];
            #[inline]
            fn new(modulus_be: &[u8; #nb]) -> ::core::option::Option<Self> {
                #name::new(modulus_be)
            }
            #[inline]
            fn modulus_limbs(&self) -> &[u64; #nl] {
                #name::modulus_limbs(self)
            }
            #[inline]
            fn one(&self) -> [u64; #nl] {
                #name::one(self)
            }
            #[inline]
            fn to_montgomery_limbs(&self, x: &[u64; #nl]) -> [u64; #nl] {
                #name::to_montgomery_limbs(self, x)
            }
            #[inline]
            fn from_montgomery_limbs(&self, a: &[u64; #nl]) -> [u64; #nl] {
                #name::from_montgomery_limbs(self, a)
            }
            #[inline]
            fn mul(&self, a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
                #name::mul(self, a, b)
            }
            #[inline]
            fn square(&self, a: &[u64; #nl]) -> [u64; #nl] {
                #name::square(self, a)
            }
            #[inline]
            fn add_mod(&self, a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
                #name::add_mod(self, a, b)
            }
            #[inline]
            fn sub_mod(&self, a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #nl] {
                #name::sub_mod(self, a, b)
            }
            #[inline]
            fn pow_ct(&self, base: &[u64; #nl], exp_be: &[u8]) -> [u64; #nl] {
                #name::pow_ct(self, base, exp_be)
            }
            #[inline]
            fn pow_vartime(&self, base: &[u64; #nl], exp_be: &[u8]) -> [u64; #nl] {
                #name::pow_vartime(self, base, exp_be)
            }
            #[inline]
            fn mul_wide(a: &[u64; #nl], b: &[u64; #nl]) -> [u64; #n2] {
                #name::mul_wide(a, b)
            }
            #[inline]
            fn square_wide(a: &[u64; #nl]) -> [u64; #n2] {
                #name::square_wide(a)
            }
        }

        #[doc = #key_doc]
        #[derive(Clone)]
        pub struct #key {
            /// The context modulo p.
            pub p: #name,
            /// The context modulo q.
            pub q: #name,
            /// e⁻¹ mod (p − 1), BYTES big-endian bytes.
            pub dp: [u8; #nb],
            /// e⁻¹ mod (q − 1), BYTES big-endian bytes.
            pub dq: [u8; #nb],
            /// q⁻¹ mod p, plain limbs.
            pub qinv: [u64; #nl],
            /// The public exponent.
            pub e: u64,
        }

        impl #key {
            /// The key for the primes p ≠ q (BYTES big-endian bytes each, top byte non-zero) and
            /// the public exponent e (odd, 3 ≤ e < 2^62, coprime to p − 1 and q − 1). None when
            /// any condition fails. The primes are not tested for primality here.
            pub fn from_primes(p_be: &[u8; #nb], q_be: &[u8; #nb], e: u64) -> ::core::option::Option<#key> {
                let k = ::fieldgen_field::rsa::crt_parts::<#name, #nl>(p_be, q_be, e)?;
                ::core::option::Option::Some(#key { p: k.p, q: k.q, dp: k.dp, dq: k.dq, qinv: k.qinv, e })
            }

            /// The modulus n = p·q, 2·BYTES big-endian bytes.
            pub fn modulus_be(&self) -> [u8; #nb2] {
                ::fieldgen_field::rsa::crt_modulus_be::<#name, #nl>(&self.p, &self.q)
            }

            /// The private-key operation c^d mod n (2·BYTES big-endian bytes in and out) by the
            /// CRT: m_p = c^(d_p) mod p, m_q = c^(d_q) mod q, then Garner's recombination
            /// m = m_q + q·((m_p − m_q)·q⁻¹ mod p). Constant time in c and the key (both
            /// exponentiations are fixed-window over BYTES-byte exponents). Values c ≥ n are
            /// reduced modulo p and q. With AVX-512 IFMA (CPUID once) the two exponentiations
            /// run together in radix 2^52, two independent dependency chains in one loop.
            pub fn private_op(&self, c_be: &[u8; #nb2]) -> [u8; #nb2] {
                let c = ::fieldgen_field::rsa::wide_from_be::<#name, #nl>(c_be);
                self.private_op_by(c, Self::default_backend())
            }

            /// The backend `private_op` takes here: 2 (two AVX-512 IFMA exponentiations in one
            /// loop) or 0 (64-bit Montgomery, one after the other).
            fn default_backend() -> u8 {
                #[cfg(target_arch = "x86_64")]
                {
                    if #name::ifma() {
                        return 2;
                    }
                }
                0
            }

            /// Test and measurement hook: `private_op` by one named backend — "montgomery64"
            /// (the fallback), "x86_64-avx512ifma" (the two exponentiations one after the other)
            /// or "x86_64-avx512ifma-x2" (interleaved, the default with IFMA) — or None when this
            /// build or CPU cannot run it. Not a stable API.
            #[doc(hidden)]
            pub fn private_op_with(&self, variant: &str, c_be: &[u8; #nb2]) -> ::core::option::Option<[u8; #nb2]> {
                let backend = match variant {
                    "montgomery64" => 0,
                    "x86_64-avx512ifma" => 1,
                    "x86_64-avx512ifma-x2" => 2,
                    _ => return ::core::option::Option::None,
                };
                #[cfg(target_arch = "x86_64")]
                {
                    if backend != 0 && !#name::ifma() {
                        return ::core::option::Option::None;
                    }
                }
                #[cfg(not(target_arch = "x86_64"))]
                {
                    if backend != 0 {
                        return ::core::option::Option::None;
                    }
                }
                let c = ::fieldgen_field::rsa::wide_from_be::<#name, #nl>(c_be);
                ::core::option::Option::Some(self.private_op_by(c, backend))
            }

            /// c^d mod n of the limbs of c by backend 0, 1 or 2 (see `private_op_with`; the
            /// caller has checked that the CPU runs it).
            #[allow(unused_doc_comments)]
            fn private_op_by(&self, c: [u64; #n2], backend: u8) -> [u8; #nb2] {
                let cp = self.p.reduce_wide(&c);
                let cq = self.q.reduce_wide(&c);
                let (mp, mq) = match backend {
                    #[cfg(target_arch = "x86_64")]
                    1 => {
                        #ifma_note
                        let [mp] = unsafe { #name::pow_ifma_x1([&self.p], [&cp], [&self.dp]) };
                        #ifma_note
                        let [mq] = unsafe { #name::pow_ifma_x1([&self.q], [&cq], [&self.dq]) };
                        (mp, mq)
                    }
                    #[cfg(target_arch = "x86_64")]
                    2 => {
                        #ifma_note
                        let [mp, mq] = unsafe { #name::pow_ifma_x2([&self.p, &self.q], [&cp, &cq], [&self.dp, &self.dq]) };
                        (mp, mq)
                    }
                    _ => (
                        ::fieldgen_field::rsa::pow_mod_ct::<#name, #nl>(&self.p, &cp, &self.dp),
                        ::fieldgen_field::rsa::pow_mod_ct::<#name, #nl>(&self.q, &cq, &self.dq),
                    ),
                };
                ::fieldgen_field::rsa::crt_recombine::<#name, #nl>(&self.p, &self.q, &self.qinv, &mp, &mq)
            }
        }

        impl ::core::fmt::Debug for #key {
            /// Prints the public part only.
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}(e = {}, p and q secret)", ::core::stringify!(#key), self.e)
            }
        }
    }
}
