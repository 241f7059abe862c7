//! τ-adic NAF on the six Koblitz curves against independent oracles: Z\[τ\] arithmetic written
//! here over `num-bigint` (τ^m by repeated multiplication by τ, exact division through the
//! conjugate), the published group orders n (SEC 2 v2), and the affine double-and-add
//! reference of `common` for k·P and u1·G + u2·Q.

mod common;

use common::{from_big, to_ref, RefPoint, Reference, Rng, F163, F233, F239, F283, F409, F571};
use fieldgen_binary_curves::curves::*;
use fieldgen_binary_curves::tnaf::{self, TauParams, TnafError, ZTau};
use fieldgen_binary_curves::{AffinePoint, BinaryCurve, ProjectivePoint, SecCurve};
use fieldgen_field::{BinaryField, Field, PrimeField};
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, Zero};

type Z = (BigInt, BigInt);

fn z(a: i64, b: i64) -> Z {
    (BigInt::from(a), BigInt::from(b))
}

/// x·τ = −2·x1 + (x0 + μ·x1)·τ, from τ² = μτ − 2.
fn times_tau(mu: i64, x: &Z) -> Z {
    (-(&x.1 * 2i64), &x.0 + &x.1 * mu)
}

fn zmul(mu: i64, x: &Z, y: &Z) -> Z {
    // x·y = x·y0 + (x·τ)·y1.
    let xt = times_tau(mu, x);
    (&x.0 * &y.0 + &xt.0 * &y.1, &x.1 * &y.0 + &xt.1 * &y.1)
}

fn znorm(mu: i64, x: &Z) -> BigInt {
    &x.0 * &x.0 + &x.0 * &x.1 * mu + &x.1 * &x.1 * 2
}

fn zsub(x: &Z, y: &Z) -> Z {
    (&x.0 - &y.0, &x.1 - &y.1)
}

fn tau_pow(mu: i64, k: u32) -> Z {
    let mut x = z(1, 0);
    for _ in 0..k {
        x = times_tau(mu, &x);
    }
    x
}

/// x/y when it lies in Z[τ].
fn exact_div(mu: i64, x: &Z, y: &Z) -> Option<Z> {
    let conj = (&y.0 + &y.1 * mu, -y.1.clone());
    let p = zmul(mu, x, &conj);
    let n = znorm(mu, y);
    if (&p.0 % &n).is_zero() && (&p.1 % &n).is_zero() {
        Some((&p.0 / &n, &p.1 / &n))
    } else {
        None
    }
}

fn of(t: &ZTau) -> Z {
    (t.r0.clone(), t.r1.clone())
}

fn order_of<C: SecCurve>() -> BigInt {
    BigInt::from_bytes_le(
        Sign::Plus,
        <C::Scalar as PrimeField>::modulus_le_bytes().as_ref(),
    )
}

fn mu_of<C: BinaryCurve>() -> i64 {
    if C::A_IS_ONE {
        1
    } else {
        -1
    }
}

/// δ = (τ^m − 1)/(τ − 1) exists in Z[τ], equals the crate's, and N(δ) is the published n.
fn delta_and_order<C: SecCurve>() {
    let params = TauParams::for_curve::<C>().expect("Koblitz curve");
    let mu = mu_of::<C>();
    let m = <C::Base as BinaryField>::DEGREE;
    assert_eq!(params.mu(), mu);
    let tm1 = zsub(&tau_pow(mu, m), &z(1, 0));
    let delta = exact_div(mu, &tm1, &z(-1, 1)).expect("τ − 1 divides τ^m − 1");
    assert_eq!(of(params.delta()), delta, "{}: δ", C::NAME);
    let n = order_of::<C>();
    assert_eq!(znorm(mu, &delta), n, "{}: N(δ) = n", C::NAME);
    assert_eq!(*params.order(), n);
    // #E = N(τ^m − 1) = h·n.
    assert_eq!(znorm(mu, &tm1), &n * <C as BinaryCurve>::COFACTOR);
}

