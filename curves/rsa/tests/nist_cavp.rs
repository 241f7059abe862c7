//! NIST CAVP FIPS 186-3 RSA files (1024–4096 bits, SHA-1/224/256/384/512): every verdict of
//! SigVer15 and SigVerPSS; for their passing cases the key is rebuilt from n, e, d, p, q and
//! the signature re-made byte for byte (PKCS#1 v1.5 deterministic, PSS with the given salt);
//! every signature of SigGen15 and SigGenPSS (salt length 0, so deterministic) verifies.

mod common;

use std::collections::HashMap;

use common::{cavp_lines, hash_named, hex, vector_file};
use fieldgen_rsa_schemes::{Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey};

/// Runs `check` on each case: the values in force (the latest of each name) when the case's
/// last line (`last`) is read.
fn for_each_case(file: &str, last: &str, mut check: impl FnMut(&HashMap<String, String>)) -> usize {
    let mut vals: HashMap<String, String> = HashMap::new();
    let mut n = 0;
    for (k, v) in cavp_lines(&vector_file(file)) {
        if k == "SHAAlg" {
            vals.remove("SaltVal");
        }
        let done = k == last;
        vals.insert(k, v);
        if done {
            check(&vals);
            n += 1;
        }
    }
    n
}

#[test]
fn sigver15() {
    let (mut signed, mut total) = (0, 0);
    total += for_each_case("SigVer15_186-3.rsp", "Result", |v| {
        let scheme = Pkcs1v15Sign::new(hash_named(&v["SHAAlg"]).unwrap());
        let (msg, sig) = (hex(&v["Msg"]), hex(&v["S"]));
        let pass = v["Result"].starts_with('P');
        let ok = RsaPublicKey::new(&hex(&v["n"]), &hex(&v["e"]))
            .map(|k| scheme.verify(&k, &msg, &sig).is_ok())
            .unwrap_or(false);
        assert_eq!(ok, pass, "{:?}", v["Result"]);
        if pass {
            let key = RsaPrivateKey::from_components(
                &hex(&v["n"]),
                &hex(&v["e"]),
                &hex(&v["d"]),
                &hex(&v["p"]),
                &hex(&v["q"]),
            )
            .unwrap();
            assert_eq!(scheme.sign(&key, &msg).unwrap(), sig);
            signed += 1;
        }
    });
    assert_eq!((total, signed), (450, 75));
}

#[test]
fn sigver_pss() {
    let (mut signed, mut total) = (0, 0);
    total += for_each_case("SigVerPSS_186-3.rsp", "Result", |v| {
        let salt = hex(&v["SaltVal"]);
        let scheme = Pss::new(hash_named(&v["SHAAlg"]).unwrap()).with_salt_len(salt.len());
        let (msg, sig) = (hex(&v["Msg"]), hex(&v["S"]));
        let pass = v["Result"].starts_with('P');
        let ok = RsaPublicKey::new(&hex(&v["n"]), &hex(&v["e"]))
            .map(|k| scheme.verify(&k, &msg, &sig).is_ok())
            .unwrap_or(false);
        assert_eq!(ok, pass, "{:?}", v["Result"]);
        if pass {
            let key = RsaPrivateKey::from_components(
                &hex(&v["n"]),
                &hex(&v["e"]),
                &hex(&v["d"]),
                &hex(&v["p"]),
                &hex(&v["q"]),
            )
            .unwrap();
            assert_eq!(scheme.sign_with_salt(&key, &salt, &msg).unwrap(), sig);
            signed += 1;
        }
    });
    assert_eq!((total, signed), (450, 75));
}

#[test]
fn siggen_verify() {
    let n = for_each_case("SigGen15_186-3.rsp", "S", |v| {
        let key = RsaPublicKey::new(&hex(&v["n"]), &hex(&v["e"])).unwrap();
        let scheme = Pkcs1v15Sign::new(hash_named(&v["SHAAlg"]).unwrap());
        scheme.verify(&key, &hex(&v["Msg"]), &hex(&v["S"])).unwrap();
    });
    assert_eq!(n, 250);
    let n = for_each_case("SigGenPSS_186-3.rsp", "S", |v| {
        let key = RsaPublicKey::new(&hex(&v["n"]), &hex(&v["e"])).unwrap();
        let scheme = Pss::new(hash_named(&v["SHAAlg"]).unwrap()).with_salt_len(0);
        scheme.verify(&key, &hex(&v["Msg"]), &hex(&v["S"])).unwrap();
        scheme
            .with_auto_salt_len()
            .verify(&key, &hex(&v["Msg"]), &hex(&v["S"]))
            .unwrap();
    });
    assert_eq!(n, 250);
}
