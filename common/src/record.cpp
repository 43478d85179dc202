#include "spookludo/record.h"

#include "spookludo/json_read.h"
#include "spookludo/json_text.h"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace spookludo {

std::string_view to_string(ChoiceMaker maker) noexcept {
    switch (maker) {
        case ChoiceMaker::player: return "player";
        case ChoiceMaker::timeout: return "timeout";
        case ChoiceMaker::away: return "away";
    }
    return "?";
}

std::string_view to_string(GameStatus status) noexcept {
    switch (status) {
        case GameStatus::in_progress: return "in_progress";
        case GameStatus::finished: return "finished";
        case GameStatus::abandoned: return "abandoned";
    }
    return "?";
}

namespace {

constexpr std::string_view kRecordFormat = "spookludo-game-record";
using nlohmann::json;
using namespace json_read;

int read_small(const json& j, const std::string& path, const char* key, int lo = 0, int hi = 1 << 30) {
    return static_cast<int>(integer(j, path, key, lo, hi));
}

constexpr DrawPurpose kPurposes[] = {DrawPurpose::assignment, DrawPurpose::roll_off, DrawPurpose::movement,
                                     DrawPurpose::activation, DrawPurpose::throw_};
constexpr ChoiceMaker kMakers[] = {ChoiceMaker::player, ChoiceMaker::timeout, ChoiceMaker::away};
constexpr GameStatus kStatuses[] = {GameStatus::in_progress, GameStatus::finished, GameStatus::abandoned};

}  // namespace

void to_json(json& j, const GameRecord& r) { j = json::parse(record_text(r)); }

