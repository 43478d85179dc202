// The server over real WebSocket connections on loopback (issue: the authoritative game server).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "harness.h"
#include "metrics.h"
#include "spookludo/record.h"
#include "spookludo/verify.h"

using namespace spookludo;
using namespace spookludo::testing;

namespace {

json spook_options(int players = 2, int pieces = 2) {
    return {{"game", "spook"}, {"players", players}, {"pieces", pieces}};
}

GameRecord fetch_record(std::uint16_t port, const json& game_over) {
    REQUIRE(game_over.contains("record"));
    auto [status, body] = http_get(port, game_over["record"]);
    REQUIRE(status == 200);
    return parse_record(body);
}

}  // namespace

TEST_CASE("server: a whole Spook game with a bot, decisions answered, record verifies [server][spook]") {
    auto config = TestServer::fast_config();
    config.seed_wait_ms = 10000;  // Ann's seed is in the dice, however long a loaded machine takes to send it
    TestServer server(config);
    Client ann(server.port());
    const std::string code = create_room(ann, spook_options(), "Ann", json{{"hints", true}, {"pace_ms", 0}});
    CHECK(code.size() == 5);
    ann.send({{"type", "add_bot"}, {"policy", "best"}});
    ann.expect("room");
    ann.send({{"type", "start"}});
    const json commitment = ann.expect("commitment");
    CHECK(commitment["commitment"].get<std::string>().size() == 64);
    CHECK(commitment["boards"].size() == 2);
    ann.send({{"type", "client_seed"}, {"seed", "ann's lucky seed"}});
    ann.expect("client_seed_accepted");
    const json started = ann.expect("game_started");
    CHECK(started["client_seeds"][0]["seed"] == "ann's lucky seed");

    const json over = play_to_end(ann);
    CHECK(over["status"] == "finished");
    CHECK(over["server_seed"].get<std::string>().size() == 64);
    // Decisions carry the options with their values (hints on) and the time left.
    bool saw_decision = false;
    for (const auto& m : ann.log())
        if (m["type"] == "decision") {
            saw_decision = true;
            CHECK(m["options"].size() >= 2);
            CHECK(m["options"][0].contains("expected_rounds"));
            CHECK(m["time_left_ms"].get<int>() > 0);
            break;
        }
    CHECK(saw_decision);

    const GameRecord record = fetch_record(server.port(), over);
    CHECK(record.commitment == commitment["commitment"]);
    CHECK(record.client_seeds == std::vector<ClientSeed>{{0, "ann's lucky seed"}});
    const VerifyReport report = verify(record);
    INFO(report.failure);
    CHECK(report.ok);
    // After the game the room is back in its lobby.
    const json lobby = ann.expect("room");
    CHECK(lobby["state"] == "lobby");
}

TEST_CASE("server: a player who does not answer gets the best move, flagged as the server's [server][spook]") {
    TestServer server;
    Client ann(server.port());
    create_room(ann, spook_options(1, 2), "Ann", json{{"decision_ms", 1000}, {"pace_ms", 0}});
    ann.send({{"type", "start"}});
    ann.expect("commitment");
    ann.send({{"type", "client_seed"}, {"seed", "x"}});
    const json decision = ann.expect("decision", 20s);
    const json timeout = ann.expect("decision_timeout", 10s);
    CHECK(timeout["decision"] == decision["decision"]);
    const json moves = ann.expect("moves");
    CHECK(moves["moves"][0]["by"] == "timeout");
    // A late answer is refused as stale.
    ann.send({{"type", "choose"}, {"decision", decision["decision"]}, {"piece", 0}});
    const json err = ann.expect("error");
    CHECK(err["code"] == "stale_decision");
}

TEST_CASE("server: a spectator sees the game and cannot move [server]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, spook_options(), "Ann", json{{"pace_ms", 0}});
    Client watcher(server.port());
    watcher.hello();
    watcher.send({{"type", "watch"}, {"room", code}});
    CHECK(watcher.expect("joined")["role"] == "spectator");
    ann.send({{"type", "add_bot"}, {"policy", "random"}});
    ann.send({{"type", "start"}});
    watcher.expect("commitment");
    watcher.expect("game_started", 10s);
    const json roll = watcher.expect("roll");
    CHECK(roll["face"].get<int>() >= 1);
    watcher.send({{"type", "choose"}, {"decision", "1"}, {"piece", 0}});
    CHECK(watcher.expect("error")["code"] == "not_a_player");
    watcher.send({{"type", "start"}});
    CHECK(watcher.expect("error")["code"] == "not_host");
    play_to_end(ann);
    CHECK(watcher.expect("game_over", 10s)["status"] == "finished");
}

