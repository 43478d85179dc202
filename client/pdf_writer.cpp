#include "pdf_writer.h"

#include <array>
#include <cstdio>
#include <utility>

namespace spookludo::pdf {

namespace {

// The fonts' advance widths (thousandths of the size) for the characters 32..126, from the
// Adobe Font Metrics of Helvetica and Helvetica-Bold (WinAnsiEncoding: 39 is quotesingle).
constexpr std::array<short, 95> kRegular{
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,  // ' '../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,  // 0..?
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,  // @..O
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,  // P.._
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,  // `..o
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584};      // p..~
constexpr std::array<short, 95> kBold{
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,  // ' '../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,  // 0..?
    975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,  // @..O
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,  // P.._
    333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,  // `..o
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584};      // p..~

// Text in WinAnsiEncoding: UTF-8 in, one byte a character out. ASCII and Latin-1 (U+00A0 to
// U+00FF, the same bytes in WinAnsiEncoding: a name like "Zoë" or "Søren") are kept; anything
// else, and bytes that are not UTF-8, become '?'.
std::string win_ansi(std::string_view utf8) {
    std::string out;
    for (std::size_t i = 0; i < utf8.size();) {
        const auto c = static_cast<unsigned char>(utf8[i]);
        if (c < 0x80) {
            out += c >= 32 && c <= 126 ? static_cast<char>(c) : '?';
            ++i;
            continue;
        }
        std::size_t length = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
        unsigned code = length == 2 ? c & 0x1Fu : length == 3 ? c & 0x0Fu : c & 0x07u;
        bool valid = length > 1 && i + length <= utf8.size();
        for (std::size_t k = 1; valid && k < length; ++k) {
            const auto next = static_cast<unsigned char>(utf8[i + k]);
            if ((next & 0xC0) != 0x80) valid = false;
            code = (code << 6) | (next & 0x3Fu);
        }
        out += valid && code >= 0xA0 && code <= 0xFF ? static_cast<char>(code) : '?';
        i += valid ? length : 1;
    }
    return out;
}

// A number as PDF writes it: at most two decimals, no exponent, no trailing zeros.
std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    if (s == "-0") s = "0";
    return s;
}

// A PDF literal string of WinAnsi bytes: (text) with the backslash and parentheses escaped, and
// the bytes past ASCII as octal escapes (the file stays ASCII).
std::string literal(std::string_view bytes) {
    std::string out = "(";
    for (const char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        if (b >= 0x80) {
            char escape[8];
            std::snprintf(escape, sizeof escape, "\\%03o", b);
            out += escape;
            continue;
        }
        if (c == '(' || c == ')' || c == '\\') out += '\\';
        out += c;
    }
    return out + ")";
}

// The circle's control point distance for four Bezier quarter arcs.
constexpr double kKappa = 0.5523;

}  // namespace

double text_width(Font font, double size, std::string_view text) {
    const auto& widths = font == Font::bold ? kBold : kRegular;
    double total = 0;
    for (const char c : win_ansi(text)) {
        const auto b = static_cast<unsigned char>(c);
        total += b >= 32 && b <= 126 ? widths[b - 32u] : 556;  // Latin-1's letters: about a digit's width
    }
    return total * size / 1000;
}

void Page::op(std::string_view text) {
    content_ += text;
    content_ += '\n';
}

void Page::text(double x, double y, Font font, double size, std::string_view words) {
    op("BT /" + std::string(font == Font::bold ? "F2 " : "F1 ") + num(size) + " Tf " + num(x) + " " + num(y) + " Td " +
       literal(win_ansi(words)) + " Tj ET");
}

void Page::text_centred(double x, double y, Font font, double size, std::string_view words) {
    text(x - text_width(font, size, words) / 2, y, font, size, words);
}

void Page::line_width(double w) { op(num(w) + " w"); }
void Page::stroke_grey(double g) { op(num(g) + " G"); }
void Page::fill_grey(double g) { op(num(g) + " g"); }
void Page::move_to(double x, double y) { op(num(x) + " " + num(y) + " m"); }
void Page::line_to(double x, double y) { op(num(x) + " " + num(y) + " l"); }
void Page::curve_to(double x1, double y1, double x2, double y2, double x3, double y3) {
    op(num(x1) + " " + num(y1) + " " + num(x2) + " " + num(y2) + " " + num(x3) + " " + num(y3) + " c");
}
void Page::close() { op("h"); }
void Page::stroke() { op("S"); }
void Page::fill() { op("f"); }
void Page::fill_stroke() { op("B"); }

void Page::rect(double x, double y, double w, double h) { op(num(x) + " " + num(y) + " " + num(w) + " " + num(h) + " re"); }

void Page::ellipse(double cx, double cy, double rx, double ry) {
    const double kx = rx * kKappa, ky = ry * kKappa;
    move_to(cx + rx, cy);
    curve_to(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry);
    curve_to(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy);
    curve_to(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry);
    curve_to(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy);
    close();
}

void Page::circle(double cx, double cy, double r) { ellipse(cx, cy, r, r); }

void Page::polygon(const std::vector<std::pair<double, double>>& points) {
    if (points.empty()) return;
    move_to(points[0].first, points[0].second);
    for (std::size_t i = 1; i < points.size(); ++i) line_to(points[i].first, points[i].second);
    close();
}

void Page::line(double x1, double y1, double x2, double y2) {
    move_to(x1, y1);
    line_to(x2, y2);
    stroke();
}

Document::Document(PageSize size, std::string title) : size_(size), title_(std::move(title)) {}

Page& Document::add_page() { return pages_.emplace_back(); }

std::string Document::bytes() const {
    // Objects: 1 catalog, 2 page tree, 3 and 4 the fonts, 5 the document's information, then
    // for every page its page object and its content stream.
    std::string out = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
    std::vector<std::size_t> offsets;
    auto object = [&](const std::string& body) {
        offsets.push_back(out.size());
        out += std::to_string(offsets.size()) + " 0 obj\n" + body + "\nendobj\n";
    };
    const std::size_t first_page = 6;
    object("<< /Type /Catalog /Pages 2 0 R >>");
    std::string kids;
    for (std::size_t i = 0; i < pages_.size(); ++i) kids += std::to_string(first_page + 2 * i) + " 0 R ";
    object("<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(pages_.size()) + " /MediaBox [0 0 " +
           num(size_.width) + " " + num(size_.height) + "] >>");
    object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
    object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
    object("<< /Title " + literal(win_ansi(title_)) + " /Producer (spookludo) >>");
    for (std::size_t i = 0; i < pages_.size(); ++i) {
        object("<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents " +
               std::to_string(first_page + 2 * i + 1) + " 0 R >>");
        const std::string& content = pages_[i].content();
        object("<< /Length " + std::to_string(content.size()) + " >>\nstream\n" + content + "endstream");
    }
    const std::size_t xref = out.size();
    out += "xref\n0 " + std::to_string(offsets.size() + 1) + "\n0000000000 65535 f \n";
    for (std::size_t offset : offsets) {
        char entry[24];
        std::snprintf(entry, sizeof entry, "%010zu 00000 n \n", offset);
        out += entry;
    }
    out += "trailer\n<< /Size " + std::to_string(offsets.size() + 1) + " /Root 1 0 R /Info 5 0 R >>\nstartxref\n" +
           std::to_string(xref) + "\n%%EOF\n";
    return out;
}

}  // namespace spookludo::pdf
