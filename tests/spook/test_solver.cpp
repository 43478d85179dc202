// Best play (RULES.md part 1, "Best play"): the solver's expected rounds checked against
// independent computations written here from the rules (a linear system for one piece, a naive
// value iteration over unordered pairs for two), against exact identities between piece counts,
// against Monte Carlo play, and the shipped balanced pools against fresh solves.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "spookludo/spook/play.h"
#include "spookludo/spook/policy.h"
#include "spookludo/spook/setup.h"
#include "spookludo/spook/solver.h"
#include "support.h"

using namespace spook_test;

namespace {

// ---- The rules again, independent of the engine's action tables ----------------------------

Character woken_by(Face f) {
    switch (f) {
        case 1:
        case 2:
            return Character::hat;
        case 3:
            return Character::cat;
        case 4:
            return Character::spook;
        case 5:
            return Character::werewolf;
        default:
            return Character::witch;
    }
}

// Where a piece on `s` stands after face `f` is rolled for the activation.
Square after_face(const Board& b, Face f, Square s) {
    if (s == 40 || s == 1 || s == 11 || s == 21 || s == 31) return s;
    const Character c = woken_by(f);
    if (b.at(s) != c) return s;
    switch (c) {
        case Character::hat:
            return s <= 37 ? s + 3 : s;
        case Character::cat:
            return s > 7 ? s - 6 : 1;
        case Character::spook:
        case Character::werewolf:
            return ((s - 1) / 10) * 10 + 1;
        default:
            return 1;
    }
}

using Table = std::array<std::array<Square, 41>, 7>;  // [face][square]
Table activation_table(const Board& b) {
    Table t{};
    for (Face f = 1; f <= 6; ++f)
        for (Square s = 1; s <= 40; ++s)
            t[static_cast<std::size_t>(f)][static_cast<std::size_t>(s)] = after_face(b, f, s);
    return t;
}

// One piece: E[s] = 1 + 1/36 * sum over movement roll r and activation face f of
// E[after(f, move(s, r))], E[40] = 0; a linear system solved by Gaussian elimination.
std::vector<double> one_piece_reference(const Board& b) {
    const Table t = activation_table(b);
    constexpr int n = 39;  // unknowns E[1..39]
    std::vector<std::vector<double>> a(n, std::vector<double>(n + 1, 0.0));
    for (int s = 1; s <= 39; ++s) {
        auto& row = a[static_cast<std::size_t>(s - 1)];
        row[static_cast<std::size_t>(s - 1)] += 1.0;
        row[n] = 1.0;
        for (int r = 1; r <= 6; ++r) {
            const int moved = s + r <= 40 ? s + r : s;
            for (Face f = 1; f <= 6; ++f) {
                const int to = t[static_cast<std::size_t>(f)][static_cast<std::size_t>(moved)];
                if (to != 40) row[static_cast<std::size_t>(to - 1)] -= 1.0 / 36.0;
            }
        }
    }
    for (int col = 0; col < n; ++col) {
        int pivot = col;
        for (int r = col + 1; r < n; ++r)
            if (std::abs(a[static_cast<std::size_t>(r)][static_cast<std::size_t>(col)]) >
                std::abs(a[static_cast<std::size_t>(pivot)][static_cast<std::size_t>(col)]))
                pivot = r;
        std::swap(a[static_cast<std::size_t>(col)], a[static_cast<std::size_t>(pivot)]);
        const auto& p = a[static_cast<std::size_t>(col)];
        for (int r = 0; r < n; ++r) {
            if (r == col) continue;
            auto& row = a[static_cast<std::size_t>(r)];
            const double factor = row[static_cast<std::size_t>(col)] / p[static_cast<std::size_t>(col)];
            if (factor == 0.0) continue;
            for (int c = col; c <= n; ++c) row[static_cast<std::size_t>(c)] -= factor * p[static_cast<std::size_t>(c)];
        }
    }
    std::vector<double> e(41, 0.0);
    for (int s = 1; s <= 39; ++s) {
        const auto& row = a[static_cast<std::size_t>(s - 1)];
        e[static_cast<std::size_t>(s)] = row[n] / row[static_cast<std::size_t>(s - 1)];
    }
    return e;
}

// Two pieces, positions as ordered pairs (a, b) on the full 40 x 40 grid. v: expected rounds
// before the movement roll; q: after the moves, before the activation roll.
struct TwoPieceReference {
    std::vector<double> v, q;
    static std::size_t at(Square a, Square b) { return static_cast<std::size_t>(a * 41 + b); }
    double value(Square a, Square b) const { return v[at(a, b)]; }
    double after_move(Square a, Square b) const { return q[at(a, b)]; }
};

TwoPieceReference two_piece_reference(const Board& board, int need) {
    const Table t = activation_table(board);
    TwoPieceReference ref;
    ref.v.assign(41 * 41, 0.0);
    ref.q.assign(41 * 41, 0.0);
    auto done = [need](Square a, Square b) { return (a == 40) + (b == 40) >= need; };
    // In-place sweeps, most advanced pairs first, until nothing changes by 1e-12.
    std::vector<std::pair<Square, Square>> order;
    for (Square a = 1; a <= 40; ++a)
        for (Square b = 1; b <= 40; ++b) order.emplace_back(a, b);
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& x, const auto& y) { return x.first + x.second > y.first + y.second; });
    for (int sweep = 0; sweep < 200000; ++sweep) {
        double change = 0;
        for (const auto& [a, b] : order) {
            if (done(a, b)) continue;
            double total = 0;
            for (int r = 1; r <= 6; ++r) {
                double best = 1e300;
                bool any = false;
                if (a != 40 && a + r <= 40) {
                    best = std::min(best, ref.after_move(a + r, b));
                    any = true;
                }
                if (b != 40 && b + r <= 40) {
                    best = std::min(best, ref.after_move(a, b + r));
                    any = true;
                }
                total += any ? best : ref.after_move(a, b);
            }
            const double nv = 1.0 + total / 6.0;
            change = std::max(change, std::abs(nv - ref.v[TwoPieceReference::at(a, b)]));
            ref.v[TwoPieceReference::at(a, b)] = nv;
            double after = 0;
            for (Face f = 1; f <= 6; ++f) {
                const auto& row = t[static_cast<std::size_t>(f)];
                after += ref.value(row[static_cast<std::size_t>(a)], row[static_cast<std::size_t>(b)]);
            }
            ref.q[TwoPieceReference::at(a, b)] = after / 6.0;
        }
        if (change < 1e-12) break;
    }
    return ref;
}

