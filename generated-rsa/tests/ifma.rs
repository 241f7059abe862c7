//! The AVX-512 IFMA exponentiation (radix 2^52) and its fallback against num-bigint, at every
//! size: `modexp` by each backend on edge moduli (top bit set, top byte 0x01, 2^N − 1, sparse,
//! 2^(N−8) + 1, a one-word modulus through `new_odd`), edge bases (0, 1, n − 1, n, n + 1,
//! 2^N − 1, random) and edge exponents (empty, 0, 1, 2, 2^16 − 1, full length random and all
//! ones), and the CRT private operation by each backend (one after the other, interleaved, and
//! the 64-bit fallback) against the CRT formula evaluated by num-bigint. On a CPU with
//! AVX-512F and IFMA the tests assert that the IFMA backend is the one `modexp` and
//! `private_op` take and that it ran; elsewhere they assert that it is refused.

mod common;

use common::{be, big_of_limbs, limbs_of, Rng, Samplers};
use num_bigint::BigUint;
use num_traits::One;

/// Whether this CPU (and OS) runs AVX-512F with IFMA, by the standard library's detection —
/// independent of the generated CPUID code.
fn cpu_has_ifma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512ifma")
            && std::is_x86_feature_detected!("avx512vl")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

const IFMA: &str = "x86_64-avx512ifma";

/// Moduli of N bits: random with the top bit set, top byte 0x01, 2^N − 1,
/// 2^N − 2^(N/2) + 1 and 2^(N−8) + 1.
fn moduli(rng: &mut Rng, bits: usize) -> Vec<BigUint> {
    let bytes = bits / 8;
    let one = BigUint::one();
    let mut v = rng.low_bytes(bytes);
    v[0] |= 0x80;
    v[bytes - 1] |= 1;
    let top = BigUint::from_bytes_be(&v);
    let mut v = rng.low_bytes(bytes);
    v[0] = 1;
    v[bytes - 1] |= 1;
    let small_top = BigUint::from_bytes_be(&v);
    vec![
        top,
        small_top,
        (&one << bits) - 1u32,
        (&one << bits) - (&one << (bits / 2)) + 1u32,
        (&one << (bits - 8)) + 1u32,
    ]
}