TEST_CASE("server: a dropped player reconnects with the token and gets the seat back [server]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, spook_options(), "Ann", json{{"pace_ms", 0}, {"decision_ms", 60000}});
    auto ben = std::make_unique<Client>(server.port());
    ben->hello();
    ben->send({{"type", "join_room"}, {"room", code}, {"name", "Ben"}});
    const json joined = ben->expect("joined");
    const std::string token = joined["token"];
    CHECK(joined["seat"] == 1);
    ann.send({{"type", "start"}});
    ann.expect("commitment");
    ann.send({{"type", "client_seed"}, {"seed", "a"}});
    ben->send({{"type", "client_seed"}, {"seed", "b"}});
    ben->expect("game_started");
    ben->close();
    ben.reset();
    // The others see Ben away.
    bool away = false;
    for (int i = 0; i < 50 && !away; ++i) {
        auto m = ann.read(5s);
        REQUIRE(m.has_value());
        if ((*m)["type"] == "decision")
            ann.send({{"type", "choose"}, {"decision", (*m)["decision"]}, {"piece", (*m)["options"][0]["piece"]}});
        if ((*m)["type"] == "room" && (*m)["seats"][1]["away"] == true) away = true;
    }
    CHECK(away);
    Client back(server.port());
    back.hello();
    back.send({{"type", "resume"}, {"room", code}, {"token", "not-the-token"}});
    CHECK(back.expect("error")["code"] == "bad_token");
    back.send({{"type", "resume"}, {"room", code}, {"token", token}});
    const json again = back.expect("joined");
    CHECK(again["seat"] == 1);
    const json snapshot = back.expect("room");
    CHECK(snapshot["state"] == "playing");
    CHECK(snapshot["seats"][1]["connected"] == true);
    CHECK(snapshot.contains("game"));
}

TEST_CASE("server: bad input gets its error and changes nothing [server][hardening]") {
    TestServer server;
    Client c(server.port());
    c.send({{"type", "create_room"}, {"options", spook_options()}, {"name", "x"}});
    CHECK(c.expect("error")["code"] == "hello_first");
    c.send({{"type", "hello"}, {"protocol", 99}});
    const json mismatch = c.expect("error");
    CHECK(mismatch["code"] == "version_mismatch");
    CHECK(mismatch["message"].get<std::string>().find("protocol 1") != std::string::npos);
    c.hello();
    c.send_text("{not json");
    CHECK(c.expect("error")["code"] == "bad_json");
    c.send({{"type", "dance"}});
    CHECK(c.expect("error")["code"] == "unknown_type");
    c.send({{"type", "create_room"}, {"options", {{"game", "spook"}, {"players", 9}}}, {"name", "x"}});
    const json bad = c.expect("error");
    CHECK(bad["code"] == "bad_field");
    CHECK(bad["message"].get<std::string>().find("players") != std::string::npos);
    c.send({{"type", "join_room"}, {"room", "ZZZZZ"}, {"name", "x"}});
    CHECK(c.expect("error")["code"] == "room_not_found");
    c.send({{"type", "choose"}, {"decision", "1"}, {"piece", 0}});
    CHECK(c.expect("error")["code"] == "not_in_room");
    c.send_binary("\x01\x02");
    CHECK(c.expect("error")["code"] == "binary_frame");
    // A name with control and escape characters is refused, not cleaned.
    c.send({{"type", "create_room"}, {"options", spook_options()}, {"name", "\x1b[31mEvil\x07 Name"}});
    CHECK(c.expect("error")["code"] == "bad_name");
    // The connection still works.
    c.send({{"type", "ping"}, {"t", 5}});
    CHECK(c.expect("pong")["t"] == 5);
}

TEST_CASE("server: an oversized frame closes only that connection [server][hardening]") {
    TestServer server;
    Client ok(server.port());
    ok.hello();
    Client big(server.port());
    big.hello();
    big.send_text(R"({"type":"ping","t":1,"pad":")" + std::string(10000, 'x') + "\"}");
    CHECK_FALSE(big.read(3s).has_value());
    CHECK(big.closed());
    ok.send({{"type", "ping"}, {"t", 2}});
    CHECK(ok.expect("pong")["t"] == 2);
}

