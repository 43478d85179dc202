#pragma once
// Writing JSON text directly, without building a tree: for what is written often (the messages
// of every game step, game records). nlohmann::json remains the reader and writes the rest.
#include <charconv>
#include <cmath>
#include <concepts>
#include <string>
#include <string_view>
#include <vector>

namespace spookludo::json_text {

// A string with JSON's escapes (quote, backslash, control characters); UTF-8 passes through.
inline void string(std::string& out, std::string_view text) {
    out += '"';
    for (const char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    static constexpr char hex[] = "0123456789abcdef";
                    out += "\\u00";
                    out += hex[(c >> 4) & 0xF];
                    out += hex[c & 0xF];
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

template <std::integral T>
void number(std::string& out, T n) {
    char buffer[24];
    out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, n).ptr);
}

// The shortest text that reads back as the same double; null for NaN and infinities.
inline void number(std::string& out, double d) {
    if (!std::isfinite(d)) {
        out += "null";
        return;
    }
    char buffer[32];
    out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, d).ptr);
}

inline void boolean(std::string& out, bool b) { out += b ? "true" : "false"; }

template <std::integral T>
void numbers(std::string& out, const std::vector<T>& list) {
    out += '[';
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (i) out += ',';
        number(out, list[i]);
    }
    out += ']';
}

inline void strings(std::string& out, const std::vector<std::string>& list) {
    out += '[';
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (i) out += ',';
        string(out, list[i]);
    }
    out += ']';
}

}  // namespace spookludo::json_text
