//! The grammar every field macro shares: one struct line, then `key = value;` settings.
//!
//! ```text
//! input   := header setting*
//! header  := doc-attribute* visibility? 'struct' IDENT ';'
//! setting := IDENT '=' value ';'
//! value   := token+                -- up to the `;`; every key so far takes one literal
//! ```
//!
//! The parser knows no key: each macro names the keys it accepts ([`Settings::check_keys`]), so
//! `binary_field!` (a `polynomial` key) and runtime-modulus forms (an `rsa_bits` key) are new
//! schemas over the same grammar. A value that is not a single literal is kept as tokens so the
//! macro can say what it expected, with the span of what was written.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, Error, Ident, Lit, Result, Token, Visibility};

use crate::messages::{closest, combine};

/// The struct line: `/// docs` `pub struct Fq;`.
pub struct FieldHeader {
    /// Doc attributes (`///` comments or `#[doc ...]`), in order.
    pub attrs: Vec<Attribute>,
    /// The visibility as written (`pub`, `pub(crate)`, nothing, ...).
    pub vis: Visibility,
    /// The `struct` keyword, for its span.
    pub struct_token: Token![struct],
    /// The type's name, checked by [`check_type_name`].
    pub ident: Ident,
}

impl Parse for FieldHeader {
    fn parse(input: ParseStream) -> Result<Self> {
        if input.is_empty() {
            return Err(Error::new(
                Span::call_site(),
                "expected a struct line and settings, e.g. `pub struct Fq; modulus = \"2^255-19\";`",
            ));
        }
        let attrs = input.call(Attribute::parse_outer)?;
        check_attributes(&attrs)?;
        let vis: Visibility = input.parse()?;
        if matches!(vis, Visibility::Public(_)) && input.peek(syn::token::Paren) {
            let group: TokenTree = input.parse()?;
            return Err(Error::new(
                group.span(),
                format!(
                    "`pub{group}` is not a visibility: write `pub`, `pub(crate)`, `pub(super)`, \
                     `pub(in path::to::module)`, or nothing for a private type"
                ),
            ));
        }
        if !input.peek(Token![struct]) {
            return Err(input.error(
                "expected `struct` and the type's name, e.g. `pub struct Fq;`: the macro defines the type",
            ));
        }
        let struct_token: Token![struct] = input.parse()?;
        if !input.peek(Ident::peek_any) {
            return Err(
                input.error("expected the type's name after `struct`, e.g. `pub struct Fq;`")
            );
        }
        let ident = input.call(Ident::parse_any)?;
        check_type_name(&ident)?;
        if input.peek(Token![<]) {
            let lt: Token![<] = input.parse()?;
            return Err(Error::new(
                lt.span,
                format!("a field type takes no generic parameters: write `struct {ident};`"),
            ));
        }
        if input.peek(syn::token::Paren) || input.peek(syn::token::Brace) {
            let body: TokenTree = input.parse()?;
            return Err(Error::new(
                body.span(),
                format!(
                    "write `struct {ident};` without a body: the macro chooses the representation \
                     (Montgomery-form limbs)"
                ),
            ));
        }
        if !input.peek(Token![;]) {
            return Err(input.error(format!("expected `;` after `struct {ident}`")));
        }
        let _semi: Token![;] = input.parse()?;
        Ok(FieldHeader {
            attrs,
            vis,
            struct_token,
            ident,
        })
    }
}

/// Accepts doc attributes only: anything else either conflicts with what the generator emits
/// (derives, `repr`) or would apply to the struct but not to its impls (`cfg`, lints).
fn check_attributes(attrs: &[Attribute]) -> Result<()> {
    let mut errors = Vec::new();
    for attr in attrs {
        let path = attr.path();
        if path.is_ident("doc") {
            continue;
        }
        let name = path.to_token_stream().to_string().replace(' ', "");
        let msg = match name.as_str() {
            "derive" => "`#[derive]` is not accepted here: the generated type already derives Clone and \
                 Copy and implements Debug, Default, PartialEq, Eq, ConstantTimeEq and \
                 ConditionallySelectable; a derive would conflict with them or expose the Montgomery \
                 limbs. Implement other traits outside the macro through the public API \
                 (to_le_bytes, from_le_bytes)"
                .to_string(),
            "cfg" | "cfg_attr" => format!(
                "`#[{name}]` here would remove the struct but not its impls: put it on the macro \
                 invocation instead, e.g. `#[cfg(feature = \"x\")] fieldgen_macros::prime_field! {{ ... }}`"
            ),
            _ => format!(
                "`#[{name}]` is not accepted on the struct line: only doc comments (`///` or \
                 `#[doc = \"...\"]`) are; they are prepended to the generated documentation"
            ),
        };
        errors.push(Error::new_spanned(attr, msg));
    }
    combine(errors)
}

