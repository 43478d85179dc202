// The server words nothing for people that a client cannot word itself (issue #37): every notice
// carries its kind and the parameters to word it, every error its code and args, the Ludo events
// their colour, a table game's announcements the names (PROTOCOL.md, "Words and languages").
// The English text stays beside them for protocol v1 clients. Over the real server on loopback.
#include <doctest/doctest.h>

#include <chrono>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "harness.h"

using namespace spookludo;
using namespace spookludo::testing;

namespace {

const json kLudo3{{"game", "ludo"}, {"players", 3}};
const json kSlow{{"pace_ms", 0}, {"decision_ms", 60000}};

// Sends `message` and returns the error that answers it.
json refused(Client& c, const json& message) {
    c.send(message);
    return c.expect("error");
}

void start(Client& host, std::initializer_list<Client*> players) {
    host.send({{"type", "start"}});
    for (Client* c : players) {
        c->expect("commitment");
        c->send({{"type", "client_seed"}, {"seed", "seed"}});
    }
    for (Client* c : players) c->expect("game_started", 10s);
}

}  // namespace

TEST_CASE("words: every notice of the lobby carries its kind and the parameters to word it, beside its English text [server][words]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, kLudo3, "Ann", kSlow);
    const json host_joined = notice_of(ann, "joined");
    CHECK(host_joined["seat"] == 0);
    CHECK(host_joined["name"] == "Ann");
    CHECK(host_joined["host"] == true);
    CHECK(host_joined["text"] == "Ann sits at seat 1 (the host)");

    Client ben(server.port());
    join(ben, code, "Ben");
    const json joined = notice_of(ann, "joined");
    CHECK(joined["seat"] == 1);
    CHECK(joined["host"] == false);

    ann.send({{"type", "add_bot"}, {"policy", "greedy"}});
    const json bot = notice_of(ann, "bot_added");
    CHECK(bot["seat"] == 2);
    CHECK(bot["policy"] == "greedy");

    ann.send({{"type", "set_options"}, {"options", {{"game", "ludo"}, {"players", 4}}}});
    const json added = notice_of(ann, "seat_added");
    CHECK(added["seat"] == 3);
    CHECK(added["by"] == "Ann");
    ann.send({{"type", "set_options"}, {"options", {{"game", "ludo"}, {"players", 3}}}});
    const json removed_seat = notice_of(ann, "seat_removed");
    CHECK(removed_seat["seat"] == 3);
    CHECK(removed_seat["by"] == "Ann");

    ann.send({{"type", "remove_seat"}, {"seat", 2}});
    const json emptied = notice_of(ann, "removed");
    CHECK(emptied["reason"] == "host");
    CHECK(emptied["name"] == "greedy bot 1");

    ann.send({{"type", "kick"}, {"seat", 1}});
    const json kicked = notice_of(ann, "kicked");
    CHECK(kicked["then"] == "free");
    CHECK(kicked["name"] == "Ben");

    Client cid(server.port());
    join(cid, code, "Cid");
    cid.send({{"type", "leave"}});
    const json left = notice_of(ann, "left");
    CHECK(left["then"] == "free");
    CHECK(left["name"] == "Cid");
    CHECK(left["text"] == "Cid left seat 2: it is free");

    Client dan(server.port());
    join(dan, code, "Dan");
    dan.close();
    const json away = notice_of(ann, "away");
    CHECK(away["in_game"] == false);
    CHECK(away["name"] == "Dan");

    ann.send({{"type", "set_settings"}, {"settings", {{"auto_start_ms", 1000}}}});
    const json auto_start = notice_of(ann, "auto_start", 10s);
    CHECK(auto_start["bots"] == 1);  // the third seat (Dan's waits for him)
    CHECK(auto_start.contains("text"));
}

