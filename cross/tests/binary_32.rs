//! Binary fields GF(2^m) at 32-bit words on the target under test: the oracle suite
//! (`fieldgen_tests::binary_field_suite!`, a BigUint shift/xor reference) on the committed
//! presets and on the random irreducible polynomials `build.rs` drew (trinomials, pentanomials,
//! dense), plus the backend in use. The preset polynomials are written out here from SEC 2
//! (Certicom Research; FIPS 186-4 D.1.3 for the 163/233/283/409/571-bit ones) and
//! `generated/manifest.toml`, as in `generated/tests/binary.rs`, not taken from the generator.

fieldgen_tests::binary_field_suite!(
    sect163_32,
    fieldgen_generated::sect163_32::F163,
    "x^163+x^7+x^6+x^3+1",
    32,
    half_trace
);
fieldgen_tests::binary_field_suite!(
    sect193_32,
    fieldgen_generated::sect193_32::F193,
    "x^193+x^15+1",
    32,
    half_trace
);
fieldgen_tests::binary_field_suite!(
    sect233_32,
    fieldgen_generated::sect233_32::F233,
    "x^233+x^74+1",
    32,
    half_trace
);
fieldgen_tests::binary_field_suite!(
    sect239_32,
    fieldgen_generated::sect239_32::F239,
    "x^239+x^158+1",
    32,
    half_trace
);
fieldgen_tests::binary_field_suite!(
    sect283_32,
    fieldgen_generated::sect283_32::F283,
    "x^283+x^12+x^7+x^5+1",
    32,
    half_trace
);
fieldgen_tests::binary_field_suite!(
    sect409_32,
    fieldgen_generated::sect409_32::F409,
    "x^409+x^87+1",
    32,
    half_trace
);
fieldgen_tests::binary_field_suite!(
    sect571_32,
    fieldgen_generated::sect571_32::F571,
    "x^571+x^10+x^5+x^2+1",
    32,
    half_trace
);
fieldgen_tests::binary_field_suite!(
    gf2_155_32,
    fieldgen_generated::gf2_155_32::F155,
    "x^155+x^62+1",
    32,
    half_trace
);
fieldgen_tests::binary_field_suite!(
    gf2_128_dense_32,
    fieldgen_generated::gf2_128_dense_32::F128,
    "x^128+x^122+x^120+x^118+x^113+x^111+x^110+x^109+x^108+x^107+x^105+x^104+x^101+x^100+x^99+x^98+x^97+x^96+x^94+x^92+x^91+x^90+x^87+x^85+x^84+x^81+x^80+x^74+x^73+x^71+x^70+x^69+x^68+x^66+x^61+x^60+x^59+x^58+x^57+x^53+x^49+x^46+x^44+x^43+x^41+x^40+x^37+x^36+x^35+x^34+x^30+x^28+x^27+x^26+x^24+x^23+x^21+x^20+x^19+x^17+x^16+x^15+x^14+x^11+x^10+x^9+x^8+x^6+x^5+x^4+x^3+x^2+1",
    32,
    no_half_trace
);
/// The default portable product per target, written out per architecture: PowerPC (the
/// stand-in for cores whose multiplier finishes early) must run the multiplier-free comb, wasm32
/// and the 64-bit hosts the holes product; ARMv7 the holes product only when the build sets
/// the (unstable) `v7` target feature, so the comb under stable rustc.
#[test]
fn default_portable32_product() {
    let want = if cfg!(target_arch = "powerpc") {
        "portable32"
    } else if cfg!(any(
        target_arch = "wasm32",
        target_arch = "x86_64",
        target_arch = "aarch64"
    )) {
        "portable32-holes"
    } else if cfg!(target_arch = "arm") {
        if cfg!(all(target_feature = "v7", not(target_feature = "mclass"))) {
            "portable32-holes"
        } else {
            "portable32"
        }
    } else {
        "portable32"
    };
    assert_eq!(fieldgen_generated::sect163_32::F163::backend(), want);
    assert_eq!(fieldgen_generated::sect571_32::F571::backend(), want);
}

mod preset_backends {
    fieldgen_cross::binary_backend_tests! {
    sect163_32: fieldgen_generated::sect163_32::F163 => 32,
    sect283_32: fieldgen_generated::sect283_32::F283 => 32,
    sect571_32: fieldgen_generated::sect571_32::F571 => 32,
    gf2_128_dense_32: fieldgen_generated::gf2_128_dense_32::F128 => 32,
    }
}

include!(concat!(env!("OUT_DIR"), "/binary_32_tests.rs"));
