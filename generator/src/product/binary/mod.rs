//! Binary fields GF(2^m) in polynomial basis: from an irreducible polynomial f(x) to a Rust
//! module with carry-less arithmetic specialised to f.
//!
//! [`poly`] parses polynomials and tests irreducibility (Ben-Or); [`BinarySpec`] validates f and
//! derives every constant the code bakes in (√x, the trace mask, the Itoh–Tsujii addition
//! chain, Barrett constants for dense f); [`emit`] prints the module. The stages run in the
//! order [`crate::pipeline::binary_field`] lists; the CLI (`--poly`, through
//! [`crate::generate`]) and `fieldgen_macros::binary_field!` (through
//! [`generate_binary_field`]) both reach it.

mod bmi2;
pub mod emit;
mod formula;
mod holes;
pub mod multisquare;
pub mod poly;
mod presets;
mod x86;

use proc_macro2::{Ident, TokenStream};

pub use poly::{parse_poly, Poly, PolyParseError};
pub use presets::{find_binary_preset, BinaryPreset, BINARY_PRESETS};

use crate::header::Header;
use crate::spec::LimbBits;
use crate::Target;

/// Smallest and largest degree m accepted.
pub const MIN_DEGREE: usize = 2;
/// Largest degree m accepted.
pub const MAX_DEGREE: usize = 1024;

/// Why a polynomial or an option was refused. `Display` is one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BinaryError {
    /// The text is not a polynomial.
    Parse(PolyParseError),
    /// A bare word that names no binary preset.
    UnknownPreset(String),
    /// Degree outside `MIN_DEGREE..=MAX_DEGREE`.
    Degree(usize),
    /// f is reducible over GF(2).
    Reducible(String),
    /// The type name is not a usable Rust identifier.
    InvalidName(String),
    /// A target that does not apply to binary fields, or contradicts the word size.
    Target(String),
}

impl core::fmt::Display for BinaryError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            BinaryError::Parse(e) => e.fmt(f),
            BinaryError::UnknownPreset(n) => write!(f, "unknown binary-field preset `{n}`: run with --list-presets to see the names"),
            BinaryError::Degree(m) => write!(f, "the polynomial has degree {m}; binary fields need degree {MIN_DEGREE} to {MAX_DEGREE}"),
            BinaryError::Reducible(p) => write!(f, "the polynomial {p} is reducible over GF(2) (Ben-Or's test), so it does not define a field"),
            BinaryError::InvalidName(n) => write!(f, "`{n}` cannot be a type name: use a Rust identifier such as F163 (letters, digits, _; not a keyword)"),
            BinaryError::Target(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for BinaryError {}

/// The target of a binary field: the crate's one [`Target`]. Binary fields are served by
/// `auto`, `portable64` and `portable32` (and `sparc32`, `wasm32` through the portable 32-bit
/// code); [`crate::target::TARGETS`] refuses the rest. After [`Target::serving`] the binary
/// emitters see only those three:
///
/// - `auto`: the portable product for the word size (Karatsuba-like formulae over integer
///   multiplication with holes: ≤ 60-bit limbs at 64-bit words, the words at 32-bit words),
///   plus, for 64-bit words, the x86-64 PCLMULQDQ kernel in XMM registers (compile-time
///   `pclmulqdq` target feature, else one cached CPUID check) and the aarch64 PMULL kernel
///   (compile-time `aes` target feature);
/// - `portable64`: the portable product over 64-bit words only;
/// - `portable32`: the portable product over 32-bit words only (32×32 → 64-bit products).
pub type BinaryTarget = Target;

/// What to generate for one binary field.
#[derive(Clone, Debug)]
pub struct BinaryFieldOptions {
    /// The polynomial as written (`x^163+x^7+x^6+x^3+1`) or a binary preset name.
    pub poly: String,
    /// The Rust type name (default `F2m`).
    pub name: String,
    /// Word size.
    pub limb_bits: LimbBits,
}

impl BinaryFieldOptions {
    /// Options for `poly` with type `F2m` and 64-bit words.
    pub fn new(poly: &str) -> BinaryFieldOptions {
        BinaryFieldOptions {
            poly: poly.to_string(),
            name: "F2m".to_string(),
            limb_bits: LimbBits::W64,
        }
    }
}

/// One step of the Itoh–Tsujii addition chain on exponents k of β_k = a^(2^k − 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainStep {
    /// β_(2k) = β_k^(2^k) · β_k.
    Double(usize),
    /// β_(k+1) = β_k² · a.
    Increment(usize),
}

