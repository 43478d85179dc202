// The rounds of Spook & Werewolf Ludo (RULES.md part 1, "A round" and "Players, pieces and
// winning"), one TEST_CASE per rule, driven step by step through Game with chosen faces.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "spookludo/spook/play.h"
#include "spookludo/spook/policy.h"
#include "support.h"

using namespace spook_test;

namespace {

Square pos(const Game& g, int seat, int piece) {
    return g.player(seat).pieces[static_cast<std::size_t>(piece)];
}

// A one-player game whose single piece has been walked to `square` by quiet rounds.
Game solo_at(const Board& board, Square square) {
    Game g(spook_options(1, 1), {board});
    walk(g, square - 1);
    REQUIRE(pos(g, 0, 0) == square);
    return g;
}

// Walks the piece to `from`, moves it there in a last round, wakes `face` and returns where it is.
struct Woken {
    Square to;
    std::vector<PieceMove> moved;
};
Woken wake(const Board& board, Square from, Face face) {
    Game g(spook_options(1, 1), {board});
    walk(g, from - 2);  // one square short ...
    move_all(g, 1);     // ... and the last step in the round of the activation
    REQUIRE(pos(g, 0, 0) == from);
    REQUIRE(g.activate(face).ok());
    return {pos(g, 0, 0), g.last_activation().moved};
}

// Everything a rejected request must leave as it was.
struct Snapshot {
    std::vector<std::vector<Square>> positions;
    RoundPhase phase;
    int round;
    std::vector<std::optional<Move>> chosen;
    explicit Snapshot(const Game& g) : positions(all_positions(g)), phase(g.phase()), round(g.round()) {
        for (int s = 0; s < g.players(); ++s) chosen.push_back(g.chosen(s));
    }
    bool operator==(const Snapshot&) const = default;
};

void check_rejected(const Verdict& v, const Game& g, const Snapshot& before) {
    CHECK_FALSE(v.ok());
    CHECK_FALSE(v.reason.empty());
    CHECK(Snapshot(g) == before);
}

}  // namespace

TEST_CASE("a new game: every piece on square 1, round 1, waiting for the movement roll [spook][rules]") {
    for (int pieces = 1; pieces <= 3; ++pieces) {
        Game g(spook_options(2, pieces), {base_board(), board_with({{39, Character::hat}})});
        CHECK(g.phase() == RoundPhase::movement_roll);
        CHECK(g.round() == 1);
        CHECK_FALSE(g.over());
        CHECK(g.pieces() == pieces);
        for (int s = 0; s < 2; ++s) {
            CHECK(g.player(s).positions().size() == static_cast<std::size_t>(pieces));
            for (Square sq : g.player(s).positions()) CHECK(sq == kStartSquare);
            CHECK(g.in_play(s));
        }
        CHECK(g.winners().empty());
    }
}

TEST_CASE("a round runs movement roll, moves, activation roll [spook][rules]") {
    Game g(spook_options(1, 2), {base_board()});
    REQUIRE(g.roll_movement(4).ok());
    CHECK(g.phase() == RoundPhase::choosing);
    REQUIRE(g.movement_roll().has_value());
    CHECK(*g.movement_roll() == 4);
    REQUIRE(g.apply_moves().ok());
    CHECK(g.phase() == RoundPhase::activation_roll);
    CHECK(pos(g, 0, 0) == 5);
    REQUIRE(g.activate(1).ok());  // 5 is a werewolf: the hat does nothing
    CHECK(g.phase() == RoundPhase::movement_roll);
    CHECK(g.round() == 2);
    CHECK_FALSE(g.movement_roll().has_value());
    CHECK(g.last_activation().face == 1);
    CHECK(g.last_activation().character == Character::hat);
    CHECK(g.last_activation().moved.empty());
    CHECK(pos(g, 0, 0) == 5);
}

TEST_CASE("the Wizard's Hat moves a piece forward 3 squares [spook][rules]") {
    const Board b = board_with({{8, Character::hat}});  // 11 is an entrance: the piece stops there
    for (Face face : {1, 2}) {
        CAPTURE(face);
        const auto w = wake(b, 8, face);
        CHECK(w.to == 11);
        REQUIRE(w.moved.size() == 1);
        CHECK(w.moved[0].from == 8);
        CHECK(w.moved[0].to == 11);
    }
    // Any other face leaves it on the hat.
    for (Face face : {3, 4, 5, 6}) {
        CAPTURE(face);
        CHECK(wake(b, 8, face).to == 8);
    }
    CHECK(wake(board_with({{24, Character::hat}}), 24, 2).to == 27);
}

TEST_CASE("the Wizard's Hat carries a piece from 37 into the church [spook][rules]") {
    const Board b = board_with({{37, Character::hat}});
    Game g(spook_options(1, 1), {b});
    walk(g, 35);
    move_all(g, 1);
    REQUIRE(pos(g, 0, 0) == 37);
    REQUIRE(g.activate(1).ok());
    CHECK(pos(g, 0, 0) == kChurch);
    CHECK(g.over());  // one piece: in the church is home
    CHECK(g.winners() == std::vector<int>{0});
    CHECK(g.last_activation().finished == std::vector<int>{0});
}

