// The house rules of Classic Ludo (docs/rules.md, "House rules"), one test case per rule and per
// ruling, on positions in the notation of game.h. All on the modern board (n = 6): start squares
// green 0, yellow 13, red 26, blue 39; star squares 8, 21, 34, 47; the circuit ends at progress
// 50, the home column is 51..55, home is 56, and 'B' (57) is the square behind the start square.
#include <doctest/doctest.h>

#include <algorithm>

#include "helpers.h"

using namespace ludo_test;

namespace {

// The house rules of a test, each off unless named: house_at("...", {.safe = true}).
struct House {
    bool safe = false;
    bool bonus = false;
    bool capture = false;  // capture_to_home
    bool teams = false;
    bool three_sixes = false;
    bool play_on = false;
    LudoEntry entry = LudoEntry::text;
};

GameOptions house_options(int players, House h) {
    GameOptions o = ludo_options(players, 6, h.entry, h.play_on, h.three_sixes);
    o.ludo.safe_squares = h.safe;
    o.ludo.bonus_throws = h.bonus;
    o.ludo.capture_to_home = h.capture;
    o.ludo.teams = h.teams;
    return o;
}

Game house_at(std::string_view position, House h) {
    int players = 1;
    for (char c : position) players += c == ' ' ? 1 : 0;
    Game game = Game::from_position(house_options(players, h), position);
    REQUIRE_FALSE(game.broken_invariant().has_value());
    return game;
}

// Throws `face` and plays `piece` of the seat to move (which must be a legal choice).
EventLog throw_and_move(Game& game, Face face, int piece) {
    EventLog log;
    game.apply_throw(face, &log);
    REQUIRE(game.phase() == Phase::awaiting_choice);
    const Verdict v = game.choose(game.current_seat(), piece, &log);
    INFO(v.reason);
    REQUIRE(v.ok());
    if (const auto broken = game.broken_invariant()) FAIL(*broken);
    return log;
}

int count(const EventLog& log, EventKind kind) {
    return static_cast<int>(std::count_if(log.begin(), log.end(), [&](const Event& e) { return e.kind == kind; }));
}

const Event* find(const EventLog& log, EventKind kind) {
    for (const Event& e : log)
        if (e.kind == kind) return &e;
    return nullptr;
}

}  // namespace

TEST_CASE("safe squares: the four start squares and the four star squares, 8 on from each start [ludo][house]") {
    constexpr Geometry g6(6), g8(8);
    static_assert(g6.star_square(Colour::green) == 8 && g6.star_square(Colour::yellow) == 21);
    static_assert(g6.star_square(Colour::red) == 34 && g6.star_square(Colour::blue) == 47);
    static_assert(g8.star_square(Colour::green) == 12 && g8.star_square(Colour::blue) == 63);
    std::vector<int> safe6, safe8;
    for (int sq = 0; sq < g6.circuit_squares(); ++sq)
        if (g6.is_safe_square(sq)) safe6.push_back(sq);
    for (int sq = 0; sq < g8.circuit_squares(); ++sq)
        if (g8.is_safe_square(sq)) safe8.push_back(sq);
    CHECK(safe6 == std::vector<int>{0, 8, 13, 21, 26, 34, 39, 47});
    CHECK(safe8 == std::vector<int>{0, 12, 17, 29, 34, 46, 51, 63});
    CHECK_FALSE(g6.is_safe_square(-1));
    CHECK_FALSE(g6.is_safe_square(52));
}

TEST_CASE("safe squares: landing beside an opponent on a start square captures nothing, both stay [ludo][house]") {
    // Red's single piece on yellow's start square (square 13 = red progress 39); green's on 10.
    Game game = house_at("green*:10,Y,Y,Y red:39,Y,Y,Y", {.safe = true});
    game.apply_throw(3);
    REQUIRE(game.legal_moves().size() == 1);
    CHECK_FALSE(game.legal_moves()[0].captures());
    EventLog log;
    REQUIRE(game.choose(0, 0, &log).ok());
    CHECK(game.position() == "green:13,Y,Y,Y red*:39,Y,Y,Y");
    CHECK(game.occupant_count(13) == 2);
    CHECK(count(log, EventKind::captured) == 0);
    const Event* safe = find(log, EventKind::safe_square);
    REQUIRE(safe != nullptr);
    CHECK(safe->seat == 0);
    CHECK(safe->square == 13);
    CHECK(safe->detail == 1);  // beside red
    CHECK_FALSE(game.broken_invariant().has_value());
}

