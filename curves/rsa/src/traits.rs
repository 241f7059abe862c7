//! Signing and verifying key types with the RustCrypto `signature` 3 traits.
use alloc::boxed::Box;
use alloc::vec::Vec;

/// An RSA signature: exactly k bytes, big-endian.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature(Box<[u8]>);

impl Signature {
    /// The signature bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
    /// The signature bytes as a vector.
    pub fn to_vec(&self) -> Vec<u8> {
        self.0.to_vec()
    }
}

impl From<Vec<u8>> for Signature {
    fn from(v: Vec<u8>) -> Self {
        Signature(v.into_boxed_slice())
    }
}

impl From<&[u8]> for Signature {
    fn from(v: &[u8]) -> Self {
        Signature(v.into())
    }
}

impl AsRef<[u8]> for Signature {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// RSASSA-PKCS1-v1_5 key types.
pub mod pkcs1v15 {}
/// RSASSA-PSS key types.
pub mod pss {}
