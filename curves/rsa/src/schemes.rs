//! The RFC 8017 schemes: RSASSA-PKCS1-v1_5 (§8.2, EMSA-PKCS1-v1_5 §9.2), RSASSA-PSS (§8.1,
//! EMSA-PSS §9.1, MGF1 B.2.1) and RSAES-OAEP (§7.1). PKCS#1 v1.5 *encryption* (RSAES-PKCS1-v1_5)
//! is deliberately absent: its padding check is a decryption oracle (Bleichenbacher 1998), and
//! its timing variants keep being found (the Marvin attack, 2023).

use alloc::vec;
use alloc::vec::Vec;

use fieldgen_field::ct::declassify;
use rand_core::CryptoRng;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroizing;

use crate::hash::{mgf1_xor, HashAlg};
use crate::key::{RsaPrivateKey, RsaPublicKey};
use crate::Error;

/// Checks a prehashed input's length against the hash.
fn check_digest(hash: HashAlg, digest: &[u8]) -> Result<(), Error> {
    if digest.len() != hash.output_len() {
        return Err(Error::InvalidLength {
            expected: hash.output_len(),
            got: digest.len(),
        });
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// RSASSA-PKCS1-v1_5.

/// RSASSA-PKCS1-v1_5 signatures with one hash (RFC 8017 §8.2). Signing is deterministic; the
/// verifier builds the expected encoding EMSA-PKCS1-v1_5(H(M)) and compares it with the whole
/// of s^e mod n — it never parses a DigestInfo, so the signature-forgery variants against
/// parsing verifiers (Bleichenbacher 2006 and successors) have nothing to work on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pkcs1v15Sign {
    /// The hash function.
    pub hash: HashAlg,
}

/// EMSA-PKCS1-v1_5 (RFC 8017 §9.2): 0x00 0x01 PS 0x00 T with T = DigestInfo(H) and PS at
/// least eight 0xff bytes, `em_len` bytes.
fn emsa_pkcs1v15(hash: HashAlg, digest: &[u8], em_len: usize) -> Result<Vec<u8>, Error> {
    let prefix = hash.digest_info_prefix();
    let t_len = prefix.len() + digest.len();
    if em_len < t_len + 11 {
        return Err(Error::KeyTooSmall);
    }
    let mut em = vec![0xffu8; em_len];
    em[0] = 0;
    em[1] = 1;
    em[em_len - t_len - 1] = 0;
    em[em_len - t_len..em_len - digest.len()].copy_from_slice(prefix);
    em[em_len - digest.len()..].copy_from_slice(digest);
    Ok(em)
}

impl Pkcs1v15Sign {
    /// The scheme with `hash`.
    pub const fn new(hash: HashAlg) -> Self {
        Pkcs1v15Sign { hash }
    }

    /// The k-byte signature of `msg` (RSASSA-PKCS1-V1_5-SIGN). The private operation is
    /// blinded with a value derived from the key (no random source needed).
    ///
    /// # Errors
    /// [`Error::KeyTooSmall`] when k < tLen + 11; [`Error::FaultDetected`].
    pub fn sign(&self, key: &RsaPrivateKey, msg: &[u8]) -> Result<Vec<u8>, Error> {
        self.sign_digest(key, &self.hash.digest(msg))
    }

    /// The signature of a message whose hash is `digest` (hLen bytes).
    ///
    /// # Errors
    /// [`Error::InvalidLength`] for a digest of the wrong length, and as [`sign`](Self::sign).
    pub fn sign_digest(&self, key: &RsaPrivateKey, digest: &[u8]) -> Result<Vec<u8>, Error> {
        check_digest(self.hash, digest)?;
        let em = emsa_pkcs1v15(self.hash, digest, key.size())?;
        key.sign_raw(&em)
    }

    /// The signature with the private operation blinded by randomness from `rng`.
    ///
    /// # Errors
    /// As [`sign`](Self::sign).
    pub fn sign_with_rng<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let em = emsa_pkcs1v15(self.hash, &self.hash.digest(msg), key.size())?;
        key.rsasp1_with_rng(rng, &em)
    }

    /// Verifies the signature `sig` of `msg` (RSASSA-PKCS1-V1_5-VERIFY).
    ///
    /// # Errors
    /// [`Error::InvalidLength`] unless sig has exactly k bytes; [`Error::OutOfRange`] for
    /// s ≥ n; [`Error::Verification`] for a wrong signature.
    pub fn verify(&self, key: &RsaPublicKey, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        self.verify_digest(key, &self.hash.digest(msg), sig)
    }

    /// Verifies `sig` against a message hash `digest` (hLen bytes).
    ///
    /// # Errors
    /// As [`verify`](Self::verify), and [`Error::InvalidLength`] for a digest of the wrong
    /// length.
    pub fn verify_digest(
        &self,
        key: &RsaPublicKey,
        digest: &[u8],
        sig: &[u8],
    ) -> Result<(), Error> {
        check_digest(self.hash, digest)?;
        key.check_input(sig)?;
        let m = key.public_op(sig);
        let em = emsa_pkcs1v15(self.hash, digest, key.size()).map_err(|_| Error::Verification)?;
        if bool::from(m.ct_eq(&em)) {
            Ok(())
        } else {
            Err(Error::Verification)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// RSASSA-PSS.

/// RSASSA-PSS parameters (RFC 8017 §8.1, §9.1): the message hash, the MGF1 hash and the salt
/// length. emBits = modBits − 1 for every modulus length (when modBits ≡ 1 mod 8 the
/// encoded message is one byte shorter than k and the top byte of s^e must be zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pss {
    /// The hash of the message and of M'.
    pub hash: HashAlg,
    /// The hash of MGF1.
    pub mgf_hash: HashAlg,
    /// The salt length in bytes; `None` on verification recovers it from the encoding
    /// ("auto": the first non-zero byte of DB must be 0x01), on signing means hLen.
    pub salt_len: Option<usize>,
}

impl Pss {
    /// PSS with `hash` for the message and MGF1 and a salt of hLen bytes (RFC 8017 §9.1
    /// note 4's usual choice).
    pub const fn new(hash: HashAlg) -> Self {
        Pss {
            hash,
            mgf_hash: hash,
            salt_len: Some(hash.output_len()),
        }
    }

    /// The same with a salt of `len` bytes.
    pub const fn with_salt_len(self, len: usize) -> Self {
        Pss {
            salt_len: Some(len),
            ..self
        }
    }

    /// The same with the salt length recovered on verification.
    pub const fn with_auto_salt_len(self) -> Self {
        Pss {
            salt_len: None,
            ..self
        }
    }

    /// The same with `mgf_hash` for MGF1.
    pub const fn with_mgf_hash(self, mgf_hash: HashAlg) -> Self {
        Pss { mgf_hash, ..self }
    }

    fn sign_salt_len(&self) -> usize {
        self.salt_len.unwrap_or(self.hash.output_len())
    }

    /// EMSA-PSS-ENCODE (RFC 8017 §9.1.1) of `digest` with `salt`, emLen = ⌈emBits/8⌉ bytes,
    /// left-padded with a zero byte to k bytes when emLen < k.
    fn encode(&self, digest: &[u8], salt: &[u8], bits: usize, k: usize) -> Result<Vec<u8>, Error> {
        let hlen = self.hash.output_len();
        let em_bits = bits - 1;
        let em_len = em_bits.div_ceil(8);
        if em_len < hlen + salt.len() + 2 {
            return Err(Error::KeyTooSmall);
        }
        let h = self.hash.digest_parts(&[&[0u8; 8], digest, salt]);
        let db_len = em_len - hlen - 1;
        let mut em = vec![0u8; k];
        let off = k - em_len;
        let db = &mut em[off..off + db_len];
        db[db_len - salt.len() - 1] = 1;
        db[db_len - salt.len()..].copy_from_slice(salt);
        mgf1_xor(self.mgf_hash, &h, db);
        db[0] &= 0xff >> (8 * em_len - em_bits);
        em[off + db_len..k - 1].copy_from_slice(&h);
        em[k - 1] = 0xbc;
        Ok(em)
    }

    /// The signature of `msg` with a random salt from `rng` (which also blinds the private
    /// operation).
    ///
    /// # Errors
    /// [`Error::KeyTooSmall`] when emLen < hLen + sLen + 2; [`Error::FaultDetected`].
    pub fn sign<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>, Error> {
        self.sign_digest(key, rng, &self.hash.digest(msg))
    }

    /// The signature of a message whose hash is `digest`, random salt from `rng`.
    ///
    /// # Errors
    /// As [`sign`](Self::sign), and [`Error::InvalidLength`] for a digest of the wrong length.
    pub fn sign_digest<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        rng: &mut R,
        digest: &[u8],
    ) -> Result<Vec<u8>, Error> {
        check_digest(self.hash, digest)?;
        let mut salt = vec![0u8; self.sign_salt_len()];
        rng.fill_bytes(&mut salt);
        let em = self.encode(digest, &salt, key.bits(), key.size())?;
        key.rsasp1_with_rng(rng, &em)
    }

    /// The signature of `msg` with a caller-chosen salt (known-answer tests; a signer should
    /// use a random salt). The private operation is blinded with a key-derived value.
    ///
    /// # Errors
    /// As [`sign`](Self::sign).
    pub fn sign_with_salt(
        &self,
        key: &RsaPrivateKey,
        salt: &[u8],
        msg: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let em = self.encode(&self.hash.digest(msg), salt, key.bits(), key.size())?;
        key.sign_raw(&em)
    }

    /// Verifies `sig` of `msg` (RSASSA-PSS-VERIFY with EMSA-PSS-VERIFY).
    ///
    /// # Errors
    /// [`Error::InvalidLength`] unless sig has k bytes; [`Error::OutOfRange`] for s ≥ n;
    /// [`Error::Verification`] for a wrong signature.
    pub fn verify(&self, key: &RsaPublicKey, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        self.verify_digest(key, &self.hash.digest(msg), sig)
    }

    /// Verifies `sig` against a message hash `digest`.
    ///
    /// # Errors
    /// As [`verify`](Self::verify), and [`Error::InvalidLength`] for a digest of the wrong
    /// length.
    pub fn verify_digest(
        &self,
        key: &RsaPublicKey,
        digest: &[u8],
        sig: &[u8],
    ) -> Result<(), Error> {
        check_digest(self.hash, digest)?;
        key.check_input(sig)?;
        let m = key.public_op(sig);
        if self.decode_and_check(digest, &m, key.bits()) {
            Ok(())
        } else {
            Err(Error::Verification)
        }
    }

    /// EMSA-PSS-VERIFY (RFC 8017 §9.1.2) on the k-byte m = s^e mod n. Public data.
    fn decode_and_check(&self, digest: &[u8], m: &[u8], bits: usize) -> bool {
        let hlen = self.hash.output_len();
        let em_bits = bits - 1;
        let em_len = em_bits.div_ceil(8);
        let k = m.len();
        // I2OSP(m, emLen): the bytes above emLen must be zero.
        if m[..k - em_len].iter().any(|b| *b != 0) {
            return false;
        }
        let em = &m[k - em_len..];
        let min_salt = self.salt_len.unwrap_or(0);
        if em_len < hlen + min_salt + 2 || em[em_len - 1] != 0xbc {
            return false;
        }
        let db_len = em_len - hlen - 1;
        let top_mask = 0xffu8 >> (8 * em_len - em_bits);
        if em[0] & !top_mask != 0 {
            return false;
        }
        let h = &em[db_len..em_len - 1];
        let mut db = em[..db_len].to_vec();
        mgf1_xor(self.mgf_hash, h, &mut db);
        db[0] &= top_mask;
        let salt_start = match self.salt_len {
            Some(s) => {
                let ps = db_len - s - 1;
                if db[..ps].iter().any(|b| *b != 0) || db[ps] != 1 {
                    return false;
                }
                ps + 1
            }
            None => match db.iter().position(|b| *b != 0) {
                Some(i) if db[i] == 1 => i + 1,
                _ => return false,
            },
        };
        let h2 = self
            .hash
            .digest_parts(&[&[0u8; 8], digest, &db[salt_start..]]);
        bool::from(h2.ct_eq(h))
    }
}

// ---------------------------------------------------------------------------------------------
// RSAES-OAEP.

/// RSAES-OAEP parameters (RFC 8017 §7.1): the label hash, the MGF1 hash and the label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Oaep {
    /// The hash of the label (and the seed length hLen).
    pub hash: HashAlg,
    /// The hash of MGF1.
    pub mgf_hash: HashAlg,
    /// The label L (empty by default).
    pub label: Vec<u8>,
}

