//! Malformed input is an error value, one test per case: wrong length, coordinate ≥ p,
//! off-curve points, G2 points outside the subgroup, bad flags.

use fieldgen_bn::eth::{ecadd, ecmul, ecpairing};
use fieldgen_bn::groups::G1Encoding;
use fieldgen_bn::{Bn254, Bn462, Error, G1Affine, G2Affine, G2SubgroupCheck};

/// BN254's p, big-endian (EIP-196).
const P: [u8; 32] = [
    0x30, 0x64, 0x4e, 0x72, 0xe1, 0x31, 0xa0, 0x29, 0xb8, 0x50, 0x45, 0xb6, 0x81, 0x81, 0x58, 0x5d,
    0x97, 0x81, 0x6a, 0x91, 0x68, 0x71, 0xca, 0x8d, 0x3c, 0x20, 0x8c, 0x16, 0xd8, 0x7c, 0xfd, 0x47,
];

fn g1_gen() -> [u8; 64] {
    let mut b = [0u8; 64];
    b[31] = 1;
    b[63] = 2;
    b
}

fn g2_gen() -> [u8; 128] {
    let mut b = [0u8; 128];
    G2SubgroupCheck::write_uncompressed(&G2Affine::<Bn254>::generator(), &mut b).unwrap();
    b
}

#[test]
fn ecadd_coordinate_not_below_p() {
    let mut input = [0u8; 128];
    input[..32].copy_from_slice(&P);
    input[64..].copy_from_slice(&g1_gen());
    assert_eq!(ecadd(&input), Err(Error::CoordinateOutOfRange));
}

#[test]
fn ecadd_off_curve() {
    let mut input = [0u8; 128];
    input[..64].copy_from_slice(&g1_gen());
    input[63] = 3;
    assert_eq!(ecadd(&input), Err(Error::NotOnCurve));
}

#[test]
fn ecadd_short_input_is_zero_padded() {
    // (1, 2) + (0, 0) with the second point cut off entirely: the generator.
    assert_eq!(ecadd(&g1_gen()).unwrap(), g1_gen());
    assert_eq!(ecadd(&[]).unwrap(), [0u8; 64]);
}

#[test]
fn ecmul_off_curve() {
    let mut input = [0u8; 96];
    input[31] = 1;
    input[63] = 1;
    input[95] = 2;
    assert_eq!(ecmul(&input), Err(Error::NotOnCurve));
}

#[test]
fn ecpairing_length_not_multiple_of_192() {
    assert_eq!(ecpairing(&[0u8; 191]), Err(Error::InvalidLength));
    assert_eq!(ecpairing(&[0u8; 193]), Err(Error::InvalidLength));
    assert_eq!(ecpairing(&[]).unwrap()[31], 1);
}

#[test]
fn ecpairing_g2_coordinate_not_below_p() {
    let mut input = [0u8; 192];
    input[..64].copy_from_slice(&g1_gen());
    input[64..].copy_from_slice(&g2_gen());
    input[64..96].copy_from_slice(&P);
    assert_eq!(ecpairing(&input), Err(Error::CoordinateOutOfRange));
}

#[test]
fn ecpairing_g2_off_twist() {
    let mut input = [0u8; 192];
    input[..64].copy_from_slice(&g1_gen());
    input[64..].copy_from_slice(&g2_gen());
    input[191] ^= 1;
    assert_eq!(ecpairing(&input), Err(Error::NotOnCurve));
}

#[test]
fn ecpairing_g2_outside_subgroup() {
    // x = 1 + 2i... the first x = k + i (k ≥ 1) on the twist: a point of E′(Fp2) whose order
    // is not r (checked by the subgroup test itself being false, and by its cofactor-cleared
    // image being in G2).
    use fieldgen_bn::{BnParams, Fp2};
    use fieldgen_field::Field;
    type F = <Bn254 as BnParams>::Fp;
    let mut q = None;
    for k in 1u64.. {
        let x = Fp2::new(F::from_u64(k), F::ONE);
        let rhs = x.square() * x + Bn254::B_TWIST;
        if let Some(y) = Option::<Fp2<F>>::from(rhs.sqrt()) {
            q = Some(G2Affine::<Bn254>::from_xy(x, y).unwrap());
            break;
        }
    }
    let q = q.unwrap();
    let mut input = [0u8; 192];
    input[..64].copy_from_slice(&g1_gen());
    G2SubgroupCheck::write_uncompressed(&q, &mut input[64..]).unwrap();
    assert_eq!(ecpairing(&input), Err(Error::NotInSubgroup));
}

