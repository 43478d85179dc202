#!/usr/bin/env bash
# Builds the Docker image from docker/Dockerfile and tests it, without a Docker engine: buildah
# with chroot isolation (no daemon, no kernel namespaces needed: it runs on CI machines that
# have neither). Run as root from anywhere:
#
#   docker/test-image.sh
#
#  1. installs podman, buildah, debootstrap, uidmap (scripts/setup.sh image);
#  2. makes the base images debian:bookworm and debian:bookworm-slim with debootstrap, once
#     (docker/base-images.sh);
#  3. builds the image (buildah bud --isolation chroot --format docker, layers and ccache cached);
#  4. checks its configuration: non-root user, exec-form entrypoint, port 7777, healthcheck, volume;
#  5. starts the server from the image on a free loopback port, as the image's user, its pid file
#     in a directory mounted from here (chroot isolation shares the host's process table);
#  6. waits until the image's own health check command passes;
#  7. plays a whole Spook game with four bots run from the image;
#  8. checks /healthz, /metrics (games finished >= 1) and the game record (GET /records/<id>, from
#     the database in the data volume, private to the server's uid; the same record as a file
#     exported there with SPOOKLUDO_EXPORT_RECORDS) from the host, and verifies the record with
#     `spookludo verify` from the image;
#  9. sends SIGTERM to the server's own process and checks that it exits 0 promptly;
# 10. starts the server again with a certificate from a mounted directory (SPOOKLUDO_TLS_CERT and
#     SPOOKLUDO_TLS_KEY; the certificate made here by openssl), waits for the image's health check
#     (over TLS), and checks https:// /healthz from the host against the certificate.
#
# Exits non-zero on the first failure; removes its containers and files on exit.
# Environment: SPOOKLUDO_IMAGE (tag, default localhost/spookludo:test), SPOOKLUDO_REBUILD_BASE=1
# (remake the base images), SPOOKLUDO_NO_BUILD=1 (test the image as it is, without building),
# SPOOKLUDO_BUILD_ONLY=1 (steps 1-3 only: make the image, test nothing), SPOOKLUDO_KEEP=1 (keep
# the temporary directory for inspection), SPOOKLUDO_IMAGE_OWN_CCACHE=1 (compile with the
# Dockerfile's own cache mount rather than this machine's compiler cache).
set -euo pipefail
cd "$(dirname "$0")/.."

image=${SPOOKLUDO_IMAGE:-localhost/spookludo:test}
script_start=$(date +%s)

. docker/container_test_lib.sh   # step, pass, fail, seconds_since, http_get, bot_game, report_end

if [ "$(id -u)" -ne 0 ]; then
  echo "test-image.sh: buildah with chroot isolation needs root" >&2
  exit 1
fi

# ---- cleanup ---------------------------------------------------------------------------------
work=$(mktemp -d /tmp/spookludo-image-test.XXXXXX)
containers=()
server_pid=""      # the server's own process (read from its pid file)
server_runner=""   # the `buildah run` that started it
cleanup() {
  local rc=$?
  set +e
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -KILL "$server_pid" 2>/dev/null
  fi
  if [ -n "$server_runner" ]; then  # its own process group: buildah run and what it started
    kill -KILL -- "-$server_runner" 2>/dev/null
    wait "$server_runner" 2>/dev/null
  fi
  for c in "${containers[@]}"; do buildah rm "$c" >/dev/null 2>&1; done
  if [ "${SPOOKLUDO_KEEP:-0}" = 1 ]; then
    echo "kept: $work"
  else
    rm -rf "$work"
  fi
  report_end "docker image test" "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

new_container() {  # new_container VAR: a working container from the image in VAR; removed on exit
  local c
  c=$(buildah from --pull=never "$image") || fail "buildah from $image"
  containers+=("$c")
  printf -v "$1" '%s' "$c"
}

# ---- 1. tools --------------------------------------------------------------------------------
step "tools (scripts/setup.sh image)"
scripts/setup.sh image

# ---- 2. base images --------------------------------------------------------------------------
# Debian 12 from Debian's own packages, tagged with the names docker/Dockerfile's FROM lines use.
step "base images"
docker/base-images.sh || fail "the base images (docker/base-images.sh)"

# ---- 3. build --------------------------------------------------------------------------------
have_image() { buildah inspect --type image "$1" >/dev/null 2>&1; }
if [ "${SPOOKLUDO_NO_BUILD:-0}" = 1 ]; then
  step "image $image (SPOOKLUDO_NO_BUILD=1: not rebuilt)"
  have_image "$image" || fail "no image $image to test"
else
  step "build $image (buildah bud --isolation chroot --format docker)"
  t0=$(date +%s)
  # --layers: unchanged steps come from the layer cache. The compiler cache is this machine's own
  # (the release build's: the same compiler, flags and sources, paths made relative by build.sh),
  # bound into the build, so the image compiles only what the machine has not compiled before.
  # SPOOKLUDO_IMAGE_OWN_CCACHE=1 keeps the Dockerfile's cache mount instead.
  cache_args=()
  if [ "${SPOOKLUDO_IMAGE_OWN_CCACHE:-0}" != 1 ] && command -v ccache >/dev/null; then
    host_ccache=$(ccache -k cache_dir)
    mkdir -p "$host_ccache"
    cache_args=(--volume "$host_ccache:/host-ccache" --build-arg CCACHE_DIR=/host-ccache
                --build-arg "CCACHE_MAXSIZE=$(ccache -k max_size)")
  fi
  nice -n 10 buildah bud --isolation chroot --format docker --layers --pull=never "${cache_args[@]}" \
    -f docker/Dockerfile -t "$image" . >"$work/build.log" 2>&1 \
    || { tail -40 "$work/build.log" >&2; fail "buildah bud (log above)"; }
  grep -E 'STEP [0-9]+/[0-9]+: (FROM|RUN|COPY)|Using cache|Hits:|Misses:' "$work/build.log" | cut -c1-110 | sed 's/^/  /' || true
  pass "built in $(seconds_since "$t0") s"
fi
pass "image size $(buildah images --format '{{.Size}}' "$image" | head -1)"
if [ "${SPOOKLUDO_BUILD_ONLY:-0}" = 1 ]; then
  pass "SPOOKLUDO_BUILD_ONLY=1: built, not tested (test it with SPOOKLUDO_NO_BUILD=1)"
  exit 0
fi

# ---- 4. configuration ------------------------------------------------------------------------
step "image configuration (buildah inspect)"
buildah inspect --type image "$image" >"$work/inspect.json"
python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))["Docker"]["config"], open(sys.argv[2], "w"), indent=1)' \
  "$work/inspect.json" "$work/config.json" || fail "no Docker configuration in the image (built without --format docker?)"
