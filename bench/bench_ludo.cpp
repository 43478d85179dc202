// Classic Ludo engine benchmark: turns per second with each bot, the `best` bot's time per move,
// and the bots' win rates (best vs 3 random, best vs 3 greedy, with 95 % intervals).
// Single-threaded: every figure is for one core. Figures go into BENCHMARKS.md with the command.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <optional>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "spookludo/command_line.h"
#include "spookludo/dice.h"
#include "spookludo/ludo/game.h"
#include "spookludo/ludo/policy.h"
#include "spookludo/sim.h"

using namespace spookludo;
using Clock = std::chrono::steady_clock;

namespace {

// CPU time of this thread in microseconds (a move's cost without the time the machine spent on
// other processes while it ran; the wall-clock figures include that).
double thread_cpu_us() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) / 1e3;
}

struct Flags {
    int games = 2000;        // win-rate games per match-up
    int turns = 20'000'000;  // throughput: turns per timed run with `random`
    int repeats = 5;         // timed runs per figure (the median is reported)
    std::uint64_t seed = 1;
    int arm = 6;  // board of the win-rate games
    bool skip_throughput = false;
    bool skip_winrates = false;
    int depth = -1;       // override BestConfig::depth
    int budget = -1;      // override BestConfig::node_budget
    std::string weights;  // override Weights terms, "name=value,..."
    std::string vs;       // only this opponent match-up (random|greedy)
    std::string options;  // the win-rate games' options as JSON (house rules); replaces --arm
};

// The command line; nothing when the benchmark is to run, else the exit status (0 after --help,
// 2 for a usage error).
std::optional<int> parse(int argc, char** argv, Flags& f) {
    CLI::App app{"bench_ludo: Classic Ludo engine benchmark (one core)", "bench_ludo"};
    app.set_version_flag("--version", std::string("bench_ludo ") + SPOOKLUDO_VERSION);
    app.footer(
        "--weights a=x,b=y sets Weights of `best` (entered, progress, home_column, home, danger, block,\n"
        "blockade, lockout, opponents, exposure, threat, far, progress2, reach) and BestConfig terms (greed,\n"
        "depth, exact_danger=0|1, learned=0|1, learned_depth, ply, rollouts, horizon).\n"
        "Exit status: 0 done; 2 a usage error (an unknown option, a bad value, an unknown weight: the\n"
        "message names it).");
    app.add_option("--games", f.games, "Win-rate games per match-up")->capture_default_str()->check(spookludo::positive_number());
    app.add_option("--turns", f.turns,
                   "Turns per timed throughput run with random (greedy and best run proportionally fewer)")
        ->capture_default_str()->check(spookludo::positive_number());
    app.add_option("--repeats", f.repeats, "Timed runs per throughput figure, median reported")
        ->capture_default_str()->check(spookludo::positive_number());
    app.add_option("--seed", f.seed, "Seed of dice and bots")->capture_default_str();
    app.add_option("--arm", f.arm, "Board of the win-rate games, 6 or 8")->capture_default_str()
        ->check(CLI::IsMember({6, 8}));
    bool quick = false;
    app.add_flag("--quick", quick, "A short run: 300 games, 2000000 turns, 3 repeats (unless given)");
    app.add_flag("--no-throughput", f.skip_throughput, "Skip the throughput part");
    app.add_flag("--no-winrates", f.skip_winrates, "Skip the win-rate part");
    app.add_option("--options", f.options,
                   "Options of the win-rate games as JSON, e.g. '{\"game\":\"ludo\",\"players\":4,\"preset\":\"home_rules\"}'"
                   " (replaces --arm; under teams a `best` pair plays a pair of the opponent)");
    app.add_option("--vs", f.vs, "Only this win-rate match-up")->check(CLI::IsMember({"random", "greedy"}));
    app.add_option("--depth", f.depth, "BestConfig::depth of `best` (default 2)")->check(spookludo::non_negative_number());
    app.add_option("--budget", f.budget, "BestConfig::node_budget of `best` (default 2000)")->check(spookludo::non_negative_number());
    app.add_option("--weights", f.weights, "Weights and BestConfig terms of `best`, name=value,... (below)");
    if (const auto usage = spookludo::parse_command_line(app, argc, argv)) return usage;
    if (quick) {  // what --games, --turns or --repeats give stands
        if (app.count("--games") == 0) f.games = 300;
        if (app.count("--turns") == 0) f.turns = 2'000'000;
        if (app.count("--repeats") == 0) f.repeats = 3;
    }
    return std::nullopt;
}

GameOptions winrate_options(const Flags& f);

