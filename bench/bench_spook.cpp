// Spook & Werewolf engine benchmark: engine throughput per policy and the board-solve times.
//
//   bench_spook [--quick] [--seed S]
//
// Throughput: whole 8-player games (2 pieces, balanced boards) played back to back on one core
// with the same policy in every seat; a player-round is one player taking part in one round
// (roll, choice, move, activation). Solutions are computed before the clock starts (a server
// solves each board once). Each figure is the median of 5 runs.
// Solve times: Solution::solve on random boards, median and worst of N boards per piece count.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "spookludo/command_line.h"
#include "spookludo/spook/play.h"
#include "spookludo/spook/setup.h"
#include "spookludo/spook/solver.h"

using namespace spookludo;
using namespace spookludo::spook;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// Player-rounds per second for one policy in every seat.
double throughput(PolicyKind kind, int players, int pieces, int games, std::uint64_t seed, SolutionCache& cache) {
    GameOptions options = GameOptions::spook_game(players, pieces);
    const std::vector<PolicyKind> seats(static_cast<std::size_t>(players), kind);
    // Warm the cache: every pool board solved before timing.
    for (const auto& pooled : balanced_pool(pieces))
        (void)cache.get(Board::from_notation(pooled.notation), pieces, options.spook.pieces_to_finish());
    Rng rng(seed);
    std::vector<std::vector<Board>> sets;
    for (int g = 0; g < 64; ++g) sets.push_back(choose_board_set(options, rng));
    long long player_rounds = 0;
    const auto t0 = Clock::now();
    for (int g = 0; g < games; ++g) {
        SeededDice dice(rng.next());
        const std::vector<int> board_of_seat = draw_assignment(players, dice);
        std::vector<Board> boards;
        for (int b : board_of_seat) boards.push_back(sets[static_cast<std::size_t>(g) % sets.size()][static_cast<std::size_t>(b)]);
        Game game(options, std::move(boards));
        play_out(game, seats, dice, rng, cache);
        // Every player takes part in every round until the game ends (no play-on here).
        player_rounds += static_cast<long long>(game.round()) * players;
    }
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    return static_cast<double>(player_rounds) / s;
}

}  // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::vector<PolicyKind> kinds{PolicyKind::random, PolicyKind::greedy, PolicyKind::best};
    std::uint64_t seed = 7;
    std::string policy;
    CLI::App app{"bench_spook: Spook engine throughput (player-rounds/s per policy, one core) and board-solve times",
                 "bench_spook"};
    app.set_version_flag("--version", std::string("bench_spook ") + SPOOKLUDO_VERSION);
    app.footer("Exit status: 0 done; 2 a usage error (an unknown option, a bad value: the message names it).");
    app.add_flag("--quick", quick, "A short run (2000 games a run, 9 boards per piece count)");
    app.add_option("--seed", seed, "Seed of dice, boards and bots")->capture_default_str();
    app.add_option("--policy", policy, "Only the throughput of this policy (for profiling)")
        ->check(CLI::IsMember({"random", "greedy", "best"}));
    if (const auto usage = parse_command_line(app, argc, argv)) return *usage;
    const bool throughput_only = !policy.empty();
    if (throughput_only) kinds = {*parse_policy(policy)};
    const int games = quick ? 2000 : 20000;
    const int runs = 5;
    SolutionCache cache;

    std::printf("Spook engine throughput: 8 players, 2 pieces, balanced boards, %d games a run, median of %d runs\n",
                games, runs);
    std::printf("%-8s %18s\n", "policy", "player-rounds/s");
    for (PolicyKind kind : kinds) {
        std::vector<double> r;
        for (int i = 0; i < runs; ++i) r.push_back(throughput(kind, 8, 2, games, seed + static_cast<std::uint64_t>(i), cache));
        std::printf("%-8s %18.0f\n", std::string(to_string(kind)).c_str(), median(r));
    }
    if (throughput_only) return 0;

    const int boards = quick ? 9 : 41;
    std::printf("\nBoard solve (best play by value iteration), %d random boards per piece count, one core\n", boards);
    std::printf("%-7s %10s %10s %10s %8s\n", "pieces", "median ms", "max ms", "positions", "sweeps");
    Rng rng(seed);
    for (int pieces = 1; pieces <= 3; ++pieces) {
        std::vector<double> ms;
        std::vector<double> sweeps;
        for (int i = 0; i < boards; ++i) {
            const Board b = Board::random(rng);
            const auto t0 = Clock::now();
            const Solution s = Solution::solve(b, pieces, spook_pieces_to_finish(pieces));
            ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            sweeps.push_back(s.sweeps());
        }
        std::printf("%-7d %10.3f %10.3f %10d %8.0f\n", pieces, median(ms), *std::max_element(ms.begin(), ms.end()),
                    position_count(pieces), median(sweeps));
    }

    std::printf("\nShipped balanced pools (expected finish under best play, rounds)\n");
    std::printf("%-7s %6s %10s %10s %8s\n", "pieces", "boards", "min", "max", "spread");
    for (int pieces = 1; pieces <= 3; ++pieces) {
        std::vector<double> e;
        for (const auto& p : balanced_pool(pieces))
            e.push_back(Solution::solve(Board::from_notation(p.notation), pieces, spook_pieces_to_finish(pieces)).expected_finish());
        std::printf("%-7d %6zu %10.3f %10.3f %7.2f%%\n", pieces, e.size(), *std::min_element(e.begin(), e.end()),
                    *std::max_element(e.begin(), e.end()), 100 * balance_spread(e));
    }
    return 0;
}