python3 - "$work/config.json" <<'EOF' || fail "image configuration"
import json, sys
c = json.load(open(sys.argv[1]))
env = dict(e.split("=", 1) for e in c.get("Env") or [])
checks = []
def check(ok, what, got):
    checks.append(ok)
    print(("ok:   " if ok else "FAIL: ") + what + ": " + json.dumps(got))
user = c.get("User") or ""
check(user not in ("", "root", "0") and not user.startswith(("root:", "0:")), "user is not root", user)
ep = c.get("Entrypoint")
check(ep == ["spookludo-server"], "exec-form entrypoint [\"spookludo-server\"] (no shell)", ep)
check(not c.get("Cmd"), "no CMD (arguments are server flags)", c.get("Cmd"))
check("7777/tcp" in (c.get("ExposedPorts") or {}), "port 7777/tcp exposed", sorted(c.get("ExposedPorts") or {}))
hc = (c.get("Healthcheck") or {}).get("Test")
check(hc == ["CMD", "spookludo-server", "--healthcheck"], "healthcheck CMD spookludo-server --healthcheck", hc)
data = env.get("SPOOKLUDO_DATA_DIR")
check(data is not None and data in (c.get("Volumes") or {}), "SPOOKLUDO_DATA_DIR is a volume", [data, sorted(c.get("Volumes") or {})])
check(env.get("SPOOKLUDO_BIND") == "0.0.0.0" and env.get("SPOOKLUDO_PORT") == "7777",
      "listens on 0.0.0.0:7777 by default", [env.get("SPOOKLUDO_BIND"), env.get("SPOOKLUDO_PORT")])
sys.exit(0 if all(checks) else 1)
EOF
data_dir=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); print(dict(e.split("=",1) for e in c["Env"])["SPOOKLUDO_DATA_DIR"])' "$work/config.json")
user=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["User"])' "$work/config.json")
mapfile -t entrypoint < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["Entrypoint"]))' "$work/config.json")
# The HEALTHCHECK's command without its "CMD".
mapfile -t healthcheck < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["Healthcheck"]["Test"][1:]))' "$work/config.json")

new_container server_c
# What the image holds: both programs run (their libraries are all there), no compiler.
buildah run --isolation chroot "$server_c" -- spookludo-server --version | sed 's/^/  /' \
  || fail "spookludo-server --version in the image"
buildah run --isolation chroot "$server_c" -- spookludo --version | sed 's/^/  /' \
  || fail "spookludo --version in the image"
if buildah run --isolation chroot "$server_c" -- sh -c 'command -v g++ || command -v c++ || command -v cmake' \
     >/dev/null 2>&1; then
  fail "the runtime image contains build tools"
fi
pass "both programs run in the image; no build tools in it"

