// A party in a room over loopback (issue #15): stable seat numbers, the host hand-over, games on
// seats with gaps, dropped players and their tokens, kick and leave in a game, pause, the
// automatic start, rooms that close when everybody is gone, names. Each test says what a person
// at the table would notice.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <future>
#include <set>
#include <sstream>
#include <thread>

#include "harness.h"
#include "timer_grid.h"

using namespace spookludo;
using namespace spookludo::testing;

namespace {

json spook(int players) { return {{"game", "spook"}, {"players", players}, {"pieces", 2}}; }
json ludo(int players) { return {{"game", "ludo"}, {"players", players}}; }

// The seat object numbered `number` in a `room` snapshot (null when the room has no such seat).
json seat_in(const json& room, int number) {
    for (const auto& s : room["seats"])
        if (s["seat"] == number) return s;
    return nullptr;
}
std::vector<int> seat_numbers(const json& room) {
    std::vector<int> out;
    for (const auto& s : room["seats"]) out.push_back(s["seat"]);
    return out;
}

// Every message that comes within `time` (the client is closed afterwards: a read that times out
// leaves it unusable).
std::vector<json> drain(Client& c, std::chrono::milliseconds time) {
    std::vector<json> out;
    const auto until = std::chrono::steady_clock::now() + time;
    while (std::chrono::steady_clock::now() < until) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
        auto m = c.read(std::max(left, 1ms));
        if (!m) break;
        out.push_back(*m);
    }
    return out;
}

// Every player sends a client seed after the commitment; then each waits for game_started.
json seed_and_start(std::initializer_list<Client*> players) {
    for (Client* c : players) {
        c->expect("commitment");
        c->send({{"type", "client_seed"}, {"seed", "seed " + std::to_string(c->log().size())}});
    }
    json started;
    for (Client* c : players) started = c->expect("game_started", 10s);
    return started;
}
json seed_and_start(Client& c) { return seed_and_start({&c}); }

// The value of a metric line "NAME VALUE" in /metrics text; -1 when absent.
double metric(std::uint16_t port, const std::string& name) {
    std::istringstream in(http_get(port, "/metrics").second);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(name + " ", 0) == 0) return std::stod(line.substr(name.size() + 1));
    return -1;
}
bool wait_metric(std::uint16_t port, const std::string& name, double value, std::chrono::milliseconds timeout = 3s) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < until) {
        if (metric(port, name) == value) return true;
        std::this_thread::sleep_for(20ms);
    }
    return metric(port, name) == value;
}

server::Config short_window(int reconnect_ms = 300) {
    auto c = TestServer::fast_config();
    c.reconnect_ms = reconnect_ms;
    return c;
}

const json kFast{{"pace_ms", 0}, {"decision_ms", 60000}};

// A game on seats 0 and 2 (seat 1 free): Ann at 0, Cid at 2, both playing to the end in
// threads. Checks every seat number the game shows; returns the record's JSON.
json play_on_seats_0_and_2(TestServer& server, const json& options) {
    Client ann(server.port());
    const std::string code = create_room(ann, options, "Ann", kFast);
    Client ben(server.port());
    CHECK(join(ben, code, "Ben")["seat"] == 1);
    Client cid(server.port());
    CHECK(join(cid, code, "Cid")["seat"] == 2);
    ben.send({{"type", "leave"}});
    room_where(ann, [](const json& r) { return seat_in(r, 1)["free"] == true && seat_in(r, 2)["name"] == "Cid"; },
               "seat 1 free, Cid at seat 2");
    ann.send({{"type", "start"}});
    auto ann_game = std::async(std::launch::async, [&] { return play_to_end(ann); });
    auto cid_game = std::async(std::launch::async, [&] { return play_to_end(cid); });
    const json over = ann_game.get();
    const json cid_over = cid_game.get();
    CHECK(cid_over["game_id"] == over["game_id"]);

    std::set<int> seats_named;  // every seat a game message names
    bool saw_game_view = false, cid_decided = false;
    for (const auto& m : ann.log()) {
        const std::string type = m["type"];
        if (type == "game_started") {
            CHECK(m["players"] == json::array({0, 2}));
            for (const auto& s : m["client_seeds"]) seats_named.insert(s["seat"].get<int>());
            if (m.contains("assignment") && !m["assignment"].empty()) {
                REQUIRE(m["assignment"].size() == 3);
                CHECK(m["assignment"][1] == -1);
                CHECK(m["assignment"][0] != -1);
                CHECK(m["assignment"][2] != -1);
            }
        }
        if (type == "decision") CHECK(m["seat"] == 0);  // Ann is asked as seat 0, never another
        if (type == "moves")
            for (const auto& mv : m["moves"]) seats_named.insert(mv["seat"].get<int>());
        if (type == "activation")
            for (const auto& mv : m["moved"]) seats_named.insert(mv["seat"].get<int>());
        if (type == "throw") seats_named.insert(m["seat"].get<int>());
        if (type == "roll_off") seats_named.insert(m["starts"].get<int>());
        if (type == "throw" || type == "move" || type == "roll_off")
            for (const auto& e : m["events"])
                if (e.contains("seat")) seats_named.insert(e["seat"].get<int>());
        if (type == "room" && m.contains("game") && !saw_game_view) {
            saw_game_view = true;
            const json& g = m["game"];
            CHECK(g["players"] == json::array({0, 2}));
            if (options["game"] == "spook") {
                REQUIRE(g["boards"].size() == 3);
                CHECK(g["boards"][1] == "");
                CHECK(g["boards"][0] != "");
                CHECK(g["boards"][2] != "");
                REQUIRE(g["positions"].size() == 3);
                CHECK(g["positions"][1].empty());
                CHECK(g["positions"][2].size() == 2);
                CHECK(g["finished_round"].size() == 3);
            } else {
                CHECK((g["current_seat"] == 0 || g["current_seat"] == 2));
            }
        }
    }
    for (const auto& m : cid.log())
        if (m["type"] == "decision") {
            CHECK(m["seat"] == 2);
            cid_decided = true;
        }
    CHECK(saw_game_view);
    CHECK(cid_decided);
    CHECK(seats_named == std::set<int>{0, 2});

    CHECK(over["status"] == "finished");
    REQUIRE(over["places"].size() == 3);
    CHECK(over["places"][1] == 0);
    // A place for each seat that played (a tie shares a place), the winners first.
    CHECK(std::min(over["places"][0].get<int>(), over["places"][2].get<int>()) == 1);
    REQUIRE_FALSE(over["winners"].empty());
    for (const auto& w : over["winners"]) {
        CHECK((w == 0 || w == 2));
        CHECK(over["places"][w.get<std::size_t>()] == 1);
    }

    REQUIRE(over.contains("record"));
    const auto [status, body] = http_get(server.port(), over["record"]);
    REQUIRE(status == 200);
    const json record = json::parse(body);
    REQUIRE(record["seats"].size() == 2);
    CHECK(record["seats"][0]["name"] == "Ann");
    CHECK(record["seats"][0]["room_seat"] == 0);
    CHECK(record["seats"][1]["name"] == "Cid");
    CHECK(record["seats"][1]["room_seat"] == 2);
    return record;
}

}  // namespace

