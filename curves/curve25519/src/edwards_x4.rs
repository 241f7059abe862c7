//! edwards25519 point arithmetic with one point per lane vector, on AVX-512 IFMA: the four
//! coordinates (X, Y, Z, T) of an extended point in the four lanes of the generated lane field
//! `FpX4` (GF(2^255 − 19) in radix 2^51, one element per 64-bit lane of a ymm register).
//!
//! Formulas: Hisil, Wong, Carter, Dawson, "Twisted Edwards Curves Revisited", ASIACRYPT 2008,
//! with a = −1, in the arrangement of their parallel ("4 processors") formulas, where each
//! round of four independent field products becomes one lane-wise product:
//!
//! - a point to be added is kept in the cached form (Y − X, Y + X, 2Z, 2d·T) (one lane-wise
//!   product by [1, 1, 2, 2d] makes it from an extended point);
//! - addition (§3.1, 8M in two rounds): [A, B, D, C] = (Y1 − X1, Y1 + X1, Z1, T1) × cached;
//!   one add/sub by lane mask gives [E, G, F, H] = [B − A, D + C, D − C, B + A]; then
//!   (E, G, F, E) × (F, H, G, H) = (X3, Y3, Z3, T3). Subtraction takes (Y1 + X1, Y1 − X1, Z1,
//!   T1) instead (the cached form of −Q swaps its first two lanes and negates its last), and
//!   the opposite signs in the lanes of F and G, so no second table;
//! - doubling (§3.3, 4S + 4M in two rounds): (X, Y, Z, X + Y) squared lane-wise gives
//!   [X², Y², Z², (X + Y)²]; two add/subs give [H, G, F, E] = [X² + Y², Y² − X², 2Z² − G,
//!   (X + Y)² − H] (F and H negated relative to the paper, which negates all four output
//!   coordinates and so leaves the point unchanged); then (E, G, F, E) × (F, H, G, H).
//!
//! Every lane operation of `FpX4` ends with a carry round, so its output limbs are within
//! the bound every operation accepts (the generated code's `TIGHT`): sums of sums need no
//! extra `carry` here.
//!
//! Everything here except [`mul_base`] is variable time on public data (verification):
//! the digit of each step picks the table entry by index and decides whether to add at
//! all. [`mul_base`] (secret scalars: signing, key generation, X25519 base) reads every
//! table entry and keeps the wanted one by masks.

use alloc::{boxed::Box, vec, vec::Vec};
use core::cell::Cell;
use std::sync::OnceLock;
use std::thread_local;

use fieldgen_generated::curve25519_p_x4::{FpX4, FpX4Cpu};

use crate::edwards::{base_128_odd_multiples, base_odd_multiples, EdwardsPoint, BASE_WNAF_WIDTH};
use crate::field::{consts, Fe, Scalar};
use crate::scalar::{radix16_signed, radix_2c_vartime, wnaf_vartime};
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

/// The `vpermq` immediate that puts lane `l_j` of the input into lane j of the output.
const fn lanes(l0: i32, l1: i32, l2: i32, l3: i32) -> i32 {
    l0 | (l1 << 2) | (l2 << 4) | (l3 << 6)
}

/// (X, Y, Z, T) → (Y, Y, Z, T) and (X, X, X, X): with add/sub, (Y ∓ X, Y ± X, Z, T).
const YYZT: i32 = lanes(1, 1, 2, 3);
const XXXX: i32 = lanes(0, 0, 0, 0);
/// [A, B, D, C] → [B, D, D, B] and [A, C, C, A]: add/sub 0b0101 gives [E, G, F, H].
const BDDB: i32 = lanes(1, 2, 2, 1);
const ACCA: i32 = lanes(0, 3, 3, 0);
/// [B', A', D, C] (subtraction) → [B', D, D, B'] and [A', C, C, A']: add/sub 0b0011.
const BDDB_SUB: i32 = lanes(0, 2, 2, 0);
const ACCA_SUB: i32 = lanes(1, 3, 3, 1);
/// [E, G, F, H] → (E, G, F, E) and (F, H, G, H).
const EGFE: i32 = lanes(0, 1, 2, 0);
const FHGH: i32 = lanes(2, 3, 1, 3);
/// Doubling: (X, Y, Z, T) → (X, Y, Z, Y); [X², Y², Z², S] → [Y², Y², Z², S] and
/// [X², X², Z², X²]; [H, G, 2Z², S] → [H, H, G, H]; [H, G, F, E] → (E, G, F, E) and
/// (F, H, G, H).
const XYZY: i32 = lanes(0, 1, 2, 1);
const BBZS: i32 = lanes(1, 1, 2, 3);
const AAZA: i32 = lanes(0, 0, 2, 0);
const HHGH: i32 = lanes(0, 0, 1, 0);
const DBL_EGFE: i32 = lanes(3, 1, 2, 3);
const DBL_FHGH: i32 = lanes(2, 0, 1, 0);
/// Cached form of P → of −P up to the sign of the last lane: (Y + X, Y − X, 2Z, 2d·T).
const SWAP01: i32 = lanes(1, 0, 2, 3);

