#pragma once
// A QR code drawn in a terminal (the lobby's join link, for a phone's camera): two rows of
// modules per line with the half-block characters ▀ ▄ █, and a quiet zone of two modules.
// With colour, dark modules are drawn black on white whatever the terminal's theme; without,
// the light modules are the drawn ones (a terminal's text is light on dark far more often than
// not; phone cameras read either way round anyway). libqrencode makes the code.
#include <string>
#include <vector>

namespace spookludo::client {

// The lines (empty when the text does not fit in a QR code). Each line is `width` columns wide,
// where width = modules + 4; with `color` every line carries its own SGR codes and a reset.
std::vector<std::string> qr_lines(const std::string& text, bool color);

}  // namespace spookludo::client
