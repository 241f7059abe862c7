//! Malformed keys, points and signatures get an error value, never a panic. The moduli are
//! the published ones (SP 800-186 §3.2.1.3, SEC 2 v2 §2.4.1), typed here independently.

mod common;

use common::unhex;
use fieldgen_weierstrass::curves::{Secp256k1, P256};
use fieldgen_weierstrass::ecdsa::{PublicKey, SecretKey, Signature};
use fieldgen_weierstrass::{AffinePoint, Error};

const P256_P: &str = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";
const P256_N: &str = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
const P256_GX: &str = "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296";
const P256_GY: &str = "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5";
const K256_N: &str = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";

fn point(tag: u8, parts: &[&str]) -> Vec<u8> {
    let mut v = vec![tag];
    for p in parts {
        v.extend(unhex(p));
    }
    v
}

fn add_small(hex: &str, k: u8) -> String {
    let mut b = unhex(hex);
    let mut carry = k as u16;
    for x in b.iter_mut().rev() {
        let [low, high] = (*x as u16 + carry).to_le_bytes();
        *x = low;
        carry = u16::from(high);
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn points_of_wrong_length() {
    let good = point(4, &[P256_GX, P256_GY]);
    assert!(PublicKey::<P256>::from_sec1_bytes(&good).is_ok());
    for len in [0, 1, 32, 33, 34, 64, 66] {
        let mut v = good.clone();
        v.resize(len, 0);
        assert_eq!(
            PublicKey::<P256>::from_sec1_bytes(&v).unwrap_err(),
            Error::InvalidLength,
            "{len}"
        );
    }
    let comp = point(2, &[P256_GX]);
    assert_eq!(
        PublicKey::<P256>::from_sec1_bytes(&comp[..32]).unwrap_err(),
        Error::InvalidLength
    );
    assert_eq!(
        AffinePoint::<P256>::from_sec1_bytes(&[0, 0]).unwrap_err(),
        Error::InvalidLength
    );
}

#[test]
fn unknown_and_hybrid_tags() {
    for tag in [1u8, 5, 6, 7, 0xff] {
        let v = point(tag, &[P256_GX, P256_GY]);
        assert_eq!(
            PublicKey::<P256>::from_sec1_bytes(&v).unwrap_err(),
            Error::InvalidTag,
            "{tag}"
        );
    }
}

#[test]
fn coordinates_not_below_p() {
    // x = p and x = p + 1 (non-canonical), y = p + y (non-canonical for a valid y).
    for x in [P256_P.to_string(), add_small(P256_P, 1)] {
        let v = point(2, &[&x]);
        assert_eq!(
            PublicKey::<P256>::from_sec1_bytes(&v).unwrap_err(),
            Error::CoordinateOutOfRange
        );
        let v = point(4, &[&x, P256_GY]);
        assert_eq!(
            PublicKey::<P256>::from_sec1_bytes(&v).unwrap_err(),
            Error::CoordinateOutOfRange
        );
    }
    let ff = "ff".repeat(32);
    let v = point(4, &[P256_GX, &ff]);
    assert_eq!(
        PublicKey::<P256>::from_sec1_bytes(&v).unwrap_err(),
        Error::CoordinateOutOfRange
    );
}

#[test]
fn points_off_the_curve() {
    let v = point(4, &[P256_GX, &add_small(P256_GY, 1)]);
    assert_eq!(
        PublicKey::<P256>::from_sec1_bytes(&v).unwrap_err(),
        Error::NotOnCurve
    );
    // (0, 0) is the usual stand-in for infinity in broken encoders; it is not on P-256.
    let zero = "00".repeat(32);
    let v = point(4, &[&zero, &zero]);
    assert_eq!(
        PublicKey::<P256>::from_sec1_bytes(&v).unwrap_err(),
        Error::NotOnCurve
    );
    // An x with x³ + 7 a non-square on secp256k1 (x = 5: 132 is not a square mod p).
    let mut x = vec![0u8; 32];
    x[31] = 5;
    let mut v = vec![2u8];
    v.extend(&x);
    assert_eq!(
        PublicKey::<Secp256k1>::from_sec1_bytes(&v).unwrap_err(),
        Error::NotOnCurve
    );
}

#[test]
fn identity_as_public_key() {
    assert_eq!(
        PublicKey::<P256>::from_sec1_bytes(&[0]).unwrap_err(),
        Error::Identity
    );
    assert!(bool::from(
        AffinePoint::<P256>::from_sec1_bytes(&[0])
            .unwrap()
            .is_identity()
    ));
}

#[test]
fn secret_keys_out_of_range() {
    for d in [
        "00".repeat(32),
        P256_N.to_string(),
        add_small(P256_N, 1),
        "ff".repeat(32),
    ] {
        assert_eq!(
            SecretKey::<P256>::from_bytes(&unhex(&d)).unwrap_err(),
            Error::InvalidScalar
        );
    }
    assert_eq!(
        SecretKey::<P256>::from_bytes(&[1u8; 31]).unwrap_err(),
        Error::InvalidLength
    );
    assert_eq!(
        SecretKey::<P256>::from_bytes(&[1u8; 33]).unwrap_err(),
        Error::InvalidLength
    );
}

#[test]
fn signature_scalars_out_of_range() {
    let one = format!("{}01", "00".repeat(31));
    let zero = "00".repeat(32);
    for (r, s) in [
        (zero.clone(), one.clone()),
        (one.clone(), zero.clone()),
        (P256_N.to_string(), one.clone()),
        (one.clone(), P256_N.to_string()),
        (one.clone(), add_small(P256_N, 5)),
    ] {
        let sig = unhex(&(r + &s));
        assert_eq!(
            Signature::<P256>::from_slice(&sig).unwrap_err(),
            Error::InvalidScalar
        );
    }
    assert_eq!(
        Signature::<P256>::from_slice(&[1u8; 63]).unwrap_err(),
        Error::InvalidLength
    );
    assert_eq!(
        Signature::<P256>::from_slice(&[1u8; 65]).unwrap_err(),
        Error::InvalidLength
    );
    // secp256k1: r = n.
    let sig = unhex(&format!("{K256_N}{one}"));
    assert_eq!(
        Signature::<Secp256k1>::from_slice(&sig).unwrap_err(),
        Error::InvalidScalar
    );
}

#[test]
fn malformed_der() {
    let cases: &[&str] = &[
        "",
        "30",
        "3008020101020101",        // length says 8, content 6
        "300602010102010100",      // trailing octet
        "3106020101020101",        // SET, not SEQUENCE
        "30060201010201",          // truncated integer
        "30070202000102 0101",     // non-minimal r (leading 0x00 before < 0x80)
        "30060201ff020101",        // negative r
        "3003020101",              // one integer
        "30090201010201010201 01", // three integers
        "308106020101020101",      // non-minimal length form
    ];
    for c in cases {
        let der = unhex(&c.replace(' ', ""));
        assert_eq!(
            Signature::<P256>::from_der(&der).err(),
            Some(Error::MalformedDer),
            "{c}"
        );
    }
    // Well-formed DER whose integers are out of range.
    for c in ["3006020100020101", "3006020101020100"] {
        assert_eq!(
            Signature::<P256>::from_der(&unhex(c)).unwrap_err(),
            Error::InvalidScalar,
            "{c}"
        );
    }
    let big = format!("3026022100{P256_N}020101");
    assert_eq!(
        Signature::<P256>::from_der(&unhex(&big)).unwrap_err(),
        Error::InvalidScalar
    );
    let too_long = format!("3027022201{}020101", "00".repeat(33));
    assert!(Signature::<P256>::from_der(&unhex(&too_long)).is_err());
}

#[test]
fn errors_display() {
    for e in [
        Error::InvalidLength,
        Error::InvalidTag,
        Error::CoordinateOutOfRange,
        Error::NotOnCurve,
        Error::Identity,
        Error::InvalidScalar,
        Error::MalformedDer,
        Error::InvalidSignature,
        Error::InvalidSpki,
    ] {
        assert!(!e.to_string().is_empty());
        let _: &dyn core::error::Error = &e;
    }
}
