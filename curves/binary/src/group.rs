//! The group law of y² + xy = x³ + a·x² + b over any [`BinaryField`] GF(2^m), a ∈ {0, 1}.
//!
//! Points are kept in López–Dahab projective coordinates (X : Y : Z), x = X/Z, y = Y/Z²
//! (López and Dahab, "Improved algorithms for elliptic curve arithmetic in GF(2^n)", SAC 1998;
//! Hankerson, Menezes and Vanstone, *Guide to Elliptic Curve Cryptography*, §3.2.3), the
//! identity being any triple with Z = 0, canonically (1 : 0 : 0). The curve equation becomes
//! Y² + XYZ = X³Z + aX²Z² + bZ⁴.
//!
//! - doubling: 4M + 5S (3M when b = 1), Guide eq. (3.25);
//! - mixed addition (Z2 = 1): 9M + 5S, Guide Algorithm 3.25 / Al-Daboul–López–Dahab;
//! - general addition: λ = A/C with A = Y1·Z2² + Y2·Z1², B = X1·Z2 + X2·Z1, C = Z1·Z2·B gives
//!   X3 = A² + A·C + B²·C + a·C², Z3 = C², Y3 = A·C·(X1·Z2·B·C + X3) + X3·Z3 + Y1·Z3·(Z2·B)²
//!   (the affine chord rule x3 = λ² + λ + x1 + x2 + a, y3 = λ(x1 + x3) + x3 + y1 cleared of
//!   denominators).
//!
//! Scalar multiplication: the constant-time x-only Montgomery ladder of López and Dahab
//! ("Fast multiplication on elliptic curves over GF(2^m) without precomputation", CHES 1999)
//! with their y recovery; a constant-time fixed-window table of a fixed base; variable-time
//! width-w NAF and interleaved double multiplication (Guide Algorithms 3.36 and 3.51) for
//! public scalars. The constant-time paths branch on nothing secret: special cases (identity,
//! P = Q, a point of order 2) are computed and selected with `subtle`.

use alloc::vec::Vec;
use core::fmt;
use core::ops::{Add, Neg, Sub};

use fieldgen_field::{BinaryField, Field};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

/// The constants of one curve y² + xy = x³ + a·x² + b over GF(2^m), a ∈ {0, 1}
/// (every SEC 2 binary curve; over odd m any a is equivalent to Tr(a) ∈ {0, 1} up to
/// isomorphism). Implemented by a zero-sized marker type per curve.
///
/// The implementer guarantees that b ≠ 0, that `B_IS_ONE` says whether b = 1, and that the
/// generator lies on the curve (the curve tests check each).
pub trait BinaryCurve: Copy + Clone + fmt::Debug + Default + Send + Sync + 'static {
    /// GF(2^m).
    type Base: BinaryField;
    /// A short name for messages ("sect283k1").
    const NAME: &'static str;
    /// Whether a = 1 (else a = 0).
    const A_IS_ONE: bool;
    /// The coefficient b (a6 in the IEEE 1363 notation).
    const B: Self::Base;
    /// Whether b = 1 (the Koblitz curves), which saves a multiplication per doubling.
    const B_IS_ONE: bool;
    /// Affine x of the base point.
    const GENERATOR_X: Self::Base;
    /// Affine y of the base point.
    const GENERATOR_Y: Self::Base;
    /// The cofactor h (1 when the order of the group is not known, as for the 1996 curve).
    const COFACTOR: u64;

    /// The coefficient a as a field element.
    #[inline(always)]
    fn a() -> Self::Base {
        if Self::A_IS_ONE {
            Self::Base::ONE
        } else {
            Self::Base::ZERO
        }
    }

    /// b·x, free when b = 1.
    #[inline(always)]
    fn mul_by_b(x: &Self::Base) -> Self::Base {
        if Self::B_IS_ONE {
            *x
        } else {
            Self::B * *x
        }
    }
}