/// A point in extended coordinates, lanes (X, Y, Z, T).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ExtX4(FpX4);

/// A point prepared for addition, lanes (Y − X, Y + X, 2Z, 2d·T).
#[derive(Clone, Copy, Debug)]
pub(crate) struct CachedX4(FpX4);

/// Lane constants of one call.
#[derive(Clone, Copy)]
pub(crate) struct Lanes {
    zero: FpX4,
    /// [1, 1, 2, 2d]: (Y − X, Y + X, Z, T) → cached form.
    cache: FpX4,
    identity: ExtX4,
    /// The identity in cached form, (1, 1, 2, 0).
    cached_identity: CachedX4,
}

impl Lanes {
    pub(crate) fn new(cpu: FpX4Cpu) -> Lanes {
        let (one, two) = (Fe::ONE, Fe::from_u64(2));
        Lanes {
            zero: FpX4::zero(cpu),
            cache: FpX4::from_scalars(cpu, &[one, one, two, consts().d2]),
            identity: ExtX4(FpX4::from_scalars(cpu, &[Fe::ZERO, one, one, Fe::ZERO])),
            cached_identity: CachedX4(FpX4::from_scalars(cpu, &[one, one, two, Fe::ZERO])),
        }
    }
}

impl ExtX4 {
    pub(crate) fn from_point(cpu: FpX4Cpu, p: &EdwardsPoint) -> ExtX4 {
        ExtX4(FpX4::from_scalars(cpu, &p.coords()))
    }

    pub(crate) fn to_point(self) -> EdwardsPoint {
        EdwardsPoint::from_coords(self.0.to_scalars())
    }

    /// (Y − X, Y + X, Z, T) for `SUB_LANES` = 0b0001, (Y + X, Y − X, Z, T) for 0b0010.
    #[inline(always)]
    fn prepare<const SUB_LANES: u8>(&self, c: &Lanes) -> FpX4 {
        let x = self.0.permute::<XXXX>().blend(&c.zero, 0b1100);
        self.0.permute::<YYZT>().add_sub(&x, SUB_LANES)
    }

    /// P + Q (HWCD 2008 §3.1, two rounds of four products).
    #[inline(always)]
    pub(crate) fn add(&self, q: &CachedX4, c: &Lanes) -> ExtX4 {
        let m = self.prepare::<0b0001>(c).mul(&q.0);
        let t = m.permute::<BDDB>().add_sub(&m.permute::<ACCA>(), 0b0101);
        ExtX4(t.permute::<EGFE>().mul(&t.permute::<FHGH>()))
    }

    /// P − Q: the addition of −Q = (Y + X, Y − X, 2Z, −2d·T), with the swap moved to P's
    /// side ([B, A, D, C] = (Y1 + X1, Y1 − X1, Z1, T1) × cached) and C's sign to the masks.
    #[inline(always)]
    pub(crate) fn sub(&self, q: &CachedX4, c: &Lanes) -> ExtX4 {
        let m = self.prepare::<0b0010>(c).mul(&q.0);
        let t = m
            .permute::<BDDB_SUB>()
            .add_sub(&m.permute::<ACCA_SUB>(), 0b0011);
        ExtX4(t.permute::<EGFE>().mul(&t.permute::<FHGH>()))
    }

    /// 2P (HWCD 2008 §3.3, one lane-wise squaring and one product).
    #[inline(always)]
    pub(crate) fn double(&self, c: &Lanes) -> ExtX4 {
        let x_in_t = self.0.permute::<XXXX>().blend(&c.zero, 0b0111);
        let sq = self.0.permute::<XYZY>().add(&x_in_t).square();
        let aa = sq.permute::<AAZA>().blend(&c.zero, 0b1000);
        let r1 = sq.permute::<BBZS>().add_sub(&aa, 0b0010);
        let r2 = r1.add_sub(&r1.permute::<HHGH>().blend(&c.zero, 0b0011), 0b1100);
        ExtX4(r2.permute::<DBL_EGFE>().mul(&r2.permute::<DBL_FHGH>()))
    }

    /// [2^k]P.
    #[inline(always)]
    fn mul_by_pow2(&self, k: u32, c: &Lanes) -> ExtX4 {
        let mut r = *self;
        for _ in 0..k {
            r = r.double(c);
        }
        r
    }

