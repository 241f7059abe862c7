//! The RSA helpers of `fieldgen_field::rsa` against independent oracles: gcd and the
//! constant-time inverse against num-bigint (random odd moduli, the all-ones modulus, the
//! modulus with only its top bit and bit 0 set); Baillie–PSW and its halves on known primes,
//! Carmichael numbers (OEIS A002997, and a large Chernick number (6k+1)(12k+1)(18k+1)), strong
//! pseudoprimes to base 2 (OEIS A001262; Jaeschke 1993 and Jiang–Deng 2014, OEIS A014233;
//! composite Mersenne numbers 2^p − 1, p prime, which are all strong pseudoprimes to base 2)
//! and strong Lucas pseudoprimes (OEIS A217255), each property re-verified here with
//! num-bigint or num-prime before use; random primes, CRT exponents, key parts and the CRT
//! recombination against num-bigint.
//!
//! The contexts here are reference implementations on num-bigint (every Montgomery operation
//! is a plain big-integer formula with R⁻¹ mod n), so what is tested is the generic code of the
//! module, not a generated kernel.

use fieldgen_field::rsa::{
    crt_exponent, crt_modulus_be, crt_parts, crt_recombine, gcd, inv_mod,
    is_probable_prime_vartime, miller_rabin_vartime, neg_inv_word, odd_modulus_constants,
    pow_mod_ct, random_prime, random_prime_pair, reduce, reduce_wide, strong_lucas_vartime,
    wide_from_be, MontContext, SMALL_PRIMES,
};
use num_bigint::BigUint;
use num_integer::Integer;
use num_prime::nt_funcs::is_prime;
use num_prime::{PrimalityTestConfig, PrimalityUtils};
use num_traits::{One, Zero};

use fieldgen_test_support::SplitMix64 as Rng;

/// This file's samplers on the shared stream, one byte per output.
trait Samplers {
    /// A random value of `bits` bits at most.
    fn big(&mut self, bits: usize) -> BigUint;
    /// A value below `n`, 64 bits wider before the reduction.
    fn below_by_bytes(&mut self, n: &BigUint) -> BigUint;
}

impl Samplers for Rng {
    fn big(&mut self, bits: usize) -> BigUint {
        let mut v = vec![0u8; bits.div_ceil(8)];
        self.fill_low_bytes(&mut v);
        BigUint::from_bytes_be(&v) % (BigUint::one() << bits)
    }

    fn below_by_bytes(&mut self, n: &BigUint) -> BigUint {
        self.big(usize::try_from(n.bits()).unwrap() + 64) % n
    }
}

fn big(limbs: &[u64]) -> BigUint {
    limbs
        .iter()
        .rev()
        .fold(BigUint::zero(), |acc, &l| (acc << 64) + l)
}

fn limbs<const L: usize>(x: &BigUint) -> [u64; L] {
    let digits = x.to_u64_digits();
    assert!(digits.len() <= L, "{x} does not fit {L} limbs");
    let mut out = [0u64; L];
    out[..digits.len()].copy_from_slice(&digits);
    out
}

fn be<const B: usize>(x: &BigUint) -> [u8; B] {
    let v = x.to_bytes_be();
    assert!(v.len() <= B, "{x} does not fit {B} bytes");
    let mut out = [0u8; B];
    out[B - v.len()..].copy_from_slice(&v);
    out
}

fn is_prime_oracle(n: &BigUint) -> bool {
    is_prime(n, Some(PrimalityTestConfig::bpsw())).probably()
}

/// Whether 2 is a Fermat witness of n's compositeness: a proof that n is composite.
fn fermat_witness_2(n: &BigUint) -> bool {
    BigUint::from(2u32).modpow(&(n - 1u32), n) != BigUint::one()
}

