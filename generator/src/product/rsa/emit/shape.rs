//! The shape of one RSA size: Karatsuba levels, reduction shape, exponent window and which
//! x86-64 kernels, with the measured thresholds (see `docs/ARCHITECTURE.md`).

use super::*;

/// How one size is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RsaShape {
    /// Operand size in bits (a multiple of 64).
    pub bits: usize,
    /// Limbs (64-bit).
    pub limbs: usize,
    /// Karatsuba splits while the operand is above this many limbs (and even).
    pub karatsuba_leaf: usize,
    /// Karatsuba squaring splits while the operand is above this many limbs (and even): the
    /// Comba square computes each off-diagonal product once, so it stays ahead longer.
    pub square_leaf: usize,
    /// Reduction straight-line up to this many limbs, else row by row.
    pub redc_full_max: usize,
    /// The fixed window of `modexp`, in bits.
    pub window: usize,
    /// With BMI2/ADX: multiply by the portable product and assembly reduction rows (SOS) rather
    /// than interleaved assembly product and reduction rows (CIOS).
    pub adx_mul_sos: bool,
    /// With BMI2/ADX: square by the portable square and assembly reduction rows (SOS) rather
    /// than as an interleaved multiplication.
    pub adx_square_sos: bool,
    /// With BMI2/ADX: the whole Montgomery product and square on the register-window kernels
    /// (one asm block each). Measured faster at 16 limbs only: above, the eight-row reduction
    /// stripes lose to the memory rows (see `docs/ARCHITECTURE.md`), so larger sizes keep the
    /// rows for the reduction and use the window kernels as Karatsuba leaves.
    pub adx_window_mont: bool,
}

impl RsaShape {
    /// The default shape for `bits` (a multiple of 64): leaf threshold and reduction shape as
    /// measured (see `docs/ARCHITECTURE.md`), window minimising multiplications plus table reads.
    pub fn new(bits: usize) -> RsaShape {
        let limbs = bits / 64;
        let leaf = *karatsuba::levels(limbs, DEFAULT_KARATSUBA_LEAF)
            .last()
            .unwrap();
        // Window-kernel leaves make the Karatsuba product worth taking before the rows (measured
        // at 32 and 64 limbs).
        let window_leaf = limbs > 16 && crate::rsa::window::leaf_supported(leaf);
        RsaShape {
            bits,
            limbs,
            karatsuba_leaf: DEFAULT_KARATSUBA_LEAF,
            square_leaf: if window_square_leaf(limbs) {
                WINDOW_SQUARE_LEAF
            } else {
                DEFAULT_SQUARE_LEAF
            },
            redc_full_max: DEFAULT_REDC_FULL_MAX,
            window: modexp_window(bits),
            adx_mul_sos: limbs >= DEFAULT_ADX_MUL_SOS_FROM || window_leaf,
            adx_square_sos: limbs >= DEFAULT_ADX_SQUARE_SOS_FROM,
            adx_window_mont: crate::rsa::window::mont_supported(limbs)
                && limbs <= crate::rsa::window::ONE_BLOCK_MAX,
        }
    }

    /// The operand sizes of the product recursion, largest first; the last is the Comba leaf.
    pub fn levels(&self) -> Vec<usize> {
        karatsuba::levels(self.limbs, self.karatsuba_leaf)
    }

    /// The operand sizes of the square recursion, largest first; the last is the Comba leaf.
    pub fn square_levels(&self) -> Vec<usize> {
        karatsuba::levels(self.limbs, self.square_leaf.max(self.karatsuba_leaf))
    }
}

/// Karatsuba threshold in limbs: operands above it (and even) are split.
pub const DEFAULT_KARATSUBA_LEAF: usize = 16;

/// Karatsuba threshold of squaring in limbs for Comba leaves (measured: see
/// `docs/ARCHITECTURE.md`).
pub const DEFAULT_SQUARE_LEAF: usize = 32;

/// Karatsuba threshold of squaring where the leaves are register-window kernels (multiples of
/// 8 limbs): 16, as for products.
pub const WINDOW_SQUARE_LEAF: usize = 16;

/// Whether squares of `limbs` split down to register-window leaves of [`WINDOW_SQUARE_LEAF`].
fn window_square_leaf(limbs: usize) -> bool {
    crate::rsa::window::leaf_supported(
        *karatsuba::levels(limbs, WINDOW_SQUARE_LEAF).last().unwrap(),
    )
}

/// Largest limb count whose Montgomery reduction is emitted as one straight-line function.
pub const DEFAULT_REDC_FULL_MAX: usize = 16;

/// With BMI2/ADX, multiplications of at least this many limbs use SOS (measured).
pub const DEFAULT_ADX_MUL_SOS_FROM: usize = 48;

/// With BMI2/ADX, squarings of at least this many limbs use SOS (measured).
pub const DEFAULT_ADX_SQUARE_SOS_FROM: usize = 12;

/// Fixed window width of the constant-time exponentiation for `bits`-bit operands: minimises
/// bits/w multiplications + 2^w table entries + the masked table reads (2^w·n words per window,
/// weighted as 1/(4n) of a multiplication).
pub fn modexp_window(bits: usize) -> usize {
    let n = (bits / 64) as f64;
    (2..=7)
        .min_by(|a, b| {
            let cost = |w: usize| {
                let windows = bits as f64 / w as f64;
                windows + (1usize << w) as f64 + windows * (1usize << w) as f64 / (4.0 * n)
            };
            cost(*a).total_cmp(&cost(*b))
        })
        .unwrap()
}
