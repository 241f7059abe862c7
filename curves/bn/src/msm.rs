//! Multi-scalar multiplication Σ k_i·P_i on G1 and G2 for public points and scalars: the
//! group layer's Pippenger bucket method (`fieldgen_weierstrass::msm`, generic over the
//! coordinate field) on scalars of Fr. Variable time; needs `alloc`.

use alloc::vec::Vec;

use fieldgen_field::Field;
use fieldgen_weierstrass::msm::msm_vartime;

use crate::groups::{G1Projective, G2Projective};
use crate::{BnParams, Error};

fn scalar_bytes<C: BnParams>(scalars: &[C::Fr]) -> Vec<<C::Fr as Field>::Bytes> {
    scalars.iter().map(|k| k.to_le_bytes()).collect()
}

/// Σ scalars\[i\]·points\[i\] on G1, variable time (public data only). The identity for
/// empty input; [`Error::LengthMismatch`] when the slices differ in length.
pub fn msm_g1_vartime<C: BnParams>(
    points: &[G1Projective<C>],
    scalars: &[C::Fr],
) -> Result<G1Projective<C>, Error> {
    if points.len() != scalars.len() {
        return Err(Error::LengthMismatch);
    }
    msm_vartime(points, &scalar_bytes::<C>(scalars)).map_err(|_| Error::LengthMismatch)
}

/// Σ scalars\[i\]·points\[i\] on G2, variable time (public data only). The identity for
/// empty input; [`Error::LengthMismatch`] when the slices differ in length.
pub fn msm_g2_vartime<C: BnParams>(
    points: &[G2Projective<C>],
    scalars: &[C::Fr],
) -> Result<G2Projective<C>, Error> {
    if points.len() != scalars.len() {
        return Err(Error::LengthMismatch);
    }
    msm_vartime(points, &scalar_bytes::<C>(scalars)).map_err(|_| Error::LengthMismatch)
}