    /// The cached form, one lane-wise product.
    #[inline(always)]
    pub(crate) fn to_cached(self, c: &Lanes) -> CachedX4 {
        CachedX4(self.prepare::<0b0001>(c).mul(&c.cache))
    }
}

/// Odd multiples P, 3P, ..., (2N − 1)P in cached form.
#[inline(always)]
fn odd_multiples<const N: usize>(p: &ExtX4, c: &Lanes) -> [CachedX4; N] {
    let p2 = p.double(c).to_cached(c);
    let mut q = *p;
    core::array::from_fn(|i| {
        if i > 0 {
            q = q.add(&p2, c);
        }
        q.to_cached(c)
    })
}

/// The static tables of odd multiples of B and 2^128·B (width-[`BASE_WNAF_WIDTH`] wNAF) in
/// cached lane form, built once from the scalar affine tables: (y − x, y + x, 2, 2d·x·y).
fn base_tables(cpu: FpX4Cpu) -> &'static [Box<[CachedX4]>; 2] {
    static T: OnceLock<[Box<[CachedX4]>; 2]> = OnceLock::new();
    T.get_or_init(|| {
        let two = Fe::from_u64(2);
        let lanes_of = |t: &[crate::edwards::AffineNiels]| -> Box<[CachedX4]> {
            t.iter()
                .map(|n| {
                    let [ymx, ypx, xy2d] = n.parts();
                    CachedX4(FpX4::from_scalars(cpu, &[ymx, ypx, two, xy2d]))
                })
                .collect()
        };
        [
            lanes_of(base_odd_multiples()),
            lanes_of(base_128_odd_multiples()),
        ]
    })
}

/// The fixed-base table of [`crate::edwards::mul_base`] (row j: k·256^j·B for k = 1..8) in
/// cached lane form (y − x, y + x, 2, 2d·x·y), built once per process (40 KiB).
fn mul_base_table(cpu: FpX4Cpu) -> &'static [[CachedX4; 8]; 32] {
    static T: OnceLock<Box<[[CachedX4; 8]; 32]>> = OnceLock::new();
    T.get_or_init(|| {
        let two = Fe::from_u64(2);
        let rows = crate::edwards::base_table();
        let mut table = Box::new([[CachedX4(FpX4::zero(cpu)); 8]; 32]);
        for (lane_row, row) in table.iter_mut().zip(rows.iter()) {
            for (lane, n) in lane_row.iter_mut().zip(row.iter()) {
                let [ymx, ypx, xy2d] = n.parts();
                *lane = CachedX4(FpX4::from_scalars(cpu, &[ymx, ypx, two, xy2d]));
            }
        }
        table
    })
}

/// e·row[0] in cached form from a row of 1..8 multiples, e in [−8, 8], in constant time:
/// all eight entries are read and the wanted one kept by `select`; −Q is made from Q by a
/// lane permutation and a negation of the last lane, and kept by `select` on the sign.
#[inline(always)]
fn select_signed(row: &[CachedX4; 8], e: i8, c: &Lanes) -> CachedX4 {
    let neg = ((e as u8) >> 7) & 1;
    // |e| ≤ 8: i8 arithmetic does not overflow.
    let abs = (e * (1 - 2 * neg as i8)) as u8;
    let choices: [Choice; 8] = [1u8, 2, 3, 4, 5, 6, 7, 8].map(|j| abs.ct_eq(&j));
    let mut q = c.cached_identity.0;
    for (entry, choice) in row.iter().zip(choices) {
        q = q.select(&entry.0, choice);
    }
    let swapped = q.permute::<SWAP01>();
    let negated = swapped.blend(&c.zero.sub(&swapped), 0b1000);
    CachedX4(q.select(&negated, Choice::from(neg)))
}

/// [`crate::edwards::mul_base`] on the lanes: [a]B, constant time in a. The same signed
/// radix-16 digits and table rows as the scalar code (Bernstein, Duif, Lange, Schwabe,
/// Yang, CHES 2011, §4): 64 lane additions of a masked lookup, 4 lane doublings. The
/// scalar's bytes, its digits and the returned lane accumulator are cleared; copies the
/// compiler leaves in registers or on the stack (as for the scalar code) are not reachable
/// from here.
pub(crate) fn mul_base(cpu: FpX4Cpu, a: &Scalar) -> EdwardsPoint {
    BASE_RUNS.with(|c| c.set(c.get() + 1));
    let table = mul_base_table(cpu);
    let mut bytes = a.to_le_bytes();
    let mut e = radix16_signed(&bytes);
    let mut r = cpu.run(|| {
        let c = Lanes::new(cpu);
        let mut r = c.identity;
        for i in (1..64).step_by(2) {
            r = r.add(&select_signed(&table[i / 2], e[i], &c), &c);
        }
        r = r.mul_by_pow2(4, &c);
        for i in (0..64).step_by(2) {
            r = r.add(&select_signed(&table[i / 2], e[i], &c), &c);
        }
        r
    });
    let p = r.to_point();
    r.0.clear();
    bytes.zeroize();
    e.zeroize();
    p
}