TEST_CASE("words: every notice of a game carries its kind and parameters: pause, drop, back, kick, leave and the host's hand-over [server][words]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, kLudo3, "Ann", kSlow);
    Client ben(server.port()), cid(server.port());
    join(ben, code, "Ben");
    const std::string ben_token = token_of(ben);
    join(cid, code, "Cid");
    start(ann, {&ann, &ben, &cid});

    ann.send({{"type", "pause"}});
    const json paused = notice_of(ben, "paused");
    CHECK(paused["reason"] == "host");
    CHECK(paused["name"] == "Ann");
    ann.send({{"type", "resume_game"}});
    const json resumed = notice_of(ben, "resumed");
    CHECK(resumed["reason"] == "host");

    ben.close();
    const json away = notice_of(ann, "away");
    CHECK(away["in_game"] == true);
    Client ben2(server.port());
    resume(ben2, code, ben_token);
    const json back = notice_of(ann, "back");
    CHECK(back["seat"] == 1);
    CHECK(back["name"] == "Ben");

    ann.send({{"type", "kick"}, {"seat", 2}});
    const json kicked = notice_of(ann, "kicked");
    CHECK(kicked["then"] == "bot");
    CHECK(kicked["policy"] == "best");
    CHECK(kicked["name"] == "Cid");

    ann.send({{"type", "leave"}});
    const json left = notice_of(ben2, "left");
    CHECK(left["then"] == "server");
    const json host = notice_of(ben2, "host");
    CHECK(host["name"] == "Ben");
    CHECK(host["reason"] == "left");
    CHECK(host["former"] == "Ann");
    CHECK(host["text"] == "Ben is the host now (Ann left)");
}

TEST_CASE("words: a player away past the window is told by kind: the lobby's seat removed (not_back), the game's server_plays [server][words]") {
    auto config = TestServer::fast_config();
    config.reconnect_ms = 300;
    TestServer server(config);
    Client ann(server.port());
    const std::string code = create_room(ann, kLudo3, "Ann", kSlow);
    {
        Client ben(server.port());
        join(ben, code, "Ben");
    }
    const json gone = notice_of(ann, "removed");
    CHECK(gone["reason"] == "not_back");
    CHECK(gone["name"] == "Ben");

    Client cid(server.port());
    join(cid, code, "Cid");
    start(ann, {&ann, &cid});
    cid.close();
    const json plays = notice_of(ann, "server_plays");
    CHECK(plays["name"] == "Cid");
    CHECK(plays.contains("text"));
}

