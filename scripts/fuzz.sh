#!/usr/bin/env bash
# Builds the libFuzzer targets (the fuzz preset: clang, ASan + UBSan) and runs each of them for a
# bounded time over its committed seed corpus and regressions; fails when any target crashes,
# naming the input. See docs/fuzzing.md.
#
#   scripts/fuzz.sh [--time SECONDS] [TARGET...]   each target SECONDS (default 30), all by default
#   scripts/fuzz.sh --long [TARGET...]             10 million executions or one hour per target,
#                                                  whichever comes first
#   scripts/fuzz.sh --list                         the targets
#   scripts/fuzz.sh --no-build ...                 use the binaries already built (those of
#                                                  SPOOKLUDO_FUZZ_BIN=DIR when it is set)
#   SPOOKLUDO_FUZZ_OUT=DIR                         puts work, crashes and logs under DIR
#
# New inputs the fuzzer finds go to build/fuzz/work/TARGET (not into the committed corpus), a
# crashing input to build/fuzz/crashes/TARGET/, the fuzzer's output to build/fuzz/logs/TARGET.log.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=30
runs=-1
build=1
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --time) seconds=${2:?--time needs a number of seconds}; shift ;;
    --long) seconds=3600; runs=10000000 ;;
    --list) ls fuzz/corpus; exit 0 ;;
    --no-build) build=0 ;;
    -*) echo "fuzz.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) [ -d "fuzz/corpus/$1" ] || { echo "fuzz.sh: no target $1 (see --list)" >&2; exit 2; }
       targets+=("$1") ;;
  esac
  shift
done
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(ls fuzz/corpus)

start=$(date +%s)
if [ "$build" = 1 ]; then
  echo "== building the fuzz targets (clang, libFuzzer, ASan + UBSan) =="
  scripts/build.sh fuzz fuzz_targets
fi

bin=${SPOOKLUDO_FUZZ_BIN:-build/fuzz/fuzz}   # another copy of the binaries, for a long run beside rebuilds
out=${SPOOKLUDO_FUZZ_OUT:-build/fuzz}        # where work, crashes and logs go
symbolizer=$(command -v llvm-symbolizer || command -v llvm-symbolizer-14 || true)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1${symbolizer:+:external_symbolizer_path=$symbolizer}}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1${symbolizer:+:external_symbolizer_path=$symbolizer}}

# One target per core at a time (SPOOKLUDO_FUZZ_JOBS, default: the cores): each still fuzzes for
# SECONDS on a core of its own; their reports are printed in order once all are done.
jobs=${SPOOKLUDO_FUZZ_JOBS:-$(nproc)}
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
fuzz_one() {
  local t=$1 work=$out/work/$1 crashes=$out/crashes/$1 log=$out/logs/$1.log t0
  mkdir -p "$work" "$crashes" "$(dirname "$log")"
  local args=(-max_total_time="$seconds" -runs="$runs" -timeout=20 -rss_limit_mb=2048 -max_len=65536
              -print_final_stats=1 -artifact_prefix="$crashes/")
  [ -f "fuzz/dict/$t.dict" ] && args+=(-dict="fuzz/dict/$t.dict")
  local dirs=("$work" "fuzz/corpus/$t")
  [ -d "fuzz/regressions/$t" ] && dirs+=("fuzz/regressions/$t")
  t0=$(date +%s)
  if "$bin/fuzz_$t" "${args[@]}" "${dirs[@]}" >"$log" 2>&1; then
    local done_line cov
    done_line=$(grep -E '^Done [0-9]+ runs' "$log" | tail -1 || true)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 || true)
    echo "fuzz_$t: ok, ${done_line#Done } ($cov)" > "$results/$t.ok"
  else
    local crash
    crash=$(grep -oE "Test unit written to [^ ]+" "$log" | tail -1 | sed 's/Test unit written to //' || true)
    {
      echo "fuzz_$t: FAILED after $(( $(date +%s) - t0 )) s: ${crash:-see $log}"
      grep -E 'ERROR: |fuzz check failed|runtime error|SUMMARY' "$log" | head -5 || true
      [ -n "$crash" ] && echo "  reproduce: $bin/fuzz_$t $crash   (log: $log)"
    } > "$results/$t.failed"
  fi
}
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  fuzz_one "$t" &
done
wait
failed=()
for t in "${targets[@]}"; do
  if [ -f "$results/$t.ok" ]; then
    cat "$results/$t.ok"
  else
    [ -f "$results/$t.failed" ] && cat "$results/$t.failed" >&2 || echo "fuzz_$t: FAILED: no report" >&2
    failed+=("$t")
  fi
done
echo "== fuzzing took $(( $(date +%s) - start )) s =="
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: crashes in: ${failed[*]} (keep each input in fuzz/regressions/TARGET/ once fixed)" >&2
  exit 1
fi
