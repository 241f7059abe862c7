//! What a user of `prime_field!` sees: every refused input is a compile error at the offending
//! token with a message that says how to fix it (`ui/*.rs` and the expected `ui/*.stderr`), and
//! the accepted forms compile and run (`pass/*.rs`).
//!
//! After changing a message on purpose, rewrite the expected files with
//! `TRYBUILD=overwrite cargo test -p fieldgen-macros --test trybuild` and review the diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/pass/*.rs");
}