std::vector<Board> sample_boards() {
    std::vector<Board> boards{base_board(), Board::from_notation(balanced_pool(2)[0].notation)};
    Rng rng(314159);
    for (int i = 0; i < 3; ++i) boards.push_back(Board::random(rng));
    return boards;
}

}  // namespace

TEST_CASE("one piece: expected rounds match a linear system solved from the rules [spook][solver]") {
    std::vector<Board> boards = sample_boards();
    boards.push_back(uniform_board(Character::hat));
    boards.push_back(uniform_board(Character::cat));
    boards.push_back(board_with({{37, Character::hat}, {38, Character::hat}, {39, Character::hat}}));
    for (const Board& b : boards) {
        CAPTURE(b.notation());
        const auto ref = one_piece_reference(b);
        const Solution sol = Solution::solve(b, 1, 1);
        CHECK(sol.pieces() == 1);
        CHECK(sol.pieces_to_finish() == 1);
        CHECK(sol.expected_finish() == doctest::Approx(ref[1]).epsilon(1e-9));
        for (Square s = 1; s <= 40; ++s) {
            CAPTURE(s);
            const std::array<Square, 1> p{s};
            CHECK(std::abs(sol.expected_rounds(p) - ref[static_cast<std::size_t>(s)]) < 1e-6);
            double after = 0;
            for (Face f = 1; f <= 6; ++f) after += ref[static_cast<std::size_t>(after_face(b, f, s))];
            CHECK(std::abs(sol.expected_after_move(p) - after / 6.0) < 1e-6);
        }
        CHECK(sol.expected_rounds(std::array<Square, 1>{40}) == 0.0);
    }
}