/// t_w and α_u for w = 2..7: τ ↦ t_w kills τ^w mod 2^w and respects τ² = μτ − 2;
/// α_u ≡ u (mod τ^w) with N(α_u) ≤ 4/7·2^w (Solinas's bound for the rounded remainder).
fn widths(params: &TauParams) {
    let mu = params.mu();
    for w in tnaf::MIN_WIDTH..=tnaf::MAX_WIDTH {
        let t = BigInt::from(params.t_w(w).unwrap());
        let m = BigInt::one() << w;
        let md = |x: BigInt| ((x % &m) + &m) % &m;
        assert!(md(&t * &t - &t * mu + 2).is_zero(), "t_{w}² − μt_{w} + 2");
        let tw = tau_pow(mu, w);
        assert!(md(&tw.0 + &tw.1 * &t).is_zero(), "τ^{w} ↦ 0");
        let alphas = params.alphas(w).unwrap();
        assert_eq!(alphas.len(), 1 << (w - 2));
        for (i, &(b, g)) in alphas.iter().enumerate() {
            let u = 2 * i as i64 + 1;
            assert!(
                exact_div(mu, &zsub(&z(b, g), &z(u, 0)), &tw).is_some(),
                "α_{u} ≡ {u} mod τ^{w}"
            );
            assert!(
                znorm(mu, &z(b, g)) * 7 <= BigInt::from(4i64 << w),
                "N(α_{u})"
            );
        }
    }
    assert_eq!(params.t_w(1), None);
    assert_eq!(params.alphas(8), None);
}

/// The expansion evaluated back: Σ dᵢ·τ^i with dᵢ = ±α_|u| equals ρ; digits odd, below
/// 2^(w−1), at most one nonzero in any w consecutive.
fn check_expansion(params: &TauParams, rho: &Z, w: u32) -> usize {
    let mu = params.mu();
    let digits = params
        .tnaf_vartime(&ZTau::new(rho.0.clone(), rho.1.clone()), w)
        .unwrap();
    let alphas = params.alphas(w).unwrap();
    let mut acc = z(0, 0);
    let mut last: Option<usize> = None;
    for (i, &d) in digits.iter().enumerate().rev() {
        acc = times_tau(mu, &acc);
        if d != 0 {
            assert!(d % 2 != 0 && (d.unsigned_abs() as u32) < (1 << (w - 1)));
            if let Some(j) = last {
                assert!(j - i >= w as usize, "width {w}: digits {j} and {i}");
            }
            last = Some(i);
            let (b, g) = alphas[(d.unsigned_abs() / 2) as usize];
            let a = if d > 0 { z(b, g) } else { z(-b, -g) };
            acc = (&acc.0 + &a.0, &acc.1 + &a.1);
        }
    }
    assert_eq!(&acc, rho, "width {w}: Σ dᵢτ^i = ρ");
    assert!(digits.last() != Some(&0), "no leading zero digit");
    digits.len()
}

/// Scalars: the edges and random ones, little-endian.
fn scalars<C: SecCurve>(rng: &mut Rng) -> Vec<Vec<u8>> {
    let n = order_of::<C>();
    let m = <C::Base as BinaryField>::DEGREE;
    let le = |x: &BigInt| {
        let mut v = x.to_bytes_le().1;
        v.push(0);
        v
    };
    let mut out = vec![vec![], vec![0], vec![1], vec![2]];
    for x in [
        &n - 1,
        n.clone(),
        &n + 1,
        &n * 2 + 3,
        &n * 5 - 1,
        (BigInt::one() << m) - 1,
        BigInt::one() << m,
        (BigInt::one() << m) + 1,
        (BigInt::one() << (m - 1)) + 7,
        (BigInt::one() << (m + 64)) - 1,
    ] {
        out.push(le(&x));
    }
    let bytes = C::Scalar::BYTES;
    for len in [bytes, bytes, bytes + 9, 5] {
        out.push(rng.low_bytes(len));
    }
    out
}

