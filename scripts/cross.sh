#!/usr/bin/env bash
# Cross-target tests: the oracle suite on the presets and on random primes per limb count
# (crate `cross/`), cross-compiled for aarch64, armv7, powerpc (32-bit big-endian, the stand-in
# for a SPARC-like machine) and wasm32-wasip1 and run under qemu-user and Node.js's WASI, plus a
# no_std build of the generated crates, of fieldgen-curve25519 (default features off, once
# without an allocator and once with `alloc`) and of the other curve crates (fieldgen-weierstrass,
# fieldgen-rsa-schemes, fieldgen-bn, fieldgen-binary-curves; default features off) for
# thumbv7em-none-eabihf (Cortex-M4F/M7). On armv7 (32-bit limbs) and powerpc (32-bit limbs,
# big-endian) the curve crates' vector-file tests run too, and fieldgen-bn's on aarch64 and
# wasm32-wasip1 as well (`curve_vectors` and `curve_targets` below).
#
# Installs what is missing (rustup targets; apt packages qemu-user, the gcc cross linkers and
# nodejs — apt needs root or sudo). Every target ends in the summary as ran or FAILED, and the
# script exits non-zero if any target could not be set up, built or run: no target is skipped
# silently.
#
# Environment: FIELDGEN_CROSS_CASES (random cases per property under emulation, default 8;
# must be at least 1), FIELDGEN_CROSS_TARGETS (a space-separated subset of the targets below),
# FIELDGEN_CROSS_FULL=1 (every vector file of the curve crates, not CI's subset).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# target | what runs it | test binaries of crate `cross`. powerpc runs the 32-bit prime presets
# (its curve crates' limb size; the 64-bit prime code is the same u64/u128 code as on x86-64,
# and big-endian encodings of 64-bit words are checked by binary_64 there), not the random
# primes: their limb arithmetic is the same Rust as on armv7 and wasm32, and byte order, all
# that big-endian adds, is checked on the presets (crate `cross` compiles no random-prime
# fields there).
plan=(
  "aarch64-unknown-linux-gnu|qemu-aarch64|presets_64 random_64"
  "armv7-unknown-linux-gnueabihf|qemu-arm|presets_32 random_32"
  "powerpc-unknown-linux-gnu|qemu-ppc|presets_32"
  "wasm32-wasip1|node|presets_32 random_32"
)
# Binary fields GF(2^m): test binaries binary_64 / binary_32 of crate `cross` (presets and random
# irreducible polynomials), added to each target's list. aarch64 runs the PMULL kernel (built with
# the `aes` target feature, on qemu's `max` CPU; the tests assert that backend), powerpc checks
# the byte encodings big-endian, armv7 and wasm32 run the portable 32-bit product.
declare -A binary_tests=(
  [aarch64-unknown-linux-gnu]="binary_64"
  [armv7-unknown-linux-gnueabihf]="binary_32"
  [powerpc-unknown-linux-gnu]="binary_32 binary_64"
  [wasm32-wasip1]="binary_32"
)
# The curve crates' vector files (RFC 7748/8032, Wycheproof, NIST CAVP, RFC 6979, EIP-197 and
# mcl's BN values, RSA Labs) on 32-bit limbs (armv7) and big-endian 32-bit limbs (powerpc), and
# the BN crate's also on aarch64 and wasm32 (Node), the targets mcl runs on besides x86-64:
# crate | its test binaries that read only vector files (no peer crate, no system library).
# By default (CI) the smaller file of each crate runs — RFC 7748/8032, RFC 6979, EIP-197/mcl,
# RSA Labs: scalar multiplication, signing, verification, encodings and the RSA private
# operation on the target's limbs and byte order, at a fraction of the emulated time;
# FIELDGEN_CROSS_FULL=1 adds Wycheproof and CAVP (ECDH, the invalid-input cases; several more
# minutes per target on 2 cores).
if [[ ${FIELDGEN_CROSS_FULL:-0} == 1 ]]; then
  curve_vectors=(
    "fieldgen-curve25519|x25519_vectors ed25519_vectors"
    "fieldgen-weierstrass|wycheproof cavp rfc6979"
    "fieldgen-binary-curves|wycheproof cavp rfc6979"
    "fieldgen-bn|vectors"
    "fieldgen-rsa-schemes|wycheproof nist_cavp rsa_labs_vectors"
  )
else
  curve_vectors=(
    "fieldgen-curve25519|x25519_vectors ed25519_vectors"
    "fieldgen-weierstrass|rfc6979"
    "fieldgen-binary-curves|rfc6979"
    "fieldgen-bn|vectors"
    "fieldgen-rsa-schemes|rsa_labs_vectors"
  )
