//! The prime-field product: [`PrimeFieldOptions`] in, [`GeneratedField`] out. The stages
//! ([`spec()`], [`plan()`], [`core()`], [`api()`]) run in the order [`crate::pipeline::prime_field`]
//! lists; the header is written by [`crate::header::Header`] when the file is printed.

use proc_macro2::{Ident, TokenStream};

use crate::header::Header;
use crate::spec::{self, FieldConsts, LimbBits, Preset, SqrtMethod};
use crate::strategy;
use crate::strategy::pseudo_mersenne::PseudoMersenne;
use crate::strategy::unsaturated::Unsaturated;
use crate::strategy::{MulAlgorithm, Strategy};
use crate::{api, backend};
use crate::{validate_type_name, GenError, Target};

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
    /// Reduction strategy ([`Strategy::Auto`]: the special form when the prime has one and it
    /// is expected to be faster).
    pub strategy: Strategy,
    /// Limb width for [`Strategy::Unsaturated`] (`--radix`): m = ⌈k/radix⌉ limbs; `None` picks
    /// [`Unsaturated::default_limbs`].
    pub radix: Option<u32>,
}

impl PrimeFieldOptions {
    /// Options for `modulus` with the defaults: type `Fp`, 64-bit limbs, automatic algorithm.
    pub fn new(modulus: &str) -> PrimeFieldOptions {
        PrimeFieldOptions {
            modulus: modulus.to_string(),
            name: "Fp".to_string(),
            limb_bits: LimbBits::W64,
            mul: None,
            strategy: Strategy::Auto,
            radix: None,
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
        if self.strategy != Strategy::Auto {
            cmd.push_str(&format!(" --strategy {}", self.strategy.name()));
        }
        if let Some(r) = self.radix {
            cmd.push_str(&format!(" --radix {r}"));
        }
        cmd
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
    /// The multiplication algorithm used (Montgomery strategy only).
    pub mul: MulAlgorithm,
    /// The strategy used (never [`Strategy::Auto`]).
    pub strategy: Strategy,
    /// The special form, when the strategy is pseudo-Mersenne or Solinas.
    pub special: Option<PseudoMersenne>,
    /// The unsaturated layout, when the strategy is unsaturated.
    pub unsaturated: Option<Unsaturated>,
    /// The target it was generated for.
    pub target: Target,
    /// The backends of `mul`/`square` in the code, in order of preference (the values
    /// `backend()` can return).
    pub backends: Vec<&'static str>,
    /// How the target's backends are chosen, for the file header.
    pub target_description: String,
    /// The module body: items only, no inner attributes, depending on `core` and `::fieldgen_field` (whose `subtle` re-export it names).
    pub tokens: TokenStream,
}

/// Runs the whole pipeline for one prime field with the default target ([`Target::Auto`]):
/// parse, validate, derive, lower, optimise, emit. The same as [`crate::generate`] with
/// [`crate::Request::PrimeField`].
pub fn generate_prime_field(options: &PrimeFieldOptions) -> Result<GeneratedField, GenError> {
    generate_prime_field_for(options, Target::Auto)
}

/// Runs the whole pipeline for one prime field and one target: the stages of
/// [`crate::pipeline::prime_field`].
pub fn generate_prime_field_for(
    options: &PrimeFieldOptions,
    target: Target,
) -> Result<GeneratedField, GenError> {
    crate::pipeline::prime_field(options, target)
}

/// What the spec stage derives: the type name, the prime and its constants.
#[derive(Clone, Debug)]
pub struct PrimeSpec {
    /// The type name, checked.
    pub ident: Ident,
    /// The preset the modulus named, if any.
    pub preset: Option<&'static Preset>,
    /// Derived constants (with the multiplicative generator when p − 1 factors).
    pub consts: FieldConsts,
}

/// Stage 1, spec: checks the type name, parses the modulus (or preset), tests primality and
/// derives the constants for the limb size.
pub fn spec(options: &PrimeFieldOptions) -> Result<PrimeSpec, GenError> {
    let ident = validate_type_name(&options.name)?;
    let (p, preset) = spec::parse_modulus(&options.modulus)?;
    let consts = FieldConsts::new(&p, options.limb_bits)?.with_multiplicative_generator();
    Ok(PrimeSpec {
        ident,
        preset,
        consts,
    })
}

/// One reduction strategy the core stage may emit.
#[derive(Clone, Debug)]
pub enum Candidate {
    /// Montgomery multiplication with the plan's algorithm.
    Montgomery,
    /// A special form, reported as the given strategy (pseudo-Mersenne or Solinas).
    Special(PseudoMersenne, Strategy),
    /// An unsaturated layout, already accepted by the bounds pass.
    Unsaturated(Unsaturated),
}

/// What the strategy stage decided: the multiplication algorithm and the strategies to try,
/// in order (the core stage emits the first the target and the bounds pass accept).
#[derive(Clone, Debug)]
pub struct Plan {
    /// The Montgomery multiplication algorithm (used by [`Candidate::Montgomery`]).
    pub mul: MulAlgorithm,
    /// Strategies in order of preference; never empty.
    pub candidates: Vec<Candidate>,
}

/// Stage 2, strategy: the multiplication algorithm, and the reduction strategies to try.
/// `Auto` takes the special form when the prime is 2^k − c with a one-word c and no `--mul`
/// was asked for, and either p has a spare bit (2^255 − 19, 2^127 − 1, 2^521 − 1: loose
/// values, no final subtraction) or the x86-64 kernel exists (secp256k1 on 64-bit limbs:
/// measured faster than the Montgomery kernel), with Montgomery as the fallback when the
/// bounds pass refuses the special form. An explicit strategy is the only candidate, so its
/// refusal is the error. The unsaturated layout is chosen here by lowering it and asking the
/// bounds pass.
pub fn plan(options: &PrimeFieldOptions, spec: &PrimeSpec) -> Result<Plan, GenError> {
    let consts = &spec.consts;
    let mul = match options.mul {
        Some(m) if !m.applies_to(consts) => return Err(GenError::MulNotApplicable(m.name())),
        Some(m) => m,
        None => MulAlgorithm::auto(consts),
    };
    if options.radix.is_some() && options.strategy != Strategy::Unsaturated {
        return Err(GenError::StrategyNotApplicable(
            "--radix applies to --strategy unsaturated only".into(),
        ));
    }
    let detected = PseudoMersenne::detect(consts);
    let p = &consts.modulus;
    let candidates = match options.strategy {
        Strategy::Montgomery => vec![Candidate::Montgomery],
        Strategy::PseudoMersenne => match detected {
            Some(pm) if pm.single_word_c() => vec![Candidate::Special(pm, Strategy::PseudoMersenne)],
            _ => return Err(GenError::StrategyNotApplicable(format!(
                "--strategy pseudo-mersenne needs p = 2^k - c with c below 2^{} (one limb); {p:#x} is not of that form: use --strategy solinas or montgomery",
                consts.w()
            ))),
        },
        Strategy::Solinas => match (
            detected,
            strategy::signed_solinas::SignedSolinas::detect(consts),
        ) {
            (Some(pm), _) => vec![Candidate::Special(pm, Strategy::Solinas)],
            (None, Some(s)) => vec![Candidate::Special(s.shape(consts), Strategy::Solinas)],
            (None, None) => return Err(GenError::StrategyNotApplicable(format!(
                "--strategy solinas needs p = 2^k - c with c of at most 2k/3 bits, or with 32-bit-aligned terms of c in {{-1, 0, 1}}; {p:#x} is not of that form: use --strategy montgomery"
            ))),
        },
        Strategy::Unsaturated => {
            vec![Candidate::Unsaturated(choose_unsaturated(consts, options.radix)?)]
        }
        Strategy::Auto => match detected {
            Some(pm)
                if options.mul.is_none()
                    && pm.single_word_c()
                    && (pm.is_loose()
                        || backend::x86_64::pseudo_mersenne::unsupported(consts, &pm).is_none()) =>
            {
                vec![
                    Candidate::Special(pm, Strategy::PseudoMersenne),
                    Candidate::Montgomery,
                ]
            }
            _ => vec![Candidate::Montgomery],
        },
    };
    Ok(Plan { mul, candidates })
}

/// What the core stage emitted: the strategy it took and the target's core functions.
#[derive(Clone, Debug)]
pub struct Core {
    /// The strategy used (never [`Strategy::Auto`]).
    pub strategy: Strategy,
    /// The special form, when the strategy is pseudo-Mersenne or Solinas.
    pub special: Option<PseudoMersenne>,
    /// The unsaturated layout, when the strategy is unsaturated.
    pub unsaturated: Option<Unsaturated>,
    /// The core functions for the target, their backends and the header's target line.
    pub core: api::core::TargetCore,
}

/// Stage 3, core: lowers each core operation to IR, runs the passes (bounds, simplify, dce)
/// and prints the target's backends, for the first candidate of the plan that the target
/// and the bounds pass accept. Errors: the last candidate's refusal.
pub fn core(spec: &PrimeSpec, plan: &Plan, target: Target) -> Result<Core, GenError> {
    let (consts, ident) = (&spec.consts, &spec.ident);
    let mut last = None;
    for candidate in &plan.candidates {
        let result = match candidate {
            Candidate::Montgomery => api::core::target_core(consts, plan.mul, target, ident)
                .map(|core| Core {
                    strategy: Strategy::Montgomery,
                    special: None,
                    unsaturated: None,
                    core,
                })
                .map_err(GenError::TargetNotApplicable),
            Candidate::Special(pm, s) => backend::special::special_core(consts, pm, target, ident)
                .map(|core| Core {
                    strategy: *s,
                    special: Some(pm.clone()),
                    unsaturated: None,
                    core,
                })
                .map_err(GenError::StrategyNotApplicable),
            Candidate::Unsaturated(u) => {
                backend::unsaturated::unsaturated_core(consts, u, target, ident)
                    .map(|core| Core {
                        strategy: Strategy::Unsaturated,
                        special: None,
                        unsaturated: Some(u.clone()),
                        core,
                    })
                    .map_err(GenError::StrategyNotApplicable)
            }
        };
        match result {
            Ok(core) => return Ok(core),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| GenError::StrategyNotApplicable("no strategy to emit".into())))
}

/// Stage 4, API: wraps the core in the public field type (stored form, encodings, inversion,
/// square roots, dispatch between backends) with its type doc.
pub fn api(spec: &PrimeSpec, plan: &Plan, core: &Core) -> TokenStream {
    let (consts, ident, preset) = (&spec.consts, &spec.ident, spec.preset);
    let backends = &core.core.backends;
    let tokens = core.core.tokens.clone();
    match (&core.special, &core.unsaturated) {
        (_, Some(u)) => {
            let doc = unsaturated_type_doc(consts, preset, u, backends);
            let form = api::field::StoredForm::Unsaturated { k: u.k, m: u.m };
            api::field::field_module_in(consts, ident, tokens, &doc, form, false)
        }
        (None, None) => {
            let doc = type_doc(consts, preset, plan.mul, backends);
            let adx = backends.contains(&backend::x86_64::NAME);
            api::field::field_module(consts, ident, tokens, &doc, adx)
        }
        (Some(pm), None) => {
            let doc = special_type_doc(consts, preset, pm, core.strategy, backends);
            let form = api::field::StoredForm::Canonical {
                loose: pm.is_loose(),
            };
            api::field::field_module_in(consts, ident, tokens, &doc, form, false)
        }
    }
}

/// The unsaturated layout for `radix` (or the default limb count, then one or two more limbs
/// if the bounds pass refuses it). Errors: p is not of the form, or no layout is provably
/// overflow-free.
fn choose_unsaturated(consts: &FieldConsts, radix: Option<u32>) -> Result<Unsaturated, GenError> {
    let m0 = Unsaturated::default_limbs(consts, radix);
    let tries = if radix.is_some() { 1 } else { 3 };
    let mut last = String::new();
    for m in m0..m0 + tries {
        match Unsaturated::with_limbs(consts, m)
            .and_then(|u| backend::unsaturated::lowered_core(consts, &u).map(|_| u))
        {
            Ok(u) => return Ok(u),
            Err(e) => last = e,
        }
    }
    Err(GenError::StrategyNotApplicable(last))
}

fn unsaturated_type_doc(
    c: &FieldConsts,
    preset: Option<&Preset>,
    u: &Unsaturated,
    backends: &[&str],
) -> String {
    let what = match preset {
        Some(p) => format!(" ({}: {})", p.name, p.description),
        None => String::new(),
    };
    let widths: Vec<String> = (0..u.m).map(|i| u.width(i).to_string()).collect();
    format!(
        " An element of GF(p), p = {:#x}{what}, a {}-bit prime of the form 2^{} - {}. Stored as {} little-endian limbs of radix {} (widths {} bits) in {}-bit words, kept tight (carried, below 2p) and canonicalised for equality and encodings; canonical encodings are {} bytes. Reduction: unsaturated (column sums with 2^k = c mod p, one carry pass). Backends: {}.",
        c.modulus,
        c.bits,
        u.k,
        u.c,
        u.m,
        u.radix_name(),
        widths.join("/"),
        c.w(),
        c.bytes,
        backends.join(", ")
    )
}

/// Whether a special form reduces by signed 32-bit terms (c too wide for folds, as for P-256).
fn signed_terms(c: &FieldConsts) -> bool {
    PseudoMersenne::detect(c).is_none()
        && strategy::signed_solinas::SignedSolinas::detect(c).is_some()
}

fn special_type_doc(
    c: &FieldConsts,
    preset: Option<&Preset>,
    pm: &PseudoMersenne,
    strategy: Strategy,
    backends: &[&str],
) -> String {
    let what = match preset {
        Some(p) => format!(" ({}: {})", p.name, p.description),
        None => String::new(),
    };
    let state = if pm.is_loose() {
        "loose: any value below 2p congruent to it, canonicalised for equality and encodings"
    } else {
        "canonical, in [0, p)"
    };
    format!(
        " An element of GF(p), p = {:#x}{what}, a {}-bit prime of the form 2^{} - {:#x}. Stored as {} little-endian {}-bit limbs ({state}); canonical encodings are {} bytes. Reduction: {} (2^k = c mod p{}, saturated limbs). Backends: {}.",
        c.modulus,
        c.bits,
        pm.k,
        pm.c,
        c.limbs,
        c.w(),
        c.bytes,
        strategy.name(),
        if signed_terms(c) {
            "; signed 32-bit terms, FIPS 186-4 D.2"
        } else {
            ""
        },
        backends.join(", ")
    )
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
        let mut lines = vec![format!("Input modulus: {}", self.options.modulus)];
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
            match (&self.special, &self.unsaturated) {
                (_, Some(u)) => format!(
                    "Strategy: unsaturated; p = 2^{} - {}; {} limbs of radix {} (positions ceil({}*i/{})), stored tight; multiplication: column sums with c and the mixed-radix factor folded in, then carries 0..{}, 0",
                    u.k,
                    u.c,
                    u.m,
                    u.radix_name(),
                    u.k,
                    u.m,
                    u.m - 1
                ),
                (None, None) => format!(
                    "Multiplication: {}; squaring: off-diagonal once + Montgomery reduction",
                    self.mul.name()
                ),
                (Some(pm), None) => format!(
                    "Strategy: {}; p = 2^{} - {:#x}; stored {}; multiplication: operand scanning, squaring: off-diagonal once, both reduced by {} with 2^{} = c mod p",
                    self.strategy.name(),
                    pm.k,
                    pm.c,
                    if pm.is_loose() { "loose (below 2p)" } else { "tight (canonical)" },
                    if signed_terms(c) {
                        "the signed 32-bit terms of FIPS 186-4 D.2 and one fold"
                    } else {
                        "folds"
                    },
                    pm.k
                ),
            },
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
                api::field::window_width(c.bits)
            ),
        ]);
        if self.special.is_some() || self.unsaturated.is_some() {
            // No Montgomery form: R, R² and n0' play no part.
            lines.retain(|l| !(l.starts_with("R") || l.starts_with("n0'")));
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
