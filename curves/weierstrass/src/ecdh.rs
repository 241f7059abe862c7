//! Elliptic-curve Diffie–Hellman, SEC 1 v2 §3.3.1: the shared secret is the affine
//! x-coordinate of d·Q, big-endian, the base field's byte length.

use alloc::vec::Vec;

use zeroize::{ZeroizeOnDrop, Zeroizing};

use crate::ecdsa::{PublicKey, SecretKey};
use crate::protocol::PrimeGroup;
use crate::Error;

/// The x-coordinate z of d·Q (SEC 1 §3.3.1 step 3), zeroed on drop.
#[derive(Clone)]
pub struct SharedSecret(Zeroizing<Vec<u8>>);

impl SharedSecret {
    /// The octets of z, big-endian, the base field's byte length.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl ZeroizeOnDrop for SharedSecret {}

impl<G: PrimeGroup> SecretKey<G> {
    /// SEC 1 §3.3.1: z = x(d·Q) for a peer key already validated by
    /// [`PublicKey::from_sec1_bytes`] (§3.2.2.1). Constant time in d and Q; an identity
    /// product, impossible for a valid key of a prime-order group, is an error.
    pub fn diffie_hellman(&self, peer: &PublicKey<G>) -> Result<SharedSecret, Error> {
        let p = G::mul(peer.as_point(), self.scalar());
        let x: Option<Vec<u8>> = G::x_be_bytes(&p).into();
        x.map(|b| SharedSecret(Zeroizing::new(b)))
            .ok_or(Error::Identity)
    }
}

impl<G: PrimeGroup> SecretKey<G> {
    /// Cofactor ECDH, SEC 1 §3.3.2: z = x(h·d·Q) with h = [`PrimeGroup::COFACTOR`], computed
    /// as ((h·d) mod n)·Q, which is the same point since a validated Q has order n. Equal to
    /// [`SecretKey::diffie_hellman`] when h = 1. Constant time in d and Q.
    pub fn diffie_hellman_cofactor(&self, peer: &PublicKey<G>) -> Result<SharedSecret, Error> {
        use fieldgen_field::PrimeField;
        use zeroize::Zeroize;
        let mut hd = G::Scalar::from_u64(G::COFACTOR) * *self.scalar();
        let p = G::mul(peer.as_point(), &hd);
        hd.zeroize();
        let x: Option<Vec<u8>> = G::x_be_bytes(&p).into();
        x.map(|b| SharedSecret(Zeroizing::new(b)))
            .ok_or(Error::Identity)
    }
}

/// ECDH from encodings: the secret key as BYTES big-endian octets, the peer's public key as
/// a SEC 1 point (compressed or uncompressed), validated in full.
pub fn diffie_hellman_bytes<G: PrimeGroup>(
    secret: &[u8],
    peer_sec1: &[u8],
) -> Result<SharedSecret, Error> {
    let d = SecretKey::<G>::from_bytes(secret)?;
    let q = PublicKey::<G>::from_sec1_bytes(peer_sec1)?;
    d.diffie_hellman(&q)
}