impl Oaep {
    /// OAEP with `hash` for the label and MGF1 and the empty label.
    pub fn new(hash: HashAlg) -> Self {
        Oaep {
            hash,
            mgf_hash: hash,
            label: Vec::new(),
        }
    }

    /// The same with the label `label`.
    pub fn with_label(self, label: &[u8]) -> Self {
        Oaep {
            label: label.to_vec(),
            ..self
        }
    }

    /// The same with `mgf_hash` for MGF1.
    pub fn with_mgf_hash(self, mgf_hash: HashAlg) -> Self {
        Oaep { mgf_hash, ..self }
    }

    /// The longest message for a k-byte modulus: k − 2·hLen − 2 bytes (none when negative).
    pub fn max_message_len(&self, k: usize) -> Option<usize> {
        k.checked_sub(2 * self.hash.output_len() + 2)
    }

    /// RSAES-OAEP-ENCRYPT (RFC 8017 §7.1.1) of `msg` with a random seed from `rng`: a k-byte
    /// ciphertext.
    ///
    /// # Errors
    /// [`Error::MessageTooLong`] when msg is longer than
    /// [`max_message_len`](Self::max_message_len).
    pub fn encrypt<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPublicKey,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let mut seed = Zeroizing::new(vec![0u8; self.hash.output_len()]);
        rng.fill_bytes(&mut seed);
        self.encrypt_with_seed(key, &seed, msg)
    }

    /// RSAES-OAEP-ENCRYPT with a caller-chosen seed of hLen bytes (known-answer tests; an
    /// encryptor must use a fresh random seed).
    ///
    /// # Errors
    /// As [`encrypt`](Self::encrypt), and [`Error::InvalidLength`] for a seed of the wrong
    /// length.
    pub fn encrypt_with_seed(
        &self,
        key: &RsaPublicKey,
        seed: &[u8],
        msg: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let hlen = self.hash.output_len();
        check_digest(self.hash, seed)?;
        let k = key.size();
        match self.max_message_len(k) {
            Some(max) if msg.len() <= max => {}
            _ => return Err(Error::MessageTooLong),
        }
        let mut em = Zeroizing::new(vec![0u8; k]);
        let (seed_part, db) = em[1..].split_at_mut(hlen);
        db[..hlen].copy_from_slice(&self.hash.digest(&self.label));
        let db_len = db.len();
        db[db_len - msg.len() - 1] = 1;
        db[db_len - msg.len()..].copy_from_slice(msg);
        mgf1_xor(self.mgf_hash, seed, db);
        seed_part.copy_from_slice(seed);
        mgf1_xor(self.mgf_hash, db, seed_part);
        Ok(key.public_op(&em))
    }

    /// RSAES-OAEP-DECRYPT (RFC 8017 §7.1.2) of the k-byte ciphertext `c`, blinded with
    /// randomness from `rng`. The padding check is constant time: the leading byte, the
    /// label hash, the zero run and the 0x01 separator are checked together and only the
    /// combined outcome is branched on (no early exit that would tell them apart, Manger
    /// 2001); the message length is revealed by the output.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] unless c has k bytes; [`Error::OutOfRange`] for c ≥ n;
    /// [`Error::Decryption`] for any padding failure (one error for all of them);
    /// [`Error::FaultDetected`].
    pub fn decrypt<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        rng: &mut R,
        c: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        let hlen = self.hash.output_len();
        let k = key.size();
        key.public_key().check_input(c)?;
        if k < 2 * hlen + 2 {
            return Err(Error::Decryption);
        }
        let mut em = key.rsadp(rng, c)?;
        let lhash = self.hash.digest(&self.label);
        let (y, rest) = em.split_at_mut(1);
        let (masked_seed, db) = rest.split_at_mut(hlen);
        mgf1_xor(self.mgf_hash, db, masked_seed);
        mgf1_xor(self.mgf_hash, masked_seed, db);
        let mut good = y[0].ct_eq(&0) & db[..hlen].ct_eq(&lhash[..]);
        // Find the 0x01 after the zero run: `looking` stays set until it is seen.
        let mut looking = Choice::from(1u8);
        let mut index = 0u32;
        let mut bad = Choice::from(0u8);
        for (i, b) in (0..=u32::MAX).zip(db.iter()).skip(hlen) {
            let is_one = b.ct_eq(&1);
            let is_zero = b.ct_eq(&0);
            index.conditional_assign(&i, looking & is_one);
            bad |= looking & !is_one & !is_zero;
            looking &= !is_one;
        }
        good &= !looking & !bad;
        // The outcome (one error for every padding failure) and, on success, the message
        // length are public: declassified for the constant-time check.
        if !bool::from(declassify(good)) {
            return Err(Error::Decryption);
        }
        let index = declassify(index);
        Ok(Zeroizing::new(db[index as usize + 1..].to_vec()))
    }
}
