//! The register-window BMI2/ADX kernels for a run-time modulus (`emit::x86_64::runtime`), before
//! and after register allocation, in the instruction simulator against num-bigint: products,
//! squares, reduction stripes run as a whole reduction, and the one-block Montgomery product and
//! square, on random odd moduli with the top bit set, the smallest accepted top byte, 2^N − 1
//! and sparse moduli, with edge operands (0, 1, n − 1, all-ones limbs, R − 1) and random ones.
//! The simulator faults on any read outside the buffers and any store outside the scratch.

use generator::backend::x86_64::program::{Pointer, VProgram};
use generator::backend::x86_64::regalloc::{allocate, REGISTERS};
use generator::backend::x86_64::runtime::{
    mont_kernel, mont_scratch, product_kernel, product_scratch, redc_stripe_kernel, square_kernel,
    stripe_pad,
};
use generator::backend::x86_64::sim::{run_allocated_regions, run_virtual_regions, Region};
use num_bigint::BigUint;
use num_traits::{One, Zero};

use fieldgen_test_support::{from_limbs, SplitMix64 as Rng};

fn limbs_of(x: &BigUint, n: usize) -> Vec<u64> {
    let mut v = x.to_u64_digits();
    assert!(v.len() <= n);
    v.resize(n, 0);
    v
}

fn moduli(rng: &mut Rng, n: usize) -> Vec<BigUint> {
    let one = BigUint::one();
    let bits = 64 * n;
    let mut out = Vec::new();
    let mut v = rng.limbs(n);
    v[n - 1] |= 1 << 63;
    v[0] |= 1;
    out.push(from_limbs(&v));
    let mut v = rng.limbs(n);
    v[n - 1] = (v[n - 1] & 0x00ff_ffff_ffff_ffff) | (1 << 56);
    v[0] |= 1;
    out.push(from_limbs(&v));
    out.push((&one << bits) - 1u32);
    out.push((&one << bits) - (&one << (bits / 2)) + 1u32);
    out.push((&one << (bits - 8)) + 1u32);
    out
}

fn operands(rng: &mut Rng, p: &BigUint, n: usize, random: usize) -> Vec<BigUint> {
    let mut v = vec![BigUint::zero(), BigUint::one(), p - 1u32, p - 2u32, p >> 1];
    for k in [1, n / 2, n - 1] {
        v.push((BigUint::one() << (64 * k)) - 1u32);
    }
    for _ in 0..random {
        v.push(rng.below(p));
    }
    v.into_iter().map(|x| x % p).collect()
}

/// Runs `prog` before and after allocation on the same regions; both must agree.
fn run(prog: &VProgram, regions: &[(Pointer, Region)]) -> Vec<Vec<u64>> {
    let v = run_virtual_regions(prog, regions).unwrap_or_else(|e| panic!("virtual: {e}"));
    let alloc = allocate(prog, &REGISTERS);
    let a = run_allocated_regions(&alloc, regions).unwrap_or_else(|e| panic!("allocated: {e}"));
    assert_eq!(v, a, "allocation changed the result");
    a
}

fn ro(words: Vec<u64>) -> Region {
    Region {
        words,
        at: 0,
        writable: false,
    }
}

fn scratch(len: usize, at: usize, rng: &mut Rng) -> Region {
    // Garbage in the scratch: kernels must not depend on its contents.
    Region {
        words: rng.limbs(len),
        at,
        writable: true,
    }
}

#[test]
fn products_and_squares() {
    let mut rng = Rng(0x5157_0001);
    for n in [16, 24, 32] {
        let mul = product_kernel(n);
        let sq = square_kernel(n);
        for p in moduli(&mut rng, n) {
            let ops = operands(&mut rng, &p, n, 3);
            let mut all_ones = vec![u64::MAX; n];
            all_ones[0] = u64::MAX;
            let mut pairs: Vec<(Vec<u64>, Vec<u64>)> = ops
                .iter()
                .zip(ops.iter().rev())
                .map(|(a, b)| (limbs_of(a, n), limbs_of(b, n)))
                .collect();
            pairs.push((all_ones.clone(), all_ones.clone()));
            for (a, b) in pairs {
                let want = from_limbs(&a) * from_limbs(&b);
                let out = run(
                    &mul,
                    &[
                        (Pointer::Operand(0), ro(a.clone())),
                        (Pointer::Operand(1), ro(b.clone())),
                        (Pointer::Scratch, scratch(product_scratch(n), 0, &mut rng)),
                    ],
                );
                assert_eq!(from_limbs(&out[2][..2 * n]), want, "product, n = {n}");
                let want = from_limbs(&a) * from_limbs(&a);
                let out = run(
                    &sq,
                    &[
                        (Pointer::Operand(0), ro(a.clone())),
                        (Pointer::Scratch, scratch(product_scratch(n), 0, &mut rng)),
                    ],
                );
                assert_eq!(from_limbs(&out[1][..2 * n]), want, "square, n = {n}");
            }
        }
    }
}