TEST_CASE("a board of hats only is faster than the base board, witches only slower [spook][solver]") {
    const double base = Solution::solve(base_board(), 1, 1).expected_finish();
    const double hats = Solution::solve(uniform_board(Character::hat), 1, 1).expected_finish();
    const double witches = Solution::solve(uniform_board(Character::witch), 1, 1).expected_finish();
    CHECK(hats < base);
    CHECK(base < witches);
    // Nothing sends a piece back on the board of hats: at most 6 + 3 squares a round.
    CHECK(hats > 39.0 / 9.0);
}

TEST_CASE("two pieces: values match a naive value iteration over ordered pairs [spook][solver]") {
    // Two boards here (the naive iteration is the slow part of this file).
    const std::vector<Board> boards{base_board(), Board::from_notation(balanced_pool(2)[0].notation)};
    for (const Board& b : boards) {
        for (int need : {2, 1}) {
            CAPTURE(b.notation());
            CAPTURE(need);
            const auto ref = two_piece_reference(b, need);
            const Solution sol = Solution::solve(b, 2, need);
            CHECK(std::abs(sol.expected_finish() - ref.value(1, 1)) < 1e-6);
            int positions = 0, decisions = 0;
            for (Square a = 1; a <= 40; ++a)
                for (Square c = 1; c <= 40; ++c) {
                    CAPTURE(a);
                    CAPTURE(c);
                    const std::array<Square, 2> p{a, c};
                    REQUIRE(std::abs(sol.expected_rounds(p) - ref.value(a, c)) < 1e-6);
                    REQUIRE(std::abs(sol.expected_after_move(p) - ref.after_move(a, c)) < 1e-6);
                    ++positions;
                    // best_piece: a move of minimal value, or -1 when no piece can move.
                    for (Face r = 1; r <= 6; ++r) {
                        const int pick = sol.best_piece(p, r);
                        const bool a_moves = a != 40 && a + r <= 40;
                        const bool c_moves = c != 40 && c + r <= 40;
                        if (!a_moves && !c_moves) {
                            CHECK(pick == -1);
                            continue;
                        }
                        REQUIRE((pick == 0 || pick == 1));
                        REQUIRE((pick == 0 ? a_moves : c_moves));
                        const double chosen = pick == 0 ? ref.after_move(a + r, c) : ref.after_move(a, c + r);
                        double best = 1e300;
                        if (a_moves) best = std::min(best, ref.after_move(a + r, c));
                        if (c_moves) best = std::min(best, ref.after_move(a, c + r));
                        CHECK(chosen <= best + 1e-6);
                        decisions += a_moves && c_moves && a != c;
                    }
                }
            CHECK(positions == 1600);
            CHECK(decisions > 5000);
        }
    }
}

TEST_CASE("best play really chooses: the choice matters on some positions [spook][solver]") {
    // If both moves always had the same value, the checks above could not catch a wrong choice.
    const Board b = base_board();
    const auto ref = two_piece_reference(b, 2);
    int clear = 0;
    for (Square a = 1; a < 40; ++a)
        for (Square c = a + 1; c < 40; ++c)
            for (Face r = 1; r <= 6; ++r)
                if (a + r <= 40 && c + r <= 40 && std::abs(ref.after_move(a + r, c) - ref.after_move(a, c + r)) > 0.5)
                    ++clear;
    CHECK(clear > 100);
}

