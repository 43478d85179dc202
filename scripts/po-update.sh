#!/usr/bin/env bash
# The translators' tool: the catalogue template po/spookludo.pot made from the sources, and every
# language's catalogue po/<lang>.po brought up to date with it (docs/languages.md).
#
#   scripts/po-update.sh           xgettext over web/js/*.js (t, tn, tc), client/*.cpp (tr, trn,
#                                  trc) and common/src (verify_line) into po/spookludo.pot, then msgmerge --update of each po/*.po
#                                  (new texts come in untranslated, changed ones fuzzy)
#   scripts/po-update.sh --check   changes nothing: fails (exit 1) when po/spookludo.pot is not what
#                                  the sources give, naming the texts that differ
#
# The template is stable: no POT-Creation-Date, no line numbers (only the files), sorted by file,
# so it changes only when a text does. Needs gettext (scripts/setup.sh test).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mode=update
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "po-update.sh: unknown argument '$1' (use --check, or nothing)" >&2; exit 2 ;;
esac
for tool in xgettext msgmerge msgcat; do
  command -v "$tool" >/dev/null 2>&1 || { echo "po-update.sh: $tool is missing (apt-get install gettext)" >&2; exit 2; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The files in a fixed order (the C locale's), relative paths: the same template on every machine.
mapfile -t js < <(LC_ALL=C ls web/js/*.js 2>/dev/null)
mapfile -t cpp < <(LC_ALL=C ls client/*.cpp client/*.h 2>/dev/null)
# The verifier's report lines (common/, worded by the terminal client's verify): verify_line("...").
mapfile -t shared < <(cd common/src && LC_ALL=C find . -name '*.cpp' | LC_ALL=C sort | sed 's|^\./|common/src/|')

common=(--from-code=UTF-8 --add-comments=TRANSLATORS: --no-wrap --add-location=file --sort-by-file
        --package-name=spookludo --msgid-bugs-address=none)
# (No --omit-header: without a header xgettext writes ASCII and drops every other character, "…"
# and "→" among them; its header, which has a date, is cut from the template below.)
: >"$work/js.pot"
: >"$work/cpp.pot"
: >"$work/shared.pot"
if [ ${#js[@]} -gt 0 ]; then
  xgettext "${common[@]}" --language=JavaScript --keyword= --keyword=t --keyword=tn:1,2 --keyword=tc:1c,2 \
    -o "$work/js.pot" "${js[@]}"
fi
if [ ${#cpp[@]} -gt 0 ]; then
  xgettext "${common[@]}" --language=C++ --keyword= --keyword=tr --keyword=trn:1,2 --keyword=trc:1c,2 \
    -o "$work/cpp.pot" "${cpp[@]}"
fi
if [ ${#shared[@]} -gt 0 ]; then
  xgettext "${common[@]}" --language=C++ --keyword= --keyword=verify_line -o "$work/shared.pot" "${shared[@]}"
fi

# The header, written here (xgettext's has a creation date): the template's own, stable.
cat >"$work/spookludo.pot" <<'HEADER'
# The texts a person reads in SpookLudo's clients (the web page and the terminal client), in
# English: the template every language's catalogue (po/<lang>.po) translates. Made by
# scripts/po-update.sh (xgettext over web/js, client/ and common/src); do not edit by hand.
msgid ""
msgstr ""
"Project-Id-Version: spookludo\n"
"Language: \n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
HEADER
bodies=()
for f in "$work/js.pot" "$work/cpp.pot" "$work/shared.pot"; do [ -s "$f" ] && bodies+=("$f"); done
if [ ${#bodies[@]} -gt 0 ]; then
  # One entry per text (a text both clients use lists both files).
  msgcat --no-wrap --sort-by-file --to-code=UTF-8 "${bodies[@]}" -o "$work/body.pot"
  echo >>"$work/spookludo.pot"
  # Everything after xgettext's header entry (the lines up to the first empty one).
  awk 'body { print } /^$/ { body = 1 }' "$work/body.pot" >>"$work/spookludo.pot"
fi

if [ "$mode" = check ]; then
  if cmp -s "$work/spookludo.pot" po/spookludo.pot; then
    echo "po-update.sh: po/spookludo.pot is up to date with the sources"
    exit 0
  fi
  echo "po-update.sh: po/spookludo.pot is not up to date with the sources; run scripts/po-update.sh. The difference:" >&2
  diff -u po/spookludo.pot "$work/spookludo.pot" | grep '^[-+]msg' | head -40 >&2 || true
  exit 1
fi

cp "$work/spookludo.pot" po/spookludo.pot
for po in po/*.po; do
  [ -e "$po" ] || continue
  msgmerge --quiet --update --backup=none --no-wrap --add-location=file --sort-by-file "$po" po/spookludo.pot
  echo "po-update.sh: $po merged"
done
echo "po-update.sh: po/spookludo.pot written"