/// A point in affine coordinates (x, y), or the identity (`infinity` set, x = y = 0).
#[derive(Clone, Copy)]
pub struct AffinePoint<C: BinaryCurve> {
    /// x, in GF(2^m).
    pub x: C::Base,
    /// y, in GF(2^m).
    pub y: C::Base,
    /// Whether this is the point at infinity.
    pub infinity: Choice,
}

/// A point in López–Dahab coordinates (X : Y : Z), x = X/Z, y = Y/Z²; Z = 0 is the identity.
#[derive(Clone, Copy)]
pub struct ProjectivePoint<C: BinaryCurve> {
    x: C::Base,
    y: C::Base,
    z: C::Base,
}

impl<C: BinaryCurve> fmt::Debug for AffinePoint<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if bool::from(self.infinity) {
            write!(f, "{}::Affine(infinity)", C::NAME)
        } else {
            write!(f, "{}::Affine({:?}, {:?})", C::NAME, self.x, self.y)
        }
    }
}

impl<C: BinaryCurve> fmt::Debug for ProjectivePoint<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_affine())
    }
}

impl<C: BinaryCurve> AffinePoint<C> {
    /// The point at infinity.
    pub fn identity() -> Self {
        AffinePoint {
            x: C::Base::ZERO,
            y: C::Base::ZERO,
            infinity: Choice::from(1),
        }
    }

    /// The curve's base point.
    pub fn generator() -> Self {
        AffinePoint {
            x: C::GENERATOR_X,
            y: C::GENERATOR_Y,
            infinity: Choice::from(0),
        }
    }

    /// (x, y) when it satisfies the curve equation; none otherwise. Constant time.
    pub fn from_xy(x: C::Base, y: C::Base) -> CtOption<Self> {
        let p = AffinePoint {
            x,
            y,
            infinity: Choice::from(0),
        };
        CtOption::new(p, p.is_on_curve())
    }

    /// Whether y² + xy = x³ + ax² + b (true for the identity).
    pub fn is_on_curve(&self) -> Choice {
        let x2 = self.x.square();
        let lhs = self.y.square() + self.x * self.y;
        let mut rhs = x2 * self.x + C::B;
        if C::A_IS_ONE {
            rhs += x2;
        }
        lhs.ct_eq(&rhs) | self.infinity
    }

    /// Whether this is the identity.
    pub fn is_identity(&self) -> Choice {
        self.infinity
    }

    /// τ(x, y) = (x², y²), the Frobenius map; the identity maps to itself. An endomorphism of
    /// the curve when a, b ∈ GF(2) (the Koblitz curves; see [`crate::tnaf`]). Constant time.
    pub fn frobenius(&self) -> Self {
        AffinePoint {
            x: self.x.square(),
            y: self.y.square(),
            infinity: self.infinity,
        }
    }

    /// López–Dahab (x : y : 1), or (1 : 0 : 0) for the identity.
    pub fn to_projective(&self) -> ProjectivePoint<C> {
        let p = ProjectivePoint {
            x: self.x,
            y: self.y,
            z: C::Base::ONE,
        };
        ProjectivePoint::conditional_select(&p, &ProjectivePoint::IDENTITY, self.infinity)
    }
}

impl<C: BinaryCurve> ConditionallySelectable for AffinePoint<C> {
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        AffinePoint {
            x: C::Base::conditional_select(&a.x, &b.x, choice),
            y: C::Base::conditional_select(&a.y, &b.y, choice),
            infinity: Choice::conditional_select(&a.infinity, &b.infinity, choice),
        }
    }
}

impl<C: BinaryCurve> ConstantTimeEq for AffinePoint<C> {
    fn ct_eq(&self, other: &Self) -> Choice {
        (self.infinity & other.infinity)
            | (!self.infinity & !other.infinity & self.x.ct_eq(&other.x) & self.y.ct_eq(&other.y))
    }
}

impl<C: BinaryCurve> PartialEq for AffinePoint<C> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}
impl<C: BinaryCurve> Eq for AffinePoint<C> {}

