#include "spookludo/protocol/messages.h"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "spookludo/json_read.h"
#include "spookludo/protocol/server_messages.h"
#include "spookludo/text.h"

namespace spookludo::protocol {

using nlohmann::json;
namespace jr = spookludo::json_read;

std::string_view to_string(ErrorCode code) noexcept {
    switch (code) {
        case ErrorCode::bad_json: return "bad_json";
        case ErrorCode::unknown_type: return "unknown_type";
        case ErrorCode::bad_field: return "bad_field";
        case ErrorCode::version_mismatch: return "version_mismatch";
        case ErrorCode::hello_first: return "hello_first";
        case ErrorCode::too_large: return "too_large";
        case ErrorCode::binary_frame: return "binary_frame";
        case ErrorCode::rate_limited: return "rate_limited";
        case ErrorCode::room_not_found: return "room_not_found";
        case ErrorCode::room_full: return "room_full";
        case ErrorCode::server_full: return "server_full";
        case ErrorCode::name_taken: return "name_taken";
        case ErrorCode::bad_token: return "bad_token";
        case ErrorCode::not_in_room: return "not_in_room";
        case ErrorCode::not_host: return "not_host";
        case ErrorCode::not_a_player: return "not_a_player";
        case ErrorCode::wrong_state: return "wrong_state";
        case ErrorCode::stale_decision: return "stale_decision";
        case ErrorCode::illegal_choice: return "illegal_choice";
        case ErrorCode::already_in_room: return "already_in_room";
        case ErrorCode::internal_error: return "internal_error";
        case ErrorCode::bad_name: return "bad_name";
        case ErrorCode::paused: return "paused";
        case ErrorCode::unavailable: return "unavailable";
        case ErrorCode::room_lost: return "room_lost";
        case ErrorCode::bad_reaction: return "bad_reaction";
    }
    return "?";
}

namespace {

constexpr std::size_t kMaxRoomCode = 8;
constexpr std::size_t kMaxToken = 64;
constexpr std::size_t kMaxDecisionId = 32;

std::optional<std::string> table_name_problem(const std::vector<std::string>& names);

GameOptions read_options(const json& j, const char* key) {
    try {
        GameOptions o = jr::field(j, "", key).get<GameOptions>();
        if (auto problem = table_name_problem(o.table_names)) jr::fail(std::string(key) + ".table_names", *problem);
        return o;
    } catch (const std::invalid_argument& e) {
        jr::fail(key, e.what());
    } catch (const json::exception& e) {
        jr::fail(key, e.what());
    }
}

SettingsChange read_settings(const json& j) {
    jr::only_keys(j, "settings", {"decision_ms", "pace_ms", "hints", "auto_start_ms", "spectator_reactions",
                                       "table_pace_ms", "time_factor"});
    SettingsChange s;
    if (j.contains("decision_ms")) s.decision_ms = static_cast<int>(jr::integer(j, "settings", "decision_ms", 1000, 600000));
    if (j.contains("pace_ms")) s.pace_ms = static_cast<int>(jr::integer(j, "settings", "pace_ms", 0, 10000));
    if (j.contains("hints")) s.hints = jr::boolean(j, "settings", "hints");
    if (j.contains("auto_start_ms"))
        s.auto_start_ms = static_cast<int>(jr::integer(j, "settings", "auto_start_ms", 0, 600000));
    if (j.contains("spectator_reactions")) s.spectator_reactions = jr::boolean(j, "settings", "spectator_reactions");
    if (j.contains("table_pace_ms"))
        s.table_pace_ms = static_cast<int>(jr::integer(j, "settings", "table_pace_ms", 0, 600000));
    if (j.contains("time_factor"))
        s.time_factor = static_cast<int>(jr::integer(j, "settings", "time_factor", 0, kMaxTimeFactor));
    return s;
}

// A name the server would have to change is refused, with the reason (name_problem).
struct BadName : std::invalid_argument {
    BadName(const std::string& what, json a) : std::invalid_argument(what), args(std::move(a)) {}
    json args;
};
// A reaction outside the fixed set (bad_reaction, with the allowed ids).
struct BadReaction : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

std::string read_name(const json& j) {
    std::string name = jr::string(j, "", "name");
    if (auto problem = name_problem_of(name)) {
        json args = problem->args;
        args["field"] = "name";
        args["name"] = quote_client_text(name);
        throw BadName("name " + quote_client_text(name) + " " + problem->text, std::move(args));
    }
    return name;
}

ClientMessage parse_object(const json& j, const std::string& type) {
    if (type == "hello") {
        jr::only_keys(j, "", {"type", "protocol", "client"});
        Hello m;
        m.protocol = static_cast<int>(jr::integer(j, "", "protocol", 0, 1 << 20));
        if (j.contains("client")) m.client = jr::string(j, "", "client", 64);
        return m;
    }
    if (type == "create_room") {
        jr::only_keys(j, "", {"type", "options", "name", "settings"});
        CreateRoom m;
        m.options = read_options(j, "options");
        m.name = read_name(j);
        if (j.contains("settings")) m.settings = read_settings(jr::field(j, "", "settings"));
        return m;
    }
    if (type == "join_room") {
        jr::only_keys(j, "", {"type", "room", "name"});
        return JoinRoom{jr::string(j, "", "room", kMaxRoomCode), read_name(j)};
    }
    if (type == "watch") {
        jr::only_keys(j, "", {"type", "room"});
        return Watch{jr::string(j, "", "room", kMaxRoomCode)};
    }
    if (type == "resume") {
        jr::only_keys(j, "", {"type", "room", "token"});
        return Resume{jr::string(j, "", "room", kMaxRoomCode), jr::string(j, "", "token", kMaxToken)};
    }
    if (type == "client_seed") {
        jr::only_keys(j, "", {"type", "seed", "by"});
        std::string seed = jr::string(j, "", "seed", 128);
        if (seed.empty()) jr::fail("seed", "must not be empty");
        std::string by;
        if (j.contains("by")) {
            by = jr::string(j, "", "by", 64);
            if (auto problem = name_problem_of(by)) {
                json args = problem->args;
                args["field"] = "by";
                args["name"] = quote_client_text(by);
                throw BadName("by " + quote_client_text(by) + " " + problem->text, std::move(args));
            }
        }
        return SubmitClientSeed{std::move(seed), std::move(by)};
    }
    if (type == "declare_winners") {
        jr::only_keys(j, "", {"type", "names"});
        const json& names = jr::field(j, "", "names");
        if (!names.is_array() || names.empty() || names.size() > 8)
            jr::fail("names", "must list 1 to 8 of the table's names");
        DeclareWinners m;
        for (const auto& n : names) {
            if (!n.is_string()) jr::fail("names", "must list names as strings");
            m.names.push_back(n.get<std::string>());
        }
        return m;
    }
    if (type == "choose") {
        jr::only_keys(j, "", {"type", "decision", "piece"});
        return Choose{jr::string(j, "", "decision", kMaxDecisionId), static_cast<int>(jr::integer(j, "", "piece", 0, 3))};
    }
    if (type == "set_options") {
        jr::only_keys(j, "", {"type", "options"});
        return SetOptions{read_options(j, "options")};
    }
    if (type == "set_settings") {
        jr::only_keys(j, "", {"type", "settings"});
        return SetSettings{read_settings(jr::field(j, "", "settings"))};
    }
    if (type == "add_bot") {
        jr::only_keys(j, "", {"type", "policy"});
        AddBot m;
        if (j.contains("policy")) {
            const auto name = jr::string(j, "", "policy", 16);
            const auto kind = parse_policy(name);
            if (!kind) jr::fail("policy", "unknown policy " + quote_client_text(name) + " (random, greedy or best)");
            m.policy = *kind;
        }
        return m;
    }
    if (type == "remove_seat" || type == "kick") {
        jr::only_keys(j, "", {"type", "seat"});
        const int seat = static_cast<int>(jr::integer(j, "", "seat", 0, 7));
        if (type == "kick") return Kick{seat};
        return RemoveSeat{seat};
    }
    auto empty = [&](auto message) -> ClientMessage {
        jr::only_keys(j, "", {"type"});
        return message;
    };
    if (type == "start") return empty(Start{});
    if (type == "pause") return empty(Pause{});
    if (type == "resume_game") return empty(Unpause{});
    if (type == "end_game") return empty(EndGame{});
    if (type == "leave") return empty(Leave{});
    if (type == "next") return empty(Next{});
    if (type == "skip_turn") return empty(SkipTurn{});
    if (type == "ping") {
        jr::only_keys(j, "", {"type", "t"});
        Ping p;
        if (j.contains("t")) p.t = jr::integer(j, "", "t", 0, (1LL << 53));
        return p;
    }
    if (type == "hurry") {
        jr::only_keys(j, "", {"type", "seat"});
        return Hurry{static_cast<int>(jr::integer(j, "", "seat", 0, 7))};
    }
    if (type == "ask_time") return empty(AskTime{});
    if (type == "react") {
        jr::only_keys(j, "", {"type", "reaction"});
        std::string id = jr::string(j, "", "reaction", 32);
        if (!find_reaction(id))
            throw BadReaction("unknown reaction " + quote_client_text(id) + ": send one of " + reaction_ids());
        return React{std::move(id)};
    }
    throw std::out_of_range(type);
}

}  // namespace

namespace {
// The field a reader's refusal names: "options.players: ..." -> options.players; an option's
// `option "arm" must be ...` -> options.arm.
json bad_field_args(std::string_view what) {
    // The Ludo house rules' refusals (options.cpp), with a reason a client words itself.
    static constexpr std::array<std::array<std::string_view, 3>, 3> house_rules{{
        {"teams are two against two", "options.teams", "teams_players"},
        {"play_on has no meaning with teams", "options.teams", "teams_play_on"},
        {"a game at a table keeps only the house rule", "options.table", "table_house_rules"},
    }};
    const std::string_view rule = what.substr(what.rfind("options: ", 0) == 0 ? 9 : 0);
    for (const auto& [prefix, field, reason] : house_rules)
        if (rule.rfind(prefix, 0) == 0) return json{{"field", field}, {"reason", reason}};
    const bool preset = what.find("contradicts the preset") != std::string_view::npos;
    const auto identifier = [](std::string_view s) {
        return !s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyz_.[]0123456789") == std::string_view::npos;
    };
    std::string field;
    for (int depth = 0; depth < 3; ++depth) {
        if (what.rfind("option \"", 0) == 0) {  // `option "arm" must be ...`
            const auto close = what.find('"', 8);
            if (close != std::string_view::npos) field += (field.empty() ? "options." : ".") + std::string(what.substr(8, close - 8));
            break;
        }
        const auto colon = what.find(": ");
        const auto must = what.find(" must ");
        if (colon != std::string_view::npos && colon <= 40 && identifier(what.substr(0, colon))) {
            field += (field.empty() ? "" : ".") + std::string(what.substr(0, colon));
            what.remove_prefix(colon + 2);
            continue;
        }
        if (must != std::string_view::npos && must <= 24 && identifier(what.substr(0, must)))
            field += (field.empty() ? "" : ".") + std::string(what.substr(0, must));
        break;
    }
    if (field.empty()) return json::object();
    if (preset) return json{{"field", field}, {"reason", "preset"}};
    return json{{"field", field}};
}
}  // namespace

namespace {
// The message of every decision, read without a JSON tree when it comes in one of the two shapes
// clients write it in: {"type":"choose","decision":"D","piece":P} (a browser's JSON.stringify) or
// {"decision":"D","piece":P,"type":"choose"} (sorted keys: the terminal client, the bots), D of
// letters, digits, '-' and '_' (at most kMaxDecisionId) and P one digit 0-3. Anything else, the
// same with a space in it too, goes to the JSON reader, which reads it the same or says what is
// wrong.
std::optional<Choose> quick_choose(std::string_view t) {
    const auto eat = [&](std::string_view s) {
        if (!t.starts_with(s)) return false;
        t.remove_prefix(s.size());
        return true;
    };
    const auto id = [&](std::string& out) {
        std::size_t n = 0;
        while (n < t.size() && n <= kMaxDecisionId &&
               ((t[n] >= '0' && t[n] <= '9') || (t[n] >= 'a' && t[n] <= 'z') || (t[n] >= 'A' && t[n] <= 'Z') ||
                t[n] == '-' || t[n] == '_'))
            ++n;
        if (n == 0 || n > kMaxDecisionId || n >= t.size() || t[n] != '"') return false;
        out.assign(t.substr(0, n));
        t.remove_prefix(n + 1);
        return true;
    };
    const auto piece = [&](int& p) {
        if (t.empty() || t[0] < '0' || t[0] > '3') return false;
        p = t[0] - '0';
        t.remove_prefix(1);
        return true;
    };
    Choose c;
    if (eat(R"({"type":"choose","decision":")"))
        return id(c.decision) && eat(R"(,"piece":)") && piece(c.piece) && t == "}" ? std::optional(c) : std::nullopt;
    if (eat(R"({"decision":")"))
        return id(c.decision) && eat(R"(,"piece":)") && piece(c.piece) && t == R"(,"type":"choose"})" ? std::optional(c)
                                                                                                        : std::nullopt;
    return std::nullopt;
}
}  // namespace

std::variant<ClientMessage, ProtocolError> parse_client_message(std::string_view text) {
    if (auto c = quick_choose(text)) return ClientMessage{std::move(*c)};
    if (text.size() > kMaxMessageBytes)
        return ProtocolError{ErrorCode::too_large, "messages are at most " + std::to_string(kMaxMessageBytes) + " bytes",
                             {}, json{{"max_bytes", kMaxMessageBytes}}};
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return ProtocolError{ErrorCode::bad_json, "a message is one JSON object with a \"type\""};
    auto it = j.find("type");
    if (it == j.end() || !it->is_string())
        return ProtocolError{ErrorCode::unknown_type, "a message needs \"type\" (a string)"};
    const auto& type = it->get_ref<const std::string&>();
    try {
        return parse_object(j, type);
    } catch (const BadName& e) {
        return ProtocolError{ErrorCode::bad_name, e.what(), type, e.args};
    } catch (const BadReaction& e) {
        return ProtocolError{ErrorCode::bad_reaction, e.what(), type, json{{"ids", reaction_ids()}}};
    } catch (const std::out_of_range&) {
        return ProtocolError{ErrorCode::unknown_type, "unknown message type " + quote_client_text(type), {},
                             json{{"type", quote_client_text(type)}}};
    } catch (const std::invalid_argument& e) {
        return ProtocolError{ErrorCode::bad_field, e.what(), type, bad_field_args(e.what())};
    } catch (const std::exception&) {  // a reader's oversight: still an answer, never a throw
        return ProtocolError{ErrorCode::bad_field, "the message cannot be read", type, json::object()};
    }
}

std::string_view type_of(const ClientMessage& message) noexcept {
    static constexpr std::string_view names[] = {"hello",       "create_room", "join_room",  "watch",  "resume",
                                                 "client_seed", "choose",      "set_options", "set_settings",
                                                 "add_bot",     "remove_seat", "kick",       "start",  "pause",
                                                 "resume_game", "end_game",    "leave",      "ping",   "next",
                                                 "skip_turn",   "declare_winners", "react",
                                                 "hurry",       "ask_time"};
    static_assert(std::size(names) == std::variant_size_v<ClientMessage>);
    return names[message.index()];
}

std::string encode(const ClientMessage& message) {
    json j{{"type", type_of(message)}};
    auto settings_json = [](const SettingsChange& s) {
        json o = json::object();
        if (s.decision_ms) o["decision_ms"] = *s.decision_ms;
        if (s.pace_ms) o["pace_ms"] = *s.pace_ms;
        if (s.hints) o["hints"] = *s.hints;
        if (s.auto_start_ms) o["auto_start_ms"] = *s.auto_start_ms;
        if (s.spectator_reactions) o["spectator_reactions"] = *s.spectator_reactions;
        if (s.table_pace_ms) o["table_pace_ms"] = *s.table_pace_ms;
        if (s.time_factor) o["time_factor"] = *s.time_factor;
        return o;
    };
    std::visit(
        [&](const auto& m) {
            using T = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<T, Hello>) {
                j["protocol"] = m.protocol;
                if (!m.client.empty()) j["client"] = m.client;
            } else if constexpr (std::is_same_v<T, CreateRoom>) {
                j["options"] = m.options;
                j["name"] = m.name;
                if (m.settings) j["settings"] = settings_json(*m.settings);
            } else if constexpr (std::is_same_v<T, JoinRoom>) {
                j["room"] = m.room;
                j["name"] = m.name;
            } else if constexpr (std::is_same_v<T, Watch>) {
                j["room"] = m.room;
            } else if constexpr (std::is_same_v<T, Resume>) {
                j["room"] = m.room;
                j["token"] = m.token;
            } else if constexpr (std::is_same_v<T, SubmitClientSeed>) {
                j["seed"] = m.seed;
                if (!m.by.empty()) j["by"] = m.by;
            } else if constexpr (std::is_same_v<T, DeclareWinners>) {
                j["names"] = m.names;
            } else if constexpr (std::is_same_v<T, Choose>) {
                j["decision"] = m.decision;
                j["piece"] = m.piece;
            } else if constexpr (std::is_same_v<T, SetOptions>) {
                j["options"] = m.options;
            } else if constexpr (std::is_same_v<T, SetSettings>) {
                j["settings"] = settings_json(m.settings);
            } else if constexpr (std::is_same_v<T, AddBot>) {
                j["policy"] = to_string(m.policy);
            } else if constexpr (std::is_same_v<T, RemoveSeat> || std::is_same_v<T, Kick>) {
                j["seat"] = m.seat;
            } else if constexpr (std::is_same_v<T, Ping>) {
                j["t"] = m.t;
            } else if constexpr (std::is_same_v<T, React>) {
                j["reaction"] = m.reaction;
            } else if constexpr (std::is_same_v<T, Hurry>) {
                j["seat"] = m.seat;
            }
        },
        message);
    return j.dump();
}

namespace {

std::string code_point(char32_t c) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out = "U+";
    for (int shift = c > 0xFFFF ? 16 : 12; shift >= 0; shift -= 4) out += hex[(c >> shift) & 0xF];
    return out;
}

// Spaces other than U+0020 (general category Zs): they look like a space and are not one.
bool is_other_space(char32_t c) {
    return c == 0x00A0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F || c == 0x3000;
}

// Letters and marks that show as nothing (Hangul fillers, the braille blank, the combining
// grapheme joiner, Mongolian and Khmer invisible marks): used to make a name look empty.
bool is_blank_looking(char32_t c) {
    return c == 0x034F || c == 0x115F || c == 0x1160 || c == 0x17B4 || c == 0x17B5 || (c >= 0x180B && c <= 0x180D) ||
           c == 0x180F || c == 0x2800 || c == 0x3164 || c == 0xFFA0;
}

// Pictographs, for the one format character a name may hold: the zero-width joiner between two
// of them (as in 👩‍🚀), which makes one emoji of them.
bool is_pictograph(char32_t c) {
    return (c >= 0x1F000 && c <= 0x1FAFF) || (c >= 0x2600 && c <= 0x27BF) || (c >= 0x2B00 && c <= 0x2BFF);
}

bool ascii_equal_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
        if (x != y) return false;
    }
    return true;
}

