// The analysis of a game (spookludo/analysis.h, docs/analysis.md), over records the simulator
// writes with the fair dice: the timeline ends where the record ends, best play costs nothing,
// worse play costs more, and cost and luck add up to the difference between the expected and the
// actual finish.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "spookludo/analysis.h"
#include "spookludo/ludo/policy.h"
#include "spookludo/ludo/record.h"
#include "spookludo/sim.h"
#include "spookludo/spook/match.h"
#include "spookludo/spook/play.h"
#include "spookludo/spook/policy.h"
#include "spookludo/spook/setup.h"

using namespace spookludo;
using nlohmann::json;

namespace {

// The records of `games` seeded simulator games.
std::vector<GameRecord> sim_records(const GameOptions& options, std::vector<PolicyKind> seats, int games,
                                    std::uint64_t seed) {
    SimConfig config;
    config.options = options;
    config.seats = std::move(seats);
    config.games = games;
    config.seed = seed;
    std::vector<GameRecord> records;
    config.on_record = [&](int, const GameRecord& r) { records.push_back(r); };
    simulate(config);
    return records;
}

std::vector<PolicyKind> all(int players, PolicyKind policy) { return std::vector<PolicyKind>(static_cast<std::size_t>(players), policy); }

// The Spook notation of a position object's squares, in play order: "5,1 40,12".
std::string spook_squares(const json& position) {
    std::string out;
    for (int seat : position["players"]) {
        if (!out.empty()) out += ' ';
        std::string pieces;
        for (int sq : position["positions"][static_cast<std::size_t>(seat)]) {
            if (!pieces.empty()) pieces += ',';
            pieces += std::to_string(sq);
        }
        out += pieces;
    }
    return out;
}

// The timeline's last whole step ends in the record's last position, and its winners are the
// record's (Spook: the seats that finished first in the final position; Ludo: place 1).
void check_ends_as_recorded(const GameRecord& r, const json& a) {
    const json& steps = a["steps"];
    REQUIRE(!steps.empty());
    const json* last_whole = nullptr;
    for (const auto& s : steps)
        if (!s.value("partial", false)) last_whole = &s;
    REQUIRE(last_whole != nullptr);
    const json& position = (*last_whole)["position"];
    std::vector<int> winners;
    if (r.options.game == GameKind::spook) {
        if (!r.positions.empty()) CHECK(spook_squares(position) == r.positions.back().position);
        int first = 1 << 30;
        for (const auto& f : position["finished_round"])
            if (!f.is_null()) first = std::min(first, f.get<int>());
        for (std::size_t seat = 0; seat < position["finished_round"].size(); ++seat)
            if (!position["finished_round"][seat].is_null() && position["finished_round"][seat].get<int>() == first)
                winners.push_back(static_cast<int>(seat));
    } else {
        if (!r.positions.empty()) CHECK(position["position"].get<std::string>() == r.positions.back().position);
        for (const auto& s : a["summary"])
            if (s["finish"]["place"] == 1) winners.push_back(s["seat"].get<int>());
    }
    CHECK(winners == r.result.winners);  // sim records: room seats are the players' numbers
    CHECK(a["winners"].get<std::vector<int>>() == r.result.winners);
}

// start + cost - luck is where the player ended (Spook, in rounds); start - cost + luck is the
// chance to win at the end (Ludo, in points, where it is known).
void check_cost_and_luck_add_up(const json& a) {
    for (const auto& s : a["summary"]) {
        if (s["unit"] == "rounds") {
            const double end = s["start"]["expected_rounds"].get<double>() + s["cost"].get<double>() - s["luck"].get<double>();
            CHECK(std::abs(end - s["finish"]["expected_round"].get<double>()) < 0.01);
            const double parts = s["luck_parts"]["movement"].get<double>() + s["luck_parts"]["activation"].get<double>();
            CHECK(std::abs(parts - s["luck"].get<double>()) < 0.01);
        } else if (s["unit"] == "points") {
            const double end = 100 * s["start"]["win_chance"].get<double>() - s["cost"].get<double>() + s["luck"].get<double>();
            CHECK(std::abs(end - 100 * s["finish"]["win_chance"].get<double>()) < 0.01);
        }
    }
}

// The mean cost per decision of the seats playing `policy`.
double mean_cost(const std::vector<GameRecord>& records) {
    double cost = 0;
    int decisions = 0;
    for (const auto& r : records) {
        const json a = analyse(r);
        for (const auto& s : a["summary"]) {
            cost += s["cost"].get<double>();
            decisions += s["decisions"].get<int>();
        }
    }
    REQUIRE(decisions > 0);
    return cost / decisions;
}

}  // namespace

