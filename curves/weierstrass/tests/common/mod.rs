//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// Decodes lowercase or uppercase hex; panics on malformed test data.
pub fn unhex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex length: {s}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

/// The path of a file under tests/vectors.
pub fn vector(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors")
        .join(name)
}

/// Reads and parses a JSON vector file.
pub fn json(name: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(vector(name)).expect("vector file");
    serde_json::from_str(&text).expect("vector JSON")
}

/// A big-endian integer (possibly with a sign octet or fewer octets) as exactly `len` octets;
/// None when it does not fit.
pub fn fixed_be(bytes: &[u8], len: usize) -> Option<Vec<u8>> {
    let first = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
    let trimmed = &bytes[first..];
    if trimmed.len() > len {
        return None;
    }
    let mut out = vec![0u8; len - trimmed.len()];
    out.extend_from_slice(trimmed);
    Some(out)
}