TEST_CASE("safe squares: landing beside an opponent on a star square captures nothing, both stay [ludo][house]") {
    // Red's single piece on the star square 8 (red progress 34); green's on 5.
    Game game = house_at("green*:5,Y,Y,Y red:34,Y,Y,Y", {.safe = true});
    const EventLog log = throw_and_move(game, 3, 0);
    CHECK(game.position() == "green:8,Y,Y,Y red*:34,Y,Y,Y");
    CHECK(count(log, EventKind::captured) == 0);
    CHECK(count(log, EventKind::safe_square) == 1);
    // Red comes round later and lands there too: still no capture.
    Game later = house_at("green:8,Y,Y,Y red*:30,Y,Y,Y", {.safe = true});
    throw_and_move(later, 4, 0);
    CHECK(later.position() == "green*:8,Y,Y,Y red:34,Y,Y,Y");
}

TEST_CASE("safe squares: without the option the same moves capture [ludo][house]") {
    Game start = house_at("green*:10,Y,Y,Y red:39,Y,Y,Y", {});
    EventLog log = throw_and_move(start, 3, 0);
    CHECK(start.position() == "green:13,Y,Y,Y red*:Y,Y,Y,Y");
    CHECK(count(log, EventKind::captured) == 1);
    CHECK(count(log, EventKind::safe_square) == 0);
    Game star = house_at("green*:5,Y,Y,Y red:34,Y,Y,Y", {});
    log = throw_and_move(star, 3, 0);
    CHECK(star.position() == "green:8,Y,Y,Y red*:Y,Y,Y,Y");
    // With the option, other squares capture as ever (square 9 is neither start nor star).
    Game plain = house_at("green*:5,Y,Y,Y red:35,Y,Y,Y", {.safe = true});
    log = throw_and_move(plain, 4, 0);
    CHECK(plain.position() == "green:9,Y,Y,Y red*:Y,Y,Y,Y");
    CHECK(count(log, EventKind::captured) == 1);
}

TEST_CASE("safe squares: a block on a safe square still blocks, to land on and to pass [ludo][house]") {
    // Red's block on the star square 8 (red progress 34, 34); green's single piece on 5.
    for (Face f : {3, 4, 6}) {
        CAPTURE(f);
        Game game = house_at("green*:5,Y,Y,Y red:34,34,Y,Y", {.safe = true});
        game.apply_throw(f);
        if (f == 6) {  // only the yard piece can move (entry to 5 is short of the block)
            REQUIRE(game.phase() == Phase::awaiting_choice);
            CHECK(movable(game) == std::vector<int>{1});
            const Verdict v = game.check(0, 0);
            CHECK_FALSE(v.ok());
            CHECK(v.code == "path_blocked");
        } else {
            CHECK(game.phase() == Phase::awaiting_throw);  // nothing could move: red's turn
            CHECK(game.current_seat() == 1);
        }
    }
}

TEST_CASE("safe squares: entering onto one's start square beside an opponent captures nothing [ludo][house]") {
    // Red's single piece on green's start square (square 0 = red progress 26).
    Game game = house_at("green*:Y,Y,Y,Y red:26,Y,Y,Y", {.safe = true, .entry = LudoEntry::start_square});
    const EventLog log = throw_and_move(game, 6, 0);
    CHECK(game.position() == "green*:0,Y,Y,Y red:26,Y,Y,Y");  // the 6: green throws again
    CHECK(count(log, EventKind::captured) == 0);
    REQUIRE(find(log, EventKind::safe_square) != nullptr);
    CHECK(find(log, EventKind::safe_square)->detail == 1);
    // A red block there forbids the entry, as on any square.
    Game blocked = house_at("green*:Y,Y,Y,Y red:26,26,Y,Y", {.safe = true, .entry = LudoEntry::start_square});
    blocked.apply_throw(6);
    CHECK(blocked.current_seat() == 1);
    // Without the option the entry captures.
    Game plain = house_at("green*:Y,Y,Y,Y red:26,Y,Y,Y", {.entry = LudoEntry::start_square});
    throw_and_move(plain, 6, 0);
    CHECK(plain.position() == "green*:0,Y,Y,Y red:Y,Y,Y,Y");
}

