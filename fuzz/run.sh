#!/usr/bin/env bash
# Builds the libFuzzer targets with coverage instrumentation on the stable toolchain and runs
# each for SECONDS (default 20), starting from its committed seed corpus.
#
#   fuzz/run.sh [SECONDS] [TARGET ...]     (default: every target in fuzz/fuzz_targets/)
#
# New inputs go to target/fuzz/corpus/<target>/ (kept between runs, never committed: copy an
# interesting one into fuzz/corpus/<target>/ by hand), crashes to target/fuzz/artifacts/<target>/.
# Prints one line per target with the executions reached; exits non-zero on a finding.
# Extra libFuzzer flags can be passed in FUZZ_FLAGS (e.g. FUZZ_FLAGS="-jobs=2 -workers=2").
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-20}
shift || true
if (($# == 0)); then
  set -- $(ls fuzz/fuzz_targets | sed 's/\.rs$//')
fi

host=$(rustc -vV | sed -n 's/^host: //p')
# SanitizerCoverage through LLVM's pass on stable rustc (what cargo-fuzz passes with
# `--sanitizer none`, without the nightly-only -Z flags): 8-bit counters and the PC table
# feed libFuzzer's coverage, trace-compares its comparison operands (CMP hints, which find
# the byte strings a decoder compares against). `--target` keeps RUSTFLAGS off build
# scripts and proc macros, which do not link libFuzzer. Debug assertions and overflow checks
# stay on, so an overflow is a finding too.
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
export CARGO_TARGET_DIR=target/fuzz
bins=()
for t in "$@"; do bins+=(--bin "$t"); done
cargo build --release -q -p fieldgen-fuzz --features libfuzzer --target "$host" "${bins[@]}"

status=0
for t in "$@"; do
  work=target/fuzz/corpus/$t
  artifacts=target/fuzz/artifacts/$t
  mkdir -p "$work" "$artifacts"
  log=target/fuzz/$t.log
  # The first directory receives new inputs; the committed corpus is only read.
  # -timeout: one input running longer than 10 s is a finding (a hang).
  if "target/fuzz/$host/release/$t" "$work" "fuzz/corpus/$t" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$artifacts/" ${FUZZ_FLAGS:-} >"$log" 2>&1; then
    result=ok
  else
    result="FINDING (see $log and $artifacts/)"
    status=1
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  printf '%-22s %12s execs in %ss, %s, corpus %s files: %s\n' "$t" "${execs:-?}" "$seconds" \
    "${cov:-cov: ?}" "$(ls "$work" | wc -l)" "$result"
done
exit $status