fn partmod_and_digits<C: SecCurve>() {
    let params = TauParams::for_curve::<C>().unwrap();
    let mu = params.mu();
    let m = params.degree() as usize;
    let a = C::A_IS_ONE as usize;
    widths(&params);
    let n = order_of::<C>();
    let delta = of(params.delta());
    let mut rng = Rng(0x7a0 ^ m as u64);
    let mut longest = 0;
    for k in scalars::<C>(&mut rng) {
        let rho = of(&params.partmod_delta_vartime(&k));
        let kz = (BigInt::from_bytes_le(Sign::Plus, &k), BigInt::zero());
        assert!(
            exact_div(mu, &zsub(&kz, &rho), &delta).is_some(),
            "{}: ρ ≡ k mod δ",
            C::NAME
        );
        assert!(znorm(mu, &rho) * 7 <= &n * 4, "{}: N(ρ) ≤ 4n/7", C::NAME);
        for w in tnaf::MIN_WIDTH..=tnaf::MAX_WIDTH {
            longest = longest.max(check_expansion(&params, &rho, w));
        }
    }
    // Solinas §5: reduced modulo δ the expansion has about m + a digits.
    assert!(longest <= m + a + 3, "{}: {longest} digits", C::NAME);
    // Unreduced elements, both fixed-width paths, and the refusals.
    for bits in [20usize, 100, 160, 230, 250, 298, 700, 1190] {
        let r0 = BigInt::from_bytes_le(Sign::Minus, &rng.low_bytes(bits / 8));
        let r1 = BigInt::from_bytes_le(Sign::Plus, &rng.low_bytes(bits / 8));
        for w in [2, 5, 7] {
            check_expansion(&params, &(r0.clone(), r1.clone()), w);
        }
    }
    let big = ZTau::new(BigInt::one() << 1300, BigInt::zero());
    assert_eq!(params.tnaf_vartime(&big, 5), Err(TnafError::TooLarge));
    let one = ZTau::new(BigInt::one(), BigInt::zero());
    assert_eq!(params.tnaf_vartime(&one, 1), Err(TnafError::Width));
    assert_eq!(params.tnaf_vartime(&one, 8), Err(TnafError::Width));
    assert_eq!(params.tnaf_vartime(&ZTau::default(), 4), Ok(vec![]));
}

fn reference_of<C: BinaryCurve>(exps: &[u64]) -> Reference {
    let a = if C::A_IS_ONE { "1" } else { "0" };
    Reference::new(exps, a, "1")
}

fn point_of<C: BinaryCurve>(p: &RefPoint) -> AffinePoint<C> {
    match p {
        None => AffinePoint::identity(),
        Some((x, y)) => Option::from(AffinePoint::from_xy(from_big(x), from_big(y))).unwrap(),
    }
}

fn aff<C: BinaryCurve>(p: &ProjectivePoint<C>) -> RefPoint {
    to_ref(&p.to_affine())
}