/// Names from the standard prelude: the generated code may use them unqualified.
const PRELUDE: &[&str] = &[
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "Vec",
    "String",
    "Box",
    "ToString",
    "ToOwned",
    "Clone",
    "Copy",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "AsRef",
    "AsMut",
    "Into",
    "From",
    "TryFrom",
    "TryInto",
    "Default",
    "Iterator",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "Extend",
    "FromIterator",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
];

/// Primitive types: the generated code names them (`u64`, `u128`, `u8`, `bool`, ...).
const PRIMITIVES: &[&str] = &[
    "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
    "i128", "isize", "f32", "f64",
];

/// Single-letter names the generated code uses as generic parameters.
const GENERIC_PARAMS: &[&str] = &["I"];

/// Refuses names that cannot name the generated type: `_`, keywords, names of primitives and
/// prelude items the generated code relies on, and names starting with a lowercase letter (they
/// can collide with the generated code's local variables).
pub fn check_type_name(ident: &Ident) -> Result<()> {
    let written = ident.to_string();
    let bare = ident.unraw().to_string();
    let msg = if written == "_" {
        "`_` cannot name a type: choose a name such as `Fq`".to_string()
    } else if generator::validate_type_name(&written).is_err() {
        format!("`{written}` is a Rust keyword and cannot name the field type: choose a name such as `Fq`")
    } else if PRIMITIVES.contains(&bare.as_str()) {
        format!(
            "`{bare}` is a primitive type and the generated code uses it: choose another name, such as `Fq`"
        )
    } else if PRELUDE.contains(&bare.as_str()) || GENERIC_PARAMS.contains(&bare.as_str()) {
        format!(
            "`{bare}` is a name the generated code uses unqualified (a prelude item or generic \
             parameter): choose another name, such as `Fq`"
        )
    } else if !bare.starts_with(|c: char| c.is_ascii_uppercase()) {
        format!(
            "`{written}` does not start with an uppercase letter: type names are UpperCamelCase, and \
             a lowercase name can collide with the generated code's local variables; write e.g. `Fq`"
        )
    } else {
        return Ok(());
    };
    Err(Error::new(ident.span(), msg))
}

/// One `key = value;` setting.
pub struct Setting {
    /// The key as written.
    pub key: Ident,
    /// The value.
    pub value: Value,
}

/// A setting's value: a single literal, or anything else (kept to report it).
pub enum Value {
    /// A string, integer, ... literal.
    Lit(Lit),
    /// Tokens that are not a single literal, e.g. an unquoted `2^255-19`.
    Other(TokenStream),
}

impl Value {
    /// An error spanning the whole value.
    pub fn error(&self, msg: impl std::fmt::Display) -> Error {
        match self {
            Value::Lit(lit) => Error::new(lit.span(), msg),
            Value::Other(tokens) => Error::new_spanned(tokens, msg),
        }
    }
}

impl Parse for Setting {
    fn parse(input: ParseStream) -> Result<Self> {
        if !input.peek(Ident::peek_any) {
            return Err(
                input.error("expected a setting `key = value;`, such as `modulus = \"2^255-19\";`")
            );
        }
        let key = input.call(Ident::parse_any)?;
        if !input.peek(Token![=]) {
            return Err(input.error(format!(
                "expected `=` after `{key}`: write `{key} = value;`"
            )));
        }
        let eq: Token![=] = input.parse()?;
        if input.is_empty() || input.peek(Token![;]) {
            return Err(Error::new(
                eq.span,
                format!("missing value after `{key} =`"),
            ));
        }
        // A value runs to the next `;`; a missing `;` shows as the end or the next `key =`.
        let mut trees: Vec<TokenTree> = vec![input.parse()?];
        while !input.peek(Token![;]) {
            if input.is_empty() || (input.peek(Ident::peek_any) && input.peek2(Token![=])) {
                let tokens: TokenStream = trees.into_iter().collect();
                let msg =
                    format!("missing `;` after the value of `{key}`: write `{key} = {tokens};`");
                return Err(Error::new_spanned(tokens, msg));
            }
            trees.push(input.parse()?);
        }
        let value = match <[TokenTree; 1]>::try_from(
            trees.into_iter().map(unwrap_invisible).collect::<Vec<_>>(),
        ) {
            Ok([TokenTree::Literal(lit)]) => Value::Lit(Lit::new(lit)),
            Ok([single]) => Value::Other(single.into()),
            Err(trees) => Value::Other(trees.into_iter().collect()),
        };
        let _semi: Token![;] = input.parse()?;
        Ok(Setting { key, value })
    }
}

