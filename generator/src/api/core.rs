//! The target core of a prime field: the associated functions on `[W; n]` limbs a target
//! provides and the public API is built on.
//!
//! The seam between a target and the API is a set of associated functions on `[W; n]` limbs:
//! `mont_mul`, `mont_square`, `add_limbs`, `sub_limbs`, `neg_limbs`, `double_limbs` and
//! `from_mont_limbs`. [`target_core`] emits them:
//!
//! - each backend provides its own functions, named after it: the portable code
//!   `mont_mul_portable`/`mont_square_portable` (always present except for `x86_64-adx` alone),
//!   the assembly `mont_mul_x86_64_adx`/`mont_square_x86_64_adx` (`unsafe fn`, gated on
//!   `target_arch = "x86_64"`). The other core functions are portable for every target;
//! - `mont_mul` and `mont_square` dispatch: the first backend this build and CPU can run, in
//!   order of preference; `x86_64-adx` is known at compile time when the build enables the
//!   `bmi2` and `adx` target features, else CPUID decides once (cached in
//!   `fieldgen_field::cpu`);
//! - `backend()` (public) names the backend the dispatchers use on this machine, and the hidden
//!   hooks `__mul_with_backend` / `__square_with_backend` run one named backend, so tests can
//!   check which one ran and compare backends with each other.
//!
//! [`dispatch_items`] describes the backends to [`super::dispatch`], which writes the
//! dispatchers, `backend()` and the hooks for every product.
//!
//! A new target adds its kernels and one entry to [`Backend`]; the API does not change.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::dispatch;
use super::field::lit;
use crate::backend::aarch64;
use crate::backend::armv7;
use crate::backend::portable::{emit_fn, Words};
use crate::backend::x86_64;
use crate::pass::{optimize, verify_bounds};
use crate::spec::FieldConsts;
use crate::strategy::{addsub, montgomery, square, MulAlgorithm};
use crate::target::Target;

