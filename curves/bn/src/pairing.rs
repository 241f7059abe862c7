//! The optimal ate pairing e: G1 × G2 → GT ⊂ Fp12 (Vercauteren, "Optimal pairings", IEEE
//! Trans. Inf. Theory 56(1), 2010, §IV.B for BN curves):
//! e(P, Q) = (f_{6z+2,Q}(P) · l_{\[6z+2\]Q,ψ(Q)}(P) · l_{\[6z+2\]Q+ψ(Q),−ψ²(Q)}(P))^((p¹²−1)/r).
//!
//! Miller loop: over the non-adjacent form of |6z + 2| (generated), with T on the twist in
//! homogeneous projective coordinates and the line functions evaluated in place — the
//! doubling and mixed-addition steps of Costello, Lange and Naehrig, "Faster pairing
//! computations on curves with high-degree twists", PKC 2010, in the D-type form of Aranha,
//! Karabina, Longa, Gebotys and López, EUROCRYPT 2011, eqs. (10)–(12); each line value has
//! three nonzero Fp2 coefficients (at 1, w and w³) and is multiplied in by
//! [`Fp12::mul_by_034`]. For z < 0 the loop value is conjugated and T negated (f_{−n} equals
//! 1/f_n up to factors the final exponentiation removes).
//!
//! Final exponentiation: the easy part f^((p⁶−1)(p²+1)) by one inversion and Frobenius maps,
//! the hard part by the addition chain in z of Fuentes-Castañeda, Knapp and
//! Rodríguez-Henríquez, "Faster hashing to G2", SAC 2011, §6 (3 exponentiations by z, 13
//! multiplications, 4 cyclotomic squarings, 3 Frobenius maps), which computes the power
//! 2z(6z² + 3z + 1)·(p⁴ − p² + 1)/r — a fixed nonzero multiple of the textbook exponent, the
//! convention of libff, the `bn` crate and arkworks (hence the same GT values).

use fieldgen_field::ct::declassify;
use fieldgen_field::Field;
use subtle::ConditionallySelectable;

use crate::fp12::Fp12;
use crate::fp2::Fp2;
use crate::groups::{psi, psi2, G1Affine, G2Affine};
use crate::BnParams;

/// The three coefficients of a line value l0 + l3·w + l4·w³, before scaling by P.
type Line<F> = (Fp2<F>, Fp2<F>, Fp2<F>);

/// T in homogeneous projective coordinates on the twist.
#[derive(Clone, Copy)]
struct TwistPoint<F> {
    x: Fp2<F>,
    y: Fp2<F>,
    z: Fp2<F>,
}

/// T ← 2T and the tangent line at T: with B = Y², C = Z², E = 3b′C, F = 3E,
/// H = (Y + Z)² − B − C, I = E − B, J = X², the formulas give 2T = (A(B − F), G² − 3E², BH)
/// for A = XY/2 and G = (B + F)/2; scaled by 4 (the same projective point) that is
/// 2T = (2XY(B − F), (B + F)² − 12E², 4BH), with no halving. The line is
/// (−H·y_P) + 3J·x_P·w + I·w³.
#[inline]
fn double_step<C: BnParams>(t: &mut TwistPoint<C::Fp>) -> Line<C::Fp> {
    let a2 = (t.x * t.y).double();
    let b = t.y.square();
    let c = t.z.square();
    let e = C::B3_TWIST * c;
    let f = e.double() + e;
    let h = (t.y + t.z).square() - (b + c);
    let i = e - b;
    let j = t.x.square();
    let e2 = e.square();
    let e4 = e2.double().double();
    t.x = a2 * (b - f);
    t.y = (b + f).square() - (e4.double() + e4);
    t.z = (b * h).double().double();
    (-h, j.double() + j, i)
}

