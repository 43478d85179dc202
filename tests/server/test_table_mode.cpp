// A table game (options.table, issue 36 part 3): people at one table with paper boards and coins,
// the server's fair dice announced; the host throws with "next", skips a turn (Ludo), and ends the
// game by naming the winners. Over the real server on loopback.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness.h"
#include "spookludo/record.h"
#include "spookludo/verify.h"

using namespace spookludo;
using namespace spookludo::testing;

namespace {

json table_options(const std::string& game, std::vector<std::string> names) {
    json o{{"game", game}, {"table", true}, {"table_names", names}};
    if (game == "spook") o["pieces"] = 2;
    return o;
}

// The host's page: creates the room, starts, sends its seed; the game waits for "next".
std::string open_table(Client& host, const json& options, json settings = json{{"pace_ms", 0}}) {
    const std::string code = create_room(host, options, "Host", settings);
    host.send({{"type", "start"}});
    host.expect("commitment");
    host.send({{"type", "client_seed"}, {"seed", "the host's page seed"}});
    host.expect("client_seed_accepted");
    return code;
}

json next(Client& host, const std::string& type) {
    host.send({{"type", "next"}});
    return host.expect(type);
}

json error_for(Client& c, const json& message) {
    c.send(message);
    return c.expect("error");
}

GameRecord record_of(std::uint16_t port, const json& over) {
    REQUIRE(over.contains("record"));
    const auto [status, text] = http_get(port, over["record"].get<std::string>());
    REQUIRE(status == 200);
    return parse_record(text);
}

bool has_type(const Client& c, const std::string& type) {
    for (const auto& m : c.log())
        if (m["type"] == type) return true;
    return false;
}

}  // namespace

TEST_CASE("table mode: a Spook table game driven with next announces the movement roll and the activation roll in turn, asks nobody to choose, and ends with the declared winners in a record that verifies [server][table]") {
    TestServer server;
    Client host(server.port());
    open_table(host, table_options("spook", {"Ann", "Ben", "Cid"}));
    const json started = next(host, "game_started");  // the first "next" closes the seed window
    CHECK(started["assignment"].size() == 3);
    std::vector<int> faces;
    for (int round = 1; round <= 3; ++round) {
        const json roll = next(host, "roll");
        CHECK(roll["round"] == round);
        CHECK(roll["table"] == true);
        CHECK(roll["text"].get<std::string>().find("Everyone moves one piece") != std::string::npos);
        faces.push_back(roll["face"]);
        const json act = next(host, "activation");
        CHECK(act["round"] == round);
        CHECK(act["moved"].empty());
        CHECK(act["text"].get<std::string>().find("wakes") != std::string::npos);
        faces.push_back(act["face"]);
    }
    CHECK_FALSE(has_type(host, "decision"));
    CHECK_FALSE(has_type(host, "moves"));
    host.send({{"type", "declare_winners"}, {"names", {"Cid", "Ann"}}});
    const json over = host.expect("game_over");
    CHECK(over["status"] == "finished");
    CHECK(over["winners"] == json{0, 2});
    CHECK(over["names"] == json{"Ann", "Ben", "Cid"});
    CHECK(over["length"] == 6);
    const GameRecord record = record_of(server.port(), over);
    CHECK(record.options.table);
    CHECK(record.draws.size() == 2 + 6);  // the assignment of 3 boards, then 6 dice
    CHECK(record.client_seed_by == std::vector<std::string>{"host's page"});
    REQUIRE(record.announcements.size() == 7);
    CHECK(record.announcements.back().text == "The winners: Ann and Cid.");
    for (std::size_t i = 0; i < faces.size(); ++i) CHECK(static_cast<int>(record.draws[2 + i].value) + 1 == faces[i]);
    const VerifyReport report = verify(record);
    INFO(report.failure);
    CHECK(report.ok);
}

