//! RFC 6979 appendix A.2.x deterministic ECDSA for K-163 … K-571 and B-163 … B-571 (messages
//! "sample" and "test", SHA-1 and SHA-2) from OpenSSL's evppkey_ecdsa_rfc6979.txt as carried
//! by pyca/cryptography (see tests/vectors/README.md): our signature must equal the published
//! DER byte for byte, and every DigestVerify verdict must match. Keys are PKCS#8 / SPKI PEM,
//! parsed with the `pkcs8`, `sec1` and `spki` crates.

mod common;

use std::collections::HashMap;

use base64ct::{Base64, Encoding};
use common::unhex;
use digest::common::BlockSizeUser;
use digest::{Digest, Update};
use fieldgen_binary_curves::curves::*;
use fieldgen_binary_curves::ecdsa::{PublicKey, SecretKey, Signature};
use fieldgen_binary_curves::PrimeGroup;

/// Key PEMs by name, and the test stanzas (key = value lines).
struct Parsed {
    keys: HashMap<String, String>,
    stanzas: Vec<HashMap<String, String>>,
}

fn parse() -> Parsed {
    let text = std::fs::read_to_string(common::vector("evppkey_ecdsa_rfc6979.txt")).unwrap();
    let mut keys = HashMap::new();
    let mut stanzas = Vec::new();
    let mut cur: HashMap<String, String> = HashMap::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let line = line.trim_end();
        if let Some(name) = line
            .strip_prefix("PrivateKey=")
            .or_else(|| line.strip_prefix("PublicKey="))
        {
            let pem: Vec<&str> = lines
                .by_ref()
                .take_while(|l| !l.starts_with("-----END"))
                .collect();
            keys.insert(name.to_string(), pem.join("\n"));
        } else if line.is_empty() {
            if !cur.is_empty() {
                stanzas.push(std::mem::take(&mut cur));
            }
        } else if let Some((k, v)) = line.split_once(" = ") {
            cur.insert(k.to_string(), v.to_string());
        }
    }
    if !cur.is_empty() {
        stanzas.push(cur);
    }
    Parsed { keys, stanzas }
}

/// The DER of a PEM body (base64 lines between the armour; wrapped at 76 columns here).
fn pem_der(pem: &str) -> Vec<u8> {
    let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    Base64::decode_vec(&body).unwrap()
}

fn secret<C: PrimeGroup>(pem: &str) -> SecretKey<C> {
    let der = pem_der(pem);
    let info = pkcs8::PrivateKeyInfoRef::try_from(der.as_slice()).unwrap();
    let ec = sec1::EcPrivateKey::try_from(info.private_key.as_bytes()).unwrap();
    SecretKey::<C>::from_bytes(ec.private_key).unwrap()
}

fn sign_with<C: PrimeGroup, D: Digest + Update + BlockSizeUser + Clone>(
    key: &SecretKey<C>,
    msg: &[u8],
) -> Signature<C> {
    key.sign_prehash_with::<D>(&<D as Digest>::digest(msg), &[])
}

fn sign<C: PrimeGroup>(key: &SecretKey<C>, hash: &str, msg: &[u8]) -> Signature<C> {
    match hash {
        "SHA1" => sign_with::<C, sha1::Sha1>(key, msg),
        "SHA224" => sign_with::<C, sha2::Sha224>(key, msg),
        "SHA256" => sign_with::<C, sha2::Sha256>(key, msg),
        "SHA384" => sign_with::<C, sha2::Sha384>(key, msg),
        "SHA512" => sign_with::<C, sha2::Sha512>(key, msg),
        _ => panic!("hash {hash}"),
    }
}

fn digest(hash: &str, msg: &[u8]) -> Vec<u8> {
    match hash {
        "SHA1" => sha1::Sha1::digest(msg).to_vec(),
        "SHA224" => sha2::Sha224::digest(msg).to_vec(),
        "SHA256" => sha2::Sha256::digest(msg).to_vec(),
        "SHA384" => sha2::Sha384::digest(msg).to_vec(),
        "SHA512" => sha2::Sha512::digest(msg).to_vec(),
        _ => panic!("hash {hash}"),
    }
}

fn run<C: PrimeGroup>(name: &str) {
    let parsed = parse();
    let priv_name = format!("{name}_PRIV");
    let pub_name = format!("{name}_PUB");
    let sk = secret::<C>(&parsed.keys[&priv_name]);
    let pk = PublicKey::<C>::from_spki_der(&pem_der(&parsed.keys[&pub_name])).unwrap();
    assert_eq!(
        sk.public_key().to_sec1_bytes(false),
        pk.to_sec1_bytes(false),
        "{name}"
    );
    let (mut signs, mut verifies) = (0, 0);
    for st in &parsed.stanzas {
        let key = st.get("Key").map(String::as_str);
        if !st.contains_key("Input") {
            continue;
        }
        let msg = st["Input"].trim_matches('"').as_bytes();
        let out = unhex(&st["Output"]);
        if let Some(hash) = st.get("DigestSign") {
            if key != Some(priv_name.as_str()) {
                continue;
            }
            assert_eq!(st["NonceType"], "deterministic");
            let sig = sign::<C>(&sk, hash, msg);
            assert_eq!(sig.to_der(), out, "{name} {hash} {:?}", st["Input"]);
            signs += 1;
        } else if let Some(hash) = st.get("DigestVerify") {
            if key != Some(pub_name.as_str()) {
                continue;
            }
            let expect_ok = st.get("Result").is_none();
            let h = digest(hash, msg);
            let ok =
                Signature::<C>::from_der(&out).is_ok_and(|s| pk.verify_prehash(&h, &s).is_ok());
            assert_eq!(ok, expect_ok, "{name} verify {hash} {:?}", st["Input"]);
            verifies += 1;
        }
    }
    // RFC 6979 A.2: two messages × five hashes; each signature verified as is and altered.
    assert_eq!((signs, verifies), (10, 20), "{name}");
}

macro_rules! rfc6979 {
    ($($test:ident: $curve:ty, $name:literal;)*) => {$(
        #[test]
        fn $test() {
            run::<$curve>($name);
        }
    )*};
}

rfc6979! {
    k163: Sect163k1, "K-163";
    k233: Sect233k1, "K-233";
    k283: Sect283k1, "K-283";
    k409: Sect409k1, "K-409";
    k571: Sect571k1, "K-571";
    b163: Sect163r2, "B-163";
    b233: Sect233r1, "B-233";
    b283: Sect283r1, "B-283";
    b409: Sect409r1, "B-409";
    b571: Sect571r1, "B-571";
}