/// How the double-length product is reduced modulo f.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// Word-level shifts and xors for each lower term of f (trinomials and pentanomials whose
    /// second-highest exponent k satisfies m − k ≥ w, so one top-down pass suffices;
    /// D. Hankerson, A. Menezes, S. Vanstone, "Guide to Elliptic Curve Cryptography", 2004,
    /// §2.3.5).
    Sparse,
    /// Barrett reduction over GF(2)\[x\], exact with no correction step: q = ⌊C/x^m⌋·μ div x^m
    /// with μ = ⌊x^(2m)/f⌋, r = C + q·f mod x^m (two carry-less products). Used for every other
    /// irreducible f.
    Barrett {
        /// μ − x^m (degree < m).
        mu_low: Poly,
    },
}

/// A validated binary field and every constant its code needs.
#[derive(Clone, Debug)]
pub struct BinarySpec {
    /// The reduction polynomial f.
    pub poly: Poly,
    /// The degree m.
    pub m: usize,
    /// Exponents of f's terms, highest (m) first, ending with 0.
    pub exponents: Vec<usize>,
    /// Word size w in bits.
    pub w: u32,
    /// Words per element, ceil(m / w).
    pub n: usize,
    /// Bytes per encoding, ceil(m / 8).
    pub bytes: usize,
    /// The reduction method.
    pub reduction: Reduction,
    /// √x = x^(2^(m−1)) mod f.
    pub sqrt_x: Poly,
    /// Bit i set iff Tr(x^i) = 1, so Tr(a) is the parity of a AND this mask.
    pub trace_mask: Poly,
    /// For even m: x^i with the least i such that Tr(x^i) = 1 (used to solve z² + z = c).
    pub trace_one: Poly,
    /// The Itoh–Tsujii chain from β_1 = a to β_(m−1).
    pub chain: Vec<ChainStep>,
}

/// Parses `text` as a polynomial or a binary preset name. Returns f and the preset it named.
pub fn parse_binary_modulus(
    text: &str,
) -> Result<(Poly, Option<&'static BinaryPreset>), BinaryError> {
    if let Some(p) = find_binary_preset(text) {
        return Ok((
            parse_poly(p.poly).expect("preset polynomials parse"),
            Some(p),
        ));
    }
    match parse_poly(text) {
        Ok(p) => Ok((p, None)),
        Err(e) => {
            let t = text.trim();
            let name_like = t.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && t.len() > 1
                && t.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                && !t.starts_with(['x', 'X', 'z']);
            if name_like {
                Err(BinaryError::UnknownPreset(t.to_string()))
            } else {
                Err(BinaryError::Parse(e))
            }
        }
    }
}

impl BinarySpec {
    /// Validates f (degree in range, irreducible) and derives the constants for word size w.
    pub fn new(poly: &Poly, limb_bits: LimbBits) -> Result<BinarySpec, BinaryError> {
        let m = poly.degree().unwrap_or(0);
        if !(MIN_DEGREE..=MAX_DEGREE).contains(&m) {
            return Err(BinaryError::Degree(m));
        }
        if !poly.is_irreducible() {
            return Err(BinaryError::Reducible(poly.to_string()));
        }
        let w = limb_bits.bits();
        let exponents = poly.exponents();
        let lower = &exponents[1..];
        let reduction = if lower.len() <= 4 && m - lower[0] >= w as usize {
            Reduction::Sparse
        } else {
            let (mu, _) = Poly::monomial(2 * m).divrem(poly);
            Reduction::Barrett { mu_low: mu.low(m) }
        };
        let sqrt_x = Poly::monomial(1).square_n_mod(m - 1, poly);
        let trace_bits = trace_of_powers(poly);
        let trace_mask =
            Poly::from_exponents(&(0..m).filter(|&i| trace_bits[i]).collect::<Vec<_>>());
        let trace_one = Poly::monomial((0..m).find(|&i| trace_bits[i]).expect("the trace is onto"));
        Ok(BinarySpec {
            poly: poly.clone(),
            m,
            exponents,
            w,
            n: m.div_ceil(w as usize),
            bytes: m.div_ceil(8),
            reduction,
            sqrt_x,
            trace_mask,
            trace_one,
            chain: itoh_tsujii_chain(m - 1),
        })
    }

    /// Multiplications in the inversion chain.
    pub fn chain_multiplications(&self) -> usize {
        self.chain.len()
    }
}

/// Tr(x^i) for 0 ≤ i < m: the power sums s_i of the roots of f, by Newton's identities over
/// GF(2): s_0 = m mod 2, s_i = Σ_{j=1}^{i−1} c_(m−j)·s_(i−j) + i·c_(m−i) for f = Σ c_k x^k.
fn trace_of_powers(f: &Poly) -> Vec<bool> {
    let m = f.degree().expect("non-zero");
    let c = |k: usize| f.bit(k);
    let mut s = vec![m % 2 == 1];
    for i in 1..m {
        let mut v = i % 2 == 1 && c(m - i);
        for j in 1..i {
            if c(m - j) {
                v ^= s[i - j];
            }
        }
        s.push(v);
    }
    s
}

