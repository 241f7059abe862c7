//! edwards25519, −x² + y² = 1 + d·x²·y² over GF(2^255 − 19) (RFC 8032 §5.1), in extended
//! twisted Edwards coordinates.
//!
//! Formulas: Hisil, Wong, Carter, Dawson, "Twisted Edwards Curves Revisited", ASIACRYPT 2008,
//! §3.1 (unified addition, 8M with k = 2d) and §3.3 (doubling, 4M + 4S), with a = −1. They are
//! complete on this curve (d is not a square), so the identity and doubling need no special
//! case, which keeps the constant-time paths branch-free. Additions go through the "completed"
//! point (E, F, G, H) so that a doubling followed by a doubling skips the T coordinate.

#[cfg(feature = "alloc")]
use alloc::{vec, vec::Vec};
use subtle::{Choice, ConditionallyNegatable, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroize;

#[cfg(feature = "alloc")]
use crate::decode_x4::{sqrt_backend, sqrt_ratio_batch, SqrtBackend};
use crate::field::{consts, fe_is_odd, sqrt_ratio, Fe, Scalar};
#[cfg(feature = "alloc")]
use crate::scalar::radix_2c_vartime;
use crate::scalar::{radix16_signed, wnaf_vartime};

/// A point in extended coordinates (X : Y : Z : T) with x = X/Z, y = Y/Z, x·y = T/Z.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdwardsPoint {
    x: Fe,
    y: Fe,
    z: Fe,
    t: Fe,
}

/// A point in projective coordinates (X : Y : Z), the input of a doubling.
#[derive(Clone, Copy)]
struct ProjectivePoint {
    x: Fe,
    y: Fe,
    z: Fe,
}

/// The output of an addition or doubling before its last multiplications: the point
/// (x, y) = (E/G, H/F), so X = E·F, Y = G·H, Z = F·G, T = E·H.
#[derive(Clone, Copy)]
struct CompletedPoint {
    e: Fe,
    f: Fe,
    g: Fe,
    h: Fe,
}

/// A point prepared for addition: (Y + X, Y − X, Z, 2d·T).
#[derive(Clone, Copy)]
pub(crate) struct ProjectiveNiels {
    y_plus_x: Fe,
    y_minus_x: Fe,
    z: Fe,
    t2d: Fe,
}

/// An affine point prepared for mixed addition: (y + x, y − x, 2d·x·y).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AffineNiels {
    y_plus_x: Fe,
    y_minus_x: Fe,
    xy2d: Fe,
}

impl ConditionallySelectable for AffineNiels {
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        AffineNiels {
            y_plus_x: Fe::conditional_select(&a.y_plus_x, &b.y_plus_x, c),
            y_minus_x: Fe::conditional_select(&a.y_minus_x, &b.y_minus_x, c),
            xy2d: Fe::conditional_select(&a.xy2d, &b.xy2d, c),
        }
    }
}

impl AffineNiels {
    /// (y − x, y + x, 2d·x·y), for the lane form of the tables.
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    pub(crate) fn parts(&self) -> [Fe; 3] {
        [self.y_minus_x, self.y_plus_x, self.xy2d]
    }

    const IDENTITY: AffineNiels = AffineNiels {
        y_plus_x: Fe::ONE,
        y_minus_x: Fe::ONE,
        xy2d: Fe::ZERO,
    };

    /// −P: swap y+x and y−x, negate 2dxy.
    fn conditional_negate(&mut self, c: Choice) {
        let (a, b) = (self.y_plus_x, self.y_minus_x);
        self.y_plus_x = Fe::conditional_select(&a, &b, c);
        self.y_minus_x = Fe::conditional_select(&b, &a, c);
        let neg = -self.xy2d;
        self.xy2d.conditional_assign(&neg, c);
    }
}

impl ProjectivePoint {
    /// 2P (HWCD 2008 §3.3, a = −1): 4 squarings and 6 additions. F and H are both
    /// negated relative to the paper (F = 2Z² − G, H = X² + Y²), which negates X, Y, Z and T
    /// alike, so the point is unchanged, and saves a negation and a subtraction.
    #[inline(always)]
    fn double(&self) -> CompletedPoint {
        let xx = self.x.square();
        let yy = self.y.square();
        let zz2 = self.z.square().double();
        let h = xx + yy;
        let g = yy - xx;
        CompletedPoint {
            e: (self.x + self.y).square() - h,
            f: zz2 - g,
            g,
            h,
        }
    }
}

impl CompletedPoint {
    #[inline(always)]
    fn to_extended(self) -> EdwardsPoint {
        EdwardsPoint {
            x: self.e * self.f,
            y: self.g * self.h,
            z: self.f * self.g,
            t: self.e * self.h,
        }
    }

