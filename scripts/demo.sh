#!/usr/bin/env bash
# The main job: installs what is needed, builds, and runs a demo party on this machine.
#
# A server starts, a Spook & Werewolf room is created and its code and join command printed.
# The lobby waits DEMO_WAIT seconds (default 20) for people to join from other terminals or
# machines (`spookludo play ws://HOST:PORT --room CODE --name YOU`); then bots fill the free
# seats and the game starts. This terminal watches the game; when it ends, the server stops for
# good (--abandon-on-exit: every player's screen is told so, none waits for it to come back) and
# the demo prints the game record's file and the `spookludo verify` command for it (the record's
# http:// address works only while the server runs; each terminal player's client keeps a copy).
#
# Settings (environment): DEMO_PORT (7777), DEMO_WAIT (20 s), DEMO_PLAYERS (4 seats),
# DEMO_PACE_MS (1500 ms between steps), DEMO_DECISION_MS (20000), DEMO_GAME (spook or ludo),
# DEMO_DATA_DIR (where the game record goes; a temporary directory by default), DEMO_LINGER (5 s:
# how long the server stays up after the game, so that the players' screens show the result and
# their clients keep a copy of the record before it stops).
# For the tests: DEMO_BUILD_DIR (build/release) with DEMO_SKIP_BUILD=1 uses programs built there.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${DEMO_SKIP_BUILD:-0}" != 1 ]; then
  scripts/setup.sh build
  scripts/build.sh release spookludo spookludo-server
fi

port=${DEMO_PORT:-7777}
wait_s=${DEMO_WAIT:-20}
players=${DEMO_PLAYERS:-4}
# The host's bot takes a seat; a one-seat room would start (and end) before anyone could watch.
if ! [[ "$players" =~ ^[0-9]+$ ]] || [ "$players" -lt 2 ]; then
  echo "demo: DEMO_PLAYERS must be 2 or more (the host's bot takes one seat, the others wait for people); got '$players'" >&2
  exit 2
fi
pace=${DEMO_PACE_MS:-1500}
decision=${DEMO_DECISION_MS:-20000}
game=${DEMO_GAME:-spook}
data=${DEMO_DATA_DIR:-$(mktemp -d /tmp/spookludo-demo.XXXXXX)}
bin=${DEMO_BUILD_DIR:-build/release}
server=$bin/server/spookludo-server
client=$bin/client/spookludo
run=$(mktemp -d /tmp/spookludo-demo-run.XXXXXX)

server_pid=""
host_pid=""
cleanup() {
  [ -n "$host_pid" ] && kill "$host_pid" 2>/dev/null || true
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true   # for good (--abandon-on-exit): clients are told so
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The database (the journal, the history) in $data; each finished game's record also as a file in
# $data/records (--export-records), to verify once the server has stopped. The demo's server does
# not come back: --abandon-on-exit tells every client, on SIGTERM, that it stops for good (rather
# than "restarting", which would have them wait and retry for it).
echo "== Starting the server on port $port (data in $data) =="
"$server" --port "$port" --pace-ms "$pace" --decision-ms "$decision" --data-dir "$data" \
  --export-records "$data/records" --abandon-on-exit --pid-file "$run/server.pid" >"$run/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
  "$server" --healthcheck --port "$port" >/dev/null 2>&1 && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$run/server.log"; echo "the server did not start" >&2; exit 1; }
  sleep 0.1
done

# The room's host: a headless bot that waits for people, fills the free seats, starts.
options=(--create "$game" --players "$players")
# The log exists before the loop below reads it: the background job opens it only once it runs,
# which on a loaded machine can be after the first read.
: >"$run/host.log"
"$client" bot "ws://127.0.0.1:$port" "${options[@]}" --count 1 --name host --policy best --start \
  --fill-after "$wait_s" --quiet >>"$run/host.log" 2>&1 &
host_pid=$!
code=""
for _ in $(seq 1 100); do
  code=$(sed -n 's/^room \([A-Z]*\)$/\1/p' "$run/host.log" | head -n1)
  [ -n "$code" ] && break
  kill -0 "$host_pid" 2>/dev/null || { cat "$run/host.log"; exit 1; }
  sleep 0.1
done
[ -n "$code" ] || { echo "no room was created" >&2; exit 1; }

addresses=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -v '^$' | head -n3 || true)
echo
echo "== Room $code is open for $wait_s seconds =="
echo "Join from a browser on this machine: http://127.0.0.1:$port/r/$code"
echo "or from another terminal on this machine:"
echo "  $client play ws://127.0.0.1:$port --room $code --name YOUR_NAME"
if [ -n "$addresses" ]; then
  echo "or from a phone or another machine on the network (port $port open):"
  for a in $addresses; do
    case "$a" in *:*) a="[$a]" ;; esac   # IPv6 in brackets
    echo "  http://$a:$port/r/$code   or   spookludo play ws://$a:$port --room $code --name YOUR_NAME"
  done
  echo "(the lobby below shows the link as a QR code when the window is tall enough)"
fi
echo "Then bots fill the free seats and the game starts. This terminal watches (q leaves)."
echo
"$client" watch "ws://127.0.0.1:$port" --room "$code" --once || true
wait "$host_pid" 2>/dev/null || true
host_pid=""
# The players' clients fetch the record at the game's end (the terminal keeps a copy in its state
# directory, the page offers it as a download): the server answers them a moment longer.
linger=${DEMO_LINGER:-5}
if [ "$linger" -gt 0 ] 2>/dev/null; then
  echo "The game is over: the server stops in $linger s (the players' screens keep the record)."
  sleep "$linger"
fi
echo
echo "== The demo is over =="
# The server stops with the demo, and the record's address the players were shown
# (http://...:$port/records/ID) with it: the exported file in the data directory stays. The host's
# "game_over ID STATUS record /records/NAME" line names it.
record=$(sed -n 's|^game_over [^ ]* [a-z]* record /records/\(.*\)$|\1|p' "$run/host.log" | tail -n1)
if [ -n "$record" ] && [ -f "$data/records/$record.json" ]; then
  echo "The game record (it stays when the server stops): $data/records/$record.json"
  echo "Check it (fair dice, every move, the result):"
  echo "  $client verify $data/records/$record.json"
else
  echo "No game record was written (the game did not end?): the host's output:"
  cat "$run/host.log"
fi
