//! The lane-field product: four elements of a pseudo-Mersenne preset field side by side on
//! AVX-512 IFMA ([`crate::backend::x86_64::ifma_lanes`]), converting to and from the preset's
//! 64-bit module in the committed `generated/` crate. [`LaneFieldOptions`] in,
//! [`GeneratedLaneField`] out; the stages run in the order [`crate::pipeline::lane_field`]
//! lists.

use proc_macro2::TokenStream;

use crate::backend::x86_64::ifma_lanes::{LaneBounds, LaneField};
use crate::header::Header;
use crate::spec::{find_preset, module_name, Preset};
use crate::target::{Product, Target};

/// What to generate for one lane field.
#[derive(Clone, Debug)]
pub struct LaneFieldOptions {
    /// A preset name of a prime 2^k − c.
    pub preset: String,
    /// Limb count m (k = m·r, r ≤ 52).
    pub limbs: usize,
}

impl LaneFieldOptions {
    /// Options for `preset` in `limbs` limbs.
    pub fn new(preset: &str, limbs: usize) -> LaneFieldOptions {
        LaneFieldOptions {
            preset: preset.to_string(),
            limbs,
        }
    }
}

/// A generated lane field.
#[derive(Clone, Debug)]
pub struct GeneratedLaneField {
    /// The options it was generated from.
    pub options: LaneFieldOptions,
    /// The preset it packs.
    pub preset: &'static Preset,
    /// The layout (k, c, limbs, names).
    pub field: LaneField,
    /// The limb bounds the bounds pass proved.
    pub bounds: LaneBounds,
    /// The module body: items only, x86-64 code.
    pub tokens: TokenStream,
}

/// Stage 0, target: lane fields are served by `auto` only ([`crate::target::TARGETS`]).
pub fn serving(target: Target) -> Result<Target, String> {
    target
        .serving(Product::LaneField)
        .map_err(|why| why.to_string())
}

/// Stage 1, spec and bounds: the preset's prime as 2^k − c split into `limbs` limbs, with
/// the limb bounds proved (see [`crate::backend::x86_64::ifma_lanes`]). The type is the preset's
/// type name with `X4`; it converts through `super::<preset>_64::<type>`.
pub fn layout(options: &LaneFieldOptions) -> Result<(&'static Preset, LaneField), String> {
    let preset = find_preset(&options.preset)
        .ok_or_else(|| format!("unknown preset `{}`", options.preset))?;
    let p = crate::spec::parse_modulus_expr(preset.modulus)
        .map_err(|e| format!("{}: {e}", preset.name))?;
    let field = LaneField::for_modulus(
        &p,
        options.limbs,
        &format!("{}X4", preset.type_name),
        &format!(
            "super::{}::{}",
            module_name(preset.name, 64),
            preset.type_name
        ),
        preset.name,
    )
    .map_err(|e| format!("lane field {}: {e}", preset.name))?;
    Ok((preset, field))
}

impl GeneratedLaneField {
    /// The module name in `generated/src`: `curve25519_p_x4`.
    pub fn module_name(&self) -> String {
        format!("{}_x4", self.preset.name.replace('-', "_"))
    }

    /// The type name: the preset's with `X4`.
    pub fn type_name(&self) -> &str {
        &self.field.name
    }

    /// The provenance header: the preset and the proved bounds.
    pub fn header(&self) -> String {
        let b = &self.bounds;
        Header::regen(Some("manifest.toml, [[lane_field]]"))
            .line(format!(
                "Preset: {} ({})",
                self.preset.name, self.preset.description
            ))
            .line(format!(
                "Four lanes, {} limbs of radix 2^{}, limbs at most {:#x}; columns below {:#x}; sub bias 2^{}·p",
                self.options.limbs, b.radix, b.tight, b.column, b.bias_shift
            ))
            .render()
    }

    /// The complete file: header, then the module body formatted by prettyplease (feature
    /// `format`).
    #[cfg(feature = "format")]
    pub fn to_file(&self) -> String {
        crate::header::file(&self.header(), &self.tokens)
    }
}
