//! τ-adic NAF scalar multiplication on the Koblitz curves E_a: y² + xy = x³ + a·x² + 1,
//! a ∈ {0, 1}, over GF(2^m) (Solinas, "Efficient arithmetic on Koblitz curves", Designs,
//! Codes and Cryptography 19, 2000; Guide to ECC §3.4). Variable time throughout: for
//! verification and other public scalars only.
//!
//! The Frobenius map τ(x, y) = (x², y²) is an endomorphism of E_a satisfying
//! τ² − μ·τ + 2 = 0 with μ = (−1)^(1−a) (Solinas §3), so Z\[τ\] acts on the points and
//! a scalar k can be written as Σ uᵢ·τ^i with few nonzero digits; k·P is then a run of
//! Frobenius maps (three squarings in López–Dahab coordinates) and additions, without
//! doublings.
//!
//! - Arithmetic in Z\[τ\]: (a0 + a1τ)(b0 + b1τ) = (a0b0 − 2a1b1) + (a0b1 + a1b0 + μa1b1)τ,
//!   the norm N(r0 + r1τ) = r0² + μr0r1 + 2r1², the conjugate of r0 + r1τ is
//!   (r0 + μr1) − r1τ; the Lucas sequence U₀ = 0, U₁ = 1, U_{k+1} = μU_k − 2U_{k−1} gives
//!   τ^k = U_k·τ − 2U_{k−1} (Solinas §4).
//! - Partial reduction (Solinas §5, "k partmod δ"): with δ = (τ^m − 1)/(τ − 1), every point P
//!   of the subgroup of prime order n = N(δ) has δ·P = O, so k·P = ρ·P for ρ = k − q·δ where
//!   q is k/δ rounded in Z\[τ\] (Solinas Routine 60 = Guide Algorithm 3.63). Then
//!   N(ρ) ≤ 4/7·n and the expansion of ρ has about m digits instead of 2m. The quotient is
//!   k/δ = (k·s0 + k·s1·τ)/n with s0 = d0 + μd1, s1 = −d1 for δ = d0 + d1τ (multiplying by
//!   the conjugate), computed exactly with `num-bigint`.
//! - Width-w τNAF (Solinas §6–§7 "TNAF_w", Guide Algorithm 3.69): the map τ ↦ t_w with
//!   t_w = 2U_{w−1}·U_w⁻¹ mod 2^w is a ring homomorphism Z\[τ\] → Z/2^w with kernel τ^w·Z\[τ\];
//!   for odd u, α_u = u mods τ^w (u minus the rounded quotient times τ^w). While ρ ≠ 0: if
//!   r0 is odd, u = (r0 + r1·t_w) mods 2^w, the digit is sign(u)·α_|u| and ρ −= sign(u)·α_|u|,
//!   which makes ρ divisible by τ^w (the next w − 1 digits are zero); then ρ ← ρ/τ.
//! - Multiplication: the points α_u·P (u = 1, 3, …, 2^(w−1) − 1) are sums of ±τ^j(P) read off
//!   the plain τNAF of α_u, normalised together; then Horner's rule with τ in place of
//!   doubling. The double multiplication u1·G + u2·Q of ECDSA verification interleaves the
//!   two expansions (Straus), with G's table at width 6 kept by the curve.
//!
//! The constants (μ, U_m, δ, n, s0, s1, t_w, α_u) are computed from a and m by
//! [`TauParams::new`], never typed in; the tests compare N(δ) with the published group
//! orders.

use alloc::vec;
use alloc::vec::Vec;

use fieldgen_field::{BinaryField, Field};
use num_bigint::{BigInt, Sign};
use num_traits::{One, Signed, Zero};
use subtle::{Choice, ConstantTimeEq};

use crate::group::{AffinePoint, BinaryCurve, ProjectivePoint};

/// Smallest window width accepted by the τNAF routines (plain τNAF, digits ±1).
pub const MIN_WIDTH: u32 = 2;
/// Largest window width accepted (digits below 2^6 in absolute value).
pub const MAX_WIDTH: u32 = 7;
/// Width of the generator's table in [`double_mul_vartime`] when the curve keeps one
/// (2^(6−2) = 16 affine points).
pub const GENERATOR_WIDTH: u32 = 6;
/// Width of the variable point's digits (8 affine points built per call).
pub const POINT_WIDTH: u32 = 5;

