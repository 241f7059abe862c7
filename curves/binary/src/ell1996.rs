//! The curve of the 1996 key-exchange program `ell.c`: GF(2^155) with
//! f = x^155 + x^62 + 1 (the committed `gf2-155` field), y² + xy = x³ + a6 (a2 = 0), where
//! a6 is derived from a chosen point P = (0x7b, 0x1c8) (coefficient vectors read as
//! integers): a6 = y² + xy + x³.
//!
//! The program's group order is not part of it (and not computed here), so this curve has
//! no scalar field and no [`fieldgen_weierstrass::PrimeGroup`] impl: its Diffie–Hellman
//! exchange works with integer scalars given as bytes, through the constant-time ladder
//! ([`crate::group::ladder`]) or, for the fixed base P, a [`FixedBaseTable`] (the
//! "known generator" optimisation).

use crate::curves::F155;
use crate::group::{ladder, AffinePoint, BinaryCurve, FixedBaseTable, ProjectivePoint};

/// x(P) = 0x7b.
pub const POINT_X: F155 = F155::from_hex_vartime("7b").unwrap();
/// y(P) = 0x1c8.
pub const POINT_Y: F155 = F155::from_hex_vartime("1c8").unwrap();

/// a6 of the curve through (x, y) with a2 = 0: y² + xy + x³.
pub fn a6_from_point(x: &F155, y: &F155) -> F155 {
    y.square() + *x * *y + x.square() * *x
}

/// The 1996 curve y² + xy = x³ + a6 over GF(2^155), base point (0x7b, 0x1c8).
/// `B` = a6 = 0x7338f is what [`a6_from_point`] gives for the point (checked by the tests
/// against an independent GF(2)\[x\] computation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ell1996;

impl BinaryCurve for Ell1996 {
    type Base = F155;
    const NAME: &'static str = "ell1996-gf2^155";
    const A_IS_ONE: bool = false;
    const B: F155 = F155::from_hex_vartime("7338f").unwrap();
    const B_IS_ONE: bool = false;
    const GENERATOR_X: F155 = POINT_X;
    const GENERATOR_Y: F155 = POINT_Y;
    /// Unknown (the program never counts points); 1 is a placeholder.
    const COFACTOR: u64 = 1;
}

/// Bytes of a secret scalar of the exchange: 20 octets, 160 bits (little-endian).
pub const SCALAR_BYTES: usize = 20;

/// k·Q for a secret k (little-endian, [`SCALAR_BYTES`] octets or fewer), constant time.
pub fn mul(q: &ProjectivePoint<Ell1996>, k: &[u8]) -> ProjectivePoint<Ell1996> {
    ladder(&q.to_affine(), k, 8 * k.len())
}

/// The fixed-base table of P for [`SCALAR_BYTES`]-octet scalars.
pub fn base_table() -> FixedBaseTable<Ell1996> {
    FixedBaseTable::new(&ProjectivePoint::GENERATOR, SCALAR_BYTES)
}

/// The exchange as four plain point multiplications: A = a·P, B = b·P, then a·B and b·A;
/// returns (A, B, a·B, b·A) in affine form.
pub fn exchange_plain(a: &[u8], b: &[u8]) -> [AffinePoint<Ell1996>; 4] {
    let p = ProjectivePoint::GENERATOR;
    let pa = mul(&p, a);
    let pb = mul(&p, b);
    [
        pa.to_affine(),
        pb.to_affine(),
        mul(&pb, a).to_affine(),
        mul(&pa, b).to_affine(),
    ]
}

/// The exchange with the known-generator table for a·P and b·P.
pub fn exchange_with_table(
    table: &FixedBaseTable<Ell1996>,
    a: &[u8],
    b: &[u8],
) -> [AffinePoint<Ell1996>; 4] {
    let pa = table.mul_le_bytes(a);
    let pb = table.mul_le_bytes(b);
    [
        pa.to_affine(),
        pb.to_affine(),
        mul(&pb, a).to_affine(),
        mul(&pa, b).to_affine(),
    ]
}
