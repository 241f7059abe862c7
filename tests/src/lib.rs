//! # fieldgen-tests: the oracle suite for generated prime fields
//!
//! Every prime field the generator emits is checked by the same suite, against a num-bigint oracle
//! and against the modulus as the *test author* wrote it (never as the generated code states it).
//! This crate provides:
//!
//! - [`oracle`]: reference arithmetic modulo `p` over [`BigUint`](num_bigint::BigUint) (add, sub,
//!   neg, mul, square, pow, inverse by extended Euclid, Legendre symbol by Euler's criterion,
//!   is-square, `B`-byte little/big-endian encodings, a Miller–Rabin check of the modulus);
//! - [`edge_values`]: the carry-boundary values of a field (see [below](#edge-values));
//! - [`prime_field_suite!`]: expands to a module of `#[test]`s for one generated field type;
//! - [`suite`]: the properties those tests run, as ordinary generic functions;
//! - re-exports of [`proptest`] and [`subtle`], so a crate that instantiates the suite needs neither
//!   as a dependency.
//!
//! ## Instantiating the suite
//!
//! ```ignore
//! fieldgen_tests::prime_field_suite!(
//!     bn254_p_64,                              // name of the generated test module
//!     fieldgen_generated::bn254_p_64::Fp,      // the field type under test
//!     "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", // p, hex or decimal
//!     64                                       // limb width w in bits, for the edge values
//! );
//! ```
//!
//! The instantiating crate needs `fieldgen-tests` and the crate of the field type as (dev-)
//! dependencies, and nothing else: proptest, num-bigint and subtle are reached through this crate.
//! This defines `mod bn254_p_64 { … }` with one `#[test]` per property listed below, so
//! `cargo test bn254_p_64::` runs one field and `cargo test mul_edges` one property for every
//! field. The modulus is a `&str` expression: `0x`/`0X` + hexadecimal, or decimal; `_` and
//! whitespace are ignored. The field type may be any type path; relative paths are resolved as at
//! the invocation site (the module does `use super::*`). The limb width is a `u32` expression; it
//! only shapes the edge values, so use the limb width of the representation being tested (e.g. 64
//! for a 4×64-bit Montgomery field, 32 for the `portable32` build of the same field, 51 for a
//! radix-2^51 unsaturated one).
//!
//! ## The API under test
//!
//! With `bits = bits(p)` and `B = ceil(bits / 8)`, the generated type `Fp` must provide exactly:
//!
//! - traits `Copy + Clone + Debug + Default + PartialEq + Eq + subtle::ConstantTimeEq +
//!   subtle::ConditionallySelectable`; `core::ops::{Add, Sub, Mul}` for `Fp op Fp` and
//!   `&Fp op &Fp`, `Neg` for `Fp` and `&Fp`, `{Add, Sub, Mul}Assign` with `Fp` and `&Fp` on the
//!   right; every output `Fp` (mixed forms such as `a + &b` are not required);
//! - constants `ZERO`, `ONE`, `NUM_BITS: u32`, `MODULUS_LE_BYTES: [u8; B]`;
//! - `from_u64(u64) -> Fp` (reducing mod `p`), `from_le_bytes(&[u8; B]) -> CtOption<Fp>`,
//!   `from_be_bytes(&[u8; B]) -> CtOption<Fp>` (none for any value `≥ p`), `to_le_bytes(&self) ->
//!   [u8; B]`, `to_be_bytes(&self) -> [u8; B]`;
//! - inherent `add`, `sub`, `mul` (`&self, &Fp -> Fp`) and `neg`, `double`, `square` (`&self ->
//!   Fp`). They share names with the `core::ops` methods; the suite calls them as
//!   `<Fp>::add(&a, &b)`, which always resolves to the inherent item;
//! - `pow(&self, exp_le: &[u64]) -> Fp` and `pow_vartime` (same signature): the exponent is
//!   little-endian 64-bit words of any length, the empty slice being 0; `x^0 = 1` for every `x`,
//!   including `0^0 = 1`;
//! - `invert(&self) -> CtOption<Fp>` and `invert_vartime(&self) -> Option<Fp>` (none for zero),
//!   `sqrt(&self) -> CtOption<Fp>` (some root
//!   of a square, either one; none for a non-square), `legendre(&self) -> i8` (−1, 0, 1),
//!   `is_zero(&self) -> Choice`;
//! - `batch_invert(elems: &mut [Fp])`: Montgomery's simultaneous-inversion trick (P. L.
//!   Montgomery, "Speeding the Pollard and elliptic curve methods of factorization", Math. Comp.
//!   48 (1987), §10.3.1). **Convention: zeros stay zero** — every non-zero element is replaced by
//!   its inverse and every zero element is left as zero, without disturbing the others; the empty
//!   slice is accepted;
//! - `Debug` prints exactly `0x` followed by `2·B` lowercase hexadecimal digits of the canonical
//!   value, big-endian, zero-padded (e.g. `0x0001` for 1 in a 2-byte field). No type name, no
//!   Montgomery form.
//!
//! The macro's wrapper calls each item with type annotations, so a missing item or a changed
//! signature fails to compile rather than being skipped.
//!
//! ## The properties
//!
//! Elements enter the field only through `from_le_bytes` of the oracle's encoding and are read
//! back only through `to_le_bytes`; results are compared with the oracle's. Every result must
//! also compare equal (`==` and `ct_eq`) to the element decoded from the expected value's
//! encoding, so a result left in a non-unique internal form (say `p` for zero) fails even when
//! its encoding is right. "Random" properties
//! run proptest on values drawn as `B` random bytes reduced mod `p` (3 in 4) or as a random edge
//! value (1 in 4); pairs are equal one time in ten. "Edges" properties run deterministically.
//!
//! | tests | what is checked |
//! | --- | --- |
//! | `api_traits` | `Fp` has every required trait (compile-time) |
//! | `modulus_constants` | `MODULUS_LE_BYTES` = the test's `p` in `B` bytes LE; `NUM_BITS` = `bits(p)` |
//! | `modulus_is_prime` | the test's `p` is an odd probable prime (Miller–Rabin, 20 bases): a typo guard |
//! | `constants` | `ZERO` = 0, `ONE` = 1, `Default` = `ZERO`, `is_zero`, `ONE != ZERO` |
//! | `encoding_{edges,random}` | `to_le_bytes`/`to_be_bytes` = oracle bytes; `from_le_bytes`/`from_be_bytes` round trip |
//! | `debug_{edges,random}` | `format!("{:?}")` is exactly the `0x` + `2·B`-digit form above |
//! | `decoding_rejects_{edges,random}` | both decoders reject `p`, `p+1`, `p+2`, `2p−1`, `2p`, `p + 2^(w·k)`, `p` with a limb all ones, `2^bits − 1`, `2^(8B) − 2`, `2^(8B) − 1` and random values in `[p, 2^(8B))` (each when `≥ p` and `< 2^(8B)`); accept `p − 1` |
//! | `from_u64_{edges,random}` | `from_u64(v) = v mod p`, incl. `u64::MAX` (reduced for tiny `p`), `2^w ± …`, `p ± 1` when they fit |
//! | `{add,sub,mul}_{edges,random}` | inherent method and the four operator forms `a op b`, `&a op &b`, `a op= b`, `a op= &b` all = oracle |
//! | `mul_small_{edges,random}` | `mul_small(k)` = oracle `a·k mod p`, on `a` and on the (possibly loose) sum `a + b`; edge `k` = 0, 1, 2, 3, 19, 38, 121665, 121666, 2^16, 2^31, 2^32 − 1 on every edge value, 2^32 − 1 on all edge pairs; random `k` |
//! | `{neg,double,square}_{edges,random}` | method = oracle; `-a`, `-&a` = `neg`; `double(a)` = `add(a, a)`; `square(a)` = `mul(a, a)` |
//! | `pow_{edges,random}` | `pow` and `pow_vartime` = oracle `modpow`; edge exponents `[]`, `[0]`, `[0,0,0]`, 1, 2, `2^64−1`, `2^64`, `(p−1)/2`, `p−2`, `p−1`, `p`, `p+1`, `p−1` with a trailing zero word; random exponents of 0..=5 words |
//! | `invert_{edges,random}` | zero → none; else = oracle inverse (extended Euclid) and `x·x⁻¹ = 1`; `invert_vartime` = oracle inverse |
//! | `sqrt_{edges,squares_random,non_squares_random}` | squares `y²` → some `r` with `r² = y²`; non-squares `z·y²` (`z` the least non-residue) → none; edge values follow the oracle's is-square |
//! | `legendre_{edges,random}` | `legendre`, `legendre_vartime` and `legendre_euler` = Euler's criterion, on random values, squares and non-squares |
//! | `legendre_gcd_edges` | the same on the values that stress the binary GCD: small values (the first non-residues), `p − k`, values sharing a long run of top bits with `p`, top limb all ones |
//! | `is_zero_{edges,random}` | true exactly for 0 |
//! | `batch_invert_{edges,random}` | = oracle and (up to [`COSTLY_EDGES_ALL_MAX_BITS`] bits) element-wise `invert`, zeros stay zero; slices `[]`, `[0]`, `[0,0,0]`, `[1]`, `[p−1,0,p−1]`, all edge values, random slices of 0..=16 with ¼ zeros |
//! | `eq_{edges,random}` | `==`, `!=`, `ct_eq` agree with oracle equality; reflexive |
//! | `select_{edges,random}` | `conditional_select` picks `a` on 0 and `b` on 1; `conditional_assign`, `conditional_swap` likewise |
//!
//! ## Edge values
//!
//! Random inputs almost never hit a limb equal to `0` or `2^w − 1`, or a value within a few units
//! of `p`; carry, borrow and final-subtraction bugs live exactly there (see [`edge`] for incidents
//! in widely used libraries). Following the established practice of seeding tests with
//! carry-boundary values, [`edge_values`] returns, reduced mod `p` and deduplicated: `0, 1, 2,
//! p−1, p−2, (p−1)/2, (p+1)/2`; for each limb position `k`, `2^(w·k) − 1`, `2^(w·k)`, the value with
//! limb `k` all ones, `p − 2^(w·k)`, `p` with limb `k` cleared and with limb `k` all ones; the
//! top-bit boundaries `2^(bits−1)`, `2^(bits−1) − 1`, `2^bits − 1`, `2^(8B) − 1`; `R mod p` and
//! `R² mod p` for `R = 2^(w·n)`, `n = ceil(bits / w)`; and the elements whose *Montgomery
//! representation* is a boundary value (`t·R⁻¹ mod p`). Binary properties use all ordered pairs
//! of edge values (for edge sets above [`ALL_PAIRS_MAX_EDGES`] values: every value against a
//! spaced subset); the per-value properties that cost an exponentiation use all edge values up to
//! [`COSTLY_EDGES_ALL_MAX_BITS`] bits and, beyond, the structural values plus a spaced subset
//! ([`ctx::costly_subset_len`]: about 32 values just above 1024 bits, down to 8 at 4096 bits
//! and beyond).
//!
//! ## Run-time configuration
//!
//! - `FIELDGEN_CASES`: random cases per property (default [`DEFAULT_CASES`] = 64), read when each
//!   test runs; e.g. `FIELDGEN_CASES=10000 cargo test -p fieldgen-tests` for a long soak.
//! - `PROPTEST_RNG_SEED` (proptest's own): fix the random seed to replay a failure. Failures are
//!   not persisted to regression files. A failure panics with the field type's name, `p`, the
//!   property, the operation and its operands in hexadecimal; proptest appends the minimal
//!   failing input (as num-bigint prints it, in decimal).
//!
//! ## Cost
//!
//! For a 4×64-bit field the whole suite takes a fraction of a second in the workspace's test
//! profile (`opt-level = 1`): its bulk is 44 edge values at `w = 64` (76 at `w = 32`), i.e. about
//! 1,900 (5,800) edge pairs per binary property, and 64 cases per random property. The cost grows
//! steeply with the width, dominated by the exponentiations (pow, invert, sqrt, legendre): expect
//! seconds to tens of seconds for fields of 2048 bits and more, and lower `FIELDGEN_CASES` there
//! if needed.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod api;
pub mod binary;
pub mod ctx;
pub mod edge;
pub mod layer;
pub mod oracle;
pub mod suite;

