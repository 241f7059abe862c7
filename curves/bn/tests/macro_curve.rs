//! Curves built by `fieldgen_macros::bn_curve!` from (z, b, ξ_a) alone.
//!
//! - BN254's parameters (z = 4965661367192848881, b = 3, ξ_a = 9): the macro's curve reproduces
//!   the published values the preset is tested against (go-ethereum's EIP-197 pairing-check
//!   file, the `bn` crate's e(aG1, bG2), mcl's e(P, Q) for BN_SNARK1) and agrees with the
//!   [`Bn254`] preset on the same points.
//! - A curve that is none of the presets, z = −0x40000069 = −1073741929 (p and r of 126 bits),
//!   b = 2, ξ_a = 1: its moduli against p(z), r(z) computed here with num-bigint, the generators
//!   against the curve equations, r·P = O on G1 and G2, e(P, Q) ≠ 1, e(P, Q)^r = 1 and
//!   e(aP, bQ) = e(P, Q)^(ab mod r) with the exponent reduced by num-bigint; at both limb sizes.
//!
//! Choice of the new curve: the first odd z below −2^30 (searching downwards) with p(z) and
//! r(z) both prime (sympy's `isprime` found it; the generator's Baillie–PSW agrees). ξ_a = 1 is
//! the smallest that works (ξ_a = 0 gives ξ = i, a square) and b = 2 the smallest b with points
//! of order r (y² = x³ + 1 has none); `cargo run -p generator -- bn --z -1073741929 --b 2
//! --xi-a 1` accepts them and refuses b = 1 with exit code 2.

mod common;

use common::{big, fp12_dec, fp2_dec, fp_dec, fr_big, from_fp, hex, load, p_of, r_of, to_fr, Rng};
use fieldgen_bn::{
    endo, pairing, pairing_product_is_one, Bn254, BnParams, Fp12, Fp2, G1Affine, G1Projective,
    G2Affine, G2Projective,
};
use num_bigint::{BigInt, BigUint};
use serde_json::Value;

fieldgen_macros::bn_curve! {
    /// BN254 from its parameters alone.
    pub struct MacroBn254;
    z = 4965661367192848881;
    b = 3;
    xi_a = 9;
}

fieldgen_macros::bn_curve! {
    /// A BN curve none of the presets is: p and r of 126 bits.
    pub struct SmallBn;
    z = "-0x40000069";
    b = 2;
    xi_a = 1;
}

fieldgen_macros::bn_curve! {
    /// The same curve on 32-bit limbs.
    struct SmallBn32;
    z = -1073741929;
    b = 2;
    xi_a = 1;
    limb_bits = 32;
}

const SMALL_Z: i64 = -1073741929;

/// The twelve coefficients of an Fp12 value as integers (to compare across curve types).
fn coeffs<C: BnParams>(x: &Fp12<C>) -> Vec<BigUint> {
    x.to_coeffs().iter().map(from_fp::<C>).collect()
}

fn coeff_list(obj: &Value) -> Vec<String> {
    let keys = [
        "c0.c0.c0", "c0.c0.c1", "c0.c1.c0", "c0.c1.c1", "c0.c2.c0", "c0.c2.c1", "c1.c0.c0",
        "c1.c0.c1", "c1.c1.c0", "c1.c1.c1", "c1.c2.c0", "c1.c2.c1",
    ];
    keys.iter()
        .map(|k| obj[*k].as_str().unwrap().to_string())
        .collect()
}

/// A 32-byte big-endian integer as a decimal string.
fn be_dec(b: &[u8]) -> String {
    BigUint::from_bytes_be(b).to_string()
}

/// One EIP-197 pair (G1 x, y; G2 x_im, x_re, y_im, y_re, 32 bytes each) on curve C; all-zero
/// coordinates encode the identity.
fn eth_pair<C: BnParams>(chunk: &[u8]) -> (G1Affine<C>, G2Affine<C>) {
    let w: Vec<String> = chunk.chunks(32).map(be_dec).collect();
    let p = if w[0] == "0" && w[1] == "0" {
        G1Affine::<C>::identity()
    } else {
        G1Affine::<C>::from_xy(fp_dec::<C>(&w[0]), fp_dec::<C>(&w[1])).unwrap()
    };
    let q = if w[2..].iter().all(|s| s == "0") {
        G2Affine::<C>::identity()
    } else {
        G2Affine::<C>::from_xy(fp2_dec::<C>(&w[3], &w[2]), fp2_dec::<C>(&w[5], &w[4])).unwrap()
    };
    (p, q)
}