/// A reference context on num-bigint for N limbs, B = 8N bytes, W = 2N limbs, WB = 16N bytes.
/// Accepts every odd modulus n ≥ 3 below 2^(64N).
macro_rules! reference_context {
    ($name:ident, $n:literal, $b:literal, $w:literal, $wb:literal) => {
        #[derive(Clone, Debug)]
        struct $name {
            p: [u64; $n],
            n: BigUint,
            /// R mod n.
            r: BigUint,
            /// R⁻¹ mod n.
            rinv: BigUint,
        }

        impl $name {
            fn of(n: &BigUint) -> Option<Self> {
                if n.is_even() || n < &BigUint::from(3u32) || n.bits() > 64 * $n {
                    return None;
                }
                let r_full = BigUint::one() << (64 * $n as usize);
                let r: BigUint = &r_full % n;
                let rinv = r.modinv(n).expect("n odd");
                Some($name {
                    p: limbs(n),
                    n: n.clone(),
                    r,
                    rinv,
                })
            }

            fn out(&self, x: BigUint) -> [u64; $n] {
                limbs(&(x % &self.n))
            }
        }

        impl MontContext<$n> for $name {
            type Bytes = [u8; $b];
            type Wide = [u64; $w];
            type WideBytes = [u8; $wb];

            fn new(modulus_be: &[u8; $b]) -> Option<Self> {
                Self::of(&BigUint::from_bytes_be(modulus_be))
            }
            fn modulus_limbs(&self) -> &[u64; $n] {
                &self.p
            }
            fn one(&self) -> [u64; $n] {
                self.out(self.r.clone())
            }
            fn to_montgomery_limbs(&self, x: &[u64; $n]) -> [u64; $n] {
                self.out(big(x) * &self.r)
            }
            fn from_montgomery_limbs(&self, a: &[u64; $n]) -> [u64; $n] {
                self.out(big(a) * &self.rinv)
            }
            fn mul(&self, a: &[u64; $n], b: &[u64; $n]) -> [u64; $n] {
                self.out(big(a) * big(b) * &self.rinv)
            }
            fn square(&self, a: &[u64; $n]) -> [u64; $n] {
                self.mul(a, a)
            }
            fn add_mod(&self, a: &[u64; $n], b: &[u64; $n]) -> [u64; $n] {
                self.out(big(a) + big(b))
            }
            fn sub_mod(&self, a: &[u64; $n], b: &[u64; $n]) -> [u64; $n] {
                self.out(big(a) + &self.n - big(b))
            }
            fn pow_ct(&self, base: &[u64; $n], exp_be: &[u8]) -> [u64; $n] {
                let x = big(base) * &self.rinv % &self.n;
                let y = x.modpow(&BigUint::from_bytes_be(exp_be), &self.n);
                self.out(y * &self.r)
            }
            fn pow_vartime(&self, base: &[u64; $n], exp_be: &[u8]) -> [u64; $n] {
                self.pow_ct(base, exp_be)
            }
            fn mul_wide(a: &[u64; $n], b: &[u64; $n]) -> [u64; $w] {
                limbs(&(big(a) * big(b)))
            }
            fn square_wide(a: &[u64; $n]) -> [u64; $w] {
                limbs(&(big(a) * big(a)))
            }
        }
    };
}

reference_context!(Ref64, 1, 8, 2, 16);
reference_context!(Ref128, 2, 16, 4, 32);
reference_context!(Ref256, 4, 32, 8, 64);
reference_context!(Ref768, 12, 96, 24, 192);

/// Odd moduli of `n` limbs: random ones (top bit set or not), all ones, 2^(64n−1) + 1, and
/// small ones.
fn odd_moduli(rng: &mut Rng, n: usize) -> Vec<BigUint> {
    let bits = 64 * n;
    let one = BigUint::one();
    let mut out = vec![
        (&one << bits) - 1u32,
        (&one << (bits - 1)) + 1u32,
        BigUint::from(3u32),
        BigUint::from(u64::MAX),
        (&one << 64) + 1u32,
    ];
    out.retain(|m| m.bits() <= bits as u64);
    for i in 0..8 {
        let mut m = rng.big(if i % 2 == 0 { bits } else { bits - 13 });
        m |= &one;
        if i % 4 == 0 {
            m |= &one << (bits - 1);
        }
        if m > one {
            out.push(m);
        }
    }
    out
}

/// Operands below 2^(64n): edge values (the slowest for the binary GCD among them), values sharing a factor with m, random values (also ≥ m).
fn operands(rng: &mut Rng, m: &BigUint, n: usize) -> Vec<BigUint> {
    let bits = 64 * n;
    let one = BigUint::one();
    let top = (&one << bits) - 1u32;
    let mut out = vec![
        BigUint::zero(),
        one.clone(),
        BigUint::from(2u32),
        m - 1u32,
        m.clone(),
        top.clone(),
        // A power of two: one of the longest runs of the binary GCD against a full-size m.
        &one << (bits - 1),
    ];
    for _ in 0..6 {
        out.push(rng.big(bits));
        out.push(rng.below_by_bytes(m));
    }
    // Multiples of small factors of m (3 divides the all-ones modulus, for one).
    for q in [3u32, 5, 7, 11, 13, 17, 257, 641, 65537] {
        if (m % q).is_zero() {
            out.push((rng.big(bits - 20) * q) % &top);
        }
    }
    out
}

