// The host's role belongs to the host's seat (issue #34, item 2): a dropped connection, a guest's
// refreshed page or a server restart leaves it where it is; leaving on purpose or staying away past
// the reconnect window moves it, once, with a notice that says why. Over the real server on
// loopback, in the lobby and in games of both kinds.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "harness.h"

using namespace spookludo;
using namespace spookludo::testing;

namespace {

json options_for(const std::string& game) {
    return game == "spook" ? json{{"game", "spook"}, {"players", 3}, {"pieces", 2}} : json{{"game", "ludo"}, {"players", 3}};
}
const json kSlow{{"pace_ms", 0}, {"decision_ms", 60000}};

// The `host` notices a client has read so far.
int host_notices(const Client& c) {
    int n = 0;
    for (const auto& m : c.log())
        if (m["type"] == "notice" && m["kind"] == "host") ++n;
    return n;
}
// Starts the game and sends every player's seed; waits until each has game_started.
void start(Client& host, std::initializer_list<Client*> players) {
    host.send({{"type", "start"}});
    for (Client* c : players) {
        c->expect("commitment");
        c->send({{"type", "client_seed"}, {"seed", "seed"}});
    }
    for (Client* c : players) c->expect("game_started", 10s);
}
// A host-only command from `c`, answered: pause then resume (in a game) or a new decision time
// (any time; each call asks for another, so an earlier snapshot cannot pass for the answer).
std::string try_host_command(Client& c, bool in_game) {
    static int calls = 0;
    const int decision_ms = 20000 + 1000 * ++calls;
    // What came before (another's pause, an earlier snapshot) is read past first.
    c.send({{"type", "ping"}, {"t", calls}});
    next_of(c, [&](const json& m) { return m["type"] == "pong" && m["t"] == calls; }, "the pong");
    c.send(in_game ? json{{"type", "pause"}} : json{{"type", "set_settings"}, {"settings", {{"decision_ms", decision_ms}}}});
    const json answer = next_of(
        c,
        [&](const json& m) {
            return m["type"] == "error" || (m["type"] == "notice" && m["kind"] == "paused") ||
                   (m["type"] == "room" && m["settings"]["decision_ms"] == decision_ms);
        },
        "the answer to a host's command");
    if (answer["type"] == "error") return answer["code"];
    if (in_game) c.send({{"type", "resume_game"}});
    return "ok";
}

}  // namespace

TEST_CASE("host role: a dropped host keeps the role in the lobby and in Ludo and Spook games, nobody else gets it, and the token brings the host back as host [server][host]") {
    for (const std::string game : {"ludo", "spook"})
        for (const bool in_game : {false, true}) {
            CAPTURE(game);
            CAPTURE(in_game);
            TestServer server;
            Client ann(server.port());
            const std::string code = create_room(ann, options_for(game), "Ann", kSlow);
            const std::string ann_token = token_of(ann);
            Client ben(server.port()), cid(server.port());
            join(ben, code, "Ben");
            join(cid, code, "Cid");
            if (in_game) start(ann, {&ann, &ben, &cid});
            ann.close();  // kill -9 of the host's client
            notice_of(ben, "away");
            const json away = room_where(ben, [](const json& r) { return r["seats"][0]["connected"] == false; }, "Ann away");
            CHECK(away["host"] == 0);
            CHECK(host_notices(ben) == 0);
            CHECK(try_host_command(ben, in_game) == "not_host");
            // The same token: the seat, and the role.
            Client back(server.port());
            const json joined = resume(back, code, ann_token);
            CHECK(joined["seat"] == 0);
            CHECK(joined["host"] == true);
            const json here = room_where(cid, [](const json& r) { return r["seats"][0]["connected"] == true; }, "Ann back");
            CHECK(here["host"] == 0);
            CHECK(try_host_command(back, in_game) == "ok");
            CHECK(host_notices(cid) == 0);
        }
}

TEST_CASE("host role: a guest who refreshes the page (drop and resume within a second) does not move the host, in the lobby and in a game [server][host]") {
    for (const bool in_game : {false, true}) {
        CAPTURE(in_game);
        TestServer server;
        Client ann(server.port());
        const std::string code = create_room(ann, options_for("spook"), "Ann", kSlow);
        auto ben = std::make_unique<Client>(server.port());
        join(*ben, code, "Ben");
        const std::string ben_token = token_of(*ben);
        if (in_game) start(ann, {&ann, ben.get()});
        for (int refresh = 0; refresh < 3; ++refresh) {
            ben->close();
            notice_of(ann, "away");
            ben = std::make_unique<Client>(server.port());
            resume(*ben, code, ben_token);
            const json r = room_where(ann, [](const json& m) { return m["seats"][1]["connected"] == true; }, "Ben back");
            CHECK(r["host"] == 0);
        }
        CHECK(host_notices(ann) == 0);
        CHECK(try_host_command(ann, in_game) == "ok");
        CHECK(try_host_command(*ben, in_game) == "not_host");
    }
}

