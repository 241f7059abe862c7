//! Run-time CPU feature checks of the generated x86-64 code: one function per feature set a
//! generated kernel needs, each reading CPUID (and, for AVX-512, XCR0) once per program.
//!
//! Every generated field and RSA context that dispatches on x86-64 calls these, so the whole
//! program shares one probe and one cached answer per feature set instead of one per module.
//! The generated callers test the matching `cfg(target_feature = ...)` first and call these
//! only when the build does not already guarantee the features; these functions themselves
//! always ask the CPU.
//!
//! Each answer is cached in a `static` `AtomicU8`, 0 = not read yet, 1 = absent, 2 = present:
//! the first calls may race, but every racer computes the same answer from the same CPU, so
//! `Relaxed` ordering suffices.
//!
//! Bit positions: Intel SDM vol. 2A, the CPUID (feature flags of leaves 1 and 7) and XGETBV
//! instruction references, and vol. 1 §13.3 (the XCR0 state components); AMD APM vol. 3,
//! appendix E (CPUID).
//!
//! The cached load is inlined into the caller; the probe itself is a cold, out-of-line call
//! made once per feature set.
//!
//! These functions are part of the interface the generated code (including fields expanded by
//! `fieldgen-macros` in other crates) is compiled against: their names and conditions change
//! only with a breaking release of this crate.

use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv};
use core::sync::atomic::{AtomicU8, Ordering};

/// Returns the cached answer in `state`, or runs `probe`, caches and returns its answer.
#[inline(always)]
fn cached(state: &AtomicU8, probe: fn() -> bool) -> bool {
    let s = state.load(Ordering::Relaxed);
    if s != 0 {
        return s == 2;
    }
    probe_and_store(state, probe)
}

/// Runs `probe`, records its answer in `state` (2 = present, 1 = absent) and returns it.
#[cold]
#[inline(never)]
fn probe_and_store(state: &AtomicU8, probe: fn() -> bool) -> bool {
    let present = probe();
    state.store(if present { 2 } else { 1 }, Ordering::Relaxed);
    present
}

/// CPUID.(EAX=7, ECX=0):EBX, or 0 when leaf 0 reports no leaf 7.
#[allow(unused_unsafe)]
fn leaf7_ebx() -> u32 {
    // SAFETY: CPUID exists on every x86-64 processor; leaf 7 is read only when leaf 0 reports it.
    unsafe {
        if __cpuid(0).eax >= 7 {
            __cpuid_count(7, 0).ebx
        } else {
            0
        }
    }
}

/// XCR0 (XGETBV with ECX = 0).
///
/// # Safety
///
/// CPUID.1:ECX.OSXSAVE (bit 27) is set, so XGETBV is enabled.
#[target_feature(enable = "xsave")]
unsafe fn xcr0() -> u64 {
    // SAFETY: the caller checked OSXSAVE; the `xsave` target feature is enabled on this function.
    unsafe { _xgetbv(0) }
}

/// Whether the OS saves the AVX-512 state: CPUID.1:ECX.OSXSAVE (bit 27) and XCR0 bits 1 (SSE),
/// 2 (AVX), 5 (opmask), 6 (upper halves of zmm0–15) and 7 (zmm16–31), mask 0xe6.
#[allow(unused_unsafe)]
fn zmm_state_enabled() -> bool {
    // SAFETY: CPUID exists on every x86-64 processor and leaf 1 always exists; XGETBV runs only
    // when OSXSAVE is set.
    unsafe { __cpuid(1).ecx & (1 << 27) != 0 && xcr0() & 0xe6 == 0xe6 }
}

/// Whether the CPU has BMI2 and ADX (`MULX`, `ADCX`, `ADOX`), which the prime fields' and the
/// RSA contexts' `x86_64-adx` kernels need: CPUID.(EAX=7, ECX=0):EBX bits 8 (BMI2) and 19 (ADX).
/// Read once per program.
#[inline]
pub fn adx() -> bool {
    static STATE: AtomicU8 = AtomicU8::new(0);
    cached(&STATE, || {
        let ebx = leaf7_ebx();
        ebx & (1 << 8) != 0 && ebx & (1 << 19) != 0
    })
}

/// Whether the CPU has PCLMULQDQ and SSSE3, which the binary fields' carry-less product and
/// byte-shuffle squaring kernels need: CPUID.(EAX=1):ECX bits 1 (PCLMULQDQ) and 9 (SSSE3).
/// Read once per program.
#[inline]
pub fn clmul() -> bool {
    static STATE: AtomicU8 = AtomicU8::new(0);
    cached(&STATE, || {
        // SAFETY: CPUID exists on every x86-64 processor; leaf 1 always exists.
        #[allow(unused_unsafe)]
        let ecx = unsafe { __cpuid(1).ecx };
        ecx & (1 << 1) != 0 && ecx & (1 << 9) != 0
    })
}

