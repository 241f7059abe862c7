//! Per-field test context: the oracle's view of the modulus, computed once per suite, and the
//! run-time configuration (case count).

use num_bigint::BigUint;
use num_traits::One;
use proptest::test_runner::Config;

use crate::{edge, oracle};

/// Name of the environment variable that overrides the number of random cases per property.
pub const CASES_ENV: &str = "FIELDGEN_CASES";

/// Random cases per property when [`CASES_ENV`] is not set.
pub const DEFAULT_CASES: u32 = 64;

/// Fields wider than this many bits run the per-value properties that cost a full exponentiation
/// (pow with edge exponents, invert, sqrt, legendre, batch inversion) on a spaced subset of the
/// edge values rather than on all of them, and batch inversion is compared with the oracle only
/// (not also with element-wise `invert`).
pub const COSTLY_EDGES_ALL_MAX_BITS: u32 = 1024;

/// Size of that subset for a field of `bits` bits: `32·1024 / bits`, clamped to `8..=32` (so the
/// cost of those properties grows roughly linearly, not cubically, with the width).
pub fn costly_subset_len(bits: u32) -> usize {
    (32 * 1024 / bits.max(1) as usize).clamp(8, 32)
}

/// Edge sets of at most this many values are tested on all ordered pairs by the binary
/// properties; larger ones pair every value with a spaced subset of [`PAIR_PARTNERS`] values.
pub const ALL_PAIRS_MAX_EDGES: usize = 160;

/// Partner-set size for edge sets above [`ALL_PAIRS_MAX_EDGES`].
pub const PAIR_PARTNERS: usize = 48;

/// Number of structural values at the start of every edge set (`0, 1, 2, p-1, p-2, (p-1)/2,
/// (p+1)/2`, fewer after deduplication for tiny `p`); always kept when sampling.
pub const STRUCTURAL_EDGES: usize = 7;

/// The number of random cases per property: the value of the environment variable
/// [`CASES_ENV`] (`FIELDGEN_CASES`) if set, else [`DEFAULT_CASES`]. Read at run time, on every call.
///
/// Panics if the variable is set to anything but a decimal `u32`.
pub fn cases() -> u32 {
    match std::env::var(CASES_ENV) {
        Ok(text) => parse_cases(&text).unwrap_or_else(|e| panic!("{e}")),
        Err(std::env::VarError::NotPresent) => DEFAULT_CASES,
        Err(e) => panic!("{CASES_ENV} is not readable: {e}"),
    }
}

/// Parses a value of [`CASES_ENV`]: a decimal `u32`, surrounding whitespace allowed.
pub fn parse_cases(text: &str) -> Result<u32, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("{CASES_ENV}={text:?} is not a number of cases (a decimal u32)"))
}

