#!/usr/bin/env bash
# Instructions per Montgomery multiplication and squaring, per target and preset: the fields
# are generated twice (--target auto, which carries the target's assembly where there is one,
# and the portable code alone), wrapped in `#[no_mangle]` functions, compiled with
# `--release` for each cross target, and the instructions of each function counted with the
# target's objdump (ELF targets) or in the compiler's assembly listing (wasm32, which has no
# binutils). Timings under emulation mean nothing; these counts are the cost model.
#
# Writes the section between the markers below at the end of benches/RESULTS.md (the
# benchmark `report` command keeps it). Needs the cross targets and binutils that
# scripts/cross.sh installs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$root/target/inst-counts
crate=$work/crate
mkdir -p "$crate/src"
# The generator runs from the workspace's own target directory; the wrapper crate builds in
# its own. FIELDGEN_GENERATOR overrides the generator command (e.g. a built binary).
[ -n "${FIELDGEN_GENERATOR:-}" ] || cargo build -q -p generator
gen=(${FIELDGEN_GENERATOR:-"$root/target/debug/generator"})
export CARGO_TARGET_DIR=$work/target
begin='<!-- instruction counts: begin (scripts/inst-counts.sh) -->'
end='<!-- instruction counts: end -->'

presets=(curve25519-p curve25519-l p256-p p256-n secp256k1-p secp256k1-n bls12-381-p bls12-381-r
  bn254-p bn254-r fp254bnb-p fp254bnb-r bn381-p bn381-r bn462-p bn462-r)

# Modules: <preset>_64_auto and <preset>_64_portable (built for aarch64 only),
# <preset>_32_portable (built for the 32-bit targets) and <preset>_32_armv7 (--target armv7, the
# UMAAL assembly; built for armv7 only), each with a field `F`.
lib="#![no_std]
#![allow(clippy::all, dead_code)]
"
for p in "${presets[@]}"; do
  m=${p//-/_}
  for v in 64:auto:auto 64:portable:portable64 32:portable:portable32 32:armv7:armv7; do
    IFS=: read -r w t target <<<"$v"
    cfg='target_arch = "aarch64"'
    [ "$w" = 32 ] && cfg='not(target_arch = "aarch64")'
    [ "$t" = armv7 ] && cfg='target_arch = "arm"'
    mod=${m}_${w}_$t
    # Rewrite only what changed, so that a rerun rebuilds nothing.
    "${gen[@]}" --prime "$p" --name F --limb-bits "$w" --target "$target" --out "$work/tmp.rs"
    cmp -s "$work/tmp.rs" "$crate/src/$mod.rs" || mv "$work/tmp.rs" "$crate/src/$mod.rs"
    lib+="#[cfg($cfg)] #[path = \"$mod.rs\"] mod $mod;
#[cfg($cfg)] #[no_mangle] pub fn mul_$mod(a: &$mod::F, b: &$mod::F) -> $mod::F { a * b }
#[cfg($cfg)] #[no_mangle] pub fn square_$mod(a: &$mod::F) -> $mod::F { a.square() }
"
  done
done
printf '%s' "$lib" >"$work/tmp.rs"
cmp -s "$work/tmp.rs" "$crate/src/lib.rs" || mv "$work/tmp.rs" "$crate/src/lib.rs"
cat >"$crate/Cargo.toml" <<EOF
[package]
name = "inst-counts"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
subtle = { version = "2.6", default-features = false }

[profile.release]
opt-level = 3
codegen-units = 1
panic = "abort"

[workspace]
EOF
cp "$root/Cargo.lock" "$crate/Cargo.lock"

# Instructions executed by each wrapper, as "name count" lines: its own instructions plus
# those of every function of the object it calls, directly or through other functions (each
# counted once; calls show as relocations or as branches to another function's symbol).
# Library calls outside the object (memcpy) count as one call instruction.
total_awk='
  function total(f, seen,   s, k, parts, cnt) {
    if (f in seen) return 0
    seen[f] = 1
    cnt = n[f]
    k = split(calls[f], parts, " ")
    for (s = 1; s <= k; s++) if (parts[s] in n && parts[s] != f) cnt += total(parts[s], seen)
    return cnt
  }
  END { for (f in n) if (f ~ /^(mul|square)_/) { delete seen; print f, total(f, seen) } }'
count_objdump() { # objdump file
  "$1" -dr --no-show-raw-insn "$2" | awk '
    /^[0-9a-f]+ <[^>]+>:$/ { name = $2; gsub(/[<>:]/, "", name); n[name] += 0; next }
    name != "" && /R_[A-Z0-9_]+/ { sym = $NF; sub(/[+-]0x[0-9a-f]+$/, "", sym); sub(/^\.text\./, "", sym); calls[name] = calls[name] " " sym; next }
    name != "" && /^ *[0-9a-f]+:\t/ {
      n[name]++
      if (match($0, /<[^>+]+>$/)) calls[name] = calls[name] " " substr($0, RSTART + 1, RLENGTH - 2)
    }'"$total_awk"
}
count_listing() { # file.s
  awk '
    /^[A-Za-z_][A-Za-z0-9_$.]*:$/ { name = substr($0, 1, length($0) - 1); n[name] += 0; next }
    /end_function/ { name = ""; next }
    name != "" && /^\t[a-z]/ && !/^\t\./ {
      n[name]++
      if ($1 == "call" || $1 == "return_call") calls[name] = calls[name] " " $2
    }'"$total_awk" "$1"
}

declare -A counts
targets=(aarch64-unknown-linux-gnu armv7-unknown-linux-gnueabihf powerpc-unknown-linux-gnu wasm32-wasip1)
for t in "${targets[@]}"; do
  echo "==> $t"
  (cd "$crate" && cargo rustc -q --release --lib --crate-type rlib --target "$t" -- --emit=obj,asm)
  dir=$CARGO_TARGET_DIR/$t/release/deps
  case $t in
    aarch64-*) out=$(count_objdump aarch64-linux-gnu-objdump "$(ls "$dir"/inst_counts-*.o | head -1)") ;;
    armv7-*) out=$(count_objdump arm-linux-gnueabihf-objdump "$(ls "$dir"/inst_counts-*.o | head -1)") ;;
    powerpc-*) out=$(count_objdump powerpc-linux-gnu-objdump "$(ls "$dir"/inst_counts-*.o | head -1)") ;;
    wasm32-*) out=$(count_listing "$(ls "$dir"/inst_counts-*.s | head -1)") ;;
  esac
  while read -r name n; do counts[$t/$name]=$n; done <<<"$out"