TEST_CASE("party: a seat keeps its number when another player leaves, and + and - add and remove free seats only [server][party]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, spook(4), "Ann", kFast);
    Client ben(server.port());
    CHECK(join(ben, code, "Ben")["seat"] == 1);
    Client cid(server.port());
    CHECK(join(cid, code, "Cid")["seat"] == 2);
    ben.send({{"type", "leave"}});
    const json left = notice_of(cid, "left");
    CHECK(left["seat"] == 1);
    CHECK(left["name"] == "Ben");
    CHECK(left["text"].get<std::string>().find("seat 2") != std::string::npos);  // people count from 1
    // Cid is still seat 2 for everyone, and seat 1 is listed free.
    for (Client* c : {&ann, &cid}) {
        const json r = room_where(
            *c, [](const json& m) { return seat_in(m, 1)["free"] == true && seat_in(m, 2)["name"] == "Cid"; },
            "seat 1 free, Cid at seat 2");
        CHECK(seat_numbers(r) == std::vector<int>{0, 1, 2, 3});
        CHECK(seat_in(r, 2)["name"] == "Cid");
        CHECK(seat_in(r, 2)["status"] == "here");
        CHECK(seat_in(r, 1)["name"] == "");
        CHECK(seat_in(r, 3)["free"] == true);
        CHECK(r["options"]["players"] == 4);
    }
    // `-` removes the highest free seat: 3, then 1; with no free seat left it is refused.
    ann.send({{"type", "set_options"}, {"options", spook(3)}});
    const json seat_removed = notice_of(cid, "seat_removed");
    CHECK(seat_removed["seat"] == 3);
    CHECK(seat_removed["text"] == "Ann removed seat 4");
    json r = ann.expect("room");
    CHECK(seat_numbers(r) == std::vector<int>{0, 1, 2});
    CHECK(r["options"]["players"] == 3);
    ann.send({{"type", "set_options"}, {"options", spook(2)}});
    r = ann.expect("room");
    CHECK(seat_numbers(r) == std::vector<int>{0, 2});
    CHECK(seat_in(r, 2)["name"] == "Cid");
    ann.send({{"type", "set_options"}, {"options", spook(1)}});
    const json refused = ann.expect("error");
    CHECK(refused["code"] == "bad_field");
    CHECK(refused["ref"] == "set_options");
    // `+` adds the lowest unused number: 1, then 3.
    ann.send({{"type", "set_options"}, {"options", spook(3)}});
    const json seat_added = notice_of(cid, "seat_added");
    CHECK(seat_added["seat"] == 1);
    CHECK(seat_added["text"] == "Ann added seat 2");
    r = ann.expect("room");
    CHECK(seat_numbers(r) == std::vector<int>{0, 1, 2});
    CHECK(seat_in(r, 1)["free"] == true);
    ann.send({{"type", "set_options"}, {"options", spook(4)}});
    r = ann.expect("room");
    CHECK(seat_numbers(r) == std::vector<int>{0, 1, 2, 3});
    // A newcomer takes the lowest free seat, and `joined` says the true number.
    Client dan(server.port());
    CHECK(join(dan, code, "Dan")["seat"] == 1);
    Client eve(server.port());
    CHECK(join(eve, code, "Eve")["seat"] == 3);
    r = room_where(cid, [](const json& m) { return taken_seats(m).size() == 4; }, "four seats taken");
    CHECK(seat_in(r, 1)["name"] == "Dan");
    CHECK(seat_in(r, 2)["name"] == "Cid");
    CHECK(seat_in(r, 3)["name"] == "Eve");
}

TEST_CASE("party: when the host leaves the lobby the next player is told they are the host, and can add a bot and start [server][party]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, spook(3), "Ann", kFast);
    Client ben(server.port());
    join(ben, code, "Ben");
    Client cid(server.port());
    join(cid, code, "Cid");
    ann.send({{"type", "leave"}});
    const json host = notice_of(ben, "host");
    CHECK(host["seat"] == 1);
    CHECK(host["name"] == "Ben");
    CHECK(host["text"] == "Ben is the host now (Ann left)");
    CHECK(notice_of(cid, "host")["seat"] == 1);
    const json r = room_where(ben, [](const json& m) { return m["host"] == 1; }, "host 1");
    CHECK(seat_in(r, 0)["free"] == true);
    CHECK(seat_in(r, 1)["name"] == "Ben");
    // The new host's commands work: a bot takes the freed seat 0 (the lowest free), and start.
    ben.send({{"type", "add_bot"}, {"policy", "random"}});
    const json with_bot = room_where(ben, [](const json& m) { return seat_in(m, 0)["bot"] == true; }, "a bot at seat 0");
    CHECK(seat_in(with_bot, 0)["policy"] == "random");
    ben.send({{"type", "start"}});
    CHECK(ben.expect("commitment")["commitment"].get<std::string>().size() == 64);
}

TEST_CASE("party: a Spook game on seats 0 and 2 names seats 0 and 2 everywhere, and its record says room seat 2 [server][party][spook]") {
    TestServer server;
    const json record = play_on_seats_0_and_2(server, spook(3));
    CHECK(record["options"]["game"] == "spook");
}

TEST_CASE("party: a Ludo game on seats 0 and 2 names seats 0 and 2 everywhere, and its record says room seat 2 [server][party][ludo]") {
    TestServer server;
    const json record = play_on_seats_0_and_2(server, ludo(3));
    CHECK(record["options"]["game"] == "ludo");
}