TEST_CASE("words: every error a player can meet carries its code and the args to word it [server][words]") {
    auto config = TestServer::fast_config();
    config.max_spectators = 1;
    TestServer server(config);
    Client ann(server.port());
    const std::string code = create_room(ann, {{"game", "spook"}, {"players", 2}, {"pieces", 2}}, "Ann", kSlow);

    Client ben(server.port());
    ben.hello();
    json e = refused(ben, {{"type", "join_room"}, {"room", code}, {"name", "Ann"}});
    CHECK(e["code"] == "name_taken");
    CHECK(e["args"]["name"] == "Ann");

    e = refused(ben, {{"type", "join_room"}, {"room", code}, {"name", "Ann\u202e"}});
    CHECK(e["code"] == "bad_name");
    CHECK(e["args"]["reason"] == "invisible");
    CHECK(e["args"]["char"] == "U+202E");
    CHECK(e["args"]["field"] == "name");
    CHECK(e["args"]["name"] == "\"Ann\\u{202E}\"");
    e = refused(ben, {{"type", "join_room"}, {"room", code}, {"name", "Maximilian Alexander Wolf"}});
    CHECK(e["args"]["reason"] == "too_long");
    CHECK(e["args"]["length"] == 25);
    CHECK(e["args"]["max"] == 24);
    e = refused(ben, {{"type", "join_room"}, {"room", code}, {"name", "best bot 1"}});
    CHECK(e["args"]["reason"] == "bot_form");

    e = refused(ben, {{"type", "join_room"}, {"room", "QQQQQ"}, {"name", "Ben"}});
    CHECK(e["code"] == "room_not_found");
    CHECK(e["args"]["room"] == "\"QQQQQ\"");

    e = refused(ben, {{"type", "resume"}, {"room", code}, {"token", "00000000000000000000000000000000"}});
    CHECK(e["code"] == "bad_token");
    CHECK(e["args"]["room"] == code);

    e = refused(ben, {{"type", "react"}, {"reaction", "boo"}});
    CHECK(e["code"] == "bad_reaction");
    CHECK(e["args"]["ids"].get<std::string>().find("thumbs_up") != std::string::npos);

    e = refused(ben, {{"type", "no_such_thing"}});
    CHECK(e["code"] == "unknown_type");
    CHECK(e["args"]["type"] == "\"no_such_thing\"");

    e = refused(ben, {{"type", "create_room"}, {"options", {{"game", "ludo"}, {"players", 9}}}, {"name", "Ben"}});
    CHECK(e["code"] == "bad_field");
    CHECK(e["args"]["field"] == "options.players");

    // The Ludo house rules' refusals carry a reason each.
    e = refused(ben, {{"type", "create_room"}, {"options", {{"game", "ludo"}, {"players", 3}, {"teams", true}}}, {"name", "Ben"}});
    CHECK(e["args"]["reason"] == "teams_players");
    CHECK(e["args"]["field"] == "options.teams");
    e = refused(ben, {{"type", "create_room"},
                      {"options", {{"game", "ludo"}, {"players", 4}, {"teams", true}, {"play_on", true}}},
                      {"name", "Ben"}});
    CHECK(e["args"]["reason"] == "teams_play_on");
    e = refused(ben, {{"type", "create_room"},
                      {"options", {{"game", "ludo"}, {"table", true}, {"table_names", {"Ann", "Ben"}}, {"safe_squares", true}}},
                      {"name", "Ben"}});
    CHECK(e["args"]["reason"] == "table_house_rules");
    e = refused(ben, {{"type", "create_room"}, {"options", {{"game", "ludo"}, {"preset", "home_rules"}, {"arm", 8}}}, {"name", "Ben"}});
    CHECK(e["args"]["reason"] == "preset");
    CHECK(e["args"]["field"] == "options.arm");

    e = refused(ben, {{"type", "start"}});
    CHECK(e["code"] == "not_in_room");

    join(ben, code, "Ben");
    e = refused(ben, {{"type", "start"}});
    CHECK(e["code"] == "not_host");
    CHECK(e["args"]["action"] == "start");

    e = refused(ben, {{"type", "join_room"}, {"room", code}, {"name", "Ben"}});
    CHECK(e["code"] == "already_in_room");
    CHECK(e["args"]["reason"] == "this_room");

    Client cid(server.port());
    cid.hello();
    e = refused(cid, {{"type", "join_room"}, {"room", code}, {"name", "Cid"}});
    CHECK(e["code"] == "room_full");
    CHECK(e["args"]["reason"] == "seats");
    CHECK(e["args"]["seats"] == 2);
    cid.send({{"type", "watch"}, {"room", code}});
    cid.expect("joined");
    e = refused(cid, {{"type", "react"}, {"reaction", "ghost"}});
    CHECK(e["code"] == "not_a_player");
    CHECK(e["args"]["reason"] == "react");
    Client dan(server.port());
    dan.hello();
    e = refused(dan, {{"type", "watch"}, {"room", code}});
    CHECK(e["code"] == "room_full");
    CHECK(e["args"]["reason"] == "spectators");
    CHECK(e["args"]["max"] == 1);

    ann.send({{"type", "react"}, {"reaction", "phew"}});
    ann.expect("reaction");
    e = refused(ann, {{"type", "react"}, {"reaction", "phew"}});
    CHECK(e["code"] == "rate_limited");
    CHECK(e["args"]["limit"] == "reaction_sender");
    CHECK(e["args"]["retry_after_ms"].get<int>() > 0);

    e = refused(ann, {{"type", "pause"}});
    CHECK(e["code"] == "wrong_state");
    CHECK(e["args"]["reason"] == "nothing_to_pause");
    e = refused(ann, {{"type", "remove_seat"}, {"seat", 0}});
    CHECK(e["code"] == "bad_field");
    CHECK(e["args"]["reason"] == "host");
    CHECK(e["args"]["seat"] == 0);

    start(ann, {&ann, &ben});
    e = refused(ann, {{"type", "start"}});
    CHECK(e["code"] == "wrong_state");
    CHECK(e["args"]["reason"] == "game_on");
    e = refused(ann, {{"type", "add_bot"}});
    CHECK(e["args"]["reason"] == "lobby_only");
    e = refused(ann, {{"type", "choose"}, {"decision", "999"}, {"piece", 0}});
    CHECK(e["code"] == "stale_decision");
    CHECK(e["args"]["decision"] == "\"999\"");
    e = refused(cid, {{"type", "choose"}, {"decision", "1"}, {"piece", 0}});
    CHECK(e["code"] == "not_a_player");
    CHECK(e["args"]["reason"] == "choose");
}

