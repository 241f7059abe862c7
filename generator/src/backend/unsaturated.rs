//! The target core of an unsaturated-radix field (see [`crate::strategy::unsaturated`]): values
//! are stored as m tight limbs of about k/m bits; the public API around it is the same as for
//! every other field ([`crate::api::field::field_module_in`] with
//! [`crate::api::field::StoredForm::Unsaturated`]). Core functions: `mul_limbs` / `square_limbs`
//! (dispatching to their portable versions, with `backend()` and the test hooks), `add_limbs`,
//! `sub_limbs`, `neg_limbs`, `double_limbs`, `mul_small_limbs` (each an uncarried loose result
//! and one carry pass), `canonical_limbs` (tight → n saturated words in [0, p)) and `from_canonical_limbs`
//! (n saturated words below p → tight limbs).
//!
//! Every function passes [`crate::pass::verify_bounds`] before it is emitted.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::portable::{emit_fn, Words};
use super::special::SPECIAL_OPS;
use super::Target;
use crate::api::core::{backend_order, check_limb_bits, dispatch_items, Backend, TargetCore};
use crate::api::field::lit;
use crate::ir::Func;
use crate::pass::{optimize, verify_bounds};
use crate::spec::FieldConsts;
use crate::strategy::unsaturated::{self as un, Unsaturated};

/// A lowered core function: name, IR, argument names, doc.
pub type CoreFn = (&'static str, Func, &'static [&'static str], &'static str);

/// The lowered core functions, each verified by the bounds pass. Errors name the function and
/// the obligation that failed.
pub fn lowered_core(c: &FieldConsts, u: &Unsaturated) -> Result<Vec<CoreFn>, String> {
    let fns: Vec<CoreFn> = vec![
        (
            "mul_limbs_portable",
            un::lower_mul(u),
            &["a", "b"],
            "a·b mod p: column sums of limb products (c and the mixed-radix factor 2 folded in), one carry pass (portable).",
        ),
        (
            "square_limbs_portable",
            un::lower_square(u),
            &["a"],
            "a² mod p: off-diagonal products once, doubled by a shift, one carry pass (portable).",
        ),
        ("add_limbs", un::lower_add(u), &["a", "b"], "a + b mod p: limb sums, one carry pass."),
        ("sub_limbs", un::lower_sub(u), &["a", "b"], "a − b mod p: a + 2p − b limb by limb, one carry pass."),
        ("neg_limbs", un::lower_neg(u), &["a"], "−a mod p: 2p − a limb by limb, one carry pass."),
        ("double_limbs", un::lower_double(u), &["a"], "2a mod p: one carry pass."),
        (
            "canonical_limbs",
            un::lower_canonical(u),
            &["a"],
            "The canonical value in [0, p) of a tight value, as saturated little-endian words.",
        ),
        (
            "from_canonical_limbs",
            un::lower_from_canonical(c, u),
            &["a"],
            "The tight limbs of a value below p given as saturated little-endian words.",
        ),
    ];
    for (name, f, _, _) in &fns {
        verify_bounds(f, name).map_err(|e| e.to_string())?;
    }
    Ok(fns)
}

/// Emits the unsaturated core for `target`. Errors: the bounds pass refused a function, or the
/// target asks for a backend this form does not have (only portable code exists).
pub fn unsaturated_core(
    c: &FieldConsts,
    u: &Unsaturated,
    target: Target,
    name: &Ident,
) -> Result<TargetCore, String> {
    check_limb_bits(c, target)?;
    if matches!(target, Target::X86_64Adx | Target::Aarch64 | Target::Armv7) {
        return Err(format!(
            "--target {}: the unsaturated form has no assembly kernel; use --target auto or a portable target",
            target.name()
        ));
    }
    let word = Words { w: c.w() }.word();
    let m = lit(u.m);
    let limbs = quote!([#word; #m]);
    let mut items = TokenStream::new();
    for (fname, f, args, doc) in lowered_core(c, u)? {
        let f = optimize(&f);
        items.extend(emit_fn(&f, &format_ident!("{}", fname), args, doc));
        if fname == "square_limbs_portable" {
            items.extend(crate::api::core::mul_small_item(
                un::lower_mul_small(u),
                &word,
                &limbs,
                "a·k mod p for a one-word k below 2^32: limb products, one carry pass.",
            ));
        }
    }
    let backends = [Backend::Portable];
    let order = backend_order(&backends, c.w());
    items.extend(dispatch_items(
        name,
        &limbs,
        &backends,
        &order,
        &SPECIAL_OPS,
    ));
    let description = format!(
        "{} only (unsaturated radix {}, {} limbs)",
        order[0],
        u.radix_name(),
        u.m
    );
    Ok(TargetCore {
        tokens: items,
        backends: order,
        description,
    })
}