    #[inline(always)]
    fn to_projective(self) -> ProjectivePoint {
        ProjectivePoint {
            x: self.e * self.f,
            y: self.g * self.h,
            z: self.f * self.g,
        }
    }
}

impl EdwardsPoint {
    pub(crate) const IDENTITY: EdwardsPoint = EdwardsPoint {
        x: Fe::ZERO,
        y: Fe::ONE,
        z: Fe::ONE,
        t: Fe::ZERO,
    };

    /// (X, Y, Z, T), for the lane form.
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    pub(crate) fn coords(&self) -> [Fe; 4] {
        [self.x, self.y, self.z, self.t]
    }

    /// The point (X : Y : Z : T); the caller guarantees X·Y = Z·T and the curve equation.
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    pub(crate) fn from_coords(c: [Fe; 4]) -> EdwardsPoint {
        EdwardsPoint {
            x: c[0],
            y: c[1],
            z: c[2],
            t: c[3],
        }
    }

    fn to_projective(self) -> ProjectivePoint {
        ProjectivePoint {
            x: self.x,
            y: self.y,
            z: self.z,
        }
    }

    pub(crate) fn to_projective_niels(self) -> ProjectiveNiels {
        ProjectiveNiels {
            y_plus_x: self.y + self.x,
            y_minus_x: self.y - self.x,
            z: self.z,
            t2d: self.t * consts().d2,
        }
    }

    /// P + Q for Q in projective Niels form (HWCD 2008 §3.1, 8M).
    #[inline(always)]
    fn add_niels(&self, q: &ProjectiveNiels) -> CompletedPoint {
        let pp = (self.y + self.x) * q.y_plus_x;
        let mm = (self.y - self.x) * q.y_minus_x;
        let tt2d = self.t * q.t2d;
        let zz2 = (self.z * q.z).double();
        CompletedPoint {
            e: pp - mm,
            f: zz2 - tt2d,
            g: zz2 + tt2d,
            h: pp + mm,
        }
    }

    /// P − Q for Q in projective Niels form (8M): the addition of −Q = (Y − X, Y + X, Z,
    /// −2d·T) with the negation folded into the operand order and signs.
    #[inline(always)]
    fn sub_niels(&self, q: &ProjectiveNiels) -> CompletedPoint {
        let pm = (self.y + self.x) * q.y_minus_x;
        let mp = (self.y - self.x) * q.y_plus_x;
        let tt2d = self.t * q.t2d;
        let zz2 = (self.z * q.z).double();
        CompletedPoint {
            e: pm - mp,
            f: zz2 + tt2d,
            g: zz2 - tt2d,
            h: pm + mp,
        }
    }

    /// P − Q for affine Q in Niels form (7M), as [`EdwardsPoint::sub_niels`].
    #[inline(always)]
    fn sub_affine_niels(&self, q: &AffineNiels) -> CompletedPoint {
        let pm = (self.y + self.x) * q.y_minus_x;
        let mp = (self.y - self.x) * q.y_plus_x;
        let tt2d = self.t * q.xy2d;
        let zz2 = self.z.double();
        CompletedPoint {
            e: pm - mp,
            f: zz2 + tt2d,
            g: zz2 - tt2d,
            h: pm + mp,
        }
    }

    /// P + Q for affine Q in Niels form (7M).
    #[inline(always)]
    fn add_affine_niels(&self, q: &AffineNiels) -> CompletedPoint {
        let pp = (self.y + self.x) * q.y_plus_x;
        let mm = (self.y - self.x) * q.y_minus_x;
        let tt2d = self.t * q.xy2d;
        let zz2 = self.z.double();
        CompletedPoint {
            e: pp - mm,
            f: zz2 - tt2d,
            g: zz2 + tt2d,
            h: pp + mm,
        }
    }

    #[cfg(any(feature = "alloc", test))]
    pub(crate) fn add(&self, q: &EdwardsPoint) -> EdwardsPoint {
        self.add_niels(&q.to_projective_niels()).to_extended()
    }

    pub(crate) fn neg(&self) -> EdwardsPoint {
        EdwardsPoint {
            x: -self.x,
            y: self.y,
            z: self.z,
            t: -self.t,
        }
    }

    pub(crate) fn double(&self) -> EdwardsPoint {
        self.to_projective().double().to_extended()
    }

    /// [2^k]P.
    fn mul_by_pow2(&self, k: u32) -> EdwardsPoint {
        let mut r = self.to_projective();
        for _ in 1..k {
            r = r.double().to_projective();
        }
        r.double().to_extended()
    }

    /// [8]P, the cofactor multiple.
    pub(crate) fn mul_by_cofactor(&self) -> EdwardsPoint {
        self.mul_by_pow2(3)
    }

    /// Whether P is the identity (X = 0 and Y = Z). Constant time.
    pub(crate) fn is_identity(&self) -> Choice {
        self.x.is_zero() & self.y.ct_eq(&self.z)
    }

