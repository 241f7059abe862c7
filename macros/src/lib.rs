//! # fieldgen-macros: fieldgen's fields, generated inside the calling crate
//!
//! `prime_field!` runs the same generator library as the `generator` CLI and expands to the same
//! items the CLI would write to a file: for a `pub` struct, the expansion and the committed file
//! `generated/src/<module>.rs` are the same tokens (tested for every preset at both limb sizes).
//!
//! ```
//! fieldgen_macros::prime_field! {
//!     /// The base field of BN254 (alt_bn128).
//!     pub struct Fq;
//!     modulus = "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47";
//!     limb_bits = 64; // optional: 64 (default) or 32
//! }
//!
//! let a = Fq::from_u64(7);
//! assert_eq!(a * a.invert().unwrap(), Fq::ONE);
//! ```
//!
//! ## Dependencies
//!
//! The expansion is a set of module items (the struct and its impls) that name `::core` and
//! `::fieldgen_field` by absolute path (the `subtle` traits through its re-export
//! `fieldgen_field::subtle`), so the calling crate needs `fieldgen-field` (the field layer whose
//! traits the field implements) as a dependency of its own: a proc macro cannot add one. With
//! `ff = true` or `zeroize = true` it needs that crate's `ff` or `zeroize` feature (a compile
//! error says so otherwise), and no `ff`, `rand_core`, `zeroize` or `subtle` dependency. Because
//! every path is absolute, several fields can live in the same module; a Montgomery-form field
//! `Fq` also defines `FqWide` (its double-width values), so that name is taken.
//!
//! ## Input
//!
//! ```text
//! /// docs (optional)
//! VIS struct NAME;
//! modulus = "...";                 // required
//! limb_bits = 64;                  // optional: 64 (default) or 32
//! mul = "cios";                    // optional: "cios", "cios-no-carry", "product-scanning" or "sos"
//! strategy = "auto";               // optional: "auto", "montgomery", "pseudo-mersenne",
//!                                  //           "solinas" or "unsaturated"
//! radix = 51;                      // optional, with strategy = "unsaturated" only
//! ff = true;                       // optional: ff::Field + ff::PrimeField (ff 0.14)
//! zeroize = true;                  // optional: zeroize::Zeroize
//! ```
//!
//! - `modulus`: everything the CLI's `--prime` accepts, as a string: decimal, `0x` hex, an
//!   expression of powers of two and small integers (`"2^255-19"`, `"2^256-2^32-977"`) or a preset
//!   name (`"bn254-p"`, `"secp256k1"`, ...). An unsuffixed integer literal is accepted too
//!   (`modulus = 0xffffffff00000001;`). It must be an odd prime of at most 8192 bits.
//! - `limb_bits`: the limb size; a 255-bit prime has 4 limbs at 64 bits, 8 at 32 bits.
//! - `mul`: the Montgomery multiplication algorithm; without it the generator picks
//!   `"cios-no-carry"` when the top limb of p leaves two spare bits, else `"cios"`.
//! - `strategy`: the reduction, as the CLI's `--strategy`: `"auto"` (default) takes the
//!   pseudo-Mersenne form where the generator expects it to be faster, else Montgomery;
//!   `"solinas"` (P-256, P-384, Goldilocks, secp256k1) and `"unsaturated"` (2^255 − 19 in 5 × 51
//!   or 10 × 25.5 limbs, 2^521 − 1 in 9 × 58) must be asked for. A prime not of the form, or
//!   code the bounds pass cannot prove overflow-free, is a compile error at the value.
//! - `radix`: the unsaturated limb width in bits (`--radix`): m = ⌈k/radix⌉ limbs.
//! - `ff`, `zeroize`: the same trait impls the committed fields have with `fieldgen-generated`'s
//!   features of those names, through `fieldgen_field::impl_ff!` / `impl_zeroize!` (so the
//!   calling crate enables `fieldgen-field`'s `ff` / `zeroize` feature). `binary_field!` takes
//!   `zeroize` too.
//! - `VIS`: any visibility. The generator emits `pub struct`; the macro replaces that `pub` with
//!   the visibility written (the inner limb array is always private).
//! - Attributes on the struct line: doc comments (`///`, `#[doc = ...]`, `#[doc(hidden)]`) only.
//!   They are placed before the generated documentation. `#[derive]` is refused (the type already
//!   derives `Clone` and `Copy` and implements `Debug`, `Default`, `PartialEq`, `Eq` and the
//!   `subtle` traits); `#[cfg]` belongs on the macro invocation, where it removes the whole field.
//! - `NAME` must start with an uppercase letter and must not be a keyword, a primitive type or a
//!   prelude name the generated code uses (`Ok`, `Iterator`, ...).
//!
//! Every problem is a compile error at the offending token with a message that says how to fix
//! it; the macro never panics (a panic inside the generator is caught and reported as an
//! internal error at the modulus).
//!
//! The grammar (a struct line, then `key = value;` settings) is shared with the field macros to
//! come (`binary_field!`, runtime-modulus sizes): each adds keys, not syntax.
//!
//! ## `bn_curve!`
//!
//! A Barreto–Naehrig pairing curve for `fieldgen-bn`, from its parameter z, its constant b and
//! ξ = ξ_a + i (the same inputs as `cargo run -p generator -- bn --z … --b … --xi-a …`):
//!
//! ```text
//! /// docs (optional)
//! VIS struct NAME;
//! z = "-0x4080000000000001";       // required: decimal or 0x hex, optional `-`; or an
//!                                  //           unsuffixed integer literal, e.g. z = -1073741929;
//! b = 2;                           // required: E: y^2 = x^3 + b
//! xi_a = 1;                        // required: xi = xi_a + i
//! limb_bits = 64;                  // optional: 64 or 32; default both, chosen by
//!                                  //           target_pointer_width as the preset curves are
//! ```
//!
//! It expands to what the repository commits for its preset curves (BN254, Fp254BNb, BN381_1,
//! BN462), in the calling module:
//!
//! - `VIS struct NAME;` (deriving `Clone`, `Copy`, `Debug`, `Default`, `PartialEq`, `Eq`) and
//!   `impl fieldgen_bn::BnParams for NAME`. The impl's text comes from the generator function
//!   that writes `curves/bn/src/params/<curve>.rs` (`generator::bn::BnConstants::params_impl`),
//!   so a macro curve and a preset with the same (z, b, ξ_a) have the same constants, except the
//!   generators: the presets fixed by a standard use its points, the macro uses the derivation's
//!   rule (G1: the first x in −1, 1, 2, 3, … with x³ + b a square and the smaller root y; G2:
//!   (2p − r)·(x, y) for the first x = k + i with x³ + b/ξ a square in Fp2), stated in the
//!   type's documentation. `NAME` (`BnParams::NAME`) is the name written.
//! - `NAMEFp` = GF(p) and `NAMEFr` = GF(r) (and their double-width types `NAMEFpWide`,
//!   `NAMEFrWide`), generated as `prime_field!` generates them, always in Montgomery form, with
//!   visibility `VIS`; and `impl fieldgen_bn::FpExt for NAMEFp`. They live in a hidden module
//!   `__fieldgen_bn_NAME` and are re-exported, so that module name is taken too.
//! - With `fieldgen-bn`'s `zkcrypto` feature: `ff::Field` and `ff::PrimeField` on `NAMEFp` and
//!   `NAMEFr` (what `ff = true` gives a `prime_field!`), so that `fieldgen_bn::zk::Bn<NAME>` is a
//!   `pairing::Engine` with `Fr = NAMEFr`. The expansion cannot see that feature; it always
//!   calls fieldgen-bn's hidden `__zkcrypto_field!`, which emits the impls under the feature
//!   and nothing without it, so enabling `zkcrypto` on its `fieldgen-bn` dependency is all the
//!   calling crate does (`fieldgen-field`'s `ff` comes with it).
//!
//! The calling crate needs `fieldgen-bn` and `fieldgen-field` as dependencies. The four names
//! above and the hidden module must be free in the calling module; `NAME` may not be one of the
//! names the generated impl uses for itself (`Fp`, `Fr`, `Fp2`, `Decomposition`, `Svdw`,
//! `BnParams`).
//!
//! The derivation (generator/src/bn/) is the one regen runs for the presets: p = 36z⁴ + 36z³ +
//! 24z² + 6z + 1 and r = 36z⁴ + 36z³ + 18z² + 6z + 1 (Barreto and Naehrig, "Pairing-friendly
//! elliptic curves of prime order", SAC 2005), both tested with Baillie–PSW; the tower
//! Fp2 = Fp\[i\]/(i² + 1), Fp6 = Fp2\[v\]/(v³ − ξ), Fp12 = Fp6\[w\]/(w² − v) and the D-type
//! twist y² = x³ + b/ξ (mcl's conventions); the Frobenius constants, the ate-loop NAF of
//! |6z + 2|, the GLV and GLS decompositions, and the Shallue–van de Woestijne constants of
//! RFC 9380 §6.6.1. Each of the following is a compile error at the argument it is about:
//!
//! - `z`: p(z) or r(z) not prime (the message gives the composite value), z even (then
//!   p ≡ 1 mod 4 and i² = −1 does not make Fp2 a field), z = 0, |z| ≥ 2^126 (p and r past
//!   2^512), or not an integer;
//! - `xi_a`: ξ_a + i a square or a cube in Fp2 (not a sextic non-residue, so Fp6 and Fp12
//!   cannot be built over it), or ξ_a ≥ 2^32; the message names the smallest ξ_a that is a
//!   sextic non-residue for the z given, when one is below 64;
//! - `b`: y² = x³ + b has no point of order r over Fp (b selects one of the other five sextic
//!   twists, whose orders are not r); the message names the smallest b that works, likewise.
//!
//! Expansion derives the curve with num-bigint (square roots, a few scalar multiplications by r
//! and 2p − r, the lattice reductions) and runs the prime-field pipeline four times (two fields
//! at two limb sizes; twice with `limb_bits`), so the cost section below applies, times four.
//!
//! ## Compile-time cost
//!
//! Expansion runs the whole pipeline: primality test, constants, the search for a
//! multiplicative generator (factoring p − 1 within a fixed work budget), lowering, optimisation,
//! emission. Cargo builds proc macros and their dependencies with the profile's `build-override`
//! settings, unoptimised by default, in release builds too; the generator is about ten times
//! faster optimised. With it, a 4-limb field expands in under 10 ms and a 32-limb one in under
//! half a second (most of it the generator search); unoptimised, about 80 ms and 5 s. A crate with
//! several fields or large primes should therefore set
//!
//! ```toml
//! [profile.dev.build-override]
//! opt-level = 3
//! [profile.release.build-override]
//! opt-level = 3
//! ```
//!
//! The `#[ignore]`d `expansion_time` test measures both (see its docs for the commands).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod binary;
mod bn;
mod messages;
mod prime;
mod rewrite;
mod settings;