TEST_CASE("the Wizard's Hat on 38 or 39: the piece stays [spook][rules]") {
    for (Square s : {38, 39}) {
        CAPTURE(s);
        const Board b = board_with({{s, Character::hat}});
        const auto w = wake(b, s, 1);
        CHECK(w.to == s);
        CHECK(w.moved.empty());  // nothing moved, nothing is reported as moved
        CHECK(wake(b, s, 2).to == s);
    }
}

TEST_CASE("the Black Cat moves a piece back 6 squares, never below square 1 [spook][rules]") {
    struct Case {
        Square from, to;
    };
    for (const Case c : {Case{5, 1}, Case{7, 1}, Case{2, 1}, Case{17, 11}, Case{14, 8}, Case{33, 27}, Case{39, 33}}) {
        CAPTURE(c.from);
        const Board b = board_with({{c.from, Character::cat}});
        const auto w = wake(b, c.from, 3);
        CHECK(w.to == c.to);
        REQUIRE(w.moved.size() == 1);
        CHECK(w.moved[0].to == c.to);
        for (Face other : {1, 2, 4, 5, 6}) CHECK(wake(b, c.from, other).to == c.from);
    }
}

TEST_CASE("the Spook and the Werewolf send a piece back to the entrance of its region [spook][rules]") {
    struct Case {
        Character c;
        Face face;
        Square from, to;
    };
    const std::vector<Case> cases{
        {Character::spook, 4, 15, 11},    {Character::werewolf, 5, 15, 11}, {Character::werewolf, 5, 27, 21},
        {Character::spook, 4, 27, 21},    {Character::spook, 4, 36, 31},    {Character::werewolf, 5, 36, 31},
        {Character::spook, 4, 5, 1},      {Character::werewolf, 5, 5, 1},   {Character::spook, 4, 10, 1},
        {Character::werewolf, 5, 20, 11}, {Character::spook, 4, 30, 21},    {Character::werewolf, 5, 39, 31},
        {Character::spook, 4, 32, 31},
    };
    for (const auto& c : cases) {
        CAPTURE(id_of(c.c));
        CAPTURE(c.from);
        const Board b = board_with({{c.from, c.c}});
        CHECK(wake(b, c.from, c.face).to == c.to);
        // The other monster of the pair does not wake for this face.
        CHECK(wake(b, c.from, c.face == 4 ? 5 : 4).to == c.from);
    }
}

TEST_CASE("the Witch sends a piece back to square 1 [spook][rules]") {
    for (Square s : {2, 12, 28, 39}) {
        CAPTURE(s);
        const Board b = board_with({{s, Character::witch}});
        CHECK(wake(b, s, 6).to == 1);
        CHECK(wake(b, s, 5).to == s);
    }
}

TEST_CASE("entrances and the church are untouched by every activation [spook][rules]") {
    // Three pieces (two are needed to finish): piece 0 in the church, piece 1 just moved onto an
    // entrance, piece 2 still on square 1. Every face, on boards full of each character, leaves
    // all three where they are.
    for (Character c : kCharacters) {
        for (Square entrance : {11, 21, 31}) {
            CAPTURE(id_of(c));
            CAPTURE(entrance);
            Game g(spook_options(1, 3), {uniform_board(c)});
            walk(g, 39, 0);
            REQUIRE(pos(g, 0, 0) == kChurch);
            walk(g, entrance - 2, 1);
            move_all(g, 1, 1);
            REQUIRE(pos(g, 0, 1) == entrance);
            REQUIRE(pos(g, 0, 2) == 1);
            for (Face f = 1; f <= 6; ++f) {
                CAPTURE(f);
                Game copy = g;
                REQUIRE(copy.activate(f).ok());
                CHECK(pos(copy, 0, 0) == kChurch);
                CHECK(pos(copy, 0, 1) == entrance);
                CHECK(pos(copy, 0, 2) == 1);
                CHECK(copy.last_activation().moved.empty());
                CHECK_FALSE(copy.over());
            }
        }
    }
}

TEST_CASE("one action per round: a piece carried onto another character does nothing more [spook][rules]") {
    SUBCASE("hat onto a hat") {
        const Board b = board_with({{5, Character::hat}, {8, Character::hat}});
        const auto w = wake(b, 5, 1);
        CHECK(w.to == 8);  // not on to 11
        CHECK(w.moved.size() == 1);
    }
    SUBCASE("hat onto a hat near the church") {
        const Board b = board_with({{34, Character::hat}, {37, Character::hat}});
        CHECK(wake(b, 34, 2).to == 37);  // not on into the church
    }
    SUBCASE("hat onto another character") {
        const Board b = board_with({{5, Character::hat}, {8, Character::witch}});
        CHECK(wake(b, 5, 1).to == 8);
    }
    SUBCASE("cat onto a cat") {
        const Board b = board_with({{15, Character::cat}, {9, Character::cat}, {3, Character::cat}});
        const auto w = wake(b, 15, 3);
        CHECK(w.to == 9);  // not on to 3
        REQUIRE(w.moved.size() == 1);
        CHECK(w.moved[0].from == 15);
    }
    SUBCASE("the next round's activation acts again") {
        const Board b = board_with({{5, Character::hat}, {8, Character::hat}});
        Game g(spook_options(1, 2), {b});
        move_all(g, 4);  // piece 0 to 5
        REQUIRE(g.activate(1).ok());
        REQUIRE(pos(g, 0, 0) == 8);
        // Next round piece 1 moves 1 -> 2 (a hat on the base board); the hat wakes again.
        move_all(g, 1, 1);
        REQUIRE(pos(g, 0, 1) == 2);
        REQUIRE(g.activate(2).ok());
        CHECK(pos(g, 0, 0) == 11);
        CHECK(pos(g, 0, 1) == 5);
        CHECK(g.last_activation().moved.size() == 2);
    }
}

