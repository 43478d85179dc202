// The rulings of RULES.md part 2, one test case each, on positions in the notation of game.h.
// At n = 6 the start squares are green 0, yellow 13, red 26, blue 39 (circuit of 52 squares);
// the circuit ends at progress 50, the home column is 51..55, home is 56.
#include <doctest/doctest.h>

#include "helpers.h"

using namespace ludo_test;

TEST_CASE("geometry of both boards [ludo][rules]") {
    constexpr Geometry g8(8), g6(6);
    static_assert(g8.circuit_squares() == 68 && g8.home_column_squares() == 7 && g8.home() == 74);
    static_assert(g6.circuit_squares() == 52 && g6.home_column_squares() == 5 && g6.home() == 56);
    static_assert(g8.start_spacing() == 17 && g6.start_spacing() == 13);
    static_assert(g6.start_square(Colour::blue) == 39 && g8.start_square(Colour::red) == 34);
    static_assert(g6.square_of(Colour::yellow, 45) == 6);  // 13 + 45 wraps past square 51
    static_assert(g6.progress_at(Colour::yellow, 6) == 45);
    CHECK(colour_of_seat(2, 1) == Colour::red);
    CHECK(colour_of_seat(3, 2) == Colour::red);
    CHECK(colour_of_seat(4, 3) == Colour::blue);
}

TEST_CASE("a piece enters only on a 6 and lands on progress 5 [ludo][rules]") {
    Game game = at("green*:Y,Y,Y,Y red:Y,Y,Y,Y");
    for (Face f = 1; f <= 5; ++f) {
        Game g = game;
        g.apply_throw(f);
        CHECK(g.phase() == Phase::awaiting_throw);
        CHECK(g.current_seat() == 1);  // no legal move: play passed to red
        CHECK(g.position() == "green:Y,Y,Y,Y red*:Y,Y,Y,Y");
    }
    game.apply_throw(6);
    REQUIRE(game.phase() == Phase::awaiting_choice);
    CHECK(game.legal_moves().size() == 1);  // the four yard pieces are one choice
    REQUIRE(game.choose(0, 2).ok());
    CHECK(game.progress(0, 2) == 5);
    CHECK(game.occupant(5) == 0);  // six squares round, the start square counting as the first
    CHECK(game.occupant(0) == -1);
}

TEST_CASE("entering passes a single opposing piece, and captures one on progress 5 [ludo][rules]") {
    SUBCASE("a single red piece on green's start square stays") {
        Game game = at("green*:Y,Y,Y,Y red:Y,Y,Y,29");  // red 29 = square 3
        game.apply_throw(6);
        EventLog log;
        REQUIRE(game.choose(0, 0, &log).ok());
        CHECK(game.position() == "green*:5,Y,Y,Y red:Y,Y,Y,29");
        for (const Event& e : log) CHECK(e.kind != EventKind::captured);
    }
    SUBCASE("a single red piece on progress 5 goes back to its yard") {
        Game game = at("green*:Y,Y,Y,Y red:Y,40,Y,31");  // red 31 = square 5
        game.apply_throw(6);
        REQUIRE(game.legal_moves()[0].captures());
        EventLog log;
        REQUIRE(game.choose(0, 0, &log).ok());
        CHECK(game.position() == "green*:5,Y,Y,Y red:Y,40,Y,Y");
        REQUIRE(log.size() >= 2);
        CHECK(log[0].kind == EventKind::entered);
        CHECK(log[1].kind == EventKind::captured);
        CHECK(log[1].seat == 1);
        CHECK(log[1].piece == 3);
        CHECK(log[1].square == 5);
    }
}

TEST_CASE("an opposing block on the way in forbids entering [ludo][rules]") {
    for (const char* block : {"26,26", "29,29", "31,31"}) {  // red block on square 0, 3 or 5
        CAPTURE(block);
        Game game = at(std::string("green*:Y,Y,Y,Y red:Y,Y,") + block);
        game.apply_throw(6);
        CHECK(game.phase() == Phase::awaiting_throw);  // nothing could move: play passed on
        CHECK(game.current_seat() == 1);

        Game other = at(std::string("green*:Y,Y,Y,20 red:Y,Y,") + block);
        other.apply_throw(6);
        REQUIRE(other.phase() == Phase::awaiting_choice);
        CHECK(movable(other) == std::vector<int>{3});
        const Game before = other;
        const Verdict v = other.choose(0, 0);
        CHECK_FALSE(v.ok());
        CHECK(v.reason.find("block") != std::string::npos);
        CHECK(other == before);
    }
    // A red block just beyond progress 5 does not stand in the way.
    Game game = at("green*:Y,Y,Y,Y red:Y,Y,32,32");
    game.apply_throw(6);
    CHECK(game.phase() == Phase::awaiting_choice);
}

