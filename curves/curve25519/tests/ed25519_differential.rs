//! Ed25519 on random inputs against ed25519-dalek, the acceptance rules on crafted
//! small-order and malleable signatures (with ed25519-dalek as the oracle where its rules
//! match ours), and properties: sign/verify round trip, batch verify = each verify. The
//! verifications run once per backend (`common::each_verify_backend`: AVX-512 IFMA lanes
//! forced where the CPU has them, checking that the lane equations ran; then scalar forced);
//! key generation and signing likewise, checking that [a]B ran on the lanes.

use ed25519_dalek::{Signer as _, Verifier as _};
#[cfg(feature = "alloc")]
use fieldgen_curve25519::ed25519::verify_batch;
use fieldgen_curve25519::ed25519::{Signature, SigningKey, VerifyingKey};
use fieldgen_curve25519::Error;
use proptest::prelude::*;

mod common;

use common::{each_verify_backend, try_each_backend, try_each_verify_backend};

fn dalek_sig(b: &[u8; 64]) -> ed25519_dalek::Signature {
    ed25519_dalek::Signature::from_bytes(b)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn keys_and_signatures_match_dalek(seed in any::<[u8; 32]>(), msg in proptest::collection::vec(any::<u8>(), 0..200)) {
        try_each_backend(true, true, |_| -> Result<(), TestCaseError> {
            let ours = SigningKey::from_bytes(&seed);
            let theirs = ed25519_dalek::SigningKey::from_bytes(&seed);
            prop_assert_eq!(ours.verifying_key().to_bytes(), theirs.verifying_key().to_bytes());
            let sig = ours.sign(&msg);
            prop_assert_eq!(sig.to_bytes(), theirs.sign(&msg).to_bytes());
            // Round trip through the bytes and the signature traits.
            let vk = VerifyingKey::from_bytes(&ours.verifying_key().to_bytes()).unwrap();
            prop_assert!(vk.verify(&msg, &Signature::from_bytes(&sig.to_bytes())).is_ok());
            prop_assert!(vk.verify_strict(&msg, &sig).is_ok());
            let via_trait: Signature = signature::Signer::sign(&ours, &msg);
            prop_assert!(signature::Verifier::verify(&vk, &msg, &via_trait).is_ok());
            Ok(())
        })?;
    }

    #[test]
    fn random_signatures_verify_like_dalek(
        seed in any::<[u8; 32]>(),
        msg in proptest::collection::vec(any::<u8>(), 0..64),
        garbage in any::<[u8; 32]>(),
        which in 0usize..4,
    ) {
        try_each_verify_backend(which == 0, |_| -> Result<(), TestCaseError> {
            // Valid, tampered-R, tampered-S and random-R signatures: accept/reject as dalek does.
            let sk = SigningKey::from_bytes(&seed);
            let mut bytes = sk.sign(&msg).to_bytes();
            match which {
                0 => {}
                1 => bytes[garbage[0] as usize % 32] ^= 1 << (garbage[1] % 8),
                2 => bytes[32 + garbage[0] as usize % 31] ^= 1 << (garbage[1] % 8),
                _ => bytes[..32].copy_from_slice(&garbage),
            }
            let vk = sk.verifying_key();
            let dvk = ed25519_dalek::VerifyingKey::from_bytes(&vk.to_bytes()).unwrap();
            let sig = Signature::from_bytes(&bytes);
            prop_assert_eq!(vk.verify(&msg, &sig).is_ok(), dvk.verify(&msg, &dalek_sig(&bytes)).is_ok());
            prop_assert_eq!(
                vk.verify_strict(&msg, &sig).is_ok(),
                dvk.verify_strict(&msg, &dalek_sig(&bytes)).is_ok()
            );
            Ok(())
        })?;
    }

    #[test]
    fn random_public_keys_decode_like_dalek(bytes in any::<[u8; 32]>()) {
        // dalek reduces y mod p and accepts x = 0 with the sign bit set; we reject both
        // (RFC 8032 §5.1.3). A random 32-byte string hits neither with any real probability.
        let ours = VerifyingKey::from_bytes(&bytes);
        let theirs = ed25519_dalek::VerifyingKey::from_bytes(&bytes);
        prop_assert_eq!(ours.is_ok(), theirs.is_ok());
    }
}

// Batch verification needs `alloc`.
#[cfg(feature = "alloc")]
proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn batch_verify_equals_each_verify(
        seeds in proptest::collection::vec(any::<[u8; 32]>(), 1..12),
        tamper in proptest::collection::vec(any::<bool>(), 12),
    ) {
        try_each_verify_backend(true, |_| -> Result<(), TestCaseError> {
            let msgs: Vec<Vec<u8>> = seeds.iter().map(|s| s[..(s[0] % 32) as usize].to_vec()).collect();
            let keys: Vec<SigningKey> = seeds.iter().map(SigningKey::from_bytes).collect();
            let mut sigs: Vec<Signature> = keys.iter().zip(&msgs).map(|(k, m)| k.sign(m)).collect();
            for (i, sig) in sigs.iter_mut().enumerate() {
                if tamper[i] && i % 3 == 0 {
                    let mut b = sig.to_bytes();
                    b[40] ^= 4;
                    *sig = Signature::from_bytes(&b);
                }
            }
            let vks: Vec<VerifyingKey> = keys.iter().map(SigningKey::verifying_key).collect();
            let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
            let each = vks.iter().zip(&refs).zip(&sigs).all(|((k, m), s)| k.verify(m, s).is_ok());
            prop_assert_eq!(verify_batch(&refs, &sigs, &vks).is_ok(), each);
            let dsigs: Vec<ed25519_dalek::Signature> = sigs.iter().map(|s| dalek_sig(&s.to_bytes())).collect();
            let dvks: Vec<ed25519_dalek::VerifyingKey> = vks
                .iter()
                .map(|k| ed25519_dalek::VerifyingKey::from_bytes(&k.to_bytes()).unwrap())
                .collect();
            prop_assert_eq!(ed25519_dalek::verify_batch(&refs, &dsigs, &dvks).is_ok(), each);
            Ok(())
        })?;
    }
}

