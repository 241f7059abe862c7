//! Wycheproof ECDH on sect283k1, sect283r1, sect409k1, sect409r1, sect571k1 and sect571r1
//! (C2SP/wycheproof, Apache-2.0; see tests/vectors/README.md): every verdict must match.
//!
//! Peer keys are X.509 SubjectPublicKeyInfo DER, decoded by `PublicKey::from_spki_der`: strict
//! DER, id-ecPublicKey with the curve's named-curve OID (explicit parameters refused), a
//! valid SEC 1 point (compressed or uncompressed) in the subgroup of order n. "Acceptable"
//! cases (malformed ASN.1 that lenient parsers take, compressed points, points of small
//! order) may go either way; when one is accepted, the shared secret must still match.

mod common;

use common::{fixed_be, json, unhex};
use fieldgen_binary_curves::curves::*;
use fieldgen_binary_curves::ecdsa::{PublicKey, SecretKey};
use fieldgen_binary_curves::PrimeGroup;
use fieldgen_field::Field;

fn ecdh<C: PrimeGroup>(file: &str) {
    let data = json(file);
    let mut counts = [0usize; 3];
    let mut accepted_acceptable = 0;
    for group in data["testGroups"].as_array().unwrap() {
        assert_eq!(group["encoding"], "asn", "{file}");
        for t in group["tests"].as_array().unwrap() {
            let id = t["tcId"].as_u64().unwrap();
            let result = t["result"].as_str().unwrap();
            let public = unhex(t["public"].as_str().unwrap());
            let private = unhex(t["private"].as_str().unwrap());
            let shared = unhex(t["shared"].as_str().unwrap());
            let n = C::Scalar::BYTES;
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
                ("acceptable", Some(s)) => {
                    assert_eq!(*s, shared, "{file} #{id}");
                    accepted_acceptable += 1;
                }
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
    assert!(counts[0] > 0 && counts[1] > 0, "{file}: {counts:?}");
    eprintln!("{file}: {counts:?} (valid, invalid, acceptable), {accepted_acceptable} acceptable accepted");
}

#[test]
fn ecdh_sect283k1() {
    ecdh::<Sect283k1>("ecdh_sect283k1_test.json");
}

#[test]
fn ecdh_sect283r1() {
    ecdh::<Sect283r1>("ecdh_sect283r1_test.json");
}

#[test]
fn ecdh_sect409k1() {
    ecdh::<Sect409k1>("ecdh_sect409k1_test.json");
}

#[test]
fn ecdh_sect409r1() {
    ecdh::<Sect409r1>("ecdh_sect409r1_test.json");
}

#[test]
fn ecdh_sect571k1() {
    ecdh::<Sect571k1>("ecdh_sect571k1_test.json");
}

#[test]
fn ecdh_sect571r1() {
    ecdh::<Sect571r1>("ecdh_sect571r1_test.json");
}
