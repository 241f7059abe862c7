//! libFuzzer entry point of the `diff_p256` target (see the crate README).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fieldgen_fuzz::differential::p256(data));
