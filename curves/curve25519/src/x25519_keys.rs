//! Typed X25519 keys in the shapes of x25519-dalek 3 (`PublicKey`, `EphemeralSecret`,
//! `StaticSecret`, `SharedSecret`), on top of [`crate::x25519`] and [`crate::x25519_base`].
//! Secrets and shared secrets are zeroized on drop; the free functions stay as they are.

use subtle::ConstantTimeEq;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::x25519::{x25519, x25519_base};

/// An X25519 public key: the 32-byte little-endian u-coordinate of RFC 7748 §5, taken as
/// given (bit 255 is masked and non-canonical values are reduced when it is used).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PublicKey([u8; 32]);

impl From<[u8; 32]> for PublicKey {
    fn from(bytes: [u8; 32]) -> PublicKey {
        PublicKey(bytes)
    }
}

impl PublicKey {
    /// The 32-byte encoding.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0
    }

    /// The 32-byte encoding, borrowed.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl AsRef<[u8]> for PublicKey {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// 32 bytes from `rng`, the secret scalar before clamping (RFC 7748 §5 clamps on use).
fn random_bytes<R: rand_core::CryptoRng + ?Sized>(rng: &mut R) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    rng.fill_bytes(&mut bytes);
    bytes
}

/// A secret for one key exchange: [`EphemeralSecret::diffie_hellman`] consumes it. 32
/// random bytes, clamped when used; zeroized on drop.
pub struct EphemeralSecret([u8; 32]);

impl EphemeralSecret {
    /// A new secret from 32 bytes of `rng`.
    pub fn random_from_rng<R: rand_core::CryptoRng + ?Sized>(rng: &mut R) -> EphemeralSecret {
        EphemeralSecret(random_bytes(rng))
    }

    /// X25519(secret, their public key) (RFC 7748 §6.1); check
    /// [`SharedSecret::was_contributory`] where a low-order peer key matters.
    pub fn diffie_hellman(self, their_public: &PublicKey) -> SharedSecret {
        SharedSecret(x25519(self.0, their_public.0))
    }
}

impl From<&EphemeralSecret> for PublicKey {
    /// X25519(secret, 9).
    fn from(secret: &EphemeralSecret) -> PublicKey {
        PublicKey(x25519_base(secret.0))
    }
}

impl Drop for EphemeralSecret {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl ZeroizeOnDrop for EphemeralSecret {}

/// A reusable secret (x25519-dalek's `StaticSecret`): 32 bytes, clamped when used;
/// zeroized on drop.
#[derive(Clone)]
pub struct StaticSecret([u8; 32]);

impl StaticSecret {
    /// A new secret from 32 bytes of `rng`.
    pub fn random_from_rng<R: rand_core::CryptoRng + ?Sized>(rng: &mut R) -> StaticSecret {
        StaticSecret(random_bytes(rng))
    }

    /// X25519(secret, their public key) (RFC 7748 §6.1).
    pub fn diffie_hellman(&self, their_public: &PublicKey) -> SharedSecret {
        SharedSecret(x25519(self.0, their_public.0))
    }

    /// The 32 secret bytes as given (unclamped).
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0
    }

    /// The 32 secret bytes, borrowed.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl From<[u8; 32]> for StaticSecret {
    fn from(bytes: [u8; 32]) -> StaticSecret {
        StaticSecret(bytes)
    }
}

impl From<&StaticSecret> for PublicKey {
    /// X25519(secret, 9).
    fn from(secret: &StaticSecret) -> PublicKey {
        PublicKey(x25519_base(secret.0))
    }
}

impl AsRef<[u8]> for StaticSecret {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Drop for StaticSecret {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl ZeroizeOnDrop for StaticSecret {}

/// The output of a key exchange, 32 bytes little-endian; zeroized on drop.
pub struct SharedSecret([u8; 32]);

impl SharedSecret {
    /// The 32 bytes.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0
    }

    /// The 32 bytes, borrowed.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Whether the result is not all zero, i.e. the peer's key was not a low-order point
    /// (RFC 7748 §6.1's check). Constant time.
    #[must_use]
    pub fn was_contributory(&self) -> bool {
        !bool::from(self.0.ct_eq(&[0u8; 32]))
    }
}

impl AsRef<[u8]> for SharedSecret {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Drop for SharedSecret {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl ZeroizeOnDrop for SharedSecret {}