// A Ludo game of Ann (the host, this client) and Ben, started; then Ben's connection drops
// (no leave). Returns the room's code and Ben's token.
std::pair<std::string, std::string> ludo_with_ben_dropped(TestServer& server, Client& ann) {
    const std::string code = create_room(ann, ludo(2), "Ann", kFast);
    Client ben(server.port());
    const std::string token = join(ben, code, "Ben")["token"];
    ann.send({{"type", "start"}});
    seed_and_start({&ben, &ann});
    ben.close();
    return {code, token};
}

// Seat 1's old token no longer takes it back; the host ends the game; in the lobby seat 1 is free.
void token_void_and_seat_1_free_after_the_game(TestServer& server, Client& ann, const std::string& code,
                                               const std::string& token) {
    Client back(server.port());
    back.hello();
    back.send({{"type", "resume"}, {"room", code}, {"token", token}});
    CHECK(back.expect("error")["code"] == "bad_token");
    ann.send({{"type", "end_game"}});
    CHECK(ann.expect("game_over")["status"] == "abandoned");
    const json lobby = room_where(ann, [](const json& m) { return m["state"] == "lobby"; }, "the lobby");
    CHECK(seat_in(lobby, 1)["free"] == true);
    CHECK(taken_seats(lobby).size() == 1);
}

TEST_CASE("party: a player who drops in a game is played by the server after the window and takes the seat back with the token [server][party]") {
    TestServer server(short_window(300));
    Client ann(server.port());
    const auto [code, token] = ludo_with_ben_dropped(server, ann);
    const json away = room_where(ann, [](const json& m) { return seat_in(m, 1)["status"] == "away"; }, "seat 1 away");
    CHECK(seat_in(away, 1)["connected"] == false);
    CHECK(notice_of(ann, "server_plays")["seat"] == 1);
    const json server_plays =
        room_where(ann, [](const json& m) { return seat_in(m, 1)["status"] == "server"; }, "seat 1 played by the server");
    CHECK(server_plays["state"] == "playing");
    CHECK(seat_in(server_plays, 1)["away"] == true);
    CHECK(seat_in(server_plays, 1)["name"] == "Ben");

    Client back(server.port());
    back.hello();
    back.send({{"type", "resume"}, {"room", code}, {"token", token}});
    const json joined = back.expect("joined");
    CHECK(joined["seat"] == 1);
    const json snapshot = back.expect("room");
    CHECK(seat_in(snapshot, 1)["status"] == "here");
    CHECK(seat_in(snapshot, 1)["connected"] == true);
    CHECK(notice_of(ann, "back")["seat"] == 1);
    // Ann answers what she was asked, and plays on; the next decision of seat 1 goes to Ben.
    for (auto it = ann.log().rbegin(); it != ann.log().rend(); ++it)
        if ((*it)["type"] == "decision") {
            ann.send({{"type", "choose"}, {"decision", (*it)["decision"]}, {"piece", (*it)["options"][0]["piece"]}});
            break;
        }
    auto ann_game = std::async(std::launch::async, [&] { return play_to_end(ann); });
    const json decision = back.expect("decision", 20s);
    CHECK(decision["seat"] == 1);
    back.send({{"type", "choose"}, {"decision", decision["decision"]}, {"piece", decision["options"][0]["piece"]}});
    CHECK(back.expect("choice_accepted")["decision"] == decision["decision"]);
    const json move = back.expect("move");
    CHECK(move["by"] == "player");
    play_to_end(back);
    CHECK(ann_game.get()["status"] == "finished");
}

TEST_CASE("party: a player who drops in the lobby keeps the seat, shown away, until the window is over, then it is free [server][party]") {
    TestServer server(short_window(300));
    Client ann(server.port());
    const std::string code = create_room(ann, spook(3), "Ann", kFast);
    auto ben = std::make_unique<Client>(server.port());
    join(*ben, code, "Ben");
    ben->close();
    ben.reset();
    const auto dropped = std::chrono::steady_clock::now();
    CHECK(notice_of(ann, "away")["seat"] == 1);
    const json away = room_where(ann, [](const json& m) { return seat_in(m, 1)["status"] == "away"; }, "seat 1 away");
    CHECK(seat_in(away, 1)["name"] == "Ben");
    CHECK(seat_in(away, 1)["connected"] == false);
    const json removed = notice_of(ann, "removed", 3s);
    CHECK(std::chrono::steady_clock::now() - dropped >= 250ms);
    CHECK(removed["seat"] == 1);
    CHECK(removed["name"] == "Ben");
    const json r = room_where(ann, [](const json& m) { return seat_in(m, 1)["free"] == true; }, "seat 1 free");
    CHECK(taken_seats(r).size() == 1);
}

TEST_CASE("party: a player who drops in the lobby and resumes within the window has the same seat number [server][party]") {
    TestServer server(short_window(3000));
    Client ann(server.port());
    const std::string code = create_room(ann, spook(4), "Ann", kFast);
    Client ben(server.port());
    join(ben, code, "Ben");
    auto cid = std::make_unique<Client>(server.port());
    const json joined = join(*cid, code, "Cid");
    CHECK(joined["seat"] == 2);
    cid->close();
    cid.reset();
    room_where(ann, [](const json& m) { return seat_in(m, 2)["status"] == "away"; }, "seat 2 away");
    // A newcomer meanwhile does not get Cid's seat.
    Client dan(server.port());
    CHECK(join(dan, code, "Dan")["seat"] == 3);
    Client back(server.port());
    back.hello();
    back.send({{"type", "resume"}, {"room", code}, {"token", joined["token"]}});
    const json again = back.expect("joined");
    CHECK(again["seat"] == 2);
    const json r = back.expect("room");
    CHECK(seat_in(r, 2)["name"] == "Cid");
    CHECK(seat_in(r, 2)["status"] == "here");
    CHECK(taken_seats(r).size() == 4);
    CHECK(notice_of(ann, "back")["seat"] == 2);
}

