//! libFuzzer entry point of the `field_prime` target (see the crate README).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fieldgen_fuzz::field::prime(data));
