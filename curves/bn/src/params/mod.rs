//! The curves' constants, one file per curve, written by `cargo run -p generator -- regen`
//! from (z, b, ξ_a) (see generator/src/product/bn/) and checked byte for byte by `regen --check`.

#[rustfmt::skip]
mod bn254;
#[rustfmt::skip]
mod bn381;
#[rustfmt::skip]
mod bn462;
#[rustfmt::skip]
mod fp254bnb;

pub use bn254::Bn254;
pub use bn381::Bn381;
pub use bn462::Bn462;
pub use fp254bnb::Fp254Bnb;