TEST_CASE("host role: a host who leaves a Ludo or Spook game on purpose hands the role on once, with a notice saying why, and coming back by token does not take it back [server][host]") {
    for (const std::string game : {"ludo", "spook"}) {
        CAPTURE(game);
        TestServer server;
        Client ann(server.port());
        const std::string code = create_room(ann, options_for(game), "Ann", kSlow);
        Client ben(server.port()), cid(server.port());
        join(ben, code, "Ben");
        join(cid, code, "Cid");
        start(ann, {&ann, &ben, &cid});
        ann.send({{"type", "leave"}});
        const json host = notice_of(cid, "host");
        CHECK(host["seat"] == 1);
        CHECK(host["text"] == "Ben is the host now (Ann left)");
        CHECK(room_where(cid, [](const json& r) { return r["host"] == 1; }, "Ben hosts")["state"] == "playing");
        CHECK(try_host_command(ben, true) == "ok");
        CHECK(host_notices(cid) == 1);
    }
}

TEST_CASE("host role: a host away past the reconnect window hands the role on once (lobby: the seat is freed, game: the server plays it), and is a guest on coming back [server][host]") {
    for (const bool in_game : {false, true}) {
        CAPTURE(in_game);
        auto config = TestServer::fast_config();
        config.reconnect_ms = 400;
        config.drop_grace_ms = 0;
        TestServer server(config);
        Client ann(server.port());
        const std::string code = create_room(ann, options_for("ludo"), "Ann", kSlow);
        const std::string ann_token = token_of(ann);
        Client ben(server.port()), cid(server.port());
        join(ben, code, "Ben");
        join(cid, code, "Cid");
        if (in_game) start(ann, {&ann, &ben, &cid});
        ann.close();
        const json host = notice_of(cid, "host", 5s);
        CHECK(host["seat"] == 1);
        CHECK(host["text"] == "Ben is the host now (Ann did not come back)");
        const json r = room_where(cid, [](const json& m) { return m["host"] == 1; }, "Ben hosts");
        if (!in_game) CHECK(r["seats"][0]["free"] == true);
        if (in_game) {
            CHECK(r["seats"][0]["status"] == "server");
            // Ann's token still takes her seat back, as a guest.
            Client back(server.port());
            const json joined = resume(back, code, ann_token);
            CHECK(joined["host"] == false);
            CHECK(room_where(cid, [](const json& m) { return m["seats"][0]["connected"] == true; }, "Ann back")["host"] == 1);
            CHECK(try_host_command(back, true) == "not_host");
        }
        CHECK(try_host_command(ben, in_game) == "ok");
        CHECK(host_notices(cid) == 1);
    }
}

TEST_CASE("host role: after a server restart the host's seat keeps the role, whoever comes back first, in a Ludo lobby and a Spook game [server][host][journal]") {
    for (const bool in_game : {false, true}) {
        CAPTURE(in_game);
        auto config = TestServer::fast_config();
        config.reconnect_ms = 60000;
        std::string code, ann_token, ben_token;
        {
            auto first = std::make_unique<TestServer>(config);
            first->keep_data_dir();
            Client ann(first->port()), ben(first->port());
            code = create_room(ann, options_for(in_game ? "spook" : "ludo"), "Ann", kSlow);
            ann_token = token_of(ann);
            join(ben, code, "Ben");
            ben_token = token_of(ben);
            if (in_game) start(ann, {&ann, &ben});
            first->shutdown();
        }
        TestServer second(config);
        Client ben(second.port());
        CHECK(resume(ben, code, ben_token)["host"] == false);  // Ben is back first
        const json r = ben.expect("room");
        CHECK(r["host"] == 0);
        CHECK(try_host_command(ben, false) == "not_host");
        Client ann(second.port());
        CHECK(resume(ann, code, ann_token)["host"] == true);
        CHECK(room_where(ben, [](const json& m) { return m["seats"][0]["connected"] == true; }, "Ann back")["host"] == 0);
        CHECK(host_notices(ben) == 0);
        CHECK(try_host_command(ann, false) == "ok");
    }
}
