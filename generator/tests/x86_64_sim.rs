//! The x86-64 BMI2/ADX kernels, before and after register allocation, run in the instruction
//! simulator and compared with num-bigint: hundreds of random primes of 1..=12 limbs in many
//! shapes (top bit set, one and more spare bits, top limb all ones, zero and all-ones limbs,
//! n0' = 1), edge and random inputs, with the full register file and with register files cut
//! down to force every spill path.

use generator::emit::x86_64::inst::{Inst, Reg};
use generator::emit::x86_64::regalloc::{allocate, REGISTERS};
use generator::emit::x86_64::sim::{run_allocated, run_virtual};
use generator::emit::x86_64::{mul_kernel, square_kernel, MAX_LIMBS};
use generator::spec::{is_probable_prime, FieldConsts, LimbBits};
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// Deterministic generator for test inputs (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn limbs(&mut self, n: usize) -> Vec<u64> {
        (0..n).map(|_| self.next()).collect()
    }

    fn below(&mut self, bound: &BigUint) -> BigUint {
        let n = bound.bits().div_ceil(64) as usize + 1;
        from_limbs(&self.limbs(n)) % bound
    }
}

fn from_limbs(l: &[u64]) -> BigUint {
    l.iter()
        .rev()
        .fold(BigUint::zero(), |acc, &x| (acc << 64usize) + x)
}

fn next_prime_up(mut x: BigUint) -> BigUint {
    if !x.bit(0) {
        x += 1u32;
    }
    while !is_probable_prime(&x) {
        x += 2u32;
    }
    x
}

fn next_prime_down(mut x: BigUint) -> BigUint {
    if !x.bit(0) {
        x -= 1u32;
    }
    while !is_probable_prime(&x) {
        x -= 2u32;
    }
    x
}

/// A prime of exactly `n` limbs in one of several shapes chosen by `shape`.
fn prime_of_shape(rng: &mut Rng, n: usize, shape: usize) -> BigUint {
    let bits = 64 * n;
    let mut l = rng.limbs(n);
    match shape % 8 {
        // Top bit set.
        0 => l[n - 1] |= 1 << 63,
        // One spare bit.
        1 => l[n - 1] = (l[n - 1] >> 1) | 1 << 62,
        // Two or more spare bits (no-carry territory), down to a few bits in the top limb.
        2 => {
            let s = 2 + (rng.next() % 61) as u32;
            l[n - 1] = (l[n - 1] >> s) | 1 << (63 - s);
        }
        // Top limb all ones.
        3 => l[n - 1] = u64::MAX,
        // Zero limbs in the middle (and possibly the top limb small).
        4 => {
            for x in l.iter_mut().take(n.saturating_sub(1)).skip(1) {
                *x = 0;
            }
            l[n - 1] |= 1 << (rng.next() % 64);
        }
        // All-ones limbs below a random top.
        5 => {
            for x in l.iter_mut().take(n - 1) {
                *x = u64::MAX;
            }
            l[n - 1] |= 1 << 63;
        }
        // n0' = 1: low limb 2^64 − 1.
        6 => {
            l[0] = u64::MAX;
            l[n - 1] |= 1 << (rng.next() % 64);
        }
        // Just below 2^(64n).
        _ => return next_prime_down((BigUint::one() << bits) - 1u32),
    }
    if l[n - 1] == 0 {
        l[n - 1] = 1;
    }
    // Search upwards but stay within n limbs; fall back downwards.
    let start = from_limbs(&l);
    let p = next_prime_up(start.clone());
    if p.bits() as usize <= bits {
        p
    } else {
        next_prime_down(start)
    }
}

fn inputs(rng: &mut Rng, c: &FieldConsts, random: usize) -> Vec<BigUint> {
    let p = &c.modulus;
    let mut v = vec![
        BigUint::zero(),
        BigUint::one(),
        BigUint::from(2u32),
        p - 1u32,
        p - 2u32,
        p >> 1,
        (p >> 1) + 1u32,
        c.r.clone(),
        c.r2.clone(),
    ];
    for k in 1..c.limbs {
        v.push((BigUint::one() << (64 * k)) - 1u32);
        v.push(BigUint::one() << (64 * k));
        v.push(p - (BigUint::one() << (64 * k)));
    }
    for _ in 0..random {
        v.push(rng.below(p));
    }
    v.into_iter().map(|x| x % p).collect()
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
            assert_eq!(p.bits().div_ceil(64) as usize, n);
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
        assert!(mul.alloc.insts.len() <= 8 * n * n + 40);
        assert_eq!(square.mulx(), n * (n - 1) / 2 + n + n * n);
        let _ = REGISTERS;
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
