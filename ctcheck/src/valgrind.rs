//! Valgrind client requests (the protocol of valgrind.h and memcheck.h): a special
//! no-op instruction sequence that the valgrind core recognises, with the request's arguments
//! in memory at the address in `rax` and the result in `rdx`. Natively the sequence does
//! nothing and the request returns its default. x86-64 only; elsewhere every request returns
//! its default.

/// `RUNNING_ON_VALGRIND`.
const RUNNING_ON_VALGRIND: usize = 0x1001;
/// `VG_USERREQ__COUNT_ERRORS`: the number of errors the tool has reported so far.
const COUNT_ERRORS: usize = 0x1201;
/// memcheck's requests start at the tool base ('M' << 24 | 'C' << 16).
const MC_BASE: usize = (b'M' as usize) << 24 | (b'C' as usize) << 16;
/// `VG_USERREQ__MAKE_MEM_UNDEFINED`.
const MAKE_MEM_UNDEFINED: usize = MC_BASE + 1;
/// `VG_USERREQ__MAKE_MEM_DEFINED`.
const MAKE_MEM_DEFINED: usize = MC_BASE + 2;

#[cfg(target_arch = "x86_64")]
fn request(default: usize, req: usize, a1: usize, a2: usize) -> usize {
    let args: [usize; 6] = [req, a1, a2, 0, 0, 0];
    let mut result = default;
    // SAFETY: the rotations of rdi by 3 + 13 + 61 + 51 = 128 bits leave it unchanged and
    // `xchg rbx, rbx` changes nothing, so natively this is a no-op; under valgrind the core
    // reads the six words at `args` (alive for the whole block) and writes the result to rdx.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") result,
            out("rdi") _,
            options(nostack),
        );
    }
    result
}

#[cfg(not(target_arch = "x86_64"))]
fn request(default: usize, _req: usize, _a1: usize, _a2: usize) -> usize {
    default
}

/// Whether the program runs under valgrind.
pub fn running_on_valgrind() -> bool {
    request(0, RUNNING_ON_VALGRIND, 0, 0) != 0
}

/// Errors reported so far (0 natively).
pub fn error_count() -> usize {
    request(0, COUNT_ERRORS, 0, 0)
}

/// Marks the bytes of `*v` undefined: memcheck then reports every branch, memory address or
/// division that depends on them (the value itself is unchanged).
pub fn secret<T>(v: &mut T) {
    let p = v as *mut T as usize;
    request(0, MAKE_MEM_UNDEFINED, p, core::mem::size_of::<T>());
}

/// Marks the bytes of `*v` defined again: a value the algorithm makes public (declassified).
pub fn public<T>(v: &mut T) {
    let p = v as *mut T as usize;
    request(0, MAKE_MEM_DEFINED, p, core::mem::size_of::<T>());
}

/// Marks the bytes of a slice undefined (see [`secret`]).
pub fn secret_slice(v: &mut [u8]) {
    request(0, MAKE_MEM_UNDEFINED, v.as_mut_ptr() as usize, v.len());
}

/// Marks the bytes of a slice defined again (see [`public`]).
pub fn public_slice(v: &mut [u8]) {
    request(0, MAKE_MEM_DEFINED, v.as_mut_ptr() as usize, v.len());
}
