// GET /analysis/<game id> over loopback with the real server (docs/analysis.md): a Spook game and
// a Ludo game played through a room are analysed, their timelines ending in the records' final
// positions; an unknown game is 404 with a reason; an address asking for more analyses than its
// bound gets 429 with Retry-After, while an analysis already made is served to it.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "harness.h"
#include "spookludo/record.h"

using namespace spookludo;
using namespace spookludo::testing;

namespace {

// Ann (answering every decision with its first option) and a server bot play one game.
json play_one(Client& ann, const json& options, const std::string& bot) {
    create_room(ann, options, "Ann", json{{"pace_ms", 0}});
    ann.send({{"type", "add_bot"}, {"policy", bot}});
    ann.expect("room");
    ann.send({{"type", "start"}});
    const json over = play_to_end(ann);
    REQUIRE(over["status"] == "finished");
    return over;
}

json analysis_of(std::uint16_t port, const std::string& id) {
    const auto reply = http_get_reply(port, "/analysis/" + id);
    REQUIRE_MESSAGE(reply.status == 200, reply.body);
    CHECK(reply.headers.at("content-type") == "application/json");
    return json::parse(reply.body);
}

}  // namespace

TEST_CASE("analysis route: a Spook and a Ludo game served by the server are analysed to their recorded end [analysis][http]") {
    TestServer server;
    for (const json& options : {json{{"game", "spook"}, {"players", 2}, {"pieces", 2}},
                                json{{"game", "ludo"}, {"players", 2}, {"arm", 6}}}) {
        CAPTURE(options.dump());
        Client ann(server.port());
        const json over = play_one(ann, options, "greedy");
        const std::string id = over["game_id"];
        const GameRecord record = parse_record(http_get(server.port(), "/records/" + id).second);
        const json a = analysis_of(server.port(), id);
        CHECK(a["game_id"] == id);
        CHECK(a["game"] == options["game"]);
        CHECK(a["status"] == "finished");
        CHECK(a["names"][0] == "Ann");
        CHECK(a["winners"] == over["winners"]);
        REQUIRE(a["summary"].size() == 2);
        const json& last = a["steps"].back()["position"];
        if (options["game"] == "spook") {
            std::string squares;
            for (int seat : last["players"]) {
                if (!squares.empty()) squares += ' ';
                std::string pieces;
                for (int sq : last["positions"][static_cast<std::size_t>(seat)]) {
                    if (!pieces.empty()) pieces += ',';
                    pieces += std::to_string(sq);
                }
                squares += pieces;
            }
            CHECK(squares == record.positions.back().position);
            CHECK(a["summary"][0]["unit"] == "rounds");
        } else {
            CHECK(last["position"] == record.positions.back().position);
            CHECK(a["summary"][0]["unit"] == "rank");  // 2 players: no learned chance to win
        }
        // Ann's decisions are hers; the bot's are the bot's.
        for (const auto& d : a["decisions"]) CHECK(d["by"] == (d["seat"] == 0 ? "player" : "bot"));
        // Asked again: the same document, kept.
        CHECK(http_get(server.port(), "/analysis/" + id).second == a.dump() + "\n");
    }
}

TEST_CASE("analysis route: an unknown game is 404 with a reason, and an address over its bound gets 429 with Retry-After [analysis][http]") {
    auto config = TestServer::fast_config();
    config.analyses_per_minute = 1;
    TestServer server(config);
    const auto unknown = http_get_reply(server.port(), "/analysis/NOPE-1-abc");
    CHECK(unknown.status == 404);
    CHECK(json::parse(unknown.body)["error"].get<std::string>().find("NOPE-1-abc") != std::string::npos);
    CHECK(http_get(server.port(), "/analysis/../records").first == 404);

    Client ann(server.port());
    const json spook1{{"game", "spook"}, {"players", 2}, {"pieces", 1}};
    const std::string first = play_one(ann, spook1, "random")["game_id"];
    ann.send({{"type", "start"}});
    const json second_over = play_to_end(ann);
    const std::string second = second_over["game_id"];
    analysis_of(server.port(), first);
    const auto refused = http_get_reply(server.port(), "/analysis/" + second);
    CHECK(refused.status == 429);
    REQUIRE(refused.headers.count("retry-after") == 1);
    CHECK(std::stoi(refused.headers.at("retry-after")) >= 1);
    CHECK(json::parse(refused.body)["error"].get<std::string>().find("analyses") != std::string::npos);
    // What is made already costs nothing.
    analysis_of(server.port(), first);
    CHECK(http_get(server.port(), "/metrics").second.find("spookludo_analyses_refused_total 1") != std::string::npos);
}
