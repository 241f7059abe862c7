//! Multi-scalar multiplication Σ k_i·P_i for public scalars and points by Pippenger's bucket
//! method (N. Pippenger, "On the evaluation of powers and related problems", FOCS 1976; the
//! form of Bernstein, Doumen, Lange, Oosterwijk, "Faster batch forgery identification",
//! INDOCRYPT 2012, §4): each scalar is cut into c-bit windows; per window every point is added
//! to the bucket of its digit, and the buckets are combined as Σ j·B_j by a running sum
//! (2·2^c additions), so a window costs about n + 2^(c+1) additions instead of n
//! multiplications. Variable time: the bucket a point lands in depends on the scalar.
//!
//! The additions are the complete projective formulas of [`crate::group`], so equal points,
//! the identity and opposite points need no special case.

use alloc::vec::Vec;

use crate::group::{CurveParams, ProjectivePoint};
use crate::Error;

/// The window width for `n` terms: about ln(n) + 2 bits (the cost n·b/c + 2^c·b/c is
/// smallest near there for b-bit scalars), at least 2, at most 16.
fn window(n: usize) -> usize {
    if n < 8 {
        return 2;
    }
    let log2 = (usize::BITS - n.leading_zeros()) as usize;
    (log2 * 69 / 100 + 2).clamp(2, 16)
}

/// The c-bit window of a little-endian byte string starting at bit `bit`.
fn digit(k: &[u8], bit: usize, c: usize) -> usize {
    let mut v = 0usize;
    for i in 0..c {
        let b = bit + i;
        if b / 8 < k.len() && (k[b / 8] >> (b % 8)) & 1 == 1 {
            v |= 1 << i;
        }
    }
    v
}

/// Σ scalars\[i\]·points\[i\] for scalars given as little-endian bytes (any lengths), variable
/// time: only for public data (batch verification, commitments). An empty input gives the
/// identity. Errors with [`Error::InvalidLength`] when the two slices differ in length.
pub fn msm_vartime<C: CurveParams, K: AsRef<[u8]>>(
    points: &[ProjectivePoint<C>],
    scalars: &[K],
) -> Result<ProjectivePoint<C>, Error> {
    if points.len() != scalars.len() {
        return Err(Error::InvalidLength);
    }
    let bits = 8 * scalars.iter().map(|k| k.as_ref().len()).max().unwrap_or(0);
    let c = window(points.len());
    let mut buckets: Vec<ProjectivePoint<C>> = alloc::vec![ProjectivePoint::IDENTITY; (1 << c) - 1];
    let mut acc = ProjectivePoint::IDENTITY;
    let windows = bits.div_ceil(c);
    for w in (0..windows).rev() {
        for _ in 0..c {
            acc = acc.double();
        }
        for b in buckets.iter_mut() {
            *b = ProjectivePoint::IDENTITY;
        }
        for (p, k) in points.iter().zip(scalars) {
            let d = digit(k.as_ref(), w * c, c);
            if d != 0 {
                buckets[d - 1] = buckets[d - 1].add_point(p);
            }
        }
        // Σ j·B_j = Σ_j (B_j + B_{j+1} + … ) by a running sum from the top bucket down.
        let mut running = ProjectivePoint::IDENTITY;
        let mut sum = ProjectivePoint::IDENTITY;
        for b in buckets.iter().rev() {
            running = running.add_point(b);
            sum = sum.add_point(&running);
        }
        acc = acc.add_point(&sum);
    }
    Ok(acc)
}
