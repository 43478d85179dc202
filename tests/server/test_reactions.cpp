// Quick reactions (issue 36, part 4): a fixed set, sent by players (and by spectators when the
// host allows it), told to everyone in the room with the sender's name and seat, bounded per
// sender (one every 2 s) and per room (4 a second), never seen in another room. Over the real
// server on loopback.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness.h"

using namespace spookludo;
using namespace spookludo::testing;

namespace {

const json kLudo3{{"game", "ludo"}, {"players", 3}};
const json kSlow{{"pace_ms", 0}, {"decision_ms", 60000}};

bool is_reaction(const json& m) { return m["type"] == "reaction"; }
// The reactions a client has read so far.
int reactions_seen(const Client& c) {
    int n = 0;
    for (const auto& m : c.log()) n += is_reaction(m) ? 1 : 0;
    return n;
}
// Reads past everything the server had queued for `c` before this call (its pong comes after).
void drain(Client& c) {
    static int t = 0;
    const int mine = ++t;
    c.send({{"type", "ping"}, {"t", mine}});
    next_of(c, [&](const json& m) { return m["type"] == "pong" && m["t"] == mine; }, "the pong");
}
json react(Client& c, const std::string& id) {
    c.send({{"type", "react"}, {"reaction", id}});
    return next_of(c, [](const json& m) { return is_reaction(m) || (m["type"] == "error" && m["ref"] == "react"); },
                   "the reaction or its refusal");
}
void watch(Client& c, const std::string& code) {
    c.hello();
    c.send({{"type", "watch"}, {"room", code}});
    c.expect("joined");
}

}  // namespace

TEST_CASE("reactions: a player's reaction reaches every player and spectator of the room with the sender's seat and name, in the lobby, in a game and after it, and another room sees none [server][reactions]") {
    TestServer server;
    Client ann(server.port()), ben(server.port()), cid(server.port()), sam(server.port());
    const std::string code = create_room(ann, kLudo3, "Ann", kSlow);
    join(ben, code, "Ben");
    join(cid, code, "Cid");
    watch(sam, code);
    // Another room beside it, with a player and a spectator.
    Client zoe(server.port()), tom(server.port());
    const std::string other = create_room(zoe, kLudo3, "Zoe", kSlow);
    watch(tom, other);

    auto everyone_sees = [&](const std::string& name, int seat, const std::string& id, const std::string& label) {
        for (Client* c : {&ann, &ben, &cid, &sam}) {
            const json r = next_of(*c, is_reaction, "the reaction");
            CHECK(r["seat"] == seat);
            CHECK(r["name"] == name);
            CHECK(r["role"] == "player");
            CHECK(r["reaction"] == id);
            CHECK(r["label"] == label);
        }
    };
    // The lobby.
    ann.send({{"type", "react"}, {"reaction", "good_luck"}});
    everyone_sees("Ann", 0, "good_luck", "good luck");
    // A game.
    ann.send({{"type", "start"}});
    for (Client* c : {&ann, &ben, &cid}) {
        c->expect("commitment");
        c->send({{"type", "client_seed"}, {"seed", "s"}});
    }
    for (Client* c : {&ann, &ben, &cid}) c->expect("game_started");
    ben.send({{"type", "react"}, {"reaction", "thumbs_up"}});
    everyone_sees("Ben", 1, "thumbs_up", "\U0001F44D");
    // After it (the host ends it: the room is back in its lobby).
    ann.send({{"type", "end_game"}});
    for (Client* c : {&ann, &ben, &cid, &sam}) c->expect("game_over");
    cid.send({{"type", "react"}, {"reaction", "well_played"}});
    everyone_sees("Cid", 2, "well_played", "well played");

    for (Client* c : {&zoe, &tom}) {
        drain(*c);
        CHECK(reactions_seen(*c) == 0);
    }
    const auto metrics = http_get(server.port(), "/metrics").second;
    CHECK(metrics.find("spookludo_reactions_total 3") != std::string::npos);
}

TEST_CASE("reactions: a second reaction within 2 s is refused rate_limited with the time to wait, nobody sees it, and after the wait one goes through [server][reactions]") {
    TestServer server;
    Client ann(server.port()), ben(server.port());
    const std::string code = create_room(ann, kLudo3, "Ann", kSlow);
    join(ben, code, "Ben");
    // Both sent at once: the second comes within 2 s of the first however slow the machine.
    ann.send({{"type", "react"}, {"reaction", "phew"}});
    ann.send({{"type", "react"}, {"reaction", "nooo"}});
    const auto reaction_or_refusal = [](const json& m) { return is_reaction(m) || (m["type"] == "error" && m["ref"] == "react"); };
    CHECK(next_of(ann, reaction_or_refusal, "the first reaction")["type"] == "reaction");
    const json refused = next_of(ann, reaction_or_refusal, "the second's refusal");
    next_of(ben, is_reaction, "Ann's first reaction");
    CHECK(refused["type"] == "error");
    CHECK(refused["code"] == "rate_limited");
    const auto wait = refused["retry_after_ms"].get<int>();
    CHECK(wait > 0);
    CHECK(wait <= 2000);
    CHECK(refused["message"].get<std::string>().find("one reaction every 2 s") != std::string::npos);
    drain(ann);  // the room has taken the refused one
    drain(ben);
    CHECK(reactions_seen(ben) == 1);
    // Ben is not held up by Ann's wait.
    CHECK(react(ben, "laugh")["type"] == "reaction");
    drain(ann);  // past Ben's reaction
    // The wait is a real one: the same sender after it is taken.
    std::this_thread::sleep_for(std::chrono::milliseconds(wait));
    const json again = react(ann, "nooo");
    CHECK(again["type"] == "reaction");
    CHECK(again["name"] == "Ann");
}

