//! RSA Laboratories' PKCS #1 v2.1 vectors (pss-vect.txt, oaep-vect.txt,
//! pkcs1v15sign-vectors.txt; odd modulus sizes 1025–1031 bits included) and pyca's OAEP SHA-256
//! files: every signature and ciphertext byte for byte, every verification and decryption.

mod common;

use std::collections::HashMap;

use common::{rng, rsa_labs_fields, vector_file};
use fieldgen_rsa_schemes::{HashAlg, Oaep, Pkcs1v15Sign, Pss, RsaPrivateKey};

/// Runs `check` on every example of a file: the key (built from its eight values, which also
/// checks the validation accepts it) and the example's fields.
fn for_each_example(
    file: &str,
    mut check: impl FnMut(&RsaPrivateKey, &HashMap<String, Vec<u8>>),
) -> usize {
    let mut key_fields: HashMap<String, Vec<u8>> = HashMap::new();
    let mut key: Option<RsaPrivateKey> = None;
    let mut ex: HashMap<String, Vec<u8>> = HashMap::new();
    let mut count = 0;
    let trigger = ["Signature", "Encryption"];
    for (name, bytes) in rsa_labs_fields(&vector_file(file)) {
        match name.as_str() {
            "Example" => ex.clear(),
            "Modulus" | "Exponent" | "Public exponent" | "Private exponent" | "Prime 1"
            | "Prime 2" | "Prime exponent 1" | "Prime exponent 2" => {
                key_fields.insert(name, bytes);
            }
            "Coefficient" => {
                let f = |n: &str| key_fields[n].clone();
                let k = RsaPrivateKey::from_crt_components(
                    &f("Modulus"),
                    &f("Exponent"),
                    &f("Private exponent"),
                    &f("Prime 1"),
                    &f("Prime 2"),
                    &f("Prime exponent 1"),
                    &f("Prime exponent 2"),
                    &bytes,
                )
                .unwrap_or_else(|e| panic!("{file}: key rejected: {e}"));
                key = Some(k);
            }
            _ => {
                let done = trigger.contains(&name.as_str());
                ex.insert(name, bytes);
                if done {
                    check(key.as_ref().expect("key before examples"), &ex);
                    count += 1;
                }
            }
        }
    }
    count
}

#[test]
fn pkcs1v15_sign_vectors() {
    let scheme = Pkcs1v15Sign::new(HashAlg::Sha1);
    let mut sizes = std::collections::BTreeSet::new();
    let n = for_each_example("pkcs1v15sign-vectors.txt", |key, ex| {
        sizes.insert(key.bits());
        let msg = &ex["Message to be signed"];
        let want = &ex["Signature"];
        assert_eq!(&scheme.sign(key, msg).unwrap(), want, "{} bits", key.bits());
        scheme.verify(key.public_key(), msg, want).unwrap();
        let mut bad = want.clone();
        bad[5] ^= 1;
        assert!(scheme.verify(key.public_key(), msg, &bad).is_err());
    });
    assert_eq!(n, 300);
    assert_eq!(
        sizes.into_iter().collect::<Vec<_>>(),
        [1024, 1025, 1026, 1027, 1028, 1029, 1030, 1031, 1536, 2048]
    );
}

#[test]
fn pss_vectors() {
    let scheme = Pss::new(HashAlg::Sha1).with_salt_len(20);
    let n = for_each_example("pss-vect.txt", |key, ex| {
        let msg = &ex["Message to be signed"];
        let want = &ex["Signature"];
        let salt = &ex["Salt"];
        assert_eq!(
            &scheme.sign_with_salt(key, salt, msg).unwrap(),
            want,
            "{} bits",
            key.bits()
        );
        scheme.verify(key.public_key(), msg, want).unwrap();
        scheme
            .with_auto_salt_len()
            .verify(key.public_key(), msg, want)
            .unwrap();
        assert!(scheme.verify(key.public_key(), b"other", want).is_err());
        assert!(scheme
            .with_salt_len(19)
            .verify(key.public_key(), msg, want)
            .is_err());
    });
    assert_eq!(n, 60);
}

#[test]
fn oaep_vectors() {
    let scheme = Oaep::new(HashAlg::Sha1);
    let mut r = rng(1);
    let n = for_each_example("oaep-vect.txt", |key, ex| {
        let msg = &ex["Message"];
        let want = &ex["Encryption"];
        let seed = &ex["Seed"];
        assert_eq!(
            &scheme
                .encrypt_with_seed(key.public_key(), seed, msg)
                .unwrap(),
            want
        );
        assert_eq!(&scheme.decrypt(key, &mut r, want).unwrap()[..], &msg[..]);
        assert!(scheme
            .clone()
            .with_label(b"x")
            .decrypt(key, &mut r, want)
            .is_err());
    });
    assert_eq!(n, 60);
}

#[test]
fn oaep_sha256_pyca() {
    let mut r = rng(2);
    // The second file's examples say "alg=sha1 mgf1=sha256".
    for (file, hash, mgf) in [
        ("oaep-sha256-sha256.txt", HashAlg::Sha256, HashAlg::Sha256),
        ("oaep-sha256-sha1.txt", HashAlg::Sha1, HashAlg::Sha256),
    ] {
        let scheme = Oaep::new(hash).with_mgf_hash(mgf);
        let n = for_each_example(file, |key, ex| {
            let msg = &ex["Message"];
            let c = &ex["Encryption"];
            let got = scheme
                .decrypt(key, &mut r, c)
                .map_err(|e| format!("{file} {} bits: {e:?} c len {}", key.bits(), c.len()))
                .unwrap();
            assert_eq!(&got[..], &msg[..], "{file}");
        });
        assert_eq!(n, 60, "{file}");
    }
}
