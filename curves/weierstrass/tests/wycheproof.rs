//! Wycheproof ECDH and ECDSA verification vectors (C2SP/wycheproof, Apache-2.0; see
//! tests/vectors/README.md): every verdict must match.
//!
//! ECDH peer keys are X.509 SubjectPublicKeyInfo DER, decoded by `PublicKey::from_spki_der`.
//! The rule it follows: the SPKI must parse in strict DER (the `spki`/`der` crates), its
//! algorithm must be id-ecPublicKey with the curve's named-curve OID as parameters (explicit
//! curve parameters are refused), and the subject public key must be a valid SEC 1 point
//! (compressed or uncompressed). The ECDSA groups' keys are checked against a decoder written
//! here with the same rule. Cases marked
//! "acceptable" may go either way; when we accept one, the shared secret must still match.
//! ECDSA signatures are strict DER; the Bitcoin file also demands low s.

mod common;

use common::{fixed_be, json, unhex};
use fieldgen_field::Field;
use fieldgen_weierstrass::curves::{Secp256k1, P224, P256, P384};
use fieldgen_weierstrass::ecdsa::{PublicKey, SecretKey, Signature};
use fieldgen_weierstrass::{PrimeGroup, WeierstrassCurve};
use sha2::Digest;
use spki::der::Decode;
use spki::{ObjectIdentifier, SubjectPublicKeyInfoRef};

const ID_EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");

/// The SEC 1 point inside an SPKI, under the rule in the module docs.
fn spki_point<C: WeierstrassCurve>(der: &[u8]) -> Option<Vec<u8>>
where
    C::Base: fieldgen_field::PrimeField,
{
    let spki = SubjectPublicKeyInfoRef::from_der(der).ok()?;
    if spki.algorithm.oid != ID_EC_PUBLIC_KEY {
        return None;
    }
    let params = spki.algorithm.parameters?;
    let curve: ObjectIdentifier = params.decode_as().ok()?;
    if curve != ObjectIdentifier::new_unwrap(C::OID) {
        return None;
    }
    spki.subject_public_key.as_bytes().map(|b| b.to_vec())
}

fn ecdh<C: WeierstrassCurve + PrimeGroup>(file: &str)
where
    C::Base: fieldgen_field::PrimeField,
{
    let data = json(file);
    let mut counts = [0usize; 3];
    for group in data["testGroups"].as_array().unwrap() {
        assert_eq!(group["encoding"], "asn", "{file}");
        for t in group["tests"].as_array().unwrap() {
            let id = t["tcId"].as_u64().unwrap();
            let result = t["result"].as_str().unwrap();
            let public = unhex(t["public"].as_str().unwrap());
            let private = unhex(t["private"].as_str().unwrap());
            let shared = unhex(t["shared"].as_str().unwrap());
            let n = <C as WeierstrassCurve>::Scalar::BYTES;
            let got = (|| {
                let peer = PublicKey::<C>::from_spki_der(&public).ok()?;
                let d = SecretKey::<C>::from_bytes(&fixed_be(&private, n)?).ok()?;
                d.diffie_hellman(&peer).ok().map(|s| s.as_bytes().to_vec())
            })();
            match (result, &got) {
                ("valid", Some(s)) => assert_eq!(*s, shared, "{file} #{id}"),
                ("valid", None) => panic!("{file} #{id}: valid case rejected: {t}"),
                ("invalid", Some(_)) => panic!("{file} #{id}: invalid case accepted: {t}"),
                ("invalid", None) => {}
                ("acceptable", Some(s)) => assert_eq!(*s, shared, "{file} #{id}"),
                ("acceptable", None) => {}
                _ => panic!("{file} #{id}: unknown result {result}"),
            }
            counts[match result {
                "valid" => 0,
                "invalid" => 1,
                _ => 2,
            }] += 1;
        }
    }
    assert_eq!(
        counts.iter().sum::<usize>() as u64,
        data["numberOfTests"].as_u64().unwrap(),
        "{file}"
    );
}

fn hash(name: &str, msg: &[u8]) -> Vec<u8> {
    match name {
        "SHA-256" => sha2::Sha256::digest(msg).to_vec(),
        "SHA-384" => sha2::Sha384::digest(msg).to_vec(),
        "SHA-512" => sha2::Sha512::digest(msg).to_vec(),
        "SHA-224" => sha2::Sha224::digest(msg).to_vec(),
        _ => panic!("unexpected hash {name}"),
    }
}

fn ecdsa<C: WeierstrassCurve + PrimeGroup>(file: &str, strict_low_s: bool)
where
    C::Base: fieldgen_field::PrimeField,
{
    let data = json(file);
    let mut total = 0u64;
    for group in data["testGroups"].as_array().unwrap() {
        let key = unhex(group["publicKey"]["uncompressed"].as_str().unwrap());
        let key = PublicKey::<C>::from_sec1_bytes(&key).expect("group key");
        // The SPKI form of the same key must agree.
        let der = unhex(group["publicKeyDer"].as_str().unwrap());
        assert_eq!(
            spki_point::<C>(&der).unwrap(),
            key.to_sec1_bytes(false),
            "{file}"
        );
        let sha = group["sha"].as_str().unwrap();
        for t in group["tests"].as_array().unwrap() {
            total += 1;
            let id = t["tcId"].as_u64().unwrap();
            let result = t["result"].as_str().unwrap();
            let msg = unhex(t["msg"].as_str().unwrap());
            let sig = unhex(t["sig"].as_str().unwrap());
            let h = hash(sha, &msg);
            let ok = Signature::<C>::from_der(&sig).is_ok_and(|s| {
                if strict_low_s {
                    key.verify_prehash_strict_low_s(&h, &s).is_ok()
                } else {
                    key.verify_prehash(&h, &s).is_ok()
                }
            });
            match result {
                "valid" => assert!(ok, "{file} #{id}: valid signature rejected: {t}"),
                "invalid" => assert!(!ok, "{file} #{id}: invalid signature accepted: {t}"),
                "acceptable" => {}
                _ => panic!("{file} #{id}: unknown result {result}"),
            }
        }
    }
    assert_eq!(total, data["numberOfTests"].as_u64().unwrap(), "{file}");
}

#[test]
fn ecdh_secp224r1() {
    ecdh::<P224>("ecdh_secp224r1_test.json");
}
#[test]
fn ecdh_secp256r1() {
    ecdh::<P256>("ecdh_secp256r1_test.json");
}
#[test]
fn ecdh_secp384r1() {
    ecdh::<P384>("ecdh_secp384r1_test.json");
}
#[test]
fn ecdh_secp256k1() {
    ecdh::<Secp256k1>("ecdh_secp256k1_test.json");
}
#[test]
fn ecdsa_secp224r1_sha256() {
    ecdsa::<P224>("ecdsa_secp224r1_sha256_test.json", false);
}
#[test]
fn ecdsa_secp256r1_sha256() {
    ecdsa::<P256>("ecdsa_secp256r1_sha256_test.json", false);
}
#[test]
fn ecdsa_secp384r1_sha384() {
    ecdsa::<P384>("ecdsa_secp384r1_sha384_test.json", false);
}
#[test]
fn ecdsa_secp256k1_sha256() {
    ecdsa::<Secp256k1>("ecdsa_secp256k1_sha256_test.json", false);
}
#[test]
fn ecdsa_secp256k1_sha256_bitcoin() {
    ecdsa::<Secp256k1>("ecdsa_secp256k1_sha256_bitcoin_test.json", true);
}
