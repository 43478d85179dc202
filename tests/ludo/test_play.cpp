// Whole games: seeded random play checked against invariants and a plain reference of the move
// rules, the bots, and play_ludo_game.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "helpers.h"
#include "spookludo/ludo/policy.h"

using namespace ludo_test;

namespace {

struct RefMove {
    int from, to;
    bool captures;
    friend bool operator<(const RefMove& a, const RefMove& b) { return a.from < b.from; }
};

// The legal moves of `seat` with `face`, written as plainly as the rules read, from the public
// questions of the game only: one per distinct starting progress.
std::set<RefMove> reference_moves(const Game& game, int seat, Face face) {
    const Geometry& g = game.geometry();
    const Colour c = game.colour(seat);
    const int entry = game.options().ludo.entry == LudoEntry::text ? 5 : 0;
    std::set<RefMove> out;
    for (int i = 0; i < kPiecesPerPlayer; ++i) {
        const int p = game.progress(seat, i);
        if (p == g.home()) continue;
        int to = 0;
        int path_from = 0;
        if (p == kYard) {
            if (face != 6) continue;
            to = entry;
            path_from = 0;
        } else {
            to = p + face;
            if (to > g.home()) continue;
            path_from = p + 1;
        }
        bool blocked = false;
        for (int q = path_from; q <= to && q <= g.last_circuit_progress(); ++q) {
            const int sq = (g.start_square(c) + q) % g.circuit_squares();
            if (game.occupant(sq) != -1 && game.occupant(sq) != seat && game.occupant_count(sq) >= 2) blocked = true;
        }
        if (blocked) continue;
        bool captures = false;
        if (to <= g.last_circuit_progress()) {
            const int sq = (g.start_square(c) + to) % g.circuit_squares();
            captures = game.occupant(sq) != -1 && game.occupant(sq) != seat;
        }
        out.insert({p, to, captures});
    }
    return out;
}

std::set<RefMove> generated_moves(const Game& game, int seat, Face face) {
    std::set<RefMove> out;
    for (const Move& m : game.legal_moves_for(seat, face)) out.insert({m.from, m.to, m.captures()});
    return out;
}

bool same(const std::set<RefMove>& a, const std::set<RefMove>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const RefMove& x, const RefMove& y) {
               return x.from == y.from && x.to == y.to && x.captures == y.captures;
           });
}

// Pieces of two seats on one circuit square, computed from the pieces alone.
bool two_colours_on_a_square(const Game& game) {
    std::vector<int> owner(static_cast<std::size_t>(game.geometry().circuit_squares()), -1);
    for (int s = 0; s < game.players(); ++s)
        for (int i = 0; i < kPiecesPerPlayer; ++i) {
            const int sq = game.geometry().square_of(game.colour(s), game.progress(s, i));
            if (sq < 0) continue;
            int& o = owner[static_cast<std::size_t>(sq)];
            if (o != -1 && o != s) return true;
            o = s;
        }
    return false;
}

}  // namespace