/// An element r0 + r1·τ of Z\[τ\].
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ZTau {
    /// The rational part r0.
    pub r0: BigInt,
    /// The coefficient r1 of τ.
    pub r1: BigInt,
}

impl ZTau {
    /// r0 + r1·τ.
    pub fn new(r0: BigInt, r1: BigInt) -> Self {
        ZTau { r0, r1 }
    }

    /// Whether r0 = r1 = 0.
    pub fn is_zero(&self) -> bool {
        self.r0.is_zero() && self.r1.is_zero()
    }
}

/// Why a τNAF routine refused its input (variable-time code on public data: an error, never a
/// panic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TnafError {
    /// The width is outside [`MIN_WIDTH`]..=[`MAX_WIDTH`].
    Width,
    /// The element's coordinates exceed the fixed-width arithmetic of the expansion
    /// (2^1200); reduce it first with [`TauParams::partmod_delta_vartime`].
    TooLarge,
}

/// The τ-adic constants of E_a over GF(2^m), computed from a and m (module docs).
#[derive(Clone, Debug)]
pub struct TauParams {
    mu: i64,
    m: u32,
    delta: ZTau,
    n: BigInt,
    s0: BigInt,
    s1: BigInt,
    t: [u64; MAX_WIDTH as usize + 1],
    alphas: Vec<Vec<(i64, i64)>>,
    /// The plain τNAF (w = 2) of each α_u, for building the tables α_u·P.
    alpha_digits: Vec<Vec<Vec<i8>>>,
}

/// (−1)^(1−a).
fn mu_of(a_is_one: bool) -> i64 {
    if a_is_one {
        1
    } else {
        -1
    }
}

/// (U_{k−1}, U_k) of the Lucas sequence of μ (module docs), k ≥ 1.
pub fn lucas(mu: i64, k: u32) -> (BigInt, BigInt) {
    let (mut prev, mut cur) = (BigInt::zero(), BigInt::one());
    for _ in 1..k {
        let next = &cur * mu - (&prev << 1u32);
        prev = core::mem::replace(&mut cur, next);
    }
    (prev, cur)
}

