//! Dispatch over the size-specialised Montgomery contexts of `fieldgen-rsa`.
//!
//! A modulus of b bits runs on the smallest context of at least b bits (768, 1024, 1536, 2048,
//! 3072 or 4096): a 1025-bit RSA modulus runs on `Mont1536`, its 513-bit primes on `Mont768`.
//! A modulus whose top byte in the context is non-zero gets the context's fast constructor
//! (`new`); a shorter one gets `new_odd` (the generic constants of
//! `fieldgen_field::rsa::odd_modulus_constants`). Montgomery arithmetic is correct for any odd
//! modulus below R; only the constants differ.

use crate::uint::low_word;
use alloc::boxed::Box;
use alloc::vec::Vec;
use fieldgen_field::ct::declassify;
use fieldgen_field::rsa::{self as helpers, MontContext};
use fieldgen_rsa::{
    Mont1024, Mont1024CrtKey, Mont1536, Mont1536CrtKey, Mont2048, Mont2048CrtKey, Mont3072,
    Mont3072CrtKey, Mont4096, Mont4096CrtKey, Mont768, Mont768CrtKey,
};
use zeroize::Zeroize;

/// The largest modulus handled, in bits: the contexts go to 4096, the portable fallback
/// ([`Portable`]) to 8192.
pub(crate) const MAX_CONTEXT_BITS: usize = 8192;

/// Limbs of the portable fallback: 8192 bits.
const BIG: usize = 128;

/// The fallback for moduli of 4097 to 8192 bits (public-key operations of such keys; their
/// primes still run on the contexts): portable Montgomery arithmetic with R = 2^8192 by
/// CIOS (Koç, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication algorithms",
/// IEEE Micro 1996), constant time, with the constants of
/// `fieldgen_field::rsa::odd_modulus_constants`.
#[derive(Clone)]
pub(crate) struct Portable {
    n: [u64; BIG],
    n0: u64,
    one: [u64; BIG],
    r2: [u64; BIG],
}

impl Portable {
    /// The fallback for the odd modulus m (big-endian, at most 8192 bits, no leading zero).
    fn new(m_be: &[u8]) -> Option<Portable> {
        if m_be.len() > 8 * BIG {
            return None;
        }
        let n = load::<BIG>(m_be);
        let (n0, one, r2) = helpers::odd_modulus_constants(&n)?;
        Some(Portable { n, n0, one, r2 })
    }

    /// The Montgomery product a·b·R⁻¹ mod n of a, b < n (CIOS, a masked final subtraction).
    fn mul(&self, a: &[u64; BIG], b: &[u64; BIG]) -> [u64; BIG] {
        let mut t = [0u64; BIG + 2];
        for &bi in b.iter() {
            let mut carry = 0u128;
            for j in 0..BIG {
                let x = t[j] as u128 + a[j] as u128 * bi as u128 + carry;
                t[j] = low_word(x);
                carry = x >> 64;
            }
            let x = t[BIG] as u128 + carry;
            t[BIG] = low_word(x);
            t[BIG + 1] = (x >> 64) as u64;
            let m = t[0].wrapping_mul(self.n0);
            let x = t[0] as u128 + m as u128 * self.n[0] as u128;
            let mut carry = x >> 64;
            for j in 1..BIG {
                let x = t[j] as u128 + m as u128 * self.n[j] as u128 + carry;
                t[j - 1] = low_word(x);
                carry = x >> 64;
            }
            let x = t[BIG] as u128 + carry;
            t[BIG - 1] = low_word(x);
            t[BIG] = t[BIG + 1] + (x >> 64) as u64;
        }
        // t < 2n: subtract n unless that borrows (with t's top word counted).
        let mut d = [0u64; BIG];
        let mut borrow = 0u64;
        for j in 0..BIG {
            let x = (t[j] as u128).wrapping_sub(self.n[j] as u128 + borrow as u128);
            d[j] = low_word(x);
            borrow = (x >> 127) as u64;
        }
        let keep_t = 0u64.wrapping_sub(borrow & (t[BIG] ^ 1) & 1);
        let mut out = [0u64; BIG];
        for j in 0..BIG {
            out[j] = (t[j] & keep_t) | (d[j] & !keep_t);
        }
        out
    }

    /// x^e mod n for x < n and a public exponent (left-to-right binary; variable time in e).
    fn pow_vartime(&self, x: &[u64; BIG], e_be: &[u8]) -> [u64; BIG] {
        let base = self.mul(x, &self.r2);
        let mut acc = self.one;
        for byte in e_be {
            for i in (0..8).rev() {
                acc = self.mul(&acc, &acc);
                if (byte >> i) & 1 == 1 {
                    acc = self.mul(&acc, &base);
                }
            }
        }
        let mut one = [0u64; BIG];
        one[0] = 1;
        self.mul(&acc, &one)
    }
}

