//! The 1996 `ell.c` key exchange on y² + xy = x³ + a6 over GF(2^155), f = x^155 + x^62 + 1:
//! prints a6 (derived from the point P = (0x7b, 0x1c8)), 2P, 3P, 3P + P and 2·2P, and the
//! Diffie–Hellman exchange computed both ways, each field element as 32-bit words, high word
//! first, as the 1996 program printed them; then times the exchange (four multiplications,
//! and with the fixed-base table for a·P and b·P) beside the figures published for the
//! original program (139 ms on a SPARC workstation, 11.6 ms on a 175 MHz Alpha). Those are
//! quoted for comparison only; they were measured on other machines thirty years ago.
//!
//! Run: `cargo run --release -p fieldgen-binary-curves --example ell1996`

use std::time::Instant;

use fieldgen_binary_curves::ell1996::{self, Ell1996};
use fieldgen_binary_curves::{AffinePoint, ProjectivePoint};

/// 155 bits as five 32-bit words, high word first.
fn words(x: &fieldgen_binary_curves::curves::F155) -> String {
    let be = x.to_be_bytes(); // 20 octets
    be.chunks(4)
        .map(|w| format!("{:08x}", u32::from_be_bytes([w[0], w[1], w[2], w[3]])))
        .collect::<Vec<_>>()
        .join(" ")
}

fn show(name: &str, p: &AffinePoint<Ell1996>) {
    if bool::from(p.infinity) {
        println!("{name:>10}: point at infinity");
    } else {
        println!("{name:>10}: x = {}", words(&p.x));
        println!("{:>10}  y = {}", "", words(&p.y));
    }
}

fn main() {
    let a6 = ell1996::a6_from_point(&ell1996::POINT_X, &ell1996::POINT_Y);
    println!("GF(2^155), f = x^155 + x^62 + 1; y^2 + xy = x^3 + a6 through P = (0x7b, 0x1c8)");
    println!("{:>10}: {}", "a6", words(&a6));
    let p = ProjectivePoint::<Ell1996>::GENERATOR;
    let p2 = p.double();
    let p3 = p2 + p;
    show("P", &p.to_affine());
    show("2P", &p2.to_affine());
    show("3P", &p3.to_affine());
    show("3P + P", &(p3 + p).to_affine());
    show("2(2P)", &p2.double().to_affine());

    // Fixed example secrets (20 octets, little-endian), not the 1996 run's.
    let a: Vec<u8> = (0..=u8::MAX)
        .take(ell1996::SCALAR_BYTES)
        .map(|i| i.wrapping_mul(37) ^ 0x5a)
        .collect();
    let b: Vec<u8> = (0..=u8::MAX)
        .take(ell1996::SCALAR_BYTES)
        .map(|i| i.wrapping_mul(101) ^ 0xc3)
        .collect();
    let [pa, pb, ab, ba] = ell1996::exchange_plain(&a, &b);
    println!("exchange (secrets a, b of 160 bits):");
    show("a·P", &pa);
    show("b·P", &pb);
    show("a·(b·P)", &ab);
    show("b·(a·P)", &ba);
    println!("shared points equal: {}", ab == ba);

    let iters = 200;
    let t0 = Instant::now();
    for _ in 0..iters {
        std::hint::black_box(ell1996::exchange_plain(
            std::hint::black_box(&a),
            std::hint::black_box(&b),
        ));
    }
    let plain = t0.elapsed().as_secs_f64() * 1e3 / iters as f64;
    let table = ell1996::base_table();
    let t0 = Instant::now();
    for _ in 0..iters {
        std::hint::black_box(ell1996::exchange_with_table(
            &table,
            std::hint::black_box(&a),
            std::hint::black_box(&b),
        ));
    }
    let tabled = t0.elapsed().as_secs_f64() * 1e3 / iters as f64;
    println!("whole exchange (four multiplications), mean of {iters}:");
    println!("  this machine, ladder only:           {plain:8.4} ms");
    println!("  this machine, with fixed-base table: {tabled:8.4} ms");
    println!("  1996, SPARC workstation:             139      ms (published)");
    println!("  1996, Alpha 175 MHz:                  11.6    ms (published)");
}
