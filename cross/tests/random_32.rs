//! The oracle suite and the backend checks on the random-prime fields of 32-bit limbs that
//! `build.rs` generated (see there for the limb counts and shapes).

include!(concat!(env!("OUT_DIR"), "/random_32_tests.rs"));