/// Little-endian limbs of a big-endian value of at most 8·N bytes.
fn load<const N: usize>(be: &[u8]) -> [u64; N] {
    let mut limbs = [0u64; N];
    for (i, b) in be.iter().rev().enumerate() {
        limbs[i / 8] |= (*b as u64) << (8 * (i % 8));
    }
    limbs
}

/// The `len`-byte big-endian encoding of limbs holding a value below 2^(8·len).
fn store(limbs: &[u64], len: usize) -> Vec<u8> {
    crate::uint::to_be(limbs, len)
}

/// A context for the odd modulus `m` (at most 8·N bytes, big-endian): `new` when its top
/// byte in the context is non-zero, `new_odd` otherwise.
fn make<M: MontContext<N>, const N: usize>(m_be: &[u8]) -> Option<M>
where
    M::Bytes: AsMut<[u8]>,
{
    if m_be.len() > 8 * N {
        return None;
    }
    if m_be.len() == 8 * N && m_be[0] != 0 {
        let mut bytes = <M::Bytes as fieldgen_field::ByteArray>::zeroed();
        bytes.as_mut().copy_from_slice(m_be);
        return M::new(&bytes);
    }
    None
}

macro_rules! contexts {
    ($($variant:ident: $ty:ident, $key:ident, $limbs:literal;)*) => {
        /// A Montgomery context of one of the six sizes for a public or secret odd modulus.
        #[derive(Clone)]
        pub(crate) enum Ctx {
            $(
                #[allow(dead_code)]
                $variant(Box<$ty>),
            )*
            /// Moduli of 4097 to 8192 bits: the portable fallback.
            Big(Box<Portable>),
        }

        /// An RSA-CRT private key on the contexts of one size (both primes on the same).
        #[derive(Clone)]
        pub(crate) enum CrtKey {
            $(
                /// The key and the byte length of the larger prime (public: fixed when the
                /// key is built, so no operation recomputes it from the secret primes).
                #[allow(dead_code)]
                $variant(Box<$key>, usize),
            )*
        }

        impl Ctx {
            /// The context for the odd modulus m > 1 (big-endian, leading zeros allowed) on
            /// the smallest size that holds it; none for an even modulus, m ≤ 1, or more
            /// than 4096 bits.
            pub(crate) fn new(m_be: &[u8]) -> Option<Ctx> {
                let start = m_be.iter().position(|b| *b != 0)?;
                let m_be = &m_be[start..];
                $(
                    if m_be.len() <= $limbs * 8 {
                        if let Some(c) = make::<$ty, $limbs>(m_be) {
                            return Some(Ctx::$variant(Box::new(c)));
                        }
                        return $ty::new_odd(&load::<$limbs>(m_be)).map(|c| Ctx::$variant(Box::new(c)));
                    }
                )*
                Portable::new(m_be).map(|c| Ctx::Big(Box::new(c)))
            }

            /// x^e mod n for x < n (big-endian, at most the context's length) and a public
            /// exponent, as `len` bytes. Variable time in e only.
            pub(crate) fn pow_vartime(&self, x_be: &[u8], e_be: &[u8], len: usize) -> Vec<u8> {
                match self {
                    $(Ctx::$variant(c) => {
                        let x = c.to_montgomery_limbs(&load::<$limbs>(x_be));
                        store(&c.from_montgomery_limbs(&c.pow_vartime(&x, e_be)), len)
                    })*
                    Ctx::Big(c) => store(&c.pow_vartime(&load::<BIG>(x_be), e_be), len),
                }
            }

            /// a·b mod n for a, b < n (big-endian), as `len` bytes. Constant time.
            pub(crate) fn mul_mod(&self, a_be: &[u8], b_be: &[u8], len: usize) -> Vec<u8> {
                match self {
                    $(Ctx::$variant(c) => {
                        let a = c.to_montgomery_limbs(&load::<$limbs>(a_be));
                        let mut ab = c.mul(&a, &load::<$limbs>(b_be));
                        let out = store(&ab, len);
                        ab.zeroize();
                        out
                    })*
                    Ctx::Big(c) => {
                        let a = c.mul(&load::<BIG>(a_be), &c.r2);
                        let mut ab = c.mul(&a, &load::<BIG>(b_be));
                        let out = store(&ab, len);
                        ab.zeroize();
                        out
                    }
                }
            }

            /// Whether the modulus passes trial division and Baillie–PSW, then `rounds`
            /// Miller–Rabin tests to random bases from `fill` (FIPS 186-5 B.3.1).
            /// Variable time: for prime candidates.
            pub(crate) fn is_probable_prime_vartime(
                &self,
                rounds: usize,
                fill: &mut dyn FnMut(&mut [u8]),
            ) -> bool {
                match self {
                    $(Ctx::$variant(c) => {
                        if !helpers::is_probable_prime_vartime::<$ty, $limbs>(c) {
                            return false;
                        }
                        let m = c.modulus_limbs();
                        let bits = crate::uint::bits_vartime(m);
                        let mut done = 0;
                        let mut tries = 0;
                        while done < rounds {
                            tries += 1;
                            if tries > 100 * rounds {
                                return false;
                            }
                            // A random base b with 1 < b < m − 1: bits − 1 random bits.
                            let mut buf = [0u8; $limbs * 8];
                            fill(&mut buf);
                            let mut b = load::<$limbs>(&buf);
                            for (i, w) in b.iter_mut().enumerate() {
                                let lo = 64 * i;
                                if lo + 64 > bits - 1 {
                                    *w &= if lo >= bits - 1 { 0 } else { (1u64 << (bits - 1 - lo)) - 1 };
                                }
                            }
                            if b.iter().skip(1).all(|w| *w == 0) && b[0] < 2 {
                                continue;
                            }
                            if !helpers::miller_rabin_vartime::<$ty, $limbs>(c, &c.to_montgomery_limbs(&b)) {
                                return false;
                            }
                            done += 1;
                        }
                        true
                    })*
                    // Primes are at most 4096 bits; no candidate reaches the fallback.
                    Ctx::Big(_) => false,
                }
            }
        }

        impl CrtKey {
            /// The CRT key on the smallest size holding both primes: p, q (odd, > 1), d_p,
            /// d_q (below p − 1, q − 1) and q⁻¹ mod p, all big-endian. None when a value does
            /// not fit or a prime is even.
            pub(crate) fn new(p: &[u8], q: &[u8], dp: &[u8], dq: &[u8], qinv: &[u8]) -> Option<CrtKey> {
                let size = p.len().max(q.len());
                $(
                    if size <= $limbs * 8 {
                        // A prime's byte length is public (the key's shape); counted without
                        // a branch on the bytes and declassified.
                        let at_size = |m: &[u8]| -> Option<$ty> {
                            let len = declassify(crate::uint::ct_byte_len(m));
                            if len == 0 {
                                return None;
                            }
                            let m = &m[m.len() - len..];
                            make::<$ty, $limbs>(m).or_else(|| $ty::new_odd(&load::<$limbs>(m)))
                        };
                        let plen = declassify(
                            crate::uint::ct_byte_len(p).max(crate::uint::ct_byte_len(q)),
                        );
                        let pc = at_size(p)?;
                        let qc = at_size(q)?;
                        let mut dpb = [0u8; $limbs * 8];
                        let mut dqb = [0u8; $limbs * 8];
                        if dp.len() > dpb.len() || dq.len() > dqb.len() || qinv.len() > $limbs * 8 {
                            return None;
                        }
                        dpb[$limbs * 8 - dp.len()..].copy_from_slice(dp);
                        dqb[$limbs * 8 - dq.len()..].copy_from_slice(dq);
                        return Some(CrtKey::$variant(Box::new($key {
                            p: pc,
                            q: qc,
                            dp: dpb,
                            dq: dqb,
                            qinv: load::<$limbs>(qinv),
                            e: 0,
                        }), plen));
                    }
                )*
                None
            }

            /// c^d mod n by the CRT for c < n given big-endian in at most twice the context's
            /// length; the result as `len` bytes. Primes that fill the context take its
            /// constant-time `private_op` (interleaved AVX-512 IFMA exponentiations where
            /// present); shorter ones two `pow_ct` exponentiations over the primes' byte
            /// length. Constant time in c and the key.
            pub(crate) fn private_op(&self, c_be: &[u8], len: usize) -> Vec<u8> {
                match self {
                    $(CrtKey::$variant(k, plen) => {
                        let mut c = [0u8; $limbs * 16];
                        c[$limbs * 16 - c_be.len()..].copy_from_slice(c_be);
                        // Primes shorter than the context (512-bit primes on Mont768): the
                        // exponents' leading zero bytes (a public count, fixed at
                        // construction) are skipped.
                        let plen = *plen;
                        let trim = $limbs * 8 - plen;
                        let mut m = if trim == 0 {
                            k.private_op(&c)
                        } else {
                            let mut w = helpers::wide_from_be::<$ty, $limbs>(&c);
                            let mut cp = k.p.reduce_wide(&w);
                            let mut cq = k.q.reduce_wide(&w);
                            let mut mp = helpers::pow_mod_ct::<$ty, $limbs>(&k.p, &cp, &k.dp[trim..]);
                            let mut mq = helpers::pow_mod_ct::<$ty, $limbs>(&k.q, &cq, &k.dq[trim..]);
                            let m = helpers::crt_recombine::<$ty, $limbs>(&k.p, &k.q, &k.qinv, &mp, &mq);
                            w.zeroize();
                            cp.zeroize();
                            cq.zeroize();
                            mp.zeroize();
                            mq.zeroize();
                            m
                        };
                        c.zeroize();
                        let out = m[$limbs * 16 - len..].to_vec();
                        m.zeroize();
                        out
                    })*
                }
            }

            /// x⁻¹ mod n (n = p·q) for x < n given big-endian, as `len` bytes, by the CRT:
            /// the constant-time binary GCD modulo p and modulo q (half the size, a quarter of
            /// the work of one modulo n), recombined by Garner's formula. None when x shares
            /// a factor with n (the one branch on the values; negligible for a random x).
            pub(crate) fn inv_mod_n(&self, x_be: &[u8], len: usize) -> Option<Vec<u8>> {
                match self {
                    $(CrtKey::$variant(k, _) => {
                        let mut c = [0u8; $limbs * 16];
                        c[$limbs * 16 - x_be.len()..].copy_from_slice(x_be);
                        let w = helpers::wide_from_be::<$ty, $limbs>(&c);
                        c.zeroize();
                        let mut xp = k.p.reduce_wide(&w);
                        let mut xq = k.q.reduce_wide(&w);
                        let (mut ip, okp) = helpers::inv_mod_with_choice(k.p.modulus_limbs(), &xp);
                        let (mut iq, okq) = helpers::inv_mod_with_choice(k.q.modulus_limbs(), &xq);
                        xp.zeroize();
                        xq.zeroize();
                        // Whether x is invertible is public (the caller redraws it).
                        if !bool::from(declassify(okp & okq)) {
                            ip.zeroize();
                            iq.zeroize();
                            return None;
                        }
                        let mut m = helpers::crt_recombine::<$ty, $limbs>(&k.p, &k.q, &k.qinv, &ip, &iq);
                        ip.zeroize();
                        iq.zeroize();
                        let out = m[$limbs * 16 - len..].to_vec();
                        m.zeroize();
                        Some(out)
                    })*
                }
            }

            /// Overwrites the secret parts (d_p, d_q, q⁻¹ and the prime contexts).
            pub(crate) fn wipe(&mut self) {
                match self {
                    $(CrtKey::$variant(k, _) => {
                        k.dp.zeroize();
                        k.dq.zeroize();
                        k.qinv.zeroize();
                        // Replace the prime contexts by a public dummy (all-ones modulus);
                        // the volatile write keeps the store from being elided.
                        if let Some(dummy) = $ty::new(&[0xff; $limbs * 8]) {
                            // SAFETY: both pointers are valid, aligned and exclusive (from
                            // `&mut`); the contexts have no destructor to skip.
                            unsafe {
                                core::ptr::write_volatile(&mut k.p, dummy.clone());
                                core::ptr::write_volatile(&mut k.q, dummy);
                            }
                        }
                    })*
                }
            }
        }
    };
}