TEST_CASE("bonus throws: a capture earns one more throw [ludo][house]") {
    // Green's piece on 10, red's single piece on square 12 (red progress 38).
    Game game = house_at("green*:10,Y,Y,Y red:38,Y,Y,Y", {.bonus = true});
    const EventLog log = throw_and_move(game, 2, 0);
    CHECK(game.position() == "green*:12,Y,Y,Y red:Y,Y,Y,Y");
    CHECK(game.phase() == Phase::awaiting_throw);
    const Event* again = find(log, EventKind::extra_throw);
    REQUIRE(again != nullptr);
    CHECK(again->detail == static_cast<int>(ExtraThrow::capture));
    CHECK(count(log, EventKind::turn) == 0);
    // Without the option the capture ends the turn.
    Game plain = house_at("green*:10,Y,Y,Y red:38,Y,Y,Y", {});
    throw_and_move(plain, 2, 0);
    CHECK(plain.current_seat() == 1);
}

TEST_CASE("bonus throws: a piece brought home earns one more throw [ludo][house]") {
    Game game = house_at("green*:54,20,Y,Y red:Y,Y,Y,Y", {.bonus = true});
    const EventLog log = throw_and_move(game, 2, 0);
    CHECK(game.position() == "green*:H,20,Y,Y red:Y,Y,Y,Y");
    REQUIRE(find(log, EventKind::extra_throw) != nullptr);
    CHECK(find(log, EventKind::extra_throw)->detail == static_cast<int>(ExtraThrow::home));
    Game plain = house_at("green*:54,20,Y,Y red:Y,Y,Y,Y", {});
    throw_and_move(plain, 2, 0);
    CHECK(plain.current_seat() == 1);
}

TEST_CASE("bonus throws: a 6 that captures earns one more throw, not two [ludo][house]") {
    // Red's single piece on square 16 (red progress 42): green's 10 + 6 captures it.
    Game game = house_at("green*:10,30,Y,Y red:42,Y,Y,Y", {.bonus = true});
    EventLog log = throw_and_move(game, 6, 0);
    CHECK(count(log, EventKind::captured) == 1);
    CHECK(count(log, EventKind::extra_throw) == 1);
    CHECK(find(log, EventKind::extra_throw)->detail == static_cast<int>(ExtraThrow::six));
    CHECK(game.current_seat() == 0);
    // The one extra throw (a 1, no capture): then red's turn.
    log = throw_and_move(game, 1, 1);
    CHECK(count(log, EventKind::extra_throw) == 0);
    CHECK(game.current_seat() == 1);
    CHECK(game.phase() == Phase::awaiting_throw);
}

TEST_CASE("bonus throws: the move that finishes a player earns none, not even a 6 [ludo][house]") {
    // Three players playing on for places: green's last piece goes home.
    for (Face f : {2, 6}) {
        CAPTURE(f);
        const std::string last = f == 2 ? "54" : "50";
        Game game = house_at("green*:H,H,H," + last + " yellow:5,Y,Y,Y red:Y,Y,Y,Y", {.bonus = true, .play_on = true});
        const EventLog log = throw_and_move(game, f, 3);
        CHECK(game.has_finished(0));
        CHECK(count(log, EventKind::finished) == 1);
        CHECK(count(log, EventKind::extra_throw) == 0);
        CHECK(game.current_seat() == 1);
    }
    // A finishing capture is impossible (home is off the circuit), and the last piece home under
    // teams, with the partner still playing, earns none either.
    Game team = house_at("green*:H,H,H,54 yellow:5,Y,Y,Y red:20,Y,Y,Y blue:Y,Y,Y,Y", {.bonus = true, .teams = true});
    const EventLog log = throw_and_move(team, 2, 3);
    CHECK(count(log, EventKind::extra_throw) == 0);
    CHECK(team.current_seat() == 1);
    CHECK(team.phase() == Phase::awaiting_throw);
}

