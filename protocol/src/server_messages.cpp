#include "spookludo/protocol/server_messages.h"

#include <concepts>
#include <type_traits>

#include "spookludo/json_lenient.h"
#include "spookludo/json_text.h"
#include "spookludo/protocol/websocket.h"
#include "spookludo/text.h"

namespace spookludo::protocol {

using nlohmann::json;

namespace {

// Optional fields are written only when present and read leniently (a client reads what it knows).
using json_lenient::get;
using json_lenient::put;

}  // namespace

void to_json(json& j, const Welcome& m) {
    j = {{"protocol", m.protocol}, {"server", m.server}, {"server_time_ms", m.server_time_ms}};
    put(j, "public_url", m.public_url);
    if (!m.lan_urls.empty()) j["lan_urls"] = m.lan_urls;
    if (!m.nodes.empty()) j["nodes"] = m.nodes;
}
void from_json(const json& j, Welcome& m) {
    get(j, "protocol", m.protocol);
    get(j, "server", m.server);
    get(j, "server_time_ms", m.server_time_ms);
    get(j, "public_url", m.public_url);
    get(j, "lan_urls", m.lan_urls);
    get(j, "nodes", m.nodes);
}

void to_json(json& j, const Joined& m) {
    j = {{"room", m.room}, {"seat", m.seat}, {"role", m.role}, {"host", m.host}};
    put(j, "token", m.token);
}
void from_json(const json& j, Joined& m) {
    get(j, "room", m.room);
    get(j, "seat", m.seat);
    get(j, "token", m.token);
    get(j, "role", m.role);
    get(j, "host", m.host);
}

void to_json(json& j, const SeatView& m) {
    j = {{"seat", m.seat}, {"name", m.name}, {"bot", m.bot}};
    if (m.free) j["free"] = true;
    if (m.policy) j["policy"] = to_string(*m.policy);
    put(j, "connected", m.connected);
    put(j, "away", m.away);
    put(j, "status", m.status);
    if (m.kicked) j["kicked"] = true;
    if (m.choosing) j["choosing"] = true;
    put(j, "deadline_ms", m.deadline_ms);
}
void from_json(const json& j, SeatView& m) {
    get(j, "seat", m.seat);
    get(j, "name", m.name);
    get(j, "bot", m.bot);
    std::optional<std::string> policy;
    get(j, "policy", policy);
    m.policy = policy ? parse_policy(*policy) : std::nullopt;
    get(j, "connected", m.connected);
    get(j, "away", m.away);
    m.free = j.value("free", false);
    get(j, "status", m.status);
    m.kicked = j.value("kicked", false);
    m.choosing = j.value("choosing", false);
    get(j, "deadline_ms", m.deadline_ms);
}

void to_json(json& j, const RoomSettings& m) {
    j = {{"decision_ms", m.decision_ms}, {"pace_ms", m.pace_ms}, {"hints", m.hints}, {"auto_start_ms", m.auto_start_ms},
         {"spectator_reactions", m.spectator_reactions}};
    if (m.table_pace_ms > 0) j["table_pace_ms"] = m.table_pace_ms;
    j["time_factor"] = m.time_factor;
}
void from_json(const json& j, RoomSettings& m) {
    get(j, "decision_ms", m.decision_ms);
    get(j, "pace_ms", m.pace_ms);
    get(j, "hints", m.hints);
    get(j, "auto_start_ms", m.auto_start_ms);
    get(j, "spectator_reactions", m.spectator_reactions);  // absent in journals of earlier servers: off
    get(j, "table_pace_ms", m.table_pace_ms);
    get(j, "time_factor", m.time_factor);  // absent in journals of earlier servers: x1
}

void to_json(json& j, const RoomSnapshot& m) {
    j = {{"room", m.room},         {"state", m.state}, {"paused", m.paused},         {"options", m.options},
         {"settings", m.settings}, {"host", m.host},   {"seats", m.seats},           {"spectators", m.spectators},
         {"server_time_ms", m.server_time_ms}};
    put(j, "pause_reason", m.pause_reason);
    put(j, "auto_start_at_ms", m.auto_start_at_ms);
    put(j, "decision_deadline_ms", m.decision_deadline_ms);
    put(j, "game_id", m.game_id);
    put(j, "commitment", m.commitment);
    if (!m.boards.empty()) j["boards"] = m.boards;
    if (m.spook) j["game"] = *m.spook;
    if (m.ludo) j["game"] = *m.ludo;
    put(j, "table", m.table);
    put(j, "last_game", m.last_game);
}
void from_json(const json& j, RoomSnapshot& m) {
    get(j, "room", m.room);
    get(j, "state", m.state);
    get(j, "paused", m.paused);
    get(j, "pause_reason", m.pause_reason);
    get(j, "options", m.options);
    get(j, "settings", m.settings);
    get(j, "host", m.host);
    get(j, "seats", m.seats);
    get(j, "spectators", m.spectators);
    get(j, "server_time_ms", m.server_time_ms);
    get(j, "auto_start_at_ms", m.auto_start_at_ms);
    get(j, "decision_deadline_ms", m.decision_deadline_ms);
    get(j, "game_id", m.game_id);
    get(j, "commitment", m.commitment);
    get(j, "boards", m.boards);
    m.spook.reset();
    m.ludo.reset();
    if (auto it = j.find("game"); it != j.end() && it->is_object()) {
        if (m.options.game == GameKind::spook)
            m.spook = it->get<SpookView>();
        else
            m.ludo = it->get<LudoView>();
    }
    get(j, "last_game", m.last_game);
    get(j, "table", m.table);
}

void to_json(json& j, const Commitment& m) {
    j = {{"game_id", m.game_id}, {"commitment", m.commitment}, {"seed_wait_ms", m.seed_wait_ms}};
    if (!m.boards.empty()) j["boards"] = m.boards;
}
void from_json(const json& j, Commitment& m) {
    get(j, "game_id", m.game_id);
    get(j, "commitment", m.commitment);
    get(j, "seed_wait_ms", m.seed_wait_ms);
    get(j, "boards", m.boards);
}

void to_json(json& j, const ClientSeedAccepted&) { j = json::object(); }
void from_json(const json&, ClientSeedAccepted&) {}

void to_json(json& j, const SeedView& m) { j = {{"seat", m.seat}, {"seed", m.seed}}; }
void from_json(const json& j, SeedView& m) {
    get(j, "seat", m.seat);
    get(j, "seed", m.seed);
}

void to_json(json& j, const GameStarted& m) {
    j = {{"game_id", m.game_id}, {"options", m.options}, {"client_seeds", m.client_seeds}};
    if (!m.assignment.empty()) j["assignment"] = m.assignment;
    j["players"] = m.players;
}
void from_json(const json& j, GameStarted& m) {
    get(j, "game_id", m.game_id);
    get(j, "options", m.options);
    get(j, "client_seeds", m.client_seeds);
    get(j, "assignment", m.assignment);
    get(j, "players", m.players);
}

// ---- The messages of every step: one field list each --------------------------------------------
// The messages a game sends at every step are written straight into their text (no JSON tree):
// each has one field list, `fields`, which writes them (Writer), builds their tree (to_json) and
// reads them (from_json).
namespace {

#define SPOOKLUDO_FIELDS(T) \
    template <class V, class M> \
        requires std::same_as<std::remove_const_t<M>, T> \
    void fields(V&& v, M& m)

SPOOKLUDO_FIELDS(DecisionOption) {
    v("piece", m.piece);
    v("from", m.from);
    v("to", m.to);
    v("square", m.square);
    v("expected_rounds", m.expected_rounds);
    v("captures", m.captures);
    v("best", m.best);
}
SPOOKLUDO_FIELDS(Decision) {
    v("decision", m.decision);
    v("seat", m.seat);
    v("step", m.step);
    v("options", m.options);
    v("time_left_ms", m.time_left_ms);
    v("server_time_ms", m.server_time_ms);
}
SPOOKLUDO_FIELDS(ChoiceAccepted) {
    v("decision", m.decision);
    v("piece", m.piece);
}
SPOOKLUDO_FIELDS(DecisionTimeout) { v("decision", m.decision); }
SPOOKLUDO_FIELDS(Roll) {
    v("round", m.round);
    v("face", m.face);
    v("table", m.table);
    v("text", m.text);
}
SPOOKLUDO_FIELDS(PieceMoveView) {
    v("seat", m.seat);
    v("piece", m.piece);
    v("from", m.from);
    v("to", m.to);
    v("stays", m.stays);
    v("by", m.by);
}
SPOOKLUDO_FIELDS(Moves) {
    v("round", m.round);
    v("moves", m.moves);
}
SPOOKLUDO_FIELDS(Activation) {
    v("round", m.round);
    v("face", m.face);
    v("character", m.character);
    v("name", m.name);
    v("action", m.action);
    v("moved", m.moved);
    v("finished", m.finished);
    v("table", m.table);
    v("text", m.text);
}
SPOOKLUDO_FIELDS(EventView) {
    v("kind", m.kind);
    v("text", m.text);
    v("seat", m.seat);
    v("piece", m.piece);
    v("face", m.face);
    v("from", m.from);
    v("to", m.to);
    v("square", m.square);
    v("colour", m.colour);
    v("turn", m.turn);
    v("reason", m.reason);
    v("with", m.with);
}
SPOOKLUDO_FIELDS(RollOff) {
    v("starts", m.starts);
    v("events", m.events);
    v("table", m.table);
    v("text", m.text);
    v("names", m.names);
}
SPOOKLUDO_FIELDS(Throw) {
    v("turn", m.turn);
    v("seat", m.seat);
    v("face", m.face);
    v("events", m.events);
    v("table", m.table);
    v("text", m.text);
    v("name", m.name);
    v("next", m.next);
    v("next_name", m.next_name);
}
SPOOKLUDO_FIELDS(TurnSkipped) {
    v("turn", m.turn);
    v("seat", m.seat);
    v("next", m.next);
    v("text", m.text);
    v("name", m.name);
    v("next_name", m.next_name);
}
SPOOKLUDO_FIELDS(TableView) {
    v("names", m.names);
    v("next", m.next);
    v("dice", m.dice);
    v("round", m.round);
    v("turn", m.turn);
    v("assignment", m.assignment);
    v("last", m.last);
    v("face", m.face);
    v("last_kind", m.last_kind);
    v("last_step", m.last_step);
    v("last_seat", m.last_seat);
    v("last_next", m.last_next);
    v("last_character", m.last_character);
    v("seeds_by", m.seeds_by);
    v("pace_ms", m.pace_ms);
}
SPOOKLUDO_FIELDS(LudoMove) {
    v("turn", m.turn);
    v("by", m.by);
    v("events", m.events);
}
#undef SPOOKLUDO_FIELDS

// Optional fields are written only when present (put) and read leniently (get).
struct ToJson {
    json& j;
    template <class T>
    void operator()(const char* key, const T& value) {
        j[key] = value;
    }
    template <class T>
    void operator()(const char* key, const std::optional<T>& value) {
        put(j, key, value);
    }
};
struct FromJson {
    const json& j;
    template <class T>
    void operator()(const char* key, T& value) {
        get(j, key, value);
    }
};

// Appends the fields as "key":value pairs (after a comma when some came before).
struct Writer {
    std::string& out;
    bool first;
    template <class T>
    void operator()(const char* key, const T& value) {
        if (!first) out += ',';
        first = false;
        out += '"';
        out += key;
        out += "\":";
        write(value);
    }
    template <class T>
    void operator()(const char* key, const std::optional<T>& value) {
        if (value) (*this)(key, *value);
    }