done

c() { echo "${counts[$1]:-—}"; }
# A portable build identical to the auto one (no kernel for that form) is merged into it by
# the compiler and has no code of its own: shown as "same".
cp_() { [ -n "${counts[$2]:-}" ] && echo "${counts[$2]}" || { [ -n "${counts[$1]:-}" ] && echo same || echo —; }; }
{
  echo "$begin"
  echo
  echo "## Instructions per operation on the cross targets"
  echo
  echo "Instructions in the \`#[no_mangle]\` wrapper of \`mul\` (x·y) and \`square\`, compiled with \`--release\` (opt-level 3, one codegen unit) for each target: \`auto\` is \`--target auto\` (the target's assembly where there is one: aarch64 for 64-bit limbs; elsewhere the portable code), \`portable\` the portable code alone. Counted with the target's objdump (wasm32: the compiler's assembly listing). The count is the wrapper's instructions plus those of every function it calls (the portable code is not inlined into it); all of it is straight-line, so it is also the number executed. Command: \`bash scripts/inst-counts.sh\` ($(rustc --version | cut -d' ' -f1-2), $(date -u +%Y-%m-%d))."
  echo
  echo "| preset | aarch64 mul asm / portable64 | aarch64 square asm / portable64 | armv7 mul asm / portable32 | armv7 square asm / portable32 | powerpc mul / square (portable32) | wasm32 mul / square (portable32) |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  for p in "${presets[@]}"; do
    m=${p//-/_}
    a=aarch64-unknown-linux-gnu
    v=armv7-unknown-linux-gnueabihf
    echo "| $p | $(c $a/mul_${m}_64_auto) / $(cp_ $a/mul_${m}_64_auto $a/mul_${m}_64_portable) | $(c $a/square_${m}_64_auto) / $(cp_ $a/square_${m}_64_auto $a/square_${m}_64_portable) | $(c $v/mul_${m}_32_armv7) / $(c $v/mul_${m}_32_portable) | $(c $v/square_${m}_32_armv7) / $(c $v/square_${m}_32_portable) | $(c powerpc-unknown-linux-gnu/mul_${m}_32_portable) / $(c powerpc-unknown-linux-gnu/square_${m}_32_portable) | $(c wasm32-wasip1/mul_${m}_32_portable) / $(c wasm32-wasip1/square_${m}_32_portable) |"
  done
  echo
  echo "curve25519-p and secp256k1-p at 64-bit limbs are in pseudo-Mersenne form, which has no AArch64 kernel: their aarch64 \`auto\` column is the portable code (\`same\`: identical to the portable64 build, which the compiler merged into it)."
  echo
  echo "armv7 asm is \`--target armv7\` (Montgomery form, UMAAL kernels; the portable32 column is the form \`auto\` picks, so pseudo-Mersenne for curve25519-p). \`--target auto\` carries the armv7 kernels for every 32-bit preset above except curve25519-p (special form) and p256-p (fewer than a quarter of its limbs are other than 0, 1 and 2^32 − 1, so the portable code, which folds those limbs, is shorter)."
  echo
  umaal=$(arm-linux-gnueabihf-objdump -d --no-show-raw-insn "$(ls "$CARGO_TARGET_DIR"/armv7-unknown-linux-gnueabihf/release/deps/inst_counts-*.o | head -1)" |
    awk '/<mul_bn254_p_32_armv7>:/ {f=1; next} /^$/ {f=0} f && /\tumaal\t/ {n++} END {print n+0}')
  echo "8-limb armv7 multiplication (bn254-p): $umaal umaal instructions: the 2n² = 128 products of a·b and m·p, each one carry-free multiply-accumulate, except the first, which is a umull (2n² − 1 = 127)."

  echo
  mulx=$(aarch64-linux-gnu-objdump -d --no-show-raw-insn "$(ls "$CARGO_TARGET_DIR"/aarch64-unknown-linux-gnu/release/deps/inst_counts-*.o | head -1)" |
    awk '/<mul_bn254_p_64_auto>:/ {f=1; next} /^$/ {f=0} f && /\t(mul|umulh)\t/ {n++} END {print n+0}')
  sq=$(aarch64-linux-gnu-objdump -d --no-show-raw-insn "$(ls "$CARGO_TARGET_DIR"/aarch64-unknown-linux-gnu/release/deps/inst_counts-*.o | head -1)" |
    awk '/<square_bn254_p_64_auto>:/ {f=1; next} /^$/ {f=0} f && /\t(mul|umulh)\t/ {n++} END {print n+0}')
  echo "4-limb aarch64 square (bn254-p): $sq mul/umulh instructions (SOS: the n(n − 1)/2 off-diagonal products once and the n squares, n² + n = 20 halves, then 2n² for the reduction's products and quotients: 3n² + n = 52)."
  echo
  echo "4-limb aarch64 multiplication (bn254-p): $mulx mul/umulh instructions, i.e. $((mulx / 2)) 64×64→128-bit products against 2n² = 32 (CIOS: n² for a·b, n² for m·p, less the never-needed low half of m·p[0], plus n quotient muls)."
  echo
  echo "$end"
} >"$work/section.md"

results=$root/benches/RESULTS.md
if grep -qF "$begin" "$results"; then
  awk -v b="$begin" -v e="$end" -v f="$work/section.md" '
    $0 == b { while ((getline l < f) > 0) print l; skip = 1; next }
    $0 == e { skip = 0; next }
    !skip' "$results" >"$results.new"
  mv "$results.new" "$results"
else
  { echo; cat "$work/section.md"; } >>"$results"
fi
cat "$work/section.md"
