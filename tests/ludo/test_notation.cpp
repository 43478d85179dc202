// The position notation: parse, print, round trip, and the mistakes it refuses.
#include <doctest/doctest.h>

#include "helpers.h"

using namespace ludo_test;

TEST_CASE("positions round-trip through parse and print [ludo][notation]") {
    for (const char* text : {"green*:Y,Y,Y,Y red:Y,Y,Y,Y", "green:5,5,50,H red*:Y,55,0,12",
                             "green:Y,1,2,3 yellow:H,H,H,Y red*:40,41,42,43",
                             "green:H,54,Y,Y yellow:Y,Y,Y,Y red:Y,Y,Y,Y blue*:Y,10,10,10"}) {
        CAPTURE(text);
        const Game game = at(text);
        CHECK(game.position() == text);
        CHECK(Game::from_position(game.options(), game.position()) == game);
        CHECK_FALSE(game.broken_invariant());
    }
    // At n = 8 the progress runs to 74.
    CHECK(at("green:73,66,67,H red*:Y,Y,Y,Y", 8).position() == "green:73,66,67,H red*:Y,Y,Y,Y");
    // Without a mark, seat 0 is to throw; the printed form marks it.
    CHECK(at("green:Y,Y,Y,Y red:Y,Y,Y,Y").position() == "green*:Y,Y,Y,Y red:Y,Y,Y,Y");
}

TEST_CASE("the position builds the board: who stands where [ludo][notation]") {
    const Game game = at("green*:5,5,12,Y red:40,Y,Y,Y");  // red 40 is circuit square 14 (26 + 40 - 52)
    CHECK(game.occupant(5) == 0);
    CHECK(game.occupant_count(5) == 2);
    CHECK(game.is_block(5));
    CHECK(game.occupant(12) == 0);
    CHECK_FALSE(game.is_block(12));
    CHECK(game.occupant(14) == 1);
    CHECK(game.occupant(0) == -1);
    CHECK(game.progress(0, 3) == kYard);
}

TEST_CASE("mistakes are refused with what is wrong [ludo][notation]") {
    const auto refuses = [](const std::string& text, const std::string& part) {
        CAPTURE(text);
        try {
            (void)Game::from_position(ludo_options(2), text);
            FAIL("accepted");
        } catch (const std::invalid_argument& e) {
            CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos, e.what());
        }
    };
    refuses("green:Y,Y,Y,Y", "2 seats expected");
    refuses("green:Y,Y,Y,Y yellow:Y,Y,Y,Y", "seat 2 must be red");
    refuses("green:Y,Y,Y red:Y,Y,Y,Y", "needs four pieces");
    refuses("green:Y,Y,Y,Y,Y red:Y,Y,Y,Y", "more than four");
    refuses("green:Y,Y,Y,57 red:Y,Y,Y,Y", "\"57\" is not Y, H or a progress 0 to 56");
    refuses("green:Y,Y,Y,x red:Y,Y,Y,Y", "is not Y, H");
    refuses("green:3,Y,Y,Y red:29,Y,Y,Y", "circuit square 3 would hold green and red");
    refuses("green*:Y,Y,Y,Y red*:Y,Y,Y,Y", "two seats are marked");
    refuses("green:H,H,H,H red:Y,Y,Y,Y", "the game would be over");
    refuses("green;Y,Y,Y,Y red:Y,Y,Y,Y", "colour:pieces");
}
