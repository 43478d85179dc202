#include "sim_command.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>

#include "game_words.h"
#include "i18n.h"
#include "room_flags.h"

#include "spookludo/command_line.h"
#include "spookludo/ludo/geometry.h"
#include "spookludo/sim.h"
#include "spookludo/spook/board.h"

namespace spookludo::cli {

namespace {

struct SimArgs {
    std::string game = "spook";
    int players = 2;
    bool players_given = false;
    int pieces = 2;
    bool play_on = false;
    bool unbalanced = false;
    LudoFlags ludo;
    std::string options_json;
    std::vector<std::string> policies{"best", "random"};
    int games = 10000;
    std::uint64_t seed = 1;
    std::string boards_file;
    bool json = false;
    bool no_progress = false;
    std::string records_dir;
};

GameOptions options_from(const SimArgs& a) {
    if (!a.options_json.empty()) {
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(a.options_json);
        } catch (const nlohmann::json::parse_error& e) {
            throw std::invalid_argument(client::tr("--options is not valid JSON: {detail}", {{"detail", e.what()}}));
        }
        return j.get<GameOptions>();
    }
    nlohmann::json j{{"game", a.game}, {"players", a.players}, {"play_on", a.play_on}};
    if (a.game == "spook") {
        j["pieces"] = a.pieces;
        j["balanced_boards"] = !a.unbalanced;
    }
    // Ludo's flags also for Spook: the options then say which one is not Spook's.
    put_ludo_flags(a.ludo, j);
    // Teams are two against two: four players unless --players says otherwise.
    if (a.ludo.teams && !a.players_given) j["players"] = 4;
    return j.get<GameOptions>();
}

std::vector<PolicyKind> seat_policies(const std::vector<std::string>& names, int players) {
    if (names.empty()) throw std::invalid_argument(client::tr("name at least one policy (random, greedy or best)"));
    if (static_cast<int>(names.size()) > players)
        throw std::invalid_argument(client::tr("{policies} policies for {players} players: give at most one per seat",
                                               {{"policies", std::to_string(names.size())}, {"players", std::to_string(players)}}));
    std::vector<PolicyKind> seats;
    for (const auto& n : names) {
        auto k = parse_policy(n);
        if (!k) throw std::invalid_argument(client::tr("unknown policy \"{policy}\" (use random, greedy or best)", {{"policy", n}}));
        seats.push_back(*k);
    }
    while (static_cast<int>(seats.size()) < players) seats.push_back(seats.back());
    return seats;
}

class ProgressBar {
public:
    ProgressBar(int total, bool enabled) : total_(total), enabled_(enabled) {}
    void update(int done) {
        if (!enabled_) return;
        const int width = 40;
        const int filled = static_cast<int>(static_cast<long long>(width) * done / total_);
        const std::string count = client::trn("{done}/{n} game", "{done}/{n} games", total_, {{"done", std::to_string(done)}});
        std::fprintf(stderr, "\r[%s%s] %s", std::string(static_cast<std::size_t>(filled), '#').c_str(),
                     std::string(static_cast<std::size_t>(width - filled), ' ').c_str(), count.c_str());
        if (done == total_) std::fprintf(stderr, "\r%*s\r", width + 30, "");
        std::fflush(stderr);
    }

private:
    int total_;
    bool enabled_;
};

// Under teams: each team's share of the games (both partners place 1 when it wins, so its games
// score 0 or 1), with its interval reckoned as the seats' are.
struct TeamReport {
    std::array<int, 2> seats{};
    std::string colours;  // "green+red"
    double wins = 0;
    Estimate share;
};

std::vector<TeamReport> team_reports(const SimConfig& config, const SimReport& r) {
    std::vector<TeamReport> teams;
    if (config.options.game != GameKind::ludo || !config.options.ludo.teams || r.seats.size() != 4) return teams;
    const double n = r.games;
    for (int first = 0; first < 2; ++first) {
        TeamReport t;
        t.seats = {first, first + 2};
        t.colours = client::colour_name(ludo::colour_of_seat(4, first)) + "+" + client::colour_name(ludo::colour_of_seat(4, first + 2));
        t.wins = r.seats[static_cast<std::size_t>(first)].wins + r.seats[static_cast<std::size_t>(first + 2)].wins;
        if (n > 0) {
            t.share.mean = t.wins / n;
            const double var = n > 1 ? std::max(0.0, (t.wins - t.wins * t.wins / n) / (n - 1)) : 0.0;
            const double half = 1.959963984540054 * std::sqrt(var / n);
            t.share.low = std::max(0.0, t.share.mean - half);
            t.share.high = std::min(1.0, t.share.mean + half);
        }
        teams.push_back(std::move(t));
    }
    return teams;
}

std::string pct(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%5.1f %%", 100 * x);
    return buf;
}

void print_text(const SimConfig& config, const SimReport& r, double seconds) {
    const bool spook = config.options.game == GameKind::spook;
    nlohmann::json opts = config.options;
    std::cout << client::trn("Simulated {n} game of {game} {options}, seed {seed}",
                             "Simulated {n} games of {game} {options}, seed {seed}", static_cast<long>(r.games),
                             {{"game", spook ? client::trc("game", "spook") : client::trc("game", "ludo")},
                              {"options", opts.dump()},
                              {"seed", std::to_string(config.seed)}})
              << "\n\n";
    // xgettext:no-c-format
    std::cout << client::tr("seat  policy   wins        win share  95 % interval") << "\n";
    for (const auto& s : r.seats) {
        char line[160];
        std::snprintf(line, sizeof line, "%4d  %-7s %9.1f    %s    %s .. %s\n", s.seat + 1, std::string(to_string(s.policy)).c_str(),
                      s.wins, pct(s.share.mean).c_str(), pct(s.share.low).c_str(), pct(s.share.high).c_str());
        std::cout << line;
    }
    // xgettext:no-c-format
    std::cout << "\n" << client::tr("policy   seats  win share per seat  95 % interval") << "\n";
    for (const auto& p : r.policies) {
        char line[160];
        std::snprintf(line, sizeof line, "%-7s  %5d      %s         %s .. %s\n", std::string(to_string(p.policy)).c_str(),
                      p.seats, pct(p.share.mean).c_str(), pct(p.share.low).c_str(), pct(p.share.high).c_str());
        std::cout << line;
    }
    if (!team_reports(config, r).empty()) std::cout << "\n";
    for (const auto& t : team_reports(config, r))
        std::cout << client::tr("team {colours} (seats {a}, {b}): {share} ({low} .. {high})",
                                {{"colours", t.colours},
                                 {"a", std::to_string(t.seats[0] + 1)},
                                 {"b", std::to_string(t.seats[1] + 1)},
                                 {"share", pct(t.share.mean)},
                                 {"low", pct(t.share.low)},
                                 {"high", pct(t.share.high)}})
                  << "\n";
    char mean[32], median[32], speed[32], time[32];
    std::snprintf(mean, sizeof mean, "%.2f", r.mean_length);
    std::snprintf(median, sizeof median, "%.1f", r.median_length);
    std::snprintf(speed, sizeof speed, "%.0f", seconds > 0 ? r.games / seconds : 0.0);
    std::snprintf(time, sizeof time, "%.2f", seconds);
    std::cout << "\n"
              << (spook ? client::tr("rounds per game: mean {mean}, median {median}", {{"mean", mean}, {"median", median}})
                        : client::tr("turns per game: mean {mean}, median {median}", {{"mean", mean}, {"median", median}}))
              << "\n";
    std::cout << client::tr("speed: {speed} games/s ({seconds} s)", {{"speed", speed}, {"seconds", time}}) << "\n";
    std::cout << client::tr("(a joint win counts 1/k for k joint winners)") << "\n";
}

void print_json(const SimConfig& config, const SimReport& r, double seconds) {
    nlohmann::json j;
    j["options"] = config.options;
    j["seed"] = config.seed;
    j["games"] = r.games;
    for (const auto& s : r.seats)
        j["seats"].push_back({{"seat", s.seat + 1},  // seats as people number them, 1 to N
                              {"policy", to_string(s.policy)},
                              {"wins", s.wins},
                              {"share", s.share.mean},
                              {"ci95", {s.share.low, s.share.high}}});
    for (const auto& p : r.policies)
        j["policies"].push_back({{"policy", to_string(p.policy)},
                                 {"seats", p.seats},
                                 {"wins", p.wins},
                                 {"share", p.share.mean},
                                 {"ci95", {p.share.low, p.share.high}}});
    for (const auto& t : team_reports(config, r))
        j["teams"].push_back({{"seats", {t.seats[0] + 1, t.seats[1] + 1}},
                              {"colours", {ludo::to_string(ludo::colour_of_seat(4, t.seats[0])),
                                           ludo::to_string(ludo::colour_of_seat(4, t.seats[1]))}},
                              {"wins", t.wins},
                              {"share", t.share.mean},
                              {"ci95", {t.share.low, t.share.high}}});
    j["mean_length"] = r.mean_length;
    j["median_length"] = r.median_length;
    j["length_unit"] = config.options.game == GameKind::spook ? "rounds" : "turns";
    j["seconds"] = seconds;
    std::cout << j.dump(2) << "\n";
}

}  // namespace

