//! fieldgen's generator: turns a prime modulus into straight-line Rust field arithmetic.
//!
//! The pipeline (see `docs/ARCHITECTURE.md`): [`spec`] parses and validates the modulus and
//! derives constants; [`lower`] turns each field operation into [`ir`]; [`opt`] folds
//! constants and removes impossible carries; [`emit`] prints Rust for a target. The CLI and the
//! proc macros both call [`generate_prime_field`], so they produce the same tokens.

pub mod binary;
pub mod emit;
pub mod ir;
pub mod lower;
pub mod opt;
pub mod regen;
pub mod rsa;
pub mod spec;

use proc_macro2::TokenStream;

pub use crate::emit::Target;
use crate::lower::MulAlgorithm;
use crate::spec::{FieldConsts, LimbBits, Preset, SpecError, SqrtMethod};

/// The generator's version, printed in every file header.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What to generate for one prime field.
#[derive(Clone, Debug)]
pub struct PrimeFieldOptions {
    /// The modulus as the user wrote it: decimal, `0x` hex, an expression such as `2^255-19`,
    /// or a preset name.
    pub modulus: String,
    /// The Rust type name of the field (default `Fp`).
    pub name: String,
    /// Limb size.
    pub limb_bits: LimbBits,
    /// Montgomery multiplication algorithm; `None` picks [`MulAlgorithm::auto`].
    pub mul: Option<MulAlgorithm>,
}

impl PrimeFieldOptions {
    /// Options for `modulus` with the defaults: type `Fp`, 64-bit limbs, automatic algorithm.
    pub fn new(modulus: &str) -> PrimeFieldOptions {
        PrimeFieldOptions {
            modulus: modulus.to_string(),
            name: "Fp".to_string(),
            limb_bits: LimbBits::W64,
            mul: None,
        }
    }

    /// The CLI command that generates exactly this field.
    pub fn command_line(&self) -> String {
        let mut cmd = format!(
            "cargo run -p generator -- --prime {} --name {} --limb-bits {}",
            self.modulus,
            self.name,
            self.limb_bits.bits()
        );
        if let Some(m) = self.mul {
            cmd.push_str(&format!(" --mul {}", m.name()));
        }
        cmd
    }
}

/// Why generation failed. `Display` is one line naming the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenError {
    /// The modulus or limb size was refused.
    Spec(SpecError),
    /// The type name is not a usable Rust identifier.
    InvalidName(String),
    /// The requested multiplication algorithm does not apply to this modulus.
    MulNotApplicable(&'static str),
    /// The requested target cannot serve this field (limb size, limb count or algorithm).
    TargetNotApplicable(String),
}

