//! Scalar multiplication through endomorphisms: GLV on G1 (Gallant, Lambert, Vanstone,
//! "Faster point multiplication on elliptic curves with efficient endomorphisms", CRYPTO 2001)
//! with φ(x, y) = (β·x, y) = \[λ\](x, y), and 4-dimensional GLS on G2 (Galbraith, Scott,
//! "Exponentiation in pairing-friendly groups using homomorphisms", Pairing 2008) with
//! ψ = \[p\] on G2.
//!
//! **The split.** For an endomorphism with eigenvalue μ on the group of order r and a basis
//! b_0 … b_{D−1} of a sublattice of {v ∈ ℤ^D : Σ v_i·μ^i ≡ 0 (mod r)}, write
//! (k, 0, …, 0) = Σ β_j·b_j over the rationals (β_j = k·a_j / |det B| with a_j the signed
//! cofactors of B's first column) and round: c_j = round(β_j). Then
//! k_vec = (k, 0, …, 0) − Σ c_j·b_j satisfies Σ k_i·μ^i ≡ k (mod r) and
//! |k_i| ≤ Σ_j |c_j − β_j|·|b_j\[i\]| < Σ_j |b_j\[i\]|, the bound the generator records as
//! `half_bits`. The rounding is fixed point: c_j = ⌊(k·g_j + 2^(s−1)) / 2^s⌋ with
//! g_j = round(2^s·|a_j| / |det B|) and s = 64·(limbs of r + 1), which is within 2^−64 of
//! |β_j| before rounding, and the signs of a_j are folded into the precomputed matrix
//! M\[j\]\[i\] = −sign(a_j)·b_j\[i\] mod r, so k_i = δ_{i0}·k + Σ_j c_j·M\[j\]\[i\] in Fr. The
//! generator (`generator/src/product/bn/`) derives B (the extended-Euclid basis of GLV §4 for G1,
//! Galbraith–Scott's basis in z for G2, of index 3), checks it, and checks the split on a
//! spread of scalars.
//!
//! **The multiplications.** Constant time: the D halves as signed radix-16 digits over one
//! shared chain of doublings, each digit's multiple read from a table of 1·Q … 8·Q by a
//! masked scan of every entry and negated by `conditional_select` (the sign of the half
//! and of the digit), never a branch on the scalar. Variable time: width-5 NAFs of the halves
//! over affine tables of odd multiples (Straus).

use fieldgen_field::{ByteArray, PrimeField};
use fieldgen_weierstrass::group::{AffinePoint, CurveParams, ProjectivePoint};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

use crate::groups::{G1Params, G1Projective, G2Params, G2Projective};
use crate::BnParams;

/// The constants of one lattice split (module docs), generated per curve.
#[derive(Clone, Copy, Debug)]
pub struct Decomposition<Fr: 'static, const D: usize> {
    /// g_j = round(2^shift·|a_j| / |det B|) as little-endian 64-bit words.
    pub round: [&'static [u64]; D],
    /// The fixed-point shift s, a multiple of 64.
    pub shift: u32,
    /// M\[j\]\[i\] = −sign(a_j)·b_j\[i\] mod r.
    pub mat: [[Fr; D]; D],
    /// Every |k_i| is below 2^half_bits.
    pub half_bits: u32,
}

/// Largest scalar field handled: 8 limbs (r below 2^512).
const MAX_LIMBS: usize = 8;
/// Largest half magnitude in bytes.
pub(crate) const MAX_HALF_BYTES: usize = 64;

/// One part of a split scalar: |k_i| little-endian in its first `half_bits/8` rounded up
/// bytes, and whether k_i < 0.
#[derive(Clone, Copy, Debug)]
pub struct Half {
    /// |k_i|, little-endian.
    pub magnitude: [u8; MAX_HALF_BYTES],
    /// Whether k_i < 0.
    pub negative: Choice,
}

