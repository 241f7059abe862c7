//! Wycheproof (C2SP/wycheproof) RSA files: every verdict of rsa_signature_* (PKCS#1 v1.5
//! verification), rsa_pss_* and rsa_oaep_*, and every signature byte of
//! rsa_pkcs1_*_sig_gen_test. "acceptable" cases may go either way; they are counted.

mod common;

use common::{hash_named, hex, rng, wycheproof};
use fieldgen_rsa_schemes::{Oaep, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey};
use serde_json::Value;

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v[k].as_str().unwrap_or_else(|| panic!("field {k}"))
}

/// Checks one verdict: `ok` is our outcome.
fn verdict(file: &str, t: &Value, ok: bool, acceptable: &mut usize) {
    match s(t, "result") {
        "valid" => assert!(ok, "{file} tcId {}: valid case rejected", t["tcId"]),
        "invalid" => assert!(
            !ok,
            "{file} tcId {}: invalid case accepted ({})",
            t["tcId"], t["comment"]
        ),
        _ => *acceptable += 1,
    }
}

fn files(prefix: &str) -> Vec<String> {
    let dir = format!("{}/tests/vectors", env!("CARGO_MANIFEST_DIR"));
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(prefix) && n.ends_with("_test.json"))
        .collect();
    v.sort();
    v
}

#[test]
fn pkcs1v15_verify() {
    let (mut total, mut acceptable) = (0, 0);
    for file in files("rsa_signature_") {
        let j = wycheproof(&file);
        for g in j["testGroups"].as_array().unwrap() {
            let key = RsaPublicKey::from_public_key_der(&hex(s(g, "publicKeyDer"))).unwrap();
            // The PKCS#1 form and the PEM form give the same key.
            assert_eq!(
                key,
                RsaPublicKey::from_pkcs1_der(&hex(s(g, "publicKeyAsn"))).unwrap()
            );
            assert_eq!(
                key,
                RsaPublicKey::from_public_key_pem(s(g, "publicKeyPem")).unwrap()
            );
            let scheme = Pkcs1v15Sign::new(hash_named(s(g, "sha")).unwrap());
            for t in g["tests"].as_array().unwrap() {
                let ok = scheme
                    .verify(&key, &hex(s(t, "msg")), &hex(s(t, "sig")))
                    .is_ok();
                verdict(&file, t, ok, &mut acceptable);
                total += 1;
            }
        }
    }
    assert_eq!(total, 1554);
    eprintln!("{total} cases, {acceptable} acceptable");
}

#[test]
fn pkcs1v15_sign() {
    let mut total = 0;
    for file in files("rsa_pkcs1_") {
        let j = wycheproof(&file);
        for g in j["testGroups"].as_array().unwrap() {
            let key = RsaPrivateKey::from_pkcs8_der(&hex(s(g, "privateKeyPkcs8"))).unwrap();
            let pem = RsaPrivateKey::from_pkcs1_pem(s(g, "privateKeyPem")).unwrap();
            assert_eq!(key.to_pkcs1_der().unwrap(), pem.to_pkcs1_der().unwrap());
            let scheme = Pkcs1v15Sign::new(hash_named(s(g, "sha")).unwrap());
            for t in g["tests"].as_array().unwrap() {
                let msg = hex(s(t, "msg"));
                let want = hex(s(t, "sig"));
                match s(t, "result") {
                    "invalid" => {
                        assert!(scheme.sign(&key, &msg).map(|x| x != want).unwrap_or(true))
                    }
                    _ => {
                        assert_eq!(
                            scheme.sign(&key, &msg).unwrap(),
                            want,
                            "{file} tcId {}",
                            t["tcId"]
                        );
                        scheme.verify(key.public_key(), &msg, &want).unwrap();
                    }
                }
                total += 1;
            }
        }
    }
    assert_eq!(total, 33 + 43 + 26 + 24);
}

#[test]
fn pss_verify() {
    let (mut total, mut acceptable) = (0, 0);
    for file in files("rsa_pss_") {
        let j = wycheproof(&file);
        for g in j["testGroups"].as_array().unwrap() {
            assert_eq!(s(g, "mgf"), "MGF1");
            let key = RsaPublicKey::from_public_key_der(&hex(s(g, "publicKeyDer"))).unwrap();
            let slen: usize = g["sLen"]
                .as_u64()
                .map(|x| usize::try_from(x).unwrap())
                .unwrap_or_else(|| s(g, "sLen").parse().unwrap());
            let scheme = Pss::new(hash_named(s(g, "sha")).unwrap())
                .with_mgf_hash(hash_named(s(g, "mgfSha")).unwrap())
                .with_salt_len(slen);
            for t in g["tests"].as_array().unwrap() {
                let (msg, sig) = (hex(s(t, "msg")), hex(s(t, "sig")));
                let ok = scheme.verify(&key, &msg, &sig).is_ok();
                verdict(&file, t, ok, &mut acceptable);
                // Salt recovery agrees on every case this fixed length accepts.
                if ok {
                    scheme
                        .with_auto_salt_len()
                        .verify(&key, &msg, &sig)
                        .unwrap();
                }
                total += 1;
            }
        }
    }
    assert_eq!(total, 108 + 103 + 88 + 108 + 108 + 177 + 179 + 150);
    eprintln!("{total} cases, {acceptable} acceptable");
}

#[test]
fn oaep_decrypt() {
    let (mut total, mut acceptable) = (0, 0);
    let mut r = rng(3);
    for file in files("rsa_oaep_") {
        let j = wycheproof(&file);
        for g in j["testGroups"].as_array().unwrap() {
            assert_eq!(s(g, "mgf"), "MGF1");
            let key = RsaPrivateKey::from_pkcs8_der(&hex(s(g, "privateKeyPkcs8"))).unwrap();
            let base = Oaep::new(hash_named(s(g, "sha")).unwrap())
                .with_mgf_hash(hash_named(s(g, "mgfSha")).unwrap());
            for t in g["tests"].as_array().unwrap() {
                let scheme = base.clone().with_label(&hex(s(t, "label")));
                let out = scheme.decrypt(&key, &mut r, &hex(s(t, "ct")));
                if let Ok(m) = &out {
                    if s(t, "result") != "invalid" {
                        assert_eq!(&m[..], &hex(s(t, "msg"))[..], "{file} tcId {}", t["tcId"]);
                    }
                }
                verdict(&file, t, out.is_ok(), &mut acceptable);
                total += 1;
            }
        }
    }
    assert_eq!(total, 31 + 37 + 37 + 37 + 395);
    eprintln!("{total} cases, {acceptable} acceptable");
}