fi
# target -> the crates of curve_vectors that run there ("all" for every one). powerpc leaves
# out the RSA schemes: their vector files take minutes under qemu-ppc (OAEP decryption with
# large keys), and armv7 runs them on the same 32-bit contexts.
declare -A curve_targets=(
  [armv7-unknown-linux-gnueabihf]=all
  [powerpc-unknown-linux-gnu]="fieldgen-curve25519 fieldgen-weierstrass fieldgen-binary-curves fieldgen-bn"
  [aarch64-unknown-linux-gnu]=fieldgen-bn
  [wasm32-wasip1]=fieldgen-bn
)
# Whether crate $2 of curve_vectors runs on target $1.
curve_runs_on() {
  local crates=${curve_targets[$1]:-}
  [[ $crates == all || " $crates " == *" $2 "* ]]
}
nostd_target=thumbv7em-none-eabihf
selected=${FIELDGEN_CROSS_TARGETS:-"aarch64-unknown-linux-gnu armv7-unknown-linux-gnueabihf powerpc-unknown-linux-gnu wasm32-wasip1 $nostd_target"}
cases=${FIELDGEN_CROSS_CASES:-8}
if ! [[ $cases =~ ^[0-9]+$ ]] || ((cases < 1)); then
  echo "error: FIELDGEN_CROSS_CASES=$cases: use a number of cases of at least 1" >&2
  exit 2
fi

declare -A result
order=()
record() { result[$1]=$2; order+=("$1"); }
wanted() { [[ " $selected " == *" $1 "* ]]; }

step() { printf '\n==> [%d s] %s\n' "$SECONDS" "$*"; }

# ---- setup -------------------------------------------------------------------------------
step "cross setup: rustup targets"
for t in aarch64-unknown-linux-gnu armv7-unknown-linux-gnueabihf powerpc-unknown-linux-gnu wasm32-wasip1 $nostd_target; do
  wanted "$t" || continue
  if ! rustup target list --installed | grep -qx "$t"; then
    rustup target add "$t" || echo "error: rustup target add $t failed" >&2
  fi
done
installed_targets=$(rustup target list --installed)

step "cross setup: emulators, linkers, node"
# command -> Debian package
declare -A pkg_of=(
  [qemu-aarch64]=qemu-user [qemu-arm]=qemu-user [qemu-ppc]=qemu-user
  [aarch64-linux-gnu-gcc]=gcc-aarch64-linux-gnu [arm-linux-gnueabihf-gcc]=gcc-arm-linux-gnueabihf
  [powerpc-linux-gnu-gcc]=gcc-powerpc-linux-gnu [node]=nodejs
)
missing=()
for cmd in "${!pkg_of[@]}"; do
  command -v "$cmd" >/dev/null || missing+=("${pkg_of[$cmd]}")
done
if ((${#missing[@]})); then
  pkgs=$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')
  echo "installing: $pkgs"
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  # shellcheck disable=SC2086
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $pkgs ||
    echo "error: apt-get install $pkgs failed" >&2
fi
for cmd in qemu-aarch64 qemu-arm qemu-ppc node; do
  command -v "$cmd" >/dev/null && echo "$cmd: $(command -v "$cmd")"
done

node_flags=""
if command -v node >/dev/null; then
  node_major=$(node -p 'process.versions.node.split(".")[0]')
  # node:wasi needs this flag before Node.js 20.
  ((node_major < 20)) && node_flags="--experimental-wasi-unstable-preview1"
fi

export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"
export CARGO_TARGET_ARMV7_UNKNOWN_LINUX_GNUEABIHF_LINKER=arm-linux-gnueabihf-gcc
export CARGO_TARGET_ARMV7_UNKNOWN_LINUX_GNUEABIHF_RUNNER="qemu-arm -L /usr/arm-linux-gnueabihf"
export CARGO_TARGET_POWERPC_UNKNOWN_LINUX_GNU_LINKER=powerpc-linux-gnu-gcc
export CARGO_TARGET_POWERPC_UNKNOWN_LINUX_GNU_RUNNER="qemu-ppc -L /usr/powerpc-linux-gnu"
export CARGO_TARGET_WASM32_WASIP1_RUNNER="node --no-warnings $node_flags $root/scripts/wasi-run.mjs"
# Under emulation: fewer random cases (never zero), no debug info (it dominates the link and
# the compile of the large test binaries).
export FIELDGEN_CASES=$cases
export CARGO_PROFILE_TEST_DEBUG=0
export CARGO_PROFILE_DEV_DEBUG=0
# The emulated runs test each target's own limb size (the curve crates choose it by pointer
# width), so the generated crate and crate `cross`'s random-prime fields compile only that size
# there (`fieldgen_target_limbs_only`, declared in the workspace Cargo.toml): about half their
# compile per target.
# The no_std thumbv7em build below keeps both sizes, as every user build does.
limbs_cfg="--cfg fieldgen_target_limbs_only"
export CARGO_TARGET_ARMV7_UNKNOWN_LINUX_GNUEABIHF_RUSTFLAGS="$limbs_cfg"
export CARGO_TARGET_POWERPC_UNKNOWN_LINUX_GNU_RUSTFLAGS="$limbs_cfg"
export CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="$limbs_cfg"
# PMULL for the binary fields on aarch64 (see binary_tests above).
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUSTFLAGS="-C target-feature=+aes $limbs_cfg"
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -cpu max -L /usr/aarch64-linux-gnu"

linker_of() {
  case $1 in
    aarch64-*) echo aarch64-linux-gnu-gcc ;;
    armv7-*) echo arm-linux-gnueabihf-gcc ;;
    powerpc-*) echo powerpc-linux-gnu-gcc ;;
    *) echo "" ;;
  esac
}

