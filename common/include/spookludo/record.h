#pragma once
// The game record (docs/game-record.md): everything needed to replay and audit one game. JSON,
// versioned. Produced by the engine from a played game (spook::Match, ludo::Match) and checked
// by verify() (spookludo verify RECORD.json).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "spookludo/fair_dice.h"
#include "spookludo/options.h"
#include "spookludo/policy.h"

namespace spookludo {

inline constexpr int kRecordVersion = 1;

struct RecordSeat {
    int seat = 0;
    std::string name;
    bool bot = false;                   // a server-side bot (contributes no client seed)
    std::optional<PolicyKind> policy;   // the bot's policy
    // The room's seat the player sat at (0-based; people count from 1). `seat` is the player's
    // number in the game (0..n-1, the order of play), which every other part of the record uses.
    std::optional<int> room_seat;
    friend bool operator==(const RecordSeat&, const RecordSeat&) = default;
};

// Who made a choice: the player, or the server (best play) for a player who did not choose in
// time or was away. Moves with only one outcome are not choices and are not recorded.
enum class ChoiceMaker : unsigned char { player, timeout, away };
std::string_view to_string(ChoiceMaker maker) noexcept;

struct RecordedChoice {
    int step = 0;  // the round (Spook) or the throw number, from 1 (Ludo)
    int seat = 0;
    int piece = 0;
    ChoiceMaker maker = ChoiceMaker::player;
    friend bool operator==(const RecordedChoice&, const RecordedChoice&) = default;
};

// The position after a step (a round in Spook, a throw in Ludo), in the game's notation.
//   Spook: each seat's squares, pieces separated by commas, seats by spaces: "5,1 40,12"
//   Ludo:  the position notation of ludo/game.h: "green*:Y,Y,5,12 red:H,Y,50,Y"
struct RecordedPosition {
    int step = 0;
    std::string position;
    friend bool operator==(const RecordedPosition&, const RecordedPosition&) = default;
};

enum class GameStatus : unsigned char { in_progress, finished, abandoned };
std::string_view to_string(GameStatus status) noexcept;

struct RecordResult {
    GameStatus status = GameStatus::in_progress;
    std::vector<int> winners;
    std::vector<int> places;  // per seat; 0 for a seat without a place (abandoned games)
    int length = 0;           // rounds (Spook) or throws (Ludo) played
    friend bool operator==(const RecordResult&, const RecordResult&) = default;
};

// A table game (options.table): what the table was told, in order (in_person.h).
struct RecordedAnnouncement {
    int step = 0;      // Spook: the round; Ludo: the throw (0: the roll-off)
    std::string kind;  // movement, activation, roll_off, throw, skip, winners
    std::string text;
    friend bool operator==(const RecordedAnnouncement&, const RecordedAnnouncement&) = default;
};

// A table game's client seeds come from devices, not seats: at most this many, numbered in the
// order they came (their `seat` in the stream's context).
inline constexpr int kMaxTableSeeds = 16;

struct GameRecord {
    int version = kRecordVersion;
    GameOptions options;
    std::vector<RecordSeat> seats;
    std::string commitment;                  // SHA-256 of the server seed, hex
    std::vector<ClientSeed> client_seeds;    // seated humans only, seat order
    // A table game: by client seed, whose device sent it ("host's page", "Ann's phone").
    std::vector<std::string> client_seed_by;
    std::optional<std::string> server_seed;  // hex; present once revealed (game over or abandoned)
    // Ludo: which definition of the server's move for a player (ludo::server_choice) the server
    // used; absent in Spook records (a best move there is defined by the rules) and in Ludo
    // records written before the field existed.
    std::optional<int> server_move_version;
    std::vector<std::string> boards;         // Spook: the published set, board notation
    std::vector<int> assignment;             // Spook: the index of each seat's board in `boards`
    std::vector<Draw> draws;
    std::vector<RecordedChoice> choices;
    std::vector<RecordedPosition> positions;
    RecordResult result;
    std::vector<RecordedAnnouncement> announcements;  // a table game's
    friend bool operator==(const GameRecord&, const GameRecord&) = default;
};

void to_json(nlohmann::json& j, const GameRecord& record);
// Throws std::invalid_argument naming the field that is missing or wrong, e.g.
// "draws[12].purpose: unknown purpose \"dance\"".
void from_json(const nlohmann::json& j, GameRecord& record);

// A record as a match starts it: options, seats (one per player, else std::invalid_argument),
// the commitment of `server_seed`, the client seeds in seat order, places all 0.
GameRecord start_record(const GameOptions& options, std::vector<RecordSeat> seats, const ServerSeed& server_seed,
                        std::vector<ClientSeed> client_seeds);

// The record as JSON text for a file: one line per key, and one line per entry of each list
// (draws, choices, positions), so that records are easy to read and to compare with diff.
std::string record_text(const GameRecord& record);

// Reads a record from JSON text; throws std::invalid_argument with a clear message for text
// that is not JSON (with the position), truncated, or not a record.
GameRecord parse_record(const std::string& text);

}  // namespace spookludo