impl TauParams {
    /// The constants for y² + xy = x³ + a·x² + 1 over GF(2^m) (`a_is_one`: a = 1). Costs m
    /// steps of the Lucas sequence and a few multiplications of m-bit integers: build once.
    pub fn new(a_is_one: bool, m: u32) -> Self {
        let mu = mu_of(a_is_one);
        // τ^m − 1 = (−2U_{m−1} − 1) + U_m·τ; δ = (τ^m − 1)/(τ − 1), an exact quotient.
        let (um1, um) = lucas(mu, m);
        let num = ZTau::new(-(um1 << 1u32) - 1, um);
        let den = ZTau::new(BigInt::from(-1), BigInt::one());
        let (q, n_den) = mul_conj(mu, &num, &den);
        // N(τ − 1) = 3 − μ divides both coordinates (δ ∈ Z[τ]).
        let delta = ZTau::new(q.r0 / &n_den, q.r1 / &n_den);
        let n = norm(mu, &delta);
        let s0 = &delta.r0 + &delta.r1 * mu;
        let s1 = -delta.r1.clone();
        let mut t = [0u64; MAX_WIDTH as usize + 1];
        let mut alphas = vec![Vec::new(); MAX_WIDTH as usize + 1];
        for w in MIN_WIDTH..=MAX_WIDTH {
            t[w as usize] = t_w(mu, w);
            let (uw1, uw) = lucas(mu, w);
            let tau_w = ZTau::new(-(uw1 << 1u32), uw);
            alphas[w as usize] = (1..(1i64 << (w - 1)))
                .step_by(2)
                .map(|u| {
                    let a = partmod(mu, &ZTau::new(BigInt::from(u), BigInt::zero()), &tau_w);
                    (small(&a.r0), small(&a.r1))
                })
                .collect();
        }
        let mut params = TauParams {
            mu,
            m,
            delta,
            n,
            s0,
            s1,
            t,
            alphas,
            alpha_digits: Vec::new(),
        };
        params.alpha_digits = params
            .alphas
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&(b, g)| {
                        let a = ZTau::new(BigInt::from(b), BigInt::from(g));
                        params.tnaf_vartime(&a, MIN_WIDTH).unwrap_or_default()
                    })
                    .collect()
            })
            .collect();
        params
    }

    /// The constants of a curve with b = 1 (a Koblitz curve); none otherwise.
    pub fn for_curve<C: BinaryCurve>() -> Option<Self> {
        C::B_IS_ONE.then(|| Self::new(C::A_IS_ONE, <C::Base as BinaryField>::DEGREE))
    }

    /// μ = (−1)^(1−a): τ² = μ·τ − 2.
    pub fn mu(&self) -> i64 {
        self.mu
    }

    /// The extension degree m.
    pub fn degree(&self) -> u32 {
        self.m
    }

    /// δ = (τ^m − 1)/(τ − 1).
    pub fn delta(&self) -> &ZTau {
        &self.delta
    }

    /// N(δ), the order n of the prime subgroup (#E(GF(2^m)) = N(τ^m − 1) = N(τ − 1)·N(δ)
    /// with N(τ − 1) = 3 − μ the cofactor).
    pub fn order(&self) -> &BigInt {
        &self.n
    }

    /// t_w = 2U_{w−1}·U_w⁻¹ mod 2^w (module docs); none for a width outside
    /// [`MIN_WIDTH`]..=[`MAX_WIDTH`].
    pub fn t_w(&self, w: u32) -> Option<u64> {
        (MIN_WIDTH..=MAX_WIDTH)
            .contains(&w)
            .then(|| self.t[w as usize])
    }

    /// α_u = u mods τ^w as (β_u, γ_u), α_u = β_u + γ_u·τ, for u = 1, 3, …, 2^(w−1) − 1 in
    /// that order; none for a width outside [`MIN_WIDTH`]..=[`MAX_WIDTH`].
    pub fn alphas(&self, w: u32) -> Option<&[(i64, i64)]> {
        (MIN_WIDTH..=MAX_WIDTH)
            .contains(&w)
            .then(|| self.alphas[w as usize].as_slice())
    }

    /// ρ = k partmod δ for the integer k (little-endian octets, any length): k − q·δ with q
    /// the rounding of k/δ in Z\[τ\] (Solinas §5, Routine 60). ρ·P = k·P for every P of
    /// order n, and N(ρ) ≤ 4/7·n.
    pub fn partmod_delta_vartime(&self, k_le: &[u8]) -> ZTau {
        let k = BigInt::from_bytes_le(Sign::Plus, k_le);
        let g0 = &k * &self.s0;
        let g1 = &k * &self.s1;
        let q = round(self.mu, &g0, &g1, &self.n);
        let qd = mul(self.mu, &q, &self.delta);
        ZTau::new(k - qd.r0, -qd.r1)
    }

    /// The width-w τNAF of ρ (Solinas §6, Guide Algorithm 3.69), least significant digit
    /// first: each digit is 0 or an odd u with |u| < 2^(w−1), standing for
    /// sign(u)·α_|u| ([`TauParams::alphas`]), so ρ = Σ digitᵢ·τ^i; of any w consecutive
    /// digits at most one is nonzero. Errors: a width outside [`MIN_WIDTH`]..=[`MAX_WIDTH`],
    /// or coordinates of ρ of 1200 bits or more.
    pub fn tnaf_vartime(&self, rho: &ZTau, w: u32) -> Result<Vec<i8>, TnafError> {
        if !(MIN_WIDTH..=MAX_WIDTH).contains(&w) {
            return Err(TnafError::Width);
        }
        let bits = rho.r0.bits().max(rho.r1.bits());
        // A capacity hint only: two digits per bit of the larger coordinate, and a few more.
        let mut out = Vec::with_capacity(usize::try_from(bits).map_or(0, |b| 2 * b + 8));
        // As few limbs as the coordinates need (each step costs a few passes over them).
        if bits < 108 {
            self.tnaf_limbs::<2>(rho, w, &mut out);
        } else if bits < 172 {
            self.tnaf_limbs::<3>(rho, w, &mut out);
        } else if bits < 236 {
            self.tnaf_limbs::<4>(rho, w, &mut out);
        } else if bits < 300 {
            self.tnaf_limbs::<5>(rho, w, &mut out);
        } else if bits < 1200 {
            self.tnaf_limbs::<20>(rho, w, &mut out);
        } else {
            return Err(TnafError::TooLarge);
        }
        Ok(out)
    }

    /// The loop of [`TauParams::tnaf_vartime`] on L-limb two's-complement integers. The
    /// coordinates start below 2^(64L − 20) in absolute value and stay there: each step
    /// halves the norm and the subtracted α_u has norm below 2^w (Solinas §6), and
    /// |r_i| ≤ 1.4·√N(ρ).
    #[allow(
        clippy::cast_possible_truncation,
        reason = "|u| < 2^(w−1) with w ≤ MAX_WIDTH = 7, checked by the caller: it fits i8"
    )]
    fn tnaf_limbs<const L: usize>(&self, rho: &ZTau, w: u32, out: &mut Vec<i8>) {
        let mut r0 = Limbs::<L>::from_big(&rho.r0);
        let mut r1 = Limbs::<L>::from_big(&rho.r1);
        let tw = self.t[w as usize];
        let alphas = &self.alphas[w as usize];
        let mask = (1u64 << w) - 1;
        let half = 1u64 << (w - 1);
        while !(r0.is_zero() && r1.is_zero()) {
            let mut d = 0i8;
            if r0.low() & 1 == 1 {
                let v = r0.low().wrapping_add(r1.low().wrapping_mul(tw)) & mask;
                let u = if v >= half {
                    v as i64 - (1i64 << w)
                } else {
                    v as i64
                };
                let (b, g) = alphas[(u.unsigned_abs() / 2) as usize];
                if u > 0 {
                    r0.add_small(-b);
                    r1.add_small(-g);
                } else {
                    r0.add_small(b);
                    r1.add_small(g);
                }
                d = u as i8;
            }
            out.push(d);
            // ρ/τ = (r1 + μ·r0/2) − (r0/2)·τ (r0 is even here).
            let h = r0.sar1();
            let next0 = if self.mu == 1 { r1.add(&h) } else { r1.sub(&h) };
            r1 = h.neg();
            r0 = next0;
        }
    }
}

