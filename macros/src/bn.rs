//! `bn_curve!`: a Barreto–Naehrig pairing curve from its parameter z, its constant b and the
//! non-residue ξ = ξ_a + i.
//!
//! The expansion is what the repository commits for its four preset curves, in the calling
//! module: the fields GF(p) and GF(r) from the prime-field pipeline (`prime_field!`'s), their
//! `ff` impls when fieldgen-bn has its `zkcrypto` feature (through fieldgen-bn's
//! `__zkcrypto_field!`, since the expansion cannot see that feature), the
//! `fieldgen_bn::FpExt` impl of GF(p), the marker type, and `impl fieldgen_bn::BnParams` from
//! [`generator::bn::BnConstants::params_impl`], the function that writes the body of
//! `curves/bn/src/params/<curve>.rs`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use generator::bn::{derive, params_uses, BnConstants, BnError, PARAMS_HELPERS};
use generator::spec::LimbBits;
use generator::strategy::Strategy;
use generator::{generate_prime_field, PrimeFieldOptions};
use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::{Error, Ident, Lit, Result};

use crate::prime::{limb_bits, value_span};
use crate::rewrite::apply_header;
use crate::settings::{FieldHeader, KeySpec, Settings, Value};

/// The keys `bn_curve!` accepts.
const KEYS: &[KeySpec] = &[
    KeySpec {
        key: "z",
        form: "z = \"-0x4080000000000001\";",
        required: true,
    },
    KeySpec {
        key: "b",
        form: "b = 2;",
        required: true,
    },
    KeySpec {
        key: "xi_a",
        form: "xi_a = 1;",
        required: true,
    },
    KeySpec {
        key: "limb_bits",
        form: "limb_bits = 32 | 64;",
        required: false,
    },
];

/// Names the expansion's `impl BnParams` block uses unqualified (imported or aliased there), so
/// the curve's own name cannot be one of them.
const RESERVED: &[&str] = &["Fp", "Fr", "Fp2", "Decomposition", "Svdw", "BnParams"];

/// How many small values the error for a bad `xi_a` or `b` tries, to suggest one that works.
const SUGGEST_UP_TO: u64 = 64;

/// A parsed `bn_curve!` invocation.
pub struct BnCurveInput {
    /// The struct line.
    header: FieldHeader,
    /// z as text for [`generator::bn::derive`]: decimal or `0x` hex, with an optional `-`.
    z: String,
    z_span: Span,
    b: u64,
    b_span: Span,
    xi_a: u64,
    xi_a_span: Span,
    /// One limb size, or `None` for both, chosen by `target_pointer_width` as the presets are.
    limb_bits: Option<LimbBits>,
}

impl Parse for BnCurveInput {
    fn parse(input: ParseStream) -> Result<Self> {
        let header: FieldHeader = input.parse()?;
        let name = header.ident.to_string();
        if RESERVED.contains(&name.as_str()) {
            return Err(Error::new(
                header.ident.span(),
                format!(
                    "`{name}` is a name the generated `impl BnParams` uses for itself ({}): \
                     choose another name for the curve, such as `MyBn`",
                    RESERVED.join(", ")
                ),
            ));
        }
        let entries = Settings::parse_all(input)?;
        let settings = Settings::check_keys(entries, "bn_curve", &header.ident, KEYS)?;
        let get = |key: &str| {
            settings
                .get(key)
                .ok_or_else(|| Error::new(header.ident.span(), format!("missing `{key}`")))
        };
        let (z, z_span) = z_text(&get("z")?.value)?;
        let b_value = &get("b")?.value;
        let b = small_int(b_value, "b", "2")?;
        let xi_value = &get("xi_a")?.value;
        let xi_a = small_int(xi_value, "xi_a", "1")?;
        let limb_bits = match settings.get("limb_bits") {
            None => None,
            Some(s) => Some(limb_bits(&s.value)?),
        };
        Ok(BnCurveInput {
            z,
            z_span,
            b,
            b_span: value_span(b_value),
            xi_a,
            xi_a_span: value_span(xi_value),
            limb_bits,
            header,
        })
    }
}

/// The tokens of a value with the invisible groups of `macro_rules!` fragments removed.
fn flatten(tokens: TokenStream) -> Vec<TokenTree> {
    let mut out = Vec::new();
    for t in tokens {
        match t {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => {
                out.extend(flatten(g.stream()))
            }
            other => out.push(other),
        }
    }
    out
}

