//! The big-integer helpers against independent oracles: Baillie–PSW and its two halves against
//! num-prime and published lists of composites that fool weaker tests (Carmichael numbers, OEIS
//! A002997; strong pseudoprimes to the first prime bases, Jaeschke 1993 and Jiang–Deng 2014,
//! OEIS A014233; strong Lucas pseudoprimes with Selfridge's parameters, OEIS A217255), each
//! list entry re-verified here with num-bigint / num-prime before use; gcd and the
//! constant-time inverse against num-bigint; random primes against num-prime.

mod common;

use common::{be, big_of_limbs, limbs_of, Rng, Samplers};
use fieldgen_rsa::{Mont1024, Mont2048, Mont768};
use num_bigint::BigUint;
use num_integer::Integer;
use num_prime::nt_funcs::is_prime;
use num_prime::{PrimalityTestConfig, PrimalityUtils};
use num_traits::{One, ToPrimitive, Zero};

fn ctx768(n: &BigUint) -> Mont768 {
    Mont768::new_odd(&limbs_of::<12>(n)).expect("odd n ≥ 3")
}

fn small_factors(n: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let (mut m, mut d) = (n, 2);
    while d * d <= m {
        while m % d == 0 {
            out.push(d);
            m /= d;
        }
        d += 1;
    }
    if m > 1 {
        out.push(m);
    }
    out
}

const CARMICHAEL: [u64; 33] = [
    561, 1105, 1729, 2465, 2821, 6601, 8911, 10585, 15841, 29341, 41041, 46657, 52633, 62745,
    63973, 75361, 101101, 115921, 126217, 162401, 172081, 188461, 252601, 278545, 294409, 314821,
    334153, 340561, 399001, 410041, 449065, 488881, 512461,
];

/// (n, number of leading prime bases it is a strong pseudoprime to).
const STRONG_PSEUDOPRIMES: [(&str, usize); 7] = [
    ("3215031751", 4),
    ("2152302898747", 5),
    ("3474749660383", 6),
    ("341550071728321", 7),
    ("3825123056546413051", 9),
    ("318665857834031151167461", 12),
    ("3317044064679887385961981", 12),
];

const STRONG_LUCAS_PSEUDOPRIMES: [u64; 12] = [
    5459, 5777, 10877, 16109, 18971, 22499, 24569, 25199, 40309, 58519, 75077, 97439,
];

const PRIME_BASES: [u64; 13] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41];

fn mont_small(m: &Mont768, v: u64) -> [u64; 12] {
    let mut x = [0u64; 12];
    x[0] = v;
    m.to_montgomery_limbs(&x)
}

#[test]
fn carmichael_numbers_are_composite() {
    for &n in &CARMICHAEL {
        // Korselt: square-free, at least three factors, p − 1 | n − 1 for every p | n.
        let f = small_factors(n);
        assert!(f.len() >= 3 && f.windows(2).all(|w| w[0] != w[1]), "{n}");
        assert!(
            f.iter().all(|p| (n - 1) % (p - 1) == 0),
            "{n} fails Korselt"
        );
        let m = ctx768(&BigUint::from(n));
        assert!(!m.is_probable_prime_vartime(), "{n} passed BPSW");
        // Fermat-liars to every coprime base, but Lucas (and MR base 2) see through them.
        assert!(
            !(m.miller_rabin_vartime(&mont_small(&m, 2)) && m.strong_lucas_vartime()),
            "{n}"
        );
    }
}

#[test]
fn strong_pseudoprimes_fool_miller_rabin_not_bpsw() {
    for (s, k) in STRONG_PSEUDOPRIMES {
        let n: BigUint = s.parse().unwrap();
        // num-prime's default test adds random Miller–Rabin bases, which these numbers fool
        // now and then; its BPSW configuration is deterministic.
        assert!(
            !is_prime(&n, Some(PrimalityTestConfig::bpsw())).probably(),
            "{s} must be composite"
        );
        let m = ctx768(&n);
        for &b in &PRIME_BASES[..k] {
            assert!(n.is_sprp(BigUint::from(b)), "list: {s} is a spsp({b})");
            assert!(m.miller_rabin_vartime(&mont_small(&m, b)), "{s} base {b}");
        }
        assert!(!m.strong_lucas_vartime(), "{s}: strong Lucas");
        assert!(!m.is_probable_prime_vartime(), "{s} passed BPSW");
    }
}

