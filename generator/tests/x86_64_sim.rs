//! The x86-64 BMI2/ADX kernels, before and after register allocation, run in the instruction
//! simulator and compared with num-bigint: hundreds of random primes of 1..=12 limbs in many
//! shapes (top bit set, one and more spare bits, top limb all ones, zero and all-ones limbs,
//! n0' = 1), edge and random inputs, with the full register file and with register files cut
//! down to force every spill path.

use generator::backend::x86_64::inst::{Inst, Reg};
use generator::backend::x86_64::regalloc::{allocate, REGISTERS};
use generator::backend::x86_64::sim::{run_allocated, run_virtual};
use generator::backend::x86_64::{mul_kernel, square_kernel, MAX_LIMBS};
use generator::spec::{is_probable_prime, FieldConsts, LimbBits};
use num_bigint::BigUint;
use num_traits::{One, Zero};

use fieldgen_test_support::{edge_values, from_limbs, prime_of_shape, SplitMix64 as Rng};

/// The shared edge operands below p (`fieldgen_test_support::edge_values`), then `random`
/// random ones.
fn inputs(rng: &mut Rng, c: &FieldConsts, random: usize) -> Vec<BigUint> {
    edge_values(rng, &c.modulus, &c.r, &c.r2, c.limbs, 64, random)
}

/// Checks both kernels of one prime: before allocation, after allocation with every register,
/// and after allocation with each of `pools`.
fn check_prime(rng: &mut Rng, p: &BigUint, random: usize, pools: &[&[Reg]]) {
    let c = FieldConsts::new(p, LimbBits::W64).unwrap();
    let r_inv = c.r.modpow(&(p - 2u32), p);
    let xs = inputs(rng, &c, random);
    let mul = mul_kernel(&c);
    let square = square_kernel(&c);
    let n = c.limbs;
    assert_eq!(
        mul.mulx(),
        2 * n * n - n * c.modulus_limbs.iter().filter(|l| **l == 0).count(),
        "p = {p:#x}"
    );
    let allocs_mul: Vec<_> = std::iter::once(mul.alloc.clone())
        .chain(pools.iter().map(|pool| allocate(&mul.program, pool)))
        .collect();
    let allocs_square: Vec<_> = std::iter::once(square.alloc.clone())
        .chain(pools.iter().map(|pool| allocate(&square.program, pool)))
        .collect();
    let modulus = &c.modulus_limbs;
    let edges = xs.len() - random;
    let mut pairs: Vec<(&BigUint, &BigUint)> = xs[..edges.min(10)]
        .iter()
        .flat_map(|a| xs[..edges.min(10)].iter().map(move |b| (a, b)))
        .collect();
    pairs.extend(xs.iter().zip(xs.iter().rev()));
    for (a, b) in pairs {
        let want = a * b * &r_inv % p;
        let (la, lb) = (c.limbs_of(a), c.limbs_of(b));
        let got = run_virtual(&mul.program, &[&la, &lb], modulus)
            .unwrap_or_else(|e| panic!("mul p={p:#x} a={a:#x} b={b:#x}: {e}"));
        assert_eq!(
            from_limbs(&got),
            want,
            "virtual mul p={p:#x} a={a:#x} b={b:#x}"
        );
        for (k, alloc) in allocs_mul.iter().enumerate() {
            let got = run_allocated(alloc, &[&la, &lb], modulus)
                .unwrap_or_else(|e| panic!("mul (pool {k}) p={p:#x} a={a:#x} b={b:#x}: {e}"));
            assert_eq!(
                from_limbs(&got),
                want,
                "mul (pool {k}) p={p:#x} a={a:#x} b={b:#x}"
            );
        }
    }
    for a in &xs {
        let want = a * a * &r_inv % p;
        let la = c.limbs_of(a);
        let got = run_virtual(&square.program, &[&la], modulus)
            .unwrap_or_else(|e| panic!("square p={p:#x} a={a:#x}: {e}"));
        assert_eq!(from_limbs(&got), want, "virtual square p={p:#x} a={a:#x}");
        for (k, alloc) in allocs_square.iter().enumerate() {
            let got = run_allocated(alloc, &[&la], modulus)
                .unwrap_or_else(|e| panic!("square (pool {k}) p={p:#x} a={a:#x}: {e}"));
            assert_eq!(
                from_limbs(&got),
                want,
                "square (pool {k}) p={p:#x} a={a:#x}"
            );
        }
    }
}

