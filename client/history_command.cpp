#include "history_command.h"

#include <ctime>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "http_fetch.h"
#include "i18n.h"
#include "net.h"

namespace spookludo::cli {

namespace {

struct HistoryArgs {
    std::string server, room, player, game, date, ca_file;
    int page = 1;
    int per_page = 20;
    bool json = false;
};

std::string percent_encoded(const std::string& text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

// http(s)://HOST:PORT from what the user typed: an http(s) address, or the ws(s):// one players
// use (read as play reads it: port 7777 unless given).
std::string http_base(const std::string& typed) {
    std::string ignored;
    if (typed.starts_with("ws://") || typed.starts_with("wss://"))
        if (const auto url = client::parse_url(typed, ignored)) return url->http_base();
    std::string base = typed;
    while (base.ends_with("/")) base.pop_back();
    return base;
}

std::string when(std::int64_t ms) {
    const std::time_t t = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    ::gmtime_r(&t, &tm);  // UTC, as --date filters
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &tm);
    return client::tr("{date_time} UTC", {{"date_time", text}});
}

// "1st", "2nd", "11th" (each language words its own: Malay "ke-1").
std::string ordinal(std::int64_t n) {
    const client::TrArgs args = {{"n", std::to_string(n)}};
    if (n % 100 >= 11 && n % 100 <= 13) return client::tr("{n}th", args);
    if (n % 10 == 1) return client::tr("{n}st", args);
    if (n % 10 == 2) return client::tr("{n}nd", args);
    if (n % 10 == 3) return client::tr("{n}rd", args);
    return client::tr("{n}th", args);
}

// A game's status in the list ("finished", "abandoned"); an unknown one as it came.
std::string status_words(const std::string& status) {
    if (status == "finished") return client::trc("game status", "finished");
    if (status == "abandoned") return client::trc("game status", "abandoned");
    if (status == "in_progress") return client::trc("game status", "in_progress");
    return status;
}

void print(const nlohmann::json& page, const std::string& base, const HistoryArgs& a) {
    const auto total = page.value("total", 0);
    if (total == 0) {
        std::cout << (a.room.empty() && a.player.empty() && a.game.empty() && a.date.empty()
                          ? client::tr("No finished game on {server} yet.", {{"server", base}})
                          : client::tr("No finished game on {server} matches.", {{"server", base}}))
                  << "\n";
        return;
    }
    std::cout << client::trn("Games on {server}, newest first (page {page} of {pages}, {n} game):",
                             "Games on {server}, newest first (page {page} of {pages}, {n} games):", total,
                             {{"server", base}, {"page", std::to_string(page.value("page", 1))},
                              {"pages", std::to_string(page.value("pages", 1))}})
              << "\n";
    const std::string ca = a.ca_file.empty() ? "" : " --ca-file " + a.ca_file;
    for (const auto& g : page.value("games", nlohmann::json::array())) {
        const bool spook = g.value("game", "") == "spook";
        const auto length = g.value("length", 0);
        std::string players;
        for (const auto& p : g.value("players", nlohmann::json::array())) {
            if (!players.empty()) players += ", ";
            players += p.value("name", "?");
            if (p.value("place", 0) > 0) players += " " + ordinal(p.value("place", 0));
            if (p.value("winner", false)) players += " " + client::tr("(won)");
        }
        const client::TrArgs args = {{"room", g.value("room", "?")}, {"status", status_words(g.value("status", "?"))}};
        const std::string game =
            spook ? client::trn("room {room}  Spook & Werewolf Ludo, {status} after {n} round",
                                "room {room}  Spook & Werewolf Ludo, {status} after {n} rounds", length, args)
                  : client::trn("room {room}  Classic Ludo, {status} after {n} turn", "room {room}  Classic Ludo, {status} after {n} turns",
                                length, args);
        std::cout << "\n" << when(g.value("ended_ms", std::int64_t{0})) << "  " << game << "\n"
                  << "  " << players << "\n"
                  << "  " << client::tr("check it: {command}", {{"command", "spookludo verify " + base + g.value("record", "") + ca}})
                  << "\n";
    }
    if (page.value("page", 1) < page.value("pages", 1))
        std::cout << "\n" << client::tr("Older games: add --page {page}", {{"page", std::to_string(page.value("page", 1) + 1)}}) << "\n";
}

}  // namespace

void add_history_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<HistoryArgs>();
    auto* cmd = app.add_subcommand("history", "List a server's finished games, newest first, with their records");
    cmd->footer(
        "The games the server keeps (GET /games), each with its players' places and the command that\n"
        "checks its record:\n"
        "  spookludo history http://192.168.1.20:7777\n"
        "  spookludo history http://192.168.1.20:7777 --player Ann --game spook\n"
        "  spookludo history https://party.example.org --date 2026-12-02 --ca-file host-ca.pem\n"
        "The address may also be the ws:// or wss:// one players connect to.\n"
        "Exit status: 0 listed (also when no game matches); 2 the list cannot be fetched (connection refused, a\n"
        "certificate that fails the check, a filter the server refuses: named) or a usage error.");
    cmd->add_option("server", a->server, "The server: http://HOST:PORT or https://... (ws:// and wss:// work too)")->required();
    cmd->add_option("--room", a->room, "Only this room's games (its code)");
    cmd->add_option("--player", a->player, "Only games with a player of this name (any case)");
    cmd->add_option("--game", a->game, "Only spook or ludo")->check(CLI::IsMember({"spook", "ludo"}));
    cmd->add_option("--date", a->date, "Only games that ended on this day, YYYY-MM-DD (UTC)");
    cmd->add_option("--page", a->page, "Which page, 1 the newest")->check(CLI::Range(1, 1000000))->capture_default_str();
    cmd->add_option("--per-page", a->per_page, "Games a page")->check(CLI::Range(1, 100))->capture_default_str();
    cmd->add_option("--ca-file", a->ca_file,
                    "https://: trust the certificates in this PEM file instead of this computer's CA store");
    cmd->add_flag("--json", a->json, "Print the server's answer as it came (JSON)");
    cmd->callback([a, &exit_code] {
        const std::string base = http_base(a->server);
        std::string target = base + "/games?page=" + std::to_string(a->page) + "&per_page=" + std::to_string(a->per_page);
        if (!a->room.empty()) target += "&room=" + percent_encoded(a->room);
        if (!a->player.empty()) target += "&player=" + percent_encoded(a->player);
        if (!a->game.empty()) target += "&game=" + a->game;
        if (!a->date.empty()) target += "&date=" + percent_encoded(a->date);
        std::string text;
        try {
            text = fetch_text(target, a->ca_file, 16u * 1024 * 1024,
                              client::tr("no game list at {address} (HTTP 404: this server keeps no history; is it a "
                                         "SpookLudo server of this version?)"));
        } catch (const FetchError& e) {
            std::cerr << "spookludo history: " << e.what() << "\n";
            exit_code = 2;
            return;
        }
        if (a->json) {
            std::cout << text;
            exit_code = 0;
            return;
        }
        try {
            print(nlohmann::json::parse(text), base, *a);
            exit_code = 0;
        } catch (const std::exception& e) {
            std::cerr << "spookludo history: "
                      << client::tr("{address} did not answer a game list: {error}", {{"address", target}, {"error", e.what()}}) << "\n";
            exit_code = 2;
        }
    });
}

}  // namespace spookludo::cli