TEST_CASE("words: an illegal choice says why by reason and numbers, and version_mismatch and server_full say their bounds [server][words]") {
    auto config = TestServer::fast_config();
    config.max_rooms_per_address = 1;
    TestServer server(config);
    Client ann(server.port());
    create_room(ann, {{"game", "ludo"}, {"players", 2}}, "Ann", kSlow);
    Client other(server.port());
    other.hello();
    json e = refused(other, {{"type", "create_room"}, {"options", kLudo3}, {"name", "Zed"}});
    CHECK(e["code"] == "server_full");
    CHECK(e["args"]["limit"] == "rooms_per_address");
    CHECK(e["args"]["holds"] == 1);
    CHECK(e["args"]["max"] == 1);

    Client old(server.port());
    old.send({{"type", "hello"}, {"protocol", 99}});
    e = old.expect("error");
    CHECK(e["code"] == "version_mismatch");
    CHECK(e["args"]["client"] == 99);
    CHECK(e["args"]["server"] == 1);

    // A Ludo game against a bot: a choice of a piece in the yard on a throw other than 6 is
    // refused needs_six, with the piece and the face. Ann's decisions are waited for, not polled:
    // a read that times out leaves the harness's client closed for good.
    ann.send({{"type", "add_bot"}});
    room_where(ann, [](const json& m) { return taken_seats(m).size() == 2; }, "the bot seated");
    start(ann, {&ann});
    for (int i = 0; i < 400; ++i) {
        const json d = next_of(ann, [](const json& m) { return m["type"] == "decision" || m["type"] == "game_over"; },
                               "Ann's next decision", 10s);
        REQUIRE_MESSAGE(d["type"] == "decision", "the game ended before Ann was offered a choice that left a piece out");
        // Answer with a piece that is not among the options, if one is in the yard.
        std::set<int> offered;
        for (const auto& o : d["options"]) offered.insert(o["piece"].get<int>());
        int other_piece = -1;
        for (int p = 0; p < 4; ++p)
            if (!offered.count(p)) other_piece = p;
        if (other_piece >= 0) {
            ann.send({{"type", "choose"}, {"decision", d["decision"]}, {"piece", other_piece}});
            const json err = next_of(ann, [](const json& m) { return m["type"] == "error" || m["type"] == "choice_accepted"; },
                                     "the answer to the choice");
            if (err["type"] == "choice_accepted") continue;  // the same move as an offered one (pieces in the yard)
            CHECK(err["code"] == "illegal_choice");
            const std::string reason = err["args"]["reason"];
            CHECK(reason != "rules");
            CHECK(err["args"]["piece"] == other_piece);
            if (reason == "needs_six" || reason == "exact_throw") CHECK(err["args"].contains("face"));
            return;
        }
        ann.send({{"type", "choose"}, {"decision", d["decision"]}, {"piece", d["options"][0]["piece"]}});
    }
    FAIL("no decision with a piece that could not move came");
}

TEST_CASE("words: the Ludo events carry their seat's colour, and a table game's announcements the names [server][words]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, {{"game", "ludo"}, {"players", 2}}, "Ann", kSlow);
    ann.send({{"type", "add_bot"}});
    ann.expect("room");
    ann.send({{"type", "start"}});
    ann.expect("commitment");
    ann.send({{"type", "client_seed"}, {"seed", "s"}});
    const json roll_off = ann.expect("roll_off", 10s);
    REQUIRE(!roll_off["events"].empty());
    for (const auto& e : roll_off["events"]) {
        CHECK(e.contains("colour"));
        CHECK(e.contains("text"));
    }

    Client host(server.port());
    create_room(host, {{"game", "ludo"}, {"table", true}, {"table_names", {"Ann", "Ben", "Cid"}}}, "Host", kSlow);
    host.send({{"type", "start"}});
    host.expect("commitment");
    host.send({{"type", "next"}});
    host.expect("game_started");
    host.send({{"type", "next"}});
    const json off = host.expect("roll_off");
    CHECK(off["names"] == json{"Ann", "Ben", "Cid"});
    host.send({{"type", "next"}});
    const json thrown = host.expect("throw");
    CHECK(thrown.contains("next_name"));
    host.send({{"type", "skip_turn"}});
    const json skipped = host.expect("turn_skipped");
    CHECK(skipped.contains("name"));
    CHECK(skipped.contains("next_name"));
    const json snap = room_where(host, [](const json& r) { return r.contains("table") && r["table"].value("last_kind", "") == "skip"; }, "the skip in the snapshot");
    CHECK(snap["table"].contains("last_seat"));
    CHECK(snap["table"].contains("last_next"));
    host.send({{"type", "end_game"}});
    const json over = host.expect("game_over");
    CHECK(over["cause"] == "host");
}
