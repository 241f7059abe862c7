//! libFuzzer entry point of the `generator_frontend` target (see the crate README).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fieldgen_fuzz::frontend::run(data));