/// The binary addition chain for `e` = m − 1 ≥ 1: from the top bit down, double, then
/// increment on each set bit (T. Itoh and S. Tsujii, "A fast algorithm for computing
/// multiplicative inverses in GF(2^m) using normal bases", Information and Computation 78
/// (1988)).
pub fn itoh_tsujii_chain(e: usize) -> Vec<ChainStep> {
    let bits = usize::BITS - e.leading_zeros();
    let mut k = 1;
    let mut steps = Vec::new();
    for b in (0..bits - 1).rev() {
        steps.push(ChainStep::Double(k));
        k *= 2;
        if e >> b & 1 == 1 {
            steps.push(ChainStep::Increment(k));
            k += 1;
        }
    }
    debug_assert_eq!(k, e);
    steps
}

/// A generated binary field: its spec and the tokens of its module body.
#[derive(Clone, Debug)]
pub struct GeneratedBinaryField {
    /// The options it was generated from.
    pub options: BinaryFieldOptions,
    /// The preset the polynomial named, if any.
    pub preset: Option<&'static BinaryPreset>,
    /// The target asked for (named in the command line).
    pub target: Target,
    /// The target whose code the module carries ([`Target::serving`]): `auto`, `portable64`
    /// or `portable32`.
    pub serving: Target,
    /// Derived constants.
    pub spec: BinarySpec,
    /// Backends of the carry-less products, in order of preference.
    pub backends: Vec<&'static str>,
    /// The module body: items only, depending on `core` and `::fieldgen_field` (whose `subtle` re-export it names).
    pub tokens: TokenStream,
}

/// Runs the binary-field pipeline with [`Target::Auto`].
pub fn generate_binary_field(
    options: &BinaryFieldOptions,
) -> Result<GeneratedBinaryField, BinaryError> {
    generate_binary_field_for(options, Target::Auto)
}

/// Runs the binary-field pipeline ([`crate::pipeline::binary_field`]): target table, parse,
/// validate (degree, Ben-Or), derive, emit. The same as [`crate::generate`] with
/// [`crate::Request::BinaryField`].
pub fn generate_binary_field_for(
    options: &BinaryFieldOptions,
    target: Target,
) -> Result<GeneratedBinaryField, BinaryError> {
    crate::pipeline::binary_field(options, target)
}

/// Stage 0, target: the code `target` stands for ([`crate::target::TARGETS`]). Errors: a
/// target that does not serve binary fields.
pub fn serving(target: Target) -> Result<Target, BinaryError> {
    target
        .serving(crate::target::Product::BinaryField)
        .map_err(|why| BinaryError::Target(why.to_string()))
}

/// Stage 1, names and words: the checked type name, and the served target checked against
/// the word size. Errors: a name that is not an identifier, a target that contradicts
/// `--limb-bits`.
pub fn check_options(options: &BinaryFieldOptions, serving: Target) -> Result<Ident, BinaryError> {
    let ident = crate::validate_type_name(&options.name)
        .map_err(|_| BinaryError::InvalidName(options.name.clone()))?;
    match (serving, options.limb_bits) {
        (Target::Portable64, LimbBits::W32) | (Target::Portable32, LimbBits::W64) => {
            Err(BinaryError::Target(format!(
                "--target {} contradicts --limb-bits {}",
                serving.name(),
                options.limb_bits.bits()
            )))
        }
        _ => Ok(ident),
    }
}

/// Stage 2, spec: parses f (or a preset), checks degree and irreducibility (Ben-Or) and
/// derives the constants.
pub fn spec(
    options: &BinaryFieldOptions,
) -> Result<(BinarySpec, Option<&'static BinaryPreset>), BinaryError> {
    let (poly, preset) = parse_binary_modulus(&options.poly)?;
    Ok((BinarySpec::new(&poly, options.limb_bits)?, preset))
}

/// Stage 3, emit: the backends of the carry-less product, then the module (products,
/// squaring, reduction by f, the public API) with its type doc.
pub fn emit_module(
    spec: &BinarySpec,
    preset: Option<&BinaryPreset>,
    ident: &Ident,
    serving: Target,
) -> (Vec<&'static str>, TokenStream) {
    let backends = emit::backends(spec, serving);
    let doc = type_doc(spec, preset, &backends);
    let tokens = emit::field_module(spec, ident, serving, &doc);
    (backends, tokens)
}

