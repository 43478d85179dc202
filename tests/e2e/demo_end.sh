#!/usr/bin/env bash
# The demo's end (issue #15, item 19): scripts/demo.sh stops its server when the game is over,
# so what it prints last must work without it: the record's file in the demo's data directory
# and a `spookludo verify` command for it. Runs the demo with the programs of BUILD_DIR (no
# build), two seats and a lobby that waits 5 s for the second (the demo's watcher and ours are in
# by then, on a loaded machine too; with every seat taken at once the game would be over before
# them), no pauses, and a server that stays 3 s after the game; then runs the command it printed.
# A terminal spectator who joins from another terminal and stays after the
# game (issue #34) is told, when the demo stops its server, that it stopped for good: it does not
# wait 2 minutes for a "restart" that never comes.
#
# Usage: tests/e2e/demo_end.sh BUILD_DIR     (exit 0 when the demo's last lines work)
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
build_dir=$(cd "$1" && pwd)
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/spookludo-demo-end.XXXXXX")
watcher_pid=""
trap '[ -n "$watcher_pid" ] && kill "$watcher_pid" 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "demo end: $*" >&2; echo "--- the demo's output ---" >&2; cat "$work/out" >&2; exit 1; }

# A port nothing listens on (the demo's default, 7777, may be taken on a test machine).
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
DEMO_SKIP_BUILD=1 DEMO_LINGER=3 DEMO_BUILD_DIR="$build_dir" DEMO_PORT=$port DEMO_WAIT=5 DEMO_PLAYERS=2 DEMO_PACE_MS=0 \
  DEMO_DECISION_MS=1000 DEMO_DATA_DIR="$work/data" timeout 120 "$repo/scripts/demo.sh" </dev/null >"$work/out" 2>&1 &
demo_pid=$!
# Someone at another terminal watches the room, without --once: still there when the demo ends.
code=""
for _ in $(seq 1 200); do
  code=$(sed -n 's/^== Room \([A-Z]*\) is open .*/\1/p' "$work/out" | head -n1)
  [ -n "$code" ] && break
  sleep 0.05
done
[ -n "$code" ] || fail "no room code printed"
XDG_STATE_HOME="$work/state" "$build_dir/client/spookludo" watch "ws://127.0.0.1:$port" --room "$code" \
  </dev/null >"$work/watcher.out" 2>"$work/watcher.err" &
watcher_pid=$!
wait "$demo_pid" || fail "the demo failed (exit $?)"
# The watcher was told the server stopped for good, and ended at once (exit 1: the server went away).
watcher_status=0
timeout 20 tail --pid="$watcher_pid" -f /dev/null || fail "the spectator still waits after the demo's server stopped"
wait "$watcher_pid" || watcher_status=$?
watcher_pid=""
[ "$watcher_status" = 1 ] || fail "the spectator exited $watcher_status (1 expected): $(cat "$work/watcher.err")"
grep -q "the server has stopped for good" "$work/watcher.err" ||
  fail "the spectator was not told the server stopped for good: $(cat "$work/watcher.err")"
if grep -q "restarting" "$work/watcher.out" "$work/watcher.err"; then fail "the spectator was told the server is restarting"; fi

grep -q '^== The demo is over ==$' "$work/out" || fail "no end line"
file=$(sed -n 's|^The game record (it stays when the server stops): ||p' "$work/out")
[ -n "$file" ] || fail "no record file printed"
[ "${file#"$work/data/records/"}" != "$file" ] || fail "the file $file is not in the demo's data directory"
[ -f "$file" ] || fail "the printed file $file does not exist"
command=$(grep -A1 '^Check it' "$work/out" | tail -n1 | sed 's/^  //')
[ "$command" = "$build_dir/client/spookludo verify $file" ] || fail "the printed command is '$command'"
# The server is gone: its address refuses connections; the printed command still works.
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then fail "the demo's server still listens on $port"; fi
(cd "$repo" && $command) >"$work/verify" 2>&1 || { cat "$work/verify" >&2; fail "the printed command failed"; }
grep -q "^VERIFIED: $file" "$work/verify" || fail "no VERIFIED line"
echo "demo end: ok ($file verifies after the server stopped)"
