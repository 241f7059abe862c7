//! The RustCrypto trait surface against ed25519-dalek 3 as the oracle: the same generic code
//! (bounded by `signature` 3 traits over `ed25519::Signature`) runs on both crates' keys and
//! must give the same bytes; `generate` from the same random stream gives the same key;
//! Ed25519ph through `DigestSigner`/`DigestVerifier` matches dalek's.

use fieldgen_curve25519::ed25519::{Sha512, Signature, SigningKey, VerifyingKey};
use sha2::Digest;
use signature::{DigestSigner, DigestVerifier, Keypair, Signer, Verifier};

/// A deterministic `CryptoRng` for the tests: SHA-512 of a counter, so two copies give the
/// same stream to both crates.
#[derive(Clone)]
struct TestRng(u64);

impl rand_core::TryRng for TestRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(64) {
            let block = Sha512::digest(self.0.to_le_bytes());
            self.0 += 1;
            chunk.copy_from_slice(&block[..chunk.len()]);
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for TestRng {}

/// Generic code as a user writes it against `signature` 3 and `ed25519` 3.
fn sign_generic<S: Signer<ed25519::Signature>>(signer: &S, msg: &[u8]) -> ed25519::Signature {
    signer.sign(msg)
}

fn verify_generic<V: Verifier<ed25519::Signature>>(
    v: &V,
    msg: &[u8],
    sig: &ed25519::Signature,
) -> bool {
    v.verify(msg, sig).is_ok()
}

#[test]
fn signer_bound_on_ed25519_signature_takes_both_crates() {
    for i in 0..16u8 {
        let seed = [i.wrapping_mul(37) ^ 0x5c; 32];
        let msg = vec![i; i as usize * 7];
        let ours = SigningKey::from_bytes(&seed);
        let dalek = ed25519_dalek::SigningKey::from_bytes(&seed);
        let a: Signature = sign_generic(&ours, &msg);
        let b = sign_generic(&dalek, &msg);
        assert_eq!(a, b, "seed {i}");
        assert!(verify_generic(&ours.verifying_key(), &msg, &b));
        assert!(verify_generic(&dalek.verifying_key(), &msg, &a));
        assert!(verify_generic(&Keypair::verifying_key(&ours), &msg, &a));
        let mut bad = a.to_bytes();
        bad[3] ^= 1;
        let bad = Signature::from_bytes(&bad);
        assert!(!verify_generic(&ours.verifying_key(), &msg, &bad));
        assert!(!verify_generic(&dalek.verifying_key(), &msg, &bad));
    }
}

#[test]
fn generate_draws_the_seed_as_dalek_does() {
    for start in [0u64, 1, 1000, u64::MAX - 3] {
        let ours = SigningKey::generate(&mut TestRng(start));
        let dalek = ed25519_dalek::SigningKey::generate(&mut TestRng(start));
        assert_eq!(ours.to_bytes(), dalek.to_bytes());
        assert_eq!(
            ours.verifying_key().to_bytes(),
            dalek.verifying_key().to_bytes()
        );
    }
    // Consecutive keys from one stream differ.
    let mut rng = TestRng(7);
    let (k1, k2) = (
        SigningKey::generate(&mut rng),
        SigningKey::generate(&mut rng),
    );
    assert_ne!(k1.to_bytes(), k2.to_bytes());
}

#[test]
fn digest_signer_and_verifier_match_dalek() {
    for i in 0..8u8 {
        let seed = [i ^ 0xa7; 32];
        let msg = vec![i ^ 0x11; 3 + 50 * i as usize];
        let ours = SigningKey::from_bytes(&seed);
        let dalek = ed25519_dalek::SigningKey::from_bytes(&seed);
        let a: Signature = ours.sign_digest(|d: &mut Sha512| d.update(&msg));
        let b: ed25519::Signature = dalek.sign_digest(|d: &mut Sha512| d.update(&msg));
        assert_eq!(a, b);
        assert_eq!(
            a,
            ours.sign_prehashed(Sha512::new().chain_update(&msg), None)
                .unwrap()
        );
        let vk = ours.verifying_key();
        assert!(vk
            .verify_digest(
                |d: &mut Sha512| {
                    d.update(&msg);
                    Ok(())
                },
                &b
            )
            .is_ok());
        assert!(dalek
            .verifying_key()
            .verify_digest(
                |d: &mut Sha512| {
                    d.update(&msg);
                    Ok(())
                },
                &a
            )
            .is_ok());
        // Another message, and pure Ed25519 of the same message, are refused.
        assert!(vk
            .verify_digest(
                |d: &mut Sha512| {
                    d.update(b"other");
                    Ok(())
                },
                &a
            )
            .is_err());
        assert!(vk.verify(&msg, &a).is_err());
    }
}

#[test]
fn verifying_keys_hash_as_they_compare() {
    use std::collections::HashSet;
    let keys: Vec<VerifyingKey> = (0..10u8)
        .map(|i| SigningKey::from_bytes(&[i % 5; 32]).verifying_key())
        .collect();
    let set: HashSet<VerifyingKey> = keys.iter().copied().collect();
    assert_eq!(set.len(), 5);
    for k in &keys {
        let again = VerifyingKey::from_bytes(&k.to_bytes()).unwrap();
        assert!(set.contains(&again));
    }
}

#[test]
fn slices_of_the_wrong_length_are_refused() {
    use fieldgen_curve25519::Error;
    assert_eq!(
        SigningKey::try_from(&[1u8; 31][..]).unwrap_err(),
        Error::InvalidLength(32)
    );
    assert_eq!(
        VerifyingKey::try_from(&[1u8; 33][..]).unwrap_err(),
        Error::InvalidLength(32)
    );
    assert!(Signature::from_slice(&[0u8; 63]).is_err());
    let sk = SigningKey::try_from(&[9u8; 32][..]).unwrap();
    let dalek = ed25519_dalek::SigningKey::try_from(&[9u8; 32][..]).unwrap();
    let vk = VerifyingKey::try_from(&dalek.verifying_key().to_bytes()[..]).unwrap();
    assert_eq!(vk, sk.verifying_key());
}