fn check_gcd_inverse<const N: usize>(rng: &mut Rng) {
    for m in odd_moduli(rng, N) {
        let ml: [u64; N] = limbs(&m);
        for x in operands(rng, &m, N) {
            let xl: [u64; N] = limbs(&x);
            let g = gcd(&xl, &ml).expect("odd modulus");
            assert_eq!(big(&g), x.gcd(&m), "gcd({x}, {m})");
            let inv: Option<[u64; N]> = inv_mod(&ml, &xl).into();
            let want = (&x % &m).modinv(&m);
            assert_eq!(inv.map(|v| big(&v)), want, "{x}⁻¹ mod {m}");
        }
    }
    // Even moduli are refused.
    let mut even = [u64::MAX; N];
    even[0] = 2;
    assert!(gcd(&[1; N], &even).is_none());
    assert!(bool::from(inv_mod(&even, &[1; N]).is_none()));
    assert!(bool::from(inv_mod(&[0; N], &[1; N]).is_none()));
}

#[test]
fn gcd_and_inverse_match_num_bigint() {
    let mut rng = Rng(1);
    check_gcd_inverse::<1>(&mut rng);
    check_gcd_inverse::<2>(&mut rng);
    check_gcd_inverse::<3>(&mut rng);
    check_gcd_inverse::<4>(&mut rng);
    check_gcd_inverse::<12>(&mut rng);
    check_gcd_inverse::<32>(&mut rng);
}

fn check_constants<const N: usize>(rng: &mut Rng) {
    for m in odd_moduli(rng, N) {
        let (n0, one, r2) = odd_modulus_constants::<N>(&limbs(&m)).expect("odd m ≥ 3");
        let r = BigUint::one() << (64 * N);
        assert_eq!(big(&one), &r % &m, "R mod {m}");
        assert_eq!(big(&r2), (&r * &r) % &m, "R² mod {m}");
        let p0 = m.to_u64_digits()[0];
        assert_eq!(p0.wrapping_mul(n0), u64::MAX, "n0' of {m}");
        assert_eq!(neg_inv_word(p0), n0);
    }
    assert!(odd_modulus_constants::<N>(&limbs(&BigUint::one())).is_none());
    assert!(odd_modulus_constants::<N>(&limbs(&BigUint::from(10u32))).is_none());
}

#[test]
fn montgomery_constants_match_num_bigint() {
    let mut rng = Rng(2);
    check_constants::<1>(&mut rng);
    check_constants::<2>(&mut rng);
    check_constants::<4>(&mut rng);
    check_constants::<12>(&mut rng);
}

#[test]
fn reduce_matches_num_bigint() {
    let mut rng = Rng(3);
    for m in odd_moduli(&mut rng, 4) {
        let ctx = Ref256::of(&m).unwrap();
        for _ in 0..8 {
            let x = rng.big(256);
            assert_eq!(big(&reduce(&ctx, &limbs(&x))), &x % &m);
            let w = rng.big(512);
            assert_eq!(big(&reduce_wide(&ctx, &limbs(&w))), &w % &m);
        }
        let all = (BigUint::one() << 512) - 1u32;
        assert_eq!(big(&reduce_wide(&ctx, &limbs(&all))), &all % &m);
    }
}

#[test]
fn small_primes_table_matches_num_prime() {
    let want: Vec<u16> = (3u16..1024)
        .filter(|&q| is_prime_oracle(&BigUint::from(q)))
        .collect();
    assert_eq!(SMALL_PRIMES.to_vec(), want);
}

const CARMICHAEL: [u64; 16] = [
    561, 1105, 1729, 2465, 2821, 6601, 8911, 10585, 15841, 29341, 41041, 46657, 52633, 62745,
    63973, 75361,
];

/// Strong pseudoprimes to base 2 (OEIS A001262), and the smallest strong pseudoprimes to the
/// first k prime bases (Jaeschke 1993; Jiang–Deng 2014).
const SPSP2_U64: [u64; 12] = [
    2047,
    3277,
    4033,
    4681,
    8321,
    15841,
    29341,
    3215031751,
    2152302898747,
    3474749660383,
    341550071728321,
    3825123056546413051,
];
const SPSP2_BIG: [&str; 2] = ["318665857834031151167461", "3317044064679887385961981"];

