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

macro_rules! select {
    ($(#[$doc:meta])* $name:ident, $t:ty, $barrier:ident, $x86_test:literal, $x86_cmov:literal,
     $a64_cmp:literal, $a64_csel:literal) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name(mask: $t, a: $t, b: $t) -> $t {
            #[cfg(target_arch = "x86_64")]
            {
                let mut r = a;
                // SAFETY: register-only instructions; no memory access, no stack use.
                unsafe {
                    core::arch::asm!(
                        $x86_test,
                        $x86_cmov,
                        "xor {z:e}, {z:e}",
                        m = in(reg) mask,
                        b = in(reg) b,
                        r = inout(reg) r,
                        z = out(reg) _,
                        options(pure, nomem, nostack),
                    );
                }
                r
            }
            #[cfg(target_arch = "aarch64")]
            {
                let r: $t;
                // SAFETY: register-only instructions; no memory access, no stack use.
                unsafe {
                    core::arch::asm!(
                        $a64_cmp,
                        $a64_csel,
                        m = in(reg) mask,
                        a = in(reg) a,
                        b = in(reg) b,
                        r = lateout(reg) r,
                        options(pure, nomem, nostack),
                    );
                }
                r
            }
            #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
            {
                let m = $barrier(mask);
                a ^ (m & (a ^ b))
            }
        }
    };
}

select!(
    /// `b` where `mask` is all ones, `a` where it is zero (`u64` limbs), in a form the optimiser
    /// cannot turn into a branch.
    ///
    /// LLVM lowers `a ^ (mask & (a ^ b))` with a known 0/all-ones mask to `cmov`, and x86's
    /// cmov-conversion pass may then replace a `cmov` inside a loop by a branch: seen on a secret
    /// in a generated addition's final conditional subtraction, inlined into a loop, in a
    /// `-C target-cpu=native` build (the `fieldgen-ctcheck` run under valgrind). Here the
    /// selection is one `test`/`cmovnz` (x86-64) or `cmp`/`csel` (AArch64) inside an `asm!`
    /// block, which no pass rewrites; elsewhere it is the masked form with the mask through
    /// [`u64()`]. `mask` must be 0 or all ones.
    ///
    /// On x86-64 the block ends with a zero idiom (`xor` of a scratch register with itself, which
    /// the CPU resolves at rename) so the flags it leaves do not come from the secret `test`:
    /// valgrind (3.19) models `bt` as keeping the previous O/S/Z/A/P flags, and a later public
    /// loop test by `bt` was reported as depending on the secret otherwise.
    select_u64,
    u64,
    u64,
    "test {m}, {m}",
    "cmovnz {r}, {b}",
    "cmp {m}, #0",
    "csel {r}, {b}, {a}, ne"
);
select!(
    /// [`select_u64`] for `u32` limbs: `b` where `mask` is all ones, `a` where it is zero.
    select_u32,
    u32,
    u32,
    "test {m:e}, {m:e}",
    "cmovnz {r:e}, {b:e}",
    "cmp {m:w}, #0",
    "csel {r:w}, {b:w}, {a:w}, ne"
);

macro_rules! select_n {
    ($(#[$doc:meta])* $name:ident, $t:ty, $n:literal, $barrier:ident, $x86_test:literal,
     $a64_cmp:literal, [$(($i:tt, $r:ident, $a:ident, $b:ident, $x86_cmov:literal, $a64_csel:literal)),*]) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name(mask: $t, a: [$t; $n], b: [$t; $n]) -> [$t; $n] {
            #[cfg(target_arch = "x86_64")]
            {
                $(let mut $r = a[$i];)*
                // SAFETY: register-only instructions; no memory access, no stack use.
                unsafe {
                    core::arch::asm!(
                        $x86_test,
                        $($x86_cmov,)*
                        "xor {z:e}, {z:e}",
                        m = in(reg) mask,
                        $($b = in(reg) b[$i],)*
                        $($r = inout(reg) $r,)*
                        z = out(reg) _,
                        options(pure, nomem, nostack),
                    );
                }
                [$($r),*]
            }
            #[cfg(target_arch = "aarch64")]
            {
                $(let $r: $t;)*
                // SAFETY: register-only instructions; no memory access, no stack use. The
                // results are `out`, not `lateout`: a `csel` writes its result before the next
                // one reads its operands, so no result may share an input's register.
                unsafe {
                    core::arch::asm!(
                        $a64_cmp,
                        $($a64_csel,)*
                        m = in(reg) mask,
                        $($a = in(reg) a[$i],)*
                        $($b = in(reg) b[$i],)*
                        $($r = out(reg) $r,)*
                        options(pure, nomem, nostack),
                    );
                }
                [$($r),*]
            }
            #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
            {
                let m = $barrier(mask);
                [$(a[$i] ^ (m & (a[$i] ^ b[$i]))),*]
            }
        }
    };
}