TEST_CASE("bonus throws with three_sixes: the 6s in a row are counted across the extra throws [ludo][house]") {
    const House rules{.bonus = true, .three_sixes = true};
    SUBCASE("6, a 6 that captures, then a third 6: the third is not played") {
        // Red's single piece on square 22 (red progress 48): green's 10 + 6 + 6 lands on it.
        Game game = house_at("green*:10,30,Y,Y red:48,Y,Y,Y", rules);
        throw_and_move(game, 6, 0);                           // 10 -> 16
        const EventLog capture = throw_and_move(game, 6, 0);  // 16 -> 22: captures
        CHECK(count(capture, EventKind::captured) == 1);
        CHECK(count(capture, EventKind::extra_throw) == 1);
        CHECK(game.sixes_in_row() == 2);
        EventLog log;
        game.apply_throw(6, &log);
        CHECK(count(log, EventKind::three_sixes) == 1);
        CHECK(game.current_seat() == 1);
    }
    SUBCASE("a 6 whose move captures counts one 6, and the third 6 after it ends the turn") {
        // Red's single piece on square 16 (red progress 42).
        Game game = house_at("green*:10,30,Y,Y red:42,Y,Y,Y", rules);
        EventLog log = throw_and_move(game, 6, 0);  // captures: one extra throw
        CHECK(count(log, EventKind::extra_throw) == 1);
        throw_and_move(game, 6, 1);
        CHECK(game.sixes_in_row() == 2);
        log.clear();
        game.apply_throw(6, &log);
        CHECK(count(log, EventKind::three_sixes) == 1);
        CHECK(game.current_seat() == 1);
        CHECK(game.position() == "green:16,36,Y,Y red*:Y,Y,Y,Y");
    }
    SUBCASE("a bonus throw earned by a capture with a 2 starts a new row of 6s") {
        Game game = house_at("green*:10,30,Y,Y red:38,Y,Y,Y", rules);
        throw_and_move(game, 2, 0);  // captures on square 12: a bonus throw
        CHECK(game.sixes_in_row() == 0);
        throw_and_move(game, 6, 1);
        throw_and_move(game, 6, 1);
        EventLog log;
        game.apply_throw(6, &log);
        CHECK(count(log, EventKind::three_sixes) == 1);  // three 6s in a row after the bonus
        CHECK(game.current_seat() == 1);
    }
}

TEST_CASE("capture_to_home: without a capture a piece passes its home column and goes round again [ludo][house]") {
    SUBCASE("onto its start square") {
        Game game = house_at("green*:48,Y,Y,Y red:Y,Y,Y,Y", {.capture = true});
        const EventLog log = throw_and_move(game, 4, 0);  // 48 + 4 = 52: a lap of 52 squares
        CHECK(game.progress(0, 0) == 0);
        CHECK(game.occupant(0) == 0);
        CHECK(game.position() == "green:0,Y,Y,Y red*:Y,Y,Y,Y");
        const Event* circles = find(log, EventKind::circles);
        REQUIRE(circles != nullptr);
        CHECK(circles->seat == 0);
        CHECK(circles->from == 48);
        CHECK(circles->to == 0);
        CHECK(circles->square == 0);
    }
    SUBCASE("onto the square behind its start square ('B')") {
        Game game = house_at("green*:48,Y,Y,Y red:Y,Y,Y,Y", {.capture = true});
        const EventLog log = throw_and_move(game, 3, 0);
        CHECK(game.progress(0, 0) == game.geometry().behind_start());
        CHECK(game.occupant(51) == 0);
        CHECK(game.position() == "green:B,Y,Y,Y red*:Y,Y,Y,Y");
        CHECK(count(log, EventKind::circles) == 1);
        // From there a 1 steps onto the start square, a 3 to progress 2.
        Game from_b = house_at("green*:B,Y,Y,Y red:Y,Y,Y,Y", {.capture = true});
        throw_and_move(from_b, 3, 0);
        CHECK(from_b.progress(0, 0) == 2);
    }
    SUBCASE("a piece on 'B' is captured there like anywhere") {
        Game game = house_at("green:B,Y,Y,Y red*:22,Y,Y,Y", {.capture = true});  // red 22 = square 48
        throw_and_move(game, 3, 0);
        CHECK(game.position() == "green*:Y,Y,Y,Y red+:25,Y,Y,Y");
        CHECK(game.has_captured(1));
    }
    SUBCASE("without the option the piece turns into its home column") {
        Game game = house_at("green*:48,Y,Y,Y red:Y,Y,Y,Y", {});
        throw_and_move(game, 4, 0);
        CHECK(game.progress(0, 0) == 52);
    }
    SUBCASE("a piece in the home column before a capture is refused in a position") {
        CHECK_THROWS_AS(Game::from_position(house_options(2, {.capture = true}), "green:52,Y,Y,Y red:Y,Y,Y,Y"),
                        std::invalid_argument);
    }
}

