//! RSA sizes: `--rsa-bits N` generates a Montgomery context `MontN` for a modulus known only at
//! run time, specialised to the operand size N ∈ {768, 1024, 1536, 2048, 3072, 4096}. The code
//! is emitted by [`crate::rsa::emit`]; this module holds the options, the stages
//! [`crate::pipeline::rsa_context`] runs, the file header and the committed `generated-rsa/`
//! crate that `regen` writes and checks.

pub mod emit;
pub mod helpers;
pub mod window;

#[cfg(feature = "cli")]
use std::collections::BTreeMap;
#[cfg(feature = "cli")]
use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;

use crate::header::Header;
#[cfg(feature = "cli")]
use crate::header::NARROWING_ALLOW;
use crate::rsa::emit::{rsa_module, RsaShape};
use crate::{validate_type_name, GenError, Target};

/// The operand sizes `--rsa-bits` accepts.
pub const RSA_SIZES: [usize; 6] = [768, 1024, 1536, 2048, 3072, 4096];

/// What to generate for one RSA size.
#[derive(Clone, Debug)]
pub struct RsaOptions {
    /// Operand size in bits, one of [`RSA_SIZES`].
    pub bits: usize,
    /// The type name (default `MontN`).
    pub name: String,
}

impl RsaOptions {
    /// The options for `bits` with the default name `Mont{bits}`.
    pub fn new(bits: usize) -> RsaOptions {
        RsaOptions {
            bits,
            name: format!("Mont{bits}"),
        }
    }

    /// The CLI command that generates exactly this file.
    pub fn command_line(&self) -> String {
        let mut cmd = format!("cargo run -p generator -- --rsa-bits {}", self.bits);
        if self.name != format!("Mont{}", self.bits) {
            cmd.push_str(&format!(" --name {}", self.name));
        }
        cmd
    }
}

/// A generated RSA-size context.
#[derive(Clone, Debug)]
pub struct GeneratedRsa {
    /// The options it was generated from.
    pub options: RsaOptions,
    /// How the size is built.
    pub shape: RsaShape,
    /// The module body: items only, depending on `core` and `::fieldgen_field` (whose `subtle` re-export it names).
    pub tokens: TokenStream,
}

/// Generates the `MontN` context for `options`: the stages of
/// [`crate::pipeline::rsa_context`] with [`Target::Auto`]. Errors: a size outside
/// [`RSA_SIZES`], an unusable type name.
pub fn generate_rsa(options: &RsaOptions) -> Result<GeneratedRsa, GenError> {
    crate::pipeline::rsa_context(options, Target::Auto)
}

/// Stage 0, target: RSA contexts are served by `auto` only ([`crate::target::TARGETS`]).
pub fn serving(target: Target) -> Result<Target, GenError> {
    target
        .serving(crate::target::Product::RsaContext)
        .map_err(|why| GenError::TargetNotApplicable(why.to_string()))
}

/// Stage 1, shape: the size checked against [`RSA_SIZES`] and its shape (Karatsuba levels,
/// reduction, window, which x86-64 kernels).
pub fn shape(options: &RsaOptions) -> Result<RsaShape, GenError> {
    if !RSA_SIZES.contains(&options.bits) {
        return Err(GenError::TargetNotApplicable(format!(
            "--rsa-bits {} is not supported: choose one of 768, 1024, 1536, 2048, 3072, 4096",
            options.bits
        )));
    }
    Ok(RsaShape::new(options.bits))
}

/// Stages 2 and 3, name and emit: [`generate_rsa`] with an explicit shape (Karatsuba leaf,
/// reduction shape, window), for measuring thresholds.
pub fn generate_rsa_with_shape(
    options: &RsaOptions,
    shape: RsaShape,
) -> Result<GeneratedRsa, GenError> {
    let ident = validate_type_name(&options.name)?;
    let doc = format!(
        "Montgomery arithmetic modulo a run-time {}-bit odd modulus n (top byte non-zero), as {} little-endian 64-bit limbs; R = 2^{}. Products: {}; reduction: SOS Montgomery ({}); modexp: fixed {}-bit window, constant time.",
        shape.bits,
        shape.limbs,
        shape.bits,
        product_description(&shape),
        if shape.limbs <= shape.redc_full_max {
            "straight-line"
        } else {
            "one straight-line row per limb"
        },
        shape.window
    );
    let tokens = rsa_module(&shape, &ident, &doc);
    Ok(GeneratedRsa {
        options: options.clone(),
        shape,
        tokens,
    })
}

fn product_description(shape: &RsaShape) -> String {
    format!(
        "{}; squares: {}",
        chain_description(&shape.levels()),
        chain_description(&shape.square_levels())
    )
}

fn chain_description(levels: &[usize]) -> String {
    let leaf = levels.last().unwrap();
    if levels.len() == 1 {
        format!("straight-line Comba ({leaf} limbs)")
    } else {
        format!(
            "Karatsuba {} limbs, straight-line Comba leaves of {leaf} limbs",
            levels[..levels.len() - 1]
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" → ")
        )
    }
}

