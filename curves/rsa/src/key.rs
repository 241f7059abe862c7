//! RSA public and private keys: construction with validation, generation, and the raw
//! primitives RSAEP/RSAVP1 (public) and RSADP/RSASP1 (private) of RFC 8017 §5.

use alloc::vec;
use alloc::vec::Vec;
use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use fieldgen_field::ct::declassify;
use fieldgen_field::rsa::SMALL_PRIMES;
use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, Zeroizing};

use crate::ctx::{self, CrtKey, Ctx};
use crate::hash::HashAlg;
use crate::uint;
use crate::Error;

/// The smallest modulus accepted, in bits. Moduli below 1024 bits are insecure; 512 to 1023
/// are accepted for interoperability and published test keys, never generated.
pub const MIN_MODULUS_BITS: usize = 512;
/// The largest modulus accepted, in bits. Moduli up to 4096 bits run on the contexts of
/// `fieldgen-rsa`; 4097 to 8192 bits run their public operations on a portable Montgomery
/// fallback of this crate (slower) and their private operations on the contexts of their
/// primes (up to 4096 bits each).
pub const MAX_MODULUS_BITS: usize = ctx::MAX_CONTEXT_BITS;
/// The largest modulus [`RsaPrivateKey::generate`] makes, in bits (the largest context).
pub const MAX_GENERATED_BITS: usize = 4096;
/// The smallest modulus [`RsaPrivateKey::generate`] makes, in bits.
pub const MIN_GENERATED_BITS: usize = 1024;
/// The public exponent of [`RsaPrivateKey::generate`]: 65537 = 2^16 + 1.
pub const DEFAULT_EXPONENT: u64 = 65537;

/// Strips leading zero bytes (variable time: for public values and lengths).
fn strip(x: &[u8]) -> &[u8] {
    let start = x.iter().position(|b| *b != 0).unwrap_or(x.len());
    &x[start..]
}

/// Left-pads or trims a big-endian value to `len` bytes in constant time (the lengths are
/// public): the value and whether it fits (every dropped leading byte is zero).
fn pad_ct(x: &[u8], len: usize) -> (Vec<u8>, Choice) {
    let mut out = vec![0u8; len];
    let mut extra = 0u8;
    if x.len() > len {
        let cut = x.len() - len;
        extra = x[..cut].iter().fold(0u8, |a, b| a | b);
        out.copy_from_slice(&x[cut..]);
    } else {
        out[len - x.len()..].copy_from_slice(x);
    }
    (out, extra.ct_eq(&0))
}

/// An RSA public key (n, e) (RFC 8017 §3.1): the modulus n, odd, of
/// [`MIN_MODULUS_BITS`]..=[`MAX_MODULUS_BITS`] bits (any bit length: 2049-bit moduli run on the
/// 3072-bit context), and the public exponent e, odd, 3 ≤ e < n. Every operation with it is on
/// public data.
#[derive(Clone)]
pub struct RsaPublicKey {
    /// n, k bytes big-endian, first byte non-zero.
    n: Vec<u8>,
    /// e, big-endian without leading zeros.
    e: Vec<u8>,
    /// The bit length of n.
    bits: usize,
    /// The Montgomery context modulo n.
    ctx: Ctx,
}

