#include "qr_text.h"

#include <qrencode.h>

#include <memory>

namespace spookludo::client {

std::vector<std::string> qr_lines(const std::string& text, bool color) {
    std::unique_ptr<QRcode, decltype(&QRcode_free)> code(
        QRcode_encodeString(text.c_str(), 0, QR_ECLEVEL_M, QR_MODE_8, 1), &QRcode_free);
    std::vector<std::string> lines;
    if (!code) return lines;
    constexpr int kQuiet = 2;
    const int n = code->width;
    const int side = n + 2 * kQuiet;
    auto dark = [&](int x, int y) {
        x -= kQuiet;
        y -= kQuiet;
        return x >= 0 && y >= 0 && x < n && y < n && (code->data[y * n + x] & 1);
    };
    for (int y = 0; y < side; y += 2) {
        std::string line = color ? "\x1b[30;107m" : "";  // black on bright white
        for (int x = 0; x < side; ++x) {
            bool top = dark(x, y), bottom = y + 1 < side && dark(x, y + 1);
            // Without colour the drawn (light-coloured) cells are the light modules.
            if (!color) {
                top = !top;
                bottom = y + 1 < side ? !bottom : false;
            }
            line += top && bottom ? "\u2588" : top ? "\u2580" : bottom ? "\u2584" : " ";
        }
        if (color) line += "\x1b[0m";
        lines.push_back(std::move(line));
    }
    return lines;
}

}  // namespace spookludo::client