TEST_CASE("server: /healthz, /metrics and unknown records over HTTP [server][http]") {
    TestServer server;
    auto [status, body] = http_get(server.port(), "/healthz");
    CHECK(status == 200);
    CHECK(body == "ok\n");
    auto [mstatus, metrics] = http_get(server.port(), "/metrics");
    CHECK(mstatus == 200);
    CHECK(metrics.find("spookludo_rooms ") != std::string::npos);
    CHECK(metrics.find("spookludo_decision_round_trip_ms_bucket") != std::string::npos);
    CHECK(http_get(server.port(), "/records/../../etc/passwd").first == 404);
    CHECK(http_get(server.port(), "/nothing").first == 404);
}

TEST_CASE("metrics: the decision round trip's histogram tells 2.7 ms from 4.6 ms (buckets fine where round trips fall) [server][metrics]") {
    server::Metrics m;
    m.observe_round_trip(2.7);
    m.observe_round_trip(4.6);
    m.observe_round_trip(0.8);
    const std::string text = m.prometheus_text();
    const auto bucket = [&](const std::string& le) {
        const std::string key = "spookludo_decision_round_trip_ms_bucket{le=\"" + le + "\"} ";
        const auto at = text.find(key);
        REQUIRE(at != std::string::npos);
        return std::stol(text.substr(at + key.size()));
    };
    CHECK(bucket("0.75") == 0);
    CHECK(bucket("1") == 1);
    CHECK(bucket("2.5") == 1);
    CHECK(bucket("3") == 2);
    CHECK(bucket("4") == 2);
    CHECK(bucket("5") == 3);
    CHECK(bucket("+Inf") == 3);
    CHECK(text.find("spookludo_decision_round_trip_ms_count 3") != std::string::npos);
}

TEST_CASE("server: shutting down with abandon_on_exit abandons a game in progress, reveals the seed and writes the record [server]") {
    auto config = TestServer::fast_config();
    config.abandon_on_exit = true;
    config.export_records = config.data_dir + "/records";  // read once the server has stopped
    TestServer server(config);
    Client ann(server.port());
    create_room(ann, spook_options(), "Ann", json{{"pace_ms", 0}, {"decision_ms", 60000}});
    ann.send({{"type", "add_bot"}});
    ann.send({{"type", "start"}});
    ann.expect("commitment");
    ann.send({{"type", "client_seed"}, {"seed", "s"}});
    ann.expect("decision", 20s);  // the game waits for Ann
    server.shutdown();
    const json over = ann.expect("game_over");
    CHECK(over["status"] == "abandoned");
    REQUIRE(over.contains("record"));
    const std::string id = over["record"].get<std::string>().substr(9);
    std::ifstream in(server.data_dir() + "/records/" + id + ".json");
    REQUIRE(in.good());
    std::stringstream text;
    text << in.rdbuf();
    const GameRecord record = parse_record(text.str());
    CHECK(record.result.status == GameStatus::abandoned);
    CHECK(record.server_seed.has_value());
    const VerifyReport report = verify(record);
    INFO(report.failure);
    CHECK(report.ok);
}

TEST_CASE("server: a flood from one connection does not slow another room's game [server][hardening]") {
    auto config = TestServer::fast_config();
    config.max_messages_per_second = 50;
    TestServer server(config);
    Client flood(server.port());
    flood.hello();
    std::atomic<bool> stop{false};
    std::thread flooder([&] {
        for (int i = 0; i < 3000 && !stop; ++i) flood.send({{"type", "ping"}, {"t", i}});
    });
    Client ann(server.port());
    create_room(ann, spook_options(), "Ann", json{{"pace_ms", 0}, {"decision_ms", 3000}});
    ann.send({{"type", "add_bot"}, {"policy", "greedy"}});
    ann.send({{"type", "start"}});
    const json over = play_to_end(ann);
    stop = true;
    flooder.join();
    CHECK(over["status"] == "finished");
    for (const auto& m : ann.log()) CHECK(m["type"] != "decision_timeout");
    // The flooder was told it was over the limit (or dropped for abuse), nobody else was.
    bool limited = false;
    for (int i = 0; i < 200; ++i) {
        auto m = flood.read(2s);
        if (!m) break;
        if ((*m)["type"] == "error" && (*m)["code"] == "rate_limited") {
            limited = true;
            break;
        }
    }
    CHECK((limited || flood.closed()));
}

