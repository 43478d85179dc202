// The protocol's parsing of client messages: strict, never throwing, naming the field.
#include <doctest/doctest.h>

#include "spookludo/protocol/messages.h"
#include "spookludo/protocol/server_messages.h"

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
    SettingsChange quick, slower, spectators_react;  // fields set one by one: no brace list to keep in step
    quick.decision_ms = 2000;
    quick.pace_ms = 0;
    quick.hints = true;
    slower = quick;
    slower.decision_ms = 20000;
    spectators_react.spectator_reactions = true;
    const std::vector<ClientMessage> messages{
        Hello{1, "tests"}, CreateRoom{GameOptions::ludo_game(3, 6), "Ann", quick},
        JoinRoom{"ABCDE", "Ben"}, Watch{"ABCDE"}, Resume{"ABCDE", "0123"}, SubmitClientSeed{"lucky"},
        Choose{"17", 2}, SetOptions{GameOptions::spook_game(4, 3)}, SetSettings{slower},
        SetSettings{spectators_react},
        AddBot{PolicyKind::greedy}, RemoveSeat{3}, Kick{2}, Start{}, Pause{}, Unpause{}, EndGame{}, Leave{}, Ping{42},
        React{"phew"}};
    for (const auto& m : messages) {
        auto parsed = parse_client_message(encode(m));
        REQUIRE(std::holds_alternative<ClientMessage>(parsed));
        CHECK(std::get<ClientMessage>(parsed).index() == m.index());
        CHECK(encode(std::get<ClientMessage>(parsed)) == encode(m));
    }
}

TEST_CASE("protocol: react takes only the fixed set of reactions: another id is bad_reaction naming every allowed id [protocol][reactions]") {
    for (const auto& r : kReactions) {
        auto parsed = parse_client_message(R"({"type":"react","reaction":")" + std::string(r.id) + "\"}");
        REQUIRE(std::holds_alternative<ClientMessage>(parsed));
        CHECK(std::get<React>(std::get<ClientMessage>(parsed)).reaction == r.id);
        CHECK_FALSE(r.label.empty());
    }
    CHECK(std::size(kReactions) == 8);
    const auto e = error_of(R"({"type":"react","reaction":"\u001b[2J"})");
    CHECK(e.code == ErrorCode::bad_reaction);
    CHECK(e.ref == "react");
    CHECK(e.message.find("\\u{1B}[2J") != std::string::npos);
    CHECK(e.message.find(reaction_ids()) != std::string::npos);
    CHECK(error_of(R"({"type":"react"})").code == ErrorCode::bad_field);
    CHECK(error_of(R"({"type":"react","reaction":"phew","to":1})").code == ErrorCode::bad_field);
}

TEST_CASE("protocol: a choose is read alike in the shapes clients write it and with a space that sends it through the JSON reader [protocol]") {
    // The shapes read without a JSON tree (browsers' key order, sorted keys), near misses, and
    // each again with a space after the first colon, which only the JSON reader takes.
    const std::vector<std::string> texts = {
        R"({"type":"choose","decision":"12","piece":2})",     R"({"decision":"12","piece":2,"type":"choose"})",
        R"({"type":"choose","decision":"a-Z_9","piece":0})",  R"({"type":"choose","decision":"1","piece":3})",
        R"({"type":"choose","decision":"1","piece":4})",      R"({"type":"choose","decision":"1","piece":-1})",
        R"({"type":"choose","decision":"1","piece":03})",     R"({"type":"choose","decision":"1","piece":1.5})",
        R"({"type":"choose","decision":"","piece":1})",       R"({"type":"choose","decision":"1 2","piece":1})",
        R"({"type":"choose","decision":"é","piece":1})",      R"({"type":"choose","decision":"1","piece":1,"x":1})",
        R"({"type":"choose","decision":"1","piece":1}x)",     R"({"type":"choose","decision":"1","piece":1)",
        R"({"decision":"7","piece":1,"type":"choose"} )",     R"({"decision":"7","piece":1,"type":"chose"})",
        R"({"type":"choose","decision":")" + std::string(32, '9') + R"(","piece":1})",
        R"({"type":"choose","decision":")" + std::string(33, '9') + R"(","piece":1})",
    };
    for (const auto& text : texts) {
        const auto colon = text.find(':');
        const std::string spaced = text.substr(0, colon + 1) + " " + text.substr(colon + 1);
        INFO(text);
        const auto a = parse_client_message(text);
        const auto b = parse_client_message(spaced);
        REQUIRE(a.index() == b.index());
        if (const auto* m = std::get_if<ClientMessage>(&a)) {
            const auto& n = std::get<ClientMessage>(b);
            REQUIRE(std::holds_alternative<Choose>(*m));
            REQUIRE(std::holds_alternative<Choose>(n));
            CHECK(std::get<Choose>(*m).decision == std::get<Choose>(n).decision);
            CHECK(std::get<Choose>(*m).piece == std::get<Choose>(n).piece);
        } else {
            const auto& e = std::get<ProtocolError>(a);
            const auto& f = std::get<ProtocolError>(b);
            CHECK(e.code == f.code);
            CHECK(e.message == f.message);
        }
    }
    const auto quick = parse_client_message(R"({"decision":"41","piece":3,"type":"choose"})");
    REQUIRE(std::holds_alternative<ClientMessage>(quick));
    CHECK(std::get<Choose>(std::get<ClientMessage>(quick)).decision == "41");
    CHECK(std::get<Choose>(std::get<ClientMessage>(quick)).piece == 3);
    CHECK(std::holds_alternative<ProtocolError>(parse_client_message(R"({"type":"choose","decision":"1","piece":4})")));
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
    CHECK(e.ref == "client_seed");  // a known type's errors name it, for the reply's "ref"
    CHECK(error_of(R"({"type":"join_room","room":"ABCDE","name":"best bot 1"})").ref == "join_room");
    CHECK(error_of("{\"type\":\"fly\"}").ref.empty());
}