void from_json(const json& j, GameRecord& out) {
    if (!j.is_object()) throw std::invalid_argument("a game record is a JSON object");
    GameRecord r;
    if (string(j, "", "format") != kRecordFormat)
        fail("format", "is not \"" + std::string(kRecordFormat) + "\": this is not a SpookLudo game record");
    r.version = read_small(j, "", "version");
    if (r.version != kRecordVersion)
        fail("version", "this program reads version " + std::to_string(kRecordVersion) + " records (got " +
                            std::to_string(r.version) + ")");
    try {
        r.options = field(j, "", "options").get<GameOptions>();
    } catch (const std::invalid_argument& e) {
        fail("options", e.what());
    }
    const int players = r.options.players;

    const json& seats = array(j, "", "seats");
    for (std::size_t i = 0; i < seats.size(); ++i) {
        const auto path = join("seats", i);
        RecordSeat s;
        s.seat = read_small(seats[i], path, "seat", 0, players - 1);
        if (s.seat != static_cast<int>(i)) fail(join(path, "seat"), "seats must be listed in order");
        s.name = string(seats[i], path, "name");
        s.bot = boolean(seats[i], path, "bot");
        if (seats[i].contains("policy")) {
            const auto name = string(seats[i], path, "policy");
            s.policy = parse_policy(name);
            if (!s.policy) fail(join(path, "policy"), "unknown policy \"" + name + "\"");
        }
        if (seats[i].contains("room_seat")) s.room_seat = read_small(seats[i], path, "room_seat", 0, 7);
        r.seats.push_back(s);
    }
    if (static_cast<int>(r.seats.size()) != players)
        fail("seats", "lists " + std::to_string(r.seats.size()) + " seats for " + std::to_string(players) + " players");

    r.commitment = string(j, "", "commitment");
    const json& clients = array(j, "", "client_seeds");
    const int seed_seats = r.options.table ? kMaxTableSeeds : players;
    for (std::size_t i = 0; i < clients.size(); ++i) {
        const auto path = join("client_seeds", i);
        ClientSeed c{read_small(clients[i], path, "seat", 0, seed_seats - 1), string(clients[i], path, "seed")};
        if (auto err = check_client_seed(c.seed)) fail(join(path, "seed"), *err);
        r.client_seeds.push_back(c);
        if (r.options.table) r.client_seed_by.push_back(string(clients[i], path, "by"));
    }
    if (r.options.table) {
        const json& said = array(j, "", "announcements");
        for (std::size_t i = 0; i < said.size(); ++i) {
            const auto path = join("announcements", i);
            r.announcements.push_back({read_small(said[i], path, "step", 0), string(said[i], path, "kind"),
                                       string(said[i], path, "text")});
        }
    }
    const json& seed = field(j, "", "server_seed");
    if (!seed.is_null()) {
        if (!seed.is_string()) fail("server_seed", "must be a hex string, or null while the game is in progress");
        r.server_seed = seed.get<std::string>();
    }
    if (j.contains("server_move_version"))
        r.server_move_version = read_small(j, "", "server_move_version", 1);
    if (r.options.game == GameKind::spook) {
        const json& boards = array(j, "", "boards");
        for (std::size_t i = 0; i < boards.size(); ++i) {
            if (!boards[i].is_string()) fail(join("boards", i), "must be a board notation string");
            r.boards.push_back(boards[i].get<std::string>());
        }
        const json& assignment = array(j, "", "assignment");
        for (std::size_t i = 0; i < assignment.size(); ++i) {
            if (!assignment[i].is_number_integer()) fail(join("assignment", i), "must be a board index");
            r.assignment.push_back(assignment[i].get<int>());
        }
    }
    const json& draws = array(j, "", "draws");
    for (std::size_t i = 0; i < draws.size(); ++i) {
        const auto path = join("draws", i);
        Draw d;
        d.counter = static_cast<std::uint64_t>(integer(draws[i], path, "counter", 0, 1LL << 53));
        d.purpose = enumerated(draws[i], path, "purpose", kPurposes);
        d.range = static_cast<std::uint32_t>(integer(draws[i], path, "range", 1, 1LL << 32));
        d.value = static_cast<std::uint32_t>(integer(draws[i], path, "value", 0, (1LL << 32) - 1));
        r.draws.push_back(d);
    }
    const json& choices = array(j, "", "choices");
    for (std::size_t i = 0; i < choices.size(); ++i) {
        const auto path = join("choices", i);
        RecordedChoice c;
        c.step = read_small(choices[i], path, "step", 1);
        c.seat = read_small(choices[i], path, "seat", 0, players - 1);
        c.piece = read_small(choices[i], path, "piece", 0, 3);
        c.maker = enumerated(choices[i], path, "by", kMakers);
        r.choices.push_back(c);
    }
    const json& positions = array(j, "", "positions");
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const auto path = join("positions", i);
        r.positions.push_back({read_small(positions[i], path, "step", 0), string(positions[i], path, "position")});
    }
    const json& result = field(j, "", "result");
    r.result.status = enumerated(result, "result", "status", kStatuses);
    for (const auto& w : array(result, "result", "winners")) {
        if (!w.is_number_integer() || w.get<int>() < 0 || w.get<int>() >= players)
            fail("result.winners", "must list seats 0 to " + std::to_string(players - 1));
        r.result.winners.push_back(w.get<int>());
    }
    for (const auto& p : array(result, "result", "places")) {
        if (!p.is_number_integer() || p.get<int>() < 0 || p.get<int>() > players)
            fail("result.places", "must be places 1 to " + std::to_string(players) + ", or 0");
        r.result.places.push_back(p.get<int>());
    }
    r.result.length = read_small(result, "result", "length", 0);
    out = std::move(r);
}

GameRecord start_record(const GameOptions& options, std::vector<RecordSeat> seats, const ServerSeed& server_seed,
                        std::vector<ClientSeed> client_seeds) {
    if (static_cast<int>(seats.size()) != options.players) throw std::invalid_argument("one seat entry per player");
    std::sort(client_seeds.begin(), client_seeds.end(),
              [](const ClientSeed& a, const ClientSeed& b) { return a.seat < b.seat; });
    GameRecord r;
    r.options = options;
    r.seats = std::move(seats);
    r.commitment = server_seed.commitment();
    r.client_seeds = std::move(client_seeds);
    r.result.places.assign(static_cast<std::size_t>(options.players), 0);
    return r;
}