/// A signed integer of 64·L bits in two's complement, little-endian limbs (the τNAF loop's
/// coordinates, which stay far from the bounds; see [`TauParams::tnaf_vartime`]).
#[derive(Clone, Copy)]
struct Limbs<const L: usize>([u64; L]);

impl<const L: usize> Limbs<L> {
    fn from_big(x: &BigInt) -> Self {
        let mut v = [0u64; L];
        for (o, d) in v.iter_mut().zip(x.magnitude().iter_u64_digits()) {
            *o = d;
        }
        let r = Limbs(v);
        if x.is_negative() {
            r.neg()
        } else {
            r
        }
    }

    fn is_zero(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    fn low(&self) -> u64 {
        self.0[0]
    }

    fn add(&self, o: &Self) -> Self {
        let mut r = self.0;
        let mut carry = false;
        for (x, y) in r.iter_mut().zip(o.0) {
            let (s1, c1) = x.overflowing_add(y);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *x = s2;
            carry = c1 | c2;
        }
        Limbs(r)
    }

    fn neg(&self) -> Self {
        let mut r = self.0;
        let mut carry = true;
        for x in r.iter_mut() {
            let (s, c) = (!*x).overflowing_add(carry as u64);
            *x = s;
            carry = c;
        }
        Limbs(r)
    }

    fn sub(&self, o: &Self) -> Self {
        self.add(&o.neg())
    }

    /// self += v (sign-extended).
    fn add_small(&mut self, v: i64) {
        let ext = if v < 0 { u64::MAX } else { 0 };
        let mut carry = false;
        for (i, x) in self.0.iter_mut().enumerate() {
            let y = if i == 0 { v as u64 } else { ext };
            let (s1, c1) = x.overflowing_add(y);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *x = s2;
            carry = c1 | c2;
        }
    }

    /// self >> 1, arithmetic.
    fn sar1(&self) -> Self {
        let mut r = [0u64; L];
        let top = self.0[L - 1] & (1 << 63);
        for (i, o) in r.iter_mut().enumerate() {
            let hi = self.0.get(i + 1).map_or(top, |&n| n << 63);
            *o = (self.0[i] >> 1) | hi;
        }
        Limbs(r)
    }
}

/// The norm r0² + μ·r0·r1 + 2·r1².
pub fn norm(mu: i64, x: &ZTau) -> BigInt {
    &x.r0 * &x.r0 + &x.r0 * &x.r1 * mu + ((&x.r1 * &x.r1) << 1u32)
}

/// x·y in Z\[τ\].
pub fn mul(mu: i64, x: &ZTau, y: &ZTau) -> ZTau {
    let a1b1 = &x.r1 * &y.r1;
    ZTau::new(
        &x.r0 * &y.r0 - (&a1b1 << 1u32),
        &x.r0 * &y.r1 + &x.r1 * &y.r0 + a1b1 * mu,
    )
}

/// (x·conj(y), N(y)): x/y = x·conj(y)/N(y).
fn mul_conj(mu: i64, x: &ZTau, y: &ZTau) -> (ZTau, BigInt) {
    let conj = ZTau::new(&y.r0 + &y.r1 * mu, -y.r1.clone());
    (mul(mu, x, &conj), norm(mu, y))
}

/// x − q·y with q the rounding of x/y (Solinas Routine 60): N(x − q·y) ≤ 4/7·N(y).
pub fn partmod(mu: i64, x: &ZTau, y: &ZTau) -> ZTau {
    let (g, d) = mul_conj(mu, x, y);
    let q = round(mu, &g.r0, &g.r1, &d);
    let qy = mul(mu, &q, y);
    ZTau::new(&x.r0 - qy.r0, &x.r1 - qy.r1)
}

/// ⌊a/d⌋ for d > 0.
fn floor_div(a: &BigInt, d: &BigInt) -> BigInt {
    let q = a / d;
    if (a % d).is_negative() {
        q - 1
    } else {
        q
    }
}

/// The rounding q0 + q1·τ of λ = (g0 + g1·τ)/d in Z\[τ\], d > 0 (Solinas Routine 60 = Guide
/// Algorithm 3.63, with every comparison multiplied through by d so it is exact): fᵢ =
/// round(λᵢ), ηᵢ = λᵢ − fᵢ, η = 2η0 + μη1, then a correction h0 + h1·τ with hᵢ ∈ {0, ±1}
/// chosen by the region of (η0, η1).
fn round(mu: i64, g0: &BigInt, g1: &BigInt, d: &BigInt) -> ZTau {
    let two_d = d << 1u32;
    let f0 = floor_div(&((g0 << 1u32) + d), &two_d);
    let f1 = floor_div(&((g1 << 1u32) + d), &two_d);
    // eᵢ = d·ηᵢ.
    let e0 = g0 - &f0 * d;
    let e1 = g1 - &f1 * d;
    let eta = (&e0 << 1u32) + &e1 * mu;
    let minus3 = &e0 - &e1 * (3 * mu);
    let plus4 = &e0 + &e1 * (4 * mu);
    let neg_d = -d.clone();
    let (mut h0, mut h1) = (0i64, 0i64);
    if eta >= *d {
        if minus3 < neg_d {
            h1 = mu;
        } else {
            h0 = 1;
        }
    } else if plus4 >= two_d {
        h1 = mu;
    }
    if eta < neg_d {
        if minus3 >= *d {
            h1 = -mu;
        } else {
            h0 = -1;
        }
    } else if plus4 < -two_d.clone() {
        h1 = -mu;
    }
    ZTau::new(f0 + h0, f1 + h1)
}

/// A value known to be small (an α_u coordinate, below 2^w in absolute value).
fn small(x: &BigInt) -> i64 {
    let m = x.magnitude().iter_u64_digits().next().unwrap_or(0) as i64;
    if x.is_negative() {
        -m
    } else {
        m
    }
}

/// t_w = 2U_{w−1}·U_w⁻¹ mod 2^w (U_w is odd for w ≥ 1).
fn t_w(mu: i64, w: u32) -> u64 {
    let (uw1, uw) = lucas(mu, w);
    let modulus = BigInt::one() << w;
    let u = ((uw % &modulus) + &modulus) % &modulus;
    let u = u.iter_u64_digits().next().unwrap_or(0);
    // u⁻¹ mod 2^w by Newton's iteration x ← x·(2 − u·x), doubling the correct bits.
    let mut inv = 1u64;
    for _ in 0..6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(u.wrapping_mul(inv)));
    }
    let two_uw1 = (((uw1 << 1u32) % &modulus) + &modulus) % &modulus;
    let two_uw1 = two_uw1.iter_u64_digits().next().unwrap_or(0);
    two_uw1.wrapping_mul(inv) & ((1u64 << w) - 1)
}

