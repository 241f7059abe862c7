//! Each X25519 backend forced in turn against the RFC 7748 §5.2 vectors and 1,000-iteration
//! result, the Wycheproof x25519 file and x25519-dalek on random inputs (sources of the vector
//! files: tests/vectors/README.md). On a CPU with AVX-512F/VL/IFMA (by the standard library's
//! detection, independent of the crate's CPUID code) the tests assert that the IFMA ladder ran
//! and that `x25519` dispatches to it; elsewhere, that it is refused.

mod common;

use common::{hex32, load_json, to_hex};
use fieldgen_curve25519::{x25519_backend, x25519_with, X25519Backend, BASEPOINT_U};
use proptest::prelude::*;

/// The backends this CPU runs, after checking that detection agrees with the standard library.
fn backends() -> Vec<X25519Backend> {
    let ifma = x25519_with(X25519Backend::Avx512Ifma, [1; 32], BASEPOINT_U).is_some();
    assert_eq!(ifma, common::cpu_has_ifma(), "IFMA ladder availability");
    if ifma {
        assert_eq!(x25519_backend(), X25519Backend::Avx512Ifma);
        vec![X25519Backend::Avx512Ifma, X25519Backend::Scalar]
    } else {
        assert_eq!(x25519_backend(), X25519Backend::Scalar);
        vec![X25519Backend::Scalar]
    }
}

fn run(b: X25519Backend, k: [u8; 32], u: [u8; 32]) -> [u8; 32] {
    x25519_with(b, k, u).expect("backend available")
}

#[test]
fn rfc7748_vectors_each_backend() {
    let v = load_json("rfc7748_rfc8032_vectors.json");
    for b in backends() {
        for c in v["rfc7748"]["x25519"].as_array().unwrap() {
            let out = run(
                b,
                hex32(c["scalar"].as_str().unwrap()),
                hex32(c["u"].as_str().unwrap()),
            );
            assert_eq!(to_hex(&out), c["output"].as_str().unwrap(), "{b:?}");
        }
        let (mut k, mut u) = (BASEPOINT_U, BASEPOINT_U);
        for _ in 0..1000 {
            let next = run(b, k, u);
            u = k;
            k = next;
        }
        let want = v["rfc7748"]["x25519_iterated"]["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["iterations"].as_u64() == Some(1000))
            .unwrap()["output"]
            .as_str()
            .unwrap();
        assert_eq!(to_hex(&k), want, "{b:?}: 1,000 iterations");
    }
}

#[test]
fn wycheproof_each_backend() {
    let v = load_json("x25519_test.json");
    for b in backends() {
        let mut count = 0;
        for group in v["testGroups"].as_array().unwrap() {
            for t in group["tests"].as_array().unwrap() {
                let out = run(
                    b,
                    hex32(t["private"].as_str().unwrap()),
                    hex32(t["public"].as_str().unwrap()),
                );
                assert_eq!(
                    to_hex(&out),
                    t["shared"].as_str().unwrap(),
                    "{b:?} tcId {}",
                    t["tcId"]
                );
                count += 1;
            }
        }
        assert_eq!(count, v["numberOfTests"].as_u64().unwrap());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn each_backend_matches_dalek(k in any::<[u8; 32]>(), u in any::<[u8; 32]>()) {
        let want = x25519_dalek::x25519(k, u);
        for b in backends() {
            prop_assert_eq!(run(b, k, u), want, "{:?}", b);
        }
    }
}