TEST_CASE("protocol: a name is taken as it is or refused with the reason, never changed [protocol][names]") {
    CHECK_FALSE(name_problem("Ann"));
    CHECK_FALSE(name_problem("Zoë 🎃"));
    CHECK_FALSE(name_problem("Ωμέγα"));
    CHECK_FALSE(name_problem("עברית"));
    CHECK_FALSE(name_problem("👩\u200D🚀 Ann"));  // a joiner inside an emoji
    CHECK_FALSE(name_problem("❤\uFE0F\u200D🔥"));
    CHECK_FALSE(name_problem("Robot 3"));
    CHECK_FALSE(name_problem("bot"));
    CHECK_FALSE(name_problem("best bot"));
    CHECK_FALSE(name_problem(std::string(24, 'x')));
    std::string accented;
    for (int i = 0; i < 24; ++i) accented += "é";
    CHECK_FALSE(name_problem(accented));  // 48 bytes, 24 characters

    auto refused = [](std::string_view name, std::string_view why) {
        CAPTURE(name);
        const auto problem = name_problem(name);
        REQUIRE(problem);
        CHECK_MESSAGE(problem->find(why) != std::string::npos, *problem);
    };
    refused("", "empty");
    refused("   ", "nothing but spaces");
    refused(" Ann", "starts or ends with a space");
    refused("Ann ", "starts or ends with a space");
    refused("Ann  Bob", "two spaces in a row");
    refused("A\x1b[2Jnn", "control character (U+001B)");
    refused("Ann\tBob", "control character (U+0009)");
    refused("\xC2\x9B" "31m", "control character (U+009B)");
    refused("Ann\u202Enb", "invisible format character (U+202E)");
    refused("\u2066Ann\u2069", "U+2066");
    refused("Ann\u200B", "U+200B");
    refused("A\u200Dnn", "U+200D");  // a joiner that joins no emoji
    refused("\uFEFFAnn", "U+FEFF");
    refused("Ann\u2060", "U+2060");
    refused("\u3164", "U+3164, a character that shows as nothing");
    refused("Ann\u00A0Bob", "U+00A0, a space other than the plain space");
    refused("x\xFF", "not valid UTF-8");
    refused("x\xC3", "not valid UTF-8");
    refused(std::string(25, 'x'), "25 characters long: at most 24");
    refused(accented + "e", "25 characters long");
    refused("best bot 1", "the names the server gives its bots");
    refused("Greedy Bot 12", "the names the server gives its bots");
    refused("random bot 3", "bots");
    refused("my bot 2", "bots");
    refused("bot 7", "bots");
}

#include "spookludo/protocol/server_messages.h"