    void write(bool b) { json_text::boolean(out, b); }
    template <std::integral T>
    void write(T n) {
        json_text::number(out, n);
    }
    void write(double d) { json_text::number(out, d); }
    void write(const std::string& text) {
        if (ws::valid_utf8(text))
            json_text::string(out, text);
        else
            json_text::string(out, valid_utf8_or_replaced(text));  // as encode_message does
    }
    template <class T>
    void write(const std::vector<T>& items) {
        out += '[';
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (i) out += ',';
            write(items[i]);
        }
        out += ']';
    }
    template <class S>
        requires std::is_class_v<S>
    void write(const S& object) {
        out += '{';
        fields(Writer{out, true}, object);
        out += '}';
    }
};

template <class M>
std::string write_message(const M& m) {
    std::string out;
    out.reserve(128);
    out += "{\"type\":\"";
    out += M::type;
    out += '"';
    fields(Writer{out, false}, m);
    out += '}';
    return out;
}

}  // namespace

#define SPOOKLUDO_VIA_FIELDS(T)                                                \
    void to_json(json& j, const T& m) {                                        \
        j = json::object();                                                    \
        fields(ToJson{j}, m);                                                  \
    }                                                                          \
    void from_json(const json& j, T& m) { fields(FromJson{j}, m); }
