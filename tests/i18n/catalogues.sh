#!/usr/bin/env bash
# The language catalogues' checks (CTest, tests/CMakeLists.txt):
#   catalogues.sh complete   every po/<lang>.po translates every text of the sources: the sources'
#                            template (scripts/po-update.sh's xgettext, made here in a temporary
#                            folder) merged into a copy of the catalogue, then msgfmt --check
#                            --statistics must say no untranslated and no fuzzy message; and
#                            every translation keeps its msgid's {placeholders}
#   catalogues.sh template   po/spookludo.pot is what the sources give (scripts/po-update.sh --check)
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
mode="${1:-complete}"
for tool in msgfmt msgmerge xgettext msgcat; do
  command -v "$tool" >/dev/null 2>&1 || { echo "catalogues.sh: $tool is missing (scripts/setup.sh test installs gettext)" >&2; exit 2; }
done

if [ "$mode" = template ]; then
  exec scripts/po-update.sh --check
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The sources' template, made as po-update.sh makes it, without touching po/.
mkdir -p "$work/tree/po" "$work/tree/scripts"
cp scripts/po-update.sh "$work/tree/scripts/"
cp po/spookludo.pot "$work/tree/po/"
ln -s "$root/web" "$work/tree/web"
ln -s "$root/client" "$work/tree/client"
(cd "$work/tree" && scripts/po-update.sh >/dev/null)
template="$work/tree/po/spookludo.pot"

status=0
found=0
for po in po/*.po; do
  [ -e "$po" ] || continue
  found=1
  lang="$(basename "$po" .po)"
  cp "$po" "$work/$lang.po"
  msgmerge --quiet --update --backup=none --no-fuzzy-matching "$work/$lang.po" "$template"
  if ! stats="$(LC_ALL=C msgfmt --check --statistics -o /dev/null "$work/$lang.po" 2>&1)"; then
    echo "$po: msgfmt --check fails:" >&2
    echo "$stats" >&2
    status=1
    continue
  fi
  summary="$(echo "$stats" | tail -n 1)"
  echo "$po: $summary"
  if echo "$summary" | grep -Eq 'untranslated|fuzzy'; then
    echo "$po: not complete: these texts of the sources have no translation (or a fuzzy one):" >&2
    msgattrib --untranslated "$work/$lang.po" 2>/dev/null | grep -E '^msg(ctxt|id) ' | grep -v '^msgid ""$' | head -40 >&2 || true
    msgattrib --only-fuzzy "$work/$lang.po" 2>/dev/null | grep -E '^msg(ctxt|id) ' | grep -v '^msgid ""$' | head -40 >&2 || true
    status=1
  fi
  # Every {placeholder} of a text is in its translation, and none other.
  if ! python3 - "$work/$lang.po" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
bad = 0
def strings(block, key):
    # The keyword's string, with its continuation lines.
    m = re.search(r'^' + re.escape(key) + r' ((?:".*"\n?)+)', block, re.M)
    if not m: return None
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1)))
for block in text.split("\n\n"):
    if block.lstrip().startswith("#~"): continue
    mid = strings(block, "msgid")
    if not mid: continue
    want = set(re.findall(r"\{(\w+)\}", mid))
    plural = strings(block, "msgid_plural")
    if plural is not None: want |= set(re.findall(r"\{(\w+)\}", plural))
    for key in ["msgstr"] + ["msgstr[%d]" % i for i in range(6)]:
        s = strings(block, key)
        if not s: continue
        have = set(re.findall(r"\{(\w+)\}", s))
        missing = want - have - ({"n"} if plural is not None else set())
        extra = have - want
        if missing or extra:
            print("%s: %r: translation %r lacks %s / adds %s" % (sys.argv[1], mid, s, sorted(missing), sorted(extra)), file=sys.stderr)
            bad = 1
sys.exit(bad)
PY
  then
    echo "$po: a translation does not keep its text's {placeholders}" >&2
    status=1
  fi
done
[ "$found" = 1 ] || { echo "catalogues.sh: no po/*.po" >&2; exit 1; }
exit "$status"
