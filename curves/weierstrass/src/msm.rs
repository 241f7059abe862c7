//! Multi-scalar multiplication Σ k_i·P_i for public scalars and points by Pippenger's bucket
//! method (N. Pippenger, "On the evaluation of powers and related problems", FOCS 1976; the
//! form of Bernstein, Doumen, Lange, Oosterwijk, "Faster batch forgery identification",
//! INDOCRYPT 2012, §4): each scalar is cut into c-bit windows; per window every point is added
//! to the bucket of its digit, and the buckets are combined as Σ j·B_j by a running sum, so a
//! window costs about n additions plus two per bucket instead of n multiplications. Variable
//! time: the bucket a point lands in depends on the scalar.
//!
//! The digits are signed, in (−2^(c−1), 2^(c−1)\] (a digit above 2^(c−1) becomes d − 2^c with a
//! carry into the next window), and a negative digit adds −P to bucket |d|: half the buckets of
//! unsigned digits for one more window at most (the same recoding as arkworks' and
//! gnark-crypto's MSMs). The points are affine (one batch inversion by Montgomery's trick for
//! projective input) and the buckets Jacobian, so a bucket update is the mixed addition
//! madd-2007-bl (7M + 4S) and the running sums add-2007-bl (11M + 5S), both of which branch on
//! their exceptional cases (equal or opposite points, the identity). The window width
//! minimises the count of those operations for the number of terms and the longest scalar.

use alloc::vec::Vec;

use crate::group::{AffinePoint, CurveParams, JacobianPoint, ProjectivePoint};
use crate::Error;

/// Field multiplications (squarings counted as one) of a mixed addition, a Jacobian addition
/// and a Jacobian doubling (a = 0; a little more for the others, which does not move the
/// choice much): the weights of the window cost.
const MADD: u64 = 11;
const ADD: u64 = 16;
const DBL: u64 = 7;

/// The window width c in 1..=16 that minimises the cost of `n` terms with `bits`-bit scalars:
/// ⌈(bits + 1)/c⌉ windows, each n mixed additions, 2·2^(c−1) Jacobian additions for the
/// bucket sums and c doublings.
fn window(n: usize, bits: usize) -> usize {
    let cost = |c: usize| {
        let w = (bits + 1).div_ceil(c) as u64;
        w * (n as u64 * MADD + (1u64 << c) * ADD + c as u64 * DBL)
    };
    (1..=16).min_by_key(|&c| cost(c)).unwrap_or(1)
}

/// Bit length of a little-endian byte string (0 for zero).
fn bit_length(k: &[u8]) -> usize {
    k.iter()
        .rposition(|&b| b != 0)
        .map_or(0, |i| 8 * i + (8 - k[i].leading_zeros() as usize))
}

/// The c-bit window (c ≤ 16) of a little-endian byte string starting at bit `bit`.
fn window_bits(k: &[u8], bit: usize, c: usize) -> i32 {
    let i = bit / 8;
    let word = (0..3).fold(0u32, |acc, j| {
        acc | (k.get(i + j).copied().unwrap_or(0) as u32) << (8 * j)
    });
    ((word >> (bit % 8)) & ((1u32 << c) - 1)) as i32
}

/// Σ scalars\[i\]·points\[i\] for scalars given as little-endian bytes (any lengths), variable
/// time: only for public data (batch verification, commitments). An empty input gives the
/// identity. Errors with [`Error::InvalidLength`] when the two slices differ in length.
///
/// Normalises the points to affine with one batch inversion, then runs
/// [`msm_affine_vartime`].
pub fn msm_vartime<C: CurveParams, K: AsRef<[u8]>>(
    points: &[ProjectivePoint<C>],
    scalars: &[K],
) -> Result<ProjectivePoint<C>, Error> {
    if points.len() != scalars.len() {
        return Err(Error::InvalidLength);
    }
    let mut affine = alloc::vec![AffinePoint::identity(); points.len()];
    ProjectivePoint::batch_to_affine(points, &mut affine);
    msm_affine_vartime(&affine, scalars)
}

/// Σ scalars\[i\]·points\[i\] for affine points and scalars given as little-endian bytes (any
/// lengths; the windows run over the longest scalar's bit length only, so short scalars, such
/// as the halves of a GLV split, get fewer windows), by signed-digit Pippenger with Jacobian
/// buckets (module docs). Variable time: only for public data. An empty input gives the
/// identity. Errors with [`Error::InvalidLength`] when the two slices differ in length.
pub fn msm_affine_vartime<C: CurveParams, K: AsRef<[u8]>>(
    points: &[AffinePoint<C>],
    scalars: &[K],
) -> Result<ProjectivePoint<C>, Error> {
    if points.len() != scalars.len() {
        return Err(Error::InvalidLength);
    }
    let n = points.len();
    let bits = scalars
        .iter()
        .map(|k| bit_length(k.as_ref()))
        .max()
        .unwrap_or(0);
    if bits == 0 {
        return Ok(ProjectivePoint::IDENTITY);
    }
    let c = window(n, bits);
    // The top window holds at most c − 1 bits of the scalar, so with the carry it stays
    // at most 2^(c−1) and nothing carries out of it.
    let windows = (bits + 1).div_ceil(c);
    let half = 1i32 << (c - 1);
    // digits[w·n + i]: the signed digit of scalar i in window w.
    let mut digits = alloc::vec![0i32; windows * n];
    for (i, k) in scalars.iter().enumerate() {
        let k = k.as_ref();
        let mut carry = 0;
        for w in 0..windows {
            let mut d = window_bits(k, w * c, c) + carry;
            carry = 0;
            if d > half {
                d -= 2 * half;
                carry = 1;
            }
            digits[w * n + i] = d;
        }
    }
    let mut buckets: Vec<JacobianPoint<C>> = alloc::vec![JacobianPoint::IDENTITY; 1 << (c - 1)];
    let mut acc = JacobianPoint::<C>::IDENTITY;
    for w in (0..windows).rev() {
        for _ in 0..c {
            acc = acc.double_vartime();
        }
        buckets.fill(JacobianPoint::IDENTITY);
        for (p, &d) in points.iter().zip(&digits[w * n..(w + 1) * n]) {
            if d > 0 {
                let b = &mut buckets[(d - 1) as usize];
                *b = b.add_affine_vartime(p);
            } else if d < 0 {
                let b = &mut buckets[(-d - 1) as usize];
                *b = b.add_affine_vartime(&-*p);
            }
        }
        // Σ j·B_j = Σ_j (B_j + B_{j+1} + … ) by a running sum from the top bucket down.
        let mut running = JacobianPoint::IDENTITY;
        let mut sum = JacobianPoint::IDENTITY;
        for b in buckets.iter().rev() {
            running = running.add_vartime(b);
            sum = sum.add_vartime(&running);
        }
        acc = acc.add_vartime(&sum);
    }
    Ok(acc.to_projective())
}
