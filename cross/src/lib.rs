//! Cross-target testing of generated fields.
//!
//! The library holds fields for random primes of each limb count, generated at build time by
//! `build.rs` with `--target auto` (so each carries the assembly of every architecture, gated by
//! `cfg`); it is `no_std` and is also built for `thumbv7em-none-eabihf`. The tests run the shared
//! oracle suite on these fields (`tests/random_*.rs`) and on the committed presets
//! (`tests/presets_*.rs`), plus [`backend_tests!`]: the backend in use is the one expected on the
//! target (so the suite is known to have run through the assembly), every backend the build can
//! run equals the portable code, and the byte encodings have the documented byte order.
//!
//! `scripts/cross.sh` builds them for aarch64, armv7, powerpc (32-bit big-endian) and
//! wasm32-wasip1 and runs them under qemu-user and Node.js.

#![no_std]
#![deny(unsafe_op_in_unsafe_fn)]

/// Fields of 1..=8 64-bit limbs, two per limb count (no spare bit; two or more spare bits).
// Under `--cfg fieldgen_target_limbs_only` (scripts/cross.sh) only the limb size the target
// runs is compiled, as in the generated crate: 64-bit limbs on 64-bit targets, 32-bit on the
// little-endian 32-bit ones. The big-endian target runs the presets only (byte order is all it
// adds; the limb arithmetic is the same Rust on every 32-bit target).
#[cfg(any(target_pointer_width = "64", not(fieldgen_target_limbs_only)))]
#[allow(clippy::all, unused)]
#[rustfmt::skip]
pub mod random_64 {
    include!(concat!(env!("OUT_DIR"), "/random_64.rs"));
}

/// Fields of 1..=8, 12 and 16 32-bit limbs, two per limb count.
#[cfg(any(
    all(not(target_pointer_width = "64"), target_endian = "little"),
    not(fieldgen_target_limbs_only)
))]
#[allow(clippy::all, unused)]
#[rustfmt::skip]
pub mod random_32 {
    include!(concat!(env!("OUT_DIR"), "/random_32.rs"));
}

/// Every backend name a generated field's `backend()` can return.
pub const BACKENDS: [&str; 5] = ["portable64", "portable32", "x86_64-adx", "aarch64", "armv7"];

/// The committed preset modules in a special (pseudo-Mersenne / Solinas) form rather than
/// Montgomery form: the 64-bit ones have x86-64 kernels, none has an AArch64 or ARMv7 kernel yet.
pub const SPECIAL_FORMS: [&str; 3] = ["curve25519_p_64", "secp256k1_p_64", "curve25519_p_32"];

/// The committed 32-bit Montgomery presets whose `auto` module keeps the portable code on ARM:
/// fewer than a quarter of p's limbs are other than 0, 1 and 2^32 − 1, so the portable code
/// (which folds those limbs) takes fewer instructions than the ARMv7 kernel.
pub const ARMV7_PORTABLE: [&str; 1] = ["p256_p_32"];

/// Whether this build is for an ARM target on which generated fields use the ARMv7 (UMAAL)
/// kernels: 64-bit atomics (ARMv6K and later, A and R profiles) or the `dsp` feature.
pub const ARMV7_UMAAL: bool = cfg!(all(
    target_arch = "arm",
    any(target_has_atomic = "64", target_feature = "dsp")
));

/// Limbs up to which the ARMv7 kernels are generated.
pub const ARMV7_MAX_LIMBS: usize = 16;

/// The backend a field generated with `--target auto`, of `limbs` limbs of `limb_bits` bits,
/// must use on the architecture this crate is built for. `x86_adx` says whether an x86-64 CPU
/// has BMI2 and ADX (ignored elsewhere); `special` whether the field keeps the portable code
/// for its form or modulus (one of [`SPECIAL_FORMS`] or [`ARMV7_PORTABLE`]).
pub fn expected_backend(
    limb_bits: u32,
    limbs: usize,
    x86_adx: bool,
    special: bool,
) -> &'static str {
    if cfg!(target_arch = "x86_64") && x86_adx && limb_bits == 64 && limbs <= 12 {
        return "x86_64-adx";
    }
    if cfg!(target_arch = "aarch64") && !special && limb_bits == 64 && limbs <= 8 {
        return "aarch64";
    }
    if ARMV7_UMAAL && !special && limb_bits == 32 && limbs <= ARMV7_MAX_LIMBS {
        return "armv7";
    }
    if limb_bits == 64 {
        "portable64"
    } else {
        "portable32"
    }
}

