#pragma once
// The flags shared by `play` and `bot` for reaching a room: the server URL, create or join,
// the game's options and the room's settings.
#include <optional>
#include <string>

#include "session.h"

namespace CLI {
class App;
}

namespace spookludo::cli {

struct RoomFlags {
    std::string url;
    std::string ca_file;  // wss://: trust this PEM file instead of the system's CA store
    std::string create;  // spook | ludo
    std::string room;
    std::string token;
    int players = 0;     // 0: the default for the game and the command
    int pieces = 2;
    int arm = 8;
    std::string entry = "text";
    bool three_sixes = false;
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