/// T ← T + Q for affine Q and the line through them: with θ = Y − y_Q·Z, λ = X − x_Q·Z,
/// C = θ², D = λ², E = λD, F = ZC, G = XD, H = E + F − 2G:
/// T + Q = (λH, θ(G − H) − EY, ZE) and the line is λ·y_P − θ·x_P·w + (θx_Q − λy_Q)·w³.
#[inline]
fn add_step<C: BnParams>(
    t: &mut TwistPoint<C::Fp>,
    qx: &Fp2<C::Fp>,
    qy: &Fp2<C::Fp>,
) -> Line<C::Fp> {
    let theta = t.y - *qy * t.z;
    let lambda = t.x - *qx * t.z;
    let c = theta.square();
    let d = lambda.square();
    let e = lambda * d;
    let f = t.z * c;
    let g = t.x * d;
    let h = e + f - g.double();
    t.x = lambda * h;
    t.y = theta * (g - h) - e * t.y;
    t.z *= e;
    let j = theta * *qx - lambda * *qy;
    (lambda, -theta, j)
}

#[inline]
fn mul_line<C: BnParams>(f: &mut Fp12<C>, l: &Line<C::Fp>, px: &C::Fp, py: &C::Fp) {
    *f = f.mul_by_034(&l.0.mul_base(py), &l.1.mul_base(px), &l.2);
}

/// One (P, Q) pair prepared for the loop: affine coordinates, or none when either is the
/// identity (such a pair contributes 1).
struct Pair<C: BnParams> {
    px: C::Fp,
    py: C::Fp,
    q: G2Affine<C>,
    qx: Fp2<C::Fp>,
    qy: Fp2<C::Fp>,
    t: TwistPoint<C::Fp>,
}

/// The Miller loop value f = Π f_{6z+2,Q_k}(P_k)·(the two final lines), shared over all pairs
/// (one Fp12 squaring per step for any number of pairs). Not reduced: apply
/// [`final_exponentiation`]. Pairs with an identity are skipped (which ones is not hidden).
pub fn multi_miller_loop<C: BnParams>(pairs: &[(G1Affine<C>, G2Affine<C>)]) -> Fp12<C> {
    const MAX: usize = 16;
    let mut f = Fp12::<C>::ONE;
    // Chunks of MAX pairs keep everything on the stack; their loop values multiply.
    for chunk in pairs.chunks(MAX) {
        let mut prepared: [Option<Pair<C>>; MAX] = Default::default();
        let mut any = false;
        for (slot, (p, q)) in prepared.iter_mut().zip(chunk) {
            // Which pairs hold an identity is not hidden (see above): declassified for the
            // constant-time check, and the coordinates read without a branch.
            if bool::from(declassify(p.is_identity() | q.is_identity())) {
                continue;
            }
            let (px, py) = (p.x().unwrap_or(C::Fp::ZERO), p.y().unwrap_or(C::Fp::ZERO));
            let (qx, qy) = (q.x().unwrap_or(Fp2::ZERO), q.y().unwrap_or(Fp2::ZERO));
            *slot = Some(Pair {
                px,
                py,
                q: *q,
                qx,
                qy,
                t: TwistPoint {
                    x: qx,
                    y: qy,
                    z: Fp2::ONE,
                },
            });
            any = true;
        }
        if !any {
            continue;
        }
        let mut g = Fp12::<C>::ONE;
        let naf = C::ATE_NAF;
        for i in (0..naf.len() - 1).rev() {
            if i != naf.len() - 2 {
                g = g.square();
            }
            for pr in prepared.iter_mut().flatten() {
                let l = double_step::<C>(&mut pr.t);
                mul_line(&mut g, &l, &pr.px, &pr.py);
                let d = naf[i];
                if d != 0 {
                    let qy = if d > 0 { pr.qy } else { -pr.qy };
                    let l = add_step::<C>(&mut pr.t, &pr.qx, &qy);
                    mul_line(&mut g, &l, &pr.px, &pr.py);
                }
            }
        }
        if C::Z_NEG {
            g = g.conjugate();
        }
        for pr in prepared.iter_mut().flatten() {
            if C::Z_NEG {
                pr.t.y = -pr.t.y;
            }
            let q1 = psi::<C>(&pr.q);
            let q2 = -psi2::<C>(&pr.q);
            let (x1, y1) = (q1.x().unwrap(), q1.y().unwrap());
            let (x2, y2) = (q2.x().unwrap(), q2.y().unwrap());
            let l = add_step::<C>(&mut pr.t, &x1, &y1);
            mul_line(&mut g, &l, &pr.px, &pr.py);
            let l = add_step::<C>(&mut pr.t, &x2, &y2);
            mul_line(&mut g, &l, &pr.px, &pr.py);
        }
        f *= g;
    }
    f
}