const SMALL_POOL: &[Reg] = &[Reg::Rax, Reg::Rcx, Reg::Rsi, Reg::Rdi, Reg::Rbx];
const MEDIUM_POOL: &[Reg] = &[
    Reg::R8,
    Reg::R9,
    Reg::R10,
    Reg::Rbp,
    Reg::R11,
    Reg::Rbx,
    Reg::R12,
];

#[test]
fn random_primes_1_to_12_limbs() {
    let mut rng = Rng(0xad);
    let mut count = 0;
    for n in 1..=MAX_LIMBS {
        let per_n = if n <= 6 { 24 } else { 16 };
        for s in 0..per_n {
            let p = prime_of_shape(&mut rng, n, s);
            assert_eq!(p.bits().div_ceil(64), n as u64);
            let pools: &[&[Reg]] = if s % 4 == 0 {
                &[SMALL_POOL, MEDIUM_POOL]
            } else {
                &[]
            };
            check_prime(&mut rng, &p, 6, pools);
            count += 1;
        }
    }
    assert!(count >= 200);
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
        two.pow(521) - 1u32,
    ];
    for p in &specials {
        assert!(is_probable_prime(p));
        check_prime(&mut rng, p, 16, &[SMALL_POOL, MEDIUM_POOL]);
    }
}

/// Up to 6 limbs both kernels run in registers alone; beyond, the spills stay modest.
#[test]
fn register_pressure() {
    let mut rng = Rng(0x77);
    for n in 1..=MAX_LIMBS {
        let p = prime_of_shape(&mut rng, n, 0);
        let c = FieldConsts::new(&p, LimbBits::W64).unwrap();
        let mul = mul_kernel(&c);
        let square = square_kernel(&c);
        eprintln!(
            "n = {n:2}: mul {:4} instructions, {:3} mulx, {:2} slots, {:3} spill moves; square {:4} instructions, {:3} mulx, {:2} slots, {:3} spill moves",
            mul.instructions(),
            mul.mulx(),
            mul.alloc.slots,
            mul.alloc.spill_moves,
            square.instructions(),
            square.mulx(),
            square.alloc.slots,
            square.alloc.spill_moves
        );
        if n <= 6 {
            assert_eq!(mul.alloc.slots, 0, "mul n = {n}");
        }
        assert!(mul.alloc.insts.len() <= 9 * n * n + 40, "mul n = {n}");
        // Off-diagonal products once, the squares, the reduction; plus one mulx per two-word
        // quotient (when n0' ≠ 1).
        let pairs = if c.n0_inv == 1 { 0 } else { n / 2 };
        assert_eq!(square.mulx(), n * (n - 1) / 2 + n + n * n + pairs);
        assert!(REGISTERS.len() == 14);
    }
}

/// The printed instructions are plain Intel syntax with no template braces.
#[test]
fn printed_text() {
    let p = BigUint::parse_bytes(
        b"30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
        16,
    )
    .unwrap();
    let c = FieldConsts::new(&p, LimbBits::W64).unwrap();
    let mul = mul_kernel(&c);
    let text: Vec<String> = mul.alloc.insts.iter().map(Inst::text).collect();
    assert!(text.iter().all(|l| !l.contains('{') && !l.contains('}')));
    assert!(text.iter().any(|l| l.starts_with("mulx ")));
    assert!(text.iter().any(|l| l.starts_with("adox ")));
    assert!(text.iter().any(|l| l.starts_with("cmovc ")));
    assert_eq!(mul.mulx(), 32);
}

