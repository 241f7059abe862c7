//! Differential tests against the RustCrypto `p256`, `p384` and `k256` crates on fresh keys
//! and messages: public keys, ECDH shared secrets, RFC 6979 signatures byte for byte (k256
//! emits low s, as our secp256k1 signer does), and each side's signatures verified by the other.
//! `WEIERSTRASS_DIFF_ROUNDS` sets the number of keys per curve (default 16).

#![allow(
    clippy::cast_possible_truncation,
    reason = "test randomness: the clock seed and the generator's words are cut to narrower widths on purpose"
)]

mod common;

use fieldgen_weierstrass::curves::{Secp256k1, P256, P384};
use fieldgen_weierstrass::ecdsa::{PublicKey, SecretKey, Signature};
use sha2::{Digest, Sha256};
use signature::{Signer, Verifier};

fn rounds() -> u32 {
    std::env::var("WEIERSTRASS_DIFF_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16)
}

/// Fresh per run: seeded from the clock, reported on failure.
fn seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
}

fn bytes(seed: u64, label: &str, i: u32, len: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut j = 0u32;
    while out.len() < len {
        out.extend_from_slice(
            &Sha256::new()
                .chain_update(seed.to_le_bytes())
                .chain_update(label)
                .chain_update(i.to_le_bytes())
                .chain_update(j.to_le_bytes())
                .finalize(),
        );
        j += 1;
    }
    out.truncate(len);
    out
}

macro_rules! differential {
    ($test:ident, $curve:ty, $peer:ident, $len:expr) => {
        #[test]
        fn $test() {
            let seed = seed();
            for i in 0..rounds() {
                let d = bytes(seed, "d", i, $len);
                let d2 = bytes(seed, "d2", i, $len);
                let msg = bytes(seed, "msg", i, (i as usize * 7) % 100);
                // A key outside [1, n) is rejected by both sides alike.
                let theirs = $peer::SecretKey::from_slice(&d);
                let ours = SecretKey::<$curve>::from_bytes(&d);
                assert_eq!(theirs.is_ok(), ours.is_ok(), "seed {seed} round {i}");
                let (Ok(theirs), Ok(ours)) = (theirs, ours) else {
                    continue;
                };
                let their_pub = theirs.public_key().to_sec1_bytes();
                let compressed = their_pub.len() == 1 + $len;
                assert_eq!(
                    ours.public_key().to_sec1_bytes(compressed),
                    their_pub.to_vec(),
                    "public key, seed {seed} round {i}"
                );

                // ECDH both ways.
                let peer_theirs = $peer::SecretKey::from_slice(&d2).unwrap();
                let peer_pub = peer_theirs.public_key().to_sec1_bytes();
                let ours_peer = PublicKey::<$curve>::from_sec1_bytes(&peer_pub).unwrap();
                let z_ours = ours.diffie_hellman(&ours_peer).unwrap();
                let z_theirs = theirs.diffie_hellman(&peer_theirs.public_key());
                assert_eq!(
                    z_ours.as_bytes(),
                    z_theirs.raw_secret_bytes().as_slice(),
                    "ECDH, seed {seed} round {i}"
                );

                // RFC 6979 signatures byte for byte, verified both ways.
                let their_sk = $peer::ecdsa::SigningKey::from_slice(&d).unwrap();
                let their_sig: $peer::ecdsa::Signature = their_sk.sign(&msg);
                let our_sig: Signature<$curve> = ours.sign(&msg);
                assert_eq!(
                    our_sig.to_bytes(),
                    their_sig.to_bytes().to_vec(),
                    "signature, seed {seed} round {i}"
                );
                assert_eq!(our_sig.to_der(), their_sig.to_der().as_bytes().to_vec());
                let their_vk = $peer::ecdsa::VerifyingKey::from_sec1_bytes(
                    &ours.public_key().to_sec1_bytes(false),
                )
                .unwrap();
                let hedged = ours.sign_message_with_rng(&mut Counter(i as u64), &msg);
                let hedged_theirs =
                    $peer::ecdsa::Signature::from_slice(&hedged.to_bytes()).unwrap();
                assert!(
                    their_vk.verify(&msg, &hedged_theirs).is_ok(),
                    "seed {seed} round {i}"
                );
                assert!(ours.public_key().verify(&msg, &our_sig).is_ok());
                let sig_back = Signature::<$curve>::from_slice(&their_sig.to_bytes()).unwrap();
                assert!(ours.public_key().verify(&msg, &sig_back).is_ok());
                let mut other = msg.clone();
                other.push(1);
                assert!(ours.public_key().verify(&other, &sig_back).is_err());
            }
        }
    };
}

/// A deterministic stand-in for an RNG (the hedged signature is checked by verification).
struct Counter(u64);

impl rand_core::TryRng for Counter {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.try_next_u64()? as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        Ok(self.0)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for b in dst {
            *b = self.try_next_u64()? as u8;
        }
        Ok(())
    }
}
impl rand_core::TryCryptoRng for Counter {}

differential!(p256_against_rustcrypto, P256, p256, 32);
differential!(p384_against_rustcrypto, P384, p384, 48);
differential!(secp256k1_against_rustcrypto, Secp256k1, k256, 32);
