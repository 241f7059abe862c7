//! NIST CAVP ECDSA vectors for the K- and B- curves (FIPS 186-2 and 186-3 KeyPair, PKV,
//! SigGen with d and k, SigVer), as carried by pyca/cryptography's `cryptography_vectors`
//! (see tests/vectors/README.md; the files here keep only the B-/K- sections).
//!
//! - KeyPair: Q = d·G must equal the published (Qx, Qy);
//! - PKV: our public-key validation (SEC 1 §3.2.2.1: coordinates in range, on the curve, order
//!   n) must give the published P/F;
//! - SigGen: with the published k, r = x(k·G) mod n and s = k⁻¹(e + r·d) computed through the
//!   crate's scalar multiplication and scalar field must equal (R, S); the published signature
//!   must verify;
//! - SigVer: `PublicKey::verify_prehash` must give the published P/F.
//!
//! Every case of every file runs (about a second in the test profile).

mod common;

use std::collections::HashMap;

use common::{fixed_be, unhex};
use fieldgen_binary_curves::curves::*;
use fieldgen_binary_curves::ecdsa::{PublicKey, SecretKey, Signature};
use fieldgen_binary_curves::{BinaryCurve, PrimeGroup, SecCurve};
use fieldgen_field::Field;
use fieldgen_weierstrass::protocol::{hash_to_scalar, scalar_from_be_bytes_reduced};
use sha2::Digest;

/// One record: its section header ("K-163,SHA-1") and its key = value fields.
struct Record {
    section: String,
    fields: HashMap<String, String>,
}

fn records(file: &str) -> Vec<Record> {
    let text = std::fs::read_to_string(common::vector(file)).unwrap();
    let mut out = Vec::new();
    let mut section = String::new();
    let mut cur = HashMap::new();
    let flush = |cur: &mut HashMap<String, String>, section: &str, out: &mut Vec<Record>| {
        if !cur.is_empty() {
            out.push(Record {
                section: section.to_string(),
                fields: std::mem::take(cur),
            });
        }
    };
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            flush(&mut cur, &section, &mut out);
            if s.starts_with("K-") || s.starts_with("B-") {
                section = s.to_string();
            }
            continue;
        }
        if line.is_empty() {
            flush(&mut cur, &section, &mut out);
        } else if let Some((k, v)) = line.split_once(" = ") {
            cur.insert(k.to_string(), v.to_string());
        }
    }
    flush(&mut cur, &section, &mut out);
    out.retain(|r| r.fields.contains_key("Qx") || r.fields.contains_key("d"));
    out
}

fn digest(hash: &str, msg: &[u8]) -> Vec<u8> {
    match hash {
        "SHA-1" => sha1::Sha1::digest(msg).to_vec(),
        "SHA-224" => sha2::Sha224::digest(msg).to_vec(),
        "SHA-256" => sha2::Sha256::digest(msg).to_vec(),
        "SHA-384" => sha2::Sha384::digest(msg).to_vec(),
        "SHA-512" => sha2::Sha512::digest(msg).to_vec(),
        _ => panic!("hash {hash}"),
    }
}

/// 04 ‖ Qx ‖ Qy at the curve's length; None when a coordinate is too long to be in range.
fn point<C: BinaryCurve>(r: &Record) -> Option<Vec<u8>> {
    let n = C::Base::BYTES;
    let x = fixed_be(&unhex(&r.fields["Qx"]), n)?;
    let y = fixed_be(&unhex(&r.fields["Qy"]), n)?;
    Some([vec![4], x, y].concat())
}

fn scalar_bytes<C: PrimeGroup>(hex: &str) -> Option<Vec<u8>> {
    fixed_be(&unhex(hex), C::Scalar::BYTES)
}

