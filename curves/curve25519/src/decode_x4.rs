//! The square roots of many point decodings at once (RFC 8032 §5.1.3 steps 2–3), on the
//! four 64-bit lanes of the generated lane field `FpX4` where the CPU has AVX-512 IFMA.
//!
//! Decoding an encoding costs one exponentiation x^((p − 5)/8), 251 squarings and 11
//! multiplications in a fixed chain (the reference chain of [`crate::field::pow_p58`]). A
//! batch verification decodes one R per signature. Here the chains of four encodings run in
//! the four lanes of one `FpX4` (one lane squaring per step instead of four scalar ones), and
//! two such vectors are stepped in lockstep so that their independent
//! multiply-add chains fill the latency of each other. Everything around the chain (y and
//! its canonicity, u = y² − 1, v = d·y² + 1, the √−1 correction and the sign) stays on the
//! scalar field, in [`crate::edwards`] and [`crate::field`]. Other CPUs take the scalar
//! lockstep of [`sqrt_ratio_many`] (four chains at a time, overlapped by the processor).
//!
//! Constant time in the values: the chain is a fixed sequence of lane operations and every
//! lane is converted out; only the number of encodings changes the time.

use alloc::vec::Vec;
use subtle::Choice;

use crate::field::{sqrt_ratio_many, Fe};

/// The implementations of [`sqrt_ratio_batch`]; [`sqrt_backend`] names the one it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SqrtBackend {
    /// Four chains per `FpX4` on AVX-512F/VL/IFMA (x86-64, detected once at run time).
    #[cfg_attr(not(all(target_arch = "x86_64", feature = "std")), allow(dead_code))]
    Avx512Ifma,
    /// Four chains in lockstep on the generated scalar field (every target).
    Scalar,
}

/// The backend this CPU runs: IFMA where `FpX4Cpu::detect` finds it, else scalar. Follows
/// the per-thread forcing of the Edwards lane code, so a verification forced onto the
/// scalar backend decodes on it too.
pub(crate) fn sqrt_backend() -> SqrtBackend {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if crate::edwards_x4::lane_cpu().is_some() {
        return SqrtBackend::Avx512Ifma;
    }
    SqrtBackend::Scalar
}

/// (is_square, r) for each pair (u_i, v_i) as [`crate::field::sqrt_ratio`] computes it: r a
/// square root of u/v when one exists (√−1-corrected), else an unspecified value with
/// is_square false; (u == 0, 0) for v = 0. `u` and `v` have the same length. `None` when
/// this CPU cannot run `backend`.
pub(crate) fn sqrt_ratio_batch(
    backend: SqrtBackend,
    u: &[Fe],
    v: &[Fe],
) -> Option<Vec<(Choice, Fe)>> {
    debug_assert_eq!(u.len(), v.len());
    match backend {
        SqrtBackend::Scalar => Some(sqrt_ratio_batch_scalar(u, v)),
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        SqrtBackend::Avx512Ifma => lanes::sqrt_ratio_batch(u, v),
        #[cfg(not(all(target_arch = "x86_64", feature = "std")))]
        SqrtBackend::Avx512Ifma => None,
    }
}

