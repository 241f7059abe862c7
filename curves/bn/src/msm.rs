//! Multi-scalar multiplication Σ k_i·P_i on G1 and G2 for public points and scalars. Variable
//! time; needs `alloc`.
//!
//! Each scalar is split by the endomorphism lattices of [`crate::endo`]: on G1 by GLV into two
//! parts of about half the bits of r with φ = \[λ\] (Gallant, Lambert, Vanstone, CRYPTO 2001),
//! on G2 by 4-dimensional GLS into four parts of about a quarter of the bits with ψ = \[p\]
//! (Galbraith, Scott, Pairing 2008). k_i·P_i = Σ_j k_ij·endo^j(P_i), so the sum becomes one
//! of 2n (4n) terms with half- (quarter-) length scalars, the sign of each part moved onto
//! its point. The points are normalised to affine once (Montgomery's batch inversion) and the
//! endomorphism images computed in affine form (φ(x, y) = (β·x, y); ψ(x, y) = (x̄·γ, ȳ·γ′)),
//! then the group layer's signed-digit Pippenger with mixed additions into Jacobian buckets
//! ([`fieldgen_weierstrass::msm::msm_affine_vartime`]) sums them.

use alloc::vec::Vec;

use fieldgen_field::{Field, PrimeField};
use fieldgen_weierstrass::group::{AffinePoint, CurveParams, ProjectivePoint};
use fieldgen_weierstrass::msm::msm_affine_vartime;

use crate::endo::{decompose, Decomposition};
use crate::fp2::Fp2;
use crate::groups::{G1Affine, G1Params, G1Projective, G2Affine, G2Params, G2Projective};
use crate::{BnParams, Error};

/// Σ k_i·P_i through the split of `dec` (module docs). `endo` maps a finite affine point of
/// the group to its image under the endomorphism whose eigenvalue `dec` splits by.
fn split_msm_vartime<P: CurveParams, Fr: PrimeField, const D: usize>(
    points: &[ProjectivePoint<P>],
    scalars: &[Fr],
    dec: &Decomposition<Fr, D>,
    endo: impl Fn(&AffinePoint<P>) -> AffinePoint<P>,
) -> Result<ProjectivePoint<P>, Error> {
    if points.len() != scalars.len() {
        return Err(Error::LengthMismatch);
    }
    let mut affine = alloc::vec![AffinePoint::identity(); points.len()];
    ProjectivePoint::batch_to_affine(points, &mut affine);
    let nb = dec.half_bits.div_ceil(8) as usize;
    let mut terms = Vec::with_capacity(D * points.len());
    let mut magnitudes = Vec::with_capacity(D * nb * points.len());
    for (p, k) in affine.iter().zip(scalars) {
        // Public data: terms that contribute nothing are dropped outright.
        if bool::from(p.is_identity()) || bool::from(k.is_zero()) {
            continue;
        }
        let mut q = *p;
        for (j, h) in decompose(k, dec).iter().enumerate() {
            if j > 0 {
                q = endo(&q);
            }
            terms.push(if bool::from(h.negative) { -q } else { q });
            magnitudes.extend_from_slice(&h.magnitude[..nb]);
        }
    }
    let parts: Vec<&[u8]> = magnitudes.chunks(nb).collect();
    msm_affine_vartime(&terms, &parts).map_err(|_| Error::LengthMismatch)
}

/// φ(x, y) = (β·x, y) on a finite affine point of E.
fn phi_affine<C: BnParams>(p: &G1Affine<C>) -> G1Affine<C> {
    let x = p.x().unwrap_or(C::Fp::ZERO);
    let y = p.y().unwrap_or(C::Fp::ZERO);
    AffinePoint::from_coordinates_unchecked(x * C::BETA, y)
}

/// ψ(x, y) = (x̄·γ1\[2\], ȳ·γ1\[3\]) on a finite affine point of E′.
fn psi_affine<C: BnParams>(q: &G2Affine<C>) -> G2Affine<C> {
    let x = q.x().unwrap_or(Fp2::ZERO);
    let y = q.y().unwrap_or(Fp2::ZERO);
    AffinePoint::from_coordinates_unchecked(
        x.conjugate() * C::FROB1[2],
        y.conjugate() * C::FROB1[3],
    )
}

/// Σ scalars\[i\]·points\[i\] on G1, variable time (public data only): GLV-split signed-digit
/// Pippenger (module docs). The identity for empty input; [`Error::LengthMismatch`] when the
/// slices differ in length.
pub fn msm_g1_vartime<C: BnParams>(
    points: &[G1Projective<C>],
    scalars: &[C::Fr],
) -> Result<G1Projective<C>, Error> {
    split_msm_vartime::<G1Params<C>, C::Fr, 2>(points, scalars, &C::GLV, phi_affine::<C>)
}

/// Σ scalars\[i\]·points\[i\] on G2, variable time (public data only): 4-dimensional
/// GLS-split signed-digit Pippenger (module docs). The points must lie in G2, where ψ acts as
/// \[p\] (decoded, hashed and generated points do). The identity for empty input;
/// [`Error::LengthMismatch`] when the slices differ in length.
pub fn msm_g2_vartime<C: BnParams>(
    points: &[G2Projective<C>],
    scalars: &[C::Fr],
) -> Result<G2Projective<C>, Error> {
    split_msm_vartime::<G2Params<C>, C::Fr, 4>(points, scalars, &C::GLS, psi_affine::<C>)
}