    /// Whether [8]P is the identity, i.e. P is in the torsion subgroup of order dividing 8.
    pub(crate) fn is_small_order(&self) -> bool {
        bool::from(self.mul_by_cofactor().is_identity())
    }

    /// Projective equality: X1·Z2 = X2·Z1 and Y1·Z2 = Y2·Z1. Constant time.
    pub(crate) fn ct_eq(&self, other: &EdwardsPoint) -> Choice {
        (self.x * other.z).ct_eq(&(other.x * self.z))
            & (self.y * other.z).ct_eq(&(other.y * self.z))
    }

    /// The affine coordinates (x, y). One inversion.
    pub(crate) fn to_affine(self) -> (Fe, Fe) {
        let zinv = self.z.invert().unwrap_or(Fe::ZERO);
        (self.x * zinv, self.y * zinv)
    }

    /// The 32-byte encoding of RFC 8032 §5.1.2: y little-endian, bit 255 = x mod 2.
    pub(crate) fn compress(&self) -> [u8; 32] {
        let (x, y) = self.to_affine();
        let mut s = y.to_le_bytes();
        s[31] |= fe_is_odd(&x).unwrap_u8() << 7;
        s
    }

    /// Decodes RFC 8032 §5.1.3: rejects y ≥ p, a y with no x on the curve, and x = 0 with
    /// the sign bit set. Constant time.
    pub(crate) fn decompress(bytes: &[u8; 32]) -> Option<EdwardsPoint> {
        let d = DecodeStart::new(bytes);
        let (is_square, x) = sqrt_ratio(&d.u, &d.v);
        d.finish(is_square, x)
    }

    /// [`EdwardsPoint::decompress`] of each encoding, in the same order, with the square
    /// roots computed many at a time ([`crate::decode_x4`]: four per AVX-512 IFMA vector
    /// where the CPU has it, else four scalar chains in lockstep). Constant time in the
    /// encodings; the time depends only on their number.
    #[cfg(feature = "alloc")]
    pub(crate) fn decompress_many(encodings: &[[u8; 32]]) -> Vec<Option<EdwardsPoint>> {
        Self::decompress_many_with(sqrt_backend(), encodings).expect("detected backend")
    }

    /// [`EdwardsPoint::decompress_many`] on the given backend; `None` when this CPU cannot
    /// run it.
    #[cfg(feature = "alloc")]
    pub(crate) fn decompress_many_with(
        backend: SqrtBackend,
        encodings: &[[u8; 32]],
    ) -> Option<Vec<Option<EdwardsPoint>>> {
        let starts: Vec<DecodeStart> = encodings.iter().map(DecodeStart::new).collect();
        let u: Vec<Fe> = starts.iter().map(|d| d.u).collect();
        let v: Vec<Fe> = starts.iter().map(|d| d.v).collect();
        let roots = sqrt_ratio_batch(backend, &u, &v)?;
        Some(
            starts
                .iter()
                .zip(roots)
                .map(|(d, (is_square, x))| d.finish(is_square, x))
                .collect(),
        )
    }

    /// Montgomery u = (1 + y)/(1 − y) = (Z + Y)/(Z − Y) of the birationally equivalent
    /// curve25519 point (RFC 7748 §4.1), little-endian. The identity maps to 0.
    pub(crate) fn to_montgomery_u(self) -> [u8; 32] {
        let inv = (self.z - self.y).invert().unwrap_or(Fe::ZERO);
        ((self.z + self.y) * inv).to_le_bytes()
    }
}

/// The encoding of the identity (0, 1).
#[cfg(all(test, feature = "alloc"))]
const IDENTITY_ENCODING: [u8; 32] = {
    let mut b = [0u8; 32];
    b[0] = 1;
    b
};

/// RFC 8032 §5.1.3 up to the square root: y, its canonicity, the sign bit, and
/// x² = u/v with u = y² − 1, v = d·y² + 1.
#[derive(Clone, Copy)]
struct DecodeStart {
    y: Fe,
    canonical: Choice,
    sign: Choice,
    u: Fe,
    v: Fe,
}

impl DecodeStart {
    fn new(bytes: &[u8; 32]) -> DecodeStart {
        let sign = Choice::from(bytes[31] >> 7);
        let mut yb = *bytes;
        yb[31] &= 0x7f;
        let y = Fe::from_le_bytes(&yb);
        let canonical = y.is_some();
        let y = y.unwrap_or(Fe::ZERO);
        let yy = y.square();
        DecodeStart {
            y,
            canonical,
            sign,
            u: yy - Fe::ONE,
            v: yy * consts().d + Fe::ONE,
        }
    }

