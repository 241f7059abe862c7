//! The stages of every product, in the order they run: one function per product, one line
//! per stage, so the order is read here and nowhere else. [`crate::generate`] dispatches a
//! [`crate::Request`] to these; the older per-product functions
//! ([`crate::generate_prime_field_for`], [`crate::binary::generate_binary_field_for`],
//! [`crate::rsa::generate_rsa`]) call them too.
//!
//! Every product starts with the target table ([`crate::target::TARGETS`]) and ends with the
//! provenance header ([`crate::header::Header`]), written when the file is printed
//! (`header()`, `to_file()`). The IR passes run inside the core stage of the products that
//! have IR: each core function is lowered to IR by a strategy ([`crate::strategy`]), its range
//! obligations proved by [`crate::pass::verify_bounds`] (a refusal is the stage's error), then
//! simplified and cleaned by [`crate::pass::optimize`] (simplify, then dce) before a backend
//! prints it ([`crate::backend::portable`]; the ISA backends in [`crate::backend::x86_64`],
//! [`crate::backend::aarch64`] and [`crate::backend::armv7`] build their kernels from the same
//! algorithm, checked against the IR interpreter by the simulator tests).
//!
//! ```text
//! prime field   target ─ spec ─ strategy ─ core ─────────────────────────── api ─ header
//!                         │       │          lower → bounds → simplify → dce
//!                         │       │          → backends (portable, x86-64 ADX, aarch64, armv7)
//!                         │       └ mul algorithm; candidates (special form, Montgomery, unsaturated)
//!                         └ name, modulus or preset, primality, constants
//! binary field  target ─ names/words ─ spec ─ emit (backends; products, reduction by f, API) ─ header
//! RSA context   target ─ shape ─ name/emit (Comba/Karatsuba, SOS REDC, x86-64 ADX rows, modexp) ─ header
//! lane field    target ─ layout + bounds ─ emit (IFMA lanes) ─ header
//! ```
//!
//! A new product (an extension-field tower, curve constants such as [`crate::bn`]) adds a
//! function here, a [`crate::Request`] variant and a column of the target table.

use crate::binary::{self, BinaryError, BinaryFieldOptions, GeneratedBinaryField};
use crate::lanes::{self, GeneratedLaneField, LaneFieldOptions};
use crate::prime::{self, GeneratedField, PrimeFieldOptions};
use crate::rsa::{self, GeneratedRsa, RsaOptions};
use crate::target::Product;
use crate::{GenError, Target};

/// A prime field: target table, spec, strategy, core (lower → passes → backends), API.
pub fn prime_field(
    options: &PrimeFieldOptions,
    target: Target,
) -> Result<GeneratedField, GenError> {
    let serving = target
        .serving(Product::PrimeField)
        .map_err(|why| GenError::TargetNotApplicable(why.to_string()))?;
    let spec = prime::spec(options)?;
    let plan = prime::plan(options, &spec)?;
    let core = prime::core(&spec, &plan, serving)?;
    let tokens = prime::api(&spec, &plan, &core);
    Ok(GeneratedField {
        options: options.clone(),
        preset: spec.preset,
        consts: spec.consts,
        mul: plan.mul,
        strategy: core.strategy,
        special: core.special,
        unsaturated: core.unsaturated,
        target,
        backends: core.core.backends,
        target_description: core.core.description,
        tokens,
    })
}

/// A binary field: target table, names and word size, spec, emit.
pub fn binary_field(
    options: &BinaryFieldOptions,
    target: Target,
) -> Result<GeneratedBinaryField, BinaryError> {
    let serving = binary::serving(target)?;
    let ident = binary::check_options(options, serving)?;
    let (spec, preset) = binary::spec(options)?;
    let (backends, tokens) = binary::emit_module(&spec, preset, &ident, serving);
    Ok(GeneratedBinaryField {
        options: options.clone(),
        preset,
        target,
        serving,
        spec,
        backends,
        tokens,
    })
}

/// An RSA context: target table, shape, name and emit.
pub fn rsa_context(options: &RsaOptions, target: Target) -> Result<GeneratedRsa, GenError> {
    rsa::serving(target)?;
    let shape = rsa::shape(options)?;
    rsa::generate_rsa_with_shape(options, shape)
}

/// A lane field: target table, layout and bounds, emit.
pub fn lane_field(
    options: &LaneFieldOptions,
    target: Target,
) -> Result<GeneratedLaneField, String> {
    lanes::serving(target)?;
    let (preset, field) = lanes::layout(options)?;
    let bounds = field.bounds()?;
    let tokens = field.emit();
    Ok(GeneratedLaneField {
        options: options.clone(),
        preset,
        field,
        bounds,
        tokens,
    })
}