impl<C: BinaryCurve> Neg for AffinePoint<C> {
    type Output = Self;
    /// −(x, y) = (x, x + y).
    fn neg(self) -> Self {
        let y = C::Base::conditional_select(&(self.x + self.y), &self.y, self.infinity);
        AffinePoint { y, ..self }
    }
}

impl<C: BinaryCurve> Default for AffinePoint<C> {
    fn default() -> Self {
        Self::identity()
    }
}

impl<C: BinaryCurve> ConditionallySelectable for ProjectivePoint<C> {
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        ProjectivePoint {
            x: C::Base::conditional_select(&a.x, &b.x, choice),
            y: C::Base::conditional_select(&a.y, &b.y, choice),
            z: C::Base::conditional_select(&a.z, &b.z, choice),
        }
    }
}

impl<C: BinaryCurve> ConstantTimeEq for ProjectivePoint<C> {
    /// Equality of the points: X1·Z2 = X2·Z1 and Y1·Z2² = Y2·Z1², or both the identity.
    fn ct_eq(&self, other: &Self) -> Choice {
        let (i1, i2) = (self.is_identity(), other.is_identity());
        let z1z1 = self.z.square();
        let z2z2 = other.z.square();
        let same = (self.x * other.z).ct_eq(&(other.x * self.z))
            & (self.y * z2z2).ct_eq(&(other.y * z1z1));
        (i1 & i2) | (!i1 & !i2 & same)
    }
}

impl<C: BinaryCurve> PartialEq for ProjectivePoint<C> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}
impl<C: BinaryCurve> Eq for ProjectivePoint<C> {}

impl<C: BinaryCurve> Default for ProjectivePoint<C> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<C: BinaryCurve> From<AffinePoint<C>> for ProjectivePoint<C> {
    fn from(p: AffinePoint<C>) -> Self {
        p.to_projective()
    }
}

impl<C: BinaryCurve> ProjectivePoint<C> {
    /// The identity (1 : 0 : 0).
    pub const IDENTITY: Self = ProjectivePoint {
        x: C::Base::ONE,
        y: C::Base::ZERO,
        z: C::Base::ZERO,
    };

    /// The base point (Gx : Gy : 1).
    pub const GENERATOR: Self = ProjectivePoint {
        x: C::GENERATOR_X,
        y: C::GENERATOR_Y,
        z: C::Base::ONE,
    };

    /// The raw coordinates (X, Y, Z).
    pub fn coordinates(&self) -> (C::Base, C::Base, C::Base) {
        (self.x, self.y, self.z)
    }

    /// Whether Z = 0.
    pub fn is_identity(&self) -> Choice {
        self.z.is_zero()
    }

    /// (x, y) = (X/Z, Y/Z²): one constant-time inversion.
    pub fn to_affine(&self) -> AffinePoint<C> {
        let zinv = self.z.invert().unwrap_or(C::Base::ZERO);
        Self::affine_with_inverse(self, &zinv)
    }

    fn affine_with_inverse(p: &Self, zinv: &C::Base) -> AffinePoint<C> {
        let infinity = p.z.is_zero();
        AffinePoint {
            x: C::Base::conditional_select(&(p.x * *zinv), &C::Base::ZERO, infinity),
            y: C::Base::conditional_select(&(p.y * zinv.square()), &C::Base::ZERO, infinity),
            infinity,
        }
    }

    /// Batch normalisation: every point to affine with one inversion (Montgomery's trick,
    /// [`Field::batch_invert`]). `out` must have the length of `points`; otherwise only the
    /// common prefix is written.
    pub fn batch_to_affine(points: &[Self], out: &mut [AffinePoint<C>]) {
        let mut zs: Vec<C::Base> = points.iter().map(|p| p.z).collect();
        C::Base::batch_invert(&mut zs);
        for ((p, zinv), o) in points.iter().zip(&zs).zip(out.iter_mut()) {
            *o = Self::affine_with_inverse(p, zinv);
        }
    }

