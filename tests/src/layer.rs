//! The field layer (`fieldgen-field`) as generic code sees it: every generated field driven
//! only through the `Field` / `PrimeField` / `BinaryField` / `WideField` traits and the
//! generated `const fn` constructors, compared with num-bigint (GF(p)) or [`Gf2Oracle`]
//! (GF(2^m)).
//!
//! [`field_layer_suite!`](crate::field_layer_suite) instantiates the GF(p) checks,
//! [`wide_field_suite!`](crate::wide_field_suite) the double-width ones for Montgomery-form
//! fields, and [`binary_layer_suite!`](crate::binary_layer_suite) the GF(2^m) ones.
//!
//! | check | what |
//! | --- | --- |
//! | `prime_ops` | `+ − × −x`, `square`, `double`, `square_n`, `invert`, `invert_vartime`, `sqrt`, `pow`, `legendre`, `is_odd`, `from_u64`, `mul_small`, `batch_invert` (the trait's) = oracle on edge and random values |
//! | `prime_hex` | `from_hex_vartime` (so `from_canonical`) = decoding of the oracle's bytes on edge and random values; refuses p, p + 1, the largest B-byte value, malformed strings |
//! | `wide` | `reduce_wide(mul_wide(a, b)) = a·b`, `square_wide`; the largest product (p − 1)² doubled by `add_wide` past p·R and negated by `sub_wide` (both wraps taken); sums and differences of 64 products; each reduced once = the oracle; `WIDE_HEADROOM` = its definition; `add_wide_unreduced` of up to that many products (p − 1)², `sub_wide_unreduced` back to zero, `mul_wide_sums` and a Karatsuba middle term through it, as exact integers and reduced |
//! | `binary` | trait ops = [`Gf2Oracle`]; `trace`, `solve_quadratic` (z² + z = c iff Tr(c) = 0); `from_hex_vartime` = the oracle's bytes; refuses degree ≥ m |

use fieldgen_field::{BinaryField, Field, PrimeField, WideField};
use num_bigint::BigUint;
use num_traits::{One, Zero};

use crate::binary::{binary_cases, Gf2Oracle, RandomElement, SplitMix};
use crate::oracle::{inverse_mod, legendre, parse_modulus, to_le_bytes};

fn decode<F: Field>(x: &BigUint) -> F {
    let mut bytes = F::Bytes::zeroed();
    let le = to_le_bytes(x, F::BYTES);
    bytes.as_mut().copy_from_slice(&le);
    Option::from(F::from_le_bytes(&bytes)).expect("a canonical value decodes")
}

fn value<F: Field>(x: &F) -> BigUint {
    BigUint::from_bytes_le(x.to_le_bytes().as_ref())
}

use fieldgen_field::ByteArray;

/// Edge values of GF(p) and `count` random ones.
fn prime_values(p: &BigUint, count: usize, seed: u64) -> Vec<BigUint> {
    let mut v = vec![
        BigUint::zero(),
        BigUint::one(),
        BigUint::from(2u32),
        p - 1u32,
        p - 2u32,
        p >> 1,
        (p >> 1) + 1u32,
    ];
    let bits = usize::try_from(p.bits()).unwrap();
    for k in [32usize, 64, bits - 1] {
        if k < bits {
            v.push((BigUint::one() << k) - 1u32);
            v.push(BigUint::one() << k);
        }
    }
    let mut rng = SplitMix(seed);
    for _ in 0..count {
        v.push(rng.element(bits + 64) % p);
    }
    v.into_iter().map(|x| x % p).collect()
}

