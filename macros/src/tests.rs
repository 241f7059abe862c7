//! In-process tests of the expansion: the committed files, the struct line, and the errors'
//! spans. The compile-fail tests (what a user sees) are in `tests/ui`.

use std::path::Path;
use std::time::{Duration, Instant};

use generator::regen::module_name;
use generator::spec::PRESETS;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, ToTokens};

use crate::prime::expand_prime_field;

/// `tokens` as a `syn::File`, printed back as tokens.
fn file_string(tokens: TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens).expect("the expansion is a Rust file's items");
    file.to_token_stream().to_string()
}

/// The committed file without its `//` header: what `GeneratedField::to_file` wrote after it.
fn file_body(text: &str) -> &str {
    let mut rest = text;
    while rest.starts_with("//") && !rest.starts_with("///") {
        rest = rest.split_once('\n').map_or("", |(_, r)| r);
    }
    rest.strip_prefix('\n').unwrap_or(rest)
}

fn char_boundary_at_or_before(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Panics with the first difference and some context, rather than two 100 kB strings.
fn assert_same(what: &str, expanded: &str, committed: &str) {
    if expanded == committed {
        return;
    }
    let at = expanded
        .bytes()
        .zip(committed.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let context = |s: &str| {
        let start = char_boundary_at_or_before(s, at.saturating_sub(120));
        let end = char_boundary_at_or_before(s, (at + 120).min(s.len()));
        s[start..end].to_string()
    };
    panic!(
        "{what}: the expansion differs from the committed file at byte {at}\n  expansion: …{}…\n  committed: …{}…",
        context(expanded),
        context(committed)
    );
}

/// For every preset at both limb sizes, `prime_field! { pub struct <Fp|Fr>; modulus = "<preset>";
/// limb_bits = <w>; }` expands to exactly the committed `generated/src/<module>.rs`: the expansion,
/// parsed with syn and printed by prettyplease as the CLI prints it, is the file after its `//`
/// header, byte for byte.
///
/// (Comparing token strings instead, `syn::File` against `syn::File`, does not work: prettyplease
/// changes tokens without changing the program. It adds a trailing `,` to arrays it breaks over
/// lines and wraps a match arm's expression in a block when the next arm has an attribute, and
/// doc comments come back as plain rather than raw strings.)
#[test]
fn expansion_equals_the_committed_file_for_every_preset() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated/src");
    let mut checked = 0;
    for preset in PRESETS {
        for w in [64u32, 32] {
            let module = module_name(preset.name, w);
            let text =
                std::fs::read_to_string(dir.join(format!("{module}.rs"))).unwrap_or_else(|e| {
                    panic!("generated/src/{module}.rs: {e} (run `cargo run -p generator -- regen`)")
                });
            let name = format_ident!("{}", preset.type_name);
            let modulus = preset.name;
            let limb_bits = Literal::u32_unsuffixed(w);
            let expanded = expand_prime_field(quote! {
                pub struct #name;
                modulus = #modulus;
                limb_bits = #limb_bits;
            })
            .unwrap_or_else(|e| panic!("{module}: {e}"));
            let expanded: syn::File = syn::parse2(expanded).expect("valid items");
            assert_same(&module, &prettyplease::unparse(&expanded), file_body(&text));
            checked += 1;
        }
    }
    assert_eq!(checked, 2 * PRESETS.len());
}

/// Every manifest field with a `strategy` expands, with `strategy = "<name>";`, to exactly its
/// committed file, as the presets do without it.
#[test]
fn strategy_expansion_equals_the_committed_file() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated");
    let manifest = generator::regen::read_manifest(&dir).expect("manifest.toml");
    let mut checked = 0;
    for f in manifest.field.iter().filter(|f| f.strategy.is_some()) {
        let strategy = f.strategy.as_deref().unwrap();
        let preset = generator::spec::find_preset(&f.preset).expect("a preset");
        let module = format!(
            "{}_{}_{}",
            preset.name.replace('-', "_"),
            strategy.replace('-', "_"),
            f.limb_bits
        );
        let text = std::fs::read_to_string(dir.join(format!("src/{module}.rs")))
            .unwrap_or_else(|e| panic!("generated/src/{module}.rs: {e}"));
        let name = format_ident!("{}", preset.type_name);
        let modulus = preset.name;
        let limb_bits = Literal::u32_unsuffixed(f.limb_bits);
        let expanded = expand_prime_field(quote! {
            pub struct #name;
            modulus = #modulus;
            limb_bits = #limb_bits;
            strategy = #strategy;
        })
        .unwrap_or_else(|e| panic!("{module}: {e}"));
        let expanded: syn::File = syn::parse2(expanded).expect("valid items");
        assert_same(&module, &prettyplease::unparse(&expanded), file_body(&text));
        checked += 1;
    }
    assert!(
        checked >= 10,
        "only {checked} strategy modules in the manifest"
    );
}

