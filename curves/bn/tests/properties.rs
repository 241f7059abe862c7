//! Properties on all four curves, against oracles independent of the code under test: the
//! tower against a slow reference over num-bigint written here (Fp12 as polynomials in w of
//! degree < 12 over Fp2 with w⁶ = ξ, Frobenius as the p-th power by square-and-multiply), the
//! group law against the defining equations (r·P = O, ψ = multiplication by p on G2), and the
//! pairing against bilinearity, non-degeneracy, e^r = 1 and the multi-pairing product.
//!
//! `FIELDGEN_FULL=1` runs more random cases.

use fieldgen_bn::groups::{psi, G1Encoding};
use fieldgen_bn::pairing::gt_pow;
use fieldgen_bn::{
    final_exponentiation, multi_miller_loop_prepared, multi_pairing, pairing, pairing_prepared,
    pairing_product_is_one, Bn254, Bn381, Bn462, BnParams, Error, Fp12, Fp2, Fp254Bnb, Fp6,
    G1Affine, G1Projective, G2Affine, G2Prepared, G2Projective, G2SubgroupCheck,
};
use fieldgen_field::{ByteArray, Field, PrimeField};
use num_bigint::BigUint;
use num_traits::{One, Zero};

mod common;
use common::*;

/// The slow reference: an Fp2 value as (a, b) = a + b·i, an Fp12 value as 6 Fp2
/// coefficients of w^0..w^5.
type R2 = (BigUint, BigUint);
struct Ref {
    p: BigUint,
    xi: R2,
}
impl Ref {
    fn new<C: BnParams>() -> Ref {
        Ref {
            p: p_of::<C>(),
            xi: (BigUint::from(C::XI_A), BigUint::one()),
        }
    }
    fn add2(&self, x: &R2, y: &R2) -> R2 {
        ((&x.0 + &y.0) % &self.p, (&x.1 + &y.1) % &self.p)
    }
    fn mul2(&self, x: &R2, y: &R2) -> R2 {
        let p = &self.p;
        (
            (&x.0 * &y.0 + p * p - (&x.1 * &y.1)) % p,
            (&x.0 * &y.1 + &x.1 * &y.0) % p,
        )
    }
    fn mul12(&self, x: &[R2; 6], y: &[R2; 6]) -> [R2; 6] {
        let zero = (BigUint::zero(), BigUint::zero());
        let mut out: [R2; 6] = core::array::from_fn(|_| zero.clone());
        for (i, xi) in x.iter().enumerate() {
            for (j, yj) in y.iter().enumerate() {
                let mut t = self.mul2(xi, yj);
                let k = i + j;
                if k >= 6 {
                    t = self.mul2(&t, &self.xi);
                }
                out[k % 6] = self.add2(&out[k % 6], &t);
            }
        }
        out
    }
    fn pow12(&self, x: &[R2; 6], e: &BigUint) -> [R2; 6] {
        let mut acc: [R2; 6] = core::array::from_fn(|k| {
            if k == 0 {
                (BigUint::one(), BigUint::zero())
            } else {
                (BigUint::zero(), BigUint::zero())
            }
        });
        for i in (0..e.bits()).rev() {
            acc = self.mul12(&acc, &acc);
            if e.bit(i) {
                acc = self.mul12(&acc, x);
            }
        }
        acc
    }
}

/// Coefficient of w^k: k = 0, 2, 4 from c0 (v = w²), k = 1, 3, 5 from c1.
fn to_ref<C: BnParams>(x: &Fp12<C>) -> [R2; 6] {
    let f = |y: &Fp2<C::Fp>| (from_fp::<C>(&y.c0), from_fp::<C>(&y.c1));
    [
        f(&x.c0.c0),
        f(&x.c1.c0),
        f(&x.c0.c1),
        f(&x.c1.c1),
        f(&x.c0.c2),
        f(&x.c1.c2),
    ]
}

fn rand_fp12<C: BnParams>(rng: &mut Rng) -> Fp12<C> {
    let mut c = [<C::Fp as Field>::ZERO; 12];
    for x in c.iter_mut() {
        *x = to_fp::<C>(&rand_fp::<C>(rng));
    }
    Fp12::from_coeffs(&c)
}