#[test]
fn bn254_from_parameters_matches_geth_pairing_checks() {
    let v = load("bn256Pairing.json");
    let cases = v.as_array().unwrap();
    assert!(cases.len() >= 14);
    for c in cases {
        let input = hex(c["Input"].as_str().unwrap());
        let want = hex(c["Expected"].as_str().unwrap())[31] == 1;
        let pairs: Vec<_> = input.chunks(192).map(eth_pair::<MacroBn254>).collect();
        assert_eq!(pairing_product_is_one(&pairs), want, "{}", c["Name"]);
        let preset: Vec<_> = input.chunks(192).map(eth_pair::<Bn254>).collect();
        assert_eq!(
            pairing_product_is_one(&preset),
            want,
            "preset {}",
            c["Name"]
        );
    }
}

#[test]
fn bn254_from_parameters_matches_published_gt_values() {
    // e(aG1, bG2) of the `bn` crate, with its affine points.
    let v = load("bn254_pairing_values.json");
    let t = &v["published"][0];
    let (pa, qa) = (
        &t["input"]["P_affine_computed"],
        &t["input"]["Q_affine_computed"],
    );
    let s = |x: &Value| x.as_str().unwrap().to_string();
    let p = G1Affine::<MacroBn254>::from_xy(
        fp_dec::<MacroBn254>(&s(&pa["x"])),
        fp_dec::<MacroBn254>(&s(&pa["y"])),
    )
    .unwrap();
    let q = G2Affine::<MacroBn254>::from_xy(
        fp2_dec::<MacroBn254>(&s(&qa["x"][0]), &s(&qa["x"][1])),
        fp2_dec::<MacroBn254>(&s(&qa["y"][0]), &s(&qa["y"][1])),
    )
    .unwrap();
    let e = pairing(&p, &q);
    assert_eq!(
        e,
        fp12_dec::<MacroBn254>(&coeff_list(&t["expected_gt_fp12"]))
    );
    // The preset on the same points.
    let p0 =
        G1Affine::<Bn254>::from_xy(fp_dec::<Bn254>(&s(&pa["x"])), fp_dec::<Bn254>(&s(&pa["y"])))
            .unwrap();
    let q0 = G2Affine::<Bn254>::from_xy(
        fp2_dec::<Bn254>(&s(&qa["x"][0]), &s(&qa["x"][1])),
        fp2_dec::<Bn254>(&s(&qa["y"][0]), &s(&qa["y"][1])),
    )
    .unwrap();
    assert_eq!(coeffs(&e), coeffs(&pairing(&p0, &q0)));

    // mcl's e(P, Q) for BN_SNARK1 (BN254).
    let v = load("bn_curves_and_pairing.json");
    let t = &v["pairing_tests"][1];
    assert_eq!(t["curve"], "BN_SNARK1");
    let (p, q) = (&t["P_G1"], &t["Q_G2"]);
    let p = G1Affine::<MacroBn254>::from_xy(
        fp_dec::<MacroBn254>(&s(&p["x"])),
        fp_dec::<MacroBn254>(&s(&p["y"])),
    )
    .unwrap();
    let q = G2Affine::<MacroBn254>::from_xy(
        fp2_dec::<MacroBn254>(&s(&q["x"]["a"]), &s(&q["x"]["b"])),
        fp2_dec::<MacroBn254>(&s(&q["y"]["a"]), &s(&q["y"]["b"])),
    )
    .unwrap();
    let list: Vec<String> = t["e_Fp12_decimal_mcl_order"]
        .as_array()
        .unwrap()
        .iter()
        .map(s)
        .collect();
    assert_eq!(pairing(&p, &q), fp12_dec::<MacroBn254>(&list));
}

