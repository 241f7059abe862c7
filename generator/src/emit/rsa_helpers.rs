//! The big-integer helpers RSA needs beside Montgomery arithmetic, emitted into each `MontN`:
//! a constant-time binary extended GCD (gcd and modular inverse), the Baillie–PSW probable-prime
//! test (trial division, Miller–Rabin to base 2, strong Lucas with Selfridge's parameters),
//! random prime generation, and RSA-CRT key generation and the private-key operation for keys
//! whose primes have N bits.
//!
//! Sources: T. Pornin, "Optimized binary GCD for modular inversion" (2020), Algorithm 1 (the
//! plain constant-time binary extended GCD, 2·N iterations); R. Baillie and S. Wagstaff, "Lucas
//! pseudoprimes", Math. Comp. 35 (1980); FIPS 186-5 appendix B.3 (Miller–Rabin, strong Lucas);
//! H. Garner, "The residue number system" (1959), for the CRT recombination; T. Jebelean, "An
//! algorithm for exact division" (1993), for dividing by the public exponent.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::field::lit;

/// Odd primes below `bound`, for trial division.
fn odd_primes_below(bound: u32) -> Vec<u32> {
    let mut composite = vec![false; bound as usize];
    let mut out = Vec::new();
    for i in 2..bound as usize {
        if !composite[i] {
            if i > 2 {
                out.push(i as u32);
            }
            let mut j = i * i;
            while j < bound as usize {
                composite[j] = true;
                j += i;
            }
        }
    }
    out
}

/// Trial division bound of the primality test and the prime generator.
pub const TRIAL_BOUND: u32 = 1024;

