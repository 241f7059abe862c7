//! The oracle suite for every RSA size: Montgomery multiplication and squaring, the wide
//! products, modular addition and subtraction, `modexp` and `modexp_vartime` against num-bigint,
//! on random moduli (top bit set, top byte just non-zero, near 2^N) with random and edge
//! operands and exponents. Portable: byte strings are big-endian by definition, and limbs are
//! compared through num-bigint, never through host memory.

use num_bigint::BigUint;
use num_traits::{One, Zero};

mod common;
use common::{Rng, Samplers};

fn be<const B: usize>(x: &BigUint) -> [u8; B] {
    let v = x.to_bytes_be();
    assert!(v.len() <= B);
    let mut out = [0u8; B];
    out[B - v.len()..].copy_from_slice(&v);
    out
}

fn big_of_limbs(limbs: &[u64]) -> BigUint {
    limbs.iter().rev().fold(BigUint::zero(), |acc, l| {
        (acc << 64usize) + BigUint::from(*l)
    })
}

fn limbs_of<const L: usize>(x: &BigUint) -> [u64; L] {
    let mut out = [0u64; L];
    for (i, d) in x.to_u64_digits().iter().enumerate() {
        out[i] = *d;
    }
    out
}

/// Moduli of N bits in several shapes: random with the top bit set, top byte 0x01 (the smallest
/// accepted), all ones, 2^N − 2^(N/2) + 1-like sparse, and random odd.
fn moduli(rng: &mut Rng, bits: usize) -> Vec<BigUint> {
    let bytes = bits / 8;
    let one = BigUint::one();
    let mut out = Vec::new();
    let mut v = rng.low_bytes(bytes);
    v[0] |= 0x80;
    v[bytes - 1] |= 1;
    out.push(BigUint::from_bytes_be(&v));
    let mut v = rng.low_bytes(bytes);
    v[0] = 1;
    v[bytes - 1] |= 1;
    out.push(BigUint::from_bytes_be(&v));
    out.push((&one << bits) - 1u32);
    out.push((&one << bits) - (&one << (bits / 2)) + 1u32);
    out.push((&one << (bits - 8)) + 1u32);
    let mut v = rng.low_bytes(bytes);
    v[0] |= 1;
    v[bytes - 1] |= 1;
    out.push(BigUint::from_bytes_be(&v));
    out
}

/// The Montgomery product variants a context offers (where the CPU allows; the register-window
/// kernels exist for sizes that are multiples of 8 limbs).
const VARIANTS: [&str; 4] = [
    "portable",
    "x86_64-adx-cios",
    "x86_64-adx-sos",
    "x86_64-adx-window",
];