TEST_CASE("identities between piece counts [spook][solver]") {
    const Board b = Board::from_notation(balanced_pool(3)[5].notation);
    const Solution one = Solution::solve(b, 1, 1);
    const Solution two = Solution::solve(b, 2, 2);
    const Solution two_need_one = Solution::solve(b, 2, 1);
    const Solution three = Solution::solve(b, 3, 2);
    CHECK(three.pieces() == 3);
    CHECK(three.pieces_to_finish() == 2);
    for (Square a = 1; a <= 40; ++a) {
        CAPTURE(a);
        // A piece in the church never moves again: two pieces with one home are one piece.
        CHECK(std::abs(two.expected_rounds(std::array<Square, 2>{40, a}) -
                       one.expected_rounds(std::array<Square, 1>{a})) < 1e-6);
        CHECK(two_need_one.expected_rounds(std::array<Square, 2>{40, a}) == 0.0);
        for (Square c = 1; c <= 40; ++c) {
            CAPTURE(c);
            // Three pieces, one home, two needed: the same as two pieces of which one is needed.
            const double e3 = three.expected_rounds(std::array<Square, 3>{a, 40, c});
            CHECK(std::abs(e3 - two_need_one.expected_rounds(std::array<Square, 2>{a, c})) < 1e-6);
            // Order does not matter.
            CHECK(e3 == three.expected_rounds(std::array<Square, 3>{c, a, 40}));
        }
    }
    CHECK(three.expected_rounds(std::array<Square, 3>{40, 40, 1}) == 0.0);
    // More choice never hurts: a third piece can only help, and one of two pieces is sooner home
    // than a single piece.
    CHECK(three.expected_finish() <= two.expected_finish() + 1e-9);
    CHECK(two_need_one.expected_finish() <= one.expected_finish() + 1e-9);
    CHECK(one.expected_finish() < two.expected_finish());
}

TEST_CASE("Monte Carlo play with best matches the expected finish [spook][solver]") {
    // One player, best play, many seeded games: the mean number of rounds must lie within a few
    // standard errors of the solver's expected finish.
    const Board b = Board::from_notation(balanced_pool(2)[3].notation);
    for (int pieces : {1, 2}) {
        CAPTURE(pieces);
        const GameOptions o = spook_options(1, pieces);
        const Solution sol = Solution::solve(b, pieces, o.spook.pieces_to_finish());
        SolutionCache cache;
        SeededDice dice(static_cast<std::uint64_t>(pieces) * 1000 + 7);
        Rng policy_rng(1);
        const int n = 3000;
        double sum = 0, sum_sq = 0;
        for (int i = 0; i < n; ++i) {
            Game g(o, {b});
            play_out(g, {PolicyKind::best}, dice, policy_rng, cache);
            const double rounds = g.round();
            sum += rounds;
            sum_sq += rounds * rounds;
        }
        const double mean = sum / n;
        const double sd = std::sqrt((sum_sq - sum * sum / n) / (n - 1));
        const double se = sd / std::sqrt(static_cast<double>(n));
        CAPTURE(mean);
        CAPTURE(se);
        CAPTURE(sol.expected_finish());
        CHECK(std::abs(mean - sol.expected_finish()) < 4.0 * se);
        CHECK(se < 0.5);  // the check above is tight enough to notice a wrong expectation
    }
}

