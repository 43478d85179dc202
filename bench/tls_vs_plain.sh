#!/usr/bin/env bash
# What TLS costs the server: spookludo-load against a server it starts, the same load plain and
# over TLS (--tls: wss://, a self-signed certificate made by the load generator), one after the
# other, repeated in A B A B order; prints each run and the medians and ratios per mode.
#
#   bench/tls_vs_plain.sh [ROUNDS]      (default 2: A B A B)
#
# Modes: paced (party pace, 1,000 rooms of 4, pace 1 s), full (50 rooms at full speed, one I/O
# thread), idle (5,000 connections that said hello). Needs a release build (scripts/build.sh) and
# python3. Figures: the server's CPU per decision, its p99 round trip and its resident memory per
# connection (idle: per idle connection).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-2}
L=build/release/bench/spookludo-load
S=build/release/server/spookludo-server
out=$(mktemp -d /tmp/spookludo-tls-bench.XXXXXX)
trap 'rm -rf "$out"' EXIT

declare -A args=(
  [paced]="--mode paced --rooms 1000 --duration 30 --warmup 10"
  [full]="--server-args=--threads=1 --mode full --rooms 50 --duration 15 --warmup 3"
  [idle]="--mode idle --connections 5000 --duration 3 --warmup 3"
)
for mode in paced full idle; do
  for ((r = 1; r <= rounds; r++)); do
    for kind in plain tls; do
      extra=""
      [ "$kind" = tls ] && extra="--tls"
      # shellcheck disable=SC2086
      $L --spawn $S ${args[$mode]} $extra --json > "$out/$mode-$kind-$r.json"
      echo "$mode $kind round $r: $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("cpu/decision %.1f us, p99 %.2f ms, rss/connection %.1f KB" % (r.get("server_cpu_us_per_decision") or 0, (r.get("server_rtt_ms") or {}).get("p99") or 0, r["server_rss_bytes_per_connection"] / 1024))' "$out/$mode-$kind-$r.json")"
    done
  done
done

python3 - "$out" "$rounds" <<'EOF'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def load(mode, kind, r):
    return json.load(open(f"{out}/{mode}-{kind}-{r}.json"))
print()
print("| mode | figure | plain (median) | TLS (median) | TLS / plain (median of the rounds' ratios) |")
print("|---|---|---|---|---|")
for mode in ("paced", "full", "idle"):
    figures = [("server CPU per decision (us)", lambda j: j.get("server_cpu_us_per_decision") or 0),
               ("server p99 round trip (ms)", lambda j: (j.get("server_rtt_ms") or {}).get("p99") or 0),
               ("resident memory per connection (KB)", lambda j: j["server_rss_bytes_per_connection"] / 1024)]
    if mode == "idle":
        figures = figures[2:]
    for name, get in figures:
        plain = [get(load(mode, "plain", r)) for r in range(1, rounds + 1)]
        tls = [get(load(mode, "tls", r)) for r in range(1, rounds + 1)]
        ratios = [t / p for p, t in zip(plain, tls) if p]
        diff = statistics.median(t - p for p, t in zip(plain, tls))
        extra = f" (+{diff:.1f} KB)" if "KB" in name else ""
        print(f"| {mode} | {name} | {statistics.median(plain):.2f} | {statistics.median(tls):.2f} | "
              f"{statistics.median(ratios):.2f}x{extra} |" if ratios else f"| {mode} | {name} | - | - | - |")
EOF