#[test]
fn bn254_from_parameters_agrees_with_the_preset() {
    // The moduli are BN254's published p and r.
    assert_eq!(
        p_of::<MacroBn254>(),
        big("30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47")
    );
    assert_eq!(
        r_of::<MacroBn254>(),
        big("30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001")
    );
    // The macro derives its own generators (the preset's are EIP-197's): pair them on both.
    let g1 = G1Affine::<MacroBn254>::generator();
    let g2 = G2Affine::<MacroBn254>::generator();
    let to_preset_g1 = |p: &G1Affine<MacroBn254>| {
        let (x, y) = (p.x().unwrap(), p.y().unwrap());
        G1Affine::<Bn254>::from_xy(
            common::to_fp::<Bn254>(&from_fp::<MacroBn254>(&x)),
            common::to_fp::<Bn254>(&from_fp::<MacroBn254>(&y)),
        )
        .unwrap()
    };
    let f2 = |a: &Fp2<<MacroBn254 as BnParams>::Fp>| {
        Fp2::new(
            common::to_fp::<Bn254>(&from_fp::<MacroBn254>(&a.c0)),
            common::to_fp::<Bn254>(&from_fp::<MacroBn254>(&a.c1)),
        )
    };
    let h1 = to_preset_g1(&g1);
    let h2 = G2Affine::<Bn254>::from_xy(f2(&g2.x().unwrap()), f2(&g2.y().unwrap())).unwrap();
    assert_eq!(coeffs(&pairing(&g1, &g2)), coeffs(&pairing(&h1, &h2)));
    // And the preset's generators on the macro's curve.
    let (a, b) = (
        G1Affine::<Bn254>::generator(),
        G2Affine::<Bn254>::generator(),
    );
    let a1 = G1Affine::<MacroBn254>::from_xy(
        common::to_fp::<MacroBn254>(&from_fp::<Bn254>(&a.x().unwrap())),
        common::to_fp::<MacroBn254>(&from_fp::<Bn254>(&a.y().unwrap())),
    )
    .unwrap();
    let back = |c: &Fp2<<Bn254 as BnParams>::Fp>| {
        Fp2::new(
            common::to_fp::<MacroBn254>(&from_fp::<Bn254>(&c.c0)),
            common::to_fp::<MacroBn254>(&from_fp::<Bn254>(&c.c1)),
        )
    };
    let b1 = G2Affine::<MacroBn254>::from_xy(back(&b.x().unwrap()), back(&b.y().unwrap())).unwrap();
    assert_eq!(coeffs(&pairing(&a1, &b1)), coeffs(&pairing(&a, &b)));
}

/// p(z) and r(z) of the BN family, with num-bigint.
fn family(z: i64) -> (BigUint, BigUint) {
    let z = BigInt::from(z);
    let z2 = &z * &z;
    let z3 = &z2 * &z;
    let z4 = &z3 * &z;
    let base = BigInt::from(36) * &z4 + BigInt::from(36) * &z3 + BigInt::from(6) * &z + 1;
    let p: BigInt = &base + BigInt::from(24) * &z2;
    let r: BigInt = &base + BigInt::from(18) * &z2;
    (p.to_biguint().unwrap(), r.to_biguint().unwrap())
}

/// Little-endian bytes of n.
fn le(n: &BigUint) -> Vec<u8> {
    n.to_bytes_le()
}

/// Every property of the new curve C, with z the parameter it was built from.
fn check_new_curve<C: BnParams>(z: i64, b: u64, seed: u64) {
    let (p, r) = family(z);
    assert_eq!(p_of::<C>(), p);
    assert_eq!(r_of::<C>(), r);
    assert_eq!(C::Z_ABS, u128::from(z.unsigned_abs()));
    assert_eq!(C::Z_NEG, z < 0);

    // G1: y² = x³ + b, checked with num-bigint; r·P = O and P ≠ O.
    let g1 = G1Affine::<C>::generator();
    let (x, y) = (
        from_fp::<C>(&g1.x().unwrap()),
        from_fp::<C>(&g1.y().unwrap()),
    );
    assert_eq!((&y * &y) % &p, (&x * &x * &x + b) % &p);
    let g1p = G1Projective::<C>::GENERATOR;
    assert!(!bool::from(g1p.is_identity()));
    assert!(bool::from(g1p.mul_le_bytes(&le(&r)).is_identity()));
    assert!(!bool::from(
        g1p.mul_le_bytes(&le(&(&r - 1u32))).is_identity()
    ));

    // G2: r·Q = O and Q ≠ O (on the twist: checked by from_xy).
    let g2 = G2Affine::<C>::generator();
    assert!(bool::from(
        G2Affine::<C>::from_xy(g2.x().unwrap(), g2.y().unwrap()).is_some()
    ));
    let g2p = G2Projective::<C>::GENERATOR;
    assert!(!bool::from(g2p.is_identity()));
    assert!(bool::from(g2p.mul_le_bytes(&le(&r)).is_identity()));
    assert!(!bool::from(
        g2p.mul_le_bytes(&le(&(&r - 1u32))).is_identity()
    ));

    // Non-degeneracy and e^r = 1.
    let e = pairing(&g1, &g2);
    assert!(!bool::from(e.is_one()));
    assert!(bool::from(e.pow(&r.to_u64_digits()).is_one()));

    // Bilinearity: e(aP, bQ) = e(P, Q)^(ab mod r), the exponent reduced with num-bigint; aP and
    // bQ both by the generic ladder and by the GLV/GLS split (the derived endomorphism
    // constants).
    let mut rng = Rng(seed);
    for _ in 0..4 {
        let a = common::rand_fr::<C>(&mut rng);
        let bb = common::rand_fr::<C>(&mut rng);
        let ap = g1p.mul_le_bytes(&le(&a));
        let bq = g2p.mul_le_bytes(&le(&bb));
        assert_eq!(endo::g1_mul(&g1p, &to_fr::<C>(&a)), ap);
        assert_eq!(endo::g2_mul(&g2p, &to_fr::<C>(&bb)), bq);
        assert_eq!(fr_big::<C>(&to_fr::<C>(&a)), a);
        let ab = (&a * &bb) % &r;
        let lhs = pairing(&ap.to_affine(), &bq.to_affine());
        assert_eq!(lhs, e.pow(&ab.to_u64_digits()));
        // And a wrong exponent does not match.
        assert_ne!(lhs, e.pow(&((&ab + 1u32) % &r).to_u64_digits()));
    }
}