impl core::fmt::Debug for RsaPublicKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RsaPublicKey({} bits, e = 0x", self.bits)?;
        for b in &self.e {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

impl PartialEq for RsaPublicKey {
    fn eq(&self, other: &Self) -> bool {
        self.n == other.n && self.e == other.e
    }
}
impl Eq for RsaPublicKey {}

impl RsaPublicKey {
    /// The key for the modulus n and exponent e, big-endian (leading zero bytes allowed).
    ///
    /// # Errors
    /// [`Error::InvalidModulus`] for an even n; [`Error::ModulusSize`] for n outside
    /// [`MIN_MODULUS_BITS`]..=[`MAX_MODULUS_BITS`] bits; [`Error::InvalidExponent`] for e even,
    /// e < 3 or e ≥ n.
    pub fn new(n: &[u8], e: &[u8]) -> Result<Self, Error> {
        let n = strip(n);
        let e = strip(e);
        let bits = if n.is_empty() {
            0
        } else {
            8 * n.len() - n[0].leading_zeros() as usize
        };
        if !(MIN_MODULUS_BITS..=MAX_MODULUS_BITS).contains(&bits) {
            return Err(Error::ModulusSize(bits));
        }
        if n[n.len() - 1] & 1 == 0 {
            return Err(Error::InvalidModulus);
        }
        let e_small = e.len() == 1 && e[0] < 3;
        if e.is_empty() || e_small || e[e.len() - 1] & 1 == 0 {
            return Err(Error::InvalidExponent);
        }
        if e.len() > n.len() || (e.len() == n.len() && e >= n) {
            return Err(Error::InvalidExponent);
        }
        let ctx = Ctx::new(n).ok_or(Error::InvalidModulus)?;
        Ok(RsaPublicKey {
            n: n.to_vec(),
            e: e.to_vec(),
            bits,
            ctx,
        })
    }

    /// The modulus n, k bytes big-endian (no leading zero byte).
    pub fn modulus(&self) -> &[u8] {
        &self.n
    }

    /// The public exponent e, big-endian without leading zeros.
    pub fn exponent(&self) -> &[u8] {
        &self.e
    }

    /// The bit length of n (modBits).
    pub fn bits(&self) -> usize {
        self.bits
    }

    /// k, the length of n in bytes: the length of every signature and ciphertext.
    pub fn size(&self) -> usize {
        self.n.len()
    }

    /// Checks that `x` has exactly k bytes and, as a big-endian integer, is below n (RFC 8017
    /// §5.1.1 step 1, §5.2.2 step 1; the length rule of §7.1.2 and §8.2.2 step 1). Public
    /// values only (variable time).
    pub(crate) fn check_input(&self, x: &[u8]) -> Result<(), Error> {
        if x.len() != self.n.len() {
            return Err(Error::InvalidLength {
                expected: self.n.len(),
                got: x.len(),
            });
        }
        if x >= &self.n[..] {
            return Err(Error::OutOfRange);
        }
        Ok(())
    }

    /// x^e mod n of a k-byte x < n, k bytes.
    pub(crate) fn public_op(&self, x: &[u8]) -> Vec<u8> {
        self.ctx.pow_vartime(x, &self.e, self.n.len())
    }

    /// RSAEP (RFC 8017 §5.1.1): c = m^e mod n for the k-byte big-endian m.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] unless m has k bytes; [`Error::OutOfRange`] for m ≥ n.
    pub fn rsaep(&self, m: &[u8]) -> Result<Vec<u8>, Error> {
        self.check_input(m)?;
        Ok(self.public_op(m))
    }

    /// RSAVP1 (RFC 8017 §5.2.2): m = s^e mod n for the k-byte big-endian s.
    ///
    /// # Errors
    /// As [`rsaep`](Self::rsaep).
    pub fn rsavp1(&self, s: &[u8]) -> Result<Vec<u8>, Error> {
        self.rsaep(s)
    }
}

/// An RSA private key in CRT form (RFC 8017 §3.2, two primes): the public key, d, p, q,
/// d_P = d mod (p − 1), d_Q = d mod (q − 1) and q_Inv = q⁻¹ mod p. The private operation runs
/// on the prime contexts of `fieldgen-rsa` (the smallest size holding both primes: 512-bit
/// primes of a 1024-bit key on `Mont768`, 1024-bit ones on `Mont1024`), constant time, with
/// base blinding and a fault check. Every secret is overwritten on drop; `Debug` prints the
/// public part only.
pub struct RsaPrivateKey {
    public: RsaPublicKey,
    /// d, k bytes.
    d: Vec<u8>,
    /// p, q, d_P, d_Q, q_Inv: big-endian, each of the byte length of the larger prime.
    p: Vec<u8>,
    q: Vec<u8>,
    dp: Vec<u8>,
    dq: Vec<u8>,
    qinv: Vec<u8>,
    crt: CrtKey,
    /// Seed of the blinding values of the operations without a caller's random source.
    blind_seed: [u8; 64],
    /// Counter of those operations (a fresh blinding value each time).
    counter: AtomicU32,
    /// The blinding pair for the next private operation.
    blinding: BlindCache,
}

/// Uses of one random blinding value (squared between uses) before a fresh one is drawn; as
/// OpenSSL's `BN_BLINDING` (32).
const BLINDING_USES: u32 = 32;

/// A blinding pair handed to one operation: (r^e mod n, r⁻¹ mod n), k bytes each.
type Blinding = (Zeroizing<Vec<u8>>, Zeroizing<Vec<u8>>);

/// A blinding pair (r^e mod n, r⁻¹ mod n), k bytes each. Secret; zeroized on drop.
struct BlindPair {
    re: Vec<u8>,
    rinv: Vec<u8>,
    uses: u32,
}

impl Drop for BlindPair {
    fn drop(&mut self) {
        self.re.zeroize();
        self.rinv.zeroize();
    }
}

/// The key's blinding pair behind a try-lock: an operation that finds the lock taken (another
/// thread is using the pair) draws a fresh pair instead of waiting.
struct BlindCache {
    busy: AtomicBool,
    slot: UnsafeCell<Option<BlindPair>>,
}

// SAFETY: `slot` is only reached inside `with`, while `busy` is held: the compare-exchange
// (Acquire) gives one thread exclusive access until the Release store.
unsafe impl Sync for BlindCache {}

impl BlindCache {
    const fn new() -> Self {
        BlindCache {
            busy: AtomicBool::new(false),
            slot: UnsafeCell::new(None),
        }
    }

    /// Runs `f` on the slot if no other thread holds it; none otherwise.
    fn with<T>(&self, f: impl FnOnce(&mut Option<BlindPair>) -> T) -> Option<T> {
        if self
            .busy
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return None;
        }
        // SAFETY: `busy` was false and is now ours: no other reference to the slot exists
        // until the store below (a panic in `f` leaves the lock taken, which only disables the
        // cache).
        let out = f(unsafe { &mut *self.slot.get() });
        self.busy.store(false, Ordering::Release);
        Some(out)
    }
}

impl Drop for RsaPrivateKey {
    fn drop(&mut self) {
        self.d.zeroize();
        self.p.zeroize();
        self.q.zeroize();
        self.dp.zeroize();
        self.dq.zeroize();
        self.qinv.zeroize();
        self.blind_seed.zeroize();
        self.crt.wipe();
    }
}

impl Clone for RsaPrivateKey {
    fn clone(&self) -> Self {
        RsaPrivateKey {
            public: self.public.clone(),
            d: self.d.clone(),
            p: self.p.clone(),
            q: self.q.clone(),
            dp: self.dp.clone(),
            dq: self.dq.clone(),
            qinv: self.qinv.clone(),
            crt: self.crt.clone(),
            blind_seed: self.blind_seed,
            counter: AtomicU32::new(self.counter.load(Ordering::Relaxed)),
            blinding: BlindCache::new(),
        }
    }
}

impl core::fmt::Debug for RsaPrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RsaPrivateKey({:?}, private parts secret)", self.public)
    }
}

