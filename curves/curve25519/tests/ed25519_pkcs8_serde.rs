//! PKCS#8/SPKI DER and serde of Ed25519 keys against ed25519-dalek 3 (same bytes both ways)
//! and against the RFC 8410 §10.3 example private key.

use fieldgen_curve25519::ed25519::{SigningKey, VerifyingKey};
use pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey};

/// RFC 8410 §10.3, the PKCS#8 v1 private key (seed d4ee72db…), base64 decoded.
const RFC8410_PRIVATE: [u8; 48] = [
    0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
    0xd4, 0xee, 0x72, 0xdb, 0xf9, 0x13, 0x58, 0x4a, 0xd5, 0xb6, 0xd8, 0xf1, 0xf7, 0x69, 0xf8, 0xad,
    0x3a, 0xfe, 0x7c, 0x28, 0xcb, 0xf1, 0xd4, 0xfb, 0xe0, 0x97, 0xa8, 0x8f, 0x44, 0x75, 0x58, 0x42,
];

#[test]
fn rfc8410_private_key_decodes_as_dalek_decodes_it() {
    let ours = SigningKey::from_pkcs8_der(&RFC8410_PRIVATE).unwrap();
    let dalek = ed25519_dalek::SigningKey::from_pkcs8_der(&RFC8410_PRIVATE).unwrap();
    assert_eq!(ours.to_bytes(), RFC8410_PRIVATE[16..]);
    assert_eq!(ours.to_bytes(), dalek.to_bytes());
    assert_eq!(
        ours.verifying_key().to_bytes(),
        dalek.verifying_key().to_bytes()
    );
}

#[test]
fn der_encodings_match_dalek_both_ways() {
    for i in 0..8u8 {
        let seed = [i.wrapping_mul(29) ^ 0x3c; 32];
        let ours = SigningKey::from_bytes(&seed);
        let dalek = ed25519_dalek::SigningKey::from_bytes(&seed);
        let der = ours.to_pkcs8_der().unwrap();
        assert_eq!(der.as_bytes(), dalek.to_pkcs8_der().unwrap().as_bytes());
        let back = ed25519_dalek::SigningKey::from_pkcs8_der(der.as_bytes()).unwrap();
        assert_eq!(back.to_bytes(), seed);
        let vk = ours.verifying_key();
        let spki = vk.to_public_key_der().unwrap();
        assert_eq!(
            spki.as_bytes(),
            dalek
                .verifying_key()
                .to_public_key_der()
                .unwrap()
                .as_bytes()
        );
        assert_eq!(
            VerifyingKey::from_public_key_der(spki.as_bytes()).unwrap(),
            vk
        );
        assert_eq!(
            SigningKey::from_pkcs8_der(der.as_bytes())
                .unwrap()
                .to_bytes(),
            seed
        );
    }
    // A key pair whose public key is not the seed's is refused.
    let mut der = SigningKey::from_bytes(&[1; 32])
        .to_pkcs8_der()
        .unwrap()
        .as_bytes()
        .to_vec();
    let last = der.len() - 1;
    der[last] ^= 1;
    assert!(SigningKey::from_pkcs8_der(&der).is_err());
}

#[test]
fn serde_matches_dalek_both_ways() {
    for i in 0..8u8 {
        let seed = [i ^ 0x71; 32];
        let ours = SigningKey::from_bytes(&seed);
        let dalek = ed25519_dalek::SigningKey::from_bytes(&seed);
        let js = serde_json::to_string(&ours).unwrap();
        assert_eq!(js, serde_json::to_string(&dalek).unwrap());
        let back: ed25519_dalek::SigningKey = serde_json::from_str(&js).unwrap();
        assert_eq!(back.to_bytes(), seed);
        let mine: SigningKey = serde_json::from_str(&js).unwrap();
        assert_eq!(mine.to_bytes(), seed);
        let vk = ours.verifying_key();
        let jv = serde_json::to_string(&vk).unwrap();
        assert_eq!(jv, serde_json::to_string(&dalek.verifying_key()).unwrap());
        let vk2: VerifyingKey = serde_json::from_str(&jv).unwrap();
        assert_eq!(vk2, vk);
    }
    // 31 and 33 numbers, and a y ≥ p, are refused.
    assert!(serde_json::from_str::<SigningKey>(&format!("{:?}", [0u8; 31])).is_err());
    assert!(serde_json::from_str::<VerifyingKey>(&format!("{:?}", [0u8; 33])).is_err());
    assert!(serde_json::from_str::<VerifyingKey>(&format!("{:?}", [0xffu8; 32])).is_err());
}