/// The points α_u·P, u = 1, 3, …, 2^(w−1) − 1, affine (one batch inversion): each α_u is
/// written in plain τNAF (digits ±1, about w digits) and α_u·P summed from the affine
/// ±τ^j(P). P should lie on a Koblitz curve (τ an endomorphism). Errors: a bad width.
pub fn alpha_multiples_vartime<C: BinaryCurve>(
    params: &TauParams,
    p: &ProjectivePoint<C>,
    w: u32,
) -> Result<Vec<AffinePoint<C>>, TnafError> {
    if !(MIN_WIDTH..=MAX_WIDTH).contains(&w) {
        return Err(TnafError::Width);
    }
    // Decoded public keys arrive with Z = 1: no inversion then.
    let (x, y, z) = p.coordinates();
    let pa = if bool::from(z.ct_eq(&C::Base::ONE)) {
        AffinePoint {
            x,
            y,
            infinity: Choice::from(0),
        }
    } else {
        p.to_affine()
    };
    let mut powers: Vec<AffinePoint<C>> = vec![pa];
    let rows = &params.alpha_digits[w as usize];
    let mut proj = Vec::with_capacity(rows.len());
    for digits in rows {
        while powers.len() < digits.len() {
            let next = powers[powers.len() - 1].frobenius();
            powers.push(next);
        }
        let mut acc = ProjectivePoint::IDENTITY;
        for (j, &d) in digits.iter().enumerate() {
            match d {
                0 => {}
                d if d > 0 => acc = acc.add_mixed_vartime(&powers[j]),
                _ => acc = acc.add_mixed_vartime(&-powers[j]),
            }
        }
        proj.push(acc);
    }
    let mut out = vec![AffinePoint::identity(); proj.len()];
    ProjectivePoint::batch_to_affine(&proj, &mut out);
    Ok(out)
}

