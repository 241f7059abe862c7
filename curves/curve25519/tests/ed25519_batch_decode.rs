//! Batch verification around the many-at-a-time R decoding (four square roots per AVX-512
//! IFMA vector where the CPU has it): batches whose length is not a multiple of four, with
//! an R that does not decode (no curve point, y ≥ p, x = 0 with the sign bit set) in every
//! position, against ed25519-dalek's `verify_batch`.

use ed25519_dalek::Signer as _;
use fieldgen_curve25519::ed25519::{verify_batch, Signature, SigningKey, VerifyingKey};
use fieldgen_curve25519::Error;

struct Batch {
    msgs: Vec<Vec<u8>>,
    sigs: Vec<[u8; 64]>,
    keys: Vec<[u8; 32]>,
    seeds: Vec<[u8; 32]>,
}

fn batch(n: usize) -> Batch {
    let byte = |i: usize| u8::try_from(i).unwrap();
    let seeds: Vec<[u8; 32]> = (0..n).map(|i| [byte(i) ^ 0xa7; 32]).collect();
    let msgs: Vec<Vec<u8>> = (0..n).map(|i| vec![byte(i); 3 + i]).collect();
    let sks: Vec<ed25519_dalek::SigningKey> = seeds
        .iter()
        .map(ed25519_dalek::SigningKey::from_bytes)
        .collect();
    Batch {
        sigs: sks
            .iter()
            .zip(&msgs)
            .map(|(k, m)| k.sign(m).to_bytes())
            .collect(),
        keys: sks.iter().map(|k| k.verifying_key().to_bytes()).collect(),
        msgs,
        seeds,
    }
}

fn ours(b: &Batch) -> Result<(), Error> {
    let refs: Vec<&[u8]> = b.msgs.iter().map(|m| m.as_slice()).collect();
    let sigs: Vec<Signature> = b.sigs.iter().map(Signature::from_bytes).collect();
    let vks: Vec<VerifyingKey> = b
        .keys
        .iter()
        .map(|k| VerifyingKey::from_bytes(k).unwrap())
        .collect();
    verify_batch(&refs, &sigs, &vks)
}

fn dalek(b: &Batch) -> bool {
    let refs: Vec<&[u8]> = b.msgs.iter().map(|m| m.as_slice()).collect();
    let sigs: Vec<ed25519_dalek::Signature> = b
        .sigs
        .iter()
        .map(ed25519_dalek::Signature::from_bytes)
        .collect();
    let vks: Vec<ed25519_dalek::VerifyingKey> = b
        .keys
        .iter()
        .map(|k| ed25519_dalek::VerifyingKey::from_bytes(k).unwrap())
        .collect();
    ed25519_dalek::verify_batch(&refs, &sigs, &vks).is_ok()
}

#[test]
fn keys_and_signatures_are_ours_too() {
    // The batches below are built with ed25519-dalek; ours gives the same keys and
    // signatures, so both verifiers see the same inputs.
    let b = batch(3);
    for (((seed, sig), key), msg) in b.seeds.iter().zip(&b.sigs).zip(&b.keys).zip(&b.msgs) {
        let sk = SigningKey::from_bytes(seed);
        assert_eq!(sk.verifying_key().to_bytes(), *key);
        assert_eq!(sk.sign(msg).to_bytes(), *sig);
    }
}

#[test]
fn an_r_that_does_not_decode_fails_the_batch_in_every_position() {
    // y = 2 has no x on the curve; p + 1 is a non-canonical y = 1; (0, 1) with the sign
    // bit set is x = 0 with sign 1. dalek rejects the first; it reduces the second and
    // accepts the third as points, which then fail its equation.
    let mut not_on_curve = [0u8; 32];
    not_on_curve[0] = 2;
    let mut p_plus_1 = [0xffu8; 32];
    p_plus_1[0] = 0xee;
    p_plus_1[31] = 0x7f;
    let mut neg_zero = [0u8; 32];
    neg_zero[0] = 1;
    neg_zero[31] = 0x80;
    for n in [1usize, 2, 3, 5, 6, 7, 9, 13] {
        let clean = batch(n);
        assert_eq!(ours(&clean), Ok(()), "n = {n}");
        assert!(dalek(&clean), "n = {n}");
        for i in 0..n {
            for bad in [not_on_curve, p_plus_1, neg_zero] {
                let mut b = batch(n);
                b.sigs[i][..32].copy_from_slice(&bad);
                assert_eq!(
                    ours(&b),
                    Err(Error::InvalidPointEncoding),
                    "n = {n}, i = {i}"
                );
                assert!(!dalek(&b), "n = {n}, i = {i}");
            }
            // A valid R of another signature: decodes, fails the equation.
            if n > 1 {
                let mut b = batch(n);
                let other = b.sigs[(i + 1) % n];
                b.sigs[i][..32].copy_from_slice(&other[..32]);
                assert_eq!(ours(&b), Err(Error::InvalidSignature), "n = {n}, i = {i}");
                assert!(!dalek(&b), "n = {n}, i = {i}");
            }
        }
    }
}
