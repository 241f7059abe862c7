//! Ed25519 against RFC 8032 §7.1, the Wycheproof eddsa file and the 1024-line ed25519
//! reference file `sign.input` (see tests/vectors/README.md for the sources). Every test runs
//! once per verification backend (`common::each_verify_backend`: AVX-512 IFMA lanes forced,
//! where the CPU has them, checking that the lane equations ran; then scalar forced); the
//! signing tests also check that key generation and signing ran [a]B on the lanes
//! (`common::each_backend`), so the signatures are compared byte for byte on both backends.

mod common;

use common::{each_backend, each_verify_backend, hex, hex32, load_json, to_hex, vector_path};
use fieldgen_curve25519::ed25519::{Sha512, Signature, SigningKey, VerifyingKey};
use fieldgen_curve25519::Error;
use sha2::Digest;

#[test]
fn rfc8032_section_7_1() {
    each_backend(true, true, |_| {
        let v = load_json("rfc7748_rfc8032_vectors.json");
        let cases = v["rfc8032"]["ed25519"].as_array().unwrap();
        assert_eq!(cases.len(), 5);
        for c in cases {
            let name = c["name"].as_str().unwrap();
            let sk = SigningKey::from_bytes(&hex32(c["secret_key"].as_str().unwrap()));
            let pk = c["public_key"].as_str().unwrap();
            assert_eq!(to_hex(&sk.verifying_key().to_bytes()), pk, "{name}");
            let msg = hex(c["message"].as_str().unwrap());
            let sig = sk.sign(&msg);
            assert_eq!(
                to_hex(&sig.to_bytes()),
                c["signature"].as_str().unwrap(),
                "{name}"
            );
            let vk = VerifyingKey::from_bytes(&hex32(pk)).unwrap();
            vk.verify(&msg, &sig).unwrap();
            vk.verify_strict(&msg, &sig).unwrap();
            let mut bad = msg.clone();
            bad.push(0);
            assert!(vk.verify(&bad, &sig).is_err(), "{name}");
        }
    });
}

#[test]
fn wycheproof_eddsa() {
    each_verify_backend(true, |_| {
        let v = load_json("ed25519_test.json");
        let mut count = 0;
        for group in v["testGroups"].as_array().unwrap() {
            let pk = hex32(group["publicKey"]["pk"].as_str().unwrap());
            let key = VerifyingKey::from_bytes(&pk);
            for t in group["tests"].as_array().unwrap() {
                count += 1;
                let id = t["tcId"].as_u64().unwrap();
                let msg = hex(t["msg"].as_str().unwrap());
                let sig_bytes = hex(t["sig"].as_str().unwrap());
                let valid = match t["result"].as_str().unwrap() {
                    "valid" => true,
                    "invalid" => false,
                    other => panic!("tcId {id}: unexpected result {other}"),
                };
                let outcome = match (&key, Signature::from_slice(&sig_bytes)) {
                    (Ok(key), Ok(sig)) => {
                        let lax = key.verify(&msg, &sig).is_ok();
                        let strict = key.verify_strict(&msg, &sig).is_ok();
                        // Every valid Wycheproof case uses a key and R of large order.
                        assert_eq!(lax, strict, "tcId {id}: verify and verify_strict differ");
                        #[cfg(feature = "alloc")]
                        {
                            let batch = fieldgen_curve25519::ed25519::verify_batch(
                                &[&msg],
                                &[sig],
                                &[*key],
                            )
                            .is_ok();
                            if lax {
                                assert!(batch, "tcId {id}: verify accepts, batch rejects");
                            }
                        }
                        lax
                    }
                    _ => false,
                };
                assert_eq!(outcome, valid, "tcId {id} ({:?})", t["comment"]);
            }
        }
        assert_eq!(count, v["numberOfTests"].as_u64().unwrap());
    });
}

#[test]
fn ed25519_reference_sign_input() {
    each_backend(true, true, |_| {
        let text = std::fs::read_to_string(vector_path("sign.input")).unwrap();
        let mut lines = 0;
        for (i, line) in text.lines().enumerate() {
            let f: Vec<&str> = line.split(':').collect();
            assert_eq!(f.len(), 5, "line {i}");
            let sk_pk = hex(f[0]);
            let pk = hex32(f[1]);
            let msg = hex(f[2]);
            let sig_msg = hex(f[3]);
            assert_eq!(msg.len(), i);
            assert_eq!(&sk_pk[32..], &pk[..]);
            let sk = SigningKey::from_bytes(&sk_pk[..32].try_into().unwrap());
            assert_eq!(sk.verifying_key().to_bytes(), pk, "line {i}");
            let sig = sk.sign(&msg);
            assert_eq!(&sig.to_bytes()[..], &sig_msg[..64], "line {i}");
            assert_eq!(&sig_msg[64..], &msg[..]);
            let vk = VerifyingKey::from_bytes(&pk).unwrap();
            vk.verify(&msg, &sig).unwrap();
            vk.verify_strict(&msg, &sig).unwrap();
            // A flipped message bit must fail (the file's messages are public data).
            if !msg.is_empty() {
                let mut bad = msg.clone();
                bad[i / 2] ^= 1;
                assert!(vk.verify(&bad, &sig).is_err(), "line {i}");
            }
            lines += 1;
        }
        assert_eq!(lines, 1024);
    });
}