/// The double-width kernels (lazy reduction) against num-bigint, before and after allocation:
/// mul_wide = a·b and square_wide = a² as 2n words, reduce_wide(T) = T·R⁻¹ mod p for T from 0
/// to p·R − 1 (the products of the edge inputs, p·R − 1 itself, random values below p·R), on
/// primes of every shape and limb count the kernels are emitted for.
#[test]
fn wide_kernels_1_to_6_limbs() {
    use generator::backend::x86_64::wide::{
        mul_wide_kernel, reduce_wide_kernel, square_wide_kernel, MAX_WIDE_LIMBS,
    };
    let mut rng = Rng(0x3d);
    for n in 1..=MAX_WIDE_LIMBS {
        for s in 0..16 {
            let p = prime_of_shape(&mut rng, n, s);
            let c = FieldConsts::new(&p, LimbBits::W64).unwrap();
            let r_inv = c.r.modpow(&(&p - 2u32), &p);
            let pr = &p * &c.r;
            let mul = mul_wide_kernel(&c);
            let square = square_wide_kernel(&c);
            let reduce = reduce_wide_kernel(&c);
            let allocs = [
                allocate(&mul, &REGISTERS),
                allocate(&square, &REGISTERS),
                allocate(&reduce, &REGISTERS),
            ];
            let modulus = &c.modulus_limbs;
            let wide_limbs = |x: &BigUint| {
                let mut l = x.to_u64_digits();
                l.resize(2 * n, 0);
                l
            };
            let xs = inputs(&mut rng, &c, 4);
            let mut ts: Vec<BigUint> = vec![BigUint::zero(), &pr - 1u32, &pr - &p, p.clone()];
            for _ in 0..6 {
                ts.push(rng.below(&pr));
            }
            for (a, b) in xs.iter().zip(xs.iter().rev()) {
                let (la, lb) = (c.limbs_of(a), c.limbs_of(b));
                let want = a * b;
                ts.push(want.clone());
                let got = run_virtual(&mul, &[&la, &lb], modulus).unwrap();
                assert_eq!(
                    from_limbs(&got),
                    want,
                    "mul_wide p={p:#x} a={a:#x} b={b:#x}"
                );
                let got = run_allocated(&allocs[0], &[&la, &lb], modulus).unwrap();
                assert_eq!(from_limbs(&got), want, "allocated mul_wide p={p:#x}");
                let want = a * a;
                let got = run_virtual(&square, &[&la], modulus).unwrap();
                assert_eq!(from_limbs(&got), want, "square_wide p={p:#x} a={a:#x}");
                let got = run_allocated(&allocs[1], &[&la], modulus).unwrap();
                assert_eq!(from_limbs(&got), want, "allocated square_wide p={p:#x}");
            }
            for t in &ts {
                let lt = wide_limbs(t);
                let want = t * &r_inv % &p;
                let got = run_virtual(&reduce, &[&lt], modulus).unwrap();
                assert_eq!(from_limbs(&got), want, "reduce_wide p={p:#x} t={t:#x}");
                let got = run_allocated(&allocs[2], &[&lt], modulus).unwrap();
                assert_eq!(from_limbs(&got), want, "allocated reduce_wide p={p:#x}");
            }
        }
    }
}

/// The double-width product kernel on operands beyond p: the unreduced sums of two reduced
/// values (up to 2p − 2, what `mul_wide_sums` passes it) and any n-word values up to
/// 2^(64n) − 1 (every limb all ones). Its schoolbook rows are exact for every n-word operand;
/// checked before and after allocation against num-bigint.
#[test]
fn wide_product_kernel_full_width_operands() {
    use generator::backend::x86_64::wide::{mul_wide_kernel, MAX_WIDE_LIMBS};
    let mut rng = Rng(0x5a11);
    for n in 1..=MAX_WIDE_LIMBS {
        for s in 0..8 {
            let p = prime_of_shape(&mut rng, n, s);
            let c = FieldConsts::new(&p, LimbBits::W64).unwrap();
            let mul = mul_wide_kernel(&c);
            let alloc = allocate(&mul, &REGISTERS);
            let full = (BigUint::one() << (64 * n)) - 1u32;
            let two_p = &p << 1;
            let mut xs = vec![full.clone(), &full - 1u32, BigUint::zero(), p.clone()];
            if two_p <= full {
                xs.push(&two_p - 2u32);
                xs.push(&two_p - 1u32);
            }
            for _ in 0..4 {
                xs.push(rng.below(&(&full + 1u32)));
            }
            let limbs = |x: &BigUint| {
                let mut l = x.to_u64_digits();
                l.resize(n, 0);
                l
            };
            for a in &xs {
                for b in &xs {
                    let (la, lb) = (limbs(a), limbs(b));
                    let want = a * b;
                    let got = run_virtual(&mul, &[&la, &lb], &c.modulus_limbs).unwrap();
                    assert_eq!(
                        from_limbs(&got),
                        want,
                        "mul_wide p={p:#x} a={a:#x} b={b:#x}"
                    );
                    let got = run_allocated(&alloc, &[&la, &lb], &c.modulus_limbs).unwrap();
                    assert_eq!(from_limbs(&got), want, "allocated mul_wide p={p:#x}");
                }
            }
        }
    }
}