TEST_CASE("server: a whole Ludo game beside a Spook game on the same server, both records verify [server][ludo]") {
    TestServer server;
    Client ann(server.port());
    create_room(ann, {{"game", "ludo"}, {"players", 4}, {"arm", 6}}, "Ann", json{{"pace_ms", 0}, {"hints", true}});
    ann.send({{"type", "add_bot"}, {"policy", "greedy"}});
    ann.send({{"type", "add_bot"}, {"policy", "random"}});
    Client zed(server.port());
    create_room(zed, spook_options(3, 1), "Zed", json{{"pace_ms", 0}});
    zed.send({{"type", "add_bot"}, {"policy", "best"}});
    zed.send({{"type", "add_bot"}, {"policy", "random"}});
    ann.send({{"type", "start"}});
    zed.send({{"type", "start"}});
    json ludo_over, spook_over;
    std::thread other([&] { spook_over = play_to_end(zed, 60s); });
    ludo_over = play_to_end(ann, 60s);
    other.join();
    CHECK(ludo_over["status"] == "finished");
    CHECK(spook_over["status"] == "finished");
    bool saw_throw = false, saw_roll_off = false, saw_hint = false;
    for (const auto& m : ann.log()) {
        saw_roll_off |= m["type"] == "roll_off";
        saw_throw |= m["type"] == "throw";
        if (m["type"] == "decision")
            for (const auto& o : m["options"]) saw_hint |= o.value("best", false);
    }
    CHECK(saw_roll_off);
    CHECK(saw_throw);
    CHECK(saw_hint);
    for (const json* over : {&ludo_over, &spook_over}) {
        const GameRecord record = fetch_record(server.port(), *over);
        const VerifyReport report = verify(record);
        INFO(report.failure);
        CHECK(report.ok);
    }
}

TEST_CASE("server: the host pauses the clock, kicks a player to a bot, and the host role passes on [server][lobby]") {
    TestServer server;
    Client ann(server.port());
    // 20 s to choose: the pause and the kick land well inside it on a loaded machine too.
    const std::string code = create_room(ann, spook_options(3, 2), "Ann", json{{"pace_ms", 0}, {"decision_ms", 20000}});
    Client ben(server.port());
    ben.hello();
    ben.send({{"type", "join_room"}, {"room", code}, {"name", "Ann"}});
    CHECK(ben.expect("error")["code"] == "name_taken");
    ben.send({{"type", "join_room"}, {"room", code}, {"name", "Ben"}});
    ben.expect("joined");
    Client cat(server.port());
    cat.hello();
    cat.send({{"type", "join_room"}, {"room", code}, {"name", "Cat"}});
    cat.expect("joined");
    ben.send({{"type", "start"}});
    CHECK(ben.expect("error")["code"] == "not_host");

    ann.send({{"type", "start"}});
    for (Client* c : {&ann, &ben, &cat}) {
        c->expect("commitment");
        c->send({{"type", "client_seed"}, {"seed", "x"}});
    }
    // Pause while a decision is open (that its time is kept meanwhile is party's pause test).
    ann.expect("game_started");
    ann.send({{"type", "pause"}});
    json paused = ann.expect("room");
    while (paused["paused"] != true) paused = ann.expect("room");
    CHECK(paused["paused"] == true);
    // Kick Cat mid-game: her seat goes to a bot.
    ann.send({{"type", "kick"}, {"seat", 2}});
    CHECK(cat.expect("kicked")["room"] == code);
    json after_kick = ann.expect("room");
    while (after_kick["seats"][2]["bot"] != true) after_kick = ann.expect("room");
    CHECK(after_kick["seats"][2]["bot"] == true);
    ann.send({{"type", "resume_game"}});
    notice_of(ann, "resumed");
    for (const auto& m : ann.log()) CHECK(m["type"] != "decision_timeout");
    // Ann leaves: Ben becomes the host and the game goes on with the server playing Ann's seat.
    ann.send({{"type", "leave"}});
    json room = ben.expect("room");
    while (room["host"] != 1) room = ben.expect("room");
    CHECK(room["host"] == 1);
    CHECK(room["seats"][0]["away"] == true);
    // Ben's open decision (sent again on the resume) was read past above: he answers it now (one
    // answered already is refused, which changes nothing), then plays to the end.
    for (auto m = ben.log().rbegin(); m != ben.log().rend(); ++m)
        if ((*m)["type"] == "decision") {
            ben.send({{"type", "choose"}, {"decision", (*m)["decision"]}, {"piece", (*m)["options"][0]["piece"]}});
            break;
        }
    const json over = play_to_end(ben);
    CHECK(over["status"] == "finished");
}

