//! The group law, the ladder, the fixed-base table and the wNAF paths of every curve against
//! the affine GF(2)[x] reference of `common` (num-bigint), on pseudo-random points and
//! scalars; n·G = O for the published n; the special cases (identity, P = Q, P = −Q, the
//! point of order 2, k = n − 1).

mod common;

use common::{from_big, rounds, to_ref, Reference, Rng, F163, F233, F239, F283, F409, F571};
use fieldgen_binary_curves::curves::*;
use fieldgen_binary_curves::ell1996::{self, Ell1996};
use fieldgen_binary_curves::group::ladder;
use fieldgen_binary_curves::{AffinePoint, BinaryCurve, FixedBaseTable, ProjectivePoint, SecCurve};
use fieldgen_field::{Field, PrimeField};
use num_bigint::BigUint;

fn reference_of<C: BinaryCurve>(exps: &[u64]) -> Reference {
    let a = if C::A_IS_ONE { "1" } else { "0" };
    let b = common::to_big(&C::B).to_str_radix(16);
    Reference::new(exps, a, &b)
}

fn aff<C: BinaryCurve>(p: &ProjectivePoint<C>) -> common::RefPoint {
    to_ref(&p.to_affine())
}

/// Random scalars of `bytes` octets, big-endian for the reference and little-endian here.
fn scalar(rng: &mut Rng, bytes: usize) -> (Vec<u8>, Vec<u8>) {
    let be = rng.low_bytes(bytes);
    let le = be.iter().rev().copied().collect();
    (be, le)
}

fn laws<C: BinaryCurve>(exps: &[u64], seed: u64, rounds: usize) {
    let r = reference_of::<C>(exps);
    let g = AffinePoint::<C>::generator();
    let gr = to_ref(&g);
    assert!(r.on_curve(&gr), "{}: G on the curve", C::NAME);
    let mut rng = Rng(seed);
    let bytes = C::Base::BYTES;
    let gp = ProjectivePoint::<C>::GENERATOR;
    for _ in 0..rounds {
        let (k1be, k1) = scalar(&mut rng, bytes);
        let (k2be, k2) = scalar(&mut rng, bytes);
        let pr = r.mul_scalar(&gr, &k1be);
        let qr = r.mul_scalar(&gr, &k2be);
        // The ladder, the wNAF and the table against the reference.
        let p = gp.mul_le_bytes(&k1);
        assert_eq!(aff(&p), pr, "{}: ladder", C::NAME);
        let q = gp.mul_le_bytes_vartime(&k2);
        assert_eq!(aff(&q), qr, "{}: wNAF", C::NAME);
        assert!(bool::from(p.is_on_curve()) && bool::from(q.is_on_curve()));
        // Group law.
        assert_eq!(aff(&(p + q)), r.add(&pr, &qr), "{}: P + Q", C::NAME);
        assert_eq!(aff(&p.double()), r.double(&pr), "{}: 2P", C::NAME);
        assert_eq!(aff(&(p + p)), r.double(&pr), "{}: P + P", C::NAME);
        assert_eq!(aff(&(p - q)), r.add(&pr, &r.neg(&qr)), "{}: P − Q", C::NAME);
        let p_again = p;
        assert_eq!(aff(&(p - p_again)), None, "{}: P − P", C::NAME);
        let qa = q.to_affine();
        assert_eq!(
            aff(&p.add_mixed(&qa)),
            r.add(&pr, &qr),
            "{}: mixed",
            C::NAME
        );
        assert_eq!(aff(&p.add_mixed_vartime(&qa)), r.add(&pr, &qr));
        assert_eq!(
            aff(&q.add_mixed(&qa)),
            r.double(&qr),
            "{}: mixed P = Q",
            C::NAME
        );
        assert_eq!(aff(&q.add_mixed_vartime(&qa)), r.double(&qr));
        assert_eq!(aff(&p.add_mixed(&(-qa))), r.add(&pr, &r.neg(&qr)));
        assert_eq!(aff(&q.add_mixed(&(-qa))), None, "{}: mixed P = −Q", C::NAME);
        let o = ProjectivePoint::<C>::IDENTITY;
        assert_eq!(aff(&(o + p)), pr);
        assert_eq!(aff(&(p + o)), pr);
        assert_eq!(aff(&o.add_mixed(&qa)), qr);
        assert_eq!(aff(&p.add_mixed(&AffinePoint::identity())), pr);
        assert_eq!(aff(&o.double()), None);
        // Double multiplication a·P + b·Q.
        let (abe, a) = scalar(&mut rng, bytes);
        let want = r.add(&r.mul_scalar(&pr, &abe), &r.mul_scalar(&qr, &k1be));
        assert_eq!(aff(&p.double_mul_vartime(&a, &q, &k1)), want, "{}", C::NAME);
        // Ladder on a point other than G.
        assert_eq!(aff(&q.mul_le_bytes(&a)), r.mul_scalar(&qr, &abe));
    }
    // The fixed-base table.
    let table = FixedBaseTable::new(&gp, bytes);
    for _ in 0..rounds {
        let (kbe, k) = scalar(&mut rng, bytes);
        assert_eq!(
            aff(&table.mul_le_bytes(&k)),
            r.mul_scalar(&gr, &kbe),
            "{}: table",
            C::NAME
        );
    }
    // The point of order 2, (0, √b): kT is T for odd k, O for even k.
    let t = AffinePoint::<C>::from_xy(C::Base::ZERO, Option::from(C::B.sqrt()).unwrap());
    let t: AffinePoint<C> = Option::from(t).unwrap();
    let tr = to_ref(&t);
    assert!(r.on_curve(&tr));
    assert_eq!(r.double(&tr), None);
    for k in [1u8, 2, 3, 0xfe, 0xff] {
        let want = r.mul_scalar(&tr, &[k]);
        assert_eq!(
            aff(&ladder(&t, &[k], 8)),
            want,
            "{}: order 2, k = {k}",
            C::NAME
        );
        assert_eq!(aff(&t.to_projective().mul_le_bytes_vartime(&[k])), want);
    }
    assert_eq!(aff(&t.to_projective().double()), None);
}