fn tower<C: BnParams>(seed: u64) {
    let mut rng = Rng(seed);
    let r = Ref::new::<C>();
    let one = Fp12::<C>::ONE;
    // Extreme values first: every coefficient p − 1 (the largest wide products and sums), and
    // p − 1 beside zeros.
    let pm1 = -<C::Fp as Field>::ONE;
    let all = Fp12::<C>::from_coeffs(&[pm1; 12]);
    let mut mixed = [<C::Fp as Field>::ZERO; 12];
    for k in (0..12).step_by(3) {
        mixed[k] = pm1;
    }
    let mixed = Fp12::<C>::from_coeffs(&mixed);
    // Every Montgomery representative p − 1: the largest wide products (p − 1)² and, in the
    // Karatsuba sums left unreduced, the largest sums 2p − 2; beside canonical p − 1 and zero.
    let top = mont_max::<C>();
    let all_top = Fp12::<C>::from_coeffs(&[top; 12]);
    let mut mix_top = [pm1; 12];
    for k in (0..12).step_by(2) {
        mix_top[k] = top;
    }
    mix_top[5] = <C::Fp as Field>::ZERO;
    let mix_top = Fp12::<C>::from_coeffs(&mix_top);
    let extremes = [
        (all, all),
        (all, mixed),
        (mixed, all),
        (all_top, all_top),
        (all_top, mix_top),
        (mix_top, all),
    ];
    for k in 0..extremes.len() + cases(3, 20) {
        let (a, b) = if k < extremes.len() {
            extremes[k]
        } else {
            (rand_fp12::<C>(&mut rng), rand_fp12::<C>(&mut rng))
        };
        let (ra, rb) = (to_ref(&a), to_ref(&b));
        // Fp2.
        let x2 = r.mul2(&ra[0], &rb[0]);
        assert_eq!(
            to_ref(&Fp12::<C>::new(
                Fp6::new(a.c0.c0 * b.c0.c0, Fp2::ZERO, Fp2::ZERO),
                Fp6::ZERO
            ))[0],
            x2
        );
        assert_eq!((a.c0.c0.square()), a.c0.c0 * a.c0.c0);
        assert_eq!(a.c0.c0 * a.c0.c0.invert().unwrap(), Fp2::ONE);
        let sq: Fp2<C::Fp> = a.c0.c0.square();
        let root = sq.sqrt().unwrap();
        assert!(root == a.c0.c0 || root == -a.c0.c0);
        // Fp6 (the even powers of w).
        let a6 = Fp12::<C>::new(a.c0, Fp6::ZERO);
        let b6 = Fp12::<C>::new(b.c0, Fp6::ZERO);
        assert_eq!(
            to_ref(&Fp12::new(a.c0 * b.c0, Fp6::ZERO)),
            r.mul12(&to_ref(&a6), &to_ref(&b6))
        );
        assert_eq!(
            to_ref(&Fp12::new(a.c0.square(), Fp6::ZERO)),
            r.mul12(&to_ref(&a6), &to_ref(&a6))
        );
        assert_eq!(a.c0 * a.c0.invert().unwrap(), Fp6::ONE);
        // Fp12, both the default and the lazy-reduction products.
        assert_eq!(to_ref(&(a * b)), r.mul12(&ra, &rb));
        assert_eq!(to_ref(&a.mul_lazy(&b)), r.mul12(&ra, &rb));
        assert_eq!(to_ref(&a.square_lazy()), r.mul12(&ra, &ra));
        assert_eq!(
            to_ref(&Fp12::new(a.c0.mul_lazy(&b.c0), Fp6::ZERO)),
            r.mul12(&to_ref(&a6), &to_ref(&b6))
        );
        assert_eq!(a.c0.c0.mul_wide(&b.c0.c0).reduce(), a.c0.c0 * b.c0.c0);
        assert_eq!(to_ref(&a.mul_full(&b)), r.mul12(&ra, &rb));
        assert_eq!(to_ref(&a.square_full()), r.mul12(&ra, &ra));
        assert_eq!(a.c0.mul_full(&b.c0), a.c0 * b.c0);
        assert_eq!(
            a.mul_by_034_full(&b.c0.c0, &b.c1.c0, &b.c1.c1),
            a.mul_by_034(&b.c0.c0, &b.c1.c0, &b.c1.c1)
        );
        assert_eq!(to_ref(&a.square()), r.mul12(&ra, &ra));
        assert_eq!(r.mul12(&to_ref(&a.invert().unwrap()), &ra), to_ref(&one));
        // Sparse product by a line value l0 + l3·w + l4·w³.
        let mut l = Fp12::<C>::ZERO;
        l.c0.c0 = b.c0.c0;
        l.c1.c0 = b.c1.c0;
        l.c1.c1 = b.c1.c1;
        assert_eq!(
            to_ref(&a.mul_by_034(&b.c0.c0, &b.c1.c0, &b.c1.c1)),
            r.mul12(&ra, &to_ref(&l))
        );
        // Frobenius: the p-th, p²-th, p³-th powers.
        let p = p_of::<C>();
        let f1 = r.pow12(&ra, &p);
        assert_eq!(to_ref(&a.frobenius(1)), f1);
        let f2 = r.pow12(&f1, &p);
        assert_eq!(to_ref(&a.frobenius(2)), f2);
        assert_eq!(to_ref(&a.frobenius(3)), r.pow12(&f2, &p));
        assert_eq!(
            a.c0.frobenius(1),
            Fp12::<C>::new(a.c0, Fp6::ZERO).frobenius(1).c0
        );
        // Cyclotomic squaring on an element of the cyclotomic subgroup: a^((p⁶−1)(p²+1)).
        let u = a.conjugate() * a.invert().unwrap();
        let u = u.frobenius(2) * u;
        assert_eq!(u.cyclotomic_square(), u.square());
        // u^|z| by the signed-window chain = square-and-multiply over the bits of |z|.
        let z = [
            u64::try_from(C::Z_ABS & u128::from(u64::MAX)).unwrap(),
            u64::try_from(C::Z_ABS >> 64).unwrap(),
        ];
        assert_eq!(u.cyclotomic_pow_z_abs(), u.pow(&z));
        // Karabina's compressed squarings = repeated plain Fp12 squaring (through the
        // num-bigint reference), and the compressed chain for |z| = square-and-multiply.
        let mut want = to_ref(&u);
        let mut done = 0;
        for k in [1usize, 2, 5, 64] {
            while done < k {
                want = r.mul12(&want, &want);
                done += 1;
            }
            assert_eq!(to_ref(&u.cyclotomic_pow2k_compressed(k)), want, "k = {k}");
        }
        assert_eq!(
            Fp12::<C>::ONE.cyclotomic_pow2k_compressed(3),
            Fp12::<C>::ONE
        );
        assert_eq!(u.cyclotomic_pow_z_abs_compressed(), u.pow(&z));
        assert_eq!(
            Fp12::<C>::ONE.cyclotomic_pow_z_abs_compressed(),
            Fp12::<C>::ONE
        );
    }
}