thread_local! {
    /// Whether the scalar code is forced on this thread (else the CPU decides; forcing the
    /// lanes is only allowed where the CPU has them, so it is the same as not forcing).
    static SCALAR_FORCED: Cell<bool> = const { Cell::new(false) };
    /// Multi-scalar multiplications run on the lanes by this thread.
    static RUNS: Cell<u64> = const { Cell::new(0) };
    /// Fixed-base multiplications run on the lanes by this thread.
    static BASE_RUNS: Cell<u64> = const { Cell::new(0) };
}

/// The lane field's CPU token when the verification equations and fixed-base
/// multiplications should run on the lanes:
/// the CPU has AVX-512F/VL/IFMA and the scalar code is not forced on this thread.
pub(crate) fn lane_cpu() -> Option<FpX4Cpu> {
    if SCALAR_FORCED.with(Cell::get) {
        return None;
    }
    FpX4Cpu::detect()
}

/// Whether the CPU runs the lane code.
pub(crate) fn available() -> bool {
    FpX4Cpu::detect().is_some()
}

/// Runs `f` with the lanes (`lanes` true) or the scalar code forced on this thread; the
/// previous setting comes back afterwards, also when `f` panics.
pub(crate) fn with_forced<R>(lanes: bool, f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            SCALAR_FORCED.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(SCALAR_FORCED.with(|c| c.replace(!lanes)));
    f()
}

/// How many multi-scalar multiplications this thread ran on the lanes.
pub(crate) fn runs() -> u64 {
    RUNS.with(Cell::get)
}

/// How many fixed-base multiplications ([`mul_base`]) this thread ran on the lanes.
pub(crate) fn base_runs() -> u64 {
    BASE_RUNS.with(Cell::get)
}

fn count_run() {
    RUNS.with(|c| c.set(c.get() + 1));
}

/// Straus's interleaving over wNAF digit rows and their tables of odd multiples (entry k is
/// (2k + 1)·P), from digit position `top` down.
#[inline(always)]
fn straus_rows(rows: &[(&[i16; 257], &[CachedX4])], top: usize, c: &Lanes) -> ExtX4 {
    let mut r = c.identity;
    for i in (0..=top).rev() {
        r = r.double(c);
        for (naf, table) in rows {
            let d = naf[i];
            if d > 0 {
                r = r.add(&table[(d / 2) as usize], c);
            } else if d < 0 {
                r = r.sub(&table[(-d / 2) as usize], c);
            }
        }
    }
    r
}

/// [`crate::edwards::is_identity_quad_vartime`] on the lanes: whether [a1]P1 + [a2]P2 +
/// [b_lo]B + [b_hi](2^128·B) is the identity. Width-5 wNAF for P1 and P2 (tables of 8 odd
/// multiples per call), width-10 wNAF over the static lane tables of B and 2^128·B.
pub(crate) fn is_identity_quad_vartime(
    cpu: FpX4Cpu,
    a1: &[u8; 32],
    p1: &EdwardsPoint,
    a2: &[u8; 32],
    p2: &EdwardsPoint,
    b_lo: &[u8; 32],
    b_hi: &[u8; 32],
) -> bool {
    count_run();
    let naf1 = wnaf_vartime(a1, 5);
    let naf2 = wnaf_vartime(a2, 5);
    let naf_lo = wnaf_vartime(b_lo, BASE_WNAF_WIDTH);
    let naf_hi = wnaf_vartime(b_hi, BASE_WNAF_WIDTH);
    let top = (0..257)
        .rev()
        .find(|&i| naf1[i] != 0 || naf2[i] != 0 || naf_lo[i] != 0 || naf_hi[i] != 0);
    let Some(top) = top else {
        return true;
    };
    let [tb, tb128] = base_tables(cpu);
    let (x1, x2) = (ExtX4::from_point(cpu, p1), ExtX4::from_point(cpu, p2));
    let r = cpu.run(|| {
        let c = Lanes::new(cpu);
        let t1: [CachedX4; 8] = odd_multiples(&x1, &c);
        let t2: [CachedX4; 8] = odd_multiples(&x2, &c);
        let rows = [
            (&naf1, &t1[..]),
            (&naf2, &t2[..]),
            (&naf_lo, &tb[..]),
            (&naf_hi, &tb128[..]),
        ];
        straus_rows(&rows, top, &c)
    });
    bool::from(r.to_point().is_identity())
}

