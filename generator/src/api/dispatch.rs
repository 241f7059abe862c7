//! The runtime dispatch of every product, emitted by one function: a product describes its
//! backends in order of preference (name, `cfg` gate, how the CPU is checked) and, per
//! dispatched operation, how each backend computes it; [`items`] writes the dispatching
//! functions, `backend()` and the test hooks; [`cpu_check`] writes a backend's cached CPU check.
//!
//! Backends chosen at compile time are exclusive by their gates, so the order between them is
//! free; a backend checked at run time is tried in its place in the list, and the last backend
//! without gate or check is the fallback.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// How a backend is found to run.
#[derive(Clone, Debug)]
pub enum Detect {
    /// Whenever its gate holds: chosen at compile time.
    Build,
    /// When `Self::{check}()` returns true at run time (see [`cpu_check`]).
    Cpu {
        /// The check function's name.
        check: &'static str,
    },
    /// Built wherever its gate holds but chosen only where this `cfg` predicate holds (read by
    /// `cfg!`), so the test hooks still reach it elsewhere.
    Prefer(TokenStream),
}

/// One backend.
#[derive(Clone, Debug)]
pub struct Backend {
    /// What `backend()` and the test hooks call it.
    pub name: String,
    /// The `cfg` predicate that builds it, or `None` for every target.
    pub gate: Option<TokenStream>,
    /// How it is detected.
    pub detect: Detect,
}

/// How one backend computes one operation.
#[derive(Clone, Debug)]
pub enum Call {
    /// A safe expression.
    Expr(TokenStream),
    /// An expression needing the backend's CPU features: `unsafe`, after the SAFETY note.
    Unsafe {
        /// The SAFETY note (a doc attribute, as the kernels' notes are).
        note: TokenStream,
        /// The call.
        expr: TokenStream,
    },
    /// An `Option` expression that makes the CPU check itself (`None` when it cannot run).
    Checked(TokenStream),
    /// Statements: under a CPU check they end by `return`; as the fallback, by the value.
    Stmts(TokenStream),
}

/// How compile-time backends enter a dispatching body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gated {
    /// `#[cfg(g)] let r = …; #[cfg(not(g))] let r = { the rest }; r`: no early return, so
    /// the function needs no `unreachable_code` allowance.
    Shadow,
    /// `#[cfg(g)] { return …; }` before the rest.
    Return,
}

/// A dispatching function: the first backend that computes it and can run.
#[derive(Clone, Debug)]
pub struct Op {
    /// Doc lines (each starting with a space, as `///` comments do).
    pub docs: Vec<String>,
    /// Attributes after the docs.
    pub attrs: TokenStream,
    /// `fn name(params) -> ret`.
    pub sig: TokenStream,
    /// The arguments, named when no backend can run off the target (see [`Call::Checked`]).
    pub args: TokenStream,
    /// Per backend (parallel to [`Dispatch::backends`]), its computation or `None`.
    pub calls: Vec<Option<Call>>,
}

/// How a test hook wraps the value a backend computed.
#[derive(Clone, Debug)]
pub enum HookForm {
    /// `match backend { "b" => Some(Wrap(v)), …, _ => None }`.
    Wrap(TokenStream),
    /// `let r: Ty = match backend { "b" => v, …, _ => return None }; Some(Self(r))`.
    Words(TokenStream),
}

/// A test hook: one operation by one named backend, or `None` when this build or CPU cannot
/// run it.
#[derive(Clone, Debug)]
pub struct Hook {
    /// Doc lines.
    pub docs: Vec<String>,
    /// Attributes after the docs.
    pub attrs: TokenStream,
    /// The signature, with a parameter `backend: &str`.
    pub sig: TokenStream,
    /// How values are wrapped.
    pub form: HookForm,
    /// The arms in order: backend index and its computation.
    pub arms: Vec<(usize, Call)>,
}

/// Everything [`items`] emits for one product.
#[derive(Clone, Debug)]
pub struct Dispatch {
    /// Backends in order of preference.
    pub backends: Vec<Backend>,
    /// How compile-time backends enter the bodies.
    pub gated: Gated,
    /// The dispatching functions; the first one's backends are what `backend()` reports.
    /// Empty when the product writes its own functions around [`Dispatch::select`].
    pub ops: Vec<Op>,
    /// Doc lines of `backend()`.
    pub backend_docs: Vec<String>,
    /// Attributes of `backend()` after its docs.
    pub backend_attrs: TokenStream,
    /// The test hooks.
    pub hooks: Vec<Hook>,
}

