//! `FpX4` (four lanes of GF(2^255 − 19) in radix 2^51 on AVX-512 IFMA) against num-bigint:
//! every lane operation on random inputs with limbs anywhere up to the documented bound
//! `FpX4::TIGHT` and on edge values (0, 1, p − 1, p, 2^255 − 1 as all-ones 51-bit limbs, every
//! limb at the bound), checking the value mod p, that every output limb stays within the bound,
//! and that encodings are canonical. On a CPU with AVX-512F/VL/IFMA (by the standard library's
//! detection) the test asserts that the type's own detection agrees and runs everything; on
//! other CPUs it asserts that detection refuses.

#![cfg(target_arch = "x86_64")]

use fieldgen_generated::curve25519_p_64::Fp;
use fieldgen_generated::curve25519_p_x4::{FpX4, FpX4Cpu};
use num_bigint::BigUint;
use num_traits::{One, Zero};

type Limbs = [[u64; 5]; 4];

fn p() -> BigUint {
    (BigUint::one() << 255u32) - 19u32
}

fn value(l: &[u64; 5]) -> BigUint {
    l.iter()
        .rev()
        .fold(BigUint::zero(), |acc, &x| (acc << 51u32) + x)
}

fn limbs_of(v: &BigUint) -> [u64; 5] {
    let mask = BigUint::from((1u64 << 51) - 1);
    let mut out = [0u64; 5];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u64::try_from((v >> (51 * i)) & &mask).unwrap();
    }
    out
}

use fieldgen_test_support::SplitMix64 as Rng;

/// This file's samplers on the shared stream.
trait Samplers {
    /// Limbs up to the bound: uniform below it, or one of the extremes near it.
    fn limb(&mut self) -> u64;
    /// Four lanes of such limbs.
    fn lanes(&mut self) -> Limbs;
}

impl Samplers for Rng {
    fn limb(&mut self) -> u64 {
        match self.next_u64() % 4 {
            0 => FpX4::TIGHT - self.next_u64() % 16,
            1 => self.next_u64() % (FpX4::TIGHT + 1),
            2 => (1 << 51) - 1 - self.next_u64() % 4,
            _ => self.next_u64() & ((1 << 51) - 1),
        }
    }
    fn lanes(&mut self) -> Limbs {
        let mut l = [[0u64; 5]; 4];
        for lane in l.iter_mut() {
            for x in lane.iter_mut() {
                *x = self.limb();
            }
        }
        l
    }
}

fn edges() -> Vec<[u64; 5]> {
    let p = p();
    let mut v: Vec<[u64; 5]> = [
        BigUint::zero(),
        BigUint::one(),
        &p - 1u32,
        p.clone(),
        &p + 1u32,
        (BigUint::one() << 255u32) - 1u32,
        BigUint::from(19u32),
    ]
    .iter()
    .map(limbs_of)
    .collect();
    v.push([FpX4::TIGHT; 5]);
    v.push([FpX4::TIGHT, 0, 0, 0, 0]);
    v.push([0, 0, 0, 0, FpX4::TIGHT]);
    v
}

fn check(what: &str, got: &FpX4, want: [BigUint; 4]) {
    let l = got.to_limbs();
    let p = p();
    for j in 0..4 {
        for &x in &l[j] {
            assert!(
                x <= FpX4::TIGHT,
                "{what}: lane {j} limb {x:#x} above the bound"
            );
        }
        assert_eq!(value(&l[j]) % &p, &want[j] % &p, "{what}: lane {j}");
        let bytes = got.to_le_bytes()[j];
        let enc = BigUint::from_bytes_le(&bytes);
        assert_eq!(enc, &want[j] % &p, "{what}: lane {j} encoding");
    }
}