TEST_CASE("party: a resume from a connection already seated or watching is refused already_in_room and takes no second seat [server][party]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, spook(4), "Ann", kFast);
    Client ben(server.port());
    const std::string token = join(ben, code, "Ben")["token"];
    ann.send({{"type", "resume"}, {"room", code}, {"token", token}});
    const json refused = ann.expect("error");
    CHECK(refused["code"] == "already_in_room");
    CHECK(refused["ref"] == "resume");
    Client sam(server.port());
    sam.hello();
    sam.send({{"type", "watch"}, {"room", code}});
    CHECK(sam.expect("joined")["role"] == "spectator");
    const json seen = sam.expect("room");
    CHECK(taken_seats(seen).size() == 2);
    CHECK(seat_in(seen, 0)["name"] == "Ann");
    CHECK(seat_in(seen, 1)["name"] == "Ben");
    CHECK(seat_in(seen, 1)["connected"] == true);
    sam.send({{"type", "resume"}, {"room", code}, {"token", token}});
    CHECK(sam.expect("error")["code"] == "already_in_room");
    // Ben still sits there, on his own connection; Ann is still the host at seat 0.
    ben.send({{"type", "ping"}, {"t", 7}});
    CHECK(ben.expect("pong")["t"] == 7);
    ann.send({{"type", "add_bot"}});
    const json r = room_where(sam, [](const json& m) { return taken_seats(m).size() == 3; }, "three seats taken");
    CHECK(r["host"] == 0);
    CHECK(seat_in(r, 0)["name"] == "Ann");
    CHECK(seat_in(r, 1)["name"] == "Ben");
    CHECK(seat_in(r, 1)["status"] == "here");
    CHECK(seat_in(r, 2)["bot"] == true);
    for (const auto& m : ben.log()) CHECK(m["type"] != "closing");
}

TEST_CASE("party: a player kicked in a game is told why, the token is void, a bot plays the seat, and it is free after the game [server][party]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, ludo(2), "Ann", kFast);
    Client ben(server.port());
    const std::string token = join(ben, code, "Ben")["token"];
    ann.send({{"type", "start"}});
    seed_and_start({&ben, &ann});
    ann.send({{"type", "kick"}, {"seat", 1}});
    const json kicked = ben.expect("kicked");
    CHECK(kicked["room"] == code);
    CHECK(kicked["reason"] == "the host removed you from the room");
    const json notice = notice_of(ann, "kicked");
    CHECK(notice["seat"] == 1);
    CHECK(notice["name"] == "Ben");
    const json r = room_where(ann, [](const json& m) { return seat_in(m, 1)["kicked"] == true; }, "seat 1 kicked");
    CHECK(seat_in(r, 1)["bot"] == true);
    CHECK(seat_in(r, 1)["policy"] == "best");
    CHECK(r["state"] == "playing");
    token_void_and_seat_1_free_after_the_game(server, ann, code, token);
}

TEST_CASE("party: a player who leaves a game is shown left, the server plays the seat, the token is void, and it is free after the game [server][party]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, ludo(2), "Ann", kFast);
    Client ben(server.port());
    const std::string token = join(ben, code, "Ben")["token"];
    ann.send({{"type", "start"}});
    seed_and_start({&ben, &ann});
    ben.send({{"type", "leave"}});
    const json notice = notice_of(ann, "left");
    CHECK(notice["seat"] == 1);
    CHECK(notice["text"] == "Ben left: the server plays seat 2");
    const json r = room_where(ann, [](const json& m) { return seat_in(m, 1)["status"] == "left"; }, "seat 1 left");
    CHECK(seat_in(r, 1)["name"] == "Ben");
    CHECK(seat_in(r, 1)["away"] == true);
    CHECK(r["state"] == "playing");
    token_void_and_seat_1_free_after_the_game(server, ann, code, token);
}

TEST_CASE("party: a spectator who leaves a room nobody else is in closes it [server][party]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, spook(2), "Ann", kFast);
    Client sam(server.port());
    sam.hello();
    sam.send({{"type", "watch"}, {"room", code}});
    sam.expect("joined");
    ann.send({{"type", "leave"}});
    room_where(sam, [](const json& m) { return taken_seats(m).empty(); }, "no seat taken");
    CHECK(metric(server.port(), "spookludo_rooms") == 1);  // the spectator keeps it
    sam.send({{"type", "leave"}});
    CHECK(wait_metric(server.port(), "spookludo_rooms", 0));
    Client late(server.port());
    late.hello();
    late.send({{"type", "join_room"}, {"room", code}, {"name", "Dan"}});
    CHECK(late.expect("error")["code"] == "room_not_found");
}

TEST_CASE("party: the players see the number of spectators change when one comes and when one goes [server][party]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, spook(2), "Ann", kFast);
    {
        Client sam(server.port());
        sam.hello();
        sam.send({{"type", "watch"}, {"room", code}});
        sam.expect("joined");
        room_where(ann, [](const json& m) { return m["spectators"] == 1; }, "one spectator");
        Client tom(server.port());
        tom.hello();
        tom.send({{"type", "watch"}, {"room", code}});
        tom.expect("joined");
        room_where(ann, [](const json& m) { return m["spectators"] == 2; }, "two spectators");
        sam.send({{"type", "leave"}});
        room_where(ann, [](const json& m) { return m["spectators"] == 1; }, "one spectator after a leave");
    }  // tom's connection ends
    room_where(ann, [](const json& m) { return m["spectators"] == 0; }, "no spectator after a hang-up");
}

