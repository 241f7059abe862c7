//! libFuzzer entry point of the `diff_ed25519` target (see the crate README).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fieldgen_fuzz::differential::ed25519(data));
