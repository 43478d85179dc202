// The game options JSON (GameOptions from_json, common/src/options.cpp), read from create_room
// and set_options messages, from game records and from the simulator's flags. Invariants: only
// std::invalid_argument (or a JSON type error, which the callers turn into bad_field) leaves the
// reader; options it accepts validate, write back (to_json) to JSON that reads as the same
// options, and are playable: a game of them can be set up.
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz.h"
#include "spookludo/ludo/game.h"
#include "spookludo/options.h"
#include "spookludo/spook/setup.h"

using namespace spookludo;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto j = nlohmann::json::parse(fuzz::as_text(data, size), nullptr, false);
    if (j.is_discarded()) return 0;
    GameOptions options;
    try {
        options = j.get<GameOptions>();
    } catch (const std::invalid_argument& e) {
        FUZZ_CHECK(e.what()[0] != '\0', "");
        return 0;
    } catch (const nlohmann::json::exception&) {
        return 0;
    }
    FUZZ_CHECK(!options.validate(), *options.validate());
    const nlohmann::json back = options;
    FUZZ_CHECK(back.get<GameOptions>() == options, back.dump());
    FUZZ_CHECK(nlohmann::json(back.get<GameOptions>()) == back, back.dump());
    if (options.game == GameKind::ludo) {
        const ludo::Game game(options);
        FUZZ_CHECK(game.players() == options.players, back.dump());
    } else {
        Rng rng(1);
        const auto boards = spook::choose_board_set(options, rng);
        FUZZ_CHECK(static_cast<int>(boards.size()) == options.players, back.dump());
    }
    return 0;
}
