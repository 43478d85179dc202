#pragma once
// Server -> client messages (PROTOCOL.md): one plain struct per message, with to_json (the
// server writes it) and from_json (clients read it). encode() adds the "type".
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spookludo/game_view.h"
#include "spookludo/options.h"
#include "spookludo/protocol/messages.h"

namespace spookludo::protocol {

struct Welcome {
    static constexpr const char* type = "welcome";
    int protocol = kProtocolVersion;
    std::string server;
    std::int64_t server_time_ms = 0;
    // Where others reach this server (the page's join link, the terminal's join command):
    // the host's --public-url, and the machine's network addresses as http(s)://ADDRESS:PORT.
    std::optional<std::string> public_url;
    std::vector<std::string> lan_urls;
    // A cluster's live nodes (their --public-url), this one among them: a client whose node dies
    // reconnects through any other. Absent for a server on its own.
    std::vector<std::string> nodes;
};

struct Joined {
    static constexpr const char* type = "joined";
    std::string room;
    int seat = -1;  // -1 for a spectator
    std::optional<std::string> token;  // players only: keep it to resume
    std::string role;                  // "player" or "spectator"
    bool host = false;
};

// Every seat of the room, free ones included, by its number: a seat keeps its number for the
// life of the room (numbers need not be contiguous: a removed seat leaves a gap).
struct SeatView {
    int seat = 0;
    std::string name;
    bool bot = false;
    bool free = false;                 // nobody sits here (name empty)
    std::optional<PolicyKind> policy;  // bots
    std::optional<bool> connected;     // players
    std::optional<bool> away;          // players: disconnected, or played by the server
    std::optional<std::string> status; // players: here, away, server, left
    bool kicked = false;               // a bot playing a kicked player's seat to the end of the game
    bool choosing = false;             // the game's step waits for this seat's decision
    // The host hurried this seat: its decision's own deadline (server clock), absent while paused.
    std::optional<std::int64_t> deadline_ms;
};

// The snapshot's "game": the engine's common/ builds it (spookludo/game_view.h), for the room and
// for a finished game's analysis alike.
using spookludo::LudoView;
using spookludo::SpookView;

struct GameOver {
    static constexpr const char* type = "game_over";
    std::string game_id;
    std::string status;  // finished, abandoned
    std::vector<int> winners;  // room seats
    std::vector<int> places;   // by room seat (0: no place, or a free seat)
    std::vector<std::string> names;  // by room seat: who played it ("" for a seat that did not play)
    int length = 0;
    std::optional<std::string> server_seed;
    std::optional<std::string> record;  // "/records/<id>"
    std::optional<std::string> reason;  // English, for logs and protocol v1 clients
    // Why an abandoned game ended, for clients to word: host, nobody_left, shutdown, could_not_start,
    // internal_error.
    std::optional<std::string> cause = {};
};

// The snapshot's "table" during a table game.
struct TableView {
    std::vector<std::string> names;  // options.table_names
    std::string next;                // what "next" throws: movement, activation, roll_off, throw ("" over)
    int dice = 0;                    // dice announced so far
    std::optional<int> round;        // Spook: the round of the next roll
    std::optional<int> turn;         // Ludo: whose throw is next (an index of names), after the roll-off
    std::vector<int> assignment;     // Spook: board index by name
    std::optional<std::string> last; // the last announcement's text
    std::optional<int> face;         // the last die
    std::optional<std::string> last_kind;
    // The last announcement's parameters, for clients to word it: its round or throw number,
    // the name (index of names) it concerns and the next one, the character woken (Spook).
    std::optional<int> last_step = {}, last_seat = {}, last_next = {};
    std::optional<std::string> last_character = {};
    std::vector<std::string> seeds_by;  // whose devices' client seeds are in
    int pace_ms = 0;                 // the table's own rhythm (0: the host's "next")
};

struct RoomSnapshot {
    static constexpr const char* type = "room";
    std::string room;
    std::string state;  // lobby, seeding, playing
    bool paused = false;
    // Why it is paused: host (the host paused it), restart (the server restarted: it waits for the
    // players to come back), journal (the server cannot save the game: a full disk, ...).
    std::optional<std::string> pause_reason;
    GameOptions options;
    RoomSettings settings;
    int host = -1;
    std::vector<SeatView> seats;
    int spectators = 0;
    std::int64_t server_time_ms = 0;
    std::optional<std::int64_t> auto_start_at_ms;  // the lobby starts by itself then (server clock)
    // While a step waits for decisions (seats with `choosing`), when their time is up (server
    // clock); absent while paused.
    std::optional<std::int64_t> decision_deadline_ms;
    std::optional<std::string> game_id;
    std::optional<std::string> commitment;
    std::vector<std::string> boards;  // Spook: the published boards
    std::optional<SpookView> spook;   // "game" during a Spook game
    std::optional<LudoView> ludo;     // "game" during a Ludo game
    std::optional<TableView> table;   // during a table game (its seeds while seeding, then its dice)
    std::optional<GameOver> last_game;  // in the lobby: how the room's last game ended (its game_over)
};

struct Commitment {
    static constexpr const char* type = "commitment";
    std::string game_id;
    std::string commitment;
    int seed_wait_ms = 0;
    std::vector<std::string> boards;  // Spook
};

struct ClientSeedAccepted {
    static constexpr const char* type = "client_seed_accepted";
};

struct SeedView {
    int seat = 0;
    std::string seed;
};

struct GameStarted {
    static constexpr const char* type = "game_started";
    std::string game_id;
    GameOptions options;
    std::vector<SeedView> client_seeds;
    std::vector<int> assignment;  // Spook: board index by room seat (-1 for a free seat)
    std::vector<int> players;     // the room seats in play order
};

struct DecisionOption {
    int piece = 0;
    int from = 0;
    int to = 0;
    std::optional<std::string> square;        // Spook: what stands on the target square
    std::optional<double> expected_rounds;    // Spook, hints on
    std::optional<bool> captures;             // Ludo
    std::optional<bool> best;                 // Ludo, hints on
};

struct Decision {
    static constexpr const char* type = "decision";
    std::string decision;
    int seat = 0;
    int step = 0;
    std::vector<DecisionOption> options;
    std::optional<std::int64_t> time_left_ms;  // absent: no limit (settings.time_factor 0)
    std::int64_t server_time_ms = 0;
};

struct ChoiceAccepted {
    static constexpr const char* type = "choice_accepted";
    std::string decision;
    int piece = 0;
};

struct DecisionTimeout {
    static constexpr const char* type = "decision_timeout";
    std::string decision;
};

// In a table game (options.table) the dice messages carry "table": true and the announcement's
// "text"; nobody chooses and no piece is moved on the server (no decision, no moves).
struct Roll {
    static constexpr const char* type = "roll";
    int round = 0;
    int face = 0;
    std::optional<bool> table = {};
    std::optional<std::string> text = {};
};

struct PieceMoveView {
    int seat = 0;
    std::optional<int> piece;  // absent when the seat stays (no piece could move)
    std::optional<int> from;
    std::optional<int> to;
    std::optional<std::string> by;  // Spook moves: player, bot, only_move, timeout, away
    std::optional<bool> stays;
};

struct Moves {
    static constexpr const char* type = "moves";
    int round = 0;
    std::vector<PieceMoveView> moves;
};

struct Activation {
    static constexpr const char* type = "activation";
    int round = 0;
    int face = 0;
    std::string character;  // hat, cat, spook, werewolf, witch
    std::string name;       // "Black Cat"
    std::string action;     // "moves back 6 squares"
    std::vector<PieceMoveView> moved;
    std::vector<int> finished;
    std::optional<bool> table = {};
    std::optional<std::string> text = {};
};

struct EventView {
    std::string kind;
    std::string text;  // English, for logs and protocol v1 clients
    std::optional<int> seat, piece, face, from, to, square;
    std::optional<std::string> colour = {};  // the seat's colour: green, yellow, red, blue
    std::optional<int> turn = {};            // a throw's turn number
    // House rules: why an extra_throw ("six", "capture", "home"); the seat a safe_square landing
    // stands beside, or a team_finished seat's partner.
    std::optional<std::string> reason = {};
    std::optional<int> with = {};
};

struct RollOff {
    static constexpr const char* type = "roll_off";
    int starts = 0;
    std::vector<EventView> events;
    std::optional<bool> table = {};
    std::optional<std::string> text = {};
    std::optional<std::vector<std::string>> names = {};  // a table game: the table's names (events' seats index them)
};

struct Throw {
    static constexpr const char* type = "throw";
    int turn = 0;
    int seat = 0;
    int face = 0;
    std::vector<EventView> events;
    // A table game: `seat` and `next` are indices of options.table_names; `name` is the thrower's.
    std::optional<bool> table = {};
    std::optional<std::string> text = {};
    std::optional<std::string> name = {};
    std::optional<int> next = {};
    std::optional<std::string> next_name = {};
};

// A table game (Ludo): the host passed the turn of `seat` (an index of options.table_names) to `next`.
struct TurnSkipped {
    static constexpr const char* type = "turn_skipped";
    int turn = 0;
    int seat = 0;
    int next = 0;
    std::string text;
    std::optional<std::string> name = {};       // the skipped name
    std::optional<std::string> next_name = {};  // the name whose turn it is now
};


struct LudoMove {
    static constexpr const char* type = "move";
    int turn = 0;
    std::string by;
    std::vector<EventView> events;
};

struct Kicked {
    static constexpr const char* type = "kicked";
    std::string room;
    std::string reason;
};

// One line of the room's story: `kind` and its parameters (`seat`, `name` and the kind's own
// fields in `fields`, written as fields of the message: "then", "reason", "bots", ...) for a
// client to word in its reader's language; `text` is the English line (seats 1-based), for logs
// and protocol v1 clients (PROTOCOL.md, "Words and languages").
struct Notice {
    static constexpr const char* type = "notice";
    std::string kind;  // joined, left, away, back, server_plays, kicked, removed, host, paused, resumed, ...
    std::optional<int> seat;
    std::optional<std::string> name;
    std::string text;
    std::optional<int> factor;         // time_factor: the new settings.time_factor (0: no limit)
    std::optional<std::int64_t> time_ms;  // hurry: the time the hurried decision has
    nlohmann::json fields = nlohmann::json::object();  // the kind's own parameters
};

struct Closing {
    static constexpr const char* type = "closing";
    // restart (the server is restarting: the room is saved, reconnect), shutdown (the server is
    // going away: games were ended), replaced (the seat was taken back elsewhere)
    std::string code;
    std::string reason;
};

// A cluster (docs/cluster.md): the room lives on another node, or a new room is to be made on
// another node (the one with the fewest rooms). The client connects to that node's WebSocket
// (`url` with http -> ws, https -> wss, path /ws), says hello and sends the same message again.
struct Redirect {
    static constexpr const char* type = "redirect";
    std::string url;                  // the node's address (its --public-url), as in welcome's nodes
    std::string node;                 // its id
    std::string ref;                  // the message it answers: create_room, join_room, watch, resume
    std::optional<std::string> room;  // the room's code (absent for create_room)
};

// A quick reaction (React), told to everyone in the room, the sender too. Not a line of the
// room's story: not journaled, not in the game record.
struct Reaction {
    static constexpr const char* type = "reaction";
    int seat = -1;         // the sender's seat; -1 for a spectator
    std::string name;      // the seat's name; a spectator's is "a spectator"
    std::string role;      // "player" or "spectator"
    std::string reaction;  // an id of kReactions
    std::string label;     // what people see ("phew", "👍")
};

struct Pong {
    static constexpr const char* type = "pong";
    std::int64_t t = 0;
    std::int64_t server_time_ms = 0;
};

struct ErrorReply {
    static constexpr const char* type = "error";
    std::string code;
    std::string message;  // English, for logs and protocol v1 clients
    std::optional<std::string> ref;
    // A refusal that only time lifts (a reaction within 2 s of the last): when to try again.
    std::optional<std::int64_t> retry_after_ms;
    // The parameters a client words `code` from (PROTOCOL.md, "Words and languages"); absent
    // when the code says it all.
    std::optional<nlohmann::json> args = {};
};

#define SPOOKLUDO_MESSAGE_JSON(T)                    \
    void to_json(nlohmann::json& j, const T& m);     \
    void from_json(const nlohmann::json& j, T& m);
SPOOKLUDO_MESSAGE_JSON(Welcome)
SPOOKLUDO_MESSAGE_JSON(Joined)
SPOOKLUDO_MESSAGE_JSON(SeatView)
SPOOKLUDO_MESSAGE_JSON(TableView)
SPOOKLUDO_MESSAGE_JSON(TurnSkipped)
SPOOKLUDO_MESSAGE_JSON(RoomSettings)
SPOOKLUDO_MESSAGE_JSON(RoomSnapshot)
SPOOKLUDO_MESSAGE_JSON(Commitment)
SPOOKLUDO_MESSAGE_JSON(ClientSeedAccepted)
SPOOKLUDO_MESSAGE_JSON(SeedView)
SPOOKLUDO_MESSAGE_JSON(GameStarted)
SPOOKLUDO_MESSAGE_JSON(DecisionOption)
SPOOKLUDO_MESSAGE_JSON(Decision)
SPOOKLUDO_MESSAGE_JSON(ChoiceAccepted)
SPOOKLUDO_MESSAGE_JSON(DecisionTimeout)
SPOOKLUDO_MESSAGE_JSON(Roll)
SPOOKLUDO_MESSAGE_JSON(PieceMoveView)
SPOOKLUDO_MESSAGE_JSON(Moves)
SPOOKLUDO_MESSAGE_JSON(Activation)
SPOOKLUDO_MESSAGE_JSON(EventView)
SPOOKLUDO_MESSAGE_JSON(RollOff)
SPOOKLUDO_MESSAGE_JSON(Throw)
SPOOKLUDO_MESSAGE_JSON(LudoMove)
SPOOKLUDO_MESSAGE_JSON(GameOver)
SPOOKLUDO_MESSAGE_JSON(Kicked)
SPOOKLUDO_MESSAGE_JSON(Notice)
SPOOKLUDO_MESSAGE_JSON(Closing)
SPOOKLUDO_MESSAGE_JSON(Redirect)
SPOOKLUDO_MESSAGE_JSON(Reaction)
SPOOKLUDO_MESSAGE_JSON(Pong)
SPOOKLUDO_MESSAGE_JSON(ErrorReply)
#undef SPOOKLUDO_MESSAGE_JSON

// The message as a JSON object with its "type" first among its fields.
template <class M>
nlohmann::json to_message(const M& m) {
    nlohmann::json j = m;
    j["type"] = M::type;
    return j;
}
// Never throws on ill-formed UTF-8 in a field, whatever a message was given: such bytes go out as
// U+FFFD (a text frame must be UTF-8; client text is quoted with quote_client_text anyway).
template <class M>
std::string encode_message(const M& m) {
    return to_message(m).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}
// The messages of every game step are written directly (no JSON tree); the same text as
// to_message(m).dump() up to the order of the fields, "type" first.
std::string encode_message(const Decision& m);
std::string encode_message(const ChoiceAccepted& m);
std::string encode_message(const DecisionTimeout& m);
std::string encode_message(const Roll& m);
std::string encode_message(const Moves& m);
std::string encode_message(const Activation& m);
std::string encode_message(const RollOff& m);
std::string encode_message(const Throw& m);
std::string encode_message(const LudoMove& m);

}  // namespace spookludo::protocol