/// `prime_ops` and `prime_hex` for field `F` of modulus `modulus` (as the test author wrote it).
pub fn prime<F: PrimeField>(modulus: &str, from_hex: fn(&str) -> Option<F>) {
    let p = parse_modulus(modulus).expect("modulus parses");
    assert_eq!(F::NUM_BITS as u64, p.bits());
    assert_eq!(BigUint::from_bytes_le(F::modulus_le_bytes().as_ref()), p);
    let xs = prime_values(&p, binary_cases(), 0x1a7e);
    let m = |a: &BigUint, b: &BigUint| (a * b) % &p;
    for (a, b) in xs.iter().zip(xs.iter().rev()) {
        let (fa, fb) = (decode::<F>(a), decode::<F>(b));
        assert_eq!(value(&(fa * fb)), m(a, b), "{a:#x} · {b:#x}");
        assert_eq!(value(&(fa + fb)), (a + b) % &p, "{a:#x} + {b:#x}");
        assert_eq!(value(&(fa - fb)), (a + &p - b) % &p, "{a:#x} − {b:#x}");
        assert_eq!(value(&(-fa)), (&p - a) % &p, "−{a:#x}");
        assert_eq!(value(&Field::square(&fa)), m(a, a));
        assert_eq!(value(&Field::double(&fa)), (a << 1u32) % &p);
        assert_eq!(value(&fa.square_n(3)), a.modpow(&BigUint::from(8u32), &p));
        let inv = Option::<F>::from(Field::invert(&fa)).map(|x| value(&x));
        assert_eq!(inv, inverse_mod(a, &p), "invert {a:#x}");
        let inv_vt = Field::invert_vartime(&fa).map(|x| value(&x));
        assert_eq!(inv_vt, inverse_mod(a, &p), "invert_vartime {a:#x}");
        let sq = m(a, a);
        let root = Option::<F>::from(Field::sqrt(&decode::<F>(&sq))).expect("a square has a root");
        assert_eq!(m(&value(&root), &value(&root)), sq, "sqrt of {sq:#x}");
        assert_eq!(PrimeField::legendre(&fa), legendre(a, &p));
        assert_eq!(bool::from(fa.is_odd()), a.bit(0));
        assert_eq!(bool::from(Field::is_zero(&fa)), a.is_zero());
        let e = [0x1234_5678_9abc_def1u64, 7];
        let eb = BigUint::from(7u32) << 64u32 | BigUint::from(e[0]);
        assert_eq!(value(&Field::pow(&fa, &e)), a.modpow(&eb, &p));
        assert_eq!(value(&Field::pow_vartime(&fa, &e)), a.modpow(&eb, &p));
        assert_eq!(
            value(&PrimeField::mul_small(&fa, 0xffff_fffd)),
            m(a, &BigUint::from(0xffff_fffdu32))
        );
    }
    for k in [0u64, 1, 2, u64::MAX] {
        assert_eq!(value(&F::from_u64(k)), BigUint::from(k) % &p);
    }
    let mut batch: Vec<F> = xs.iter().map(decode::<F>).collect();
    <F as Field>::batch_invert(&mut batch);
    for (x, got) in xs.iter().zip(&batch) {
        assert_eq!(
            value(got),
            inverse_mod(x, &p).unwrap_or_default(),
            "batch {x:#x}"
        );
    }
    // The const constructors, through `from_hex_vartime` (which calls `from_canonical`).
    for x in &xs {
        for text in [format!("0x{x:x}"), format!("{x:X}"), format!("0x00{x:x}")] {
            let got = from_hex(&text).unwrap_or_else(|| panic!("{text} refused"));
            assert_eq!(value(&got), *x, "{text}");
            assert!(got == decode::<F>(x));
        }
    }
    let too_big = (BigUint::one() << (8 * F::BYTES)) - 1u32;
    for bad in [p.clone(), &p + 1u32, too_big.clone(), too_big + 1u32] {
        assert!(
            from_hex(&format!("0x{bad:x}")).is_none(),
            "accepted {bad:#x}"
        );
    }
    for bad in ["", "0x", "0xg1", "12 34", "-1"] {
        assert!(from_hex(bad).is_none(), "accepted {bad:?}");
    }
}

