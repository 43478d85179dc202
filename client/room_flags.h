#pragma once
// The flags shared by `play` and `bot` for reaching a room: the server URL, create or join,
// the game's options and the room's settings.
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "session.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace spookludo::cli {

// Ludo's board and rules as flags, shared by `play`, `bot` and `sim`: only what is given goes into
// the options' JSON, so that `--home-rules --teams` is the preset with teams added, and
// `--home-rules --arm 8` is refused with the options' own reason.
struct LudoFlags {
    int arm = 0;        // 0: not given (the options' default, 8)
    std::string entry;  // empty: not given (text)
    bool three_sixes = false;
    bool safe_squares = false;
    bool bonus_throws = false;
    bool capture_to_home = false;
    bool teams = false;
    bool home_rules = false;  // the preset "home_rules"
};

// Adds --arm, --entry, --three-sixes, --safe-squares, --bonus-throws, --capture-to-home, --teams
// and --home-rules; each needs `needs` when given (--create for play and bot).
void add_ludo_flags(CLI::App& cmd, LudoFlags& flags, CLI::Option* needs = nullptr);
// The given flags into a Ludo game's options JSON (the keys of GameOptions' JSON form).
void put_ludo_flags(const LudoFlags& flags, nlohmann::json& options);

struct RoomFlags {
    std::string url;
    std::string ca_file;  // wss://: trust this PEM file instead of the system's CA store
    std::string create;  // spook | ludo
    std::string room;
    std::string token;
    int players = 0;     // 0: the default for the game and the command
    int pieces = 2;
    LudoFlags ludo;
    bool play_on = false;
    int decision_ms = -1;  // -1: the server's default
    int pace_ms = -1;
    bool hints = false;
    std::string client_seed;
};

// Adds URL (positional), --create/--room/--token and the option and setting flags.
void add_room_flags(CLI::App& cmd, RoomFlags& flags, bool with_token);
// Adds --ca-file (every program that connects has it).
void add_ca_file_flag(CLI::App& cmd, std::string& ca_file);

// The server's URL from the flags, with its --ca-file; throws std::invalid_argument with a
// clear message (a bad URL, an unreadable CA file, --ca-file with ws://).
client::Url server_url(const std::string& text, const std::string& ca_file);

// A session configuration from the flags; throws std::invalid_argument with a clear message.
// `default_players` is the capacity when creating without --players.
client::SessionConfig session_config(const RoomFlags& flags, const std::string& name, int default_players);

}  // namespace spookludo::cli
