//! The Ed25519 comparisons of `benches/curves.rs` measured the way a loaded machine still allows:
//! each contender runs one operation at a time, the contenders alternate, and the fastest of many
//! runs counts (a run that was never preempted). Contenders: `fieldgen-curve25519` (ours),
//! ed25519-dalek 3 / x25519-dalek 3 and crrl 0.9. Before timing, every peer's output is checked
//! against ours (same public key, same signature; verification accepts). Prints one Markdown row
//! per operation: best time of each contender, the fastest peer and ours/fastest.
//!
//! `RUSTFLAGS='-C target-cpu=native' cargo run --release -p fieldgen-benches --features peers --example ed25519_interleaved`
//!
//! Optional arguments: the number of alternating rounds (default 2000; the batch runs a tenth).

use std::hint::black_box;

use ed25519_dalek::{Signer as _, Verifier as _};
use fieldgen_curve25519 as ours;

/// Deterministic 32-byte strings (splitmix64 via the shared input generator).
/// One Markdown row: ours first in `t`, then the peers named in `peers` (None: not offered).
fn row(op: &str, t: &[f64], peers: &[Option<&str>]) {
    let us = |ns: f64| format!("{:.1}", ns / 1e3);
    let mut cells = vec![us(t[0])];
    let mut best: Option<(f64, &str)> = None;
    let mut k = 1;
    for p in peers {
        match p {
            Some(name) => {
                cells.push(us(t[k]));
                if best.is_none_or(|(b, _)| t[k] < b) {
                    best = Some((t[k], name));
                }
                k += 1;
            }
            None => cells.push("—".into()),
        }
    }
    let (b, name) = best.expect("at least one peer");
    println!(
        "| {op} | {} | {name} | {:.2} |",
        cells.join(" | "),
        t[0] / b
    );
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("rounds: a number"))
        .unwrap_or(2000);

    let seed = fieldgen_benches::bytes32(3);
    let msg = b"fieldgen benchmark message of a typical short length, 64 bytes..";
    let sk = ours::ed25519::SigningKey::from_bytes(&seed);
    let vk = sk.verifying_key();
    let sig = sk.sign(msg);
    let sig_bytes = sig.to_bytes();

    let dsk = ed25519_dalek::SigningKey::from_bytes(&seed);
    let dvk = dsk.verifying_key();
    let dsig = ed25519_dalek::Signature::from_bytes(&sig_bytes);
    assert_eq!(dvk.to_bytes(), vk.to_bytes());
    assert_eq!(dsk.sign(msg).to_bytes(), sig_bytes);
    dvk.verify(msg, &dsig).unwrap();

    let csk = crrl::ed25519::PrivateKey::from_seed(&seed);
    let cvk = crrl::ed25519::PublicKey::decode(&vk.to_bytes()).unwrap();
    assert_eq!(csk.public_key.encode(), vk.to_bytes());
    assert_eq!(csk.sign_raw(msg), sig_bytes);
    assert!(cvk.verify_raw(&sig_bytes, msg));
    vk.verify(msg, &sig).unwrap();

    // X25519 with the base point: a fixed-base multiplication and one inversion.
    let k = fieldgen_benches::bytes32(1);
    let pk = ours::x25519_base(k);
    assert_eq!(crrl::x25519::x25519_base(&k), pk);
    let x_dalek = |k: [u8; 32]| {
        x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(k)).to_bytes()
    };
    assert_eq!(x_dalek(k), pk);

    // The batch: 64 keys, messages and signatures, accepted by both verifiers.
    let batch = fieldgen_benches::Ed25519Batch::new(64);
    let (refs, sigs, vks, dsigs, dvks) = (
        batch.refs(),
        &batch.sigs,
        &batch.vks,
        &batch.dsigs,
        &batch.dvks,
    );

    println!(
        "best of {rounds} alternating runs (batch: {}), µs, field backend {}, verification {:?}",
        rounds / 10,
        fieldgen_generated::curve25519_p_64::Fp::backend(),
        ours::ed25519::verify_backend()
    );
    // The scalar verification equations and fixed-base [a]B forced, as a fourth contender
    // where IFMA is the default.
    let scalar = ours::ed25519::VerifyBackend::Scalar;
    let forced = |f: &mut dyn FnMut()| {
        ours::ed25519::with_verify_backend(scalar, f).expect("scalar backend always runs")
    };
    forced(&mut || vk.verify(msg, &sig).unwrap());
    println!("| operation | ours | ed25519-dalek | crrl | fastest peer | ours/fastest |");
    println!("|---|---:|---:|---:|---|---:|");
    let both = [Some("ed25519-dalek"), Some("crrl")];

    let t = fieldgen_benches::race(
        rounds,
        &mut [
            &mut || {
                black_box(ours::x25519_base(black_box(k)));
            },
            &mut || {
                black_box(x_dalek(black_box(k)));
            },
            &mut || {
                black_box(crrl::x25519::x25519_base(black_box(&k)));
            },
            &mut || {
                forced(&mut || {
                    black_box(ours::x25519_base(black_box(k)));
                })
            },
        ],
    );
    row("X25519 base point (x25519-dalek)", &t, &both);
    row(
        "X25519 base point (Scalar, forced)",
        &[t[3], t[1], t[2]],
        &both,
    );

    let t = fieldgen_benches::race(
        rounds,
        &mut [
            &mut || {
                black_box(ours::ed25519::SigningKey::from_bytes(black_box(&seed)).verifying_key());
            },
            &mut || {
                black_box(ed25519_dalek::SigningKey::from_bytes(black_box(&seed)).verifying_key());
            },
            &mut || {
                black_box(crrl::ed25519::PrivateKey::from_seed(black_box(&seed)).public_key);
            },
        ],
    );
    row("Ed25519 key from seed", &t, &both);

    let t = fieldgen_benches::race(
        rounds,
        &mut [
            &mut || {
                black_box(sk.sign(black_box(msg)));
            },
            &mut || {
                black_box(dsk.sign(black_box(msg)));
            },
            &mut || {
                black_box(csk.sign_raw(black_box(msg)));
            },
            &mut || {
                forced(&mut || {
                    black_box(sk.sign(black_box(msg)));
                })
            },
        ],
    );
    row("Ed25519 sign", &t, &both);
    row("Ed25519 sign (Scalar, forced)", &[t[3], t[1], t[2]], &both);

    let t = fieldgen_benches::race(
        rounds,
        &mut [
            &mut || {
                black_box(vk.verify(black_box(msg), black_box(&sig)).is_ok());
            },
            &mut || {
                black_box(dvk.verify(black_box(msg), black_box(&dsig)).is_ok());
            },
            &mut || {
                black_box(cvk.verify_raw(black_box(&sig_bytes), black_box(msg)));
            },
            &mut || {
                forced(&mut || {
                    black_box(vk.verify(black_box(msg), black_box(&sig)).is_ok());
                })
            },
        ],
    );
    row("Ed25519 verify", &t, &both);
    row(
        "Ed25519 verify (Scalar, forced)",
        &[t[3], t[1], t[2]],
        &both,
    );

    let t = fieldgen_benches::race(
        (rounds / 10).max(1),
        &mut [
            &mut || {
                black_box(ours::ed25519::verify_batch(black_box(&refs), &sigs, &vks).is_ok());
            },
            &mut || {
                black_box(ed25519_dalek::verify_batch(black_box(&refs), &dsigs, &dvks).is_ok());
            },
            &mut || {
                forced(&mut || {
                    black_box(ours::ed25519::verify_batch(black_box(&refs), &sigs, &vks).is_ok());
                })
            },
        ],
    );
    row("Ed25519 batch of 64", &t, &[Some("ed25519-dalek"), None]);
    row(
        "Ed25519 batch of 64 (Scalar, forced)",
        &[t[2], t[1]],
        &[Some("ed25519-dalek"), None],
    );
}