TEST_CASE("seeded random games keep every invariant and end [ludo][property]") {
    Rng seeds(2024);
    int games = 0;
    long turns = 0;
    for (int arm : {6, 8})
        for (int players = 2; players <= 4; ++players)
            for (int variant = 0; variant < 4; ++variant) {
                GameOptions o = ludo_options(players, arm, variant & 1 ? LudoEntry::start_square : LudoEntry::text,
                                             variant & 2, variant == 3);
                for (int k = 0; k < 90; ++k, ++games) {
                    SeededDice dice(seeds.next());
                    Rng rng(seeds.next());
                    Game game(o);
                    game.roll_off(dice);
                    const bool compare = k < 15;  // the slower reference check on some games
                    while (game.phase() != Phase::finished) {
                        REQUIRE(game.turns() < 20'000);  // games end
                        if (compare)
                            for (Face f = 1; f <= 6; ++f)
                                for (int s = 0; s < players; ++s)
                                    if (!game.has_finished(s))
                                        REQUIRE(same(generated_moves(game, s, f), reference_moves(game, s, f)));
                        game.throw_die(dice);
                        if (game.phase() == Phase::awaiting_choice) {
                            const MoveList moves = game.legal_moves();
                            REQUIRE(!moves.empty());
                            const Move m =
                                moves[static_cast<int>(rng.uniform(static_cast<std::uint32_t>(moves.size())))];
                            // No piece passes or lands on an opposing block.
                            const Geometry& g = game.geometry();
                            const int seat = game.current_seat();
                            const int first = m.enters() ? 0 : m.from + 1;
                            for (int q = first; q <= m.to && q <= g.last_circuit_progress(); ++q) {
                                const int sq = g.square_of(game.colour(seat), q);
                                REQUIRE_FALSE((game.is_block(sq) && game.occupant(sq) != seat));
                            }
                            REQUIRE(game.choose(seat, m.piece).ok());
                        }
                        if (const auto broken = game.broken_invariant()) FAIL(*broken);
                        REQUIRE_FALSE(two_colours_on_a_square(game));
                    }
                    turns += game.turns();
                    const auto winners = game.winners();
                    REQUIRE(winners.size() == 1);
                    CHECK(game.pieces_home(winners[0]) == kPiecesPerPlayer);
                    if (o.play_on) CHECK(game.unfinished_players() == 1);
                }
            }
    CHECK(games == 2160);
    MESSAGE(games << " games, " << turns << " turns");
}

TEST_CASE("the same dice replay the same game, events and all [ludo][property]") {
    const auto replay = [](std::uint64_t seed) {
        SeededDice dice(seed);
        Rng rng(seed);
        Game game(ludo_options(4));
        EventLog log;
        game.roll_off(dice, &log);
        while (game.phase() != Phase::finished) {
            game.throw_die(dice, &log);
            if (game.phase() == Phase::awaiting_choice)
                REQUIRE(game.choose(game.current_seat(), choose_piece(PolicyKind::greedy, game, rng), &log).ok());
        }
        return log;
    };
    const EventLog a = replay(7), b = replay(7), c = replay(8);
    CHECK(a == b);
    CHECK(a != c);
    CHECK(a.back().kind == EventKind::game_over);
    // Every throw of the game is in the log, and every capture follows the move that made it.
    for (std::size_t k = 1; k < a.size(); ++k)
        if (a[k].kind == EventKind::captured)
            CHECK((a[k - 1].kind == EventKind::moved || a[k - 1].kind == EventKind::entered));
    CHECK(describe(a.front(), 4).find("in the roll-off") != std::string::npos);
}

TEST_CASE("every policy picks a legal piece, deterministically for a seed [ludo][bots]") {
    const Game game = [] {
        Game g = at("green*:10,30,Y,Y yellow:Y,Y,Y,Y red:38,Y,Y,Y");
        g.apply_throw(6);
        return g;
    }();
    for (PolicyKind p : {PolicyKind::random, PolicyKind::greedy, PolicyKind::best}) {
        CAPTURE(to_string(p));
        Rng a(5), b(5);
        const int piece = choose_piece(p, game, a);
        CHECK(piece == choose_piece(p, game, b));
        CHECK(game.check(0, piece).ok());
    }
    Game none = at("green*:10,30,Y,Y red:Y,Y,Y,Y");
    Rng rng(1);
    CHECK_THROWS_AS((void)choose_piece(PolicyKind::best, none, rng), std::logic_error);  // nothing to choose yet
}

TEST_CASE("greedy and best take a capture, bring a piece home, and step out of reach [ludo][bots]") {
    Rng rng(1);
    for (PolicyKind p : {PolicyKind::greedy, PolicyKind::best}) {
        CAPTURE(to_string(p));
        Game capture = at("green*:10,30,Y,Y red:38,Y,Y,Y");  // 10 + 2 lands on red's single piece
        capture.apply_throw(2);
        CHECK(choose_piece(p, capture, rng) == 0);

        Game home = at("green*:54,20,Y,Y red:Y,Y,Y,Y");
        home.apply_throw(2);
        CHECK(choose_piece(p, home, rng) == 0);

        // Green's piece on 45 has red's piece 2 squares behind it (red 17 = square 43); a 5 takes
        // it out of reach, or moves the piece on 3 instead.
        Game escape = at("green*:45,3,Y,Y red:17,Y,Y,Y");
        escape.apply_throw(5);
        CHECK(choose_piece(p, escape, rng) == 0);
    }
}

TEST_CASE("capture_chances follows uniform opponents, their 6s and blocks [ludo][bots]") {
    // n = 6: green's piece on 20 stands on circuit square 20; red's piece on 43 stands on square 17,
    // three squares behind it. Red's only other pieces are home: a 3 must capture (1/6); a 6 takes
    // red past green and its extra throw cannot come back.
    auto c = capture_chances(at("green*:20,Y,Y,Y red:43,H,H,H"), 0);
    CHECK(c[0] == doctest::Approx(1.0 / 6));
    CHECK(c[1] == 0);
    // With a second red piece far away (10 = square 36) the 3 is one of two choices (1/12), and a 6
    // spent on that piece gives red another throw from the same place (1/6 * 1/2 * 1/6 * 1/2).
    c = capture_chances(at("green*:20,Y,Y,Y red:43,10,H,H"), 0);
    CHECK(c[0] == doctest::Approx(1.0 / 12 + 1.0 / 144));
    // A greedy opponent (greed 1) always takes the capture: 1/6 again, plus the 6-then-3 line.
    c = capture_chances(at("green*:20,Y,Y,Y red:43,10,H,H"), 0, 1.0);
    CHECK(c[0] == doctest::Approx(1.0 / 6 + 1.0 / 72));
    // A block cannot be landed on.
    c = capture_chances(at("green*:20,20,Y,Y red:43,H,H,H"), 0);
    CHECK(c[0] == 0);
    CHECK(c[1] == 0);
}

TEST_CASE("best's exact-danger variant picks legal moves, deterministically [ludo][bots]") {
    BestConfig cfg;
    cfg.exact_danger = true;
    cfg.opponent_greed = 0;
    cfg.depth = 1;
    Game escape = at("green*:45,3,Y,Y red:17,Y,Y,Y");
    escape.apply_throw(5);
    Rng a(3), b(3);
    CHECK(choose_piece(PolicyKind::best, escape, a, cfg) == 0);
    Game six = at("green*:10,30,Y,Y yellow:Y,Y,Y,Y red:38,Y,Y,Y");
    six.apply_throw(6);
    const int piece = choose_piece(PolicyKind::best, six, a, cfg);
    CHECK(piece == choose_piece(PolicyKind::best, six, b, cfg));
    CHECK(six.check(0, piece).ok());
}

TEST_CASE("best's learned value: certain at the end, a chance in between, symmetric in its inputs [ludo][bots]") {
    const ValueNet& net = shipped_value_net();
    // Green has finished: 1 for green, 0 for red (the game is over).
    Game over = at("green:H,H,H,53 red:Y,Y,Y,Y");
    over.apply_throw(3);
    over.play(over.legal_moves()[0]);
    REQUIRE(over.phase() == Phase::finished);
    CHECK(learned_value(net, over, 0) == 1.0);
    CHECK(learned_value(net, over, 1) == 0.0);
    // In between, a probability; far ahead beats far behind.
    const double ahead = learned_value(net, at("green:H,H,H,40 red:Y,Y,Y,5"), 0);
    const double behind = learned_value(net, at("green:Y,Y,Y,5 red:H,H,H,40"), 0);
    CHECK(ahead > 0);
    CHECK(ahead < 1);
    CHECK(behind > 0);
    CHECK(ahead > behind);
    // The features do not depend on the order of the pieces.
    std::array<float, kValueFeatures> a{}, b{};
    value_features(at("green:3,Y,30,H yellow:Y,10,Y,Y red:20,Y,Y,44"), 0, a);
    value_features(at("green:H,30,Y,3 yellow:10,Y,Y,Y red:44,Y,20,Y"), 0, b);
    CHECK(a == b);
}

TEST_CASE("best's variants pick legal moves, deterministically for a seed [ludo][bots]") {
    // The learned value is used at 4 players, n = 6, the text's entry only.
    CHECK(learned_value_applies(ludo_options(4)));
    CHECK_FALSE(learned_value_applies(ludo_options(3)));
    CHECK_FALSE(learned_value_applies(ludo_options(4, 8)));
    CHECK_FALSE(learned_value_applies(ludo_options(4, 6, LudoEntry::start_square)));
    CHECK_FALSE(learned_value_applies(ludo_options(4, 6, LudoEntry::text, true)));
    CHECK(shipped_net_for(ludo_options(4)) == &shipped_value_net());
    // ... and a network of its own for the home_rules preset at 4 players, first home wins.
    GameOptions home = ludo_options(4);
    home.ludo = home_rules();
    CHECK(shipped_net_for(home) == &shipped_home_value_net());
    CHECK(&shipped_home_value_net() != &shipped_value_net());
    for (int change = 0; change < 5; ++change) {
        CAPTURE(change);
        GameOptions o = home;
        if (change == 0) o.ludo.capture_to_home = true;
        if (change == 1) o.ludo.teams = true;
        if (change == 2) o.players = 3;
        if (change == 3) o.play_on = true;
        if (change == 4) o.ludo.safe_squares = false;
        CHECK_FALSE(learned_value_applies(o));
    }
    Game six = at("green*:10,30,Y,Y yellow:Y,Y,Y,Y red:38,Y,Y,Y blue:Y,Y,Y,Y");
    six.apply_throw(6);
    for (int variant = 0; variant < 4; ++variant) {
        CAPTURE(variant);
        BestConfig cfg;
        if (variant == 1) {
            cfg.learned = false;  // the heuristic search
        }
        if (variant == 2) cfg.learned_ply = 2;
        if (variant == 3) cfg.rollouts = 4;
        Rng a(11), b(11);
        const int piece = choose_piece(PolicyKind::best, six, a, cfg);
        CHECK(piece == choose_piece(PolicyKind::best, six, b, cfg));
        CHECK(six.check(0, piece).ok());
    }
}

TEST_CASE("best and greedy beat random players [ludo][bots]") {
    // The long measurements are in bench_ludo; here a few hundred games with a generous margin.
    const auto share = [](PolicyKind bot, int games) {
        Rng seeds(99);
        int wins = 0;
        for (int g = 0; g < games; ++g) {
            std::vector<PolicyKind> seats(4, PolicyKind::random);
            seats[static_cast<std::size_t>(g % 4)] = bot;
            SeededDice dice(seeds.next());
            Rng rng(seeds.next());
            const GameOutcome out = play_ludo_game(ludo_options(4), seats, dice, rng);
            REQUIRE(out.winners.size() == 1);
            CHECK(out.length > 0);
            wins += out.winners[0] == g % 4 ? 1 : 0;
        }
        return static_cast<double>(wins) / games;
    };
    CHECK(share(PolicyKind::greedy, 200) > 0.40);  // a fair share is 0.25
    CHECK(share(PolicyKind::best, 160) > 0.40);
}

TEST_CASE("play_ludo_game checks its arguments [ludo][bots]") {
    SeededDice dice(1);
    Rng rng(1);
    CHECK_THROWS_AS(play_ludo_game(ludo_options(3), {PolicyKind::random}, dice, rng), std::invalid_argument);
    GameOptions bad = ludo_options(4);
    bad.ludo.arm = 7;
    CHECK_THROWS_AS(play_ludo_game(bad, std::vector<PolicyKind>(4, PolicyKind::random), dice, rng),
                    std::invalid_argument);
    const GameOutcome out = play_ludo_game(ludo_options(2, 8), {PolicyKind::best, PolicyKind::greedy}, dice, rng);
    CHECK(out.winners.size() == 1);
    CHECK(out.length > 50);
}
