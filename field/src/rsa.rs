//! The big-integer helpers RSA needs beside Montgomery arithmetic, written once for every
//! operand size: a constant-time binary extended GCD (gcd and modular inverse), the
//! Baillie–PSW probable-prime test (trial division, Miller–Rabin to base 2, strong Lucas with
//! Selfridge's parameters), a variable-time Lehmer GCD and modular inverse for public values,
//! random prime generation, and RSA-CRT key generation and the
//! private-key operation for keys whose primes have N·64 bits.
//!
//! The generated RSA contexts (`MontN` of the `fieldgen-rsa` crate) implement
//! [`MontContext`] with their specialised Montgomery kernels and keep thin inherent methods
//! that call the functions here, which are generic over the limb count `N`.
//!
//! # Shapes
//!
//! - A value is `[u64; N]`: N little-endian 64-bit limbs, least significant first. The operand
//!   size is 64·N bits and R = 2^(64·N).
//! - [`MontContext::Bytes`] is the big-endian encoding of a value, `[u8; 8·N]`, most
//!   significant byte first.
//! - [`MontContext::Wide`] is a double-width value, `[u64; 2·N]` (little-endian limbs), and
//!   [`MontContext::WideBytes`] its big-endian encoding, `[u8; 16·N]`: the RSA modulus
//!   n = p·q and the inputs and outputs of the private operation for N-limb primes.
//!
//! Stable Rust cannot name `[u8; 8 * N]` in a signature generic over N, so these lengths are
//! associated types; every function checks them at compile time (a wrong length in an
//! implementation is a compile error where the function is used).
//!
//! # Errors
//!
//! Nothing here panics on any input. Refusals are `None` ([`Option`]) for public conditions
//! (an even modulus in [`gcd`], a refused public exponent, a broken random source) and a
//! [`CtOption`] without a value for the secret condition of [`inv_mod`] (no inverse).
//!
//! # Timing
//!
//! [`gcd`], [`inv_mod`], [`crt_exponent`], [`reduce`], [`reduce_wide`], [`crt_parts`] and
//! [`crt_recombine`] are constant time in their values (given constant-time context
//! arithmetic): their branches and memory accesses depend only on N. Functions named
//! `_vartime` branch on their values and are meant for public values or for prime candidates,
//! as is [`random_prime`] on the candidates it rejects.
//!
//! # Sources
//!
//! T. Pornin, "Optimized binary GCD for modular inversion" (2020), Algorithm 1 (the plain
//! constant-time binary extended GCD, 2·64·N iterations); R. Baillie and S. Wagstaff, "Lucas
//! pseudoprimes", Math. Comp. 35 (1980); FIPS 186-5 appendix B.3 (Miller–Rabin, strong Lucas);
//! H. Garner, "The residue number system" (1959), for the CRT recombination; T. Jebelean, "An
//! algorithm for exact division" (1993), for dividing by the public exponent.

use subtle::{Choice, ConstantTimeEq, CtOption};

use crate::ByteArray;

/// A fixed-length array of 64-bit limbs, `[u64; L]`: the double-width values of a
/// [`MontContext`] (implemented for every length).
pub trait LimbArray: Copy + Clone + core::fmt::Debug + Eq + AsRef<[u64]> + AsMut<[u64]> {
    /// All zero limbs.
    fn zeroed() -> Self;
}

impl<const L: usize> LimbArray for [u64; L] {
    #[inline]
    fn zeroed() -> Self {
        [0u64; L]
    }
}

/// A Montgomery context for an odd modulus n < 2^(64·N) given at run time, as the helpers of
/// this module use it. Values are `[u64; N]` little-endian limbs below n; "Montgomery form"
/// is x·R mod n with R = 2^(64·N).
///
/// Implementations must make every method constant time in the values of its operands (the
/// modulus is public), except [`pow_vartime`](MontContext::pow_vartime) in the exponent.
pub trait MontContext<const N: usize>: Sized + Clone {
    /// A value's big-endian encoding: `[u8; 8·N]`.
    type Bytes: ByteArray;
    /// A double-width value: `[u64; 2·N]`, little-endian limbs.
    type Wide: LimbArray;
    /// A double-width value's big-endian encoding: `[u8; 16·N]`.
    type WideBytes: ByteArray;

    /// The context for the modulus given big-endian; none unless the implementation accepts it
    /// (an RSA context needs an odd modulus with a non-zero top byte).
    fn new(modulus_be: &Self::Bytes) -> Option<Self>;
    /// The modulus n, little-endian limbs.
    fn modulus_limbs(&self) -> &[u64; N];
    /// One in Montgomery form, R mod n.
    fn one(&self) -> [u64; N];
    /// x·R mod n for any x < 2^(64·N) (values ≥ n are reduced).
    fn to_montgomery_limbs(&self, x: &[u64; N]) -> [u64; N];
    /// a·R⁻¹ mod n for a < n.
    #[allow(clippy::wrong_self_convention)] // the name of the contexts' inherent method
    fn from_montgomery_limbs(&self, a: &[u64; N]) -> [u64; N];
    /// The Montgomery product a·b·R⁻¹ mod n of a, b < n (also correct whenever a·b < n·R).
    fn mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N];
    /// The Montgomery square a²·R⁻¹ mod n of a < n.
    fn square(&self, a: &[u64; N]) -> [u64; N];
    /// a + b mod n for a, b < n.
    fn add_mod(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N];
    /// a − b mod n for a, b < n.
    fn sub_mod(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N];
    /// base^e in Montgomery form for base in Montgomery form and e big-endian of any length;
    /// constant time in base and e, the time depending only on the length of e.
    fn pow_ct(&self, base: &[u64; N], exp_be: &[u8]) -> [u64; N];
    /// base^e in Montgomery form for a public exponent (big-endian, any length); the time
    /// depends on e.
    fn pow_vartime(&self, base: &[u64; N], exp_be: &[u8]) -> [u64; N];
    /// The full product a·b of two N-limb values, 2·N limbs.
    fn mul_wide(a: &[u64; N], b: &[u64; N]) -> Self::Wide;
    /// The full square a² of an N-limb value, 2·N limbs.
    fn square_wide(a: &[u64; N]) -> Self::Wide;
}

