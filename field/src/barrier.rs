//! Value barriers for constant-time code: the identity function, opaque to the optimiser.
//!
//! LLVM may turn a masked select `a ^ (mask & (a ^ b))` back into a branch when it can prove
//! that the mask is 0 or all ones (loop unswitching, x86's cmov-to-branch conversion); seen in
//! generated code as a `js` on the sign of a secret inverse and a `jb` in the canonical-form
//! comparison of a 32-bit pseudo-Mersenne field (the `fieldgen-ctcheck` run under valgrind).
//! Passing the mask through an empty `asm!` block hides its value range, so the select stays
//! arithmetic. Where inline assembly is not stable (wasm32, powerpc) or a value does not fit a
//! register, `core::hint::black_box` is the barrier (best effort, as its documentation says).

macro_rules! barrier {
    ($name:ident, $t:ty, $($asm:tt)*) => {
        #[doc = concat!("`x`, unchanged, through an optimisation barrier (`", stringify!($t), "`).")]
        #[inline(always)]
        // The operand only appears in a comment of the template: its register name's width
        // does not matter.
        #[allow(asm_sub_register)]
        pub fn $name(x: $t) -> $t {
            #[cfg($($asm)*)]
            {
                let mut x = x;
                // SAFETY: an empty template: no instruction, no memory access; the register
                // holding `x` is read and "written" unchanged.
                unsafe {
                    core::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
                }
                x
            }
            #[cfg(not($($asm)*))]
            {
                core::hint::black_box(x)
            }
        }
    };
}

barrier!(
    u32,
    u32,
    any(
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "arm",
        target_arch = "aarch64",
        target_arch = "riscv32",
        target_arch = "riscv64"
    )
);
barrier!(
    i32,
    i32,
    any(
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "arm",
        target_arch = "aarch64",
        target_arch = "riscv32",
        target_arch = "riscv64"
    )
);
barrier!(
    u64,
    u64,
    any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64"
    )
);
barrier!(
    i64,
    i64,
    any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64"
    )
);
