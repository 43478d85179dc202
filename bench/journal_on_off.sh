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
      echo "$mode journal $kind, round $r: $(bench/ab_summary.py line "$out/$mode-$kind-$r.json" cpu rate p99 txn bytes_decision)"
    done
  done
done

# At party pace few games end within a run: per game is the full-speed figure.
bench/ab_summary.py table "$out" "$rounds" off on "without the journal" "with it" \
  paced=cpu,rate,p99,txn,bytes_decision full=cpu,rate,p99,txn,bytes_decision,bytes_game