/// n·G = O and (n − 1)·G = −G on every path, against the reference, for the published n.
fn order<C: SecCurve>(exps: &[u64]) {
    let r = reference_of::<C>(exps);
    let gr = to_ref(&AffinePoint::<C>::generator());
    let n_le = <C::Scalar as PrimeField>::modulus_le_bytes();
    let n_le = n_le.as_ref().to_vec();
    let n_be: Vec<u8> = n_le.iter().rev().copied().collect();
    assert_eq!(r.mul_scalar(&gr, &n_be), None, "{}: reference n·G", C::NAME);
    let g = ProjectivePoint::<C>::GENERATOR;
    assert!(
        bool::from(g.mul_le_bytes(&n_le).is_identity()),
        "{}: ladder n·G",
        C::NAME
    );
    assert!(bool::from(g.mul_le_bytes_vartime(&n_le).is_identity()));
    let neg_g = r.neg(&gr);
    let mut nm1 = n_le.clone();
    nm1[0] -= 1; // n is odd
    assert_eq!(aff(&g.mul_le_bytes(&nm1)), neg_g, "{}: (n − 1)·G", C::NAME);
    assert_eq!(aff(&g.mul_le_bytes_vartime(&nm1)), neg_g);
    // The table path of k·G below n on random scalars, and at n − 1.
    let mut rng = Rng(11);
    for _ in 0..rounds(1, 8) {
        let k: C::Scalar = fieldgen_weierstrass::protocol::scalar_from_be_bytes_reduced(
            &rng.low_bytes(C::Scalar::BYTES + 8),
        );
        let kbe = k.to_be_bytes().as_ref().to_vec();
        assert_eq!(
            aff(&C::mul_base(&k)),
            r.mul_scalar(&gr, &kbe),
            "{}: k·G",
            C::NAME
        );
    }
    let k = -C::Scalar::ONE;
    assert_eq!(aff(&C::mul(&g, &k)), neg_g, "{}: PrimeGroup::mul", C::NAME);
    assert_eq!(
        aff(&C::mul_base(&k)),
        neg_g,
        "{}: PrimeGroup::mul_base",
        C::NAME
    );
    let one = C::Scalar::ONE;
    assert_eq!(aff(&C::mul_base_add_vartime(&one, &g, &k)), None);
    assert_eq!(aff(&C::mul_base_add_vartime(&k, &g, &k)), r.double(&neg_g));
    // The cofactor: h·n = #E, so a random point of E times h·n is O.
    let hn = BigUint::from_bytes_be(&n_be) * <C as BinaryCurve>::COFACTOR;
    let mut rng = Rng(7);
    for _ in 0..2 {
        let x: C::Base = from_big(
            &(BigUint::from_bytes_be(&rng.low_bytes(C::Base::BYTES)) % (BigUint::from(1u8) << r.m)),
        );
        let enc = [vec![0x02], x.to_be_bytes().as_ref().to_vec()].concat();
        if let Ok(p) = fieldgen_binary_curves::sec1::decode::<C>(&enc) {
            let pr = to_ref(&p);
            assert!(r.on_curve(&pr));
            assert_eq!(
                r.mul_scalar(&pr, &hn.to_bytes_be()),
                None,
                "{}: h·n·P",
                C::NAME
            );
        }
    }
}

