//! Ethereum's BN254 precompiles, byte for byte: `ecadd` (address 0x06) and `ecmul` (0x07) of
//! EIP-196, `ecpairing` (0x08) of EIP-197.
//!
//! Formats: a G1 point is x ‖ y, 32-byte big-endian each, (0, 0) the identity; a G2 point is
//! x ‖ y with each Fp2 value written imaginary part first (x = x_im ‖ x_re), 128 bytes, all
//! zero the identity. `ecadd` and `ecmul` read their input zero-padded to 128 and 96 bytes
//! (longer input is ignored past that); `ecpairing` needs a multiple of 192 bytes. A
//! coordinate ≥ p, a point off its curve, or a G2 point outside the subgroup of order r is an
//! error (the precompile fails). Variable time: the inputs are public.

use crate::groups::{G1Affine, G1Encoding, G2Affine, G2SubgroupCheck};
use crate::{pairing, Bn254, Error};

fn padded<const N: usize>(input: &[u8]) -> [u8; N] {
    let mut buf = [0u8; N];
    let n = input.len().min(N);
    buf[..n].copy_from_slice(&input[..n]);
    buf
}

fn g1(bytes: &[u8]) -> Result<G1Affine<Bn254>, Error> {
    G1Affine::<Bn254>::from_uncompressed(bytes)
}

fn g1_out(p: &G1Affine<Bn254>) -> [u8; 64] {
    let mut out = [0u8; 64];
    // 64 is the right length, so this cannot fail.
    let _ = p.write_uncompressed(&mut out);
    out
}

/// EIP-196 ECADD: the sum of two G1 points, 64 bytes.
pub fn ecadd(input: &[u8]) -> Result<[u8; 64], Error> {
    let buf = padded::<128>(input);
    let a = g1(&buf[..64])?;
    let b = g1(&buf[64..])?;
    Ok(g1_out(&(a.to_projective() + &b).to_affine()))
}

/// EIP-196 ECMUL: k·P for a 256-bit big-endian k (not reduced), 64 bytes.
pub fn ecmul(input: &[u8]) -> Result<[u8; 64], Error> {
    let buf = padded::<96>(input);
    let p = g1(&buf[..64])?;
    let mut k = [0u8; 32];
    k.copy_from_slice(&buf[64..]);
    k.reverse();
    Ok(g1_out(
        &p.to_projective().mul_le_bytes_vartime(&k).to_affine(),
    ))
}

/// EIP-197 ECPAIRING: 32 bytes, the integer 1 when Π e(P_k, Q_k) = 1 (also for empty input),
/// else 0.
pub fn ecpairing(input: &[u8]) -> Result<[u8; 32], Error> {
    if !input.len().is_multiple_of(192) {
        return Err(Error::InvalidLength);
    }
    // Chunks of 16 pairs share a Miller loop; their products multiply.
    let mut acc = crate::Fp12::<Bn254>::ONE;
    let mut pairs = [(G1Affine::<Bn254>::identity(), G2Affine::<Bn254>::identity()); 16];
    for chunk in input.chunks(192 * 16) {
        let n = chunk.len() / 192;
        for (k, item) in chunk.chunks(192).enumerate() {
            let p = g1(&item[..64])?;
            let q = G2Affine::<Bn254>::from_uncompressed(&item[64..])?;
            pairs[k] = (p, q);
        }
        acc *= pairing::multi_miller_loop(&pairs[..n]);
    }
    let mut out = [0u8; 32];
    out[31] = bool::from(pairing::final_exponentiation(&acc).is_one()) as u8;
    Ok(out)
}
