//! Private- and public-key encodings (SEC 1 `ECPrivateKey`, PKCS#8, SPKI; DER and PEM) against
//! RustCrypto `p256`, `p384`, `k256` and the system OpenSSL (the `openssl` crate) on fresh
//! keys: each side's encodings byte for byte and decoded by the other; then the refusals
//! (wrong version, length, curve, algorithm, scalar range, public key, PEM label, truncation,
//! trailing data), each built with the `der`/`sec1`/`pkcs8` crates.
//! `WEIERSTRASS_DIFF_ROUNDS` sets the number of keys per curve (default 16).

// The system OpenSSL is a dev-dependency on 64-bit hosts only (see Cargo.toml).
#![cfg(target_pointer_width = "64")]

mod common;

use der::asn1::{AnyRef, OctetStringRef};
use der::{Decode, Encode};
use fieldgen_weierstrass::curves::{Secp256k1, P224, P256, P384};
use fieldgen_weierstrass::ecdsa::{PublicKey, SecretKey};
use fieldgen_weierstrass::{Error, PrimeGroup};
use openssl::bn::BigNumContext;
use openssl::ec::{EcGroup, EcKey, PointConversionForm};
use openssl::nid::Nid;
use openssl::pkey::PKey;
use sha2::{Digest, Sha256};