TEST_CASE("entry=start_square: the 6 places the piece on progress 0 [ludo][rules]") {
    const auto entry = LudoEntry::start_square;
    SUBCASE("onto the start square, and that is the whole move") {
        Game game = at("green*:Y,Y,Y,Y red:Y,Y,31,31", 6, entry);  // a red block on square 5 is no matter
        game.apply_throw(6);
        REQUIRE(game.choose(0, 1).ok());
        CHECK(game.progress(0, 1) == 0);
        CHECK(game.occupant(0) == 0);
        CHECK(game.phase() == Phase::awaiting_throw);
        CHECK(game.current_seat() == 0);  // the 6 was played: green throws again
    }
    SUBCASE("a single opposing piece on the start square is captured") {
        Game game = at("green*:Y,Y,Y,Y red:26,Y,Y,Y", 6, entry);
        game.apply_throw(6);
        REQUIRE(game.choose(0, 0).ok());
        CHECK(game.position() == "green*:0,Y,Y,Y red:Y,Y,Y,Y");
    }
    SUBCASE("an opposing block on the start square forbids it") {
        Game game = at("green*:Y,Y,Y,Y red:26,26,Y,Y", 6, entry);
        game.apply_throw(6);
        CHECK(game.phase() == Phase::awaiting_throw);
        CHECK(game.current_seat() == 1);
    }
}

TEST_CASE("no piece passes or lands on an opposing block, own pieces may [ludo][rules]") {
    // Red's block on square 12 (red progress 38); green's single piece on 10.
    Game game = at("green*:10,Y,Y,Y red:38,38,Y,Y");
    SUBCASE("short of the block is fine") {
        game.apply_throw(1);
        CHECK(movable(game) == std::vector<int>{0});
    }
    SUBCASE("landing on it is not") {
        game.apply_throw(2);
        CHECK(game.phase() == Phase::awaiting_throw);
        CHECK(game.current_seat() == 1);
    }
    SUBCASE("passing it is not") {
        game.apply_throw(5);
        CHECK(game.phase() == Phase::awaiting_throw);
        CHECK(game.current_seat() == 1);
    }
    SUBCASE("own pieces pass a block and join it") {
        Game own = at("green*:10,12,12,Y red:Y,Y,Y,Y");
        Game pass = own;
        pass.apply_throw(4);
        REQUIRE(pass.choose(0, 0).ok());
        CHECK(pass.progress(0, 0) == 14);
        Game join = own;
        join.apply_throw(2);
        CHECK(join.legal_moves().size() == 2);  // the block's two pieces are one choice
        REQUIRE(join.choose(0, 0).ok());
        CHECK(join.occupant_count(12) == 3);
        CHECK(join.is_block(12));
    }
    SUBCASE("landing on an own piece forms a block that stops the opponent") {
        Game g = at("green*:10,12,Y,Y red:35,Y,Y,Y");  // red 35 = square 9
        g.apply_throw(2);
        REQUIRE(g.choose(0, 0).ok());
        CHECK(g.is_block(12));
        g.apply_throw(4);  // red from square 9 would pass square 12
        CHECK(g.phase() == Phase::awaiting_throw);
        CHECK(g.current_seat() == 0);
    }
}

TEST_CASE("landing on a single opposing piece sends it to its yard [ludo][rules]") {
    Game game = at("green*:10,Y,Y,Y red:38,Y,Y,Y");  // red single on square 12
    game.apply_throw(2);
    REQUIRE(game.choose(0, 0).ok());
    CHECK(game.position() == "green:12,Y,Y,Y red*:Y,Y,Y,Y");
    CHECK(game.occupant(12) == 0);
    CHECK(game.occupant_count(12) == 1);
}

TEST_CASE("home columns are private: no captures or blocks there [ludo][rules]") {
    // Green in its home column (53) and red in its own (52): neither is on the circuit.
    Game game = at("green*:53,53,Y,Y red:52,Y,Y,Y");
    game.apply_throw(2);
    CHECK(movable(game) == std::vector<int>{0});
    REQUIRE(game.choose(0, 0).ok());
    CHECK(game.progress(0, 0) == 55);
}