/// k·P by τNAF (w = 4, 5, 6 and the curve's `mul_vartime`) against double-and-add in the
/// reference, on G and on another point of the subgroup, with the integer k itself (not
/// reduced mod n) given to the reference; u1·G + u2·Q likewise.
fn multiplication<C: SecCurve>(exps: &[u64]) {
    let r = reference_of::<C>(exps);
    let params = TauParams::for_curve::<C>().unwrap();
    let gr = to_ref(&AffinePoint::<C>::generator());
    let mut rng = Rng(0x51 ^ exps[0]);
    let c = rng.low_bytes(C::Scalar::BYTES - 1);
    let qr = r.mul_scalar(&gr, &c);
    let q = point_of::<C>(&qr).to_projective();
    let g = ProjectivePoint::<C>::GENERATOR;
    let ks = scalars::<C>(&mut rng);
    let full = common::full_run();
    for (i, k) in ks.iter().enumerate() {
        let kbe: Vec<u8> = k.iter().rev().copied().collect();
        // The reference on both points for a few scalars, on alternating points otherwise.
        let (pt, ptr) = if i % 2 == 0 { (&g, &gr) } else { (&q, &qr) };
        let want = r.mul_scalar(ptr, &kbe);
        for w in 4..=6 {
            let got = tnaf::mul_vartime(&params, pt, k, w).unwrap();
            assert_eq!(aff(&got), want, "{}: k #{i}, w = {w}", C::NAME);
        }
        if full || i < 3 {
            let other = if i % 2 == 0 { (&q, &qr) } else { (&g, &gr) };
            let got = tnaf::mul_vartime(&params, other.0, k, 5).unwrap();
            assert_eq!(aff(&got), r.mul_scalar(other.1, &kbe), "{}: #{i}", C::NAME);
        }
    }
    // The curve's entry points with reduced scalars.
    let n = order_of::<C>();
    let k: C::Scalar = fieldgen_weierstrass::protocol::scalar_from_be_bytes_reduced(
        &rng.low_bytes(C::Scalar::BYTES),
    );
    let kbe = k.to_be_bytes().as_ref().to_vec();
    assert_eq!(aff(&mul_vartime(&q, &k)), r.mul_scalar(&qr, &kbe));
    // u1·G + u2·Q, including zero halves and u1·G = −u2·Q.
    let t = C::koblitz().expect("the curve keeps its τ-adic tables");
    let u1 = rng.low_bytes(C::Scalar::BYTES + 3);
    let u2 = rng.low_bytes(C::Scalar::BYTES);
    let be = |v: &[u8]| v.iter().rev().copied().collect::<Vec<u8>>();
    let want = r.add(&r.mul_scalar(&gr, &be(&u1)), &r.mul_scalar(&qr, &be(&u2)));
    let got = t.mul_base_add_vartime(&u1, &q, &u2).unwrap();
    assert_eq!(aff(&got), want, "{}: u1·G + u2·Q", C::NAME);
    assert_eq!(
        aff(&t.mul_base_add_vartime(&[], &q, &u2).unwrap()),
        r.mul_scalar(&qr, &be(&u2))
    );
    assert_eq!(
        aff(&t.mul_base_add_vartime(&u1, &q, &[0]).unwrap()),
        r.mul_scalar(&gr, &be(&u1))
    );
    assert_eq!(
        aff(&t
            .mul_base_add_vartime(&u1, &ProjectivePoint::IDENTITY, &u2)
            .unwrap()),
        r.mul_scalar(&gr, &be(&u1))
    );
    // c·G + (n − 1)·Q = O for Q = c·G.
    let nm1 = (&n - 1u32).to_bytes_le().1;
    let mut cle = c.clone();
    cle.reverse();
    assert_eq!(aff(&t.mul_base_add_vartime(&cle, &q, &nm1).unwrap()), None);
    // Through PrimeGroup (the ECDSA verification path).
    let a: C::Scalar = fieldgen_weierstrass::protocol::scalar_from_be_bytes_reduced(&u1);
    let b: C::Scalar = fieldgen_weierstrass::protocol::scalar_from_be_bytes_reduced(&u2);
    let (abe, bbe) = (a.to_be_bytes(), b.to_be_bytes());
    let want = r.add(
        &r.mul_scalar(&gr, abe.as_ref()),
        &r.mul_scalar(&qr, bbe.as_ref()),
    );
    assert_eq!(aff(&C::mul_base_add_vartime(&a, &q, &b)), want);
    assert_eq!(aff(&mul_base_add_wnaf_vartime(&a, &q, &b)), want);
    // The Frobenius map against squaring in the reference.
    let qa = q.to_affine();
    let sq = |x: &BigUint| r.mul(x, x);
    let (x, y) = qr.clone().unwrap();
    assert_eq!(to_ref(&qa.frobenius()), Some((sq(&x), sq(&y))));
    assert_eq!(
        aff(&q.double().frobenius()),
        to_ref(&q.double().to_affine().frobenius())
    );
    assert!(bool::from(q.double().frobenius().is_on_curve()));
}

/// The other curves keep no τ-adic tables.
#[test]
fn only_koblitz_curves() {
    assert!(TauParams::for_curve::<Sect163r2>().is_none());
    assert!(Sect283r1::koblitz().is_none());
    assert!(Sect571r1::koblitz().is_none());
}

macro_rules! koblitz_tests {
    ($($name:ident: $curve:ty, $f:expr;)*) => {$(
        #[test]
        fn $name() {
            delta_and_order::<$curve>();
            partmod_and_digits::<$curve>();
            multiplication::<$curve>($f);
        }
    )*};
}

koblitz_tests! {
    sect163k1: Sect163k1, F163;
    sect233k1: Sect233k1, F233;
    sect239k1: Sect239k1, F239;
    sect283k1: Sect283k1, F283;
    sect409k1: Sect409k1, F409;
    sect571k1: Sect571k1, F571;
}