    /// The point from a square root x of u/v (`is_square`), with the sign of x set by the
    /// sign bit; none for a non-canonical y, a non-square, or x = 0 with the sign bit set.
    fn finish(&self, is_square: Choice, mut x: Fe) -> Option<EdwardsPoint> {
        let x_is_zero = x.is_zero();
        let flip = fe_is_odd(&x) ^ self.sign;
        x.conditional_negate(flip);
        let ok = self.canonical & is_square & !(x_is_zero & self.sign);
        if bool::from(ok) {
            Some(EdwardsPoint {
                x,
                y: self.y,
                z: Fe::ONE,
                t: x * self.y,
            })
        } else {
            None
        }
    }
}

/// The base point B = (x, 4/5) with x even (RFC 8032 §5.1), with Z = 1 and T = x·y, as a
/// compile-time constant (the tests derive it from y = 4/5).
#[cfg(any(feature = "alloc", test))]
pub(crate) fn basepoint() -> EdwardsPoint {
    use crate::field::fe_const;
    const B: EdwardsPoint = EdwardsPoint {
        x: fe_const!("0x216936d3cd6e53fec0a4e231fdd6dc5c692cc7609525a7b2c9562d608f25d51a"),
        y: fe_const!("0x6666666666666666666666666666666666666666666666666666666666666658"),
        z: Fe::ONE,
        t: fe_const!("0x67875f0fd78b766566ea4e8e64abe37d20f09f80775152f56dde8ab3a5b7dda3"),
    };
    B
}

/// The fixed-base and verification tables of B, as compile-time constants (`tables.rs`,
/// written by the ignored test `tables::write_tables` from the definitions in `tables`'s
/// tests, which recompute every entry on each test run).
#[rustfmt::skip]
mod tables;

/// Fixed-base table: row j holds k·256^j·B for k = 1..8 (affine Niels), 32 rows (24 KiB),
/// a compile-time constant.
pub(crate) fn base_table() -> &'static [[AffineNiels; 8]; 32] {
    &tables::BASE_TABLE
}

/// Constant-time read of e·row[0] from a row of 1..8 multiples, e in [−8, 8]: every entry
/// is read and the wanted one kept by masking.
///
/// The eight choices are made before the masking loop: making a `Choice` calls an opaque
/// function, and a call inside the loop forces the accumulated limbs out to the stack at
/// every entry (about 590 instructions per lookup with the calls inside, 64 lookups per
/// signature).
pub(crate) fn select_signed(row: &[AffineNiels; 8], e: i8) -> AffineNiels {
    let neg = ((e as u8) >> 7) & 1;
    // |e| ≤ 8: i8 arithmetic does not overflow.
    let abs = (e * (1 - 2 * neg as i8)) as u8;
    let choices: [Choice; 8] = [1u8, 2, 3, 4, 5, 6, 7, 8].map(|j| abs.ct_eq(&j));
    let mut out = AffineNiels::IDENTITY;
    for (entry, c) in row.iter().zip(choices) {
        out.conditional_assign(entry, c);
    }
    out.conditional_negate(Choice::from(neg));
    out
}

/// [a]B for a scalar a (mod l). Constant time: signed radix-16 digits and the fixed-base
/// table, 64 mixed additions and 4 doublings (Bernstein, Duif, Lange, Schwabe, Yang,
/// "High-speed high-security signatures", CHES 2011, §4; the layout of ed25519-donna).
///
/// Runs on the AVX-512 IFMA lanes (`edwards_x4::mul_base`, same digits and table) where the
/// CPU has them and the scalar code is not forced on this thread.
pub(crate) fn mul_base(a: &Scalar) -> EdwardsPoint {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(cpu) = crate::edwards_x4::lane_cpu() {
        return crate::edwards_x4::mul_base(cpu, a);
    }
    mul_base_scalar(a)
}

/// [`mul_base`] on the scalar field, every target.
pub(crate) fn mul_base_scalar(a: &Scalar) -> EdwardsPoint {
    let mut bytes = a.to_le_bytes();
    let mut e = radix16_signed(&bytes);
    let table = base_table();
    let mut p = EdwardsPoint::IDENTITY;
    for i in (1..64).step_by(2) {
        p = p
            .add_affine_niels(&select_signed(&table[i / 2], e[i]))
            .to_extended();
    }
    p = p.mul_by_pow2(4);
    for i in (0..64).step_by(2) {
        p = p
            .add_affine_niels(&select_signed(&table[i / 2], e[i]))
            .to_extended();
    }
    bytes.zeroize();
    e.zeroize();
    p
}

/// wNAF width of the base-point scalars in verification: the static tables hold
/// 2^(w−2) = 256 odd multiples (24 KiB each), and a 128-bit scalar then needs about
/// 128/(w + 1) ≈ 11.6 additions instead of 14.2 at width 8.
pub(crate) const BASE_WNAF_WIDTH: usize = 10;