/// Whether the binary fields' `PDEP` squaring should run: BMI2 (CPUID.(EAX=7, ECX=0):EBX
/// bit 8) on an Intel processor, or on an AMD one of family 19h (Zen 3) or later, where `PDEP`
/// takes a fixed three cycles (earlier AMD processors run it as slow microcode). The vendor is
/// CPUID leaf 0's EBX, EDX, ECX; the family is CPUID.1:EAX bits 11:8 plus, when those are 0xf,
/// the extended family bits 27:20 (AMD APM vol. 3, CPUID Fn0000_0001_EAX). A `target_feature`
/// cannot tell this, so generated callers have no compile-time shortcut. Read once per program.
#[allow(unused_unsafe)]
#[inline]
pub fn bmi2_fast_pdep() -> bool {
    static STATE: AtomicU8 = AtomicU8::new(0);
    cached(&STATE, || {
        // SAFETY: CPUID exists on every x86-64 processor; leaves 0 and 1 always exist and leaf
        // 7 is read only when leaf 0 reports it.
        unsafe {
            let l0 = __cpuid(0);
            let vendor = [l0.ebx, l0.edx, l0.ecx];
            // "GenuineIntel" and "AuthenticAMD" as CPUID returns them in EBX, EDX, ECX.
            let intel = vendor == [0x756e_6547, 0x4965_6e69, 0x6c65_746e];
            let amd = vendor == [0x6874_7541, 0x6974_6e65, 0x444d_4163];
            let eax = __cpuid(1).eax;
            let base = (eax >> 8) & 0xf;
            let family = if base == 0xf {
                base + ((eax >> 20) & 0xff)
            } else {
                base
            };
            l0.eax >= 7
                && (intel || (amd && family >= 0x19))
                && __cpuid_count(7, 0).ebx & (1 << 8) != 0
        }
    })
}

/// Whether the binary fields' AVX-512 multi-squaring kernels can run: AVX-512F and BMI2
/// (CPUID.(EAX=7, ECX=0):EBX bits 16 and 8; BMI2's `PEXT` splits the operand) with the OS
/// saving the opmask and zmm state (CPUID.1:ECX.OSXSAVE and XCR0 bits 1, 2, 5, 6, 7). Read
/// once per program.
#[inline]
pub fn avx512f_bmi2() -> bool {
    static STATE: AtomicU8 = AtomicU8::new(0);
    cached(&STATE, || {
        let ebx = leaf7_ebx();
        ebx & (1 << 16 | 1 << 8) == (1 << 16 | 1 << 8) && zmm_state_enabled()
    })
}

/// Whether the AVX-512 IFMA kernels (RSA exponentiation, lane fields) can run: AVX-512F,
/// AVX-512 IFMA and AVX-512VL (CPUID.(EAX=7, ECX=0):EBX bits 16, 21 and 31) with the OS saving
/// the opmask and zmm state (CPUID.1:ECX.OSXSAVE and XCR0 bits 1, 2, 5, 6, 7). Read once per
/// program.
#[inline]
pub fn avx512ifma() -> bool {
    static STATE: AtomicU8 = AtomicU8::new(0);
    cached(&STATE, || {
        let ebx = leaf7_ebx();
        ebx & (1 << 16) != 0 && ebx & (1 << 21) != 0 && ebx & (1 << 31) != 0 && zmm_state_enabled()
    })
}

#[cfg(test)]
mod tests {
    extern crate std;

    use std::vec::Vec;

    /// The vendor/family rule of `bmi2_fast_pdep`, derived here from the vendor string as
    /// bytes and the family as AMD APM vol. 3 defines it (base family plus extended family
    /// when the base is 0xf), with BMI2 by the standard library's detection.
    #[allow(unused_unsafe)]
    fn expects_fast_pdep() -> bool {
        // SAFETY: CPUID exists on every x86-64 processor; leaf 0 always exists.
        let l0 = unsafe { core::arch::x86_64::__cpuid(0) };
        let mut vendor = Vec::new();
        for r in [l0.ebx, l0.edx, l0.ecx] {
            vendor.extend_from_slice(&r.to_le_bytes());
        }
        // SAFETY: CPUID exists on every x86-64 processor; leaf 1 always exists.
        let eax = unsafe { core::arch::x86_64::__cpuid(1) }.eax;
        let base = (eax >> 8) & 0xf;
        let family = base + if base == 0xf { (eax >> 20) & 0xff } else { 0 };
        std::is_x86_feature_detected!("bmi2")
            && (vendor == b"GenuineIntel" || (vendor == b"AuthenticAMD" && family >= 0x19))
    }

    /// Each probe against the standard library's independent detection (which reads the same
    /// CPUID and XCR0 bits), twice: the second answer comes from the cache.
    #[test]
    fn probes_match_std_detection() {
        use std::is_x86_feature_detected as has;
        for _ in 0..2 {
            assert_eq!(super::adx(), has!("bmi2") && has!("adx"));
            assert_eq!(super::clmul(), has!("pclmulqdq") && has!("ssse3"));
            assert_eq!(super::avx512f_bmi2(), has!("avx512f") && has!("bmi2"));
            assert_eq!(
                super::avx512ifma(),
                has!("avx512f") && has!("avx512ifma") && has!("avx512vl")
            );
            assert_eq!(super::bmi2_fast_pdep(), expects_fast_pdep());
        }
    }
}