pub use api::{assert_api_traits, FieldUnderTest};
pub use ctx::{
    cases, proptest_config, FieldCtx, ALL_PAIRS_MAX_EDGES, CASES_ENV, COSTLY_EDGES_ALL_MAX_BITS,
    DEFAULT_CASES,
};
pub use edge::edge_values;
pub use oracle::{
    add_mod, byte_len, from_be_bytes, from_le_bytes, inverse_mod, is_square, legendre, mul_mod,
    neg_mod, pow_mod, pow_mod_words, square_mod, sub_mod, to_be_bytes, to_le_bytes,
};

/// Re-export, so that macro-expanded code and callers can use proptest without depending on it.
pub use proptest;
/// Re-export: the `subtle` the suite's wrapper names (`CtOption`, `Choice`, the traits).
pub use subtle;

/// Expands to `mod $name { … }`: the whole suite as `#[test]`s for the generated prime-field type
/// `$Field` with modulus `$modulus` (a `&str`: `0x` hexadecimal or decimal, written by the test
/// author from an independent source) and limb width `$limb_bits` (a `u32`, for the edge values).
///
/// ```ignore
/// fieldgen_tests::prime_field_suite!(p25519_64, fieldgen_generated::p25519_64::Fp,
///     "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed", 64);
/// ```
///
/// The module contains a newtype `Under(pub $Field)` implementing [`FieldUnderTest`], a
/// `ctx()` returning the [`FieldCtx`] (built once), and one `#[test]` per function of
/// [`suite`] (plus `api_traits`). See the [crate docs](crate) for the required API and what each
/// test checks.
#[macro_export]
macro_rules! prime_field_suite {
    ($name:ident, $Field:ty, $modulus:expr, $limb_bits:expr $(,)?) => {
        #[allow(unused_imports, dead_code, non_snake_case, clippy::all)]
        mod $name {
            use super::*;

            /// `B`: the byte length of every encoding of the field under test.
            pub const B: usize = <$Field>::MODULUS_LE_BYTES.len();

            /// The field under test, wrapped so the suite's trait can be implemented for it.
            #[derive(Clone, Copy, Debug)]
            pub struct Under(pub $Field);

            /// The oracle context of this field, built on first use.
            pub fn ctx() -> &'static $crate::FieldCtx {
                static CTX: ::std::sync::OnceLock<$crate::FieldCtx> = ::std::sync::OnceLock::new();
                CTX.get_or_init(|| {
                    $crate::FieldCtx::new(::core::stringify!($Field), $modulus, $limb_bits)
                })
            }

            impl $crate::FieldUnderTest for Under {
                const NUM_BITS: u32 = <$Field>::NUM_BITS;

                fn modulus_le_bytes() -> ::std::vec::Vec<u8> {
                    let bytes: [u8; B] = <$Field>::MODULUS_LE_BYTES;
                    bytes.to_vec()
                }
                fn zero() -> Self {
                    Under(<$Field>::ZERO)
                }
                fn one() -> Self {
                    Under(<$Field>::ONE)
                }
                fn default_value() -> Self {
                    Under(<$Field as ::core::default::Default>::default())
                }
                fn from_u64(v: u64) -> Self {
                    Under(<$Field>::from_u64(v))
                }
                fn from_le_bytes(bytes: &[u8]) -> ::core::option::Option<Self> {
                    let array: [u8; B] = ::core::convert::TryFrom::try_from(bytes).expect("B bytes");
                    let decoded: $crate::subtle::CtOption<$Field> = <$Field>::from_le_bytes(&array);
                    ::core::option::Option::<$Field>::from(decoded).map(Under)
                }
                fn from_be_bytes(bytes: &[u8]) -> ::core::option::Option<Self> {
                    let array: [u8; B] = ::core::convert::TryFrom::try_from(bytes).expect("B bytes");
                    let decoded: $crate::subtle::CtOption<$Field> = <$Field>::from_be_bytes(&array);
                    ::core::option::Option::<$Field>::from(decoded).map(Under)
                }
                fn to_le_bytes(&self) -> ::std::vec::Vec<u8> {
                    let array: [u8; B] = <$Field>::to_le_bytes(&self.0);
                    array.to_vec()
                }
                fn to_be_bytes(&self) -> ::std::vec::Vec<u8> {
                    let array: [u8; B] = <$Field>::to_be_bytes(&self.0);
                    array.to_vec()
                }

                fn add(&self, rhs: &Self) -> Self {
                    Under(<$Field>::add(&self.0, &rhs.0))
                }
                fn sub(&self, rhs: &Self) -> Self {
                    Under(<$Field>::sub(&self.0, &rhs.0))
                }
                fn mul(&self, rhs: &Self) -> Self {
                    Under(<$Field>::mul(&self.0, &rhs.0))
                }
                fn mul_small(&self, k: u32) -> Self {
                    Under(<$Field>::mul_small(&self.0, k))
                }
                fn neg(&self) -> Self {
                    Under(<$Field>::neg(&self.0))
                }
                fn double(&self) -> Self {
                    Under(<$Field>::double(&self.0))
                }
                fn square(&self) -> Self {
                    Under(<$Field>::square(&self.0))
                }
                fn pow(&self, exp_le: &[u64]) -> Self {
                    Under(<$Field>::pow(&self.0, exp_le))
                }
                fn pow_vartime(&self, exp_le: &[u64]) -> Self {
                    Under(<$Field>::pow_vartime(&self.0, exp_le))
                }
                fn invert(&self) -> ::core::option::Option<Self> {
                    let inverse: $crate::subtle::CtOption<$Field> = <$Field>::invert(&self.0);
                    ::core::option::Option::<$Field>::from(inverse).map(Under)
                }
                fn invert_vartime(&self) -> ::core::option::Option<Self> {
                    let inverse: ::core::option::Option<$Field> = <$Field>::invert_vartime(&self.0);
                    inverse.map(Under)
                }
                fn sqrt(&self) -> ::core::option::Option<Self> {
                    let root: $crate::subtle::CtOption<$Field> = <$Field>::sqrt(&self.0);
                    ::core::option::Option::<$Field>::from(root).map(Under)
                }
                fn legendre(&self) -> i8 {
                    let symbol: i8 = <$Field>::legendre(&self.0);
                    symbol
                }
                fn legendre_vartime(&self) -> i8 {
                    let symbol: i8 = <$Field>::legendre_vartime(&self.0);
                    symbol
                }
                fn legendre_euler(&self) -> i8 {
                    let symbol: i8 = <$Field>::legendre_euler(&self.0);
                    symbol
                }
                fn is_zero(&self) -> bool {
                    let zero: $crate::subtle::Choice = <$Field>::is_zero(&self.0);
                    ::core::convert::From::from(zero)
                }
                fn batch_invert(elems: &mut [Self]) {
                    let mut inner: ::std::vec::Vec<$Field> = elems.iter().map(|e| e.0).collect();
                    let slice: &mut [$Field] = &mut inner[..];
                    <$Field>::batch_invert(slice);
                    for (e, v) in elems.iter_mut().zip(inner) {
                        e.0 = v;
                    }
                }

                fn op_add(self, rhs: Self) -> Self {
                    Under(self.0 + rhs.0)
                }
                fn op_add_ref(&self, rhs: &Self) -> Self {
                    Under(&self.0 + &rhs.0)
                }
                fn op_add_assign(&mut self, rhs: Self) {
                    self.0 += rhs.0;
                }
                fn op_add_assign_ref(&mut self, rhs: &Self) {
                    self.0 += &rhs.0;
                }
                fn op_sub(self, rhs: Self) -> Self {
                    Under(self.0 - rhs.0)
                }
                fn op_sub_ref(&self, rhs: &Self) -> Self {
                    Under(&self.0 - &rhs.0)
                }
                fn op_sub_assign(&mut self, rhs: Self) {
                    self.0 -= rhs.0;
                }
                fn op_sub_assign_ref(&mut self, rhs: &Self) {
                    self.0 -= &rhs.0;
                }
                fn op_mul(self, rhs: Self) -> Self {
                    Under(self.0 * rhs.0)
                }
                fn op_mul_ref(&self, rhs: &Self) -> Self {
                    Under(&self.0 * &rhs.0)
                }
                fn op_mul_assign(&mut self, rhs: Self) {
                    self.0 *= rhs.0;
                }
                fn op_mul_assign_ref(&mut self, rhs: &Self) {
                    self.0 *= &rhs.0;
                }
                fn op_neg(self) -> Self {
                    Under(-self.0)
                }
                fn op_neg_ref(&self) -> Self {
                    Under(-&self.0)
                }

                fn partial_eq(&self, rhs: &Self) -> bool {
                    self.0 == rhs.0
                }
                fn partial_ne(&self, rhs: &Self) -> bool {
                    self.0 != rhs.0
                }
                fn ct_eq(&self, rhs: &Self) -> bool {
                    let eq: $crate::subtle::Choice =
                        $crate::subtle::ConstantTimeEq::ct_eq(&self.0, &rhs.0);
                    ::core::convert::From::from(eq)
                }
                fn conditional_select(a: &Self, b: &Self, choice: bool) -> Self {
                    Under(<$Field as $crate::subtle::ConditionallySelectable>::conditional_select(
                        &a.0,
                        &b.0,
                        $crate::subtle::Choice::from(choice as u8),
                    ))
                }
                fn conditional_assign(&mut self, other: &Self, choice: bool) {
                    <$Field as $crate::subtle::ConditionallySelectable>::conditional_assign(
                        &mut self.0,
                        &other.0,
                        $crate::subtle::Choice::from(choice as u8),
                    )
                }
                fn conditional_swap(a: &mut Self, b: &mut Self, choice: bool) {
                    <$Field as $crate::subtle::ConditionallySelectable>::conditional_swap(
                        &mut a.0,
                        &mut b.0,
                        $crate::subtle::Choice::from(choice as u8),
                    )
                }
                fn debug_string(&self) -> ::std::string::String {
                    ::std::format!("{:?}", self.0)
                }
            }

            #[test]
            fn api_traits() {
                $crate::assert_api_traits::<$Field>();
            }

            $crate::__prime_field_suite_tests!(
                Under;
                modulus_constants,
                modulus_is_prime,
                constants,
                encoding_edges,
                encoding_random,
                debug_edges,
                debug_random,
                decoding_rejects_edges,
                decoding_rejects_random,
                from_u64_edges,
                from_u64_random,
                add_edges,
                add_random,
                sub_edges,
                sub_random,
                mul_edges,
                mul_random,
                mul_small_edges,
                mul_small_random,
                neg_edges,
                neg_random,
                double_edges,
                double_random,
                square_edges,
                square_random,
                pow_edges,
                pow_random,
                invert_edges,
                invert_random,
                sqrt_edges,
                sqrt_squares_random,
                sqrt_non_squares_random,
                legendre_edges,
                legendre_random,
                legendre_gcd_edges,
                is_zero_edges,
                is_zero_random,
                batch_invert_edges,
                batch_invert_random,
                eq_edges,
                eq_random,
                select_edges,
                select_random,
            );
        }
    };
}

/// Implementation detail of [`prime_field_suite!`]: one `#[test]` per named [`suite`] function.
#[doc(hidden)]
#[macro_export]
macro_rules! __prime_field_suite_tests {
    ($under:ident; $($test:ident),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                $crate::suite::$test::<$under>(ctx());
            }
        )*
    };
}