/// A key a macro accepts, with the form shown in error messages.
pub struct KeySpec {
    /// The key.
    pub key: &'static str,
    /// How to write it, e.g. `limb_bits = 32 | 64;`.
    pub form: &'static str,
    /// Whether it must be given.
    pub required: bool,
}

/// The settings of one invocation, after unknown and repeated keys were refused.
pub struct Settings {
    entries: Vec<Setting>,
}

impl Settings {
    /// Parses every remaining setting of `input`.
    pub fn parse_all(input: ParseStream) -> Result<Vec<Setting>> {
        let mut entries = Vec::new();
        while !input.is_empty() {
            entries.push(input.parse()?);
        }
        Ok(entries)
    }

    /// Refuses unknown keys (suggesting the closest accepted one) and repeated keys (pointing at
    /// both), and reports missing required keys at `name` (the struct's name). All problems are
    /// reported together.
    pub fn check_keys(
        entries: Vec<Setting>,
        macro_name: &str,
        name: &Ident,
        accepted: &[KeySpec],
    ) -> Result<Settings> {
        let mut errors = Vec::new();
        let forms: Vec<String> = accepted
            .iter()
            .map(|k| {
                format!(
                    "`{}`{}",
                    k.form,
                    if k.required { " (required)" } else { "" }
                )
            })
            .collect();
        for (i, setting) in entries.iter().enumerate() {
            let key = setting.key.to_string();
            if !accepted.iter().any(|k| k.key == key) {
                let hint = suggest_key(&key, accepted)
                    .map(|k| format!(" Did you mean `{k}`?"))
                    .unwrap_or_default();
                errors.push(Error::new(
                    setting.key.span(),
                    format!(
                        "unknown setting `{key}`.{hint} {macro_name}! accepts {}",
                        forms.join(", ")
                    ),
                ));
            } else if let Some(first) = entries[..i].iter().find(|s| s.key == setting.key) {
                let mut e = Error::new(
                    setting.key.span(),
                    format!("`{key}` is given twice: remove one of them"),
                );
                e.combine(Error::new(
                    first.key.span(),
                    format!("`{key}` is first given here"),
                ));
                errors.push(e);
            }
        }
        for k in accepted.iter().filter(|k| k.required) {
            if !entries.iter().any(|s| s.key == k.key) {
                errors.push(Error::new(
                    name.span(),
                    format!("{macro_name}! for `{name}` needs `{}`: add e.g. `{}` after `struct {name};`", k.key, k.form),
                ));
            }
        }
        combine(errors)?;
        Ok(Settings { entries })
    }

    /// The setting for `key`, if given.
    pub fn get(&self, key: &str) -> Option<&Setting> {
        self.entries.iter().find(|s| s.key == key)
    }
}

/// Common other names for the keys, then the closest accepted key by edit distance.
fn suggest_key(key: &str, accepted: &[KeySpec]) -> Option<&'static str> {
    const SYNONYMS: &[(&str, &str)] = &[
        ("prime", "modulus"),
        ("p", "modulus"),
        ("modulo", "modulus"),
        ("limbs", "limb_bits"),
        ("limb_size", "limb_bits"),
        ("limb_width", "limb_bits"),
        ("word_bits", "limb_bits"),
        ("word_size", "limb_bits"),
        ("bits", "limb_bits"),
        ("multiplication", "mul"),
        ("algorithm", "mul"),
    ];
    let lower = key.to_ascii_lowercase().replace('-', "_");
    if let Some((_, k)) = SYNONYMS
        .iter()
        .find(|(s, k)| *s == lower && accepted.iter().any(|a| a.key == *k))
    {
        return Some(k);
    }
    closest(&lower, accepted.iter().map(|k| k.key))
}

/// A value forwarded by a `macro_rules!` fragment (`$m:literal`, `$m:expr`) arrives wrapped in a
/// group without delimiters; unwrap it so that the forwarded literal reads as one written here.
fn unwrap_invisible(tree: TokenTree) -> TokenTree {
    match tree {
        TokenTree::Group(g) if g.delimiter() == proc_macro2::Delimiter::None => {
            let mut inner = g.stream().into_iter();
            match (inner.next(), inner.next()) {
                (Some(only), None) => unwrap_invisible(only),
                _ => TokenTree::Group(g),
            }
        }
        other => other,
    }
}