ludo::BestConfig best_config(const Flags& f) {
    ludo::BestConfig c;
    // --weights changes the weights `best` plays in the win-rate games' rules (house_weights under
    // safe_squares or bonus_throws): they are edited in `weights` and put back below.
    const GameOptions games = winrate_options(f);
    const bool house = &ludo::weights_for(c, games) == &c.house_weights;
    if (house) c.weights = c.house_weights;
    if (f.depth >= 0) c.depth = f.depth;
    if (f.budget >= 0) c.node_budget = f.budget;
    std::string_view rest = f.weights;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
        const auto eq = item.find('=');
        const std::string name(item.substr(0, eq));
        const double v = eq == std::string_view::npos ? 0 : std::atof(std::string(item.substr(eq + 1)).c_str());
        ludo::Weights& w = c.weights;
        if (name == "entered")
            w.entered = v;
        else if (name == "progress")
            w.progress = v;
        else if (name == "home_column")
            w.home_column = v;
        else if (name == "home")
            w.home = v;
        else if (name == "danger")
            w.danger = v;
        else if (name == "block")
            w.block = v;
        else if (name == "blockade")
            w.blockade = v;
        else if (name == "lockout")
            w.lockout = v;
        else if (name == "opponents")
            w.opponents = v;
        else if (name == "reach")
            w.blockade_reach = static_cast<int>(v);
        else if (name == "learned")
            c.learned = v != 0;
        else if (name == "learned_depth")
            c.learned_depth = static_cast<int>(v);
        else if (name == "ply")
            c.learned_ply = static_cast<int>(v);
        else if (name == "rollouts")
            c.rollouts = static_cast<int>(v);
        else if (name == "horizon")
            c.horizon = static_cast<int>(v);
        else if (name == "exact_danger")
            c.exact_danger = v != 0;
        else if (name == "depth")
            c.depth = static_cast<int>(v);
        else if (name == "greed")
            c.opponent_greed = v;
        else if (name == "exposure")
            w.exposure = v;
        else if (name == "threat")
            w.threat = v;
        else if (name == "far")
            w.far = v;
        else if (name == "progress2")
            w.progress2 = v;
        else {
            std::fprintf(stderr, "bench_ludo: unknown weight %s in --weights\nRun 'bench_ludo --help' for the usage.\n",
                         name.c_str());
            std::exit(spookludo::kUsageError);
        }
    }
    if (house) {
        c.house_weights = c.weights;
        c.weights = ludo::Weights{};
    }
    return c;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Plays four-seat games with one policy until `turns` throws were made; returns turns/s.
double turns_per_second(PolicyKind policy, int arm, long turns, std::uint64_t seed, const ludo::BestConfig& cfg) {
    GameOptions o = GameOptions::ludo_game(4, arm);
    SeededDice dice(seed);
    Rng rng(seed ^ 0x5eedULL);
    long done = 0;
    long checksum = 0;
    const auto t0 = Clock::now();
    while (done < turns) {
        ludo::Game game(o);
        game.roll_off(dice);
        while (game.phase() != ludo::Phase::finished) {
            game.throw_die(dice);
            if (game.phase() != ludo::Phase::awaiting_choice) continue;
            game.play(ludo::choose_move(policy, game, rng, cfg));
        }
        done += game.turns();
        checksum += game.winners().front();
    }
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (checksum < 0) std::puts("");  // keep the work observable
    return static_cast<double>(done) / s;
}

struct MatchResult {
    SimReport report;
    std::vector<double> move_us;  // time of each `best` decision with a real choice
    std::vector<double> move_cpu_us;  // the same in thread CPU time
    double seconds = 0;
    long captured = 0;  // pieces of `best` captured, over all games
    long captures = 0;  // pieces `best` captured
};

GameOptions winrate_options(const Flags& f) {
    if (f.options.empty()) return GameOptions::ludo_game(4, f.arm);
    GameOptions o;
    try {
        o = nlohmann::json::parse(f.options).get<GameOptions>();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_ludo: --options: %s\n", e.what());
        std::exit(spookludo::kUsageError);
    }
    if (o.game != GameKind::ludo || o.players != 4) {
        std::fprintf(stderr, "bench_ludo: --options must be a 4-player ludo game\n");
        std::exit(spookludo::kUsageError);
    }
    return o;
}