/// Odd multiples B, 3B, ..., 511B of the base point for width-[`BASE_WNAF_WIDTH`] wNAF
/// (affine Niels), a compile-time constant.
pub(crate) fn base_odd_multiples() -> &'static [AffineNiels] {
    &tables::BASE_ODD_MULTIPLES
}

/// Odd multiples of B' = 2^128·B for width-[`BASE_WNAF_WIDTH`] wNAF (affine Niels): the
/// table of the upper half of a split base-point scalar; a compile-time constant.
pub(crate) fn base_128_odd_multiples() -> &'static [AffineNiels] {
    &tables::BASE_128_ODD_MULTIPLES
}

/// Whether [a1]P1 + [a2]P2 + [b_lo]B + [b_hi](2^128·B) is the identity, for public scalars
/// of at most 132 bits (32-byte little-endian strings). Variable time: Straus's interleaving
/// with width-5 wNAF and per-call tables for P1 and P2, width-10 wNAF with the precomputed
/// tables for B and 2^128·B, so 128 to 132 doublings in all. This is the half-size
/// verification equation of [`crate::lattice`].
pub(crate) fn is_identity_quad_vartime(
    a1: &[u8; 32],
    p1: &EdwardsPoint,
    a2: &[u8; 32],
    p2: &EdwardsPoint,
    b_lo: &[u8; 32],
    b_hi: &[u8; 32],
) -> bool {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(cpu) = crate::edwards_x4::lane_cpu() {
        return crate::edwards_x4::is_identity_quad_vartime(cpu, a1, p1, a2, p2, b_lo, b_hi);
    }
    let naf1 = wnaf_vartime(a1, 5);
    let naf2 = wnaf_vartime(a2, 5);
    let naf_lo = wnaf_vartime(b_lo, BASE_WNAF_WIDTH);
    let naf_hi = wnaf_vartime(b_hi, BASE_WNAF_WIDTH);
    let t1: [ProjectiveNiels; 8] = odd_multiples(p1);
    let t2: [ProjectiveNiels; 8] = odd_multiples(p2);
    let (tb, tb128) = (base_odd_multiples(), base_128_odd_multiples());
    let top = (0..257)
        .rev()
        .find(|&i| naf1[i] != 0 || naf2[i] != 0 || naf_lo[i] != 0 || naf_hi[i] != 0);
    let Some(top) = top else {
        return true;
    };
    let mut r = EdwardsPoint::IDENTITY.to_projective();
    for i in (0..=top).rev() {
        let mut t = r.double();
        for (naf, table) in [(&naf1, &t1), (&naf2, &t2)] {
            let d = naf[i];
            if d > 0 {
                t = t.to_extended().add_niels(&table[(d / 2) as usize]);
            } else if d < 0 {
                t = t.to_extended().sub_niels(&table[(-d / 2) as usize]);
            }
        }
        for (naf, table) in [(&naf_lo, tb), (&naf_hi, tb128)] {
            let d = naf[i];
            if d > 0 {
                t = t.to_extended().add_affine_niels(&table[(d / 2) as usize]);
            } else if d < 0 {
                t = t.to_extended().sub_affine_niels(&table[(-d / 2) as usize]);
            }
        }
        r = t.to_projective();
    }
    // The identity is (0 : Z : Z).
    bool::from(r.x.is_zero() & r.y.ct_eq(&r.z))
}

/// Odd multiples P, 3P, ..., (2N − 1)P in projective Niels form (N = 2^(w−2) for width-w
/// wNAF), on the stack.
fn odd_multiples<const N: usize>(p: &EdwardsPoint) -> [ProjectiveNiels; N] {
    let p2 = p.double().to_projective_niels();
    let mut q = *p;
    core::array::from_fn(|i| {
        if i > 0 {
            q = q.add_niels(&p2).to_extended();
        }
        q.to_projective_niels()
    })
}

/// [a]A + [b]B for public scalars (verification). Variable time: width-5 wNAF for A,
/// width-10 wNAF with the precomputed odd multiples for B, interleaved (Straus–Shamir);
/// on the AVX-512 IFMA lanes where the CPU has them, like every other verification equation.
pub(crate) fn double_scalar_mul_basepoint_vartime(
    a: &Scalar,
    point_a: &EdwardsPoint,
    b: &Scalar,
) -> EdwardsPoint {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(cpu) = crate::edwards_x4::lane_cpu() {
        return crate::edwards_x4::double_scalar_mul_basepoint_vartime(cpu, a, point_a, b);
    }
    let naf_a = wnaf_vartime(&a.to_le_bytes(), 5);
    let naf_b = wnaf_vartime(&b.to_le_bytes(), BASE_WNAF_WIDTH);
    let table_a: [ProjectiveNiels; 8] = odd_multiples(point_a);
    let table_b = base_odd_multiples();
    let top = (0..257)
        .rev()
        .find(|&i| naf_a[i] != 0 || naf_b[i] != 0)
        .unwrap_or(0);
    let mut r = EdwardsPoint::IDENTITY.to_projective();
    for i in (0..=top).rev() {
        let mut t = r.double();
        let da = naf_a[i];
        if da > 0 {
            t = t.to_extended().add_niels(&table_a[(da / 2) as usize]);
        } else if da < 0 {
            t = t.to_extended().sub_niels(&table_a[(-da / 2) as usize]);
        }
        let db = naf_b[i];
        if db > 0 {
            t = t
                .to_extended()
                .add_affine_niels(&table_b[(db / 2) as usize]);
        } else if db < 0 {
            t = t
                .to_extended()
                .sub_affine_niels(&table_b[(-db / 2) as usize]);
        }
        r = t.to_projective();
    }
    // Back to extended coordinates: (X·Z, Y·Z, Z², X·Y) represents the same point.
    EdwardsPoint {
        x: r.x * r.z,
        y: r.y * r.z,
        z: r.z.square(),
        t: r.x * r.y,
    }
}