TEST_CASE("every piece on every board with the woken character takes the action [spook][rules]") {
    // Three players, two pieces each, in step: pieces on 8 and 5 on every board.
    const std::vector<Board> boards{
        board_with({{5, Character::hat}, {8, Character::hat}}),  // both pieces on hats
        board_with({{5, Character::cat}, {8, Character::hat}}),  // one piece on a hat
        board_with({{5, Character::cat}}),                       // none (8 is a cat)
    };
    Game g(spook_options(3, 2), boards);
    quiet_round(g, 4);     // only one outcome: piece 0 to 5
    quiet_round(g, 3, 0);  // piece 0 to 8
    move_all(g, 4, 1);     // piece 1 to 5
    for (int s = 0; s < 3; ++s) {
        REQUIRE(pos(g, s, 0) == 8);
        REQUIRE(pos(g, s, 1) == 5);
    }
    REQUIRE(g.activate(2).ok());
    CHECK(pos(g, 0, 0) == 11);
    CHECK(pos(g, 0, 1) == 8);
    CHECK(pos(g, 1, 0) == 11);
    CHECK(pos(g, 1, 1) == 5);
    CHECK(pos(g, 2, 0) == 8);
    CHECK(pos(g, 2, 1) == 5);
    const auto& moved = g.last_activation().moved;
    REQUIRE(moved.size() == 3);
    auto has = [&](int seat, int piece, Square from, Square to) {
        return std::any_of(moved.begin(), moved.end(), [&](const PieceMove& m) {
            return m.seat == seat && m.piece == piece && m.from == from && m.to == to;
        });
    };
    CHECK(has(0, 0, 8, 11));
    CHECK(has(0, 1, 5, 8));
    CHECK(has(1, 0, 8, 11));
}

TEST_CASE("two pieces on one activated square both take the action [spook][rules]") {
    // Three pieces of one player: pieces 1 and 2 together on 7 (a hat on the base board).
    Game g(spook_options(1, 3), {base_board()});
    quiet_round(g, 6, 0);  // piece 0: 1 -> 7
    quiet_round(g, 6, 1);  // piece 1: 1 -> 7
    move_all(g, 6, 2);     // piece 2: 1 -> 7
    for (int i = 0; i < 3; ++i) REQUIRE(pos(g, 0, i) == 7);
    REQUIRE(g.activate(1).ok());
    for (int i = 0; i < 3; ++i) CHECK(pos(g, 0, i) == 10);
    CHECK(g.last_activation().moved.size() == 3);
}

TEST_CASE("exact throw: a piece cannot overshoot the church [spook][rules]") {
    SUBCASE("one piece on 37") {
        Game g = solo_at(base_board(), 37);
        for (Face roll = 1; roll <= 6; ++roll) {
            CAPTURE(roll);
            Game copy = g;
            REQUIRE(copy.roll_movement(roll).ok());
            const MoveList moves = copy.legal_moves(0);
            CHECK_FALSE(copy.needs_decision(0));
            if (roll <= 3) {
                REQUIRE(moves.size == 1);
                CHECK(moves[0].to == 37 + roll);
                CHECK(copy.choose(0, 0).ok());
            } else {
                CHECK(moves.empty());
                const Snapshot before(copy);
                const Verdict v = copy.choose(0, 0);
                check_rejected(v, copy, before);
                CHECK(v.reason.find("exact") != std::string::npos);
                REQUIRE(copy.apply_moves().ok());
                REQUIRE(copy.last_moves().size() == 1);
                CHECK_FALSE(copy.last_moves()[0].move.has_value());
                CHECK(pos(copy, 0, 0) == 37);
            }
        }
        // The exact roll enters and finishes.
        REQUIRE(g.roll_movement(3).ok());
        REQUIRE(g.apply_moves().ok());
        CHECK(pos(g, 0, 0) == kChurch);
        REQUIRE(g.activate(6).ok());
        CHECK(g.over());
    }
    SUBCASE("the other piece moves instead, without asking") {
        Game g(spook_options(1, 2), {base_board()});
        walk(g, 36, 0);
        REQUIRE(pos(g, 0, 0) == 37);
        REQUIRE(g.roll_movement(5).ok());
        const MoveList moves = g.legal_moves(0);
        REQUIRE(moves.size == 1);
        CHECK(moves[0] == Move{1, 1, 6});
        CHECK_FALSE(g.needs_decision(0));
        const Snapshot before(g);
        check_rejected(g.choose(0, 0), g, before);
        REQUIRE(g.apply_moves().ok());
        CHECK(pos(g, 0, 0) == 37);
        CHECK(pos(g, 0, 1) == 6);
        REQUIRE(g.last_moves().size() == 1);
        CHECK(g.last_moves()[0].source == ChoiceSource::only_move);
    }
}

