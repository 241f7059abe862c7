//! Declassification points for the constant-time check of the compiled code.
//!
//! The check (`fieldgen-ctcheck`, run under valgrind's memcheck, Langley's ctgrind technique)
//! marks every secret input undefined, so a branch, a memory address or a division that
//! depends on a secret is reported. Some values computed from secrets are public by the
//! algorithm: whether an imported key is valid (an error is returned), whether an ECDSA nonce
//! candidate is rejected (RFC 6979 §3.2 step h), whether a signature's r or s is zero. The
//! code that branches on such a value passes it through [`declassify`] first, as
//! libsecp256k1's `secp256k1_declassify` and BoringSSL's `constant_time_declassify` do.
//!
//! Without the `ctgrind` feature [`declassify`] is the identity and compiles to nothing. With
//! it, on x86-64, it issues memcheck's `MAKE_MEM_DEFINED` client request (the valgrind.h
//! protocol: a no-op instruction sequence natively, so the feature is safe to leave on).

/// `v`, unchanged, marked public (defined) for memcheck when the `ctgrind` feature is on;
/// the identity otherwise. Use it only on a value the algorithm reveals anyway (an error
/// return, a retry count), never to silence a report.
#[inline(always)]
pub fn declassify<T: Copy>(v: T) -> T {
    #[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
    {
        let mut x = v;
        make_mem_defined(&mut x as *mut T as usize, core::mem::size_of::<T>());
        // The request is opaque to the compiler and has the address of `x`: `x` is read back
        // from memory, where memcheck now holds it defined.
        x
    }
    #[cfg(not(all(feature = "ctgrind", target_arch = "x86_64")))]
    {
        v
    }
}

/// Memcheck's `VG_USERREQ__MAKE_MEM_DEFINED` ('M' << 24 | 'C' << 16 | 2) on `len` bytes at
/// `addr`.
#[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
#[inline(never)]
fn make_mem_defined(addr: usize, len: usize) {
    const MAKE_MEM_DEFINED: usize = ((b'M' as usize) << 24 | (b'C' as usize) << 16) + 2;
    let args: [usize; 6] = [MAKE_MEM_DEFINED, addr, len, 0, 0, 0];
    // SAFETY: the rotations of rdi by 3 + 13 + 61 + 51 = 128 bits leave it unchanged and
    // `xchg rbx, rbx` changes nothing, so natively this is a no-op; under valgrind the core
    // reads the six words at `args` (alive for the whole block), changes memcheck's shadow
    // state of [addr, addr + len) and writes its result to rdx. No `nomem`: the compiler must
    // assume the block may read and write the memory at `addr`.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") 0usize => _,
            out("rdi") _,
            options(nostack),
        );
    }
}