/// [base]B + Σ scalars_i·points_i, variable time. Straus (interleaved wNAF) below 190
/// terms, Pippenger's bucket method above, where its cost per point stops growing with the
/// window (Bernstein, Doumen, Lange, Oosterwijk, "Faster batch forgery identification",
/// INDOCRYPT 2012, §4). Needs `alloc`: the number of terms is known only at run time.
#[cfg(feature = "alloc")]
pub(crate) fn multiscalar_mul_vartime(
    base: &Scalar,
    scalars: &[Scalar],
    points: &[EdwardsPoint],
) -> EdwardsPoint {
    debug_assert_eq!(scalars.len(), points.len());
    if scalars.len() + 1 < 190 {
        straus_vartime(Some(base), scalars, points)
    } else {
        let mut s = Vec::with_capacity(scalars.len() + 1);
        s.push(*base);
        s.extend_from_slice(scalars);
        let mut p = Vec::with_capacity(points.len() + 1);
        p.push(basepoint());
        p.extend_from_slice(points);
        pippenger_vartime(&s, &p)
    }
}

/// Straus's interleaved multi-scalar multiplication: width-5 wNAF over per-call tables of
/// 8 odd multiples for each point, and, for the optional base-point scalar, width-10 wNAF
/// over the precomputed affine table of B. Needs `alloc` (one table per point).
#[cfg(feature = "alloc")]
pub(crate) fn straus_vartime(
    base: Option<&Scalar>,
    scalars: &[Scalar],
    points: &[EdwardsPoint],
) -> EdwardsPoint {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(cpu) = crate::edwards_x4::lane_cpu() {
        return crate::edwards_x4::straus_vartime(cpu, base, scalars, points);
    }
    let nafs: Vec<[i16; 257]> = scalars
        .iter()
        .map(|s| wnaf_vartime(&s.to_le_bytes(), 5))
        .collect();
    let naf_b = base.map(|b| wnaf_vartime(&b.to_le_bytes(), BASE_WNAF_WIDTH));
    let tb = base_odd_multiples();
    let tables: Vec<[ProjectiveNiels; 8]> = points.iter().map(odd_multiples).collect();
    let top = (0..257)
        .rev()
        .find(|&i| nafs.iter().any(|n| n[i] != 0) || naf_b.as_ref().is_some_and(|n| n[i] != 0));
    let Some(top) = top else {
        return EdwardsPoint::IDENTITY;
    };
    let mut r = EdwardsPoint::IDENTITY.to_projective();
    for i in (0..=top).rev() {
        let mut t = r.double();
        for (naf, table) in nafs.iter().zip(&tables) {
            let d = naf[i];
            if d > 0 {
                t = t.to_extended().add_niels(&table[(d / 2) as usize]);
            } else if d < 0 {
                t = t.to_extended().sub_niels(&table[(-d / 2) as usize]);
            }
        }
        if let Some(naf) = &naf_b {
            let d = naf[i];
            if d > 0 {
                t = t.to_extended().add_affine_niels(&tb[(d / 2) as usize]);
            } else if d < 0 {
                t = t.to_extended().sub_affine_niels(&tb[(-d / 2) as usize]);
            }
        }
        r = t.to_projective();
    }
    EdwardsPoint {
        x: r.x * r.z,
        y: r.y * r.z,
        z: r.z.square(),
        t: r.x * r.y,
    }
}

