// Text from outside quoted in error messages and logs (text.h): cut on a character boundary,
// ill-formed UTF-8 replaced, control and format characters escaped.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "spookludo/text.h"

using namespace spookludo;

namespace {
// What a JSON serialiser that refuses ill-formed UTF-8 (nlohmann's default) makes of it.
bool serialises(const std::string& text) {
    try {
        (void)nlohmann::json(text).dump();
        return true;
    } catch (const nlohmann::json::exception&) {
        return false;
    }
}
}  // namespace

TEST_CASE("text: a quoted client text is cut on a character boundary, never inside a 2-, 3- or 4-byte character [text][security]") {
    // 'a' then 2-byte characters: a byte count of 32 would end inside the 16th é.
    std::string e_acute = "a";
    for (int i = 0; i < 20; ++i) e_acute += "\xC3\xA9";  // é
    std::string q = quote_client_text(e_acute, 16);
    CHECK(q == "\"a" + e_acute.substr(1, 30) + "\xE2\x80\xA6\"");  // 'a', 15 é, then …
    CHECK(serialises(q));
    // 3 bytes: € (E2 82 AC); 4 bytes: 🎃 (F0 9F 8E 83).
    std::string euros, pumpkins;
    for (int i = 0; i < 10; ++i) euros += "\xE2\x82\xAC", pumpkins += "\xF0\x9F\x8E\x83";
    CHECK(quote_client_text(euros, 3) == "\"\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x80\xA6\"");
    CHECK(quote_client_text("x" + pumpkins, 2) == "\"x\xF0\x9F\x8E\x83\xE2\x80\xA6\"");
    for (std::size_t n = 0; n < 12; ++n) {
        CHECK(serialises(quote_client_text(euros, n)));
        CHECK(serialises(quote_client_text("ab" + pumpkins, n)));
    }
    // Not cut: no mark.
    CHECK(quote_client_text("Ann", 3) == "\"Ann\"");
    CHECK(quote_client_text("", 3) == "\"\"");
    CHECK(quote_client_text("Anna", 3) == "\"Ann\xE2\x80\xA6\"");
}

TEST_CASE("text: ill-formed UTF-8 in a quoted text becomes U+FFFD, whatever the bytes [text][security]") {
    const std::string fffd = "\xEF\xBF\xBD";
    CHECK(quote_client_text("a\xFF" "b") == "\"a" + fffd + "b\"");
    CHECK(quote_client_text("\xC3") == "\"" + fffd + "\"");                 // cut 2-byte sequence
    CHECK(quote_client_text("\xE2\x82" "x") == "\"" + fffd + "x\"");         // cut 3-byte sequence
    CHECK(quote_client_text("\xC0\xAF") == "\"" + fffd + fffd + "\"");       // overlong '/'
    CHECK(quote_client_text("\xED\xA0\x80") == "\"" + fffd + fffd + fffd + "\"");  // a surrogate
    CHECK(quote_client_text("\xF4\x90\x80\x80") == "\"" + fffd + fffd + fffd + fffd + "\"");  // above U+10FFFF
    CHECK(quote_client_text("\x80\x80") == "\"" + fffd + fffd + "\"");       // lone continuation bytes
    // Every byte string, one to three bytes long, quotes to something a strict serialiser takes.
    for (int a = 0; a < 256; ++a)
        for (int b : {0x00, 0x41, 0x80, 0x9F, 0xA0, 0xBF, 0xC3, 0xE2, 0xF0, 0xFF}) {
            const std::string s{static_cast<char>(a), static_cast<char>(b), '\xBF'};
            CHECK(serialises(quote_client_text(s, 2)));
            CHECK(serialises(valid_utf8_or_replaced(s)));
        }
    CHECK(valid_utf8_or_replaced("Zo\xC3\xAB") == "Zo\xC3\xAB");
    CHECK(valid_utf8_or_replaced("Zo\xC3") == "Zo" + fffd);
}

TEST_CASE("text: control characters, quotes and backslashes in a quoted text are escaped [text][security]") {
    CHECK(quote_client_text("\x1b[2J") == "\"\\u{1B}[2J\"");
    CHECK(quote_client_text("a\nb\tc\r") == "\"a\\nb\\tc\\r\"");
    CHECK(quote_client_text(std::string("\0", 1)) == "\"\\u{00}\"");
    CHECK(quote_client_text("\x7f") == "\"\\u{7F}\"");
    CHECK(quote_client_text("\xC2\x9B" "31m") == "\"\\u{9B}31m\"");  // the 8-bit CSI
    CHECK(quote_client_text("say \"hi\" \\o/") == "\"say \\\"hi\\\" \\\\o/\"");
    CHECK(quote_client_text("line\xE2\x80\xA8" "break") == "\"line\\u{2028}break\"");
    // An escape counts as one character of the limit.
    CHECK(quote_client_text("\x1b\x1b\x1b", 2) == "\"\\u{1B}\\u{1B}\xE2\x80\xA6\"");
}