#[test]
fn g1_wrong_lengths() {
    assert_eq!(
        G1Affine::<Bn254>::from_uncompressed(&[0u8; 63]),
        Err(Error::InvalidLength)
    );
    assert_eq!(
        G1Affine::<Bn254>::from_compressed(&[0u8; 33]),
        Err(Error::InvalidLength)
    );
    assert_eq!(
        G2Affine::<Bn254>::from_uncompressed(&[0u8; 127]),
        Err(Error::InvalidLength)
    );
    assert_eq!(
        <G2Affine<Bn254> as G2SubgroupCheck>::from_compressed(&[0u8; 65]),
        Err(Error::InvalidLength)
    );
    let mut out = [0u8; 10];
    assert_eq!(
        G1Affine::<Bn254>::generator().write_uncompressed(&mut out),
        Err(Error::InvalidLength)
    );
}

#[test]
fn compressed_bad_identity_flags() {
    let mut b = [0u8; 32];
    b[0] = 0x40;
    assert_eq!(
        G1Affine::<Bn254>::from_compressed(&b),
        Ok(G1Affine::identity())
    );
    b[31] = 1;
    assert_eq!(
        G1Affine::<Bn254>::from_compressed(&b),
        Err(Error::InvalidFlags)
    );
    b[31] = 0;
    b[0] = 0xc0;
    assert_eq!(
        G1Affine::<Bn254>::from_compressed(&b),
        Err(Error::InvalidFlags)
    );
}

#[test]
fn compressed_x_not_below_p() {
    let mut b = P;
    b[31] += 1;
    assert_eq!(
        G1Affine::<Bn254>::from_compressed(&b),
        Err(Error::CoordinateOutOfRange)
    );
}

#[test]
fn compressed_x_without_y() {
    // x³ + 3 is a non-square for some small x; find one and expect NotOnCurve.
    let mut found = false;
    for x in 1u8..50 {
        let mut b = [0u8; 32];
        b[31] = x;
        if G1Affine::<Bn254>::from_compressed(&b) == Err(Error::NotOnCurve) {
            found = true;
            break;
        }
    }
    assert!(found);
}

#[test]
fn bn462_uncompressed_off_curve() {
    let mut b = [0u8; 116];
    b[57] = 1;
    b[115] = 1;
    assert_eq!(
        G1Affine::<Bn462>::from_uncompressed(&b),
        Err(Error::NotOnCurve)
    );
}

#[test]
fn gt_encoding_round_trip_and_rejections() {
    use fieldgen_bn::{pairing, Fp12};
    let e = pairing(
        &G1Affine::<Bn254>::generator(),
        &G2Affine::<Bn254>::generator(),
    );
    let mut buf = [0u8; 384];
    e.write_be_bytes(&mut buf).unwrap();
    assert_eq!(Fp12::<Bn254>::gt_from_be_bytes(&buf), Ok(e));
    assert_eq!(
        Fp12::<Bn254>::gt_from_be_bytes(&buf[..383]),
        Err(Error::InvalidLength)
    );
    // A coefficient equal to p.
    let mut bad = buf;
    bad[32..64].copy_from_slice(&P);
    assert_eq!(
        Fp12::<Bn254>::gt_from_be_bytes(&bad),
        Err(Error::CoordinateOutOfRange)
    );
    // An element of Fp12 outside GT: e with one coefficient changed.
    let mut other = buf;
    other[383] ^= 1;
    assert_eq!(
        Fp12::<Bn254>::gt_from_be_bytes(&other),
        Err(Error::NotInSubgroup)
    );
}