/// `wide` for Montgomery-form field `F` whose n limbs are `limb_bits` wide (R = 2^(w·n));
/// `limbs` reads a wide value's limbs (the generated type's `limbs()`), so the unreduced
/// operations are checked as exact integers, not only modulo p.
pub fn wide<F: WideField>(modulus: &str, limb_bits: u32, limbs: impl Fn(&F::Wide) -> Vec<u64>) {
    let p = parse_modulus(modulus).expect("modulus parses");
    let n = p.bits().div_ceil(u64::from(limb_bits));
    let big_r = BigUint::one() << (n * u64::from(limb_bits));
    let r_inv = inverse_mod(&(&big_r % &p), &p).expect("R is invertible mod p");
    let xs = prime_values(&p, binary_cases(), 0x91de);
    let m = |a: &BigUint, b: &BigUint| (a * b) % &p;
    for (a, b) in xs.iter().zip(xs.iter().rev()) {
        let (fa, fb) = (decode::<F>(a), decode::<F>(b));
        assert_eq!(value(&F::reduce_wide(&F::mul_wide(&fa, &fb))), m(a, b));
        assert_eq!(value(&F::reduce_wide(&F::square_wide(&fa))), m(a, a));
        let d = F::sub_wide(&F::mul_wide(&fa, &fa), &F::mul_wide(&fb, &fb));
        assert_eq!(value(&F::reduce_wide(&d)), (m(a, a) + &p - m(b, b)) % &p);
    }
    // The element stored as p − 1 (value (p − 1)·R⁻¹): its square is the largest wide
    // product, (p − 1)². Doubling it by add_wide passes p·R after a few dozen steps, so the
    // wrap modulo p·R is taken; sub_wide from zero wraps the other way from the first step.
    let top_value = m(&(&p - 1u32), &r_inv);
    let top = decode::<F>(&top_value);
    let t0 = F::mul_wide(&top, &top);
    let v0 = m(&top_value, &top_value);
    assert_eq!(value(&F::reduce_wide(&t0)), v0);
    let (mut sum, mut neg) = (t0, F::sub_wide(&F::Wide::default(), &t0));
    let mut want = v0.clone();
    assert_eq!(value(&F::reduce_wide(&neg)), (&p - &want) % &p);
    let steps = 2 * n * u64::from(limb_bits) - p.bits() + 4;
    for k in 1..=steps {
        sum = F::add_wide(&sum, &sum);
        neg = F::add_wide(&neg, &neg);
        want = (&want << 1u32) % &p;
        assert_eq!(value(&F::reduce_wide(&sum)), want, "(p − 1)²·2^{k}");
        assert_eq!(
            value(&F::reduce_wide(&neg)),
            (&p - &want) % &p,
            "−(p − 1)²·2^{k}"
        );
    }
    // Sums and differences of many products of random values.
    let (mut acc, mut want) = (F::Wide::default(), BigUint::zero());
    for (x, y) in xs.iter().zip(xs.iter().cycle().skip(3)).take(64) {
        acc = F::add_wide(&acc, &F::mul_wide(&decode::<F>(x), &decode::<F>(y)));
        acc = F::sub_wide(&acc, &t0);
        want = (want + m(x, y) + &p - &v0) % &p;
        assert_eq!(value(&F::reduce_wide(&acc)), want);
    }
    wide_unreduced::<F>(&p, &big_r, &r_inv, &xs, limb_bits, &limbs);
}

