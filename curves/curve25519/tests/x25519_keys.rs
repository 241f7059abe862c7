//! The typed X25519 keys against x25519-dalek 3: the same random stream gives the same keys
//! and shared secrets, and low-order peer keys are reported as non-contributory as dalek
//! reports them.

use fieldgen_curve25519::{EphemeralSecret, PublicKey, StaticSecret};
use sha2::{Digest, Sha512};

/// A deterministic `CryptoRng`: SHA-512 of a counter.
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

#[test]
fn ephemeral_and_static_secrets_match_dalek() {
    for start in [0u64, 5, 77, 1 << 40] {
        let a = EphemeralSecret::random_from_rng(&mut TestRng(start));
        let a_d = x25519_dalek::EphemeralSecret::random_from_rng(&mut TestRng(start));
        let b = StaticSecret::random_from_rng(&mut TestRng(start + 1000));
        let b_d = x25519_dalek::StaticSecret::random_from_rng(&mut TestRng(start + 1000));
        assert_eq!(b.to_bytes(), b_d.to_bytes());
        let (pa, pa_d) = (PublicKey::from(&a), x25519_dalek::PublicKey::from(&a_d));
        let (pb, pb_d) = (PublicKey::from(&b), x25519_dalek::PublicKey::from(&b_d));
        assert_eq!(pa.to_bytes(), pa_d.to_bytes());
        assert_eq!(pb.to_bytes(), pb_d.to_bytes());
        let s_b = b.diffie_hellman(&pa);
        let s_d = b_d.diffie_hellman(&pa_d);
        assert_eq!(s_b.as_bytes(), s_d.as_bytes());
        assert!(s_b.was_contributory());
        let s_a = a.diffie_hellman(&pb);
        assert_eq!(s_a.to_bytes(), a_d.diffie_hellman(&pb_d).to_bytes());
        assert_eq!(s_a.as_bytes(), s_b.as_bytes());
    }
}

#[test]
fn static_secret_from_bytes_and_low_order_peers_match_dalek() {
    let secret = [0x42u8; 32];
    let ours = StaticSecret::from(secret);
    let dalek = x25519_dalek::StaticSecret::from(secret);
    // u = 0, u = 1 (low order) and u = 9 (the base point), as published in RFC 7748 §4.1.
    let mut one = [0u8; 32];
    one[0] = 1;
    let mut nine = [0u8; 32];
    nine[0] = 9;
    for u in [[0u8; 32], one, nine] {
        let s = ours.diffie_hellman(&PublicKey::from(u));
        let d = dalek.diffie_hellman(&x25519_dalek::PublicKey::from(u));
        assert_eq!(s.to_bytes(), d.to_bytes());
        assert_eq!(s.was_contributory(), d.was_contributory());
    }
    assert_eq!(
        PublicKey::from(&ours).to_bytes(),
        x25519_dalek::PublicKey::from(&dalek).to_bytes()
    );
}