TEST_CASE("table mode: a Ludo table game starts with the roll-off, throws for the player whose turn it is clockwise with another throw on a 6, skip_turn passes the turn, and its record with the declared winner verifies [server][table]") {
    TestServer server;
    Client host(server.port());
    open_table(host, table_options("ludo", {"Ann", "Ben", "Cid"}));
    next(host, "game_started");
    const json roll_off = next(host, "roll_off");
    CHECK(roll_off["table"] == true);
    int turn = roll_off["starts"];
    for (int i = 1; i <= 12; ++i) {
        const json t = next(host, "throw");
        CHECK(t["turn"] == i);
        CHECK(t["seat"] == turn);
        const int face = t["face"];
        CHECK(t["next"] == (face == 6 ? turn : (turn + 1) % 3));
        turn = t["next"];
        if (i == 5) {
            host.send({{"type", "skip_turn"}});
            const json skipped = host.expect("turn_skipped");
            CHECK(skipped["seat"] == turn);
            CHECK(skipped["next"] == (turn + 1) % 3);
            turn = skipped["next"];
        }
    }
    host.send({{"type", "declare_winners"}, {"names", {"Ben"}}});
    const json over = host.expect("game_over");
    CHECK(over["winners"] == json{1});
    const GameRecord record = record_of(server.port(), over);
    const VerifyReport report = verify(record);
    INFO(report.failure);
    CHECK(report.ok);
    // A tampered announcement is caught.
    GameRecord tampered = record;
    tampered.announcements[3].text = "Throw 3: Ann throws 6.";
    CHECK_FALSE(verify(tampered).ok);
}

TEST_CASE("table mode: only the host may throw, skip or declare, and unknown or repeated names, a room that is not a table game, a pause and a second declaration are refused with clear errors, and another room plays on undisturbed [server][table]") {
    TestServer server;
    Client other_host(server.port());
    const std::string other = create_room(other_host, json{{"game", "spook"}, {"players", 2}}, "Zoe", json{{"pace_ms", 0}});
    CHECK(error_for(other_host, {{"type", "next"}})["message"].get<std::string>().find("not a table game") != std::string::npos);
    CHECK(error_for(other_host, {{"type", "declare_winners"}, {"names", {"Zoe"}}})["code"] == "wrong_state");

    Client host(server.port());
    const std::string code = open_table(host, table_options("spook", {"Ann", "Ben"}));
    Client phone(server.port());
    phone.hello();
    phone.send({{"type", "watch"}, {"room", code}});
    phone.expect("room");
    CHECK(error_for(phone, {{"type", "next"}})["code"] == "not_host");
    // Joining a seat of a table game is refused in its lobby: its players sit at the table.
    Client lobby_host(server.port());
    const std::string lobby = create_room(lobby_host, table_options("ludo", {"Ann", "Ben"}), "Host");
    Client late(server.port());
    late.hello();
    late.send({{"type", "join_room"}, {"room", lobby}, {"name", "Eve"}});
    CHECK(late.expect("error")["message"].get<std::string>().find("is a table game") != std::string::npos);
    CHECK(error_for(lobby_host, {{"type", "add_bot"}})["code"] == "wrong_state");

    next(host, "game_started");
    next(host, "roll");
    CHECK(error_for(host, {{"type", "skip_turn"}})["message"].get<std::string>().find("Ludo only") != std::string::npos);
    CHECK(error_for(phone, {{"type", "declare_winners"}, {"names", {"Ann"}}})["code"] == "not_host");
    CHECK(error_for(host, {{"type", "declare_winners"}, {"names", {"Zed"}}})["message"].get<std::string>().find(
              "\"Zed\" is not a name at this table (Ann, Ben)") != std::string::npos);
    CHECK(error_for(host, {{"type", "declare_winners"}, {"names", {"Ann", "Ann"}}})["code"] == "bad_field");
    host.send({{"type", "pause"}});
    notice_of(host, "paused");
    CHECK(error_for(host, {{"type", "next"}})["code"] == "paused");
    host.send({{"type", "resume_game"}});
    notice_of(host, "resumed");

    // The other room meanwhile: a normal game with a bot, played to its end.
    other_host.send({{"type", "add_bot"}});
    other_host.send({{"type", "start"}});
    const json other_over = play_to_end(other_host);
    CHECK(other_over["status"] == "finished");

    next(host, "activation");
    host.send({{"type", "declare_winners"}, {"names", {"Ben"}}});
    CHECK(host.expect("game_over")["winners"] == json{1});
    CHECK(error_for(host, {{"type", "declare_winners"}, {"names", {"Ben"}}})["code"] == "wrong_state");
    CHECK(error_for(host, {{"type", "next"}})["code"] == "wrong_state");
}