macro_rules! rsa_suite {
    ($modname:ident, $ty:ty, $cases:expr, $exps:expr) => {
        mod $modname {
            use super::*;
            type M = $ty;
            const B: usize = <$ty>::BYTES;
            const L: usize = <$ty>::LIMBS;

            fn ctx(n: &BigUint) -> M {
                M::new(&be::<B>(n)).expect("odd modulus with a non-zero top byte")
            }

            /// On an x86-64 host with BMI2 and ADX, `mul`/`square` run the assembly and every
            /// variant can run, so the suite above checked the assembly (never skipped silently).
            #[test]
            fn backends() {
                #[cfg(target_arch = "x86_64")]
                {
                    if std::arch::is_x86_feature_detected!("bmi2")
                        && std::arch::is_x86_feature_detected!("adx")
                    {
                        assert_eq!(M::backend(), "x86_64-adx");
                        let m = M::new(&[0xff; B]).unwrap();
                        for v in VARIANTS {
                            let runs = v != "x86_64-adx-window" || L % 8 == 0;
                            assert_eq!(m.mul_with(v, &[1; L], &[2; L]).is_some(), runs, "{v}");
                            assert_eq!(m.square_with(v, &[1; L]).is_some(), runs, "{v}");
                        }
                        return;
                    }
                }
                assert_eq!(M::backend(), "portable64");
            }

            #[test]
            fn constants() {
                assert_eq!(B * 8, M::BITS as usize);
                assert_eq!(L * 64, M::BITS as usize);
            }

            #[test]
            fn new_refuses_even_and_short_moduli() {
                let mut rng = Rng(11);
                let mut v = rng.low_bytes(B);
                v[0] |= 0x80;
                v[B - 1] &= 0xfe;
                assert!(M::new(&v.clone().try_into().unwrap()).is_none(), "even");
                v[B - 1] |= 1;
                v[0] = 0;
                assert!(
                    M::new(&v.clone().try_into().unwrap()).is_none(),
                    "top byte zero"
                );
                v[0] = 1;
                assert!(M::new(&v.try_into().unwrap()).is_some());
            }

            #[test]
            fn montgomery_arithmetic_matches_num_bigint() {
                let mut rng = Rng(M::BITS as u64);
                for n in moduli(&mut rng, M::BITS as usize) {
                    let m = ctx(&n);
                    assert_eq!(big_of_limbs(m.modulus_limbs()), n);
                    assert_eq!(BigUint::from_bytes_be(&m.modulus_be()), n);
                    let r = BigUint::one() << M::BITS as usize;
                    let rinv = r.modinv(&n).unwrap();
                    assert_eq!(big_of_limbs(&m.one()), &r % &n);
                    let mut vals = vec![BigUint::zero(), BigUint::one(), &n - 1u32, &n - 2u32];
                    for _ in 0..$cases {
                        vals.push(rng.below_by_bytes(&n));
                    }
                    for (i, a) in vals.iter().enumerate() {
                        let b = &vals[(i * 7 + 3) % vals.len()];
                        let (al, bl) = (limbs_of::<L>(a), limbs_of::<L>(b));
                        // Raw Montgomery product and square of values below n.
                        let want = (a * b * &rinv) % &n;
                        assert_eq!(big_of_limbs(&m.mul(&al, &bl)), want, "mul");
                        assert_eq!(big_of_limbs(&m.square(&al)), (a * a * &rinv) % &n, "square");
                        for v in VARIANTS {
                            if let Some(x) = m.mul_with(v, &al, &bl) {
                                assert_eq!(big_of_limbs(&x), want, "mul {v}");
                            }
                            if let Some(x) = m.square_with(v, &al) {
                                assert_eq!(big_of_limbs(&x), (a * a * &rinv) % &n, "square {v}");
                            }
                        }
                        // Through the conversions.
                        let am = m.to_montgomery(&be::<B>(a));
                        let bm = m.to_montgomery(&be::<B>(b));
                        assert_eq!(big_of_limbs(&am), (a * &r) % &n, "to_montgomery");
                        let prod = m.from_montgomery(&m.mul(&am, &bm));
                        assert_eq!(BigUint::from_bytes_be(&prod), (a * b) % &n);
                        assert_eq!(big_of_limbs(&m.add_mod(&al, &bl)), (a + b) % &n, "add_mod");
                        assert_eq!(
                            big_of_limbs(&m.sub_mod(&al, &bl)),
                            (a + &n - b) % &n,
                            "sub_mod"
                        );
                        // Wide products of arbitrary N-bit values.
                        let x = BigUint::from_bytes_be(&rng.low_bytes(B));
                        let y = BigUint::from_bytes_be(&rng.low_bytes(B));
                        let (xl, yl) = (limbs_of::<L>(&x), limbs_of::<L>(&y));
                        assert_eq!(big_of_limbs(&M::mul_wide(&xl, &yl)), &x * &y, "mul_wide");
                        assert_eq!(big_of_limbs(&M::square_wide(&xl)), &x * &x, "square_wide");
                    }
                    // Values ≥ n (up to 2^N − 1) are reduced by to_montgomery.
                    let big_x = (BigUint::one() << M::BITS as usize) - 1u32;
                    let xm = m.to_montgomery(&be::<B>(&big_x));
                    assert_eq!(BigUint::from_bytes_be(&m.from_montgomery(&xm)), &big_x % &n);
                    // All-ones operands of the wide products (carry extremes).
                    let ones = [u64::MAX; L];
                    assert_eq!(big_of_limbs(&M::mul_wide(&ones, &ones)), &big_x * &big_x);
                    assert_eq!(big_of_limbs(&M::square_wide(&ones)), &big_x * &big_x);
                }
            }

            #[test]
            fn modexp_matches_num_bigint() {
                let mut rng = Rng(3 * M::BITS as u64);
                let mods = moduli(&mut rng, M::BITS as usize);
                for (k, n) in mods.iter().enumerate() {
                    let m = ctx(n);
                    let base = rng.below_by_bytes(n);
                    let bb = be::<B>(&base);
                    // Edge exponents: empty, 0, 1, 2, n − 1 (full length), and a random full one.
                    let mut exps: Vec<Vec<u8>> = vec![
                        vec![],
                        vec![0],
                        vec![1],
                        vec![0, 0, 2],
                        (n - 1u32).to_bytes_be(),
                    ];
                    for j in 0..$exps {
                        let len = if j == 0 {
                            B
                        } else {
                            1 + usize::try_from(rng.next_u64() % B as u64).unwrap()
                        };
                        exps.push(rng.low_bytes(len));
                    }
                    // Only the first modulus gets the long exponents: each costs N squarings.
                    if k > 0 {
                        exps.retain(|e| e.len() <= 16);
                        exps.push(rng.low_bytes(9));
                    }
                    for e in &exps {
                        let want = base.modpow(&BigUint::from_bytes_be(e), n);
                        let got = BigUint::from_bytes_be(&m.modexp(&bb, e));
                        assert_eq!(got, want, "modexp, exponent of {} bytes", e.len());
                        let got = BigUint::from_bytes_be(&m.modexp_vartime(&bb, e));
                        assert_eq!(got, want, "modexp_vartime, exponent of {} bytes", e.len());
                    }
                    // Public exponents 3 and 65537; bases 0, 1, n − 1 and ≥ n.
                    let top = (BigUint::one() << M::BITS as usize) - 1u32;
                    for b in [BigUint::zero(), BigUint::one(), n - 1u32, top, base.clone()] {
                        for e in [&[3u8][..], &[1, 0, 1][..]] {
                            let want = (&b % n).modpow(&BigUint::from_bytes_be(e), n);
                            let got = m.modexp_vartime(&be::<B>(&b), e);
                            assert_eq!(BigUint::from_bytes_be(&got), want, "vartime e={e:?}");
                            let got = m.modexp(&be::<B>(&b), e);
                            assert_eq!(BigUint::from_bytes_be(&got), want, "ct e={e:?}");
                        }
                    }
                }
            }
        }
    };
}

rsa_suite!(mont768, fieldgen_rsa::Mont768, 12, 2);
rsa_suite!(mont1024, fieldgen_rsa::Mont1024, 12, 2);
rsa_suite!(mont1536, fieldgen_rsa::Mont1536, 8, 1);
rsa_suite!(mont2048, fieldgen_rsa::Mont2048, 8, 1);
rsa_suite!(mont3072, fieldgen_rsa::Mont3072, 4, 1);
rsa_suite!(mont4096, fieldgen_rsa::Mont4096, 4, 1);