TEST_CASE("capture_to_home: after its player's first capture a piece turns into its home column [ludo][house]") {
    // Green's piece 0 on 10 can capture red's single piece on square 12 (red progress 38).
    Game game = house_at("green*:10,48,Y,Y red:38,Y,Y,Y", {.capture = true});
    CHECK_FALSE(game.has_captured(0));
    CHECK_FALSE(game.may_enter_home(0));
    throw_and_move(game, 2, 0);
    CHECK(game.has_captured(0));
    CHECK(game.may_enter_home(0));
    CHECK(game.position() == "green+:12,48,Y,Y red*:Y,Y,Y,Y");
    game.apply_throw(1);  // red has nothing to move
    REQUIRE(game.current_seat() == 0);
    const EventLog log = throw_and_move(game, 4, 1);
    CHECK(game.progress(0, 1) == 52);  // the home column
    CHECK(count(log, EventKind::circles) == 0);
    // The '+' is written and read back.
    CHECK(Game::from_position(game.options(), game.position()).position() == game.position());
    CHECK(Game::from_position(game.options(), game.position()).has_captured(0));
}

// Found by the fuzz target ludo_notation: without capture_to_home the '+' was read (and marked
// the seat as having captured) but never written back, so a position did not read back as the
// same game. It is refused now, as 'B' is.
TEST_CASE("notation: a '+' without capture_to_home is refused, or reads back as the same game [ludo][house]") {
    const GameOptions o = house_options(2, {});
    try {
        const Game game = Game::from_position(o, "green*:Y,Y,Y,Y red+:25,Y,Y,Y");
        CHECK(Game::from_position(o, game.position()) == game);
    } catch (const std::invalid_argument&) {
        // Refused: as it should be.
    }
}

TEST_CASE("capture_to_home: a piece on its second lap goes home once its player has captured [ludo][house]") {
    Game game = house_at("green+*:44,Y,Y,Y red:Y,Y,Y,Y", {.capture = true});
    throw_and_move(game, 6, 0);  // 50: still on the circuit
    throw_and_move(game, 6, 0);  // 56: home
    CHECK(game.progress(0, 0) == game.geometry().home());
    // A piece that circled earlier counts its progress from its start square again, and turns in
    // once the capture is made: "green+:3" is a piece on its second lap, 53 steps from home.
    Game lap = house_at("green+*:3,Y,Y,Y red:Y,Y,Y,Y", {.capture = true});
    lap.apply_throw(5);
    CHECK(lap.legal_moves()[0].to == 8);
}

