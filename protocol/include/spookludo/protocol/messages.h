#pragma once
// The wire protocol (PROTOCOL.md): JSON text frames on the WebSocket path /ws, every message an
// object with a "type". One plain struct per message. Client messages are parsed strictly
// (parse_client_message); server messages are written with to_json and read back by clients
// with from_json.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "spookludo/options.h"
#include "spookludo/policy.h"
#include "spookludo/text.h"

namespace spookludo::protocol {

// Every error reply and log line that shows text a client sent quotes it with this (text.h):
// cut on a character boundary, ill-formed UTF-8 replaced, control and format characters escaped.
using spookludo::quote_client_text;

inline constexpr int kProtocolVersion = 1;
inline constexpr std::size_t kMaxMessageBytes = 4096;  // larger frames are refused
inline constexpr std::size_t kMaxNameChars = 24;  // characters (Unicode code points), not bytes
inline constexpr std::string_view kWebSocketPath = "/ws";

// ---- Error codes ----------------------------------------------------------------------------
enum class ErrorCode : unsigned char {
    bad_json,          // not a JSON object
    unknown_type,      // "type" missing or not a message type
    bad_field,         // a field missing, of the wrong type or out of range (the message says which)
    version_mismatch,  // hello with another protocol version
    hello_first,       // a message before hello
    too_large,         // a frame over kMaxMessageBytes
    binary_frame,      // binary frames are not part of the protocol
    rate_limited,      // too many messages too fast
    room_not_found,
    room_full,
    server_full,       // a server limit (rooms, connections) was hit
    name_taken,
    bad_token,
    not_in_room,
    not_host,
    not_a_player,      // spectators cannot choose
    wrong_state,       // not possible in the room's current state (e.g. start during a game)
    stale_decision,    // a choice for a decision that is over or not this seat's
    illegal_choice,    // the rules refuse the choice (the message gives the reason)
    already_in_room,
    internal_error,    // the server failed to handle the message (logged and counted); nothing changed
    bad_name,          // a name the server would have to change (the message says why: name_problem)
    paused,            // a choice while the game is paused: the decision stays open, its time kept
    unavailable,       // the server cannot save the room now (its journal: a full disk, ...): try again later
    room_lost,         // the room could not be taken up again after the server's restart (the message says what is kept)
    bad_reaction,      // a react whose reaction is not one of kReactions (the message lists them)
};
std::string_view to_string(ErrorCode code) noexcept;

// ---- Client -> server -----------------------------------------------------------------------
struct RoomSettings {
    int decision_ms = 30000;  // time to choose
    int pace_ms = 1000;       // pause between steps so people can follow
    bool hints = false;       // options carry their value
    int auto_start_ms = 0;    // the lobby starts by itself this long after it is set (bots fill free seats); 0 off
    bool spectator_reactions = false;  // spectators may send reactions too (players always may)
    int table_pace_ms = 0;    // a table game throws by itself this often; 0: the host's "next" throws
    // More time for slower hands: a decision gets decision_ms times this (1, 2 or 3); 0: no limit
    // (the decisions wait for their players; the host may `hurry` one).
    int time_factor = 1;
    friend bool operator==(const RoomSettings&, const RoomSettings&) = default;
};

// The settings a client sends: only the fields it gives change; the others keep the room's
// current values (for a new room, the server's defaults).
struct SettingsChange {
    std::optional<int> decision_ms;
    std::optional<int> pace_ms;
    std::optional<bool> hints;
    std::optional<int> auto_start_ms;
    std::optional<bool> spectator_reactions;
    std::optional<int> table_pace_ms;
    std::optional<int> time_factor;
    RoomSettings applied_to(RoomSettings base) const {
        if (decision_ms) base.decision_ms = *decision_ms;
        if (pace_ms) base.pace_ms = *pace_ms;
        if (hints) base.hints = *hints;
        if (auto_start_ms) base.auto_start_ms = *auto_start_ms;
        if (spectator_reactions) base.spectator_reactions = *spectator_reactions;
        if (table_pace_ms) base.table_pace_ms = *table_pace_ms;
        if (time_factor) base.time_factor = *time_factor;
        return base;
    }
    static SettingsChange all(const RoomSettings& s) {
        return {s.decision_ms, s.pace_ms, s.hints, s.auto_start_ms, s.spectator_reactions, s.table_pace_ms, s.time_factor};
    }
    friend bool operator==(const SettingsChange&, const SettingsChange&) = default;
};

struct Hello { int protocol = kProtocolVersion; std::string client; };
struct CreateRoom { GameOptions options; std::string name; std::optional<SettingsChange> settings; };
struct JoinRoom { std::string room; std::string name; };
struct Watch { std::string room; };
struct Resume { std::string room; std::string token; };
// "client_seed". `by`: in a table game, whose device sends it ("Ann's phone"); a spectator's
// seed needs it, the host's page may leave it out ("host's page").
struct SubmitClientSeed { std::string seed; std::string by = {}; };
struct Choose { std::string decision; int piece = 0; };
struct SetOptions { GameOptions options; };
struct SetSettings { SettingsChange settings; };
struct AddBot { PolicyKind policy = PolicyKind::best; };
struct RemoveSeat { int seat = 0; };  // removes a bot or a player in the lobby
struct Kick { int seat = 0; };        // in a game the seat goes to a server-side bot
struct Start {};
struct Pause {};
struct Unpause {};   // "resume_game"
struct EndGame {};
struct Leave {};
struct Ping { std::int64_t t = 0; };
struct React { std::string reaction; };  // one of kReactions' ids; the room tells everyone (Reaction)
// More time (settings.time_factor): the host gives a seat's open decision a short limit
// ("hurry"), a player asks the host for more time ("ask_time", a notice to the host).
struct Hurry { int seat = 0; };
struct AskTime {};


// A table game (options.table), the host only: the next die ("next"), the turn passes ("skip_turn",
// Ludo), the game ends with these winners, names from options.table_names ("declare_winners").
struct Next {};
struct SkipTurn {};
struct DeclareWinners { std::vector<std::string> names; };

using ClientMessage = std::variant<Hello, CreateRoom, JoinRoom, Watch, Resume, SubmitClientSeed, Choose, SetOptions,
                                   SetSettings, AddBot, RemoveSeat, Kick, Start, Pause, Unpause, EndGame, Leave, Ping,
                                   Next, SkipTurn, DeclareWinners, React, Hurry, AskTime>;

// ---- Quick reactions ------------------------------------------------------------------------
// The fixed set a player (or, when the host allows it, a spectator) may send with `react`: an id
// on the wire, and what people see. A fixed set leaves nothing to moderate. Clients show `label`;
// the web page and the terminal client take their buttons and keys from this list's order.
struct ReactionKind {
    std::string_view id;
    std::string_view label;
};
inline constexpr ReactionKind kReactions[] = {
    {"thumbs_up", "\U0001F44D"},   // 👍
    {"laugh", "\U0001F602"},       // 😂
    {"scared", "\U0001F631"},      // 😱
    {"ghost", "\U0001F47B"},       // 👻
    {"nooo", "nooo!"},
    {"phew", "phew"},
    {"good_luck", "good luck"},
    {"well_played", "well played"},
};
// The reaction of that id, or nothing for an id not in the set.
const ReactionKind* find_reaction(std::string_view id) noexcept;
// "thumbs_up, laugh, ..." (for bad_reaction's message and --help).
std::string reaction_ids();
// Per sender at most one reaction in this long (rate_limited, with the wait, otherwise).
inline constexpr int kReactionIntervalMs = 2000;

// The time factors a room may set (settings.time_factor): x1, x2, x3, and 0 for no limit.
inline constexpr int kMaxTimeFactor = 3;
// A hurried decision gets the room's decision_ms (x1), at most this long.
inline constexpr int kHurryMs = 15000;
// Per player at most one ask_time in this long (rate_limited, with the wait, otherwise).
inline constexpr int kAskTimeIntervalMs = 30000;

struct ProtocolError {
    ErrorCode code;
    std::string message;
    std::string ref = {};  // the message's type when it is a known one (the error reply's "ref")
    nlohmann::json args = nlohmann::json::object();  // the error's parameters (the reply's "args")
};

// Parses one text frame; never throws. Names the field in bad_field errors.
std::variant<ClientMessage, ProtocolError> parse_client_message(std::string_view text);
std::string_view type_of(const ClientMessage& message) noexcept;
// The JSON text of a client message (what clients send).
std::string encode(const ClientMessage& message);

// Why the server refuses a player's name, or nothing when it takes it as it is. The server never
// changes a name: a name it would have to change is refused (ErrorCode::bad_name) with this
// reason. Refused: ill-formed UTF-8; empty or nothing but spaces; control characters (Cc, line
// and paragraph separators); format characters (Cf: bidi controls, zero-width characters, the
// BOM, tags), except a zero-width joiner between two pictographs, inside an emoji; characters
// that show as nothing (Hangul fillers, the braille blank, ...); spaces other than U+0020; a
// space at either end or two in a row; more than kMaxNameChars characters; and the form of
// the server's bots' names, "<policy> bot <n>" (any word, any case).
std::optional<std::string> name_problem(std::string_view name);
// The same, as a code and its parameters for a client to word (the bad_name error's "args"):
// reason not_utf8, empty, only_spaces, control, invisible, blank, other_space ("char": "U+202E"),
// edge_space, double_space, too_long ("length", "max"), bot_form.
struct NameProblem {
    std::string reason;
    nlohmann::json args;  // {"reason": ..., and the reason's parameters}
    std::string text;     // English, as name_problem says it
};
std::optional<NameProblem> name_problem_of(std::string_view name);

// ---- Server -> client -----------------------------------------------------------------------
// Written by the server as JSON objects with these fields (see PROTOCOL.md for every message).
// Never throws on ill-formed UTF-8 (replaced with U+FFFD), whatever `message` holds.
// `args`: the parameters a client words the error from (PROTOCOL.md, "Words and languages").
std::string error_message(ErrorCode code, std::string_view message, std::string_view ref_type = {},
                          const nlohmann::json& args = nlohmann::json::object());

}  // namespace spookludo::protocol