/// acc ± table\[|d|/2\] for a τNAF digit d ≠ 0.
#[inline]
fn add_digit<C: BinaryCurve>(
    acc: &ProjectivePoint<C>,
    table: &[AffinePoint<C>],
    d: i8,
) -> ProjectivePoint<C> {
    let e = &table[(d.unsigned_abs() / 2) as usize];
    if d > 0 {
        acc.add_mixed_vartime(e)
    } else {
        acc.add_mixed_vartime(&-*e)
    }
}

/// Σ digitᵢ·τ^i applied to the tables: Horner's rule with τ for the doubling, several
/// expansions interleaved (Straus).
fn horner_vartime<C: BinaryCurve>(parts: &[(&[i8], &[AffinePoint<C>])]) -> ProjectivePoint<C> {
    let len = parts.iter().map(|(d, _)| d.len()).max().unwrap_or(0);
    let mut acc = ProjectivePoint::IDENTITY;
    let mut started = false;
    for i in (0..len).rev() {
        if started {
            acc = acc.frobenius();
        }
        for (digits, table) in parts {
            if let Some(&d) = digits.get(i) {
                if d != 0 {
                    acc = add_digit(&acc, table, d);
                    started = true;
                }
            }
        }
    }
    acc
}

/// k·P for a public integer k (little-endian octets, any length) and a public point P of
/// the prime-order subgroup of a Koblitz curve: ρ = k partmod δ, its width-w τNAF, and
/// Horner's rule with the Frobenius map. For P outside that subgroup the result is ρ·P,
/// which differs from k·P (δ kills only the order-n points). Errors: a width outside
/// [`MIN_WIDTH`]..=[`MAX_WIDTH`].
pub fn mul_vartime<C: BinaryCurve>(
    params: &TauParams,
    p: &ProjectivePoint<C>,
    k_le: &[u8],
    w: u32,
) -> Result<ProjectivePoint<C>, TnafError> {
    let rho = params.partmod_delta_vartime(k_le);
    let digits = params.tnaf_vartime(&rho, w)?;
    if digits.is_empty() || bool::from(p.is_identity()) {
        return Ok(ProjectivePoint::IDENTITY);
    }
    let table = alpha_multiples_vartime(params, p, w)?;
    Ok(horner_vartime(&[(&digits, &table)]))
}