fn run_all(cpu: FpX4Cpu, a: &Limbs, b: &Limbs, ks: [u32; 4]) {
    let p = p();
    let x = FpX4::from_limbs(cpu, a).expect("limbs within the bound");
    let y = FpX4::from_limbs(cpu, b).expect("limbs within the bound");
    let av: Vec<BigUint> = a.iter().map(value).collect();
    let bv: Vec<BigUint> = b.iter().map(value).collect();
    let each = |f: &dyn Fn(usize) -> BigUint| [f(0), f(1), f(2), f(3)];
    check("mul", &x.mul(&y), each(&|j| &av[j] * &bv[j]));
    check("square", &x.square(), each(&|j| &av[j] * &av[j]));
    check("add", &x.add(&y), each(&|j| &av[j] + &bv[j]));
    check(
        "sub",
        &x.sub(&y),
        each(&|j| &av[j] + &p * 4u32 - &bv[j] % &p),
    );
    for mask in [0u8, 0b1010, 0b0101, 0b1111, 0b0011] {
        check(
            "add_sub",
            &x.add_sub(&y, mask),
            each(&|j| {
                if mask >> j & 1 == 1 {
                    &av[j] + &p * 4u32 - &bv[j] % &p
                } else {
                    &av[j] + &bv[j]
                }
            }),
        );
        check(
            "blend",
            &x.blend(&y, mask),
            each(&|j| {
                if mask >> j & 1 == 1 {
                    bv[j].clone()
                } else {
                    av[j].clone()
                }
            }),
        );
    }
    check("mul_small", &x.mul_small(ks), each(&|j| &av[j] * ks[j]));
    check("carry", &x.carry(), each(&|j| av[j].clone()));
    // 0b01_00_11_10: lanes (2, 3, 0, 1).
    check(
        "permute",
        &x.permute::<0b01_00_11_10>(),
        each(&|j| av[[2, 3, 0, 1][j]].clone()),
    );
    check(
        "permute",
        &x.permute::<0b00_01_01_00>(),
        each(&|j| av[[0, 1, 1, 0][j]].clone()),
    );
    check(
        "select 0",
        &x.select(&y, 0.into()),
        each(&|j| av[j].clone()),
    );
    check(
        "select 1",
        &x.select(&y, 1.into()),
        each(&|j| bv[j].clone()),
    );
    // Round trips through bytes and the scalar field.
    let enc = x.to_le_bytes();
    check(
        "from_le_bytes",
        &FpX4::from_le_bytes(cpu, &enc),
        each(&|j| av[j].clone()),
    );
    let s = x.to_scalars();
    for j in 0..4 {
        assert_eq!(
            BigUint::from_bytes_le(&s[j].to_le_bytes()),
            &av[j] % &p,
            "to_scalars lane {j}"
        );
    }
    check(
        "from_scalars",
        &FpX4::from_scalars(cpu, &s),
        each(&|j| av[j].clone()),
    );
    // Chains of products and subtractions stay within the bound.
    check(
        "chain",
        &x.sub(&y).square().mul(&x.add(&y)).sub(&x.mul(&y)),
        each(&|j| {
            let (a, b) = (&av[j] % &p, &bv[j] % &p);
            let d = (&a + &p - &b) % &p;
            (&p - (&a * &b) % &p + (&d * &d % &p) * ((&a + &b) % &p)) % &p
        }),
    );
}

fn cpu_has_ifma() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx512ifma")
}

#[test]
fn lanes_against_num_bigint() {
    let Some(cpu) = FpX4Cpu::detect() else {
        assert!(
            !cpu_has_ifma(),
            "the CPU has AVX-512 IFMA but detection refused it"
        );
        eprintln!("no AVX-512 IFMA on this CPU: detection refuses, as it should");
        return;
    };
    assert!(
        cpu_has_ifma(),
        "detection accepted a CPU without AVX-512 IFMA"
    );
    let mut rng = Rng(0x4c41_4e45_5334);
    let e = edges();
    // Every pair of edge values, spread over the lanes.
    for (i, u) in e.iter().enumerate() {
        for (k, v) in e.iter().enumerate() {
            let a = [*u, *v, *u, e[(i + k) % e.len()]];
            let b = [*v, *u, e[(i * 3 + k) % e.len()], *v];
            run_all(cpu, &a, &b, [0, 1, 121665, u32::MAX]);
        }
    }
    for _ in 0..400 {
        let (a, b) = (rng.lanes(), rng.lanes());
        let ks = [
            (rng.next_u64() >> 32) as u32,
            (rng.next_u64() >> 47) as u32,
            u32::MAX,
            121666,
        ];
        run_all(cpu, &a, &b, ks);
    }
    // Limbs above the bound are refused.
    let mut a = [[0u64; 5]; 4];
    a[2][3] = FpX4::TIGHT + 1;
    assert!(FpX4::from_limbs(cpu, &a).is_none());
    // `run` enters the feature-enabled context and returns the closure's value.
    let one = FpX4::from_scalars(cpu, &[Fp::ONE; 4]);
    let got = cpu.run(|| one.mul(&one).add(&one).to_le_bytes());
    assert_eq!(got[3][0], 2);
}