TEST_CASE("teams: partners never capture each other and share the square [ludo][house]") {
    // Green (seat 1) and red (seat 3) are partners (seats 0 and 2 in the code). Red's single piece on square 12 (red
    // 38).
    Game game = house_at("green*:10,Y,Y,Y yellow:Y,Y,Y,Y red:38,Y,Y,Y blue:Y,Y,Y,Y", {.teams = true});
    CHECK(game.partner(0) == 2);
    CHECK(game.partner(1) == 3);
    CHECK(game.side(0) == game.side(2));
    CHECK(game.side(1) != game.side(2));
    game.apply_throw(2);
    REQUIRE(game.legal_moves().size() == 1);
    CHECK_FALSE(game.legal_moves()[0].captures());
    EventLog log;
    REQUIRE(game.choose(0, 0, &log).ok());
    CHECK(game.count_on(12, 0) == 1);
    CHECK(game.count_on(12, 2) == 1);
    CHECK(count(log, EventKind::captured) == 0);
    CHECK(count(log, EventKind::safe_square) == 0);  // partners share any square: not a safe-square event
    // Blue, of the other team, does capture red (blue 22 = square 9).
    Game other = house_at("green:Y,Y,Y,Y yellow:Y,Y,Y,Y red:38,Y,Y,Y blue*:22,Y,Y,Y", {.teams = true});
    throw_and_move(other, 3, 0);
    CHECK(other.position() == "green*:Y,Y,Y,Y yellow:Y,Y,Y,Y red:Y,Y,Y,Y blue:25,Y,Y,Y");
}

TEST_CASE("teams: a piece passes and lands on its partner's block [ludo][house]") {
    // Red's block on square 12 (red 38, 38); green's piece on 10.
    for (Face f : {2, 3, 5}) {
        CAPTURE(f);
        Game game = house_at("green*:10,Y,Y,Y yellow:Y,Y,Y,Y red:38,38,Y,Y blue:Y,Y,Y,Y", {.teams = true});
        throw_and_move(game, f, 0);
        CHECK(game.progress(0, 0) == 10 + f);
    }
    // Without teams the red block stops green.
    Game plain = house_at("green*:10,Y,Y,Y yellow:Y,Y,Y,Y red:38,38,Y,Y blue:Y,Y,Y,Y", {});
    plain.apply_throw(3);
    CHECK(plain.current_seat() == 1);
}

TEST_CASE("teams: one piece of each partner on a square blocks the other team [ludo][house]") {
    // Green's and red's single pieces on square 12 (green 12, red 38); blue's piece on square 10
    // (blue progress 23).
    const std::string position = "green:12,Y,Y,Y yellow:Y,Y,Y,Y red:38,Y,Y,Y blue*:23,Y,Y,Y";
    Game game = house_at(position, {.teams = true});
    CHECK(game.is_block(12));
    CHECK(game.blocks(3, 12));
    CHECK(game.blocks(1, 12));
    CHECK_FALSE(game.blocks(0, 12));
    CHECK_FALSE(game.blocks(2, 12));
    for (Face f : {2, 3, 4}) {
        CAPTURE(f);
        Game g = game;
        g.apply_throw(f);
        CHECK(g.phase() == Phase::awaiting_throw);  // blue cannot land on or pass it: green's turn
        CHECK(g.current_seat() == 0);
    }
    Game short_of_it = game;
    throw_and_move(short_of_it, 1, 0);
    CHECK(short_of_it.progress(3, 0) == 24);
    // Green's piece alone there is captured by blue.
    Game alone = house_at("green:12,Y,Y,Y yellow:Y,Y,Y,Y red:Y,Y,Y,Y blue*:23,Y,Y,Y", {.teams = true});
    throw_and_move(alone, 2, 0);
    CHECK(alone.position() == "green*:Y,Y,Y,Y yellow:Y,Y,Y,Y red:Y,Y,Y,Y blue:25,Y,Y,Y");
}

TEST_CASE("teams: a player with all pieces home sits out until the partner finishes [ludo][house]") {
    Game game = house_at("green:H,H,H,H yellow:20,Y,Y,Y red:10,Y,Y,Y blue*:20,Y,Y,Y", {.teams = true});
    CHECK(game.has_finished(0));
    CHECK(game.phase() == Phase::awaiting_throw);
    throw_and_move(game, 1, 0);
    CHECK(game.current_seat() == 1);  // green is skipped
    throw_and_move(game, 1, 0);
    CHECK(game.current_seat() == 2);
    throw_and_move(game, 1, 0);
    CHECK(game.current_seat() == 3);
    CHECK(game.phase() == Phase::awaiting_throw);
    // Finishing alone does not end the game: the partner plays on, the finished player sits out.
    Game first = house_at("green*:H,H,H,54 yellow:20,Y,Y,Y red:10,Y,Y,Y blue:20,Y,Y,Y", {.teams = true});
    const EventLog log = throw_and_move(first, 2, 3);
    CHECK(count(log, EventKind::finished) == 1);
    CHECK(count(log, EventKind::team_finished) == 0);
    CHECK(count(log, EventKind::game_over) == 0);
    CHECK(first.current_seat() == 1);
    CHECK(first.winners().empty());
}