/// Four [`sqrt_ratio_many`] chains at a time; a short last group is padded with (0, 1).
fn sqrt_ratio_batch_scalar(u: &[Fe], v: &[Fe]) -> Vec<(Choice, Fe)> {
    const N: usize = 4;
    let mut out = Vec::with_capacity(u.len());
    for (uc, vc) in u.chunks(N).zip(v.chunks(N)) {
        let ug: [Fe; N] = core::array::from_fn(|j| uc.get(j).copied().unwrap_or(Fe::ZERO));
        let vg: [Fe; N] = core::array::from_fn(|j| vc.get(j).copied().unwrap_or(Fe::ONE));
        out.extend(sqrt_ratio_many(&ug, &vg).into_iter().take(uc.len()));
    }
    out
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
mod lanes {
    use alloc::vec::Vec;
    use fieldgen_generated::curve25519_p_x4::{FpX4, FpX4Cpu};
    use subtle::Choice;

    use crate::field::{sqrt_ratio_finish, Fe};

    /// `FpX4` vectors stepped in lockstep, 4·M chains per group. One vector's chain is
    /// latency-bound (254 lane squarings take longer than 254 scalar ones); two overlap
    /// and take 2.5 times less time per chain than four scalar chains in lockstep, and
    /// more than two gain nothing further (best-of timings of the squaring chain alone).
    const M: usize = 2;

    /// Groups of 4·M pairs; a short last group is padded with (0, 1), whose lanes are
    /// dropped.
    pub(super) fn sqrt_ratio_batch(u: &[Fe], v: &[Fe]) -> Option<Vec<(Choice, Fe)>> {
        let cpu = FpX4Cpu::detect()?;
        let mut out = Vec::with_capacity(u.len());
        for (uc, vc) in u.chunks(4 * M).zip(v.chunks(4 * M)) {
            let pad = |s: &[Fe], j: usize, fill: Fe| s.get(j).copied().unwrap_or(fill);
            let ug: [[Fe; 4]; M] =
                core::array::from_fn(|m| core::array::from_fn(|j| pad(uc, 4 * m + j, Fe::ZERO)));
            let vg: [[Fe; 4]; M] =
                core::array::from_fn(|m| core::array::from_fn(|j| pad(vc, 4 * m + j, Fe::ONE)));
            let ul: [FpX4; M] = core::array::from_fn(|m| to_lanes(cpu, &ug[m]));
            let vl: [FpX4; M] = core::array::from_fn(|m| to_lanes(cpu, &vg[m]));
            let (r, check) = cpu.run(|| candidate_roots(&ul, &vl));
            for m in 0..M {
                let (r, check) = (from_lanes(&r[m]), from_lanes(&check[m]));
                for j in 0..4 {
                    if 4 * m + j < uc.len() {
                        out.push(sqrt_ratio_finish(&ug[m][j], r[j], &check[j]));
                    }
                }
            }
        }
        Some(out)
    }

    fn to_lanes(cpu: FpX4Cpu, x: &[Fe; 4]) -> FpX4 {
        FpX4::from_le_bytes(cpu, &core::array::from_fn(|j| x[j].to_le_bytes()))
    }

    fn from_lanes(x: &FpX4) -> [Fe; 4] {
        // Lanes convert out canonical, so decoding cannot fail.
        x.to_le_bytes()
            .map(|b| Fe::from_le_bytes(&b).unwrap_or(Fe::ZERO))
    }

    /// Lane-wise r = u·v³·(u·v⁷)^((p−5)/8) and v·r² (RFC 8032 §5.1.3 step 2 and the
    /// left-hand side of step 3).
    #[inline(always)]
    fn candidate_roots(u: &[FpX4; M], v: &[FpX4; M]) -> ([FpX4; M], [FpX4; M]) {
        let v3 = mul(&sq(v, 1), v);
        let uv7 = mul(u, &mul(&sq(&v3, 1), v));
        let r = mul(&mul(u, &v3), &pow_p58(&uv7));
        let check = mul(v, &sq(&r, 1));
        (r, check)
    }

    /// x^(2^k), every vector squared before the next step.
    #[inline(always)]
    fn sq(x: &[FpX4; M], k: u32) -> [FpX4; M] {
        let mut y = *x;
        for _ in 0..k {
            for a in y.iter_mut() {
                *a = a.square();
            }
        }
        y
    }

    #[inline(always)]
    fn mul(a: &[FpX4; M], b: &[FpX4; M]) -> [FpX4; M] {
        core::array::from_fn(|m| a[m].mul(&b[m]))
    }

    /// x^(2^252 − 3), the chain of [`crate::field::pow_p58`] lane-wise.
    #[inline(always)]
    fn pow_p58(x: &[FpX4; M]) -> [FpX4; M] {
        let x2 = sq(x, 1);
        let x9 = mul(&sq(&x2, 2), x);
        let x11 = mul(&x9, &x2);
        let x_5_0 = mul(&sq(&x11, 1), &x9);
        let x_10_0 = mul(&sq(&x_5_0, 5), &x_5_0);
        let x_20_0 = mul(&sq(&x_10_0, 10), &x_10_0);
        let x_40_0 = mul(&sq(&x_20_0, 20), &x_20_0);
        let x_50_0 = mul(&sq(&x_40_0, 10), &x_10_0);
        let x_100_0 = mul(&sq(&x_50_0, 50), &x_50_0);
        let x_200_0 = mul(&sq(&x_100_0, 100), &x_100_0);
        let x_250_0 = mul(&sq(&x_200_0, 50), &x_50_0);
        mul(&sq(&x_250_0, 2), x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edwards::{mul_base, EdwardsPoint};
    use crate::field::{sqrt_ratio, Scalar};
    use alloc::vec;

    /// The backends this CPU runs, after checking the crate's detection against the
    /// standard library's (independent of `FpX4Cpu`'s CPUID code) and that the dispatch
    /// takes the lanes where they exist.
    fn backends() -> Vec<SqrtBackend> {
        let lanes = sqrt_ratio_batch(SqrtBackend::Avx512Ifma, &[Fe::ONE], &[Fe::ONE]).is_some();
        assert_eq!(lanes, crate::std_detects_ifma(), "IFMA lane availability");
        if lanes {
            assert_eq!(sqrt_backend(), SqrtBackend::Avx512Ifma);
            vec![SqrtBackend::Avx512Ifma, SqrtBackend::Scalar]
        } else {
            assert_eq!(sqrt_backend(), SqrtBackend::Scalar);
            vec![SqrtBackend::Scalar]
        }
    }

    struct Rng(u64);
    impl Rng {
        fn bytes(&mut self) -> [u8; 32] {
            let mut b = [0u8; 32];
            for chunk in b.chunks_mut(8) {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                chunk.copy_from_slice(&self.0.to_le_bytes());
            }
            b
        }
    }

    /// y as 32 little-endian bytes with the sign bit.
    fn enc(mut y: [u8; 32], sign: bool) -> [u8; 32] {
        y[31] |= u8::from(sign) << 7;
        y
    }

    /// p + k for small k, as 32 bytes below 2^255 (non-canonical encodings of y = k).
    fn p_plus(k: u8) -> [u8; 32] {
        let mut b = Fe::MODULUS_LE_BYTES;
        b[0] += k;
        b
    }

    /// Valid encodings (multiples of B, both signs of the order-4 points, the identity),
    /// non-squares, non-canonical y (p, p + 1, 2^255 − 1, with either sign bit), x = 0 with
    /// the sign bit set ((0, 1) and (0, −1)), sign-flipped valid points and random strings.
    fn encodings() -> Vec<[u8; 32]> {
        let small = |k: u64| -> [u8; 32] {
            let mut b = [0u8; 32];
            b[..8].copy_from_slice(&k.to_le_bytes());
            b
        };
        let minus_one = (-Fe::ONE).to_le_bytes();
        let mut out = vec![
            enc(small(1), false),
            enc(small(1), true),
            enc(minus_one, false),
            enc(minus_one, true),
            enc(small(0), false),
            enc(small(0), true),
            enc(small(2), false),
            enc(p_plus(0), false),
            enc(p_plus(0), true),
            enc(p_plus(1), false),
            enc(p_plus(1), true),
            enc([0xff; 32], false),
        ];
        for k in 1..10u64 {
            let e = mul_base(&Scalar::from_u64(k * 7919 + 3)).compress();
            out.push(e);
            let mut flipped = e;
            flipped[31] ^= 0x80;
            out.push(flipped);
        }
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        out.extend((0..24).map(|_| rng.bytes()));
        out
    }

    #[test]
    fn decompress_many_matches_decompress_on_each_backend() {
        let encs = encodings();
        let (mut valid, mut invalid) = (0, 0);
        for e in &encs {
            match EdwardsPoint::decompress(e) {
                Some(p) => {
                    // Independent of the square root: the encoding of the decoded point,
                    // through an inversion.
                    assert_eq!(p.compress(), *e);
                    valid += 1;
                }
                None => invalid += 1,
            }
        }
        assert!(
            valid >= 20 && invalid >= 15,
            "{valid} valid, {invalid} invalid"
        );
        for backend in backends() {
            // Every length up to 23 (most not a multiple of four, so short lane groups and
            // padding), at rotating offsets so that each encoding meets every lane.
            for len in 0..24 {
                for start in [0, 5, 13, 30] {
                    let batch: Vec<[u8; 32]> = (0..len)
                        .map(|i| encs[(start + 7 * i) % encs.len()])
                        .collect();
                    let got = EdwardsPoint::decompress_many_with(backend, &batch)
                        .expect("backend available");
                    assert_eq!(got.len(), len);
                    for (e, g) in batch.iter().zip(&got) {
                        match (EdwardsPoint::decompress(e), g) {
                            (None, None) => {}
                            (Some(a), Some(b)) => assert!(bool::from(a.ct_eq(b)), "{backend:?}"),
                            _ => panic!("{backend:?}: decompress_many disagrees on {e:?}"),
                        }
                    }
                }
            }
            // The dispatched entry point gives the same.
            let all = EdwardsPoint::decompress_many(&encs);
            for (e, g) in encs.iter().zip(&all) {
                assert_eq!(
                    EdwardsPoint::decompress(e).map(|p| p.compress()),
                    g.map(|p| p.compress())
                );
            }
        }
    }

    #[test]
    fn decoding_agrees_with_ed25519_dalek() {
        // ed25519-dalek reduces a non-canonical y and accepts x = 0 with the sign bit set,
        // which RFC 8032 §5.1.3 rejects; on every other encoding the two agree.
        let encs = encodings();
        for backend in backends() {
            let got = EdwardsPoint::decompress_many_with(backend, &encs).unwrap();
            for (e, g) in encs.iter().zip(&got) {
                let mut y = *e;
                y[31] &= 0x7f;
                let canonical = Fe::from_le_bytes(&y).is_some().into();
                let x_zero = y == Fe::ONE.to_le_bytes() || y == (-Fe::ONE).to_le_bytes();
                if canonical && !(x_zero && e[31] >> 7 == 1) {
                    let theirs = ed25519_dalek::VerifyingKey::from_bytes(e);
                    assert_eq!(g.is_some(), theirs.is_ok(), "{backend:?}: {e:?}");
                } else {
                    assert!(g.is_none(), "{backend:?}: non-canonical {e:?} accepted");
                }
            }
        }
    }

    #[test]
    fn lane_roots_match_scalar_sqrt_ratio() {
        // (is_square, r) on every backend against the scalar sqrt_ratio, and r²·v = u
        // whenever u/v is a square; includes u = 0, v = 0 and both.
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut u: Vec<Fe> = vec![Fe::ZERO, Fe::ONE, Fe::ZERO, -Fe::ONE, Fe::from_u64(4)];
        let mut v: Vec<Fe> = vec![Fe::ONE, Fe::ZERO, Fe::ZERO, Fe::ONE, Fe::ONE];
        for _ in 0..34 {
            let mut a = rng.bytes();
            let mut b = rng.bytes();
            a[31] &= 0x3f;
            b[31] &= 0x3f;
            u.push(Fe::from_le_bytes(&a).unwrap());
            v.push(Fe::from_le_bytes(&b).unwrap());
        }
        let mut squares = 0;
        for backend in backends() {
            let got = sqrt_ratio_batch(backend, &u, &v).unwrap();
            assert_eq!(got.len(), u.len());
            for ((ui, vi), (ok, r)) in u.iter().zip(&v).zip(&got) {
                let (want_ok, want_r) = sqrt_ratio(ui, vi);
                assert_eq!(bool::from(*ok), bool::from(want_ok), "{backend:?}");
                assert_eq!(*r, want_r, "{backend:?}");
                if bool::from(*ok) {
                    assert_eq!(r.square() * vi, *ui);
                    squares += 1;
                }
            }
        }
        assert!(squares >= 10);
    }
}