    /// Whether Y² + XYZ = X³Z + aX²Z² + bZ⁴ (true for the identity).
    pub fn is_on_curve(&self) -> Choice {
        let zz = self.z.square();
        let xx = self.x.square();
        let lhs = self.y.square() + self.x * self.y * self.z;
        let mut rhs = xx * self.x * self.z + C::mul_by_b(&zz.square());
        if C::A_IS_ONE {
            rhs += xx * zz;
        }
        lhs.ct_eq(&rhs) | self.is_identity()
    }

    /// 2P: Z3 = X1²·Z1², X3 = X1⁴ + b·Z1⁴, Y3 = b·Z1⁴·Z3 + X3·(a·Z3 + Y1² + b·Z1⁴)
    /// (Guide eq. 3.25). Complete: the identity and points of order 2 (X = 0) give Z3 = 0.
    pub fn double(&self) -> Self {
        let xx = self.x.square();
        let zz = self.z.square();
        let z3 = xx * zz;
        let bz4 = C::mul_by_b(&zz.square());
        let x3 = xx.square() + bz4;
        let mut t = self.y.square() + bz4;
        if C::A_IS_ONE {
            t += z3;
        }
        let y3 = bz4 * z3 + x3 * t;
        ProjectivePoint {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// τ(X : Y : Z) = (X² : Y² : Z²), the Frobenius map in López–Dahab coordinates (x = X/Z
    /// and y = Y/Z² are squared); the identity maps to itself. An endomorphism of the curve
    /// when a, b ∈ GF(2) (the Koblitz curves; see [`crate::tnaf`]). Constant time.
    pub fn frobenius(&self) -> Self {
        ProjectivePoint {
            x: self.x.square(),
            y: self.y.square(),
            z: self.z.square(),
        }
    }

    /// −P = (X : Y + X·Z : Z).
    pub fn negate(&self) -> Self {
        ProjectivePoint {
            x: self.x,
            y: self.y + self.x * self.z,
            z: self.z,
        }
    }

    /// P + Q for an affine Q, without special cases: valid when P and Q are finite and
    /// P ≠ ±Q (P = −Q gives Z3 = 0, the identity, correctly). Guide Algorithm 3.25:
    /// A = y2·Z1² + Y1, B = x2·Z1 + X1, C = Z1·B, D = B²·(C + a·Z1²), Z3 = C², E = A·C,
    /// X3 = A² + D + E, F = X3 + x2·Z3, G = (x2 + y2)·Z3², Y3 = (E + Z3)·F + G.
    /// Returns the sum and the two values whose vanishing flags P = Q (A = B = 0).
    #[inline]
    fn add_mixed_raw(&self, q: &AffinePoint<C>) -> (Self, C::Base, C::Base) {
        let z1z1 = self.z.square();
        let a = q.y * z1z1 + self.y;
        let b = q.x * self.z + self.x;
        let c = self.z * b;
        let mut ca = c;
        if C::A_IS_ONE {
            ca += z1z1;
        }
        let d = b.square() * ca;
        let z3 = c.square();
        let e = a * c;
        let x3 = a.square() + d + e;
        let f = x3 + q.x * z3;
        let g = (q.x + q.y) * z3.square();
        let y3 = (e + z3) * f + g;
        (
            ProjectivePoint {
                x: x3,
                y: y3,
                z: z3,
            },
            a,
            b,
        )
    }

    /// P + Q for an affine Q, complete and constant time: the identity on either side and
    /// P = Q (a doubling) are computed and selected.
    pub fn add_mixed(&self, q: &AffinePoint<C>) -> Self {
        let (sum, a, b) = self.add_mixed_raw(q);
        let qp = q.to_projective();
        let same = a.is_zero() & b.is_zero() & !self.is_identity();
        let mut r = Self::conditional_select(&sum, &qp.double(), same);
        r = Self::conditional_select(&r, &qp, self.is_identity());
        Self::conditional_select(&r, self, q.infinity)
    }

    /// P + Q for an affine Q when P ≠ Q is known (P = −Q, the identity on either side are
    /// handled), constant time: [`ProjectivePoint::add_mixed`] without the doubling.
    fn add_mixed_distinct(&self, q: &AffinePoint<C>) -> Self {
        let (sum, _, _) = self.add_mixed_raw(q);
        let r = Self::conditional_select(&sum, &q.to_projective(), self.is_identity());
        Self::conditional_select(&r, self, q.infinity)
    }

    /// [`ProjectivePoint::add_mixed`] for public points: branches instead of selects.
    pub fn add_mixed_vartime(&self, q: &AffinePoint<C>) -> Self {
        if bool::from(q.infinity) {
            return *self;
        }
        if bool::from(self.is_identity()) {
            return q.to_projective();
        }
        let (sum, a, b) = self.add_mixed_raw(q);
        if bool::from(b.is_zero()) {
            return if bool::from(a.is_zero()) {
                q.to_projective().double()
            } else {
                Self::IDENTITY
            };
        }
        sum
    }

    /// P + Q in projective coordinates (the formulas in the module docs), complete and
    /// constant time.
    pub fn add_point(&self, q: &Self) -> Self {
        let z1z1 = self.z.square();
        let z2z2 = q.z.square();
        let a = self.y * z2z2 + q.y * z1z1;
        let u1 = self.x * q.z;
        let b = u1 + q.x * self.z;
        let z2b = q.z * b;
        let c = self.z * z2b;
        let z3 = c.square();
        let ac = a * c;
        let mut x3 = a.square() + ac + b.square() * c;
        if C::A_IS_ONE {
            x3 += z3;
        }
        let y3 = ac * (u1 * b * c + x3) + x3 * z3 + self.y * z3 * z2b.square();
        let sum = ProjectivePoint {
            x: x3,
            y: y3,
            z: z3,
        };
        let (i1, i2) = (self.is_identity(), q.is_identity());
        let same = a.is_zero() & b.is_zero() & !i1 & !i2;
        let mut r = Self::conditional_select(&sum, &self.double(), same);
        r = Self::conditional_select(&r, q, i1);
        Self::conditional_select(&r, self, i2)
    }

    /// k·P for k given as little-endian bytes, constant time in k and P for a given length
    /// of k: the López–Dahab ladder over 8·len(k) bits.
    pub fn mul_le_bytes(&self, k: &[u8]) -> Self {
        ladder(&self.to_affine(), k, 8 * k.len())
    }

    /// k·P for a public k (little-endian bytes): width-5 NAF, variable time.
    pub fn mul_le_bytes_vartime(&self, k: &[u8]) -> Self {
        let mut table = [AffinePoint::identity(); 8];
        odd_multiples(self, &mut table);
        let naf = wnaf(k, 5);
        let mut acc = Self::IDENTITY;
        for &d in naf.iter().rev() {
            acc = acc.double();
            acc = add_digit(&acc, &table, d);
        }
        acc
    }

    /// a·self + b·Q for public a, b (little-endian bytes) and points: interleaved width-5
    /// NAF (Straus–Shamir, Guide Algorithm 3.51), variable time.
    pub fn double_mul_vartime(&self, a: &[u8], q: &Self, b: &[u8]) -> Self {
        let mut ta = [AffinePoint::identity(); 8];
        odd_multiples(self, &mut ta);
        double_mul_with_table_vartime(&ta, 5, a, q, b)
    }
}

/// The odd multiples P, 3P, …, (2·len − 1)P in affine form (one batch inversion).
pub fn odd_multiples<C: BinaryCurve>(p: &ProjectivePoint<C>, out: &mut [AffinePoint<C>]) {
    let n = out.len();
    let mut proj = Vec::with_capacity(n);
    proj.push(*p);
    let p2 = p.double();
    for i in 1..n {
        let next = proj[i - 1].add_point(&p2);
        proj.push(next);
    }
    ProjectivePoint::batch_to_affine(&proj, out);
}

/// a·T₀ + b·Q where `ta` holds the odd multiples of the first point for width `wa`; Q's
/// table is built here at width 5. Variable time.
pub fn double_mul_with_table_vartime<C: BinaryCurve>(
    ta: &[AffinePoint<C>],
    wa: u32,
    a: &[u8],
    q: &ProjectivePoint<C>,
    b: &[u8],
) -> ProjectivePoint<C> {
    let mut tb = [AffinePoint::identity(); 8];
    odd_multiples(q, &mut tb);
    let na = wnaf(a, wa);
    let nb = wnaf(b, 5);
    let len = na.len().max(nb.len());
    let mut acc = ProjectivePoint::IDENTITY;
    for i in (0..len).rev() {
        acc = acc.double();
        if let Some(&d) = na.get(i) {
            acc = add_digit(&acc, ta, d);
        }
        if let Some(&d) = nb.get(i) {
            acc = add_digit(&acc, &tb, d);
        }
    }
    acc
}

fn add_digit<C: BinaryCurve>(
    acc: &ProjectivePoint<C>,
    table: &[AffinePoint<C>],
    d: i8,
) -> ProjectivePoint<C> {
    match d {
        0 => *acc,
        d if d > 0 => acc.add_mixed_vartime(&table[(d as usize) / 2]),
        d => acc.add_mixed_vartime(&-table[(-d as usize) / 2]),
    }
}

/// The width-w NAF of a little-endian integer (Guide Algorithm 3.35): digits in
/// (−2^(w−1), 2^(w−1)), odd or zero, least significant first. Variable time.
///
/// `w` is taken in 2..=8, the widths whose digits fit `i8`; a width outside is clamped to it
/// (the digits still sum to k, at the nearest valid width).
#[allow(
    clippy::cast_possible_truncation,
    reason = "a digit lies in (−2^(w−1), 2^(w−1)) with w clamped to 2..=8: it fits i8"
)]
pub fn wnaf(k: &[u8], w: u32) -> Vec<i8> {
    let w = w.clamp(2, 8);
    // Little-endian 64-bit words with one spare word for the carries.
    let mut words = alloc::vec![0u64; k.len().div_ceil(8) + 1];
    for (i, &b) in k.iter().enumerate() {
        words[i / 8] |= (b as u64) << (8 * (i % 8));
    }
    let bits = 64 * words.len();
    let mut out = Vec::with_capacity(bits + 1);
    let window = 1u64 << w;
    let mut i = 0;
    while i < bits {
        let bit = (words[i / 64] >> (i % 64)) & 1;
        if bit == 0 {
            out.push(0);
            i += 1;
            continue;
        }
        // The w bits starting at i.
        let mut v = words[i / 64] >> (i % 64);
        if i % 64 + (w as usize) > 64 && i / 64 + 1 < words.len() {
            v |= words[i / 64 + 1] << (64 - i % 64);
        }
        v &= window - 1;
        let d: i64 = if v >= window / 2 {
            v as i64 - window as i64
        } else {
            v as i64
        };
        out.push(d as i8);
        // k -= d·2^i (adds when d < 0), then the next w − 1 digits are zero.
        if d > 0 {
            sub_at(&mut words, i, d as u64);
        } else {
            add_at(&mut words, i, (-d) as u64);
        }
        out.resize(out.len() + w as usize - 1, 0);
        i += w as usize;
    }
    while out.last() == Some(&0) {
        out.pop();
    }
    out
}

