//! Our X25519, Ed25519 and P-256 against the peers the curve crates are measured against:
//! x25519-dalek, ed25519-dalek and RustCrypto's `p256`. Keys and messages come from the
//! fuzzer; signatures and points are made by both sides and then optionally corrupted by a
//! fuzzer-chosen XOR mask, so that verification and decoding see both valid and invalid
//! inputs near the valid ones. Both sides must agree on every verdict and every byte.

use ed25519_dalek::Signer as _;
use fieldgen_curve25519::ed25519 as ours_ed;
use fieldgen_weierstrass::curves::P256;
use fieldgen_weierstrass::ecdsa::{PublicKey, SecretKey, Signature};
use p256::ecdsa::signature::Verifier as _;

use crate::Input;

/// XORs the fuzzer's mask into `bytes` when the fuzzer asks for it.
fn corrupt(input: &mut Input, bytes: &mut [u8]) {
    if input.byte() & 1 == 1 {
        let mask = input.bytes(bytes.len());
        for (b, m) in bytes.iter_mut().zip(mask) {
            *b ^= m;
        }
    }
}

/// Target `diff_x25519`: X25519(k, u) for any 32-byte k and u (non-canonical and low-order u
/// included), and the public key of k, against x25519-dalek.
pub fn x25519(data: &[u8]) {
    let mut input = Input::new(data);
    let k: [u8; 32] = input.array();
    let u: [u8; 32] = input.array();
    assert_eq!(
        fieldgen_curve25519::x25519(k, u),
        x25519_dalek::x25519(k, u),
        "X25519(k, u)"
    );
    assert_eq!(
        fieldgen_curve25519::x25519_base(k),
        x25519_dalek::x25519(k, x25519_dalek::X25519_BASEPOINT_BYTES),
        "X25519(k, 9)"
    );
    let ours = fieldgen_curve25519::StaticSecret::from(k);
    let theirs = x25519_dalek::StaticSecret::from(k);
    let peer = fieldgen_curve25519::PublicKey::from(u);
    let peer_theirs = x25519_dalek::PublicKey::from(u);
    assert_eq!(
        fieldgen_curve25519::PublicKey::from(&ours).to_bytes(),
        x25519_dalek::PublicKey::from(&theirs).to_bytes(),
        "public key"
    );
    let z = ours.diffie_hellman(&peer);
    let z_theirs = theirs.diffie_hellman(&peer_theirs);
    assert_eq!(z.to_bytes(), z_theirs.to_bytes(), "shared secret");
    assert_eq!(
        z.was_contributory(),
        z_theirs.was_contributory(),
        "was_contributory"
    );
}

/// Target `diff_ed25519`: key generation and signing byte for byte, and the
/// verdicts of `verify` and `verify_strict` on possibly corrupted keys and signatures,
/// against ed25519-dalek.
pub fn ed25519(data: &[u8]) {
    let mut input = Input::new(data);
    let seed: [u8; 32] = input.array();
    let msg = input.chunk().to_vec();
    let ours = ours_ed::SigningKey::from_bytes(&seed);
    let theirs = ed25519_dalek::SigningKey::from_bytes(&seed);
    let pk = ours.verifying_key().to_bytes();
    assert_eq!(pk, theirs.verifying_key().to_bytes(), "public key");
    let sig = ours.sign(&msg);
    assert_eq!(sig.to_bytes(), theirs.sign(&msg).to_bytes(), "signature");
    let mut pk_bytes = pk;
    corrupt(&mut input, &mut pk_bytes);
    let mut sig_bytes = sig.to_bytes();
    corrupt(&mut input, &mut sig_bytes);
    let sig = ours_ed::Signature::from_bytes(&sig_bytes);
    let vk = ours_ed::VerifyingKey::from_bytes(&pk_bytes);
    let vk_theirs = ed25519_dalek::VerifyingKey::from_bytes(&pk_bytes);
    // Our decoder refuses non-canonical encodings (y ≥ p), which ed25519-dalek reduces; where
    // both decode, every verdict agrees.
    assert!(
        vk.is_err() || vk_theirs.is_ok(),
        "we accept a key ed25519-dalek refuses"
    );
    if let (Ok(vk), Ok(vk_theirs)) = (vk, vk_theirs) {
        assert_eq!(
            vk.verify(&msg, &sig).is_ok(),
            ed25519_dalek::Verifier::verify(&vk_theirs, &msg, &sig).is_ok(),
            "verify"
        );
        assert_eq!(
            vk.verify_strict(&msg, &sig).is_ok(),
            vk_theirs.verify_strict(&msg, &sig).is_ok(),
            "verify_strict"
        );
        assert_eq!(vk.is_weak(), vk_theirs.is_weak(), "is_weak");
    }
}

