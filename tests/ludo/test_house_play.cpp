// The house rules over many seeded random games, every option set: the engine's moves against a
// plain reference of the rules, its invariants after every step, and what a referee watching the
// events would check (no capture on a safe square, none between partners, no piece in its home
// column before its player captured, who throws again and when the game ends). Then the records
// of such games: they verify, a replay gives the same game, and the rule text's records still
// verify byte for byte.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "helpers.h"
#include "spookludo/ludo/policy.h"
#include "spookludo/ludo/record.h"
#include "spookludo/sim.h"
#include "spookludo/verify.h"

using namespace ludo_test;

namespace {

struct OptionSet {
    std::string name;
    GameOptions options;
};

GameOptions with(int players, int arm, LudoEntry entry, bool safe, bool bonus, bool capture, bool teams,
                 bool three_sixes = false) {
    GameOptions o = ludo_options(players, arm, entry, false, three_sixes);
    o.ludo.safe_squares = safe;
    o.ludo.bonus_throws = bonus;
    o.ludo.capture_to_home = capture;
    o.ludo.teams = teams;
    return o;
}

// Every option set: each house rule alone, the common ones together, on both boards with both
// entries and every number of players each allows; the preset, and the preset with
// capture_to_home and teams.
std::vector<OptionSet> option_sets() {
    std::vector<OptionSet> out;
    for (int arm : {6, 8})
        for (LudoEntry entry : {LudoEntry::text, LudoEntry::start_square})
            for (int players = 2; players <= 4; ++players) {
                const std::string at = " arm " + std::to_string(arm) + " " + std::string(to_string(entry)) + " " +
                                       std::to_string(players) + "p";
                out.push_back({"safe_squares" + at, with(players, arm, entry, true, false, false, false)});
                out.push_back({"bonus_throws" + at, with(players, arm, entry, false, true, false, false, true)});
                out.push_back({"capture_to_home" + at, with(players, arm, entry, false, false, true, false)});
                out.push_back({"safe+bonus+capture" + at, with(players, arm, entry, true, true, true, false)});
                if (players == 4) {
                    out.push_back({"teams" + at, with(players, arm, entry, false, false, false, true)});
                    out.push_back({"all four" + at, with(players, arm, entry, true, true, true, true, true)});
                }
            }
    for (int players = 2; players <= 4; ++players) {
        GameOptions preset = GameOptions::ludo_game(players, 6);
        preset.ludo = home_rules();
        out.push_back({"home_rules " + std::to_string(players) + "p", preset});
    }
    GameOptions all = GameOptions::ludo_game(4, 6);
    all.ludo = home_rules();
    all.ludo.capture_to_home = true;
    all.ludo.teams = true;
    out.push_back({"home_rules+capture_to_home+teams", all});
    all.ludo.capture_to_home = false;
    out.push_back({"home_rules+teams", all});
    return out;
}

struct RefMove {
    int from, to;
    bool captures;
    friend bool operator<(const RefMove& a, const RefMove& b) { return a.from < b.from; }
    friend bool operator==(const RefMove&, const RefMove&) = default;
};

// The legal moves of `seat` with `face`, as plainly as docs/rules.md words the rules, from the
// pieces alone (no count_on, blocks or occupant of the engine).
std::set<RefMove> reference_moves(const Game& game, int seat, Face face) {
    const Geometry& g = game.geometry();
    const LudoOptions& rules = game.options().ludo;
    const int n = g.circuit_squares();
    const auto square = [&](int s, int steps) { return ((g.start_square(game.colour(s)) + steps) % n + n) % n; };
    const auto team = [&](int s) { return rules.teams ? s % 2 : s; };
    // Pieces of the other sides on a square, counted per side.
    const auto others_on = [&](int sq) {
        std::vector<int> per_side(4, 0);
        for (int o = 0; o < game.players(); ++o) {
            if (team(o) == team(seat)) continue;
            for (int i = 0; i < kPiecesPerPlayer; ++i) {
                const int p = game.progress(o, i);
                if (p == kYard || g.in_home_column(p) || p == g.home()) continue;
                if (square(o, p == g.behind_start() ? -1 : p) == sq) ++per_side[static_cast<std::size_t>(team(o))];
            }
        }
        return per_side;
    };
    const bool opens_home = !rules.capture_to_home || game.has_captured(seat);
    std::set<RefMove> out;
    for (int i = 0; i < kPiecesPerPlayer; ++i) {
        const int p = game.progress(seat, i);
        if (p == g.home()) continue;
        int to = 0;
        int first = 0;
        int last = 0;  // the steps from the start square walked on the circuit
        if (p == kYard) {
            if (face != 6) continue;
            to = rules.entry == LudoEntry::text ? 5 : 0;
            last = to;
        } else if (g.in_home_column(p)) {
            to = p + face;
            if (to > g.home()) continue;
            first = 1;
            last = 0;  // nothing on the circuit
        } else {
            const int at = p == g.behind_start() ? -1 : p;
            first = at + 1;
            if (!opens_home && at + face > g.last_circuit_progress()) {
                last = at + face;  // round again
                to = at + face - n;
                if (to == -1) to = g.behind_start();
            } else {
                to = at + face;
                if (to > g.home()) continue;
                last = std::min(to, g.last_circuit_progress());
            }
        }
        bool blocked = false;
        for (int q = first; q <= last; ++q)
            for (int count : others_on(square(seat, q))) blocked = blocked || count >= 2;
        if (blocked) continue;
        bool captures = false;
        if (!g.in_home_column(to) && to != g.home()) {
            const int sq = square(seat, to == g.behind_start() ? -1 : to);
            const bool safe = rules.safe_squares && g.is_safe_square(sq);
            for (int count : others_on(sq)) captures = captures || (count > 0 && !safe);
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

// A side (a seat, or under teams both partners) has all its pieces home.
bool a_side_is_home(const Game& game) {
    for (int s = 0; s < game.players(); ++s) {
        if (game.pieces_home(s) != kPiecesPerPlayer) continue;
        if (!game.options().ludo.teams) return true;
        if (game.pieces_home(game.partner(s)) == kPiecesPerPlayer) return true;
    }
    return false;
}

// Plays one game with random choices, checking every step as a referee would.
int referee_game(const GameOptions& o, std::uint64_t seed, bool compare) {
    SeededDice dice(seed);
    Rng rng(seed + 1);
    Game game(o);
    game.roll_off(dice);
    const Geometry& g = game.geometry();
    std::vector<bool> captured(static_cast<std::size_t>(o.players), false);
    while (game.phase() != Phase::finished) {
        REQUIRE(game.turns() < 20'000);
        if (compare)
            for (Face f = 1; f <= 6; ++f)
                for (int s = 0; s < o.players; ++s)
                    if (!game.has_finished(s)) {
                        INFO(game.position() << " seat " << s << " face " << f);
                        REQUIRE(generated_moves(game, s, f) == reference_moves(game, s, f));
                    }
        const int seat = game.current_seat();
        const int sixes_before = game.sixes_in_row();
        EventLog log;
        game.throw_die(dice, &log);
        const Face face = log.front().face;
        if (game.phase() == Phase::awaiting_choice) {
            // The 6s in a row of the turn, counted across every extra throw.
            CHECK(game.sixes_in_row() == (face == 6 ? sixes_before + 1 : 0));
            const MoveList moves = game.legal_moves();
            const Move m = moves[static_cast<int>(rng.uniform(static_cast<std::uint32_t>(moves.size())))];
            const bool finishes = m.to == g.home() && game.pieces_home(seat) == kPiecesPerPlayer - 1;
            const bool had_captured = captured[static_cast<std::size_t>(seat)];
            for (const Move& each : moves)
                CHECK_FALSE((each.captures() && each.to == g.home()));  // home is off the circuit
            REQUIRE(game.choose(seat, m.piece, &log).ok());
            bool capture = false, home = false;
            for (const Event& e : log) {
                if (e.kind == EventKind::captured) {
                    capture = true;
                    // No capture on a safe square, none between partners.
                    if (o.ludo.safe_squares) CHECK_FALSE(g.is_safe_square(e.square));
                    CHECK(game.side(e.seat) != game.side(seat));
                    CHECK(e.seat != seat);
                    captured[static_cast<std::size_t>(seat)] = true;
                }
                home = home || e.kind == EventKind::reached_home;
                if (e.kind == EventKind::circles) {
                    CHECK(o.ludo.capture_to_home);
                    CHECK_FALSE(had_captured);
                }
                if (e.kind == EventKind::safe_square) {
                    CHECK(o.ludo.safe_squares);
                    CHECK(g.is_safe_square(e.square));
                }
            }
            // Who throws again: after a 6, or (bonus_throws) a capture or a piece home; never
            // after the move that finished the player; the reason said.
            const bool again = !finishes && (face == 6 || (o.ludo.bonus_throws && (capture || home)));
            int extra = 0;
            for (const Event& e : log)
                if (e.kind == EventKind::extra_throw) {
                    ++extra;
                    const auto want = face == 6 ? ExtraThrow::six : capture ? ExtraThrow::capture : ExtraThrow::home;
                    CHECK(e.detail == static_cast<int>(want));
                }
            if (game.phase() != Phase::finished) {
                CHECK(extra == (again ? 1 : 0));
                CHECK((game.current_seat() == seat) == again);
            }
        } else if (game.phase() != Phase::finished) {
            CHECK(game.current_seat() != seat);  // a pass or a third 6 passes the turn
        }
        if (const auto broken = game.broken_invariant()) FAIL(*broken << ": " << game.position());
        for (int s = 0; s < o.players; ++s) {
            CHECK(game.has_captured(s) == captured[static_cast<std::size_t>(s)]);
            // capture_to_home: no piece of a player without a capture in its home column or home.
            if (o.ludo.capture_to_home && !captured[static_cast<std::size_t>(s)])
                for (int i = 0; i < kPiecesPerPlayer; ++i)
                    CHECK((!g.in_home_column(game.progress(s, i)) && game.progress(s, i) != g.home()));
            // Teams: a finished player is never the one to throw.
            if (game.phase() != Phase::finished) CHECK_FALSE((game.has_finished(s) && game.current_seat() == s));
        }
        // The game ends exactly when a side (a player, or both partners) is home.
        CHECK((game.phase() == Phase::finished) == a_side_is_home(game));
    }
    const auto winners = game.winners();
    if (o.ludo.teams) {
        REQUIRE(winners.size() == 2);
        CHECK(winners[1] == game.partner(winners[0]));
        for (int s : winners) CHECK(game.pieces_home(s) == kPiecesPerPlayer);
        // The other team: both behind, in one place (its number: see test_house_rules.cpp).
        int other_place = 0;
        for (const Standing& st : game.standings()) {
            if (game.side(st.seat) == game.side(winners[0])) {
                CHECK(st.place == 1);
            } else {
                CHECK(st.place > 1);
                CHECK((other_place == 0 || other_place == st.place));
                other_place = st.place;
            }
        }
    } else {
        REQUIRE(winners.size() == 1);
        CHECK(game.pieces_home(winners[0]) == kPiecesPerPlayer);
    }
    return game.turns();
}

}  // namespace

TEST_CASE("house rules: seeded random games of every option set keep the rules a referee checks [ludo][house][property]") {
    Rng seeds(4242);
    int games = 0;
    long turns = 0;
    for (const OptionSet& set : option_sets()) {
        CAPTURE(set.name);
        REQUIRE_FALSE(set.options.validate().has_value());
        for (int k = 0; k < 10; ++k, ++games) turns += referee_game(set.options, seeds.next(), k < 2);
    }
    MESSAGE(games << " games, " << turns << " turns");
}

TEST_CASE("house rules: every bot picks legal moves under every option set [ludo][house][bots]") {
    Rng seeds(77);
    for (const OptionSet& set : option_sets()) {
        CAPTURE(set.name);
        const int n = set.options.players;
        std::vector<PolicyKind> seats;
        for (int s = 0; s < n; ++s) seats.push_back(s % 2 == 0 ? PolicyKind::greedy : PolicyKind::random);
        SeededDice dice(seeds.next());
        Rng rng(seeds.next());
        const GameOutcome out = play_ludo_game(set.options, seats, dice, rng);
        CHECK(out.winners.size() == (set.options.ludo.teams ? 2u : 1u));
    }
}

TEST_CASE("house rules: the simulator's records of every option set verify, and the same seed replays the same games [ludo][house][record]") {
    for (const OptionSet& set : option_sets()) {
        if (set.options.ludo.arm == 8 && set.options.players != 4) continue;  // enough of them
        CAPTURE(set.name);
        SimConfig config;
        config.options = set.options;
        for (int s = 0; s < set.options.players; ++s)
            config.seats.push_back(s == 1                                         ? PolicyKind::greedy
                                   : s == 0 && set.name.starts_with("home_rules") ? PolicyKind::best
                                                                                  : PolicyKind::random);
        config.games = 2;
        config.seed = 11;
        std::vector<std::string> texts;
        config.on_record = [&](int, const GameRecord& r) {
            const std::string text = record_text(r);
            texts.push_back(text);
            const GameRecord back = parse_record(text);
            CHECK(back.options == set.options);
            CHECK(back.result.status == GameStatus::finished);
            const VerifyReport report = verify(back);
            INFO(report.failure);
            CHECK(report.ok);
            // The house rules are written in the record.
            const auto options = nlohmann::json::parse(text).at("options");
            CHECK(options.value("safe_squares", false) == set.options.ludo.safe_squares);
            CHECK(options.value("teams", false) == set.options.ludo.teams);
            if (set.options.ludo.teams) CHECK(back.result.winners.size() == 2);
        };
        simulate(config);
        const std::vector<std::string> first = texts;
        texts.clear();
        simulate(config);
        CHECK(texts == first);
        REQUIRE(texts.size() == 2);
        // A record whose options lose a house rule no longer verifies: the rules are part of the game.
        GameRecord changed = parse_record(texts[0]);
        changed.options.ludo.safe_squares = !changed.options.ludo.safe_squares;
        changed.options.ludo.capture_to_home = !changed.options.ludo.capture_to_home;
        CHECK_FALSE(verify(changed).ok);
    }
}

TEST_CASE("house rules: the rule text's records still read, write back byte for byte and verify [ludo][house][record]") {
    for (const char* path : {"/tests/client/data/ludo_4p_n6.record.json", "/tests/web/fixtures/record-ludo.json"}) {
        CAPTURE(path);
        std::ifstream in(std::string(SPOOKLUDO_SOURCE_DIR) + path);
        REQUIRE(in.good());
        std::stringstream text;
        text << in.rdbuf();
        const GameRecord r = parse_record(text.str());
        CHECK_FALSE(r.options.ludo.house_rules());
        const std::string options = nlohmann::json(r.options).dump();
        for (const char* key : {"safe_squares", "bonus_throws", "capture_to_home", "teams", "preset"})
            CHECK(options.find(key) == std::string::npos);
        CHECK(parse_record(record_text(r)) == r);
        const VerifyReport report = verify(r);
        INFO(report.failure);
        CHECK(report.ok);
    }
}
