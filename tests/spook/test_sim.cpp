// The policies and the offline simulator of Spook & Werewolf Ludo: reproducible reports, the
// tally, a game played from scripted dice, and the strength order best > greedy > random.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "spookludo/sim.h"
#include "spookludo/spook/play.h"
#include "spookludo/spook/policy.h"
#include "spookludo/spook/setup.h"
#include "support.h"

using namespace spook_test;

namespace {

SimConfig spook_sim(std::vector<PolicyKind> seats, int games, std::uint64_t seed, int pieces = 2) {
    SimConfig c;
    c.options = GameOptions::spook_game(static_cast<int>(seats.size()), pieces);
    c.seats = std::move(seats);
    c.games = games;
    c.seed = seed;
    return c;
}

void check_same(const SimReport& a, const SimReport& b) {
    CHECK(a.games == b.games);
    CHECK(a.mean_length == b.mean_length);
    CHECK(a.median_length == b.median_length);
    REQUIRE(a.seats.size() == b.seats.size());
    for (std::size_t i = 0; i < a.seats.size(); ++i) {
        CHECK(a.seats[i].wins == b.seats[i].wins);
        CHECK(a.seats[i].share.mean == b.seats[i].share.mean);
        CHECK(a.seats[i].share.low == b.seats[i].share.low);
        CHECK(a.seats[i].share.high == b.seats[i].share.high);
    }
    REQUIRE(a.policies.size() == b.policies.size());
    for (std::size_t i = 0; i < a.policies.size(); ++i) CHECK(a.policies[i].wins == b.policies[i].wins);
}

double share_of(const SimReport& r, PolicyKind kind) {
    for (const auto& p : r.policies)
        if (p.policy == kind) return p.share.mean;
    FAIL("no report for a policy");
    return 0;
}

}  // namespace

TEST_CASE("a seeded simulation is reproducible [spook][sim]") {
    // One piece, so that best's solves of the pool's boards cost little.
    const SimConfig config = spook_sim({PolicyKind::best, PolicyKind::random, PolicyKind::greedy}, 300, 42, 1);
    const SimReport first = simulate(config);
    const SimReport again = simulate(config);
    check_same(first, again);
    CHECK(first.games == 300);
    CHECK(first.seats.size() == 3);
    CHECK(first.policies.size() == 3);

    SimConfig other = config;
    other.seed = 43;
    const SimReport different = simulate(other);
    const bool differs = different.mean_length != first.mean_length || different.seats[0].wins != first.seats[0].wins ||
                         different.seats[1].wins != first.seats[1].wins;
    CHECK(differs);

    // Game g does not depend on how many games come after it: the first 100 of 300 are the 100.
    SimConfig shorter = config;
    shorter.games = 100;
    SimConfig longer = config;
    longer.games = 101;
    const SimReport s100 = simulate(shorter), s101 = simulate(longer);
    double added = 0;
    for (std::size_t i = 0; i < 3; ++i) {
        const double extra = s101.seats[i].wins - s100.seats[i].wins;
        CHECK(extra >= 0.0);
        CHECK(extra <= 1.0);
        added += extra;
    }
    CHECK(added == doctest::Approx(1.0));

    // The default two pieces, unbalanced boards drawn per game, play on.
    SimConfig two = spook_sim({PolicyKind::greedy, PolicyKind::random, PolicyKind::random, PolicyKind::greedy}, 200, 9);
    two.options.spook.balanced_boards = false;
    two.options.play_on = true;
    const SimReport two_first = simulate(two);
    check_same(two_first, simulate(two));
    two.seed = 10;
    CHECK(simulate(two).mean_length != two_first.mean_length);
}

TEST_CASE("every game has a winner: the win shares add up to the games [spook][sim]") {
    for (int pieces = 1; pieces <= 3; ++pieces) {
        CAPTURE(pieces);
        const SimReport r =
            simulate(spook_sim({PolicyKind::random, PolicyKind::random, PolicyKind::greedy, PolicyKind::random},
                               pieces == 3 ? 60 : 200, 7, pieces));
        double total = 0;
        for (const auto& s : r.seats) {
            total += s.wins;
            CHECK(s.share.low <= s.share.mean);
            CHECK(s.share.mean <= s.share.high);
            CHECK(s.share.low >= 0.0);
            CHECK(s.share.high <= 1.0);
        }
        CHECK(total == doctest::Approx(r.games));
        CHECK(r.mean_length > 5);
        CHECK(r.median_length > 5);
    }
}

