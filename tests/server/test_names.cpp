// Players' names over loopback (issue #14, item 8): the server never changes a name; a name it
// would have to change is refused with bad_name and the reason.
#include <doctest/doctest.h>

#include "harness.h"
#include "net.h"
#include "session.h"

using namespace spookludo;
using namespace spookludo::testing;

namespace {

json spook_options() { return {{"game", "spook"}, {"players", 4}, {"pieces", 1}}; }

struct Refusal {
    std::string name;
    std::string reason;  // a part of the error message
};

const std::vector<Refusal>& refusals() {
    static const std::vector<Refusal> all{
        {"A\u202Ennb", "invisible format character (U+202E)"},  // RIGHT-TO-LEFT OVERRIDE
        {"\u2067Ann", "U+2067"},                                // RIGHT-TO-LEFT ISOLATE
        {"Ann\u200B", "U+200B"},                                // ZERO WIDTH SPACE
        {"An\u200Cn", "U+200C"},                                // ZERO WIDTH NON-JOINER
        {"\uFEFFAnn", "U+FEFF"},                                // BOM
        {"Ann\u2060", "U+2060"},                                // WORD JOINER
        {"\u3164", "shows as nothing"},                         // HANGUL FILLER
        {"\x1b[31mEvil", "control character (U+001B)"},
        {"Ann\nBen", "control character (U+000A)"},
        {"Ann\u00A0Ben", "a space other than the plain space"},
        {"", "is empty"},
        {"    ", "nothing but spaces"},
        {" Ann", "starts or ends with a space"},
        {"Ann ", "starts or ends with a space"},
        {"Ann  Ben", "two spaces in a row"},
        {"Bartholomew Fitzgerald III", "26 characters long: at most 24"},
        {"best bot 1", "the names the server gives its bots"},
        {"Greedy Bot 2", "the names the server gives its bots"},
    };
    return all;
}

}  // namespace

TEST_CASE("server: create_room with a name the server would change is refused with bad_name and the reason [server][security][names]") {
    TestServer server;
    Client c(server.port());
    c.hello();
    for (const auto& r : refusals()) {
        CAPTURE(r.name);
        c.send({{"type", "create_room"}, {"options", spook_options()}, {"name", r.name}});
        const json error = c.expect("error");
        CHECK(error["code"] == "bad_name");
        const std::string message = error["message"];
        CHECK_MESSAGE(message.find(r.reason) != std::string::npos, message);
        // The reply quotes the name escaped: no bidi control or escape reaches the client's screen.
        CHECK(message.find("\u202E") == std::string::npos);
        CHECK(message.find('\x1b') == std::string::npos);
    }
    // No room was made for any of them: the connection creates one now.
    c.send({{"type", "create_room"}, {"options", spook_options()}, {"name", "Ann"}});
    CHECK(c.expect("joined")["seat"] == 0);
}

TEST_CASE("server: join_room with a name the server would change, or a bot's name, is refused with bad_name [server][security][names]") {
    TestServer server;
    Client host(server.port());
    const std::string code = create_room(host, spook_options(), "Ann");
    host.send({{"type", "add_bot"}, {"policy", "best"}});
    // The snapshot that shows the bot (the first one queued is the creation's).
    while (taken_seats(host.expect("room")).size() < 2) {
    }
    Client ben(server.port());
    ben.hello();
    for (const auto& r : refusals()) {
        CAPTURE(r.name);
        ben.send({{"type", "join_room"}, {"room", code}, {"name", r.name}});
        const json error = ben.expect("error");
        CHECK(error["code"] == "bad_name");
        CHECK_MESSAGE(error["message"].get<std::string>().find(r.reason) != std::string::npos, error.dump());
    }
    // The name of the bot that sits in the room, in another case: still a bot's form.
    ben.send({{"type", "join_room"}, {"room", code}, {"name", "BEST BOT 1"}});
    CHECK(ben.expect("error")["code"] == "bad_name");
    // Nobody took a seat: only Ann and the bot.
    ben.send({{"type", "join_room"}, {"room", code}, {"name", "Ben"}});
    CHECK(ben.expect("joined")["seat"] == 2);
    const json room = ben.expect("room");
    REQUIRE(taken_seats(room).size() == 3);
    CHECK(room["seats"][1]["name"] == "best bot 1");
    CHECK(room["seats"][1]["bot"] == true);
}

TEST_CASE("server: a valid name with accents, other scripts and emoji is kept byte for byte [server][names]") {
    TestServer server;
    const std::string zoe = "Zoë 🎃 Ωμέγα";
    const std::string astronaut = "👩\u200D🚀 Ñandú";  // a zero-width joiner inside an emoji is kept
    std::string accents;
    for (int i = 0; i < 24; ++i) accents += "é";  // 24 characters, 48 bytes: not cut
    Client a(server.port());
    const std::string code = create_room(a, spook_options(), zoe);
    Client b(server.port());
    b.hello();
    b.send({{"type", "join_room"}, {"room", code}, {"name", astronaut}});
    b.expect("joined");
    Client c(server.port());
    c.hello();
    c.send({{"type", "join_room"}, {"room", code}, {"name", accents}});
    c.expect("joined");
    const json room = c.expect("room");
    REQUIRE(taken_seats(room).size() == 3);
    CHECK(room["seats"][0]["name"].get<std::string>() == zoe);
    CHECK(room["seats"][1]["name"].get<std::string>() == astronaut);
    CHECK(room["seats"][2]["name"].get<std::string>() == accents);
    // The same name again is taken, quoted as it is.
    Client d(server.port());
    d.hello();
    d.send({{"type", "join_room"}, {"room", code}, {"name", zoe}});
    const json taken = d.expect("error");
    CHECK(taken["code"] == "name_taken");
    CHECK(taken["message"].get<std::string>().find("\"" + zoe + "\"") != std::string::npos);
}

TEST_CASE("client: a name the server refuses ends the session with the server's reason [client][net][names]") {
    TestServer server;
    client::EventLoop loop;
    std::string error;
    client::SessionConfig create;
    create.url = *client::parse_url("ws://127.0.0.1:" + std::to_string(server.port()), error);
    create.mode = client::JoinMode::create;
    create.options = GameOptions::spook_game(2, 1);
    create.name = "Ann\u202E";
    std::optional<client::SessionEnd> ended;
    client::Session session(loop, create, {{}, {}, [&](const client::SessionEnd& e) {
                                               ended = e;
                                               loop.stop();
                                           }});
    session.start();
    loop.after(std::chrono::seconds(30), [&] { loop.stop(); });  // a bound for a broken server
    loop.run();
    REQUIRE(ended.has_value());
    CHECK(ended->code == 2);
    CHECK(ended->reason.find("U+202E") != std::string::npos);
    CHECK(ended->reason.find("[bad_name]") != std::string::npos);
}