/// The parts of an RSA private key in CRT form that [`crt_parts`] derives from its primes.
/// Secret: no `Debug`, so that the key material is not printed by accident.
#[derive(Clone)]
pub struct CrtParts<M: MontContext<N>, const N: usize> {
    /// The context modulo p.
    pub p: M,
    /// The context modulo q.
    pub q: M,
    /// d_p = e⁻¹ mod (p − 1), big-endian.
    pub dp: M::Bytes,
    /// d_q = e⁻¹ mod (q − 1), big-endian.
    pub dq: M::Bytes,
    /// q⁻¹ mod p, little-endian limbs.
    pub qinv: [u64; N],
}

/// Trial division bound of [`is_probable_prime_vartime`] and [`random_prime`]: candidates are
/// divided by every odd prime below it.
pub const TRIAL_DIVISION_BOUND: usize = 1024;

/// The odd primes below [`TRIAL_DIVISION_BOUND`], increasing (171 of them, 3 to 1021).
pub const SMALL_PRIMES: [u16; 171] = odd_primes_below::<171>(TRIAL_DIVISION_BOUND);

/// The K odd primes below `bound` by trial division (evaluated at compile time); fails to
/// compile unless there are exactly K, or if `bound` exceeds 2^16.
#[allow(
    clippy::cast_possible_truncation,
    reason = "every n is below bound ≤ 2^16, asserted first"
)]
const fn odd_primes_below<const K: usize>(bound: usize) -> [u16; K] {
    assert!(bound <= 1 << 16, "the table holds 16-bit primes");
    let mut out = [0u16; K];
    let mut count = 0;
    let mut n = 3;
    while n < bound {
        let mut d = 3;
        let mut prime = true;
        while d * d <= n {
            if n % d == 0 {
                prime = false;
                break;
            }
            d += 2;
        }
        if prime {
            assert!(
                count < K,
                "more odd primes below the bound than the table holds"
            );
            out[count] = n as u16;
            count += 1;
        }
        n += 2;
    }
    assert!(
        count == K,
        "fewer odd primes below the bound than the table holds"
    );
    out
}

// ---------------------------------------------------------------------------------------------
// Limb arithmetic (constant time unless named _vartime).

/// The low word of a double-word sum or product (the caller takes the high word separately,
/// `t >> 64`), or of a value the caller knows is below 2^64.
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "limb extraction: the high word is taken separately or is zero"
)]
const fn low_word(t: u128) -> u64 {
    t as u64
}

/// Bit position or bit count `i` of an N-limb value (at most 64·N) as `u32`.
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "i ≤ 64·N, and N ≤ 2^26 is asserted at compile time"
)]
fn bit_pos<const N: usize>(i: usize) -> u32 {
    const {
        assert!(N <= 1 << 26, "bit positions of an N-limb value fit u32");
    }
    debug_assert!(i <= 64 * N);
    i as u32
}

/// Fails to compile for N = 0 (every value has at least one limb).
#[inline(always)]
fn assert_limbs<const N: usize>() {
    const {
        assert!(N > 0, "a value has at least one limb");
    }
}

/// Fails to compile unless `B` is `[u8; 8·L]`-sized.
#[inline(always)]
fn assert_bytes<B, const L: usize>() {
    const {
        assert!(
            core::mem::size_of::<B>() == 8 * L,
            "byte array is not 8 bytes per limb"
        );
    }
}

/// Fails to compile unless the associated types of `M` have the lengths documented on
/// [`MontContext`].
#[inline(always)]
fn assert_shapes<M: MontContext<N>, const N: usize>() {
    assert_limbs::<N>();
    const {
        assert!(
            core::mem::size_of::<M::Bytes>() == 8 * N,
            "Bytes must be [u8; 8·N]"
        );
        assert!(
            core::mem::size_of::<M::Wide>() == 16 * N,
            "Wide must be [u64; 2·N]"
        );
        assert!(
            core::mem::size_of::<M::WideBytes>() == 16 * N,
            "WideBytes must be [u8; 16·N]"
        );
    }
}

/// The little-endian limbs of a big-endian encoding of 8 bytes per limb.
#[inline]
fn limbs_of_be<const L: usize>(bytes: &[u8]) -> [u64; L] {
    let mut limbs = [0u64; L];
    for (i, limb) in limbs.iter_mut().enumerate() {
        let end = bytes.len() - 8 * i;
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[end - 8..end]);
        *limb = u64::from_be_bytes(w);
    }
    limbs
}

/// Writes the big-endian encoding of little-endian limbs (8 bytes per limb).
#[inline]
fn write_be(limbs: &[u64], out: &mut [u8]) {
    let len = out.len();
    for (i, limb) in limbs.iter().enumerate() {
        out[len - 8 * (i + 1)..len - 8 * i].copy_from_slice(&limb.to_be_bytes());
    }
}

/// The big-endian encoding `B` (`[u8; 8·L]`) of little-endian limbs.
#[inline]
fn be_of_limbs<B: ByteArray, const L: usize>(limbs: &[u64; L]) -> B {
    assert_bytes::<B, L>();
    let mut out = B::zeroed();
    write_be(limbs, out.as_mut());
    out
}

/// The value 1 as limbs.
#[inline]
fn one_limbs<const N: usize>() -> [u64; N] {
    let mut one = [0u64; N];
    one[0] = 1;
    one
}

/// a + b as limbs and the carry bit.
#[inline]
fn add_limbs<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], u64) {
    let mut out = [0u64; N];
    let mut carry = 0u64;
    for i in 0..N {
        let t = a[i] as u128 + b[i] as u128 + carry as u128;
        out[i] = low_word(t);
        carry = (t >> 64) as u64;
    }
    (out, carry)
}

/// a − b as limbs and the borrow bit.
#[inline]
fn sub_limbs<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], u64) {
    let mut out = [0u64; N];
    let mut borrow = 0u64;
    for i in 0..N {
        let t = (a[i] as u128).wrapping_sub(b[i] as u128 + borrow as u128);
        out[i] = low_word(t);
        borrow = (t >> 127) as u64;
    }
    (out, borrow)
}

