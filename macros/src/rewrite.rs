//! Applies the invocation's struct line to the generator's tokens.
//!
//! The generator emits `#[doc = "..."] #[derive(Clone, Copy)] pub struct Name([word; n]);` followed
//! by impls. The macro keeps every token and changes only that struct item:
//! - the visibility becomes the one written (`pub` stays `pub`, so a `pub` field's expansion is the
//!   CLI's file token for token);
//! - the doc attributes written are placed before the generated doc, separated by an empty doc
//!   line, so rustdoc shows the user's text first and the generated description as its own
//!   paragraph;
//! - `struct` and the name carry the invocation's spans, so errors such as "defined multiple
//!   times" point at the name;
//! - the double-width companion type `pub struct <Name>Wide` of a Montgomery-form field takes
//!   the same visibility.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::{Error, Result};

use crate::settings::FieldHeader;

fn is_ident(tt: &TokenTree, name: &str) -> bool {
    matches!(tt, TokenTree::Ident(i) if i == name)
}

/// Rewrites the top-level `pub struct <Name>` item of `tokens` as described in the module docs.
pub fn apply_header(tokens: TokenStream, header: &FieldHeader) -> Result<TokenStream> {
    let name = header.ident.to_string();
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let at = trees
        .windows(3)
        .position(|w| is_ident(&w[0], "pub") && is_ident(&w[1], "struct") && is_ident(&w[2], &name))
        .ok_or_else(|| {
            Error::new(
                Span::call_site(),
                format!("internal error: the generator's output has no `pub struct {name}`; please report it"),
            )
        })?;
    // Back over the struct's own outer attributes: `#` followed by a bracketed group.
    let mut attrs_start = at;
    while attrs_start >= 2
        && matches!(&trees[attrs_start - 2], TokenTree::Punct(p) if p.as_char() == '#')
        && matches!(&trees[attrs_start - 1], TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket)
    {
        attrs_start -= 2;
    }

    let mut out = TokenStream::new();
    out.extend(trees[..attrs_start].iter().cloned());
    if !header.attrs.is_empty() {
        for attr in &header.attrs {
            attr.to_tokens(&mut out);
        }
        out.extend(quote!(#[doc = ""]));
    }
    out.extend(trees[attrs_start..at].iter().cloned());
    header.vis.to_tokens(&mut out);
    header.struct_token.to_tokens(&mut out);
    header.ident.to_tokens(&mut out);
    let wide = format!("{name}Wide");
    let rest = &trees[at + 3..];
    match rest
        .windows(3)
        .position(|w| is_ident(&w[0], "pub") && is_ident(&w[1], "struct") && is_ident(&w[2], &wide))
    {
        Some(k) => {
            out.extend(rest[..k].iter().cloned());
            header.vis.to_tokens(&mut out);
            out.extend(rest[k + 1..].iter().cloned());
        }
        None => out.extend(rest.iter().cloned()),
    }
    Ok(out)
}