/// [`crate::edwards::double_scalar_mul_basepoint_vartime`] on the lanes: [a]A + [b]B with
/// width-5 wNAF over 8 odd multiples of A (a stack array) and width-10 wNAF over B's static
/// lane table; the full-size fallback of single verification, so no allocation per call.
pub(crate) fn double_scalar_mul_basepoint_vartime(
    cpu: FpX4Cpu,
    a: &Scalar,
    point_a: &EdwardsPoint,
    b: &Scalar,
) -> EdwardsPoint {
    count_run();
    let naf_a = wnaf_vartime(&a.to_le_bytes(), 5);
    let naf_b = wnaf_vartime(&b.to_le_bytes(), BASE_WNAF_WIDTH);
    let top = (0..257).rev().find(|&i| naf_a[i] != 0 || naf_b[i] != 0);
    let Some(top) = top else {
        return EdwardsPoint::IDENTITY;
    };
    let tb = &base_tables(cpu)[0];
    let xa = ExtX4::from_point(cpu, point_a);
    cpu.run(|| {
        let c = Lanes::new(cpu);
        let ta: [CachedX4; 8] = odd_multiples(&xa, &c);
        let rows = [(&naf_a, &ta[..]), (&naf_b, &tb[..])];
        straus_rows(&rows, top, &c)
    })
    .to_point()
}

/// [`crate::edwards::straus_vartime`] on the lanes: [base]B + Σ scalars_i·points_i with
/// width-5 wNAF over 8 odd multiples per point and width-10 wNAF over B's static lane table.
pub(crate) fn straus_vartime(
    cpu: FpX4Cpu,
    base: Option<&Scalar>,
    scalars: &[Scalar],
    points: &[EdwardsPoint],
) -> EdwardsPoint {
    count_run();
    let nafs: Vec<[i16; 257]> = scalars
        .iter()
        .map(|s| wnaf_vartime(&s.to_le_bytes(), 5))
        .collect();
    let naf_b = base.map(|b| wnaf_vartime(&b.to_le_bytes(), BASE_WNAF_WIDTH));
    let top = (0..257)
        .rev()
        .find(|&i| nafs.iter().any(|n| n[i] != 0) || naf_b.as_ref().is_some_and(|n| n[i] != 0));
    let Some(top) = top else {
        return EdwardsPoint::IDENTITY;
    };
    let tb = &base_tables(cpu)[0];
    let xs: Vec<ExtX4> = points.iter().map(|p| ExtX4::from_point(cpu, p)).collect();
    cpu.run(|| {
        let c = Lanes::new(cpu);
        let tables: Vec<[CachedX4; 8]> = xs.iter().map(|p| odd_multiples(p, &c)).collect();
        let mut rows: Vec<(&[i16; 257], &[CachedX4])> =
            nafs.iter().zip(&tables).map(|(n, t)| (n, &t[..])).collect();
        if let Some(n) = &naf_b {
            rows.push((n, &tb[..]));
        }
        straus_rows(&rows, top, &c)
    })
    .to_point()
}

/// [`crate::edwards::pippenger_vartime`] on the lanes: Σ scalars_i·points_i by Pippenger's
/// buckets with signed radix-2^c digits, c as in the scalar code.
pub(crate) fn pippenger_vartime(
    cpu: FpX4Cpu,
    scalars: &[Scalar],
    points: &[EdwardsPoint],
) -> EdwardsPoint {
    count_run();
    let n = scalars.len();
    let c_bits: u32 = if n < 500 {
        6
    } else if n < 800 {
        7
    } else {
        8
    };
    let digits: Vec<Vec<i32>> = scalars
        .iter()
        .map(|s| radix_2c_vartime(&s.to_le_bytes(), c_bits as usize))
        .collect();
    let windows = digits.first().map_or(0, Vec::len);
    let xs: Vec<ExtX4> = points.iter().map(|p| ExtX4::from_point(cpu, p)).collect();
    cpu.run(|| {
        let c = Lanes::new(cpu);
        let cached: Vec<CachedX4> = xs.iter().map(|p| p.to_cached(&c)).collect();
        let mut buckets = vec![c.identity; 1usize << (c_bits - 1)];
        let mut acc = c.identity;
        for w in (0..windows).rev() {
            acc = acc.mul_by_pow2(c_bits, &c);
            buckets.fill(c.identity);
            for (ds, p) in digits.iter().zip(&cached) {
                let d = ds[w];
                if d > 0 {
                    let b = &mut buckets[(d - 1) as usize];
                    *b = b.add(p, &c);
                } else if d < 0 {
                    let b = &mut buckets[(-d - 1) as usize];
                    *b = b.sub(p, &c);
                }
            }
            // Σ k·bucket_k as running sums from the top bucket down.
            let mut running = c.identity;
            let mut sum = c.identity;
            for b in buckets.iter().rev() {
                running = running.add(&b.to_cached(&c), &c);
                sum = sum.add(&running.to_cached(&c), &c);
            }
            acc = acc.add(&sum.to_cached(&c), &c);
        }
        acc
    })
    .to_point()
}