TEST_CASE("party: a choice during a pause is refused paused, and on resume the same decision comes back with its time kept [server][party]") {
    // 20 s to choose: the pause lands well inside it on a loaded machine too.
    TestServer server;
    Client ann(server.port());
    create_room(ann, spook(2), "Ann", json{{"pace_ms", 0}, {"decision_ms", 20000}});
    ann.send({{"type", "add_bot"}});
    ann.send({{"type", "start"}});
    seed_and_start(ann);
    const json decision = ann.expect("decision", 20s);
    ann.send({{"type", "pause"}});
    const json paused = notice_of(ann, "paused");
    CHECK(paused["seat"] == 0);
    CHECK(paused["name"] == "Ann");
    CHECK(paused["text"] == "Ann paused the game");
    CHECK(room_where(ann, [](const json& m) { return m["paused"] == true; }, "paused")["state"] == "playing");
    ann.send({{"type", "choose"}, {"decision", decision["decision"]}, {"piece", decision["options"][0]["piece"]}});
    const json refused = ann.expect("error");
    CHECK(refused["code"] == "paused");
    CHECK(refused["ref"] == "choose");
    // The pause lasts a second at least (from the paused notice to the resume).
    constexpr std::int64_t kPauseMs = 1000;
    std::this_thread::sleep_for(std::chrono::milliseconds(kPauseMs));
    ann.send({{"type", "resume_game"}});
    const json resumed = notice_of(ann, "resumed");
    CHECK(resumed["name"] == "Ann");
    CHECK(resumed["text"] == "Ann resumed the game");
    const json again = ann.expect("decision");
    CHECK(again["decision"] == decision["decision"]);
    // The time kept: the clock ran between the decision and the pause only. Of the server's time
    // between the two decision messages, the pause's second did not count; a clock that ran on
    // would have taken it (20 ms for the rounding of the figures).
    const auto between = again["server_time_ms"].get<std::int64_t>() - decision["server_time_ms"].get<std::int64_t>();
    const auto lost = decision["time_left_ms"].get<std::int64_t>() - again["time_left_ms"].get<std::int64_t>();
    CHECK_MESSAGE(lost <= between - kPauseMs + 20, "the decision lost ", lost, " ms of the ", between, " ms between its two messages");
    CHECK(again["time_left_ms"].get<int>() <= 20000);
    ann.send({{"type", "choose"}, {"decision", decision["decision"]}, {"piece", decision["options"][0]["piece"]}});
    CHECK(ann.expect("choice_accepted")["decision"] == decision["decision"]);
    for (const auto& m : ann.log()) CHECK(m["type"] != "decision_timeout");
}

TEST_CASE("party: a room with auto_start_ms fills its free seats with bots and starts by itself [server][party]") {
    TestServer server;
    Client ann(server.port());
    const auto created = std::chrono::steady_clock::now();
    create_room(ann, spook(3), "Ann", json{{"pace_ms", 0}, {"decision_ms", 60000}, {"auto_start_ms", 500}});
    const json lobby = ann.expect("room");
    REQUIRE(lobby.contains("auto_start_at_ms"));
    const auto at = lobby["auto_start_at_ms"].get<std::int64_t>() - lobby["server_time_ms"].get<std::int64_t>();
    CHECK(at > 300);
    CHECK(at <= 500);
    CHECK(lobby["settings"]["auto_start_ms"] == 500);
    const json notice = notice_of(ann, "auto_start", 3s);
    CHECK(std::chrono::steady_clock::now() - created >= 400ms);
    CHECK(notice["text"].get<std::string>().find("2 bots") != std::string::npos);
    const json started = seed_and_start(ann);
    CHECK(started["players"] == json::array({0, 1, 2}));
    const json r = room_where(ann, [](const json& m) { return m["state"] == "playing"; }, "the game");
    CHECK(seat_in(r, 1)["bot"] == true);
    CHECK(seat_in(r, 1)["policy"] == "best");
    CHECK(seat_in(r, 2)["bot"] == true);
    CHECK_FALSE(r.contains("auto_start_at_ms"));
}

TEST_CASE("party: a host who starts before the automatic start cancels it [server][party]") {
    TestServer server;
    Client ann(server.port());
    ann.hello();
    // The host's start right behind the room's creation (read in that order): it comes before the
    // automatic start's 500 ms even on a loaded machine, where a start sent only once the lobby
    // had come could come after them.
    ann.send({{"type", "create_room"}, {"options", spook(3)}, {"name", "Ann"},
              {"settings", {{"pace_ms", 0}, {"decision_ms", 60000}, {"auto_start_ms", 500}}}});
    ann.send({{"type", "start"}});
    CHECK(ann.expect("joined")["host"] == true);
    CHECK(ann.expect("room").contains("auto_start_at_ms"));
    const json started = seed_and_start(ann);
    CHECK(started["players"] == json::array({0}));  // no bot was added
    ann.send({{"type", "end_game"}});
    ann.expect("game_over");
    const json lobby = room_where(ann, [](const json& m) { return m["state"] == "lobby"; }, "the lobby");
    CHECK_FALSE(lobby.contains("auto_start_at_ms"));
    // Past the time it was set for, nothing starts by itself.
    for (const auto& m : drain(ann, 900ms)) {
        CHECK_FALSE((m["type"] == "notice" && m["kind"] == "auto_start"));
        CHECK(m["type"] != "commitment");
    }
}

TEST_CASE("party: a room whose game ends while every player is away closes after the reconnect window [server][party]") {
    // No drop grace: the server moves for Ann at once, so the game ends within the window (2 s:
    // the game, the spectator's leave and a look at /metrics fit in it on a loaded machine too).
    auto config = short_window(2000);
    config.drop_grace_ms = 0;
    TestServer server(config);
    auto ann = std::make_unique<Client>(server.port());
    const std::string code = create_room(*ann, spook(2), "Ann", kFast);
    ann->send({{"type", "add_bot"}});
    Client sam(server.port());
    sam.hello();
    sam.send({{"type", "watch"}, {"room", code}});
    sam.expect("joined");
    ann->send({{"type", "start"}});
    seed_and_start(*ann);
    ann->close();
    ann.reset();
    // The server plays Ann's seat; the game ends well within the window.
    const json over = sam.expect("game_over", 10s);
    CHECK(over["status"] == "finished");
    sam.send({{"type", "leave"}});
    CHECK(metric(server.port(), "spookludo_rooms") == 1);  // Ann's seat still waits for her
    CHECK(wait_metric(server.port(), "spookludo_rooms", 0, 10s));
    Client late(server.port());
    late.hello();
    late.send({{"type", "watch"}, {"room", code}});
    CHECK(late.expect("error")["code"] == "room_not_found");
}

TEST_CASE("party: a name over 24 characters is refused bad_name with the limit, never cut [server][party][names]") {
    TestServer server;
    const std::string long_name = "Maximilian Alexander Wolf";  // 25 characters
    const std::string just_right = "Maximilian Alexander Wol";  // 24
    Client c(server.port());
    c.hello();
    c.send({{"type", "create_room"}, {"options", spook(3)}, {"name", long_name}});
    json refused = c.expect("error");
    CHECK(refused["code"] == "bad_name");
    CHECK(refused["message"].get<std::string>().find("at most 24") != std::string::npos);
    Client ann(server.port());
    const std::string code = create_room(ann, spook(3), "Ann", kFast);
    c.send({{"type", "join_room"}, {"room", code}, {"name", long_name}});
    refused = c.expect("error");
    CHECK(refused["code"] == "bad_name");
    CHECK(refused["message"].get<std::string>().find("25 characters long: at most 24") != std::string::npos);
    c.send({{"type", "join_room"}, {"room", code}, {"name", just_right}});
    CHECK(c.expect("joined")["seat"] == 1);
    const json r = room_where(ann, [](const json& m) { return taken_seats(m).size() == 2; }, "two seats taken");
    CHECK(seat_in(r, 1)["name"] == just_right);
}