fn add_at(words: &mut [u64], bit: usize, v: u64) {
    let (wi, sh) = (bit / 64, bit % 64);
    let lo = v << sh;
    let hi = if sh == 0 { 0 } else { v >> (64 - sh) };
    let mut carry;
    let (s, c) = words[wi].overflowing_add(lo);
    words[wi] = s;
    carry = c as u64;
    let mut j = wi + 1;
    let mut add = hi;
    while j < words.len() && (add != 0 || carry != 0) {
        let (s1, c1) = words[j].overflowing_add(add);
        let (s2, c2) = s1.overflowing_add(carry);
        words[j] = s2;
        carry = (c1 | c2) as u64;
        add = 0;
        j += 1;
    }
}

fn sub_at(words: &mut [u64], bit: usize, v: u64) {
    let (wi, sh) = (bit / 64, bit % 64);
    let lo = v << sh;
    let hi = if sh == 0 { 0 } else { v >> (64 - sh) };
    let (s, b) = words[wi].overflowing_sub(lo);
    words[wi] = s;
    let mut borrow = b as u64;
    let mut j = wi + 1;
    let mut sub = hi;
    while j < words.len() && (sub != 0 || borrow != 0) {
        let (s1, b1) = words[j].overflowing_sub(sub);
        let (s2, b2) = s1.overflowing_sub(borrow);
        words[j] = s2;
        borrow = (b1 | b2) as u64;
        sub = 0;
        j += 1;
    }
}

