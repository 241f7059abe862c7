//! NIST CAVP ECDSA (FIPS 186-3) response files for P-224, P-256 and P-384, trimmed from the
//! pyca/cryptography vector set (tests/vectors/README.md): `KeyPair` (d → Q), `PKV`
//! (public-key validation verdicts), `SigGen` with the private key d and the nonce k
//! (r, s reproduced byte for byte) and `SigVer` (verdicts), over SHA-1/224/256/384/512.
//! secp256k1 is not a NIST curve; Wycheproof and the k256 differential test cover it.
//! Every case runs (about a second in the test profile).

mod common;

use common::{fixed_be, unhex, vector};
use fieldgen_field::Field;
use fieldgen_weierstrass::curves::{P224, P256, P384};
use fieldgen_weierstrass::ecdsa::{PublicKey, SecretKey, Signature};
use fieldgen_weierstrass::{Error, PrimeGroup};
use sha2::Digest;

/// One `key = value` record with the section header it sits under.
struct Record {
    section: String,
    fields: Vec<(String, String)>,
}

impl Record {
    fn get(&self, key: &str) -> &str {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no {key} in a {} record", self.section))
    }
}

/// Records of a CAVP response file: `[curve]` or `[curve,hash]` headers, `key = value` lines,
/// records separated by blank lines; `#` comments and other bracketed lines skipped.
fn records(name: &str) -> Vec<Record> {
    let text = std::fs::read_to_string(vector(name)).expect("vector file");
    let mut out = Vec::new();
    let mut section = String::new();
    let mut fields: Vec<(String, String)> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('[') {
            if !fields.is_empty() {
                out.push(Record {
                    section: section.clone(),
                    fields: std::mem::take(&mut fields),
                });
            }
            if line.starts_with("[P-") {
                section = line.trim_matches(['[', ']']).to_string();
            }
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        if let Some((k, v)) = line.split_once('=') {
            fields.push((k.trim().to_string(), v.trim().to_string()));
        }
        // `N = 10` under a KeyPair header is a count, not a case.
        if fields.len() == 1 && fields[0].0 == "N" {
            fields.clear();
        }
    }
    if !fields.is_empty() {
        out.push(Record { section, fields });
    }
    out
}

fn digest(hash: &str, msg: &[u8]) -> Vec<u8> {
    match hash {
        "SHA-1" => sha1::Sha1::digest(msg).to_vec(),
        "SHA-224" => sha2::Sha224::digest(msg).to_vec(),
        "SHA-256" => sha2::Sha256::digest(msg).to_vec(),
        "SHA-384" => sha2::Sha384::digest(msg).to_vec(),
        "SHA-512" => sha2::Sha512::digest(msg).to_vec(),
        other => panic!("unknown hash {other}"),
    }
}

/// A hex integer as exactly `len` big-endian octets (hex strings may be odd-length or
/// carry extra leading zeros); None when the value does not fit.
fn int(hex: &str, len: usize) -> Option<Vec<u8>> {
    let padded = if hex.len() % 2 == 1 {
        format!("0{hex}")
    } else {
        hex.to_string()
    };
    fixed_be(&unhex(&padded), len)
}

/// The uncompressed SEC 1 point 04 ‖ Qx ‖ Qy; None when a coordinate does not fit
/// (so it is not below p either).
fn point(r: &Record, len: usize) -> Option<Vec<u8>> {
    let mut q = vec![4u8];
    q.extend(int(r.get("Qx"), len)?);
    q.extend(int(r.get("Qy"), len)?);
    Some(q)
}

fn curve_of(section: &str) -> &str {
    section.split(',').next().unwrap()
}

fn hash_of(section: &str) -> &str {
    section.split(',').nth(1).expect("a [curve,hash] section")
}

fn keypair<G: PrimeGroup>(r: &Record) {
    let n = G::Scalar::BYTES;
    let sk = SecretKey::<G>::from_bytes(&int(r.get("d"), n).unwrap()).expect("d in [1, n)");
    let want = point(r, (sk.public_key().to_sec1_bytes(false).len() - 1) / 2).unwrap();
    assert_eq!(sk.public_key().to_sec1_bytes(false), want, "{}", r.section);
}