#[cfg(test)]
mod tests {
    //! The lane formulas against the scalar extended-coordinate formulas of `edwards.rs`
    //! (HWCD §3.1/§3.3 one product at a time), and the lane multi-scalar multiplications
    //! against the scalar ones and against the fixed-base multiplication of a summed scalar.

    use super::*;
    use crate::edwards::{basepoint, mul_base_scalar, mul_vartime};
    use crate::scalar::scalar_from_bytes_mod_order;
    use std::format;

    fn cpu() -> Option<FpX4Cpu> {
        let cpu = FpX4Cpu::detect();
        assert_eq!(
            cpu.is_some(),
            std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512vl")
                && std::is_x86_feature_detected!("avx512ifma"),
            "lane field detection disagrees with the standard library"
        );
        cpu
    }

    /// Deterministic scalars (splitmix64 words).
    fn scalar(i: u64) -> Scalar {
        let seed = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x1234_5678;
        let mut b = [0u8; 32];
        fieldgen_test_support::SplitMix64(seed).fill_le_bytes(&mut b);
        scalar_from_bytes_mod_order(&b)
    }

    /// A point of order 8, as [l]Q for a curve point Q outside the prime-order subgroup:
    /// [l]Q = [2^252]Q + [l − 2^252]Q, and l − 2^252 ≡ −2^252 (mod l) is canonical below l.
    /// Computed with the scalar code only.
    fn order_8_point() -> EdwardsPoint {
        let mut two_252 = [0u8; 32];
        two_252[31] = 0x10;
        let c = -Scalar::from_le_bytes(&two_252).unwrap();
        for y in 2u64.. {
            let Some(q) = EdwardsPoint::decompress(&Fe::from_u64(y).to_le_bytes()) else {
                continue;
            };
            let mut q252 = q;
            for _ in 0..252 {
                q252 = q252.double();
            }
            let t =
                with_forced(false, || crate::edwards::straus_vartime(None, &[c], &[q])).add(&q252);
            let t4 = t.double().double();
            if !bool::from(t4.is_identity()) {
                assert!(bool::from(t4.double().is_identity()), "8·[l]Q = identity");
                return t;
            }
        }
        unreachable!()
    }

    /// Random points, random points with a torsion component, and the edge cases: the
    /// identity, points of order 2, 4 and 8, B, −B, P + (−P) (the identity with Z ≠ 1).
    fn points() -> Vec<EdwardsPoint> {
        let b = basepoint();
        let t8 = order_8_point();
        let t4 = t8.double();
        let t2 = t4.double();
        let mut v = vec![
            EdwardsPoint::IDENTITY,
            t2,
            t4,
            t8,
            t8.neg(),
            b,
            b.neg(),
            b.add(&b.neg()),
            mul_base_scalar(&scalar(99)).add(&mul_base_scalar(&scalar(99)).neg()),
        ];
        for i in 0..12 {
            let p = mul_base_scalar(&scalar(i));
            v.push(p);
            v.push(p.add(&t8));
            v.push(p.double().add(&t4));
        }
        v
    }

    fn same(lane: ExtX4, want: &EdwardsPoint, what: &str) {
        let got = lane.to_point();
        assert!(bool::from(got.ct_eq(want)), "{what}");
        // The extended coordinates stay consistent: X·Y = Z·T.
        let [x, y, z, t] = got.coords();
        assert_eq!(x * y, z * t, "{what}: T");
        assert!(!bool::from(z.is_zero()), "{what}: Z = 0");
    }

    #[test]
    fn lane_formulas_match_the_scalar_formulas() {
        let Some(cpu) = cpu() else { return };
        let c = Lanes::new(cpu);
        let pts = points();
        for (i, p) in pts.iter().enumerate() {
            let xp = ExtX4::from_point(cpu, p);
            same(xp, p, "conversion");
            let dbl = xp.double(&c);
            same(dbl, &p.double(), &format!("2P, point {i}"));
            // Doubling against addition to itself, in the lanes.
            same(xp.add(&xp.to_cached(&c), &c), &p.double(), "P + P");
            same(
                xp.sub(&xp.to_cached(&c), &c),
                &EdwardsPoint::IDENTITY,
                "P − P",
            );
            same(dbl.double(&c).double(&c), &p.mul_by_cofactor(), "8P");
            for (j, q) in pts.iter().enumerate() {
                let xq = ExtX4::from_point(cpu, q).to_cached(&c);
                same(xp.add(&xq, &c), &p.add(q), &format!("P{i} + P{j}"));
                same(xp.sub(&xq, &c), &p.add(&q.neg()), &format!("P{i} − P{j}"));
            }
        }
        // The static tables: entry k of each is (2k + 1)·B and (2k + 1)·2^128·B.
        let [tb, tb128] = base_tables(cpu);
        let mut b128 = basepoint();
        for _ in 0..128 {
            b128 = b128.double();
        }
        for k in [0usize, 1, 2, 100, 255] {
            let odd = Scalar::from_u64(2 * k as u64 + 1);
            let id = c.identity;
            same(id.add(&tb[k], &c), &mul_base_scalar(&odd), "B table");
            let mut want = EdwardsPoint::IDENTITY;
            for _ in 0..2 * k + 1 {
                want = want.add(&b128);
            }
            same(id.add(&tb128[k], &c), &want, "2^128·B table");
            same(id.sub(&tb[k], &c), &mul_base_scalar(&-odd), "−B table");
        }
    }

