//! Helpers shared by the test files: hex, vector files, hash names, a seeded random source.
#![allow(dead_code)]

use fieldgen_rsa_schemes::HashAlg;

/// Bytes of a hex string (whitespace ignored; an odd length gets a leading zero).
pub fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let s = if s.len() % 2 == 1 { format!("0{s}") } else { s };
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

/// The text of a file under tests/vectors/.
pub fn vector_file(name: &str) -> String {
    let path = format!("{}/tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A Wycheproof JSON file.
pub fn wycheproof(name: &str) -> serde_json::Value {
    serde_json::from_str(&vector_file(name)).expect("JSON")
}

/// The hash named as in Wycheproof ("SHA-256") or CAVP ("SHA256"); none for others.
pub fn hash_named(name: &str) -> Option<HashAlg> {
    Some(match name.replace('-', "").as_str() {
        "SHA1" => HashAlg::Sha1,
        "SHA224" => HashAlg::Sha224,
        "SHA256" => HashAlg::Sha256,
        "SHA384" => HashAlg::Sha384,
        "SHA512" => HashAlg::Sha512,
        "SHA512/224" => HashAlg::Sha512_224,
        "SHA512/256" => HashAlg::Sha512_256,
        _ => return None,
    })
}

/// A seeded ChaCha-based random source (rand's StdRng), for reproducible runs.
pub fn rng(seed: u64) -> rand::rngs::StdRng {
    use rand::SeedableRng;
    rand::rngs::StdRng::seed_from_u64(seed)
}

/// The fields of the RSA Laboratories vector files (pss-vect.txt, oaep-vect.txt,
/// pkcs1v15sign-vectors.txt, pyca's oaep-custom files): a sequence of (field name, bytes),
/// the name being the text of a "# Name:" line and the bytes the hex lines below it.
/// "Exponent" after "Public exponent" is renamed "Private exponent".
pub fn rsa_labs_fields(text: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let mut current: Option<(String, String)> = None;
    let mut last_name = String::new();
    let flush = |cur: &mut Option<(String, String)>, out: &mut Vec<(String, Vec<u8>)>| {
        if let Some((n, h)) = cur.take() {
            out.push((n, hex(&h)));
        }
    };
    for line in text.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix('#') {
            let rest = rest.trim();
            flush(&mut current, &mut out);
            if let Some(name) = rest.strip_suffix(':') {
                let mut name = name.trim().to_string();
                if name == "Exponent" && last_name == "Public exponent" {
                    name = "Private exponent".into();
                }
                last_name = name.clone();
                current = Some((name, String::new()));
            } else if rest.contains("Example") {
                out.push(("Example".into(), Vec::new()));
            }
        } else if let Some((_, h)) = current.as_mut() {
            if t.chars()
                .all(|c| c.is_ascii_hexdigit() || c.is_whitespace())
            {
                h.push_str(t);
            } else {
                flush(&mut current, &mut out);
            }
        }
    }
    flush(&mut current, &mut out);
    out
}

/// The records of a NIST CAVP .rsp file: each "key = value" line, in order, with the
/// bracketed section headers as ("[mod]", value).
pub fn cavp_lines(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('#') || t.is_empty() {
            continue;
        }
        if let Some(h) = t.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            let (k, v) = h.split_once('=').unwrap_or((h, ""));
            out.push((format!("[{}]", k.trim()), v.trim().to_string()));
            continue;
        }
        if let Some((k, v)) = t.split_once('=') {
            out.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    out
}