TEST_CASE("server: limits on rooms, seats and connections are told clearly [server][limits]") {
    auto config = TestServer::fast_config();
    config.max_rooms = 1;
    config.max_connections_per_address = 3;
    config.max_spectators = 0;
    TestServer server(config);
    Client ann(server.port());
    const std::string code = create_room(ann, {{"game", "ludo"}, {"players", 2}});
    Client ben(server.port());
    ben.hello();
    ben.send({{"type", "create_room"}, {"options", spook_options()}, {"name", "Ben"}});
    const json full = ben.expect("error");
    CHECK(full["code"] == "server_full");
    CHECK(full["message"].get<std::string>().find("1 rooms") != std::string::npos);
    ben.send({{"type", "join_room"}, {"room", code}, {"name", "Ben"}});
    ben.expect("joined");
    Client cat(server.port());
    cat.hello();
    cat.send({{"type", "join_room"}, {"room", code}, {"name", "Cat"}});
    const json seats_full = cat.expect("error");
    CHECK(seats_full["code"] == "room_full");  // the room was created for 2 players
    cat.send({{"type", "watch"}, {"room", code}});
    CHECK(cat.expect("error")["code"] == "room_full");  // no spectators allowed here
    // A fourth connection from the same address is refused at the upgrade.
    CHECK_THROWS(Client(server.port()));
}

TEST_CASE("server: an illegal piece is refused with the rule's reason and the decision stays open [server][hardening]") {
    TestServer server;
    Client ann(server.port());
    create_room(ann, spook_options(1, 3), "Ann", json{{"pace_ms", 0}});
    ann.send({{"type", "start"}});
    ann.expect("commitment");
    ann.send({{"type", "client_seed"}, {"seed", "x"}});
    const json decision = ann.expect("decision", 20s);
    ann.send({{"type", "choose"}, {"decision", decision["decision"]}, {"piece", 4}});
    CHECK(ann.expect("error")["code"] == "bad_field");  // no game has a piece 4
    ann.send({{"type", "choose"}, {"decision", decision["decision"]}, {"piece", 3}});
    const json illegal = ann.expect("error");
    CHECK(illegal["code"] == "illegal_choice");  // pieces are 0 to 2 in this game
    CHECK(illegal["message"].get<std::string>().find("no piece 3") != std::string::npos);
    ann.send({{"type", "choose"}, {"decision", "999"}, {"piece", 0}});
    CHECK(ann.expect("error")["code"] == "stale_decision");
    ann.send({{"type", "choose"}, {"decision", decision["decision"]}, {"piece", decision["options"][0]["piece"]}});
    CHECK(ann.expect("choice_accepted")["decision"] == decision["decision"]);
}

TEST_CASE("server: repeated bad messages close that connection only [server][hardening]") {
    TestServer server;
    Client ok(server.port());
    ok.hello();
    Client bad(server.port());
    bad.hello();
    for (int i = 0; i < 25; ++i) bad.send_text("not json");
    int errors = 0;
    while (auto m = bad.read(3s))
        if ((*m)["type"] == "error") ++errors;
    CHECK(errors == 20);  // every bad message answered, then the connection closed
    CHECK(bad.closed());
    ok.send({{"type", "ping"}, {"t", 3}});
    CHECK(ok.expect("pong")["t"] == 3);
}

TEST_CASE("server: settings a client leaves out keep the server's defaults and the room's values [server][lobby]") {
    auto config = TestServer::fast_config();
    config.decision_ms = 20000;
    config.pace_ms = 1500;
    TestServer server(config);
    Client ann(server.port());
    create_room(ann, spook_options(), "Ann", json{{"hints", true}});
    json room = ann.expect("room");
    CHECK(room["settings"] == json{{"decision_ms", 20000}, {"pace_ms", 1500}, {"hints", true}, {"auto_start_ms", 0}, {"spectator_reactions", false}, {"time_factor", 1}});
    ann.send({{"type", "set_settings"}, {"settings", {{"pace_ms", 0}}}});
    room = ann.expect("room");
    CHECK(room["settings"] == json{{"decision_ms", 20000}, {"pace_ms", 0}, {"hints", true}, {"auto_start_ms", 0}, {"spectator_reactions", false}, {"time_factor", 1}});
}