TEST_CASE("best beats random in two-player games [spook][sim]") {
    // Reference: about 75 % for best over 2000 games.
    const SimReport r = simulate(spook_sim({PolicyKind::best, PolicyKind::random}, 2000, 2024));
    const double best = share_of(r, PolicyKind::best);
    CAPTURE(best);
    CHECK(best > 0.65);
    CHECK(r.seats[0].share.low > 0.5);
    // The seat does not matter (the players move at the same time).
    const SimReport swapped = simulate(spook_sim({PolicyKind::random, PolicyKind::best}, 2000, 2025));
    CHECK(share_of(swapped, PolicyKind::best) > 0.65);
}

TEST_CASE("greedy beats random [spook][sim]") {
    const SimReport r = simulate(spook_sim({PolicyKind::greedy, PolicyKind::random}, 2000, 99));
    const double greedy = share_of(r, PolicyKind::greedy);
    CAPTURE(greedy);
    CHECK(greedy > 0.65);  // about 0.73 with this seed
    CHECK(r.seats[0].share.low > 0.5);
}

TEST_CASE("invalid configurations are refused [spook][sim]") {
    SUBCASE("a policy count that does not match the players") {
        SimConfig c = spook_sim({PolicyKind::best, PolicyKind::random}, 10, 1);
        c.seats.push_back(PolicyKind::greedy);
        CHECK_THROWS_AS((void)simulate(c), std::invalid_argument);
        c.seats.clear();
        CHECK_THROWS_AS((void)simulate(c), std::invalid_argument);
    }
    SUBCASE("no games") {
        SimConfig c = spook_sim({PolicyKind::best, PolicyKind::random}, 0, 1);
        CHECK_THROWS_AS((void)simulate(c), std::invalid_argument);
    }
    SUBCASE("invalid options") {
        SimConfig c = spook_sim({PolicyKind::best, PolicyKind::random}, 10, 1);
        c.options.spook.pieces = 4;
        CHECK_THROWS_AS((void)simulate(c), std::invalid_argument);
    }
    SUBCASE("fixed boards: one per player, valid notation") {
        SimConfig c = spook_sim({PolicyKind::best, PolicyKind::random}, 10, 1);
        c.boards = {kBaseNotation};
        CHECK_THROWS_AS((void)simulate(c), std::invalid_argument);
        c.boards = {kBaseNotation, "not a board"};
        CHECK_THROWS_AS((void)simulate(c), std::invalid_argument);
    }
}

TEST_CASE("fixed boards and progress reports [spook][sim]") {
    SimConfig c = spook_sim({PolicyKind::best, PolicyKind::random}, 50, 3);
    c.boards = {kBaseNotation, board_with({{39, Character::hat}}).notation()};
    std::vector<int> seen;
    const SimReport r = simulate(c, [&](int done) { seen.push_back(done); });
    CHECK(r.games == 50);
    REQUIRE_FALSE(seen.empty());
    CHECK(seen.back() == 50);
    CHECK(std::is_sorted(seen.begin(), seen.end()));
    check_same(r, simulate(c));
}

TEST_CASE("play_game draws the assignment from the dice, then plays the rounds [spook][sim]") {
    // Board A has a hat on 37, board B a spook. One piece each, six 6s bring both to 37 with quiet
    // witches (7 and 13 are hats, 19 and 25 cats, 31 an entrance); then the hat wakes: whoever has
    // board A is home, alone.
    const std::vector<Board> set{board_with({{37, Character::hat}}), base_board()};
    for (std::uint32_t draw : {0u, 1u}) {
        CAPTURE(draw);
        ScriptedDice dice;
        dice.push_draw(draw);  // swaps position 1 with `draw`
        for (int i = 0; i < 5; ++i) {
            dice.push_face(6);
            dice.push_face(6);
        }
        dice.push_face(6);
        dice.push_face(1);
        Rng rng(1);
        SolutionCache cache;
        const GameOutcome out =
            play_game(spook_options(2, 1), {PolicyKind::random, PolicyKind::best}, set, dice, rng, cache);
        CHECK(out.length == 6);
        // draw 0: board_of_seat = {1, 0}, seat 1 has board A; draw 1: nothing moves.
        CHECK(out.winners == std::vector<int>{draw == 0 ? 1 : 0});
        CHECK(dice.remaining() == 0);
    }
}