TEST_CASE("reactions: spectators are refused until the host allows it with set_settings (the snapshot says so), then theirs reach the players as a spectator's [server][reactions]") {
    TestServer server;
    Client ann(server.port()), sam(server.port());
    const std::string code = create_room(ann, kLudo3, "Ann", kSlow);
    watch(sam, code);
    const json lobby = room_where(sam, [](const json& r) { return r["spectators"] == 1; }, "Sam watching");
    CHECK(lobby["settings"]["spectator_reactions"] == false);
    const json refused = react(sam, "scared");
    CHECK(refused["type"] == "error");
    CHECK(refused["code"] == "not_a_player");
    CHECK(refused["message"].get<std::string>().find("spectator_reactions") != std::string::npos);
    drain(ann);
    CHECK(reactions_seen(ann) == 0);
    // A spectator cannot change the setting; the host can.
    sam.send({{"type", "set_settings"}, {"settings", {{"spectator_reactions", true}}}});
    CHECK(next_of(sam, [](const json& m) { return m["type"] == "error"; }, "the refusal")["code"] == "not_host");
    ann.send({{"type", "set_settings"}, {"settings", {{"spectator_reactions", true}}}});
    room_where(sam, [](const json& r) { return r["settings"]["spectator_reactions"] == true; }, "the setting on");
    const json r = react(sam, "ghost");
    CHECK(r["type"] == "reaction");
    const json seen = next_of(ann, is_reaction, "Sam's reaction");
    CHECK(seen["role"] == "spectator");
    CHECK(seen["seat"] == -1);
    CHECK(seen["name"] == "a spectator");
    CHECK(seen["reaction"] == "ghost");
}

TEST_CASE("reactions: a flood from 16 spectators is bounded per room: at most 4 at once and 4 a second reach the players, the rest are refused rate_limited [server][reactions]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, kLudo3, "Ann", json{{"pace_ms", 0}, {"spectator_reactions", true}});
    std::vector<std::unique_ptr<Client>> crowd;
    for (int i = 0; i < 16; ++i) {
        crowd.push_back(std::make_unique<Client>(server.port()));
        watch(*crowd.back(), code);
    }
    const auto start = std::chrono::steady_clock::now();
    for (auto& c : crowd) c->send({{"type", "react"}, {"reaction", "laugh"}});
    int refused = 0;
    for (auto& c : crowd) {
        drain(*c);
        for (const auto& m : c->log())
            if (m["type"] == "error" && m["ref"] == "react") {
                CHECK(m["code"] == "rate_limited");
                CHECK(m["message"].get<std::string>().find("this room has had its reactions") != std::string::npos);
                ++refused;
            }
    }
    drain(ann);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const int told = reactions_seen(ann);
    CAPTURE(seconds);
    CHECK(told >= 4);
    CHECK(told <= 4 + static_cast<int>(4 * seconds) + 1);
    CHECK(told + refused == 16);
}

TEST_CASE("reactions: an unknown reaction is refused bad_reaction naming the allowed ones, and a reaction before entering a room is refused not_in_room [server][reactions]") {
    TestServer server;
    Client ann(server.port());
    create_room(ann, kLudo3, "Ann", kSlow);
    const json bad = react(ann, "boo");
    CHECK(bad["code"] == "bad_reaction");
    const std::string message = bad["message"];
    CHECK(message.find("\"boo\"") != std::string::npos);
    for (const char* id : {"thumbs_up", "laugh", "scared", "ghost", "nooo", "phew", "good_luck", "well_played"})
        CHECK(message.find(id) != std::string::npos);
    // It cost nothing: a good one goes through at once.
    CHECK(react(ann, "phew")["type"] == "reaction");
    Client lone(server.port());
    lone.hello();
    CHECK(react(lone, "phew")["code"] == "not_in_room");
}

namespace {
// A counter of /metrics ("name value" on a line of its own).
long metric(std::uint16_t port, const std::string& name) {
    const std::string text = http_get(port, "/metrics").second;
    const auto at = text.find("\n" + name + " ");
    REQUIRE_MESSAGE(at != std::string::npos, name << " is not in /metrics");
    return std::stol(text.substr(at + name.size() + 2));
}
}  // namespace

TEST_CASE("reactions: a reaction writes nothing to the journal, and the host's spectator_reactions setting outlives a restart [server][reactions][journal]") {
    auto config = TestServer::fast_config();
    std::string code, token;
    {
        TestServer first(config);
        first.keep_data_dir();
        Client ann(first.port()), ben(first.port());
        code = create_room(ann, kLudo3, "Ann", json{{"pace_ms", 0}, {"spectator_reactions", true}});
        token = token_of(ann);
        join(ben, code, "Ben");
        room_where(ann, [](const json& r) { return taken_seats(r).size() == 2; }, "Ben seated");
        drain(ann);
        const long passes = metric(first.port(), "spookludo_journal_passes_total");
        CHECK(passes > 0);
        CHECK(react(ben, "phew")["type"] == "reaction");
        next_of(ann, is_reaction, "Ben's reaction");
        drain(ann);
        drain(ben);
        CHECK(metric(first.port(), "spookludo_journal_passes_total") == passes);
        first.shutdown();
    }
    TestServer second(config);
    Client ann(second.port());
    resume(ann, code, token);
    const json room = ann.expect("room");
    CHECK(room["settings"]["spectator_reactions"] == true);
    // Nothing of the reaction came back with the room.
    drain(ann);
    CHECK(reactions_seen(ann) == 0);
}
