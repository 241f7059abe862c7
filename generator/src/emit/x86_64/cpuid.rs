//! Run-time CPU feature checks shared by every emitter that dispatches on x86-64: the prime
//! fields' and the RSA contexts' BMI2/ADX kernels, and the binary fields' PCLMULQDQ, BMI2 and
//! AVX-512 kernels.
//!
//! A check reads CPUID (and, for AVX-512, XCR0) once and caches the answer in a `static`
//! `AtomicU8`, 0 = not read yet, 1 = absent, 2 = present: the first call may race with another
//! thread's, but both compute the same answer, so `Relaxed` ordering suffices.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::asm::safety_note;

/// The body of a `fn() -> bool` that runs `probe` once and caches its answer. `probe` is the
/// statements that bind the boolean `flag` (CPUID reads, each with its SAFETY note).
pub fn cached(probe: TokenStream, flag: &Ident) -> TokenStream {
    quote! {
        static STATE: ::core::sync::atomic::AtomicU8 = ::core::sync::atomic::AtomicU8::new(0);
        let state = STATE.load(::core::sync::atomic::Ordering::Relaxed);
        if state != 0 {
            return state == 2;
        }
        #probe
        STATE.store(if #flag { 2 } else { 1 }, ::core::sync::atomic::Ordering::Relaxed);
        #flag
    }
}

/// The BMI2/ADX probe binding `present`: CPUID.(EAX=7, ECX=0):EBX bits 8 (BMI2) and 19 (ADX),
/// leaf 7 read only when leaf 0 reports it (Intel SDM vol. 2A, CPUID).
pub fn adx_probe() -> TokenStream {
    let note = safety_note(
        "CPUID exists on every x86-64 processor; leaf 7 is read only when leaf 0 reports it.",
    );
    quote! {
        #note
        let ebx = unsafe {
            if ::core::arch::x86_64::__cpuid(0).eax >= 7 {
                ::core::arch::x86_64::__cpuid_count(7, 0).ebx
            } else {
                0
            }
        };
        let present = ebx & (1 << 8) != 0 && ebx & (1 << 19) != 0;
    }
}
