// The drawing's text helpers: the visible width of a line (ANSI escapes and UTF-8 aside), lines
// cut, padded, trimmed, centred and word-wrapped to a width, painted in colour, joined.
#include <cstdio>

#include "i18n.h"
#include "render_parts.h"

namespace spookludo::client {

int visible_width(const std::string& line) {
    int width = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const auto c = static_cast<unsigned char>(line[i]);
        if (c == 0x1b && i + 1 < line.size() && line[i + 1] == '[') {
            i += 2;
            while (i < line.size() && (static_cast<unsigned char>(line[i]) < 0x40 || static_cast<unsigned char>(line[i]) > 0x7e)) ++i;
            continue;
        }
        if ((c & 0xc0) == 0x80) continue;  // UTF-8 continuation byte
        ++width;
    }
    return width;
}

namespace render_detail {

// `text` wrapped in the SGR `codes` when colour is on.
std::string paint(const Style& style, std::string_view codes, std::string_view text) {
    if (!style.color || codes.empty() || text.empty()) return std::string(text);
    std::string out = "\x1b[";
    out += codes;
    out += 'm';
    out += text;
    out += "\x1b[0m";
    return out;
}

// The line cut to `width` visible columns (escape sequences kept, colour reset after a cut).
std::string fit(const std::string& line, int width) {
    std::string out;
    int seen = 0;
    bool escapes = false;
    for (std::size_t i = 0; i < line.size();) {
        const auto c = static_cast<unsigned char>(line[i]);
        if (c == 0x1b && i + 1 < line.size() && line[i + 1] == '[') {
            std::size_t j = i + 2;
            while (j < line.size() && (static_cast<unsigned char>(line[j]) < 0x40 || static_cast<unsigned char>(line[j]) > 0x7e)) ++j;
            out.append(line, i, j + 1 - i);
            escapes = true;
            i = j + 1;
            continue;
        }
        std::size_t len = 1;
        if (c >= 0xf0) len = 4;
        else if (c >= 0xe0) len = 3;
        else if (c >= 0xc0) len = 2;
        if (seen >= width) {
            if (escapes) out += "\x1b[0m";
            return out;
        }
        out.append(line, i, len);
        ++seen;
        i += len;
    }
    return out;
}

// Cut or padded with spaces to exactly `width` visible columns.
std::string pad(const std::string& line, int width) {
    std::string out = fit(line, width);
    const int w = visible_width(out);
    if (w < width) out.append(to_size(width - w), ' ');
    return out;
}

// Without the trailing blanks (escape sequences kept).
std::string rtrim(const std::string& line) {
    std::string out;
    std::size_t keep = 0;  // out's length up to the last visible non-blank
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
            std::size_t j = i + 2;
            while (j < line.size() && (static_cast<unsigned char>(line[j]) < 0x40 || static_cast<unsigned char>(line[j]) > 0x7e)) ++j;
            out.append(line, i, j + 1 - i);
            i = j;
            continue;
        }
        if (line[i] != ' ') {
            // Blanks between the last visible character and this one stay.
            keep = out.size() + 1;
        }
        out += line[i];
    }
    // Drop the blanks after `keep`, but not the escape sequences among them.
    std::string tail;
    for (std::size_t i = keep; i < out.size(); ++i)
        if (out[i] != ' ') tail += out[i];
    // A blank inside an escape sequence cannot occur (parameters are digits and ';').
    return out.substr(0, keep) + tail;
}

std::string centre(const std::string& text, int width) {
    const int w = visible_width(text);
    if (w >= width) return fit(text, width);
    return std::string(to_size((width - w) / 2), ' ') + text;
}

// Word-wraps plain text (the story) to `width` columns.
std::vector<std::string> wrap(const std::string& text, int width) {
    std::vector<std::string> lines;
    if (width <= 0) return lines;
    std::string line;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find(' ', at);
        if (end == std::string::npos) end = text.size();
        std::string word = text.substr(at, end - at);
        at = end + 1;
        if (word.empty()) continue;
        const int lw = visible_width(line);
        const int ww = visible_width(word);
        if (!line.empty() && lw + 1 + ww > width) {
            lines.push_back(line);
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += word;
        while (visible_width(line) > width) {  // a word longer than the line
            const std::string head = fit(line, width);
            lines.push_back(head);
            line = line.substr(head.size());
        }
    }
    if (!line.empty() || lines.empty()) lines.push_back(line);
    return lines;
}

std::string seconds_text(int ms) {
    char buffer[32];
    if (ms % 1000 == 0) std::snprintf(buffer, sizeof buffer, "%d", ms / 1000);
    else std::snprintf(buffer, sizeof buffer, "%.1f", ms / 1000.0);
    return tr("{seconds} s", {{"seconds", buffer}});
}

std::string time_factor_text(int factor) {
    if (factor <= 0) return tr("Time to choose: no limit");
    if (factor == 1) return tr("Time to choose: normal");
    return tr("Time to choose: x{factor}", {{"factor", std::to_string(factor)}});
}


std::string join(const std::vector<std::string>& items, std::string_view sep) {
    std::string out;
    for (const auto& item : items) {
        if (!out.empty()) out += sep;
        out += item;
    }
    return out;
}

void append(std::vector<std::string>& to, const std::vector<std::string>& lines) { to.insert(to.end(), lines.begin(), lines.end()); }

}  // namespace render_detail

}  // namespace spookludo::client
