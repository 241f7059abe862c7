//! The hash functions of the schemes, MGF1 (RFC 8017 B.2.1) and the DigestInfo prefixes of
//! EMSA-PKCS1-v1_5 (RFC 8017 §9.2, note 1).

use alloc::vec::Vec;
use digest::Digest;

/// A hash function for the schemes: SHA-1 (FIPS 180-4; for verifying old signatures and the
/// published vectors) and the SHA-2 family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashAlg {
    /// SHA-1, 20-byte output.
    Sha1,
    /// SHA-224, 28-byte output.
    Sha224,
    /// SHA-256, 32-byte output.
    Sha256,
    /// SHA-384, 48-byte output.
    Sha384,
    /// SHA-512, 64-byte output.
    Sha512,
    /// SHA-512/224, 28-byte output.
    Sha512_224,
    /// SHA-512/256, 32-byte output.
    Sha512_256,
}

impl HashAlg {
    /// The output length hLen in bytes.
    pub const fn output_len(self) -> usize {
        match self {
            HashAlg::Sha1 => 20,
            HashAlg::Sha224 | HashAlg::Sha512_224 => 28,
            HashAlg::Sha256 | HashAlg::Sha512_256 => 32,
            HashAlg::Sha384 => 48,
            HashAlg::Sha512 => 64,
        }
    }

    /// The hash of the concatenation of `parts`.
    pub fn digest_parts(self, parts: &[&[u8]]) -> Vec<u8> {
        fn run<D: Digest>(parts: &[&[u8]]) -> Vec<u8> {
            let mut h = D::new();
            for p in parts {
                h.update(p);
            }
            h.finalize().to_vec()
        }
        match self {
            HashAlg::Sha1 => run::<sha1::Sha1>(parts),
            HashAlg::Sha224 => run::<sha2::Sha224>(parts),
            HashAlg::Sha256 => run::<sha2::Sha256>(parts),
            HashAlg::Sha384 => run::<sha2::Sha384>(parts),
            HashAlg::Sha512 => run::<sha2::Sha512>(parts),
            HashAlg::Sha512_224 => run::<sha2::Sha512_224>(parts),
            HashAlg::Sha512_256 => run::<sha2::Sha512_256>(parts),
        }
    }

    /// The hash of `msg`.
    pub fn digest(self, msg: &[u8]) -> Vec<u8> {
        self.digest_parts(&[msg])
    }

    /// The DER prefix of the DigestInfo of EMSA-PKCS1-v1_5 (RFC 8017 §9.2 note 1): the
    /// encoding of the AlgorithmIdentifier (with NULL parameters) and the OCTET STRING header;
    /// the hash value follows.
    pub const fn digest_info_prefix(self) -> &'static [u8] {
        match self {
            HashAlg::Sha1 => &[
                0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04,
                0x14,
            ],
            HashAlg::Sha224 => &PREFIX_SHA224,
            HashAlg::Sha256 => &PREFIX_SHA256,
            HashAlg::Sha384 => &PREFIX_SHA384,
            HashAlg::Sha512 => &PREFIX_SHA512,
            HashAlg::Sha512_224 => &PREFIX_SHA512_224,
            HashAlg::Sha512_256 => &PREFIX_SHA512_256,
        }
    }
}

const PREFIX_SHA224: [u8; 19] = sha2_prefix(0x2d, 0x04, 0x1c);
const PREFIX_SHA256: [u8; 19] = sha2_prefix(0x31, 0x01, 0x20);
const PREFIX_SHA384: [u8; 19] = sha2_prefix(0x41, 0x02, 0x30);
const PREFIX_SHA512: [u8; 19] = sha2_prefix(0x51, 0x03, 0x40);
const PREFIX_SHA512_224: [u8; 19] = sha2_prefix(0x2d, 0x05, 0x1c);
const PREFIX_SHA512_256: [u8; 19] = sha2_prefix(0x31, 0x06, 0x20);

/// DigestInfo prefix of a SHA-2 function: OID 2.16.840.1.101.3.4.2.`arc`, total length `len`,
/// hash length `hlen`.
const fn sha2_prefix(len: u8, arc: u8, hlen: u8) -> [u8; 19] {
    [
        0x30, len, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, arc,
        0x05, 0x00, 0x04, hlen,
    ]
}

/// MGF1 (RFC 8017 B.2.1): XORs the mask of `len = out.len()` bytes generated from `seed` by
/// `hash` into `out` (the counter is 4 bytes big-endian). RFC 8017 caps the mask at 2^32
/// blocks; callers pass at most the modulus length, far below it.
pub(crate) fn mgf1_xor(hash: HashAlg, seed: &[u8], out: &mut [u8]) {
    let hlen = hash.output_len();
    for (counter, chunk) in (0..=u32::MAX).zip(out.chunks_mut(hlen)) {
        let c = counter.to_be_bytes();
        let block = hash.digest_parts(&[seed, &c]);
        for (o, m) in chunk.iter_mut().zip(block.iter()) {
            *o ^= m;
        }
    }
}

/// A digest type of the RustCrypto `digest` crate mapped to its [`HashAlg`], for the typed
/// signing and verifying keys.
pub trait RsaHash: Digest + digest::Update + Default {
    /// The hash function.
    const ALG: HashAlg;
}

impl RsaHash for sha1::Sha1 {
    const ALG: HashAlg = HashAlg::Sha1;
}
impl RsaHash for sha2::Sha224 {
    const ALG: HashAlg = HashAlg::Sha224;
}
impl RsaHash for sha2::Sha256 {
    const ALG: HashAlg = HashAlg::Sha256;
}
impl RsaHash for sha2::Sha384 {
    const ALG: HashAlg = HashAlg::Sha384;
}
impl RsaHash for sha2::Sha512 {
    const ALG: HashAlg = HashAlg::Sha512;
}
impl RsaHash for sha2::Sha512_224 {
    const ALG: HashAlg = HashAlg::Sha512_224;
}
impl RsaHash for sha2::Sha512_256 {
    const ALG: HashAlg = HashAlg::Sha512_256;
}
