//! The Gallant–Lambert–Vanstone method (Gallant, Lambert, Vanstone, "Faster point
//! multiplication on elliptic curves with efficient endomorphisms", CRYPTO 2001) for a curve
//! with an efficiently computable endomorphism φ(x, y) = (β·x, y) acting on the group as
//! multiplication by λ (a = 0 curves with p ≡ 1 mod 3: secp256k1, BN G1).
//!
//! A scalar k is split as k ≡ k1 + k2·λ (mod n) with |k1|, |k2| < 2^129 (about √n), so k·P =
//! k1·P + k2·φ(P) takes half as many doublings. The split is the rounding of GLV §4 with a
//! reduced basis (a1, b1), (a2, b2) of the lattice {(x, y) : x + y·λ ≡ 0 mod n}:
//! c1 = round(b2·k / n), c2 = round(−b1·k / n), k2 = −c1·b1 − c2·b2, k1 = k − k2·λ. The two
//! divisions are a multiplication by the precomputed g1 = round(2^384·b2 / n),
//! g2 = round(2^384·(−b1) / n) and a rounded shift by 384 bits (the fixed-point form of
//! Bos, Costello, Longa, Naehrig, "Selecting elliptic curves for cryptography", §4.2, and of
//! libsecp256k1), which is exact up to one unit in each c_i.
//!
//! Bound: with the exact rational solution (β1, β2) of (k, 0) = β1·v1 + β2·v2 and
//! |c_i − β_i| < 1, (k1, k2) = −(c1 − β1)·v1 − (c2 − β2)·v2, so |k1| < |a1| + |a2| and
//! |k2| < |b1| + |b2|; for secp256k1 both are below 1.3·2^128 < 2^129 (the half-scalars are
//! handled as 129-bit magnitudes with a sign).

use fieldgen_field::{Field, PrimeField};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroize;

use crate::group::{
    lookup, multiples_16, odd_multiples_vartime, recode_signed_radix32, wnaf_width_vartime,
    AffinePoint, JacobianPoint, ProjectivePoint, MAX_SCALAR_BYTES, RADIX32_DIGITS,
};
use crate::protocol::WeierstrassCurve;

/// Bytes of a half-scalar magnitude: 129 bits fit in 17 octets (the top one is 0 or 1).
pub const HALF_BYTES: usize = 17;

/// The constants of the GLV endomorphism of one curve (scalar field of at most 256 bits).
///
/// The implementer guarantees: β is a primitive cube root of unity in GF(p), λ one in GF(n),
/// λ·(x, y) = (β·x, y) on the group, a_i + b_i·λ ≡ 0 (mod n) with a1·b2 − a2·b1 = n, and
/// g1, g2 as defined in the module docs (the secp256k1 test checks each against num-bigint).
pub trait GlvParams: WeierstrassCurve
where
    Self::Base: PrimeField,
{
    /// β: φ(x, y) = (β·x, y).
    const BETA: Self::Base;
    /// λ: φ(P) = λ·P.
    const LAMBDA: Self::Scalar;
    /// −b1 mod n.
    const MINUS_B1: Self::Scalar;
    /// −b2 mod n.
    const MINUS_B2: Self::Scalar;
    /// round(2^384·b2 / n) as four little-endian 64-bit limbs.
    const G1: [u64; 4];
    /// round(2^384·(−b1) / n) as four little-endian 64-bit limbs.
    const G2: [u64; 4];

    /// A shared table of the generator for verification ([`GlvBaseTable`]), when the curve
    /// keeps one (with the `std` feature); none otherwise.
    fn glv_base_table() -> Option<&'static GlvBaseTable<Self>> {
        None
    }
}

/// Width of the NAF digits of the generator's halves when [`GlvBaseTable`] is available.
pub const BASE_TABLE_WIDTH: u32 = 8;

/// The odd multiples 1·G, 3·G, …, 127·G of the generator and their images under φ, affine,
/// for width-8 NAF digits of the two halves of u1 in a·G + b·Q: 2 × 64 points (about 8 KiB
/// with 64-bit limbs), built once with one batch normalisation. About a ninth of the digits
/// of a width-8 NAF are nonzero, against a sixth at width 5.
pub struct GlvBaseTable<C: GlvParams>
where
    C::Base: PrimeField,
{
    g: alloc::vec::Vec<AffinePoint<C>>,
    phi: alloc::vec::Vec<AffinePoint<C>>,
}