TEST_CASE("analysis: with every seat the best bot, no Spook decision costs anything [analysis][spook]") {
    for (int pieces : {2, 3}) {
        GameOptions options = GameOptions::spook_game(4, pieces);
        options.spook.balanced_boards = pieces == 2;
        int decisions = 0;
        for (const auto& r : sim_records(options, all(4, PolicyKind::best), 3, 5)) {
            const json a = analyse(r);
            for (const auto& d : a["decisions"]) {
                CHECK(d["cost"].get<double>() == 0.0);
                CHECK(d["rank"] == 1);
                ++decisions;
            }
            for (const auto& s : a["summary"]) CHECK(s["worst"].is_null());
        }
        CHECK(decisions > 10);
    }
}

TEST_CASE("analysis: random bots' choices cost more than greedy bots', in Spook and in Ludo [analysis]") {
    const GameOptions spook = GameOptions::spook_game(3, 2);
    const double spook_random = mean_cost(sim_records(spook, all(3, PolicyKind::random), 4, 11));
    const double spook_greedy = mean_cost(sim_records(spook, all(3, PolicyKind::greedy), 4, 11));
    CHECK(spook_random > spook_greedy);
    CHECK(spook_greedy > 0);
    // Ludo where the chance to win is known (4 players, arm 6), and elsewhere by rank.
    for (int arm : {6, 8}) {
        const GameOptions ludo = GameOptions::ludo_game(4, arm);
        const double ludo_random = mean_cost(sim_records(ludo, all(4, PolicyKind::random), 2, 11));
        const double ludo_greedy = mean_cost(sim_records(ludo, all(4, PolicyKind::greedy), 2, 11));
        CAPTURE(arm);
        CHECK(ludo_random > ludo_greedy);
    }
}

TEST_CASE("analysis: a home_rules game at 4 players is told in points by its own network: best's moves cost nothing, random's more than greedy's, cost and luck add up [analysis][house]") {
    GameOptions home = GameOptions::ludo_game(4, 6);
    home.ludo = home_rules();
    REQUIRE(ludo::shipped_net_for(home) == &ludo::shipped_home_value_net());
    int decisions = 0;
    for (const auto& r : sim_records(home, all(4, PolicyKind::best), 2, 23)) {
        const json a = analyse(r);
        for (const auto& s : a["summary"]) CHECK(s["unit"] == "points");
        for (const auto& d : a["decisions"]) {
            CHECK(d["cost"].get<double>() == 0.0);
            ++decisions;
        }
        check_ends_as_recorded(r, a);
        check_cost_and_luck_add_up(a);
    }
    CHECK(decisions > 10);
    const double random = mean_cost(sim_records(home, all(4, PolicyKind::random), 2, 11));
    const double greedy = mean_cost(sim_records(home, all(4, PolicyKind::greedy), 2, 11));
    CHECK(random > greedy);
    // With teams (no network of its own) the same game is told by rank.
    home.ludo.teams = true;
    const json teams = analyse(sim_records(home, all(4, PolicyKind::greedy), 1, 23)[0]);
    for (const auto& s : teams["summary"]) CHECK(s["unit"] == "rank");
}

TEST_CASE("analysis: the timeline of every record of a corpus ends in the record's final positions and winners [analysis]") {
    std::vector<GameRecord> corpus;
    auto add = [&](const std::vector<GameRecord>& records) { corpus.insert(corpus.end(), records.begin(), records.end()); };
    for (int pieces : {1, 2, 3})
        for (bool balanced : {true, false})
            for (bool play_on : {false, true}) {
                GameOptions o = GameOptions::spook_game(pieces == 3 ? 8 : 3, pieces);
                o.spook.balanced_boards = balanced;
                o.play_on = play_on;
                const std::vector<PolicyKind> mixed{PolicyKind::best,   PolicyKind::greedy, PolicyKind::random,
                                                    PolicyKind::best,   PolicyKind::greedy, PolicyKind::random,
                                                    PolicyKind::best,   PolicyKind::greedy};
                add(sim_records(o, {mixed.begin(), mixed.begin() + o.players}, 1, 3));
            }
    for (int players : {2, 3, 4})
        for (int arm : {6, 8})
            for (bool start_square : {false, true})
                for (bool three_sixes : {false, true}) {
                    GameOptions o = GameOptions::ludo_game(players, arm);
                    o.ludo.entry = start_square ? LudoEntry::start_square : LudoEntry::text;
                    o.ludo.three_sixes = three_sixes;
                    o.play_on = players == 3;
                    add(sim_records(o, all(players, PolicyKind::greedy), 1, 17));
                }
    for (const auto& r : corpus) {
        CAPTURE(json(r.options).dump());
        const json a = analyse(r);
        check_ends_as_recorded(r, a);
        check_cost_and_luck_add_up(a);
    }
}

