//! The RSA lowerings (Comba products and squares, the Karatsuba pieces, runtime-modulus
//! Montgomery reduction whole and by rows) through the IR interpreter, optimised and not,
//! against num-bigint on random and extreme operands.

use generator::ir::{interpret, Func};
use generator::pass::optimize;
use generator::strategy::{karatsuba, runtime};
use num_bigint::BigUint;
use num_traits::{One, Zero};

use fieldgen_test_support::SplitMix64 as Rng;

/// This file's sampler on the shared stream.
trait Samplers {
    /// `n` random `w`-bit limbs, sometimes all ones or all zeros (carry extremes).
    fn limbs_of_width(&mut self, n: usize, w: u32) -> Vec<u64>;
}

impl Samplers for Rng {
    fn limbs_of_width(&mut self, n: usize, w: u32) -> Vec<u64> {
        let mask = if w == 64 { u64::MAX } else { (1 << w) - 1 };
        match self.next_u64() % 6 {
            0 => vec![mask; n],
            1 => vec![0; n],
            _ => (0..n).map(|_| self.next_u64() & mask).collect(),
        }
    }
}

fn big(limbs: &[u64], w: u32) -> BigUint {
    limbs.iter().rev().fold(BigUint::zero(), |acc, l| {
        (acc << w as usize) + BigUint::from(*l)
    })
}

fn limbs_of(x: &BigUint, n: usize, w: u32) -> Vec<u64> {
    let mask = (BigUint::one() << w as usize) - 1u32;
    (0..n)
        .map(|i| {
            let l = (x >> (w as usize * i)) & &mask;
            l.to_u64_digits().first().copied().unwrap_or(0)
        })
        .collect()
}

fn both(f: &Func) -> [Func; 2] {
    [f.clone(), optimize(f)]
}

#[test]
fn comba_products_and_squares() {
    let mut rng = Rng(1);
    for w in [64u32, 32] {
        for k in [1usize, 2, 3, 5, 8, 12, 16] {
            for f in both(&karatsuba::lower_comba_mul(w, k)) {
                for _ in 0..20 {
                    let (a, b) = (rng.limbs_of_width(k, w), rng.limbs_of_width(k, w));
                    let out = interpret(&f, &[&a, &b]).unwrap();
                    assert_eq!(big(&out, w), big(&a, w) * big(&b, w), "mul w={w} k={k}");
                }
            }
            for f in both(&karatsuba::lower_comba_square(w, k)) {
                for _ in 0..20 {
                    let a = rng.limbs_of_width(k, w);
                    let out = interpret(&f, &[&a]).unwrap();
                    assert_eq!(big(&out, w), big(&a, w).pow(2), "square w={w} k={k}");
                }
            }
        }
    }
}

