// More time for slower hands (settings.time_factor, hurry, ask_time) over loopback: what a player
// who needs longer, and the host who gives it, would notice.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "harness.h"

using namespace spookludo;
using namespace spookludo::testing;

namespace {

json spook(int players) { return {{"game", "spook"}, {"players", players}, {"pieces", 2}}; }
json ludo(int players) { return {{"game", "ludo"}, {"players", players}}; }

std::string token_in(const Client& c) {
    for (const auto& m : c.log())
        if (m["type"] == "joined" && m.contains("token")) return m["token"];
    return "";
}

// Ann (the host) against a best bot, in her first decision.
json ann_in_a_decision(Client& ann, const json& game, const json& settings, std::string* code = nullptr) {
    const std::string c = create_room(ann, game, "Ann", settings);
    if (code) *code = c;
    ann.send({{"type", "add_bot"}, {"policy", "best"}});
    ann.send({{"type", "start"}});
    ann.expect("commitment");
    ann.send({{"type", "client_seed"}, {"seed", "ann"}});
    return ann.expect("decision", 30s);
}

std::int64_t left_of(const json& decision) { return decision["time_left_ms"].get<std::int64_t>(); }

}  // namespace

TEST_CASE("more time: the room's time factor multiplies the time a decision gives, and the snapshot says it [server][more_time]") {
    TestServer server;
    Client ann(server.port());
    const json decision = ann_in_a_decision(ann, spook(2), json{{"pace_ms", 0}, {"decision_ms", 2000}, {"time_factor", 3}});
    CHECK(left_of(decision) > 5000);
    CHECK(left_of(decision) <= 6000);
    const json room = room_where(ann, [](const json& m) { return m.contains("decision_deadline_ms"); }, "the step's deadline");
    CHECK(room["settings"]["time_factor"] == 3);
    const auto deadline = room["decision_deadline_ms"].get<std::int64_t>() - room["server_time_ms"].get<std::int64_t>();
    CHECK(deadline > 4000);
    CHECK(deadline <= 6000);
}

TEST_CASE("more time: a time factor other than 0, 1, 2 or 3 is refused bad_field, and the default is x1 [server][more_time]") {
    TestServer server;
    Client ann(server.port());
    create_room(ann, spook(2), "Ann");
    CHECK(ann.expect("room")["settings"]["time_factor"] == 1);
    ann.send({{"type", "set_settings"}, {"settings", {{"time_factor", 4}}}});
    const json refused = ann.expect("error");
    CHECK(refused["code"] == "bad_field");
    CHECK(refused["message"].get<std::string>().find("time_factor") != std::string::npos);
    ann.send({{"type", "set_settings"}, {"settings", {{"time_factor", 2}}}});
    const json told = notice_of(ann, "time_factor");
    CHECK(told["factor"] == 2);
    CHECK(told["seat"] == 0);
    CHECK(told["name"] == "Ann");
    CHECK(room_where(ann, [](const json& m) { return m["settings"]["time_factor"] == 2; }, "x2 in the lobby")["state"] == "lobby");
}

TEST_CASE("more time: the host's change mid-game rescales the open decision at once, lifts its limit, and brings it back, told to everyone [server][more_time]") {
    TestServer server;
    Client ann(server.port());
    Client sam(server.port());
    const std::string room = create_room(ann, spook(2), "Ann", json{{"pace_ms", 0}, {"decision_ms", 10000}});
    sam.hello();
    sam.send({{"type", "watch"}, {"room", room}});
    sam.expect("joined");
    ann.send({{"type", "add_bot"}, {"policy", "best"}});
    ann.send({{"type", "start"}});
    ann.expect("commitment");
    ann.send({{"type", "client_seed"}, {"seed", "ann"}});
    const json decision = ann.expect("decision", 30s);
    CHECK(left_of(decision) <= 10000);

    // x2: what was left, doubled.
    ann.send({{"type", "set_settings"}, {"settings", {{"time_factor", 2}}}});
    CHECK(notice_of(ann, "time_factor")["factor"] == 2);
    const json doubled = ann.expect("decision");
    CHECK(doubled["decision"] == decision["decision"]);
    CHECK(left_of(doubled) > 15000);
    CHECK(left_of(doubled) <= 20000);
    const json seen = notice_of(sam, "time_factor");  // the spectator is told too
    CHECK(seen["factor"] == 2);
    CHECK(seen["text"] == "Ann gave everyone more time to choose: x2");

    // No limit: the decision again without time_left_ms, the snapshot without a deadline.
    ann.send({{"type", "set_settings"}, {"settings", {{"time_factor", 0}}}});
    CHECK(notice_of(ann, "time_factor")["factor"] == 0);
    const json unlimited = ann.expect("decision");
    CHECK(unlimited["decision"] == decision["decision"]);
    CHECK_FALSE(unlimited.contains("time_left_ms"));
    const json snap = room_where(ann, [](const json& m) { return m["settings"]["time_factor"] == 0; }, "no limit");
    CHECK_FALSE(snap.contains("decision_deadline_ms"));
    CHECK(snap["seats"][0]["choosing"] == true);

    // x1 again: a whole decision time from now.
    ann.send({{"type", "set_settings"}, {"settings", {{"time_factor", 1}}}});
    CHECK(notice_of(ann, "time_factor")["factor"] == 1);
    const json normal = ann.expect("decision");
    CHECK(normal["decision"] == decision["decision"]);
    CHECK(left_of(normal) > 9000);
    CHECK(left_of(normal) <= 10000);
    ann.send({{"type", "choose"}, {"decision", decision["decision"]}, {"piece", decision["options"][0]["piece"]}});
    CHECK(ann.expect("choice_accepted")["decision"] == decision["decision"]);
    for (const auto& m : ann.log()) CHECK(m["type"] != "decision_timeout");
}