/// `mul = "<name>";` reaches the generator for every algorithm: the expansion is exactly the file
/// the generator writes with that algorithm (what `--mul <name>` prints, after its header), and
/// the algorithms' files differ from each other.
#[test]
fn mul_expansion_equals_the_generator_file_for_every_algorithm() {
    use generator::strategy::MulAlgorithm;
    use generator::{generate_prime_field, PrimeFieldOptions};
    let mut bodies = Vec::new();
    for alg in MulAlgorithm::ALL {
        let name = alg.name();
        let expanded = expand_prime_field(quote! {
            pub struct Fp;
            modulus = "bn254-p";
            mul = #name;
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let expanded: syn::File = syn::parse2(expanded).expect("valid items");
        let mut options = PrimeFieldOptions::new("bn254-p");
        options.mul = Some(alg);
        let field = generate_prime_field(&options).unwrap();
        let file = field.to_file();
        assert!(
            file.contains(&format!("--mul {name}")),
            "{name}: the header's command names the algorithm"
        );
        let body = prettyplease::unparse(&expanded);
        assert_same(name, &body, file_body(&file));
        bodies.push(body);
    }
    for (i, a) in bodies.iter().enumerate() {
        for b in &bodies[i + 1..] {
            assert_ne!(a, b, "two algorithms expanded to the same code");
        }
    }
}

/// `radix` reaches the generator: 2^255 − 19 on 64-bit limbs at radix 51 is the committed 5 × 51
/// module, and radix 43 gives six limbs.
#[test]
fn radix_picks_the_unsaturated_limb_count() {
    let expand = |radix: u32| {
        let radix = Literal::u32_unsuffixed(radix);
        file_string(
            expand_prime_field(quote!(
                pub struct Fp; modulus = "curve25519-p"; limb_bits = 64;
                strategy = "unsaturated"; radix = #radix;
            ))
            .unwrap(),
        )
    };
    let default = file_string(
        expand_prime_field(quote!(
            pub struct Fp; modulus = "curve25519-p"; limb_bits = 64; strategy = "unsaturated";
        ))
        .unwrap(),
    );
    assert!(
        default.contains("5 little-endian limbs"),
        "the default is 5 limbs"
    );
    assert_eq!(expand(51), default);
    let six = expand(43);
    assert!(
        six.contains("6 little-endian limbs"),
        "radix 43 gives 6 limbs"
    );
}

#[test]
fn the_same_modulus_written_differently_expands_the_same() {
    let expand = |modulus: TokenStream| {
        file_string(
            expand_prime_field(quote!(pub struct Fp; modulus = #modulus; limb_bits = 64;)).unwrap(),
        )
    };
    let by_preset = expand(quote!("curve25519-p"));
    assert_eq!(
        expand(quote!("ED25519-P")),
        by_preset,
        "an alias, in capitals"
    );
    // Only the type's doc differs: it names the preset when the modulus is given by its name.
    let preset = generator::spec::find_preset("curve25519-p").unwrap();
    let by_value = by_preset.replacen(
        &format!(" ({}: {})", preset.name, preset.description),
        "",
        1,
    );
    assert_ne!(by_value, by_preset);
    for modulus in [
        quote!("2^255-19"),
        quote!("0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed"),
        quote!("57896044618658097711785492504343953926634992332820282019728792003956564819949"),
        quote!(0x7fff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffed),
        quote!(57896044618658097711785492504343953926634992332820282019728792003956564819949),
    ] {
        assert_eq!(expand(modulus.clone()), by_value, "{modulus}");
    }
}

#[test]
fn the_struct_line_sets_visibility_docs_and_spans() {
    let expanded = expand_prime_field(quote! {
        /// First line.
        /// Second line.
        #[doc(hidden)]
        pub(crate) struct Fq;
        limb_bits = 32;
        modulus = "2^61-1";
        mul = "product-scanning";
    })
    .unwrap();
    let file: syn::File = syn::parse2(expanded).unwrap();
    let syn::Item::Struct(s) = &file.items[0] else {
        panic!("the struct comes first")
    };
    assert_eq!(s.ident, "Fq");
    assert_eq!(s.vis.to_token_stream().to_string(), "pub (crate)");
    let docs: Vec<String> = s
        .attrs
        .iter()
        .map(|a| a.to_token_stream().to_string())
        .collect();
    assert_eq!(docs[0], "# [doc = r\" First line.\"]");
    assert_eq!(docs[1], "# [doc = r\" Second line.\"]");
    assert_eq!(docs[2], "# [doc (hidden)]");
    assert_eq!(docs[3], "# [doc = \"\"]");
    assert!(
        docs[4].starts_with("# [doc = \" An element of GF(p), p = 0x1fffffffffffffff"),
        "{}",
        docs[4]
    );
    assert!(
        docs[4].contains("2 little-endian 32-bit limbs"),
        "{}",
        docs[4]
    );
    assert!(docs[4].contains("product-scanning"), "{}", docs[4]);
    assert_eq!(docs[5], "# [derive (Clone , Copy)]");
    assert_eq!(s.attrs.len(), 6);
    // Two structs, the field and its double-width companion, both with the written visibility.
    let structs: Vec<&syn::ItemStruct> = file
        .items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Struct(s) => Some(s),
            _ => None,
        })
        .collect();
    assert_eq!(structs.len(), 2);
    assert_eq!(structs[1].ident.to_string(), format!("{}Wide", s.ident));
    assert_eq!(structs[1].vis.to_token_stream().to_string(), "pub (crate)");

    for (vis, shown) in [
        (quote!(), ""),
        (quote!(pub(super)), "pub (super)"),
        (quote!(pub(in crate::a)), "pub (in crate :: a)"),
    ] {
        let expanded = expand_prime_field(quote!(#vis struct Fq; modulus = "2^61-1";)).unwrap();
        let file: syn::File = syn::parse2(expanded).unwrap();
        let syn::Item::Struct(s) = &file.items[0] else {
            panic!("the struct comes first")
        };
        assert_eq!(s.vis.to_token_stream().to_string(), shown);
        assert_eq!(s.attrs.len(), 2, "no user docs: no separator");
    }
}

/// Every refused input is an `Err`, never a panic, including odd corners.
#[test]
fn bad_inputs_are_errors() {
    let cases: Vec<(TokenStream, &str)> = vec![
        (quote!(), "expected a struct line"),
        (
            quote!(
                pub struct Fq;
            ),
            "needs `modulus`",
        ),
        (quote!(pub struct Fq; modulus = "2^255-21";), "not prime"),
        (quote!(pub struct Fq; modulus = "2^255";), "even"),
        (quote!(pub struct Fq; modulus = "1";), "at least 3"),
        (quote!(pub struct Fq; modulus = "";), "empty"),
        (quote!(pub struct Fq; modulus = "2^9000-1";), "at most 8192"),
        (
            quote!(pub struct Fq; modulus = "2^^3";),
            "cannot read the modulus",
        ),
        (
            quote!(pub struct Fq; modulus = "bn254q";),
            "Did you mean \"bn254\"?",
        ),
        (quote!(pub struct Fq; modulus = 2^255-19;), "string literal"),
        (quote!(pub struct Fq; modulus = 7u64;), "no type suffix"),
        (quote!(pub struct Fq; modulus = b"7";), "string literal"),
        (
            quote!(pub struct Fq; modulus = "7"; limb_bits = 16;),
            "not 16",
        ),
        (
            quote!(pub struct Fq; modulus = "7"; limb_bits = 99999999999999999999;),
            "32 or 64",
        ),
        (
            quote!(pub struct Fq; modulus = "7"; limb_bits = "64";),
            "without quotes",
        ),
        (
            quote!(pub struct Fq; modulus = "7"; limb_bits = -64;),
            "32 or 64",
        ),
        (
            quote!(pub struct Fq; modulus = "7"; mul = "karatsuba";),
            "unknown multiplication algorithm",
        ),
        (
            quote!(pub struct Fq; modulus = "7"; mul = cios;),
            "as a string",
        ),
        (
            quote!(pub struct Fq; modulus = "2^255-19"; mul = "cios-no-carry";),
            "two spare bits",
        ),
        (
            quote!(pub struct Fq; modulus = "7"; strategy = "barrett";),
            "unknown strategy \"barrett\"",
        ),
        (
            quote!(pub struct Fq; modulus = "7"; strategy = solinas;),
            "as a string",
        ),
        (
            quote!(pub struct Fq; modulus = "bn254-p"; strategy = "pseudo-mersenne";),
            "is not of that form",
        ),
        (
            quote!(pub struct Fq; modulus = "bn254-p"; strategy = "unsaturated";),
            "unsaturated",
        ),
        (
            quote!(pub struct Fq; modulus = "2^255-19"; radix = 51;),
            "`radix` applies to `strategy = \"unsaturated\"` only",
        ),
        (
            quote!(pub struct Fq; modulus = "2^255-19"; strategy = "unsaturated"; radix = "51";),
            "without quotes",
        ),
        (
            quote!(pub struct Fq; modulus = "2^255-19"; strategy = "unsaturated"; radix = 99999999999;),
            "out of range",
        ),
        (
            quote!(pub struct Fq; modulus = "2^255-19"; strategy = "unsaturated"; radix = 64;),
            "radix",
        ),
        (
            quote!(pub struct Fq; modulus = "7"; modulus = "7";),
            "given twice",
        ),
        (
            quote!(pub struct Fq; modulus = "7"; prime = "7";),
            "Did you mean `modulus`?",
        ),
        (
            quote!(pub struct Fq; modulus = "7"; limbs = 64;),
            "Did you mean `limb_bits`?",
        ),
        (
            quote!(pub struct Fq; modulus = "7" limb_bits = 64;),
            "missing `;`",
        ),
        (quote! { pub struct Fq; modulus = "7" }, "missing `;`"),
        (quote!(pub struct Fq; modulus "7";), "expected `=`"),
        (quote!(pub struct Fq; modulus = ;), "missing value"),
        (quote!(pub struct Fq; = "7";), "expected a setting"),
        (
            quote!(pub struct Fq modulus = "7";),
            "expected `;` after `struct Fq`",
        ),
        (
            quote!(pub struct Fq<T>; modulus = "7";),
            "no generic parameters",
        ),
        (
            quote!(pub struct Fq([u64; 4]); modulus = "7";),
            "without a body",
        ),
        (quote!(pub struct Self; modulus = "7";), "keyword"),
        (quote!(pub struct type; modulus = "7";), "keyword"),
        (
            quote!(pub struct _; modulus = "7";),
            "`_` cannot name a type",
        ),
        (quote!(pub struct r#type; modulus = "7";), "uppercase"),
        (quote!(pub struct fq; modulus = "7";), "uppercase"),
        (quote!(pub struct u64; modulus = "7";), "primitive"),
        (quote!(pub struct Ok; modulus = "7";), "unqualified"),
        (quote!(pub struct I; modulus = "7";), "unqualified"),
        (quote!(pub struct; modulus = "7";), "type's name"),
        (quote!(pub Fq; modulus = "7";), "expected `struct`"),
        (quote!(pub enum Fq; modulus = "7";), "expected `struct`"),
        (
            quote!(pub(foo) struct Fq; modulus = "7";),
            "is not a visibility",
        ),
        (
            quote!(#[derive(Debug)] pub struct Fq; modulus = "7";),
            "already derives",
        ),
        (
            quote!(#[cfg(test)] pub struct Fq; modulus = "7";),
            "on the macro invocation",
        ),
        (
            quote!(#[repr(C)] pub struct Fq; modulus = "7";),
            "only doc comments",
        ),
    ];
    for (input, expected) in cases {
        let shown = input.to_string();
        match expand_prime_field(input) {
            Ok(_) => panic!("`{shown}` was accepted"),
            Err(e) => {
                let all: Vec<String> = e.into_iter().map(|e| e.to_string()).collect();
                assert!(
                    all.iter().any(|m| m.contains(expected)),
                    "`{shown}`: {all:?} lacks {expected:?}"
                );
            }
        }
    }
}

#[test]
fn several_problems_are_reported_together() {
    let e =
        expand_prime_field(quote!(pub struct Fq; modulo = "7"; limb_bits = 64; limb_bits = 32;))
            .unwrap_err();
    let all: Vec<String> = e.into_iter().map(|e| e.to_string()).collect();
    assert_eq!(all.len(), 4, "{all:?}"); // unknown key, repeated key + its first use, missing modulus
}

/// The best of `runs` timings of `f`, and its last result.
fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        let out = f();
        best = best.min(start.elapsed());
        last = Some(out);
    }
    (best, last.expect("runs > 0"))
}

/// Expansion time for 4-, 6-, 8-, 12- and 32-limb fields at 64-bit limbs (best of a few runs),
/// and the parts of it spent deriving the constants (`FieldConsts::new`: primality test, R, R²,
/// n0', square-root constants) and searching for a multiplicative generator (factoring p − 1
/// within the generator's fixed work budget).
///
/// Cargo builds the dependencies of a proc-macro crate's test harness as host units, with the
/// profile's `build-override` settings (unoptimised by default, as for every proc macro in a
/// downstream build), so `--release` alone measures an unoptimised generator. Both figures:
/// ```text
/// cargo test -p fieldgen-macros --release --lib -- --ignored --nocapture expansion_time
/// cargo test -p fieldgen-macros --release --lib --config 'profile.release.build-override.opt-level=3' \
///     -- --ignored --nocapture expansion_time
/// ```
#[test]
#[ignore = "timing: run explicitly in release mode"]
fn expansion_time() {
    let fields: [(&str, &str, usize); 5] = [
        ("bn254-p", "BN254 base field, 254 bits", 4),
        ("bls12-381-p", "BLS12-381 base field, 381 bits", 6),
        ("2^511-187", "M-511 base field", 8),
        ("2^768-825", "largest prime below 2^768", 12),
        ("2^2048-1557", "largest prime below 2^2048", 32),
    ];
    println!(
        "| limbs (64-bit) | modulus | expansion (ms) | of which constants (ms) \
         | of which generator search (ms) | output (kB) |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    for (modulus, what, limbs) in fields {
        let input = quote!(pub struct Fp; modulus = #modulus;);
        let runs = if limbs >= 8 { 3 } else { 10 };
        let (total, tokens) = best_of(runs, || expand_prime_field(input.clone()).expect("valid"));
        let (p, _) = generator::spec::parse_modulus(modulus).expect("valid");
        let (consts, c) = best_of(runs, || {
            generator::spec::FieldConsts::new(&p, generator::spec::LimbBits::W64).expect("prime")
        });
        let (search, _) = best_of(runs, || c.clone().with_multiplicative_generator());
        println!(
            "| {limbs} | `{modulus}` ({what}) | {:.1} | {:.1} | {:.1} | {} |",
            total.as_secs_f64() * 1e3,
            consts.as_secs_f64() * 1e3,
            search.as_secs_f64() * 1e3,
            tokens.to_string().len() / 1000
        );
    }
}

/// For every binary preset at both word sizes, `binary_field! { pub struct <F163..>; poly =
/// "<preset>"; limb_bits = <w>; }` expands to exactly the committed file.
#[test]
fn binary_expansion_equals_the_committed_file_for_every_preset() {
    use generator::binary::BINARY_PRESETS;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated/src");
    for preset in BINARY_PRESETS {
        for w in [64u32, 32] {
            let module = format!("{}_{w}", preset.name.replace('-', "_"));
            let text = std::fs::read_to_string(dir.join(format!("{module}.rs")))
                .unwrap_or_else(|e| panic!("generated/src/{module}.rs: {e}"));
            let name = format_ident!("{}", preset.type_name);
            let poly = preset.name;
            let limb_bits = Literal::u32_unsuffixed(w);
            let expanded = crate::binary::expand_binary_field(quote! {
                pub struct #name;
                poly = #poly;
                limb_bits = #limb_bits;
            })
            .unwrap_or_else(|e| panic!("{module}: {e}"));
            let expanded: syn::File = syn::parse2(expanded).expect("valid items");
            assert_same(&module, &prettyplease::unparse(&expanded), file_body(&text));
        }
    }
}

/// Each refused `binary_field!` input is an error whose message names the problem.
#[test]
fn binary_bad_inputs_are_errors() {
    let cases: Vec<(TokenStream, &str)> = vec![
        (quote!(pub struct F; poly = "x^4+1";), "reducible"),
        (quote!(pub struct F; poly = "x^1025+x+1";), "degree 1025"),
        (
            quote!(pub struct F; poly = "x^3+q+1";),
            "cannot read the term",
        ),
        (
            quote!(pub struct F; poly = "sect999";),
            "unknown binary-field preset",
        ),
        (quote!(pub struct F; poly = 163;), "string literal"),
        (
            quote!(pub struct F; poly = "sect163"; limb_bits = 16;),
            "32 or 64",
        ),
        (
            quote!(
                pub struct F;
            ),
            "poly",
        ),
        (
            quote!(pub struct F; poly = "sect163"; modulus = "7";),
            "modulus",
        ),
    ];
    for (input, needle) in cases {
        let e = crate::binary::expand_binary_field(input.clone())
            .err()
            .unwrap_or_else(|| panic!("{input} was accepted"));
        assert!(
            e.to_string().contains(needle),
            "{input}: `{e}` lacks `{needle}`"
        );
    }
}

#[test]
fn ff_and_zeroize_settings_add_the_impl_macros() {
    let with =
        expand_prime_field(quote!(pub struct Fq; modulus = "bn254-p"; ff = true; zeroize = true;))
            .unwrap()
            .to_string();
    assert!(
        with.contains(":: fieldgen_field :: impl_ff ! (Fq , 32usize)"),
        "{}",
        &with[with.len() - 200..]
    );
    assert!(with.contains(":: fieldgen_field :: impl_zeroize ! (Fq)"));
    let without = expand_prime_field(quote!(pub struct Fq; modulus = "bn254-p"; ff = false;))
        .unwrap()
        .to_string();
    assert!(!without.contains("impl_ff") && !without.contains("impl_zeroize"));
    for bad in [quote!("true"), quote!(1), quote!(yes)] {
        let err = expand_prime_field(quote!(pub struct Fq; modulus = "bn254-p"; ff = #bad;))
            .expect_err("a non-bool is refused");
        assert!(err.to_string().contains("write `ff = true;`"), "{err}");
    }
}
