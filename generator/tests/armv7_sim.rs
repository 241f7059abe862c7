//! The ARMv7 kernels, before and after register allocation, run in the instruction simulator
//! and compared with num-bigint: random primes of 1..=16 32-bit limbs in eight shapes (top bit
//! set, one and more spare bits, top limb all ones, zero middle limbs, all-ones lower limbs,
//! n0' = 1, just below 2^(32n)), special primes, and the register-file and count checks.

use generator::backend::armv7::inst::Inst;
use generator::backend::armv7::kernel::kernel;
use generator::backend::armv7::sim::{run_allocated, run_virtual};
use generator::backend::armv7::{allocate, registers};
use generator::backend::armv7::{mul_kernel, square_kernel, unsupported, MAX_LIMBS};
use generator::spec::{is_probable_prime, FieldConsts, LimbBits};
use generator::strategy::MulAlgorithm;
use num_bigint::BigUint;

use fieldgen_test_support::{edge_values, prime_of_shape_32, SplitMix64 as Rng};

fn from_words(l: &[u32]) -> BigUint {
    BigUint::from_slice(l)
}

fn words(c: &FieldConsts, x: &BigUint) -> Vec<u32> {
    c.limbs_of(x)
        .iter()
        .map(|&l| u32::try_from(l).unwrap())
        .collect()
}

/// The shared edge operands below p (`fieldgen_test_support::edge_values`), then `random`
/// random ones.
fn inputs(rng: &mut Rng, c: &FieldConsts, random: usize) -> Vec<BigUint> {
    edge_values(rng, &c.modulus, &c.r, &c.r2, c.limbs, 32, random)
}

/// Checks both kernels of one prime, before and after allocation.
fn check_prime(rng: &mut Rng, p: &BigUint, random: usize) {
    let c = FieldConsts::new(p, LimbBits::W32).unwrap();
    assert!(unsupported(&c, MulAlgorithm::Cios).is_none());
    let r_inv = c.r.modpow(&(p - 2u32), p);
    let xs = inputs(rng, &c, random);
    let modulus: Vec<u32> = c
        .modulus_limbs
        .iter()
        .map(|&l| u32::try_from(l).unwrap())
        .collect();
    let n0 = u32::try_from(c.n0_inv).unwrap();
    for square in [false, true] {
        let prog = kernel(&c, square);
        let alloc = allocate(&prog, &registers()).expect("fits the register file");
        let pairs: Vec<(&BigUint, &BigUint)> = if square {
            xs.iter().map(|a| (a, a)).collect()
        } else {
            let edges = (xs.len() - random).min(10);
            let mut v: Vec<_> = xs[..edges]
                .iter()
                .flat_map(|a| xs[..edges].iter().map(move |b| (a, b)))
                .collect();
            v.extend(xs.iter().zip(xs.iter().rev()));
            v
        };
        let what = if square { "square" } else { "mul" };
        for (a, b) in pairs {
            let want = a * b * &r_inv % p;
            let (la, lb) = (words(&c, a), words(&c, b));
            let ops: Vec<&[u32]> = if square { vec![&la] } else { vec![&la, &lb] };
            let got = run_virtual(&prog, &ops, &modulus, n0)
                .unwrap_or_else(|e| panic!("virtual {what} p={p:#x} a={a:#x} b={b:#x}: {e}"));
            assert_eq!(
                from_words(&got),
                want,
                "virtual {what} p={p:#x} a={a:#x} b={b:#x}"
            );
            let got = run_allocated(&alloc, &ops, &modulus, n0)
                .unwrap_or_else(|e| panic!("allocated {what} p={p:#x} a={a:#x} b={b:#x}: {e}"));
            assert_eq!(
                from_words(&got),
                want,
                "allocated {what} p={p:#x} a={a:#x} b={b:#x}"
            );
        }
    }
}

#[test]
fn random_primes_1_to_16_limbs() {
    let mut rng = Rng(0xa7);
    let mut count = 0;
    for n in 1..=MAX_LIMBS {
        for s in 0..16 {
            let p = prime_of_shape_32(&mut rng, n, s);
            assert_eq!(p.bits().div_ceil(32), n as u64);
            check_prime(&mut rng, &p, 4);
            count += 1;
        }
    }
    assert!(count >= 256);
}

#[test]
fn special_primes() {
    let mut rng = Rng(0x7);
    let two = BigUint::from(2u32);
    let specials = [
        BigUint::from(3u32),
        two.pow(31) - 1u32,
        two.pow(32) - 5u32,
        two.pow(61) - 1u32,
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
        check_prime(&mut rng, p, 16);
    }
}

/// Above the limit and at 64-bit limbs the target refuses, naming why.
#[test]
fn limits() {
    let two = BigUint::from(2u32);
    let big = FieldConsts::new(&(two.pow(521) - 1u32), LimbBits::W32).unwrap();
    assert!(unsupported(&big, MulAlgorithm::Cios)
        .unwrap()
        .contains("up to 16 limbs"));
    let w64 = FieldConsts::new(&(two.pow(255) - 19u32), LimbBits::W64).unwrap();
    assert!(unsupported(&w64, MulAlgorithm::Cios).is_some());
    let c = FieldConsts::new(&(two.pow(255) - 19u32), LimbBits::W32).unwrap();
    assert!(unsupported(&c, MulAlgorithm::ProductScanning).is_some());
    assert!(unsupported(&c, MulAlgorithm::Sos).is_some_and(|why| why.contains("no sos kernel")));
    // A register file smaller than the kernel's live set is an error, not a wrong kernel.
    assert!(allocate(&kernel(&c, false), &registers()[..8]).is_err());
}

/// Counts: 2n² − n + (1 if no spare bit) `umaal` per row structure, n quotient `mul`s; 10
/// registers at most; the text is plain assembly.
#[test]
fn counts_and_text() {
    let mut rng = Rng(0x77);
    for n in 1..=MAX_LIMBS {
        let p = prime_of_shape_32(&mut rng, n, 0);
        let c = FieldConsts::new(&p, LimbBits::W32).unwrap();
        assert!(c.n0_inv != 1 && c.spare_bits == 0);
        let mul = mul_kernel(&c);
        let square = square_kernel(&c);
        // Row 0: umull + (2n − 1) umaal + 1 for the top bit; rows 1..n: 2n + 1 umaal.
        assert_eq!(
            mul.program.umaals(),
            2 * n + (n - 1) * (2 * n + 1),
            "n = {n}"
        );
        assert_eq!(mul.multiplies(), mul.program.umaals() + 1 + n, "n = {n}");
        assert!(mul.alloc.pressure <= 10, "n = {n}: {}", mul.alloc.pressure);
        eprintln!(
            "n = {n}: mul {} instructions, {} registers; square {} instructions",
            mul.instructions(),
            mul.alloc.pressure,
            square.instructions()
        );
        let text: Vec<String> = mul.alloc.insts.iter().map(Inst::text).collect();
        assert!(text.iter().all(|l| !l.contains('{') && !l.contains('}')));
        assert!(text.iter().any(|l| l.starts_with("umaal ")));
        assert!(text.iter().all(|l| !l.contains("r6")
            && !l.contains("r7")
            && !l.contains("r11")
            && !l.contains("sp")));
    }
}