TEST_CASE("more time: with no limit a decision waits past its time, and the host's hurry gives it a short limit that ends it [server][more_time]") {
    auto config = TestServer::fast_config();
    config.drop_grace_ms = 0;  // the host's seat, while she is away, is played at once
    config.reconnect_ms = 60000;
    TestServer server(config);
    Client ann(server.port());
    const std::string code = create_room(ann, spook(2), "Ann", json{{"pace_ms", 0}, {"decision_ms", 1000}, {"time_factor", 0}});
    const std::string ann_token = token_in(ann);
    Client ben(server.port());
    join(ben, code, "Ben");
    ann.send({{"type", "start"}});
    ann.expect("commitment");
    ann.send({{"type", "client_seed"}, {"seed", "ann"}});
    ben.expect("commitment");
    ben.send({{"type", "client_seed"}, {"seed", "ben"}});
    ann.expect("game_started", 10s);
    ann.close();  // the server plays Ann's seat meanwhile (no drop grace)

    const json decision = ben.expect("decision", 30s);
    CHECK_FALSE(decision.contains("time_left_ms"));
    // Longer than the room's decision_ms (1 s) twice over: no limit, nothing times out.
    std::this_thread::sleep_for(2500ms);

    Client host(server.port());
    CHECK(resume(host, code, ann_token)["host"] == true);
    // Wrong uses first: Ben is not the host; Ann's own seat has no open decision.
    ben.send({{"type", "hurry"}, {"seat", 1}});
    const json not_host = ben.expect("error");
    CHECK(not_host["code"] == "not_host");
    CHECK(not_host["ref"] == "hurry");
    host.send({{"type", "hurry"}, {"seat", 0}});
    const json nothing_open = host.expect("error");
    CHECK(nothing_open["code"] == "wrong_state");
    CHECK(nothing_open["ref"] == "hurry");

    const auto hurried_at = std::chrono::steady_clock::now();
    host.send({{"type", "hurry"}, {"seat", 1}});
    // Twice is once too many: the decision has its short limit already. (Sent at once: after
    // the limit's second, the next decision could be hurried again.)
    host.send({{"type", "hurry"}, {"seat", 1}});
    const json told = notice_of(host, "hurry");
    CHECK(told["seat"] == 1);
    CHECK(told["name"] == "Ben");
    CHECK(told["time_ms"] == 1000);  // the room's decision_ms, at most 15 s
    const json snap = room_where(host, [](const json& m) { return m["seats"][1].contains("deadline_ms"); }, "Ben's own deadline");
    CHECK(snap["seats"][1]["choosing"] == true);
    CHECK(host.expect("error")["code"] == "wrong_state");

    // Ben: nothing timed out before the hurry; then the same decision with its short limit, and
    // its end.
    CHECK(notice_of(ben, "hurry")["seat"] == 1);
    const json again = ben.expect("decision");
    CHECK(again["decision"] == decision["decision"]);
    CHECK(left_of(again) <= 1000);
    const json timeout = ben.expect("decision_timeout", 15s);
    CHECK(timeout["decision"] == decision["decision"]);
    CHECK(std::chrono::steady_clock::now() - hurried_at < 15s);  // without the hurry: never
    for (const auto& m : ben.log()) {
        if (m["type"] == "notice" && m["kind"] == "hurry") break;
        CHECK(m["type"] != "decision_timeout");
    }
}