/// Expands to one `#[test]` per field `name: Type => limb_bits`: the backend in use is
/// [`expected_backend`], every backend in [`BACKENDS`] that this build can run gives the
/// portable result for `mul` and `square` on edge values and pseudo-random values, and
/// `to_le_bytes`/`to_be_bytes` put the bytes of a known `u64` in the documented order.
#[macro_export]
macro_rules! backend_tests {
    ($($name:ident: $F:ty => $w:literal,)*) => {
        mod backend_checks {
            /// SplitMix64.
            fn next(state: &mut u64) -> u64 {
                *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = *state;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            }

            fn x86_adx() -> bool {
                #[cfg(target_arch = "x86_64")]
                {
                    ::std::is_x86_feature_detected!("bmi2") && ::std::is_x86_feature_detected!("adx")
                }
                #[cfg(not(target_arch = "x86_64"))]
                {
                    false
                }
            }

            $(
                #[test]
                fn $name() {
                    type F = $F;
                    const B: usize = <F>::MODULUS_LE_BYTES.len();
                    let name = stringify!($name);
                    let bits = <F>::NUM_BITS as usize;
                    let limbs = bits.div_ceil($w);
                    let special = $crate::SPECIAL_FORMS.contains(&name)
                        || $crate::ARMV7_PORTABLE.contains(&name);
                    let expected = $crate::expected_backend($w, limbs, x86_adx(), special);
                    assert_eq!(<F>::backend(), expected, "{name}: the backend in use");

                    // Edge values, then pseudo-random encodings below p.
                    let mut xs: ::std::vec::Vec<F> =
                        ::std::vec![F::ZERO, F::ONE, F::from_u64(2), -F::ONE, -F::from_u64(2)];
                    let mut state = 0x5eed_u64 ^ bits as u64;
                    while xs.len() < 40 {
                        let mut bytes = [0u8; B];
                        for b in bytes.iter_mut() {
                            *b = next(&mut state) as u8;
                        }
                        bytes[B - 1] &= (1u16 << (bits - 8 * (B - 1))).wrapping_sub(1) as u8;
                        if let Some(x) = Option::<F>::from(F::from_le_bytes(&bytes)) {
                            xs.push(x);
                        }
                    }
                    let portable = if $w == 64 { "portable64" } else { "portable32" };
                    let mut compared = 0;
                    for backend in $crate::BACKENDS {
                        for (i, x) in xs.iter().enumerate() {
                            let y = &xs[(i * 7 + 3) % xs.len()];
                            let (Some(m), Some(s)) =
                                (x.__mul_with_backend(y, backend), x.__square_with_backend(backend))
                            else {
                                continue;
                            };
                            let pm = x.__mul_with_backend(y, portable).expect("portable runs");
                            let ps = x.__square_with_backend(portable).expect("portable runs");
                            assert_eq!(m, pm, "{name}: {backend} mul of {x:?} and {y:?}");
                            assert_eq!(s, ps, "{name}: {backend} square of {x:?}");
                            compared += 1;
                        }
                    }
                    assert!(compared >= xs.len(), "{name}: the portable backend ran");
                    assert!(
                        $crate::BACKENDS.contains(&<F>::backend())
                            && xs[1].__square_with_backend(<F>::backend()).is_some(),
                        "{name}: the backend in use was compared with the portable code"
                    );

                    // Byte order: the value 0x0102030405060708 (reduced when p is smaller).
                    if bits > 64 {
                        let x = F::from_u64(0x0102_0304_0506_0708);
                        let le = x.to_le_bytes();
                        let be = x.to_be_bytes();
                        assert_eq!(le[..8], [8, 7, 6, 5, 4, 3, 2, 1], "{name}: to_le_bytes");
                        assert!(le[8..].iter().all(|b| *b == 0), "{name}: to_le_bytes");
                        assert_eq!(be[B - 8..], [1, 2, 3, 4, 5, 6, 7, 8], "{name}: to_be_bytes");
                        assert!(be[..B - 8].iter().all(|b| *b == 0), "{name}: to_be_bytes");
                        let back = Option::<F>::from(F::from_be_bytes(&be)).expect("below p");
                        assert_eq!(back, x, "{name}: from_be_bytes");
                    }
                }
            )*
        }
    };
}

/// Binary fields GF(2^m) at 64-bit words for random irreducible polynomials (trinomials,
/// pentanomials, dense), generated by `build.rs` (`build_binary.rs`) with `--target auto`.
#[allow(clippy::all, unused)]
#[rustfmt::skip]
pub mod binary_64 {
    include!(concat!(env!("OUT_DIR"), "/binary_64.rs"));
}