/// The unreduced operations: `WIDE_HEADROOM` against its definition (the largest k with
/// k·(p − 1)² < p·R, or 1, the default, or `u32::MAX` when capped); `add_wide_unreduced` of up
/// to that many largest products (p − 1)² — the integer sum exactly, and reduced = the oracle;
/// `sub_wide_unreduced` back down to zero; when the headroom is at least 4 (the contract of
/// `mul_wide_sums`), `mul_wide_sums` = (ã0 + ã1)(b̃0 + b̃1) exactly (with every representative
/// p − 1: (2p − 2)²) and a Karatsuba middle term through it = ã0·b̃3 + ã1·b̃2, reduced =
/// a0·b1 + a1·b0.
fn wide_unreduced<F: WideField>(
    p: &BigUint,
    big_r: &BigUint,
    r_inv: &BigUint,
    xs: &[BigUint],
    limb_bits: u32,
    limbs: &impl Fn(&F::Wide) -> Vec<u64>,
) {
    let m = |a: &BigUint, b: &BigUint| (a * b) % p;
    let integer = |w: &F::Wide| {
        let mut v = BigUint::zero();
        for l in limbs(w).iter().rev() {
            v = (v << limb_bits) + *l;
        }
        v
    };
    let pm1 = p - 1u32;
    let h = F::WIDE_HEADROOM;
    let product = &pm1 * &pm1;
    let bound = p * big_r;
    if h == u32::MAX {
        assert!(BigUint::from(u32::MAX) * &product < bound);
    } else if h > 1 {
        assert!(
            BigUint::from(h) * &product < bound,
            "headroom {h} too large"
        );
        assert!(
            BigUint::from(h + 1) * &product >= bound,
            "headroom {h} not the largest"
        );
    }
    // The element whose Montgomery representative is p − 1.
    let top = decode::<F>(&m(&pm1, r_inv));
    let top_value = m(&pm1, r_inv);
    let t0 = F::mul_wide(&top, &top);
    assert_eq!(integer(&t0), product);
    let count = h.min(64);
    let mut sums = vec![t0];
    for k in 2..=count {
        let s = F::add_wide_unreduced(sums.last().unwrap(), &t0);
        assert_eq!(integer(&s), BigUint::from(k) * &product, "{k}·(p − 1)²");
        assert_eq!(
            value(&F::reduce_wide(&s)),
            (BigUint::from(k) * m(&top_value, &top_value)) % p
        );
        sums.push(s);
    }
    let mut d = sums.pop().unwrap();
    while let Some(s) = sums.pop() {
        d = F::sub_wide_unreduced(&d, &t0);
        assert_eq!(integer(&d), integer(&s));
    }
    assert!(integer(&F::sub_wide_unreduced(&d, &t0)).is_zero());
    // Karatsuba middle terms, the extreme representatives first.
    let mut quads: Vec<[BigUint; 4]> = vec![[pm1.clone(), pm1.clone(), pm1.clone(), pm1.clone()]];
    quads.push([pm1.clone(), BigUint::zero(), pm1.clone(), BigUint::one()]);
    for w in xs.windows(4).take(24) {
        quads.push([w[0].clone(), w[1].clone(), w[2].clone(), w[3].clone()]);
    }
    // Outside its contract below 4 (the product may exceed p·R).
    if h < 4 {
        return;
    }
    for q in &quads {
        // q holds Montgomery representatives; the elements are q·R⁻¹.
        let e: Vec<F> = q.iter().map(|x| decode::<F>(&m(x, r_inv))).collect();
        let vals: Vec<BigUint> = q.iter().map(|x| m(x, r_inv)).collect();
        let s = F::mul_wide_sums(&e[0], &e[1], &e[2], &e[3]);
        let want = m(&(&vals[0] + &vals[1]), &(&vals[2] + &vals[3]));
        assert_eq!(value(&F::reduce_wide(&s)), want);
        {
            assert_eq!(integer(&s), (&q[0] + &q[1]) * (&q[2] + &q[3]));
            let mid = F::sub_wide_unreduced(
                &F::sub_wide_unreduced(&s, &F::mul_wide(&e[0], &e[2])),
                &F::mul_wide(&e[1], &e[3]),
            );
            assert_eq!(integer(&mid), &q[0] * &q[3] + &q[1] * &q[2]);
            assert_eq!(
                value(&F::reduce_wide(&mid)),
                (m(&vals[0], &vals[3]) + m(&vals[1], &vals[2])) % p
            );
        }
    }
}

