//! `prime_field!`: the typed input and its expansion.

use std::panic::{catch_unwind, AssertUnwindSafe};

use generator::spec::{LimbBits, SpecError};
use generator::strategy::{MulAlgorithm, Strategy};
use generator::{generate_prime_field, GenError, PrimeFieldOptions};
use proc_macro2::{Span, TokenStream};
use syn::parse::{Parse, ParseStream};
use syn::{Error, Lit, Result};

use crate::messages::{limb_bits_error, modulus_error};
use crate::rewrite::apply_header;
use crate::settings::{FieldHeader, KeySpec, Settings, Value};

/// The keys `prime_field!` accepts.
const KEYS: &[KeySpec] = &[
    KeySpec {
        key: "modulus",
        form: "modulus = \"2^255-19\";",
        required: true,
    },
    KeySpec {
        key: "limb_bits",
        form: "limb_bits = 32 | 64;",
        required: false,
    },
    KeySpec {
        key: "mul",
        form: "mul = \"cios\" | \"cios-no-carry\" | \"product-scanning\" | \"sos\";",
        required: false,
    },
    KeySpec {
        key: "strategy",
        form: "strategy = \"auto\" | \"montgomery\" | \"pseudo-mersenne\" | \"solinas\" | \"unsaturated\";",
        required: false,
    },
    KeySpec {
        key: "radix",
        form: "radix = 51;",
        required: false,
    },
    KeySpec {
        key: "ff",
        form: "ff = true;",
        required: false,
    },
    KeySpec {
        key: "zeroize",
        form: "zeroize = true;",
        required: false,
    },
];

/// Every Montgomery multiplication algorithm `mul = "...";` can name.
const MUL_ALGORITHMS: &[MulAlgorithm] = &MulAlgorithm::ALL;

/// A parsed and checked `prime_field!` invocation.
pub struct PrimeFieldInput {
    /// The struct line.
    pub header: FieldHeader,
    /// The modulus text, as the CLI's `--prime` takes it.
    pub modulus: String,
    /// The span of the modulus value, for the errors about it.
    pub modulus_span: Span,
    /// Limb size (default 64).
    pub limb_bits: LimbBits,
    /// The span of the `limb_bits` value, if given.
    pub limb_bits_span: Option<Span>,
    /// The multiplication algorithm, if given, with the span of its value.
    pub mul: Option<(MulAlgorithm, Span)>,
    /// The reduction strategy, if given, with the span of its value.
    pub strategy: Option<(Strategy, Span)>,
    /// The limb width of the unsaturated form, if given, with the span of its value.
    pub radix: Option<(u32, Span)>,
    /// `ff = true`: also implement `ff::Field` and `ff::PrimeField`; the span of the value.
    pub ff: Option<Span>,
    /// `zeroize = true`: also implement `zeroize::Zeroize`.
    pub zeroize: bool,
}

impl Parse for PrimeFieldInput {
    fn parse(input: ParseStream) -> Result<Self> {
        let header: FieldHeader = input.parse()?;
        let entries = Settings::parse_all(input)?;
        let settings = Settings::check_keys(entries, "prime_field", &header.ident, KEYS)?;

        // `check_keys` has refused an input without `modulus`.
        let modulus_setting = settings
            .get("modulus")
            .ok_or_else(|| input.error("missing `modulus`"))?;
        let (modulus, modulus_span) = modulus_text(&modulus_setting.value)?;

        let (limb_bits, limb_bits_span) = match settings.get("limb_bits") {
            None => (LimbBits::W64, None),
            Some(s) => (limb_bits(&s.value)?, Some(value_span(&s.value))),
        };

        let mul = match settings.get("mul") {
            None => None,
            Some(s) => Some((mul_algorithm(&s.value)?, value_span(&s.value))),
        };

        let strategy = match settings.get("strategy") {
            None => None,
            Some(s) => Some((strategy(&s.value)?, value_span(&s.value))),
        };

        let radix = match settings.get("radix") {
            None => None,
            Some(s) => Some((radix(&s.value)?, value_span(&s.value))),
        };

        let ff = match settings.get("ff") {
            Some(s) if flag(&s.value, "ff")? => Some(value_span(&s.value)),
            _ => None,
        };
        let zeroize = match settings.get("zeroize") {
            Some(s) => flag(&s.value, "zeroize")?,
            None => false,
        };

        Ok(PrimeFieldInput {
            header,
            modulus,
            modulus_span,
            limb_bits,
            limb_bits_span,
            mul,
            strategy,
            radix,
            ff,
            zeroize,
        })
    }
}