/// A CPU check `fn {name}() -> bool` on x86-64: true at compile time when the build enables
/// every one of `features` (none: never), else `::fieldgen_field::cpu::{cpu}()`, which caches
/// its CPUID reading.
pub fn cpu_check(docs: &[&str], name: &str, features: &[&str], cpu: &str) -> TokenStream {
    let name = format_ident!("{}", name);
    let cpu = format_ident!("{}", cpu);
    let body = if features.is_empty() {
        quote!(::fieldgen_field::cpu::#cpu())
    } else {
        let all = quote!(all(#(target_feature = #features),*));
        quote! {
            #[cfg(#all)]
            {
                true
            }
            #[cfg(not(#all))]
            {
                ::fieldgen_field::cpu::#cpu()
            }
        }
    };
    quote! {
        #(#[doc = #docs])*
        #[cfg(target_arch = "x86_64")]
        #[inline(always)]
        fn #name() -> bool {
            #body
        }
    }
}

fn docs(lines: &[String]) -> TokenStream {
    quote!(#(#[doc = #lines])*)
}

fn cfg(gate: &Option<TokenStream>) -> TokenStream {
    match gate {
        Some(g) => quote!(#[cfg(#g)]),
        None => quote!(),
    }
}

impl Dispatch {
    fn fallback(&self, b: usize) -> bool {
        let b = &self.backends[b];
        b.gate.is_none() && matches!(b.detect, Detect::Build)
    }

    fn compile_time(&self, b: usize) -> bool {
        let b = &self.backends[b];
        b.gate.is_some() && matches!(b.detect, Detect::Build)
    }

    /// The body choosing among `calls` (backend index, computation) in order of preference.
    pub fn select(&self, calls: &[(usize, Call)], args: &TokenStream) -> TokenStream {
        if self.gated == Gated::Return {
            return self.sequence(calls, args);
        }
        let (gated, rest): (Vec<_>, Vec<_>) = calls
            .iter()
            .cloned()
            .partition(|(b, _)| self.compile_time(*b));
        let has_fallback = rest.iter().any(|(b, _)| self.fallback(*b));
        let mut body = self.sequence(&rest, args);
        for (b, call) in gated {
            let g = self.backends[b].gate.as_ref().unwrap();
            let Call::Expr(value) = call else {
                unreachable!("a compile-time backend computes an expression")
            };
            let other = if has_fallback {
                body
            } else {
                quote!(::core::unreachable!())
            };
            body = quote! {
                #[cfg(#g)]
                let r = #value;
                #[cfg(not(#g))]
                let r = { #other };
                r
            };
        }
        body
    }

    /// `calls` one after the other: early returns, then the fallback.
    fn sequence(&self, calls: &[(usize, Call)], args: &TokenStream) -> TokenStream {
        let mut out = TokenStream::new();
        let has_fallback = calls.iter().any(|(b, _)| self.fallback(*b));
        for (i, (b, call)) in calls.iter().enumerate() {
            let backend = &self.backends[*b];
            let cfg = cfg(&backend.gate);
            if let (Detect::Prefer(p), Call::Expr(e)) = (&backend.detect, call) {
                let rest = self.sequence(&calls[i + 1..], args);
                out.extend(quote! {
                    if cfg!(#p) {
                        #e
                    } else {
                        #rest
                    }
                });
                break;
            }
            if self.fallback(*b) {
                out.extend(match call {
                    Call::Expr(e) | Call::Stmts(e) => e.clone(),
                    _ => unreachable!("the fallback needs no CPU check"),
                });
                continue;
            }
            match (&backend.detect, call) {
                (Detect::Build, Call::Expr(e)) => out.extend(quote! {
                    #cfg
                    {
                        return #e;
                    }
                }),
                (Detect::Cpu { .. }, Call::Checked(e)) if !has_fallback => {
                    // The only backend: elsewhere the build has already stopped.
                    let g = backend.gate.as_ref().expect("a checked backend is gated");
                    let missing = format_ident!("{}_missing", backend.name.replace('-', "_"));
                    out.extend(quote! {
                        #cfg
                        {
                            match #e {
                                ::core::option::Option::Some(r) => r,
                                ::core::option::Option::None => Self::#missing(),
                            }
                        }
                        #[cfg(not(#g))]
                        {
                            let _ = (#args,);
                            ::core::unreachable!()
                        }
                    });
                }
                (Detect::Cpu { .. }, Call::Checked(e)) => out.extend(quote! {
                    #cfg
                    {
                        if let ::core::option::Option::Some(r) = #e {
                            return r;
                        }
                    }
                }),
                (Detect::Cpu { check }, call) => {
                    let check = format_ident!("{}", check);
                    let then = match call {
                        Call::Expr(e) => quote!(return #e;),
                        Call::Unsafe { note, expr } => quote! {
                            #note
                            return unsafe { #expr };
                        },
                        Call::Stmts(s) => s.clone(),
                        Call::Checked(_) => unreachable!(),
                    };
                    out.extend(quote! {
                        #cfg
                        {
                            if Self::#check() {
                                #then
                            }
                        }
                    });
                }
                (Detect::Build | Detect::Prefer(_), _) => {
                    unreachable!("a compile-time backend computes an expression")
                }
            }
        }
        out
    }

    /// The body of `backend()`: the name of the first backend of the first operation that
    /// can run (of any backend, when there are no operations).
    pub fn backend_body(&self) -> TokenStream {
        let reported: Vec<(usize, Call)> = (0..self.backends.len())
            .filter(|&b| self.ops.first().is_none_or(|op| op.calls[b].is_some()))
            .map(|b| {
                let name = &self.backends[b].name;
                (b, Call::Expr(quote!(#name)))
            })
            .collect();
        if !reported.iter().any(|(b, _)| self.fallback(*b)) {
            // The only backend: elsewhere the build has already stopped.
            let name = &self.backends[reported[0].0].name;
            return quote!(#name);
        }
        self.select(&reported, &quote!())
    }

    fn hook_body(&self, h: &Hook) -> TokenStream {
        // Backends computing the same thing under the same gate share one arm.
        let mut shared: Vec<(usize, Vec<&str>)> = Vec::new();
        for (i, (b, call)) in h.arms.iter().enumerate() {
            let same = shared.last().is_some_and(|(j, _)| {
                let (c, call2) = &h.arms[*j];
                self.backends[*c].gate.as_ref().map(|g| g.to_string())
                    == self.backends[*b].gate.as_ref().map(|g| g.to_string())
                    && matches!((call, call2), (Call::Expr(x), Call::Expr(y)) if x.to_string() == y.to_string())
            });
            let name = self.backends[*b].name.as_str();
            match shared.last_mut() {
                Some((_, names)) if same => names.push(name),
                _ => shared.push((i, vec![name])),
            }
        }
        let arms = shared.iter().map(|(i, names)| {
            let (b, call) = &h.arms[*i];
            let backend = &self.backends[*b];
            let name = quote!(#(#names)|*);
            let cfg = cfg(&backend.gate);
            match (&h.form, call) {
                (HookForm::Wrap(w), Call::Expr(e)) => quote! {
                    #cfg
                    #name => ::core::option::Option::Some(#w(#e)),
                },
                (HookForm::Wrap(w), Call::Checked(e)) => quote! {
                    #cfg
                    #name => #e.map(#w),
                },
                (HookForm::Words(_), Call::Expr(e)) => quote! {
                    #cfg
                    #name => #e,
                },
                (HookForm::Words(_), Call::Unsafe { note, expr }) => {
                    let Detect::Cpu { check } = &backend.detect else {
                        unreachable!("an unsafe call belongs to a checked backend")
                    };
                    let check = format_ident!("{}", check);
                    quote! {
                        #cfg
                        #name if Self::#check() => {
                            #note
                            unsafe { #expr }
                        }
                    }
                }
                _ => unreachable!("no such hook arm"),
            }
        });
        match &h.form {
            HookForm::Wrap(_) => quote! {
                match backend {
                    #(#arms)*
                    _ => ::core::option::Option::None,
                }
            },
            HookForm::Words(ty) => quote! {
                let r: #ty = match backend {
                    #(#arms)*
                    _ => return ::core::option::Option::None,
                };
                ::core::option::Option::Some(Self(r))
            },
        }
    }
}

/// The dispatching functions, `backend()` and the test hooks of `d`.
pub fn items(d: &Dispatch) -> TokenStream {
    let mut out = TokenStream::new();
    for op in &d.ops {
        let calls: Vec<(usize, Call)> = op
            .calls
            .iter()
            .enumerate()
            .filter_map(|(b, c)| c.clone().map(|c| (b, c)))
            .collect();
        let body = d.select(&calls, &op.args);
        let (docs, attrs, sig) = (docs(&op.docs), &op.attrs, &op.sig);
        out.extend(quote! {
            #docs
            #attrs
            #sig {
                #body
            }
        });
    }
    let (backend_docs, backend_attrs) = (docs(&d.backend_docs), &d.backend_attrs);
    let backend_body = d.backend_body();
    out.extend(quote! {
        #backend_docs
        #backend_attrs
        pub fn backend() -> &'static str {
            #backend_body
        }
    });
    for h in &d.hooks {
        let body = d.hook_body(h);
        let (docs, attrs, sig) = (docs(&h.docs), &h.attrs, &h.sig);
        out.extend(quote! {
            #docs
            #attrs
            #sig {
                #body
            }
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn backend(name: &str, gate: Option<TokenStream>, detect: Detect) -> Backend {
        Backend {
            name: name.to_string(),
            gate,
            detect,
        }
    }

    fn dispatch(backends: Vec<Backend>, gated: Gated) -> Dispatch {
        Dispatch {
            backends,
            gated,
            ops: vec![],
            backend_docs: vec![],
            backend_attrs: quote!(),
            hooks: vec![],
        }
    }

    fn same(a: TokenStream, b: TokenStream) {
        assert_eq!(a.to_string(), b.to_string());
    }

    #[test]
    fn runtime_check_then_fallback() {
        let d = dispatch(
            vec![
                backend(
                    "fast",
                    Some(quote!(target_arch = "x86_64")),
                    Detect::Cpu { check: "fast_ok" },
                ),
                backend("slow", None, Detect::Build),
            ],
            Gated::Return,
        );
        same(
            d.backend_body(),
            quote! {
                #[cfg(target_arch = "x86_64")]
                {
                    if Self::fast_ok() {
                        return "fast";
                    }
                }
                "slow"
            },
        );
    }

    #[test]
    fn compile_time_backend_shadows_the_rest() {
        let arm = quote!(target_arch = "aarch64");
        let d = dispatch(
            vec![
                backend("arm", Some(arm.clone()), Detect::Build),
                backend("slow", None, Detect::Build),
            ],
            Gated::Shadow,
        );
        same(
            d.backend_body(),
            quote! {
                #[cfg(#arm)]
                let r = "arm";
                #[cfg(not(#arm))]
                let r = { "slow" };
                r
            },
        );
        // Without a fallback the other targets never get here.
        let only = dispatch(
            vec![backend("arm", Some(arm.clone()), Detect::Build)],
            Gated::Shadow,
        );
        same(
            only.select(&[(0, Call::Expr(quote!(k())))], &quote!()),
            quote! {
                #[cfg(#arm)]
                let r = k();
                #[cfg(not(#arm))]
                let r = { ::core::unreachable!() };
                r
            },
        );
        same(only.backend_body(), quote!("arm"));
    }

    #[test]
    fn preferred_by_cfg_and_shared_hook_arms() {
        let mut d = dispatch(
            vec![
                backend("holes", None, Detect::Prefer(quote!(ct))),
                backend("comb", None, Detect::Build),
            ],
            Gated::Return,
        );
        same(
            d.backend_body(),
            quote! {
                if cfg!(ct) {
                    "holes"
                } else {
                    "comb"
                }
            },
        );
        d.hooks.push(Hook {
            docs: vec![],
            attrs: quote!(),
            sig: quote!(fn h(backend: &str) -> Option<Self>),
            form: HookForm::Wrap(quote!(Self)),
            arms: vec![(1, Call::Expr(quote!(sq()))), (0, Call::Expr(quote!(sq())))],
        });
        same(
            d.hook_body(&d.hooks[0]),
            quote! {
                match backend {
                    "comb" | "holes" => ::core::option::Option::Some(Self(sq())),
                    _ => ::core::option::Option::None,
                }
            },
        );
    }
}