/// k·P by the López–Dahab x-only Montgomery ladder (CHES 1999, Algorithm 2; Guide
/// Algorithm 3.40) over the low `bits` bits of k (little-endian bytes), with their y
/// recovery. Constant time in k and P: the iteration count depends only on `bits`, each step
/// is one differential addition (4M + 1S) and one doubling (1M + 4S, no M when b = 1), and
/// the swaps are masked. The ladder starts from (O, P), so leading zero bits cost time but
/// no special case. Special cases resolved by selection: kP = O, kP = −P (then (k+1)P = O
/// and the y formula divides by zero), and x(P) = 0 (P of order 2: kP is P or O).
pub fn ladder<C: BinaryCurve>(p: &AffinePoint<C>, k: &[u8], bits: usize) -> ProjectivePoint<C> {
    let x = p.x;
    let (mut x1, mut z1) = (C::Base::ONE, C::Base::ZERO);
    let (mut x2, mut z2) = (x, C::Base::ONE);
    let mut swap = Choice::from(0);
    for i in (0..bits.min(8 * k.len())).rev() {
        let bit = Choice::from((k[i / 8] >> (i % 8)) & 1);
        let s = swap ^ bit;
        C::Base::conditional_swap(&mut x1, &mut x2, s);
        C::Base::conditional_swap(&mut z1, &mut z2, s);
        swap = bit;
        // (R0, R1) ← (2·R0, R0 + R1), R1 − R0 = P throughout.
        let t1 = x1 * z2;
        let t2 = x2 * z1;
        let zs = (t1 + t2).square();
        x2 = x * zs + t1 * t2;
        z2 = zs;
        let xx = x1.square();
        let zz = z1.square();
        z1 = xx * zz;
        x1 = xx.square() + C::mul_by_b(&zz.square());
    }
    C::Base::conditional_swap(&mut x1, &mut x2, swap);
    C::Base::conditional_swap(&mut z1, &mut z2, swap);

    // y recovery: with T = x·Z1·Z2 and N = (X1 + x·Z1)(X2 + x·Z2) + (x² + y)·Z1·Z2,
    // x_k = X1/Z1 and y_k = (x + x_k)·N/T + y, returned as (X1·T : (x·Z1 + X1)·N·Z + y·Z² : Z)
    // with Z = Z1·T.
    let y = p.y;
    let z1z2 = z1 * z2;
    let t = x * z1z2;
    let xz1 = x * z1;
    let n = (x1 + xz1) * (x2 + x * z2) + (x.square() + y) * z1z2;
    let z = z1 * t;
    let general = ProjectivePoint::<C> {
        x: x1 * t,
        y: (xz1 + x1) * n * z + y * z.square(),
        z,
    };
    let minus_p = ProjectivePoint::<C> {
        x,
        y: x + y,
        z: C::Base::ONE,
    };
    let plus_p = ProjectivePoint::<C> {
        x,
        y,
        z: C::Base::ONE,
    };
    let mut r =
        ProjectivePoint::conditional_select(&general, &ProjectivePoint::IDENTITY, z1.is_zero());
    r = ProjectivePoint::conditional_select(&r, &minus_p, z2.is_zero() & !z1.is_zero());
    // x = 0: kP = P for odd k, O for even k.
    let odd = Choice::from(k.first().copied().unwrap_or(0) & 1 & (bits > 0) as u8);
    let order2 = ProjectivePoint::conditional_select(&ProjectivePoint::IDENTITY, &plus_p, odd);
    r = ProjectivePoint::conditional_select(&r, &order2, x.is_zero());
    ProjectivePoint::conditional_select(&r, &ProjectivePoint::IDENTITY, p.infinity)
}

