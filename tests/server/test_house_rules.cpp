// Ludo's house rules through the server over real sockets: rooms created with the preset and
// teams, or with capture_to_home, filled with server bots and played to the end; the events say
// what the house rules did, the record served verifies; contradictory options are refused with
// the reason.
#include <doctest/doctest.h>

#include <set>

#include "harness.h"
#include "spookludo/record.h"
#include "spookludo/verify.h"

using namespace spookludo;
using namespace spookludo::testing;

namespace {

// Plays a Ludo room of `options` (4 seats: the host, who answers with the first option, and three
// server bots) to its end; returns game_over, the host's client log in `log`.
json play_house_room(TestServer& server, const json& options, std::vector<json>& log) {
    Client ann(server.port());
    create_room(ann, options, "Ann", json{{"pace_ms", 0}});
    for (const char* policy : {"best", "greedy", "random"}) ann.send({{"type", "add_bot"}, {"policy", policy}});
    const json full = room_where(
        ann, [](const json& r) { return taken_seats(r).size() == 4; }, "four seats taken");
    // The snapshot's options say the rules (the preset written as its rules).
    const bool preset = options.contains("preset");
    CHECK(full["options"].value("safe_squares", false) == (preset || options.value("safe_squares", false)));
    CHECK(full["options"].value("bonus_throws", false) == (preset || options.value("bonus_throws", false)));
    CHECK(full["options"].value("capture_to_home", false) == options.value("capture_to_home", false));
    CHECK(full["options"].value("teams", false) == options.value("teams", false));
    ann.send({{"type", "start"}});
    const json over = play_to_end(ann, 60s);
    log = ann.log();
    return over;
}

// The events of every Ludo message in a client's log.
std::vector<json> events_of(const std::vector<json>& log) {
    std::vector<json> out;
    for (const auto& m : log)
        if (m.contains("events") && m["events"].is_array())
            for (const auto& e : m["events"]) out.push_back(e);
    return out;
}

GameRecord fetch(std::uint16_t port, const json& over) {
    REQUIRE(over.contains("record"));
    const auto [status, body] = http_get(port, over["record"]);
    REQUIRE(status == 200);
    return parse_record(body);
}

}  // namespace

TEST_CASE("server: a Ludo room with the home_rules preset and teams, filled with server bots, ends when a team is home and its record verifies [server][ludo][house]") {
    TestServer server;
    std::vector<json> log;
    const json options{{"game", "ludo"}, {"players", 4}, {"preset", "home_rules"}, {"teams", true}};
    const json over = play_house_room(server, options, log);
    REQUIRE(over["status"] == "finished");
    // Partners win together: both place 1, the other team behind them in one place.
    const auto winners = over["winners"].get<std::vector<int>>();
    REQUIRE(winners.size() == 2);
    CHECK(winners[1] == winners[0] + 2);
    const auto places = over["places"].get<std::vector<int>>();
    REQUIRE(places.size() == 4);
    const int loser = (winners[0] + 1) % 4;
    for (int s = 0; s < 4; ++s) {
        const int place = places[static_cast<std::size_t>(s)];
        if (s % 2 == winners[0] % 2)
            CHECK(place == 1);
        else
            CHECK((place > 1 && place == places[static_cast<std::size_t>(loser)]));
    }
    // The events name the house rules at work: the team's finish with the partner, and every
    // extra throw with its reason.
    bool team_finished = false;
    std::set<std::string> reasons;
    for (const auto& e : events_of(log)) {
        if (e["kind"] == "team_finished") {
            team_finished = true;
            CHECK(e["with"].get<int>() == (e["seat"].get<int>() + 2) % 4);
        }
        if (e["kind"] == "extra_throw") reasons.insert(e.value("reason", std::string("none")));
        if (e["kind"] == "safe_square") CHECK(e.contains("with"));
        if (e["kind"] == "circles") FAIL("a piece went round without capture_to_home");
    }
    CHECK(team_finished);
    CHECK(reasons.count("six") == 1);
    CHECK(reasons.count("none") == 0);
    for (const auto& r : reasons) CHECK((r == "six" || r == "capture" || r == "home"));
    // The record keeps the options and verifies.
    const GameRecord record = fetch(server.port(), over);
    CHECK(record.options.ludo.teams);
    CHECK(record.options.ludo.safe_squares);
    CHECK(record.options.ludo.bonus_throws);
    CHECK(record.result.winners == winners);
    const VerifyReport report = verify(record);
    INFO(report.failure);
    CHECK(report.ok);
}

TEST_CASE("server: a Ludo room with capture_to_home plays to the end, pieces go round before a capture, and its record verifies [server][ludo][house]") {
    TestServer server;
    std::vector<json> log;
    const json options{{"game", "ludo"}, {"players", 4}, {"arm", 6}, {"capture_to_home", true}, {"safe_squares", true}};
    const json over = play_house_room(server, options, log);
    REQUIRE(over["status"] == "finished");
    CHECK(over["winners"].size() == 1);
    for (const auto& e : events_of(log))
        if (e["kind"] == "circles") {
            CHECK(e.contains("from"));
            CHECK(e.contains("to"));
        }
    const GameRecord record = fetch(server.port(), over);
    CHECK(record.options.ludo.capture_to_home);
    const VerifyReport report = verify(record);
    INFO(report.failure);
    CHECK(report.ok);
}

TEST_CASE("server: contradictory house rules are refused with the reason, in create_room and set_options [server][ludo][house]") {
    TestServer server;
    Client ann(server.port());
    ann.hello();
    ann.send({{"type", "create_room"},
              {"options", {{"game", "ludo"}, {"preset", "home_rules"}, {"arm", 8}}},
              {"name", "Ann"}});
    json refused = ann.expect("error");
    CHECK(refused["code"] == "bad_field");
    CHECK(refused["ref"] == "create_room");
    // As PROTOCOL.md shows it.
    CHECK(refused["message"] ==
          "options: option \"arm\": 8 contradicts the preset \"home_rules\" (which has 6): drop the "
          "preset and list the rules one by one");
    CHECK(refused["args"]["field"] == "options.arm");

    Client ben(server.port());
    create_room(ben, {{"game", "ludo"}, {"players", 4}}, "Ben");
    ben.send({{"type", "set_options"}, {"options", {{"game", "ludo"}, {"players", 3}, {"teams", true}}}});
    refused = ben.expect("error");
    CHECK(refused["code"] == "bad_field");
    CHECK(refused["ref"] == "set_options");
    CHECK(refused["message"] == "options: teams are two against two: they need 4 players (got 3)");
    ben.send({{"type", "set_options"}, {"options", {{"game", "ludo"}, {"teams", true}, {"play_on", true}}}});
    refused = ben.expect("error");
    CHECK(refused["message"].get<std::string>().find("play_on") != std::string::npos);
    // A consistent set is taken, and the room says it.
    ben.send({{"type", "set_options"},
              {"options", {{"game", "ludo"}, {"players", 4}, {"preset", "home_rules"}, {"teams", true}}}});
    const json room = room_where(
        ben, [](const json& r) { return r["options"].value("teams", false); }, "teams on");
    CHECK(room["options"]["arm"] == 6);
    CHECK(room["options"]["safe_squares"] == true);
}