// `games` games of `best` against three `opponent`s at 4 players, the best seat rotating (under
// teams: a `best` pair, seats 1 and 3 or 2 and 4 in turn, against a pair of `opponent`).
MatchResult match(PolicyKind opponent, const Flags& f, const ludo::BestConfig& cfg) {
    const GameOptions o = winrate_options(f);
    const bool teams = o.ludo.teams;
    SimTally tally({PolicyKind::best, opponent, teams ? PolicyKind::best : opponent, opponent});
    MatchResult r;
    Rng seeds(f.seed);
    const auto t0 = Clock::now();
    for (int g = 0; g < f.games; ++g) {
        SeededDice dice(seeds.next());
        Rng rng(seeds.next());
        const int best_seat = teams ? g % 2 : g % 4;
        std::vector<PolicyKind> seats(4, opponent);
        seats[static_cast<std::size_t>(best_seat)] = PolicyKind::best;
        if (teams) seats[static_cast<std::size_t>(best_seat + 2)] = PolicyKind::best;
        ludo::Game game(o);
        game.roll_off(dice);
        while (game.phase() != ludo::Phase::finished) {
            game.throw_die(dice);
            if (game.phase() != ludo::Phase::awaiting_choice) continue;
            const PolicyKind p = seats[static_cast<std::size_t>(game.current_seat())];
            if (p == PolicyKind::best && game.legal_moves().size() > 1) {
                const auto m0 = Clock::now();
                const double c0 = thread_cpu_us();
                const ludo::Move m = ludo::choose_move(p, game, rng, cfg);
                r.move_cpu_us.push_back(thread_cpu_us() - c0);
                r.move_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - m0).count());
                r.captures += m.captures() ? 1 : 0;
                game.play(m);
            } else {
                const ludo::Move m = ludo::choose_move(p, game, rng, cfg);
                if (m.captured_seat == best_seat || (teams && m.captured_seat == best_seat + 2)) ++r.captured;
                if (p == PolicyKind::best) r.captures += m.captures() ? 1 : 0;
                game.play(m);
            }
        }
        // Report in "best is seat 0" terms: rotate the winners back.
        GameOutcome out{{}, game.turns()};
        for (int w : game.winners()) out.winners.push_back((w - best_seat + 4) % 4);
        tally.add(out);
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    r.report = tally.report();
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    Flags f;
    if (const auto status = parse(argc, argv, f)) return *status;
    const ludo::BestConfig cfg = best_config(f);
    std::printf("bench_ludo: seed %llu, best depth %d (learned value: %s, depth %d), node budget %d\n",
                static_cast<unsigned long long>(f.seed), cfg.depth, cfg.learned ? "on" : "off", cfg.learned_depth,
                cfg.node_budget);

    if (!f.skip_throughput) {
        std::printf("\nThroughput (4 players, all seats one bot, one core; median of %d runs)\n", f.repeats);
        struct Row {
            PolicyKind policy;
            int arm;
            long turns;
        };
        const long t = f.turns;
        const Row rows[] = {{PolicyKind::random, 8, t},
                            {PolicyKind::random, 6, t},
                            {PolicyKind::greedy, 8, t / 10},
                            {PolicyKind::greedy, 6, t / 10},
                            {PolicyKind::best, 6, t / 1000 + 1000}};
        for (const Row& row : rows) {
            std::vector<double> runs;
            for (int k = 0; k < f.repeats; ++k)
                runs.push_back(
                    turns_per_second(row.policy, row.arm, row.turns, f.seed + static_cast<std::uint64_t>(k), cfg));
            std::printf("  %-6s n=%d  %12.0f turns/s   (%ld turns per run)\n",
                        std::string(to_string(row.policy)).c_str(), row.arm, median(runs), row.turns);
            std::fflush(stdout);
        }
    }

    if (!f.skip_winrates) {
        for (PolicyKind opp : {PolicyKind::random, PolicyKind::greedy}) {
            if (!f.vs.empty() && f.vs != to_string(opp)) continue;
            const MatchResult r = match(opp, f, cfg);
            const auto& s = r.report.seats[0].share;
            const GameOptions o = winrate_options(f);
            const nlohmann::json shown = o;
            if (o.ludo.teams) {
                // Partners win together: the pair's share is twice a seat's (each counts half).
                std::printf("\na best pair vs a %s pair, teams, %s, %d games (the pair's seats alternating)\n",
                            std::string(to_string(opp)).c_str(), shown.dump().c_str(), r.report.games);
                std::printf("  the best pair wins %.1f %%  (95 %% CI %.1f .. %.1f %%)   fair share 50 %%\n",
                            200 * s.mean, 200 * s.low, 200 * s.high);
            } else {
                std::printf("\nbest vs 3 %s, 4 players, %s, %d games (best's seat rotating)\n",
                            std::string(to_string(opp)).c_str(), shown.dump().c_str(), r.report.games);
                std::printf("  best wins %.1f %%  (95 %% CI %.1f .. %.1f %%)   fair share 25 %%\n", 100 * s.mean,
                            100 * s.low, 100 * s.high);
            }
            std::printf("  mean game length %.0f turns; %.1f s; best loses %.2f pieces a game, captures %.2f\n",
                        r.report.mean_length, r.seconds, static_cast<double>(r.captured) / r.report.games,
                        static_cast<double>(r.captures) / r.report.games);
            std::vector<double> us = r.move_us;
            std::sort(us.begin(), us.end());
            if (!us.empty()) {
                const double p99 = us[std::min(us.size() - 1, us.size() * 99 / 100)];
                std::printf(
                    "  best's time per move (%zu moves with a choice): median %.1f us, p99 %.1f us, max %.1f us\n",
                    us.size(), median(us), p99, us.back());
                std::vector<double> cpu = r.move_cpu_us;
                std::sort(cpu.begin(), cpu.end());
                std::printf("  the same in thread CPU time: median %.1f us, p99 %.1f us, max %.1f us\n", median(cpu),
                            cpu[std::min(cpu.size() - 1, cpu.size() * 99 / 100)], cpu.back());
            }
            std::fflush(stdout);
        }
    }
    return 0;
}
