//! Bad input: every refusal is an error value (no panic), one test per kind.

mod common;

use common::rng;
use fieldgen_rsa_schemes::{Error, HashAlg, Oaep, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey};

fn key() -> RsaPrivateKey {
    RsaPrivateKey::from_pkcs8_pem(&common::vector_file("doc_key_1024.pem")).unwrap()
}

/// n + 1 (an even value one above n, as big-endian bytes of n's length).
fn n_plus(n: &[u8], add: u8) -> Vec<u8> {
    let mut v = n.to_vec();
    let mut carry = add as u16;
    for b in v.iter_mut().rev() {
        let [low, high] = (*b as u16 + carry).to_le_bytes();
        *b = low;
        carry = u16::from(high);
    }
    v
}

#[test]
fn public_key_refusals() {
    let k = key();
    let n = k.public_key().modulus().to_vec();
    assert_eq!(RsaPublicKey::new(&n, &[1]), Err(Error::InvalidExponent));
    assert_eq!(RsaPublicKey::new(&n, &[0]), Err(Error::InvalidExponent));
    assert_eq!(RsaPublicKey::new(&n, &[]), Err(Error::InvalidExponent));
    assert_eq!(RsaPublicKey::new(&n, &[2]), Err(Error::InvalidExponent));
    assert_eq!(
        RsaPublicKey::new(&n, &[1, 0, 0]),
        Err(Error::InvalidExponent)
    );
    assert_eq!(RsaPublicKey::new(&n, &n), Err(Error::InvalidExponent));
    assert_eq!(
        RsaPublicKey::new(&n_plus(&n, 1), &[1, 0, 1]),
        Err(Error::InvalidModulus)
    );
    assert_eq!(
        RsaPublicKey::new(&n[..32], &[3]),
        Err(Error::ModulusSize(256 - n[0].leading_zeros() as usize))
    );
    assert_eq!(
        RsaPublicKey::new(&[0xff; 1025], &[3]),
        Err(Error::ModulusSize(8200))
    );
    assert_eq!(RsaPublicKey::new(&[], &[3]), Err(Error::ModulusSize(0)));
    // e = 3 and leading zero bytes are fine.
    let mut padded = vec![0u8; 3];
    padded.extend_from_slice(&n);
    assert_eq!(
        RsaPublicKey::new(&padded, &[0, 3]).unwrap().modulus(),
        &n[..]
    );
}

#[test]
fn inconsistent_private_keys() {
    let k = key();
    let pk = k.public_key();
    let (n, e, d) = (
        pk.modulus().to_vec(),
        pk.exponent().to_vec(),
        k.private_exponent().to_vec(),
    );
    let (p, q) = (k.primes().0.to_vec(), k.primes().1.to_vec());
    let (dp, dq, qi) = (
        k.crt_values().0.to_vec(),
        k.crt_values().1.to_vec(),
        k.crt_values().2.to_vec(),
    );
    let good = [
        n.clone(),
        e.clone(),
        d.clone(),
        p.clone(),
        q.clone(),
        dp.clone(),
        dq.clone(),
        qi.clone(),
    ];
    let build = |v: &[Vec<u8>; 8]| {
        RsaPrivateKey::from_crt_components(&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7])
    };
    assert!(build(&good).is_ok());
    // Change each secret value in turn (a bit above bit 1, so odd values stay odd).
    for i in 2..8 {
        let mut v = good.clone();
        let last = v[i].len() - 1;
        v[i][last] ^= 2;
        assert_eq!(build(&v).err(), Some(Error::InconsistentKey), "value {i}");
    }
    // Swapped primes: q_Inv no longer fits; d_P and d_Q swapped too.
    let mut v = good.clone();
    v.swap(3, 4);
    assert_eq!(build(&v).err(), Some(Error::InconsistentKey));
    // An even "prime", a prime of 1, d = 0.
    let mut v = good.clone();
    let last = v[3].len() - 1;
    v[3][last] ^= 1;
    assert_eq!(build(&v).err(), Some(Error::InconsistentKey));
    let mut v = good.clone();
    v[3] = vec![1];
    assert_eq!(build(&v).err(), Some(Error::InconsistentKey));
    let mut v = good.clone();
    v[2] = vec![0];
    assert_eq!(build(&v).err(), Some(Error::InconsistentKey));
    // Another public exponent.
    let mut v = good.clone();
    v[1] = vec![3];
    assert_eq!(build(&v).err(), Some(Error::InconsistentKey));
    assert_eq!(
        RsaPrivateKey::from_components(&n, &e, &d, &p, &[3]).err(),
        Some(Error::InconsistentKey)
    );
}

