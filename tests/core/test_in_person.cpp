// The table game's engine (spookludo/in_person.h): the dice and what the table is told, with
// scripted dice; and the table options' JSON form.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "spookludo/in_person.h"

using namespace spookludo;

namespace {
GameOptions table(GameKind game, std::vector<std::string> names) {
    GameOptions o = game == GameKind::spook ? GameOptions::spook_game(static_cast<int>(names.size()))
                                            : GameOptions::ludo_game(static_cast<int>(names.size()));
    o.table = true;
    o.table_names = std::move(names);
    return o;
}
}  // namespace

TEST_CASE("table game: Spook alternates the movement roll and the activation roll, after the boards' assignment [core][table]") {
    ScriptedDice dice;
    dice.push_draw(0);  // the assignment of 2 boards: one draw from 2 (0: the two swap)
    dice.push_face(4);
    dice.push_face(3);
    dice.push_face(6);
    in_person::Game game(table(GameKind::spook, {"Ann", "Ben"}), {"Ann", "Ben"}, dice);
    CHECK(game.assignment() == std::vector<int>{1, 0});
    CHECK(game.next().text == "Round 1: roll 4. Everyone moves one piece 4 squares.");
    const auto& act = game.next();
    CHECK(act.character == "cat");
    CHECK(act.text == "Round 1: activation 3. The Black Cat wakes: every piece on its squares moves back 6 squares.");
    CHECK(game.next().step == 2);
    CHECK_THROWS_AS(game.skip(), std::logic_error);
    CHECK_THROWS_AS(game.declare({}), std::invalid_argument);
    CHECK_THROWS_AS(game.declare({0, 0}), std::invalid_argument);
    CHECK(game.declare({1, 0}).text == "The winners: Ann and Ben.");
    CHECK(game.over());
    CHECK_THROWS_AS(game.next(), std::logic_error);
}

TEST_CASE("table game: Ludo's roll-off throws again among the tied, a 6 throws again, the third 6 ends the turn, a skip passes it [core][table]") {
    ScriptedDice dice{5, 2, 5, 3, 6, /* throws */ 6, 2, 6, 6, 6, 1};
    GameOptions o = table(GameKind::ludo, {"Ann", "Ben", "Cid"});
    o.ludo.three_sixes = true;
    in_person::Game game(o, o.table_names, dice);
    const auto& off = game.next();
    CHECK(off.text == "Roll-off: Ann 5, Ben 2, Cid 5; again: Ann 3, Cid 6. Cid starts.");
    CHECK(game.turn() == 2);
    CHECK(game.next().text == "Throw 1: Cid throws 6. Cid throws again.");
    CHECK(game.next().text == "Throw 2: Cid throws 2. Next: Ann.");
    CHECK(game.next().next == 0);  // Ann's 6: again
    CHECK(game.next().next == 0);
    CHECK(game.next().text == "Throw 5: Ann throws 6. The third 6 in a row: it is not played and the turn ends. Next: Ben.");
    CHECK(game.skip().text == "Ben's turn is skipped. Next: Cid.");
    CHECK(game.next().seat == 2);
    CHECK(game.steps() == 7);
}

TEST_CASE("table options: the JSON form carries table and table_names, the names give players, and a mismatch is refused [core][table][options]") {
    const auto o = nlohmann::json::parse(R"({"game":"ludo","table":true,"table_names":["Ann","Ben","Cid"]})").get<GameOptions>();
    CHECK(o.table);
    CHECK(o.players == 3);
    CHECK(nlohmann::json(o).get<GameOptions>() == o);
    CHECK_THROWS_WITH_AS(nlohmann::json::parse(R"({"game":"ludo","players":2,"table":true,"table_names":["Ann","Ben","Cid"]})").get<GameOptions>(),
                         "table_names must name the 2 players (got 3 names)", std::invalid_argument);
    CHECK_THROWS_AS(nlohmann::json::parse(R"({"game":"spook","table_names":["Ann"]})").get<GameOptions>(), std::invalid_argument);
    CHECK(nlohmann::json(GameOptions::spook_game(2)).dump().find("table") == std::string::npos);
}
