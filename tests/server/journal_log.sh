#!/usr/bin/env bash
# Under systemd (standard output is the journal's stream, JOURNAL_STREAM names it), the server's
# log lines start with their syslog priority, <3> for an error, <6> for information, and carry no
# timestamp (the journal stamps them); elsewhere they start with the date and time.
# Usage: journal_log.sh SERVER
set -euo pipefail
server=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; for f in "$work"/*.out; do echo "--- $f" >&2; cat "$f" >&2; done; exit 1; }

# run_as_journal OUT ARGS...: the server with its standard output a pipe, and JOURNAL_STREAM the
# pipe's device:inode, as systemd sets it.
run_as_journal() {
  local out=$1; shift
  sh -c 'JOURNAL_STREAM=$(stat -L -c %d:%i /proc/$$/fd/1) exec "$@"' sh "$server" "$@" 2>&1 | cat >"$out"
}

# An error: a data directory that is a file.
touch "$work/not-a-directory"
run_as_journal "$work/error.out" --port 0 --bind 127.0.0.1 --data-dir "$work/not-a-directory" || true
grep -q '^<3>error cannot use the data directory' "$work/error.out" || fail "no '<3>error' line for a data directory that cannot be used"

# Information: a start and a stop.
( run_as_journal "$work/info.out" --port 0 --bind 127.0.0.1 --data-dir "$work/data" --pid-file "$work/pid" ) &
runner=$!
for _ in $(seq 300); do grep -q 'listening on' "$work/info.out" 2>/dev/null && break; sleep 0.1; done
kill -TERM "$(cat "$work/pid")"
wait "$runner" || true
grep -q '^<6>info spookludo-server .* listening on 127.0.0.1:' "$work/info.out" || fail "no '<6>info ... listening on' line"
grep -q '^<6>info stopped$' "$work/info.out" || fail "no '<6>info stopped' line"
if grep -q '^<6>.*[0-9]\{4\}-[0-9]\{2\}-[0-9]\{2\} [0-9:]\{8\}' "$work/info.out"; then fail "a journal line carries a timestamp"; fi

# Not the journal: a JOURNAL_STREAM inherited from elsewhere (another file's device:inode).
JOURNAL_STREAM="$(stat -L -c %d:%i "$work/not-a-directory")" "$server" --port 0 --bind 127.0.0.1 \
  --data-dir "$work/not-a-directory" >"$work/plain.out" 2>&1 || true
grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.]+ error cannot use the data directory' "$work/plain.out" \
  || fail "with standard output elsewhere than the journal's stream, the line has no timestamp"
if grep -q '^<' "$work/plain.out"; then fail "a priority prefix outside the journal"; fi
echo "journal log: ok"