TEST_CASE("text: bidi controls and invisible characters in a quoted text are escaped, so it cannot reorder or hide what follows [text][security]") {
    CHECK(quote_client_text("abc\xE2\x80\xAE" "fed") == "\"abc\\u{202E}fed\"");  // RIGHT-TO-LEFT OVERRIDE
    CHECK(quote_client_text("\xE2\x81\xA6x\xE2\x81\xA9") == "\"\\u{2066}x\\u{2069}\"");  // isolates
    CHECK(quote_client_text("a\xE2\x80\x8B" "b") == "\"a\\u{200B}b\"");  // ZERO WIDTH SPACE
    CHECK(quote_client_text("\xEF\xBB\xBF") == "\"\\u{FEFF}\"");          // BOM
    CHECK(quote_client_text("\xF3\xA0\x80\x81") == "\"\\u{E0001}\"");    // LANGUAGE TAG
    CHECK(quote_client_text("\xC2\xAD") == "\"\\u{AD}\"");                // SOFT HYPHEN
    // Letters with accents, other scripts and emoji pass as they are.
    CHECK(quote_client_text("Zoë 🎃 Ωμέγα עברית") == "\"Zoë 🎃 Ωμέγα עברית\"");
}

TEST_CASE("text: next_char decodes well-formed UTF-8 and classes Cc and Cf as Unicode does [text]") {
    const std::string s = "A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x8E\x83";
    std::size_t at = 0;
    CHECK(next_char(s, at) == U'A');
    CHECK(next_char(s, at) == U'\u00E9');
    CHECK(next_char(s, at) == U'\u20AC');
    CHECK(next_char(s, at) == U'\U0001F383');
    CHECK(at == s.size());
    for (char32_t c : {U'\u0000', U'\u001F', U'\u007F', U'\u0085', U'\u009F'}) CHECK(is_control_char(c));
    for (char32_t c : {U' ', U'~', U'\u00A0', U'\u00E9'}) CHECK_FALSE(is_control_char(c));
    for (char32_t c : {U'\u00AD', U'\u061C', U'\u200B', U'\u200D', U'\u200F', U'\u202A', U'\u202E', U'\u2060',
                       U'\u2066', U'\u2069', U'\uFEFF', U'\U000E0001', U'\U000E007F'})
        CHECK(is_format_char(c));
    for (char32_t c : {U'a', U'\u00E9', U'\u200A', U'\u2010', U'\u2065', U'\uFEFE', U'\U0001F383'})
        CHECK_FALSE(is_format_char(c));
}

TEST_CASE("text: case folding makes texts that differ only by case equal, in Latin and its accents, Greek and Cyrillic [text]") {
    CHECK(fold_case("ZOË 🎲") == "zoë 🎲");
    CHECK(fold_case("Zoë 🎲") == "zoë 🎲");
    CHECK(fold_case("Émile") == fold_case("émile"));
    CHECK(fold_case("ÀÉÎÕÜÇÑØÅÆÞ") == "àéîõüçñøåæþ");        // Latin-1 Supplement
    CHECK(fold_case("ŁÓDŹ ŒUVRE ĞÜŞ ŮŽĚ") == "łódź œuvre ğüş ůžě");  // Latin Extended-A
    CHECK(fold_case("ǄǅǆƏȘȚ") == "ǆǆǆəșț");                  // Latin Extended-B
    CHECK(fold_case("Ệẞ") == "ệß");                          // Latin Extended Additional
    CHECK(fold_case("ΣΊΣΥΦΟΣ") == fold_case("σίσυφος"));     // Greek, the final sigma too
    CHECK(fold_case("ΑΒΓΔ ΆΈΉ") == "αβγδ άέή");
    CHECK(fold_case("ПРИВЕТ ЁЖ ҐЇЄ Љ") == "привет ёж ґїє љ");  // Cyrillic
    CHECK(fold_case("ԱՐԵՎ") == "արեվ");                      // Armenian
    CHECK(fold_case("ＡＢＣ") == "ａｂｃ");                    // full width
    // Simple folding: one character for one.
    CHECK(fold_case("ſµ") == "sμ");
    CHECK(fold_case("ß") == "ß");
    CHECK(fold_case("İ") == "İ");
    // What has no case is itself; ill-formed bytes are kept as they are.
    CHECK(fold_case("0-9 漢字 👩‍🚀 ~") == "0-9 漢字 👩‍🚀 ~");
    CHECK(fold_case(std::string("A\xFF\xC3", 3)) == std::string("a\xFF\xC3", 3));
    // Folding twice changes nothing more.
    for (char32_t c = 0; c < 0x30000; ++c) {
        if (c >= 0xD800 && c <= 0xDFFF) continue;
        if (fold_char(fold_char(c)) != fold_char(c)) FAIL_CHECK("U+" << std::hex << static_cast<unsigned>(c));
    }
}