    #[test]
    fn lane_multiscalar_multiplications_match_the_scalar_ones() {
        let Some(cpu) = cpu() else { return };
        let t8 = order_8_point();
        for n in [0usize, 1, 2, 7, 64, 200] {
            let scalars: Vec<Scalar> = (0..n as u64).map(|i| scalar(1000 + i)).collect();
            let ks: Vec<Scalar> = (0..n as u64).map(|i| scalar(5000 + i)).collect();
            // Points k_i·B with torsion added to every third one.
            let points: Vec<EdwardsPoint> = ks
                .iter()
                .enumerate()
                .map(|(i, k)| {
                    let p = mul_base_scalar(k);
                    if i % 3 == 0 {
                        p.add(&t8)
                    } else {
                        p
                    }
                })
                .collect();
            let base = scalar(7);
            let scalar_straus = with_forced(false, || {
                crate::edwards::straus_vartime(Some(&base), &scalars, &points)
            });
            let lane_straus = straus_vartime(cpu, Some(&base), &scalars, &points);
            assert!(
                bool::from(lane_straus.ct_eq(&scalar_straus)),
                "Straus, n = {n}"
            );
            let lane_pip = pippenger_vartime(cpu, &scalars, &points);
            let scalar_pip = with_forced(false, || {
                crate::edwards::pippenger_vartime(&scalars, &points)
            });
            assert!(
                bool::from(lane_pip.ct_eq(&scalar_pip)),
                "Pippenger, n = {n}"
            );
            // Cofactor-cleared, the sum is [Σ s_i·k_i]B, summed in the scalar field.
            let mut total = Scalar::ZERO;
            for (s, k) in scalars.iter().zip(&ks) {
                total += s * k;
            }
            let want = mul_base_scalar(&total).mul_by_cofactor();
            assert!(
                bool::from(lane_pip.mul_by_cofactor().ct_eq(&want)),
                "n = {n}"
            );
            let want_b = mul_base_scalar(&(total + base)).mul_by_cofactor();
            assert!(
                bool::from(lane_straus.mul_by_cofactor().ct_eq(&want_b)),
                "n = {n}"
            );
        }
    }

    #[test]
    fn lane_double_scalar_matches_the_scalar_one() {
        let Some(cpu) = cpu() else { return };
        let t8 = order_8_point();
        let zero = Scalar::ZERO;
        for i in 0..12u64 {
            let k = scalar(300 + i);
            let p = if i % 2 == 0 {
                mul_base_scalar(&k).add(&t8)
            } else {
                mul_base_scalar(&k)
            };
            let (a, b) = match i {
                0 => (zero, zero),
                1 => (zero, scalar(77)),
                2 => (scalar(77), zero),
                _ => (scalar(9000 + i), scalar(40 + i)),
            };
            let lane = double_scalar_mul_basepoint_vartime(cpu, &a, &p, &b);
            let scalar_code = with_forced(false, || {
                crate::edwards::double_scalar_mul_basepoint_vartime(&a, &p, &b)
            });
            assert!(bool::from(lane.ct_eq(&scalar_code)), "i = {i}");
            // Cofactor-cleared: [a·k + b]B.
            let want = mul_base_scalar(&(a * k + b)).mul_by_cofactor();
            assert!(bool::from(lane.mul_by_cofactor().ct_eq(&want)), "i = {i}");
        }
    }