TEST_CASE("analysis: an abandoned record's timeline stops at its last step, a step cut short marked partial [analysis]") {
    const ServerSeed seed = ServerSeed::from_hex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");
    // Spook, 3 players, abandoned in round 4 after the first player's choice.
    {
        const GameOptions options = GameOptions::spook_game(3, 2);
        Rng boards(3);
        spook::Match match(options,
                           {{0, "Ann", false, std::nullopt, 2}, {1, "Ben", false, std::nullopt, 0},
                            {2, "Cid", false, std::nullopt, 1}},
                           spook::choose_board_set(options, boards), seed, {{0, "a"}, {1, "b"}, {2, "c"}});
        Rng rng(5);
        const auto& game = match.game();
        bool stopped = false;
        while (!match.over() && !stopped) {
            match.roll_movement();
            for (int s = 0; s < 3 && !stopped; ++s) {
                if (!game.needs_decision(s)) continue;
                REQUIRE(match.choose(s, spook::choose_piece(PolicyKind::random, game, s, rng)));
                stopped = game.round() >= 4 && !game.awaiting().empty();
            }
            if (stopped) break;
            REQUIRE(match.apply_moves());
            match.activate();
        }
        REQUIRE(stopped);
        match.abandon();
        const GameRecord& r = match.record();
        const json a = analyse(r);
        CHECK(a["status"] == "abandoned");
        CHECK(a["players"] == json{2, 0, 1});  // room seats, as the record gives them
        const json& last = a["steps"].back();
        CHECK(last["kind"] == "movement");
        CHECK(last["partial"] == true);
        CHECK(last["round"] == game.round());
        REQUIRE(last["decisions"].size() == 1);
        CHECK(a["decisions"][last["decisions"][0].get<std::size_t>()]["counted"] == false);
        const json& before = a["steps"][a["steps"].size() - 2];
        CHECK(before["kind"] == "activation");
        CHECK(before["round"] == game.round() - 1);
        check_ends_as_recorded(r, a);
        check_cost_and_luck_add_up(a);
        for (const auto& s : a["summary"]) CHECK(s["finish"]["place"].is_null());
    }
    // Ludo, abandoned while the player to move was choosing, and between throws.
    for (bool while_choosing : {true, false}) {
        const GameOptions options = GameOptions::ludo_game(4, 6);
        ludo::Match match(options,
                          {{0, "Ann", false, std::nullopt, std::nullopt}, {1, "Ben", false, std::nullopt, std::nullopt},
                           {2, "Cid", false, std::nullopt, std::nullopt}, {3, "Dee", false, std::nullopt, std::nullopt}},
                          seed, {{0, "a"}, {1, "b"}, {2, "c"}, {3, "d"}});
        Rng rng(9);
        int choices = 0;
        while (!match.over()) {
            match.throw_die();
            if (!match.awaiting_choice()) continue;
            if (while_choosing && choices == 12) break;
            REQUIRE(match.choose(match.game().current_seat(), ludo::choose_piece(PolicyKind::greedy, match.game(), rng)));
            ++choices;
            if (!while_choosing && choices == 12) break;
        }
        match.abandon();
        const GameRecord& r = match.record();
        const json a = analyse(r);
        const json& last = a["steps"].back();
        CAPTURE(while_choosing);
        CHECK(last.value("partial", false) == while_choosing);
        CHECK(last["turn"] == (while_choosing ? r.result.length + 1 : r.result.length));
        check_ends_as_recorded(r, a);
        check_cost_and_luck_add_up(a);
    }
}