#[test]
fn strong_lucas_pseudoprimes_fool_lucas_not_bpsw() {
    for &n in &STRONG_LUCAS_PSEUDOPRIMES {
        let nb = BigUint::from(n);
        assert!(small_factors(n).len() > 1, "{n} must be composite");
        assert!(
            nb.is_slprp(None, None),
            "list: {n} is a strong Lucas pseudoprime"
        );
        let m = ctx768(&nb);
        assert!(m.strong_lucas_vartime(), "{n}: strong Lucas");
        assert!(
            !m.miller_rabin_vartime(&mont_small(&m, 2)),
            "{n}: MR base 2"
        );
        assert!(!m.is_probable_prime_vartime(), "{n} passed BPSW");
    }
}

#[test]
fn small_numbers_and_special_primes_match_num_prime() {
    // Every odd n in [3, 3000) and around a few powers of two, against num-prime.
    let one = BigUint::one();
    let mut cases: Vec<BigUint> = (3u64..3000).step_by(2).map(BigUint::from).collect();
    for k in [61usize, 89, 107, 127, 521, 607, 700, 767] {
        for d in [1u32, 3, 5, 7, 9, 11, 13, 15] {
            cases.push((&one << k) - d);
            cases.push((&one << k) + d);
        }
    }
    // Squares of primes (perfect squares exercise the square check of the Lucas search).
    for p in [3u64, 5, 7, 11, 13, 1009, 65537, 4294967291] {
        cases.push(BigUint::from(p) * BigUint::from(p));
    }
    cases.push(BigUint::from(2u64).pow(127) - 1u32);
    for n in cases.iter().filter(|n| n.bits() <= 768) {
        let want = is_prime(n, None).probably();
        let m = ctx768(n);
        assert_eq!(m.is_probable_prime_vartime(), want, "{n}");
        if n > &BigUint::from(1100u32) {
            let two = mont_small(&m, 2);
            assert_eq!(
                m.miller_rabin_vartime(&two),
                n.is_sprp(BigUint::from(2u32)),
                "MR {n}"
            );
            if n.sqrt().pow(2) != *n {
                assert_eq!(
                    m.strong_lucas_vartime(),
                    n.is_slprp(None, None),
                    "Lucas {n}"
                );
            }
        }
    }
}

#[test]
fn random_values_match_num_prime() {
    let mut rng = Rng(41);
    let mut primes = 0;
    for i in 0..400 {
        let mut v = rng.low_bytes(96);
        v[0] |= 0x80;
        v[95] |= 1;
        // Make a fifth of them products of two ~384-bit values (no small factors).
        let n = if i % 5 == 0 {
            let p =
                num_prime::nt_funcs::next_prime(&BigUint::from_bytes_be(&v[..48]), None).unwrap();
            let q = num_prime::nt_funcs::next_prime(
                &(BigUint::from_bytes_be(&v[48..]) | (BigUint::one() << 383)),
                None,
            )
            .unwrap();
            p * q
        } else {
            BigUint::from_bytes_be(&v)
        };
        let m = ctx768(&n);
        let want = is_prime(&n, None).probably();
        primes += want as usize;
        assert_eq!(m.is_probable_prime_vartime(), want, "{n}");
    }
    let _ = primes;
}