/// The Miller loop of one pair; see [`multi_miller_loop`].
pub fn miller_loop<C: BnParams>(p: &G1Affine<C>, q: &G2Affine<C>) -> Fp12<C> {
    multi_miller_loop(&[(*p, *q)])
}

/// A G2 point prepared for pairings with a fixed Q: the coefficients (l0, l3, l4) of every
/// line value of the Miller loop — the doubling and addition steps over NAF(6z + 2) and the
/// two ψ-twisted final additions — computed once, before scaling by P, so that each later
/// pairing with this Q only evaluates them at P and multiplies them in (the loop's twist-point
/// arithmetic is skipped). Computed with the same constant-time steps as the plain loop;
/// for BN254 it holds 64 doubling lines, the addition lines of the nonzero NAF digits and two
/// more (about 10 KiB), in a `Vec` (the crate's `alloc` use).
#[derive(Clone, Debug)]
pub struct G2Prepared<C: BnParams> {
    /// The line coefficients in loop order; empty for the identity.
    lines: alloc::vec::Vec<Line<C::Fp>>,
}

impl<C: BnParams> G2Prepared<C> {
    /// Runs the Miller loop's point arithmetic on Q and records its lines (none for the
    /// identity, which pairs to one with every P).
    pub fn new(q: &G2Affine<C>) -> Self {
        let mut lines = alloc::vec::Vec::new();
        if bool::from(q.is_identity()) {
            return G2Prepared { lines };
        }
        let (qx, qy) = (q.x().unwrap(), q.y().unwrap());
        let mut t = TwistPoint {
            x: qx,
            y: qy,
            z: Fp2::ONE,
        };
        let naf = C::ATE_NAF;
        let neg_qy = -qy;
        for i in (0..naf.len() - 1).rev() {
            lines.push(double_step::<C>(&mut t));
            let d = naf[i];
            if d != 0 {
                let y = if d > 0 { &qy } else { &neg_qy };
                lines.push(add_step::<C>(&mut t, &qx, y));
            }
        }
        if C::Z_NEG {
            t.y = -t.y;
        }
        let q1 = psi::<C>(q);
        let q2 = -psi2::<C>(q);
        let (x1, y1) = (q1.x().unwrap(), q1.y().unwrap());
        let (x2, y2) = (q2.x().unwrap(), q2.y().unwrap());
        lines.push(add_step::<C>(&mut t, &x1, &y1));
        lines.push(add_step::<C>(&mut t, &x2, &y2));
        G2Prepared { lines }
    }

    /// Whether this was prepared from the identity.
    pub fn is_identity(&self) -> bool {
        self.lines.is_empty()
    }
}

impl<C: BnParams> From<G2Affine<C>> for G2Prepared<C> {
    fn from(q: G2Affine<C>) -> Self {
        G2Prepared::new(&q)
    }
}

/// [`multi_miller_loop`] with prepared G2 points: the same value, with the lines read from
/// each [`G2Prepared`] instead of computed. Pairs with an identity are skipped (which ones
/// is not hidden).
pub fn multi_miller_loop_prepared<C: BnParams>(pairs: &[(G1Affine<C>, &G2Prepared<C>)]) -> Fp12<C> {
    // (P's coordinates, the lines) of the pairs that take part.
    let mut active = alloc::vec::Vec::with_capacity(pairs.len());
    for (p, q) in pairs {
        if bool::from(p.is_identity()) || q.is_identity() {
            continue;
        }
        active.push((p.x().unwrap(), p.y().unwrap(), q.lines.iter()));
    }
    if active.is_empty() {
        return Fp12::ONE;
    }
    let mut g = Fp12::<C>::ONE;
    let naf = C::ATE_NAF;
    for i in (0..naf.len() - 1).rev() {
        if i != naf.len() - 2 {
            g = g.square();
        }
        for (px, py, lines) in active.iter_mut() {
            // Each Q's list was built over this same schedule, so next() is always Some.
            if let Some(l) = lines.next() {
                mul_line(&mut g, l, px, py);
            }
            if naf[i] != 0 {
                if let Some(l) = lines.next() {
                    mul_line(&mut g, l, px, py);
                }
            }
        }
    }
    if C::Z_NEG {
        g = g.conjugate();
    }
    for (px, py, lines) in active.iter_mut() {
        for l in lines {
            mul_line(&mut g, l, px, py);
        }
    }
    g
}