/// Strong Lucas pseudoprimes with Selfridge's parameters (OEIS A217255).
const STRONG_LUCAS_PSEUDOPRIMES: [u64; 8] = [5459, 5777, 10877, 16109, 18971, 22499, 24569, 25199];

/// Miller–Rabin to base 2, strong Lucas and the whole Baillie–PSW test of the context's modulus.
fn bpsw_parts<M: MontContext<N>, const N: usize>(ctx: &M) -> (bool, bool, bool) {
    (
        miller_rabin_vartime(ctx, &mont_two(ctx)),
        strong_lucas_vartime(ctx),
        is_probable_prime_vartime(ctx),
    )
}

fn mont_two<M: MontContext<N>, const N: usize>(ctx: &M) -> [u64; N] {
    let one = ctx.one();
    ctx.add_mod(&one, &one)
}

#[test]
fn known_primes_pass() {
    let one = BigUint::one();
    for q in [
        3u64,
        5,
        1021,
        1031,
        65537,
        4294967291,
        (1 << 61) - 1,
        u64::MAX - 58,
    ] {
        let n = BigUint::from(q);
        assert!(is_prime_oracle(&n), "{q}");
        assert!(is_probable_prime_vartime(&Ref64::of(&n).unwrap()), "{q}");
    }
    // Mersenne primes 2^p − 1 and the Curve25519 prime.
    let mut big_primes: Vec<BigUint> = [89usize, 107, 127, 521, 607]
        .iter()
        .map(|&p| (&one << p) - 1u32)
        .collect();
    big_primes.push((&one << 255) - 19u32);
    for n in &big_primes {
        assert!(is_prime_oracle(n), "{n}");
        let ctx = Ref768::of(n).unwrap();
        assert!(is_probable_prime_vartime(&ctx), "{n}");
        assert!(miller_rabin_vartime(&ctx, &mont_two(&ctx)), "{n}");
        assert!(strong_lucas_vartime(&ctx), "{n}");
    }
    let n = (&one << 127) - 1u32;
    assert!(is_probable_prime_vartime(&Ref128::of(&n).unwrap()));
}

#[test]
fn carmichael_numbers_are_composite() {
    for &n in &CARMICHAEL {
        let nb = BigUint::from(n);
        // Fermat liars to base 2 where coprime, yet composite.
        assert!(!is_prime_oracle(&nb), "{n}");
        let ctx = Ref64::of(&nb).unwrap();
        assert!(!is_probable_prime_vartime(&ctx), "{n} passed BPSW");
        assert!(
            !(miller_rabin_vartime(&ctx, &mont_two(&ctx)) && strong_lucas_vartime(&ctx)),
            "{n}"
        );
    }
    // A large Chernick number (6k+1)(12k+1)(18k+1) with all three factors prime: a Carmichael
    // number by Korselt's criterion, a Fermat liar to every coprime base.
    let mut k = BigUint::one() << 90;
    let (a, b, c) = loop {
        let (a, b, c) = (&k * 6u32 + 1u32, &k * 12u32 + 1u32, &k * 18u32 + 1u32);
        if is_prime_oracle(&a) && is_prime_oracle(&b) && is_prime_oracle(&c) {
            break (a, b, c);
        }
        k += 1u32;
    };
    let n = &a * &b * &c;
    let nm1 = &n - 1u32;
    for f in [&a, &b, &c] {
        assert!((&nm1 % (f - 1u32)).is_zero(), "Korselt");
    }
    assert!(!fermat_witness_2(&n));
    let (_, _, bpsw) = bpsw_parts(&Ref768::of(&n).unwrap());
    assert!(!bpsw, "Chernick {n} passed BPSW");
}

