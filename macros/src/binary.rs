//! `binary_field!`: the typed input and its expansion.

use std::panic::{catch_unwind, AssertUnwindSafe};

use generator::binary::{generate_binary_field, BinaryError, BinaryFieldOptions};
use generator::spec::LimbBits;
use proc_macro2::{Span, TokenStream};
use syn::parse::{Parse, ParseStream};
use syn::{Error, Lit, Result};

use crate::prime::{limb_bits, value_span};
use crate::rewrite::apply_header;
use crate::settings::{FieldHeader, KeySpec, Settings, Value};

/// The keys `binary_field!` accepts.
const KEYS: &[KeySpec] = &[
    KeySpec {
        key: "poly",
        form: "poly = \"x^163+x^7+x^6+x^3+1\";",
        required: true,
    },
    KeySpec {
        key: "limb_bits",
        form: "limb_bits = 32 | 64;",
        required: false,
    },
    KeySpec {
        key: "zeroize",
        form: "zeroize = true;",
        required: false,
    },
];

/// A parsed `binary_field!` invocation.
pub struct BinaryFieldInput {
    /// The struct line.
    pub header: FieldHeader,
    /// The polynomial text, as the CLI's `--poly` takes it.
    pub poly: String,
    /// Its span.
    pub poly_span: Span,
    /// Word size (default 64).
    pub limb_bits: LimbBits,
    /// `zeroize = true`: also implement `zeroize::Zeroize`.
    pub zeroize: bool,
}

impl Parse for BinaryFieldInput {
    fn parse(input: ParseStream) -> Result<Self> {
        let header: FieldHeader = input.parse()?;
        let entries = Settings::parse_all(input)?;
        let settings = Settings::check_keys(entries, "binary_field", &header.ident, KEYS)?;
        let poly_setting = settings
            .get("poly")
            .ok_or_else(|| input.error("missing `poly`"))?;
        let (poly, poly_span) = match &poly_setting.value {
            Value::Lit(Lit::Str(s)) => (s.value(), s.span()),
            other => {
                return Err(other.error(
                    "write the polynomial as a string literal, e.g. `poly = \"x^163+x^7+x^6+x^3+1\";`, or a preset name such as \"sect283\"",
                ))
            }
        };
        let limb_bits = match settings.get("limb_bits") {
            None => LimbBits::W64,
            Some(s) => {
                let _ = value_span(&s.value);
                limb_bits(&s.value)?
            }
        };
        let zeroize = match settings.get("zeroize") {
            Some(s) => crate::prime::flag(&s.value, "zeroize")?,
            None => false,
        };
        Ok(BinaryFieldInput {
            header,
            poly,
            poly_span,
            limb_bits,
            zeroize,
        })
    }
}

impl BinaryFieldInput {
    /// What the CLI would get from `--poly <poly> --name <Name> --limb-bits <w>`.
    pub fn options(&self) -> BinaryFieldOptions {
        BinaryFieldOptions {
            poly: self.poly.clone(),
            name: self.header.ident.to_string(),
            limb_bits: self.limb_bits,
        }
    }

    fn generation_error(&self, e: &BinaryError) -> Error {
        match e {
            BinaryError::InvalidName(_) => Error::new(self.header.ident.span(), e.to_string()),
            other => Error::new(self.poly_span, other.to_string()),
        }
    }
}

/// The body of `binary_field!`: parse, generate, apply the struct line.
pub fn expand_binary_field(input: TokenStream) -> Result<TokenStream> {
    let input: BinaryFieldInput = syn::parse2(input)?;
    let options = input.options();
    let generated =
        catch_unwind(AssertUnwindSafe(|| generate_binary_field(&options))).map_err(|_| {
            Error::new(
                input.poly_span,
                "internal error: the generator failed on this polynomial; please report it",
            )
        })?;
    let field = generated.map_err(|e| input.generation_error(&e))?;
    let mut out = apply_header(field.tokens, &input.header)?;
    if input.zeroize {
        let name = &input.header.ident;
        out.extend(quote::quote!(::fieldgen_field::impl_zeroize!(#name);));
    }
    Ok(out)
}
