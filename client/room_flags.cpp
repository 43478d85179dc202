#include "room_flags.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "i18n.h"

namespace spookludo::cli {

void add_room_flags(CLI::App& cmd, RoomFlags& f, bool with_token) {
    cmd.add_option("url", f.url, "The server, e.g. ws://192.168.1.20:7777 (wss://party.example.org:7777 with TLS)")
        ->required();
    add_ca_file_flag(cmd, f.ca_file);
    auto* create = cmd.add_option("--create", f.create, "Create a room for this game: spook or ludo")
                       ->check(CLI::IsMember({"spook", "ludo"}));
    auto* room = cmd.add_option("--room", f.room, "Join the room with this 5-letter code");
    create->excludes(room);
    if (with_token)
        cmd.add_option("--token", f.token, "Resume a seat with the token the server gave it (needs --room)")
            ->needs(room);
    cmd.add_option("--players", f.players, "Room size (Spook 1-8, Ludo 2-4), with --create")->needs(create);
    cmd.add_option("--pieces", f.pieces, "Spook: pieces each, 1, 2 or 3 (default 2)")->needs(create);
    add_ludo_flags(cmd, f.ludo, create);
    cmd.add_flag("--play-on", f.play_on, "Play on after the first finisher to rank everyone")->needs(create);
    cmd.add_option("--decision-ms", f.decision_ms, "Time to choose, 1000-600000 ms (default: the server's)")->needs(create);
    cmd.add_option("--pace-ms", f.pace_ms, "Pause between steps, 0-10000 ms (default: the server's)")->needs(create);
    cmd.add_flag("--hints", f.hints, "Show each option's value (from the server)")->needs(create);
    cmd.add_option("--client-seed", f.client_seed, "Your entropy for the fair dice (random by default)");
}

void add_ludo_flags(CLI::App& cmd, LudoFlags& f, CLI::Option* needs) {
    auto need = [needs](CLI::Option* o) { return needs ? o->needs(needs) : o; };
    need(cmd.add_option("--arm", f.arm, "Ludo: squares per arm, 8 (the text's board) or 6 (default 8)"));
    need(cmd.add_option("--entry", f.entry, "Ludo: how a 6 enters, text (6 squares out) or start_square (default text)")
             ->check(CLI::IsMember({"text", "start_square"})));
    need(cmd.add_flag("--three-sixes", f.three_sixes, "Ludo: three 6s in a row end the turn"));
    need(cmd.add_flag("--safe-squares", f.safe_squares,
                      "Ludo house rule: no capture on the start squares and the star squares"));
    need(cmd.add_flag("--bonus-throws", f.bonus_throws, "Ludo house rule: a capture or a piece brought home throws again"));
    need(cmd.add_flag("--capture-to-home", f.capture_to_home,
                      "Ludo house rule: a piece enters its home column only once its player has captured"));
    need(cmd.add_flag("--teams", f.teams, "Ludo house rule: 4 players, two against two, partners opposite (1+3, 2+4)"));
    need(cmd.add_flag("--home-rules", f.home_rules,
                      "Ludo: the home rules preset (arms of 6, entry onto the start square, safe squares, bonus "
                      "throws, three 6s end the turn); --teams and --capture-to-home may be added"));
}

void put_ludo_flags(const LudoFlags& f, nlohmann::json& j) {
    if (f.home_rules) j["preset"] = std::string(kHomeRulesPreset);
    if (f.arm != 0) j["arm"] = f.arm;
    if (!f.entry.empty()) j["entry"] = f.entry;
    if (f.three_sixes) j["three_sixes"] = true;
    if (f.safe_squares) j["safe_squares"] = true;
    if (f.bonus_throws) j["bonus_throws"] = true;
    if (f.capture_to_home) j["capture_to_home"] = true;
    if (f.teams) j["teams"] = true;
}

void add_ca_file_flag(CLI::App& cmd, std::string& ca_file) {
    cmd.add_option("--ca-file", ca_file,
                   "wss://: trust the certificates in this PEM file (the host's own CA, or their self-signed "
                   "certificate) instead of this computer's CA store");
}

client::Url server_url(const std::string& text, const std::string& ca_file) {
    std::string error;
    auto url = client::parse_url(text, error);
    if (!url) throw std::invalid_argument(error);
    if (!ca_file.empty()) {
        if (!url->tls)
            throw std::invalid_argument(client::tr("--ca-file is for a wss:// address ({address} is not encrypted: "
                                                   "nothing to check)",
                                                   {{"address", url->text()}}));
        if (auto problem = client::ca_file_problem(ca_file)) throw std::invalid_argument(*problem);
        url->ca_file = ca_file;
    }
    return *url;
}

client::SessionConfig session_config(const RoomFlags& f, const std::string& name, int default_players) {
    client::SessionConfig c;
    c.url = server_url(f.url, f.ca_file);
    c.name = name;
    if (!f.client_seed.empty()) c.client_seed = f.client_seed;
    if (!f.create.empty()) {
        c.mode = client::JoinMode::create;
        nlohmann::json j{{"game", f.create}, {"play_on", f.play_on}};
        // Teams are two against two: four seats unless --players says otherwise.
        const int ludo_players = f.ludo.teams ? 4 : std::min(4, std::max(2, default_players));
        j["players"] = f.players > 0 ? f.players : (f.create == "ludo" ? ludo_players : default_players);
        if (f.create == "spook") j["pieces"] = f.pieces;
        // Ludo's flags also for Spook: the options then say which one is not Spook's.
        put_ludo_flags(f.ludo, j);
        c.options = j.get<GameOptions>();  // throws invalid_argument naming the bad option
        // Only what was given: the server's defaults stand for the rest.
        protocol::SettingsChange s;
        if (f.decision_ms >= 0) s.decision_ms = f.decision_ms;
        if (f.pace_ms >= 0) s.pace_ms = f.pace_ms;
        if (f.hints) s.hints = true;
        if (s != protocol::SettingsChange{}) c.settings = s;
    } else if (!f.room.empty()) {
        c.room = f.room;
        for (auto& ch : c.room) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        if (!f.token.empty()) {
            c.mode = client::JoinMode::resume;
            c.token = f.token;
        } else {
            c.mode = client::JoinMode::join;
        }
    } else {
        throw std::invalid_argument(
            client::tr("say which room: --create spook|ludo for a new one, or --room CODE to join one"));
    }
    return c;
}

}  // namespace spookludo::cli