impl PrimeFieldInput {
    /// The generator options this invocation stands for: what the CLI would get from
    /// `--prime <modulus> --name <Name> --limb-bits <w> [--mul <alg>] [--strategy <s>]
    /// [--radix <bits>]`.
    pub fn options(&self) -> PrimeFieldOptions {
        PrimeFieldOptions {
            modulus: self.modulus.clone(),
            name: self.header.ident.to_string(),
            limb_bits: self.limb_bits,
            mul: self.mul.map(|(m, _)| m),
            strategy: self.strategy.map_or(Strategy::Auto, |(s, _)| s),
            radix: self.radix.map(|(r, _)| r),
        }
    }

    /// A generation error, spanned at the token it is about.
    fn generation_error(&self, e: &GenError) -> Error {
        #[allow(unreachable_patterns)]
        match e {
            GenError::Spec(SpecError::UnsupportedLimbBits(bits)) => Error::new(
                self.limb_bits_span.unwrap_or_else(Span::call_site),
                limb_bits_error(&bits.to_string()),
            ),
            GenError::Spec(spec) => {
                Error::new(self.modulus_span, modulus_error(&self.modulus, spec))
            }
            GenError::InvalidName(_) => Error::new(self.header.ident.span(), e.to_string()),
            GenError::MulNotApplicable(_) => Error::new(
                self.mul.map_or_else(Span::call_site, |(_, s)| s),
                e.to_string(),
            ),
            GenError::StrategyNotApplicable(_) => {
                // `radix` without the unsaturated strategy is about the radix; the rest about the
                // strategy (or the modulus, when `auto` was asked for).
                let span = match (self.strategy, self.radix) {
                    (Some((Strategy::Unsaturated, _)), Some((_, r))) => r,
                    (Some((Strategy::Unsaturated, _)), None) | (None, None) => self.modulus_span,
                    (Some((_, s)), _) => s,
                    (None, Some((_, r))) => r,
                };
                // The generator's messages name the CLI flags; say the macro's keys instead.
                let mut msg = e.to_string().replace("--radix", "`radix`");
                for s in Strategy::ALL {
                    msg = msg.replace(
                        &format!("--strategy {}", s.name()),
                        &format!("`strategy = \"{}\"`", s.name()),
                    );
                }
                Error::new(span, msg)
            }
            other => Error::new(self.modulus_span, other.to_string()),
        }
    }
}

pub(crate) fn value_span(value: &Value) -> Span {
    match value {
        Value::Lit(lit) => lit.span(),
        Value::Other(tokens) => tokens
            .clone()
            .into_iter()
            .next()
            .map_or_else(Span::call_site, |t| t.span()),
    }
}

/// The modulus text: a string literal, or an unsuffixed integer literal (any base, any size).
fn modulus_text(value: &Value) -> Result<(String, Span)> {
    let quote_it = |shown: String| {
        value.error(format!(
            "write the modulus as a string literal, e.g. `modulus = \"{shown}\";`: decimal, `0x` hex, \
             an expression of powers of two, or a preset name such as \"bn254-p\""
        ))
    };
    match value {
        Value::Lit(Lit::Str(s)) => Ok((s.value(), s.span())),
        Value::Lit(Lit::Int(i)) if i.suffix().is_empty() => {
            Ok((i.base10_digits().to_string(), i.span()))
        }
        Value::Lit(Lit::Int(i)) => Err(value.error(format!(
            "the modulus takes no type suffix: write `modulus = \"{}\";`",
            i.base10_digits()
        ))),
        Value::Lit(_) => Err(quote_it("2^255-19".to_string())),
        Value::Other(tokens) => Err(quote_it(tokens.to_string().replace(' ', ""))),
    }
}

pub(crate) fn limb_bits(value: &Value) -> Result<LimbBits> {
    let written = match value {
        Value::Lit(Lit::Int(i)) => i.base10_digits().to_string(),
        Value::Lit(Lit::Str(s)) => {
            return Err(value.error(format!(
                "write limb_bits as an integer, without quotes: `limb_bits = {};`",
                s.value()
            )))
        }
        Value::Lit(l) => quote::ToTokens::to_token_stream(l).to_string(),
        Value::Other(t) => t.to_string().replace(' ', ""),
    };
    match written.parse::<u32>().map(LimbBits::from_bits) {
        Ok(Ok(bits)) => Ok(bits),
        _ => Err(value.error(limb_bits_error(&written))),
    }
}