/// The number of Miller–Rabin rounds with random bases run after Baillie–PSW on a candidate
/// of `bits` bits: the larger figures of FIPS 186-5 Table B.1 for p and q (5 rounds for
/// 1024-bit primes, error probability 2^-112; 4 for 1536-bit, 2^-128, and 2048-bit primes,
/// 2^-144), and 7 for the smaller primes of test-size keys (FIPS 186-4 Table C.3, 512-bit
/// primes, 2^-100).
pub const fn miller_rabin_rounds(bits: usize) -> usize {
    if bits >= 1536 {
        4
    } else if bits >= 1024 {
        5
    } else {
        7
    }
}

/// x⁻¹ mod m for x < m and an odd m of at most 4096 bits (little-endian limbs of any
/// length): `fieldgen_field::rsa::inv_mod` on the smallest limb count holding m. Constant
/// time in the values; none when there is no inverse (the outcome is branched on).
fn inv_mod_vec(x: &[u64], m: &[u64]) -> Option<Vec<u64>> {
    macro_rules! at {
        ($($l:literal),*) => {
            $(
                if m.len() <= $l {
                    let mut xa = [0u64; $l];
                    let mut ma = [0u64; $l];
                    xa[..x.len().min($l)].copy_from_slice(&x[..x.len().min($l)]);
                    ma[..m.len()].copy_from_slice(m);
                    let r = fieldgen_field::rsa::inv_mod(&ma, &xa);
                    xa.zeroize();
                    return Option::<[u64; $l]>::from(r).map(|v| v.to_vec());
                }
            )*
        };
    }
    at!(8, 12, 16, 24, 32, 48, 64);
    None
}

