//! The `signature` traits, checked against the `rsa` crate: v1.5 signatures from `Signer`,
//! `RandomizedSigner` and `DigestSigner` equal the rsa crate's byte for byte; PSS signatures
//! from `RandomizedSigner` / `RandomizedDigestSigner` verify there, and the rsa crate's
//! signatures verify through `Verifier` / `DigestVerifier`.

mod common;

use common::rng;
use fieldgen_rsa_schemes::{pkcs1v15, pss, RsaPrivateKey, Signature};
use rsa::pkcs8::DecodePrivateKey;
use rsa::sha2::{Digest, Sha256, Sha384};
use signature::{
    DigestSigner, DigestVerifier, RandomizedDigestSigner, RandomizedSigner, SignatureEncoding,
    Signer, Verifier,
};

fn keys() -> (RsaPrivateKey, rsa::PrivateKey) {
    let pem = common::vector_file("doc_key_1024.pem");
    (
        RsaPrivateKey::from_pkcs8_pem(&pem).unwrap(),
        rsa::PrivateKey::from_pkcs8_pem(&pem).unwrap(),
    )
}

#[test]
fn pkcs1v15_traits() {
    let (ours, theirs) = keys();
    let sk = pkcs1v15::SigningKey::<Sha256>::new(ours);
    let vk = sk.verifying_key();
    let msg = b"trait message";
    let want = theirs.pkcs1v15_sign::<Sha256>(msg).unwrap();
    let s1: Signature = sk.sign(msg);
    let s2: Signature = sk.sign_with_rng(&mut rng(5), msg);
    let s3: Signature = sk.sign_digest(|d: &mut Sha256| d.update(msg));
    for s in [&s1, &s2, &s3] {
        assert_eq!(s.to_vec(), want);
        vk.verify(msg, s).unwrap();
        vk.verify_digest(
            |d: &mut Sha256| {
                d.update(msg);
                Ok(())
            },
            s,
        )
        .unwrap();
    }
    assert!(vk.verify(b"other", &s1).is_err());
    let short = Signature::try_from(&want[1..]).unwrap();
    assert!(vk.verify(msg, &short).is_err());
}

#[test]
fn pss_traits() {
    let (ours, theirs) = keys();
    let their_pub = theirs.to_public_key();
    let sk = pss::SigningKey::<Sha384>::new(ours);
    let vk = sk.verifying_key();
    let msg = b"pss trait message";
    let mut r = rng(6);
    let s1: Signature = sk.sign_with_rng(&mut r, msg);
    let s2: Signature = sk.sign_digest_with_rng(&mut r, |d: &mut Sha384| d.update(msg));
    assert_ne!(s1, s2, "random salts");
    for s in [&s1, &s2] {
        their_pub.pss_verify::<Sha384>(msg, s.as_bytes()).unwrap();
        vk.verify(msg, s).unwrap();
    }
    let theirs_sig = Signature::from(theirs.pss_sign_with_rng::<Sha384, _>(&mut r, msg).unwrap());
    vk.verify(msg, &theirs_sig).unwrap();
    vk.verify_digest(
        |d: &mut Sha384| {
            d.update(msg);
            Ok(())
        },
        &theirs_sig,
    )
    .unwrap();
    assert!(vk.verify(b"other", &theirs_sig).is_err());
}

#[test]
fn concurrent_signing_shares_the_blinding_cache() {
    // Four threads sign with one key (the cached blinding pair is taken by one at a time, the
    // others draw fresh pairs); every signature equals the rsa crate's.
    let (ours, theirs) = keys();
    let sk = std::sync::Arc::new(pkcs1v15::SigningKey::<Sha256>::new(ours));
    let want: Vec<Vec<u8>> = (0..40u32)
        .map(|i| theirs.pkcs1v15_sign::<Sha256>(&i.to_be_bytes()).unwrap())
        .collect();
    let want = std::sync::Arc::new(want);
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let (sk, want) = (sk.clone(), want.clone());
            std::thread::spawn(move || {
                for i in 0..40u32 {
                    let s: Signature = sk.sign(&i.to_be_bytes());
                    assert_eq!(s.to_vec(), want[i as usize], "thread {t}, message {i}");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}
