#!/usr/bin/env bash
# What the journal costs the server: spookludo-load against a server it starts, the same load with
# the journal and without it (--no-journal, a flag for this measurement only), one after the
# other, repeated in A B A B order; prints each run, then the medians and ratios per mode.
#
#   bench/journal_on_off.sh [ROUNDS]      (default 2: A B A B)
#
# Modes: paced (party pace: 1,000 rooms of 4, pace 1 s, two I/O threads), full (50 rooms at full
# speed, one I/O thread). Needs a release build (scripts/build.sh release) and python3. Figures:
# the server's CPU per decision, decisions per second (throughput), its p99 round trip, the
# journal's transactions per decision and the bytes the server wrote to files (the database's WAL
# and checkpoints, the log) per decision and, at full speed, per finished game.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-2}
L=build/release/bench/spookludo-load
S=build/release/server/spookludo-server
out=$(mktemp -d /tmp/spookludo-journal-bench.XXXXXX)
trap 'rm -rf "$out"' EXIT

declare -A args=(
  [paced]="--mode paced --rooms 1000 --duration 30 --warmup 10"
  [full]="--mode full --rooms 50 --duration 15 --warmup 3"
)
declare -A server_args=([paced]="--threads=2" [full]="--threads=1")
for mode in paced full; do
  for ((r = 1; r <= rounds; r++)); do
    for kind in off on; do
      extra=${server_args[$mode]}
      [ "$kind" = off ] && extra="$extra --no-journal"
      # shellcheck disable=SC2086
      $L --spawn $S ${args[$mode]} --server-args="$extra" --json > "$out/$mode-$kind-$r.json"
      echo "$mode journal $kind, round $r: $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("cpu/decision %.1f us, %.0f decisions/s, p99 %.2f ms, %.2f transactions/decision, %.0f bytes/decision" % (r.get("server_cpu_us_per_decision") or 0, r["decisions_per_s"], (r.get("server_rtt_ms") or {}).get("p99") or 0, r.get("server_journal_transactions_per_decision") or 0, r.get("server_file_bytes_per_decision") or 0))' "$out/$mode-$kind-$r.json")"
    done
  done
done

python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def load(mode, kind, r):
    return json.load(open(f"{out}/{mode}-{kind}-{r}.json"))
print()
print("| mode | figure | without the journal (median) | with it (median) | with / without (median of the rounds' ratios) |")
print("|---|---|---|---|---|")
figures = [("server CPU per decision (us)", lambda j: j.get("server_cpu_us_per_decision") or 0),
           ("decisions per second", lambda j: j["decisions_per_s"]),
           ("server p99 round trip (ms)", lambda j: (j.get("server_rtt_ms") or {}).get("p99") or 0),
           ("journal transactions per decision", lambda j: j.get("server_journal_transactions_per_decision") or 0),
           ("bytes written to files per decision", lambda j: j.get("server_file_bytes_per_decision") or 0),
           ("bytes written to files per finished game", lambda j: j.get("server_file_bytes_per_game") or 0)]
for mode in ("paced", "full"):
    # At party pace few games end within a run: per game is the full-speed figure.
    for name, get in figures if mode == "full" else figures[:-1]:
        off = [get(load(mode, "off", r)) for r in range(1, rounds + 1)]
        on = [get(load(mode, "on", r)) for r in range(1, rounds + 1)]
        ratios = [b / a for a, b in zip(off, on) if a]
        print(f"| {mode} | {name} | {statistics.median(off):.2f} | {statistics.median(on):.2f} | "
              + (f"{statistics.median(ratios):.2f}x |" if ratios else "- |"))
PY
