//! Every decoder of the curve crates on fuzzer bytes: an error value, never a panic; and where
//! the encoding is canonical, decode∘encode is the identity (what decodes re-encodes to the
//! same bytes). Where an encoding has optional parts (a PKCS#8 key with or without its public
//! key, PEM line breaks, a compressed point inside a key) the check is the fixed point
//! instead: the re-encoding decodes to the same value and re-encodes to itself.
//!
//! Input: one byte picks the decoder, the rest is its input.

use fieldgen_binary_curves as bc;
use fieldgen_curve25519::ed25519::{Signature, SigningKey, VerifyingKey};
use fieldgen_weierstrass::curves::{Secp256k1, P224, P256, P384};
use fieldgen_weierstrass::ecdsa::{PublicKey, SecretKey, Signature as EcdsaSignature};
use fieldgen_weierstrass::{AffinePoint, PrimeGroup};
use pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey};

use crate::Input;

/// Target `decode_curve25519`: Ed25519 public keys, signatures, PKCS#8 and SPKI documents;
/// X25519 public values.
pub fn curve25519(data: &[u8]) {
    let mut input = Input::new(data);
    match input.byte() % 5 {
        0 => {
            let bytes: [u8; 32] = input.array();
            if let Ok(vk) = VerifyingKey::from_bytes(&bytes) {
                assert_eq!(vk.to_bytes(), bytes, "Ed25519 point decode∘encode");
                let _ = vk.is_weak();
            }
            // Slices of any length: an error for all but 32 bytes.
            let rest = input.rest();
            let r = VerifyingKey::try_from(rest);
            assert!(
                rest.len() == 32 || r.is_err(),
                "{} bytes accepted",
                rest.len()
            );
        }
        1 => {
            // Verification with a fuzzed key, signature and message: a verdict, no panic.
            let pk: [u8; 32] = input.array();
            let sig: [u8; 64] = input.array();
            let msg = input.rest();
            if let Ok(vk) = VerifyingKey::from_bytes(&pk) {
                let sig = Signature::from_bytes(&sig);
                let a = vk.verify(msg, &sig);
                let strict = vk.verify_strict(msg, &sig);
                assert!(
                    a.is_ok() || strict.is_err(),
                    "verify_strict accepts what verify refuses"
                );
                let _ = vk.verify_ctx(msg, &msg[..msg.len().min(255)], &sig);
            }
        }
        2 => {
            let der = input.rest();
            if let Ok(sk) = SigningKey::from_pkcs8_der(der) {
                let again = sk.to_pkcs8_der().expect("encodes");
                let sk2 = SigningKey::from_pkcs8_der(again.as_bytes()).expect("re-decodes");
                assert_eq!(sk.to_bytes(), sk2.to_bytes(), "PKCS#8 round trip");
            }
            if let Ok(vk) = VerifyingKey::from_public_key_der(der) {
                let again = vk.to_public_key_der().expect("encodes");
                assert_eq!(again.as_bytes(), der, "SPKI decode∘encode");
            }
        }
        3 => {
            let pem = String::from_utf8_lossy(input.rest());
            if let Ok(sk) = SigningKey::from_pkcs8_pem(&pem) {
                let again = sk.to_pkcs8_der().expect("encodes");
                let sk2 = SigningKey::from_pkcs8_der(again.as_bytes()).expect("re-decodes");
                assert_eq!(sk.to_bytes(), sk2.to_bytes(), "PKCS#8 PEM round trip");
            }
            let _ = VerifyingKey::from_public_key_pem(&pem);
        }
        _ => {
            // Any u, canonical or not, low order or not: a 32-byte answer, and the checked
            // form refuses exactly the all-zero output.
            let k: [u8; 32] = input.array();
            let u: [u8; 32] = input.array();
            let out = fieldgen_curve25519::x25519(k, u);
            let checked = fieldgen_curve25519::x25519_checked(k, u);
            assert_eq!(checked.is_err(), out == [0u8; 32], "x25519_checked");
            let pk = fieldgen_curve25519::PublicKey::from(u);
            assert_eq!(pk.to_bytes(), u, "X25519 public value");
        }
    }
}