#[test]
fn strong_pseudoprimes_to_base_2_fool_miller_rabin_not_bpsw() {
    let mut cases: Vec<BigUint> = SPSP2_U64.iter().map(|&n| BigUint::from(n)).collect();
    cases.extend(SPSP2_BIG.iter().map(|s| s.parse::<BigUint>().unwrap()));
    // Composite Mersenne numbers 2^p − 1, p prime: 2^p ≡ 1 and p | (2^(p−1) − 1) = d make
    // 2^d ≡ 1, so every one is a strong pseudoprime to base 2.
    let one = BigUint::one();
    for p in [
        11usize, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71, 257, 509, 523, 701, 751, 761,
    ] {
        cases.push((&one << p) - 1u32);
    }
    for n in &cases {
        assert!(n.is_sprp(BigUint::from(2u32)), "list: {n} is a spsp(2)");
        assert!(!is_prime_oracle(n), "{n} must be composite");
        let (mr, lucas, bpsw) = if n.bits() <= 64 {
            bpsw_parts(&Ref64::of(n).unwrap())
        } else if n.bits() <= 128 {
            bpsw_parts(&Ref128::of(n).unwrap())
        } else {
            bpsw_parts(&Ref768::of(n).unwrap())
        };
        assert!(mr, "{n}: Miller–Rabin to base 2");
        assert_eq!(lucas, n.is_slprp(None, None), "{n}: strong Lucas");
        assert!(!bpsw, "{n} passed BPSW");
    }
}

#[test]
fn strong_lucas_pseudoprimes_fool_lucas_not_bpsw() {
    for &n in &STRONG_LUCAS_PSEUDOPRIMES {
        let nb = BigUint::from(n);
        assert!(!is_prime_oracle(&nb), "{n} must be composite");
        assert!(
            nb.is_slprp(None, None),
            "list: {n} is a strong Lucas pseudoprime"
        );
        let ctx = Ref64::of(&nb).unwrap();
        assert!(strong_lucas_vartime(&ctx), "{n}: strong Lucas");
        assert!(
            !miller_rabin_vartime(&ctx, &mont_two(&ctx)),
            "{n}: MR base 2"
        );
        assert!(!is_probable_prime_vartime(&ctx), "{n} passed BPSW");
    }
}

#[test]
fn perfect_squares_fail_lucas() {
    for q in [1031u64, 65537, 4294967291] {
        let n = BigUint::from(q) * BigUint::from(q);
        assert!(!strong_lucas_vartime(&Ref64::of(&n).unwrap()), "{n}");
        assert!(!is_probable_prime_vartime(&Ref64::of(&n).unwrap()), "{n}");
    }
    let p = (BigUint::one() << 61) - 1u32;
    let n = &p * &p;
    assert!(!strong_lucas_vartime(&Ref128::of(&n).unwrap()));
}

#[test]
fn small_and_random_values_match_num_prime() {
    for n in (3u64..4000).step_by(2) {
        let nb = BigUint::from(n);
        let ctx = Ref64::of(&nb).unwrap();
        assert_eq!(is_probable_prime_vartime(&ctx), is_prime_oracle(&nb), "{n}");
        if n > 1100 {
            assert_eq!(
                miller_rabin_vartime(&ctx, &mont_two(&ctx)),
                nb.is_sprp(BigUint::from(2u32)),
                "MR {n}"
            );
            if nb.sqrt().pow(2) != nb {
                assert_eq!(
                    strong_lucas_vartime(&ctx),
                    nb.is_slprp(None, None),
                    "Lucas {n}"
                );
            }
        }
    }
    let mut rng = Rng(4);
    let mut primes = 0;
    for i in 0..300 {
        let mut n = rng.big(256) | BigUint::one();
        if i % 3 == 0 {
            // Primes and products of two primes, found by the oracle.
            n = num_prime::nt_funcs::next_prime(&(rng.big(200) | (BigUint::one() << 199)), None)
                .unwrap();
            if i % 2 == 0 {
                n *= num_prime::nt_funcs::next_prime(&rng.big(50), None).unwrap();
            }
        }
        let ctx = Ref256::of(&n).unwrap();
        let want = is_prime_oracle(&n);
        primes += want as usize;
        assert_eq!(is_probable_prime_vartime(&ctx), want, "{n}");
        assert_eq!(
            miller_rabin_vartime(&ctx, &mont_two(&ctx)),
            n.is_sprp(BigUint::from(2u32)),
            "MR {n}"
        );
    }
    assert!(primes > 20, "{primes} primes");
}

