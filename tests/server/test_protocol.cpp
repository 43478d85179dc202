// The protocol's parsing of client messages: strict, never throwing, naming the field.
#include <doctest/doctest.h>

#include "spookludo/protocol/messages.h"

using namespace spookludo;
using namespace spookludo::protocol;

namespace {
ProtocolError error_of(std::string_view text) {
    auto r = parse_client_message(text);
    REQUIRE(std::holds_alternative<ProtocolError>(r));
    return std::get<ProtocolError>(r);
}
}  // namespace

TEST_CASE("protocol: every client message round-trips through encode and parse [protocol]") {
    const std::vector<ClientMessage> messages{
        Hello{1, "tests"}, CreateRoom{GameOptions::ludo_game(3, 6), "Ann", RoomSettings{2000, 0, true}},
        JoinRoom{"ABCDE", "Ben"}, Watch{"ABCDE"}, Resume{"ABCDE", "0123"}, SubmitClientSeed{"lucky"},
        Choose{"17", 2}, SetOptions{GameOptions::spook_game(4, 3)}, SetSettings{RoomSettings{}},
        AddBot{PolicyKind::greedy}, RemoveSeat{3}, Kick{2}, Start{}, Pause{}, Unpause{}, EndGame{}, Leave{}, Ping{42}};
    for (const auto& m : messages) {
        auto parsed = parse_client_message(encode(m));
        REQUIRE(std::holds_alternative<ClientMessage>(parsed));
        CHECK(std::get<ClientMessage>(parsed).index() == m.index());
        CHECK(encode(std::get<ClientMessage>(parsed)) == encode(m));
    }
}

TEST_CASE("protocol: malformed messages get a code and a message naming the field [protocol]") {
    CHECK(error_of("[]").code == ErrorCode::bad_json);
    CHECK(error_of("{\"type\":").code == ErrorCode::bad_json);
    CHECK(error_of("{\"no\":1}").code == ErrorCode::unknown_type);
    CHECK(error_of("{\"type\":\"fly\"}").code == ErrorCode::unknown_type);
    auto e = error_of(R"({"type":"choose","decision":"1","piece":9})");
    CHECK(e.code == ErrorCode::bad_field);
    CHECK(e.message.find("piece") != std::string::npos);
    e = error_of(R"({"type":"choose","decision":"1","piece":0,"extra":true})");
    CHECK(e.message.find("extra") != std::string::npos);
    e = error_of(R"({"type":"create_room","options":{"game":"chess"},"name":"x"})");
    CHECK(e.message.find("options") != std::string::npos);
    e = error_of(R"({"type":"join_room","room":"ABCDE","name":"\u0007\u001b"})");
    CHECK(e.message.find("name") != std::string::npos);
    CHECK(error_of(std::string(5000, ' ')).code == ErrorCode::too_large);
    e = error_of(R"({"type":"client_seed","seed":""})");
    CHECK(e.message.find("seed") != std::string::npos);
}

TEST_CASE("protocol: names are cleaned and limited [protocol]") {
    CHECK(clean_name("  Ann  ") == "Ann");
    CHECK(clean_name("A\x1b[2Jnn") == "A [2Jnn");
    CHECK(clean_name("\x07\x08") == "");
    CHECK(clean_name(std::string(100, 'x')).size() == kMaxNameBytes);
    CHECK(clean_name("Zoë") == "Zoë");
    CHECK(clean_name(std::string(23, 'x') + "ë").size() == 23);  // never half a character
}