fn pkv<G: PrimeGroup>(r: &Record, field_len: usize) {
    let result = r.get("Result");
    let got = point(r, field_len).map(|q| PublicKey::<G>::from_sec1_bytes(&q));
    match (result.chars().next(), got) {
        (Some('P'), Some(Ok(_))) => {}
        (Some('F'), None) => assert!(result.contains("out of range"), "{result}"),
        (Some('F'), Some(Err(e))) => {
            let want = if result.contains("out of range") {
                Error::CoordinateOutOfRange
            } else {
                Error::NotOnCurve
            };
            assert_eq!(e, want, "{} {:?}", r.section, r.fields);
        }
        (_, got) => panic!("{} {:?}: {result} but {got:?}", r.section, r.fields),
    }
}

fn siggen<G: PrimeGroup>(r: &Record, field_len: usize) {
    let n = G::Scalar::BYTES;
    let h = digest(hash_of(&r.section), &unhex(r.get("Msg")));
    let sk = SecretKey::<G>::from_bytes(&int(r.get("d"), n).unwrap()).unwrap();
    assert_eq!(
        sk.public_key().to_sec1_bytes(false),
        point(r, field_len).unwrap(),
        "Q, {}",
        r.section
    );
    let k = int(r.get("k"), n).unwrap();
    let sig = sk.sign_prehash_with_nonce(&h, &k).expect("k in [1, n)");
    let mut want = int(r.get("R"), n).unwrap();
    want.extend(int(r.get("S"), n).unwrap());
    assert_eq!(sig.to_bytes(), want, "{} {:?}", r.section, r.fields);
    assert!(sk.public_key().verify_prehash(&h, &sig).is_ok());
}

fn sigver<G: PrimeGroup>(r: &Record, field_len: usize) {
    let n = G::Scalar::BYTES;
    let h = digest(hash_of(&r.section), &unhex(r.get("Msg")));
    let pass = r.get("Result").starts_with('P');
    let verdict = (|| {
        let q = PublicKey::<G>::from_sec1_bytes(&point(r, field_len).ok_or(Error::InvalidLength)?)?;
        let mut rs = int(r.get("R"), n).ok_or(Error::InvalidScalar)?;
        rs.extend(int(r.get("S"), n).ok_or(Error::InvalidScalar)?);
        let sig = Signature::<G>::from_slice(&rs)?;
        q.verify_prehash(&h, &sig)
    })();
    assert_eq!(
        verdict.is_ok(),
        pass,
        "{} {:?}: {verdict:?}",
        r.section,
        r.fields
    );
}

/// Runs `f` on each record of a supported curve, with the base field's byte length; returns
/// how many ran.
fn each(name: &str, f: &dyn Fn(&Record, &str, usize)) -> usize {
    let mut ran = 0;
    for r in records(name).iter() {
        let curve = curve_of(&r.section);
        let len = match curve {
            "P-224" => 28,
            "P-256" => 32,
            "P-384" => 48,
            _ => continue,
        };
        f(r, curve, len);
        ran += 1;
    }
    ran
}

macro_rules! dispatch {
    ($fun:ident, $r:expr, $curve:expr $(, $len:expr)?) => {
        match $curve {
            "P-224" => $fun::<P224>($r $(, $len)?),
            "P-256" => $fun::<P256>($r $(, $len)?),
            "P-384" => $fun::<P384>($r $(, $len)?),
            _ => unreachable!(),
        }
    };
}

#[test]
fn cavp_keypair() {
    let ran = each("cavp_186-3_KeyPair.rsp", &|r, c, _| {
        dispatch!(keypair, r, c)
    });
    assert_eq!(ran, 30);
}

#[test]
fn cavp_pkv() {
    let ran = each("cavp_186-3_PKV.rsp", &|r, c, len| dispatch!(pkv, r, c, len));
    assert_eq!(ran, 36);
}

#[test]
fn cavp_siggen_with_d_and_k() {
    let ran = each("cavp_186-3_SigGen.txt", &|r, c, len| {
        dispatch!(siggen, r, c, len)
    });
    assert_eq!(ran, 225);
}

#[test]
fn cavp_sigver() {
    let ran = each("cavp_186-3_SigVer.rsp", &|r, c, len| {
        dispatch!(sigver, r, c, len)
    });
    assert_eq!(ran, 225);
}