#[test]
fn new_curve_properties() {
    check_new_curve::<SmallBn>(SMALL_Z, 2, 0x5eed_0001);
}

#[test]
fn new_curve_properties_32_bit_limbs() {
    check_new_curve::<SmallBn32>(SMALL_Z, 2, 0x5eed_0002);
}

/// The zkcrypto traits on curves made by `bn_curve!` (feature `zkcrypto`): generic code written
/// against `pairing::Engine`, `group::Group` and `ff::PrimeField` only, with num-bigint the
/// oracle (the scalars' products, the moduli p(z) and r(z), the curve equations the encodings
/// must satisfy) and, for BN254 from its parameters, the [`Bn254`] preset (itself tested
/// against ark-bn254 in tests/zkcrypto.rs).
#[cfg(feature = "zkcrypto")]
mod zk {
    use std::convert::Infallible;

    use ff::PrimeField;
    use fieldgen_bn::zk::{Bn, G1Aff, G2Aff, G1, G2};
    use fieldgen_bn::{Bn254, BnParams};
    use group::{Curve, CurveAffine, Group, GroupEncoding, UncompressedEncoding};
    use num_bigint::BigUint;
    use pairing::{Engine, MillerLoopResult, MultiMillerLoop, PairingCurveAffine};

    use super::common::Rng;
    use super::{family, MacroBn254, SmallBn, SmallBn32, SMALL_Z};

    /// The tests' xorshift stream as a `rand_core` generator (for `Group::random`).
    struct TestRng(Rng);
    impl rand_core::TryRng for TestRng {
        type Error = Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Infallible> {
            Ok(u32::try_from(self.0.next() >> 32).unwrap())
        }
        fn try_next_u64(&mut self) -> Result<u64, Infallible> {
            Ok(self.0.next())
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
            dst.iter_mut()
                .for_each(|b| *b = self.0.next().to_le_bytes()[0]);
            Ok(())
        }
    }

    /// A uniform integer below m (64 extra bits, so the bias is negligible).
    fn below(m: &BigUint, rng: &mut TestRng) -> BigUint {
        let n = usize::try_from(m.bits().div_ceil(8)).unwrap() + 8;
        BigUint::from_bytes_le(&rng.0.bytes(n)) % m
    }

    /// The little-endian `Repr` of x (the layout `fieldgen_field::impl_ff!` documents), or
    /// `None` when x does not fit in it.
    fn repr_of<F: PrimeField>(x: &BigUint) -> Option<F::Repr> {
        let mut repr = F::Repr::default();
        let le = x.to_bytes_le();
        let n = repr.as_ref().len();
        if le.len() > n {
            return None;
        }
        repr.as_mut()[..le.len()].copy_from_slice(&le);
        Some(repr)
    }

    /// x (below the modulus) as a field element, through `from_repr`.
    fn elem<F: PrimeField>(x: &BigUint) -> F {
        F::from_repr(repr_of::<F>(x).unwrap()).unwrap()
    }