# ---- 5. server -------------------------------------------------------------------------------
step "server from the image"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The data directory is the image's own VOLUME, fresh, as with `docker run` and a new volume
# (buildah gives each run a volume for it; a -v mount at the same path would be hidden by it).
# The host reads it through /proc/<server pid>/root. The pid file goes to a host directory mounted
# elsewhere, writable by the image's user.
mkdir -p "$work/run"
chown "$user" "$work/run"
# As `docker run -e ... image`: the image's environment, this test's port, loopback only, no pause
# between steps, the records also exported as files; the entrypoint with the pid file as its argument.
buildah config --env SPOOKLUDO_PORT="$port" --env SPOOKLUDO_BIND=127.0.0.1 --env SPOOKLUDO_PACE_MS=0 \
  --env SPOOKLUDO_EXPORT_RECORDS="$data_dir/records" "$server_c"
# Before the server runs, the health check must fail, and say why.
if out=$(buildah run --isolation chroot --network host "$server_c" -- "${healthcheck[@]}" 2>&1); then
  fail "the health check passed with no server running: $out"
fi
pass "health check with no server: fails (${out%%$'\n'*})"
# setsid: a process group of its own, so that cleanup can end all of it if the test fails.
setsid buildah run --isolation chroot --network host -v "$work/run:/run/spookludo-test" "$server_c" -- \
  "${entrypoint[@]}" --pid-file /run/spookludo-test/server.pid >"$work/server.log" 2>&1 &
server_runner=$!
for _ in $(seq 150); do
  [ -s "$work/run/server.pid" ] && break
  kill -0 "$server_runner" 2>/dev/null || { cat "$work/server.log" >&2; fail "the server exited at start"; }
  sleep 0.1
done
[ -s "$work/run/server.pid" ] || { cat "$work/server.log" >&2; fail "no pid file from the server"; }
server_pid=$(tr -d '[:space:]' <"$work/run/server.pid")
[ "$(cat "/proc/$server_pid/comm" 2>/dev/null)" = "spookludo-serve" ] \
  || fail "pid $server_pid from the pid file is not spookludo-server"
server_uid=$(awk '/^Uid:/ {print $2}' "/proc/$server_pid/status")
[ "$server_uid" != 0 ] || fail "the server runs as root"
volume="/proc/$server_pid/root$data_dir"
[ "$(stat -c %u "$volume")" = "$server_uid" ] || fail "the data volume $data_dir is not owned by the server's uid"
pass "spookludo-server pid $server_pid, uid $server_uid, on 127.0.0.1:$port, data volume $data_dir"

# ---- 6. health -------------------------------------------------------------------------------
step "health check (the image's HEALTHCHECK command, in the server's container)"
healthy=0
for i in $(seq 50); do
  if out=$(buildah run --isolation chroot --network host "$server_c" -- "${healthcheck[@]}" 2>&1); then
    healthy=1
    break
  fi
  sleep 0.2
done
[ $healthy = 1 ] || { cat "$work/server.log" >&2; fail "never healthy; last answer: $out"; }
pass "${healthcheck[*]}: ${out%%$'\n'*} (attempt $i)"


# ---- 7. a whole game with bots from the image ------------------------------------------------
step "a whole game: spookludo bot from the image (4 best bots, Spook)"
new_container bots_c
bot_game "$bots_c" "$work/bots.log" "$work/server.log"
pass "room $room, game $game_id over in $game_seconds s ($(wc -l <"$work/bots.log") lines of bot log)"

# ---- 8. HTTP from the host, the record ------------------------------------------------------
step "HTTP from the host"
status=$(http_get /healthz "$work/healthz.txt")
[ "$status" = 200 ] && [ "$(cat "$work/healthz.txt")" = ok ] \
  || fail "GET /healthz: $status $(cat "$work/healthz.txt")"
pass "GET /healthz: 200 ok"
status=$(http_get /metrics "$work/metrics.txt")
[ "$status" = 200 ] || fail "GET /metrics: $status"
finished=$(awk '$1 == "spookludo_games_finished_total" {print $2}' "$work/metrics.txt")
[ -n "$finished" ] && [ "$finished" -ge 1 ] \
  || fail "GET /metrics: spookludo_games_finished_total is '${finished}' (want >= 1)"
pass "GET /metrics: spookludo_games_finished_total $finished"

mkdir -p "$work/check"
status=$(http_get "$record_path" "$work/check/record.json")
[ "$status" = 200 ] || fail "GET $record_path: $status $(head -c 200 "$work/check/record.json")"
pass "GET $record_path: 200, $(wc -c <"$work/check/record.json") bytes"
database="$volume/spookludo.db"
[ -f "$database" ] || fail "no database spookludo.db in the data volume ($data_dir)"
[ "$(stat -c %u:%a "$database")" = "$server_uid:600" ] \
  || fail "the database in the volume is $(stat -c %u:%a "$database") (want uid $server_uid, mode 600)"
