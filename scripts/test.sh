#!/usr/bin/env bash
# Installs what is needed, builds everything (release preset) and runs the whole test suite.
# scripts/test.sh asan runs the same tests built with AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
shift || true   # the rest goes to ctest (e.g. -R web)
scripts/setup.sh test
scripts/build.sh "$preset"
# When tests fail, their output is printed again at the very end (the last lines of a long log
# are often all a CI page keeps).
show_failures() {
  local dir="build/$preset/Testing/Temporary" line name
  [ -s "$dir/LastTestsFailed.log" ] || return 0
  echo "== the failed tests' output again (the last 150 lines of each) =="
  while IFS= read -r line; do
    name=${line#*:}
    echo "---- $name ----"
    awk -v name="$name" '
      /^[0-9]+\/[0-9]+ Testing: / { sub(/^[0-9]+\/[0-9]+ Testing: /, ""); on = ($0 == name); out = 0; next }
      on && /^Output:/ { out = 1; next }
      on && /^<end of output>/ { out = 0; on = 0; next }
      out { print }' "$dir/LastTest.log" | tail -n 150
  done <"$dir/LastTestsFailed.log"
}
rm -f "build/$preset/Testing/Temporary/LastTestsFailed.log"
if ! ctest --preset "$preset" -j2 "$@"; then
  show_failures
  exit 1
fi