/// mask == 0 ? a : b, limb by limb (mask all ones or zero).
#[inline]
fn select<const N: usize>(mask: u64, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
    let mut out = [0u64; N];
    for i in 0..N {
        out[i] = a[i] ^ (mask & (a[i] ^ b[i]));
    }
    out
}

/// (x, top) / 2: shifts x right by one bit, `top` (0 or 1) entering the top bit.
#[inline]
fn shr1<const N: usize>(x: &[u64; N], top: u64) -> [u64; N] {
    let mut out = [0u64; N];
    for i in 0..N {
        let hi = if i + 1 < N { x[i + 1] } else { top };
        out[i] = (x[i] >> 1) | (hi << 63);
    }
    out
}

/// a + b mod m for a, b < m, from limbs alone (no context).
#[inline]
fn add_mod_limbs<const N: usize>(a: &[u64; N], b: &[u64; N], m: &[u64; N]) -> [u64; N] {
    let (s, carry) = add_limbs(a, b);
    let (d, borrow) = sub_limbs(&s, m);
    // Keep s exactly when s < m: no carry out and a borrow.
    let keep = 0u64.wrapping_sub(borrow & (carry ^ 1));
    select(keep, &d, &s)
}

/// −m⁻¹ mod 2^64 for odd m (Newton's iteration from m, correct to 3 bits, doubling each step).
pub const fn neg_inv_word(m: u64) -> u64 {
    let mut inv = m;
    let mut i = 0;
    while i < 5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(inv)));
        i += 1;
    }
    inv.wrapping_neg()
}

/// The Montgomery constants of any odd modulus 3 ≤ m < 2^(64·N) (no size condition): n0' =
/// −m⁻¹ mod 2^64, R mod m and R² mod m, from 2·64·N constant-time modular doublings of 1.
/// None for even m or m = 1 (only this validity is branched on, so a secret prime's value is
/// not: the prime contexts of an RSA key are built here). For
/// the contexts' `new_odd`, which accept small moduli for tests and the primality helpers.
pub fn odd_modulus_constants<const N: usize>(
    modulus: &[u64; N],
) -> Option<(u64, [u64; N], [u64; N])> {
    assert_limbs::<N>();
    let rest = modulus[1..].iter().fold(0u64, |acc, w| acc | w);
    // Validity is public (none is returned); a secret prime's other bits stay unbranched on.
    let valid = (modulus[0] & 1).ct_eq(&1) & !(rest.ct_eq(&0) & modulus[0].ct_eq(&1));
    if !bool::from(crate::ct::declassify(valid)) {
        return None;
    }
    let mut one = one_limbs::<N>();
    let mut x = one;
    for i in 0..2 * N * 64 {
        if i == N * 64 {
            one = x;
        }
        x = add_mod_limbs(&x, &x, modulus);
    }
    Some((neg_inv_word(modulus[0]), one, x))
}

// ---------------------------------------------------------------------------------------------
// Reduction.

/// x mod n for any x < 2^(64·N). Constant time: two Montgomery multiplications.
pub fn reduce<M: MontContext<N>, const N: usize>(ctx: &M, x: &[u64; N]) -> [u64; N] {
    ctx.from_montgomery_limbs(&ctx.to_montgomery_limbs(x))
}

/// x mod n for any double-width x < 2^(128·N), as hi·R + lo. Constant time.
pub fn reduce_wide<M: MontContext<N>, const N: usize>(ctx: &M, x: &M::Wide) -> [u64; N] {
    assert_shapes::<M, N>();
    let x = x.as_ref();
    let mut lo = [0u64; N];
    let mut hi = [0u64; N];
    lo.copy_from_slice(&x[..N]);
    hi.copy_from_slice(&x[N..]);
    let hi_r = ctx.to_montgomery_limbs(&hi);
    ctx.add_mod(&hi_r, &reduce(ctx, &lo))
}

// ---------------------------------------------------------------------------------------------
// GCD and inverse.

/// The constant-time binary extended GCD of x < 2^(64·N) and an odd m < 2^(64·N): returns
/// (gcd(x, m), v) with v·x ≡ gcd (mod m) (Pornin 2020, Algorithm 1: a ≡ u·x and b ≡ v·x mod m
/// throughout; 2·64·N iterations of conditional swap, subtraction and halving, all by masks).
fn binary_xgcd<const N: usize>(x: &[u64; N], m: &[u64; N]) -> ([u64; N], [u64; N]) {
    let mut a = *x;
    let mut b = *m;
    let mut u = one_limbs::<N>();
    let mut v = [0u64; N];
    for _ in 0..2 * 64 * N {
        let odd = 0u64.wrapping_sub(a[0] & 1);
        let (_, borrow) = sub_limbs(&a, &b);
        // Swap when a is odd and a < b.
        let swap = odd & 0u64.wrapping_sub(borrow);
        let (na, nb) = (select(swap, &a, &b), select(swap, &b, &a));
        let (nu, nv) = (select(swap, &u, &v), select(swap, &v, &u));
        b = nb;
        v = nv;
        // a ← a − b and u ← u − v (mod m) when a is odd.
        let (d2, _) = sub_limbs(&na, &b);
        a = select(odd, &na, &d2);
        let (du, bu) = sub_limbs(&nu, &v);
        let (du_m, _) = add_limbs(&du, m);
        let du = select(0u64.wrapping_sub(bu), &du, &du_m);
        u = select(odd, &nu, &du);
        // a ← a/2 (a is even now); u ← u/2 mod m.
        a = shr1(&a, 0);
        let u_odd = 0u64.wrapping_sub(u[0] & 1);
        let (um, carry) = add_limbs(&u, m);
        let um = select(u_odd, &u, &um);
        u = shr1(&um, carry & u_odd & 1);
    }
    (b, v)
}

/// gcd(x, m) for x < 2^(64·N) and an odd m (little-endian limbs). Constant time in x and m
/// (the binary extended GCD, 2·64·N iterations); branches only on the parity of m. None when m
/// is even.
pub fn gcd<const N: usize>(x: &[u64; N], m: &[u64; N]) -> Option<[u64; N]> {
    assert_limbs::<N>();
    if m[0] & 1 == 0 {
        return None;
    }
    Some(binary_xgcd(x, m).0)
}