#[test]
fn rfc8032_section_7_2_ed25519ctx() {
    each_backend(true, true, |_| {
        let v = load_json("rfc7748_rfc8032_vectors.json");
        let cases = v["rfc8032"]["ed25519ctx"].as_array().unwrap();
        assert_eq!(cases.len(), 4);
        for c in cases {
            let name = c["name"].as_str().unwrap();
            let sk = SigningKey::from_bytes(&hex32(c["secret_key"].as_str().unwrap()));
            let pk = c["public_key"].as_str().unwrap();
            assert_eq!(to_hex(&sk.verifying_key().to_bytes()), pk, "{name}");
            let msg = hex(c["message"].as_str().unwrap());
            let ctx = hex(c["context"].as_str().unwrap());
            let sig = sk.sign_ctx(&msg, &ctx).unwrap();
            assert_eq!(
                to_hex(&sig.to_bytes()),
                c["signature"].as_str().unwrap(),
                "{name}"
            );
            let vk = VerifyingKey::from_bytes(&hex32(pk)).unwrap();
            vk.verify_ctx(&msg, &ctx, &sig).unwrap();
            vk.verify_ctx_strict(&msg, &ctx, &sig).unwrap();
            // Another context, pure Ed25519 and Ed25519ph do not accept it.
            let mut other = ctx.clone();
            other[0] ^= 1;
            assert_eq!(
                vk.verify_ctx(&msg, &other, &sig),
                Err(Error::InvalidSignature),
                "{name}"
            );
            assert!(vk.verify(&msg, &sig).is_err(), "{name}");
            assert!(vk
                .verify_prehashed(Sha512::new().chain_update(&msg), Some(&ctx), &sig)
                .is_err());
            let mut bad = msg.clone();
            bad.push(0);
            assert!(vk.verify_ctx(&bad, &ctx, &sig).is_err(), "{name}");
        }
    });
}

#[test]
fn rfc8032_section_7_3_ed25519ph() {
    each_backend(true, true, |_| {
        let v = load_json("rfc7748_rfc8032_vectors.json");
        let cases = v["rfc8032"]["ed25519ph"].as_array().unwrap();
        assert_eq!(cases.len(), 1);
        for c in cases {
            let name = c["name"].as_str().unwrap();
            let sk = SigningKey::from_bytes(&hex32(c["secret_key"].as_str().unwrap()));
            let pk = c["public_key"].as_str().unwrap();
            assert_eq!(to_hex(&sk.verifying_key().to_bytes()), pk, "{name}");
            let msg = hex(c["message"].as_str().unwrap());
            let ctx = hex(c["context"].as_str().unwrap());
            let expect = c["signature"].as_str().unwrap();
            // The vector's context is empty: `None` and `Some(&[])` are the same.
            let sig = sk
                .sign_prehashed(Sha512::new().chain_update(&msg), None)
                .unwrap();
            assert_eq!(to_hex(&sig.to_bytes()), expect, "{name}");
            let sig2 = sk
                .sign_prehashed(Sha512::new().chain_update(&msg), Some(&ctx))
                .unwrap();
            assert_eq!(sig, sig2);
            let vk = VerifyingKey::from_bytes(&hex32(pk)).unwrap();
            vk.verify_prehashed(Sha512::new().chain_update(&msg), None, &sig)
                .unwrap();
            vk.verify_prehashed_strict(Sha512::new().chain_update(&msg), Some(&ctx), &sig)
                .unwrap();
            assert!(vk
                .verify_prehashed(Sha512::new().chain_update(b"abd"), None, &sig)
                .is_err());
            assert!(vk
                .verify_prehashed(Sha512::new().chain_update(&msg), Some(b"x"), &sig)
                .is_err());
            assert!(vk.verify(&msg, &sig).is_err());
            // Ed25519ctx with the same (empty) context differs by the phflag.
            assert!(vk.verify_ctx(&msg, &ctx, &sig).is_err());
        }
    });
}

#[test]
fn context_longer_than_255_bytes_is_refused() {
    each_verify_backend(true, |_| {
        let sk = SigningKey::from_bytes(&[9u8; 32]);
        let vk = sk.verifying_key();
        let long = [0x41u8; 256];
        let ok = [0x41u8; 255];
        assert_eq!(sk.sign_ctx(b"m", &long), Err(Error::ContextTooLong));
        assert_eq!(
            sk.sign_prehashed(Sha512::new().chain_update(b"m"), Some(&long)),
            Err(Error::ContextTooLong)
        );
        let sig = sk.sign_ctx(b"m", &ok).unwrap();
        vk.verify_ctx(b"m", &ok, &sig).unwrap();
        assert_eq!(vk.verify_ctx(b"m", &long, &sig), Err(Error::ContextTooLong));
        let sig = sk
            .sign_prehashed(Sha512::new().chain_update(b"m"), Some(&ok))
            .unwrap();
        vk.verify_prehashed(Sha512::new().chain_update(b"m"), Some(&ok), &sig)
            .unwrap();
        assert_eq!(
            vk.verify_prehashed_strict(Sha512::new().chain_update(b"m"), Some(&long), &sig),
            Err(Error::ContextTooLong)
        );
    });
}