/// Binary fields GF(2^m) at 32-bit words, the same shapes as [`binary_64`].
#[allow(clippy::all, unused)]
#[rustfmt::skip]
pub mod binary_32 {
    include!(concat!(env!("OUT_DIR"), "/binary_32.rs"));
}

/// Every backend name a generated binary field's `backend()` can return.
pub const BINARY_BACKENDS: [&str; 5] = [
    "x86_64-clmul",
    "aarch64-pmull",
    "portable64",
    "portable32",
    "portable32-holes",
];

/// The backend a binary field generated with `--target auto` at `word_bits`-bit words must use
/// on the architecture this crate is built for. `x86_clmul` says whether an x86-64 CPU has
/// PCLMULQDQ (ignored elsewhere). On aarch64 the answer is always `aarch64-pmull` for 64-bit
/// words: `scripts/cross.sh` builds that target with `-C target-feature=+aes`, and a build
/// without it fails here rather than testing only the portable product. At 32-bit words the
/// holes product (`portable32-holes`) only where the 32×32 → 64-bit multiply is constant time
/// (x86, x86-64, AArch64, wasm32; ARMv7-A and Cortex-M4/M7 by their `target_feature`s, which
/// stable rustc does not set), the comb (`portable32`) elsewhere: on powerpc and on armv7 built
/// by stable rustc.
pub fn expected_binary_backend(word_bits: u32, x86_clmul: bool) -> &'static str {
    if word_bits == 32 {
        let ct_mul = cfg!(any(
            target_arch = "x86",
            target_arch = "x86_64",
            target_arch = "aarch64",
            target_arch = "wasm32"
        )) || cfg!(all(
            target_arch = "arm",
            target_feature = "v7",
            not(target_feature = "mclass")
        )) || cfg!(all(
            target_arch = "arm",
            target_feature = "mclass",
            target_feature = "dsp"
        ));
        if ct_mul {
            "portable32-holes"
        } else {
            "portable32"
        }
    } else if cfg!(target_arch = "x86_64") && x86_clmul {
        "x86_64-clmul"
    } else if cfg!(target_arch = "aarch64") {
        "aarch64-pmull"
    } else {
        "portable64"
    }
}

/// Expands to one `#[test]` per binary field `name: Type => word_bits`: the backend in use is
/// [`expected_binary_backend`] (so the oracle suite ran through it), and every backend in
/// [`BINARY_BACKENDS`] this build can run gives the portable product's `mul` and `square` on
/// pseudo-random elements.
#[macro_export]
macro_rules! binary_backend_tests {
    ($($name:ident: $F:ty => $w:literal,)*) => {
        /// SplitMix64.
        fn next(state: &mut u64) -> u64 {
            *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = *state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        fn x86_clmul() -> bool {
            #[cfg(target_arch = "x86_64")]
            {
                ::std::is_x86_feature_detected!("pclmulqdq")
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                false
            }
        }

        $(
            #[test]
            fn $name() {
                type F = $F;
                const B: usize = (<F>::DEGREE as usize).div_ceil(8);
                let name = stringify!($name);
                let expected = $crate::expected_binary_backend($w, x86_clmul());
                assert_eq!(<F>::backend(), expected, "{name}: the backend in use");
                let top = (1u16 << (<F>::DEGREE as usize - 8 * (B - 1))).wrapping_sub(1) as u8;
                let mut state = 0x5eed_u64 ^ u64::from(<F>::DEGREE);
                let xs: ::std::vec::Vec<F> = (0..16)
                    .map(|_| {
                        let mut bytes = [0u8; B];
                        for b in bytes.iter_mut() {
                            *b = next(&mut state) as u8;
                        }
                        bytes[B - 1] &= top;
                        Option::<F>::from(F::from_le_bytes(&bytes)).expect("below x^m")
                    })
                    .collect();
                let portable = if $w == 64 { "portable64" } else { "portable32" };
                let mut ran = ::std::vec::Vec::new();
                for backend in $crate::BINARY_BACKENDS {
                    if xs[0].__mul_with_backend(&xs[0], backend).is_none() {
                        continue;
                    }
                    ran.push(backend);
                    for (i, x) in xs.iter().enumerate() {
                        let y = &xs[(i * 7 + 3) % xs.len()];
                        assert_eq!(
                            x.__mul_with_backend(y, backend),
                            x.__mul_with_backend(y, portable),
                            "{name}: {backend} mul of {x:?} and {y:?}"
                        );
                        assert_eq!(
                            x.__square_with_backend(backend),
                            x.__square_with_backend(portable),
                            "{name}: {backend} square of {x:?}"
                        );
                    }
                }
                assert!(ran.contains(&expected), "{name}: {expected} was compared, ran {ran:?}");
            }
        )*
    };
}