contexts! {
    C768: Mont768, Mont768CrtKey, 12;
    C1024: Mont1024, Mont1024CrtKey, 16;
    C1536: Mont1536, Mont1536CrtKey, 24;
    C2048: Mont2048, Mont2048CrtKey, 32;
    C3072: Mont3072, Mont3072CrtKey, 48;
    C4096: Mont4096, Mont4096CrtKey, 64;
}

/// e⁻¹ mod (m − 1) for an odd m of at most 4096 bits (big-endian) with gcd(e, m − 1) = 1 and
/// an odd 3 ≤ e < 2^62, as `len` bytes: `fieldgen_field::rsa::crt_exponent` on the smallest
/// limb count holding m. Constant time in m. The private exponent is this for m = φ(n) + 1.
pub(crate) fn inverse_exponent(m_be: &[u8], e: u64, len: usize) -> Option<Vec<u8>> {
    macro_rules! at {
        ($($limbs:literal),*) => {
            $(
                if m_be.len() <= $limbs * 8 {
                    let mut d = helpers::crt_exponent::<$limbs>(&load::<$limbs>(m_be), e)?;
                    let out = store(&d, len);
                    d.zeroize();
                    return Some(out);
                }
            )*
        };
    }
    at!(12, 16, 24, 32, 48, 64);
    None
}