#[cfg(feature = "alloc")]
#[test]
fn batch_of_300_uses_pippenger_and_catches_one_bad_signature() {
    each_verify_backend(true, |_| {
        let n = 300;
        let keys: Vec<SigningKey> = (0..n)
            .map(|i| SigningKey::from_bytes(&[(i % 251) as u8 ^ 0x3c; 32]))
            .collect();
        let msgs: Vec<Vec<u8>> = (0..n).map(|i| (i as u32).to_le_bytes().to_vec()).collect();
        let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
        let mut sigs: Vec<Signature> = keys.iter().zip(&msgs).map(|(k, m)| k.sign(m)).collect();
        let vks: Vec<VerifyingKey> = keys.iter().map(SigningKey::verifying_key).collect();
        assert_eq!(verify_batch(&refs, &sigs, &vks), Ok(()));
        sigs.swap(10, 11);
        assert_eq!(
            verify_batch(&refs, &sigs, &vks),
            Err(Error::InvalidSignature)
        );
        assert_eq!(
            verify_batch(&refs[1..], &sigs, &vks),
            Err(Error::BatchLengthMismatch)
        );
    });
}

/// l, little-endian (RFC 8032 §5.1).
const L: [u8; 32] = [
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
];

fn add_le(a: &[u8; 32], b: &[u8; 32]) -> [u8; 32] {
    let mut out = [0u8; 32];
    let mut carry = 0u16;
    for i in 0..32 {
        let [low, high] = (u16::from(a[i]) + u16::from(b[i]) + carry).to_le_bytes();
        out[i] = low;
        carry = u16::from(high);
    }
    out
}

#[test]
fn malleable_s_plus_l_is_rejected() {
    each_verify_backend(false, |_| {
        let sk = SigningKey::from_bytes(&[7u8; 32]);
        let msg = b"malleability";
        let sig = sk.sign(msg);
        let mut b = sig.to_bytes();
        let s_plus_l = add_le(sig.s_bytes(), &L);
        b[32..].copy_from_slice(&s_plus_l);
        let bad = Signature::from_bytes(&b);
        let vk = sk.verifying_key();
        assert_eq!(vk.verify(msg, &bad), Err(Error::ScalarOutOfRange));
        assert_eq!(vk.verify_strict(msg, &bad), Err(Error::ScalarOutOfRange));
        let dvk = ed25519_dalek::VerifyingKey::from_bytes(&vk.to_bytes()).unwrap();
        assert!(dvk.verify(msg, &dalek_sig(&b)).is_err());
    });
}

#[test]
fn small_order_key_and_r_follow_the_documented_rules() {
    each_verify_backend(true, |_| {
        // A = R = the identity (encoding y = 1), S = 0: [0]B = R + [k]A holds for any message.
        let mut identity = [0u8; 32];
        identity[0] = 1;
        let mut b = [0u8; 64];
        b[..32].copy_from_slice(&identity);
        let sig = Signature::from_bytes(&b);
        let vk = VerifyingKey::from_bytes(&identity).unwrap();
        assert!(vk.is_weak());
        let dvk = ed25519_dalek::VerifyingKey::from_bytes(&identity).unwrap();
        for msg in [&b""[..], b"any message"] {
            assert_eq!(
                vk.verify(msg, &sig).is_ok(),
                dvk.verify(msg, &dalek_sig(&b)).is_ok()
            );
            assert!(vk.verify(msg, &sig).is_ok());
            assert_eq!(vk.verify_strict(msg, &sig), Err(Error::SmallOrderPoint));
            assert!(dvk.verify_strict(msg, &dalek_sig(&b)).is_err());
            #[cfg(feature = "alloc")]
            assert!(verify_batch(&[msg], &[sig], &[vk]).is_ok());
        }
    });
}

#[test]
fn non_canonical_encodings_are_rejected() {
    each_verify_backend(false, |_| {
        // y = p + 1 (non-canonical encoding of y = 1) and x = 0 with the sign bit set.
        let mut y_p_plus_1 = [0xffu8; 32];
        y_p_plus_1[0] = 0xee;
        y_p_plus_1[31] = 0x7f;
        assert_eq!(
            VerifyingKey::from_bytes(&y_p_plus_1),
            Err(Error::InvalidPointEncoding)
        );
        let mut neg_zero = [0u8; 32];
        neg_zero[0] = 1;
        neg_zero[31] = 0x80;
        assert_eq!(
            VerifyingKey::from_bytes(&neg_zero),
            Err(Error::InvalidPointEncoding)
        );
        // As R, the same encodings fail verify (byte comparison) and verify_strict (decoding).
        let sk = SigningKey::from_bytes(&[9u8; 32]);
        let vk = sk.verifying_key();
        for r in [y_p_plus_1, neg_zero] {
            let mut b = [0u8; 64];
            b[..32].copy_from_slice(&r);
            let sig = Signature::from_bytes(&b);
            assert!(vk.verify(b"m", &sig).is_err());
            assert_eq!(
                vk.verify_strict(b"m", &sig),
                Err(Error::InvalidPointEncoding)
            );
        }
    });
}