// Written directly (a record is written after every game): the keys in alphabetical order, as
// a JSON library's tree would give them, lists of objects one entry per line.
std::string record_text(const GameRecord& r) {
    namespace jt = json_text;
    std::string out;
    out.reserve(1024 + 64 * (r.draws.size() + r.choices.size()) + 96 * r.positions.size());
    bool first_key = true;
    auto key = [&](std::string_view name) {
        out += first_key ? "{\n  \"" : ",\n  \"";
        first_key = false;
        out += name;
        out += "\": ";
    };
    // A list of objects: one per line; an empty list as [].
    auto list = [&](std::string_view name, const auto& items, auto&& write) {
        key(name);
        if (items.empty()) {
            out += "[]";
            return;
        }
        out += "[\n";
        for (std::size_t i = 0; i < items.size(); ++i) {
            out += "    {";
            write(items[i]);
            out += i + 1 < items.size() ? "},\n" : "}\n";
        }
        out += "  ]";
    };
    const bool spook = r.options.game == GameKind::spook;
    if (r.options.table)
        list("announcements", r.announcements, [&](const RecordedAnnouncement& a) {
            out += "\"kind\":";
            jt::string(out, a.kind);
            out += ",\"step\":";
            jt::number(out, a.step);
            out += ",\"text\":";
            jt::string(out, a.text);
        });
    if (spook) {
        key("assignment");
        jt::numbers(out, r.assignment);
        key("boards");
        jt::strings(out, r.boards);
    }
    list("choices", r.choices, [&](const RecordedChoice& c) {
        out += "\"by\":";
        jt::string(out, to_string(c.maker));
        out += ",\"piece\":";
        jt::number(out, c.piece);
        out += ",\"seat\":";
        jt::number(out, c.seat);
        out += ",\"step\":";
        jt::number(out, c.step);
    });
    std::size_t seed_index = 0;
    list("client_seeds", r.client_seeds, [&](const ClientSeed& c) {
        const std::size_t i = seed_index++;
        if (i < r.client_seed_by.size()) {
            out += "\"by\":";
            jt::string(out, r.client_seed_by[i]);
            out += ',';
        }
        out += "\"seat\":";
        jt::number(out, c.seat);
        out += ",\"seed\":";
        jt::string(out, c.seed);
    });
    key("commitment");
    jt::string(out, r.commitment);
    list("draws", r.draws, [&](const Draw& d) {
        out += "\"counter\":";
        jt::number(out, d.counter);
        out += ",\"purpose\":";
        jt::string(out, to_string(d.purpose));
        out += ",\"range\":";
        jt::number(out, d.range);
        out += ",\"value\":";
        jt::number(out, d.value);
    });
    key("format");
    jt::string(out, kRecordFormat);
    key("options");
    out += json(r.options).dump();
    list("positions", r.positions, [&](const RecordedPosition& p) {
        out += "\"position\":";
        jt::string(out, p.position);
        out += ",\"step\":";
        jt::number(out, p.step);
    });
    key("result");
    out += "{\"length\":";
    jt::number(out, r.result.length);
    out += ",\"places\":";
    jt::numbers(out, r.result.places);
    out += ",\"status\":";
    jt::string(out, to_string(r.result.status));
    out += ",\"winners\":";
    jt::numbers(out, r.result.winners);
    out += '}';
    list("seats", r.seats, [&](const RecordSeat& s) {
        out += "\"bot\":";
        jt::boolean(out, s.bot);
        out += ",\"name\":";
        jt::string(out, s.name);
        if (s.policy) {
            out += ",\"policy\":";
            jt::string(out, to_string(*s.policy));
        }
        if (s.room_seat) {
            out += ",\"room_seat\":";
            jt::number(out, *s.room_seat);
        }
        out += ",\"seat\":";
        jt::number(out, s.seat);
    });
    if (r.server_move_version) {
        key("server_move_version");
        jt::number(out, *r.server_move_version);
    }
    key("server_seed");
    if (r.server_seed) jt::string(out, *r.server_seed);
    else out += "null";
    key("version");
    jt::number(out, r.version);
    out += "\n}\n";
    return out;
}

GameRecord parse_record(const std::string& text) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {  // parse_error, and out_of_range for a number too large (1e999)
        throw std::invalid_argument(std::string("not valid JSON (truncated or damaged?): ") + e.what());
    }
    return j.get<GameRecord>();
}

}  // namespace spookludo