/// x⁻¹ mod m (plain limbs in and out, not Montgomery form) for any x < 2^(64·N) and an odd
/// modulus m; none when gcd(x, m) ≠ 1 or m is even. Constant time in x and m: the binary
/// extended GCD, 2·64·N iterations, and the outcome as a [`CtOption`].
pub fn inv_mod<const N: usize>(m: &[u64; N], x: &[u64; N]) -> CtOption<[u64; N]> {
    let (v, ok) = inv_mod_with_choice(m, x);
    CtOption::new(v, ok)
}

/// [`inv_mod`] as the candidate inverse and whether it is one, for callers that read the value
/// without a branch (a `CtOption` of an array gives it up only through a branch on its flag).
pub fn inv_mod_with_choice<const N: usize>(m: &[u64; N], x: &[u64; N]) -> ([u64; N], Choice) {
    assert_limbs::<N>();
    let (g, v) = binary_xgcd(x, m);
    let one = one_limbs::<N>();
    let mut diff = 0u64;
    for i in 0..N {
        diff |= g[i] ^ one[i];
    }
    let ok = diff.ct_eq(&0) & (m[0] & 1).ct_eq(&1);
    (v, ok)
}

// ---------------------------------------------------------------------------------------------
// Baillie–PSW.

/// x mod q for a small q > 0 (Horner over the limbs; variable time).
fn rem_small_limbs<const N: usize>(x: &[u64; N], q: u64) -> u64 {
    let mut r: u128 = 0;
    for limb in x.iter().rev() {
        r = ((r << 64) | *limb as u128) % q as u128;
    }
    // r < q.
    low_word(r)
}

/// Number of trailing zero bits of a non-zero value (64·N for zero).
fn trailing_zeros<const N: usize>(x: &[u64; N]) -> u32 {
    for (i, limb) in x.iter().enumerate() {
        if *limb != 0 {
            return bit_pos::<N>(64 * i) + limb.trailing_zeros();
        }
    }
    bit_pos::<N>(64 * N)
}

/// x >> k for k < 64·N (variable time in k).
fn shr_vartime<const N: usize>(x: &[u64; N], k: u32) -> [u64; N] {
    let (words, bits) = ((k / 64) as usize, k % 64);
    let mut out = [0u64; N];
    let mut i = 0;
    while i + words < N {
        let lo = x[i + words] >> bits;
        let hi = if bits > 0 && i + words + 1 < N {
            x[i + words + 1] << (64 - bits)
        } else {
            0
        };
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
        while a.is_multiple_of(2) {
            a /= 2;
            if m % 8 == 3 || m % 8 == 5 {
                t = -t;
            }
        }
        core::mem::swap(&mut a, &mut m);
        if a % 4 == 3 && m % 4 == 3 {
            t = -t;
        }
        a %= m;
    }
    if m == 1 {
        t
    } else {
        0
    }
}

/// Whether the modulus n is a perfect square (bit-by-bit integer square root over the double
/// width squares; variable time).
fn is_square_vartime<M: MontContext<N>, const N: usize>(ctx: &M) -> bool {
    assert_shapes::<M, N>();
    let p = ctx.modulus_limbs();
    let mut r = [0u64; N];
    let mut bit = 32 * N;
    while bit > 0 {
        bit -= 1;
        let mut t = r;
        t[bit / 64] |= 1 << (bit % 64);
        let sq = M::square_wide(&t);
        let sq = sq.as_ref();
        // t² ≤ n?
        let mut le = true;
        let mut i = 2 * N;
        while i > 0 {
            i -= 1;
            let ni = if i < N { p[i] } else { 0 };
            if sq[i] != ni {
                le = sq[i] < ni;
                break;
            }
        }
        if le {
            r = t;
        }
    }
    let sq = M::square_wide(&r);
    let sq = sq.as_ref();
    sq[..N] == p[..] && sq[N..].iter().all(|w| *w == 0)
}

/// Whether the context's modulus n is a probable prime: trial division by the odd primes below
/// 1024 ([`SMALL_PRIMES`]), then the Baillie–PSW test — Miller–Rabin to base 2 and the strong
/// Lucas test with Selfridge's parameters (no composite is known to pass both). Expects an odd
/// n ≥ 3. Variable time: for public or candidate values, as in prime generation.
pub fn is_probable_prime_vartime<M: MontContext<N>, const N: usize>(ctx: &M) -> bool {
    assert_limbs::<N>();
    let p = ctx.modulus_limbs();
    for &q in SMALL_PRIMES.iter() {
        if rem_small_limbs(p, q as u64) == 0 {
            let mut small = [0u64; N];
            small[0] = q as u64;
            return *p == small;
        }
    }
    let one = ctx.one();
    let two = ctx.add_mod(&one, &one);
    miller_rabin_vartime(ctx, &two) && strong_lucas_vartime(ctx)
}

/// The strong probable-prime (Miller–Rabin) test of the odd modulus n > 2 to `base`, given in
/// Montgomery form: with n − 1 = d·2^s, d odd, true when base^d ≡ ±1 or base^(d·2^r) ≡ −1 for
/// some r < s. Variable time.
pub fn miller_rabin_vartime<M: MontContext<N>, const N: usize>(ctx: &M, base: &[u64; N]) -> bool {
    let (n_minus_1, _) = sub_limbs(ctx.modulus_limbs(), &one_limbs::<N>());
    let s = trailing_zeros(&n_minus_1);
    let d = shr_vartime(&n_minus_1, s);
    let one = ctx.one();
    let minus_one = ctx.sub_mod(&[0; N], &one);
    let d_be: M::Bytes = be_of_limbs(&d);
    let mut x = ctx.pow_vartime(base, d_be.as_ref());
    if x == one || x == minus_one {
        return true;
    }
    for _ in 1..s {
        x = ctx.square(&x);
        if x == minus_one {
            return true;
        }
        if x == one {
            return false;
        }
    }
    false
}