/// Emits the straight-line core functions of the portable target: the core functions every
/// target shares (`add_limbs`, `sub_limbs`, `neg_limbs`, `double_limbs`, `from_mont_limbs`)
/// and, with `mul_and_square`, `mont_mul_portable` and `mont_square_portable`. Each function's
/// IR passes [`verify_bounds`] before it is optimised and printed; a refusal (a strategy that
/// dropped a carry its bounds do not allow) is the error, naming the function and obligation.
pub fn portable_core(
    c: &FieldConsts,
    alg: MulAlgorithm,
    mul_and_square: bool,
) -> Result<TokenStream, String> {
    let fns = [
        (
            "mont_mul_portable",
            montgomery::lower_mul(c, alg),
            &["a", "b"][..],
            "Montgomery product a·b·R⁻¹ mod p of two values below p (portable).",
        ),
        (
            "mont_square_portable",
            square::lower_square(c),
            &["a"][..],
            "Montgomery square a²·R⁻¹ mod p; off-diagonal products computed once (portable).",
        ),
        (
            "add_limbs",
            addsub::lower_add(c),
            &["a", "b"][..],
            "a + b mod p.",
        ),
        (
            "sub_limbs",
            addsub::lower_sub(c),
            &["a", "b"][..],
            "a − b mod p.",
        ),
        (
            "neg_limbs",
            addsub::lower_neg(c),
            &["a"][..],
            "−a mod p (zero stays zero).",
        ),
        (
            "double_limbs",
            addsub::lower_double(c),
            &["a"][..],
            "2a mod p.",
        ),
        (
            "from_mont_limbs",
            montgomery::lower_from_montgomery(c, alg),
            &["a"][..],
            "a·R⁻¹ mod p: leaves Montgomery form.",
        ),
    ];
    let items = fns
        .iter()
        .skip(if mul_and_square { 0 } else { 2 })
        .map(|(name, f, args, doc)| {
            verify_bounds(f, name).map_err(|e| e.to_string())?;
            let f = optimize(f);
            Ok(emit_fn(&f, &format_ident!("{}", name), args, doc))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(quote!(#(#items)*))
}

/// `mul_small_limbs(a, k)` of a special form: the lowered one-word products when the bounds
/// pass proves them, else k entered as a field element and one `mul_limbs` (still correct,
/// the cost of a product).
pub fn mul_small_item(
    f: crate::ir::Func,
    word: &TokenStream,
    limbs: &TokenStream,
    doc: &str,
) -> TokenStream {
    if verify_bounds(&f, "mul_small_limbs").is_ok() {
        let f = optimize(&f);
        return emit_fn(&f, &format_ident!("mul_small_limbs"), &["a", "k"], doc);
    }
    quote! {
        /// a·k mod p: k entered as a field element, then one product (the bounds pass could not
        /// prove this layout's one-word products overflow-free for every k below 2^32).
        #[inline]
        fn mul_small_limbs(a: &#limbs, k: &[#word; 1]) -> #limbs {
            Self::mul_limbs(a, &Self::from_u64(k[0] as u64).0)
        }
    }
}

/// A backend of `mont_mul`/`mont_square`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The portable code (`portable64` or `portable32` by limb size).
    Portable,
    /// The BMI2/ADX assembly kernels.
    X86_64Adx,
    /// The AArch64 assembly kernels.
    Aarch64,
    /// The ARMv7 (UMAAL) assembly kernels.
    Armv7,
}

/// The core of one field for one target, ready to sit inside `impl Name { .. }`.
#[derive(Clone, Debug)]
pub struct TargetCore {
    /// The items.
    pub tokens: TokenStream,
    /// Backend names in order of preference (what `backend()` may return).
    pub backends: Vec<&'static str>,
    /// One line for the file header.
    pub description: String,
}

/// The name of the portable backend at word size `w`.
pub fn portable_name(w: u32) -> &'static str {
    if w == 64 {
        "portable64"
    } else {
        "portable32"
    }
}

/// Errors when `target` fixes a limb width (e.g. `portable32`, `x86_64-adx`) other than the
/// field's: every form's emitter refuses that the same way.
pub(crate) fn check_limb_bits(c: &FieldConsts, target: Target) -> Result<(), String> {
    match target.limb_bits() {
        Some(lb) if lb != c.limb_bits => Err(format!(
            "--target {} uses {}-bit limbs, not {}",
            target.name(),
            lb.bits(),
            c.w()
        )),
        _ => Ok(()),
    }
}

/// Emits the core functions of `target` for type `name`: the backends, the dispatching
/// `mont_mul`/`mont_square`, `backend()` and the test hooks (see the module docs). Errors name
/// why the target cannot serve this field.
pub fn target_core(
    c: &FieldConsts,
    alg: MulAlgorithm,
    target: Target,
    name: &Ident,
) -> Result<TargetCore, String> {
    check_limb_bits(c, target)?;
    let asm_problem = x86_64::unsupported(c, alg);
    let aarch64_problem = aarch64::unsupported(c, alg);
    let armv7_problem = armv7::unsupported(c, alg);
    let backends: Vec<Backend> = match target {
        Target::Portable64 | Target::Portable32 | Target::Sparc32 | Target::Wasm32 => {
            vec![Backend::Portable]
        }
        Target::Auto => {
            let mut v = Vec::new();
            if asm_problem.is_none() {
                v.push(Backend::X86_64Adx);
            }
            if aarch64_problem.is_none() {
                v.push(Backend::Aarch64);
            }
            if armv7_problem.is_none() && armv7::preferred(c) {
                v.push(Backend::Armv7);
            }
            v.push(Backend::Portable);
            v
        }
        Target::X86_64Adx => match &asm_problem {
            Some(why) => return Err(format!("--target x86_64-adx: {why}")),
            None => vec![Backend::X86_64Adx],
        },
        Target::Aarch64 => match &aarch64_problem {
            Some(why) => return Err(format!("--target aarch64: {why}")),
            None => vec![Backend::Aarch64],
        },
        Target::Armv7 => match &armv7_problem {
            Some(why) => return Err(format!("--target armv7: {why}")),
            None => vec![Backend::Armv7],
        },
    };
    let portable = portable_name(c.w());
    let word = Words { w: c.w() }.word();
    let n = lit(c.limbs);
    let limbs = quote!([#word; #n]);
    let has_portable = backends.contains(&Backend::Portable);
    let has_asm = backends.contains(&Backend::X86_64Adx);
    let has_aarch64 = backends.contains(&Backend::Aarch64);
    let has_armv7 = backends.contains(&Backend::Armv7);

    let mut items = portable_core(c, alg, has_portable)?;
    if has_asm {
        items.extend(x86_64::core_fns(c));
        items.extend(x86_64_support(has_portable, &limbs, &MONTGOMERY_OPS));
    }
    if has_aarch64 {
        items.extend(aarch64::core_fns(c));
        if !has_portable {
            items.extend(quote! {
                #[cfg(not(target_arch = "aarch64"))]
                ::core::compile_error!("this field was generated with --target aarch64, which builds only for aarch64: regenerate it with --target auto");
            });
        }
    }
    if has_armv7 {
        items.extend(armv7::core_fns(c));
        if !has_portable {
            let gate = armv7::cfg_gate();
            items.extend(quote! {
                #[cfg(not(#gate))]
                ::core::compile_error!("this field was generated with --target armv7, which builds only for ARM targets with UMAAL (target_has_atomic = \"64\": ARMv6K and later A/R profiles; or target_feature = \"dsp\"): regenerate it with --target auto");
            });
        }
    }
    let order = backend_order(&backends, c.w());
    items.extend(dispatch_items(
        name,
        &limbs,
        &backends,
        &order,
        &MONTGOMERY_OPS,
    ));
    let armv7_note = if has_armv7 {
        format!(
            ", armv7 mul/square on {} limbs (cfg(target_arch = \"arm\", target_has_atomic = \"64\" or target_feature = \"dsp\"))",
            c.limbs
        )
    } else {
        String::new()
    };
    let description = match target {
        Target::Auto if has_asm && has_aarch64 => format!(
            "auto = x86_64-adx mul/square (cfg(target_feature = \"bmi2\", \"adx\") at compile time, else CPUID at run time), aarch64 mul/square (cfg(target_arch = \"aarch64\")), falling back to {portable}"
        ),
        Target::Auto if has_asm => format!(
            "auto = x86_64-adx mul/square (cfg(target_feature = \"bmi2\", \"adx\") at compile time, else CPUID at run time), falling back to {portable}"
        ),
        Target::Auto if has_armv7 => format!("auto = {portable}{armv7_note}"),
        Target::Auto => format!(
            "auto = {portable} only ({})",
            asm_problem.unwrap_or_default()
        ),
        Target::X86_64Adx => {
            "x86_64-adx only (mul/square in assembly; x86-64 with BMI2 and ADX required)".into()
        }
        Target::Aarch64 => "aarch64 only (mul/square in AArch64 assembly)".into(),
        Target::Armv7 => "armv7 only (mul/square in ARMv7 assembly with UMAAL)".into(),
        Target::Sparc32 => {
            "sparc32 = portable32 (32-bit words, 32x32->64 multiply; byte encodings independent of the byte order, tested big-endian)".into()
        }
        Target::Wasm32 => "wasm32 = portable32 (u32 limbs, u32xu32->u64 products, no assembly)".into(),
        t => t.name().to_string(),
    };
    Ok(TargetCore {
        tokens: items,
        backends: order,
        description,
    })
}

/// The names and docs of a core's two dispatched operations.
#[derive(Clone, Copy, Debug)]
pub struct CoreOps {
    /// The multiplication: `{mul}` dispatches to `{mul}_portable` / `{mul}_x86_64_adx`.
    pub mul: &'static str,
    /// The squaring, named the same way.
    pub square: &'static str,
    /// Doc line of the multiplication dispatcher.
    pub mul_doc: &'static str,
    /// Doc line of the squaring dispatcher.
    pub square_doc: &'static str,
}

/// The Montgomery core's operations.
pub const MONTGOMERY_OPS: CoreOps = CoreOps {
    mul: "mont_mul",
    square: "mont_square",
    mul_doc: " Montgomery product a·b·R⁻¹ mod p of two values below p.",
    square_doc: " Montgomery square a²·R⁻¹ mod p of a value below p.",
};

/// Backend names in order of preference.
pub fn backend_order(backends: &[Backend], w: u32) -> Vec<&'static str> {
    backends
        .iter()
        .map(|b| match b {
            Backend::Portable => portable_name(w),
            Backend::X86_64Adx => x86_64::NAME,
            Backend::Aarch64 => aarch64::NAME,
            Backend::Armv7 => armv7::NAME,
        })
        .collect()
}

/// The dispatchers of `ops` (the first backend that can run), `backend()` and the test hooks
/// `__mul_with_backend` / `__square_with_backend`, described for [`dispatch::items`].
pub fn dispatch_items(
    name: &Ident,
    limbs: &TokenStream,
    backends: &[Backend],
    order: &[&'static str],
    ops: &CoreOps,
) -> TokenStream {
    let has_aarch64 = backends.contains(&Backend::Aarch64);
    let has_armv7 = backends.contains(&Backend::Armv7);
    let described: Vec<dispatch::Backend> = backends
        .iter()
        .zip(order)
        .map(|(b, n)| dispatch::Backend {
            name: n.to_string(),
            gate: match b {
                Backend::Portable => None,
                Backend::X86_64Adx => Some(quote!(target_arch = "x86_64")),
                Backend::Aarch64 => Some(quote!(target_arch = "aarch64")),
                Backend::Armv7 => Some(armv7::cfg_gate()),
            },
            detect: match b {
                Backend::X86_64Adx => dispatch::Detect::Cpu {
                    check: "x86_64_adx_available",
                },
                _ => dispatch::Detect::Build,
            },
        })
        .collect();
    // Each backend's function for `op`, named after the backend; x86-64 through its checked
    // entry point.
    let call = |b: &Backend, op: &str, args: &TokenStream| -> dispatch::Call {
        match b {
            Backend::X86_64Adx => {
                let checked = format_ident!("{}_x86_64_adx_checked", op);
                dispatch::Call::Checked(quote!(Self::#checked(#args)))
            }
            _ => {
                let suffix = match b {
                    Backend::Portable => "portable",
                    Backend::Aarch64 => "aarch64",
                    _ => "armv7",
                };
                let f = format_ident!("{}_{}", op, suffix);
                dispatch::Call::Expr(quote!(Self::#f(#args)))
            }
        }
    };
    let dispatch_doc = format!(
        " Dispatches to the first backend this build and CPU can run, in order: {}.",
        order.join(", ")
    );
    let op = |op: &str, doc: &str, params: TokenStream, args: TokenStream| {
        let f = format_ident!("{}", op);
        dispatch::Op {
            docs: vec![doc.to_string(), dispatch_doc.clone()],
            attrs: quote!(#[inline]),
            sig: quote!(fn #f(#params) -> #limbs),
            calls: backends.iter().map(|b| Some(call(b, op, &args))).collect(),
            args,
        }
    };
    // Hook arms: the portable backend first, then the others in order of preference.
    let hook_arms = |op: &str, args: TokenStream| -> Vec<(usize, dispatch::Call)> {
        let mut idx: Vec<usize> = (0..backends.len()).collect();
        idx.sort_by_key(|&i| backends[i] != Backend::Portable);
        idx.into_iter()
            .map(|i| (i, call(&backends[i], op, &args)))
            .collect()
    };
    let hook = |docs: &[&str], sig: TokenStream, arms| dispatch::Hook {
        docs: docs.iter().map(|d| d.to_string()).collect(),
        attrs: quote! {
            #[doc(hidden)]
            #[allow(unused_variables)]
        },
        sig,
        form: dispatch::HookForm::Wrap(quote!(#name)),
        arms,
    };
    let backend_doc = format!(
        " The backend `mul` and `square` run on this machine: one of {}. `\"x86_64-adx\"` is BMI2/ADX assembly, chosen at compile time when the build enables the `bmi2` and `adx` target features, else after one CPUID check at run time.{}",
        order
            .iter()
            .map(|b| format!("`\"{b}\"`"))
            .collect::<Vec<_>>()
            .join(", "),
        if has_aarch64 {
            " `\"aarch64\"` is AArch64 assembly, always used on that architecture."
        } else {
            ""
        }
    );
    let backend_doc = if has_armv7 {
        format!("{backend_doc} `\"armv7\"` is ARMv7 assembly built on UMAAL, used on ARM targets with 64-bit atomics (ARMv6K and later, A and R profiles) or the `dsp` target feature.")
    } else {
        backend_doc
    };
    dispatch::items(&dispatch::Dispatch {
        backends: described,
        gated: dispatch::Gated::Shadow,
        ops: vec![
            op(
                ops.mul,
                ops.mul_doc,
                quote!(a: &#limbs, b: &#limbs),
                quote!(a, b),
            ),
            op(ops.square, ops.square_doc, quote!(a: &#limbs), quote!(a)),
        ],
        backend_docs: vec![backend_doc],
        backend_attrs: quote!(),
        hooks: vec![
            hook(
                &[
                    " Test hook: `self · rhs` computed by the named backend (a value `backend()` can",
                    " return), or `None` when this build or this CPU cannot run it. Not a stable API.",
                ],
                quote!(pub fn __mul_with_backend(&self, rhs: &#name, backend: &str) -> ::core::option::Option<#name>),
                hook_arms(ops.mul, quote!(&self.0, &rhs.0)),
            ),
            hook(
                &[
                    " Test hook: `self²` computed by the named backend, or `None` when this build or this",
                    " CPU cannot run it. Not a stable API.",
                ],
                quote!(pub fn __square_with_backend(&self, backend: &str) -> ::core::option::Option<#name>),
                hook_arms(ops.square, quote!(&self.0)),
            ),
        ],
    })
}

/// Detection and the checked entry points of the x86-64 kernels.
pub fn x86_64_support(has_portable: bool, limbs: &TokenStream, ops: &CoreOps) -> TokenStream {
    let checked = |op: &str, params: TokenStream, args: TokenStream| {
        let checked = format_ident!("{}_x86_64_adx_checked", op);
        let kernel = format_ident!("{}_x86_64_adx", op);
        let note = x86_64::asm::safety_note(
            "x86_64_adx_available() is true only when the CPU has BMI2 and ADX: the build enables both target features, or CPUID reported both.",
        );
        quote! {
            /// The x86_64-adx kernel when this CPU can run it, else `None`.
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            #[allow(unused_doc_comments)]
            fn #checked(#params) -> ::core::option::Option<#limbs> {
                if Self::x86_64_adx_available() {
                    #note
                    let r = unsafe { Self::#kernel(#args) };
                    ::core::option::Option::Some(r)
                } else {
                    ::core::option::Option::None
                }
            }
        }
    };
    let mul = checked(ops.mul, quote!(a: &#limbs, b: &#limbs), quote!(a, b));
    let square = checked(ops.square, quote!(a: &#limbs), quote!(a));
    let missing = if has_portable {
        quote!()
    } else {
        quote! {
            #[cfg(not(target_arch = "x86_64"))]
            ::core::compile_error!("this field was generated with --target x86_64-adx, which builds only for x86_64: regenerate it with --target auto");

            /// Called when the only backend cannot run on this CPU.
            #[cfg(target_arch = "x86_64")]
            #[cold]
            #[inline(never)]
            fn x86_64_adx_missing() -> ! {
                ::core::panic!("this field was generated with --target x86_64-adx, but the CPU lacks BMI2 or ADX: regenerate it with --target auto")
            }
        }
    };
    let available = dispatch::cpu_check(
        &[
            " Whether the x86_64-adx kernels can run: always when the build enables the `bmi2`",
            " and `adx` target features, else as CPUID reports (checked once per program).",
        ],
        "x86_64_adx_available",
        &["bmi2", "adx"],
        "adx",
    );
    quote! {
        #available

        #mul
        #square
        #missing
    }
}