SPOOKLUDO_VIA_FIELDS(DecisionOption)
SPOOKLUDO_VIA_FIELDS(Decision)
SPOOKLUDO_VIA_FIELDS(ChoiceAccepted)
SPOOKLUDO_VIA_FIELDS(DecisionTimeout)
SPOOKLUDO_VIA_FIELDS(Roll)
SPOOKLUDO_VIA_FIELDS(PieceMoveView)
SPOOKLUDO_VIA_FIELDS(Moves)
SPOOKLUDO_VIA_FIELDS(Activation)
SPOOKLUDO_VIA_FIELDS(EventView)
SPOOKLUDO_VIA_FIELDS(RollOff)
SPOOKLUDO_VIA_FIELDS(Throw)
SPOOKLUDO_VIA_FIELDS(LudoMove)
SPOOKLUDO_VIA_FIELDS(TurnSkipped)
SPOOKLUDO_VIA_FIELDS(TableView)
#undef SPOOKLUDO_VIA_FIELDS

std::string encode_message(const Decision& m) { return write_message(m); }
std::string encode_message(const ChoiceAccepted& m) { return write_message(m); }
std::string encode_message(const DecisionTimeout& m) { return write_message(m); }
std::string encode_message(const Roll& m) { return write_message(m); }
std::string encode_message(const Moves& m) { return write_message(m); }
std::string encode_message(const Activation& m) { return write_message(m); }
std::string encode_message(const RollOff& m) { return write_message(m); }
std::string encode_message(const Throw& m) { return write_message(m); }
std::string encode_message(const LudoMove& m) { return write_message(m); }

