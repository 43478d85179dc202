// bench_analysis: what one game's analysis costs (spookludo/analysis.h), the figure behind the
// server's GET /analysis/<id> bounds: median and slowest CPU milliseconds per game over seeded
// simulated games, each analysed with a cold solution cache (every board solved, the worst case
// of the route) and again with the boards already solved (what a room's shared cache gives).
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "spookludo/analysis.h"
#include "spookludo/command_line.h"
#include "spookludo/sim.h"
#include "spookludo/spook/solver.h"

using namespace spookludo;

namespace {

struct Case {
    std::string name;
    GameOptions options;
    std::vector<PolicyKind> seats;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// This thread's CPU time in milliseconds: what one analysis costs a core, whatever else runs.
double cpu_ms() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench_analysis: the cost of one game's analysis (one core)", "bench_analysis"};
    app.set_version_flag("--version", std::string("bench_analysis ") + SPOOKLUDO_VERSION);
    app.footer("Exit status: 0 done; 2 a usage error (an unknown option, a bad value: the message names it).");
    int games = 20;
    std::uint64_t seed = 1;
    app.add_option("--games", games, "Games per case")->capture_default_str()->check(spookludo::positive_number());
    app.add_option("--seed", seed, "Seed of the simulated games")->capture_default_str();
    if (const auto status = parse_command_line(app, argc, argv)) return *status;

    auto spook = [](int pieces, bool balanced) {
        GameOptions o = GameOptions::spook_game(8, pieces);
        o.spook.balanced_boards = balanced;
        return o;
    };
    const std::vector<PolicyKind> eight{PolicyKind::best,   PolicyKind::greedy, PolicyKind::random, PolicyKind::best,
                                        PolicyKind::greedy, PolicyKind::random, PolicyKind::best,   PolicyKind::greedy};
    const std::vector<PolicyKind> four{PolicyKind::best, PolicyKind::greedy, PolicyKind::random, PolicyKind::best};
    const std::vector<Case> cases{
        {"spook, 8 players, 2 pieces, balanced boards", spook(2, true), eight},
        {"spook, 8 players, 2 pieces, random boards", spook(2, false), eight},
        {"spook, 8 players, 3 pieces, balanced boards", spook(3, true), eight},
        {"spook, 8 players, 3 pieces, random boards", spook(3, false), eight},
        {"ludo, 4 players, arm 8 (rank)", GameOptions::ludo_game(4, 8), four},
        {"ludo, 4 players, arm 6 (chance to win)", GameOptions::ludo_game(4, 6), four},
    };
    std::printf("%-46s %6s %8s %10s %10s %10s %9s\n", "case", "games", "steps", "cold med", "cold max", "warm med",
                "KB");
    for (const auto& c : cases) {
        std::vector<GameRecord> records;
        SimConfig config;
        config.options = c.options;
        config.seats = c.seats;
        config.games = games;
        config.seed = seed;
        config.on_record = [&](int, const GameRecord& r) { records.push_back(r); };
        simulate(config);
        std::vector<double> cold, warm;
        double steps = 0, bytes = 0;
        for (const auto& r : records) {
            spook::SolutionCache cache;
            AnalysisOptions options;
            options.solve = [&cache](const spook::Board& b, int pieces, int need) { return cache.get(b, pieces, need); };
            double t = cpu_ms();
            const auto a = analyse(r, options);
            cold.push_back(cpu_ms() - t);
            t = cpu_ms();
            (void)analyse(r, options);
            warm.push_back(cpu_ms() - t);
            steps += static_cast<double>(a["steps"].size());
            bytes += static_cast<double>(a.dump().size());
        }
        std::printf("%-46s %6d %8.0f %10.1f %10.1f %10.1f %9.0f\n", c.name.c_str(), games, steps / games, median(cold),
                    *std::max_element(cold.begin(), cold.end()), median(warm), bytes / games / 1024);
    }
    std::printf("(CPU milliseconds per game: cold, every board solved; warm, boards already solved; KB of the document)\n");
    return 0;
}