/// SEC 1 points, keys and signatures of one prime-order group.
fn group_decoders<G: PrimeGroup>(input: &mut Input) {
    match input.byte() % 6 {
        0 => {
            let bytes = input.rest();
            if let Ok(pk) = PublicKey::<G>::from_sec1_bytes(bytes) {
                let compressed = matches!(bytes.first(), Some(2 | 3));
                assert_eq!(pk.to_sec1_bytes(compressed), bytes, "SEC 1 decode∘encode");
            }
        }
        1 => {
            let der = input.rest();
            if let Ok(sig) = EcdsaSignature::<G>::from_der(der) {
                assert_eq!(sig.to_der(), der, "ECDSA DER decode∘encode");
            }
            if let Ok(sig) = EcdsaSignature::<G>::from_slice(der) {
                assert_eq!(sig.to_bytes(), der, "ECDSA r‖s decode∘encode");
            }
        }
        2 => {
            let bytes = input.rest();
            if let Ok(sk) = SecretKey::<G>::from_bytes(bytes) {
                assert_eq!(&sk.to_bytes()[..], bytes, "secret scalar decode∘encode");
            }
        }
        3 => {
            let der = input.rest();
            if let Ok(sk) = SecretKey::<G>::from_sec1_der(der) {
                let again = sk.to_sec1_der();
                let sk2 = SecretKey::<G>::from_sec1_der(&again).expect("re-decodes");
                assert_eq!(sk.to_bytes(), sk2.to_bytes(), "ECPrivateKey round trip");
                assert_eq!(sk2.to_sec1_der(), again, "ECPrivateKey fixed point");
            }
            if let Ok(sk) = SecretKey::<G>::from_pkcs8_der(der) {
                let again = sk.to_pkcs8_der();
                let sk2 = SecretKey::<G>::from_pkcs8_der(&again).expect("re-decodes");
                assert_eq!(sk.to_bytes(), sk2.to_bytes(), "PKCS#8 round trip");
            }
        }
        4 => {
            let der = input.rest();
            if let Ok(pk) = PublicKey::<G>::from_spki_der(der) {
                let again = pk.to_spki_der();
                let pk2 = PublicKey::<G>::from_spki_der(&again).expect("re-decodes");
                assert_eq!(pk2.to_spki_der(), again, "SPKI fixed point");
                assert_eq!(
                    pk.to_sec1_bytes(false),
                    pk2.to_sec1_bytes(false),
                    "SPKI round trip"
                );
            }
        }
        _ => {
            let pem = String::from_utf8_lossy(input.rest());
            if let Ok(sk) = SecretKey::<G>::from_sec1_pem(&pem) {
                let sk2 = SecretKey::<G>::from_sec1_pem(&sk.to_sec1_pem()).expect("re-decodes");
                assert_eq!(sk.to_bytes(), sk2.to_bytes(), "ECPrivateKey PEM round trip");
            }
            if let Ok(sk) = SecretKey::<G>::from_pkcs8_pem(&pem) {
                let sk2 = SecretKey::<G>::from_pkcs8_pem(&sk.to_pkcs8_pem()).expect("re-decodes");
                assert_eq!(sk.to_bytes(), sk2.to_bytes(), "PKCS#8 PEM round trip");
            }
            if let Ok(pk) = PublicKey::<G>::from_spki_pem(&pem) {
                let pk2 = PublicKey::<G>::from_spki_pem(&pk.to_spki_pem()).expect("re-decodes");
                assert_eq!(pk.to_sec1_bytes(true), pk2.to_sec1_bytes(true), "SPKI PEM");
            }
        }
    }
}

/// Target `decode_weierstrass`: SEC 1 points (also as affine points with the identity), ECDSA
/// signatures (DER and r‖s), secret scalars, ECPrivateKey, PKCS#8 and SPKI in DER and PEM, for
/// P-224, P-256, P-384 and secp256k1.
pub fn weierstrass(data: &[u8]) {
    let mut input = Input::new(data);
    match input.byte() % 5 {
        0 => group_decoders::<P224>(&mut input),
        1 => group_decoders::<P256>(&mut input),
        2 => group_decoders::<P384>(&mut input),
        3 => group_decoders::<Secp256k1>(&mut input),
        _ => {
            let bytes = input.rest();
            if let Ok(p) = AffinePoint::<P256>::from_sec1_bytes(bytes) {
                let compressed = matches!(bytes.first(), Some(2 | 3));
                assert_eq!(p.to_sec1_bytes(compressed), bytes, "affine SEC 1");
            }
        }
    }
}