/// Pippenger's bucket method with signed radix-2^c digits; c grows with the number of terms.
/// Needs `alloc`.
#[cfg(feature = "alloc")]
pub(crate) fn pippenger_vartime(scalars: &[Scalar], points: &[EdwardsPoint]) -> EdwardsPoint {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(cpu) = crate::edwards_x4::lane_cpu() {
        return crate::edwards_x4::pippenger_vartime(cpu, scalars, points);
    }
    let n = scalars.len();
    let c: u32 = if n < 500 {
        6
    } else if n < 800 {
        7
    } else {
        8
    };
    let digits: Vec<Vec<i32>> = scalars
        .iter()
        .map(|s| radix_2c_vartime(&s.to_le_bytes(), c as usize))
        .collect();
    let niels: Vec<ProjectiveNiels> = points.iter().map(|p| p.to_projective_niels()).collect();
    let windows = digits.first().map_or(0, Vec::len);
    let buckets_len = 1usize << (c - 1);
    let mut acc = EdwardsPoint::IDENTITY;
    for w in (0..windows).rev() {
        acc = acc.mul_by_pow2(c);
        let mut buckets = vec![EdwardsPoint::IDENTITY; buckets_len];
        for (ds, p) in digits.iter().zip(&niels) {
            let d = ds[w];
            if d > 0 {
                let b = &mut buckets[(d - 1) as usize];
                *b = b.add_niels(p).to_extended();
            } else if d < 0 {
                let b = &mut buckets[(-d - 1) as usize];
                *b = b.sub_niels(p).to_extended();
            }
        }
        // Σ k·bucket_k as running sums from the top bucket down.
        let mut running = EdwardsPoint::IDENTITY;
        let mut sum = EdwardsPoint::IDENTITY;
        for b in buckets.iter().rev() {
            running = running.add(b);
            sum = sum.add(&running);
        }
        acc = acc.add(&sum);
    }
    acc
}