# `cargo test ARGS... --no-fail-fast`, recorded under key $1 as ran (with the count of tests
# that passed, $2 naming what ran) or FAILED (also when no test ran); non-zero on failure.
run_recorded() {
  local key=$1 what=$2 start=$SECONDS log passed failed
  shift 2
  log=$(mktemp)
  if cargo test "$@" --no-fail-fast 2>&1 | tee "$log"; then
    passed=$(grep -aE '^test result:' "$log" | awk '{p+=$4} END {print p+0}')
    rm -f "$log"
    if ((passed == 0)); then
      record "$key" "FAILED: no test ran"
      return 1
    fi
    record "$key" "ran: $passed tests passed ($what) in $((SECONDS - start)) s"
  else
    failed=$(grep -aE '^test result:' "$log" | awk '{f+=$6} END {print f+0}')
    rm -f "$log"
    record "$key" "FAILED: build or $failed tests failed ($what)"
    return 1
  fi
}

# ---- runs --------------------------------------------------------------------------------
for entry in "${plan[@]}"; do
  IFS='|' read -r target runner tests <<<"$entry"
  tests="$tests ${binary_tests[$target]:-}"
  wanted "$target" || continue
  if ! grep -qx "$target" <<<"$installed_targets"; then
    record "$target" "FAILED: the rustup target is not installed"
    continue
  fi
  linker=$(linker_of "$target")
  if [ -n "$linker" ] && ! command -v "$linker" >/dev/null; then
    record "$target" "FAILED: linker $linker missing"
    continue
  fi
  if ! command -v "$runner" >/dev/null; then
    record "$target" "FAILED: $runner missing"
    continue
  fi
  args=(-p fieldgen-cross)
  for t in $tests; do args+=(--test "$t"); done
  what=$tests
  if [[ -n ${curve_targets[$target]:-} ]]; then
    # The curve crates' vector tests in the same cargo invocation: features unify, so the
    # generated crate is built once per target for all of them (an invocation per crate
    # rebuilt it each time). `--test NAME` picks that test in every listed package that has it.
    names=""
    for entry in "${curve_vectors[@]}"; do
      IFS='|' read -r crate ctests <<<"$entry"
      curve_runs_on "$target" "$crate" || continue
      args+=(-p "$crate")
      names="$names $crate"
      for t in $ctests; do [[ " ${args[*]} " == *" --test $t "* ]] || args+=(--test "$t"); done
    done
    what="$tests; the vector files of$names"
  fi
  step "cross: $target under $runner ($what; FIELDGEN_CASES=$cases)"
  run_recorded "$target" "$what" --target "$target" "${args[@]}" || true
done

if wanted "$nostd_target"; then
  if ! grep -qx "$nostd_target" <<<"$installed_targets"; then
    record "$nostd_target" "FAILED: the rustup target is not installed"
  else
    step "cross: no_std build for $nostd_target (fieldgen-generated with ff, fieldgen-cross, fieldgen-curve25519 without and with alloc, the other curve crates)"
    start=$SECONDS
    # One package set in both invocations, so the generated crate's features (ff and the
    # curve crates' zeroize) unify and it compiles once; the second only rebuilds
    # fieldgen-curve25519 with `alloc`.
    nostd_packages=(-p fieldgen-generated -p fieldgen-cross -p fieldgen-curve25519 -p fieldgen-weierstrass
      -p fieldgen-rsa-schemes -p fieldgen-bn -p fieldgen-binary-curves)
    if cargo build --target "$nostd_target" "${nostd_packages[@]}" --no-default-features \
      --features fieldgen-generated/ff &&
      cargo build --target "$nostd_target" "${nostd_packages[@]}" --no-default-features \
        --features fieldgen-generated/ff,fieldgen-curve25519/alloc; then
      record "$nostd_target" "built: fieldgen-generated (ff), fieldgen-cross, fieldgen-curve25519 (without and with alloc), fieldgen-weierstrass, fieldgen-rsa-schemes, fieldgen-bn and fieldgen-binary-curves, no_std, in $((SECONDS - start)) s"
    else
      record "$nostd_target" "FAILED: no_std build"
    fi
  fi
fi

# ---- summary -----------------------------------------------------------------------------
status=0
step "cross-target summary"
for t in $selected; do
  r=${result[$t]:-"FAILED: not run (unknown target name?)"}
  printf '  %-32s %s\n' "$t" "$r"
  [[ $r == FAILED* ]] && status=1
done
if ((status)); then
  echo "CROSS-TARGET TESTS FAILED: see the lines marked FAILED above." >&2
else
  echo "every cross target ran and passed."
fi
exit $status
