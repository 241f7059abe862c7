//! The X25519 ladder four quantities at a time on AVX-512 IFMA, over the generated lane field
//! `FpX4` (four elements of GF(2^255 − 19) in radix 2^51, one per 64-bit lane of a ymm
//! register).
//!
//! The ladder step of RFC 7748 §5 in three rounds of four-lane products, following the 4-way
//! arrangement of Hisil, Egrioglu and Koçak ("Fast 4 way vectorized ladder for the complete
//! set of Montgomery curves", 2020) with the state (x2, z2, x3, z3) in lanes 0..3:
//!
//! 1. [A, B, C, D] = [x2 + z2, x2 − z2, x3 + z3, x3 − z3] (one add/sub by lane mask);
//!    product with [A, B, B, A]: [AA, BB, CB, DA];
//! 2. [AA, E, DA + CB, DA − CB] with E = AA − BB, times [BB, AA + a24·E, DA + CB, DA − CB]:
//!    [x2', z2', x3', (DA − CB)²] (a24·E is the lane-wise product by [0, a24, 0, 0]);
//! 3. times [1, 1, 1, x1]: z3' = x1·(DA − CB)².
//!
//! The conditional swap of (x2, z2) with (x3, z3) is the lane permutation (2, 3, 0, 1)
//! selected by a mask derived from the scalar bit (`FpX4::select`): no branch, no secret
//! index. The final inversion runs on the scalar field.

use fieldgen_generated::curve25519_p_x4::{FpX4, FpX4Cpu};
use subtle::Choice;
use zeroize::Zeroize;

use crate::field::Fe;

/// Lanes (2, 3, 0, 1): swaps (x2, z2) with (x3, z3).
const SWAP: i32 = 0b01_00_11_10;
/// (0, 0, 2, 2) and (1, 1, 3, 3): x2, x2, x3, x3 and z2, z2, z3, z3.
const XX: i32 = 0b10_10_00_00;
const ZZ: i32 = 0b11_11_01_01;
/// (0, 1, 1, 0): [A, B, C, D] → [A, B, B, A].
const ABBA: i32 = 0b00_01_01_00;
/// (0, 0, 3, 3): [AA, BB, CB, DA] → [AA, AA, DA, DA].
const AA_DA: i32 = 0b11_11_00_00;
/// (0, 1, 2, 2): [AA, BB, CB, DA] → [AA, BB, CB, CB] (lane 0 then zeroed).
const BB_CB: i32 = 0b10_10_01_00;
/// (1, 0, 3, 3): [AA, BB, CB, DA] → [BB, AA, DA, DA] (lanes 2, 3 then replaced).
const BB_AA: i32 = 0b11_11_00_01;

/// Whether this CPU runs the lane field.
pub(crate) fn available() -> bool {
    FpX4Cpu::detect().is_some()
}

/// The ladder of RFC 7748 §5 on the clamped scalar `k` and u = `x1`: (x2, z2) with
/// u([k]P) = x2/z2. `None` when the CPU lacks AVX-512 IFMA. Constant time in `k` and `x1`.
pub(crate) fn ladder(k: &[u8; 32], x1: &Fe) -> Option<(Fe, Fe)> {
    let cpu = FpX4Cpu::detect()?;
    Some(cpu.run(|| ladder_lanes(cpu, k, x1)))
}

#[inline(always)]
fn ladder_lanes(cpu: FpX4Cpu, k: &[u8; 32], x1: &Fe) -> (Fe, Fe) {
    let (one, zero, u) = (Fe::ONE.to_le_bytes(), [0u8; 32], x1.to_le_bytes());
    let x1v = FpX4::from_le_bytes(cpu, &[one, one, one, u]);
    let mut s = FpX4::from_le_bytes(cpu, &[one, zero, u, one]);
    let zero_lanes = FpX4::zero(cpu);
    let mut swap = 0u8;
    for t in (0..255).rev() {
        let k_t = (k[t >> 3] >> (t & 7)) & 1;
        swap ^= k_t;
        s = s.select(&s.permute::<SWAP>(), Choice::from(swap));
        swap = k_t;

        let abcd = s.permute::<XX>().add_sub(&s.permute::<ZZ>(), 0b1010);
        let m1 = abcd.mul(&abcd.permute::<ABBA>());
        let l = m1
            .permute::<AA_DA>()
            .add_sub(&m1.permute::<BB_CB>().blend(&zero_lanes, 0b0001), 0b1010);
        // a24 = (A − 2)/4 = 121665 (RFC 7748 §5).
        let r = m1
            .permute::<BB_AA>()
            .blend(&l, 0b1100)
            .add(&l.mul_small([0, 121665, 0, 0]));
        s = l.mul(&r).mul(&x1v);
    }
    s = s.select(&s.permute::<SWAP>(), Choice::from(swap));
    swap.zeroize();
    let mut b = s.to_le_bytes();
    s.clear();
    // Canonical encodings always decode.
    let x2 = Fe::from_le_bytes(&b[0]).unwrap_or(Fe::ZERO);
    let z2 = Fe::from_le_bytes(&b[1]).unwrap_or(Fe::ZERO);
    b.zeroize();
    (x2, z2)
}