fn mul_algorithm(value: &Value) -> Result<MulAlgorithm> {
    let names: Vec<String> = MUL_ALGORITHMS
        .iter()
        .map(|m| format!("\"{}\"", m.name()))
        .collect();
    let names = names.join(", ");
    match value {
        Value::Lit(Lit::Str(s)) => {
            let wanted = s.value();
            MUL_ALGORITHMS.iter().copied().find(|m| m.name() == wanted).ok_or_else(|| {
                value.error(format!(
                    "unknown multiplication algorithm \"{wanted}\": write `mul = ` one of {names}, or omit \
                     `mul` to let the generator choose"
                ))
            })
        }
        _ => Err(value.error(format!(
            "write the algorithm as a string: `mul = ` one of {names}"
        ))),
    }
}

fn strategy(value: &Value) -> Result<Strategy> {
    let names: Vec<String> = Strategy::ALL
        .iter()
        .map(|s| format!("\"{}\"", s.name()))
        .collect();
    let names = names.join(", ");
    match value {
        Value::Lit(Lit::Str(s)) => Strategy::from_name(&s.value()).ok_or_else(|| {
            value.error(format!(
                "unknown strategy \"{}\": write `strategy = ` one of {names}, or omit `strategy` to let \
                 the generator choose",
                s.value()
            ))
        }),
        _ => Err(value.error(format!(
            "write the strategy as a string: `strategy = ` one of {names}"
        ))),
    }
}

/// A `true`/`false` setting such as `ff = true;`.
pub(crate) fn flag(value: &Value, key: &str) -> Result<bool> {
    match value {
        Value::Lit(Lit::Bool(b)) => Ok(b.value),
        // `true` and `false` are identifiers to the tokenizer.
        Value::Other(tokens) if tokens.to_string() == "true" => Ok(true),
        Value::Other(tokens) if tokens.to_string() == "false" => Ok(false),
        _ => Err(value.error(format!(
            "write `{key} = true;` or `{key} = false;` (a bool literal, without quotes)"
        ))),
    }
}

/// The unsaturated limb width: an integer literal, as the CLI's `--radix` takes it.
fn radix(value: &Value) -> Result<u32> {
    match value {
        Value::Lit(Lit::Int(i)) => i.base10_parse::<u32>().map_err(|_| {
            value.error(format!(
                "radix {} is out of range: write the limb width in bits, e.g. `radix = 51;`",
                i.base10_digits()
            ))
        }),
        _ => Err(value.error(
            "write the radix as an integer limb width in bits, without quotes: `radix = 51;`",
        )),
    }
}

/// The body of `prime_field!` over `proc_macro2` tokens: parse, generate, apply the struct line.
/// Errors are spanned `syn::Error`s; a panic inside the generator becomes an error too.
pub fn expand_prime_field(input: TokenStream) -> Result<TokenStream> {
    let input: PrimeFieldInput = syn::parse2(input)?;
    let options = input.options();
    let generated = catch_unwind(AssertUnwindSafe(|| generate_prime_field(&options))).map_err(|panic| {
        let msg = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Error::new(
            input.modulus_span,
            format!("internal error: the generator failed on this modulus ({msg}); please report it"),
        )
    })?;
    let field = generated.map_err(|e| input.generation_error(&e))?;
    let name = &input.header.ident;
    let mut extra = TokenStream::new();
    if let Some(span) = input.ff {
        if field.consts.generator.is_none() {
            return Err(Error::new(
                span,
                "`ff = true` needs a multiplicative generator of the field (ff::PrimeField's \
                 MULTIPLICATIVE_GENERATOR), and the generator found none within its work budget \
                 for factoring p − 1",
            ));
        }
        let bytes = field.consts.bytes;
        extra.extend(quote::quote!(::fieldgen_field::impl_ff!(#name, #bytes);));
    }
    if input.zeroize {
        extra.extend(quote::quote!(::fieldgen_field::impl_zeroize!(#name);));
    }
    let mut out = apply_header(field.tokens, &input.header)?;
    out.extend(extra);
    Ok(out)
}