TEST_CASE("the tally: joint wins count 1/k, lengths give mean and median [spook][sim]") {
    SimTally tally({PolicyKind::best, PolicyKind::random, PolicyKind::random});
    tally.add({{0}, 10});
    tally.add({{0, 1}, 20});
    tally.add({{1, 2}, 30});
    tally.add({{0}, 41});
    const SimReport r = tally.report();
    CHECK(r.games == 4);
    CHECK(r.seats[0].wins == doctest::Approx(2.5));
    CHECK(r.seats[1].wins == doctest::Approx(1.0));
    CHECK(r.seats[2].wins == doctest::Approx(0.5));
    CHECK(r.seats[0].share.mean == doctest::Approx(2.5 / 4));
    CHECK(r.mean_length == doctest::Approx(25.25));
    CHECK(r.median_length == doctest::Approx(25.0));
    REQUIRE(r.policies.size() == 2);
    CHECK(r.policies[0].policy == PolicyKind::random);
    CHECK(r.policies[0].seats == 2);
    CHECK(r.policies[0].wins == doctest::Approx(1.5));
    CHECK(r.policies[0].share.mean == doctest::Approx(1.5 / 8));
    CHECK(r.policies[1].policy == PolicyKind::best);
    CHECK_THROWS_AS(tally.add({{3}, 5}), std::logic_error);

    SimTally odd({PolicyKind::random});
    odd.add({{0}, 3});
    odd.add({{0}, 9});
    odd.add({{0}, 4});
    CHECK(odd.report().median_length == 4);
    CHECK(odd.report().seats[0].share.low == doctest::Approx(1.0));  // no variance
}

TEST_CASE("the three policies choose legal moves [spook][policy]") {
    // One player, three pieces on 7, 1, 1 (a real choice between two squares for a roll of 2).
    Game g(spook_options(1, 3), {base_board()});
    quiet_round(g, 6);
    REQUIRE(g.roll_movement(2).ok());
    REQUIRE(g.legal_moves(0).size == 2);

    SUBCASE("random picks each distinct move about equally often") {
        Rng rng(12);
        int first = 0;
        const int n = 4000;
        for (int i = 0; i < n; ++i) {
            const int piece = choose_piece(PolicyKind::random, g, 0, rng);
            REQUIRE((piece == 0 || piece == 1));
            first += piece == 0;
        }
        CHECK(first > n / 2 - 200);
        CHECK(first < n / 2 + 200);
    }
    SUBCASE("best follows the solution") {
        // Two pieces on 7 and 1 (a cheaper solve than three pieces).
        Game two(spook_options(1, 2), {base_board()});
        quiet_round(two, 6);
        const Solution sol = Solution::solve(base_board(), 2, 2);
        Rng rng(1);
        for (Face roll = 1; roll <= 6; ++roll) {
            Game copy = two;
            REQUIRE(copy.roll_movement(roll).ok());
            CHECK(choose_piece(PolicyKind::best, copy, 0, rng, &sol) ==
                  sol.best_piece(copy.player(0).positions(), roll));
        }
        CHECK_THROWS_AS((void)choose_piece(PolicyKind::best, g, 0, rng), std::invalid_argument);
        CHECK_THROWS_AS((void)choose_piece(PolicyKind::best, g, 0, rng, &sol),
                        std::invalid_argument);  // 2 pieces, not 3
    }
    SUBCASE("greedy takes the larger expected gain") {
        Rng rng(1);
        const int piece = choose_piece(PolicyKind::greedy, g, 0, rng);
        const MoveList moves = g.legal_moves(0);
        const double s0 = greedy_score(g.board(0), moves[0]);
        const double s1 = greedy_score(g.board(0), moves[1]);
        CHECK(piece == (s1 > s0 ? moves[1].piece : moves[0].piece));
        // Square 4 carries a spook on the base board: from 1 to 4 gains 3 squares, but a 4 on
        // the activation roll (1 in 6) sends the piece back to 1: expected 3.5 - 1.
        CHECK(greedy_score(g.board(0), Move{0, 1, 4}) == doctest::Approx(2.5));
        // Entering the church beats everything.
        CHECK(greedy_score(g.board(0), Move{0, 37, 40}) > greedy_score(g.board(0), Move{0, 31, 37}));
        CHECK(greedy_score(g.board(0), Move{0, 34, 40}) > 39.0);
    }
    SUBCASE("no move, or only one") {
        Game h(spook_options(1, 2), {base_board()});
        REQUIRE(h.roll_movement(4).ok());
        Rng rng(1);
        const Solution sol = Solution::solve(base_board(), 2, 2);
        for (PolicyKind k : {PolicyKind::random, PolicyKind::greedy, PolicyKind::best})
            CHECK(choose_piece(k, h, 0, rng, &sol) == 0);
        Game stuck(spook_options(1, 1), {base_board()});
        walk(stuck, 37);
        REQUIRE(stuck.player(0).pieces[0] == 38);
        REQUIRE(stuck.roll_movement(5).ok());
        for (PolicyKind k : {PolicyKind::random, PolicyKind::greedy}) CHECK(choose_piece(k, stuck, 0, rng) == -1);
    }
}