/// Target `diff_p256`: secret keys (acceptance of any 32 bytes), public keys, ECDH with a
/// possibly corrupted peer point (decoding verdicts included), RFC 6979 signatures byte for
/// byte (r ‖ s and DER), and the verdicts of verification on corrupted signatures, against
/// RustCrypto's `p256`.
pub fn p256(data: &[u8]) {
    let mut input = Input::new(data);
    let d: [u8; 32] = input.array();
    let ours = SecretKey::<P256>::from_bytes(&d);
    let theirs = p256::SecretKey::from_slice(&d);
    assert_eq!(ours.is_ok(), theirs.is_ok(), "secret key accepted?");
    let (Ok(ours), Ok(theirs)) = (ours, theirs) else {
        return;
    };
    let pub_theirs = theirs.public_key().to_sec1_bytes();
    assert_eq!(
        ours.public_key().to_sec1_bytes(pub_theirs.len() == 33),
        pub_theirs.to_vec(),
        "public key"
    );

    // ECDH with a peer point derived from the fuzzer's scalar, maybe corrupted.
    let d2: [u8; 32] = input.array();
    let mut peer = match p256::SecretKey::from_slice(&d2) {
        Ok(k) => k.public_key().to_sec1_bytes().to_vec(),
        Err(_) => d2.to_vec(),
    };
    if input.byte() & 1 == 1 {
        // Compressed form.
        peer = match p256::PublicKey::from_sec1_bytes(&peer) {
            Ok(pk) => {
                use p256::elliptic_curve::sec1::ToSec1Point;
                pk.to_sec1_point(true).as_bytes().to_vec()
            }
            Err(_) => peer,
        };
    }
    corrupt(&mut input, &mut peer);
    let peer_ours = PublicKey::<P256>::from_sec1_bytes(&peer);
    let peer_theirs = p256::PublicKey::from_sec1_bytes(&peer);
    if peer.len() == 33 && peer[0] == 0x05 {
        // The `sec1` crate also reads tag 5, the x-only "compact" form of
        // draft-jivsov-ecc-compact, which SEC 1 (§2.3.4) does not define: we refuse it.
        assert!(peer_ours.is_err(), "compact point {peer:02x?} accepted");
    } else {
        assert_eq!(
            peer_ours.is_ok(),
            peer_theirs.is_ok(),
            "SEC 1 point {peer:02x?} accepted?"
        );
    }
    if let (Ok(po), Ok(pt)) = (&peer_ours, &peer_theirs) {
        let z = ours.diffie_hellman(po).expect("valid point");
        let z_theirs = p256::ecdh::diffie_hellman(theirs.to_nonzero_scalar(), pt.as_affine());
        assert_eq!(z.as_bytes(), z_theirs.raw_secret_bytes().as_slice(), "ECDH");
    }

    // RFC 6979 signatures.
    let msg = input.chunk();
    let our_sig: Signature<P256> = ours.sign_message(msg);
    let their_sk = p256::ecdsa::SigningKey::from_slice(&d).expect("same key");
    let their_sig: p256::ecdsa::Signature = their_sk.sign(msg);
    assert_eq!(
        our_sig.to_bytes(),
        their_sig.to_bytes().to_vec(),
        "signature"
    );
    assert_eq!(
        our_sig.to_der(),
        their_sig.to_der().as_bytes().to_vec(),
        "DER"
    );

    let mut sig = our_sig.to_bytes();
    corrupt(&mut input, &mut sig);
    let sig_ours = Signature::<P256>::from_slice(&sig);
    let sig_theirs = p256::ecdsa::Signature::from_slice(&sig);
    assert_eq!(sig_ours.is_ok(), sig_theirs.is_ok(), "r ‖ s accepted?");
    if let (Ok(so), Ok(st)) = (sig_ours, sig_theirs) {
        let vk = p256::ecdsa::VerifyingKey::from(&their_sk);
        assert_eq!(
            ours.public_key().verify_message(msg, &so).is_ok(),
            vk.verify(msg, &st).is_ok(),
            "verify"
        );
    }
}