impl GeneratedRsa {
    /// The `@generated` header.
    pub fn header(&self) -> String {
        let s = &self.shape;
        let lines = [
            format!(
                "RSA size: N = {} bits; {} limbs of 64 bits; {} bytes; modulus given at run time",
                s.bits,
                s.limbs,
                s.bits / 8
            ),
            format!("Products: {}", product_description(s)),
            format!(
                "Reduction: {}",
                if s.limbs <= s.redc_full_max {
                    "straight-line SOS Montgomery reduction"
                } else {
                    "SOS Montgomery reduction, one straight-line row per limb"
                }
            ),
            format!("modexp window: {} bits (constant time)", s.window),
            if s.adx_window_mont {
                "x86-64 BMI2/ADX (CPUID at run time): register-window kernels (accumulator window of 8 limbs in registers); multiplication and squaring each one asm block (product or square, reduction stripes, final subtraction)".to_string()
            } else if crate::rsa::window::leaf_supported(*s.levels().last().unwrap()) {
                format!(
                    "x86-64 BMI2/ADX (CPUID at run time): multiplication and squaring SOS, Karatsuba over register-window kernel leaves of {} limbs (squares {}), then Montgomery reduction by assembly rows",
                    s.levels().last().unwrap(),
                    s.square_levels().last().unwrap(),
                )
            } else {
                format!(
                    "x86-64 BMI2/ADX (CPUID at run time): product leaves and reduction in assembly rows; multiplication {}, squaring {}",
                    if s.adx_mul_sos { "SOS (Karatsuba product, then reduction rows)" } else { "interleaved rows (CIOS)" },
                    if s.adx_square_sos { "SOS (Comba/Karatsuba square, then reduction rows)" } else { "interleaved rows (CIOS)" }
                )
            },
        ];
        Header::generator(&self.options.command_line())
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

/// The module name of a size in `generated-rsa/src`: `mont2048`.
pub fn module_name(bits: usize) -> String {
    format!("mont{bits}")
}

/// Every file regen owns in the `generated-rsa/` crate, by path relative to it (feature `cli`).
#[cfg(feature = "cli")]
pub fn expected_files() -> Result<BTreeMap<PathBuf, String>, String> {
    let mut files = BTreeMap::new();
    let mut lib = String::new();
    lib.push_str(&Header::regen(None).render());
    lib.push('\n');
    lib.push_str(
        "//! Committed fieldgen output for the RSA sizes: one Montgomery context `MontN` per\n",
    );
    lib.push_str("//! operand size N, for a modulus given at run time. Each module's file header gives the\n");
    lib.push_str("//! command that regenerates it (`--rsa-bits N`).\n\n");
    lib.push_str("#![no_std]\n\n");
    for bits in RSA_SIZES {
        let g = generate_rsa(&RsaOptions::new(bits)).map_err(|e| e.to_string())?;
        let module = module_name(bits);
        files.insert(PathBuf::from(format!("src/{module}.rs")), g.to_file());
        lib.push_str(&format!(
            "/// {bits}-bit operands.\n#[rustfmt::skip]\n{NARROWING_ALLOW}\npub mod {module};\npub use {module}::{{Mont{bits}, Mont{bits}CrtKey}};\n"
        ));
    }
    files.insert(PathBuf::from("src/lib.rs"), lib);
    Ok(files)
}

/// Files of `generated-rsa/` under `dir` that differ from what regen would write (empty when up
/// to date), including stale `.rs` files under `src/` (feature `cli`).
#[cfg(feature = "cli")]
pub fn check(dir: &Path) -> Result<Vec<String>, String> {
    let files = expected_files()?;
    let mut problems = Vec::new();
    for (rel, text) in &files {
        match std::fs::read_to_string(dir.join(rel)) {
            Ok(on_disk) if on_disk == *text => {}
            Ok(_) => problems.push(format!("differs: generated-rsa/{}", rel.display())),
            Err(_) => problems.push(format!("missing: generated-rsa/{}", rel.display())),
        }
    }
    for stale in stale(dir, &files)? {
        problems.push(format!("stale: generated-rsa/{}", stale.display()));
    }
    Ok(problems)
}

#[cfg(feature = "cli")]
fn stale(dir: &Path, files: &BTreeMap<PathBuf, String>) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir.join("src")) else {
        return Ok(out);
    };
    for e in entries {
        let name = e.map_err(|e| e.to_string())?.file_name();
        let rel = PathBuf::from("src").join(&name);
        if name.to_string_lossy().ends_with(".rs") && !files.contains_key(&rel) {
            out.push(rel);
        }
    }
    out.sort();
    Ok(out)
}

/// Rewrites `generated-rsa/src` under `dir`; returns the paths written (feature `cli`).
#[cfg(feature = "cli")]
pub fn write(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let files = expected_files()?;
    std::fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
    for s in stale(dir, &files)? {
        std::fs::remove_file(dir.join(&s)).map_err(|e| format!("{}: {e}", s.display()))?;
    }
    let mut written = Vec::new();
    for (rel, text) in &files {
        let path = dir.join(rel);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        written.push(rel.clone());
    }
    Ok(written)
}