#[test]
fn tower_bn254() {
    tower::<Bn254>(1);
}
#[test]
fn tower_fp254bnb() {
    tower::<Fp254Bnb>(2);
}
#[test]
fn tower_bn381() {
    tower::<Bn381>(3);
}
#[test]
fn tower_bn462() {
    tower::<Bn462>(4);
}

fn r_bytes<C: BnParams>() -> Vec<u8> {
    C::R_WORDS.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn groups<C: BnParams>(seed: u64) {
    let mut rng = Rng(seed);
    let g1 = G1Projective::<C>::GENERATOR;
    let g2 = G2Projective::<C>::GENERATOR;
    let r = r_bytes::<C>();
    // r·P = O on G1 and G2, both multiplication paths.
    assert!(bool::from(g1.mul_le_bytes(&r).is_identity()));
    assert!(bool::from(g1.mul_le_bytes_vartime(&r).is_identity()));
    assert!(bool::from(g2.mul_le_bytes(&r).is_identity()));
    assert!(bool::from(g2.mul_le_bytes_vartime(&r).is_identity()));
    assert!(!bool::from(g1.is_identity()) && !bool::from(g2.is_identity()));
    // ψ acts on G2 as multiplication by p.
    let p: Vec<u8> = p_of::<C>().to_bytes_le();
    let q = g2.mul_le_bytes(&rng.bytes(16)).to_affine();
    assert_eq!(
        psi::<C>(&q),
        q.to_projective().mul_le_bytes_vartime(&p).to_affine()
    );
    for _ in 0..cases(2, 10) {
        let k = rng.bytes(32);
        // Constant time, wNAF and plain double-and-add (written here) agree.
        let mut naive = G1Projective::<C>::IDENTITY;
        for byte in k.iter().rev() {
            for bit in (0..8).rev() {
                naive = naive.double();
                if (byte >> bit) & 1 == 1 {
                    naive += g1;
                }
            }
        }
        assert_eq!(g1.mul_le_bytes(&k), naive);
        assert_eq!(g1.mul_le_bytes_vartime(&k), naive);
        assert_eq!(g2.mul_le_bytes(&k), g2.mul_le_bytes_vartime(&k));
        // Encodings round-trip.
        let a = naive.to_affine();
        let n = <C::Fp as Field>::BYTES;
        let mut u = vec![0u8; 2 * n];
        a.write_uncompressed(&mut u).unwrap();
        assert_eq!(G1Affine::<C>::from_uncompressed(&u), Ok(a));
        let mut c = vec![0u8; n];
        G1Encoding::write_compressed(&a, &mut c).unwrap();
        assert_eq!(G1Affine::<C>::from_compressed(&c), Ok(a));
        let b = g2.mul_le_bytes(&k).to_affine();
        let mut u = vec![0u8; 4 * n];
        G2SubgroupCheck::write_uncompressed(&b, &mut u).unwrap();
        assert_eq!(G2Affine::<C>::from_uncompressed(&u), Ok(b));
        let mut c = vec![0u8; 2 * n];
        G2SubgroupCheck::write_compressed(&b, &mut c).unwrap();
        assert_eq!(<G2Affine<C> as G2SubgroupCheck>::from_compressed(&c), Ok(b));
    }
    // A twist point outside G2 is rejected; cofactor clearing moves it into G2.
    let outside = twist_point_outside_g2::<C>();
    assert!(!outside.is_torsion_free_vartime());
    assert!(!outside.is_torsion_free_by_order_vartime());
    // The fast membership test agrees with r·Q = O on points in and out of G2.
    let mut t = outside.to_projective();
    for _ in 0..cases(4, 20) {
        t = t.double() + G2Projective::<C>::GENERATOR.mul_le_bytes(&rng.bytes(8));
        let a = t.to_affine();
        assert_eq!(
            a.is_torsion_free_vartime(),
            a.is_torsion_free_by_order_vartime()
        );
        let in_g2 = G2Projective::<C>::GENERATOR
            .mul_le_bytes(&rng.bytes(16))
            .to_affine();
        assert!(in_g2.is_torsion_free_vartime() && in_g2.is_torsion_free_by_order_vartime());
    }
    let n = <C::Fp as Field>::BYTES;
    let mut u = vec![0u8; 4 * n];
    G2SubgroupCheck::write_uncompressed(&outside, &mut u).unwrap();
    assert_eq!(
        G2Affine::<C>::from_uncompressed(&u),
        Err(Error::NotInSubgroup)
    );
    assert!(outside.clear_cofactor().is_torsion_free_vartime());
    assert!(!bool::from(outside.clear_cofactor().is_identity()));
}

/// The first point x = k + 2i of E′(Fp2) (almost surely not of order r: the cofactor is
/// about p).
fn twist_point_outside_g2<C: BnParams>() -> G2Affine<C> {
    for k in 1u64.. {
        let x = Fp2::new(C::Fp::from_u64(k), C::Fp::from_u64(2));
        let rhs = x.square() * x + C::B_TWIST;
        if let Some(y) = Option::<Fp2<C::Fp>>::from(rhs.sqrt()) {
            return G2Affine::<C>::from_xy(x, y).unwrap();
        }
    }
    unreachable!()
}

#[test]
fn groups_bn254() {
    groups::<Bn254>(11);
}
#[test]
fn groups_fp254bnb() {
    groups::<Fp254Bnb>(12);
}
#[test]
fn groups_bn381() {
    groups::<Bn381>(13);
}
#[test]
fn groups_bn462() {
    groups::<Bn462>(14);
}

fn words(b: &[u8]) -> Vec<u64> {
    b.chunks(8)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(w)
        })
        .collect()
}