/// a·B + b·Q for public integers a, b (little-endian octets) and public points B, Q of the
/// prime-order subgroup of a Koblitz curve, where `base_table` holds α_u·B at width `wb`
/// ([`alpha_multiples_vartime`], kept by the curve for the generator) and Q's digits have
/// width [`POINT_WIDTH`]: the two width-w τNAF expansions interleaved (Straus–Shamir with τ
/// for the doubling). Errors: a width outside [`MIN_WIDTH`]..=[`MAX_WIDTH`], or a table
/// that does not have 2^(wb−2) entries.
pub fn double_mul_vartime<C: BinaryCurve>(
    params: &TauParams,
    base_table: &[AffinePoint<C>],
    wb: u32,
    a_le: &[u8],
    q: &ProjectivePoint<C>,
    b_le: &[u8],
) -> Result<ProjectivePoint<C>, TnafError> {
    if !(MIN_WIDTH..=MAX_WIDTH).contains(&wb) || base_table.len() != 1 << (wb - 2) {
        return Err(TnafError::Width);
    }
    let da = params.tnaf_vartime(&params.partmod_delta_vartime(a_le), wb)?;
    let db = params.tnaf_vartime(&params.partmod_delta_vartime(b_le), POINT_WIDTH)?;
    let tq = if db.is_empty() || bool::from(q.is_identity()) {
        Vec::new()
    } else {
        alpha_multiples_vartime(params, q, POINT_WIDTH)?
    };
    let db: &[i8] = if tq.is_empty() { &[] } else { &db };
    Ok(horner_vartime(&[(&da, base_table), (db, &tq)]))
}

/// A Koblitz curve's τ-adic constants with the table α_u·G of its generator at width
/// [`GENERATOR_WIDTH`], for verification (kept once per curve with the `std` feature).
pub struct KoblitzTables<C: BinaryCurve> {
    /// The constants of the curve.
    pub params: TauParams,
    /// α_u·G for u = 1, 3, …, 2^(GENERATOR_WIDTH−1) − 1, affine.
    pub generator: Vec<AffinePoint<C>>,
}

impl<C: BinaryCurve> KoblitzTables<C> {
    /// The constants and the generator's table; none unless b = 1.
    pub fn new() -> Option<Self> {
        let params = TauParams::for_curve::<C>()?;
        let generator =
            alpha_multiples_vartime(&params, &ProjectivePoint::GENERATOR, GENERATOR_WIDTH).ok()?;
        Some(KoblitzTables { params, generator })
    }

    /// a·G + b·Q by [`double_mul_vartime`] with the generator's table (same errors).
    pub fn mul_base_add_vartime(
        &self,
        a_le: &[u8],
        q: &ProjectivePoint<C>,
        b_le: &[u8],
    ) -> Result<ProjectivePoint<C>, TnafError> {
        double_mul_vartime(
            &self.params,
            &self.generator,
            GENERATOR_WIDTH,
            a_le,
            q,
            b_le,
        )
    }
}