TEST_CASE("home only with an exact throw [ludo][rules]") {
    Game game = at("green*:53,Y,Y,Y red:Y,Y,Y,Y");
    SUBCASE("the exact throw reaches home") {
        game.apply_throw(3);
        EventLog log;
        REQUIRE(game.choose(0, 0, &log).ok());
        CHECK(game.progress(0, 0) == 56);
        CHECK(game.pieces_home(0) == 1);
        bool home = false;
        for (const Event& e : log) home = home || e.kind == EventKind::reached_home;
        CHECK(home);
    }
    SUBCASE("more than needed cannot be played") {
        game.apply_throw(4);
        CHECK(game.phase() == Phase::awaiting_throw);
        CHECK(game.current_seat() == 1);
    }
    SUBCASE("and is rejected with the number needed") {
        Game g = at("green*:53,20,Y,Y red:Y,Y,Y,Y");
        g.apply_throw(5);
        const Verdict v = g.choose(0, 0);
        CHECK(v.reason == "piece 0 needs exactly 3 to reach home (the throw is 5)");
    }
}

TEST_CASE("a 6 with no legal move passes play on [ludo][rules]") {
    Game game = at("green*:H,H,H,55 red:Y,Y,Y,Y");
    EventLog log;
    game.apply_throw(6, &log);
    CHECK(game.phase() == Phase::awaiting_throw);
    CHECK(game.current_seat() == 1);
    CHECK(game.sixes_in_row() == 0);
    REQUIRE(log.size() == 3);
    CHECK(log[1].kind == EventKind::pass);
    CHECK(log[2].kind == EventKind::turn);
    CHECK(log[2].seat == 1);
}

TEST_CASE("a played 6 gives another throw, other faces pass play on [ludo][rules]") {
    Game game = at("green*:10,Y,Y,Y yellow:Y,Y,Y,Y red:Y,Y,Y,Y");
    game.apply_throw(6);
    EventLog log;
    REQUIRE(game.choose(0, 0, &log).ok());
    CHECK(game.current_seat() == 0);
    CHECK(game.phase() == Phase::awaiting_throw);
    CHECK(log.back().kind == EventKind::extra_throw);
    game.apply_throw(6);
    REQUIRE(game.choose(0, 1).ok());  // the second 6 brings a piece out, and again a throw
    CHECK(game.current_seat() == 0);
    game.apply_throw(3);
    REQUIRE(game.choose(0, 0).ok());
    CHECK(game.current_seat() == 1);
    CHECK(game.position() == "green:19,5,Y,Y yellow*:Y,Y,Y,Y red:Y,Y,Y,Y");
    CHECK(game.turns() == 3);
}

TEST_CASE("option three_sixes: the third 6 in a row is not played [ludo][rules]") {
    SUBCASE("on") {
        Game game = at("green*:10,Y,Y,Y red:Y,Y,Y,Y", 6, LudoEntry::text, false, true);
        game.apply_throw(6);
        REQUIRE(game.choose(0, 0).ok());
        game.apply_throw(6);
        REQUIRE(game.choose(0, 0).ok());
        EventLog log;
        game.apply_throw(6, &log);
        CHECK(log[1].kind == EventKind::three_sixes);
        CHECK(game.current_seat() == 1);
        CHECK(game.progress(0, 0) == 22);
        CHECK(game.sixes_in_row() == 0);
    }
    SUBCASE("off (the default): the third 6 is played too") {
        Game game = at("green*:10,Y,Y,Y red:Y,Y,Y,Y");
        for (int k = 0; k < 3; ++k) {
            game.apply_throw(6);
            REQUIRE(game.choose(0, 0).ok());
        }
        CHECK(game.progress(0, 0) == 28);
        CHECK(game.current_seat() == 0);
    }
    SUBCASE("a 6 of another player does not count") {
        Game game = at("green*:10,Y,Y,Y red:40,Y,Y,Y", 6, LudoEntry::text, false, true);
        game.apply_throw(6);
        REQUIRE(game.choose(0, 0).ok());
        game.apply_throw(2);
        REQUIRE(game.choose(0, 0).ok());
        game.apply_throw(6);  // red
        REQUIRE(game.choose(1, 0).ok());
        game.apply_throw(6);
        REQUIRE(game.choose(1, 0).ok());
        CHECK(game.sixes_in_row() == 2);
        CHECK(game.current_seat() == 1);
    }
}

