// The client's network layer (client/net.h, client/session.h) against the real server on
// loopback.
#include <doctest/doctest.h>

#include "harness.h"
#include "net.h"
#include "session.h"

using namespace spookludo;
using namespace spookludo::testing;

TEST_CASE("client: a session in a quiet lobby outlives the server's keep-alive pings [client][net]") {
    // The server pings a silent connection at half its idle timeout. A client that had queued
    // two messages at connect once wrote the first twice, and crashed when the pong went out.
    // 2 s: a ping after each second of silence, a second to answer it (the 200 ms of an idle
    // time of 400 ms are not always enough for a loaded machine to schedule the client).
    auto config = TestServer::fast_config();
    config.idle_timeout_ms = 2000;
    TestServer server(config);

    client::EventLoop loop;
    client::SessionConfig sc;
    std::string error;
    sc.url = *client::parse_url("ws://127.0.0.1:" + std::to_string(server.port()), error);
    sc.mode = client::JoinMode::create;
    sc.options = GameOptions::spook_game(2, 2);
    sc.name = "Ann";
    std::optional<client::SessionEnd> ended;
    client::Session::Callbacks cb;
    cb.on_end = [&](const client::SessionEnd& e) {
        ended = e;
        loop.stop();
    };
    client::Session* session_of = nullptr;
    bool bot_asked = false;
    cb.on_message = [&](const nlohmann::json&) {  // done when the lobby shows the bot's seat
        const auto& snap = session_of->view().snapshot();
        if (bot_asked && snap && snap->seats.size() == 2) loop.stop();
    };
    client::Session session(loop, sc, cb);
    session_of = &session;
    session.start();
    bool still_open = false;
    loop.after(std::chrono::milliseconds(4500), [&] {  // two pings answered later
        still_open = session.connected();
        bot_asked = true;
        session.send(protocol::AddBot{PolicyKind::random});
    });
    loop.after(std::chrono::seconds(30), [&] { loop.stop(); });  // a bound for a broken server
    loop.run();
    CHECK_FALSE(ended.has_value());
    CHECK(still_open);
    REQUIRE(session.view().snapshot());
    CHECK(session.view().snapshot()->seats.size() == 2);  // the bot joined after the quiet spell
}

TEST_CASE("client: a refused join ends the session with the reason, a host's error does not [client][net]") {
    TestServer server;
    client::EventLoop loop;
    std::string error;
    const auto url = *client::parse_url("ws://127.0.0.1:" + std::to_string(server.port()), error);

    client::SessionConfig join;
    join.url = url;
    join.mode = client::JoinMode::join;
    join.room = "ZZZZZ";
    join.name = "Ben";
    // Done when the joiner's session has ended and the host has had its error (each waited for,
    // not timed; a bound of 30 s for a broken server).
    std::optional<client::SessionEnd> ended;
    client::Session* host_of = nullptr;
    auto done = [&] {
        if (ended && host_of->view().last_error()) loop.stop();
    };
    client::Session lost(loop, join, {{}, {}, [&](const client::SessionEnd& e) {
                                          ended = e;
                                          done();
                                      }});
    lost.start();

    client::SessionConfig create;
    create.url = url;
    create.mode = client::JoinMode::create;
    create.options = GameOptions::spook_game(1, 2);  // one seat: adding a bot is refused
    create.name = "Ann";
    std::optional<client::SessionEnd> host_ended;
    bool bot_asked = false;
    client::Session::Callbacks host_cb;
    host_cb.on_message = [&](const nlohmann::json&) {
        if (!bot_asked && host_of->view().snapshot()) {  // the room is made: ask for a bot
            bot_asked = true;
            host_of->send(protocol::AddBot{PolicyKind::best});
        }
        done();
    };
    host_cb.on_end = [&](const client::SessionEnd& e) {
        host_ended = e;
        loop.stop();
    };
    client::Session host(loop, create, host_cb);
    host_of = &host;
    host.start();
    loop.after(std::chrono::seconds(30), [&] { loop.stop(); });
    loop.run();

    REQUIRE(ended.has_value());
    CHECK(ended->code == 2);
    CHECK(ended->reason.find("ZZZZZ") != std::string::npos);
    CHECK(ended->reason.find("room_not_found") != std::string::npos);
    CHECK_FALSE(host_ended.has_value());
    REQUIRE(host.view().last_error());
    CHECK(host.view().last_error()->code == "room_full");
}

TEST_CASE("client: URLs are checked with a clear reason, ws:// and wss:// [client][net]") {
    std::string error;
    CHECK(client::parse_url("ws://127.0.0.1:7777", error)->port == "7777");
    CHECK(client::parse_url("ws://[::1]:8000/ws", error)->host == "::1");
    CHECK(client::parse_url("ws://example.org", error)->port == "7777");
    const auto secure = client::parse_url("wss://example.org", error);
    REQUIRE(secure);
    CHECK(secure->tls);
    CHECK(secure->port == "7777");
    CHECK(secure->text() == "wss://example.org:7777");
    CHECK(secure->http_base() == "https://example.org:7777");
    CHECK(client::parse_url("ws://[::1]:8000", error)->text() == "ws://[::1]:8000");
    CHECK_FALSE(client::parse_url("http://example.org:7777", error));
    CHECK(error.find("try ws://example.org:7777") != std::string::npos);
    CHECK_FALSE(client::parse_url("https://example.org:7777", error));
    CHECK(error.find("try wss://example.org:7777") != std::string::npos);
    CHECK_FALSE(client::parse_url("ws://host:99999", error));
    CHECK(error.find("1 to 65535") != std::string::npos);
    CHECK_FALSE(client::parse_url("example.org:7777", error));
}
