//! X25519 Diffie–Hellman (RFC 7748 §5, §6.1).

use subtle::{ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroize;

use crate::edwards::mul_base;
use crate::field::{fe_from_bytes_reduced, Fe};
use crate::scalar::scalar_from_bytes_mod_order;
use crate::Error;

/// The u-coordinate of the curve25519 base point, 9 (RFC 7748 §4.1), little-endian.
pub const BASEPOINT_U: [u8; 32] = {
    let mut b = [0u8; 32];
    b[0] = 9;
    b
};

/// Clamps a 32-byte scalar as RFC 7748 §5 decodeScalar25519: clears bits 0, 1, 2 and 255,
/// sets bit 254.
pub fn clamp(mut k: [u8; 32]) -> [u8; 32] {
    k[0] &= 248;
    k[31] &= 127;
    k[31] |= 64;
    k
}

/// X25519(k, u) of RFC 7748 §5: the u-coordinate of [clamp(k)]·(u, ·) on curve25519 or its
/// twist, 32 bytes little-endian.
///
/// `scalar` is clamped; `u` has bit 255 masked and non-canonical values (p..2^255 − 1) are
/// reduced mod p, as the RFC requires. Constant time in both inputs: the Montgomery ladder
/// of RFC 7748 §5 (255 steps, conditional swaps by masking, one inversion by Fermat's little
/// theorem with the reference addition chain for p − 2). Low-order
/// inputs give an all-zero output; use [`x25519_checked`] to refuse those.
pub fn x25519(scalar: [u8; 32], u: [u8; 32]) -> [u8; 32] {
    #[cfg(target_arch = "x86_64")]
    if let Some(out) = x25519_with(X25519Backend::Avx512Ifma, scalar, u) {
        return out;
    }
    x25519_scalar(scalar, u)
}

/// The ladder implementations behind [`x25519`]; it takes the first one the CPU runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum X25519Backend {
    /// Four ladder quantities per instruction on AVX-512 IFMA (x86-64 CPUs that have
    /// AVX-512F, AVX-512VL and AVX-512 IFMA; detected once at run time).
    Avx512Ifma,
    /// One field operation at a time on the generated scalar field (every target).
    Scalar,
}

/// The backend [`x25519`] uses on this CPU.
pub fn x25519_backend() -> X25519Backend {
    #[cfg(target_arch = "x86_64")]
    if crate::x25519_ifma::available() {
        return X25519Backend::Avx512Ifma;
    }
    X25519Backend::Scalar
}

/// [`x25519`] by the given backend; `None` when this CPU cannot run it. For tests and
/// benchmarks that compare the backends.
pub fn x25519_with(backend: X25519Backend, scalar: [u8; 32], u: [u8; 32]) -> Option<[u8; 32]> {
    match backend {
        X25519Backend::Scalar => Some(x25519_scalar(scalar, u)),
        #[cfg(target_arch = "x86_64")]
        X25519Backend::Avx512Ifma => {
            let mut k = clamp(scalar);
            let x1 = fe_from_bytes_reduced(&u);
            let out = crate::x25519_ifma::ladder(&k, &x1).map(|(mut x2, mut z2)| {
                let out = (x2 * z2.invert().unwrap_or(Fe::ZERO)).to_le_bytes();
                x2.zeroize();
                z2.zeroize();
                out
            });
            k.zeroize();
            out
        }
        #[cfg(not(target_arch = "x86_64"))]
        X25519Backend::Avx512Ifma => None,
    }
}

/// The scalar ladder of RFC 7748 §5 on the generated field.
fn x25519_scalar(scalar: [u8; 32], u: [u8; 32]) -> [u8; 32] {
    let mut k = clamp(scalar);
    let x1 = fe_from_bytes_reduced(&u);
    let mut x2 = Fe::ONE;
    let mut z2 = Fe::ZERO;
    let mut x3 = x1;
    let mut z3 = Fe::ONE;
    let mut swap = 0u8;
    for t in (0..255).rev() {
        let k_t = (k[t >> 3] >> (t & 7)) & 1;
        swap ^= k_t;
        let c = swap.into();
        Fe::conditional_swap(&mut x2, &mut x3, c);
        Fe::conditional_swap(&mut z2, &mut z3, c);
        swap = k_t;

        let a = x2 + z2;
        let aa = a.square();
        let b = x2 - z2;
        let bb = b.square();
        let e = aa - bb;
        let c = x3 + z3;
        let d = x3 - z3;
        let da = d * a;
        let cb = c * b;
        x3 = (da + cb).square();
        z3 = x1 * (da - cb).square();
        x2 = aa * bb;
        // a24 = (A − 2)/4 = 121665: one short product (`mul_small`), not a full one.
        z2 = e * (aa + e.mul_small(121665));
    }
    let c = swap.into();
    Fe::conditional_swap(&mut x2, &mut x3, c);
    Fe::conditional_swap(&mut z2, &mut z3, c);
    k.zeroize();
    // x2/z2, with z2 = 0 (low-order input) giving 0 as x2·z2^(p−2) does in the RFC. The
    // generated constant-time inversion (hddivsteps) is faster than the p − 2 chain.
    let out = (x2 * z2.invert().unwrap_or(Fe::ZERO)).to_le_bytes();
    // The ladder state depends on every bit of the secret scalar.
    for v in [&mut x2, &mut z2, &mut x3, &mut z3] {
        v.zeroize();
    }
    swap.zeroize();
    out
}

/// X25519(k, 9): the public key of the secret `scalar`, 32 bytes little-endian.
///
/// Computed as [clamp(k) mod l]·B on edwards25519 with the constant-time fixed-base table
/// and mapped to u = (1 + y)/(1 − y) (RFC 7748 §4.1), as ed25519-donna's curved25519 does:
/// the clamped scalar is a multiple of 8 and B has order l, so the result equals the ladder's.
pub fn x25519_base(scalar: [u8; 32]) -> [u8; 32] {
    let mut k = clamp(scalar);
    let mut s = scalar_from_bytes_mod_order(&k);
    k.zeroize();
    let out = mul_base(&s).to_montgomery_u();
    s.zeroize();
    out
}

/// X25519(k, u) refusing an all-zero shared secret (RFC 7748 §6.1): the output of a
/// low-order `u` (one of the points of order 1, 2, 4 or 8 on the curve or its twist).
///
/// Errors: [`Error::LowOrderPoint`]. The comparison is constant time.
pub fn x25519_checked(scalar: [u8; 32], u: [u8; 32]) -> Result<[u8; 32], Error> {
    let out = x25519(scalar, u);
    if bool::from(out.ct_eq(&[0u8; 32])) {
        Err(Error::LowOrderPoint)
    } else {
        Ok(out)
    }
}
