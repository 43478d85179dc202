// The client's view of a game, built from a recorded message sequence (client/view.h).
// (Placeholder with one real case until the lead's view tests land.)
#include <doctest/doctest.h>

#include "view.h"

using namespace spookludo;

TEST_CASE("view: a Spook roll and the moves that follow update the pieces") {
    client::GameView v;
    protocol::Joined j;
    j.room = "KQZTM";
    j.seat = 0;
    j.role = "player";
    j.host = true;
    v.apply(protocol::to_message(j));
    protocol::GameStarted g;
    g.game_id = "g";
    g.options = GameOptions::spook_game(2, 2);
    v.apply(protocol::to_message(g));
    v.apply(protocol::to_message(protocol::Roll{1, 4}));
    protocol::PieceMoveView m;
    m.seat = 1;
    m.piece = 1;
    m.from = 1;
    m.to = 5;
    v.apply(protocol::to_message(protocol::Moves{1, {m}}));
    CHECK(v.round() == 1);
    CHECK(v.movement_roll() == 4);
    REQUIRE(v.spook_positions().size() == 2);
    CHECK(v.spook_positions()[1] == std::vector<int>{1, 5});
    CHECK(v.spook_positions()[0] == std::vector<int>{1, 1});
}