TEST_CASE("no movable piece: the player stays put [spook][rules]") {
    Game g(spook_options(2, 2), {base_board(), board_with({{39, Character::hat}})});
    walk(g, 39, 0);  // piece 0 of both seats into the church
    walk(g, 37, 1);  // piece 1 of both seats to 38 (a werewolf on both boards)
    for (int s = 0; s < 2; ++s) {
        REQUIRE(pos(g, s, 0) == kChurch);
        REQUIRE(pos(g, s, 1) == 38);
    }
    for (Face roll = 3; roll <= 6; ++roll) {
        CAPTURE(roll);
        Game copy = g;
        REQUIRE(copy.roll_movement(roll).ok());
        CHECK(copy.legal_moves(0).empty());
        CHECK_FALSE(copy.needs_decision(0));
        CHECK(copy.awaiting().empty());
        REQUIRE(copy.apply_moves().ok());
        REQUIRE(copy.last_moves().size() == 2);  // announced: one record per seat, no move
        for (const MoveRecord& rec : copy.last_moves()) {
            CHECK_FALSE(rec.move.has_value());
            CHECK(rec.source == ChoiceSource::only_move);
        }
        CHECK(pos(copy, 0, 1) == 38);
        CHECK(pos(copy, 1, 1) == 38);
        CHECK(copy.phase() == RoundPhase::activation_roll);
    }
    // A 1 or a 2 still moves the piece.
    Game copy = g;
    REQUIRE(copy.roll_movement(2).ok());
    REQUIRE(copy.apply_moves().ok());
    CHECK(pos(copy, 0, 1) == 40);
}

TEST_CASE("distinct outcomes only: pieces on one square give one move, made without asking [spook][rules]") {
    SUBCASE("two pieces on square 1") {
        Game g(spook_options(1, 2), {base_board()});
        REQUIRE(g.roll_movement(3).ok());
        const MoveList moves = g.legal_moves(0);
        REQUIRE(moves.size == 1);
        CHECK(moves[0] == Move{0, 1, 4});
        CHECK_FALSE(g.needs_decision(0));
        CHECK(g.awaiting().empty());
        REQUIRE(g.apply_moves().ok());
        REQUIRE(g.last_moves().size() == 1);
        REQUIRE(g.last_moves()[0].move.has_value());
        CHECK(*g.last_moves()[0].move == Move{0, 1, 4});
        CHECK(g.last_moves()[0].source == ChoiceSource::only_move);
        CHECK(pos(g, 0, 0) == 4);
        CHECK(pos(g, 0, 1) == 1);
    }
    SUBCASE("three pieces on square 1") {
        Game g(spook_options(1, 3), {base_board()});
        REQUIRE(g.roll_movement(6).ok());
        CHECK(g.legal_moves(0).size == 1);
        CHECK_FALSE(g.needs_decision(0));
    }
    SUBCASE("three pieces on two squares: two moves, a real choice") {
        Game g(spook_options(1, 3), {base_board()});
        quiet_round(g, 6);  // piece 0 to 7
        REQUIRE(g.roll_movement(2).ok());
        const MoveList moves = g.legal_moves(0);
        REQUIRE(moves.size == 2);
        CHECK(moves[0] == Move{0, 7, 9});
        CHECK(moves[1] == Move{1, 1, 3});
        CHECK(g.needs_decision(0));
        CHECK(g.awaiting() == std::vector<int>{0});
        // Either piece on square 1 may be named; the outcome is the same.
        CHECK(g.choose(0, 2).ok());
        CHECK_FALSE(g.needs_decision(0));
        REQUIRE(g.apply_moves().ok());
        CHECK(g.last_moves()[0].source == ChoiceSource::player);
        CHECK(pos(g, 0, 2) == 3);
    }
    SUBCASE("two pieces, but only one can move") {
        Game g(spook_options(1, 2), {base_board()});
        walk(g, 36);  // piece 0 to 37
        REQUIRE(g.roll_movement(6).ok());
        CHECK(g.legal_moves(0).size == 1);
        CHECK_FALSE(g.needs_decision(0));
    }
}

TEST_CASE("all players' moves are applied together [spook][rules]") {
    Game g(spook_options(2, 2), {base_board(), board_with({{39, Character::hat}})});
    quiet_round(g, 6);  // piece 0 of both seats to 7
    REQUIRE(g.roll_movement(2).ok());
    CHECK(g.awaiting() == std::vector<int>{0, 1});
    const auto start = all_positions(g);

    REQUIRE(g.choose(0, 1).ok());
    CHECK(all_positions(g) == start);  // a choice moves nothing yet
    REQUIRE(g.chosen(0).has_value());
    CHECK(*g.chosen(0) == Move{1, 1, 3});
    CHECK_FALSE(g.chosen(1).has_value());
    CHECK(g.awaiting() == std::vector<int>{1});
    CHECK(g.phase() == RoundPhase::choosing);

    const Snapshot before(g);
    const Verdict early = g.apply_moves();
    check_rejected(early, g, before);
    CHECK(early.reason.find("seat 2 has not chosen") != std::string::npos);  // seat index 1: people count from 1

    REQUIRE(g.choose(1, 0, ChoiceSource::timeout).ok());
    CHECK(all_positions(g) == start);
    CHECK(g.awaiting().empty());
    REQUIRE(g.apply_moves().ok());
    CHECK(all_positions(g) == std::vector<std::vector<Square>>{{7, 3}, {9, 1}});
    REQUIRE(g.last_moves().size() == 2);
    CHECK(g.last_moves()[0].seat == 0);
    CHECK(g.last_moves()[0].source == ChoiceSource::player);
    CHECK(*g.last_moves()[0].move == Move{1, 1, 3});
    CHECK(g.last_moves()[1].seat == 1);
    CHECK(g.last_moves()[1].source == ChoiceSource::timeout);
    CHECK(*g.last_moves()[1].move == Move{0, 7, 9});
}

