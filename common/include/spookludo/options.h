#pragma once
// The rule options of both games (RULES.md parts 1 and 2) in one type with one JSON form,
// shared by the simulator's flags, the server's create-room message and the game record.
//
// JSON form (every key but "game" optional, defaults shown):
//   {"game": "spook", "players": 2, "pieces": 2, "play_on": false, "balanced_boards": true}
//   {"game": "ludo",  "players": 4, "arm": 8, "entry": "text", "play_on": false,
//    "three_sixes": false}
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace spookludo {

enum class GameKind : unsigned char { spook, ludo };

std::string_view to_string(GameKind kind) noexcept;
std::optional<GameKind> parse_game_kind(std::string_view name) noexcept;

// Spook: pieces that must reach the church to finish: 1 with one piece, otherwise 2.
constexpr int spook_pieces_to_finish(int pieces) noexcept { return pieces == 1 ? 1 : 2; }

struct SpookOptions {
    int pieces = 2;               // 1 ("easier"), 2 (default) or 3 ("more strategic")
    bool balanced_boards = true;  // the game's boards differ by at most 2 % in expected finish

    constexpr int pieces_to_finish() const noexcept { return spook_pieces_to_finish(pieces); }
    friend bool operator==(const SpookOptions&, const SpookOptions&) = default;
};

// How a 6 brings a piece out of the yard.
enum class LudoEntry : unsigned char {
    text,          // as the rule text says: 6 squares round from the start square (progress 5)
    start_square,  // the modern entry: onto the start square (progress 0)
};

std::string_view to_string(LudoEntry entry) noexcept;
std::optional<LudoEntry> parse_ludo_entry(std::string_view name) noexcept;

struct LudoOptions {
    int arm = 8;                        // squares per arm: 8 (the text) or 6 (the modern board)
    LudoEntry entry = LudoEntry::text;
    bool three_sixes = false;           // three 6s in a row end the turn, the third unplayed
    friend bool operator==(const LudoOptions&, const LudoOptions&) = default;
};

struct GameOptions {
    GameKind game = GameKind::spook;
    int players = 2;       // Spook 1..8, Ludo 2..4 (server-side bots count as players)
    bool play_on = false;  // keep playing after the first finisher to rank everyone
    // A game at one table with paper boards and coins (README, "A game at one table"): the server
    // throws the dice and announces them, nobody chooses on a screen; the players are the names
    // the host entered (one per player, `players` of them). Written only when on.
    bool table = false;
    std::vector<std::string> table_names;
    SpookOptions spook;    // read only when game == spook
    LudoOptions ludo;      // read only when game == ludo

    static GameOptions spook_game(int players, int pieces = 2);
    static GameOptions ludo_game(int players, int arm = 8);

    // Empty when the options are playable, otherwise what is wrong, e.g.
    // "players must be 2 to 4 for ludo (got 5)".
    std::optional<std::string> validate() const;

    friend bool operator==(const GameOptions&, const GameOptions&) = default;
};

// Writes only the keys of the chosen game.
void to_json(nlohmann::json& j, const GameOptions& options);
// Throws std::invalid_argument naming the key when a key is unknown, of the wrong type, belongs
// to the other game, or the options do not validate.
void from_json(const nlohmann::json& j, GameOptions& options);

}  // namespace spookludo
