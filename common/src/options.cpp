#include "spookludo/options.h"

#include <climits>
#include <cstdint>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "spookludo/json_read.h"
#include "spookludo/text.h"

namespace spookludo {

std::string_view to_string(GameKind kind) noexcept { return kind == GameKind::spook ? "spook" : "ludo"; }

std::optional<GameKind> parse_game_kind(std::string_view name) noexcept {
    if (name == "spook") return GameKind::spook;
    if (name == "ludo") return GameKind::ludo;
    return std::nullopt;
}

std::string_view to_string(LudoEntry entry) noexcept {
    return entry == LudoEntry::text ? "text" : "start_square";
}

std::optional<LudoEntry> parse_ludo_entry(std::string_view name) noexcept {
    if (name == "text") return LudoEntry::text;
    if (name == "start_square") return LudoEntry::start_square;
    return std::nullopt;
}

LudoOptions home_rules() {
    LudoOptions o;
    o.arm = 6;
    o.entry = LudoEntry::start_square;
    o.safe_squares = true;
    o.bonus_throws = true;
    o.three_sixes = true;
    return o;
}

std::string_view ludo_preset_of(const LudoOptions& options) noexcept {
    return options == home_rules() ? kHomeRulesPreset : std::string_view{};
}

GameOptions GameOptions::spook_game(int players, int pieces) {
    GameOptions o;
    o.game = GameKind::spook;
    o.players = players;
    o.spook.pieces = pieces;
    return o;
}

GameOptions GameOptions::ludo_game(int players, int arm) {
    GameOptions o;
    o.game = GameKind::ludo;
    o.players = players;
    o.ludo.arm = arm;
    return o;
}

std::optional<std::string> GameOptions::validate() const {
    if (game == GameKind::spook) {
        if (players < 1 || players > 8)
            return "players must be 1 to 8 for spook (got " + std::to_string(players) + ")";
        if (spook.pieces < 1 || spook.pieces > 3)
            return "pieces must be 1, 2 or 3 (got " + std::to_string(spook.pieces) + ")";
    } else {
        if (players < 2 || players > 4)
            return "players must be 2 to 4 for ludo (got " + std::to_string(players) + ")";
        if (ludo.arm != 6 && ludo.arm != 8) return "arm must be 6 or 8 (got " + std::to_string(ludo.arm) + ")";
        if (ludo.teams && players != 4)
            return "teams are two against two: they need 4 players (got " + std::to_string(players) + ")";
        if (ludo.teams && play_on)
            return "play_on has no meaning with teams: the game ends when the first team has all its pieces home";
        if (table && (ludo.bonus_throws || ludo.capture_to_home || ludo.teams || ludo.safe_squares))
            return "a game at a table keeps only the house rule three_sixes (the server throws the dice and cannot "
                   "see captures, safe squares or teams on a paper board)";
    }
    if (!table && !table_names.empty()) return "table_names are for a table game (\"table\": true)";
    if (table && !table_names.empty() && static_cast<int>(table_names.size()) != players)
        return "table_names must name the " + std::to_string(players) + " players (got " +
               std::to_string(table_names.size()) + " names)";
    return std::nullopt;
}

void to_json(nlohmann::json& j, const GameOptions& o) {
    j = nlohmann::json{{"game", to_string(o.game)}, {"players", o.players}, {"play_on", o.play_on}};
    if (o.game == GameKind::spook) {
        j["pieces"] = o.spook.pieces;
        j["balanced_boards"] = o.spook.balanced_boards;
    } else {
        j["arm"] = o.ludo.arm;
        j["entry"] = to_string(o.ludo.entry);
        j["three_sixes"] = o.ludo.three_sixes;
        // The house rules only when on: records of the rule text's game stay as they were.
        if (o.ludo.safe_squares) j["safe_squares"] = true;
        if (o.ludo.bonus_throws) j["bonus_throws"] = true;
        if (o.ludo.capture_to_home) j["capture_to_home"] = true;
        if (o.ludo.teams) j["teams"] = true;
    }
    if (o.table) {
        j["table"] = true;
        j["table_names"] = o.table_names;
    }
}

namespace {

template <class T>
T read_key(const nlohmann::json& j, const char* key, const char* expected) {
    try {
        return j.at(key).get<T>();
    } catch (const nlohmann::json::exception&) {
        throw std::invalid_argument(std::string("option \"") + key + "\" must be " + expected + " (got " +
                                    json_read::shown(j.at(key)) + ")");
    }
}

int read_int(const nlohmann::json& j, const char* key) {
    const auto& v = j.at(key);
    // Read as 64 bits and range-check, so that 4294967298 is refused rather than wrapped to 2.
    if (!v.is_number_integer() ||
        (v.is_number_unsigned() ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT_MAX)
                                : (v.get<std::int64_t>() < INT_MIN || v.get<std::int64_t>() > INT_MAX)))
        throw std::invalid_argument(std::string("option \"") + key + "\" must be a whole number (got " + json_read::shown(v) + ")");
    return static_cast<int>(v.get<std::int64_t>());
}

}  // namespace