TEST_CASE("illegal requests are rejected with a reason and change nothing [spook][rules]") {
    // Two players, two pieces; piece 0 of both seats in the church.
    Game home(spook_options(2, 2), {base_board(), board_with({{39, Character::hat}})});
    walk(home, 39, 0);
    REQUIRE(pos(home, 0, 0) == kChurch);
    REQUIRE(home.phase() == RoundPhase::movement_roll);

    SUBCASE("in the movement_roll phase") {
        Game g = home;
        const Snapshot before(g);
        check_rejected(g.choose(0, 1), g, before);
        check_rejected(g.apply_moves(), g, before);
        check_rejected(g.activate(3), g, before);
        check_rejected(g.roll_movement(0), g, before);
        check_rejected(g.roll_movement(7), g, before);
        CHECK(g.legal_moves(0).empty());
    }
    SUBCASE("in the choosing phase") {
        Game g = home;
        REQUIRE(g.roll_movement(2).ok());
        const Snapshot before(g);
        check_rejected(g.roll_movement(2), g, before);
        check_rejected(g.activate(3), g, before);
        check_rejected(g.choose(-1, 1), g, before);
        check_rejected(g.choose(2, 1), g, before);
        check_rejected(g.choose(0, -1), g, before);
        check_rejected(g.choose(0, 2), g, before);
        const Verdict church = g.choose(0, 0);
        check_rejected(church, g, before);
        CHECK(church.reason.find("church") != std::string::npos);
    }
    SUBCASE("a second choice") {
        Game g = home;
        REQUIRE(g.roll_movement(2).ok());
        REQUIRE(g.choose(0, 1).ok());
        const Snapshot before(g);
        const Verdict again = g.choose(0, 1);
        check_rejected(again, g, before);
        CHECK(again.reason.find("already") != std::string::npos);
        check_rejected(g.choose(0, 1, ChoiceSource::timeout), g, before);
        REQUIRE(g.apply_moves().ok());
        CHECK(g.last_moves()[0].source == ChoiceSource::player);
    }
    SUBCASE("in the activation_roll phase") {
        Game g = home;
        REQUIRE(g.roll_movement(2).ok());
        REQUIRE(g.apply_moves().ok());
        const Snapshot before(g);
        check_rejected(g.choose(0, 1), g, before);
        check_rejected(g.apply_moves(), g, before);
        check_rejected(g.roll_movement(2), g, before);
        check_rejected(g.activate(0), g, before);
        check_rejected(g.activate(7), g, before);
        CHECK(g.activate(6).ok());
    }
    SUBCASE("after the game is over") {
        Game g(spook_options(1, 1), {base_board()});
        walk(g, 39);
        REQUIRE(g.over());
        REQUIRE(g.phase() == RoundPhase::finished);
        const Snapshot before(g);
        check_rejected(g.roll_movement(1), g, before);
        check_rejected(g.choose(0, 0), g, before);
        check_rejected(g.apply_moves(), g, before);
        check_rejected(g.activate(1), g, before);
    }
}

TEST_CASE("apply_moves waits for every needed choice [spook][rules]") {
    Game g(spook_options(3, 2), {base_board(), board_with({{39, Character::hat}}), board_with({{38, Character::hat}})});
    quiet_round(g, 6);
    REQUIRE(g.roll_movement(1).ok());
    CHECK(g.awaiting() == std::vector<int>{0, 1, 2});
    for (int s = 0; s < 3; ++s) {
        const Snapshot before(g);
        check_rejected(g.apply_moves(), g, before);
        REQUIRE(g.choose(s, 0, ChoiceSource::away).ok());
    }
    REQUIRE(g.apply_moves().ok());
    for (const auto& rec : g.last_moves()) CHECK(rec.source == ChoiceSource::away);
}