/// The proptest configuration of every random property: [`cases`] cases, no regression files
/// (the suite is instantiated once per generated field, from macro-expanded code). Other settings
/// are proptest's defaults, including its `PROPTEST_*` environment variables, e.g.
/// `PROPTEST_RNG_SEED` to replay a run deterministically.
pub fn proptest_config() -> Config {
    Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Everything the suite derives from the test author's modulus text, computed once per field.
#[derive(Debug, Clone)]
pub struct FieldCtx {
    /// Name of the field type under test (as written in the macro invocation), for messages.
    pub name: String,
    /// The modulus `p`, parsed from the test author's text (not from the generated code).
    pub p: BigUint,
    /// `bits(p)`: the expected `Fp::NUM_BITS`.
    pub bits: u32,
    /// `B = ceil(bits / 8)`: the length of every byte encoding.
    pub byte_len: usize,
    /// Limb width `w` the edge values are built for.
    pub limb_bits: u32,
    /// `n = ceil(bits / w)`.
    pub limbs: usize,
    /// [`edge::edge_values`]`(p, w)`.
    pub edges: Vec<BigUint>,
    /// The smallest quadratic non-residue modulo `p`; `z·y²` is a non-square for every `y ≠ 0`.
    pub non_residue: BigUint,
}

impl FieldCtx {
    /// Builds the context for the field type named `name` with modulus `modulus_text`
    /// (`0x`-hexadecimal or decimal, see [`oracle::parse_modulus`]) and limb width `limb_bits`.
    ///
    /// Panics with a message if the text does not parse, if `p` is even or below 3, or if
    /// `limb_bits` is 0.
    pub fn new(name: &str, modulus_text: &str, limb_bits: u32) -> FieldCtx {
        let p = oracle::parse_modulus(modulus_text)
            .unwrap_or_else(|e| panic!("prime_field_suite for {name}: {e}"));
        assert!(
            p.bit(0) && p > BigUint::one() + 1u32,
            "prime_field_suite for {name}: the modulus must be an odd prime, got {p}"
        );
        assert!(
            limb_bits > 0,
            "prime_field_suite for {name}: limb_bits must be positive"
        );
        let bits = oracle::bit_len(&p);
        let edges = edge::edge_values(&p, limb_bits);
        let non_residue = oracle::smallest_non_residue(&p);
        FieldCtx {
            name: name.to_string(),
            bits,
            byte_len: oracle::byte_len(&p),
            limb_bits,
            limbs: oracle::limb_count(&p, limb_bits),
            edges,
            non_residue,
            p,
        }
    }

    /// `x` as the suite prints it: [`oracle::hex_be`] at the field's byte length when it fits,
    /// plain `0x` hexadecimal otherwise.
    pub fn hex(&self, x: &BigUint) -> String {
        if oracle::fits_in_bytes(x, self.byte_len) {
            oracle::hex_be(x, self.byte_len)
        } else {
            format!("{x:#x}")
        }
    }

    /// Little-endian encoding of `x` in `B` bytes.
    pub fn le(&self, x: &BigUint) -> Vec<u8> {
        oracle::to_le_bytes(x, self.byte_len)
    }

    /// Big-endian encoding of `x` in `B` bytes.
    pub fn be(&self, x: &BigUint) -> Vec<u8> {
        oracle::to_be_bytes(x, self.byte_len)
    }

    /// Whether the field is narrow enough for the expensive per-value properties to use all edge
    /// values ([`COSTLY_EDGES_ALL_MAX_BITS`]).
    pub fn is_narrow(&self) -> bool {
        self.bits <= COSTLY_EDGES_ALL_MAX_BITS
    }

    /// The edge values for the expensive per-value properties: all of them up to
    /// [`COSTLY_EDGES_ALL_MAX_BITS`] bits, else the structural ones plus evenly spaced others,
    /// [`costly_subset_len`] in all.
    pub fn costly_edges(&self) -> Vec<BigUint> {
        if self.is_narrow() {
            self.edges.clone()
        } else {
            edge::spaced_subset(&self.edges, STRUCTURAL_EDGES, costly_subset_len(self.bits))
        }
    }

    /// The ordered pairs of edge values for the binary properties: all `(a, b)` when there are at
    /// most [`ALL_PAIRS_MAX_EDGES`] edge values, else every `(a, q)` and `(q, a)` for `a` an
    /// edge value and `q` one of [`PAIR_PARTNERS`] spaced partners.
    pub fn edge_pairs(&self) -> Vec<(BigUint, BigUint)> {
        if self.edges.len() <= ALL_PAIRS_MAX_EDGES {
            return self
                .edges
                .iter()
                .flat_map(|a| self.edges.iter().map(move |b| (a.clone(), b.clone())))
                .collect();
        }
        let partners = edge::spaced_subset(&self.edges, STRUCTURAL_EDGES, PAIR_PARTNERS);
        let mut pairs = Vec::new();
        for a in &self.edges {
            for q in &partners {
                pairs.push((a.clone(), q.clone()));
                pairs.push((q.clone(), a.clone()));
            }
        }
        pairs
    }
}