/// The strong Lucas probable-prime test of the odd modulus n (Baillie–Wagstaff 1980; FIPS
/// 186-5 B.3.3) with Selfridge's method A: D the first of 5, −7, 9, −11, … with (D/n) = −1,
/// P = 1, Q = (1 − D)/4. With n + 1 = d·2^s, d odd: true when U_d ≡ 0 or V_(d·2^r) ≡ 0 for
/// some r < s. False for perfect squares and when some D shares a factor with n (unless
/// n = |D|). Variable time.
pub fn strong_lucas_vartime<M: MontContext<N>, const N: usize>(ctx: &M) -> bool {
    assert_limbs::<N>();
    let p = ctx.modulus_limbs();
    let n_mod_4 = p[0] % 4;
    let mut d_abs: u64 = 5;
    let mut negative = false;
    let mut tries = 0;
    loop {
        let r = rem_small_limbs(p, d_abs);
        // (D/n) = (−1/n)^[D<0] · (n mod |D| / |D|) · (−1)^(((|D|−1)/2)·((n−1)/2)).
        let mut j = jacobi_word(r, d_abs);
        if (d_abs % 4 == 3) && n_mod_4 == 3 {
            j = -j;
        }
        if negative && n_mod_4 == 3 {
            j = -j;
        }
        if j == -1 {
            break;
        }
        if j == 0 && !(r == 0 && p[0] == d_abs && p[1..].iter().all(|w| *w == 0)) {
            return false;
        }
        tries += 1;
        if tries == 20 && is_square_vartime(ctx) {
            return false;
        }
        d_abs += 2;
        negative = !negative;
    }
    // Montgomery forms of D, Q = (1 − D)/4 and the constant 2.
    let small = |v: u64| -> [u64; N] {
        let mut x = [0u64; N];
        x[0] = v;
        ctx.to_montgomery_limbs(&x)
    };
    let zero = [0u64; N];
    let dm = if negative {
        ctx.sub_mod(&zero, &small(d_abs))
    } else {
        small(d_abs)
    };
    // D = 5 → Q = −1; D = −7 → Q = 2; generally Q = (1 − D)/4.
    let qm = if negative {
        small((1 + d_abs) / 4)
    } else {
        ctx.sub_mod(&zero, &small((d_abs - 1) / 4))
    };
    // n + 1 = d·2^s as N limbs and a top word (n + 1 may be 2^(64·N): then d = 1, s = 64·N).
    let (n1, top) = add_limbs(p, &one_limbs::<N>());
    let word = |i: usize| if i < N { n1[i] } else { top };
    let bit = |b: u32| (word((b / 64) as usize) >> (b % 64)) & 1 == 1;
    let mut s = 0u32;
    while !bit(s) {
        s += 1;
    }
    let dbit = |k: u32| bit(k + s);
    let mut dbits = bit_pos::<N>(64 * N) + 64 - s;
    while !dbit(dbits - 1) {
        dbits -= 1;
    }
    let half = |x: &[u64; N]| -> [u64; N] {
        if x[0] & 1 == 0 {
            shr1(x, 0)
        } else {
            let (t, c) = add_limbs(x, p);
            shr1(&t, c)
        }
    };
    // (U_1, V_1, Q^1) = (1, P, Q), then left to right over the bits of d.
    let one = ctx.one();
    let mut u = one;
    let mut v = one;
    let mut qk = qm;
    let mut k = dbits - 1;
    while k > 0 {
        k -= 1;
        u = ctx.mul(&u, &v);
        let two_qk = ctx.add_mod(&qk, &qk);
        v = ctx.sub_mod(&ctx.square(&v), &two_qk);
        qk = ctx.square(&qk);
        if dbit(k) {
            let du = ctx.mul(&dm, &u);
            let nu = half(&ctx.add_mod(&u, &v));
            v = half(&ctx.add_mod(&du, &v));
            u = nu;
            qk = ctx.mul(&qk, &qm);
        }
    }
    if u == zero || v == zero {
        return true;
    }
    for _ in 1..s {
        let two_qk = ctx.add_mod(&qk, &qk);
        v = ctx.sub_mod(&ctx.square(&v), &two_qk);
        if v == zero {
            return true;
        }
        qk = ctx.square(&qk);
    }
    false
}

// ---------------------------------------------------------------------------------------------
// Prime and key generation.