/// [s]P for a public scalar, variable time (tests only): the double-scalar code with a zero
/// base-point scalar, which needs no allocator.
#[cfg(test)]
pub(crate) fn mul_vartime(s: &Scalar, p: &EdwardsPoint) -> EdwardsPoint {
    double_scalar_mul_basepoint_vartime(s, p, &Scalar::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::scalar_from_bytes_mod_order;

    fn scalar(k: u64) -> Scalar {
        Scalar::from_u64(k)
    }

    #[test]
    fn base_point_constant_is_the_decompressed_4_over_5() {
        // B from its definition: y = 4/5, x even (RFC 8032 §5.1).
        let y = Fe::from_u64(4) * Fe::from_u64(5).invert().unwrap();
        let d = EdwardsPoint::decompress(&y.to_le_bytes()).expect("4/5 is on the curve");
        let b = basepoint();
        assert_eq!(b.compress(), d.compress());
        assert_eq!(b.t, b.x * b.y);
        assert_eq!(b.z, Fe::ONE);
    }

    #[test]
    fn base_point_encoding_matches_rfc8032() {
        // RFC 8032 §5.1: B's encoding is y = 4/5 with the sign bit 0; its x is
        // 15112221349535400772501151409588531511454012693041857206046113283949847762202.
        let b = basepoint();
        let (x, _) = b.to_affine();
        let mut expected = [0u8; 32];
        let dec = "15112221349535400772501151409588531511454012693041857206046113283949847762202";
        // Decimal to little-endian bytes.
        for ch in dec.bytes() {
            let mut carry = u32::from(ch - b'0');
            for byte in expected.iter_mut() {
                let v = u32::from(*byte) * 10 + carry;
                *byte = v.to_le_bytes()[0];
                carry = v >> 8;
            }
        }
        assert_eq!(x.to_le_bytes(), expected);
        // l·B = identity, (l−1)·B = −B.
        let l_minus_1 = -Scalar::ONE;
        assert!(bool::from(mul_vartime(&l_minus_1, &b).ct_eq(&b.neg())));
    }

    #[test]
    fn signed_table_lookup_matches_scalar_multiples() {
        // Every digit e in [−8, 8] of a few rows: the entry read in constant time, added to
        // the identity, is [e·256^j]B computed by the variable-time Straus code.
        let table = base_table();
        for j in [0usize, 1, 17, 31] {
            let mut row_scalar = Scalar::ONE;
            for _ in 0..j {
                row_scalar *= scalar(256);
            }
            for e in -8i8..=8 {
                let got = EdwardsPoint::IDENTITY
                    .add_affine_niels(&select_signed(&table[j], e))
                    .to_extended();
                let k = if e < 0 {
                    -(row_scalar * scalar(u64::from(e.unsigned_abs())))
                } else {
                    row_scalar * scalar(e as u64)
                };
                let want = mul_vartime(&k, &basepoint());
                assert!(bool::from(got.ct_eq(&want)), "row {j}, digit {e}");
            }
        }
    }

    #[test]
    fn fixed_base_matches_double_and_add() {
        let b = basepoint();
        for k in [0u64, 1, 2, 3, 7, 8, 9, 15, 16, 255, 256, 1 << 40, u64::MAX] {
            let s = scalar(k);
            let mut naive = EdwardsPoint::IDENTITY;
            for bit in (0..64).rev() {
                naive = naive.double();
                if (k >> bit) & 1 == 1 {
                    naive = naive.add(&b);
                }
            }
            assert!(bool::from(mul_base(&s).ct_eq(&naive)), "k = {k}");
            assert!(bool::from(mul_vartime(&s, &b).ct_eq(&naive)), "k = {k}");
        }
        let big = scalar_from_bytes_mod_order(&[0xa5; 32]);
        assert!(bool::from(mul_base(&big).ct_eq(&mul_vartime(&big, &b))));
        let neg = -Scalar::ONE;
        assert!(bool::from(mul_base(&neg).ct_eq(&b.neg())));
    }

    #[test]
    #[cfg(feature = "alloc")]
    fn decompress_many_matches_decompress() {
        // Valid points, the identity, a y with no curve point (2), non-canonical y = p and
        // p + 1, x = 0 with the sign bit set, and every batch length up to 11.
        let mut encs: Vec<[u8; 32]> = (1..8u64)
            .map(|k| mul_base(&scalar(k * 7919)).compress())
            .collect();
        encs.push(IDENTITY_ENCODING);
        let mut two = [0u8; 32];
        two[0] = 2;
        encs.push(two);
        let mut p = Fe::MODULUS_LE_BYTES;
        encs.push(p);
        p[0] += 1;
        encs.push(p);
        let mut neg_zero = IDENTITY_ENCODING;
        neg_zero[31] |= 0x80;
        encs.push(neg_zero);
        let mut flipped = encs[0];
        flipped[31] ^= 0x80;
        encs.push(flipped);
        for len in 0..=encs.len() {
            let many = EdwardsPoint::decompress_many(&encs[..len]);
            assert_eq!(many.len(), len);
            for (e, got) in encs.iter().zip(&many) {
                match (EdwardsPoint::decompress(e), got) {
                    (None, None) => {}
                    (Some(a), Some(b)) => {
                        assert!(bool::from(a.ct_eq(b)));
                        assert_eq!(b.compress(), *e);
                    }
                    _ => panic!("decompress and decompress_many disagree on {e:?}"),
                }
            }
        }
        assert!(EdwardsPoint::decompress(&two).is_none());
        assert!(EdwardsPoint::decompress(&neg_zero).is_none());
    }

    #[test]
    #[cfg(feature = "alloc")]
    fn msm_agree() {
        let b = basepoint();
        let n = 200;
        let points: Vec<EdwardsPoint> = (0..n)
            .map(|i| mul_base(&scalar(3 * i as u64 + 11)))
            .collect();
        let scalars: Vec<Scalar> = (0..n)
            .map(|i| {
                scalar_from_bytes_mod_order(&[u8::try_from(i).unwrap().wrapping_mul(37) ^ 0x5c; 32])
            })
            .collect();
        let a = straus_vartime(None, &scalars, &points);
        let p = pippenger_vartime(&scalars, &points);
        assert!(bool::from(a.ct_eq(&p)));
        // Σ s_i·(3i + 11)·B, computed in the scalar field.
        let mut total = Scalar::ZERO;
        for (i, s) in scalars.iter().enumerate() {
            total += s * scalar(3 * i as u64 + 11);
        }
        assert!(bool::from(a.ct_eq(&mul_base(&total))));
        // With a base-point term: Straus with B's static table, and Pippenger (over 190
        // terms) with B appended, against [Σ s_i·(3i + 11) + x]B.
        let x = scalar_from_bytes_mod_order(&[0x3c; 32]);
        let expect = mul_base(&(total + x));
        let sb = straus_vartime(Some(&x), &scalars, &points);
        assert!(bool::from(sb.ct_eq(&expect)));
        assert!(bool::from(
            multiscalar_mul_vartime(&x, &scalars, &points).ct_eq(&expect)
        ));
        let few = multiscalar_mul_vartime(&x, &scalars[..5], &points[..5]);
        let mut t5 = x;
        for (i, s) in scalars[..5].iter().enumerate() {
            t5 += s * scalar(3 * i as u64 + 11);
        }
        assert!(bool::from(few.ct_eq(&mul_base(&t5))));
        let _ = b;
    }

    #[test]
    fn double_scalar_matches_fixed_base() {
        // [a]P + [b]B with P = 14·B against the fixed-base [14a + b]B (no allocator needed).
        let p = mul_base(&scalar(14));
        for (i, j) in [(0u8, 2u8), (1, 7), (0x5c, 0xa3), (0xff, 0)] {
            let a = scalar_from_bytes_mod_order(&[i; 32]);
            let b = scalar_from_bytes_mod_order(&[j; 32]);
            let ab = double_scalar_mul_basepoint_vartime(&a, &p, &b);
            let expect = mul_base(&(a * scalar(14) + b));
            assert!(bool::from(ab.ct_eq(&expect)), "{i:#x}, {j:#x}");
        }
    }
}