/// e(P, Q) for a prepared Q; equal to [`pairing`].
pub fn pairing_prepared<C: BnParams>(p: &G1Affine<C>, q: &G2Prepared<C>) -> Fp12<C> {
    final_exponentiation(&multi_miller_loop_prepared(&[(*p, q)]))
}

/// f^(−z) in the cyclotomic subgroup. For a sparse z (at most [`COMPRESSED_MAX_WEIGHT`]
/// nonzero NAF digits: Fp254BNb, BN381_1, BN462) by Karabina's compressed squarings
/// ([`Fp12::cyclotomic_pow_z_abs_compressed`]), otherwise (BN254: 24 nonzero digits) by the
/// Granger–Scott windowed chain ([`Fp12::cyclotomic_pow_z_abs`]). Callgrind on x86-64
/// (`examples/powz_count.rs`): the compressed chain takes 0.75× the instructions of the
/// windowed one on BN462 but 1.28× on BN254, where its products and decompressions (one per
/// nonzero digit) outweigh the cheaper squarings.
#[inline]
fn exp_by_neg_z<C: BnParams>(f: &Fp12<C>) -> Fp12<C> {
    let g = if const { naf_weight(C::Z_ABS) <= COMPRESSED_MAX_WEIGHT } {
        f.cyclotomic_pow_z_abs_compressed()
    } else {
        f.cyclotomic_pow_z_abs()
    };
    if C::Z_NEG {
        g
    } else {
        g.conjugate()
    }
}

/// The largest NAF weight of |z| for which [`exp_by_neg_z`] takes the compressed chain.
const COMPRESSED_MAX_WEIGHT: u32 = 8;

/// The number of nonzero digits of the NAF of k.
const fn naf_weight(mut k: u128) -> u32 {
    let mut w = 0;
    while k != 0 {
        if k & 1 == 1 {
            w += 1;
            // Digit ±1: subtract 1 when k ≡ 1 (mod 4), add 1 when k ≡ 3 (mod 4).
            if k & 3 == 3 {
                k += 1;
            } else {
                k -= 1;
            }
        }
        k >>= 1;
    }
    w
}

/// f^((p¹²−1)/r · 2z(6z² + 3z + 1)); one for f = 0 is impossible (Miller loop values are
/// nonzero), and a zero input maps to zero.
pub fn final_exponentiation<C: BnParams>(f: &Fp12<C>) -> Fp12<C> {
    // Easy part: f^(p⁶ − 1) = f̄/f, then ·^(p² + 1).
    let inv = f.invert().unwrap_or(Fp12::ZERO);
    let f1 = f.conjugate() * inv;
    let r = f1.frobenius(2) * f1;
    // Hard part (Fuentes-Castañeda et al., SAC 2011, §6), every value in the cyclotomic
    // subgroup, where conjugation inverts.
    let y0 = exp_by_neg_z(&r); // r^(−z)
    let y1 = y0.cyclotomic_square(); // r^(−2z)
    let y2 = y1.cyclotomic_square(); // r^(−4z)
    let y3 = y2 * y1; // r^(−6z)
    let y4 = exp_by_neg_z(&y3); // r^(6z²)
    let y5 = y4.cyclotomic_square(); // r^(12z²)
    let y6 = exp_by_neg_z(&y5).conjugate(); // r^(12z³)
    let y3 = y3.conjugate(); // r^(6z)
    let y7 = y6 * y4; // r^(12z³ + 6z²)
    let y8 = y7 * y3; // r^(12z³ + 6z² + 6z)
    let y9 = y8 * y1; // r^(12z³ + 6z² + 4z)
    let y10 = y8 * y4; // r^(12z³ + 12z² + 6z)
    let y11 = y10 * r; // r^(12z³ + 12z² + 6z + 1)
    let y13 = y9.frobenius(1) * y11;
    let y14 = y8.frobenius(2) * y13;
    let y15 = (r.conjugate() * y9).frobenius(3);
    y15 * y14
}