/// round(k·g / 2^shift) for k given by `kl` (little-endian limbs), constant time in k.
#[allow(
    clippy::cast_possible_truncation,
    reason = "limb extraction: the low word of each double-word step, its high word carried separately"
)]
fn mul_round(kl: &[u64; MAX_LIMBS], n: usize, g: &[u64], shift: u32) -> [u64; MAX_LIMBS] {
    let mut t = [0u64; 2 * MAX_LIMBS + 2];
    for (i, &ki) in kl[..n].iter().enumerate() {
        let mut carry = 0u128;
        for (j, &gj) in g.iter().enumerate() {
            let v = (ki as u128) * (gj as u128) + t[i + j] as u128 + carry;
            t[i + j] = v as u64;
            carry = v >> 64;
        }
        t[i + g.len()] = carry as u64;
    }
    let s = (shift / 64) as usize;
    let mut out = [0u64; MAX_LIMBS];
    let mut carry = (t[s - 1] >> 63) as u128;
    for (o, &w) in out.iter_mut().zip(&t[s..]) {
        let v = w as u128 + carry;
        *o = v as u64;
        carry = v >> 64;
    }
    out
}

/// Splits k into D signed parts with k ≡ Σ k_i·μ^i (mod r) and |k_i| < 2^half_bits
/// (module docs). Constant time.
pub fn decompose<Fr: PrimeField, const D: usize>(k: &Fr, dec: &Decomposition<Fr, D>) -> [Half; D] {
    let kb = k.to_le_bytes();
    let kb = kb.as_ref();
    let n = kb.len().div_ceil(8);
    let mut kl = [0u64; MAX_LIMBS];
    for (i, b) in kb.iter().enumerate() {
        kl[i / 8] |= (*b as u64) << (8 * (i % 8));
    }
    let mut c = [Fr::ZERO; D];
    for (cj, g) in c.iter_mut().zip(dec.round.iter()) {
        let v = mul_round(&kl, n, g, dec.shift);
        let mut bytes = Fr::Bytes::zeroed();
        for (i, b) in bytes.as_mut().iter_mut().enumerate() {
            *b = v[i / 8].to_le_bytes()[i % 8];
        }
        // c_j ≤ |a_j|/|det B|·k + 1 < r, so the bytes are canonical.
        *cj = Fr::from_le_bytes(&bytes).unwrap_or(Fr::ZERO);
    }
    let nb = dec.half_bits.div_ceil(8) as usize;
    core::array::from_fn(|i| {
        let mut v = if i == 0 { *k } else { Fr::ZERO };
        for (cj, row) in c.iter().zip(dec.mat.iter()) {
            v += *cj * row[i];
        }
        // A half is either v < 2^half_bits or r − v < 2^half_bits; the other residue has
        // bytes above nb set.
        let vb = v.to_le_bytes();
        let mut high = 0u8;
        for b in &vb.as_ref()[nb..] {
            high |= *b;
        }
        let negative = !high.ct_eq(&0);
        let m = Fr::conditional_select(&v, &-v, negative);
        let mut magnitude = [0u8; MAX_HALF_BYTES];
        magnitude[..nb].copy_from_slice(&m.to_le_bytes().as_ref()[..nb]);
        Half {
            magnitude,
            negative,
        }
    })
}

/// φ(X : Y : Z) = (β·X : Y : Z) on E, equal to \[λ\] on G1.
pub fn phi<C: BnParams>(p: &G1Projective<C>) -> G1Projective<C> {
    let (x, y, z) = p.coordinates();
    ProjectivePoint::from_coordinates_unchecked(x * C::BETA, y, z)
}

/// ψ(X : Y : Z) = (X̄·γ1\[2\] : Ȳ·γ1\[3\] : Z̄) on E′ (untwist, Frobenius, twist), equal to
/// \[p\] on G2.
pub fn psi<C: BnParams>(q: &G2Projective<C>) -> G2Projective<C> {
    let (x, y, z) = q.coordinates();
    ProjectivePoint::from_coordinates_unchecked(
        x.conjugate() * C::FROB1[2],
        y.conjugate() * C::FROB1[3],
        z.conjugate(),
    )
}