    /// A field element as its integer, through `to_repr`.
    fn int<F: PrimeField>(x: &F) -> BigUint {
        BigUint::from_bytes_le(x.to_repr().as_ref())
    }

    /// `ff::PrimeField` of a field with modulus m: its constants, `from_repr` accepting exactly
    /// the values below m, and the ring operations against num-bigint.
    fn prime_field_laws<F: PrimeField>(m: &BigUint, seed: u64) {
        assert_eq!(
            BigUint::parse_bytes(F::MODULUS.trim_start_matches("0x").as_bytes(), 16).unwrap(),
            *m
        );
        assert_eq!(u64::from(F::NUM_BITS), m.bits());
        assert_eq!(F::CAPACITY, F::NUM_BITS - 1);
        assert_eq!(
            F::Repr::default().as_ref().len() as u64,
            m.bits().div_ceil(8)
        );
        // from_repr: below m accepted, m and above rejected.
        assert_eq!(F::from_repr(F::Repr::default()).unwrap(), F::ZERO);
        let top = elem::<F>(&(m - 1u32));
        assert_eq!(top + F::ONE, F::ZERO);
        assert_eq!(int(&top), m - 1u32);
        for bad in [m.clone(), m + 1u32, m + 12345u32, m * 2u32] {
            if let Some(repr) = repr_of::<F>(&bad) {
                assert!(
                    bool::from(F::from_repr(repr).is_none()),
                    "{bad:#x} accepted"
                );
            }
        }
        let mut all = F::Repr::default();
        all.as_mut().iter_mut().for_each(|b| *b = 0xff);
        assert!(bool::from(F::from_repr(all).is_none()));
        // Products, sums and inverses against num-bigint.
        let mut rng = TestRng(Rng(seed));
        for _ in 0..16 {
            let (a, b) = (below(m, &mut rng), below(m, &mut rng));
            let (fa, fb) = (elem::<F>(&a), elem::<F>(&b));
            assert_eq!(int(&fa), a);
            assert_eq!(int(&(fa * fb)), (&a * &b) % m);
            assert_eq!(int(&(fa + fb)), (&a + &b) % m);
            assert_eq!(int(&(fa - fb)), (&a + m - &b) % m);
            if a != BigUint::ZERO {
                let inv = int(&fa.invert().unwrap());
                assert_eq!((&inv * &a) % m, BigUint::from(1u32));
            }
            assert_eq!(fa.is_odd().unwrap_u8(), a.bit(0) as u8);
            let s = fa.square();
            assert_eq!(s.sqrt().unwrap().square(), s);
        }
        let x = F::random(&mut rng);
        assert!(int(&x) < *m);
    }