/// e(P, Q), the optimal ate pairing (one for an identity input).
pub fn pairing<C: BnParams>(p: &G1Affine<C>, q: &G2Affine<C>) -> Fp12<C> {
    final_exponentiation(&miller_loop(p, q))
}

/// Π e(P_k, Q_k) with one shared Miller loop and one final exponentiation.
pub fn multi_pairing<C: BnParams>(pairs: &[(G1Affine<C>, G2Affine<C>)]) -> Fp12<C> {
    final_exponentiation(&multi_miller_loop(pairs))
}

/// Whether Π e(P_k, Q_k) = 1 (the check of EIP-197 and of most pairing-based verifiers).
pub fn pairing_product_is_one<C: BnParams>(pairs: &[(G1Affine<C>, G2Affine<C>)]) -> bool {
    bool::from(multi_pairing(pairs).is_one())
}

/// GT exponentiation e^k for k in Fr, constant time in e and k.
///
/// The p-power Frobenius acts on GT as exponentiation by p, the eigenvalue ψ has on G2, so
/// k is split by the curve's 4-dimensional GLS lattice ([`crate::endo::decompose`],
/// k ≡ Σ k_i·p^i mod r with |k_i| below about r^(1/4)) and e^k = Π (e^(p^i))^(k_i) is
/// computed by one joint signed radix-16 ladder (Galbraith–Scott, "Exponentiation in
/// pairing-friendly groups using homomorphisms", Pairing 2008): four cyclotomic squarings
/// (Granger–Scott) and four table products per digit, with tables of e^1 … e^8 mapped by
/// the Frobenius and read by a masked scan of every entry; a negative digit conjugates,
/// which inverts in GT. For BN254 that is 68 squarings and 68 products against 254 of each
/// by square-and-multiply.
///
/// `e` must lie in GT (every pairing value does; [`Fp12::is_in_gt_vartime`] tests it): for
/// other elements the split does not hold and the result is meaningless.
pub fn gt_pow<C: BnParams>(e: &Fp12<C>, k: &C::Fr) -> Fp12<C> {
    use crate::endo::{decompose, radix16, MAX_HALF_BYTES};
    let dec = &C::GLS;
    let halves = decompose(k, dec);
    let mut t = [[Fp12::<C>::ONE; 8]; 4];
    t[0][0] = *e;
    for j in 1..8 {
        t[0][j] = t[0][j - 1] * *e;
    }
    for i in 1..4 {
        t[i] = t[i - 1].map(|x| x.frobenius(1));
    }
    let nb = dec.half_bits.div_ceil(8) as usize;
    let mut digits = [[0i8; 2 * MAX_HALF_BYTES + 1]; 4];
    for (d, h) in digits.iter_mut().zip(&halves) {
        radix16(&h.magnitude[..nb], d);
    }
    let mut acc = Fp12::<C>::ONE;
    for pos in (0..=2 * nb).rev() {
        for _ in 0..4 {
            acc = acc.cyclotomic_square();
        }
        for i in 0..4 {
            acc *= gt_lookup(&t[i], digits[i][pos], halves[i].negative);
        }
    }
    acc
}

/// e^d from T\[j\] = e^(j + 1) for a digit d in \[−8, 8\], inverted (conjugated) when the
/// digit's sign differs from `flip`; every entry is read.
fn gt_lookup<C: BnParams>(t: &[Fp12<C>; 8], d: i8, flip: subtle::Choice) -> Fp12<C> {
    use subtle::ConstantTimeEq;
    let sign = (d >> 7) as u8 & 1;
    // |d| ≤ 8: i8 arithmetic does not overflow.
    let abs = ((d ^ -(sign as i8)) + sign as i8) as u8;
    let mut r = Fp12::<C>::ONE;
    for (j, e) in (1..=u8::MAX).zip(t.iter()) {
        r.conditional_assign(e, abs.ct_eq(&j));
    }
    Fp12::conditional_select(&r, &r.conjugate(), subtle::Choice::from(sign) ^ flip)
}