/// A precomputed table of a fixed base B for constant-time k·B: for each 4-bit window i of
/// the scalar, the affine points j·16^i·B, j = 1..15 (j = 0 is the identity and handled by a
/// flag). A multiplication is one complete mixed addition per window and a full scan of the
/// window's 15 entries (no secret index), no doublings.
pub struct FixedBaseTable<C: BinaryCurve> {
    windows: Vec<[AffinePoint<C>; 15]>,
}

impl<C: BinaryCurve> FixedBaseTable<C> {
    /// The table for scalars of up to `scalar_bytes` bytes (2·scalar_bytes windows).
    pub fn new(base: &ProjectivePoint<C>, scalar_bytes: usize) -> Self {
        let nwin = 2 * scalar_bytes;
        let mut proj = Vec::with_capacity(15 * nwin);
        let mut b = *base;
        for _ in 0..nwin {
            let mut acc = b;
            for _ in 0..15 {
                proj.push(acc);
                acc = acc.add_point(&b);
            }
            // acc = 16·b now.
            b = acc;
        }
        let mut aff = alloc::vec![AffinePoint::identity(); proj.len()];
        ProjectivePoint::batch_to_affine(&proj, &mut aff);
        let windows = aff
            .chunks_exact(15)
            .map(|c| {
                let mut w = [AffinePoint::identity(); 15];
                w.copy_from_slice(c);
                w
            })
            .collect();
        FixedBaseTable { windows }
    }

