//! Published vectors: go-ethereum's EIP-196/197 precompile files, the BN254 GT values of the
//! `bn` crate and Aptos (arkworks), and mcl's pairing values for Fp254BNb and BN_SNARK1.

use fieldgen_bn::eth::{ecadd, ecmul, ecpairing};
use fieldgen_bn::{pairing, Bn254, BnParams, Fp12, Fp254Bnb, G1Affine, G2Affine};
use fieldgen_field::Field;
use serde_json::Value;

mod common;
use common::{fp12_dec, fp2_dec, fp_dec, hex, load};

#[test]
fn geth_ecadd() {
    let v = load("bn256Add.json");
    let cases = v.as_array().unwrap();
    assert!(cases.len() >= 16);
    for c in cases {
        let out = ecadd(&hex(c["Input"].as_str().unwrap())).unwrap();
        assert_eq!(
            out.to_vec(),
            hex(c["Expected"].as_str().unwrap()),
            "{}",
            c["Name"]
        );
    }
}

#[test]
fn geth_ecmul() {
    let v = load("bn256ScalarMul.json");
    let cases = v.as_array().unwrap();
    assert!(cases.len() >= 19);
    for c in cases {
        let out = ecmul(&hex(c["Input"].as_str().unwrap())).unwrap();
        assert_eq!(
            out.to_vec(),
            hex(c["Expected"].as_str().unwrap()),
            "{}",
            c["Name"]
        );
    }
}

#[test]
fn geth_ecpairing() {
    let v = load("bn256Pairing.json");
    let cases = v.as_array().unwrap();
    assert!(cases.len() >= 14);
    for c in cases {
        let out = ecpairing(&hex(c["Input"].as_str().unwrap())).unwrap();
        assert_eq!(
            out.to_vec(),
            hex(c["Expected"].as_str().unwrap()),
            "{}",
            c["Name"]
        );
    }
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

#[test]
fn bn254_published_gt_values() {
    let v = load("bn254_pairing_values.json");
    let published = v["published"].as_array().unwrap();
    // e(aG1, bG2) of the `bn` crate, with the affine points as given.
    let t = &published[0];
    let pa = &t["input"]["P_affine_computed"];
    let qa = &t["input"]["Q_affine_computed"];
    let p = G1Affine::<Bn254>::from_xy(
        fp_dec::<Bn254>(pa["x"].as_str().unwrap()),
        fp_dec::<Bn254>(pa["y"].as_str().unwrap()),
    )
    .unwrap();
    let q = G2Affine::<Bn254>::from_xy(
        fp2_dec::<Bn254>(qa["x"][0].as_str().unwrap(), qa["x"][1].as_str().unwrap()),
        fp2_dec::<Bn254>(qa["y"][0].as_str().unwrap(), qa["y"][1].as_str().unwrap()),
    )
    .unwrap();
    let expected = fp12_dec::<Bn254>(&coeff_list(&t["expected_gt_fp12"]));
    assert_eq!(pairing(&p, &q), expected);
    // e(G1, G2) of Aptos (arkworks).
    let t = &published[1];
    let expected = fp12_dec::<Bn254>(&coeff_list(&t["expected_gt_fp12"]));
    let g1 = G1Affine::<Bn254>::generator();
    let g2 = G2Affine::<Bn254>::generator();
    assert_eq!(pairing(&g1, &g2), expected);
    // e(G1, G2)^7, as the serialised arkworks value (12 coefficients, 32 bytes LE each).
    let t = &published[2];
    let bytes = hex(t["expected_gt_arkworks_FormatFq12LscLsb_hex"]
        .as_str()
        .unwrap());
    let mut c = [<<Bn254 as BnParams>::Fp as Field>::ZERO; 12];
    for (k, chunk) in bytes.chunks(32).enumerate() {
        let mut b = [0u8; 32];
        b.copy_from_slice(chunk);
        c[k] = Option::from(<<Bn254 as BnParams>::Fp as Field>::from_le_bytes(&b)).unwrap();
    }
    let e = pairing(&g1, &g2);
    let e7 = e.square().square() * e.square() * e;
    assert_eq!(e7, Fp12::from_coeffs(&c));
}

fn mcl_case<C: BnParams>(t: &Value) -> (Fp12<C>, Fp12<C>) {
    let p = &t["P_G1"];
    let q = &t["Q_G2"];
    let p = G1Affine::<C>::from_xy(
        fp_dec::<C>(p["x"].as_str().unwrap()),
        fp_dec::<C>(p["y"].as_str().unwrap()),
    )
    .unwrap();
    let q = G2Affine::<C>::from_xy(
        fp2_dec::<C>(q["x"]["a"].as_str().unwrap(), q["x"]["b"].as_str().unwrap()),
        fp2_dec::<C>(q["y"]["a"].as_str().unwrap(), q["y"]["b"].as_str().unwrap()),
    )
    .unwrap();
    let list: Vec<String> = t["e_Fp12_decimal_mcl_order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    (pairing(&p, &q), fp12_dec::<C>(&list))
}

#[test]
fn mcl_pairing_values() {
    let v = load("bn_curves_and_pairing.json");
    let tests = v["pairing_tests"].as_array().unwrap();
    let (ours, mcl) = mcl_case::<Fp254Bnb>(&tests[0]);
    assert_eq!(ours, mcl, "Fp254BNb");
    let (ours, mcl) = mcl_case::<Bn254>(&tests[1]);
    assert_eq!(ours, mcl, "BN_SNARK1");
}