    /// Bilinearity and the group orders of engine E through the traits alone, r = r(z) by
    /// num-bigint: e(aP, bQ) = e(P, Q)·(ab mod r) for random a, b with the product taken by
    /// num-bigint (and not for ab + 1), the multi-Miller-loop path, a·X + (r − a)·X = O for
    /// X in G1, G2 and GT (generators and random elements), and (r − 1)·X = −X.
    fn engine_laws<E: MultiMillerLoop>(r: &BigUint, seed: u64) {
        let mut rng = TestRng(Rng(seed));
        let (g1, g2) = (E::G1::generator(), E::G2::generator());
        let (p, q) = (g1.to_affine(), g2.to_affine());
        let e = E::pairing(&p, &q);
        assert!(!bool::from(e.is_identity()));
        assert_eq!(e, E::Gt::generator());
        assert_eq!(p.pairing_with(&q), e);
        assert_eq!(q.pairing_with(&p), e);
        for _ in 0..3 {
            let (a, b) = (below(r, &mut rng), below(r, &mut rng));
            let ab = (&a * &b) % r;
            let (fa, fb) = (elem::<E::Fr>(&a), elem::<E::Fr>(&b));
            let ap = (g1 * fa).to_affine();
            // By reference on purpose: `Mul<&Fr>` is one of the traits' bounds.
            #[allow(clippy::op_ref)]
            let bq = (g2 * &fb).to_affine();
            let lhs = E::pairing(&ap, &bq);
            assert_eq!(lhs, e * elem::<E::Fr>(&ab));
            assert_ne!(lhs, e * elem::<E::Fr>(&((&ab + 1u32) % r)));
            // Affine times scalar, and `*=`, agree with the projective product.
            assert_eq!(p * fa, g1 * fa);
            let mut acc = g2;
            acc *= fb;
            assert_eq!(acc.to_affine(), bq);
            // e(aP, bQ) · e(−(ab)P, Q) = 1 through one multi-Miller loop.
            let abp = (g1 * elem::<E::Fr>(&ab)).to_affine();
            let (prep_bq, prep_q) = (E::G2Prepared::from(bq), E::G2Prepared::from(q));
            let one = E::multi_miller_loop(&[(&ap, &prep_bq), (&-abp, &prep_q)]);
            assert!(bool::from(one.final_exponentiation().is_identity()));
            assert_eq!(
                E::multi_miller_loop(&[(&ap, &prep_bq)]).final_exponentiation(),
                lhs
            );
        }
        // Orders: r·X = O as a·X + (r − a)·X, with a·X ≠ O.
        let a = below(r, &mut rng);
        let (fa, fra) = (elem::<E::Fr>(&a), elem::<E::Fr>(&(r - &a)));
        let minus_one = elem::<E::Fr>(&(r - 1u32));
        let x1 = E::G1::random(&mut rng);
        for x in [g1, x1] {
            assert!(!bool::from((x * fa).is_identity()));
            assert!(bool::from((x * fa + x * fra).is_identity()));
            assert_eq!(x * minus_one, -x);
        }
        let x2 = E::G2::random(&mut rng);
        for x in [g2, x2] {
            assert!(!bool::from((x * fa).is_identity()));
            assert!(bool::from((x * fa + x * fra).is_identity()));
            assert_eq!(x * minus_one, -x);
        }
        let xt = E::Gt::random(&mut rng);
        for x in [e, xt] {
            assert!(!bool::from((x * fa).is_identity()));
            assert!(bool::from((x * fa + x * fra).is_identity()));
            assert_eq!(x * minus_one, -x);
        }
    }

    /// Fp2 arithmetic in num-bigint (i² = −1), for the twist equation.
    type F2 = (BigUint, BigUint);
    fn f2_mul(x: &F2, y: &F2, p: &BigUint) -> F2 {
        let re = (&x.0 * &y.0 + (p - (&x.1 * &y.1) % p)) % p;
        let im = (&x.0 * &y.1 + &x.1 * &y.0) % p;
        (re, im)
    }
    fn f2_sub(x: &F2, y: &F2, p: &BigUint) -> F2 {
        ((&x.0 + p - &y.0) % p, (&x.1 + p - &y.1) % p)
    }

    /// An encoding of one type holding the given bytes (of its length).
    fn copied<T: Default + AsMut<[u8]>>(bytes: &[u8]) -> T {
        let mut t = T::default();
        t.as_mut().copy_from_slice(bytes);
        t
    }

    /// One big-endian coordinate of `n` bytes, checked below p.
    fn coord(bytes: &[u8], p: &BigUint) -> BigUint {
        let v = BigUint::from_bytes_be(bytes);
        assert!(v < *p);
        v
    }

