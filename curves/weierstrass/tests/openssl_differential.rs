//! Differential tests against the system OpenSSL (the `openssl` crate) on fresh OpenSSL key
//! pairs, for all four curves (P-224 has no RustCrypto peer here): public keys, ECDH shared
//! secrets both ways, OpenSSL's (randomised) signatures verified by us and ours, RFC 6979 and
//! hedged, verified by OpenSSL, over SHA-224/256/384/512 digests.
//! `WEIERSTRASS_DIFF_ROUNDS` sets the number of keys per curve (default 16).

// The system OpenSSL is a dev-dependency on 64-bit hosts only (see Cargo.toml).
#![cfg(target_pointer_width = "64")]

use fieldgen_field::Field;
use fieldgen_weierstrass::curves::{Secp256k1, P224, P256, P384};
use fieldgen_weierstrass::ecdsa::{PublicKey, SecretKey, Signature};
use fieldgen_weierstrass::PrimeGroup;
use openssl::bn::BigNumContext;
use openssl::derive::Deriver;
use openssl::ec::{EcGroup, EcKey, PointConversionForm};
use openssl::ecdsa::EcdsaSig;
use openssl::nid::Nid;
use openssl::pkey::{PKey, Private};
use sha2::Digest;

fn rounds() -> u32 {
    std::env::var("WEIERSTRASS_DIFF_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16)
}

/// A message digest of each SHA-2 length, chosen by the round.
fn digest(i: u32, msg: &[u8]) -> Vec<u8> {
    match i % 4 {
        0 => sha2::Sha224::digest(msg).to_vec(),
        1 => sha2::Sha256::digest(msg).to_vec(),
        2 => sha2::Sha384::digest(msg).to_vec(),
        _ => sha2::Sha512::digest(msg).to_vec(),
    }
}

fn ours_from<G: PrimeGroup>(key: &EcKey<Private>) -> SecretKey<G> {
    let len = i32::try_from(<G::Scalar as Field>::BYTES).unwrap();
    SecretKey::<G>::from_bytes(&key.private_key().to_vec_padded(len).unwrap()).unwrap()
}

fn check<G: PrimeGroup>(nid: Nid) {
    let group = EcGroup::from_curve_name(nid).unwrap();
    let mut ctx = BigNumContext::new().unwrap();
    let len = i32::try_from(<G::Scalar as Field>::BYTES).unwrap();
    for i in 0..rounds() {
        let a = EcKey::generate(&group).unwrap();
        let b = EcKey::generate(&group).unwrap();
        let ours_a = ours_from::<G>(&a);
        let a_pub = a
            .public_key()
            .to_bytes(&group, PointConversionForm::UNCOMPRESSED, &mut ctx)
            .unwrap();
        let b_pub = b
            .public_key()
            .to_bytes(&group, PointConversionForm::COMPRESSED, &mut ctx)
            .unwrap();
        assert_eq!(ours_a.public_key().to_sec1_bytes(false), a_pub);

        // ECDH: OpenSSL's derive (x-coordinate, SEC 1 §3.3.1) against ours, both directions.
        let pa = PKey::from_ec_key(a.clone()).unwrap();
        let pb = PKey::from_ec_key(b.clone()).unwrap();
        let mut deriver = Deriver::new(&pa).unwrap();
        deriver.set_peer(&pb).unwrap();
        let theirs = deriver.derive_to_vec().unwrap();
        let peer = PublicKey::<G>::from_sec1_bytes(&b_pub).unwrap();
        assert_eq!(ours_a.diffie_hellman(&peer).unwrap().as_bytes(), theirs);
        let ours_b = ours_from::<G>(&b);
        let peer_a = PublicKey::<G>::from_sec1_bytes(&a_pub).unwrap();
        assert_eq!(ours_b.diffie_hellman(&peer_a).unwrap().as_bytes(), theirs);

        // ECDSA: OpenSSL signs the digest, we verify; we sign, OpenSSL verifies.
        let msg = format!("OpenSSL differential message {i}");
        let h = digest(i, msg.as_bytes());
        let sig = EcdsaSig::sign(&h, &a).unwrap();
        let mut rs = sig.r().to_vec_padded(len).unwrap();
        rs.extend(sig.s().to_vec_padded(len).unwrap());
        let theirs = Signature::<G>::from_slice(&rs).unwrap();
        assert!(ours_a.public_key().verify_prehash(&h, &theirs).is_ok());
        assert_eq!(
            Signature::<G>::from_der(&sig.to_der().unwrap()).unwrap(),
            theirs
        );
        let mut other = h.clone();
        other[0] ^= 1;
        assert!(ours_a.public_key().verify_prehash(&other, &theirs).is_err());

        for ours in [
            ours_a.sign_prehash(&h),
            ours_a.sign_prehash_with::<sha2::Sha512>(&h, b"extra entropy"),
        ] {
            let parsed = EcdsaSig::from_der(&ours.to_der()).unwrap();
            assert!(parsed.verify(&h, &a).unwrap(), "round {i}");
            assert!(!parsed.verify(&other, &a).unwrap(), "round {i}");
        }
    }
}

#[test]
fn p224_against_openssl() {
    check::<P224>(Nid::SECP224R1);
}

#[test]
fn p256_against_openssl() {
    check::<P256>(Nid::X9_62_PRIME256V1);
}

#[test]
fn p384_against_openssl() {
    check::<P384>(Nid::SECP384R1);
}

#[test]
fn secp256k1_against_openssl() {
    check::<Secp256k1>(Nid::SECP256K1);
}