void from_json(const nlohmann::json& j, GameOptions& out) {
    if (!j.is_object()) throw std::invalid_argument("game options must be a JSON object (got " + json_read::shown(j) + ")");
    if (!j.contains("game")) throw std::invalid_argument("game options need \"game\": \"spook\" or \"ludo\"");
    const auto name = read_key<std::string>(j, "game", "\"spook\" or \"ludo\"");
    const auto kind = parse_game_kind(name);
    if (!kind) throw std::invalid_argument("option \"game\" must be \"spook\" or \"ludo\" (got " + quote_client_text(name) + ")");

    GameOptions o;
    o.game = *kind;
    o.players = o.game == GameKind::spook ? 2 : 4;
    const std::set<std::string> common{"game", "players", "play_on", "table", "table_names"};
    const std::set<std::string> spook_keys{"pieces", "balanced_boards"};
    const std::set<std::string> ludo_keys{"arm",         "entry",           "three_sixes", "safe_squares",
                                          "bonus_throws", "capture_to_home", "teams",       "preset"};
    const auto& own = o.game == GameKind::spook ? spook_keys : ludo_keys;
    const auto& other = o.game == GameKind::spook ? ludo_keys : spook_keys;
    for (const auto& [key, value] : j.items()) {
        if (common.count(key) || own.count(key)) continue;
        if (other.count(key))
            throw std::invalid_argument("option " + quote_client_text(key) + " is not an option of " + name);
        throw std::invalid_argument("unknown option " + quote_client_text(key));
    }
    if (j.contains("table")) o.table = read_key<bool>(j, "table", "true or false");
    if (j.contains("table_names")) {
        const auto& names = j.at("table_names");
        if (!names.is_array() || names.size() > 8)
            throw std::invalid_argument("option \"table_names\" must be a list of at most 8 names (got " +
                                        json_read::shown(names) + ")");
        for (const auto& n : names) {
            if (!n.is_string())
                throw std::invalid_argument("option \"table_names\" must list names as strings (got " +
                                            json_read::shown(n) + ")");
            o.table_names.push_back(n.get<std::string>());
        }
        // The names say how many play, unless "players" says it too.
        if (!j.contains("players") && !o.table_names.empty()) o.players = static_cast<int>(o.table_names.size());
    }
    if (j.contains("players")) o.players = read_int(j, "players");
    if (j.contains("play_on")) o.play_on = read_key<bool>(j, "play_on", "true or false");
    if (o.game == GameKind::spook) {
        if (j.contains("pieces")) o.spook.pieces = read_int(j, "pieces");
        if (j.contains("balanced_boards"))
            o.spook.balanced_boards = read_key<bool>(j, "balanced_boards", "true or false");
    } else {
        if (j.contains("preset")) {
            const auto p = read_key<std::string>(j, "preset", "\"home_rules\"");
            if (p != kHomeRulesPreset)
                throw std::invalid_argument("option \"preset\" must be \"home_rules\" (got " + quote_client_text(p) + ")");
            o.ludo = home_rules();
        }
        const LudoOptions preset = o.ludo;
        if (j.contains("arm")) o.ludo.arm = read_int(j, "arm");
        if (j.contains("entry")) {
            const auto e = read_key<std::string>(j, "entry", "\"text\" or \"start_square\"");
            const auto entry = parse_ludo_entry(e);
            if (!entry)
                throw std::invalid_argument("option \"entry\" must be \"text\" or \"start_square\" (got " +
                                            quote_client_text(e) + ")");
            o.ludo.entry = *entry;
        }
        if (j.contains("three_sixes")) o.ludo.three_sixes = read_key<bool>(j, "three_sixes", "true or false");
        if (j.contains("safe_squares")) o.ludo.safe_squares = read_key<bool>(j, "safe_squares", "true or false");
        if (j.contains("bonus_throws")) o.ludo.bonus_throws = read_key<bool>(j, "bonus_throws", "true or false");
        if (j.contains("capture_to_home"))
            o.ludo.capture_to_home = read_key<bool>(j, "capture_to_home", "true or false");
        if (j.contains("teams")) o.ludo.teams = read_key<bool>(j, "teams", "true or false");
        if (j.contains("preset")) {
            // A key beside the preset that says otherwise: which one.
            const nlohmann::json want = [&] {
                GameOptions p = o;
                p.ludo = preset;
                nlohmann::json w;
                to_json(w, p);
                return w;
            }();
            // The preset's own rules and board stand; the other house rules may be added to it.
            for (const char* key : {"arm", "entry", "three_sixes", "safe_squares", "bonus_throws"})
                if (j.contains(key) && j.at(key) != want.value(key, nlohmann::json(false)))
                    throw std::invalid_argument(std::string("option \"") + key + "\": " + json_read::shown(j.at(key)) +
                                                " contradicts the preset \"home_rules\" (which has " +
                                                json_read::shown(want.value(key, nlohmann::json(false))) +
                                                "): drop the preset and list the rules one by one");
        }
    }
    if (auto err = o.validate()) throw std::invalid_argument(*err);
    out = o;
}

}  // namespace spookludo
