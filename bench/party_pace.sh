#!/usr/bin/env bash
# Party pace (issue #20): one server binary against another under the same spookludo-load, one
# after the other, repeated in A B A B order; prints each run, then the medians of each and the
# median of the rounds' B / A ratios. Then the new binary alone at 1,000, 2,000 and 4,500 rooms,
# plain and over TLS.
#
#   bench/party_pace.sh BEFORE_SERVER [ROUNDS] [AFTER_SERVER]
#
# BEFORE_SERVER: the server built from the commit before the work, e.g.
#   git worktree add ../before 933ba65 && (cd ../before && scripts/build.sh release)
#   bench/party_pace.sh ../before/build/release/server/spookludo-server 3
# AFTER_SERVER defaults to build/release/server/spookludo-server; ROUNDS to 3. Each server runs
# with its own defaults (I/O threads, journal); the load generator is this build's.
#
# Loads: paced (1,000 rooms of 4 bots, a step a second, 30 s measured after 10 s), full (50
# rooms at full speed, 15 s after 3). Figures: the server's CPU per decision, its p99 round trip,
# its resident memory per room (paced) and decisions per second (full).
# SCALE=0 skips the room counts; AB=0 skips the comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
before=${1:?usage: bench/party_pace.sh BEFORE_SERVER [ROUNDS] [AFTER_SERVER]}
rounds=${2:-3}
after=${3:-build/release/server/spookludo-server}
L=build/release/bench/spookludo-load
out=$(mktemp -d /tmp/spookludo-party-pace.XXXXXX)
trap 'rm -rf "$out"' EXIT

declare -A args=(
  [paced]="--mode paced --rooms 1000 --duration 30 --warmup 10"
  [full]="--mode full --rooms 50 --duration 15 --warmup 3"
)
declare -A server=([before]="$before" [after]="$after")
if [ "${AB:-1}" != 0 ]; then
  for mode in paced full; do
    for ((r = 1; r <= rounds; r++)); do
      for kind in before after; do
        # shellcheck disable=SC2086
        $L --spawn "${server[$kind]}" ${args[$mode]} --json > "$out/$mode-$kind-$r.json"
        echo "$mode $kind, round $r: $(bench/ab_summary.py line "$out/$mode-$kind-$r.json" cpu rate p99 rss_room)"
      done
    done
  done
  bench/ab_summary.py table "$out" "$rounds" before after before after \
    paced=cpu,p99,rss_room full=cpu,rate,p99
fi

if [ "${SCALE:-1}" != 0 ]; then
  echo
  echo "| rooms | connections | transport | server CPU per decision | share of one core | server p99 | resident memory per room | decisions/s |"
  echo "|---|---|---|---|---|---|---|---|"
  for rooms in 1000 2000 4500; do
    for tls in "" --tls; do
      # shellcheck disable=SC2086
      $L --spawn "$after" --mode paced --rooms $rooms --duration 30 --warmup 10 $tls --json > "$out/scale.json"
      python3 - "$out/scale.json" "$rooms" "${tls:+TLS}" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
rooms = int(sys.argv[2])
print(f"| {rooms:,} | {4 * rooms:,} | {sys.argv[3] or 'plain'} | {j['server_cpu_us_per_decision']:.0f} µs | "
      f"{100 * j['server_cpu_share']:.1f} % | {j['server_rtt_ms']['p99']:.2f} ms | "
      f"{j['server_rss_bytes_per_room'] / 1024:.1f} KB | {j['decisions_per_s']:.0f} |")
PY
    done
  done
fi
