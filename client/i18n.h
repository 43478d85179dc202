#pragma once
// The terminal client's texts in the reader's language, from the catalogues in po/ (GNU gettext
// .po files, embedded at build time). The English text is the message id:
//   tr("Seats: {taken} of {seats} taken", {{"taken", "2"}, {"seats", "4"}})
// scripts/po-update.sh finds every tr/trn/trc call with xgettext.
// (Stub of the API: the catalogue reading lands with the languages work.)
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace spookludo::client {

using TrArgs = std::initializer_list<std::pair<std::string_view, std::string>>;

// `msgid` in the chosen language, its {name} places filled from `args`.
std::string tr(std::string_view msgid, TrArgs args = {});
// The form for `n`; {n} is filled with n.
std::string trn(std::string_view one, std::string_view other, long n, TrArgs args = {});
// `msgid` in a context (gettext's msgctxt).
std::string trc(std::string_view context, std::string_view msgid, TrArgs args = {});

// Chooses the language: `wanted` (--lang) if not empty, else LANGUAGE, LC_ALL, LC_MESSAGES, LANG.
// English when none of them names a catalogue. Returns the language chosen ("en", "ms").
std::string choose_language(std::string_view wanted = {});

}  // namespace spookludo::client
