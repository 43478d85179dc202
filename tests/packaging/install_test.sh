#!/usr/bin/env bash
# The Debian packages installed, run, upgraded, removed and purged as an operator would, in a clean
# Debian 12 container (buildah with chroot isolation, no Docker engine: docker/base-images.sh makes
# the base image once). Run as root:
#
#   tests/packaging/install_test.sh [SERVER.deb CLIENT.deb]    (default: build/release/packages/*.deb,
#                                                               made by scripts/package.sh)
#
#  1. lintian on both packages (on this machine, beside the rest): no error;
#  2. `apt-get install` of both files into the container, which holds nothing else: the programs
#     run there, so the packages declare every library they load; the package made the system
#     user spookludo, /var/lib/spookludo (its own, mode 0750), the conffile /etc/default/spookludo
#     (every line a comment), enabled the unit; the programs are stripped and have manual pages;
#  3. `systemd-analyze verify` accepts the installed unit (systemd and man-db installed for it);
#  4. the server started as the unit starts it (a chroot container cannot run systemd): its User,
#     Group, WorkingDirectory, UMask, Environment, EnvironmentFile (where the test sets the port as
#     an operator would, by uncommenting lines) and ExecStart, read from the installed unit, with
#     no capabilities and no new privileges; its log is its standard output (the journal's);
#  5. a whole Spook game of four bots (the installed client, pace 0), its record verified with
#     `spookludo verify`; the unit's ExecReload (SIGHUP) leaves the server running; SIGTERM stops
#     it (exit 0);
#  6. a second game left in progress when the server stops (SIGTERM, as `systemctl stop`); an
#     upgrade to the same package with a higher version (repacked here with dpkg-deb, no second
#     build) keeps the settings, the user and the data: started again, the server still serves the
#     finished game's record, lists it in /games, and takes the game in progress up again;
#  7. `apt-get remove` keeps /var/lib/spookludo, the settings and the user; `apt-get purge` deletes
#     them all, and the unit's links.
#
# Exits non-zero on the first failure; removes its container and files on exit (SPOOKLUDO_KEEP=1
# keeps the directory).
set -euo pipefail
cd "$(dirname "$0")/../.."

script_start=$(date +%s)
. docker/container_test_lib.sh   # step, pass, fail, seconds_since, http_get, bot_game, report_end

case "${1:-}" in
  -h|--help) sed -n '2,30p' "$0" | sed -n '/^#/!q;p' | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
if [ "$(id -u)" -ne 0 ]; then
  echo "install_test.sh: buildah with chroot isolation needs root" >&2
  exit 1
