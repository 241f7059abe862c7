//! Stage 2: lowering. Each module turns one family of field operations into IR for a specific
//! modulus. Lowerings write plain IR and leave all simplification (constant limbs of p,
//! n0' = 1, impossible carries) to [`crate::pass`].
//!
//! Every lowered function takes and returns values in `[0, p)` (Montgomery form where it
//! matters), as n limbs of w bits, least significant first.

pub mod addsub;
pub mod karatsuba;
pub mod montgomery;
pub mod pseudo_mersenne;
pub mod runtime;
pub mod signed_solinas;
pub mod square;
pub mod unsaturated;
pub mod wide;

use crate::ir::{Builder, Var};
use crate::spec::FieldConsts;

/// The largest one-word constant `mul_small` takes, 2^32 − 1 at both limb sizes (so the public
/// signature, `k: u32`, is the same for 64- and 32-bit limbs).
pub const SMALL_MAX: u64 = u32::MAX as u64;

/// Which Montgomery multiplication algorithm to lower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MulAlgorithm {
    /// Coarsely Integrated Operand Scanning (Koç, Acar, Kaliski, "Analyzing and comparing
    /// Montgomery multiplication algorithms", IEEE Micro 1996), with the extra carry word.
    Cios,
    /// CIOS without the extra carry word, valid when the top limb of p is below (2^w−1)/2 − 1
    /// (gnark-crypto's "no-carry" optimisation).
    CiosNoCarry,
    /// Product scanning (Comba): the Finely Integrated Product Scanning method of Koç et al.,
    /// accumulating each column in a three-word accumulator.
    ProductScanning,
    /// Separated Operand Scanning (Koç et al., §3): the whole 2n-word product first, then a
    /// separate word-by-word reduction (the one the square uses).
    Sos,
}

impl MulAlgorithm {
    /// Every algorithm, in the order `--help` and the macro's errors list them.
    pub const ALL: [MulAlgorithm; 4] = [
        MulAlgorithm::Cios,
        MulAlgorithm::CiosNoCarry,
        MulAlgorithm::ProductScanning,
        MulAlgorithm::Sos,
    ];

    /// The default for a modulus: no-carry CIOS when its precondition holds, else CIOS.
    pub fn auto(c: &FieldConsts) -> MulAlgorithm {
        if c.no_carry_mul() {
            MulAlgorithm::CiosNoCarry
        } else {
            MulAlgorithm::Cios
        }
    }

    /// Whether this algorithm is valid for the modulus.
    pub fn applies_to(self, c: &FieldConsts) -> bool {
        match self {
            MulAlgorithm::CiosNoCarry => c.no_carry_mul(),
            _ => true,
        }
    }

    /// Name used in CLI flags and file headers.
    pub fn name(self) -> &'static str {
        match self {
            MulAlgorithm::Cios => "cios",
            MulAlgorithm::CiosNoCarry => "cios-no-carry",
            MulAlgorithm::ProductScanning => "product-scanning",
            MulAlgorithm::Sos => "sos",
        }
    }

    /// The algorithm named `name` (as [`MulAlgorithm::name`] spells it).
    pub fn from_name(name: &str) -> Option<MulAlgorithm> {
        MulAlgorithm::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Whether this is a CIOS variant: the only algorithms the assembly kernels implement.
    pub fn is_cios(self) -> bool {
        matches!(self, MulAlgorithm::Cios | MulAlgorithm::CiosNoCarry)
    }
}

/// How a field reduces: Montgomery for any prime, or a special form detected from the prime.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// The special form when the prime has one and it is expected to be faster, else
    /// Montgomery.
    #[default]
    Auto,
    /// Montgomery multiplication (any odd prime).
    Montgomery,
    /// p = 2^k − c with c below 2^w, folded by multiplication with c
    /// ([`pseudo_mersenne`]); saturated limbs.
    PseudoMersenne,
    /// p = 2^k − c with a multi-word c (generalised Mersenne: secp256k1, P-384, Goldilocks),
    /// folded the same way by its limbs; saturated limbs.
    Solinas,
    /// p = 2^k − c with c below 2^(w/2) on unsaturated limbs (radix 2^51 for 2^255 − 19 at
    /// w = 64, 2^25.5 at w = 32; [`unsaturated`]).
    Unsaturated,
}

impl Strategy {
    /// Every strategy, in the order `--help` lists them.
    pub const ALL: [Strategy; 5] = [
        Strategy::Auto,
        Strategy::Montgomery,
        Strategy::PseudoMersenne,
        Strategy::Solinas,
        Strategy::Unsaturated,
    ];

    /// The name `--strategy` takes.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Auto => "auto",
            Strategy::Montgomery => "montgomery",
            Strategy::PseudoMersenne => "pseudo-mersenne",
            Strategy::Solinas => "solinas",
            Strategy::Unsaturated => "unsaturated",
        }
    }

    /// The strategy named `name`.
    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// Upper bounds for the limbs of a value in `[0, p)`: the top limb is at most the top limb of p.
pub fn reduced_bounds(c: &FieldConsts) -> Vec<u64> {
    let full = crate::ir::word_mask(c.w());
    let mut b = vec![full; c.limbs];
    b[c.limbs - 1] = c.modulus_limbs[c.limbs - 1];
    b
}

/// Given `t` (n limbs) plus an extra top word `top` with `t + top·2^(wn) < 2p`, returns
/// `t mod p` by one constant-time conditional subtraction of p.
pub fn final_subtract(b: &mut Builder, c: &FieldConsts, t: &[Var], top: Var) -> Vec<Var> {
    let p = b.constants(&c.modulus_limbs);
    let zero = b.constant(0);
    let mut borrow = zero;
    let mut d = Vec::with_capacity(t.len());
    for (ti, pi) in t.iter().zip(&p) {
        let (di, bo) = b.sub_borrow(*ti, *pi, borrow);
        d.push(di);
        borrow = bo;
    }
    // Borrow out of the whole (n+1)-word subtraction: 1 exactly when t + top·R < p.
    let (_, keep) = b.sub_borrow(top, zero, borrow);
    let mask = b.mask(keep);
    t.iter()
        .zip(&d)
        .map(|(ti, di)| b.select(mask, *di, *ti))
        .collect()
}
