#include "spookludo/protocol/server_messages.h"

namespace spookludo::protocol {

using nlohmann::json;

namespace {

// Optional fields are written only when present and read leniently (a client reads what it knows).
template <class T>
void put(json& j, const char* key, const std::optional<T>& v) {
    if (v) j[key] = *v;
}
template <class T>
void get(const json& j, const char* key, T& v) {
    if (auto it = j.find(key); it != j.end() && !it->is_null()) it->get_to(v);
}
template <class T>
void get(const json& j, const char* key, std::optional<T>& v) {
    if (auto it = j.find(key); it != j.end() && !it->is_null())
        v = it->get<T>();
    else
        v.reset();
}

}  // namespace

void to_json(json& j, const Welcome& m) {
    j = {{"protocol", m.protocol}, {"server", m.server}, {"server_time_ms", m.server_time_ms}};
}
void from_json(const json& j, Welcome& m) {
    get(j, "protocol", m.protocol);
    get(j, "server", m.server);
    get(j, "server_time_ms", m.server_time_ms);
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
    if (m.policy) j["policy"] = to_string(*m.policy);
    put(j, "connected", m.connected);
    put(j, "away", m.away);
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
}

void to_json(json& j, const SpookView& m) {
    json finished = json::array();
    for (const auto& f : m.finished_round) finished.push_back(f ? json(*f) : json(nullptr));
    j = {{"round", m.round}, {"phase", m.phase}, {"boards", m.boards}, {"positions", m.positions},
         {"finished_round", finished}};
    put(j, "roll", m.roll);
}
void from_json(const json& j, SpookView& m) {
    get(j, "round", m.round);
    get(j, "phase", m.phase);
    get(j, "roll", m.roll);
    get(j, "boards", m.boards);
    get(j, "positions", m.positions);
    m.finished_round.clear();
    if (auto it = j.find("finished_round"); it != j.end() && it->is_array())
        for (const auto& f : *it) m.finished_round.push_back(f.is_null() ? std::nullopt : std::optional<int>(f.get<int>()));
}

void to_json(json& j, const LudoView& m) {
    j = {{"position", m.position}, {"phase", m.phase}, {"current_seat", m.current_seat}, {"turn", m.turn}};
    put(j, "face", m.face);
}
void from_json(const json& j, LudoView& m) {
    get(j, "position", m.position);
    get(j, "phase", m.phase);
    get(j, "current_seat", m.current_seat);
    get(j, "turn", m.turn);
    get(j, "face", m.face);
}

void to_json(json& j, const RoomSettings& m) {
    j = {{"decision_ms", m.decision_ms}, {"pace_ms", m.pace_ms}, {"hints", m.hints}};
}
void from_json(const json& j, RoomSettings& m) {
    get(j, "decision_ms", m.decision_ms);
    get(j, "pace_ms", m.pace_ms);
    get(j, "hints", m.hints);
}

void to_json(json& j, const RoomSnapshot& m) {
    j = {{"room", m.room},         {"state", m.state}, {"paused", m.paused},         {"options", m.options},
         {"settings", m.settings}, {"host", m.host},   {"seats", m.seats},           {"spectators", m.spectators},
         {"server_time_ms", m.server_time_ms}};
    put(j, "game_id", m.game_id);
    put(j, "commitment", m.commitment);
    if (!m.boards.empty()) j["boards"] = m.boards;
    if (m.spook) j["game"] = *m.spook;
    if (m.ludo) j["game"] = *m.ludo;
}
void from_json(const json& j, RoomSnapshot& m) {
    get(j, "room", m.room);
    get(j, "state", m.state);
    get(j, "paused", m.paused);
    get(j, "options", m.options);
    get(j, "settings", m.settings);
    get(j, "host", m.host);
    get(j, "seats", m.seats);
    get(j, "spectators", m.spectators);
    get(j, "server_time_ms", m.server_time_ms);
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
}
void from_json(const json& j, GameStarted& m) {
    get(j, "game_id", m.game_id);
    get(j, "options", m.options);
    get(j, "client_seeds", m.client_seeds);
    get(j, "assignment", m.assignment);
}

void to_json(json& j, const DecisionOption& m) {
    j = {{"piece", m.piece}, {"from", m.from}, {"to", m.to}};
    put(j, "square", m.square);
    put(j, "expected_rounds", m.expected_rounds);
    put(j, "captures", m.captures);
    put(j, "best", m.best);
}
void from_json(const json& j, DecisionOption& m) {
    get(j, "piece", m.piece);
    get(j, "from", m.from);
    get(j, "to", m.to);
    get(j, "square", m.square);
    get(j, "expected_rounds", m.expected_rounds);
    get(j, "captures", m.captures);
    get(j, "best", m.best);
}

void to_json(json& j, const Decision& m) {
    j = {{"decision", m.decision},         {"seat", m.seat},
         {"step", m.step},                 {"options", m.options},
         {"time_left_ms", m.time_left_ms}, {"server_time_ms", m.server_time_ms}};
}
void from_json(const json& j, Decision& m) {
    get(j, "decision", m.decision);
    get(j, "seat", m.seat);
    get(j, "step", m.step);
    get(j, "options", m.options);
    get(j, "time_left_ms", m.time_left_ms);
    get(j, "server_time_ms", m.server_time_ms);
}

void to_json(json& j, const ChoiceAccepted& m) { j = {{"decision", m.decision}, {"piece", m.piece}}; }
void from_json(const json& j, ChoiceAccepted& m) {
    get(j, "decision", m.decision);
    get(j, "piece", m.piece);
}

void to_json(json& j, const DecisionTimeout& m) { j = {{"decision", m.decision}}; }
void from_json(const json& j, DecisionTimeout& m) { get(j, "decision", m.decision); }

void to_json(json& j, const Roll& m) { j = {{"round", m.round}, {"face", m.face}}; }
void from_json(const json& j, Roll& m) {
    get(j, "round", m.round);
    get(j, "face", m.face);
}

void to_json(json& j, const PieceMoveView& m) {
    j = {{"seat", m.seat}};
    put(j, "piece", m.piece);
    put(j, "from", m.from);
    put(j, "to", m.to);
    put(j, "stays", m.stays);
    put(j, "by", m.by);
}
void from_json(const json& j, PieceMoveView& m) {
    get(j, "seat", m.seat);
    get(j, "piece", m.piece);
    get(j, "from", m.from);
    get(j, "to", m.to);
    get(j, "stays", m.stays);
    get(j, "by", m.by);
}

void to_json(json& j, const Moves& m) { j = {{"round", m.round}, {"moves", m.moves}}; }
void from_json(const json& j, Moves& m) {
    get(j, "round", m.round);
    get(j, "moves", m.moves);
}

void to_json(json& j, const Activation& m) {
    j = {{"round", m.round},   {"face", m.face},   {"character", m.character}, {"name", m.name},
         {"action", m.action}, {"moved", m.moved}, {"finished", m.finished}};
}
void from_json(const json& j, Activation& m) {
    get(j, "round", m.round);
    get(j, "face", m.face);
    get(j, "character", m.character);
    get(j, "name", m.name);
    get(j, "action", m.action);
    get(j, "moved", m.moved);
    get(j, "finished", m.finished);
}

void to_json(json& j, const EventView& m) {
    j = {{"kind", m.kind}, {"text", m.text}};
    put(j, "seat", m.seat);
    put(j, "piece", m.piece);
    put(j, "face", m.face);
    put(j, "from", m.from);
    put(j, "to", m.to);
    put(j, "square", m.square);
}
void from_json(const json& j, EventView& m) {
    get(j, "kind", m.kind);
    get(j, "text", m.text);
    get(j, "seat", m.seat);
    get(j, "piece", m.piece);
    get(j, "face", m.face);
    get(j, "from", m.from);
    get(j, "to", m.to);
    get(j, "square", m.square);
}

void to_json(json& j, const RollOff& m) { j = {{"starts", m.starts}, {"events", m.events}}; }
void from_json(const json& j, RollOff& m) {
    get(j, "starts", m.starts);
    get(j, "events", m.events);
}

void to_json(json& j, const Throw& m) { j = {{"turn", m.turn}, {"seat", m.seat}, {"face", m.face}, {"events", m.events}}; }
void from_json(const json& j, Throw& m) {
    get(j, "turn", m.turn);
    get(j, "seat", m.seat);
    get(j, "face", m.face);
    get(j, "events", m.events);
}

void to_json(json& j, const LudoMove& m) { j = {{"turn", m.turn}, {"by", m.by}, {"events", m.events}}; }
void from_json(const json& j, LudoMove& m) {
    get(j, "turn", m.turn);
    get(j, "by", m.by);
    get(j, "events", m.events);
}

void to_json(json& j, const GameOver& m) {
    j = {{"game_id", m.game_id}, {"status", m.status}, {"winners", m.winners}, {"places", m.places},
         {"length", m.length},   {"server_seed", m.server_seed ? json(*m.server_seed) : json(nullptr)}};
    put(j, "record", m.record);
    put(j, "reason", m.reason);
}
void from_json(const json& j, GameOver& m) {
    get(j, "game_id", m.game_id);
    get(j, "status", m.status);
    get(j, "winners", m.winners);
    get(j, "places", m.places);
    get(j, "length", m.length);
    get(j, "server_seed", m.server_seed);
    get(j, "record", m.record);
    get(j, "reason", m.reason);
}

void to_json(json& j, const Kicked& m) { j = {{"room", m.room}}; }
void from_json(const json& j, Kicked& m) { get(j, "room", m.room); }

void to_json(json& j, const Closing& m) { j = {{"reason", m.reason}}; }
void from_json(const json& j, Closing& m) { get(j, "reason", m.reason); }

void to_json(json& j, const Pong& m) { j = {{"t", m.t}, {"server_time_ms", m.server_time_ms}}; }
void from_json(const json& j, Pong& m) {
    get(j, "t", m.t);
    get(j, "server_time_ms", m.server_time_ms);
}

void to_json(json& j, const ErrorReply& m) {
    j = {{"code", m.code}, {"message", m.message}};
    put(j, "ref", m.ref);
}
void from_json(const json& j, ErrorReply& m) {
    get(j, "code", m.code);
    get(j, "message", m.message);
    get(j, "ref", m.ref);
}

}  // namespace spookludo::protocol