/// Runs the records of one curve; returns how many ran.
fn run_curve<C: SecCurve>(kind: &str, recs: &[&Record], hash_default: &str) -> usize {
    let mut ran = 0;
    for (i, r) in recs.iter().enumerate() {
        let f = &r.fields;
        let hash = r.section.split(',').nth(1).unwrap_or(hash_default);
        match kind {
            "KeyPair" => {
                let d = SecretKey::<C>::from_bytes(&scalar_bytes::<C>(&f["d"]).unwrap()).unwrap();
                assert_eq!(
                    d.public_key().to_sec1_bytes(false),
                    point::<C>(r).unwrap(),
                    "{} KeyPair #{i}",
                    r.section
                );
            }
            "PKV" => {
                let ok = point::<C>(r).is_some_and(|p| PublicKey::<C>::from_sec1_bytes(&p).is_ok());
                assert_eq!(
                    ok,
                    f["Result"].starts_with('P'),
                    "{} PKV #{i}: {}",
                    r.section,
                    f["Result"]
                );
            }
            "SigGen" => {
                let msg = unhex(&f["Msg"]);
                let h = digest(hash, &msg);
                let d = SecretKey::<C>::from_bytes(&scalar_bytes::<C>(&f["d"]).unwrap()).unwrap();
                assert_eq!(d.public_key().to_sec1_bytes(false), point::<C>(r).unwrap());
                let dd: C::Scalar = scalar_from_be_bytes_reduced(&unhex(&f["d"]));
                let k: C::Scalar = scalar_from_be_bytes_reduced(&unhex(&f["k"]));
                let e: C::Scalar = hash_to_scalar(&h);
                let big_r = C::mul_base(&k);
                let x: Option<Vec<u8>> = C::x_be_bytes(&big_r).into();
                let rr: C::Scalar = scalar_from_be_bytes_reduced(&x.unwrap());
                let s = k.invert().unwrap() * (e + rr * dd);
                let want_r = scalar_bytes::<C>(&f["R"]).unwrap();
                let want_s = scalar_bytes::<C>(&f["S"]).unwrap();
                assert_eq!(
                    rr.to_be_bytes().as_ref(),
                    &want_r[..],
                    "{} SigGen #{i} r",
                    r.section
                );
                assert_eq!(
                    s.to_be_bytes().as_ref(),
                    &want_s[..],
                    "{} SigGen #{i} s",
                    r.section
                );
                let sig = Signature::<C>::from_slice(&[want_r, want_s].concat()).unwrap();
                d.public_key().verify_prehash(&h, &sig).unwrap();
            }
            "SigVer" => {
                let msg = unhex(&f["Msg"]);
                let h = digest(hash, &msg);
                let ok = (|| {
                    let q = PublicKey::<C>::from_sec1_bytes(&point::<C>(r)?).ok()?;
                    let sig = [scalar_bytes::<C>(&f["R"])?, scalar_bytes::<C>(&f["S"])?].concat();
                    let sig = Signature::<C>::from_slice(&sig).ok()?;
                    q.verify_prehash(&h, &sig).ok()
                })()
                .is_some();
                assert_eq!(
                    ok,
                    f["Result"].starts_with('P'),
                    "{} SigVer #{i}: {}",
                    r.section,
                    f["Result"]
                );
            }
            _ => unreachable!(),
        }
        ran += 1;
    }
    ran
}

/// Every curve's records of a file, every `stride`-th one (all with FIELDGEN_BINARY_FULL).
fn run_file(file: &str, kind: &str, stride: usize, hash_default: &str) -> usize {
    let recs = records(file);
    let stride = if common::full_run() { 1 } else { stride };
    let mut total = 0;
    for curve in [
        "K-163", "B-163", "K-233", "B-233", "K-283", "B-283", "K-409", "B-409", "K-571", "B-571",
    ] {
        let of: Vec<&Record> = recs
            .iter()
            .filter(|r| r.section.split(',').next() == Some(curve))
            .step_by(stride)
            .collect();
        assert!(!of.is_empty(), "{file}: no {curve} records");
        total += match curve {
            "K-163" => run_curve::<Sect163k1>(kind, &of, hash_default),
            "B-163" => run_curve::<Sect163r2>(kind, &of, hash_default),
            "K-233" => run_curve::<Sect233k1>(kind, &of, hash_default),
            "B-233" => run_curve::<Sect233r1>(kind, &of, hash_default),
            "K-283" => run_curve::<Sect283k1>(kind, &of, hash_default),
            "B-283" => run_curve::<Sect283r1>(kind, &of, hash_default),
            "K-409" => run_curve::<Sect409k1>(kind, &of, hash_default),
            "B-409" => run_curve::<Sect409r1>(kind, &of, hash_default),
            "K-571" => run_curve::<Sect571k1>(kind, &of, hash_default),
            "B-571" => run_curve::<Sect571r1>(kind, &of, hash_default),
            _ => unreachable!(),
        };
    }
    eprintln!("{file}: {total} cases");
    total
}

#[test]
fn keypair_186_2() {
    assert_eq!(
        run_file("cavp186-2_BK_KeyPair.rsp", "KeyPair", 1, "SHA-1"),
        100
    );
}

#[test]
fn keypair_186_3() {
    assert_eq!(
        run_file("cavp186-3_BK_KeyPair.rsp", "KeyPair", 1, "SHA-1"),
        100
    );
}

#[test]
fn pkv_186_2() {
    assert_eq!(run_file("cavp186-2_BK_PKV.rsp", "PKV", 1, "SHA-1"), 120);
}

#[test]
fn pkv_186_3() {
    assert_eq!(run_file("cavp186-3_BK_PKV.rsp", "PKV", 1, "SHA-1"), 120);
}

#[test]
fn siggen_186_2() {
    assert_eq!(
        run_file("cavp186-2_BK_SigGen.txt", "SigGen", 1, "SHA-1"),
        150
    );
}

#[test]
fn siggen_186_3() {
    assert_eq!(
        run_file("cavp186-3_BK_SigGen.txt", "SigGen", 1, "SHA-1"),
        750
    );
}

#[test]
fn sigver_186_2() {
    assert_eq!(
        run_file("cavp186-2_BK_SigVer.rsp", "SigVer", 1, "SHA-1"),
        150
    );
}

#[test]
fn sigver_186_3() {
    assert_eq!(
        run_file("cavp186-3_BK_SigVer.rsp", "SigVer", 1, "SHA-1"),
        750
    );
}