void to_json(json& j, const GameOver& m) {
    j = {{"game_id", m.game_id}, {"status", m.status}, {"winners", m.winners}, {"places", m.places},
         {"length", m.length},   {"server_seed", m.server_seed ? json(*m.server_seed) : json(nullptr)}};
    if (!m.names.empty()) j["names"] = m.names;
    put(j, "record", m.record);
    put(j, "reason", m.reason);
    put(j, "cause", m.cause);
}
void from_json(const json& j, GameOver& m) {
    get(j, "game_id", m.game_id);
    get(j, "status", m.status);
    get(j, "winners", m.winners);
    get(j, "places", m.places);
    get(j, "names", m.names);
    get(j, "length", m.length);
    get(j, "server_seed", m.server_seed);
    get(j, "record", m.record);
    get(j, "reason", m.reason);
    get(j, "cause", m.cause);
}

void to_json(json& j, const Kicked& m) { j = {{"room", m.room}, {"reason", m.reason}}; }
void from_json(const json& j, Kicked& m) {
    get(j, "room", m.room);
    get(j, "reason", m.reason);
}

void to_json(json& j, const Notice& m) {
    j = {{"kind", m.kind}, {"text", m.text}};
    put(j, "seat", m.seat);
    put(j, "name", m.name);
    put(j, "factor", m.factor);
    put(j, "time_ms", m.time_ms);
    if (m.fields.is_object())
        for (const auto& [key, value] : m.fields.items())
            if (!j.contains(key)) j[key] = value;
}
void from_json(const json& j, Notice& m) {
    get(j, "kind", m.kind);
    get(j, "text", m.text);
    get(j, "seat", m.seat);
    get(j, "name", m.name);
    get(j, "factor", m.factor);
    get(j, "time_ms", m.time_ms);
    m.fields = json::object();
    for (const auto& [key, value] : j.items())
        if (key != "type" && key != "kind" && key != "text" && key != "seat" && key != "name") m.fields[key] = value;
}

void to_json(json& j, const Closing& m) { j = {{"code", m.code}, {"reason", m.reason}}; }
void from_json(const json& j, Closing& m) {
    get(j, "code", m.code);
    get(j, "reason", m.reason);
}

void to_json(json& j, const Redirect& m) {
    j = {{"url", m.url}, {"node", m.node}, {"ref", m.ref}};
    put(j, "room", m.room);
}
void from_json(const json& j, Redirect& m) {
    get(j, "url", m.url);
    get(j, "node", m.node);
    get(j, "ref", m.ref);
    get(j, "room", m.room);
}

void to_json(json& j, const Pong& m) { j = {{"t", m.t}, {"server_time_ms", m.server_time_ms}}; }
void from_json(const json& j, Pong& m) {
    get(j, "t", m.t);
    get(j, "server_time_ms", m.server_time_ms);
}

void to_json(json& j, const ErrorReply& m) {
    j = {{"code", m.code}, {"message", m.message}};
    put(j, "ref", m.ref);
    put(j, "retry_after_ms", m.retry_after_ms);
    if (m.args && m.args->is_object() && !m.args->empty()) j["args"] = *m.args;
}
void from_json(const json& j, ErrorReply& m) {
    get(j, "code", m.code);
    get(j, "message", m.message);
    get(j, "ref", m.ref);
    get(j, "retry_after_ms", m.retry_after_ms);
    if (auto it = j.find("args"); it != j.end() && it->is_object()) m.args = *it;
}

void to_json(json& j, const Reaction& m) {
    j = {{"seat", m.seat}, {"name", m.name}, {"role", m.role}, {"reaction", m.reaction}, {"label", m.label}};
}
void from_json(const json& j, Reaction& m) {
    get(j, "seat", m.seat);
    get(j, "name", m.name);
    get(j, "role", m.role);
    get(j, "reaction", m.reaction);
    get(j, "label", m.label);
}

}  // namespace spookludo::protocol