    /// The encodings of engine E for the curve y² = x³ + b over Fp (p = p(z) by num-bigint)
    /// with twist y² = x³ + b/ξ, ξ = ξ_a + i, through the traits only: lengths BYTES, 2·BYTES
    /// (compressed G1, G2) and 2·BYTES, 4·BYTES (uncompressed), round trips, the uncompressed
    /// coordinates on the curve by num-bigint, the compressed form x with the sign of y in bit
    /// 7 (RFC 9380 sgn0; for G2 of the Fp2 value y) and the identity flag in bit 6, and
    /// rejection of coordinates ≥ p and of points off the curve.
    fn encoding_laws<E: Engine>(p: &BigUint, b: u64, xi_a: u64, seed: u64) {
        let mut rng = TestRng(Rng(seed));
        let n = usize::try_from(p.bits().div_ceil(8)).unwrap();
        let b = BigUint::from(b);
        let xi: F2 = (BigUint::from(xi_a), BigUint::from(1u32));
        let p_be = {
            let v = p.to_bytes_be();
            let mut out = vec![0u8; n - v.len()];
            out.extend(v);
            out
        };
        for k in 0..4 {
            // G1.
            let x = if k == 0 {
                E::G1::generator()
            } else {
                E::G1::random(&mut rng)
            };
            let c = x.to_bytes();
            assert_eq!(c.as_ref().len(), n);
            assert_eq!(E::G1::from_bytes(&c).unwrap(), x);
            assert_eq!(E::G1::from_bytes_unchecked(&c).unwrap(), x);
            let xa = x.to_affine();
            assert_eq!(xa.to_bytes().as_ref(), c.as_ref());
            assert_eq!(E::G1Affine::from_bytes(&copied(c.as_ref())).unwrap(), xa);
            let u = xa.to_uncompressed();
            assert_eq!(u.as_ref().len(), 2 * n);
            assert_eq!(E::G1Affine::from_uncompressed(&u).unwrap(), xa);
            let (ux, uy) = (coord(&u.as_ref()[..n], p), coord(&u.as_ref()[n..], p));
            assert_eq!((&uy * &uy) % p, (&ux * &ux * &ux + &b) % p);
            let mut cx = c.as_ref().to_vec();
            assert_eq!(cx[0] >> 7, uy.bit(0) as u8);
            assert_eq!(cx[0] & 0x40, 0);
            cx[0] &= 0x3f;
            assert_eq!(BigUint::from_bytes_be(&cx), ux);
            // y + 1 is off the curve; x = p is out of range.
            let mut bad: <E::G1Affine as UncompressedEncoding>::Uncompressed = copied(u.as_ref());
            let y1 = (&uy + 1u32) % p;
            let y1 = y1.to_bytes_be();
            bad.as_mut()[n..].fill(0);
            bad.as_mut()[2 * n - y1.len()..].copy_from_slice(&y1);
            assert!(bool::from(E::G1Affine::from_uncompressed(&bad).is_none()));
            let mut bad: <E::G1Affine as UncompressedEncoding>::Uncompressed = copied(u.as_ref());
            bad.as_mut()[..n].copy_from_slice(&p_be);
            assert!(bool::from(E::G1Affine::from_uncompressed(&bad).is_none()));
            let mut bad = c;
            bad.as_mut().copy_from_slice(&p_be);
            bad.as_mut()[0] |= c.as_ref()[0] & 0x80;
            assert!(bool::from(E::G1::from_bytes(&bad).is_none()));

            // G2: Fp2 values as c1 ‖ c0.
            let y = if k == 0 {
                E::G2::generator()
            } else {
                E::G2::random(&mut rng)
            };
            let c = y.to_bytes();
            assert_eq!(c.as_ref().len(), 2 * n);
            assert_eq!(E::G2::from_bytes(&c).unwrap(), y);
            let ya = y.to_affine();
            assert_eq!(E::G2Affine::from_bytes(&copied(c.as_ref())).unwrap(), ya);
            let u = ya.to_uncompressed();
            assert_eq!(u.as_ref().len(), 4 * n);
            assert_eq!(E::G2Affine::from_uncompressed(&u).unwrap(), ya);
            let w = u.as_ref();
            let vx: F2 = (coord(&w[n..2 * n], p), coord(&w[..n], p));
            let vy: F2 = (coord(&w[3 * n..], p), coord(&w[2 * n..3 * n], p));
            // (y² − x³)·ξ = b.
            let x3 = f2_mul(&f2_mul(&vx, &vx, p), &vx, p);
            let lhs = f2_mul(&f2_sub(&f2_mul(&vy, &vy, p), &x3, p), &xi, p);
            assert_eq!(lhs, (&b % p, BigUint::ZERO));
            // sgn0 of y = c0 + c1·i (RFC 9380 §4.1): c0 odd, or c0 = 0 and c1 odd.
            let sgn = vy.0.bit(0) || (vy.0 == BigUint::ZERO && vy.1.bit(0));
            let mut cx = c.as_ref().to_vec();
            assert_eq!(cx[0] >> 7, sgn as u8);
            assert_eq!(cx[0] & 0x40, 0);
            cx[0] &= 0x3f;
            assert_eq!(cx, w[..2 * n].to_vec());
            let mut bad: <E::G2Affine as UncompressedEncoding>::Uncompressed = copied(u.as_ref());
            bad.as_mut()[3 * n..].fill(0);
            let y0 = ((&vy.0 + 1u32) % p).to_bytes_be();
            bad.as_mut()[4 * n - y0.len()..].copy_from_slice(&y0);
            assert!(bool::from(E::G2Affine::from_uncompressed(&bad).is_none()));
        }
        // The identity: compressed 0x40 then zeros, uncompressed all zero.
        let id = E::G1::identity().to_bytes();
        assert_eq!(id.as_ref()[0], 0x40);
        assert!(id.as_ref()[1..].iter().all(|&v| v == 0));
        assert!(bool::from(E::G1::from_bytes(&id).unwrap().is_identity()));
        let u = E::G1Affine::identity().to_uncompressed();
        assert!(u.as_ref().iter().all(|&v| v == 0));
        assert!(bool::from(
            E::G1Affine::from_uncompressed(&u).unwrap().is_identity()
        ));
        let id = E::G2::identity().to_bytes();
        assert_eq!(id.as_ref()[0], 0x40);
        assert!(bool::from(E::G2::from_bytes(&id).unwrap().is_identity()));
        let u = E::G2Affine::identity().to_uncompressed();
        assert!(u.as_ref().iter().all(|&v| v == 0));
        assert!(bool::from(
            E::G2Affine::from_uncompressed(&u).unwrap().is_identity()
        ));
    }