TEST_CASE("party: when a player leaves or is kicked while the seeds are collected, the game starts without waiting for their seed [server][party]") {
    auto config = TestServer::fast_config();
    config.seed_wait_ms = 10000;
    TestServer server(config);
    for (const std::string how : {"leave", "kick"}) {
        CAPTURE(how);
        Client ann(server.port());
        const std::string code = create_room(ann, ludo(3), "Ann", kFast);
        Client ben(server.port());
        join(ben, code, "Ben");
        ann.send({{"type", "start"}});
        ann.expect("commitment");
        ben.expect("commitment");
        ann.send({{"type", "client_seed"}, {"seed", "a"}});
        ann.expect("client_seed_accepted");
        const auto asked = std::chrono::steady_clock::now();
        if (how == "leave") ben.send({{"type", "leave"}});
        else ann.send({{"type", "kick"}, {"seat", 1}});
        // Well before the 10 s seed wait, with room for a loaded machine.
        const json started = ann.expect("game_started", 9s);
        CHECK(std::chrono::steady_clock::now() - asked < 8s);
        CHECK(started["players"] == json::array({0, 1}));
        ann.send({{"type", "end_game"}});
        ann.expect("game_over");
    }
}

TEST_CASE("party: a player who does not come back before the game ends loses the seat: it is free in the lobby and the token is refused [server][party]") {
    TestServer server(short_window(300));
    Client ann(server.port());
    const auto [code, token] = ludo_with_ben_dropped(server, ann);
    room_where(ann, [](const json& m) { return seat_in(m, 1)["status"] == "server"; }, "seat 1 played by the server");
    ann.send({{"type", "end_game"}});
    ann.expect("game_over");
    const json lobby = room_where(ann, [](const json& m) { return m["state"] == "lobby"; }, "the lobby");
    CHECK(seat_in(lobby, 1)["free"] == true);
    Client back(server.port());
    back.hello();
    back.send({{"type", "resume"}, {"room", code}, {"token", token}});
    CHECK(back.expect("error")["code"] == "bad_token");
}

TEST_CASE("party: when the host leaves a game the next player present is the host and can pause and end it [server][party]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, ludo(3), "Ann", kFast);
    Client ben(server.port());
    join(ben, code, "Ben");
    ann.send({{"type", "start"}});
    seed_and_start({&ben, &ann});
    ann.send({{"type", "leave"}});
    const json host = notice_of(ben, "host");
    CHECK(host["seat"] == 1);
    CHECK(host["text"] == "Ben is the host now (Ann left)");
    CHECK(room_where(ben, [](const json& m) { return m["host"] == 1; }, "host 1")["state"] == "playing");
    ben.send({{"type", "pause"}});
    CHECK(notice_of(ben, "paused")["text"] == "Ben paused the game");
    ben.send({{"type", "end_game"}});
    CHECK(ben.expect("game_over")["status"] == "abandoned");
}

TEST_CASE("party: a Spook game's arrays by seat have one entry per room seat, a free last seat included [server][party][spook]") {
    TestServer server;
    Client ann(server.port());
    create_room(ann, spook(4), "Ann", kFast);
    ann.send({{"type", "add_bot"}});
    ann.send({{"type", "start"}});
    const json started = seed_and_start(ann);
    CHECK(started["players"] == json::array({0, 1}));
    CHECK(started["assignment"].size() == 4);
    const json r = room_where(ann, [](const json& m) { return m.contains("game"); }, "the game");
    CHECK(r["game"]["boards"].size() == 4);
    CHECK(r["game"]["positions"].size() == 4);
    CHECK(r["game"]["finished_round"].size() == 4);
    CHECK(r["game"]["boards"][3] == "");
    ann.send({{"type", "end_game"}});
    CHECK(ann.expect("game_over")["places"].size() == 4);
}

namespace {

// A Spook game of Ben (the host, seat 0) and a server bot, watched by `sam` when given; returns
// Ben's first decision (unanswered), his token and the room code. Ben's are the only decisions
// anyone waits for.
struct BenInADecision {
    std::string code, token;
    json decision;
};
BenInADecision ben_in_a_decision(Client& ben, Client* sam = nullptr) {
    BenInADecision out;
    out.code = create_room(ben, spook(2), "Ben", kFast);
    for (const auto& m : ben.log())
        if (m["type"] == "joined") out.token = m.value("token", "");
    ben.send({{"type", "add_bot"}, {"policy", "best"}});
    if (sam) {
        sam->hello();
        sam->send({{"type", "watch"}, {"room", out.code}});
        sam->expect("joined");
    }
    ben.send({{"type", "start"}});
    seed_and_start(ben);
    out.decision = ben.expect("decision", 30s);
    return out;
}

server::Config drop_grace(int ms) {
    auto c = TestServer::fast_config();
    c.drop_grace_ms = ms;
    return c;
}

}  // namespace

TEST_CASE("party: a player whose connection drops in a decision takes the seat back within the drop grace and answers the same decision [server][party]") {
    TestServer server(drop_grace(8000));
    Client ben(server.port());
    const auto [code, token, decision] = ben_in_a_decision(ben);
    ben.close();  // a refreshed page, a phone that slept
    std::this_thread::sleep_for(500ms);
    Client back(server.port());
    CHECK(resume(back, code, token)["seat"] == 0);
    // The decision is still open: the same one, with the time it has left.
    const json again = back.expect("decision");
    CHECK(again["decision"] == decision["decision"]);
    CHECK(again["time_left_ms"].get<int>() > 50000);
    back.send({{"type", "choose"}, {"decision", again["decision"]}, {"piece", again["options"][0]["piece"]}});
    CHECK(back.expect("choice_accepted")["decision"] == decision["decision"]);
    // Ben's move of that round is his own.
    const json moves = next_of(back, [](const json& m) { return m["type"] == "moves"; }, "the round's moves", 10s);
    for (const auto& mv : moves["moves"])
        if (mv["seat"] == 0) CHECK(mv["by"] == "player");
    CHECK(play_to_end(back, 60s)["status"] == "finished");
}

