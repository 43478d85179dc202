#pragma once
// A game's position as everyone sees it: the "game" object of a room's snapshot (PROTOCOL.md,
// `room`), built from the engine's state. The server's room sends it live; the analysis of a
// finished game (analysis.h) gives it after every step of its timeline, so that a client draws a
// replayed board with its live drawing code. One function builds it for both.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace spookludo {

namespace spook {
class Game;
}
namespace ludo {
class Game;
}

struct SpookView {
    std::vector<int> players;  // the room seats in play order
    int round = 0;
    std::string phase;
    std::optional<int> roll;
    std::vector<std::string> boards;          // by room seat, board notation ("" for a free seat)
    std::vector<std::vector<int>> positions;  // by room seat, per piece ([] for a free seat)
    std::vector<std::optional<int>> finished_round;
};

struct LudoView {
    std::vector<int> players;  // the room seats in play order (and colour order)
    std::string position;      // the position notation, its players in `players` order
    std::string phase;
    int current_seat = 0;  // a room seat
    int turn = 0;
    std::optional<int> face;
};

void to_json(nlohmann::json& j, const SpookView& m);
void from_json(const nlohmann::json& j, SpookView& m);
void to_json(nlohmann::json& j, const LudoView& m);
void from_json(const nlohmann::json& j, LudoView& m);

// The view of `game`, whose players 0..n-1 sat at the room seats `room_seats` (in play order;
// empty: seats 0..n-1). Arrays indexed by room seat run to the highest of them.
SpookView spook_view(const spook::Game& game, const std::vector<int>& room_seats);
LudoView ludo_view(const ludo::Game& game, const std::vector<int>& room_seats);

}  // namespace spookludo