TEST_CASE("roll-off: highest starts, ties for highest throw again, the winner throws afresh [ludo][rules]") {
    SUBCASE("a clear winner") {
        RecordingDice dice{2, 5, 3, 1, /* first throw of the game */ 4};
        Game game(ludo_options(4));
        EventLog log;
        game.roll_off(dice, &log);
        CHECK(game.current_seat() == 1);
        CHECK(game.phase() == Phase::awaiting_throw);
        CHECK(log.back() == Event{EventKind::starts, 1, -1, 0, 0, 0, -1, 0});
        log.clear();
        game.throw_die(dice, &log);
        REQUIRE(log.front().kind == EventKind::throw_);
        CHECK(log.front().face == 4);     // not the roll-off's 5
        CHECK(game.current_seat() == 2);  // 4 with all pieces in the yard: play passes on
        CHECK(dice.purposes == std::vector<DrawPurpose>{DrawPurpose::roll_off, DrawPurpose::roll_off,
                                                        DrawPurpose::roll_off, DrawPurpose::roll_off,
                                                        DrawPurpose::throw_});
    }
    SUBCASE("only those tied for highest throw again") {
        // Yellow and blue tie on 6 (twice); green and red do not throw again; blue wins.
        ScriptedDice dice{3, 6, 1, 6, /* rethrow: yellow, blue */ 4, 4, /* again */ 2, 5};
        Game game(ludo_options(4));
        EventLog log;
        game.roll_off(dice, &log);
        CHECK(game.current_seat() == 3);
        CHECK(dice.remaining() == 0);
        std::vector<int> seats;
        for (const Event& e : log)
            if (e.kind == EventKind::roll_off_throw) seats.push_back(e.seat);
        CHECK(seats == std::vector<int>{0, 1, 2, 3, 1, 3, 1, 3});
    }
    SUBCASE("twice is a mistake") {
        ScriptedDice dice{6, 1};
        Game game(ludo_options(2));
        game.roll_off(dice);
        CHECK_THROWS_AS(game.roll_off(dice), std::logic_error);
    }
}

namespace {

// The position of a four-player game with `seat`'s pieces and one opposing block, all else in yards.
std::string four_seats(int seat, const std::string& mine, int block_seat, int block_progress) {
    std::string out;
    for (int s = 0; s < 4; ++s) {
        if (s > 0) out += ' ';
        out += to_string(colour_of_seat(4, s));
        if (s == seat) out += '*';
        out += ':';
        if (s == seat)
            out += mine;
        else if (s == block_seat)
            out += std::to_string(block_progress) + "," + std::to_string(block_progress) + ",Y,Y";
        else
            out += "Y,Y,Y,Y";
    }
    return out;
}

}  // namespace

TEST_CASE("the circuit turns into the home column for every colour, at n = 6 and n = 8 [ludo][rules]") {
    for (int arm : {6, 8}) {
        const Geometry g(arm);
        const int last = g.last_circuit_progress();
        for (int seat = 0; seat < 4; ++seat) {
            CAPTURE(arm);
            CAPTURE(seat);
            const Colour c = colour_of_seat(4, seat);
            const int start = g.start_square(c);
            const int behind = (start + g.circuit_squares() - 1) % g.circuit_squares();
            CHECK(g.square_of(c, last) == (start + g.circuit_squares() - 2) % g.circuit_squares());
            CHECK(g.square_of(c, last + 1) == -1);
            CHECK(g.in_home_column(last + 1));
            CHECK(g.in_home_column(g.home() - 1));

            // An opposing block on the square just behind the start square never stands in the way:
            // the piece turns into its home column before it.
            const int other = (seat + 1) % 4;
            const int block_progress = g.progress_at(colour_of_seat(4, other), behind);
            const std::string mine = std::to_string(last - 1) + ",Y,Y,Y";
            Game game = Game::from_position(ludo_options(4, arm), four_seats(seat, mine, other, block_progress));
            REQUIRE(game.is_block(behind));
            game.apply_throw(2);
            REQUIRE(game.choose(seat, 0).ok());
            CHECK(game.progress(seat, 0) == last + 1);
            CHECK(game.occupant(g.square_of(c, last - 1)) == -1);

            // The last circuit square itself is still the circuit: a block there stops the piece.
            const int block_last = g.progress_at(colour_of_seat(4, other), g.square_of(c, last));
            Game stopped = Game::from_position(ludo_options(4, arm), four_seats(seat, mine, other, block_last));
            stopped.apply_throw(2);
            CHECK(stopped.phase() == Phase::awaiting_throw);
            CHECK(stopped.current_seat() == other);

            // From the last circuit square a throw of home - last reaches home exactly.
            if (g.home() - last <= 6) {
                Game run =
                    Game::from_position(ludo_options(4, arm), four_seats(seat, std::to_string(last) + ",Y,Y,Y", -1, 0));
                run.apply_throw(g.home() - last);
                REQUIRE(run.choose(seat, 0).ok());
                CHECK(run.pieces_home(seat) == 1);
            }
        }
    }
}