namespace {

// Expected rounds (two pieces, both needed) of a fixed policy over ordered pairs: `policy` gives,
// for the position (a, b) and roll r, the weight of moving piece 0 (the rest goes to piece 1),
// asked only when both pieces can move to different squares.
template <class Policy>
std::vector<double> evaluate_policy(const Board& board, Policy policy) {
    const Table t = activation_table(board);
    std::vector<double> v(41 * 41, 0.0), q(41 * 41, 0.0);
    auto at = [](Square a, Square b) { return static_cast<std::size_t>(a * 41 + b); };
    std::vector<std::pair<Square, Square>> order;
    for (Square a = 1; a <= 40; ++a)
        for (Square b = 1; b <= 40; ++b) order.emplace_back(a, b);
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& x, const auto& y) { return x.first + x.second > y.first + y.second; });
    for (int sweep = 0; sweep < 200000; ++sweep) {
        double change = 0;
        for (const auto& [a, b] : order) {
            if (a == 40 && b == 40) continue;
            double total = 0;
            for (int r = 1; r <= 6; ++r) {
                const bool a_moves = a != 40 && a + r <= 40;
                const bool b_moves = b != 40 && b + r <= 40;
                if (a_moves && b_moves && a != b) {
                    const double w = policy(a, b, r);
                    total += w * q[at(a + r, b)] + (1 - w) * q[at(a, b + r)];
                } else if (a_moves) {
                    total += q[at(a + r, b)];
                } else if (b_moves) {
                    total += q[at(a, b + r)];
                } else {
                    total += q[at(a, b)];
                }
            }
            const double nv = 1.0 + total / 6.0;
            change = std::max(change, std::abs(nv - v[at(a, b)]));
            v[at(a, b)] = nv;
            double after = 0;
            for (Face f = 1; f <= 6; ++f)
                after += v[at(t[static_cast<std::size_t>(f)][static_cast<std::size_t>(a)],
                              t[static_cast<std::size_t>(f)][static_cast<std::size_t>(b)])];
            q[at(a, b)] = after / 6.0;
        }
        if (change < 1e-12) break;
    }
    return v;
}

}  // namespace

TEST_CASE("best play is at least as good as greedy and random everywhere [spook][solver]") {
    const Board b = Board::from_notation(balanced_pool(2)[7].notation);
    const Solution sol = Solution::solve(b, 2, 2);
    const auto greedy = evaluate_policy(b, [&](Square a, Square c, int r) {
        // greedy: the higher score, ties to the first piece (as the policy does).
        return greedy_score(b, Move{0, a, a + r}) >= greedy_score(b, Move{1, c, c + r}) ? 1.0 : 0.0;
    });
    const auto random = evaluate_policy(b, [](Square, Square, int) { return 0.5; });
    for (Square a = 1; a <= 40; ++a)
        for (Square c = 1; c <= 40; ++c) {
            CAPTURE(a);
            CAPTURE(c);
            const double best = sol.expected_rounds(std::array<Square, 2>{a, c});
            REQUIRE(best <= greedy[static_cast<std::size_t>(a * 41 + c)] + 1e-6);
            REQUIRE(best <= random[static_cast<std::size_t>(a * 41 + c)] + 1e-6);
        }
    const double best = sol.expected_finish();
    const double g = greedy[1 * 41 + 1], r = random[1 * 41 + 1];
    CAPTURE(best);
    CAPTURE(g);
    CAPTURE(r);
    // Neither alternative is optimal from the start, and greedy is better than random.
    CHECK(g > best + 0.05);
    CHECK(r > g);
}

TEST_CASE("positions are sorted multisets with a dense index [spook][solver]") {
    CHECK(position_count(1) == 40);
    CHECK(position_count(2) == 820);
    CHECK(position_count(3) == 11480);
    std::set<int> seen;
    for (Square a = 1; a <= 40; ++a)
        for (Square b = a; b <= 40; ++b) {
            const int i = position_index(std::array<Square, 2>{a, b});
            CHECK(i == position_index(std::array<Square, 2>{b, a}));
            CHECK(i >= 0);
            CHECK(i < 820);
            seen.insert(i);
        }
    CHECK(seen.size() == 820);
    std::set<int> seen3;
    for (Square a = 1; a <= 40; ++a)
        for (Square b = a; b <= 40; ++b)
            for (Square c = b; c <= 40; ++c) {
                const int i = position_index(std::array<Square, 3>{a, b, c});
                REQUIRE(i == position_index(std::array<Square, 3>{c, a, b}));
                REQUIRE(i == position_index(std::array<Square, 3>{b, c, a}));
                seen3.insert(i);
            }
    CHECK(seen3.size() == 11480);
    CHECK(*seen3.rbegin() == 11479);
}