/// z: a string (`"-0x4080000000000001"`), an integer literal, or `-` and an integer literal.
fn z_text(value: &Value) -> Result<(String, Span)> {
    let int = |lit: &Lit| match lit {
        Lit::Int(i) if i.suffix().is_empty() => Some(i.base10_digits().to_string()),
        _ => None,
    };
    let text = match value {
        Value::Lit(Lit::Str(s)) => Some(s.value()),
        Value::Lit(lit) => int(lit),
        Value::Other(tokens) => match flatten(tokens.clone()).as_slice() {
            [TokenTree::Punct(minus), TokenTree::Literal(l)] if minus.as_char() == '-' => {
                int(&Lit::new(l.clone())).map(|d| format!("-{d}"))
            }
            [TokenTree::Literal(l)] => int(&Lit::new(l.clone())),
            _ => None,
        },
    };
    match text {
        Some(t) => Ok((t, value_span(value))),
        None => Err(value.error(
            "write z as a string of decimal or `0x` hex digits with an optional `-`, e.g. \
             `z = \"-0x4080000000000001\";`, or as an unsuffixed integer literal",
        )),
    }
}

/// `b` or `xi_a`: an integer literal below 2^64.
fn small_int(value: &Value, key: &str, example: &str) -> Result<u64> {
    match value {
        Value::Lit(Lit::Int(i)) => i.base10_parse::<u64>().map_err(|_| {
            value.error(format!(
                "`{key}` must be a non-negative integer below 2^64, e.g. `{key} = {example};`"
            ))
        }),
        Value::Lit(Lit::Str(s)) => Err(value.error(format!(
            "write `{key}` as an integer, without quotes: `{key} = {};`",
            s.value()
        ))),
        _ => Err(value.error(format!(
            "`{key}` must be a non-negative integer literal, e.g. `{key} = {example};`"
        ))),
    }
}

/// Runs `f`, turning a panic into an internal error at `span`.
fn guarded<T>(span: Span, what: &str, f: impl FnOnce() -> T) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|panic| {
        let msg = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Error::new(
            span,
            format!("internal error: the generator failed on {what} ({msg}); please report it"),
        )
    })
}

impl BnCurveInput {
    /// The first small value of `xi_a` that the derivation does not refuse as a square or cube
    /// in Fp2 of this z, if one is below [`SUGGEST_UP_TO`].
    fn suggest_xi_a(&self) -> Option<u64> {
        (1..SUGGEST_UP_TO).find(|&a| {
            !matches!(
                derive(&self.z, self.b, a, None),
                Err(BnError::XiNotSexticNonResidue(_))
            )
        })
    }

    /// The first small `b` (with this z and ξ_a) for which E has points of order r.
    fn suggest_b(&self) -> Option<u64> {
        (1..SUGGEST_UP_TO).find(|&b| derive(&self.z, b, self.xi_a, None).is_ok())
    }

    /// The derivation's error as a compile error at the argument it is about.
    fn derive_error(&self, e: &BnError) -> Error {
        const FAMILY: &str = "a BN curve needs a z for which both p(z) = 36z^4 + 36z^3 + 24z^2 + \
                              6z + 1 and r(z) = 36z^4 + 36z^3 + 18z^2 + 6z + 1 are prime";
        match e {
            BnError::PNotPrime(p) => Error::new(
                self.z_span,
                format!("p(z) = {p:#x} is not prime: {FAMILY}; choose another z"),
            ),
            BnError::RNotPrime(r) => Error::new(
                self.z_span,
                format!("r(z) = {r:#x} is not prime (p(z) is): {FAMILY}; choose another z"),
            ),
            BnError::BadZ(_) | BnError::ZeroZ | BnError::ZTooLarge | BnError::ZEven => {
                Error::new(self.z_span, e.to_string())
            }
            BnError::XiNotSexticNonResidue(_) | BnError::XiTooLarge(_) => {
                let hint = match e {
                    BnError::XiNotSexticNonResidue(_) => match self.suggest_xi_a() {
                        Some(a) => {
                            format!("; `xi_a = {a};` gives a sextic non-residue with this z")
                        }
                        None => String::new(),
                    },
                    _ => String::new(),
                };
                Error::new(self.xi_a_span, format!("{e}{hint}"))
            }
            BnError::NoPointsOfOrderR(_) => {
                let hint = match self.suggest_b() {
                    Some(b) => format!("; `b = {b};` works with this z and xi_a"),
                    None => String::new(),
                };
                Error::new(self.b_span, format!("{e}{hint}"))
            }
            other => Error::new(
                self.z_span,
                format!("internal error: {other}; please report it"),
            ),
        }
    }

