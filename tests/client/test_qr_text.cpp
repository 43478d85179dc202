// The lobby's QR code in a terminal (client/qr_text.h): the half-block lines are read back into
// modules and decoded by a real decoder, zbarimg (Debian's zbar-tools), with and without colour.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "qr_text.h"

using namespace spookludo;

namespace {

// The terminal lines back into rows of modules (true: dark), as a camera would see them: with
// colour the drawn cells are dark, without it the drawn cells are light (light text on a dark
// terminal).
std::vector<std::vector<bool>> modules(const std::vector<std::string>& lines, bool color) {
    std::vector<std::vector<bool>> rows;
    for (std::string line : lines) {
        if (color) {
            REQUIRE(line.rfind("\x1b[30;107m", 0) == 0);
            REQUIRE(line.size() >= 4);
            REQUIRE(line.substr(line.size() - 4) == "\x1b[0m");
            line = line.substr(9, line.size() - 13);
        }
        std::vector<bool> top, bottom;
        for (std::size_t i = 0; i < line.size();) {
            bool t = false, b = false;
            if (line.compare(i, 3, "\u2588") == 0) t = b = true, i += 3;
            else if (line.compare(i, 3, "\u2580") == 0) t = true, i += 3;
            else if (line.compare(i, 3, "\u2584") == 0) b = true, i += 3;
            else if (line[i] == ' ') ++i;
            else FAIL("unexpected character in a QR line");
            top.push_back(color ? t : !t);
            bottom.push_back(color ? b : !b);
        }
        rows.push_back(top);
        rows.push_back(bottom);
    }
    return rows;
}

std::string decode(const std::vector<std::vector<bool>>& rows) {
    const int scale = 4, margin = 8;
    const int h = static_cast<int>(rows.size()), w = static_cast<int>(rows.at(0).size());
    const auto file = std::filesystem::temp_directory_path() / ("spookludo-qr-" + std::to_string(::getpid()) + ".pbm");
    {
        std::ofstream out(file);
        out << "P1\n" << (w * scale + 2 * margin) << " " << (h * scale + 2 * margin) << "\n";
        for (int y = 0; y < h * scale + 2 * margin; ++y) {
            for (int x = 0; x < w * scale + 2 * margin; ++x) {
                const int my = (y - margin) / scale, mx = (x - margin) / scale;
                const bool dark = y >= margin && x >= margin && my < h && mx < w &&
                                  rows[static_cast<std::size_t>(my)][static_cast<std::size_t>(mx)];
                out << (dark ? '1' : '0');
            }
            out << "\n";
        }
    }
    std::string text;
    if (FILE* p = ::popen(("zbarimg -q --raw " + file.string() + " 2>/dev/null").c_str(), "r")) {
        char buf[512];
        while (std::fgets(buf, sizeof buf, p)) text += buf;
        ::pclose(p);
    }
    std::filesystem::remove(file);
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
}

}  // namespace

TEST_CASE("qr text: the lobby's QR code of a join link reads back with zbarimg, with colour and without [web]") {
    if (std::system("command -v zbarimg >/dev/null 2>&1") != 0) {
        MESSAGE("zbarimg is not installed (scripts/setup.sh test installs zbar-tools): skipped");
        return;
    }
    for (const std::string link : {"http://192.168.1.20:7777/r/KQZTM", "https://party.example.org/r/HRBKT"}) {
        for (const bool color : {false, true}) {
            const auto lines = client::qr_lines(link, color);
            REQUIRE(lines.size() >= 12);
            CHECK(lines.size() <= 20);  // fits a lobby in a 80x40 window
            CHECK(decode(modules(lines, color)) == link);
        }
    }
}
