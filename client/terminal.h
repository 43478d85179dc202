#pragma once
// The player's terminal: raw keys (one key at a time, no echo) while the game runs, its size,
// whether colour is wanted, and drawing a whole screen without flicker. Restores the terminal
// when destroyed (also after Ctrl-C, which the event loop turns into a clean exit).
#include <string>
#include <vector>

namespace spookludo::client {

class Terminal {
public:
    Terminal();
    ~Terminal();
    Terminal(const Terminal&) = delete;
    Terminal& operator=(const Terminal&) = delete;

    bool interactive() const noexcept { return interactive_; }  // stdin and stdout are terminals
    bool color() const noexcept { return color_; }              // colour wanted (a terminal, no NO_COLOR)
    // A terminal whose locale (LC_ALL, LC_CTYPE, LANG, the first set) says UTF-8: glyphs beyond
    // ASCII may be drawn (the Ludo board's safe squares as '✦').
    bool unicode() const noexcept { return unicode_; }
    int width() const noexcept { return width_; }
    int height() const noexcept { return height_; }
    void refresh_size();

    // Raw mode and the alternate screen (interactive only).
    void enter();
    void leave();
    // Draws the lines from the top-left corner, clearing what was there.
    void draw(const std::vector<std::string>& lines);
    // Writes text as it is (line mode).
    void write(const std::string& text);

private:
    bool interactive_ = false;
    bool color_ = false;
    bool unicode_ = false;
    bool entered_ = false;
    int width_ = 80;
    int height_ = 24;
    std::string last_;
};

}  // namespace spookludo::client