TEST_CASE("party: a dropped player's open decision is played as away when the drop grace is over, long before its own time, and their later ones at once [server][party][rules]") {
    TestServer server(drop_grace(400));
    Client ben(server.port());
    Client sam(server.port());
    const auto [code, token, decision] = ben_in_a_decision(ben, &sam);
    const auto dropped = std::chrono::steady_clock::now();
    ben.close();
    // Ben's is made by the server about 0.4 s after the drop (his own time is a minute): the
    // round's moves, as the spectator sees them, show it made "away".
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
    // Away past the grace: each of Ben's decisions is played at once (a minute each otherwise),
    // so the game ends well within a minute.
    const json over = next_of(sam, [](const json& m) { return m["type"] == "game_over"; }, "the end", 40s);
    CHECK(over["status"] == "finished");
}

TEST_CASE("party: a pause holds a dropped player's decision for as long as it lasts [server][party]") {
    TestServer server(drop_grace(300));
    Client ben(server.port());
    const auto [code, token, decision] = ben_in_a_decision(ben);
    ben.send({{"type", "pause"}});
    room_where(ben, [](const json& m) { return m["paused"] == true; }, "the pause");
    ben.close();
    std::this_thread::sleep_for(1200ms);  // four times the grace, paused
    Client back(server.port());
    resume(back, code, token);
    const json again = back.expect("decision");
    CHECK(again["decision"] == decision["decision"]);
    back.send({{"type", "resume_game"}});
    const json asked = back.expect("decision");  // asked again when play resumes
    CHECK(asked["decision"] == decision["decision"]);
    back.send({{"type", "choose"}, {"decision", asked["decision"]}, {"piece", asked["options"][0]["piece"]}});
    CHECK(back.expect("choice_accepted")["decision"] == decision["decision"]);
}

TEST_CASE("party: a seat taken back from another connection closes the old one with the code replaced [server][party]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, spook(2), "Ann", kFast);
    Client ben(server.port());
    const std::string token = join(ben, code, "Ben")["token"];
    Client tab(server.port());
    tab.hello();
    tab.send({{"type", "resume"}, {"room", code}, {"token", token}});
    CHECK(tab.expect("joined")["seat"] == 1);
    const json closing = ben.expect("closing");
    CHECK(closing["code"] == "replaced");
    CHECK(closing["reason"].get<std::string>().find("another connection") != std::string::npos);
}

TEST_CASE("party: a server going away for good (abandon_on_exit) closes every connection with the code shutdown [server][party]") {
    auto config = TestServer::fast_config();
    config.abandon_on_exit = true;
    TestServer server(config);
    Client ann(server.port());
    create_room(ann, spook(2), "Ann", kFast);
    server.shutdown();
    CHECK(ann.expect("closing")["code"] == "shutdown");
}

TEST_CASE("party: a restarting server closes every connection with the code restart, saying the room is saved [server][party]") {
    TestServer server;
    Client ann(server.port());
    create_room(ann, spook(2), "Ann", kFast);
    server.shutdown();
    const json closing = ann.expect("closing");
    CHECK(closing["code"] == "restart");
    CHECK(closing["reason"].get<std::string>().find("saved") != std::string::npos);
}

TEST_CASE("party: the lobby after a game keeps how it ended (last_game) for a player who comes back later [server][party]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, spook(2), "Ann", kFast);
    std::string token;
    for (const auto& m : ann.log())
        if (m["type"] == "joined") token = m.value("token", "");
    ann.send({{"type", "add_bot"}, {"policy", "best"}});
    ann.send({{"type", "start"}});
    seed_and_start(ann);
    const json over = play_to_end(ann, 60s);
    const json lobby = room_where(ann, [](const json& m) { return m["state"] == "lobby"; }, "the lobby");
    REQUIRE(lobby.contains("last_game"));
    CHECK(lobby["last_game"]["game_id"] == over["game_id"]);
    CHECK(lobby["last_game"]["winners"] == over["winners"]);
    CHECK(lobby["last_game"]["record"] == over["record"]);
    // A page that comes back with the token sees it in its first snapshot.
    Client back(server.port());
    back.hello();
    REQUIRE(!token.empty());
    back.send({{"type", "resume"}, {"room", code}, {"token", token}});
    back.expect("joined");
    CHECK(back.expect("room")["last_game"]["game_id"] == over["game_id"]);
}

TEST_CASE("party: a spectator takes a free seat for the rematch with join_room in the lobby, and keeps watching when refused [server][party][issue34-7]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, spook(3), "Ann", kFast);
    ann.send({{"type", "add_bot"}, {"policy", "best"}});
    ann.send({{"type", "start"}});
    ann.expect("commitment");
    // Sam arrives after the start: a spectator.
    Client sam(server.port());
    sam.hello();
    sam.send({{"type", "join_room"}, {"room", code}, {"name", "Sam"}});
    CHECK(sam.expect("joined")["role"] == "spectator");
    // During the game a seat cannot be taken: refused, and Sam still watches.
    sam.send({{"type", "join_room"}, {"room", code}, {"name", "Sam"}});
    const json during = next_of(sam, [](const json& m) { return m["type"] == "error"; }, "the refusal");
    CHECK(during["code"] == "already_in_room");
    CHECK(during["ref"] == "join_room");
    ann.send({{"type", "client_seed"}, {"seed", "ann's"}});
    ann.expect("game_started", 10s);
    play_to_end(ann, 60s);
    const json lobby = room_where(sam, [](const json& m) { return m["state"] == "lobby"; }, "the rematch lobby");
    CHECK(lobby["spectators"] == 1);
    CHECK(seat_in(lobby, 2)["free"] == true);
    // A name taken in the room is refused; Sam is still a spectator (and still told everything).
    sam.send({{"type", "join_room"}, {"room", code}, {"name", "Ann"}});
    const json taken = next_of(sam, [](const json& m) { return m["type"] == "error"; }, "name_taken");
    CHECK(taken["code"] == "name_taken");
    ann.send({{"type", "set_settings"}, {"settings", {{"hints", true}}}});
    room_where(sam, [](const json& m) { return m["settings"]["hints"] == true; }, "the spectator still hears the room");
    // Then Sam sits down: the free seat, a token, one spectator fewer, a story line for everyone.
    sam.send({{"type", "join_room"}, {"room", code}, {"name", "Sam"}});
    const json seated = sam.expect("joined");
    CHECK(seated["role"] == "player");
    CHECK(seated["seat"] == 2);
    CHECK(seated["token"].is_string());
    const json notice = notice_of(ann, "joined");
    CHECK(notice["text"] == "Sam sits at seat 3");
    const json r = room_where(ann, [](const json& m) { return seat_in(m, 2)["name"] == "Sam"; }, "Sam at seat 2");
    CHECK(r["spectators"] == 0);
    CHECK(seat_in(r, 2)["status"] == "here");
    // Seated, a second join_room is the old refusal; the rematch plays Sam's seat.
    sam.send({{"type", "join_room"}, {"room", code}, {"name", "Sam"}});
    CHECK(next_of(sam, [](const json& m) { return m["type"] == "error"; }, "already seated")["code"] == "already_in_room");
    ann.send({{"type", "start"}});
    const json started = seed_and_start({&ann, &sam});
    CHECK(started["players"] == json::array({0, 1, 2}));
}

