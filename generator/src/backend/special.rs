//! The target core of a special-form field (p = 2^k − c: pseudo-Mersenne and Solinas), stored
//! in canonical or loose form instead of Montgomery form (see
//! [`crate::strategy::pseudo_mersenne`]). The public API around it is the same as for Montgomery
//! fields ([`crate::api::field::field_module_in`]); only the core functions differ:
//!
//! - `mul_limbs` / `square_limbs` dispatch to `mul_limbs_portable` / `square_limbs_portable`
//!   (and to an assembly kernel where one exists), with `backend()` and the test hooks as for
//!   Montgomery fields;
//! - `add_limbs`, `sub_limbs`, `neg_limbs`, `double_limbs`, `mul_small_limbs` (times a word
//!   below 2^32) and `canonical_limbs` (stored state → canonical value in [0, p)).
//!
//! Every function passes [`crate::pass::verify_bounds`] before it is emitted.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::portable::{emit_fn, Words};
use super::{x86_64, Target};
use crate::api::core::{
    backend_order, check_limb_bits, dispatch_items, Backend, CoreOps, TargetCore,
};
use crate::api::field::lit;
use crate::pass::{optimize, verify_bounds};
use crate::spec::FieldConsts;
use crate::strategy::pseudo_mersenne::{self as pm_lower, PseudoMersenne};
use crate::strategy::signed_solinas::{self, SignedSolinas};

/// The special-form core's dispatched operations.
pub const SPECIAL_OPS: CoreOps = CoreOps {
    mul: "mul_limbs",
    square: "square_limbs",
    mul_doc: " a·b mod p: the full product, then the special-form folds.",
    square_doc: " a² mod p: the full square, then the special-form folds.",
};

/// A lowered function: (name, IR, argument names, doc).
pub type LoweredFn = (
    &'static str,
    crate::ir::Func,
    &'static [&'static str],
    &'static str,
);

/// The lowered core functions, each verified by the bounds pass. Errors name the function and
/// the obligation that failed.
pub fn lowered_core(c: &FieldConsts, pm: &PseudoMersenne) -> Result<Vec<LoweredFn>, String> {
    // A c too wide for folds (P-256) reduces by the signed 32-bit terms of FIPS 186-4 D.2.
    let signed = match PseudoMersenne::detect(c) {
        Some(_) => None,
        None => SignedSolinas::detect(c),
    };
    let (mul, square, mul_doc, square_doc) = match &signed {
        Some(s) => (
            signed_solinas::lower_mul(c, s),
            signed_solinas::lower_square(c, s),
            "a·b mod p: operand-scanning product, then the signed 32-bit Solinas terms (FIPS 186-4 D.2) and one fold by 2^k ≡ c (portable).",
            "a² mod p: off-diagonal products once, then the signed 32-bit Solinas terms (FIPS 186-4 D.2) and one fold by 2^k ≡ c (portable).",
        ),
        None => (
            pm_lower::lower_mul(c, pm),
            pm_lower::lower_square(c, pm),
            "a·b mod p: operand-scanning product, then folds by 2^k ≡ c (portable).",
            "a² mod p: off-diagonal products once, then folds by 2^k ≡ c (portable).",
        ),
    };
    let fns: Vec<(
        &'static str,
        crate::ir::Func,
        &'static [&'static str],
        &'static str,
    )> = vec![
        ("mul_limbs_portable", mul, &["a", "b"], mul_doc),
        ("square_limbs_portable", square, &["a"], square_doc),
        (
            "add_limbs",
            pm_lower::lower_add(c, pm),
            &["a", "b"],
            "a + b mod p.",
        ),
        (
            "sub_limbs",
            pm_lower::lower_sub(c, pm),
            &["a", "b"],
            "a − b mod p.",
        ),
        ("neg_limbs", pm_lower::lower_neg(c, pm), &["a"], "−a mod p."),
        (
            "double_limbs",
            pm_lower::lower_double(c, pm),
            &["a"],
            "2a mod p.",
        ),
        (
            "canonical_limbs",
            pm_lower::lower_canonical(c, pm),
            &["a"],
            "The canonical value in [0, p) of a stored value.",
        ),
    ];
    for (name, f, _, _) in &fns {
        verify_bounds(f, name).map_err(|e| e.to_string())?;
    }
    Ok(fns)
}