#[test]
fn malformed_der_and_pem() {
    let k = key();
    let der = k.to_pkcs1_der().unwrap();
    let der8 = k.to_pkcs8_der().unwrap();
    let spki = k.public_key().to_public_key_der().unwrap();
    for cut in [0, 1, 10, der.len() / 2, der.len() - 1] {
        assert_eq!(
            RsaPrivateKey::from_pkcs1_der(&der[..cut]).err(),
            Some(Error::Encoding)
        );
        assert_eq!(
            RsaPrivateKey::from_pkcs8_der(&der8[..cut.min(der8.len() - 1)]).err(),
            Some(Error::Encoding)
        );
        assert_eq!(
            RsaPublicKey::from_public_key_der(&spki[..cut.min(spki.len() - 1)]).err(),
            Some(Error::Encoding)
        );
    }
    // Trailing data, a wrong outer tag.
    let mut long = der.to_vec();
    long.push(0);
    assert_eq!(
        RsaPrivateKey::from_pkcs1_der(&long).err(),
        Some(Error::Encoding)
    );
    let mut tag = der.to_vec();
    tag[0] = 0x31;
    assert_eq!(
        RsaPrivateKey::from_pkcs1_der(&tag).err(),
        Some(Error::Encoding)
    );
    // The forms are not interchangeable.
    assert_eq!(
        RsaPrivateKey::from_pkcs1_der(&der8).err(),
        Some(Error::Encoding)
    );
    assert_eq!(
        RsaPublicKey::from_pkcs1_der(&spki).err(),
        Some(Error::Encoding)
    );
    // SPKI with another algorithm OID (rsaEncryption's last arc 1 → 10, RSASSA-PSS).
    let oid = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
    let pos = spki.windows(oid.len()).position(|w| w == oid).unwrap();
    let mut other = spki.clone();
    other[pos + oid.len() - 1] = 0x0a;
    assert_eq!(
        RsaPublicKey::from_public_key_der(&other).err(),
        Some(Error::Encoding)
    );
    // PEM: wrong label, bad base64, not PEM at all.
    let pem = k.to_pkcs8_pem().unwrap();
    assert_eq!(
        RsaPrivateKey::from_pkcs1_pem(&pem).err(),
        Some(Error::Encoding)
    );
    assert_eq!(
        RsaPrivateKey::from_pkcs8_pem(&pem.replace('M', "*")).err(),
        Some(Error::Encoding)
    );
    assert_eq!(
        RsaPrivateKey::from_pkcs8_pem("hello").err(),
        Some(Error::Encoding)
    );
    assert_eq!(
        RsaPublicKey::from_public_key_pem(&pem).err(),
        Some(Error::Encoding)
    );
    // A key with an even modulus inside valid DER.
    let mut even = k.public_key().to_pkcs1_der().unwrap();
    let n = k.public_key().modulus();
    let pos = even.windows(n.len()).position(|w| w == n).unwrap();
    even[pos + n.len() - 1] ^= 1;
    assert_eq!(
        RsaPublicKey::from_pkcs1_der(&even).err(),
        Some(Error::InvalidModulus)
    );
}

#[test]
fn signature_lengths_and_range() {
    let k = key();
    let pk = k.public_key();
    let kk = pk.size();
    let v15 = Pkcs1v15Sign::new(HashAlg::Sha256);
    let pss = Pss::new(HashAlg::Sha256);
    let sig = v15.sign(&k, b"m").unwrap();
    for len in [0, 1, kk - 1, kk + 1, 2 * kk] {
        let mut s = vec![0u8; len];
        let l = len.min(kk);
        s[len - l..].copy_from_slice(&sig[kk - l..]);
        let want = Error::InvalidLength {
            expected: kk,
            got: len,
        };
        assert_eq!(v15.verify(pk, b"m", &s), Err(want));
        assert_eq!(pss.verify(pk, b"m", &s), Err(want));
        assert_eq!(pk.rsavp1(&s), Err(want));
        assert_eq!(pk.rsaep(&s), Err(want));
    }
    // s = n, s = n + 1 (still k bytes for this n), all-ones.
    let n = pk.modulus().to_vec();
    for s in [n.clone(), n_plus(&n, 1), vec![0xff; kk]] {
        assert_eq!(v15.verify(pk, b"m", &s), Err(Error::OutOfRange));
        assert_eq!(pss.verify(pk, b"m", &s), Err(Error::OutOfRange));
        assert_eq!(pk.rsaep(&s), Err(Error::OutOfRange));
        assert_eq!(k.rsasp1(&s), Err(Error::OutOfRange));
        assert_eq!(k.rsadp(&mut rng(1), &s).err(), Some(Error::OutOfRange));
    }
    // Wrong prehash lengths.
    assert_eq!(
        v15.sign_digest(&k, &[0; 31]),
        Err(Error::InvalidLength {
            expected: 32,
            got: 31
        })
    );
    assert_eq!(
        v15.verify_digest(pk, &[0; 33], &sig),
        Err(Error::InvalidLength {
            expected: 32,
            got: 33
        })
    );
}