TEST_CASE("teams: the game ends when both partners are home, and both take place 1 [ludo][house]") {
    Game game = house_at("green:H,H,H,H yellow:20,Y,Y,Y red*:H,H,H,54 blue:H,H,H,20", {.teams = true});
    const EventLog log = throw_and_move(game, 2, 3);
    CHECK(game.phase() == Phase::finished);
    const Event* team = find(log, EventKind::team_finished);
    REQUIRE(team != nullptr);
    CHECK(team->seat == 2);
    CHECK(team->detail == 0);
    CHECK(log.back().kind == EventKind::game_over);
    CHECK(game.winners() == std::vector<int>{0, 2});
    const auto standings = game.standings();
    REQUIRE(standings.size() == 4);
    for (const Standing& st : standings) {
        CAPTURE(st.seat);
        if (st.seat % 2 == 0)
            CHECK(st.place == 1);
        else
            CHECK(st.place > 1);
    }
    // A position where a team is home is a finished game: refused as a starting position.
    CHECK_THROWS_AS(
        Game::from_position(house_options(4, {.teams = true}), "green:H,H,H,H yellow:Y,Y,Y,Y red:H,H,H,H blue:Y,Y,Y,Y"),
        std::invalid_argument);
}

// Teams are ranked as teams: the other team is second, not third (it was "1 + the seats that did
// better", places 1, 3, 1, 3, before this was settled).
TEST_CASE("teams: the other team takes place 2 behind the winning partners [ludo][house]") {
    Game game = house_at("green:H,H,H,H yellow:20,Y,Y,Y red*:H,H,H,54 blue:H,H,H,20", {.teams = true});
    throw_and_move(game, 2, 3);
    REQUIRE(game.phase() == Phase::finished);
    for (const Standing& st : game.standings()) {
        CAPTURE(st.seat);
        CHECK(st.place == (st.seat % 2 == 0 ? 1 : 2));
    }
}

TEST_CASE("teams: four players only, and play_on is refused [ludo][house]") {
    for (int players : {2, 3}) {
        const GameOptions o = house_options(players, {.teams = true});
        REQUIRE(o.validate().has_value());
        CHECK(o.validate()->find("4 players") != std::string::npos);
        CHECK_THROWS_AS(Game{o}, std::invalid_argument);
    }
    const GameOptions on = house_options(4, {.teams = true, .play_on = true});
    REQUIRE(on.validate().has_value());
    CHECK(on.validate()->find("play_on") != std::string::npos);
    CHECK_FALSE(house_options(4, {.teams = true}).validate().has_value());
}

TEST_CASE("house rules together: partners on a safe square with an opponent, and a team's block there [ludo][house]") {
    // Star square 8: red (green's partner) single there (red 34); yellow's single piece there too
    // (yellow progress 47). Green lands on 8: no capture (safe), and now green + red are a block.
    Game game = house_at("green*:5,Y,Y,Y yellow:47,Y,Y,Y red:34,Y,Y,Y blue:Y,Y,Y,Y", {.safe = true, .teams = true});
    const EventLog log = throw_and_move(game, 3, 0);
    CHECK(count(log, EventKind::captured) == 0);
    REQUIRE(find(log, EventKind::safe_square) != nullptr);
    CHECK(find(log, EventKind::safe_square)->detail == 1);  // beside yellow, not the partner
    CHECK(game.occupant_count(8) == 3);
    CHECK(game.blocks(3, 8));  // blue cannot pass green + red
    CHECK_FALSE(game.blocks(2, 8));
}