fn n0_of(p: &BigUint) -> u64 {
    let p0 = p.to_u64_digits()[0];
    let mut inv = p0;
    for _ in 0..6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(p0.wrapping_mul(inv)));
    }
    inv.wrapping_neg()
}

/// Reduces T (< p·R) by n/8 stripe kernels, as the emitted Rust loop does.
fn redc_by_stripes(prog: &VProgram, p: &BigUint, t: &BigUint, n: usize, rng: &mut Rng) -> BigUint {
    let pad = stripe_pad(n);
    let mut buf = rng.limbs(pad);
    buf.extend(limbs_of(t, 2 * n));
    let n0 = n0_of(p);
    let mut carry = 0u64;
    for s in 0..n / 8 {
        let o = pad + 8 * s;
        buf[o - 1] = n0;
        buf[o - 2] = carry;
        // The stripe sees its own window of the buffer: everything below o − pad is outside.
        let lo = o - pad;
        let hi = (o + n + 8).min(buf.len());
        let out = run(
            prog,
            &[
                (
                    Pointer::Scratch,
                    Region {
                        words: buf[lo..hi].to_vec(),
                        at: pad,
                        writable: true,
                    },
                ),
                (Pointer::Modulus, ro(limbs_of(p, n))),
            ],
        );
        buf[lo..hi].copy_from_slice(&out[0]);
        carry = buf[o - 2];
        assert!(carry <= 1, "carry word {carry}");
    }
    from_limbs(&buf[pad + n..pad + 2 * n]) + (BigUint::from(carry) << (64 * n))
}

#[test]
fn reduction_stripes() {
    let mut rng = Rng(0x5157_0002);
    for n in [16, 24, 32, 64] {
        let prog = redc_stripe_kernel(n);
        let r = BigUint::one() << (64 * n);
        for p in moduli(&mut rng, n) {
            let rinv = r.modinv(&p).expect("odd modulus");
            let mut ts = vec![
                BigUint::zero(),
                BigUint::one(),
                &p * &r - 1u32,
                &p * (&r - 1u32),
            ];
            let cases = if n == 64 { 2 } else { 4 };
            for _ in 0..cases {
                ts.push(rng.below(&(&p * &r)));
            }
            for t in ts {
                let got = redc_by_stripes(&prog, &p, &t, n, &mut rng);
                // SOS without the final subtraction: below 2p and congruent to t·R⁻¹.
                assert!(got < &p << 1u32, "n = {n}: result not below 2p");
                assert_eq!(&got % &p, (&t * &rinv) % &p, "n = {n}");
            }
        }
    }
}

#[test]
fn whole_montgomery_kernels() {
    let mut rng = Rng(0x5157_0003);
    for n in [16, 24] {
        let mul = mont_kernel(n, false);
        let sq = mont_kernel(n, true);
        let r = BigUint::one() << (64 * n);
        for p in moduli(&mut rng, n) {
            let rinv = r.modinv(&p).expect("odd modulus");
            let pl = limbs_of(&p, n);
            let ops = operands(&mut rng, &p, n, 4);
            for (a, b) in ops.iter().zip(ops.iter().rev()) {
                let (al, bl) = (limbs_of(a, n), limbs_of(b, n));
                let mut t = scratch(mont_scratch(n), 0, &mut rng);
                let last = t.words.len() - 1;
                t.words[last] = n0_of(&p);
                let out = run(
                    &mul,
                    &[
                        (Pointer::Operand(0), ro(al.clone())),
                        (Pointer::Operand(1), ro(bl.clone())),
                        (Pointer::Modulus, ro(pl.clone())),
                        (Pointer::Scratch, t.clone()),
                    ],
                );
                let want = (a * b * &rinv) % &p;
                assert_eq!(from_limbs(&out[3][..n]), want, "mul, n = {n}");
                let out = run(
                    &sq,
                    &[
                        (Pointer::Operand(0), ro(al.clone())),
                        (Pointer::Modulus, ro(pl.clone())),
                        (Pointer::Scratch, t),
                    ],
                );
                let want = (a * a * &rinv) % &p;
                assert_eq!(from_limbs(&out[2][..n]), want, "square, n = {n}");
            }
        }
    }
}