fn pairings<C: BnParams>(seed: u64) {
    let mut rng = Rng(seed);
    let g1 = G1Projective::<C>::GENERATOR;
    let g2 = G2Projective::<C>::GENERATOR;
    let e = pairing(&g1.to_affine(), &g2.to_affine());
    // Non-degenerate, in GT (e^r = 1).
    assert_ne!(e, Fp12::ONE);
    assert!(e.is_in_gt_vartime());
    for _ in 0..cases(1, 5) {
        let a = rng.bytes(16);
        let b = rng.bytes(16);
        let pa = g1.mul_le_bytes(&a).to_affine();
        let qb = g2.mul_le_bytes(&b).to_affine();
        let lhs = pairing(&pa, &qb);
        assert_eq!(lhs, e.pow(&words(&a)).pow(&words(&b)));
        // The same through GT exponentiation by a scalar of Fr.
        let mut ab = <C::Fr as Field>::Bytes::zeroed();
        ab.as_mut()[..16].copy_from_slice(&a);
        let ka: C::Fr = Option::from(C::Fr::from_le_bytes(&ab)).unwrap();
        assert_eq!(pairing(&pa, &g2.to_affine()), gt_pow(&e, &ka));
        // Multi-pairing = product; e(P, Q)·e(−P, Q) = 1.
        let c = rng.bytes(16);
        let pc = g1.mul_le_bytes(&c).to_affine();
        let pairs = [(pa, qb), (pc, g2.to_affine()), (g1.to_affine(), qb)];
        let prod =
            pairing(&pa, &qb) * pairing(&pc, &g2.to_affine()) * pairing(&g1.to_affine(), &qb);
        assert_eq!(multi_pairing(&pairs), prod);
        assert!(pairing_product_is_one(&[(pa, qb), (-pa, qb)]));
        assert!(!pairing_product_is_one(&[(pa, qb), (pa, qb)]));
        // Prepared Q: bilinearity against the same oracle, and the multi-loop with an
        // identity pair and a repeated prepared Q against e(P, Q)^(a + c)·e(G1, Q)^b.
        let prep = G2Prepared::<C>::new(&qb);
        assert_eq!(pairing_prepared(&pa, &prep), lhs);
        let prep_g2 = G2Prepared::<C>::from(g2.to_affine());
        let id = G2Prepared::<C>::new(&G2Affine::<C>::identity());
        assert!(id.is_identity() && !prep.is_identity());
        let ml = multi_miller_loop_prepared(&[
            (pa, &prep),
            (pc, &prep_g2),
            (G1Affine::<C>::identity(), &prep),
            (pc, &id),
            (g1.to_affine(), &prep),
        ]);
        assert_eq!(final_exponentiation(&ml), prod);
    }
    // The identity pairs to one.
    assert_eq!(
        pairing(&G1Affine::<C>::identity(), &g2.to_affine()),
        Fp12::ONE
    );
    assert_eq!(
        pairing(&g1.to_affine(), &G2Affine::<C>::identity()),
        Fp12::ONE
    );
}