    /// The engine's scalar field is the macro's GF(r), at compile time.
    fn fr_is<E: Engine<Fr = F>, F>() {}

    #[test]
    fn macro_curve_through_the_traits() {
        fr_is::<Bn<SmallBn>, super::SmallBnFr>();
        let (p, r) = family(SMALL_Z);
        prime_field_laws::<super::SmallBnFr>(&r, 0x2a01);
        prime_field_laws::<super::SmallBnFp>(&p, 0x2a02);
        engine_laws::<Bn<SmallBn>>(&r, 0x2a03);
        encoding_laws::<Bn<SmallBn>>(&p, 2, 1, 0x2a04);
    }

    #[test]
    fn macro_curve_through_the_traits_32_bit_limbs() {
        fr_is::<Bn<SmallBn32>, super::SmallBn32Fr>();
        let (p, r) = family(SMALL_Z);
        prime_field_laws::<super::SmallBn32Fr>(&r, 0x2a11);
        prime_field_laws::<super::SmallBn32Fp>(&p, 0x2a12);
        engine_laws::<Bn<SmallBn32>>(&r, 0x2a13);
        encoding_laws::<Bn<SmallBn32>>(&p, 2, 1, 0x2a14);
    }

    /// BN254 from its parameters, through the traits, against the preset: the preset's
    /// encodings decode on the macro curve, scalar multiples (the same integers) re-encode to
    /// the preset's bytes, and the pairings of the decoded points agree.
    #[test]
    fn macro_bn254_through_the_traits_matches_the_preset() {
        type PresetFr = <Bn254 as BnParams>::Fr;
        let r = super::r_of::<Bn254>();
        let p = super::p_of::<Bn254>();
        engine_laws::<Bn<MacroBn254>>(&r, 0x2a21);
        encoding_laws::<Bn<MacroBn254>>(&p, 3, 9, 0x2a22);
        encoding_laws::<Bn<Bn254>>(&p, 3, 9, 0x2a23);
        prime_field_laws::<PresetFr>(&r, 0x2a24);

        let mut rng = TestRng(Rng(0x2a25));
        for _ in 0..3 {
            let (a, b) = (below(&r, &mut rng), below(&r, &mut rng));
            let pp = G1::<Bn254>::generator() * elem::<PresetFr>(&a);
            let pq = G2::<Bn254>::generator() * elem::<PresetFr>(&a);
            let mp = G1::<MacroBn254>::from_bytes(&copied(pp.to_bytes().as_ref())).unwrap();
            let mq = G2Aff::<MacroBn254>::from_uncompressed(&copied(
                pq.to_affine().to_uncompressed().as_ref(),
            ))
            .unwrap();
            let kb = elem::<super::MacroBn254Fr>(&b);
            assert_eq!(
                (mp * kb).to_bytes().as_ref(),
                (pp * elem::<PresetFr>(&b)).to_bytes().as_ref()
            );
            assert_eq!(
                (mq * kb).to_affine().to_uncompressed().as_ref(),
                (pq * elem::<PresetFr>(&b))
                    .to_affine()
                    .to_uncompressed()
                    .as_ref()
            );
            let em = Bn::<MacroBn254>::pairing(&mp.to_affine(), &mq);
            let ep = Bn::<Bn254>::pairing(&pp.to_affine(), &pq.to_affine());
            assert_eq!(super::coeffs(&em.0), super::coeffs(&ep.0));
            let g: G1Aff<MacroBn254> = mp.into();
            assert_eq!(G1::from(g), mp);
        }
    }
}