TEST_CASE("simultaneous finishers are joint winners [spook][rules]") {
    // Three players, one piece each, in step on 37; a hat there on boards 0 and 1 only.
    Game g(spook_options(3, 1), {board_with({{37, Character::hat}}),
                                 board_with({{37, Character::hat}, {39, Character::hat}}), base_board()});
    walk(g, 35);
    move_all(g, 1);
    for (int s = 0; s < 3; ++s) REQUIRE(pos(g, s, 0) == 37);
    const int round = g.round();

    SUBCASE("two finish in the same round") {
        REQUIRE(g.activate(2).ok());
        CHECK(g.over());
        CHECK(g.winners() == std::vector<int>{0, 1});
        CHECK(g.last_activation().finished == std::vector<int>{0, 1});
        const auto st = g.standings();
        REQUIRE(st.size() == 3);
        CHECK(st[0].seat == 0);
        CHECK(st[0].place == 1);
        CHECK(st[1].seat == 1);
        CHECK(st[1].place == 1);
        CHECK(st[0].finished_at == round);
        CHECK(st[1].finished_at == round);
        CHECK(st[2].seat == 2);
        CHECK(st[2].place == 3);
        CHECK_FALSE(st[2].finished_at.has_value());
        CHECK_FALSE(g.player(2).finished_round.has_value());
    }
    SUBCASE("all three finish with the exact roll") {
        Game h(spook_options(3, 1), {board_with({{37, Character::hat}}),
                                     board_with({{37, Character::hat}, {39, Character::hat}}), base_board()});
        walk(h, 36);  // 37 everywhere, quietly
        REQUIRE(h.roll_movement(3).ok());
        REQUIRE(h.apply_moves().ok());
        REQUIRE(h.activate(3).ok());
        CHECK(h.over());
        CHECK(h.winners() == std::vector<int>{0, 1, 2});
        for (const auto& st : h.standings()) CHECK(st.place == 1);
    }
    SUBCASE("one finishes alone") {
        Game h(spook_options(2, 1), {board_with({{37, Character::hat}}), base_board()});
        walk(h, 35);
        move_all(h, 1);
        REQUIRE(h.activate(1).ok());
        CHECK(h.over());
        CHECK(h.winners() == std::vector<int>{0});
        CHECK(pos(h, 1, 0) == 37);
    }
}

TEST_CASE("how many pieces must reach the church [spook][rules]") {
    SUBCASE("one piece: wins with it") {
        Game g(spook_options(1, 1), {base_board()});
        walk(g, 39);
        CHECK(g.over());
        CHECK(g.winners() == std::vector<int>{0});
        CHECK(g.player(0).in_church() == 1);
    }
    SUBCASE("two pieces: both are needed") {
        Game g(spook_options(1, 2), {base_board()});
        walk(g, 39, 0);
        CHECK_FALSE(g.over());
        CHECK(g.player(0).in_church() == 1);
        CHECK_FALSE(g.player(0).finished_round.has_value());
        walk(g, 39, 1);
        CHECK(g.over());
        CHECK(g.player(0).finished_round == g.round());
        CHECK(g.winners() == std::vector<int>{0});
    }
    SUBCASE("three pieces: two in the church win, the third may stay out") {
        Game g(spook_options(1, 3), {base_board()});
        walk(g, 39, 0);
        CHECK_FALSE(g.over());
        walk(g, 33, 1);
        REQUIRE(pos(g, 0, 1) == 34);
        CHECK_FALSE(g.over());
        walk(g, 6, 1);
        CHECK(g.over());
        CHECK(g.player(0).in_church() == 2);
        CHECK(pos(g, 0, 2) == 1);
        CHECK(g.winners() == std::vector<int>{0});
    }
}

TEST_CASE("play on: the game continues after the first finisher to rank everyone [spook][rules]") {
    // Three players, three pieces (two to finish), in step; a hat on 37 of board 0 only.
    const std::vector<Board> boards{board_with({{37, Character::hat}}), base_board(),
                                    board_with({{39, Character::hat}})};
    Game g(spook_options(3, 3, /*play_on=*/true), boards);
    walk(g, 39, 0);  // piece 0 home everywhere
    walk(g, 35, 1);
    move_all(g, 1, 1);  // piece 1 on 37 everywhere
    const int first = g.round();
    REQUIRE(g.activate(1).ok());
    REQUIRE(pos(g, 0, 1) == kChurch);
    REQUIRE(pos(g, 1, 1) == 37);
    CHECK(g.player(0).finished_round == first);
    CHECK_FALSE(g.over());
    CHECK(g.phase() == RoundPhase::movement_roll);
    CHECK(g.round() == first + 1);
    CHECK(g.winners() == std::vector<int>{0});
    CHECK_FALSE(g.in_play(0));
    CHECK(g.in_play(1));

    // The finished player takes no part: its third piece on 1 could move, but it is not asked.
    REQUIRE(g.roll_movement(3).ok());
    CHECK(g.legal_moves(0).empty());
    CHECK_FALSE(g.needs_decision(0));
    CHECK(g.awaiting() == std::vector<int>{1, 2});
    {
        const Snapshot before(g);
        const Verdict v = g.choose(0, 2);
        check_rejected(v, g, before);
        CHECK(v.reason.find("finished") != std::string::npos);
    }

    SUBCASE("the next two finish together and share second place") {
        REQUIRE(g.choose(1, 1).ok());
        REQUIRE(g.choose(2, 1).ok());
        REQUIRE(g.apply_moves().ok());
        REQUIRE(g.last_moves().size() == 2);
        CHECK(g.last_moves()[0].seat == 1);
        CHECK(g.last_moves()[1].seat == 2);
        CHECK(pos(g, 0, 2) == 1);
        REQUIRE(g.activate(quiet_face(g)).ok());
        CHECK(g.over());
        const auto st = g.standings();
        REQUIRE(st.size() == 3);
        CHECK(st[0].seat == 0);
        CHECK(st[0].place == 1);
        CHECK(st[1].place == 2);
        CHECK(st[2].place == 2);
        CHECK(st[1].finished_at == first + 1);
        CHECK(g.winners() == std::vector<int>{0});
    }
    SUBCASE("the game ends when only one player is unfinished") {
        REQUIRE(g.choose(1, 1).ok());  // 37 -> 40
        REQUIRE(g.choose(2, 2).ok());  // 1 -> 4
        REQUIRE(g.apply_moves().ok());
        REQUIRE(g.activate(quiet_face(g)).ok());
        CHECK(g.over());
        const auto st = g.standings();
        REQUIRE(st.size() == 3);
        CHECK(st[0].seat == 0);
        CHECK(st[0].place == 1);
        CHECK(st[1].seat == 1);
        CHECK(st[1].place == 2);
        CHECK(st[2].seat == 2);
        CHECK(st[2].place == 3);
        CHECK_FALSE(st[2].finished_at.has_value());
    }
}