/// Target `decode_binary_curves`: the same decoders on binary curves (K-163, B-233, K-283,
/// B-571), whose public keys also pass the n·Q = O check, and the raw SEC 1 point decoder.
pub fn binary_curves(data: &[u8]) {
    let mut input = Input::new(data);
    match input.byte() % 5 {
        0 => group_decoders::<bc::Sect163k1>(&mut input),
        1 => group_decoders::<bc::Sect233r1>(&mut input),
        2 => group_decoders::<bc::Sect283k1>(&mut input),
        3 => group_decoders::<bc::Sect571r1>(&mut input),
        _ => {
            let bytes = input.rest();
            if let Ok(p) = bc::sec1::decode::<bc::Sect163r2>(bytes) {
                let compressed = matches!(bytes.first(), Some(2 | 3));
                assert_eq!(
                    bc::sec1::encode(&p, compressed),
                    bytes,
                    "binary SEC 1 decode∘encode"
                );
            }
        }
    }
}

/// Target `decode_bn`: Ethereum's BN254 precompile inputs (EIP-196/197) and SEC 1 G1 points
/// of the BN curves. A valid G1 point P re-encodes through ecadd(P, O) and ecmul(P, 1).
pub fn bn(data: &[u8]) {
    use fieldgen_bn::eth;
    let mut input = Input::new(data);
    match input.byte() % 4 {
        0 => {
            let bytes = input.rest();
            let sum = eth::ecadd(bytes);
            // x ‖ y of P then all-zero Q (the identity): P itself when P is valid.
            let p = &bytes[..bytes.len().min(64)];
            if let Ok(alone) = eth::ecadd(p) {
                let mut want = [0u8; 64];
                want[..p.len()].copy_from_slice(p);
                assert_eq!(alone, want, "ecadd(P, O) = P");
                let mut mul_one = want.to_vec();
                mul_one.resize(96, 0);
                mul_one[95] = 1;
                assert_eq!(eth::ecmul(&mul_one), Ok(want), "ecmul(P, 1) = P");
            }
            let _ = sum;
        }
        1 => {
            let _ = eth::ecmul(input.rest());
        }
        2 => {
            // At most two pairs: each one is a Miller loop.
            let bytes = input.rest();
            let _ = eth::ecpairing(&bytes[..bytes.len().min(2 * 192)]);
        }
        _ => {
            let bytes = input.rest();
            type G1 = fieldgen_bn::G1Affine<fieldgen_bn::Bn254>;
            if let Ok(p) = G1::from_sec1_bytes(bytes) {
                let compressed = matches!(bytes.first(), Some(2 | 3));
                assert_eq!(p.to_sec1_bytes(compressed), bytes, "BN254 G1 SEC 1");
            }
        }
    }
}

/// Target `decode_rsa`: RSA public keys (PKCS#1 and SPKI) and private keys (PKCS#1 and
/// PKCS#8), DER and PEM. DER public keys decode∘encode to themselves; private keys round-trip
/// to the same components.
pub fn rsa(data: &[u8]) {
    use fieldgen_rsa_schemes::{RsaPrivateKey, RsaPublicKey};
    let mut input = Input::new(data);
    match input.byte() % 4 {
        0 => {
            let der = input.rest();
            if let Ok(k) = RsaPublicKey::from_pkcs1_der(der) {
                assert_eq!(k.to_pkcs1_der().expect("encodes"), der, "PKCS#1 public");
            }
            if let Ok(k) = RsaPublicKey::from_public_key_der(der) {
                assert_eq!(k.to_public_key_der().expect("encodes"), der, "SPKI public");
            }
        }
        1 => {
            let der = input.rest();
            if let Ok(k) = RsaPrivateKey::from_pkcs1_der(der) {
                let again = k.to_pkcs1_der().expect("encodes");
                let k2 = RsaPrivateKey::from_pkcs1_der(&again).expect("re-decodes");
                assert_eq!(
                    k.private_exponent(),
                    k2.private_exponent(),
                    "PKCS#1 private"
                );
                assert_eq!(k.primes(), k2.primes(), "PKCS#1 private primes");
            }
        }
        2 => {
            let der = input.rest();
            if let Ok(k) = RsaPrivateKey::from_pkcs8_der(der) {
                let again = k.to_pkcs8_der().expect("encodes");
                let k2 = RsaPrivateKey::from_pkcs8_der(&again).expect("re-decodes");
                assert_eq!(
                    k.private_exponent(),
                    k2.private_exponent(),
                    "PKCS#8 private"
                );
            }
        }
        _ => {
            let pem = String::from_utf8_lossy(input.rest());
            let _ = RsaPublicKey::from_pkcs1_pem(&pem);
            let _ = RsaPublicKey::from_public_key_pem(&pem);
            let _ = RsaPrivateKey::from_pkcs1_pem(&pem);
            let _ = RsaPrivateKey::from_pkcs8_pem(&pem);
        }
    }
}