select_n!(
    /// [`select_u64`] on two limbs under one mask: one `test` and two `cmovnz` (x86-64), one
    /// `cmp` and two `csel` (AArch64), in one `asm!` block.
    select2_u64, u64, 2, u64, "test {m}, {m}", "cmp {m}, #0",
    [(0, r0, a0, b0, "cmovnz {r0}, {b0}", "csel {r0}, {b0}, {a0}, ne"),
     (1, r1, a1, b1, "cmovnz {r1}, {b1}", "csel {r1}, {b1}, {a1}, ne")]
);
select_n!(
    /// [`select_u64`] on three limbs under one mask (see [`select2_u64`]).
    select3_u64, u64, 3, u64, "test {m}, {m}", "cmp {m}, #0",
    [(0, r0, a0, b0, "cmovnz {r0}, {b0}", "csel {r0}, {b0}, {a0}, ne"),
     (1, r1, a1, b1, "cmovnz {r1}, {b1}", "csel {r1}, {b1}, {a1}, ne"),
     (2, r2, a2, b2, "cmovnz {r2}, {b2}", "csel {r2}, {b2}, {a2}, ne")]
);
select_n!(
    /// [`select_u64`] on four limbs under one mask (see [`select2_u64`]): the final
    /// conditional subtraction of a 4-limb field in 6 instructions instead of 12.
    select4_u64, u64, 4, u64, "test {m}, {m}", "cmp {m}, #0",
    [(0, r0, a0, b0, "cmovnz {r0}, {b0}", "csel {r0}, {b0}, {a0}, ne"),
     (1, r1, a1, b1, "cmovnz {r1}, {b1}", "csel {r1}, {b1}, {a1}, ne"),
     (2, r2, a2, b2, "cmovnz {r2}, {b2}", "csel {r2}, {b2}, {a2}, ne"),
     (3, r3, a3, b3, "cmovnz {r3}, {b3}", "csel {r3}, {b3}, {a3}, ne")]
);
select_n!(
    /// [`select_u32`] on two limbs under one mask (see [`select2_u64`]).
    select2_u32, u32, 2, u32, "test {m:e}, {m:e}", "cmp {m:w}, #0",
    [(0, r0, a0, b0, "cmovnz {r0:e}, {b0:e}", "csel {r0:w}, {b0:w}, {a0:w}, ne"),
     (1, r1, a1, b1, "cmovnz {r1:e}, {b1:e}", "csel {r1:w}, {b1:w}, {a1:w}, ne")]
);
select_n!(
    /// [`select_u32`] on three limbs under one mask (see [`select2_u64`]).
    select3_u32, u32, 3, u32, "test {m:e}, {m:e}", "cmp {m:w}, #0",
    [(0, r0, a0, b0, "cmovnz {r0:e}, {b0:e}", "csel {r0:w}, {b0:w}, {a0:w}, ne"),
     (1, r1, a1, b1, "cmovnz {r1:e}, {b1:e}", "csel {r1:w}, {b1:w}, {a1:w}, ne"),
     (2, r2, a2, b2, "cmovnz {r2:e}, {b2:e}", "csel {r2:w}, {b2:w}, {a2:w}, ne")]
);
select_n!(
    /// [`select_u32`] on four limbs under one mask (see [`select2_u64`]).
    select4_u32, u32, 4, u32, "test {m:e}, {m:e}", "cmp {m:w}, #0",
    [(0, r0, a0, b0, "cmovnz {r0:e}, {b0:e}", "csel {r0:w}, {b0:w}, {a0:w}, ne"),
     (1, r1, a1, b1, "cmovnz {r1:e}, {b1:e}", "csel {r1:w}, {b1:w}, {a1:w}, ne"),
     (2, r2, a2, b2, "cmovnz {r2:e}, {b2:e}", "csel {r2:w}, {b2:w}, {a2:w}, ne"),
     (3, r3, a3, b3, "cmovnz {r3:e}, {b3:e}", "csel {r3:w}, {b3:w}, {a3:w}, ne")]
);

#[cfg(test)]
mod tests {
    #[test]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "the 32-bit select is tried on the low halves of the 64-bit cases"
    )]
    fn selects_pick_by_mask() {
        for (a, b) in [(0u64, u64::MAX), (0x1234, 0xfedc), (u64::MAX, 1)] {
            assert_eq!(super::select_u64(0, a, b), a);
            assert_eq!(super::select_u64(u64::MAX, a, b), b);
            let (a, b) = (a as u32, b as u32);
            assert_eq!(super::select_u32(0, a, b), a);
            assert_eq!(super::select_u32(u32::MAX, a, b), b);
        }
        let (a, b) = ([1u64, 2, 3, u64::MAX], [u64::MAX, 5, 0, 7]);
        assert_eq!(super::select4_u64(0, a, b), a);
        assert_eq!(super::select4_u64(u64::MAX, a, b), b);
        assert_eq!(
            super::select3_u64(0, [a[0], a[1], a[2]], [b[0], b[1], b[2]]),
            [1, 2, 3]
        );
        assert_eq!(
            super::select3_u64(u64::MAX, [a[0], a[1], a[2]], [b[0], b[1], b[2]]),
            [u64::MAX, 5, 0]
        );
        assert_eq!(
            super::select2_u64(u64::MAX, [a[0], a[1]], [b[0], b[1]]),
            [u64::MAX, 5]
        );
        assert_eq!(super::select2_u64(0, [a[0], a[1]], [b[0], b[1]]), [1, 2]);
        let (a, b) = ([1u32, 2, 3, u32::MAX], [u32::MAX, 5, 0, 7]);
        assert_eq!(super::select4_u32(0, a, b), a);
        assert_eq!(super::select4_u32(u32::MAX, a, b), b);
        assert_eq!(
            super::select3_u32(u32::MAX, [a[0], a[1], a[2]], [b[0], b[1], b[2]]),
            [u32::MAX, 5, 0]
        );
        assert_eq!(
            super::select2_u32(u32::MAX, [a[0], a[1]], [b[0], b[1]]),
            [u32::MAX, 5]
        );
        assert_eq!(super::select2_u32(0, [a[0], a[1]], [b[0], b[1]]), [1, 2]);
    }
}