#[test]
fn random_prime_and_crt_key() {
    let mut rng = Rng(7);
    let e = 65537u64;
    let p = Mont768::random_prime(&mut |b| rng.fill_low_bytes(b), e).unwrap();
    let pb = BigUint::from_bytes_be(&p);
    assert!(
        is_prime(&pb, None).probably(),
        "random_prime gave a composite"
    );
    assert!(pb.bits() == 768 && pb.bit(766));
    assert!((&pb - 1u32).gcd(&BigUint::from(e)).is_one());
    // Refused exponents and a dead random source give None, never a panic.
    assert!(Mont768::random_prime(&mut |b| rng.fill_low_bytes(b), 4).is_none());
    assert!(Mont768::random_prime(&mut |b| b.fill(0), 3).is_none());

    let key = Mont1024::generate_crt_key(&mut |b| rng.fill_low_bytes(b), e).unwrap();
    let p = BigUint::from_bytes_be(&key.p.modulus_be());
    let q = BigUint::from_bytes_be(&key.q.modulus_be());
    assert!(is_prime(&p, None).probably() && is_prime(&q, None).probably() && p != q);
    let n = &p * &q;
    assert_eq!(BigUint::from_bytes_be(&key.modulus_be()), n);
    assert_eq!(n.bits(), 2048);
    let eb = BigUint::from(e);
    let dp = eb.modinv(&(&p - 1u32)).unwrap();
    let dq = eb.modinv(&(&q - 1u32)).unwrap();
    assert_eq!(BigUint::from_bytes_be(&key.dp), dp);
    assert_eq!(BigUint::from_bytes_be(&key.dq), dq);
    assert_eq!(big_of_limbs(&key.qinv), q.modinv(&p).unwrap());
    // Private operation against num-bigint's c^d mod n, and the public operation back.
    let lambda = (&p - 1u32).lcm(&(&q - 1u32));
    let d = eb.modinv(&lambda).unwrap();
    let pubctx = Mont2048::new(&be::<256>(&n)).unwrap();
    for _ in 0..3 {
        let c = rng.below_by_bytes(&n);
        let m = BigUint::from_bytes_be(&key.private_op(&be::<256>(&c)));
        assert_eq!(m, c.modpow(&d, &n));
        let back = pubctx.modexp_vartime(&be::<256>(&m), &e.to_be_bytes());
        assert_eq!(BigUint::from_bytes_be(&back), c);
    }
}

#[test]
fn gcd_and_inverse_match_num_bigint() {
    let mut rng = Rng(5);
    for _ in 0..12 {
        let mut mb = rng.low_bytes(256);
        mb[0] |= 0x80;
        mb[255] |= 1;
        let m = BigUint::from_bytes_be(&mb);
        let ctx = Mont2048::new(&mb.clone().try_into().unwrap()).unwrap();
        // A value sharing a factor with m half of the time.
        let g = BigUint::from(rng.next_u64() | 1) * BigUint::from(rng.next_u64() % 1000 + 1);
        let x = if rng.next_u64().is_multiple_of(2) {
            rng.below_by_bytes(&m)
        } else {
            ((rng.below_by_bytes(&m) >> 80usize) * &g) % &m
        };
        let xl = limbs_of::<32>(&x);
        let got = Mont2048::gcd(&xl, &limbs_of::<32>(&m)).unwrap();
        assert_eq!(big_of_limbs(&got), x.gcd(&m));
        let inv: Option<[u64; 32]> = ctx.inv_mod(&xl).into();
        match x.modinv(&m) {
            Some(want) => assert_eq!(big_of_limbs(&inv.expect("invertible")), want),
            None => assert!(inv.is_none()),
        }
    }
    // Edge values: 0 (not invertible), 1, m − 1, and a value ≥ m.
    let m = (BigUint::one() << 2048usize) - 159u32;
    let ctx = Mont2048::new(&be::<256>(&m)).unwrap();
    for x in [BigUint::zero(), BigUint::one(), &m - 1u32, &m + 2u32] {
        let x = x % (BigUint::one() << 2048usize);
        let inv: Option<[u64; 32]> = ctx.inv_mod(&limbs_of::<32>(&x)).into();
        assert_eq!(inv.map(|v| big_of_limbs(&v)), x.modinv(&m), "{x}");
    }
    assert!(Mont2048::gcd(&[1; 32], &[2; 32]).is_none());
    let _ = BigUint::to_u64;
}
