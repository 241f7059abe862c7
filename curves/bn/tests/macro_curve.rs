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
