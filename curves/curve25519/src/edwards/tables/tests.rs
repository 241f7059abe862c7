//! The definitions of the tables in `tables.rs`, computed with the point arithmetic at test
//! time: `tables_match_their_definition` recomputes every entry on each test run, and the
//! ignored `write_tables` (run with `FIELDGEN_WRITE_TABLES=1 cargo test -p
//! fieldgen-curve25519 --lib write_tables -- --ignored`) rewrites `tables.rs` from them.

use super::super::*;
use super::{BASE_128_ODD_MULTIPLES, BASE_ODD_MULTIPLES, BASE_TABLE};
use std::boxed::Box;
use std::string::String;
use std::vec::Vec;

/// Affine Niels forms of a batch of points, with one shared inversion.
fn batch_to_affine_niels(points: &[EdwardsPoint]) -> Vec<AffineNiels> {
    let mut zs: Vec<Fe> = points.iter().map(|p| p.z).collect();
    Fe::batch_invert(&mut zs);
    let d2 = consts().d2;
    points
        .iter()
        .zip(zs)
        .map(|(p, zinv)| {
            let x = p.x * zinv;
            let y = p.y * zinv;
            AffineNiels {
                y_plus_x: y + x,
                y_minus_x: y - x,
                xy2d: x * y * d2,
            }
        })
        .collect()
}

/// Row j: k·256^j·B for k = 1..8 (each row's multiples by repeated addition of its first
/// entry, each row's first entry by 8 doublings of the previous one).
fn base_table_def() -> Box<[[AffineNiels; 8]; 32]> {
    let mut points = Vec::with_capacity(256);
    let mut row_base = basepoint();
    for _ in 0..32 {
        let row_niels = row_base.to_projective_niels();
        let mut p = row_base;
        for _ in 0..8 {
            points.push(p);
            p = p.add_niels(&row_niels).to_extended();
        }
        row_base = row_base.mul_by_pow2(8);
    }
    let niels = batch_to_affine_niels(&points);
    let mut table = Box::new([[AffineNiels::IDENTITY; 8]; 32]);
    for (j, row) in table.iter_mut().enumerate() {
        row.copy_from_slice(&niels[8 * j..8 * j + 8]);
    }
    table
}

/// P, 3P, ..., (2·count − 1)P by repeated addition of 2P.
fn affine_odd_multiples(p: &EdwardsPoint, count: usize) -> Vec<AffineNiels> {
    let p2 = p.double().to_projective_niels();
    let mut pts = Vec::with_capacity(count);
    let mut q = *p;
    for _ in 0..count {
        pts.push(q);
        q = q.add_niels(&p2).to_extended();
    }
    batch_to_affine_niels(&pts)
}

fn odd_multiples_def() -> [Vec<AffineNiels>; 2] {
    let count = 1 << (BASE_WNAF_WIDTH - 2);
    [
        affine_odd_multiples(&basepoint(), count),
        affine_odd_multiples(&basepoint().mul_by_pow2(128), count),
    ]
}

fn same(a: &AffineNiels, b: &AffineNiels) -> bool {
    a.y_plus_x == b.y_plus_x && a.y_minus_x == b.y_minus_x && a.xy2d == b.xy2d
}

#[test]
fn tables_match_their_definition() {
    let t = base_table_def();
    for (got, want) in BASE_TABLE.iter().flatten().zip(t.iter().flatten()) {
        assert!(same(got, want));
    }
    let [odd, odd128] = odd_multiples_def();
    assert_eq!(BASE_ODD_MULTIPLES.len(), odd.len());
    assert_eq!(BASE_128_ODD_MULTIPLES.len(), odd128.len());
    for (got, want) in BASE_ODD_MULTIPLES.iter().zip(&odd) {
        assert!(same(got, want));
    }
    for (got, want) in BASE_128_ODD_MULTIPLES.iter().zip(&odd128) {
        assert!(same(got, want));
    }
}

/// Big-endian hex of the canonical value, as `from_hex_vartime` reads it.
fn hex(x: &Fe) -> String {
    let mut s = String::from("0x");
    for b in x.to_le_bytes().iter().rev() {
        s.push_str(&std::format!("{b:02x}"));
    }
    s
}

fn entry(n: &AffineNiels) -> String {
    std::format!(
        "n!(\"{}\", \"{}\", \"{}\")",
        hex(&n.y_plus_x),
        hex(&n.y_minus_x),
        hex(&n.xy2d)
    )
}

#[test]
#[ignore = "writes src/edwards/tables.rs; run with FIELDGEN_WRITE_TABLES=1"]
fn write_tables() {
    if std::env::var_os("FIELDGEN_WRITE_TABLES").is_none() {
        return;
    }
    let mut out = String::from(HEADER);
    out.push_str("/// Row j: k·256^j·B for k = 1..8.\npub(crate) static BASE_TABLE: [[AffineNiels; 8]; 32] = [\n");
    for row in base_table_def().iter() {
        out.push_str("    [\n");
        for n in row {
            out.push_str(&std::format!("        {},\n", entry(n)));
        }
        out.push_str("    ],\n");
    }
    out.push_str("];\n");
    let [odd, odd128] = odd_multiples_def();
    for (name, doc, t) in [
        ("BASE_ODD_MULTIPLES", "(2k + 1)·B", odd),
        ("BASE_128_ODD_MULTIPLES", "(2k + 1)·2^128·B", odd128),
    ] {
        out.push_str(&std::format!(
            "\n/// Entry k: {doc}, k = 0..{}.\npub(crate) static {name}: [AffineNiels; {}] = [\n",
            t.len() - 1,
            t.len()
        ));
        for n in &t {
            out.push_str(&std::format!("    {},\n", entry(n)));
        }
        out.push_str("];\n");
    }
    out.push_str("\n#[cfg(test)]\nmod tests;\n");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/edwards/tables.rs");
    std::fs::write(path, out).unwrap();
}

const HEADER: &str = "//! Precomputed multiples of the base point B of edwards25519 in affine Niels form\n\
//! (y + x, y − x, 2d·x·y), as compile-time constants: no run-time initialisation, no `std`.\n\
//! Written by `tests::write_tables` from the definitions in `tables/tests.rs` (do not edit by\n\
//! hand); `tests::tables_match_their_definition` recomputes every entry.\n\
\n\
use super::AffineNiels;\n\
use crate::field::{fe_const, Fe};\n\
\n\
/// One entry from the canonical hex of its three coordinates.\n\
macro_rules! n {\n\
    ($a:expr, $b:expr, $c:expr) => {\n\
        AffineNiels { y_plus_x: fe_const!($a), y_minus_x: fe_const!($b), xy2d: fe_const!($c) }\n\
    };\n\
}\n\
\n";