    /// GF(p) and GF(r) at one limb size with their `ff` impls under fieldgen-bn's `zkcrypto`
    /// feature, and GF(p)'s `FpExt` impl.
    fn fields(&self, c: &BnConstants, bits: LimbBits) -> Result<TokenStream> {
        let name = &self.header.ident;
        let mut out = TokenStream::new();
        for (suffix, modulus, role) in [
            ("Fp", &c.p, "the base field GF(p)"),
            ("Fr", &c.r, "the scalar field GF(r)"),
        ] {
            let options = PrimeFieldOptions {
                modulus: modulus.to_string(),
                name: format!("{name}{suffix}"),
                limb_bits: bits,
                mul: None,
                // Montgomery form always: the curve code needs double-width products.
                strategy: Strategy::Montgomery,
                radix: None,
            };
            let field = guarded(self.z_span, "a field of this curve", || {
                generate_prime_field(&options)
            })?
            .map_err(|e| {
                Error::new(
                    self.z_span,
                    format!("internal error: {role} of this curve: {e}; please report it"),
                )
            })?;
            let doc = format!(" {role} of the BN curve [`{name}`].");
            let header = FieldHeader {
                attrs: vec![syn::parse_quote!(#[doc = #doc])],
                vis: syn::parse_quote!(pub),
                struct_token: Default::default(),
                ident: Ident::new(&options.name, name.span()),
            };
            out.extend(apply_header(field.tokens, &header)?);
            let ty = &header.ident;
            let bytes = field.consts.bytes;
            // `ff::Field` + `ff::PrimeField` when fieldgen-bn has its `zkcrypto` feature, which
            // the expansion cannot see: fieldgen-bn's macro decides.
            out.extend(quote!(::fieldgen_bn::__zkcrypto_field!(#ty, #bytes);));
            if suffix == "Fp" {
                out.extend(quote! {
                    impl ::fieldgen_bn::FpExt for #ty {
                        type Bytes2 = [u8; 2 * #bytes];
                        type Bytes4 = [u8; 4 * #bytes];
                    }
                });
            }
        }
        Ok(out)
    }
}

/// The body of `bn_curve!` over `proc_macro2` tokens.
pub fn expand_bn_curve(input: TokenStream) -> Result<TokenStream> {
    let input: BnCurveInput = syn::parse2(input)?;
    let c = guarded(input.z_span, "this curve", || {
        derive(&input.z, input.b, input.xi_a, None)
    })?
    .map_err(|e| input.derive_error(&e))?;

    let name = &input.header.ident;
    let vis = &input.header.vis;
    let attrs = &input.header.attrs;
    let fp = format_ident!("{}Fp", name);
    let fr = format_ident!("{}Fr", name);
    let fp_wide = format_ident!("{}FpWide", name);
    let fr_wide = format_ident!("{}FrWide", name);
    let module = format_ident!("__fieldgen_bn_{}", name);

    let fields = match input.limb_bits {
        Some(bits) => {
            let f = input.fields(&c, bits)?;
            quote!(mod w { #f })
        }
        None => {
            let f64 = input.fields(&c, LimbBits::W64)?;
            let f32 = input.fields(&c, LimbBits::W32)?;
            quote! {
                #[cfg(target_pointer_width = "64")]
                mod w { #f64 }
                #[cfg(not(target_pointer_width = "64"))]
                mod w { #f32 }
            }
        }
    };

    // The parameter file's text, shared with regen: parsed back into tokens.
    let shared = format!(
        "{}{}{}",
        params_uses("::fieldgen_bn"),
        PARAMS_HELPERS,
        c.params_impl(&name.to_string(), &name.to_string())
    );
    let shared: TokenStream = shared.parse().map_err(|e| {
        Error::new(
            input.z_span,
            format!("internal error: the generated BnParams impl does not parse ({e}); please report it"),
        )
    })?;

    let doc = format!(
        " A BN curve (`bn_curve!`): z = {}, b = {}, ξ = {} + i; p = {:#x} ({} bits), r = {:#x} \
         ({} bits). Generators: {}.",
        c.z,
        c.b,
        c.xi_a,
        c.p,
        c.p.bits(),
        c.r,
        c.r.bits(),
        c.generator_rule
    );
    let sep = if attrs.is_empty() {
        quote!()
    } else {
        quote!(#[doc = ""])
    };
    Ok(quote! {
        #(#attrs)*
        #sep
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        #vis struct #name;

        #[doc(hidden)]
        #[allow(non_snake_case)]
        mod #module {
            #fields
            pub use self::w::{#fp, #fp_wide, #fr, #fr_wide};
        }
        // A private curve need not use all four names.
        #[allow(unused_imports)]
        #vis use #module::{#fp, #fp_wide, #fr, #fr_wide};

        const _: () = {
            type Fp = #fp;
            type Fr = #fr;
            #shared
        };
    })
}