TEST_CASE("an illegal choice is rejected with a reason and changes nothing [ludo][rules]") {
    Game game = at("green*:10,H,Y,Y red:38,38,Y,Y");
    SUBCASE("before the throw") {
        const Game before = game;
        CHECK(game.choose(0, 0).reason == "there is no throw to play: green must throw first");
        CHECK(game == before);
    }
    game.apply_throw(5);  // 10 + 5 would pass red's block on square 12: nothing moves
    CHECK(game.current_seat() == 1);
    game = at("green*:10,H,Y,Y red:40,Y,Y,Y");
    game.apply_throw(3);
    const Game before = game;
    struct Case {
        int seat, piece;
        const char* reason;
    };
    for (const Case& k : {Case{1, 0, "it is green's turn, not red's"}, Case{0, 1, "piece 1 is already home"},
                          Case{0, 2, "piece 2 is in the yard: only a 6 brings it out (the throw is 3)"},
                          Case{0, 7, "there is no piece 7 (pieces are 0 to 3)"}, Case{5, 0, "there is no seat 6"}}) {
        CAPTURE(k.piece);
        const Verdict v = game.choose(k.seat, k.piece);
        CHECK_FALSE(v.ok());
        CHECK(v.reason == k.reason);
        CHECK(game == before);
    }
    Game blocked = at("green*:10,20,Y,Y red:38,38,Y,Y");
    blocked.apply_throw(3);
    const Game was = blocked;
    CHECK(blocked.choose(0, 0).reason == "piece 0 cannot pass or land on red's block on circuit square 12");
    CHECK(blocked == was);
    CHECK(blocked.can_throw(0).reason == "the 3 thrown must be played first");
    REQUIRE(blocked.choose(0, 1).ok());
    CHECK(blocked.can_throw(0).reason == "it is red's turn to throw");
    CHECK(blocked.can_throw(1).ok());
}

TEST_CASE("the first to bring all four home wins [ludo][rules]") {
    Game game = at("green*:H,H,H,54 yellow:H,H,H,Y red:Y,Y,Y,Y");
    game.apply_throw(2);
    EventLog log;
    REQUIRE(game.choose(0, 3, &log).ok());
    CHECK(game.phase() == Phase::finished);
    CHECK(game.winners() == std::vector<int>{0});
    CHECK(log.back().kind == EventKind::game_over);
    CHECK(game.choose(1, 3).reason == "the game is over");
}

TEST_CASE("play_on: finished players take no more turns, places by turn of finishing [ludo][rules]") {
    Game game = at("green*:H,H,H,54 yellow:H,H,H,55 red:H,H,H,53 blue:H,H,H,Y", 6, LudoEntry::text, true);
    game.apply_throw(6);  // turn 1: green cannot move
    CHECK(game.current_seat() == 1);
    game.apply_throw(1);
    REQUIRE(game.choose(1, 3).ok());  // turn 2: yellow finishes first
    CHECK(game.phase() == Phase::awaiting_throw);
    CHECK(game.current_seat() == 2);
    game.apply_throw(1);
    REQUIRE(game.choose(2, 3).ok());  // turn 3: red to 54
    game.apply_throw(2);              // turn 4: blue cannot move
    game.apply_throw(2);
    REQUIRE(game.choose(0, 3).ok());  // turn 5: green finishes
    CHECK(game.current_seat() == 2);  // yellow, finished, is skipped
    CHECK(game.phase() == Phase::awaiting_throw);
    game.apply_throw(2);
    REQUIRE(game.choose(2, 3).ok());  // turn 6: red finishes; only blue is left: the game ends
    CHECK(game.phase() == Phase::finished);
    const auto st = game.standings();
    REQUIRE(st.size() == 4);
    CHECK(st[0].seat == 1);
    CHECK(st[0].place == 1);
    CHECK(st[1].seat == 0);
    CHECK(st[1].place == 2);
    CHECK(st[2].seat == 2);
    CHECK(st[2].place == 3);
    CHECK(st[3].seat == 3);
    CHECK(st[3].place == 4);
    CHECK(game.finished_at(0) == 5);
    CHECK(game.finished_at(1) == 2);
    CHECK_FALSE(game.finished_at(3).has_value());
    CHECK(game.winners() == std::vector<int>{1});

    SUBCASE("a finished player's 6 does not give it another throw") {
        Game g = at("green*:H,H,H,50 yellow:Y,Y,Y,Y red:Y,Y,Y,Y", 6, LudoEntry::text, true);
        g.apply_throw(6);
        REQUIRE(g.choose(0, 3).ok());
        CHECK(g.has_finished(0));
        CHECK(g.current_seat() == 1);
        CHECK(g.phase() == Phase::awaiting_throw);
    }
}