TEST_CASE("more time: a player's ask for more time reaches the host as a notice, at most once in 30 s [server][more_time]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, spook(3), "Ann", json{{"pace_ms", 0}});
    Client ben(server.port());
    join(ben, code, "Ben");
    Client sam(server.port());
    sam.hello();
    sam.send({{"type", "watch"}, {"room", code}});
    sam.expect("joined");

    ben.send({{"type", "ask_time"}});
    const json asked = notice_of(ann, "ask_time");
    CHECK(asked["seat"] == 1);
    CHECK(asked["name"] == "Ben");
    CHECK(asked["factor"] == 1);
    CHECK(asked["text"] == "Ben asks for more time to choose");

    ben.send({{"type", "ask_time"}});
    const json again = ben.expect("error");
    CHECK(again["code"] == "rate_limited");
    CHECK(again["ref"] == "ask_time");
    CHECK(again["retry_after_ms"].get<int>() > 25000);
    CHECK(again["retry_after_ms"].get<int>() <= 30000);
    // Ben was not told his own ask (the host decides).
    for (const auto& m : ben.log()) CHECK_FALSE((m["type"] == "notice" && m["kind"] == "ask_time"));

    sam.send({{"type", "ask_time"}});
    CHECK(sam.expect("error")["code"] == "not_a_player");
    ann.send({{"type", "ask_time"}});
    CHECK(ann.expect("error")["code"] == "wrong_state");
}

TEST_CASE("more time: a dropped player's open decision still follows the drop grace, whatever the time factor [server][more_time]") {
    for (const int factor : {0, 3}) {
        CAPTURE(factor);
        auto config = TestServer::fast_config();
        config.drop_grace_ms = 400;
        TestServer server(config);
        Client ben(server.port());
        Client sam(server.port());
        const std::string code = create_room(ben, spook(2), "Ben", json{{"pace_ms", 0}, {"decision_ms", 60000}, {"time_factor", factor}});
        ben.send({{"type", "add_bot"}, {"policy", "best"}});
        sam.hello();
        sam.send({{"type", "watch"}, {"room", code}});
        sam.expect("joined");
        ben.send({{"type", "start"}});
        ben.expect("commitment");
        ben.send({{"type", "client_seed"}, {"seed", "ben"}});
        ben.expect("decision", 30s);
        const auto dropped = std::chrono::steady_clock::now();
        ben.close();
        json bens;
        next_of(
            sam,
            [&](const json& m) {
                if (m["type"] != "moves") return false;
                for (const auto& mv : m["moves"])
                    if (mv["seat"] == 0 && mv["by"] != "only_move") bens = mv;
                return !bens.is_null();
            },
            "the moves of Ben's round", 10s);
        const auto after = std::chrono::steady_clock::now() - dropped;
        CHECK(bens["by"] == "away");
        CHECK(after >= 350ms);
        CHECK(after < 5s);
    }
}

namespace {

// Ann's first decision in a game against a bot, the server restarted in it: the decision as it is
// asked again after her resume, and the snapshot she gets.
struct AfterRestart {
    json before;
    json again;
    json room;
};

AfterRestart restarted_in_a_decision(const json& game, const json& settings, bool hurry_herself) {
    auto config = TestServer::fast_config();
    config.decision_ms = 20000;
    AfterRestart out;
    std::string code, token;
    {
        auto first = std::make_unique<TestServer>(config);
        first->keep_data_dir();
        Client ann(first->port());
        out.before = ann_in_a_decision(ann, game, settings, &code);
        token = token_in(ann);
        if (hurry_herself) {
            ann.send({{"type", "hurry"}, {"seat", 0}});
            notice_of(ann, "hurry");
            CHECK(left_of(ann.expect("decision")) <= 15000);
        }
        room_where(ann, [](const json& m) { return m["seats"][0].value("choosing", false); }, "Ann choosing");
        first->shutdown();
    }
    TestServer second(config);
    Client ann(second.port());
    CHECK(resume(ann, code, token)["seat"] == 0);
    out.room = ann.expect("room");
    out.again = ann.expect("decision", 10s);
    return out;
}

}  // namespace

TEST_CASE("more time: Spook: no limit and the host's hurry survive a server restart [server][more_time][journal]") {
    SUBCASE("no limit") {
        const auto r = restarted_in_a_decision(spook(2), json{{"pace_ms", 0}, {"time_factor", 0}}, false);
        CHECK(r.room["settings"]["time_factor"] == 0);
        CHECK(r.again["decision"] == r.before["decision"]);
        CHECK_FALSE(r.again.contains("time_left_ms"));
    }
    SUBCASE("no limit, hurried") {
        const auto r = restarted_in_a_decision(spook(2), json{{"pace_ms", 0}, {"time_factor", 0}}, true);
        CHECK(r.room["settings"]["time_factor"] == 0);
        CHECK(r.again["decision"] == r.before["decision"]);
        REQUIRE(r.again.contains("time_left_ms"));
        CHECK(left_of(r.again) <= 15000);
        CHECK(left_of(r.again) >= 3000);
    }
}

TEST_CASE("more time: Ludo: the time factor survives a server restart, the open decision keeps its longer time [server][more_time][journal]") {
    const auto r = restarted_in_a_decision(ludo(2), json{{"pace_ms", 0}, {"time_factor", 3}}, false);
    CHECK(r.room["settings"]["time_factor"] == 3);
    CHECK(r.again["decision"] == r.before["decision"]);
    CHECK(left_of(r.before) > 50000);  // 20 s x3
    CHECK(left_of(r.again) > 40000);
    CHECK(left_of(r.again) <= 60000);
}