fn type_doc(s: &BinarySpec, preset: Option<&BinaryPreset>, backends: &[&str]) -> String {
    let what = match preset {
        Some(p) => format!(" ({}: {})", p.name, p.description),
        None => String::new(),
    };
    let reduction = match s.reduction {
        Reduction::Sparse => "word-level shifts and xors for each term of f",
        Reduction::Barrett { .. } => "Barrett (two carry-less products)",
    };
    format!(
        " An element of GF(2^{m}) = GF(2)\\[x\\]/(f), f = {f}{what}, in polynomial basis: {n} little-endian {w}-bit words, bit i of the element being the coefficient of x^i; encodings are {b} bytes. Reduction: {reduction}. Carry-less multiplication backends, in order of preference: {bk} (see `backend()`).",
        m = s.m,
        f = s.poly,
        n = s.n,
        w = s.w,
        b = s.bytes,
        bk = backends.join(", ")
    )
}

impl GeneratedBinaryField {
    /// The CLI command that generates exactly this file.
    pub fn command_line(&self) -> String {
        let mut cmd = format!(
            "cargo run -p generator -- --poly {} --name {} --limb-bits {}",
            self.options.poly,
            self.options.name,
            self.options.limb_bits.bits()
        );
        if self.target != Target::Auto {
            cmd.push_str(&format!(" --target {}", self.target.name()));
        }
        cmd
    }

    /// The `@generated` header: the command, the polynomial and every derived constant.
    pub fn header(&self) -> String {
        let s = &self.spec;
        let mut lines = vec![format!("Input polynomial: {}", self.options.poly)];
        if let Some(p) = self.preset {
            lines.push(format!("Preset: {} ({})", p.name, p.description));
        }
        let chain: Vec<String> = s
            .chain
            .iter()
            .map(|c| match c {
                ChainStep::Double(k) => format!("{}", 2 * k),
                ChainStep::Increment(k) => format!("{}", k + 1),
            })
            .collect();
        lines.extend([
            format!("f = {} (irreducible: Ben-Or)", s.poly),
            format!(
                "Degree m = {}; word bits w = {}; words n = {}; bytes = {}",
                s.m, s.w, s.n, s.bytes
            ),
            format!("Backends: {}", self.backends.join(", ")),
            format!(
                "Reduction: {}",
                match s.reduction {
                    Reduction::Sparse => "sparse (word-level shifts and xors)",
                    Reduction::Barrett { .. } => "Barrett",
                }
            ),
            format!("sqrt(x) = {}", s.sqrt_x),
            format!(
                "Trace: Tr(x^i) = 1 for i in {{{}}}",
                s.trace_mask
                    .exponents()
                    .iter()
                    .rev()
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            format!(
                "Itoh-Tsujii chain for m-1 = {}: 1 -> {} ({} multiplications, {} squarings)",
                s.m - 1,
                chain.join(" -> "),
                s.chain.len(),
                s.m - 1
            ),
        ]);
        let runs = multisquare::matrix_runs(s, self.serving);
        if !runs.is_empty() {
            lines.push(format!(
                "Multi-squaring bit matrices (x86-64 AVX-512F) for runs k = {}",
                runs.iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        Header::generator(&self.command_line())
            .lines(lines)
            .render()
    }

    /// The complete file: header, then the module body formatted by prettyplease (feature
    /// `format`).
    #[cfg(feature = "format")]
    pub fn to_file(&self) -> String {
        crate::header::file(&self.header(), &self.tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_reaches_m_minus_1() {
        for e in 1..2000usize {
            let mut k = 1;
            for s in itoh_tsujii_chain(e) {
                match s {
                    ChainStep::Double(j) => {
                        assert_eq!(j, k);
                        k *= 2
                    }
                    ChainStep::Increment(j) => {
                        assert_eq!(j, k);
                        k += 1
                    }
                }
            }
            assert_eq!(k, e);
        }
    }

    /// Newton's identities against the definition Tr(x^i) = Σ_j x^(i·2^j) mod f.
    #[test]
    fn trace_bits_match_definition() {
        for text in [
            "x^163+x^7+x^6+x^3+1",
            "x^8+x^4+x^3+x+1",
            "x^2+x+1",
            "x^31+x^3+1",
        ] {
            let f = parse_poly(text).unwrap();
            let m = f.degree().unwrap();
            let bits = trace_of_powers(&f);
            for (i, &bit) in bits.iter().enumerate() {
                let xi = Poly::monomial(i).rem(&f);
                let mut t = Poly::zero();
                let mut y = xi.clone();
                for _ in 0..m {
                    t = t.add(&y);
                    y = y.square().rem(&f);
                }
                assert!(t.degree().unwrap_or(0) == 0, "{text}: trace not in GF(2)");
                assert_eq!(t.bit(0), bit, "{text}: Tr(x^{i})");
            }
        }
    }

    #[test]
    fn presets_are_irreducible_and_sparse() {
        for p in BINARY_PRESETS {
            for lb in [LimbBits::W64, LimbBits::W32] {
                let f = parse_poly(p.poly).unwrap();
                let s = BinarySpec::new(&f, lb).unwrap();
                assert_eq!(s.reduction, Reduction::Sparse, "{}", p.name);
            }
        }
    }
}
