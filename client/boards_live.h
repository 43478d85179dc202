#pragma once
// `spookludo boards --server URL --room CODE --print FILE`: the boards a live game uses, taken
// as a spectator (the room's `commitment`'s published boards, `game_started`'s assignment and the
// seats' names), once its game has started: before its first roll, for the printed boards.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "board_print.h"
#include "spookludo/spook/board.h"

namespace spookludo::cli {

struct LiveBoards {
    std::string room;
    std::vector<BoardPage> pages;  // one a seat in the game, in seat order: the seat's name, its board
};

// Watches room `room` on the server at `url` (its --ca-file: `ca_file`) until its game has
// started (waiting up to `wait` while the room is in its lobby; `on_wait` is told once that it
// waits). Throws std::invalid_argument with a clear message: a bad URL, a server that cannot be
// reached, a room that is not there, a Classic Ludo game, no start within `wait`.
LiveBoards live_boards(const std::string& url, const std::string& ca_file, const std::string& room,
                       std::chrono::milliseconds wait, const std::function<void(const std::string&)>& on_wait);

}  // namespace spookludo::cli
