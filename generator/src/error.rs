//! The generator's errors: [`Error`], what [`crate::generate`] returns, wraps the error of the
//! product that failed. Each `Display` is one line naming the problem (the CLI prints it after
//! `error: `), and the wrapper prints the product's message unchanged.

use crate::binary::BinaryError;
use crate::spec::SpecError;

/// Why [`crate::generate`] failed: the product's own error.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A prime field or an RSA context was refused (modulus, name, strategy, target).
    Field(GenError),
    /// A binary field was refused (polynomial, name, target).
    Binary(BinaryError),
    /// A lane field was refused (preset, layout, bounds, target).
    Lanes(String),
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::Field(e) => e.fmt(f),
            Error::Binary(e) => e.fmt(f),
            Error::Lanes(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Field(e) => Some(e),
            Error::Binary(e) => Some(e),
            Error::Lanes(_) => None,
        }
    }
}

impl From<GenError> for Error {
    fn from(e: GenError) -> Self {
        Error::Field(e)
    }
}

impl From<BinaryError> for Error {
    fn from(e: BinaryError) -> Self {
        Error::Binary(e)
    }
}

/// Why a prime field or an RSA context was refused. `Display` is one line naming the problem.
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
    /// The requested strategy does not apply to this prime, or the bounds pass refused its
    /// code (it could overflow a word).
    StrategyNotApplicable(String),
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
                "the {a} multiplication needs the top limb of p below (2^w-1)/2-1 (two spare bits); choose cios, product-scanning or sos"
            ),
            GenError::TargetNotApplicable(why) => write!(f, "{why}"),
            GenError::StrategyNotApplicable(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for GenError {}

impl From<SpecError> for GenError {
    fn from(e: SpecError) -> Self {
        GenError::Spec(e)
    }
}

/// Checks that `name` can name a type: an identifier that is not a keyword.
pub fn validate_type_name(name: &str) -> Result<proc_macro2::Ident, GenError> {
    match syn::parse_str::<syn::Ident>(name) {
        Ok(id) if name != "Self" && name != "_" => Ok(id),
        _ => Err(GenError::InvalidName(name.to_string())),
    }
}
