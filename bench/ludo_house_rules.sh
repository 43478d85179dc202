#!/usr/bin/env bash
# `best` under Ludo's house rules: its win rate in one seat against three `random` players (the
# seat rotating), and under teams a `best` pair against a `random` pair, with 95 % intervals, for
# the home_rules preset, each house rule alone on the modern board (arm 6, entry on the start
# square), the preset's rules on the text's board (arm 8, the text's entry) and the modern board
# without house rules for reference. The table goes into BENCHMARKS.md ("House rules").
#
#   bench/ludo_house_rules.sh [BUILD_DIR] [GAMES]     (defaults: build/release, 6000)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
games=${2:-6000}
bench="$build/bench/bench_ludo"
[ -x "$bench" ] || { echo "no $bench: build the release preset first (scripts/build.sh release)" >&2; exit 1; }
modern='"game":"ludo","players":4,"arm":6,"entry":"start_square"'
rows=(
  "home_rules preset (arm 6, start square)|{\"game\":\"ludo\",\"players\":4,\"preset\":\"home_rules\"}"
  "modern board, no house rule|{$modern}"
  "modern board + safe_squares|{$modern,\"safe_squares\":true}"
  "modern board + bonus_throws|{$modern,\"bonus_throws\":true}"
  "modern board + three_sixes|{$modern,\"three_sixes\":true}"
  "modern board + capture_to_home|{$modern,\"capture_to_home\":true}"
  "the preset's rules on arm 8, the text's entry|{\"game\":\"ludo\",\"players\":4,\"arm\":8,\"entry\":\"text\",\"safe_squares\":true,\"bonus_throws\":true,\"three_sixes\":true}"
  "teams, modern board (a best pair)|{$modern,\"teams\":true}"
  "teams + the home_rules preset (a best pair)|{\"game\":\"ludo\",\"players\":4,\"preset\":\"home_rules\",\"teams\":true}"
)
echo "| rules | games | \`best\` wins | 95 % interval | time per move (median, CPU) |"
echo "|---|---|---|---|---|"
for row in "${rows[@]}"; do
  name=${row%%|*}
  options=${row#*|}
  out=$("$bench" --no-throughput --vs random --games "$games" --seed 1 --options "$options")
  wins=$(sed -n 's/.*wins \([0-9.]*\) %  (95 % CI \([0-9.]*\) \.\. \([0-9.]*\) %).*/\1 %|\2 .. \3 %/p' <<<"$out")
  cpu=$(sed -n 's/.*thread CPU time: median \([0-9.]*\) us.*/\1 µs/p' <<<"$out")
  echo "| $name | $games | ${wins%%|*} | ${wins#*|} | $cpu |"
done