/// gcd of two words (Euclid; variable time).
fn gcd_word(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// A random probable prime p of 64·N bits with its top two bits set (so a product of two has
/// exactly 128·N bits) and gcd(p − 1, e) = 1, big-endian. `fill` supplies random bytes (a
/// CSPRNG for keys); candidates are random odd values passing trial division and Baillie–PSW,
/// each tested by a context `M::new`. `e` must be odd and at least 3. None when `e` is refused
/// or when no prime turns up in 100·64·N candidates (a broken random source). Variable time in
/// rejected candidates.
pub fn random_prime<M: MontContext<N>, const N: usize>(
    fill: &mut dyn FnMut(&mut [u8]),
    e: u64,
) -> Option<M::Bytes> {
    assert_shapes::<M, N>();
    if e < 3 || e.is_multiple_of(2) {
        return None;
    }
    for _ in 0..100 * N * 64 {
        let mut bytes = M::Bytes::zeroed();
        fill(bytes.as_mut());
        let b = bytes.as_mut();
        b[0] |= 0xc0;
        b[8 * N - 1] |= 1;
        let p = limbs_of_be::<N>(bytes.as_ref());
        if SMALL_PRIMES
            .iter()
            .any(|&q| rem_small_limbs(&p, q as u64) == 0)
        {
            continue;
        }
        // gcd(p − 1, e) = 1: p − 1 mod e shares no factor with e.
        let r = low_word((rem_small_limbs(&p, e) as u128 + e as u128 - 1) % e as u128);
        if gcd_word(r, e) != 1 {
            continue;
        }
        let ctx = match M::new(&bytes) {
            Some(c) => c,
            None => continue,
        };
        if is_probable_prime_vartime(&ctx) {
            return Some(bytes);
        }
    }
    None
}

/// Two distinct primes from [`random_prime`] for an RSA key (p first); a repeat is drawn again
/// up to five times. None when `e` is refused or the random source fails.
pub fn random_prime_pair<M: MontContext<N>, const N: usize>(
    fill: &mut dyn FnMut(&mut [u8]),
    e: u64,
) -> Option<(M::Bytes, M::Bytes)> {
    let p_be = random_prime::<M, N>(fill, e)?;
    let mut q_be = random_prime::<M, N>(fill, e)?;
    let mut tries = 0;
    while q_be == p_be {
        q_be = random_prime::<M, N>(fill, e)?;
        tries += 1;
        if tries > 4 {
            return None;
        }
    }
    Some((p_be, q_be))
}

/// x mod e for a small odd e ≥ 3 below 2^63, constant time in x: one conditional subtraction
/// per bit, most significant first.
fn rem_word_ct<const N: usize>(x: &[u64; N], e: u64) -> u64 {
    let mut r: u64 = 0;
    let mut i = N * 64;
    while i > 0 {
        i -= 1;
        let bit = (x[i / 64] >> (i % 64)) & 1;
        // r < e < 2^63, so 2r + bit does not wrap.
        let t = 2 * r + bit;
        let (d, borrow) = t.overflowing_sub(e);
        let keep = 0u64.wrapping_sub(borrow as u64);
        r = (keep & t) | (!keep & d);
    }
    r
}

/// a⁻¹ mod e for odd e below 2^63 (one word), constant time: the binary extended GCD on words,
/// 128 iterations. Meaningful when gcd(a, e) = 1.
fn inv_word_ct(a: u64, e: u64) -> u64 {
    let (mut x, mut y, mut u, mut v) = (a, e, 1u64, 0u64);
    for _ in 0..128 {
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
    }
    v
}

/// The CRT exponent d_p = e⁻¹ mod (p − 1) for an odd prime p (little-endian limbs) and a
/// public odd e ≥ 3 below 2^62 with gcd(e, p − 1) = 1; none otherwise. Constant time in p:
/// d_p = (1 + k·(p − 1))/e with k = −(p − 1)⁻¹ mod e, the division exact (Jebelean). Whether
/// e is refused or shares a factor with p − 1 is the only branch on the values.
pub fn crt_exponent<const N: usize>(p: &[u64; N], e: u64) -> Option<[u64; N]> {
    assert_limbs::<N>();
    if e < 3 || e.is_multiple_of(2) || e >= 1 << 62 {
        return None;
    }
    let (pm1, _) = sub_limbs(p, &one_limbs::<N>());
    let r = rem_word_ct(&pm1, e);
    let k = (e - inv_word_ct(r, e)) % e;
    // Check k·r ≡ −1 (mod e), i.e. gcd(r, e) = 1. Public outcome for a valid key.
    if !(k as u128 * r as u128 + 1).is_multiple_of(e as u128) {
        return None;
    }
    // x = 1 + k·(p − 1): N limbs and a top word.
    let mut x = [0u64; N];
    let mut carry: u128 = 1;
    for i in 0..N {
        let t = pm1[i] as u128 * k as u128 + carry;
        x[i] = low_word(t);
        carry = t >> 64;
    }
    // Exact division by odd e: q_i = (x_i − borrow)·e⁻¹ mod 2^64; the quotient has N limbs
    // (it is below p), so the top word only absorbs the last borrow.
    let einv = neg_inv_word(e).wrapping_neg();
    let mut q = [0u64; N];
    let mut borrow: u64 = 0;
    for i in 0..N {
        let (t, b1) = x[i].overflowing_sub(borrow);
        let qi = t.wrapping_mul(einv);
        q[i] = qi;
        borrow = ((qi as u128 * e as u128) >> 64) as u64 + b1 as u64;
    }
    Some(q)
}

/// The CRT key parts for the primes p ≠ q (big-endian, contexts by `M::new`) and the public
/// exponent e (odd, 3 ≤ e < 2^62, coprime to p − 1 and q − 1): the two contexts, d_p, d_q by
/// [`crt_exponent`] and q⁻¹ mod p by the constant-time [`inv_mod`]. None when any condition
/// fails. The primes are not tested for primality here.
pub fn crt_parts<M: MontContext<N>, const N: usize>(
    p_be: &M::Bytes,
    q_be: &M::Bytes,
    e: u64,
) -> Option<CrtParts<M, N>> {
    assert_shapes::<M, N>();
    let p = M::new(p_be)?;
    let q = M::new(q_be)?;
    if p_be == q_be {
        return None;
    }
    let dp = be_of_limbs(&crt_exponent(p.modulus_limbs(), e)?);
    let dq = be_of_limbs(&crt_exponent(q.modulus_limbs(), e)?);
    let q_mod_p = reduce(&p, q.modulus_limbs());
    let qinv = Option::<[u64; N]>::from(inv_mod(p.modulus_limbs(), &q_mod_p))?;
    Some(CrtParts { p, q, dp, dq, qinv })
}

/// The RSA modulus n = p·q of the two contexts' moduli, big-endian. Constant time.
pub fn crt_modulus_be<M: MontContext<N>, const N: usize>(p: &M, q: &M) -> M::WideBytes {
    assert_shapes::<M, N>();
    let n = M::mul_wide(p.modulus_limbs(), q.modulus_limbs());
    let mut out = M::WideBytes::zeroed();
    write_be(n.as_ref(), out.as_mut());
    out
}

/// The double-width little-endian limbs of a big-endian double-width encoding (the input of
/// the private operation).
pub fn wide_from_be<M: MontContext<N>, const N: usize>(c_be: &M::WideBytes) -> M::Wide {
    assert_shapes::<M, N>();
    let bytes = c_be.as_ref();
    let mut out = M::Wide::zeroed();
    for (i, limb) in out.as_mut().iter_mut().enumerate() {
        let end = bytes.len() - 8 * i;
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[end - 8..end]);
        *limb = u64::from_be_bytes(w);
    }
    out
}