/// Items inside `impl Name`: the helpers.
pub fn helper_fns(n: usize, bits: usize, name: &Ident) -> TokenStream {
    let nl = lit(n);
    let n1 = lit(n + 1);
    let n2 = lit(2 * n);
    let nb = lit(bits / 8);
    let lp52 = lit(8 * super::x86_64::ifma::vectors(bits));

    let iters = lit(2 * bits);
    let half_bits = lit(bits / 2);
    let primes = odd_primes_below(TRIAL_BOUND);
    let num_primes = lit(primes.len());
    let primes_lits = primes
        .iter()
        .map(|p| proc_macro2::Literal::u16_unsuffixed(*p as u16));
    let key = format_ident!("{}CrtKey", name);
    quote! {
        /// Odd primes below 1024, for trial division.
        const SMALL_PRIMES: [u16; #num_primes] = [#(#primes_lits),*];

        /// A context for any odd modulus 3 ≤ n < 2^N (little-endian limbs; no size
        /// condition), for the helpers and tests on small values. R mod n and R² mod n come
        /// from 2N constant-time modular doublings of 1. None for even n or n = 1.
        pub fn new_odd(modulus: &[u64; #nl]) -> ::core::option::Option<#name> {
            let mut rest = 0u64;
            let mut i = 1;
            while i < #nl {
                rest |= modulus[i];
                i += 1;
            }
            if modulus[0] & 1 == 0 || (rest == 0 && modulus[0] == 1) {
                return ::core::option::Option::None;
            }
            let mut one = [0u64; #nl];
            one[0] = 1;
            let mut ctx = #name { p: *modulus, n0: Self::neg_inv_word(modulus[0]), one, r2: [0; #nl], n52: [0; #lp52], rr52: [0; #lp52] };
            let mut x = one;
            let mut i = 0;
            while i < 2 * #nl * 64 {
                if i == #nl * 64 {
                    ctx.one = x;
                }
                x = ctx.add_mod(&x, &x);
                i += 1;
            }
            ctx.r2 = x;
            ctx.ifma_init();
            ::core::option::Option::Some(ctx)
        }

        /// −m⁻¹ mod 2^64 for odd m (Newton's iteration from m, correct to 3 bits).
        fn neg_inv_word(m: u64) -> u64 {
            let mut inv = m;
            let mut i = 0;
            while i < 5 {
                inv = inv.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(inv)));
                i += 1;
            }
            inv.wrapping_neg()
        }

        /// x mod n for any x < 2^N (limbs). Constant time: two Montgomery multiplications.
        pub fn reduce(&self, x: &[u64; #nl]) -> [u64; #nl] {
            self.from_montgomery_limbs(&self.to_montgomery_limbs(x))
        }

        /// x mod n for any x < 2^(2N) (2N-bit little-endian limbs), as hi·R + lo. Constant time.
        pub fn reduce_wide(&self, x: &[u64; #n2]) -> [u64; #nl] {
            let (lo, hi) = Self::halves::<#nl, #n2>(x);
            let hi_r = self.to_montgomery_limbs(hi);
            self.add_mod(&hi_r, &self.reduce(lo))
        }

        /// The constant-time binary extended GCD of x < 2^N and an odd m < 2^N: returns
        /// (gcd(x, m), v) with v·x ≡ gcd (mod m) (Pornin 2020, Algorithm 1: a ≡ u·x and
        /// b ≡ v·x mod m throughout; 2N iterations of conditional swap, subtraction and halving,
        /// all by masks).
        fn binary_xgcd(x: &[u64; #nl], m: &[u64; #nl]) -> ([u64; #nl], [u64; #nl]) {
            let mut a = *x;
            let mut b = *m;
            let mut u = [0u64; #nl];
            u[0] = 1;
            let mut v = [0u64; #nl];
            let mut iter = 0;
            while iter < #iters {
                let odd = 0u64.wrapping_sub(a[0] & 1);
                let (_, borrow) = Self::sub_limbs(&a, &b);
                // Swap when a is odd and a < b.
                let swap = odd & 0u64.wrapping_sub(borrow);
                let (na, nb) = (Self::select(swap, &a, &b), Self::select(swap, &b, &a));
                let (nu, nv) = (Self::select(swap, &u, &v), Self::select(swap, &v, &u));
                b = nb;
                v = nv;
                // a ← a − b and u ← u − v (mod m) when a is odd.
                let (d2, _) = Self::sub_limbs(&na, &b);
                a = Self::select(odd, &na, &d2);
                let (du, bu) = Self::sub_limbs(&nu, &v);
                let (du_m, _) = Self::add_limbs(&du, m);
                let du = Self::select(0u64.wrapping_sub(bu), &du, &du_m);
                u = Self::select(odd, &nu, &du);
                // a ← a/2 (a is even now); u ← u/2 mod m.
                a = Self::shr1(&a, 0);
                let u_odd = 0u64.wrapping_sub(u[0] & 1);
                let (um, carry) = Self::add_limbs(&u, m);
                let um = Self::select(u_odd, &u, &um);
                u = Self::shr1(&um, carry & u_odd & 1);
                iter += 1;
            }
            (b, v)
        }

        /// (x, top) / 2: shifts x right by one bit, `top` (0 or 1) entering the top bit.
        #[inline]
        fn shr1(x: &[u64; #nl], top: u64) -> [u64; #nl] {
            let mut out = [0u64; #nl];
            let mut i = 0;
            while i < #nl {
                let hi = if i + 1 < #nl { x[i + 1] } else { top };
                out[i] = (x[i] >> 1) | (hi << 63);
                i += 1;
            }
            out
        }

        /// gcd(x, m) for x < 2^N and an odd m (limbs). Constant time (the binary extended GCD).
        /// None when m is even.
        pub fn gcd(x: &[u64; #nl], m: &[u64; #nl]) -> ::core::option::Option<[u64; #nl]> {
            if m[0] & 1 == 0 {
                return ::core::option::Option::None;
            }
            ::core::option::Option::Some(Self::binary_xgcd(x, m).0)
        }

        /// x⁻¹ mod n (plain limbs in and out, not Montgomery form) for any x < 2^N; none when
        /// gcd(x, n) ≠ 1. Constant time: the binary extended GCD, 2N iterations.
        pub fn inv_mod(&self, x: &[u64; #nl]) -> ::subtle::CtOption<[u64; #nl]> {
            let (g, v) = Self::binary_xgcd(x, &self.p);
            let mut one = [0u64; #nl];
            one[0] = 1;
            let mut diff = 0u64;
            let mut i = 0;
            while i < #nl {
                diff |= g[i] ^ one[i];
                i += 1;
            }
            let ok = ::subtle::ConstantTimeEq::ct_eq(&diff, &0);
            ::subtle::CtOption::new(v, ok)
        }

        /// Whether n is a probable prime: trial division by the odd primes below 1024, then the
        /// Baillie–PSW test — Miller–Rabin to base 2 and the strong Lucas test with Selfridge's
        /// parameters (no composite is known to pass both). Variable time: for public or
        /// candidate values, as in prime generation.
        pub fn is_probable_prime_vartime(&self) -> bool {
            for &q in Self::SMALL_PRIMES.iter() {
                if self.rem_small(q as u64) == 0 {
                    let mut small = [0u64; #nl];
                    small[0] = q as u64;
                    return self.p == small;
                }
            }
            let two = self.add_mod(&self.one, &self.one);
            self.miller_rabin_vartime(&two) && self.strong_lucas_vartime()
        }

        /// n mod q for a small q > 0 (variable time).
        fn rem_small(&self, q: u64) -> u64 {
            Self::rem_small_limbs(&self.p, q)
        }

        /// x mod q for a small q > 0 (Horner over the limbs; variable time).
        fn rem_small_limbs(x: &[u64; #nl], q: u64) -> u64 {
            let mut r: u128 = 0;
            let mut i = #nl;
            while i > 0 {
                i -= 1;
                r = ((r << 64) | x[i] as u128) % q as u128;
            }
            r as u64
        }

        /// The strong probable-prime (Miller–Rabin) test of the odd n > 2 to `base`, given in
        /// Montgomery form: with n − 1 = d·2^s, d odd, true when base^d ≡ ±1 or
        /// base^(d·2^r) ≡ −1 for some r < s. Variable time.
        pub fn miller_rabin_vartime(&self, base: &[u64; #nl]) -> bool {
            let mut one = [0u64; #nl];
            one[0] = 1;
            let (n_minus_1, _) = Self::sub_limbs(&self.p, &one);
            let s = Self::trailing_zeros(&n_minus_1);
            let d = Self::shr_vartime(&n_minus_1, s);
            let minus_one = self.sub_mod(&[0; #nl], &self.one);
            let mut x = self.pow_vartime(base, &Self::be_from_limbs(&d));
            if x == self.one || x == minus_one {
                return true;
            }
            let mut r = 1;
            while r < s {
                x = self.square(&x);
                if x == minus_one {
                    return true;
                }
                if x == self.one {
                    return false;
                }
                r += 1;
            }
            false
        }

        /// Number of trailing zero bits of a non-zero value (N for zero).
        fn trailing_zeros(x: &[u64; #nl]) -> u32 {
            let mut i = 0;
            while i < #nl {
                if x[i] != 0 {
                    return 64 * i as u32 + x[i].trailing_zeros();
                }
                i += 1;
            }
            64 * #nl as u32
        }

        /// x >> k for k < N (variable time in k).
        fn shr_vartime(x: &[u64; #nl], k: u32) -> [u64; #nl] {
            let (words, bits) = ((k / 64) as usize, k % 64);
            let mut out = [0u64; #nl];
            let mut i = 0;
            while i + words < #nl {
                let lo = x[i + words] >> bits;
                let hi = if bits > 0 && i + words + 1 < #nl { x[i + words + 1] << (64 - bits) } else { 0 };
                out[i] = lo | hi;
                i += 1;
            }
            out
        }

        /// The Jacobi symbol (a/m) for odd m > 0 (binary algorithm; variable time).
        fn jacobi_word(mut a: u64, mut m: u64) -> i32 {
            a %= m;
            let mut t = 1;
            while a != 0 {
                while a % 2 == 0 {
                    a /= 2;
                    if m % 8 == 3 || m % 8 == 5 {
                        t = -t;
                    }
                }
                ::core::mem::swap(&mut a, &mut m);
                if a % 4 == 3 && m % 4 == 3 {
                    t = -t;
                }
                a %= m;
            }
            if m == 1 { t } else { 0 }
        }

        /// Whether n is a perfect square (bit-by-bit integer square root; variable time).
        fn is_square_vartime(&self) -> bool {
            let mut r = [0u64; #nl];
            let mut bit = #half_bits;
            while bit > 0 {
                bit -= 1;
                let mut t = r;
                t[bit / 64] |= 1 << (bit % 64);
                let sq = Self::square_wide(&t);
                // t² ≤ n?
                let mut le = true;
                let mut i = #n2;
                while i > 0 {
                    i -= 1;
                    let ni = if i < #nl { self.p[i] } else { 0 };
                    if sq[i] != ni {
                        le = sq[i] < ni;
                        break;
                    }
                }
                if le {
                    r = t;
                }
            }
            Self::square_wide(&r)[..#nl] == self.p[..] && Self::square_wide(&r)[#nl..].iter().all(|w| *w == 0)
        }

        /// The strong Lucas probable-prime test of the odd n (Baillie–Wagstaff 1980; FIPS 186-5
        /// B.3.3) with Selfridge's method A: D the first of 5, −7, 9, −11, … with (D/n) = −1,
        /// P = 1, Q = (1 − D)/4. With n + 1 = d·2^s, d odd: true when U_d ≡ 0 or
        /// V_(d·2^r) ≡ 0 for some r < s. False for perfect squares and when some D shares a
        /// factor with n. Variable time.
        pub fn strong_lucas_vartime(&self) -> bool {
            let n_mod_4 = self.p[0] % 4;
            let mut d_abs: u64 = 5;
            let mut negative = false;
            let mut tries = 0;
            loop {
                let r = self.rem_small(d_abs);
                // (D/n) = (−1/n)^[D<0] · (n mod |D| / |D|) · (−1)^(((|D|−1)/2)·((n−1)/2)).
                let mut j = Self::jacobi_word(r, d_abs);
                if (d_abs % 4 == 3) && n_mod_4 == 3 {
                    j = -j;
                }
                if negative && n_mod_4 == 3 {
                    j = -j;
                }
                if j == -1 {
                    break;
                }
                if j == 0 && !(r == 0 && self.p[0] == d_abs && self.p[1..].iter().all(|w| *w == 0)) {
                    return false;
                }
                tries += 1;
                if tries == 20 && self.is_square_vartime() {
                    return false;
                }
                d_abs += 2;
                negative = !negative;
            }
            // Montgomery forms of D, Q = (1 − D)/4 and the constant 2.
            let small = |v: u64| -> [u64; #nl] {
                let mut x = [0u64; #nl];
                x[0] = v;
                self.to_montgomery_limbs(&x)
            };
            let zero = [0u64; #nl];
            let dm = if negative { self.sub_mod(&zero, &small(d_abs)) } else { small(d_abs) };
            // D = 5 → Q = −1; D = −7 → Q = 2; generally Q = (1 − D)/4.
            let qm = if negative { small((1 + d_abs) / 4) } else { self.sub_mod(&zero, &small((d_abs - 1) / 4)) };
            // n + 1 = d·2^s (n + 1 may be 2^N: then d = 1, s = N).
            let mut n1 = [0u64; #n1];
            let mut carry = 1u64;
            let mut i = 0;
            while i < #nl {
                let (s, c) = self.p[i].overflowing_add(carry);
                n1[i] = s;
                carry = c as u64;
                i += 1;
            }
            n1[#nl] = carry;
            let mut s = 0u32;
            while n1[(s / 64) as usize] >> (s % 64) & 1 == 0 {
                s += 1;
            }
            let dbit = |k: u32| -> bool {
                let b = k + s;
                (n1[(b / 64) as usize] >> (b % 64)) & 1 == 1
            };
            let mut dbits = 64 * #n1 as u32 - s;
            while !dbit(dbits - 1) {
                dbits -= 1;
            }
            let half = |x: &[u64; #nl]| -> [u64; #nl] {
                if x[0] & 1 == 0 {
                    Self::shr1(x, 0)
                } else {
                    let (t, c) = Self::add_limbs(x, &self.p);
                    Self::shr1(&t, c)
                }
            };
            // (U_1, V_1, Q^1) = (1, P, Q), then left to right over the bits of d.
            let mut u = self.one;
            let mut v = self.one;
            let mut qk = qm;
            let mut k = dbits - 1;
            while k > 0 {
                k -= 1;
                u = self.mul(&u, &v);
                let two_qk = self.add_mod(&qk, &qk);
                v = self.sub_mod(&self.square(&v), &two_qk);
                qk = self.square(&qk);
                if dbit(k) {
                    let du = self.mul(&dm, &u);
                    let nu = half(&self.add_mod(&u, &v));
                    v = half(&self.add_mod(&du, &v));
                    u = nu;
                    qk = self.mul(&qk, &qm);
                }
            }
            if u == zero || v == zero {
                return true;
            }
            let mut r = 1;
            while r < s {
                let two_qk = self.add_mod(&qk, &qk);
                v = self.sub_mod(&self.square(&v), &two_qk);
                if v == zero {
                    return true;
                }
                qk = self.square(&qk);
                r += 1;
            }
            false
        }

        /// A random N-bit probable prime p with its top two bits set (so a product of two has
        /// exactly 2N bits) and gcd(p − 1, e) = 1, as BYTES big-endian bytes. `fill` supplies
        /// random bytes (a CSPRNG for keys); candidates are random odd values passing trial
        /// division and Baillie–PSW. `e` must be odd and at least 3. None when `e` is refused or
        /// when no prime turns up in 100·N candidates (a broken random source). Variable time
        /// in rejected candidates.
        pub fn random_prime(fill: &mut dyn FnMut(&mut [u8]), e: u64) -> ::core::option::Option<[u8; #nb]> {
            if e < 3 || e % 2 == 0 {
                return ::core::option::Option::None;
            }
            let mut attempts = 0;
            while attempts < 100 * #nl * 64 {
                attempts += 1;
                let mut bytes = [0u8; #nb];
                fill(&mut bytes);
                bytes[0] |= 0xc0;
                bytes[#nb - 1] |= 1;
                let p = Self::limbs_from_be(&bytes);
                if Self::SMALL_PRIMES.iter().any(|&q| Self::rem_small_limbs(&p, q as u64) == 0) {
                    continue;
                }
                // gcd(p − 1, e) = 1: p − 1 mod e shares no factor with e.
                let r = (Self::rem_small_limbs(&p, e) + e - 1) % e;
                if Self::gcd_word(r, e) != 1 {
                    continue;
                }
                let ctx = match Self::new(&bytes) {
                    ::core::option::Option::Some(c) => c,
                    ::core::option::Option::None => continue,
                };
                if ctx.is_probable_prime_vartime() {
                    return ::core::option::Option::Some(bytes);
                }
            }
            ::core::option::Option::None
        }

        /// gcd of two words (Euclid; variable time).
        fn gcd_word(mut a: u64, mut b: u64) -> u64 {
            while b != 0 {
                let t = a % b;
                a = b;
                b = t;
            }
            a
        }

        /// x mod e for a small odd e ≥ 3, constant time in x: one conditional subtraction per
        /// bit, most significant first.
        fn rem_word_ct(x: &[u64; #nl], e: u64) -> u64 {
            let mut r: u64 = 0;
            let mut i = #nl * 64;
            while i > 0 {
                i -= 1;
                let bit = (x[i / 64] >> (i % 64)) & 1;
                // r < e < 2^63 is guaranteed by the caller, so 2r + bit does not wrap.
                let t = 2 * r + bit;
                let (d, borrow) = t.overflowing_sub(e);
                let keep = 0u64.wrapping_sub(borrow as u64);
                r = (keep & t) | (!keep & d);
            }
            r
        }

        /// a⁻¹ mod e for odd e (one word), constant time: the binary extended GCD on words.
        fn inv_word_ct(a: u64, e: u64) -> u64 {
            let (mut x, mut y, mut u, mut v) = (a, e, 1u64, 0u64);
            let mut i = 0;
            while i < 128 {
                let odd = 0u64.wrapping_sub(x & 1);
                let swap = odd & 0u64.wrapping_sub((x < y) as u64);
                let (nx, ny) = ((x & !swap) | (y & swap), (y & !swap) | (x & swap));
                let (nu, nv) = ((u & !swap) | (v & swap), (v & !swap) | (u & swap));
                y = ny;
                v = nv;
                x = (nx & !odd) | (nx.wrapping_sub(y) & odd);
                let (d, b) = nu.overflowing_sub(v);
                let du = d.wrapping_add(e & 0u64.wrapping_sub(b as u64));
                u = (nu & !odd) | (du & odd);
                x >>= 1;
                let u_odd = 0u64.wrapping_sub(u & 1);
                // (u + e)/2 without overflow: e < 2^63.
                u = (u + (e & u_odd)) >> 1;
                i += 1;
            }
            v
        }

        /// The CRT exponent d_p = e⁻¹ mod (p − 1) for the prime p of this context and a public
        /// odd e ≥ 3 below 2^62 with gcd(e, p − 1) = 1; none otherwise. Constant time in p:
        /// d_p = (1 + k·(p − 1))/e with k = −(p − 1)⁻¹ mod e, the division exact (Jebelean).
        pub fn crt_exponent(&self, e: u64) -> ::core::option::Option<[u64; #nl]> {
            if e < 3 || e % 2 == 0 || e >= 1 << 62 {
                return ::core::option::Option::None;
            }
            let mut one = [0u64; #nl];
            one[0] = 1;
            let (pm1, _) = Self::sub_limbs(&self.p, &one);
            let r = Self::rem_word_ct(&pm1, e);
            let k = (e - Self::inv_word_ct(r, e)) % e;
            // Check k·r ≡ −1 (mod e), i.e. gcd(r, e) = 1. Public outcome for a valid key.
            if ((k as u128 * r as u128 + 1) % e as u128) != 0 {
                return ::core::option::Option::None;
            }
            // x = 1 + k·(p − 1), L + 1 limbs.
            let mut x = [0u64; #n1];
            let mut carry: u128 = 1;
            let mut i = 0;
            while i < #nl {
                let t = pm1[i] as u128 * k as u128 + carry;
                x[i] = t as u64;
                carry = t >> 64;
                i += 1;
            }
            x[#nl] = carry as u64;
            // Exact division by odd e: q_i = (x_i − borrow)·e⁻¹ mod 2^64.
            let einv = Self::neg_inv_word(e).wrapping_neg();
            let mut q = [0u64; #nl];
            let mut borrow: u64 = 0;
            let mut i = 0;
            while i < #nl {
                let (t, b1) = x[i].overflowing_sub(borrow);
                let qi = t.wrapping_mul(einv);
                q[i] = qi;
                borrow = ((qi as u128 * e as u128) >> 64) as u64 + b1 as u64;
                i += 1;
            }
            ::core::option::Option::Some(q)
        }

        /// A random RSA key of 2N bits in CRT form, with N-bit primes p ≠ q from
        /// [`random_prime`](Self::random_prime) and the public exponent e (odd, 3 ≤ e < 2^62;
        /// 65537 is usual): d_p, d_q by [`crt_exponent`](Self::crt_exponent), q⁻¹ mod p by the
        /// constant-time inverse. None when e is refused or the random source fails.
        pub fn generate_crt_key(fill: &mut dyn FnMut(&mut [u8]), e: u64) -> ::core::option::Option<#key> {
            let p_be = Self::random_prime(fill, e)?;
            let mut q_be = Self::random_prime(fill, e)?;
            let mut tries = 0;
            while q_be == p_be {
                q_be = Self::random_prime(fill, e)?;
                tries += 1;
                if tries > 4 {
                    return ::core::option::Option::None;
                }
            }
            #key::from_primes(&p_be, &q_be, e)
        }

        /// The CRT key for given primes: [`from_primes`](#key::from_primes).
        pub fn crt_key_from_primes(p_be: &[u8; #nb], q_be: &[u8; #nb], e: u64) -> ::core::option::Option<#key> {
            #key::from_primes(p_be, q_be, e)
        }
    }
}

/// Items beside the type: the CRT key.
pub fn helper_items(n: usize, bits: usize, name: &Ident) -> TokenStream {
    let nl = lit(n);
    let nb = lit(bits / 8);
    let nb2 = lit(bits / 4);
    let n2 = lit(2 * n);
    let key = format_ident!("{}CrtKey", name);
    let ifma_note = super::x86_64::asm::safety_note(
        "backends 1 and 2 are chosen only when ifma() is true: the CPU has AVX-512F and IFMA and the OS saves the zmm state.",
    );
    let key_doc = format!(
        " An RSA private key of {} bits in CRT form: primes p, q of {bits} bits (contexts `{name}`), d_p, d_q, q⁻¹ mod p and the public exponent. Secret: the private operation is constant time.",
        2 * bits
    );
    quote! {
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
                let p = #name::new(p_be)?;
                let q = #name::new(q_be)?;
                if p_be == q_be {
                    return ::core::option::Option::None;
                }
                let dp = #name::be_from_limbs(&p.crt_exponent(e)?);
                let dq = #name::be_from_limbs(&q.crt_exponent(e)?);
                let q_mod_p = p.reduce(q.modulus_limbs());
                let qinv = ::core::option::Option::<[u64; #nl]>::from(p.inv_mod(&q_mod_p))?;
                ::core::option::Option::Some(#key { p, q, dp, dq, qinv, e })
            }

            /// The modulus n = p·q, 2·BYTES big-endian bytes.
            pub fn modulus_be(&self) -> [u8; #nb2] {
                let n = #name::mul_wide(self.p.modulus_limbs(), self.q.modulus_limbs());
                let mut out = [0u8; #nb2];
                let mut i = 0;
                while i < #n2 {
                    out[#nb2 - 8 * (i + 1)..#nb2 - 8 * i].copy_from_slice(&n[i].to_be_bytes());
                    i += 1;
                }
                out
            }

            /// The private-key operation c^d mod n (2·BYTES big-endian bytes in and out) by the
            /// CRT: m_p = c^(d_p) mod p, m_q = c^(d_q) mod q, then Garner's recombination
            /// m = m_q + q·((m_p − m_q)·q⁻¹ mod p). Constant time in c and the key (both
            /// exponentiations are fixed-window over BYTES-byte exponents). Values c ≥ n are
            /// reduced modulo p and q. With AVX-512 IFMA (CPUID once) the two exponentiations
            /// run together in radix 2^52, two independent dependency chains in one loop.
            pub fn private_op(&self, c_be: &[u8; #nb2]) -> [u8; #nb2] {
                let mut c = [0u64; #n2];
                let mut i = 0;
                while i < #n2 {
                    let mut w = [0u8; 8];
                    w.copy_from_slice(&c_be[#nb2 - 8 * (i + 1)..#nb2 - 8 * i]);
                    c[i] = u64::from_be_bytes(w);
                    i += 1;
                }
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
                let mut c = [0u64; #n2];
                let mut i = 0;
                while i < #n2 {
                    let mut w = [0u8; 8];
                    w.copy_from_slice(&c_be[#nb2 - 8 * (i + 1)..#nb2 - 8 * i]);
                    c[i] = u64::from_be_bytes(w);
                    i += 1;
                }
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
                        self.p.from_montgomery_limbs(&self.p.pow_ct(&self.p.to_montgomery_limbs(&cp), &self.dp)),
                        self.q.from_montgomery_limbs(&self.q.pow_ct(&self.q.to_montgomery_limbs(&cq), &self.dq)),
                    ),
                };
                let diff = self.p.sub_mod(&mp, &self.p.reduce(&mq));
                // h = diff·q⁻¹ mod p: Montgomery product of diff·R and q⁻¹.
                let h = self.p.mul(&self.p.to_montgomery_limbs(&diff), &self.qinv);
                let hq = #name::mul_wide(&h, self.q.modulus_limbs());
                let mut m = [0u64; #n2];
                let mut carry = 0u64;
                let mut i = 0;
                while i < #n2 {
                    let add = if i < #nl { mq[i] } else { 0 };
                    let t = hq[i] as u128 + add as u128 + carry as u128;
                    m[i] = t as u64;
                    carry = (t >> 64) as u64;
                    i += 1;
                }
                let mut out = [0u8; #nb2];
                let mut i = 0;
                while i < #n2 {
                    out[#nb2 - 8 * (i + 1)..#nb2 - 8 * i].copy_from_slice(&m[i].to_be_bytes());
                    i += 1;
                }
                out
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