// "<anything> bot <n>" or "bot <n>", in any case: the form of the names the server gives bots.
bool has_bot_form(std::string_view name) {
    std::size_t end = name.size();
    while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
    if (end == name.size()) return false;  // no number at the end
    const std::string_view rest = name.substr(0, end);
    if (rest.size() < 4 || !ascii_equal_ignoring_case(rest.substr(rest.size() - 4), "bot ")) return false;
    return rest.size() == 4 || rest[rest.size() - 5] == ' ';
}

}  // namespace

namespace {
// The table's names are people's names: each must pass name_problem, and no two may be the same
// (ignoring ASCII case).
std::optional<std::string> table_name_problem(const std::vector<std::string>& names) {
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (auto problem = name_problem(names[i])) return "name " + quote_client_text(names[i]) + " " + *problem;
        for (std::size_t k = 0; k < i; ++k)
            if (ascii_equal_ignoring_case(names[i], names[k]))
                return "the name " + quote_client_text(names[i]) + " is there twice: each player's name is different";
    }
    return std::nullopt;
}
}  // namespace

std::optional<NameProblem> name_problem_of(std::string_view name) {
    const auto problem = [](std::string reason, std::string text, json more = json::object()) {
        json args = json{{"reason", reason}};
        for (const auto& [k, v] : more.items()) args[k] = v;
        return NameProblem{std::move(reason), std::move(args), std::move(text)};
    };
    std::vector<char32_t> chars;
    for (std::size_t at = 0; at < name.size();) {
        const auto c = next_char(name, at);
        if (!c) return problem("not_utf8", "is not valid UTF-8");
        chars.push_back(*c);
    }
    if (chars.empty()) return problem("empty", "is empty");
    if (std::all_of(chars.begin(), chars.end(), [](char32_t c) { return c == ' '; }))
        return problem("only_spaces", "has nothing but spaces");
    for (std::size_t i = 0; i < chars.size(); ++i) {
        const char32_t c = chars[i];
        const json at = json{{"char", code_point(c)}};
        if (is_control_char(c) || c == 0x2028 || c == 0x2029)
            return problem("control", "contains a control character (" + code_point(c) + ")", at);
        if (c == 0x200D && i > 0 && i + 1 < chars.size() && (is_pictograph(chars[i - 1]) || chars[i - 1] == 0xFE0F) &&
            is_pictograph(chars[i + 1]))
            continue;  // a zero-width joiner inside an emoji
        if (is_format_char(c))
            return problem("invisible",
                           "contains an invisible format character (" + code_point(c) +
                               "): bidi controls, zero-width characters and the like could make it look like another name",
                           at);
        if (is_blank_looking(c)) return problem("blank", "contains " + code_point(c) + ", a character that shows as nothing", at);
        if (is_other_space(c))
            return problem("other_space", "contains " + code_point(c) + ", a space other than the plain space", at);
    }
    if (chars.front() == ' ' || chars.back() == ' ') return problem("edge_space", "starts or ends with a space");
    for (std::size_t i = 1; i < chars.size(); ++i)
        if (chars[i] == ' ' && chars[i - 1] == ' ') return problem("double_space", "has two spaces in a row");
    if (chars.size() > kMaxNameChars)
        return problem("too_long",
                       "is " + std::to_string(chars.size()) + " characters long: at most " + std::to_string(kMaxNameChars),
                       json{{"length", chars.size()}, {"max", kMaxNameChars}});
    if (has_bot_form(name))
        return problem("bot_form", "has the form of the names the server gives its bots (\"<policy> bot <n>\")");
    return std::nullopt;
}

std::optional<std::string> name_problem(std::string_view name) {
    if (auto p = name_problem_of(name)) return std::move(p->text);
    return std::nullopt;
}

const ReactionKind* find_reaction(std::string_view id) noexcept {
    for (const auto& r : kReactions)
        if (r.id == id) return &r;
    return nullptr;
}

std::string reaction_ids() {
    std::string out;
    for (const auto& r : kReactions) {
        if (!out.empty()) out += ", ";
        out += r.id;
    }
    return out;
}

std::string error_message(ErrorCode code, std::string_view message, std::string_view ref_type, const json& args) {
    ErrorReply reply{std::string(to_string(code)), std::string(message), std::nullopt, std::nullopt, std::nullopt};
    if (!ref_type.empty()) reply.ref = std::string(ref_type);
    if (args.is_object() && !args.empty()) reply.args = args;
    return encode_message(reply);
}

}  // namespace spookludo::protocol