/// x^e mod n for x < n and a secret exponent (big-endian, any length), plain limbs in and out:
/// one exponentiation by [`MontContext::pow_ct`]. Constant time in x and e.
pub fn pow_mod_ct<M: MontContext<N>, const N: usize>(
    ctx: &M,
    x: &[u64; N],
    exp_be: &[u8],
) -> [u64; N] {
    ctx.from_montgomery_limbs(&ctx.pow_ct(&ctx.to_montgomery_limbs(x), exp_be))
}

/// Garner's recombination of the CRT private operation: from m_p = c^(d_p) mod p and
/// m_q = c^(d_q) mod q (plain limbs, m_p < p, m_q < q), m = m_q + q·((m_p − m_q)·q⁻¹ mod p),
/// the value c^d mod p·q, big-endian. Constant time.
pub fn crt_recombine<M: MontContext<N>, const N: usize>(
    p: &M,
    q: &M,
    qinv: &[u64; N],
    mp: &[u64; N],
    mq: &[u64; N],
) -> M::WideBytes {
    assert_shapes::<M, N>();
    let diff = p.sub_mod(mp, &reduce(p, mq));
    // h = diff·q⁻¹ mod p: Montgomery product of diff·R and q⁻¹.
    let h = p.mul(&p.to_montgomery_limbs(&diff), qinv);
    let hq = M::mul_wide(&h, q.modulus_limbs());
    let mut m = M::Wide::zeroed();
    let mut carry = 0u64;
    for (i, (out, w)) in m.as_mut().iter_mut().zip(hq.as_ref()).enumerate() {
        let add = if i < N { mq[i] } else { 0 };
        let t = *w as u128 + add as u128 + carry as u128;
        *out = low_word(t);
        carry = (t >> 64) as u64;
    }
    let mut out = M::WideBytes::zeroed();
    write_be(m.as_ref(), out.as_mut());
    out
}

// ---------------------------------------------------------------------------------------------
// Variable-time Lehmer GCD and modular inverse, for public values.

/// Number of significant bits of x (0 for zero).
fn bit_len<const N: usize>(x: &[u64; N]) -> u32 {
    let mut i = N;
    while i > 0 {
        i -= 1;
        if x[i] != 0 {
            return bit_pos::<N>(64 * i) + 64 - x[i].leading_zeros();
        }
    }
    0
}

/// Whether a ≥ b (variable time).
fn ge_vartime<const N: usize>(a: &[u64; N], b: &[u64; N]) -> bool {
    let mut i = N;
    while i > 0 {
        i -= 1;
        if a[i] != b[i] {
            return a[i] > b[i];
        }
    }
    true
}

/// The 64 bits of x from bit k upwards, (x >> k) mod 2^64.
fn word_at<const N: usize>(x: &[u64; N], k: u32) -> u64 {
    let (w, b) = ((k / 64) as usize, k % 64);
    let lo = if w < N { x[w] >> b } else { 0 };
    let hi = if b > 0 && w + 1 < N {
        x[w + 1] << (64 - b)
    } else {
        0
    };
    lo | hi
}

/// x << k for k < 64·N, bits above 64·N dropped (variable time in k).
fn shl_vartime<const N: usize>(x: &[u64; N], k: u32) -> [u64; N] {
    let (words, bits) = ((k / 64) as usize, k % 64);
    let mut out = [0u64; N];
    for i in words..N {
        let lo = x[i - words] << bits;
        let hi = if bits > 0 && i > words {
            x[i - words - 1] >> (64 - bits)
        } else {
            0
        };
        out[i] = lo | hi;
    }
    out
}

/// c·x as N limbs and the limb above them.
fn mul_word<const N: usize>(x: &[u64; N], c: u64) -> ([u64; N], u64) {
    let mut out = [0u64; N];
    let mut carry = 0u64;
    for i in 0..N {
        let t = x[i] as u128 * c as u128 + carry as u128;
        out[i] = low_word(t);
        carry = (t >> 64) as u64;
    }
    (out, carry)
}

/// The signed sum of (p, p_top)·(−1)^pn and (q, q_top)·(−1)^qn, two values of N + 1 limbs,
/// as a magnitude and a sign; the callers know the sum's magnitude is below 2^(64·N).
fn signed_add<const N: usize>(
    p: &[u64; N],
    p_top: u64,
    pn: bool,
    q: &[u64; N],
    q_top: u64,
    qn: bool,
) -> ([u64; N], bool) {
    if pn == qn {
        return (add_limbs(p, q).0, pn);
    }
    let (r, borrow) = sub_limbs(p, q);
    let top = p_top.wrapping_sub(q_top).wrapping_sub(borrow);
    if top >> 63 == 1 {
        (sub_limbs(q, p).0, qn)
    } else {
        (r, pn)
    }
}

/// s·x + t·y for signed words s, t and signed values x = (−1)^xn·|x|, y = (−1)^yn·|y|
/// whose combination is known to be below 2^(64·N) in magnitude.
fn lin_comb<const N: usize>(
    x: &[u64; N],
    xn: bool,
    s: i128,
    y: &[u64; N],
    yn: bool,
    t: i128,
) -> ([u64; N], bool) {
    // Lehmer's cofactors are below 2^63 in magnitude.
    let (p, p_top) = mul_word(x, low_word(s.unsigned_abs()));
    let (q, q_top) = mul_word(y, low_word(t.unsigned_abs()));
    signed_add(&p, p_top, xn ^ (s < 0), &q, q_top, yn ^ (t < 0))
}

/// A cofactor of the extended Lehmer GCD: magnitude and sign.
type Cofactor<const N: usize> = ([u64; N], bool);

/// One Euclidean division step for a ≥ b > 0: (a mod b, ua − ⌊a/b⌋·ub) by shift and
/// subtract (variable time; the step Lehmer's algorithm takes when the leading words cannot
/// predict the quotient, which then is large).
fn div_step<const N: usize>(
    a: &[u64; N],
    b: &[u64; N],
    cof: Option<(&Cofactor<N>, &Cofactor<N>)>,
) -> ([u64; N], Option<Cofactor<N>>) {
    let shift = bit_len(a) - bit_len(b);
    let mut r = *a;
    let mut acc = [0u64; N];
    let mut i = shift + 1;
    while i > 0 {
        i -= 1;
        let bs = shl_vartime(b, i);
        if ge_vartime(&r, &bs) {
            r = sub_limbs(&r, &bs).0;
            if let Some((_, ub)) = cof {
                acc = add_limbs(&acc, &shl_vartime(&ub.0, i)).0;
            }
        }
    }
    let new = cof.map(|(ua, ub)| signed_add(&ua.0, 0, ua.1, &acc, 0, !ub.1));
    (r, new)
}