/// The width-w NAF digits: odd and below 2^(w−1) in absolute value, no two nonzero within w
/// positions, and Σ dᵢ·2^i = k (checked with num-bigint).
#[test]
fn wnaf_digits() {
    use fieldgen_binary_curves::group::wnaf;
    use num_bigint::BigInt;
    let mut rng = Rng(3);
    for len in [1usize, 8, 21, 36, 72] {
        for w in [2u32, 4, 5, 7] {
            let k = rng.low_bytes(len);
            let digits = wnaf(&k, w);
            let mut sum = BigInt::from(0);
            let mut last: Option<usize> = None;
            for (i, &d) in digits.iter().enumerate() {
                if d != 0 {
                    assert!(d % 2 != 0 && (d.unsigned_abs() as u32) < (1 << (w - 1)));
                    if let Some(j) = last {
                        assert!(i - j >= w as usize);
                    }
                    last = Some(i);
                    sum += BigInt::from(d) << i;
                }
            }
            assert_eq!(
                sum,
                BigInt::from(BigUint::from_bytes_le(&k)),
                "len {len} w {w}"
            );
        }
    }
}

const F155: &[u64] = &[155, 62, 0];

macro_rules! curve_tests {
    ($($name:ident: $curve:ty, $f:expr;)*) => {$(
        #[test]
        fn $name() {
            laws::<$curve>($f, 0x5eed ^ stringify!($name).len() as u64, common::rounds(1, 4));
            order::<$curve>($f);
        }
    )*};
}

curve_tests! {
    sect163k1: Sect163k1, F163;
    sect163r2: Sect163r2, F163;
    sect233k1: Sect233k1, F233;
    sect233r1: Sect233r1, F233;
    sect239k1: Sect239k1, F239;
    sect283k1: Sect283k1, F283;
    sect283r1: Sect283r1, F283;
    sect409k1: Sect409k1, F409;
    sect409r1: Sect409r1, F409;
    sect571k1: Sect571k1, F571;
    sect571r1: Sect571r1, F571;
}

#[test]
fn ell1996_curve() {
    // a6 from the point, by the crate and by the reference.
    let r0 = Reference::new(F155, "0", "0");
    let (x, y) = (BigUint::from(0x7bu32), BigUint::from(0x1c8u32));
    let a6 = r0.mul(&y, &y) ^ r0.mul(&x, &y) ^ r0.mul(&r0.mul(&x, &x), &x);
    assert_eq!(
        common::to_big(&ell1996::a6_from_point(
            &ell1996::POINT_X,
            &ell1996::POINT_Y
        )),
        a6
    );
    assert_eq!(common::to_big(&Ell1996::B), a6);
    laws::<Ell1996>(F155, 1996, common::rounds(2, 8));
    // 2P, 3P and 3P + P = 2·2P.
    let r = reference_of::<Ell1996>(F155);
    let pr = to_ref(&AffinePoint::<Ell1996>::generator());
    let p = ProjectivePoint::<Ell1996>::GENERATOR;
    let p2 = p.double();
    let p3 = p2 + p;
    assert_eq!(aff(&p2), r.double(&pr));
    assert_eq!(aff(&p3), r.add(&r.double(&pr), &pr));
    assert_eq!(aff(&(p3 + p)), aff(&p2.double()));
    assert_eq!(aff(&(p3 + p)), r.double(&r.double(&pr)));
    // The exchange: both ways equal, and equal to the reference's (ab)·P.
    let mut rng = Rng(155);
    let a = rng.low_bytes(ell1996::SCALAR_BYTES);
    let b = rng.low_bytes(ell1996::SCALAR_BYTES);
    let [pa, pb, s1, s2] = ell1996::exchange_plain(&a, &b);
    let be = |v: &[u8]| v.iter().rev().copied().collect::<Vec<u8>>();
    let par = r.mul_scalar(&pr, &be(&a));
    assert_eq!(to_ref(&pa), par);
    assert_eq!(to_ref(&pb), r.mul_scalar(&pr, &be(&b)));
    assert_eq!(to_ref(&s1), r.mul_scalar(&par, &be(&b)));
    assert_eq!(s1, s2);
    let t = ell1996::base_table();
    assert_eq!(ell1996::exchange_with_table(&t, &a, &b), [pa, pb, s1, s2]);
}
