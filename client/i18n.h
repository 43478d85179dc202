#pragma once
// The terminal client's texts in the reader's language, from the catalogues in po/ (GNU gettext
// .po files, embedded at build time). The English text is the message id:
//   tr("Seats: {taken} of {seats} taken", {{"taken", "2"}, {"seats", "4"}})
// scripts/po-update.sh finds every tr/trn/trc call with xgettext.
//
// Read here rather than through libintl: libintl needs compiled .mo files in a locale directory
// AND the locale installed on the machine (under the C locale it ignores LANGUAGE), which fails
// in Docker images and on minimal machines; the .po text embedded in the program always works.
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spookludo::client {

using TrArgs = std::initializer_list<std::pair<std::string_view, std::string>>;

// `msgid` in the chosen language, its {name} places filled from `args`.
std::string tr(std::string_view msgid, TrArgs args = {});
// The form for `n`; {n} is filled with n.
std::string trn(std::string_view one, std::string_view other, long n, TrArgs args = {});
// `msgid` in a context (gettext's msgctxt).
std::string trc(std::string_view context, std::string_view msgid, TrArgs args = {});

// Chooses the language: `wanted` (--lang) if not empty, else LANGUAGE, LC_ALL, LC_MESSAGES, LANG.
// English when none of them names a catalogue. Returns the language chosen ("en", "ms", or the
// test-only pseudo-language "qps", which wraps every text in ⟦…⟧ with its places filled inside).
std::string choose_language(std::string_view wanted = {});
// A text made elsewhere (its English, with {name} places, marked for the template where it is
// written, e.g. the verifier's verify_line), in the chosen language, its places filled from `args`.
std::string tr_text(std::string_view msgid, const std::vector<std::pair<std::string, std::string>>& args);

// The language chosen last ("en" before any choice).
std::string current_language();

// ---- The parts, for the tests ------------------------------------------------------------------
namespace i18n_detail {

// One language's catalogue: its translations by key (msgid, or msgctxt "\x04" msgid), each with
// its forms (one without plurals), and its plural rule (the header's Plural-Forms).
struct Catalogue {
    std::map<std::string, std::vector<std::string>, std::less<>> entries;
    std::string plural = "n != 1";
    int nplurals = 2;
};

// Parses a .po file's text: msgctxt, msgid, msgid_plural, msgstr, msgstr[N], C escapes, strings
// over several lines; fuzzy, obsolete (#~) and untranslated entries are left out. Malformed
// lines are skipped (a catalogue never stops the program).
Catalogue parse_po(std::string_view text);

// Evaluates a Plural-Forms expression (n, integers, ?:, ||, &&, ==, !=, <, <=, >, >=, %, + - * /,
// !, parentheses) for `n`; nullopt when it is not one (or divides by zero).
std::optional<long> eval_plural(std::string_view expression, long n);

// The language named by `wanted`, else by the environment read through `env` (LANGUAGE's colon
// list first, then LC_ALL, LC_MESSAGES, LANG), among `available` (e.g. {"ms"}): "ms_MY.UTF-8"
// gives "ms"; "qps" is always available; "en" when nothing matches.
std::string pick_language(std::string_view wanted, const std::function<const char*(const char*)>& env,
                          const std::vector<std::string>& available);

// The {name} places of `text` filled from `args` (a place without an argument stays as it is).
std::string fill(std::string_view text, const std::vector<std::pair<std::string, std::string>>& args);

}  // namespace i18n_detail

}  // namespace spookludo::client