/// gcd of two words (Euclid; public values).
fn gcd_word(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// A random probable prime of exactly `bits` bits with its top two bits set and
/// gcd(p − 1, e) = 1 (FIPS 186-5 A.1.3 steps 4–5 with the √2·2^(bits−1) bound rounded up to
/// the top two bits): random odd candidates, trial division by the odd primes below 1024,
/// Baillie–PSW and [`miller_rabin_rounds`] random-base Miller–Rabin tests. Big-endian,
/// ⌈bits/8⌉ bytes. Variable time in the rejected candidates.
fn random_prime(
    bits: usize,
    e: u64,
    fill: &mut dyn FnMut(&mut [u8]),
) -> Result<Zeroizing<Vec<u8>>, Error> {
    let len = bits.div_ceil(8);
    let extra = 8 * len - bits;
    // FIPS 186-5 A.1.3 step 4.7: give up after 5·(nlen/2) candidates.
    for _ in 0..5 * bits {
        let mut cand = Zeroizing::new(vec![0u8; len]);
        fill(&mut cand);
        cand[0] &= 0xff >> extra;
        // Top two bits (they may straddle the first two bytes when extra = 7).
        let top = bits - 1;
        let pos = 8 * len - 1 - top;
        cand[pos / 8] |= 0x80 >> (pos % 8);
        let pos2 = pos + 1;
        cand[pos2 / 8] |= 0x80 >> (pos2 % 8);
        cand[len - 1] |= 1;
        let limbs = Zeroizing::new(uint::from_be(&cand));
        if SMALL_PRIMES
            .iter()
            .any(|&s| uint::rem_word_vartime(&limbs, s as u64) == 0)
        {
            continue;
        }
        let r = uint::rem_word_vartime(&limbs, e);
        if gcd_word((r + e - 1) % e, e) != 1 {
            continue;
        }
        let Some(c) = Ctx::new(&cand) else { continue };
        if c.is_probable_prime_vartime(miller_rabin_rounds(bits), fill) {
            return Ok(cand);
        }
    }
    Err(Error::RandomSource)
}

impl RsaPrivateKey {
    /// A new key of `bits` bits with e = 65537:
    /// [`generate_with_exponent`](Self::generate_with_exponent).
    ///
    /// # Errors
    /// As [`generate_with_exponent`](Self::generate_with_exponent).
    pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R, bits: usize) -> Result<Self, Error> {
        Self::generate_with_exponent(rng, bits, DEFAULT_EXPONENT)
    }

    /// A new key of exactly `bits` bits (1024 ≤ bits ≤ 4096; 1024, 1536, 2048, 3072 and 4096
    /// are the sizes of the contexts, other lengths run on the next larger one) with the
    /// public exponent e (odd, 3 ≤ e < 2^62): primes p, q of ⌈bits/2⌉ and ⌊bits/2⌋ bits from
    /// `rng` as FIPS 186-5 A.1.3 (probable primes, each with gcd(e, p − 1) = 1), redrawn
    /// while |p − q| ≤ 2^(bits/2 − 100) or d ≤ 2^(bits/2) (A.1.1). d = e⁻¹ mod φ(n)
    /// (RFC 8017 allows λ(n) or φ(n)); the CRT values follow.
    ///
    /// # Errors
    /// [`Error::ModulusSize`] for bits outside 1024..=4096; [`Error::InvalidExponent`] for a
    /// refused e; [`Error::RandomSource`] when no prime turns up (a broken random source).
    pub fn generate_with_exponent<R: CryptoRng + ?Sized>(
        rng: &mut R,
        bits: usize,
        e: u64,
    ) -> Result<Self, Error> {
        if !(MIN_GENERATED_BITS..=MAX_GENERATED_BITS).contains(&bits) {
            return Err(Error::ModulusSize(bits));
        }
        if e < 3 || e.is_multiple_of(2) || e >= 1 << 62 {
            return Err(Error::InvalidExponent);
        }
        let mut fill = |b: &mut [u8]| rng.fill_bytes(b);
        let pbits = bits.div_ceil(2);
        let qbits = bits / 2;
        for _ in 0..16 {
            let p = random_prime(pbits, e, &mut fill)?;
            let q = random_prime(qbits, e, &mut fill)?;
            // |p − q| > 2^(bits/2 − 100): compare the top bits (public outcome of a
            // rejection, as in FIPS 186-5 A.1.3 step 5.4).
            let len = p.len();
            let pl = Zeroizing::new(uint::resize(&uint::from_be(&p), len.div_ceil(8)));
            let ql = Zeroizing::new(uint::resize(&uint::from_be(&q), len.div_ceil(8)));
            let (d1, b1) = uint::sub(&pl, &ql);
            let (d2, _) = uint::sub(&ql, &pl);
            let diff = Zeroizing::new(if b1 == 0 { d1 } else { d2 });
            if uint::bits_vartime(&diff) <= bits / 2 - 100 {
                continue;
            }
            // φ(n) + 1 = n − p − q + 2.
            let nl = uint::mul(&pl, &ql);
            let n = uint::to_be(&nl, bits.div_ceil(8));
            let wide = nl.len();
            let (t, _) = uint::sub(&nl, &uint::resize(&pl, wide));
            let (t, _) = uint::sub(&t, &uint::resize(&ql, wide));
            let phi1 = Zeroizing::new(uint::add_word(&t, 2));
            let k = n.len();
            let phi1_be = Zeroizing::new(uint::to_be(&phi1, 8 * wide));
            let d = Zeroizing::new(
                ctx::inverse_exponent(strip(&phi1_be), e, k).ok_or(Error::InvalidExponent)?,
            );
            if uint::bits_vartime(&uint::from_be(&d)) <= bits / 2 {
                continue;
            }
            let e_be = e.to_be_bytes();
            return Self::from_components(&n, &e_be, &d, &p, &q);
        }
        Err(Error::RandomSource)
    }

    /// The key for n, e, d and the primes p, q (big-endian); d_P, d_Q and q_Inv are derived
    /// (d mod (p − 1), d mod (q − 1), q⁻¹ mod p), then everything is validated as in
    /// [`from_crt_components`](Self::from_crt_components).
    ///
    /// # Errors
    /// As [`from_crt_components`](Self::from_crt_components).
    pub fn from_components(
        n: &[u8],
        e: &[u8],
        d: &[u8],
        p: &[u8],
        q: &[u8],
    ) -> Result<Self, Error> {
        let pl = Zeroizing::new(uint::from_be(p));
        let ql = Zeroizing::new(uint::from_be(q));
        let dl = Zeroizing::new(uint::from_be(d));
        if pl[0] & 1 == 0
            || ql[0] & 1 == 0
            || uint::bits_vartime(&pl) < 2
            || uint::bits_vartime(&ql) < 2
        {
            return Err(Error::InconsistentKey);
        }
        let pm1 = Zeroizing::new(uint::sub_word(&pl, 1));
        let qm1 = Zeroizing::new(uint::sub_word(&ql, 1));
        let dp = Zeroizing::new(uint::to_be(&uint::rem_ct(&dl, &pm1), p.len()));
        let dq = Zeroizing::new(uint::to_be(&uint::rem_ct(&dl, &qm1), q.len()));
        let q_mod_p = Zeroizing::new(uint::rem_ct(&ql, &pl));
        let qinv = Zeroizing::new(uint::to_be(
            &inv_mod_vec(&q_mod_p, &pl).ok_or(Error::InconsistentKey)?,
            p.len(),
        ));
        Self::from_crt_components(n, e, d, p, q, &dp, &dq, &qinv)
    }

    /// The key for all eight values of an RSAPrivateKey (RFC 8017 A.1.2, two primes),
    /// big-endian, after validation: the public key as [`RsaPublicKey::new`]; p, q odd and
    /// above 1, p·q = n; 0 < d < n; d_P = d mod (p − 1) and d_Q = d mod (q − 1);
    /// e·d_P ≡ 1 (mod p − 1) and e·d_Q ≡ 1 (mod q − 1), so that e·d ≡ 1 mod λ(n); q_Inv < p and
    /// q·q_Inv ≡ 1 (mod p). The checks are constant time; only the overall outcome is
    /// branched on. The primes are not tested for primality.
    ///
    /// # Errors
    /// The public key's errors, or [`Error::InconsistentKey`] when a check fails or a prime
    /// has more than 4096 bits.
    #[allow(clippy::too_many_arguments)]
    pub fn from_crt_components(
        n: &[u8],
        e: &[u8],
        d: &[u8],
        p: &[u8],
        q: &[u8],
        dp: &[u8],
        dq: &[u8],
        qinv: &[u8],
    ) -> Result<Self, Error> {
        let public = RsaPublicKey::new(n, e)?;
        let k = public.size();
        let nl = uint::from_be(&public.n);
        let el = uint::from_be(&public.e);
        let pl = Zeroizing::new(uint::from_be(p));
        let ql = Zeroizing::new(uint::from_be(q));
        let dl = Zeroizing::new(uint::from_be(d));
        let dpl = Zeroizing::new(uint::from_be(dp));
        let dql = Zeroizing::new(uint::from_be(dq));
        let qil = Zeroizing::new(uint::from_be(qinv));
        // Odd primes above 1.
        let one = [1u64];
        let mut ok = Choice::from((pl[0] & ql[0] & 1) as u8);
        ok &= !uint::ct_eq(&pl, &one) & !uint::ct_eq(&ql, &one);
        ok &= uint::ct_eq(&uint::mul(&pl, &ql), &nl);
        ok &= uint::ct_lt(&dl, &nl) & !uint::ct_eq(&dl, &[0]);
        let pm1 = Zeroizing::new(uint::sub_word(&pl, 1));
        let qm1 = Zeroizing::new(uint::sub_word(&ql, 1));
        ok &= uint::ct_lt(&dpl, &pm1) & uint::ct_lt(&dql, &qm1) & uint::ct_lt(&qil, &pl);
        ok &= uint::ct_eq(&uint::rem_ct(&dl, &pm1), &dpl);
        ok &= uint::ct_eq(&uint::rem_ct(&dl, &qm1), &dql);
        ok &= uint::ct_is_one(&uint::rem_ct(&uint::mul(&el, &dpl), &pm1));
        ok &= uint::ct_is_one(&uint::rem_ct(&uint::mul(&el, &dql), &qm1));
        ok &= uint::ct_is_one(&uint::rem_ct(&uint::mul(&ql, &qil), &pl));
        // Fixed lengths: both primes, d_P, d_Q and q_Inv at the larger prime's byte length,
        // which is public (the key's shape), as is the outcome of the checks (an error);
        // both are declassified, and no length is found by a branch on the secret bytes.
        let plen = declassify(uint::ct_byte_len(p).max(uint::ct_byte_len(q)));
        let fit = |x: &[u8], len: usize| pad_ct(x, len);
        let (p, okp) = fit(p, plen);
        let (q, okq) = fit(q, plen);
        let (dp, okdp) = fit(dp, plen);
        let (dq, okdq) = fit(dq, plen);
        let (qinv, okqi) = fit(qinv, plen);
        let (d, okd) = fit(d, k);
        ok &= okp & okq & okdp & okdq & okqi & okd;
        if !bool::from(declassify(ok)) {
            return Err(Error::InconsistentKey);
        }
        let crt = CrtKey::new(&p, &q, &dp, &dq, &qinv).ok_or(Error::InconsistentKey)?;
        let seed = HashAlg::Sha512.digest_parts(&[b"fieldgen-rsa blinding seed", &d, &p, &q]);
        let mut blind_seed = [0u8; 64];
        blind_seed.copy_from_slice(&seed);
        let key = RsaPrivateKey {
            public,
            d,
            p,
            q,
            dp,
            dq,
            qinv,
            crt,
            blind_seed,
            counter: AtomicU32::new(0),
            blinding: BlindCache::new(),
        };
        Ok(key)
    }

    /// The public key.
    pub fn public_key(&self) -> &RsaPublicKey {
        &self.public
    }

    /// k, the modulus length in bytes.
    pub fn size(&self) -> usize {
        self.public.size()
    }

    /// The bit length of n.
    pub fn bits(&self) -> usize {
        self.public.bits()
    }

    /// d, k bytes big-endian. Secret.
    pub fn private_exponent(&self) -> &[u8] {
        &self.d
    }

    /// The primes p and q, big-endian (each of the larger prime's byte length). Secret.
    pub fn primes(&self) -> (&[u8], &[u8]) {
        (&self.p, &self.q)
    }

    /// d_P, d_Q and q_Inv, big-endian (each of the larger prime's byte length). Secret.
    pub fn crt_values(&self) -> (&[u8], &[u8], &[u8]) {
        (&self.dp, &self.dq, &self.qinv)
    }

    /// A blinding stream for an operation without a caller's random source: SHA-512 in
    /// counter mode over the key's secret seed, a per-key operation counter and the input.
    /// The blinding value differs each call and is unknown to anyone without the key.
    fn derived_fill(&self, input: &[u8]) -> impl FnMut(&mut [u8]) + '_ {
        let count = self.counter.fetch_add(1, Ordering::Relaxed).to_be_bytes();
        let input_hash = HashAlg::Sha512.digest(input);
        let mut block = 0u32;
        move |out: &mut [u8]| {
            for chunk in out.chunks_mut(64) {
                let h = HashAlg::Sha512.digest_parts(&[
                    &self.blind_seed,
                    &count,
                    &input_hash,
                    &block.to_be_bytes(),
                ]);
                chunk.copy_from_slice(&h[..chunk.len()]);
                block = block.wrapping_add(1);
            }
        }
    }

    /// A fresh blinding pair (r^e, r⁻¹) mod n: r < 2^(modBits − 1) from `fill`, r⁻¹ by the
    /// constant-time binary GCD modulo p and q.
    fn fresh_blinding(&self, fill: &mut dyn FnMut(&mut [u8])) -> Result<Blinding, Error> {
        let pk = &self.public;
        let k = pk.size();
        let extra = 8 * k - (pk.bits - 1);
        for _ in 0..8 {
            let mut r = Zeroizing::new(vec![0u8; k]);
            fill(&mut r);
            // r < 2^(modBits − 1) < n; clear whole bytes and the top bits of the first kept.
            for (i, b) in r.iter_mut().enumerate() {
                let hi = 8 * i;
                if hi + 8 <= extra {
                    *b = 0;
                } else if hi < extra {
                    *b &= 0xff >> (extra - hi);
                }
            }
            let Some(rinv) = self.crt.inv_mod_n(&r, k) else {
                // r shares a factor with n or is zero: negligible, redraw.
                continue;
            };
            let re = pk.ctx.pow_vartime(&r, &pk.e, k);
            return Ok((Zeroizing::new(re), Zeroizing::new(rinv)));
        }
        Err(Error::RandomSource)
    }

    /// The blinding pair of the next operation: the key's cached pair, squared after each use
    /// ((r^e)² = (r²)^e, (r⁻¹)² = (r²)⁻¹; Kocher 1996 §10) for [`BLINDING_USES`] uses, then a
    /// fresh one from `fill`. When another thread holds the cache, a fresh pair.
    fn blinding_pair(&self, fill: &mut dyn FnMut(&mut [u8])) -> Result<Blinding, Error> {
        let ctx = &self.public.ctx;
        let k = self.public.size();
        let advance = |p: &mut BlindPair| {
            let out = (
                Zeroizing::new(core::mem::take(&mut p.re)),
                Zeroizing::new(core::mem::take(&mut p.rinv)),
            );
            p.re = ctx.mul_mod(&out.0, &out.0, k);
            p.rinv = ctx.mul_mod(&out.1, &out.1, k);
            p.uses += 1;
            out
        };
        let cached = self.blinding.with(|slot| match slot {
            Some(p) if p.uses < BLINDING_USES => Some(advance(p)),
            _ => None,
        });
        if let Some(Some(pair)) = cached {
            return Ok(pair);
        }
        let (re, rinv) = self.fresh_blinding(fill)?;
        self.blinding.with(|slot| {
            *slot = Some(BlindPair {
                re: ctx.mul_mod(&re, &re, k),
                rinv: ctx.mul_mod(&rinv, &rinv, k),
                uses: 1,
            })
        });
        Ok((re, rinv))
    }

    /// c^d mod n for a k-byte c < n (checked by the caller): base blinding (c·r^e with the
    /// pair of [`blinding_pair`](Self::blinding_pair)), the constant-time CRT private
    /// operation of the prime contexts, unblinding by r⁻¹, and the fault check m^e = c
    /// before the result leaves (against the Bellcore fault attack on the CRT).
    pub(crate) fn private_op(
        &self,
        c: &[u8],
        fill: &mut dyn FnMut(&mut [u8]),
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        let pk = &self.public;
        let k = pk.size();
        let (re, rinv) = self.blinding_pair(fill)?;
        let blinded = Zeroizing::new(pk.ctx.mul_mod(c, &re, k));
        let mb = Zeroizing::new(self.crt.private_op(&blinded, k));
        let m = Zeroizing::new(pk.ctx.mul_mod(&mb, &rinv, k));
        let check = pk.public_op(&m);
        // A fault is public (an error); declassified for the constant-time check.
        if !bool::from(declassify(check.ct_eq(c))) {
            return Err(Error::FaultDetected);
        }
        Ok(m)
    }

    /// RSADP (RFC 8017 §5.1.2): m = c^d mod n for the k-byte c, blinded (see the crate docs
    /// on the private operation; a fresh blinding value comes from `rng`).
    ///
    /// # Errors
    /// [`Error::InvalidLength`] unless c has k bytes; [`Error::OutOfRange`] for c ≥ n;
    /// [`Error::FaultDetected`] when the result fails the fault check.
    pub fn rsadp<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        c: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        self.public.check_input(c)?;
        self.private_op(c, &mut |b| rng.fill_bytes(b))
    }

    /// RSASP1 (RFC 8017 §5.2.1): s = m^d mod n for the k-byte m, blinded (see the crate
    /// docs); a fresh blinding value is derived from the key's secret seed, a counter and m
    /// (no random source needed).
    ///
    /// # Errors
    /// As [`rsadp`](Self::rsadp).
    pub fn rsasp1(&self, m: &[u8]) -> Result<Vec<u8>, Error> {
        self.public.check_input(m)?;
        let mut fill = self.derived_fill(m);
        Ok(self.private_op(m, &mut fill)?.to_vec())
    }

    /// RSASP1 blinded with randomness from `rng`.
    ///
    /// # Errors
    /// As [`rsadp`](Self::rsadp).
    pub fn rsasp1_with_rng<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        m: &[u8],
    ) -> Result<Vec<u8>, Error> {
        Ok(self.rsadp(rng, m)?.to_vec())
    }

    /// The private operation with the derived blinding stream (for the deterministic
    /// signers).
    pub(crate) fn sign_raw(&self, em: &[u8]) -> Result<Vec<u8>, Error> {
        self.rsasp1(em)
    }
}
