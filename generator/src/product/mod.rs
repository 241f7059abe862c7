//! The products, each a module with one function per stage (run in order by
//! [`crate::pipeline`]): [`prime`] fields, [`binary`] fields GF(2^m), [`rsa`] contexts for a
//! run-time modulus, IFMA [`lanes`] fields, and the [`bn`] curve constants derived from
//! (z, b, ξ). They are re-exported at the crate root (`generator::prime`, ...).

pub mod binary;
pub mod bn;
pub mod lanes;
pub mod prime;
pub mod rsa;
