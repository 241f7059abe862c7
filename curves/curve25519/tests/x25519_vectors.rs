//! X25519 against RFC 7748 (§5.2 vectors, iterated results, §6.1 Diffie–Hellman) and the
//! Wycheproof x25519 file (see tests/vectors/README.md for the sources).

mod common;

use common::{hex32, load_json, to_hex};
use fieldgen_curve25519::{x25519, x25519_base, x25519_checked, Error, BASEPOINT_U};

#[test]
fn rfc7748_section_5_2_vectors() {
    let v = load_json("rfc7748_rfc8032_vectors.json");
    let cases = v["rfc7748"]["x25519"].as_array().unwrap();
    assert_eq!(cases.len(), 2);
    for c in cases {
        let out = x25519(
            hex32(c["scalar"].as_str().unwrap()),
            hex32(c["u"].as_str().unwrap()),
        );
        assert_eq!(to_hex(&out), c["output"].as_str().unwrap(), "{}", c["name"]);
    }
}

fn iterate(n: usize) -> [u8; 32] {
    let mut k = BASEPOINT_U;
    let mut u = BASEPOINT_U;
    for _ in 0..n {
        let next = x25519(k, u);
        u = k;
        k = next;
    }
    k
}

fn iterated_expected(n: u64) -> String {
    let v = load_json("rfc7748_rfc8032_vectors.json");
    v["rfc7748"]["x25519_iterated"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["iterations"].as_u64() == Some(n))
        .expect("iteration count in file")["output"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn rfc7748_iterated_1_and_1000() {
    assert_eq!(to_hex(&iterate(1)), iterated_expected(1));
    assert_eq!(to_hex(&iterate(1000)), iterated_expected(1000));
}

#[test]
#[ignore = "1,000,000 ladders: minutes at the test profile's opt-level"]
fn rfc7748_iterated_1000000() {
    assert_eq!(to_hex(&iterate(1_000_000)), iterated_expected(1_000_000));
}

#[test]
fn rfc7748_section_6_1_diffie_hellman() {
    let v = load_json("rfc7748_rfc8032_vectors.json");
    let dh = &v["rfc7748"]["x25519_diffie_hellman_6_1"];
    let a = hex32(dh["alice_private"].as_str().unwrap());
    let b = hex32(dh["bob_private"].as_str().unwrap());
    let a_pub = dh["alice_public"].as_str().unwrap();
    let b_pub = dh["bob_public"].as_str().unwrap();
    // Public keys by the fixed-base path and by the ladder on u = 9.
    assert_eq!(to_hex(&x25519_base(a)), a_pub);
    assert_eq!(to_hex(&x25519_base(b)), b_pub);
    assert_eq!(to_hex(&x25519(a, BASEPOINT_U)), a_pub);
    assert_eq!(to_hex(&x25519(b, BASEPOINT_U)), b_pub);
    let shared = dh["shared_secret"].as_str().unwrap();
    assert_eq!(to_hex(&x25519(a, hex32(b_pub))), shared);
    assert_eq!(to_hex(&x25519_checked(b, hex32(a_pub)).unwrap()), shared);
}

#[test]
fn wycheproof_x25519() {
    let v = load_json("x25519_test.json");
    let mut count = 0;
    for group in v["testGroups"].as_array().unwrap() {
        assert_eq!(group["curve"], "curve25519");
        for t in group["tests"].as_array().unwrap() {
            let id = t["tcId"].as_u64().unwrap();
            let result = t["result"].as_str().unwrap();
            let flags: Vec<&str> = t["flags"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap())
                .collect();
            let private = hex32(t["private"].as_str().unwrap());
            let public = hex32(t["public"].as_str().unwrap());
            let shared = t["shared"].as_str().unwrap();
            // The file has only valid and acceptable cases; both carry the RFC 7748 output.
            assert!(result == "valid" || result == "acceptable", "tcId {id}");
            assert_eq!(
                to_hex(&x25519(private, public)),
                shared,
                "tcId {id} {flags:?}"
            );
            let checked = x25519_checked(private, public);
            if flags.contains(&"ZeroSharedSecret") {
                assert_eq!(checked, Err(Error::LowOrderPoint), "tcId {id}");
            } else {
                assert_eq!(to_hex(&checked.unwrap()), shared, "tcId {id}");
            }
            count += 1;
        }
    }
    assert_eq!(count, v["numberOfTests"].as_u64().unwrap());
}
