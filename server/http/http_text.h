#pragma once
// The little text handling of HTTP's fields that the routes and the Origin check share (ASCII
// only: HTTP's tokens are): case, letters and digits, trimming, a port.
#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>

namespace spookludo::server::http_text {

inline char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
inline bool letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
inline bool digit(char c) { return c >= '0' && c <= '9'; }
inline bool hex_digit(char c) { return digit(c) || (lower(c) >= 'a' && lower(c) <= 'f'); }

inline std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = lower(c);
    return out;
}

inline bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

inline std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// A port: 1 to 5 digits, 1 to 65535.
inline std::optional<unsigned> port_of(std::string_view s) {
    if (s.empty() || s.size() > 5 || !std::all_of(s.begin(), s.end(), digit)) return std::nullopt;
    unsigned port = 0;
    std::from_chars(s.data(), s.data() + s.size(), port);
    if (port == 0 || port > 65535) return std::nullopt;
    return port;
}

}  // namespace spookludo::server::http_text