    #[test]
    fn lane_quad_equation_matches_the_scalar_one() {
        let Some(cpu) = cpu() else { return };
        let t8 = order_8_point();
        let half = |s: &Scalar| {
            let mut b = s.to_le_bytes();
            b[16..].fill(0);
            b
        };
        for i in 0..40u64 {
            // [a1]P1 + [a2]P2 + [b_lo]B + [b_hi]2^128·B with P1 = k1·B (+ torsion), P2 = k2·B:
            // the identity when b ≡ −(a1·k1 + a2·k2) and no torsion is left.
            let (a1, a2) = (half(&scalar(3 * i)), half(&scalar(3 * i + 1)));
            let (k1, k2) = (scalar(100 + i), scalar(200 + i));
            let s1 = Scalar::from_le_bytes(&a1).unwrap();
            let s2 = Scalar::from_le_bytes(&a2).unwrap();
            let b = -(s1 * k1 + s2 * k2);
            let bb = b.to_le_bytes();
            let (mut b_lo, mut b_hi) = ([0u8; 32], [0u8; 32]);
            b_lo[..16].copy_from_slice(&bb[..16]);
            b_hi[..16].copy_from_slice(&bb[16..]);
            let p2 = mul_base_scalar(&k2);
            // [a1]T for the order-8 point T vanishes iff 8 | a1.
            for (p1, a1, holds) in [
                (mul_base_scalar(&k1), a1, true),
                (mul_base_scalar(&k1).add(&t8), a1, a1[0] % 8 == 0),
                (mul_base_scalar(&k1).add(&basepoint()), a1, false),
            ] {
                let lane = is_identity_quad_vartime(cpu, &a1, &p1, &a2, &p2, &b_lo, &b_hi);
                let scalar = with_forced(false, || {
                    crate::edwards::is_identity_quad_vartime(&a1, &p1, &a2, &p2, &b_lo, &b_hi)
                });
                assert_eq!(lane, holds, "i = {i}");
                assert_eq!(scalar, holds, "i = {i}");
            }
        }
        let zero = [0u8; 32];
        let p = basepoint();
        assert!(is_identity_quad_vartime(
            cpu, &zero, &p, &zero, &p, &zero, &zero
        ));
    }

    /// The masked lane lookup against the scalar one (itself checked against naive
    /// multiples in edwards.rs) for every row and every digit −8..=8.
    #[test]
    fn lane_lookup_matches_the_scalar_lookup() {
        let Some(cpu) = cpu() else { return };
        let lane_rows = mul_base_table(cpu);
        let rows = crate::edwards::base_table();
        let two = Fe::from_u64(2);
        let c = Lanes::new(cpu);
        for (lane_row, row) in lane_rows.iter().zip(rows.iter()) {
            for e in -8i8..=8 {
                let got = cpu.run(|| select_signed(lane_row, e, &c)).0.to_scalars();
                let [ymx, ypx, xy2d] = crate::edwards::select_signed(row, e).parts();
                assert_eq!(got, [ymx, ypx, two, xy2d], "digit {e}");
            }
        }
    }

    /// Lane fixed-base multiplication against the scalar fixed-base code and against the
    /// variable-base double-and-add of edwards.rs (separate code, no table).
    #[test]
    fn lane_mul_base_matches_the_scalar_code() {
        let Some(cpu) = cpu() else { return };
        let b = basepoint();
        let mut l_minus_1 = [
            0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9,
            0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
        ];
        l_minus_1[0] -= 1;
        let mut two_252 = [0u8; 32];
        two_252[31] = 0x10;
        // Nibbles 8, 7, 7, ..., 7, 0: every signed digit below the top is −8 (carry 1).
        let mut minus_8s = [0x77u8; 32];
        minus_8s[0] = 0x78;
        minus_8s[31] = 0x07;
        let mut scalars: Vec<Scalar> = [[0u8; 32], l_minus_1, two_252, minus_8s]
            .iter()
            .map(scalar_from_bytes_mod_order)
            .collect();
        scalars.push(Scalar::from_u64(1));
        scalars.extend((0..40).map(scalar));
        let e = radix16_signed(&minus_8s);
        assert!(e[..63].iter().all(|&d| d == -8), "{e:?}");
        assert_eq!(scalars[1].to_le_bytes(), l_minus_1, "l − 1 is canonical");
        for (i, s) in scalars.iter().enumerate() {
            let before = base_runs();
            let lane = mul_base(cpu, s);
            assert_eq!(base_runs(), before + 1);
            let dispatched = crate::edwards::mul_base(s);
            assert_eq!(base_runs(), before + 2, "dispatch took the lanes");
            let scalar = mul_base_scalar(s);
            assert!(bool::from(lane.ct_eq(&scalar)), "scalar {i}");
            assert!(bool::from(dispatched.ct_eq(&scalar)), "scalar {i}");
            assert!(bool::from(lane.ct_eq(&mul_vartime(s, &b))), "scalar {i}");
            let [x, y, z, t] = lane.coords();
            assert_eq!(x * y, z * t, "scalar {i}: T");
        }
        let forced = with_forced(false, || crate::edwards::mul_base(&scalars[7]));
        assert!(bool::from(forced.ct_eq(&mul_base(cpu, &scalars[7]))));
    }
}