/// `binary` for GF(2^m) field `F` with f as the test author wrote it (`x^163+x^7+...`).
pub fn binary<F: BinaryField>(poly: &str, from_hex: fn(&str) -> Option<F>) {
    let o = Gf2Oracle::new(poly);
    assert_eq!(F::DEGREE as usize, o.m);
    let mut rng = SplitMix(0xb1a7);
    let mut xs = o.edge_values(64);
    for _ in 0..binary_cases() {
        xs.push(rng.element(o.m));
    }
    for (a, b) in xs.iter().zip(xs.iter().rev()) {
        let (fa, fb) = (decode::<F>(a), decode::<F>(b));
        assert_eq!(value(&(fa * fb)), o.mul(a, b));
        assert_eq!(value(&(fa + fb)), a ^ b);
        assert_eq!(value(&(fa - fb)), a ^ b);
        assert_eq!(value(&Field::square(&fa)), o.mul(a, a));
        assert!(bool::from(Field::is_zero(&Field::double(&fa))));
        // The oracle's a^(2^m − 2) is slow at large m: a·a⁻¹ = 1 by the oracle's product.
        let inv = Option::<F>::from(Field::invert(&fa)).map(|x| value(&x));
        assert_eq!(inv.is_some(), !a.is_zero());
        if let Some(i) = &inv {
            assert!(o.mul(a, i).is_one(), "a·a⁻¹ = 1 for a = {a:#x}");
        }
        assert_eq!(F::invert_vartime(&fa).map(|x| value(&x)), inv);
        let root = Option::<F>::from(Field::sqrt(&fa)).expect("every element is a square");
        // Squaring is a bijection, so the root squares back to a (the oracle's product).
        assert_eq!(o.mul(&value(&root), &value(&root)), *a);
        let tr = o.trace(a);
        assert_eq!(fa.trace().unwrap_u8(), tr);
        let z = Option::<F>::from(fa.solve_quadratic());
        assert_eq!(z.is_some(), tr == 0, "solvable iff Tr = 0");
        if let Some(z) = z {
            let z = value(&z);
            assert_eq!(o.mul(&z, &z) ^ z, *a, "z² + z = c");
        }
        let got = from_hex(&format!("0x{a:x}")).expect("a reduced polynomial is accepted");
        assert_eq!(value(&got), *a);
    }
    let mut batch: Vec<F> = xs.iter().map(decode::<F>).collect();
    <F as Field>::batch_invert(&mut batch);
    for (i, (x, got)) in xs.iter().zip(&batch).enumerate() {
        if x.is_zero() {
            assert!(value(got).is_zero());
        } else if i < 4 {
            assert_eq!(value(got), o.inverse(x));
        } else {
            assert!(o.mul(x, &value(got)).is_one());
        }
    }
    assert!(from_hex(&format!("0x{:x}", BigUint::one() << o.m)).is_none());
    assert!(from_hex("0xz").is_none());
}

/// Expands to a `#[test] fn $name` running [`prime`] on GF(p) type `$Field` with modulus
/// `$modulus` (a `&str` written by the test author).
#[macro_export]
macro_rules! field_layer_suite {
    ($name:ident, $Field:ty, $modulus:expr $(,)?) => {
        #[test]
        fn $name() {
            $crate::layer::prime::<$Field>($modulus, |s| <$Field>::from_hex_vartime(s));
        }
    };
}

/// Expands to a `#[test] fn $name` running [`wide`] on Montgomery-form type `$Field` with
/// `$limb_bits`-bit limbs.
#[macro_export]
macro_rules! wide_field_suite {
    ($name:ident, $Field:ty, $modulus:expr, $limb_bits:expr $(,)?) => {
        #[test]
        fn $name() {
            $crate::layer::wide::<$Field>($modulus, $limb_bits, |w| {
                w.limbs().iter().map(|&l| u64::from(l)).collect()
            });
        }
    };
}

/// Expands to a `#[test] fn $name` running [`binary`] on GF(2^m) type `$Field` with f
/// written as `x^163+x^7+x^6+x^3+1`.
#[macro_export]
macro_rules! binary_layer_suite {
    ($name:ident, $Field:ty, $poly:expr $(,)?) => {
        #[test]
        fn $name() {
            $crate::layer::binary::<$Field>($poly, |s| <$Field>::from_hex_vartime(s));
        }
    };
}