TEST_CASE("party: welcome says where others reach the server: its --public-url [server][party]") {
    auto config = TestServer::fast_config();
    config.public_url = "https://party.example.org";
    TestServer server(config);
    Client c(server.port());
    c.send({{"type", "hello"}, {"protocol", 1}});
    const json welcome = c.expect("welcome");
    CHECK(welcome["public_url"] == "https://party.example.org");
    // Bound to loopback: no network address to offer.
    CHECK_FALSE(welcome.contains("lan_urls"));
}

TEST_CASE("party pace: a room's pause ends on the step grid, never early and less than a tick late, the tick shortens as more steps fall due (8 ms at most, 1 ms at least), short pauses stay exact") {
    using namespace std::chrono_literals;
    using server::GridClock;
    server::StepGrid grid;
    const GridClock::time_point t0{std::chrono::hours(100)};
    CHECK(grid.deadline(t0, 100ms) == t0 + 100ms);  // a fast room's pause is not moved

    auto placed_well = [&](GridClock::time_point now, GridClock::duration after) {
        const auto at = grid.deadline(now, after);
        const auto tick = grid.tick();
        CHECK(at >= now + after);
        CHECK(at - (now + after) < tick);
        CHECK(at.time_since_epoch() % tick == GridClock::duration::zero());
    };
    placed_well(t0, 1000ms);
    CHECK(grid.tick() == 8ms);

    // Steps at a rate for a second, then one more: the tick follows the rate.
    auto second_at = [&](GridClock::time_point from, int per_second) {
        for (int i = 0; i < per_second; ++i) grid.deadline(from + i * std::chrono::nanoseconds(1s) / per_second, 1s);
        placed_well(from + 1s, 1s);
        return from + 1s;
    };
    auto t = second_at(t0, 999);  // 1,000 rooms stepping every second
    CHECK(grid.tick() == 8ms);
    t = second_at(t, 4500);  // 4,500 rooms
    CHECK(grid.tick() > 1700us);
    CHECK(grid.tick() < 1900us);
    t = second_at(t, 100000);
    CHECK(grid.tick() == 1ms);
    t = second_at(t, 300);  // back to a few rooms
    CHECK(grid.tick() == 8ms);
}

TEST_CASE("party: while a Spook round waits for choices the snapshot marks who is still choosing and when their time is up, and a new one shows the list shrink after a choice [server][party][issue34]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, spook(3), "Ann", json{{"pace_ms", 0}, {"decision_ms", 20000}});
    Client ben(server.port());
    join(ben, code, "Ben");
    Client cid(server.port());
    join(cid, code, "Cid");
    Client eve(server.port());  // a spectator: snapshots, no decisions
    eve.hello();
    eve.send({{"type", "watch"}, {"room", code}});
    eve.expect("joined");
    ann.send({{"type", "start"}});
    seed_and_start({&ann, &ben, &cid});
    Client* by_seat[] = {&ann, &ben, &cid};
    const auto choosing = [](const json& room) {
        std::vector<int> seats;
        for (const auto& s : room["seats"])
            if (s.value("choosing", false)) seats.push_back(s["seat"].get<int>());
        return seats;
    };
    const auto answer = [&](int seat) {
        Client& c = *by_seat[seat];
        const json d = c.expect("decision", 10s);
        c.send({{"type", "choose"}, {"decision", d["decision"]}, {"piece", d["options"][0]["piece"]}});
        c.expect("choice_accepted");
    };
    // Rounds go by (the players answer at once) until one asks two players or more (a round asks
    // only those whose options differ).
    bool shrank = false;
    for (int round = 0; round < 30 && !shrank; ++round) {
        const json asked = room_where(eve, [](const json& m) { return m.contains("decision_deadline_ms"); }, "a step that waits", 10s);
        const auto seats = choosing(asked);
        REQUIRE_FALSE(seats.empty());
        const auto left = asked["decision_deadline_ms"].get<std::int64_t>() - asked["server_time_ms"].get<std::int64_t>();
        CHECK(left > 18000);
        CHECK(left <= 20000);
        if (seats.size() < 2) {
            answer(seats[0]);
            continue;
        }
        // One of them chooses: everyone is told the others still choose, by the same deadline.
        answer(seats[0]);
        const json after = room_where(eve, [&](const json& m) { return !seat_in(m, seats[0]).value("choosing", false); },
                                      "one fewer choosing");
        CHECK(choosing(after) == std::vector<int>(seats.begin() + 1, seats.end()));
        CHECK(after["decision_deadline_ms"] == asked["decision_deadline_ms"]);
        shrank = true;
        for (std::size_t i = 1; i < seats.size(); ++i) answer(seats[i]);
        // The round is over: the next snapshot waits for the next step's choices, if any.
        const json moves = next_of(eve, [](const json& m) { return m["type"] == "moves"; }, "the round's moves");
        CHECK(moves["moves"].size() == 3);
    }
    CHECK(shrank);
}
