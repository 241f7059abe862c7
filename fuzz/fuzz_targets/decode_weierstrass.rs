//! libFuzzer entry point of the `decode_weierstrass` target (see the crate README).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fieldgen_fuzz::decoders::weierstrass(data));
