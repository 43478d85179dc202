#!/usr/bin/env bash
# The service's settings file, /etc/default/spookludo (made at build time from the server's --help
# by cmake/defaults_file.cmake), against `spookludo-server --help`: every SPOOKLUDO_* variable the
# help names is in it exactly once, commented out (`#NAME=VALUE`), with the default the help shows
# (the unit's own value where its Environment= sets one; 1 for a flag); it names no other variable,
# and sets nothing.
#
#   tests/packaging/default_file.sh SERVER DEFAULT_FILE UNIT
set -euo pipefail
server=$1 file=$2 unit=$3
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

[ -s "$file" ] || fail "$file: missing or empty (the target spookludo_package_files makes it)"
help=$("$server" --help)
mapfile -t names < <(grep -o '(Env:SPOOKLUDO_[A-Z0-9_]*)' <<<"$help" | sed 's/^(Env:\(.*\))$/\1/')
[ ${#names[@]} -ge 10 ] || fail "--help names only ${#names[@]} SPOOKLUDO_ variables: has its format changed?"

for name in "${names[@]}"; do
  count=$(grep -c "^#$name=" "$file" || true)
  [ "$count" = 1 ] || fail "$name: $count lines '#$name=' in $file (want 1)"
  # The option's line in --help: "  --flag SPEC=DEFAULT (Env:NAME)"; a flag has no SPEC.
  spec=$(grep -m1 "(Env:$name)" <<<"$help" | sed -e 's/^ *-[^ ]*//' -e "s/ *(Env:$name).*//" -e 's/^ *//')
  if [ -z "$spec" ]; then
    want=1
  elif [[ "$spec" == *=* ]]; then
    want=${spec##*=}
  else
    want=""
  fi
  service=$(sed -n "s/^Environment=$name=//p" "$unit")
  [ -z "$service" ] || want=$service
  got=$(sed -n "s/^#$name=//p" "$file")
  [ "$got" = "$want" ] || fail "$name: '#$name=$got' in $file, but its default is '$want'"
done

mapfile -t listed < <(grep -o '^#SPOOKLUDO_[A-Z0-9_]*=' "$file" | tr -d '#=')
[ ${#listed[@]} = ${#names[@]} ] \
  || fail "$file names ${#listed[@]} variables, --help ${#names[@]}: $(comm -3 <(printf '%s\n' "${listed[@]}" | sort) <(printf '%s\n' "${names[@]}" | sort) | xargs)"
if grep -v '^#' "$file" | grep -q .; then
  fail "$file sets something (every line must be a comment): $(grep -v '^#' "$file" | grep . | head -3)"
fi
echo "ok: $file names the ${#names[@]} SPOOKLUDO_ variables of --help, each commented out with its default"