TEST_CASE("invalid requests are refused [spook][solver]") {
    CHECK_THROWS_AS((void)Solution::solve(Board{}, 2, 2), std::invalid_argument);
    CHECK_THROWS_AS((void)Solution::solve(base_board(), 2, 3), std::invalid_argument);
    CHECK_THROWS_AS((void)Solution::solve(base_board(), 2, 0), std::invalid_argument);
    CHECK_THROWS_AS((void)Solution::solve(base_board(), 4, 2), std::invalid_argument);
    CHECK_THROWS_AS((void)Solution::solve(base_board(), 0, 0), std::invalid_argument);
    const Solution sol = Solution::solve(base_board(), 2, 2);
    CHECK_THROWS_AS((void)sol.expected_rounds(std::array<Square, 1>{1}), std::invalid_argument);
    CHECK_THROWS_AS((void)sol.expected_after_move(std::array<Square, 3>{1, 1, 1}), std::invalid_argument);
    CHECK(sol.sweeps() > 0);
}

TEST_CASE("the solution cache solves each board and piece count once [spook][solver]") {
    SolutionCache cache;
    const Board a = base_board();
    const Board b = board_with({{39, Character::hat}});
    const auto first = cache.get(a, 2, 2);
    CHECK(cache.get(a, 2, 2) == first);
    CHECK(cache.size() == 1);
    const auto other_board = cache.get(b, 2, 2);
    CHECK(other_board != first);
    const auto other_count = cache.get(a, 1, 1);
    CHECK(other_count != first);
    CHECK(other_count->pieces() == 1);
    const auto other_need = cache.get(a, 2, 1);
    CHECK(other_need != first);
    CHECK(other_need->pieces_to_finish() == 1);
    CHECK(cache.size() == 4);
    CHECK(first->expected_finish() == Solution::solve(a, 2, 2).expected_finish());
}

TEST_CASE("the balanced pools: 7 of each, all different, expected finishes within tolerance [spook][setup]") {
    for (int pieces = 1; pieces <= 3; ++pieces) {
        CAPTURE(pieces);
        const auto pool = balanced_pool(pieces);
        REQUIRE(pool.size() >= 8);  // a full table
        std::set<std::string> distinct;
        std::vector<double> stored;
        for (const auto& p : pool) {
            const Board b = Board::from_notation(p.notation);
            CHECK(b.has_seven_of_each());
            CHECK(b.notation() == p.notation);
            distinct.insert(b.notation());
            stored.push_back(p.expected_finish);
        }
        CHECK(distinct.size() == pool.size());
        CHECK(balance_spread(stored) <= kBalanceTolerance);

        // Fresh solves: all boards for 1 and 2 pieces; for 3 pieces (tens of milliseconds each in
        // Release, far more under sanitizers) every eighth board only.
        const std::size_t step = pieces == 3 ? 8 : 1;
        const int need = pieces == 1 ? 1 : 2;
        std::vector<double> fresh;
        for (std::size_t i = 0; i < pool.size(); i += step) {
            CAPTURE(i);
            const double e = Solution::solve(Board::from_notation(pool[i].notation), pieces, need).expected_finish();
            CHECK(std::abs(e - pool[i].expected_finish) < 1e-4);
            fresh.push_back(e);
        }
        CHECK(balance_spread(fresh) <= kBalanceTolerance);
    }
    CHECK_THROWS_AS((void)balanced_pool(0), std::invalid_argument);
    CHECK_THROWS_AS((void)balanced_pool(4), std::invalid_argument);
}

TEST_CASE("random boards are far less balanced than the pool [spook][setup]") {
    // The reason for the pool (RULES.md: random arrangements differ by far more than 2 %).
    Rng rng(8);
    std::vector<double> e;
    for (int i = 0; i < 40; ++i) e.push_back(Solution::solve(Board::random(rng), 1, 1).expected_finish());
    CHECK(balance_spread(e) > 0.1);
}
