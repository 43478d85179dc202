#pragma once
// The rule options of both games (RULES.md parts 1 and 2) in one type with one JSON form,
// shared by the simulator's flags, the server's create-room message and the game record.
//
// JSON form (every key but "game" optional, defaults shown):
//   {"game": "spook", "players": 2, "pieces": 2, "play_on": false, "balanced_boards": true}
//   {"game": "ludo",  "players": 4, "arm": 8, "entry": "text", "play_on": false,
//    "three_sixes": false}
// and Ludo's house rules (docs/rules.md), written only when on:
//    "safe_squares": true, "bonus_throws": true, "capture_to_home": true, "teams": true
// On input, "preset": "home_rules" stands for the common set (home_rules() below); a key of that
// set given beside it must agree with it, and the other house rules (capture_to_home, teams) may
// be added to it.
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
    // House rules (docs/rules.md, "House rules"), all off in the rule text's game:
    bool safe_squares = false;     // the four start squares and the four star squares: no capture there
    bool bonus_throws = false;     // a capture, or a piece brought home, earns one more throw
    bool capture_to_home = false;  // a piece enters its home column only once its player has captured
    bool teams = false;            // four players, two against two, partners opposite

    // Any house rule on (three_sixes included).
    bool house_rules() const noexcept { return three_sixes || safe_squares || bonus_throws || capture_to_home || teams; }
    friend bool operator==(const LudoOptions&, const LudoOptions&) = default;
};

// The named preset "home_rules": Ludo as phone apps and families play it: the modern board (arm 6,
// entry on the start square), safe squares, bonus throws, three 6s forfeit the turn.
inline constexpr std::string_view kHomeRulesPreset = "home_rules";
LudoOptions home_rules();
// The preset the options are, when they are one exactly ("home_rules"), else empty.
std::string_view ludo_preset_of(const LudoOptions& options) noexcept;

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