#[test]
fn random_primes_and_crt_key_match_num_bigint() {
    let mut rng = Rng(5);
    let e = 65537u64;
    for _ in 0..4 {
        let p = random_prime::<Ref128, 2>(&mut |b| rng.fill_low_bytes(b), e).unwrap();
        let pb = BigUint::from_bytes_be(&p);
        assert!(is_prime_oracle(&pb), "random_prime gave a composite: {pb}");
        assert!(pb.bits() == 128 && pb.bit(126));
        assert!((&pb - 1u32).gcd(&BigUint::from(e)).is_one());
    }
    // e = 3 forces p ≡ 2 (mod 3).
    let p = random_prime::<Ref128, 2>(&mut |b| rng.fill_low_bytes(b), 3).unwrap();
    assert_eq!(BigUint::from_bytes_be(&p) % 3u32, BigUint::from(2u32));
    // Refused exponents and a dead random source give None.
    assert!(random_prime::<Ref128, 2>(&mut |b| rng.fill_low_bytes(b), 4).is_none());
    assert!(random_prime::<Ref128, 2>(&mut |b| rng.fill_low_bytes(b), 1).is_none());
    // 2^64 − 1 is divisible by 3: a source of all-ones bytes never yields a candidate.
    assert!(random_prime::<Ref64, 1>(&mut |b| b.fill(0xff), 3).is_none());
    assert!(random_prime_pair::<Ref64, 1>(&mut |b| b.fill(0xff), 3).is_none());

    for e in [3u64, 17, 65537, (1 << 61) + 1] {
        let (p_be, q_be) =
            random_prime_pair::<Ref256, 4>(&mut |b| rng.fill_low_bytes(b), e).unwrap();
        let (p, q) = (BigUint::from_bytes_be(&p_be), BigUint::from_bytes_be(&q_be));
        assert!(is_prime_oracle(&p) && is_prime_oracle(&q) && p != q);
        let eb = BigUint::from(e);
        let dp = eb.modinv(&(&p - 1u32)).unwrap();
        let dq = eb.modinv(&(&q - 1u32)).unwrap();
        assert_eq!(big(&crt_exponent(&limbs::<4>(&p), e).unwrap()), dp);
        let parts = crt_parts::<Ref256, 4>(&p_be, &q_be, e).expect("valid key");
        assert_eq!(BigUint::from_bytes_be(&parts.dp), dp);
        assert_eq!(BigUint::from_bytes_be(&parts.dq), dq);
        assert_eq!(big(&parts.qinv), q.modinv(&p).unwrap());
        let n = &p * &q;
        assert_eq!(
            BigUint::from_bytes_be(&crt_modulus_be(&parts.p, &parts.q)),
            n
        );
        let d = eb.modinv(&(&p - 1u32).lcm(&(&q - 1u32))).unwrap();
        let top = (BigUint::one() << 512) - 1u32;
        for c in [
            rng.below_by_bytes(&n),
            BigUint::zero(),
            &n - 1u32,
            p.clone(),
            q.clone(),
            top,
        ] {
            let c_be: [u8; 64] = be(&c);
            let wide = wide_from_be::<Ref256, 4>(&c_be);
            assert_eq!(big(&wide), c);
            let cp = reduce_wide(&parts.p, &wide);
            let cq = reduce_wide(&parts.q, &wide);
            let mp = pow_mod_ct(&parts.p, &cp, &parts.dp);
            let mq = pow_mod_ct(&parts.q, &cq, &parts.dq);
            let m = crt_recombine(&parts.p, &parts.q, &parts.qinv, &mp, &mq);
            assert_eq!(BigUint::from_bytes_be(&m), (&c % &n).modpow(&d, &n), "{c}");
        }
        // Refusals: equal primes, even e, e ≥ 2^62, a factor shared with p − 1.
        assert!(crt_parts::<Ref256, 4>(&p_be, &p_be, e).is_none());
        assert!(crt_parts::<Ref256, 4>(&p_be, &q_be, e + 1).is_none());
        assert!(crt_exponent(&limbs::<4>(&p), 1 << 62 | 1).is_none());
    }
}

#[test]
fn crt_exponent_matches_num_bigint_on_many_exponents() {
    let mut rng = Rng(6);
    let p =
        num_prime::nt_funcs::next_prime(&(rng.big(768) | (BigUint::one() << 767)), None).unwrap();
    let pm1 = &p - 1u32;
    let pl: [u64; 12] = limbs(&p);
    for i in 0..200u64 {
        let e = match i {
            0 => 3,
            1 => (1 << 62) - 1,
            _ => (rng.next_u64() >> (2 + i % 60)) | 1,
        };
        if e < 3 {
            continue;
        }
        let want = BigUint::from(e).modinv(&pm1);
        assert_eq!(crt_exponent(&pl, e).map(|d| big(&d)), want, "e = {e}");
    }
}