TEST_CASE("table mode: phones watching the room add their client seeds before the game starts, and the record names whose seeds went in [server][table]") {
    TestServer server;
    Client host(server.port());
    const std::string code = open_table(host, table_options("ludo", {"Ann", "Ben"}));
    Client phone(server.port());
    phone.hello();
    phone.send({{"type", "watch"}, {"room", code}});
    phone.expect("room");
    phone.send({{"type", "client_seed"}, {"seed", "ann's lucky phone"}, {"by", "Ann's phone"}});
    phone.expect("client_seed_accepted");
    CHECK(error_for(phone, {{"type", "client_seed"}, {"seed", "again"}, {"by", "Ann's phone"}})["code"] == "wrong_state");
    next(host, "game_started");
    // The window is closed now.
    CHECK(error_for(phone, {{"type", "client_seed"}, {"seed", "late"}, {"by", "Ben's phone"}})["code"] == "wrong_state");
    next(host, "roll_off");
    next(host, "throw");
    host.send({{"type", "declare_winners"}, {"names", {"Ann"}}});
    const GameRecord record = record_of(server.port(), host.expect("game_over"));
    CHECK(record.client_seed_by == std::vector<std::string>{"host's page", "Ann's phone"});
    CHECK(record.client_seeds.size() == 2);
    CHECK(verify(record).ok);
}

TEST_CASE("table mode: at table_pace_ms the dice come by themselves after the seed window, none while paused [server][table]") {
    TestServer server;
    Client host(server.port());
    open_table(host, table_options("spook", {"Ann"}), json{{"pace_ms", 0}, {"table_pace_ms", 150}});
    host.expect("game_started", 10s);  // the seed window closes by itself at this pace
    host.expect("roll", 5s);
    host.expect("activation", 5s);
    host.send({{"type", "pause"}});
    notice_of(host, "paused");
    // Nothing is thrown while paused: four paces go by, and between two pongs no die came.
    host.send({{"type", "ping"}, {"t", 7}});
    next_of(host, [](const json& m) { return m["type"] == "pong"; }, "the first pong");
    std::this_thread::sleep_for(600ms);  // the absence of a die is what is checked
    host.send({{"type", "ping"}, {"t", 8}});
    const json pong = next_of(host, [](const json& m) {
        return m["type"] == "pong" || m["type"] == "roll" || m["type"] == "activation"; }, "the second pong");
    CHECK(pong["type"] == "pong");
    host.send({{"type", "resume_game"}});
    next_of(host, [](const json& m) { return m["type"] == "roll" || m["type"] == "activation"; }, "a die after the resume");
    host.send({{"type", "declare_winners"}, {"names", {"Ann"}}});
    const json over = next_of(host, [](const json& m) { return m["type"] == "game_over"; }, "game_over");
    CHECK(verify(record_of(server.port(), over)).ok);
}

TEST_CASE("table mode: a table game taken up after a server restart goes on with the same dice, and its record verifies [server][table][journal]") {
    auto config = TestServer::fast_config();
    std::string code, token;
    std::vector<int> before;  // the faces the table saw before the restart
    {
        auto first = std::make_unique<TestServer>(config);
        first->keep_data_dir();
        Client host(first->port());
        code = open_table(host, table_options("ludo", {"Ann", "Ben", "Cid"}));
        token = token_of(host);
        next(host, "game_started");
        next(host, "roll_off");
        for (int i = 0; i < 4; ++i) before.push_back(next(host, "throw")["face"]);
        host.send({{"type", "skip_turn"}});
        host.expect("turn_skipped");
        first->shutdown();
    }
    TestServer second(config);
    Client host(second.port());
    CHECK(resume(host, code, token)["seat"] == 0);
    const json back = room_where(host, [](const json& r) { return r.contains("table"); }, "the table game");
    CHECK(back["state"] == "playing");
    CHECK(back["table"]["dice"] == 5);
    // It waited for its player: the host is back, and it goes on by itself.
    if (back["paused"] == true) room_where(host, [](const json& r) { return r["paused"] == false; }, "the game going on");
    const json t = next(host, "throw");
    CHECK(t["turn"] == 5);
    host.send({{"type", "declare_winners"}, {"names", {"Cid"}}});
    const json over = next_of(host, [](const json& m) { return m["type"] == "game_over"; }, "game_over");
    const GameRecord record = record_of(second.port(), over);
    const VerifyReport report = verify(record);
    INFO(report.failure);
    CHECK(report.ok);
    REQUIRE(record.draws.size() >= 8);
    // The throws before the restart are the record's (after the roll-off's draws).
    const std::size_t roll_off = record.draws.size() - 5;
    for (std::size_t i = 0; i < before.size(); ++i) CHECK(static_cast<int>(record.draws[roll_off + i].value) + 1 == before[i]);
    CHECK(record.announcements[5].kind == "skip");
}
