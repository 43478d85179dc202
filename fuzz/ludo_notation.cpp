// Ludo position notation (ludo::Game::from_position, common/src/ludo/notation.cpp): the first
// byte picks the options (two bytes with the house rules: ludo_drive.h), the text up to the first
// newline is the position, and the bytes after it play on from there (ludo_drive.h). Invariants:
// only std::invalid_argument leaves the reader; a position it accepts keeps every engine
// invariant, prints back to itself, and plays on.
#include <stdexcept>
#include <string>

#include "fuzz.h"
#include "ludo_drive.h"

using namespace spookludo;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::Bytes in(data, size);
    const GameOptions options = fuzz::ludo_options(in);
    const std::size_t used = size - in.left();  // one byte, or two with the house rules
    const std::string_view rest = fuzz::as_text(data + used, size - used);
    const std::size_t newline = rest.find('\n');
    const std::string_view text = rest.substr(0, newline);
    ludo::Game game(options);
    try {
        game = ludo::Game::from_position(options, text);
    } catch (const std::invalid_argument& e) {
        FUZZ_CHECK(e.what()[0] != '\0', "");
        return 0;
    }
    FUZZ_CHECK(game.phase() == ludo::Phase::awaiting_throw || game.phase() == ludo::Phase::finished, game.position());
    FUZZ_CHECK(ludo::Game::from_position(options, game.position()) == game, game.position());
    if (newline == std::string_view::npos) return 0;
    (void)in.take(text.size() + 1);
    fuzz::drive_ludo(game, in, 400);
    return 0;
}