impl<C: GlvParams> GlvBaseTable<C>
where
    C::Base: PrimeField,
{
    /// The table of `base` (the generator).
    pub fn new(base: &ProjectivePoint<C>) -> Self {
        let n = 1usize << (BASE_TABLE_WIDTH - 2);
        let twice = base.double();
        let mut proj = alloc::vec![*base; n];
        for i in 1..n {
            proj[i] = proj[i - 1].add_point(&twice);
        }
        let mut g = alloc::vec![AffinePoint::identity(); n];
        ProjectivePoint::batch_to_affine(&proj, &mut g);
        let phi = g.iter().map(endomorphism_affine).collect();
        GlvBaseTable { g, phi }
    }
}

/// a·G + b·Q for public a, b, Q, variable time: [`double_mul_vartime`] with G's halves read
/// from the curve's [`GlvBaseTable`] at width 8 when it keeps one.
pub fn mul_base_add_vartime<C: GlvParams>(
    a: &C::Scalar,
    q: &ProjectivePoint<C>,
    b: &C::Scalar,
) -> ProjectivePoint<C>
where
    C::Base: PrimeField,
{
    let Some(table) = C::glv_base_table() else {
        return double_mul_vartime(&ProjectivePoint::GENERATOR, a, q, b);
    };
    let (a1, a2) = decompose::<C>(a);
    let (b1, b2) = decompose::<C>(b);
    let proj = odd_multiples_vartime(q);
    let mut tq = [AffinePoint::<C>::identity(); 8];
    ProjectivePoint::batch_to_affine(&proj, &mut tq);
    let tqe = tq.map(|e| endomorphism_affine(&e));
    let mut n = [[0i8; 8 * MAX_SCALAR_BYTES + 1]; 4];
    let widths = [BASE_TABLE_WIDTH, BASE_TABLE_WIDTH, 5, 5];
    let mut len = 0;
    for ((digits, h), w) in n.iter_mut().zip([&a1, &a2, &b1, &b2]).zip(widths) {
        len = len.max(half_wnaf_vartime(h, w, digits));
    }
    straus_jacobian_vartime(&n, len, [&table.g, &table.phi, &tq, &tqe])
}

/// One half of a split scalar: a magnitude below 2^129 (little-endian, 17 octets) and a sign
/// (set when the half is negative). Zeroed on drop.
#[derive(Clone)]
pub struct HalfScalar {
    /// |k_i|, little-endian.
    pub magnitude: [u8; HALF_BYTES],
    /// Whether k_i < 0.
    pub negative: Choice,
}

impl Drop for HalfScalar {
    fn drop(&mut self) {
        self.magnitude.zeroize();
    }
}

/// Splits k into (k1, k2) with k ≡ k1 + k2·λ (mod n), |k1|, |k2| < 2^129 (module docs),
/// constant time.
pub fn decompose<C: GlvParams>(k: &C::Scalar) -> (HalfScalar, HalfScalar)
where
    C::Base: PrimeField,
{
    let mut kb = [0u8; 32];
    kb[..C::Scalar::BYTES].copy_from_slice(k.to_le_bytes().as_ref());
    let mut limbs = [0u64; 4];
    for (i, l) in limbs.iter_mut().enumerate() {
        *l = u64::from_le_bytes(kb[8 * i..8 * i + 8].try_into().unwrap());
    }
    let mut c1 = mul_shift_384(&limbs, &C::G1);
    let mut c2 = mul_shift_384(&limbs, &C::G2);
    let mut s1 = to_scalar::<C::Scalar>(c1);
    let mut s2 = to_scalar::<C::Scalar>(c2);
    let k2 = s1 * C::MINUS_B1 + s2 * C::MINUS_B2;
    let k1 = *k - k2 * C::LAMBDA;
    let halves = (half(&k1), half(&k2));
    kb.zeroize();
    limbs.zeroize();
    c1.zeroize();
    c2.zeroize();
    s1.zeroize();
    s2.zeroize();
    halves
}