macro_rules! ifma_suite {
    ($modname:ident, $ty:ident, $key:ident, $bits:expr) => {
        mod $modname {
            use super::*;
            use fieldgen_rsa::{$key, $ty};
            const B: usize = $bits / 8;
            const L: usize = $bits / 64;

            /// modexp by every backend this CPU has, against num-bigint; returns how many
            /// results came from the IFMA backend.
            fn check(ctx: &$ty, n: &BigUint, base: &BigUint, exp: &[u8]) -> usize {
                let want = base.modpow(&BigUint::from_bytes_be(exp), n);
                let base_be = be::<B>(base);
                let got = BigUint::from_bytes_be(&ctx.modexp(&base_be, exp));
                assert_eq!(got, want, "modexp n={n:x} base={base:x} exp={exp:02x?}");
                let fallback = ctx.modexp_with("montgomery64", &base_be, exp).unwrap();
                assert_eq!(
                    BigUint::from_bytes_be(&fallback),
                    want,
                    "montgomery64 n={n:x} base={base:x}"
                );
                match ctx.modexp_with(IFMA, &base_be, exp) {
                    Some(r) => {
                        assert_eq!(
                            BigUint::from_bytes_be(&r),
                            want,
                            "ifma n={n:x} base={base:x} exp={exp:02x?}"
                        );
                        1
                    }
                    None => {
                        assert!(
                            !cpu_has_ifma(),
                            "the IFMA backend refused on a CPU that has IFMA"
                        );
                        0
                    }
                }
            }

            #[test]
            fn modexp_backends_against_num_bigint() {
                let mut rng = Rng($bits as u64 * 7 + 3);
                if cpu_has_ifma() {
                    assert_eq!($ty::modexp_backend(), IFMA);
                } else {
                    assert_ne!($ty::modexp_backend(), IFMA);
                }
                let all_ones_n = (BigUint::one() << $bits) - 1u32;
                let mut ran = 0;
                let mut total = 0;
                for n in moduli(&mut rng, $bits) {
                    let ctx = $ty::new(&be::<B>(&n)).expect("valid modulus");
                    let r = rng.below_by_bytes(&n);
                    let bases = [
                        BigUint::from(0u32),
                        BigUint::one(),
                        &n - 1u32,
                        n.clone(),
                        if n < all_ones_n {
                            &n + 1u32
                        } else {
                            BigUint::from(2u32)
                        },
                        all_ones_n.clone(),
                        r.clone(),
                    ];
                    let short: [&[u8]; 5] = [&[], &[0], &[1], &[2], &[0xff, 0xff]];
                    for base in &bases {
                        for e in short {
                            ran += check(&ctx, &n, base, e);
                            total += 1;
                        }
                    }
                    let full = rng.low_bytes(B);
                    let ones = vec![0xffu8; B];
                    for base in [&r, &(&n - 1u32)] {
                        for e in [&full, &ones] {
                            ran += check(&ctx, &n, base, e);
                            total += 1;
                        }
                    }
                    // n − 1 as exponent (a value with the modulus's bit pattern).
                    ran += check(&ctx, &n, &r, &be::<B>(&(&n - 1u32)));
                    total += 1;
                }
                // A one-word modulus through new_odd (no size condition): bases up to 2^N − 1.
                let small = BigUint::from(0xffff_fffbu64);
                let ctx = $ty::new_odd(&limbs_of::<L>(&small)).unwrap();
                for base in [
                    all_ones_n.clone(),
                    BigUint::from(0xffff_fffau64),
                    rng.below_by_bytes(&all_ones_n),
                ] {
                    ran += check(&ctx, &small, &base, &rng.low_bytes(B));
                    total += 1;
                }
                assert_eq!(ran, if cpu_has_ifma() { total } else { 0 });
            }

            #[test]
            fn crt_backends_against_num_bigint() {
                let mut rng = Rng($bits as u64 * 11 + 5);
                let e = 65537u64;
                let mut keys = 0;
                let mut ran = 0;
                while keys < 2 {
                    // Odd p, q with the top bit set; primality does not matter to the formula.
                    let mut pv = rng.low_bytes(B);
                    pv[0] |= 0x80;
                    pv[B - 1] |= 1;
                    let mut qv = rng.low_bytes(B);
                    qv[0] |= 0x80;
                    qv[B - 1] |= 1;
                    let (pb, qb): ([u8; B], [u8; B]) = (
                        pv.clone().try_into().unwrap(),
                        qv.clone().try_into().unwrap(),
                    );
                    let Some(key) = $key::from_primes(&pb, &qb, e) else {
                        continue;
                    };
                    keys += 1;
                    let (p, q) = (BigUint::from_bytes_be(&pv), BigUint::from_bytes_be(&qv));
                    let n = &p * &q;
                    let dp = BigUint::from_bytes_be(&key.dp);
                    let dq = BigUint::from_bytes_be(&key.dq);
                    let qinv = big_of_limbs(&key.qinv);
                    let max: BigUint = (BigUint::one() << (2 * $bits)) - 1u32;
                    for c in [
                        BigUint::from(0u32),
                        BigUint::one(),
                        &n - 1u32,
                        p.clone(),
                        q.clone(),
                        max.clone(),
                        rng.below_by_bytes(&n),
                    ] {
                        let mp = c.modpow(&dp, &p);
                        let mq = c.modpow(&dq, &q);
                        let h = ((&mp + &p - (&mq % &p)) * &qinv) % &p;
                        let want = &mq + &h * &q;
                        let c_be = be::<{ 2 * B }>(&c);
                        assert_eq!(
                            BigUint::from_bytes_be(&key.private_op(&c_be)),
                            want,
                            "private_op c={c:x}"
                        );
                        let fallback = key.private_op_with("montgomery64", &c_be).unwrap();
                        assert_eq!(
                            BigUint::from_bytes_be(&fallback),
                            want,
                            "montgomery64 c={c:x}"
                        );
                        for variant in [IFMA, "x86_64-avx512ifma-x2"] {
                            match key.private_op_with(variant, &c_be) {
                                Some(r) => {
                                    assert_eq!(
                                        BigUint::from_bytes_be(&r),
                                        want,
                                        "{variant} c={c:x}"
                                    );
                                    ran += 1;
                                }
                                None => {
                                    assert!(!cpu_has_ifma(), "{variant} refused on a CPU with IFMA")
                                }
                            }
                        }
                    }
                }
                assert_eq!(ran > 0, cpu_has_ifma());
                assert!(key_unknown_variant_refused());
            }

            fn key_unknown_variant_refused() -> bool {
                let n = (BigUint::one() << ($bits - 1)) + 1u32;
                let ctx = $ty::new(&be::<B>(&n)).unwrap();
                ctx.modexp_with("no-such-backend", &be::<B>(&n), &[1])
                    .is_none()
            }
        }
    };
}

ifma_suite!(s768, Mont768, Mont768CrtKey, 768);
ifma_suite!(s1024, Mont1024, Mont1024CrtKey, 1024);
ifma_suite!(s1536, Mont1536, Mont1536CrtKey, 1536);
ifma_suite!(s2048, Mont2048, Mont2048CrtKey, 2048);
ifma_suite!(s3072, Mont3072, Mont3072CrtKey, 3072);
ifma_suite!(s4096, Mont4096, Mont4096CrtKey, 4096);