#[test]
fn leading_zero_signature_keeps_its_length() {
    // A signature below 2^(8(k−1)) (its first byte zero) verifies at k bytes and only there.
    let k = key();
    let v15 = Pkcs1v15Sign::new(HashAlg::Sha256);
    let found = (0u32..4096).find_map(|i| {
        let m = i.to_be_bytes();
        let s = v15.sign(&k, &m).unwrap();
        (s[0] == 0).then_some((m, s))
    });
    let (m, s) = found.expect("about one signature in 160 starts with a zero byte for this n");
    assert_eq!(s.len(), k.size());
    v15.verify(k.public_key(), &m, &s).unwrap();
    assert!(matches!(
        v15.verify(k.public_key(), &m, &s[1..]),
        Err(Error::InvalidLength { .. })
    ));
}

#[test]
fn encoding_too_long_for_the_key() {
    let k = key();
    let mut r = rng(2);
    // OAEP: k − 2·hLen − 2 bytes at most.
    let oaep = Oaep::new(HashAlg::Sha256);
    let max = oaep.max_message_len(k.size()).unwrap();
    assert!(oaep.encrypt(k.public_key(), &mut r, &vec![1; max]).is_ok());
    assert_eq!(
        oaep.encrypt(k.public_key(), &mut r, &vec![1; max + 1]),
        Err(Error::MessageTooLong)
    );
    // OAEP-SHA-512 on a 128-byte modulus leaves no room at all (130 > 128).
    assert_eq!(
        Oaep::new(HashAlg::Sha512).encrypt(k.public_key(), &mut r, b""),
        Err(Error::MessageTooLong)
    );
    // PSS: emLen < hLen + sLen + 2.
    let pss = Pss::new(HashAlg::Sha512).with_salt_len(63);
    assert_eq!(pss.sign(&k, &mut r, b"m"), Err(Error::KeyTooSmall));
    // A wrong seed length for OAEP.
    assert!(matches!(
        oaep.encrypt_with_seed(k.public_key(), &[0; 5], b"m"),
        Err(Error::InvalidLength { .. })
    ));
}

#[test]
fn oaep_decryption_failures() {
    let k = key();
    let mut r = rng(3);
    let oaep = Oaep::new(HashAlg::Sha256);
    let c = oaep.encrypt(k.public_key(), &mut r, b"hello").unwrap();
    assert_eq!(&oaep.decrypt(&k, &mut r, &c).unwrap()[..], b"hello");
    // Wrong label, wrong hash, changed ciphertext, zero, one: all the same error.
    assert_eq!(
        oaep.clone().with_label(b"L").decrypt(&k, &mut r, &c).err(),
        Some(Error::Decryption)
    );
    assert_eq!(
        Oaep::new(HashAlg::Sha1).decrypt(&k, &mut r, &c).err(),
        Some(Error::Decryption)
    );
    let mut bad = c.clone();
    bad[40] ^= 0x80;
    assert_eq!(
        oaep.decrypt(&k, &mut r, &bad).err(),
        Some(Error::Decryption)
    );
    let kk = k.size();
    assert_eq!(
        oaep.decrypt(&k, &mut r, &vec![0; kk]).err(),
        Some(Error::Decryption)
    );
    let mut one = vec![0; kk];
    one[kk - 1] = 1;
    assert_eq!(
        oaep.decrypt(&k, &mut r, &one).err(),
        Some(Error::Decryption)
    );
    // Lengths and range.
    assert!(matches!(
        oaep.decrypt(&k, &mut r, &c[1..]),
        Err(Error::InvalidLength { .. })
    ));
    assert_eq!(
        oaep.decrypt(&k, &mut r, k.public_key().modulus()).err(),
        Some(Error::OutOfRange)
    );
}

#[test]
fn generation_refusals() {
    let mut r = rng(4);
    assert_eq!(
        RsaPrivateKey::generate(&mut r, 512).err(),
        Some(Error::ModulusSize(512))
    );
    assert_eq!(
        RsaPrivateKey::generate(&mut r, 4097).err(),
        Some(Error::ModulusSize(4097))
    );
    for e in [0, 1, 2, 4, 65536, 1 << 62] {
        assert_eq!(
            RsaPrivateKey::generate_with_exponent(&mut r, 1024, e).err(),
            Some(Error::InvalidExponent),
            "e = {e}"
        );
    }
    // A random source of zeros never yields a prime candidate that passes (all candidates are
    // the same composite 0xc000…0001 pattern or fail): an error, not a hang or a panic.
    struct Zeros;
    impl rand_core::TryRng for Zeros {
        type Error = core::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(0)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(0)
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            dst.fill(0);
            Ok(())
        }
    }
    impl rand_core::TryCryptoRng for Zeros {}
    let got = RsaPrivateKey::generate(&mut Zeros, 1024).err();
    assert!(got == Some(Error::RandomSource), "{got:?}");
}