/// Lehmer's GCD of a ≥ b (Knuth, TAOCP vol. 2, §4.5.2, Algorithm L, with Collins' exact
/// quotient test on 63-bit leading parts; H. Cohen, "A Course in Computational Algebraic
/// Number Theory", Algorithm 1.3.7). With cofactors (ua, ub) it also returns u with
/// gcd ≡ u·x whenever a ≡ ua·x and b ≡ ub·x modulo some m.
fn lehmer_vartime<const N: usize>(
    mut a: [u64; N],
    mut b: [u64; N],
    mut cof: Option<(Cofactor<N>, Cofactor<N>)>,
) -> ([u64; N], Option<Cofactor<N>>) {
    while b.iter().any(|w| *w != 0) {
        // Leading 63 bits of a and the bits of b at the same position.
        let k = bit_len(&a).saturating_sub(63);
        let (mut ah, mut bh) = (word_at(&a, k) as i128, word_at(&b, k) as i128);
        let (mut ca, mut cb, mut cc, mut cd) = (1i128, 0i128, 0i128, 1i128);
        while bh != 0 {
            let (d1, d2) = (bh + cc, bh + cd);
            let (n1, n2) = (ah + ca, ah + cb);
            if d1 <= 0 || d2 <= 0 || n1 < 0 || n2 < 0 {
                break;
            }
            let q = n1 / d1;
            if q != n2 / d2 {
                break;
            }
            (ca, cc) = (cc, ca - q * cc);
            (cb, cd) = (cd, cb - q * cd);
            (ah, bh) = (bh, ah - q * bh);
        }
        if cb == 0 {
            let (r, ub) = div_step(&a, &b, cof.as_ref().map(|(ua, ub)| (ua, ub)));
            a = b;
            b = r;
            if let (Some((ua, old_ub)), Some(ub)) = (cof.as_mut(), ub) {
                *ua = *old_ub;
                *old_ub = ub;
            }
        } else {
            let (na, _) = lin_comb(&a, false, ca, &b, false, cb);
            let (nb, _) = lin_comb(&a, false, cc, &b, false, cd);
            a = na;
            b = nb;
            if let Some((ua, ub)) = cof.as_mut() {
                let nua = lin_comb(&ua.0, ua.1, ca, &ub.0, ub.1, cb);
                let nub = lin_comb(&ua.0, ua.1, cc, &ub.0, ub.1, cd);
                *ua = nua;
                *ub = nub;
            }
        }
    }
    (a, cof.map(|(ua, _)| ua))
}

/// gcd(x, y) of any two values below 2^(64·N) (little-endian limbs); gcd(x, 0) = x, so
/// gcd(0, 0) = 0. Variable time: for public values only (Lehmer's algorithm; Knuth, TAOCP
/// vol. 2, §4.5.2, Algorithm L). The secret-safe [`gcd`] is constant time.
pub fn gcd_vartime<const N: usize>(x: &[u64; N], y: &[u64; N]) -> [u64; N] {
    assert_limbs::<N>();
    let (a, b) = if ge_vartime(x, y) { (*x, *y) } else { (*y, *x) };
    lehmer_vartime(a, b, None).0
}

/// x⁻¹ mod m (plain little-endian limbs in and out) for any x < 2^(64·N) and any modulus
/// m ≥ 2, odd or even; none when m < 2 or gcd(x, m) ≠ 1. Variable time: for public values
/// only (Lehmer's extended GCD; Knuth, TAOCP vol. 2, §4.5.2, Algorithm L, with the cofactor
/// of x tracked). The secret-safe [`inv_mod`] is constant time.
pub fn inv_mod_vartime<const N: usize>(m: &[u64; N], x: &[u64; N]) -> Option<[u64; N]> {
    assert_limbs::<N>();
    if bit_len(m) < 2 {
        return None;
    }
    let xr = if ge_vartime(x, m) {
        div_step(x, m, None).0
    } else {
        *x
    };
    // m ≡ 0·x and x ≡ 1·x (mod m).
    let cof = (([0u64; N], false), (one_limbs::<N>(), false));
    let (g, u) = lehmer_vartime(*m, xr, Some(cof));
    if g != one_limbs::<N>() {
        return None;
    }
    let (mag, neg) = u?;
    // |u| < m; a negative cofactor is m − |u|.
    if neg && mag.iter().any(|w| *w != 0) {
        Some(sub_limbs(m, &mag).0)
    } else {
        Some(mag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_primes_table() {
        assert_eq!(SMALL_PRIMES[0], 3);
        assert_eq!(SMALL_PRIMES[170], 1021);
        assert!(SMALL_PRIMES.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn word_helpers() {
        for m in [1u64, 3, 5, 0xffff_ffff_ffff_ffff, 0x8000_0000_0000_0001] {
            assert_eq!(m.wrapping_mul(neg_inv_word(m)), u64::MAX);
        }
        for e in [3u64, 17, 65537, (1 << 62) - 57] {
            for a in [1u64, 2, 5, 12345, e - 1] {
                let a = a % e;
                if gcd_word(a, e) == 1 {
                    let inv = inv_word_ct(a, e);
                    assert_eq!((inv as u128 * a as u128) % e as u128, 1, "{a} mod {e}");
                }
            }
            // 2^128 − 1 = (2^64 − 1)(2^64 + 1).
            let want = low_word((u64::MAX % e) as u128 * ((1u128 << 64) + 1) % e as u128);
            assert_eq!(rem_word_ct(&[u64::MAX; 2], e), want);
            assert_eq!(rem_small_limbs(&[u64::MAX; 2], e), want);
        }
        assert_eq!(jacobi_word(2, 7), 1);
        assert_eq!(jacobi_word(3, 7), -1);
        assert_eq!(jacobi_word(7, 21), 0);
    }
}