/// d·T\[0\] from T\[j\] = (j + 1)·Q for a digit d in \[−8, 8\], negated when `flip`; every entry
/// is read.
fn lookup<P: CurveParams>(t: &[ProjectivePoint<P>; 8], d: i8, flip: Choice) -> ProjectivePoint<P> {
    let sign = (d >> 7) as u8 & 1;
    // |d| ≤ 8: i8 arithmetic does not overflow.
    let abs = ((d ^ -(sign as i8)) + sign as i8) as u8;
    let mut r = ProjectivePoint::IDENTITY;
    for (j, e) in (1..=u8::MAX).zip(t.iter()) {
        r.conditional_assign(e, abs.ct_eq(&j));
    }
    ProjectivePoint::conditional_select(&r, &-r, Choice::from(sign) ^ flip)
}

/// Signed radix-16 digits of an nb-byte magnitude: d_i in \[−8, 8) for i < 2·nb, the last in
/// {0, 1}. Constant time.
pub(crate) fn radix16(m: &[u8], out: &mut [i8; 2 * MAX_HALF_BYTES + 1]) {
    let mut carry = 0i8;
    for i in 0..2 * m.len() {
        let v = ((m[i / 2] >> (4 * (i % 2))) & 15) as i8 + carry;
        carry = (v + 8) >> 4;
        out[i] = v - (carry << 4);
    }
    out[2 * m.len()] = carry;
}

/// k·P = Σ k_i·endo^i(P) in constant time (module docs). P must lie in the group where
/// `endo` acts as the eigenvalue of `dec`.
fn mul_ct<P: CurveParams, Fr: PrimeField, const D: usize>(
    p: &ProjectivePoint<P>,
    k: &Fr,
    dec: &Decomposition<Fr, D>,
    endo: impl Fn(&ProjectivePoint<P>) -> ProjectivePoint<P>,
) -> ProjectivePoint<P> {
    let halves = decompose(k, dec);
    let mut t = [[ProjectivePoint::<P>::IDENTITY; 8]; D];
    t[0][0] = *p;
    for j in 1..8 {
        t[0][j] = t[0][j - 1].add_point(p);
    }
    for i in 1..D {
        t[i] = t[i - 1].map(|e| endo(&e));
    }
    let nb = dec.half_bits.div_ceil(8) as usize;
    let mut digits = [[0i8; 2 * MAX_HALF_BYTES + 1]; D];
    for (d, h) in digits.iter_mut().zip(&halves) {
        radix16(&h.magnitude[..nb], d);
    }
    let mut acc = ProjectivePoint::IDENTITY;
    for pos in (0..=2 * nb).rev() {
        acc = acc.double().double().double().double();
        for i in 0..D {
            acc = acc.add_point(&lookup(&t[i], digits[i][pos], halves[i].negative));
        }
    }
    acc
}

/// Width-5 NAF of a little-endian magnitude, negated when `neg`; returns the length.
/// Variable time.
#[allow(
    clippy::cast_possible_truncation,
    reason = "a digit lies in (−16, 16): it fits i8"
)]
fn wnaf5_vartime(m: &[u8], neg: bool, out: &mut [i8; 8 * MAX_HALF_BYTES + 2]) -> usize {
    let mut limbs = [0u64; MAX_HALF_BYTES / 8 + 2];
    for (i, b) in m.iter().enumerate() {
        limbs[i / 8] |= (*b as u64) << (8 * (i % 8));
    }
    let mut len = 0;
    let mut pos = 0;
    while limbs.iter().any(|&l| l != 0) {
        let mut d = 0i64;
        if limbs[0] & 1 == 1 {
            d = (limbs[0] & 31) as i64;
            if d >= 16 {
                d -= 32;
            }
            // limbs −= d.
            if d > 0 {
                limbs[0] -= d as u64;
            } else {
                let mut carry = (-d) as u64;
                for l in limbs.iter_mut() {
                    let (s, c) = l.overflowing_add(carry);
                    *l = s;
                    carry = c as u64;
                }
            }
            len = pos + 1;
        }
        out[pos] = if neg { -d as i8 } else { d as i8 };
        pos += 1;
        for i in 0..limbs.len() {
            let next = limbs.get(i + 1).copied().unwrap_or(0);
            limbs[i] = (limbs[i] >> 1) | (next << 63);
        }
    }
    len
}