/// The lowered `mul_small_limbs` of this special form (not part of [`lowered_core`]: a prime
/// whose one-word products the bounds pass refuses still gets a field, with the fallback of
/// [`crate::api::core::mul_small_item`]).
fn lowered_mul_small(c: &FieldConsts, pm: &PseudoMersenne) -> crate::ir::Func {
    let signed = match PseudoMersenne::detect(c) {
        Some(_) => None,
        None => SignedSolinas::detect(c),
    };
    match &signed {
        Some(s) => signed_solinas::lower_mul_small(c, s),
        None => pm_lower::lower_mul_small(c, pm),
    }
}

/// Emits the special-form core for `target`. Errors: the bounds pass refused a function, or
/// the target has no backend for this form.
pub fn special_core(
    c: &FieldConsts,
    pm: &PseudoMersenne,
    target: Target,
    name: &Ident,
) -> Result<TargetCore, String> {
    check_limb_bits(c, target)?;
    let asm_problem = x86_64::pseudo_mersenne::unsupported(c, pm);
    let backends = match (target, &asm_problem) {
        (Target::X86_64Adx, Some(why)) => {
            return Err(format!(
                "--target x86_64-adx: {why}; use --target auto or --strategy montgomery"
            ))
        }
        (Target::X86_64Adx, None) => vec![Backend::X86_64Adx],
        (Target::Aarch64, _) => {
            return Err(
                "--target aarch64: the special forms have no AArch64 kernel yet; use --target auto or --strategy montgomery"
                    .into(),
            )
        }
        (Target::Armv7, _) => {
            return Err(
                "--target armv7: the special forms have no ARMv7 kernel yet; use --target auto or --strategy montgomery"
                    .into(),
            )
        }
        (Target::Auto, None) => vec![Backend::X86_64Adx, Backend::Portable],
        _ => vec![Backend::Portable],
    };
    let has_portable = backends.contains(&Backend::Portable);
    let has_asm = backends.contains(&Backend::X86_64Adx);
    let word = Words { w: c.w() }.word();
    let n = lit(c.limbs);
    let limbs = quote!([#word; #n]);
    let mut items = TokenStream::new();
    for (fname, f, args, doc) in lowered_core(c, pm)? {
        if has_portable || !fname.ends_with("_portable") {
            let f = optimize(&f);
            items.extend(emit_fn(&f, &format_ident!("{}", fname), args, doc));
        }
        if fname == "square_limbs_portable" {
            items.extend(crate::api::core::mul_small_item(
                lowered_mul_small(c, pm),
                &word,
                &limbs,
                "a·k mod p for a one-word k below 2^32: n one-word products, then the reduction of a product.",
            ));
        }
    }
    if has_asm {
        items.extend(x86_64::pseudo_mersenne::core_fns(c, pm));
        items.extend(crate::api::core::x86_64_support(
            has_portable,
            &limbs,
            &SPECIAL_OPS,
        ));
    }
    let order = backend_order(&backends, c.w());
    items.extend(dispatch_items(
        name,
        &limbs,
        &backends,
        &order,
        &SPECIAL_OPS,
    ));
    let description = match target {
        Target::Auto if has_asm => format!(
            "auto = x86_64-adx mul/square (cfg(target_feature = \"bmi2\", \"adx\") at compile time, else CPUID at run time), falling back to {}",
            order[1]
        ),
        Target::Auto => format!(
            "auto = {} only ({})",
            order[0],
            asm_problem.unwrap_or_default()
        ),
        Target::X86_64Adx => {
            "x86_64-adx only (mul/square in assembly; x86-64 with BMI2 and ADX required)".into()
        }
        t => t.name().to_string(),
    };
    Ok(TargetCore {
        tokens: items,
        backends: order,
        description,
    })
}