#[cfg(test)]
mod tests;

/// Generates a prime field type in the calling module: the struct, its constants, arithmetic,
/// encodings, `pow`/`invert`/`sqrt`/`legendre`/`batch_invert`, and the `core::ops` and `subtle`
/// trait impls: exactly what `cargo run -p generator -- --prime <modulus> --name <NAME>
/// --limb-bits <w>` writes.
///
/// ```
/// fieldgen_macros::prime_field! {
///     /// Goldilocks: 2^64 - 2^32 + 1, one 64-bit limb.
///     pub(crate) struct Goldilocks;
///     modulus = "2^64-2^32+1";
/// }
/// assert_eq!(Goldilocks::NUM_BITS, 64);
/// assert_eq!(Goldilocks::from_u64(u64::MAX), Goldilocks::from_u64(0xffff_fffe));
/// ```
///
/// See the [crate docs](crate) for the settings, and the errors.
#[proc_macro]
pub fn prime_field(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    prime::expand_prime_field(input.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Generates a binary field GF(2^m) type in the calling module: polynomial basis, carry-less
/// multiplication (PCLMULQDQ on x86-64, PMULL on aarch64 with the `aes` target feature, a
/// constant-time comb elsewhere), reduction specialised to the polynomial, Itoh–Tsujii
/// inversion, square root, trace, half-trace and `solve_quadratic`: exactly what
/// `cargo run -p generator -- --poly <poly> --name <NAME> --limb-bits <w>` writes.
///
/// ```
/// fieldgen_macros::binary_field! {
///     /// GF(2^163) of the SEC 2 sect163 curves.
///     pub struct F163;
///     poly = "x^163+x^7+x^6+x^3+1";   // or a preset name: "sect163"
///     limb_bits = 64;                 // optional: 64 (default) or 32
/// }
/// let mut bytes = [0u8; 21];
/// bytes[0] = 2; // the polynomial x
/// let x = F163::from_le_bytes(&bytes).unwrap();
/// assert_eq!(x * x.invert().unwrap(), F163::ONE);
/// assert_eq!(x.sqrt().square(), x);
/// ```
///
/// The polynomial must be irreducible over GF(2), of degree 2 to 1024; any other input is a
/// compile error at the offending token. The struct line takes the same forms as
/// [`prime_field!`].
#[proc_macro]
pub fn binary_field(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    binary::expand_binary_field(input.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Generates a Barreto–Naehrig pairing curve from its parameter z, its constant b and
/// ξ = ξ_a + i: the marker type `NAME` with `impl fieldgen_bn::BnParams`, its base field
/// `NAMEFp` and scalar field `NAMEFr` (with their double-width companions `NAMEFpWide`,
/// `NAMEFrWide`), and `impl fieldgen_bn::FpExt for NAMEFp`: what `cargo run -p generator -- bn`
/// prints and the repository commits for its preset curves, derived at compile time.
///
/// ```
/// fieldgen_macros::bn_curve! {
///     /// Fp254BNb, built from its parameters.
///     pub struct MyBn;
///     z = "-0x4080000000000001"; // or an integer literal: z = -0x4080000000000001;
///     b = 2;
///     xi_a = 1;
///     limb_bits = 64;            // optional: 64 or 32; default both, by target_pointer_width
/// }
/// use fieldgen_bn::{pairing, G1Projective, G2Projective};
/// let p = G1Projective::<MyBn>::GENERATOR;
/// let q = G2Projective::<MyBn>::GENERATOR.to_affine();
/// let e = pairing(&p.to_affine(), &q);
/// assert_eq!(pairing(&p.double().to_affine(), &q), e.square());
/// ```
///
/// A z with p(z) or r(z) not prime, an even z, a ξ that is a square or a cube in Fp2, or a b
/// for which y² = x³ + b has no point of order r is a compile error at that argument; see the
/// [crate docs](crate#bn_curve) for the rules, the generators and the dependencies.
#[proc_macro]
pub fn bn_curve(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    bn::expand_bn_curve(input.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