impl core::fmt::Display for GenError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            GenError::Spec(e) => e.fmt(f),
            GenError::InvalidName(n) => write!(
                f,
                "`{n}` cannot be a type name: use a Rust identifier such as Fp or Bn254Fq (letters, digits, _; not a keyword)"
            ),
            GenError::MulNotApplicable(a) => write!(
                f,
                "the {a} multiplication needs the top limb of p below (2^w-1)/2-1 (two spare bits); choose cios or product-scanning"
            ),
            GenError::TargetNotApplicable(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for GenError {}

impl From<SpecError> for GenError {
    fn from(e: SpecError) -> Self {
        GenError::Spec(e)
    }
}

/// A generated prime field: its constants and the tokens of its module body.
#[derive(Clone, Debug)]
pub struct GeneratedField {
    /// The options it was generated from.
    pub options: PrimeFieldOptions,
    /// The preset the modulus named, if any.
    pub preset: Option<&'static Preset>,
    /// Derived constants.
    pub consts: FieldConsts,
    /// The multiplication algorithm used.
    pub mul: MulAlgorithm,
    /// The target it was generated for.
    pub target: Target,
    /// The backends of `mul`/`square` in the code, in order of preference (the values
    /// `backend()` can return).
    pub backends: Vec<&'static str>,
    /// How the target's backends are chosen, for the file header.
    pub target_description: String,
    /// The module body: items only, no inner attributes, depending on `core` and `::subtle`.
    pub tokens: TokenStream,
}

/// Checks that `name` can name a type: an identifier that is not a keyword.
pub fn validate_type_name(name: &str) -> Result<proc_macro2::Ident, GenError> {
    match syn::parse_str::<syn::Ident>(name) {
        Ok(id) if name != "Self" && name != "_" => Ok(id),
        _ => Err(GenError::InvalidName(name.to_string())),
    }
}

/// Runs the whole pipeline for one prime field with the default target ([`Target::Auto`]):
/// parse, validate, derive, lower, optimise, emit.
pub fn generate_prime_field(options: &PrimeFieldOptions) -> Result<GeneratedField, GenError> {
    generate_prime_field_for(options, Target::Auto)
}

/// Runs the whole pipeline for one prime field and one target.
pub fn generate_prime_field_for(
    options: &PrimeFieldOptions,
    target: Target,
) -> Result<GeneratedField, GenError> {
    let ident = validate_type_name(&options.name)?;
    let (p, preset) = spec::parse_modulus(&options.modulus)?;
    let consts = FieldConsts::new(&p, options.limb_bits)?.with_multiplicative_generator();
    let mul = match options.mul {
        Some(m) if !m.applies_to(&consts) => return Err(GenError::MulNotApplicable(m.name())),
        Some(m) => m,
        None => MulAlgorithm::auto(&consts),
    };
    let core = emit::field::target_core(&consts, mul, target, &ident)
        .map_err(GenError::TargetNotApplicable)?;
    let doc = type_doc(&consts, preset, mul, &core.backends);
    let tokens = emit::field::field_module(&consts, &ident, core.tokens, &doc);
    Ok(GeneratedField {
        options: options.clone(),
        preset,
        consts,
        mul,
        target,
        backends: core.backends,
        target_description: core.description,
        tokens,
    })
}

fn type_doc(
    c: &FieldConsts,
    preset: Option<&Preset>,
    mul: MulAlgorithm,
    backends: &[&str],
) -> String {
    let what = match preset {
        Some(p) => format!(" ({}: {})", p.name, p.description),
        None => String::new(),
    };
    let backends = if backends.len() > 1 {
        format!(
            " Multiplication and squaring backends, in order of preference: {} (see `backend()`).",
            backends.join(", ")
        )
    } else {
        format!(" Backend: {}.", backends.join(", "))
    };
    format!(
        " An element of GF(p), p = {:#x}{what}, a {}-bit prime. Stored in Montgomery form as {} little-endian {}-bit limbs (R = 2^{}); canonical encodings are {} bytes. Multiplication: {} Montgomery.{backends}",
        c.modulus,
        c.bits,
        c.limbs,
        c.w(),
        c.w() as usize * c.limbs,
        c.bytes,
        mul.name()
    )
}

impl GeneratedField {
    /// The CLI command that generates exactly this file.
    pub fn command_line(&self) -> String {
        let mut cmd = self.options.command_line();
        if self.target != Target::Auto {
            cmd.push_str(&format!(" --target {}", self.target.name()));
        }
        cmd
    }

    /// The `@generated` header: the command, every input and every derived constant.
    pub fn header(&self) -> String {
        let c = &self.consts;
        let sqrt = match &c.sqrt {
            SqrtMethod::ThreeMod4 { .. } => "p = 3 mod 4, x = a^((p+1)/4)",
            SqrtMethod::Atkin { .. } => "p = 5 mod 8, Atkin",
            SqrtMethod::TonelliShanks { .. } => "p = 1 mod 8, Tonelli-Shanks",
        };
        let mut lines = vec![
            format!("@generated by fieldgen generator {VERSION}. Do not edit: regenerate."),
            format!("Command: {}", self.command_line()),
            format!("Input modulus: {}", self.options.modulus),
        ];
        if let Some(p) = self.preset {
            lines.push(format!("Preset: {} ({})", p.name, p.description));
        }
        lines.extend([
            format!("p = {:#x}", c.modulus),
            format!("p = {}", c.modulus),
            format!(
                "Bits: {}; limb bits w = {}; limbs n = {}; spare bits = {}",
                c.bits,
                c.w(),
                c.limbs,
                c.spare_bits
            ),
            format!("Target: {}", self.target_description),
            format!(
                "Multiplication: {}; squaring: off-diagonal once + Montgomery reduction",
                self.mul.name()
            ),
            format!("R = 2^{} ; R mod p = {:#x}", c.w() as usize * c.limbs, c.r),
            format!("R^2 mod p = {:#x}", c.r2),
            format!("n0' = -p^-1 mod 2^{} = {:#x}", c.w(), c.n0_inv),
            format!(
                "2-adicity s = {}; smallest non-residue = {}; sqrt: {sqrt}",
                c.two_adicity, c.nonresidue
            ),
            format!(
                "Multiplicative generator: {}",
                c.generator
                    .as_ref()
                    .map(|g| g.to_string())
                    .unwrap_or_else(|| "not found (p-1 not factored)".into())
            ),
            format!(
                "Exponent windows: {} bits",
                emit::field::window_width(c.bits)
            ),
        ]);
        lines.iter().map(|l| format!("// {l}\n")).collect()
    }

    /// The complete file: header, then the module body formatted by prettyplease.
    pub fn to_file(&self) -> String {
        let file: syn::File =
            syn::parse2(self.tokens.clone()).expect("the emitter produces valid Rust");
        format!("{}\n{}", self.header(), prettyplease::unparse(&file))
    }
}