/// round(k·g / 2^384) for 256-bit k and g: the schoolbook product's limbs 6 and 7 plus bit 383.
/// The result is below 2^128 for the secp256k1 constants (c ≤ k·|b|/n + 1).
#[allow(
    clippy::cast_possible_truncation,
    reason = "limb extraction: the low word of each double-word step, its high word carried separately"
)]
fn mul_shift_384(k: &[u64; 4], g: &[u64; 4]) -> u128 {
    let mut t = [0u64; 8];
    for i in 0..4 {
        let mut carry = 0u128;
        for j in 0..4 {
            let v = (k[i] as u128) * (g[j] as u128) + t[i + j] as u128 + carry;
            t[i + j] = v as u64;
            carry = v >> 64;
        }
        t[i + 4] = carry as u64;
    }
    let hi = (t[6] as u128) | ((t[7] as u128) << 64);
    let r = hi.wrapping_add((t[5] >> 63) as u128);
    t.zeroize();
    r
}

/// A value below 2^128 (< n) as a scalar.
fn to_scalar<S: PrimeField>(v: u128) -> S {
    let mut b = <S::Bytes as fieldgen_field::ByteArray>::zeroed();
    b.as_mut()[..16].copy_from_slice(&v.to_le_bytes());
    let s = S::from_le_bytes(&b).unwrap_or(S::ZERO);
    b.as_mut().zeroize();
    s
}

/// The signed half from its residue mod n: either the residue or n minus it is below 2^129,
/// and the other is far above it, so the octets above the 17th decide the sign.
fn half<S: PrimeField>(v: &S) -> HalfScalar {
    let bytes = v.to_le_bytes();
    let mut high = 0u8;
    for b in &bytes.as_ref()[HALF_BYTES..] {
        high |= *b;
    }
    let negative = !high.ct_eq(&0);
    let m = S::conditional_select(v, &-*v, negative);
    let mb = m.to_le_bytes();
    let mut magnitude = [0u8; HALF_BYTES];
    magnitude.copy_from_slice(&mb.as_ref()[..HALF_BYTES]);
    HalfScalar {
        magnitude,
        negative,
    }
}

/// φ(P) = (β·X : Y : Z).
pub fn endomorphism<C: GlvParams>(p: &ProjectivePoint<C>) -> ProjectivePoint<C>
where
    C::Base: PrimeField,
{
    ProjectivePoint {
        x: p.x * C::BETA,
        y: p.y,
        z: p.z,
    }
}

/// Digits of a half-scalar: signed radix-32 digits (k = Σ d_i·32^i, d_i in [−16, 16)); since
/// the magnitude is below 2^129, digit 25 (bits 125–129) is at most 15 before its carry, so
/// digit 26 is 0 or 1 and every digit above it is 0.
fn half_digits(h: &HalfScalar) -> [i8; RADIX32_DIGITS] {
    let mut digits = [0i8; RADIX32_DIGITS];
    recode_signed_radix32(&h.magnitude, &mut digits);
    digits
}

/// k·P in constant time by GLV: k = k1 + k2·λ, both halves by a signed 5-bit fixed window
/// sharing one chain of 130 doublings (27 digits each, in runs of five Jacobian doublings,
/// [`ProjectivePoint::double_n`]; tables of 1·P … 16·P and their images under φ read by a
/// masked scan of every entry). The halves' signs negate the two base points by
/// `conditional_select`; nothing branches on k or P.
pub fn mul<C: GlvParams>(p: &ProjectivePoint<C>, k: &C::Scalar) -> ProjectivePoint<C>
where
    C::Base: PrimeField,
{
    let (k1, k2) = decompose::<C>(k);
    let p1 = ProjectivePoint::conditional_select(p, &-*p, k1.negative);
    let t1 = multiples_16(&p1);
    // φ(j·P) = j·φ(P); its sign is k2's, relative to the (possibly negated) P of t1.
    let flip = k1.negative ^ k2.negative;
    let mut t2 = [ProjectivePoint::<C>::IDENTITY; 16];
    for (a, b) in t2.iter_mut().zip(&t1) {
        let e = endomorphism(b);
        *a = ProjectivePoint::conditional_select(&e, &-e, flip);
    }
    let mut d1 = half_digits(&k1);
    let mut d2 = half_digits(&k2);
    let top = 26; // digit 26 holds only the carry out of digit 25 (see half_digits)
    let mut acc = lookup(&t1, d1[top]).add_point(&lookup(&t2, d2[top]));
    for i in (0..top).rev() {
        acc = acc.double_n(5);
        acc = acc.add_point(&lookup(&t1, d1[i]));
        acc = acc.add_point(&lookup(&t2, d2[i]));
    }
    d1.zeroize();
    d2.zeroize();
    acc
}

