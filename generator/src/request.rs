//! The one entry point: a [`Request`] names a product, its options and a target;
//! [`generate`] runs that product's stages ([`crate::pipeline`]) and returns [`Generated`],
//! whose `header()` and `to_file()` are the same for every product.

use proc_macro2::TokenStream;

use crate::binary::{BinaryFieldOptions, GeneratedBinaryField};
use crate::lanes::{GeneratedLaneField, LaneFieldOptions};
use crate::prime::{GeneratedField, PrimeFieldOptions};
use crate::rsa::{GeneratedRsa, RsaOptions};
use crate::target::{Product, Target};
use crate::{pipeline, Error};

/// What to generate: one product, its options and the target ([`crate::target::TARGETS`]
/// says which targets serve which product).
///
/// An extension-field tower or a curve's constants (today [`crate::bn`], driven by `regen`
/// and the `bn` command) become further variants, each with a function in
/// [`crate::pipeline`] and a column of the target table.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Request {
    /// A prime field GF(p) (`--prime`).
    PrimeField {
        /// The field.
        options: PrimeFieldOptions,
        /// The target.
        target: Target,
    },
    /// A binary field GF(2^m) (`--poly`).
    BinaryField {
        /// The field.
        options: BinaryFieldOptions,
        /// The target.
        target: Target,
    },
    /// A Montgomery context for a run-time RSA modulus (`--rsa-bits`).
    RsaContext {
        /// The size and type name.
        options: RsaOptions,
        /// The target.
        target: Target,
    },
    /// Four lanes of a pseudo-Mersenne preset field on AVX-512 IFMA (`[[lane_field]]` of the
    /// manifest).
    LaneField {
        /// The preset and limb count.
        options: LaneFieldOptions,
        /// The target.
        target: Target,
    },
}

impl Request {
    /// The product asked for.
    pub fn product(&self) -> Product {
        match self {
            Request::PrimeField { .. } => Product::PrimeField,
            Request::BinaryField { .. } => Product::BinaryField,
            Request::RsaContext { .. } => Product::RsaContext,
            Request::LaneField { .. } => Product::LaneField,
        }
    }

    /// The target asked for.
    pub fn target(&self) -> Target {
        match self {
            Request::PrimeField { target, .. }
            | Request::BinaryField { target, .. }
            | Request::RsaContext { target, .. }
            | Request::LaneField { target, .. } => *target,
        }
    }
}

/// What [`generate`] made: the product's own value, with its constants and tokens.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Generated {
    /// A prime field.
    PrimeField(GeneratedField),
    /// A binary field.
    BinaryField(GeneratedBinaryField),
    /// An RSA context.
    RsaContext(GeneratedRsa),
    /// A lane field.
    LaneField(GeneratedLaneField),
}

impl Generated {
    /// The module body: items only, depending on `core` and `::fieldgen_field`.
    pub fn tokens(&self) -> &TokenStream {
        match self {
            Generated::PrimeField(g) => &g.tokens,
            Generated::BinaryField(g) => &g.tokens,
            Generated::RsaContext(g) => &g.tokens,
            Generated::LaneField(g) => &g.tokens,
        }
    }

    /// The provenance header ([`crate::header::Header`]).
    pub fn header(&self) -> String {
        match self {
            Generated::PrimeField(g) => g.header(),
            Generated::BinaryField(g) => g.header(),
            Generated::RsaContext(g) => g.header(),
            Generated::LaneField(g) => g.header(),
        }
    }

    /// The complete file: header, then the module body formatted by prettyplease (feature
    /// `format`).
    #[cfg(feature = "format")]
    pub fn to_file(&self) -> String {
        crate::header::file(&self.header(), self.tokens())
    }
}

/// Generates what `request` asks for: the target table first, then the product's stages in
/// the order [`crate::pipeline`] lists. Errors: the product's error, wrapped in [`Error`]
/// (its message unchanged), including a target the product is not served by.
///
/// ```
/// use generator::{generate, PrimeFieldOptions, Request, Target};
///
/// let request = Request::PrimeField {
///     options: PrimeFieldOptions::new("2^127-1"),
///     target: Target::Portable64,
/// };
/// let field = generate(&request)?;
/// assert!(field.header().contains("--target portable64"));
/// # Ok::<(), generator::Error>(())
/// ```
pub fn generate(request: &Request) -> Result<Generated, Error> {
    Ok(match request {
        Request::PrimeField { options, target } => {
            Generated::PrimeField(pipeline::prime_field(options, *target)?)
        }
        Request::BinaryField { options, target } => {
            Generated::BinaryField(pipeline::binary_field(options, *target)?)
        }
        Request::RsaContext { options, target } => {
            Generated::RsaContext(pipeline::rsa_context(options, *target)?)
        }
        Request::LaneField { options, target } => {
            Generated::LaneField(pipeline::lane_field(options, *target).map_err(Error::Lanes)?)
        }
    })
}
