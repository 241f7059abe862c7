#!/usr/bin/env bash
# A user's crate outside the workspace, built on the packaged crates (the `.crate` files that
# `cargo package` wrote to target/package/, unpacked and patched in for crates.io), as a user
# who depends on fieldgen would build it:
# - a prime field from `fieldgen_macros::prime_field!` with `ff = true; zeroize = true;`, used
#   through `ff::PrimeField` and `zeroize::Zeroize` and checked against num-bigint;
# - an Ed25519 key bounded by `signature::Signer` / `signature::Verifier` from `signature` 3;
# - the same crate checked `no_std` for thumbv7em-none-eabihf (`cargo check`: the packaged
#   crates resolve and compile without std; scripts/cross.sh builds the workspace crates
#   themselves for that target).
# Run after `cargo package` (scripts/test.sh does both).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
pkg=$root/target/package
crates=(fieldgen-field fieldgen-generator fieldgen-macros fieldgen-generated fieldgen-curve25519)
for c in "${crates[@]}"; do
  [ -f "$pkg/$c-0.1.0.crate" ] || { echo "error: $pkg/$c-0.1.0.crate missing: run cargo package first" >&2; exit 1; }
done

work=$root/target/downstream
rm -rf "$work"
mkdir -p "$work/deps" "$work/user/src"
for c in "${crates[@]}"; do
  tar -xzf "$pkg/$c-0.1.0.crate" -C "$work/deps"
done

{
  cat <<'EOF'
[package]
name = "fieldgen-user"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[features]
default = ["std"]
std = []

[dependencies]
fieldgen-macros = "0.1.0"
fieldgen-field = { version = "0.1.0", default-features = false, features = ["ff", "zeroize"] }
fieldgen-curve25519 = { version = "0.1.0", default-features = false }
ff = { version = "0.14", default-features = false }
zeroize = { version = "1", default-features = false }
signature = { version = "3", default-features = false }
ed25519 = { version = "3", default-features = false }

[dev-dependencies]
num-bigint = "0.4"

[patch.crates-io]
EOF
  for c in "${crates[@]}"; do
    echo "$c = { path = \"$work/deps/$c-0.1.0\" }"
  done
} >"$work/user/Cargo.toml"

cat >"$work/user/src/lib.rs" <<'EOF'
//! A downstream crate: a macro field with the ecosystem traits, and a curve key behind the
//! `signature` traits.
#![cfg_attr(not(feature = "std"), no_std)]

fieldgen_macros::prime_field! {
    /// The BN254 scalar field.
    pub struct Fr;
    modulus = "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";
    ff = true;
    zeroize = true;
}

/// Signs `msg` with any `signature` 3 signer and checks it with the matching verifier.
pub fn sign_and_verify<S, V>(signer: &S, verifier: &V, msg: &[u8]) -> bool
where
    S: signature::Signer<ed25519::Signature>,
    V: signature::Verifier<ed25519::Signature>,
{
    let sig = signer.sign(msg);
    verifier.verify(msg, &sig).is_ok()
}

/// x^(p−2)·x through `ff::Field` (one when x ≠ 0), and a zeroized copy.
pub fn inverse_check(x: Fr) -> (Fr, Fr) {
    let prod = x * Option::<Fr>::from(ff::Field::invert(&x)).unwrap_or(<Fr as ff::Field>::ZERO);
    let mut y = x;
    zeroize::Zeroize::zeroize(&mut y);
    (prod, y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ff::{Field, PrimeField};
    type F = Fr;
    use num_bigint::BigUint;

    #[test]
    fn macro_field_through_ff_matches_num_bigint() {
        let p = BigUint::parse_bytes(
            b"30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001",
            16,
        )
        .unwrap();
        let a = Field::square(&Field::square(&F::from(0x1234_5678_9abc_def0u64)));
        let b = Field::double(&F::from(0xfedc_ba98_7654_3210u64));
        let to_big = |x: Fr| BigUint::from_bytes_le(x.to_repr().as_ref());
        let want = (to_big(a) * to_big(b)) % &p;
        assert_eq!(to_big(a * b), want);
        let (prod, zeroed) = inverse_check(a);
        assert_eq!(prod, <F as Field>::ONE);
        assert_eq!(zeroed, <F as Field>::ZERO);
        assert_eq!(<F as PrimeField>::NUM_BITS, 254);
    }

    #[test]
    fn ed25519_key_meets_the_signature_3_bounds() {
        // RFC 8032 §7.1 test 1 secret key.
        let sk: [u8; 32] = [
            0x9d, 0x61, 0xb1, 0x9d, 0xef, 0xfd, 0x5a, 0x60, 0xba, 0x84, 0x4a, 0xf4, 0x92, 0xec,
            0x2c, 0xc4, 0x44, 0x49, 0xc5, 0x69, 0x7b, 0x32, 0x69, 0x19, 0x70, 0x3b, 0xac, 0x03,
            0x1c, 0xae, 0x7f, 0x60,
        ];
        let key = fieldgen_curve25519::ed25519::SigningKey::from_bytes(&sk);
        let vk = key.verifying_key();
        assert!(sign_and_verify(&key, &vk, b"downstream"));
        // RFC 8032 §7.1 test 1: the signature of the empty message.
        let sig = signature::Signer::<ed25519::Signature>::sign(&key, b"");
        assert_eq!(sig.to_bytes()[..4], [0xe5, 0x56, 0x43, 0x00]);
    }
}
EOF

cd "$work/user"
echo "downstream crate: $work/user (packaged crates patched in from target/package)"
RUSTFLAGS="-D warnings" cargo test --quiet
rustup target list --installed | grep -qx thumbv7em-none-eabihf || rustup target add thumbv7em-none-eabihf
RUSTFLAGS="-D warnings" cargo check --quiet --target thumbv7em-none-eabihf --no-default-features
echo "downstream crate: tests pass on the host and it checks no_std for thumbv7em-none-eabihf"