/// Width-5 NAF digits of a signed half, the sign folded into the digits. Variable time.
fn half_wnaf_vartime(h: &HalfScalar, w: u32, out: &mut [i8; 8 * MAX_SCALAR_BYTES + 1]) -> usize {
    let len = wnaf_width_vartime(&h.magnitude, w, out);
    if bool::from(h.negative) {
        for d in out[..len].iter_mut() {
            *d = -*d;
        }
    }
    len
}

/// a·P + b·Q for public a, b, P, Q, variable time: both scalars split by GLV and the four
/// halves interleaved by Straus's method over width-5 NAFs with one shared chain of about 129
/// doublings. The tables (odd multiples 1·P … 15·P and 1·Q … 15·Q) are normalised to affine
/// with one inversion, those of φ(P), φ(Q) are theirs with x multiplied by β, and the chain
/// runs in Jacobian coordinates (doubling dbl-2009-l, 2M + 5S; mixed addition madd-2007-bl,
/// 7M + 4S, Explicit-Formulas Database), cheaper than the complete
/// projective formulas; their exceptional cases (the identity, P = ±Q) are branched on, which
/// only a variable-time path may do.
pub fn double_mul_vartime<C: GlvParams>(
    p: &ProjectivePoint<C>,
    a: &C::Scalar,
    q: &ProjectivePoint<C>,
    b: &C::Scalar,
) -> ProjectivePoint<C>
where
    C::Base: PrimeField,
{
    let (a1, a2) = decompose::<C>(a);
    let (b1, b2) = decompose::<C>(b);
    let mut proj = [ProjectivePoint::<C>::IDENTITY; 16];
    proj[..8].copy_from_slice(&odd_multiples_vartime(p));
    proj[8..].copy_from_slice(&odd_multiples_vartime(q));
    let mut aff = [AffinePoint::<C>::identity(); 16];
    ProjectivePoint::batch_to_affine(&proj, &mut aff);
    let tp: [AffinePoint<C>; 8] = aff[..8].try_into().unwrap();
    let tq: [AffinePoint<C>; 8] = aff[8..].try_into().unwrap();
    let tpe = tp.map(|e| endomorphism_affine(&e));
    let tqe = tq.map(|e| endomorphism_affine(&e));
    let mut n = [[0i8; 8 * MAX_SCALAR_BYTES + 1]; 4];
    let mut len = 0;
    for (digits, h) in n.iter_mut().zip([&a1, &a2, &b1, &b2]) {
        len = len.max(half_wnaf_vartime(h, 5, digits));
    }
    straus_jacobian_vartime(&n, len, [&tp, &tpe, &tq, &tqe])
}

/// Σ digits_j · tables_j over the first `len` NAF positions: one Jacobian doubling per
/// position and a mixed addition of ±tables_j[|d|/2] per nonzero digit d.
fn straus_jacobian_vartime<C: GlvParams>(
    digits: &[[i8; 8 * MAX_SCALAR_BYTES + 1]; 4],
    len: usize,
    tables: [&[AffinePoint<C>]; 4],
) -> ProjectivePoint<C>
where
    C::Base: PrimeField,
{
    let mut acc = JacobianPoint::<C>::IDENTITY;
    for i in (0..len).rev() {
        acc = acc.double_vartime();
        for (ds, t) in digits.iter().zip(tables) {
            let d = ds[i];
            if d > 0 {
                acc = acc.add_affine_vartime(&t[(d as usize) / 2]);
            } else if d < 0 {
                acc = acc.add_affine_vartime(&-t[((-d) as usize) / 2]);
            }
        }
    }
    acc.to_projective()
}

/// The affine image φ(P) = (β·x, y) (the identity maps to itself).
pub fn endomorphism_affine<C: GlvParams>(p: &AffinePoint<C>) -> AffinePoint<C>
where
    C::Base: PrimeField,
{
    AffinePoint {
        x: p.x * C::BETA,
        y: p.y,
        infinity: p.infinity,
    }
}
