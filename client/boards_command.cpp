#include "boards_command.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "spookludo/spook/board.h"
#include "spookludo/spook/setup.h"

namespace spookludo::cli {

namespace {

struct BoardsArgs {
    int players = 4;
    int pieces = 2;
    bool unbalanced = false;
    std::uint64_t seed = 0;
    bool seed_given = false;
    std::string out;
    std::string check;
};

// A printable picture of a board: one line per region, each square as number and letter.
void print_board(std::ostream& os, const spook::NamedBoard& nb) {
    using namespace spook;
    os << nb.name << "   " << nb.board.notation() << "\n";
    for (int r = 0; r < 4; ++r) {
        const auto region = static_cast<Region>(r);
        char head[32];
        std::snprintf(head, sizeof head, "  %-19s", std::string(name_of(region)).c_str());
        os << head;
        for (Square s = entrance_of(region); s < entrance_of(region) + 10 && s < kChurch; ++s) {
            char cell[8];
            std::snprintf(cell, sizeof cell, " %2d%c", s, is_entrance(s) ? '.' : letter_of(nb.board.at(s)));
            os << cell;
        }
        os << "\n";
    }
    os << "  church on 40\n";
}

void print_report(const std::vector<spook::NamedBoard>& boards, int pieces) {
    std::vector<spook::Board> plain;
    for (const auto& b : boards) plain.push_back(b.board);
    const auto report = spook::report_boards(plain, pieces);
    std::printf("%-20s %4s %4s %4s %4s %4s  %s\n", "board", "H", "C", "S", "W", "X", "expected finish (rounds)");
    for (std::size_t i = 0; i < boards.size(); ++i) {
        const auto& e = report.boards[i];
        std::printf("%-20s %4d %4d %4d %4d %4d  %.2f\n", boards[i].name.c_str(), e.counts[0], e.counts[1], e.counts[2],
                    e.counts[3], e.counts[4], e.expected_finish);
    }
    std::printf("spread of expected finish with %d piece%s: %.2f %% (%s; the rules balance to 2 %%)\n", pieces,
                pieces == 1 ? "" : "s", 100 * report.spread, report.balanced() ? "balanced" : "NOT balanced");
    if (!report.seven_of_each) std::printf("not every board has 7 of each character (allowed for loaded boards)\n");
}

}  // namespace

void add_boards_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<BoardsArgs>();
    auto* cmd = app.add_subcommand("boards", "Make a set of Spook boards (to print or load), or check a board file");
    cmd->footer(
        "Board notation: 40 letters, one per square: H Wizard's Hat, C Black Cat, S Spook, W Werewolf,\n"
        "X Witch, '.' for the entrances 1, 11, 21, 31 and '+' for the church on 40.\n"
        "Examples:\n"
        "  spookludo boards --players 6 --out party.json     # a balanced set, as a board file\n"
        "  spookludo boards --check party.json --pieces 3    # validate and report a host's file\n"
        "Exit status: 0 done (made, or the file checked valid); 2 a usage error (a missing argument, an\n"
        "unknown option, a bad value), or a board file that cannot be read or is not valid (the message says why).");
    cmd->add_option("--players", args->players, "Boards to make, one per player (1-8)")
        ->check(CLI::Range(1, 8))
        ->capture_default_str();
    cmd->add_option("--pieces", args->pieces, "Pieces per player (1, 2 or 3): what the balance is for")
        ->check(CLI::Range(1, 3))
        ->capture_default_str();
    cmd->add_flag("--unbalanced", args->unbalanced, "Random boards (7 of each character) instead of balanced ones");
    cmd->add_option("--seed", args->seed, "Seed for choosing the boards (random when not given)")
        ->each([args](const std::string&) { args->seed_given = true; });
    cmd->add_option("--out", args->out, "Write the board file here instead of standard output");
    cmd->add_option("--check", args->check, "Check this board file instead of making one");

    cmd->callback([args, &exit_code] {
        try {
            if (!args->check.empty()) {
                std::ifstream in(args->check);
                if (!in) throw std::invalid_argument("cannot read " + args->check);
                nlohmann::json file;
                try {
                    file = nlohmann::json::parse(in);
                } catch (const nlohmann::json::parse_error& e) {
                    throw std::invalid_argument(args->check + " is not valid JSON: " + e.what());
                }
                const auto boards = spook::parse_board_file(file);
                std::printf("%s: %zu valid boards, all different\n", args->check.c_str(), boards.size());
                print_report(boards, args->pieces);
                exit_code = 0;
                return;
            }
            GameOptions options = GameOptions::spook_game(args->players, args->pieces);
            options.spook.balanced_boards = !args->unbalanced;
            Rng rng(args->seed_given ? args->seed : std::random_device{}());
            std::vector<spook::NamedBoard> named;
            for (const auto& b : spook::choose_board_set(options, rng))
                named.push_back({"Board " + std::string(1, static_cast<char>('A' + named.size())), b});
            const std::string text = spook::board_file_json(named).dump(2) + "\n";
            if (args->out.empty()) {
                std::cout << text;
            } else {
                std::ofstream(args->out) << text;
                for (const auto& nb : named) print_board(std::cout, nb);
                print_report(named, args->pieces);
                std::cout << "wrote " << args->out << "\n";
            }
            exit_code = 0;
        } catch (const std::exception& e) {
            std::cerr << "spookludo boards: " << e.what() << "\n";
            exit_code = 2;
        }
    });
}

}  // namespace spookludo::cli
