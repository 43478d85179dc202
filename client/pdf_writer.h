#pragma once
// A small PDF writer of our own (PDF 1.4): pages of one size, text in the base-14 fonts Helvetica
// and Helvetica-Bold (WinAnsiEncoding, nothing embedded: every PDF reader has them) and vector
// drawing (lines, rectangles, polygons, Bezier curves, circles) in grey levels. No dependency:
// the boards' printout (board_print.h) is the only user. Text is UTF-8; what WinAnsiEncoding has
// of it is written (ASCII and Latin-1: "Zoë"), anything else as '?', so that a PDF reader and
// pdftotext give back the same words.
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace spookludo::pdf {

enum class Font { regular, bold };

// The page sizes in points (1/72 inch): A4 is 210 x 297 mm, US Letter 8.5 x 11 in.
struct PageSize {
    double width;
    double height;
};
inline constexpr PageSize kA4{595, 842};
inline constexpr PageSize kLetter{612, 792};

// The width of `text` in `font` at `size` points (the fonts' own metrics).
double text_width(Font font, double size, std::string_view text);

// One page's drawing. Coordinates are PDF's: points from the bottom left corner of the page.
class Page {
public:
    // Text with its baseline's left end at (x, y); centred: its middle at x.
    void text(double x, double y, Font font, double size, std::string_view text);
    void text_centred(double x, double y, Font font, double size, std::string_view text);

    // The state for what follows: line width, and grey levels (0 black, 1 white).
    void line_width(double w);
    void stroke_grey(double g);
    void fill_grey(double g);

    // A path: move, lines, curves, close; then stroke, fill or both.
    void move_to(double x, double y);
    void line_to(double x, double y);
    void curve_to(double x1, double y1, double x2, double y2, double x3, double y3);
    void close();
    void stroke();
    void fill();
    void fill_stroke();

    // Shapes added to the path (then stroke(), fill() or fill_stroke()).
    void rect(double x, double y, double w, double h);
    void circle(double cx, double cy, double r);
    void ellipse(double cx, double cy, double rx, double ry);
    void polygon(const std::vector<std::pair<double, double>>& points);

    // A line from one point to another, stroked at once.
    void line(double x1, double y1, double x2, double y2);

    const std::string& content() const noexcept { return content_; }

private:
    void op(std::string_view text);
    std::string content_;
};

class Document {
public:
    explicit Document(PageSize size, std::string title = {});
    Page& add_page();
    std::size_t page_count() const noexcept { return pages_.size(); }
    // The whole file: header, objects, the cross-reference table with every object's offset,
    // trailer.
    std::string bytes() const;

private:
    PageSize size_;
    std::string title_;
    std::deque<Page> pages_;  // a deque: add_page()'s references stay valid
};

}  // namespace spookludo::pdf
