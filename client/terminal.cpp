#include "terminal.h"

#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

namespace spookludo::client {

namespace {
termios saved_termios{};
bool termios_saved = false;

void write_all(const std::string& s) {
    std::size_t at = 0;
    while (at < s.size()) {
        const auto n = ::write(STDOUT_FILENO, s.data() + at, s.size() - at);
        if (n < 0 && errno == EINTR) continue;
        // A terminal that reads slowly (stdout shares the non-blocking input's file): wait for
        // it a moment rather than cut the frame (a second at most, then the frame is dropped).
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            pollfd out{STDOUT_FILENO, POLLOUT, 0};
            if (::poll(&out, 1, 1000) <= 0) return;
            continue;
        }
        if (n <= 0) return;
        at += static_cast<std::size_t>(n);
    }
}
}  // namespace

Terminal::Terminal() {
    interactive_ = ::isatty(STDIN_FILENO) && ::isatty(STDOUT_FILENO);
    const char* no_color = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    color_ = ::isatty(STDOUT_FILENO) && !(no_color && *no_color) && !(term && std::strcmp(term, "dumb") == 0);
    // The locale's character set, as the C library would pick it: the first of these that is set.
    const char* ctype = nullptr;
    for (const char* name : {"LC_ALL", "LC_CTYPE", "LANG"})
        if (const char* v = std::getenv(name); v && *v) {
            ctype = v;
            break;
        }
    const std::string charset = ctype ? ctype : "";
    auto has = [&](const char* what) { return charset.find(what) != std::string::npos; };
    unicode_ = ::isatty(STDOUT_FILENO) && !(term && std::strcmp(term, "dumb") == 0) &&
               (has("UTF-8") || has("utf8") || has("UTF8") || has("utf-8"));
    refresh_size();
}

Terminal::~Terminal() {
    leave();
}

void Terminal::refresh_size() {
    winsize ws{};
    if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
        width_ = ws.ws_col;
        height_ = ws.ws_row;
    }
    last_.clear();
}

void Terminal::enter() {
    if (!interactive_ || entered_) return;
    if (::tcgetattr(STDIN_FILENO, &saved_termios) == 0) {
        termios_saved = true;
        termios raw = saved_termios;
        raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
        raw.c_cc[VMIN] = 1;
        raw.c_cc[VTIME] = 0;
        ::tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    }
    entered_ = true;
    write_all("\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J");  // alternate screen, hide the cursor
}

void Terminal::leave() {
    if (!entered_) return;
    entered_ = false;
    write_all("\x1b[0m\x1b[?25h\x1b[?1049l");
    if (termios_saved) ::tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
}

void Terminal::draw(const std::vector<std::string>& lines) {
    std::string out = "\x1b[H";
    for (std::size_t i = 0; i < lines.size(); ++i) {
        out += lines[i];
        out += "\x1b[0m\x1b[K";
        if (i + 1 < lines.size()) out += "\r\n";
    }
    out += "\x1b[J";
    if (out == last_) return;  // nothing changed
    last_ = out;
    write_all(out);
}

void Terminal::write(const std::string& text) {
    write_all(text);
}

}  // namespace spookludo::client