fn rounds() -> u32 {
    std::env::var("WEIERSTRASS_DIFF_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16)
}

fn seed() -> u64 {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    // The clock in nanoseconds, mod 2^64.
    d.as_secs()
        .wrapping_mul(1_000_000_000)
        .wrapping_add(u64::from(d.subsec_nanos()))
}

/// A fresh secret key in [1, n) for curve G: SHA-256 output stretched to BYTES, retried.
fn fresh<G: PrimeGroup>(seed: u64, i: u32) -> SecretKey<G> {
    let len = <G::Scalar as fieldgen_field::Field>::BYTES;
    for j in 0u32.. {
        let mut b = Vec::new();
        while b.len() < len {
            b.extend_from_slice(
                &Sha256::new()
                    .chain_update(seed.to_le_bytes())
                    .chain_update(i.to_le_bytes())
                    .chain_update(j.to_le_bytes())
                    .chain_update(u32::try_from(b.len()).unwrap().to_le_bytes())
                    .finalize(),
            );
        }
        b.truncate(len);
        if let Ok(sk) = SecretKey::<G>::from_bytes(&b) {
            return sk;
        }
    }
    unreachable!()
}

macro_rules! against_rustcrypto {
    ($test:ident, $curve:ty, $peer:ident) => {
        #[test]
        fn $test() {
            use $peer::pkcs8::{DecodePrivateKey, EncodePrivateKey, EncodePublicKey, LineEnding};
            let seed = seed();
            for i in 0..rounds() {
                let ours = fresh::<$curve>(seed, i);
                let theirs = $peer::SecretKey::from_slice(&ours.to_bytes()).unwrap();
                let ctx = format!("seed {seed} round {i}");

                // SEC 1 ECPrivateKey, DER and PEM, byte for byte and both ways.
                let der = ours.to_sec1_der();
                assert_eq!(
                    der.as_slice(),
                    theirs.to_sec1_der().unwrap().as_slice(),
                    "{ctx}"
                );
                assert_eq!(
                    ours.to_sec1_pem().as_str(),
                    theirs.to_sec1_pem(LineEnding::LF).unwrap().as_str(),
                    "{ctx}"
                );
                assert_eq!($peer::SecretKey::from_sec1_der(&der).unwrap(), theirs);
                let back = SecretKey::<$curve>::from_sec1_der(&theirs.to_sec1_der().unwrap());
                assert_eq!(back.unwrap().to_bytes(), ours.to_bytes(), "{ctx}");
                let pem = theirs.to_sec1_pem(LineEnding::LF).unwrap();
                let back = SecretKey::<$curve>::from_sec1_pem(&pem).unwrap();
                assert_eq!(back.to_bytes(), ours.to_bytes(), "{ctx}");

                // PKCS#8, DER and PEM.
                let p8 = ours.to_pkcs8_der();
                assert_eq!(
                    p8.as_slice(),
                    theirs.to_pkcs8_der().unwrap().as_bytes(),
                    "{ctx}"
                );
                assert_eq!(
                    ours.to_pkcs8_pem().as_str(),
                    theirs.to_pkcs8_pem(LineEnding::LF).unwrap().as_str(),
                    "{ctx}"
                );
                assert_eq!($peer::SecretKey::from_pkcs8_der(&p8).unwrap(), theirs);
                let pem = theirs.to_pkcs8_pem(LineEnding::LF).unwrap();
                let back = SecretKey::<$curve>::from_pkcs8_pem(&pem).unwrap();
                assert_eq!(back.to_bytes(), ours.to_bytes(), "{ctx}");
                // The trait impls agree with the methods.
                let via_trait = pkcs8::EncodePrivateKey::to_pkcs8_der(&ours).unwrap();
                assert_eq!(via_trait.as_bytes(), p8.as_slice());
                let via_trait: SecretKey<$curve> =
                    pkcs8::DecodePrivateKey::from_pkcs8_der(&p8).unwrap();
                assert_eq!(via_trait.to_bytes(), ours.to_bytes());

                // SubjectPublicKeyInfo, DER and PEM.
                let pk = ours.public_key();
                let their_pk = theirs.public_key();
                let spki = pk.to_spki_der();
                assert_eq!(
                    spki,
                    their_pk.to_public_key_der().unwrap().as_bytes(),
                    "{ctx}"
                );
                assert_eq!(
                    pk.to_spki_pem(),
                    their_pk.to_public_key_pem(LineEnding::LF).unwrap(),
                    "{ctx}"
                );
                let back = PublicKey::<$curve>::from_spki_pem(&pk.to_spki_pem()).unwrap();
                assert_eq!(back.to_sec1_bytes(false), pk.to_sec1_bytes(false));
                let via_trait: PublicKey<$curve> =
                    spki::DecodePublicKey::from_public_key_der(&spki).unwrap();
                assert_eq!(via_trait.to_sec1_bytes(true), pk.to_sec1_bytes(true));
            }
        }
    };
}

against_rustcrypto!(p256_keys_against_rustcrypto, P256, p256);
against_rustcrypto!(p384_keys_against_rustcrypto, P384, p384);
against_rustcrypto!(secp256k1_keys_against_rustcrypto, Secp256k1, k256);

/// OpenSSL-generated keys decode to the same d and Q; our encodings of them equal OpenSSL's
/// byte for byte and OpenSSL reads ours back.
fn against_openssl<G: PrimeGroup>(nid: Nid) {
    let group = EcGroup::from_curve_name(nid).unwrap();
    let mut ctx = BigNumContext::new().unwrap();
    for _ in 0..rounds() {
        let key = EcKey::generate(&group).unwrap();
        let len = <G::Scalar as fieldgen_field::Field>::BYTES;
        let d = key
            .private_key()
            .to_vec_padded(i32::try_from(len).unwrap())
            .unwrap();
        let q = key
            .public_key()
            .to_bytes(&group, PointConversionForm::UNCOMPRESSED, &mut ctx)
            .unwrap();
        let pkey = PKey::from_ec_key(key.clone()).unwrap();

        let sec1 = key.private_key_to_der().unwrap();
        let ours = SecretKey::<G>::from_sec1_der(&sec1).unwrap();
        assert_eq!(ours.to_bytes().as_slice(), d.as_slice());
        assert_eq!(ours.public_key().to_sec1_bytes(false), q);
        assert_eq!(ours.to_sec1_der().as_slice(), sec1.as_slice());
        let pem = String::from_utf8(key.private_key_to_pem().unwrap()).unwrap();
        assert_eq!(ours.to_sec1_pem().as_str(), pem);
        assert_eq!(
            SecretKey::<G>::from_sec1_pem(&pem).unwrap().to_bytes(),
            ours.to_bytes()
        );

        let p8 = pkey.private_key_to_pkcs8().unwrap();
        assert_eq!(ours.to_pkcs8_der().as_slice(), p8.as_slice());
        let pem = String::from_utf8(pkey.private_key_to_pem_pkcs8().unwrap()).unwrap();
        assert_eq!(ours.to_pkcs8_pem().as_str(), pem);
        assert_eq!(
            SecretKey::<G>::from_pkcs8_pem(&pem).unwrap().to_bytes(),
            ours.to_bytes()
        );

        let spki = pkey.public_key_to_der().unwrap();
        assert_eq!(ours.public_key().to_spki_der(), spki);
        let pem = String::from_utf8(pkey.public_key_to_pem().unwrap()).unwrap();
        assert_eq!(ours.public_key().to_spki_pem(), pem);
        let back = PublicKey::<G>::from_spki_pem(&pem).unwrap();
        assert_eq!(back.to_sec1_bytes(false), q);

        // OpenSSL reads our encodings.
        let theirs = EcKey::private_key_from_der(&ours.to_sec1_der()).unwrap();
        assert_eq!(
            theirs
                .private_key()
                .to_vec_padded(i32::try_from(len).unwrap())
                .unwrap(),
            d
        );
        let theirs = PKey::private_key_from_pkcs8(&ours.to_pkcs8_der()).unwrap();
        assert_eq!(
            theirs
                .ec_key()
                .unwrap()
                .private_key()
                .to_vec_padded(i32::try_from(len).unwrap())
                .unwrap(),
            d
        );
        let theirs = PKey::public_key_from_pem(ours.public_key().to_spki_pem().as_bytes());
        assert!(theirs.unwrap().public_eq(&pkey));
    }
}

#[test]
fn p224_keys_against_openssl() {
    against_openssl::<P224>(Nid::SECP224R1);
}

#[test]
fn p256_keys_against_openssl() {
    against_openssl::<P256>(Nid::X9_62_PRIME256V1);
}

#[test]
fn p384_keys_against_openssl() {
    against_openssl::<P384>(Nid::SECP384R1);
}

#[test]
fn secp256k1_keys_against_openssl() {
    against_openssl::<Secp256k1>(Nid::SECP256K1);
}

/// An `ECPrivateKey` with the given parts (the `sec1` crate's encoder).
fn ec_private_key(d: &[u8], oid: Option<&str>, q: Option<&[u8]>) -> Vec<u8> {
    sec1::EcPrivateKey {
        private_key: d,
        parameters: oid.map(|o| sec1::EcParameters::NamedCurve(o.parse().unwrap())),
        public_key: q,
    }
    .to_der()
    .unwrap()
}

fn pkcs8_wrap(alg: &str, curve: Option<&str>, inner: &[u8]) -> Vec<u8> {
    let alg_oid: der::asn1::ObjectIdentifier = alg.parse().unwrap();
    let curve_oid: Option<der::asn1::ObjectIdentifier> = curve.map(|c| c.parse().unwrap());
    pkcs8::PrivateKeyInfoRef::new(
        spki::AlgorithmIdentifierRef {
            oid: alg_oid,
            parameters: curve_oid.as_ref().map(AnyRef::from),
        },
        OctetStringRef::new(inner).unwrap(),
    )
    .to_der()
    .unwrap()
}

const P256_OID: &str = "1.2.840.10045.3.1.7";
const EC_OID: &str = "1.2.840.10045.2.1";

#[test]
fn malformed_private_keys_are_refused() {
    let sk = fresh::<P256>(7, 0);
    let other = fresh::<P256>(7, 1);
    let d = sk.to_bytes();
    let q = sk.public_key().to_sec1_bytes(false);
    let bad = Err(Error::InvalidPrivateKey);
    let dec = |der: &[u8]| SecretKey::<P256>::from_sec1_der(der).map(|k| k.to_bytes());

    // The reference encodings decode.
    assert_eq!(
        dec(&ec_private_key(&d, Some(P256_OID), Some(&q))),
        Ok(d.clone())
    );
    assert_eq!(dec(&ec_private_key(&d, None, None)), Ok(d.clone()));
    // The public key may be compressed.
    let qc = sk.public_key().to_sec1_bytes(true);
    assert_eq!(dec(&ec_private_key(&d, None, Some(&qc))), Ok(d.clone()));

    // Wrong private-key lengths (RFC 5915 §3 fixes it at ⌈log2(n)/8⌉).
    assert_eq!(dec(&ec_private_key(&d[1..], None, None)), bad);
    let mut long = vec![0u8];
    long.extend_from_slice(&d);
    assert_eq!(dec(&ec_private_key(&long, None, None)), bad);
    // d = 0 and d = n.
    assert_eq!(dec(&ec_private_key(&[0u8; 32], None, None)), bad);
    let n = common::unhex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
    assert_eq!(dec(&ec_private_key(&n, None, None)), bad);
    // Another curve named (P-384, secp256k1).
    assert_eq!(dec(&ec_private_key(&d, Some("1.3.132.0.34"), None)), bad);
    assert_eq!(dec(&ec_private_key(&d, Some("1.3.132.0.10"), None)), bad);
    // A public key that is not d·G, one off the curve, the identity, garbage.
    let q_other = other.public_key().to_sec1_bytes(false);
    assert_eq!(dec(&ec_private_key(&d, None, Some(&q_other))), bad);
    let mut off = q.clone();
    off[64] ^= 1;
    assert_eq!(dec(&ec_private_key(&d, None, Some(&off))), bad);
    assert_eq!(dec(&ec_private_key(&d, None, Some(&[0]))), bad);
    assert_eq!(dec(&ec_private_key(&d, None, Some(&[4, 1, 2]))), bad);
    // Version 0 and 2 (the version is the INTEGER right after the SEQUENCE header).
    let good = ec_private_key(&d, Some(P256_OID), Some(&q));
    for v in [0u8, 2] {
        let mut e = good.clone();
        assert_eq!(&e[2..5], &[2, 1, 1], "version INTEGER");
        e[4] = v;
        assert_eq!(dec(&e), bad);
    }
    // Truncated, trailing data, empty, not DER at all.
    assert_eq!(dec(&good[..good.len() - 1]), bad);
    let mut trailing = good.clone();
    trailing.push(0);
    assert_eq!(dec(&trailing), bad);
    assert_eq!(dec(&[]), bad);
    assert_eq!(dec(b"-----BEGIN EC PRIVATE KEY-----"), bad);
    // Explicit parameters (a SEQUENCE in place of the OID) are refused by the parser.
    let mut explicit = good.clone();
    let at = explicit
        .windows(2)
        .position(|w| w == [0xa0, 0x0a])
        .expect("[0] parameters");
    explicit[at + 2] = 0x30;
    assert_eq!(dec(&explicit), bad);

    // PKCS#8: the algorithm and curve must be id-ecPublicKey and P-256; the inner key valid.
    let inner = ec_private_key(&d, None, Some(&q));
    let dec8 = |der: &[u8]| SecretKey::<P256>::from_pkcs8_der(der).map(|k| k.to_bytes());
    assert_eq!(
        dec8(&pkcs8_wrap(EC_OID, Some(P256_OID), &inner)),
        Ok(d.clone())
    );
    assert_eq!(dec8(&pkcs8_wrap(EC_OID, Some("1.3.132.0.34"), &inner)), bad);
    assert_eq!(dec8(&pkcs8_wrap(EC_OID, None, &inner)), bad);
    assert_eq!(dec8(&pkcs8_wrap("1.3.101.112", None, &inner)), bad);
    let inner_other_curve = ec_private_key(&d, Some("1.3.132.0.10"), None);
    assert_eq!(
        dec8(&pkcs8_wrap(EC_OID, Some(P256_OID), &inner_other_curve)),
        bad
    );
    let inner_bad_q = ec_private_key(&d, None, Some(&q_other));
    assert_eq!(dec8(&pkcs8_wrap(EC_OID, Some(P256_OID), &inner_bad_q)), bad);
    assert_eq!(dec8(&pkcs8_wrap(EC_OID, Some(P256_OID), &[0x30, 0])), bad);
    let p8 = sk.to_pkcs8_der();
    assert_eq!(dec8(&p8[..p8.len() - 2]), bad);
    // A P-256 key read as another curve.
    assert_eq!(
        SecretKey::<Secp256k1>::from_pkcs8_der(&p8).map(|k| k.to_bytes()),
        bad
    );
    assert_eq!(
        SecretKey::<Secp256k1>::from_sec1_der(&sk.to_sec1_der()).map(|k| k.to_bytes()),
        bad
    );

    // PEM: the label must match, the body must be base64 of valid DER.
    let sec1_pem = sk.to_sec1_pem();
    let p8_pem = sk.to_pkcs8_pem();
    assert_eq!(
        SecretKey::<P256>::from_pkcs8_pem(&sec1_pem).map(|k| k.to_bytes()),
        bad
    );
    assert_eq!(
        SecretKey::<P256>::from_sec1_pem(&p8_pem).map(|k| k.to_bytes()),
        bad
    );
    let garbled = sec1_pem.replacen('M', "*", 1);
    assert_eq!(
        SecretKey::<P256>::from_sec1_pem(&garbled).map(|k| k.to_bytes()),
        bad
    );
    assert_eq!(
        SecretKey::<P256>::from_sec1_pem("").map(|k| k.to_bytes()),
        bad
    );
    let spki_pem = sk.public_key().to_spki_pem();
    assert_eq!(
        PublicKey::<P256>::from_spki_pem(&sec1_pem).map(|k| k.to_sec1_bytes(true)),
        Err(Error::InvalidSpki)
    );
    assert_eq!(
        PublicKey::<P384>::from_spki_pem(&spki_pem).map(|k| k.to_sec1_bytes(true)),
        Err(Error::InvalidSpki)
    );
    // The DER parser of ECPrivateKey itself sees the outer structure as wrong too.
    assert!(sec1::EcPrivateKey::from_der(&p8).is_err());
}