pass "the database is in the data volume ($data_dir/spookludo.db), private to uid $server_uid"
on_volume="$volume/records/$game_id.json"
[ -f "$on_volume" ] || fail "no record $game_id.json in the data volume ($data_dir/records)"
[ "$(stat -c %u "$on_volume")" = "$server_uid" ] || fail "the record in the volume is not owned by uid $server_uid"
cmp -s "$on_volume" "$work/check/record.json" || fail "the record served differs from the one in the volume"
pass "the same record is exported to the data volume ($data_dir/records/$game_id.json), owned by uid $server_uid"

step "spookludo verify from the image"
new_container verify_c
buildah run --isolation chroot -v "$work/check:/check:ro" "$verify_c" -- spookludo verify /check/record.json \
  >"$work/verify.log" 2>&1 || { cat "$work/verify.log" >&2; fail "spookludo verify rejected the record"; }
sed 's/^/  /' "$work/verify.log"
pass "the record verifies"

# ---- 9. graceful stop ------------------------------------------------------------------------
step "SIGTERM to the server's own process ($server_pid)"
t0=$(date +%s%N)
kill -TERM "$server_pid"
stopped=0
for _ in $(seq 100); do
  kill -0 "$server_runner" 2>/dev/null || { stopped=1; break; }
  sleep 0.1
done
[ $stopped = 1 ] || { tail -20 "$work/server.log" >&2; fail "the server did not exit within 10 s of SIGTERM"; }
rc=0
wait "$server_runner" || rc=$?
server_runner=""
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ $rc = 0 ] || { tail -20 "$work/server.log" >&2; fail "the server exited with status $rc"; }
[ $ms -lt 5000 ] || fail "the server took $ms ms to stop (want < 5 s)"
grep -q 'stopped' "$work/server.log" || fail "the server's log does not end with 'stopped'"
[ ! -e "$work/run/server.pid" ] || fail "the server left its pid file"
server_pid=""
pass "exited 0 in $ms ms; log ends: $(tail -1 "$work/server.log")"

# ---- 10. TLS: a certificate from a mounted directory ----------------------------------------
step "TLS: the server with a certificate from a mounted directory"
mkdir -p "$work/tls"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=localhost \
  -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout "$work/tls/key.pem" -out "$work/tls/cert.pem" \
  >/dev/null 2>&1 || fail "openssl could not make a test certificate"
chown -R "$user" "$work/tls"
chmod 0600 "$work/tls/key.pem"
tls_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
buildah config --env SPOOKLUDO_PORT="$tls_port" --env SPOOKLUDO_TLS_CERT=/tls/cert.pem \
  --env SPOOKLUDO_TLS_KEY=/tls/key.pem "$server_c"
setsid buildah run --isolation chroot --network host -v "$work/tls:/tls:ro" -v "$work/run:/run/spookludo-test" \
  "$server_c" -- "${entrypoint[@]}" --pid-file /run/spookludo-test/server.pid >"$work/tls-server.log" 2>&1 &
server_runner=$!
healthy=0
for i in $(seq 50); do
  if out=$(buildah run --isolation chroot --network host -v "$work/tls:/tls:ro" "$server_c" -- "${healthcheck[@]}" 2>&1); then
    healthy=1
    break
  fi
  sleep 0.2
done
[ $healthy = 1 ] || { cat "$work/tls-server.log" >&2; fail "the TLS server was never healthy; last answer: $out"; }
pass "${healthcheck[*]} over TLS: ${out%%$'\n'*} (attempt $i)"
tls_status=$(python3 - "$tls_port" "$work/tls/cert.pem" <<'EOF'
import ssl, sys, urllib.request
port, ca = sys.argv[1:3]
context = ssl.create_default_context(cafile=ca)
with urllib.request.urlopen(f"https://localhost:{port}/healthz", timeout=5, context=context) as r:
    print(r.status, r.read().decode().strip())
EOF
) || fail "GET https://localhost:$tls_port/healthz failed"
[ "$tls_status" = "200 ok" ] || fail "GET https:// /healthz: $tls_status"
pass "GET https://localhost:$tls_port/healthz against the certificate: $tls_status"
grep -q "listening on 127.0.0.1:$tls_port (TLS: /CN=localhost" "$work/tls-server.log" \
  || fail "the server's log does not say it serves TLS"
for _ in $(seq 50); do [ -s "$work/run/server.pid" ] && break; sleep 0.1; done
server_pid=$(tr -d '[:space:]' <"$work/run/server.pid")
kill -TERM "$server_pid"
rc=0
wait "$server_runner" || rc=$?
server_runner=""
server_pid=""
[ $rc = 0 ] || { tail -20 "$work/tls-server.log" >&2; fail "the TLS server exited with status $rc"; }
pass "the TLS server stopped cleanly"