void add_sim_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<SimArgs>();
    auto* sim = app.add_subcommand("sim", "Play many games offline with bots and report win rates per seat and policy");
    sim->footer(
        "Examples:\n"
        "  spookludo sim --players 2 --policy best --policy random --games 20000\n"
        "  spookludo sim --game ludo --arm 6 --players 4 --policy best --policy random --games 2000\n"
        "  spookludo sim --home-rules --teams --policy best,random,best,random --games 2000\n"
        "  spookludo sim --options '{\"game\":\"spook\",\"players\":4,\"pieces\":3}' --policy greedy\n"
        "The last policy fills the remaining seats. The same seed gives the same results.\n"
        "A Ludo flag (--arm, --home-rules, --teams, ...) plays Ludo without --game. Only the flags given go into\n"
        "the options: --home-rules --teams adds teams to the preset; --home-rules --arm 8 is refused (exit 2).\n"
        "Under --teams the report adds a line per team (partners opposite: seats 1+3 and 2+4).\n"
        "Exit status: 0 done; 2 a usage error (a missing argument, an unknown option, a bad value) or options\n"
        "the game refuses, or a board file that cannot be read (the message says which).");
    sim->add_option("--game", args->game, "spook or ludo")->check(CLI::IsMember({"spook", "ludo"}))->capture_default_str();
    auto* players = sim->add_option("--players", args->players, "Players (spook 1-8, ludo 2-4; bots all; 4 with --teams)")
                        ->capture_default_str();
    auto* game_flag = sim->get_option("--game");
    sim->add_option("--pieces", args->pieces, "Spook: pieces per player, 1, 2 or 3")->capture_default_str();
    sim->add_flag("--play-on", args->play_on, "Play on after the first finisher to rank everyone");
    sim->add_flag("--unbalanced", args->unbalanced, "Spook: random boards instead of the balanced pool");
    sim->add_option("--boards", args->boards_file, "Spook: a board file (JSON) with one board per player");
    add_ludo_flags(*sim, args->ludo);
    sim->add_option("--options", args->options_json,
                    "All game options as one JSON object (the create-room form); replaces the flags above");
    sim->add_option("--policy,--policies", args->policies, "Policy per seat in seat order: random, greedy or best")
        ->delimiter(',')
        ->capture_default_str();
    sim->add_option("-n,--games", args->games, "Games to play")->capture_default_str()->check(spookludo::positive_number());
    sim->add_option("--seed", args->seed, "Seed for dice, boards and the random policy")->capture_default_str();
    sim->add_flag("--json", args->json, "Print the report as JSON");
    sim->add_option("--records", args->records_dir,
                    "Write each game's record (JSON) into this folder; the games then use the fair-dice stream "
                    "with server seeds derived from --seed (records for testing `spookludo verify`)");
    sim->add_flag("--no-progress", args->no_progress, "No progress bar (it shows only on a terminal anyway)");

    sim->callback([args, players, game_flag, &exit_code] {
        try {
            args->players_given = players->count() > 0;
            // A Ludo rule's flag says the game when --game does not.
            const auto& l = args->ludo;
            if (game_flag->count() == 0 && (l.arm != 0 || !l.entry.empty() || l.three_sixes || l.safe_squares ||
                                       l.bonus_throws || l.capture_to_home || l.teams || l.home_rules))
                args->game = "ludo";
            SimConfig config;
            config.options = options_from(*args);
            config.seats = seat_policies(args->policies, config.options.players);
            config.games = args->games;
            config.seed = args->seed;
            if (!args->boards_file.empty()) {
                if (config.options.game != GameKind::spook) throw std::invalid_argument(client::tr("--boards is for spook games"));
                std::ifstream in(args->boards_file);
                if (!in) throw std::invalid_argument(client::tr("cannot read the board file {file}", {{"file", args->boards_file}}));
                nlohmann::json file;
                try {
                    file = nlohmann::json::parse(in);
                } catch (const nlohmann::json::parse_error& e) {
                    throw std::invalid_argument(
                        client::tr("{file} is not valid JSON: {detail}", {{"file", args->boards_file}, {"detail", e.what()}}));
                }
                for (const auto& b : spook::parse_board_file(file, config.options.players))
                    config.boards.push_back(b.board.notation());
            }
            if (!args->records_dir.empty()) {
                std::filesystem::create_directories(args->records_dir);
                const std::string dir = args->records_dir;
                config.on_record = [dir](int game, const GameRecord& record) {
                    char name[64];
                    std::snprintf(name, sizeof name, "game-%06d.json", game + 1);
                    std::ofstream out(std::filesystem::path(dir) / name);
                    out << record_text(record);
                    if (!out) throw std::runtime_error(client::tr("cannot write records into {folder}", {{"folder", dir}}));
                };
            }
            ProgressBar bar(config.games, !args->no_progress && isatty(STDERR_FILENO));
            const auto t0 = std::chrono::steady_clock::now();
            const SimReport report = simulate(config, [&](int done) { bar.update(done); });
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (args->json)
                print_json(config, report, seconds);
            else
                print_text(config, report, seconds);
            exit_code = 0;
        } catch (const std::exception& e) {
            std::cerr << "spookludo sim: " << e.what() << "\n";
            exit_code = 2;
        }
    });
}

}  // namespace spookludo::cli