/// GT exponentiation by the GLS split with the Frobenius against square-and-multiply by the
/// scalar's integer bits (`Fp12::pow`), on full-width scalars and the edges 0, 1, r − 1 and
/// (r − 1)/2.
fn gt_pow_split<C: BnParams>(seed: u64) {
    let mut rng = Rng(seed);
    let e0 = pairing(
        &G1Projective::<C>::GENERATOR.to_affine(),
        &G2Projective::<C>::GENERATOR.to_affine(),
    );
    let r = BigUint::from_bytes_le(&r_bytes::<C>());
    let n = <C::Fr as Field>::Bytes::zeroed().as_ref().len();
    let mut ks: Vec<BigUint> = vec![BigUint::zero(), BigUint::one(), &r - 1u32, (&r - 1u32) >> 1];
    for _ in 0..cases(3, 12) {
        ks.push(BigUint::from_bytes_le(&rng.bytes(n + 8)) % &r);
    }
    for k in ks {
        let e = e0.pow(&words(&rng.bytes(16)));
        let mut kb = <C::Fr as Field>::Bytes::zeroed();
        let le = k.to_bytes_le();
        kb.as_mut()[..le.len()].copy_from_slice(&le);
        let kf: C::Fr = Option::from(C::Fr::from_le_bytes(&kb)).unwrap();
        assert_eq!(gt_pow(&e, &kf), e.pow(&k.to_u64_digits()), "k = {k:x}");
    }
}

#[test]
fn gt_pow_bn254() {
    gt_pow_split::<Bn254>(31);
}
#[test]
fn gt_pow_fp254bnb() {
    gt_pow_split::<Fp254Bnb>(32);
}
#[test]
fn gt_pow_bn381() {
    gt_pow_split::<Bn381>(33);
}
#[test]
fn gt_pow_bn462() {
    gt_pow_split::<Bn462>(34);
}

#[test]
fn pairing_bn254() {
    pairings::<Bn254>(21);
}
#[test]
fn pairing_fp254bnb() {
    pairings::<Fp254Bnb>(22);
}
#[test]
fn pairing_bn381() {
    pairings::<Bn381>(23);
}
#[test]
fn pairing_bn462() {
    pairings::<Bn462>(24);
}
