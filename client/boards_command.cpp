#include "boards_command.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "board_print.h"
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
    std::string print;         // --print FILE: the boards as a PDF, one a page
    std::string paper = "a4";  // --paper a4|letter
    std::string names;         // --names "Ann,Ben": the players' names on the pages
};

// The names given to --names, split at commas (spaces around a name trimmed).
std::vector<std::string> split_names(const std::string& text) {
    std::vector<std::string> names;
    std::string current;
    auto flush = [&] {
        const auto begin = current.find_first_not_of(' ');
        const auto end = current.find_last_not_of(' ');
        names.push_back(begin == std::string::npos ? std::string() : current.substr(begin, end - begin + 1));
        current.clear();
    };
    for (char c : text) {
        if (c == ',') flush();
        else current += c;
    }
    flush();
    return names;
}

// --print: the PDF of `boards`, each page titled with its player's name (--names) or the board's
// own name.
void write_print(const BoardsArgs& args, const std::vector<spook::NamedBoard>& boards) {
    std::vector<BoardPage> pages;
    const auto names = args.names.empty() ? std::vector<std::string>{} : split_names(args.names);
    if (!names.empty() && names.size() != boards.size())
        throw std::invalid_argument("--names gives " + std::to_string(names.size()) + " name" + (names.size() == 1 ? "" : "s") +
                                    " for " + std::to_string(boards.size()) + " boards (give one a board, in order)");
    for (std::size_t i = 0; i < boards.size(); ++i) {
        if (names.empty()) pages.push_back({boards[i].name, "", boards[i].board});
        else pages.push_back({names[i], boards[i].name, boards[i].board});
    }
    const bool letter = args.paper == "letter";
    std::ofstream out(args.print, std::ios::binary);
    if (!out) throw std::invalid_argument("cannot write " + args.print);
    out << boards_pdf(pages, letter ? pdf::kLetter : pdf::kA4);
    out.close();
    if (!out) throw std::invalid_argument("cannot write " + args.print);
    std::printf("wrote %s: %zu board%s, one a page (%s)\n", args.print.c_str(), pages.size(), pages.size() == 1 ? "" : "s",
                letter ? "US Letter" : "A4");
}

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
        "  spookludo boards --players 3 --seed 7 --print boards.pdf --names \"Ann,Ben,Cid\"  # to print\n"
        "  spookludo boards --check party.json --print boards.pdf --paper letter\n"
        "--print writes a PDF, one board a page (A4 or US Letter): the player's name, the four regions, the\n"
        "square numbers, every square's character as a black-and-white picture and its word, and the legend\n"
        "(roll, character, action). A PDF prints the same from any computer at the exact page size.\n"
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
    cmd->add_option("--print", args->print,
                    "Also write the boards (made, or the --check file's) as a PDF to print, one board a page");
    cmd->add_option("--paper", args->paper, "The PDF's paper: a4 or letter (US Letter)")
        ->check(CLI::IsMember({"a4", "letter"}))
        ->capture_default_str();
    cmd->add_option("--names", args->names,
                    "The players' names on the printed pages, in the boards' order, comma-separated (\"Ann,Ben,Cid\"); "
                    "by default each page carries its board's name");

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
                if (!args->print.empty()) write_print(*args, boards);
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
            if (!args->print.empty()) {
                if (!args->out.empty()) std::ofstream(args->out) << text;
                for (const auto& nb : named) print_board(std::cout, nb);
                write_print(*args, named);
                if (!args->out.empty()) std::cout << "wrote " << args->out << "\n";
            } else if (args->out.empty()) {
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
