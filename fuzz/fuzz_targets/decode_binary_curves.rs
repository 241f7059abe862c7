//! libFuzzer entry point of the `decode_binary_curves` target (see the crate README).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fieldgen_fuzz::decoders::binary_curves(data));
