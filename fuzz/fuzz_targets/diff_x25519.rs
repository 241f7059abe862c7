//! libFuzzer entry point of the `diff_x25519` target (see the crate README).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fieldgen_fuzz::differential::x25519(data));
