// GameOptions (both games): validation, the JSON form, and every rejection naming the key.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "spookludo/options.h"

using namespace spookludo;
using nlohmann::json;

namespace {

// The message of from_json's std::invalid_argument for `j` ("" when accepted).
std::string rejection(const json& j) {
    try {
        GameOptions o = j.get<GameOptions>();
        (void)o;
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

bool mentions(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("defaults and named constructors [core][options]") {
    const GameOptions d;
    CHECK(d.game == GameKind::spook);
    CHECK(d.players == 2);
    CHECK_FALSE(d.play_on);
    CHECK(d.spook.pieces == 2);
    CHECK(d.spook.balanced_boards);
    CHECK(d.ludo.arm == 8);
    CHECK(d.ludo.entry == LudoEntry::text);
    CHECK_FALSE(d.ludo.three_sixes);
    CHECK_FALSE(d.validate().has_value());

    const auto s = GameOptions::spook_game(5, 3);
    CHECK(s.game == GameKind::spook);
    CHECK(s.players == 5);
    CHECK(s.spook.pieces == 3);
    const auto l = GameOptions::ludo_game(3, 6);
    CHECK(l.game == GameKind::ludo);
    CHECK(l.players == 3);
    CHECK(l.ludo.arm == 6);
}

TEST_CASE("pieces to finish: 1 with one piece, otherwise 2 [core][options]") {
    SpookOptions o;
    o.pieces = 1;
    CHECK(o.pieces_to_finish() == 1);
    o.pieces = 2;
    CHECK(o.pieces_to_finish() == 2);
    o.pieces = 3;
    CHECK(o.pieces_to_finish() == 2);
}

TEST_CASE("validate names what is wrong [core][options]") {
    for (int players = 1; players <= 8; ++players) CHECK_FALSE(GameOptions::spook_game(players).validate().has_value());
    for (int pieces = 1; pieces <= 3; ++pieces) CHECK_FALSE(GameOptions::spook_game(2, pieces).validate().has_value());
    for (int players = 2; players <= 4; ++players) {
        CHECK_FALSE(GameOptions::ludo_game(players, 8).validate().has_value());
        CHECK_FALSE(GameOptions::ludo_game(players, 6).validate().has_value());
    }
    struct Bad {
        GameOptions o;
        const char* key;
    };
    const Bad bad[]{
        {GameOptions::spook_game(0), "players"},   {GameOptions::spook_game(9), "players"},
        {GameOptions::spook_game(2, 0), "pieces"}, {GameOptions::spook_game(2, 4), "pieces"},
        {GameOptions::ludo_game(1), "players"},    {GameOptions::ludo_game(5), "players"},
        {GameOptions::ludo_game(4, 7), "arm"},
    };
    for (const auto& b : bad) {
        const auto err = b.o.validate();
        REQUIRE(err.has_value());
        CAPTURE(*err);
        CHECK(mentions(*err, b.key));
    }
    CHECK(*GameOptions::ludo_game(5).validate() == "players must be 2 to 4 for ludo (got 5)");
}

TEST_CASE("JSON round trip [core][options]") {
    SUBCASE("spook") {
        GameOptions o = GameOptions::spook_game(7, 3);
        o.play_on = true;
        o.spook.balanced_boards = false;
        const json j = o;
        CHECK(j ==
              json{{"game", "spook"}, {"players", 7}, {"pieces", 3}, {"play_on", true}, {"balanced_boards", false}});
        CHECK(j.get<GameOptions>() == o);
        CHECK_FALSE(j.contains("arm"));  // only the keys of the chosen game
    }
    SUBCASE("ludo") {
        GameOptions o = GameOptions::ludo_game(3, 6);
        o.ludo.entry = LudoEntry::start_square;
        o.ludo.three_sixes = true;
        const json j = o;
        CHECK(j.at("entry") == "start_square");
        CHECK_FALSE(j.contains("pieces"));
        CHECK_FALSE(j.contains("balanced_boards"));
        CHECK(j.get<GameOptions>() == o);
    }
    SUBCASE("every key but game is optional") {
        const auto s = json{{"game", "spook"}}.get<GameOptions>();
        CHECK(s == GameOptions::spook_game(2, 2));
        const auto l = json{{"game", "ludo"}}.get<GameOptions>();
        CHECK(l == GameOptions::ludo_game(4, 8));
        const auto some = json{{"game", "spook"}, {"pieces", 1}}.get<GameOptions>();
        CHECK(some.spook.pieces == 1);
        CHECK(some.players == 2);
    }
    SUBCASE("a round trip through text") {
        for (const GameOptions& o :
             {GameOptions::spook_game(1, 1), GameOptions::spook_game(8, 2), GameOptions::ludo_game(2, 8)})
            CHECK(json::parse(json(o).dump()).get<GameOptions>() == o);
    }
    SUBCASE("a failed read leaves the target alone") {
        GameOptions o = GameOptions::ludo_game(3);
        CHECK_THROWS_AS(from_json(json{{"game", "spook"}, {"players", 12}}, o), std::invalid_argument);
        CHECK(o == GameOptions::ludo_game(3));
    }
}

TEST_CASE("every rejection names the key [core][options]") {
    struct Case {
        json j;
        const char* key;
    };
    const Case cases[]{
        // game: missing, wrong type, unknown
        {json{{"players", 2}}, "game"},
        {json{{"game", 3}}, "game"},
        {json{{"game", "chess"}}, "game"},
        // unknown keys and keys of the other game
        {json{{"game", "spook"}, {"colour", "red"}}, "colour"},
        {json{{"game", "spook"}, {"arm", 6}}, "arm"},
        {json{{"game", "spook"}, {"entry", "text"}}, "entry"},
        {json{{"game", "spook"}, {"three_sixes", true}}, "three_sixes"},
        {json{{"game", "ludo"}, {"pieces", 2}}, "pieces"},
        {json{{"game", "ludo"}, {"balanced_boards", true}}, "balanced_boards"},
        // wrong types
        {json{{"game", "spook"}, {"players", "2"}}, "players"},
        {json{{"game", "spook"}, {"players", 2.5}}, "players"},
        {json{{"game", "spook"}, {"players", true}}, "players"},
        {json{{"game", "spook"}, {"pieces", "two"}}, "pieces"},
        {json{{"game", "spook"}, {"play_on", 1}}, "play_on"},
        {json{{"game", "spook"}, {"balanced_boards", "yes"}}, "balanced_boards"},
        {json{{"game", "ludo"}, {"arm", 8.0}}, "arm"},
        {json{{"game", "ludo"}, {"entry", 1}}, "entry"},
        {json{{"game", "ludo"}, {"entry", "sideways"}}, "entry"},
        {json{{"game", "ludo"}, {"three_sixes", nullptr}}, "three_sixes"},
        // values out of range
        {json{{"game", "spook"}, {"players", 0}}, "players"},
        {json{{"game", "spook"}, {"players", 9}}, "players"},
        {json{{"game", "spook"}, {"players", -1}}, "players"},
        {json{{"game", "spook"}, {"pieces", 0}}, "pieces"},
        {json{{"game", "spook"}, {"pieces", 4}}, "pieces"},
        {json{{"game", "ludo"}, {"players", 1}}, "players"},
        {json{{"game", "ludo"}, {"players", 5}}, "players"},
        {json{{"game", "ludo"}, {"arm", 7}}, "arm"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.j.dump());
        const std::string msg = rejection(c.j);
        CAPTURE(msg);
        CHECK_FALSE(msg.empty());
        CHECK(mentions(msg, c.key));
    }
    SUBCASE("not an object") {
        CHECK_FALSE(rejection(json::array()).empty());
        CHECK_FALSE(rejection(json("spook")).empty());
    }
}

TEST_CASE("whole numbers beyond int are rejected, not wrapped [core][options]") {
    // 4294967298 (2^32 + 2) must not be read as 2 players.
    for (const json& big : {json(4294967298LL), json(4294967297ULL), json(-4294967294LL)}) {
        CAPTURE(big.dump());
        const std::string msg = rejection(json{{"game", "spook"}, {"players", big}});
        CHECK(mentions(msg, "players"));
    }
}

TEST_CASE("names of games and entries [core][options]") {
    CHECK(to_string(GameKind::spook) == "spook");
    CHECK(to_string(GameKind::ludo) == "ludo");
    CHECK(parse_game_kind("ludo") == GameKind::ludo);
    CHECK_FALSE(parse_game_kind("Spook").has_value());
    CHECK(to_string(LudoEntry::start_square) == "start_square");
    CHECK(parse_ludo_entry("text") == LudoEntry::text);
    CHECK_FALSE(parse_ludo_entry("").has_value());
}

TEST_CASE("ludo house rules: each key is written only when on, and reads back [core][options][house]") {
    // The rule text's game: none of the house-rule keys, so its records stay byte-identical.
    const json plain = GameOptions::ludo_game(4);
    CHECK(plain == json{{"game", "ludo"},
                        {"players", 4},
                        {"play_on", false},
                        {"arm", 8},
                        {"entry", "text"},
                        {"three_sixes", false}});
    for (const char* key : {"safe_squares", "bonus_throws", "capture_to_home", "teams"}) {
        CAPTURE(key);
        const json in{{"game", "ludo"}, {"players", 4}, {key, true}};
        const GameOptions o = in.get<GameOptions>();
        CHECK(o.ludo.safe_squares == (std::string(key) == "safe_squares"));
        CHECK(o.ludo.bonus_throws == (std::string(key) == "bonus_throws"));
        CHECK(o.ludo.capture_to_home == (std::string(key) == "capture_to_home"));
        CHECK(o.ludo.teams == (std::string(key) == "teams"));
        CHECK(o.ludo.house_rules());
        const json out = o;
        CHECK(out.at(key) == true);
        CHECK(out.get<GameOptions>() == o);
        // Off is the default, and is not written.
        const GameOptions off = json{{"game", "ludo"}, {key, false}}.get<GameOptions>();
        CHECK(off == GameOptions::ludo_game(4));
        CHECK_FALSE(json(off).contains(key));
        // A value that is not a boolean is refused naming the key.
        CHECK(mentions(rejection(json{{"game", "ludo"}, {key, 1}}), key));
        // A Spook game has no such key.
        CHECK(mentions(rejection(json{{"game", "spook"}, {key, true}}), "not an option of spook"));
    }
    CHECK_FALSE(GameOptions::ludo_game(4).ludo.house_rules());
}

TEST_CASE("ludo house rules: the preset home_rules is the modern board with safe squares, bonus throws and three sixes [core][options][house]") {
    const GameOptions o = json{{"game", "ludo"}, {"preset", "home_rules"}}.get<GameOptions>();
    CHECK(o.players == 4);
    CHECK(o.ludo.arm == 6);
    CHECK(o.ludo.entry == LudoEntry::start_square);
    CHECK(o.ludo.safe_squares);
    CHECK(o.ludo.bonus_throws);
    CHECK(o.ludo.three_sixes);
    CHECK_FALSE(o.ludo.capture_to_home);
    CHECK_FALSE(o.ludo.teams);
    CHECK(o.ludo == home_rules());
    CHECK(ludo_preset_of(o.ludo) == "home_rules");
    CHECK(ludo_preset_of(GameOptions::ludo_game(4).ludo).empty());
    // Written out as the rules themselves, which read back as the same options.
    const json out = o;
    CHECK_FALSE(out.contains("preset"));
    CHECK(out.at("safe_squares") == true);
    CHECK(out.get<GameOptions>() == o);
    // The preset's own keys may be repeated when they agree.
    CHECK(json{{"game", "ludo"}, {"preset", "home_rules"}, {"arm", 6}, {"three_sixes", true}}.get<GameOptions>() == o);
    CHECK(json{{"game", "ludo"}, {"preset", "home_rules"}, {"players", 2}}.get<GameOptions>().players == 2);
}

TEST_CASE("ludo house rules: the preset with teams or capture_to_home added is accepted [core][options][house]") {
    const GameOptions teams =
        json{{"game", "ludo"}, {"players", 4}, {"preset", "home_rules"}, {"teams", true}}.get<GameOptions>();
    CHECK(teams.ludo.teams);
    CHECK(teams.ludo.safe_squares);
    CHECK(teams.ludo.arm == 6);
    CHECK(ludo_preset_of(teams.ludo).empty());  // no longer the preset exactly
    const GameOptions both =
        json{{"game", "ludo"}, {"preset", "home_rules"}, {"teams", true}, {"capture_to_home", true}}.get<GameOptions>();
    CHECK(both.ludo.teams);
    CHECK(both.ludo.capture_to_home);
    CHECK(json(both).get<GameOptions>() == both);
}

TEST_CASE("ludo house rules: refusals say why (preset contradicted, unknown preset, teams, a table game) [core][options][house]") {
    std::string msg = rejection(json{{"game", "ludo"}, {"preset", "home_rules"}, {"arm", 8}});
    CAPTURE(msg);
    CHECK(mentions(msg, "\"arm\""));
    CHECK(mentions(msg, "contradicts the preset \"home_rules\""));
    CHECK(mentions(msg, "(which has 6)"));
    msg = rejection(json{{"game", "ludo"}, {"preset", "home_rules"}, {"safe_squares", false}});
    CHECK(mentions(msg, "\"safe_squares\""));
    CHECK(mentions(msg, "contradicts"));
    msg = rejection(json{{"game", "ludo"}, {"preset", "home_rules"}, {"entry", "text"}});
    CHECK(mentions(msg, "\"entry\""));
    msg = rejection(json{{"game", "ludo"}, {"preset", "grandma"}});
    CHECK(mentions(msg, "\"preset\" must be \"home_rules\""));
    CHECK(mentions(msg, "grandma"));
    CHECK(mentions(rejection(json{{"game", "ludo"}, {"preset", 1}}), "preset"));
    CHECK(mentions(rejection(json{{"game", "spook"}, {"preset", "home_rules"}}), "not an option of spook"));
    // Teams: four players, and no play_on.
    msg = rejection(json{{"game", "ludo"}, {"players", 3}, {"teams", true}});
    CHECK(mentions(msg, "4 players"));
    msg = rejection(json{{"game", "ludo"}, {"preset", "home_rules"}, {"players", 2}, {"teams", true}});
    CHECK(mentions(msg, "4 players"));
    msg = rejection(json{{"game", "ludo"}, {"teams", true}, {"play_on", true}});
    CHECK(mentions(msg, "play_on"));
    // A table game keeps three_sixes only.
    const json table{{"game", "ludo"}, {"players", 2}, {"table", true}, {"table_names", {"Ann", "Ben"}}};
    for (const char* key : {"safe_squares", "bonus_throws", "capture_to_home"}) {
        json j = table;
        j[key] = true;
        CHECK(mentions(rejection(j), "three_sixes"));
    }
    json with_preset = table;
    with_preset["preset"] = "home_rules";
    CHECK(mentions(rejection(with_preset), "a game at a table"));
    json sixes = table;
    sixes["three_sixes"] = true;
    CHECK(rejection(sixes).empty());
}