TEST_CASE("without play on the game ends at the first finisher [spook][rules]") {
    const std::vector<Board> boards{board_with({{37, Character::hat}}), base_board(),
                                    board_with({{39, Character::hat}})};
    Game g(spook_options(3, 1), boards);
    walk(g, 35);
    move_all(g, 1);
    REQUIRE(g.activate(1).ok());
    CHECK(g.over());
    CHECK(g.phase() == RoundPhase::finished);
    CHECK(g.winners() == std::vector<int>{0});
    const auto st = g.standings();
    CHECK(st[1].place == 2);
    CHECK(st[2].place == 2);

    SUBCASE("one player playing on ends when it finishes") {
        Game solo(spook_options(1, 1, true), {base_board()});
        walk(solo, 39);
        CHECK(solo.over());
    }
    SUBCASE("two players playing on end at the first finisher too") {
        Game two(spook_options(2, 1, true), {board_with({{37, Character::hat}}), base_board()});
        walk(two, 35);
        move_all(two, 1);
        REQUIRE(two.activate(2).ok());
        CHECK(two.over());
        CHECK(two.standings()[1].place == 2);
    }
}

TEST_CASE("the game refuses boards that break the rules [spook][rules]") {
    const Board a = base_board();
    const Board b = board_with({{39, Character::hat}});
    auto message = [](const GameOptions& o, std::vector<Board> boards) -> std::string {
        try {
            Game g(o, std::move(boards));
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "";
    };
    SUBCASE("duplicate boards") {
        const auto msg = message(spook_options(3, 2), {a, b, a});
        CHECK(msg.find("board 3") != std::string::npos);
        CHECK(msg.find("board 1") != std::string::npos);
        CHECK_FALSE(message(spook_options(2, 2), {b, b}).empty());
    }
    SUBCASE("one board per player") {
        CHECK_FALSE(message(spook_options(2, 2), {a}).empty());
        CHECK_FALSE(message(spook_options(2, 2), {a, b, board_with({{38, Character::hat}})}).empty());
        CHECK_FALSE(message(spook_options(1, 2), {}).empty());
    }
    SUBCASE("a board with an empty square") {
        Board empty;
        const auto msg = message(spook_options(2, 2), {a, empty});
        CHECK(msg.find("board 2, square 2") != std::string::npos);
    }
    SUBCASE("options that are not playable") {
        CHECK_FALSE(message(spook_options(2, 4), {a, b}).empty());
        CHECK_FALSE(message(spook_options(0, 2), {}).empty());
        std::vector<Board> nine;
        Rng rng(3);
        while (nine.size() < 9) nine.push_back(Board::random(rng));
        CHECK_FALSE(message(spook_options(9, 2), nine).empty());
        CHECK_FALSE(message(GameOptions::ludo_game(2), {a, b}).empty());
    }
    SUBCASE("boards need not have 7 of each") {
        CHECK(message(spook_options(2, 2), {uniform_board(Character::hat), uniform_board(Character::witch)}).empty());
    }
}

namespace {

// The rules, written again as plainly as possible, for the seeded random play below.
Square reference_action(Character c, Square s) {
    switch (c) {
        case Character::hat:
            return s + 3 > 40 ? s : s + 3;
        case Character::cat:
            return std::max(1, s - 6);
        case Character::spook:
        case Character::werewolf:
            return s - (s - 1) % 10;
        case Character::witch:
            return 1;
        case Character::none:
            return s;
    }
    return s;
}

Character reference_woken(Face f) {
    static constexpr Character by_face[7]{Character::none,  Character::hat,      Character::hat,  Character::cat,
                                          Character::spook, Character::werewolf, Character::witch};
    return by_face[f];
}

}  // namespace

TEST_CASE("seeded random play follows a plain reference of the rules [spook][rules]") {
    Rng rng(20240601);
    int games_checked = 0, rounds_checked = 0;
    for (int game_no = 0; game_no < 150; ++game_no) {
        const int players = 1 + static_cast<int>(rng.uniform(8));
        const int pieces = 1 + static_cast<int>(rng.uniform(3));
        const bool play_on = rng.uniform(2) == 1;
        const int need = pieces == 1 ? 1 : 2;
        std::vector<Board> boards;
        while (static_cast<int>(boards.size()) < players) {
            Board b = Board::random(rng);
            if (std::find(boards.begin(), boards.end(), b) == boards.end()) boards.push_back(b);
        }
        Game g(spook_options(players, pieces, play_on), boards);
        std::vector<std::vector<Square>> ref(static_cast<std::size_t>(players),
                                             std::vector<Square>(static_cast<std::size_t>(pieces), 1));
        std::vector<std::optional<int>> finished(static_cast<std::size_t>(players));
        CAPTURE(game_no);
        for (int round = 1; round <= 400 && !g.over(); ++round) {
            CAPTURE(round);
            REQUIRE(g.round() == round);
            const Face roll = static_cast<Face>(1 + rng.uniform(6));
            REQUIRE(g.roll_movement(roll).ok());
            // Legal moves: one per distinct square that can move; choose any movable piece.
            std::vector<int> pick(static_cast<std::size_t>(players), -1);
            for (int s = 0; s < players; ++s) {
                const auto& mine = ref[static_cast<std::size_t>(s)];
                std::vector<Square> froms;
                std::vector<int> movable;
                if (!finished[static_cast<std::size_t>(s)])
                    for (int i = 0; i < pieces; ++i) {
                        const Square from = mine[static_cast<std::size_t>(i)];
                        if (from == 40 || from + roll > 40) continue;
                        movable.push_back(i);
                        if (std::find(froms.begin(), froms.end(), from) == froms.end()) froms.push_back(from);
                    }
                const MoveList moves = g.legal_moves(s);
                REQUIRE(moves.size == static_cast<int>(froms.size()));
                for (const Move& m : moves) {
                    CHECK(std::find(froms.begin(), froms.end(), m.from) != froms.end());
                    CHECK(mine[static_cast<std::size_t>(m.piece)] == m.from);
                    CHECK(m.to == m.from + roll);
                }
                CHECK(g.needs_decision(s) == (froms.size() >= 2));
                if (movable.empty()) continue;
                const int piece = movable[rng.uniform(static_cast<std::uint32_t>(movable.size()))];
                if (froms.size() >= 2) {
                    REQUIRE(g.choose(s, piece).ok());
                    pick[static_cast<std::size_t>(s)] = piece;
                } else {
                    pick[static_cast<std::size_t>(s)] = moves[0].piece;
                }
            }
            REQUIRE(g.apply_moves().ok());
            for (int s = 0; s < players; ++s)
                if (pick[static_cast<std::size_t>(s)] >= 0)
                    ref[static_cast<std::size_t>(s)][static_cast<std::size_t>(pick[static_cast<std::size_t>(s)])] +=
                        roll;
            CHECK(all_positions(g) == ref);

            const Face face = static_cast<Face>(1 + rng.uniform(6));
            REQUIRE(g.activate(face).ok());
            std::vector<int> newly;
            for (int s = 0; s < players; ++s) {
                if (finished[static_cast<std::size_t>(s)]) continue;
                int home = 0;
                for (Square& sq : ref[static_cast<std::size_t>(s)]) {
                    if (carries_character(sq) && boards[static_cast<std::size_t>(s)].at(sq) == reference_woken(face))
                        sq = reference_action(reference_woken(face), sq);
                    home += sq == 40;
                }
                if (home >= need) {
                    finished[static_cast<std::size_t>(s)] = round;
                    newly.push_back(s);
                }
            }
            CHECK(all_positions(g) == ref);
            CHECK(g.last_activation().finished == newly);
            int done = 0;
            for (const auto& f : finished) done += f.has_value();
            const bool should_end = done > 0 && (!play_on || players - done <= (players > 1 ? 1 : 0));
            REQUIRE(g.over() == should_end);
            ++rounds_checked;
        }
        REQUIRE(g.over());
        // Standings: place = 1 + number of seats that finished strictly earlier (or at all, for
        // seats that did not finish).
        const auto st = g.standings();
        REQUIRE(st.size() == static_cast<std::size_t>(players));
        for (const auto& s : st) {
            const auto& mine = finished[static_cast<std::size_t>(s.seat)];
            CHECK(s.finished_at == mine);
            int better = 0;
            for (const auto& other : finished)
                if (other && (!mine || *other < *mine)) ++better;
            CHECK(s.place == better + 1);
        }
        ++games_checked;
    }
    CHECK(games_checked == 150);
    CHECK(rounds_checked > 3000);
}

TEST_CASE("play_out plays a whole game with any policies [spook][rules]") {
    SolutionCache cache;
    for (int pieces = 1; pieces <= 2; ++pieces) {
        Game g(spook_options(3, pieces, true),
               {base_board(), board_with({{39, Character::hat}}), board_with({{38, Character::hat}})});
        SeededDice dice(17);
        Rng policy_rng(4);
        play_out(g, {PolicyKind::random, PolicyKind::greedy, PolicyKind::best}, dice, policy_rng, cache);
        CHECK(g.over());
        int finished = 0;
        for (int s = 0; s < 3; ++s) finished += g.player(s).finished_round.has_value();
        CHECK(finished >= 2);
        CHECK_THROWS_AS(play_out(g, {PolicyKind::random}, dice, policy_rng, cache), std::invalid_argument);
    }
}
