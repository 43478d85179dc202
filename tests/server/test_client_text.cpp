// Text a client sends, quoted back in error replies: whatever it holds, the reply is valid JSON
// in valid UTF-8 and the server goes on serving everyone (issue #14, item 1).
#include <doctest/doctest.h>

#include "harness.h"
#include "spookludo/protocol/messages.h"
#include "spookludo/protocol/server_messages.h"

using namespace spookludo;
using namespace spookludo::testing;

namespace {

// A type longer than 32 bytes whose 32nd byte falls inside a 2-byte character.
std::string long_accented_type() {
    std::string type = "a";
    for (int i = 0; i < 20; ++i) type += "\xC3\xA9";  // é
    return type;
}

protocol::ProtocolError error_of(std::string_view text) {
    auto r = protocol::parse_client_message(text);
    REQUIRE(std::holds_alternative<protocol::ProtocolError>(r));
    return std::get<protocol::ProtocolError>(r);
}

}  // namespace

TEST_CASE("server: a message type cut inside a UTF-8 character gets an error and the server serves another room on [server][security]") {
    TestServer server;
    Client ann(server.port());
    const std::string code = create_room(ann, {{"game", "spook"}, {"players", 2}, {"pieces", 1}}, "Ann");

    // The frame of the report, before hello, on a connection of its own.
    Client stranger(server.port());
    stranger.send_text("{\"type\":\"" + long_accented_type() + "\"}");
    const json reply = stranger.expect("error");
    CHECK(reply["code"] == "unknown_type");
    const std::string message = reply["message"];
    const std::string quoted = std::string("\"").append(long_accented_type()).append("\"");
    CHECK(message.find(quoted) != std::string::npos);  // 21 characters: whole
    // The same connection goes on.
    stranger.hello();

    // The other room is still there and answers.
    ann.expect("room");  // after create_room
    ann.send({{"type", "add_bot"}, {"policy", "greedy"}});
    const json room = ann.expect("room");
    CHECK(room["room"] == code);
    CHECK(taken_seats(room).size() == 2);
    Client ben(server.port());
    ben.hello();
    ben.send({{"type", "watch"}, {"room", code}});
    CHECK(ben.expect("joined")["role"] == "spectator");
}

TEST_CASE("server: field values and unknown keys quoted in errors are cut, escaped and valid UTF-8 [server][security]") {
    TestServer server;
    Client c(server.port());
    c.hello();
    std::string long_key = "k";
    for (int i = 0; i < 100; ++i) long_key += "\xE2\x82\xAC";  // €
    const std::string esc = "\x1b[2J\xE2\x80\xAE";              // clear screen, then RIGHT-TO-LEFT OVERRIDE
    const std::vector<std::string> frames{
        "{\"type\":\"ping\",\"" + long_key + "\":1}",
        "{\"type\":\"add_bot\",\"policy\":\"" + std::string("\\u001b[2J\\u202e") + "\"}",
        "{\"type\":\"create_room\",\"name\":\"x\",\"options\":{\"game\":\"\\u001b[31m\"}}",
        "{\"type\":\"create_room\",\"name\":\"x\",\"options\":{\"game\":\"spook\",\"" + long_key + "\":1}}",
        "{\"type\":\"create_room\",\"name\":\"x\",\"options\":{\"game\":\"spook\",\"players\":\"" + long_key + "\"}}",
        "{\"type\":\"choose\",\"decision\":[" + [] {
            std::string items;
            for (int i = 0; i < 500; ++i) items += "1,";
            return items + "1";
        }() + "],\"piece\":0}",
        "{\"type\":\"\\u001b]0;pwned\\u0007\"}",
    };
    for (const auto& frame : frames) {
        CAPTURE(frame);
        c.send_text(frame);
        const json reply = c.expect("error");
        const std::string message = reply["message"];
        CHECK(message.size() < 300);
        CHECK(message.find('\x1b') == std::string::npos);
        CHECK(message.find("\xE2\x80\xAE") == std::string::npos);
        CHECK(message.find('\x07') == std::string::npos);
    }
    // A decision id with escapes, quoted back by a room.
    create_room(c, {{"game", "spook"}, {"players", 2}, {"pieces", 1}}, "Ann");
    c.send({{"type", "choose"}, {"decision", esc}, {"piece", 0}});
    const json stale = c.expect("error");
    CHECK(stale["code"] == "stale_decision");
    CHECK(stale["message"].get<std::string>().find("\\u{1B}[2J\\u{202E}") != std::string::npos);
}

TEST_CASE("protocol: the error reply for any rejected type serialises, and encode_message never throws on bad UTF-8 [protocol][security]") {
    const auto e = error_of("{\"type\":\"" + long_accented_type() + "\"}");
    CHECK(e.code == protocol::ErrorCode::unknown_type);
    const json reply = json::parse(protocol::error_message(e.code, e.message));
    CHECK(reply["code"] == "unknown_type");
    // A longer one is quoted to 32 characters, marked as cut.
    std::string longer;
    for (int i = 0; i < 100; ++i) longer += "\xC3\xA9";
    const auto cut = error_of("{\"type\":\"" + longer + "\"}");
    CHECK(cut.message == "unknown message type \"" + longer.substr(0, 64) + "\xE2\x80\xA6\"");
    json parsed;
    CHECK_NOTHROW(parsed = json::parse(protocol::error_message(cut.code, cut.message)));
    // Whatever bytes an error message or a field holds, the encoders give valid JSON.
    const std::string bad = "cut \xC3 here \xFF";
    CHECK_NOTHROW(parsed = json::parse(protocol::error_message(protocol::ErrorCode::bad_field, bad, "x\xE2\x82")));
    CHECK(parsed["message"] == "cut \xEF\xBF\xBD here \xEF\xBF\xBD");
    CHECK_NOTHROW(parsed = json::parse(protocol::encode_message(protocol::Closing{"shutdown", bad})));
    CHECK(parsed["reason"] == "cut \xEF\xBF\xBD here \xEF\xBF\xBD");
    protocol::LudoMove move{3, bad, {}};
    CHECK_NOTHROW(parsed = json::parse(protocol::encode_message(move)));
    CHECK(parsed["by"] == "cut \xEF\xBF\xBD here \xEF\xBF\xBD");
}
