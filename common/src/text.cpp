#include "spookludo/text.h"

#include <algorithm>
#include <iterator>

namespace spookludo {

namespace {

struct Range {
    char32_t first, last;
};

// Unicode 15.1, general category Cf.
constexpr Range kFormat[] = {
    {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},   {0x070F, 0x070F},
    {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x180E, 0x180E},   {0x200B, 0x200F},   {0x202A, 0x202E},
    {0x2060, 0x2064},   {0x2066, 0x206F},   {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD},
    {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
    {0xE0020, 0xE007F},
};

bool in(unsigned char b, unsigned char lo, unsigned char hi) { return b >= lo && b <= hi; }

void append_escape(std::string& out, char32_t c) {
    static constexpr char hex[] = "0123456789ABCDEF";
    out += "\\u{";
    bool started = false;
    for (int shift = 20; shift >= 0; shift -= 4) {
        const auto digit = (c >> shift) & 0xF;
        if (digit || started || shift < 8) {  // at least two digits
            out += hex[digit];
            started = true;
        }
    }
    out += '}';
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
constexpr std::string_view kEllipsis = "\xE2\x80\xA6";     // U+2026

}  // namespace

std::optional<char32_t> next_char(std::string_view text, std::size_t& at) noexcept {
    const auto b0 = static_cast<unsigned char>(text[at]);
    if (b0 < 0x80) {
        ++at;
        return b0;
    }
    // Table 3-7 of the Unicode standard: the range of the second byte depends on the first.
    int length = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    char32_t c = 0;
    if (in(b0, 0xC2, 0xDF)) {
        length = 2;
        c = b0 & 0x1F;
    } else if (in(b0, 0xE0, 0xEF)) {
        length = 3;
        c = b0 & 0x0F;
        if (b0 == 0xE0) lo = 0xA0;  // no overlong forms
        if (b0 == 0xED) hi = 0x9F;  // no surrogates
    } else if (in(b0, 0xF0, 0xF4)) {
        length = 4;
        c = b0 & 0x07;
        if (b0 == 0xF0) lo = 0x90;  // no overlong forms
        if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
    } else {
        ++at;  // a continuation byte, C0, C1 or F5 to FF: never in well-formed text
        return std::nullopt;
    }
    std::size_t i = at + 1;
    for (int k = 1; k < length; ++k, ++i) {
        if (i >= text.size()) {
            at = i;
            return std::nullopt;
        }
        const auto b = static_cast<unsigned char>(text[i]);
        if (!in(b, k == 1 ? lo : 0x80, k == 1 ? hi : 0xBF)) {
            at = i;  // the maximal ill-formed part ends before this byte
            return std::nullopt;
        }
        c = (c << 6) | (b & 0x3F);
    }
    at = i;
    return c;
}

bool is_control_char(char32_t c) noexcept { return c < 0x20 || (c >= 0x7F && c <= 0x9F); }

bool is_format_char(char32_t c) noexcept {
    const auto* it = std::upper_bound(std::begin(kFormat), std::end(kFormat), c,
                                      [](char32_t x, const Range& r) { return x < r.first; });
    return it != std::begin(kFormat) && c <= std::prev(it)->last;
}

std::string quote_client_text(std::string_view text, std::size_t max_chars) {
    std::string out;
    out.reserve(std::min(text.size(), max_chars * 4) + 8);
    out += '"';
    std::size_t at = 0, chars = 0;
    while (at < text.size()) {
        if (chars == max_chars) {
            out += kEllipsis;
            break;
        }
        ++chars;
        const std::size_t start = at;
        const auto c = next_char(text, at);
        if (!c) {
            out += kReplacement;
            continue;
        }
        switch (*c) {
            case '"': out += "\\\""; continue;
            case '\\': out += "\\\\"; continue;
            case '\n': out += "\\n"; continue;
            case '\r': out += "\\r"; continue;
            case '\t': out += "\\t"; continue;
            default: break;
        }
        if (is_control_char(*c) || is_format_char(*c) || *c == 0x2028 || *c == 0x2029)
            append_escape(out, *c);
        else
            out.append(text.substr(start, at - start));
    }
    out += '"';
    return out;
}

std::string valid_utf8_or_replaced(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t start = at;
        if (next_char(text, at))
            out.append(text.substr(start, at - start));
        else
            out += kReplacement;
    }
    return out;
}

}  // namespace spookludo