    /// k·B for k as little-endian bytes (at most the table's length; extra bytes are
    /// ignored). Constant time in k.
    pub fn mul_le_bytes(&self, k: &[u8]) -> ProjectivePoint<C> {
        let mut acc = ProjectivePoint::IDENTITY;
        for (i, w) in self.windows.iter().enumerate() {
            let byte = k.get(i / 2).copied().unwrap_or(0);
            let digit = (byte >> (4 * (i % 2))) & 15;
            let mut e = AffinePoint::identity();
            for (j, p) in (1..=u8::MAX).zip(w.iter()) {
                e = AffinePoint::conditional_select(&e, p, j.ct_eq(&digit));
            }
            acc = acc.add_mixed(&e);
        }
        acc
    }
}

impl<C: BinaryCurve> FixedBaseTable<C> {
    /// k·B for k < ord(B) (little-endian bytes), constant time in k: as
    /// [`FixedBaseTable::mul_le_bytes`] but with additions that skip the doubling case,
    /// which cannot arise: after window i the accumulator is k mod 16^i times B and the
    /// entry d·16^i·B with d ≥ 1; both multipliers and their sum stay below k < ord(B), so
    /// the two points are neither equal nor opposite.
    pub fn mul_le_bytes_below_order(&self, k: &[u8]) -> ProjectivePoint<C> {
        let mut acc = ProjectivePoint::IDENTITY;
        for (i, w) in self.windows.iter().enumerate() {
            let byte = k.get(i / 2).copied().unwrap_or(0);
            let digit = (byte >> (4 * (i % 2))) & 15;
            let mut e = AffinePoint::identity();
            for (j, p) in (1..=u8::MAX).zip(w.iter()) {
                e = AffinePoint::conditional_select(&e, p, j.ct_eq(&digit));
            }
            acc = acc.add_mixed_distinct(&e);
        }
        acc
    }
}

impl<C: BinaryCurve> Add for ProjectivePoint<C> {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        self.add_point(&rhs)
    }
}

impl<C: BinaryCurve> Sub for ProjectivePoint<C> {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        self.add_point(&rhs.negate())
    }
}

impl<C: BinaryCurve> Neg for ProjectivePoint<C> {
    type Output = Self;
    fn neg(self) -> Self {
        self.negate()
    }
}
