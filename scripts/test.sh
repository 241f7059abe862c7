#!/usr/bin/env bash
# Runs every check and test of the workspace on a fresh machine: formatting, the committed
# generated/ tree against the generator, and all tests. Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step line carries the seconds since the script started, so a log shows where time goes.
step() { printf '\n==> [%d s] %s\n' "$SECONDS" "$*"; }

step "toolchain"
command -v cargo >/dev/null || { echo "error: cargo not found: install Rust with rustup first" >&2; exit 1; }
rustup component add rustfmt clippy >/dev/null 2>&1 || true
cargo --version

step "system packages (pkg-config, libssl-dev, libgmp-dev: the RSA differential tests and benches)"
# curves/rsa's dev-dependency `openssl` links the system OpenSSL through pkg-config, and `rug`
# (GMP, the evaluation bench) links the system libgmp. Installs what is missing (apt needs root
# or sudo).
missing=()
command -v pkg-config >/dev/null || missing+=(pkg-config)
pkg-config --exists openssl 2>/dev/null || missing+=(libssl-dev)
dpkg -s libgmp-dev >/dev/null 2>&1 || ls /usr/include/*/gmp.h /usr/include/gmp.h >/dev/null 2>&1 || missing+=(libgmp-dev)
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" ||
    echo "error: apt-get install ${missing[*]} failed" >&2
fi

step "formatting (cargo fmt --check)"
cargo fmt --all -- --check

step "generated/ is reproducible (regen --check)"
cargo run -q -p generator -- regen --check

step "publishable crates package (cargo package --no-verify)"
# The crates meant for users: fieldgen-field, fieldgen-generator, fieldgen-macros,
# fieldgen-generated, fieldgen-rsa and the curve crates. Packaging them in one invocation
# resolves each one's path dependencies against the others' new packages instead of crates.io,
# where they are not yet published. Every `publish = false` package is excluded by name (one
# left out of this list fails the step). --no-verify: the tarballs are not built again (the
# generated crates are large; the test step below builds them); --allow-dirty: a working tree
# with uncommitted edits can run this script.
cargo package --workspace --no-verify --allow-dirty \
    --exclude generator --exclude fieldgen-tests --exclude fieldgen-benches \
    --exclude fieldgen-cross --exclude fieldgen-macros-example --exclude fieldgen-ctcheck \
    --exclude fieldgen-fuzz --exclude fieldgen-test-support

step "tests (cargo test --workspace; peers stay behind the benches package's feature)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --workspace --exclude fieldgen-cross --features fieldgen-generated/ff,fieldgen-bn/zkcrypto --no-fail-fast 2>&1 | tee "$log"
grep -aE '^test result:' "$log" | awk '{p+=$4; f+=$6} END {printf "\nall crates: %d passed, %d failed\n", p, f}'

step "lints: clippy and rustdoc with warnings denied (every target, the generated trees included)"
# Libraries, binaries, tests, benches and examples, with the workspace lints of Cargo.toml
# (missing docs, an unsafe block without a SAFETY comment, a cast that may truncate) on top of
# clippy's defaults; generated code is linted like hand-written code (each generated module
# allows its intended narrowing casts once, with the reason, where its crate declares it).
# One invocation with the test step's features (the BN crate's zkcrypto traits, `ff` on the
# generated fields), so the generated crate is checked once.
cargo clippy --workspace --exclude fieldgen-cross --all-targets \
    --features fieldgen-generated/ff,fieldgen-bn/zkcrypto -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -p fieldgen-field -p fieldgen-generator \
    -p fieldgen-macros -p fieldgen-generated -p fieldgen-rsa -p fieldgen-curve25519 \
    -p fieldgen-rsa-schemes -p fieldgen-weierstrass -p fieldgen-bn -p fieldgen-binary-curves

step "backends agree in an optimised build for this CPU (release, -C target-cpu=native)"
# Straight-line generated code is where optimiser bugs show: LLVM's SLP vectorizer once
# miscompiled a portable product at opt-level 3 with AVX-512 enabled, which the unoptimised
# suites could not see. Every backend of every prime and binary preset is compared with the
# portable code here.
CARGO_TARGET_DIR=target/release-native RUSTFLAGS='-C target-cpu=native' \
    cargo test --release -p fieldgen-generated --test binary_backends --test backends

step "constant time on the compiled code (valgrind memcheck, secrets marked undefined)"
# fieldgen-ctcheck runs every constant-time field operation (through the dispatch, and each
# backend this CPU runs under valgrind forced by name), the RSA modular exponentiation,
# X25519, Ed25519 signing, and the curve crates' secret paths (P-224/P-256/P-384/secp256k1
# and every SEC 2 binary curve: scalar multiplication, key derivation, ECDH, ECDSA signing;
# the four BN curves' G1/G2 multiplication and pairing; the RSA schemes' key import and
# blinded CRT private operation) with their secrets marked undefined (ctgrind); a
# secret-dependent branch, address or division is reported and fails the step. `planted`
# checks that deliberately leaky functions are reported, so the check can fail. `--all` adds
# the eight binary and three BN curves the default run leaves out (about 10 s under valgrind).
# It runs twice: on the portable release build (what a crate built for generic x86-64 runs:
# the run-time dispatch, which under valgrind's CPUID sees no ADX, and every backend forced
# by name), and on a release build for this CPU (-C target-cpu=native), where the BMI2/ADX
# kernels are compiled in and chosen without a CPUID test and LLVM may use every instruction
# the CPU has, except two sets valgrind 3.19 cannot decode: AVX and everything built on it
# (LLVM emits VEX forms such as the register-to-register VMOVQ that valgrind rejects, and
# AVX-512), AMD's SSE4a (LLVM picks EXTRQ on Zen) and the SHA extensions (the sha2 crate's
# SHA256MSG1 path). The IFMA kernels are checked nowhere.
command -v valgrind >/dev/null || {
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq valgrind
}
cargo build --release -q -p fieldgen-ctcheck
valgrind --quiet --error-exitcode=0 target/release/fieldgen-ctcheck planted
valgrind --quiet --error-exitcode=0 target/release/fieldgen-ctcheck --all > /dev/null
CARGO_TARGET_DIR=target/ctcheck-native RUSTFLAGS='-C target-cpu=native -C target-feature=-avx,-sse4a,-sha' \
    cargo build --release -q -p fieldgen-ctcheck
valgrind --quiet --error-exitcode=0 target/ctcheck-native/release/fieldgen-ctcheck planted
valgrind --quiet --error-exitcode=0 target/ctcheck-native/release/fieldgen-ctcheck --all > /dev/null

step "fuzzing: libFuzzer on stable, 5 s per target from the committed corpora"
# The corpora themselves were replayed by the test step (fuzz/tests/corpus.rs). This builds the
# eleven targets with SanitizerCoverage (stable rustc's sancov pass; libfuzzer-sys compiles
# libFuzzer with the C++ compiler) and fuzzes each for 5 s: a finding fails the step. The
# long runs and their counts are in fuzz/README.md. Measured 2026-12-02 on a shared machine
# (load average ~15): the instrumented build from scratch took 8.2 min of CPU (user), so
# about 4-5 min of wall time on 2 idle cores, and the eleven runs about 1 min (11 x 5 s plus
# start-up); with the dependencies built, `fuzz/run.sh 10` took 2 min wall at that load.
command -v c++ >/dev/null || {
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq g++
}
bash fuzz/run.sh 5

step "minimum supported Rust version: the publishable crates type-check with Rust 1.89"
# rust-version in Cargo.toml is 1.89; this type-checks what is published with exactly that
# compiler (host target only, `cargo check`: the language and library surface is what an MSRV
# can break), in a target directory of its own.
rustup toolchain install 1.89 --profile minimal >/dev/null
# `--cfg fieldgen_target_limbs_only`: the generated crate's 32-bit prime fields are the same
# language surface as its 64-bit ones (the cross runs compile them with the current compiler),
# so only the host's limb size is type-checked here, at half the cost.
CARGO_TARGET_DIR=target/msrv RUSTFLAGS="--cfg fieldgen_target_limbs_only" cargo +1.89 check -p fieldgen-field -p fieldgen-generator \
    -p fieldgen-macros -p fieldgen-generated -p fieldgen-rsa -p fieldgen-curve25519 -p fieldgen-rsa-schemes \
    -p fieldgen-weierstrass -p fieldgen-bn -p fieldgen-binary-curves

step "a user's crate outside the workspace on the packaged crates (host tests, no_std thumbv7em check)"
bash scripts/downstream.sh

step "cross targets: aarch64, armv7, powerpc (big-endian), wasm32-wasip1 under emulation; no_std thumbv7em"
bash scripts/cross.sh

step "done"