fi
if [ $# -eq 0 ]; then
  set -- build/release/packages/*.deb
fi
[ $# -eq 2 ] && [ -f "$1" ] && [ -f "$2" ] || fail "give the two .deb files (scripts/package.sh makes them): $*"
server_deb="" client_deb=""
for deb in "$@"; do
  case "$(dpkg-deb -f "$deb" Package)" in
    spookludo-server) server_deb=$(realpath "$deb") ;;
    spookludo) client_deb=$(realpath "$deb") ;;
  esac
done
[ -n "$server_deb" ] && [ -n "$client_deb" ] || fail "$*: not the packages spookludo-server and spookludo"

# ---- cleanup ---------------------------------------------------------------------------------
work=$(mktemp -d /tmp/spookludo-install-test.XXXXXX)
container=""
server_pid=""      # the server's own process (its pid file, written before it started)
server_runner=""   # the `buildah run` that started it
progress_runner="" # the `buildah run` of the game left in progress at the stop
lintian_pid=""
cleanup() {
  local rc=$?
  set +e
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid"; fi
  if [ -n "$server_runner" ]; then
    kill -KILL -- "-$server_runner" 2>/dev/null
    wait "$server_runner" 2>/dev/null
  fi
  [ -z "$progress_runner" ] || { kill -KILL -- "-$progress_runner" 2>/dev/null; wait "$progress_runner" 2>/dev/null; }
  [ -z "$lintian_pid" ] || { kill "$lintian_pid" 2>/dev/null; wait "$lintian_pid" 2>/dev/null; }
  [ -z "$container" ] || buildah rm "$container" >/dev/null 2>&1
  if [ "${SPOOKLUDO_KEEP:-0}" = 1 ]; then echo "kept: $work"; else rm -rf "$work"; fi
  report_end "package install test" "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

step "tools (scripts/setup.sh image, scripts/setup.sh package)"
scripts/setup.sh image
scripts/setup.sh package

# ---- 1. lintian, in the background -----------------------------------------------------------
lintian --fail-on error --info --display-info "$server_deb" "$client_deb" >"$work/lintian.log" 2>&1 &
lintian_pid=$!

# ---- the packages to install, and the upgrade ------------------------------------------------
mkdir -p "$work/debs" "$work/run" "$work/upgrade"
cp "$server_deb" "$client_deb" "$work/debs/"
version=$(dpkg-deb -f "$server_deb" Version)
upgrade_version="$version+upgradetest1"
dpkg-deb -R "$server_deb" "$work/upgrade/tree"
sed -i "s/^Version: .*/Version: $upgrade_version/" "$work/upgrade/tree/DEBIAN/control"
dpkg-deb --root-owner-group -Zgzip -b "$work/upgrade/tree" "$work/debs/upgrade.deb" >/dev/null
dpkg --compare-versions "$upgrade_version" gt "$version" || fail "$upgrade_version is not above $version"
dpkg-deb -x "$client_deb" "$work/client-tree"
for program in "$work/upgrade/tree/usr/bin/spookludo-server" "$work/client-tree/usr/bin/spookludo"; do
  file -b "$program" | grep -q ', stripped' || fail "${program##*/} is not stripped in its package: $(file -b "$program")"
done
pass "server $(basename "$server_deb"), client $(basename "$client_deb"); the upgrade: $upgrade_version; stripped"

# ---- the container ---------------------------------------------------------------------------
step "a clean Debian 12 container"
docker/base-images.sh
container=$(buildah from --pull=never docker.io/library/debian:bookworm) || fail "buildah from debian:bookworm"
inside() {  # inside COMMAND...: runs in the container, sharing this machine's network
  buildah run --isolation chroot --network host -v "$work/debs:/debs:ro" -v "$work/run:/run/spookludo-test" \
    "$container" -- "$@"
}
apt_get() {  # apt_get ARGS...: quiet, no questions; its output in $work/apt.log, shown on failure
  if ! inside env DEBIAN_FRONTEND=noninteractive apt-get -y -o Dpkg::Use-Pty=0 "$@" >"$work/apt.log" 2>&1; then
    tail -30 "$work/apt.log" >&2
    fail "apt-get $*"
  fi
}

# ---- 2. install --------------------------------------------------------------------------------
step "apt-get install ./spookludo-server_*.deb ./spookludo_*.deb"
t0=$(date +%s)
apt_get update -qq
apt_get install "/debs/$(basename "$server_deb")" "/debs/$(basename "$client_deb")"
new_packages=$(sed -n '/^The following NEW packages will be installed:/,/^[^ ]/{/^ /p}' "$work/apt.log" | xargs)
pass "installed in $(seconds_since "$t0") s, with: $new_packages"
grep -q 'spookludo-server' <<<"$new_packages" || fail "apt-get did not install spookludo-server"
inside spookludo-server --version | grep -qx "spookludo-server ${version%-*}" || fail "spookludo-server --version"
inside spookludo --version | grep -qx "spookludo ${version%-*}" || fail "spookludo --version"
pass "both programs run: every library they load came with what the packages declare"

passwd=$(inside getent passwd spookludo) || fail "no user spookludo"
IFS=: read -r _ _ uid gid _ home shell <<<"$passwd"
[ "$uid" -lt 1000 ] && [ "$home" = /var/lib/spookludo ] && [ "$shell" = /usr/sbin/nologin ] \
  || fail "the user spookludo is not a system user with home /var/lib/spookludo and no shell: $passwd"
[ "$(inside getent group spookludo | cut -d: -f3)" = "$gid" ] || fail "spookludo's group is not its own"
[ "$(inside stat -c '%U:%G %a' /var/lib/spookludo)" = "spookludo:spookludo 750" ] \
  || fail "/var/lib/spookludo: $(inside stat -c '%U:%G %a' /var/lib/spookludo) (want spookludo:spookludo 750)"
pass "system user spookludo (uid $uid), its data directory /var/lib/spookludo (0750)"
inside dpkg-query -W -f='${Conffiles}\n' spookludo-server | grep -q '^ /etc/default/spookludo ' \
  || fail "/etc/default/spookludo is not a conffile"
inside cat /etc/default/spookludo >"$work/default"
if grep -v '^#' "$work/default" | grep -q .; then fail "/etc/default/spookludo sets something: $(grep -v '^#' "$work/default" | grep . | head -3)"; fi
pass "/etc/default/spookludo: a conffile, $(grep -c '^#SPOOKLUDO_' "$work/default") variables, all commented out"
unit=/usr/lib/systemd/system/spookludo-server.service
[ "$(inside readlink -f /etc/systemd/system/multi-user.target.wants/spookludo-server.service)" = "$unit" ] \
  || fail "the package did not enable the unit (no multi-user.target.wants link)"
pass "the unit is enabled (multi-user.target.wants); not started: no systemd runs here"
inside test -s /usr/share/man/man1/spookludo-server.1.gz || fail "no manual page spookludo-server(1)"
inside test -s /usr/share/man/man1/spookludo.1.gz || fail "no manual page spookludo(1)"
pass "manual pages spookludo-server(1) and spookludo(1)"

# ---- 3. systemd-analyze verify -----------------------------------------------------------------
step "systemd-analyze verify $unit"
t0=$(date +%s)
apt_get install --no-install-recommends systemd man-db
if ! inside systemd-analyze verify "$unit" >"$work/verify-unit.log" 2>&1 || [ -s "$work/verify-unit.log" ]; then
  cat "$work/verify-unit.log" >&2
  fail "systemd-analyze verify: the unit has problems (above)"
fi
pass "no complaint (systemd and man-db installed in $(seconds_since "$t0") s)"

# ---- 4. the server, as the unit starts it ------------------------------------------------------
inside cat "$unit" >"$work/unit"
unit_value() { sed -n "s/^$1=//p" "$work/unit"; }
run_user=$(unit_value User)
run_group=$(unit_value Group)
run_dir=$(unit_value WorkingDirectory)
run_umask=$(unit_value UMask)
env_file=$(unit_value EnvironmentFile)
env_file=${env_file#-}
mapfile -t unit_environment < <(unit_value Environment)
read -r -a exec_start <<<"$(unit_value ExecStart)"
exec_reload=$(unit_value ExecReload)
[ -n "$run_user" ] && [ -n "$run_dir" ] && [ -n "$env_file" ] && [ ${#exec_start[@]} -gt 0 ] \
  || fail "the unit lacks User, WorkingDirectory, EnvironmentFile or ExecStart"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# As an operator would: uncomment the lines in the settings file and set them.
inside sed -i -e "s|^#SPOOKLUDO_PORT=.*|SPOOKLUDO_PORT=$port|" -e 's|^#SPOOKLUDO_BIND=.*|SPOOKLUDO_BIND=127.0.0.1|' \
  -e 's|^#SPOOKLUDO_PACE_MS=.*|SPOOKLUDO_PACE_MS=0|' "$env_file"

start_server() {  # start_server LOG: as the unit would; sets server_pid, server_runner
  local log=$1 env=() line
  # Environment= first, then the EnvironmentFile's settings, which override them (systemd's order).
  env+=("${unit_environment[@]}")
  while IFS= read -r line; do
    case "$line" in ''|'#'*) ;; *) env+=("$line") ;; esac
  done < <(inside cat "$env_file")
  rm -f "$work/run/server.pid"
  # A shell writes its pid (the server's, after the execs) where this machine reads it.
  setsid buildah run --isolation chroot --network host -v "$work/run:/run/spookludo-test" "$container" -- \
    sh -c 'echo $$ >/run/spookludo-test/server.pid; umask "$1"; cd "$2"; shift 2; exec "$@"' sh \
    "${run_umask:-0022}" "$run_dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "${env[@]}" \
    setpriv --reuid="$run_user" --regid="${run_group:-$run_user}" --init-groups --no-new-privs \
    --inh-caps=-all --bounding-set=-all "${exec_start[@]}" >"$log" 2>&1 &
  server_runner=$!
  server_pid=""
  local i
  for i in $(seq 300); do
    grep -q 'SpookLudo server ready' "$log" && break
    kill -0 "$server_runner" 2>/dev/null || { cat "$log" >&2; fail "the server exited at start"; }
    sleep 0.1
  done
  grep -q 'SpookLudo server ready' "$log" || { cat "$log" >&2; fail "the server was not ready within 30 s"; }
  server_pid=$(tr -d '[:space:]' <"$work/run/server.pid")
  [ "$(cat "/proc/$server_pid/comm" 2>/dev/null)" = spookludo-serve ] || fail "pid $server_pid is not the server"
  [ "$(awk '/^Uid:/ {print $2}' "/proc/$server_pid/status")" = "$uid" ] || fail "the server does not run as $run_user"
  [ "$(awk '/^NoNewPrivs:/ {print $2}' "/proc/$server_pid/status")" = 1 ] || fail "the server may gain privileges"
  # (seen from here, the container's root comes first)
  [[ "$(readlink "/proc/$server_pid/cwd")" == *"$run_dir" ]] || fail "the server's working directory is not $run_dir"
}
stop_server() {  # stop_server LOG: SIGTERM to the server's own process; it exits 0 and says so
  local log=$1 rc=0
  kill -TERM "$server_pid"
  local i
  for i in $(seq 300); do
    kill -0 "$server_runner" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$server_runner" 2>/dev/null && { tail -20 "$log" >&2; fail "the server did not stop within 30 s (TimeoutStopSec)"; }
  wait "$server_runner" || rc=$?
  server_runner="" server_pid=""
  [ $rc = 0 ] || { tail -20 "$log" >&2; fail "the server exited with status $rc"; }
  grep -q ' stopped$' "$log" || fail "the server's log does not end with 'stopped'"
}

step "the server as the unit starts it (User=$run_user, WorkingDirectory=$run_dir, EnvironmentFile=$env_file)"
start_server "$work/server.log"
database="/proc/$server_pid/root/var/lib/spookludo/spookludo.db"
[ "$(stat -c '%u %a' "$database")" = "$uid 600" ] || fail "the database is $(stat -c '%u %a' "$database") (want uid $uid, 600)"
pass "pid $server_pid, user $run_user, on 127.0.0.1:$port (from $env_file); its database /var/lib/spookludo/spookludo.db (0600)"
pass "its log (the journal's): $(grep -m1 'listening on' "$work/server.log")"

# ---- 5. a game, its record, reload, stop ---------------------------------------------------------
step "a whole game: spookludo bot (4 best bots, Spook), then spookludo verify"
bot_game "$container" "$work/bots.log" "$work/server.log"
pass "room $room, game $game_id over in $game_seconds s"
inside spookludo verify "http://127.0.0.1:$port$record_path" >"$work/verify.log" 2>&1 \
  || { cat "$work/verify.log" >&2; fail "spookludo verify refused the record"; }
pass "spookludo verify: $(tail -1 "$work/verify.log")"
[ "$(http_get "$record_path" "$work/record.json")" = 200 ] || fail "GET $record_path"

step "reload (the unit's ExecReload: $exec_reload)"
inside sh -c "${exec_reload//\$MAINPID/$server_pid}" || fail "ExecReload failed"
for _ in $(seq 100); do grep -q 'SIGHUP' "$work/server.log" && break; sleep 0.1; done
grep -q 'SIGHUP: nothing to reload (no TLS)' "$work/server.log" || fail "the server did not log the SIGHUP"
kill -0 "$server_pid" || fail "the server died of SIGHUP"
pass "$(grep -m1 'SIGHUP' "$work/server.log" | cut -d' ' -f4-); still running"

step "a game in progress (4 random bots, a step every 5 s) when the service stops"
setsid buildah run --isolation chroot --network host "$container" -- \
  spookludo bot "ws://127.0.0.1:$port" --create spook --players 4 --count 4 --policy random --start --pace-ms 5000 \
  >"$work/in-progress.log" 2>&1 &
progress_runner=$!
started=0
for _ in $(seq 300); do
  http_get /metrics "$work/metrics.txt" >/dev/null
  started=$(awk '$1 == "spookludo_games_started_total" {print $2}' "$work/metrics.txt")
  [ "${started:-0}" -ge 2 ] && break
  sleep 0.1
done
[ "${started:-0}" -ge 2 ] || { cat "$work/in-progress.log" >&2; fail "the second game did not start within 30 s"; }
pass "$(awk '$1 == "room" {print "room " $2; exit}' "$work/in-progress.log") playing"

step "stop (SIGTERM, as systemctl stop)"
stop_server "$work/server.log"
pass "exited 0; log ends: $(tail -1 "$work/server.log")"
# The players go away too (their client would wait for the server's return).
kill -TERM -- "-$progress_runner" 2>/dev/null || true
wait "$progress_runner" 2>/dev/null || true
progress_runner=""

# ---- 6. upgrade --------------------------------------------------------------------------------
step "upgrade to $upgrade_version (apt-get install of the repacked package)"
apt_get install /debs/upgrade.deb
[ "$(inside dpkg-query -W -f='${Version}' spookludo-server)" = "$upgrade_version" ] || fail "the upgrade was not installed"
grep -q "^SPOOKLUDO_PORT=$port\$" <(inside cat "$env_file") || fail "the upgrade lost the settings in $env_file"
[ "$(inside getent passwd spookludo)" = "$passwd" ] || fail "the upgrade changed the user spookludo"
[ "$(inside readlink -f /etc/systemd/system/multi-user.target.wants/spookludo-server.service)" = "$unit" ] \
  || fail "the upgrade disabled the unit"
pass "settings, user and the unit's link kept"
start_server "$work/server-upgraded.log"
[ "$(http_get "$record_path" "$work/record-after.json")" = 200 ] || fail "after the upgrade, GET $record_path: not 200"
cmp -s "$work/record.json" "$work/record-after.json" || fail "after the upgrade, the record served differs"
[ "$(http_get /games "$work/games.json")" = 200 ] || fail "GET /games"
grep -q "\"$game_id\"" "$work/games.json" || fail "after the upgrade, GET /games does not list game $game_id"
pass "the game's record is still served, the same, and listed in /games"
[ "$(http_get /metrics "$work/metrics-after.txt")" = 200 ] || fail "GET /metrics"
resumed=$(awk '$1 == "spookludo_games_resumed_total" {print $2}' "$work/metrics-after.txt")
[ "${resumed:-0}" = 1 ] || fail "after the stop and the upgrade, games resumed: '${resumed}' (want 1: the game in progress)"
pass "the game in progress when the service stopped is taken up again (spookludo_games_resumed_total 1)"
stop_server "$work/server-upgraded.log"

# ---- 7. remove, purge ----------------------------------------------------------------------------
step "apt-get remove spookludo-server"
apt_get remove spookludo-server
inside test ! -e /usr/bin/spookludo-server || fail "remove left the program"
inside test ! -e "$unit" || fail "remove left the unit"
inside test -s /var/lib/spookludo/spookludo.db || fail "remove deleted the database"
inside test -f "$env_file" || fail "remove deleted the settings"
inside getent passwd spookludo >/dev/null || fail "remove deleted the user"
pass "the program and the unit are gone; the games, the settings and the user stay"

step "apt-get purge spookludo-server spookludo"
apt_get purge spookludo-server spookludo
inside test ! -e /var/lib/spookludo || fail "purge left /var/lib/spookludo"
inside test ! -e "$env_file" || fail "purge left $env_file"
if inside getent passwd spookludo >/dev/null 2>&1; then fail "purge left the user spookludo"; fi
if inside getent group spookludo >/dev/null 2>&1; then fail "purge left the group spookludo"; fi
left=$(inside sh -c 'find /etc/systemd /var/lib/systemd -name "*spookludo*" 2>/dev/null || true')
[ -z "$left" ] || fail "purge left systemd's links or state: $left"
inside test ! -e /usr/bin/spookludo || fail "purge left the client"
pass "the games, the settings, the user and group, the unit's links: gone"

# ---- 1. lintian's answer -------------------------------------------------------------------------
step "lintian"
rc=0
wait "$lintian_pid" || rc=$?
lintian_pid=""
grep -v '^N:\|running with root privileges' "$work/lintian.log" | sed 's/^/  /' || true
[ $rc = 0 ] || fail "lintian found errors (exit $rc)"
pass "no error"
