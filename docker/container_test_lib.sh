# Shared by the container tests (docker/test-image.sh, tests/packaging/install_test.sh): their
# report lines, HTTP from the host and a whole bot game in a container. Sourced, not run; the
# test sets $port (the server's, on 127.0.0.1) before it calls http_get or bot_game.

step() { printf '\n== %s ==\n' "$*"; }
pass() { printf 'ok:   %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
seconds_since() { echo $(( $(date +%s) - $1 )); }

# http_get PATH [OUTFILE]: GET http://127.0.0.1:$port/PATH from this machine; prints the status,
# the body goes to OUTFILE.
http_get() {
  python3 - "$port" "$1" "${2:-/dev/null}" <<'PY'
import sys, urllib.request, urllib.error
port, path, out = sys.argv[1:4]
try:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
        status, body = r.status, r.read()
except urllib.error.HTTPError as e:
    status, body = e.code, e.read()
open(out, "wb").write(body)
print(status)
PY
}

# bot_game CONTAINER BOTS_LOG SERVER_LOG: a whole Spook game of four `best` bots, run by the
# container's spookludo against the server on $port. Sets room, game_id and record_path (the
# record's address, /records/GAME_ID) from the bots' lines; fails with both logs' ends if the
# game does not end within 300 s or they lack those lines.
bot_game() {
  local container=$1 bots_log=$2 server_log=$3 t0
  t0=$(date +%s)
  if ! timeout 300 buildah run --isolation chroot --network host "$container" -- \
       spookludo bot "ws://127.0.0.1:$port" --create spook --players 4 --count 4 --policy best --start \
       >"$bots_log" 2>&1; then
    tail -30 "$bots_log" >&2
    tail -30 "$server_log" >&2
    fail "the bots did not finish a game (logs: bots, then server)"
  fi
  room=$(awk '$1 == "room" {print $2; exit}' "$bots_log")
  game_id=$(awk '$1 == "game_over" {print $2; exit}' "$bots_log")
  record_path=$(awk '$1 == "game_over" { for (i = 3; i < NF; i++) if ($i == "record") { print $(i + 1); exit } }' \
    "$bots_log")
  [ -n "$room" ] || { cat "$bots_log" >&2; fail "the bots printed no 'room CODE' line"; }
  [ -n "$game_id" ] && [ -n "$record_path" ] \
    || { tail -20 "$bots_log" >&2; fail "the bots printed no 'game_over GAME_ID ... record /records/GAME_ID' line"; }
  game_seconds=$(seconds_since "$t0")
}

# report_end NAME RC: the test's last line, passed or failed, with its time since $script_start.
report_end() {
  if [ "$2" -eq 0 ]; then
    printf '\n== %s passed in %s s ==\n' "$1" "$(seconds_since "$script_start")"
  else
    printf '\n== %s FAILED (exit %s) after %s s ==\n' "$1" "$2" "$(seconds_since "$script_start")" >&2
  fi
}
