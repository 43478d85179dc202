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
      echo "$mode $kind round $r: $(bench/ab_summary.py line "$out/$mode-$kind-$r.json" cpu p99 rss_connection)"
    done
  done
done

bench/ab_summary.py table "$out" "$rounds" plain tls plain TLS paced=cpu,p99,rss_connection full=cpu,p99,rss_connection \
  idle=rss_connection