TEST_CASE("protocol: server messages round-trip through to_json and from_json [protocol]") {
    RoomSnapshot room;
    room.room = "KQZTM";
    room.state = "playing";
    room.options = GameOptions::spook_game(2, 2);
    room.host = 0;
    room.seats = {{0, "Ann", false, false, std::nullopt, true, false, "here", false, true, 1764489623000},
                  {1, "", false, true, std::nullopt, std::nullopt, std::nullopt, std::nullopt, false, false, std::nullopt},
                  {2, "best bot 1", true, false, PolicyKind::best, std::nullopt, std::nullopt, std::nullopt, true, false, std::nullopt}};
    room.commitment = std::string(64, 'a');
    room.spook = SpookView{{0, 2}, 3, "choosing", 4, {".A", "", ".B"}, {{5, 1}, {}, {9, 1}}, {std::nullopt, std::nullopt, 7}};
    const nlohmann::json j = to_message(room);
    CHECK(j["type"] == "room");
    CHECK(j["game"]["finished_round"][0].is_null());
    CHECK_FALSE(j["seats"][2].contains("connected"));
    CHECK(j["seats"][1]["free"] == true);
    CHECK(j["seats"][2]["kicked"] == true);
    CHECK(j["seats"][0]["deadline_ms"] == 1764489623000);  // a hurried seat's own deadline
    CHECK_FALSE(j["seats"][1].contains("deadline_ms"));
    const RoomSnapshot back = j.get<RoomSnapshot>();
    CHECK(back.seats.size() == 3);
    CHECK(back.seats[1].free);
    CHECK(back.seats[2].policy == PolicyKind::best);
    CHECK(back.seats[0].status == "here");
    REQUIRE(back.spook.has_value());
    CHECK(back.spook->players == std::vector<int>{0, 2});
    CHECK(back.spook->roll == 4);
    CHECK(back.spook->finished_round[2] == 7);
    CHECK(nlohmann::json(back) == nlohmann::json(room));

    Decision d{"17", 0, 3, {{0, 5, 9, "cat", 29.8, std::nullopt, std::nullopt}}, 20000, 1};
    const auto dj = to_message(d);
    CHECK(dj["options"][0]["square"] == "cat");
    CHECK_FALSE(dj["options"][0].contains("captures"));
    CHECK(nlohmann::json(dj.get<Decision>()) == nlohmann::json(d));

    GameOver over{"G", "finished", {0}, {1, 2}, {"Ann", "Ben"}, 31, std::string(64, 'f'), "/records/G", std::nullopt};
    CHECK(nlohmann::json(to_message(over).get<GameOver>()) == nlohmann::json(over));
    const auto err = nlohmann::json::parse(error_message(ErrorCode::stale_decision, "late", "choose"));
    CHECK(err["type"] == "error");
    CHECK(err.get<ErrorReply>().ref == "choose");
}

TEST_CASE("protocol: the step messages written directly read back as the same JSON as their tree [protocol]") {
    // encode_message writes these without a JSON tree; a client must read exactly what the tree
    // holds: every field, optional fields only when present, strings escaped, numbers exact.
    auto same = [](const auto& m) {
        const std::string text = encode_message(m);
        INFO(text);
        const auto parsed = nlohmann::json::parse(text);  // throws on invalid JSON
        CHECK(parsed == to_message(m));
        CHECK(text.rfind("{\"type\":\"", 0) == 0);  // the type comes first
    };
    same(Decision{"17", 2, 9, {}, 0, 0});
    same(Decision{"18", 0, 3,
                  {{0, 5, 9, "cat", 29.8125, std::nullopt, std::nullopt},
                   {1, 0, 6, std::nullopt, 1.0 / 3.0, std::nullopt, std::nullopt},
                   {2, 40, 46, std::nullopt, std::nullopt, true, false}},
                  -5, 1767225600123});
    same(Decision{"19", 1, 4, {}, std::nullopt, 1767225600123});  // no limit: no time_left_ms
    CHECK_FALSE(nlohmann::json::parse(encode_message(Decision{"19", 1, 4, {}, std::nullopt, 0})).contains("time_left_ms"));
    same(ChoiceAccepted{"99", 1});
    same(DecisionTimeout{"100"});
    same(Roll{12, 6});
    same(Moves{4, {{0, 1, 3, 9, std::string("player"), std::nullopt}, {1, std::nullopt, std::nullopt, std::nullopt,
                                                                    std::nullopt, true}}});
    same(Activation{3, 5, "werewolf", "Werewolf", "moves \"forward\" 4\\back\n\ttab \x01 end, caf\xc3\xa9 \xf0\x9f\x8e\x83",
                    {{2, 0, 17, 21, std::nullopt, std::nullopt}}, {1, 3}});
    same(RollOff{2, {{"roll_off", "Ann throws 6", 0, std::nullopt, 6, std::nullopt, std::nullopt, std::nullopt}}});
    same(Throw{31, 1, 6, {{"enter", "yellow enters", 1, 2, 6, -1, 5, 18}}});
    same(LudoMove{32, "timeout", {{"capture", "red is sent home", 2, 0, std::nullopt, 7, -1, std::nullopt}}});
    // And clients read them back into the same structs.
    const Activation a{3, 5, "cat", "Black Cat", "moves back 6 squares", {{0, 1, 12, 6, std::nullopt, std::nullopt}}, {}};
    CHECK(nlohmann::json(nlohmann::json::parse(encode_message(a)).get<Activation>()) == nlohmann::json(a));
}
