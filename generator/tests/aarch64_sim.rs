//! The AArch64 kernels (CIOS multiplication, CIOS squaring and the SOS squaring kernel that
//! `mont_square_aarch64` uses), before and after register allocation, run in the instruction simulator
//! and compared with num-bigint: random primes of 1..=8 limbs in eight shapes (top bit set, one
//! and more spare bits, top limb all ones, zero and all-ones limbs, n0' = 1, just below
//! 2^(64n)), special primes, every residency of the limbs in registers, and a register file cut
//! down until the allocation fails cleanly.

use generator::backend::aarch64::inst::Inst;
use generator::backend::aarch64::kernel::{kernel, residency, square_sos};
use generator::backend::aarch64::sim::{run_allocated, run_virtual};
use generator::backend::aarch64::{allocate, registers};
use generator::backend::aarch64::{mul_kernel, square_kernel, MAX_LIMBS};
use generator::spec::{is_probable_prime, FieldConsts, LimbBits};
use num_bigint::BigUint;

use fieldgen_test_support::{edge_values, from_limbs, prime_of_shape, SplitMix64 as Rng};

/// The shared edge operands below p (`fieldgen_test_support::edge_values`), then `random`
/// random ones.
fn inputs(rng: &mut Rng, c: &FieldConsts, random: usize) -> Vec<BigUint> {
    edge_values(rng, &c.modulus, &c.r, &c.r2, c.limbs, 64, random)
}

/// Checks both kernels of one prime, before and after allocation; with `all_residencies`, also
/// the kernels with fewer limbs kept in registers.
fn check_prime(rng: &mut Rng, p: &BigUint, random: usize, all_residencies: bool) {
    let c = FieldConsts::new(p, LimbBits::W64).unwrap();
    let r_inv = c.r.modpow(&(p - 2u32), p);
    let xs = inputs(rng, &c, random);
    let modulus = &c.modulus_limbs;
    let n0 = c.n0_inv;
    let mut kernels = vec![
        (mul_kernel(&c).program, false),
        (square_kernel(&c).program, true),
    ];
    if all_residencies {
        let all = residency(&c);
        for res in [all[all.len() / 2], all[all.len() - 1]] {
            kernels.push((kernel(&c, res, false), false));
            kernels.push((kernel(&c, res, true), true));
            kernels.push((square_sos(&c, res), true));
        }
    }
    let pool = registers();
    for (prog, square) in &kernels {
        let alloc = allocate(prog, &pool).expect("fits the register file");
        let pairs: Vec<(&BigUint, &BigUint)> = if *square {
            xs.iter().map(|a| (a, a)).collect()
        } else {
            let edges = xs.len() - random;
            let mut v: Vec<_> = xs[..edges.min(10)]
                .iter()
                .flat_map(|a| xs[..edges.min(10)].iter().map(move |b| (a, b)))
                .collect();
            v.extend(xs.iter().zip(xs.iter().rev()));
            v
        };
        for (a, b) in pairs {
            let want = a * b * &r_inv % p;
            let (la, lb) = (c.limbs_of(a), c.limbs_of(b));
            let ops: Vec<&[u64]> = if *square { vec![&la] } else { vec![&la, &lb] };
            let what = if *square { "square" } else { "mul" };
            let got = run_virtual(prog, &ops, modulus, n0)
                .unwrap_or_else(|e| panic!("virtual {what} p={p:#x} a={a:#x} b={b:#x}: {e}"));
            assert_eq!(
                from_limbs(&got),
                want,
                "virtual {what} p={p:#x} a={a:#x} b={b:#x}"
            );
            let got = run_allocated(&alloc, &ops, modulus, n0)
                .unwrap_or_else(|e| panic!("allocated {what} p={p:#x} a={a:#x} b={b:#x}: {e}"));
            assert_eq!(
                from_limbs(&got),
                want,
                "allocated {what} p={p:#x} a={a:#x} b={b:#x}"
            );
        }
    }
}

#[test]
fn random_primes_1_to_8_limbs() {
    let mut rng = Rng(0xa64);
    let mut count = 0;
    for n in 1..=MAX_LIMBS {
        for s in 0..16 {
            let p = prime_of_shape(&mut rng, n, s);
            assert_eq!(p.bits().div_ceil(64), n as u64);
            check_prime(&mut rng, &p, 6, s % 4 == 0);
            count += 1;
        }
    }
    assert!(count >= 128);
}

#[test]
fn special_primes() {
    let mut rng = Rng(0x5);
    let two = BigUint::from(2u32);
    let specials = [
        BigUint::from(3u32),
        two.pow(61) - 1u32,
        two.pow(64) - 59u32,
        two.pow(64) - two.pow(32) + 1u32,
        two.pow(127) - 1u32,
        two.pow(255) - 19u32,
        two.pow(256) - two.pow(32) - 977u32,
        two.pow(256) - two.pow(224) + two.pow(192) + two.pow(96) - 1u32,
        two.pow(384) - two.pow(128) - two.pow(96) + two.pow(32) - 1u32,
        two.pow(511) - 187u32,
    ];
    for p in &specials {
        assert!(is_probable_prime(p));
        check_prime(&mut rng, p, 16, true);
    }
}

/// A register file too small for any residency is an error, not a wrong kernel.
#[test]
fn too_few_registers_is_an_error() {
    let mut rng = Rng(0x9);
    let p = prime_of_shape(&mut rng, 4, 0);
    let c = FieldConsts::new(&p, LimbBits::W64).unwrap();
    let all = residency(&c);
    let prog = kernel(&c, all[all.len() - 1], false);
    assert!(allocate(&prog, &registers()[..4]).is_err());
}

/// Multiply counts: the 2n² products of CIOS as mul + umulh, the n quotients as mul, less the
/// low half of m·p[0] (never needed) in each of the n reductions; the 4-limb kernels keep every
/// limb in registers.
#[test]
fn counts_and_text() {
    let mut rng = Rng(0x77);
    for n in 1..=MAX_LIMBS {
        let p = prime_of_shape(&mut rng, n, 0);
        let c = FieldConsts::new(&p, LimbBits::W64).unwrap();
        assert!(c.modulus_limbs.iter().all(|l| *l != 0) && c.n0_inv != 1);
        let mul = mul_kernel(&c);
        let square = square_kernel(&c);
        assert_eq!(mul.multiplies(), 4 * n * n, "n = {n}");
        // SOS square: n(n − 1)/2 off-diagonal and n diagonal products, n² reduction products
        // (less the low half of m·p[0]) and n quotients.
        assert_eq!(square.multiplies(), 3 * n * n + n, "n = {n}");
        assert!(square.instructions() < mul.instructions(), "n = {n}");
        eprintln!(
            "n = {n}: mul {} instructions, {} registers, residency {:?}; square {} instructions",
            mul.instructions(),
            mul.alloc.pressure,
            mul.residency,
            square.instructions()
        );
        if n <= 4 {
            assert_eq!(mul.residency.b, n);
            assert_eq!(mul.residency.p, n);
        }
        let text: Vec<String> = mul.alloc.insts.iter().map(Inst::text).collect();
        assert!(text.iter().all(|l| !l.contains('{') && !l.contains('}')));
        assert!(text.iter().any(|l| l.starts_with("umulh ")));
        assert!(text.iter().any(|l| l.starts_with("csel ")));
    }
}
