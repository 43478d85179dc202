#pragma once
// Text from outside (a client's message, a record or board file) read as Unicode: UTF-8
// decoding that never throws, the character classes the server cares about, and the one way
// such text is quoted in an error message or a log line.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace spookludo {

// How many characters of a client's text an error message or a log line quotes by default.
inline constexpr std::size_t kQuotedChars = 32;

// The character that starts at `at` (UTF-8, as Unicode defines well-formed: no overlong forms,
// no surrogates, nothing above U+10FFFF); `at` moves past it. An ill-formed sequence gives
// nothing and `at` moves past its maximal ill-formed part (at least one byte), so a decoder
// that replaces each with U+FFFD agrees with the Unicode recommendation. `at` < text.size().
std::optional<char32_t> next_char(std::string_view text, std::size_t& at) noexcept;

// Unicode general category Cc: C0 controls, DEL, C1 controls.
bool is_control_char(char32_t c) noexcept;
// Unicode general category Cf (format characters: bidi controls U+202A-202E, U+2066-2069,
// zero-width U+200B-200F, U+2060-2064, U+FEFF, the tags U+E0000-E007F, ...).
bool is_format_char(char32_t c) noexcept;

// Client text in double quotes, safe to put in an error reply or a log line whatever it holds:
// at most `max_chars` characters of it, cut on a character boundary and marked with "…" when
// cut; ill-formed UTF-8 replaced with U+FFFD; `"` and `\` escaped; control and format
// characters and line or paragraph separators written as escapes (\n, \t, \u{1B}, \u{202E}),
// so that a quoted text can neither break a terminal nor reorder or hide what follows it.
// Never throws except std::bad_alloc.
std::string quote_client_text(std::string_view text, std::size_t max_chars = kQuotedChars);

// Unicode's simple case folding (CaseFolding.txt, its C and S mappings: one character for one):
// the form in which texts that differ only by case are equal, in every script that has case
// (Latin with its accents, Greek, Cyrillic, Armenian, Georgian, Cherokee, ...): "ZOË" and "zoë",
// "ÉMILE" and "émile", "ΣΊΣΥΦΟΣ" and "σίσυφος" (final sigma too). Characters without case
// (digits, CJK, emoji) are themselves. Not the Turkic dotted and dotless i, nor full folding
// ("ß" stays "ß", not "ss"); no normalisation (a precomposed "é" and "e" + U+0301 differ).
char32_t fold_char(char32_t c) noexcept;
// The text with each character folded (fold_char); ill-formed UTF-8 bytes are kept as they are.
std::string fold_case(std::string_view text);

// The text with every ill-formed UTF-8 sequence replaced by U+FFFD (the same text when it is
// well formed).
std::string valid_utf8_or_replaced(std::string_view text);

}  // namespace spookludo
