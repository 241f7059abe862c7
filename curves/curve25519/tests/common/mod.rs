//! Helpers shared by the integration tests: hex decoding and the vector files.

#![allow(dead_code)]

use std::path::PathBuf;

/// Lowercase or uppercase hex to bytes; panics on malformed test data.
pub fn hex(s: &str) -> Vec<u8> {
    assert!(s.len() % 2 == 0, "odd-length hex in test data");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

pub fn hex32(s: &str) -> [u8; 32] {
    hex(s).try_into().expect("32 bytes")
}

pub fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

pub fn vector_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("vectors")
        .join(name)
}

pub fn load_json(name: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(vector_path(name)).expect("vector file");
    serde_json::from_str(&text).expect("valid JSON")
}