/// k·P = Σ k_i·endo^i(P) for public k and P, variable time (module docs).
fn mul_vartime<P: CurveParams, Fr: PrimeField, const D: usize>(
    p: &ProjectivePoint<P>,
    k: &Fr,
    dec: &Decomposition<Fr, D>,
    endo: impl Fn(&ProjectivePoint<P>) -> ProjectivePoint<P>,
) -> ProjectivePoint<P> {
    let halves = decompose(k, dec);
    let nb = dec.half_bits.div_ceil(8) as usize;
    let mut proj = [[ProjectivePoint::<P>::IDENTITY; 8]; D];
    let p2 = p.double();
    proj[0][0] = *p;
    for j in 1..8 {
        proj[0][j] = proj[0][j - 1].add_point(&p2);
    }
    for i in 1..D {
        proj[i] = proj[i - 1].map(|e| endo(&e));
    }
    let mut t = [[AffinePoint::<P>::identity(); 8]; D];
    for (ti, pi) in t.iter_mut().zip(&proj) {
        ProjectivePoint::batch_to_affine(pi, ti);
    }
    let mut naf = [[0i8; 8 * MAX_HALF_BYTES + 2]; D];
    let mut len = 0;
    for (n, h) in naf.iter_mut().zip(&halves) {
        len = len.max(wnaf5_vartime(&h.magnitude[..nb], h.negative.into(), n));
    }
    let mut acc = ProjectivePoint::IDENTITY;
    for pos in (0..len).rev() {
        acc = acc.double();
        for i in 0..D {
            let d = naf[i][pos];
            if d > 0 {
                acc = acc.add_mixed(&t[i][(d / 2) as usize]);
            } else if d < 0 {
                acc = acc.add_mixed(&-t[i][(-d / 2) as usize]);
            }
        }
    }
    acc
}

/// k·P on G1 by GLV, constant time: two halves of about half the bits of r sharing one
/// chain of doublings.
pub fn g1_mul<C: BnParams>(p: &G1Projective<C>, k: &C::Fr) -> G1Projective<C> {
    mul_ct::<G1Params<C>, C::Fr, 2>(p, k, &C::GLV, phi::<C>)
}

/// k·P on G1 by GLV for public k and P, variable time.
pub fn g1_mul_vartime<C: BnParams>(p: &G1Projective<C>, k: &C::Fr) -> G1Projective<C> {
    mul_vartime::<G1Params<C>, C::Fr, 2>(p, k, &C::GLV, phi::<C>)
}

/// k·Q on G2 by 4-dimensional GLS with ψ, constant time: four parts of about a quarter of
/// the bits of r sharing one chain of doublings. Q must be in G2 (ψ acts as \[p\] only there;
/// decoded, hashed and generated points are): for another point of E′ the result is not k·Q.
pub fn g2_mul<C: BnParams>(q: &G2Projective<C>, k: &C::Fr) -> G2Projective<C> {
    mul_ct::<G2Params<C>, C::Fr, 4>(q, k, &C::GLS, psi::<C>)
}

/// k·Q on G2 by 4-dimensional GLS for public k and Q in G2, variable time.
pub fn g2_mul_vartime<C: BnParams>(q: &G2Projective<C>, k: &C::Fr) -> G2Projective<C> {
    mul_vartime::<G2Params<C>, C::Fr, 4>(q, k, &C::GLS, psi::<C>)
}

/// The split of [`decompose`] as signed integers' parts, for tests and tools: (magnitude
/// bytes, negative) per part, `half_bits/8` rounded up bytes each.
pub fn decompose_parts<Fr: PrimeField, const D: usize>(
    k: &Fr,
    dec: &Decomposition<Fr, D>,
) -> [(alloc::vec::Vec<u8>, bool); D] {
    let nb = dec.half_bits.div_ceil(8) as usize;
    decompose(k, dec).map(|h| (h.magnitude[..nb].to_vec(), h.negative.into()))
}