/// One Karatsuba level built from the pieces (sub_abs twice, three oracle products, combine).
#[test]
fn karatsuba_level() {
    let mut rng = Rng(2);
    for w in [64u32, 32] {
        for h in [1usize, 2, 3, 4, 6, 8] {
            let sub = both(&karatsuba::lower_sub_abs(w, h));
            let comb = both(&karatsuba::lower_karatsuba_combine(w, h));
            for v in 0..2 {
                for _ in 0..30 {
                    let (a, b) = (rng.limbs_of_width(2 * h, w), rng.limbs_of_width(2 * h, w));
                    let (a0, a1) = a.split_at(h);
                    let (b0, b1) = b.split_at(h);
                    let da = interpret(&sub[v], &[a0, a1]).unwrap();
                    let db = interpret(&sub[v], &[b1, b0]).unwrap();
                    let (ba0, ba1) = (big(a0, w), big(a1, w));
                    let want_da = if ba0 >= ba1 { &ba0 - &ba1 } else { &ba1 - &ba0 };
                    assert_eq!(big(&da[..h], w), want_da);
                    let mask = if w == 64 { u64::MAX } else { (1 << w) - 1 };
                    assert_eq!(da[h], if ba0 < ba1 { mask } else { 0 });
                    let z0 = limbs_of(&(big(a0, w) * big(b0, w)), 2 * h, w);
                    let z2 = limbs_of(&(big(a1, w) * big(b1, w)), 2 * h, w);
                    let z1 = limbs_of(&(big(&da[..h], w) * big(&db[..h], w)), 2 * h, w);
                    let neg = [da[h] ^ db[h]];
                    let out = interpret(&comb[v], &[&z0, &z2, &z1, &neg]).unwrap();
                    assert_eq!(big(&out, w), big(&a, w) * big(&b, w), "w={w} h={h}");
                    // Squaring: the middle term is z0 + z2 − (a0 − a1)².
                    let s0 = limbs_of(&(ba0.pow(2)), 2 * h, w);
                    let s2 = limbs_of(&(ba1.pow(2)), 2 * h, w);
                    let s1 = limbs_of(&(want_da.pow(2)), 2 * h, w);
                    let out = interpret(&comb[v], &[&s0, &s2, &s1, &[mask]]).unwrap();
                    assert_eq!(big(&out, w), big(&a, w).pow(2), "square w={w} h={h}");
                }
            }
        }
    }
}

/// Odd moduli with the top bit set, and small ones, for the runtime reduction.
fn modulus(rng: &mut Rng, n: usize, w: u32, shape: u64) -> Vec<u64> {
    let mut p = rng.limbs_of_width(n, w);
    if shape.is_multiple_of(2) {
        p[n - 1] |= 1 << (w - 1);
    } else {
        p[n - 1] = (p[n - 1] >> 7).max(1);
    }
    p[0] |= 1;
    p
}

fn n0(p0: u64, w: u32) -> u64 {
    let mut inv = p0;
    for _ in 0..6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(p0.wrapping_mul(inv)));
    }
    let neg = inv.wrapping_neg();
    if w == 64 {
        neg
    } else {
        neg & 0xffff_ffff
    }
}

#[test]
fn runtime_reduction_whole_and_by_rows() {
    let mut rng = Rng(3);
    for w in [64u32, 32] {
        for n in [1usize, 2, 3, 4, 7, 12] {
            let whole = both(&runtime::lower_redc(w, n));
            let row = both(&runtime::lower_redc_row(w, n));
            let finish = both(&runtime::lower_redc_finish(w, n));
            for shape in 0..20u64 {
                let p = modulus(&mut rng, n, w, shape);
                let pb = big(&p, w);
                let r = BigUint::one() << (w as usize * n);
                let rinv = r.modinv(&pb).unwrap();
                let k = [n0(p[0], w)];
                // t < p·R: a product of two values below p, or p·R − 1.
                let t = if shape == 7 {
                    &pb * &r - 1u32
                } else {
                    let a = big(&rng.limbs_of_width(n, w), w) % &pb;
                    let b = big(&rng.limbs_of_width(n, w), w) % &pb;
                    a * b
                };
                let tl = limbs_of(&t, 2 * n, w);
                let want = (&t * &rinv) % &pb;
                for v in 0..2 {
                    let out = interpret(&whole[v], &[&tl, &p, &k]).unwrap();
                    assert_eq!(big(&out, w), want, "whole w={w} n={n}");
                    let mut tt = tl.clone();
                    let mut ext = 0u64;
                    for i in 0..n {
                        let o = interpret(&row[v], &[&tt[i..i + n], &[tt[i + n], ext], &p, &k])
                            .unwrap();
                        tt[i + 1..i + 1 + n].copy_from_slice(&o[..n]);
                        ext = o[n];
                    }
                    let out = interpret(&finish[v], &[&tt[n..], &[ext], &p]).unwrap();
                    assert_eq!(big(&out, w), want, "rows w={w} n={n}");
                }
            }
        }
    }
}
