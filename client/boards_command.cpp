#include "boards_command.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "board_print.h"
#include "boards_live.h"
#include "game_words.h"
#include "i18n.h"
#include "room_flags.h"
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
    std::string server;        // --server URL --room CODE: a live game's boards
    std::string room;
    std::string ca_file;
    int wait_s = 600;
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

// --print: the PDF of the pages, each titled with its player's name: --names (in order) when
// given, else the page's own (a board's name, or a live game's seat's name).
void write_print(const BoardsArgs& args, std::vector<BoardPage> pages) {
    const auto names = args.names.empty() ? std::vector<std::string>{} : split_names(args.names);
    if (!names.empty() && names.size() != pages.size())
        throw std::invalid_argument(client::trn("--names gives {n} name for {boards} boards (give one a board, in order)",
                                                "--names gives {n} names for {boards} boards (give one a board, in order)",
                                                static_cast<long>(names.size()), {{"boards", std::to_string(pages.size())}}));
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (pages[i].subtitle.empty()) pages[i].subtitle = pages[i].player;
        pages[i].player = names[i];
    }
    const bool letter = args.paper == "letter";
    std::ofstream out(args.print, std::ios::binary);
    if (!out) throw std::invalid_argument(client::tr("cannot write {file}", {{"file", args.print}}));
    out << boards_pdf(pages, letter ? pdf::kLetter : pdf::kA4);
    out.close();
    if (!out) throw std::invalid_argument(client::tr("cannot write {file}", {{"file", args.print}}));
    std::cout << client::trn("wrote {file}: {n} board, one a page ({paper})", "wrote {file}: {n} boards, one a page ({paper})",
                             static_cast<long>(pages.size()), {{"file", args.print}, {"paper", letter ? "US Letter" : "A4"}})
              << "\n";
}

// A printable picture of a board: one line per region, each square as number and letter.
void print_board(std::ostream& os, const spook::NamedBoard& nb) {
    using namespace spook;
    os << nb.name << "   " << nb.board.notation() << "\n";
    for (int r = 0; r < 4; ++r) {
        const auto region = static_cast<Region>(r);
        // Padded to the longest region's name, 19 columns at least (UTF-8 sequences counted once).
        auto columns = [](const std::string& text) {
            int n = 0;
            for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
            return n;
        };
        int room = 19;
        for (int other = 0; other < 4; ++other) room = std::max(room, columns(client::region_name(static_cast<Region>(other))) + 1);
        std::string name = client::region_name(region);
        for (int width = columns(name); width < room; ++width) name += ' ';
        os << "  " << name;
        for (Square s = entrance_of(region); s < entrance_of(region) + 10 && s < kChurch; ++s) {
            char cell[8];
            std::snprintf(cell, sizeof cell, " %2d%c", s, is_entrance(s) ? '.' : letter_of(nb.board.at(s)));
            os << cell;
        }
        os << "\n";
    }
    os << "  " << client::tr("church on 40") << "\n";
}

std::vector<BoardPage> pages_of(const std::vector<spook::NamedBoard>& boards) {
    std::vector<BoardPage> pages;
    for (const auto& b : boards) pages.push_back({b.name, "", b.board});
    return pages;
}

void print_report(const std::vector<spook::NamedBoard>& boards, int pieces) {
    std::vector<spook::Board> plain;
    for (const auto& b : boards) plain.push_back(b.board);
    const auto report = spook::report_boards(plain, pieces);
    std::printf("%-20s %4s %4s %4s %4s %4s  %s\n", client::tr("board").c_str(), "H", "C", "S", "W", "X",
                client::tr("expected finish (rounds)").c_str());
    for (std::size_t i = 0; i < boards.size(); ++i) {
        const auto& e = report.boards[i];
        std::printf("%-20s %4d %4d %4d %4d %4d  %.2f\n", boards[i].name.c_str(), e.counts[0], e.counts[1], e.counts[2],
                    e.counts[3], e.counts[4], e.expected_finish);
    }
    char spread[32];
    std::snprintf(spread, sizeof spread, "%.2f", 100 * report.spread);
    const std::string verdict = report.balanced() ? client::tr("balanced") : client::tr("NOT balanced");
    std::cout << client::trn("spread of expected finish with {n} piece: {spread} % ({verdict}; the rules balance to 2 %)",
                             "spread of expected finish with {n} pieces: {spread} % ({verdict}; the rules balance to 2 %)", pieces,
                             {{"spread", spread}, {"verdict", verdict}})
              << "\n";
    if (!report.seven_of_each) std::cout << client::tr("not every board has 7 of each character (allowed for loaded boards)") << "\n";
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
        "  spookludo boards --server ws://HOST:PORT --room CODE --print boards.pdf   # a live game's own\n"
        "--print writes a PDF, one board a page (A4 or US Letter): the player's name, the four regions, the\n"
        "square numbers, every square's character as a black-and-white picture and its word, and the legend\n"
        "(roll, character, action). A PDF prints the same from any computer at the exact page size.\n"
        "--server and --room watch a room (as a spectator) until its game has started, then take the\n"
        "boards the game uses, each with its seat's name: print them before the first roll.\n"
        "Exit status: 0 done (made, or the file checked valid; the PDF written); 2 a usage error (a missing\n"
        "argument, an unknown option, a bad value, --names not one a board), a board file that cannot be read\n"
        "or is not valid, a PDF that cannot be written, or --room's game not reached (cannot connect, no such\n"
        "room, a Classic Ludo game, no start within --wait): the message says why.");
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
    cmd->add_option("--server", args->server, "With --room: the server's address (ws://HOST:PORT or wss://...)");
    cmd->add_option("--room", args->room,
                    "With --server: take the boards of this room's game once it has started (its seats' names on the pages)");
    add_ca_file_flag(*cmd, args->ca_file);
    cmd->add_option("--wait", args->wait_s, "With --room: how long to wait for the game to start, in seconds")
        ->check(CLI::Range(1, 86400))
        ->capture_default_str();
    cmd->add_option("--names", args->names,
                    "The players' names on the printed pages, in the boards' order, comma-separated (\"Ann,Ben,Cid\"); "
                    "by default each page carries its board's name");

    cmd->callback([args, &exit_code] {
        try {
            if (!args->room.empty() || !args->server.empty()) {
                if (args->room.empty() || args->server.empty())
                    throw std::invalid_argument(
                        client::tr("--server and --room go together (the server's address and the room's code)"));
                const auto live = live_boards(args->server, args->ca_file, args->room, std::chrono::seconds(args->wait_s),
                                              [](const std::string& line) { std::cout << line << std::endl; });
                std::cout << client::tr("room {code}: the game has started; its boards:", {{"code", live.room}}) << "\n";
                for (const auto& page : live.pages) print_board(std::cout, {page.player, page.board});
                if (!args->print.empty()) write_print(*args, live.pages);
                exit_code = 0;
                return;
            }
            if (!args->check.empty()) {
                std::ifstream in(args->check);
                if (!in) throw std::invalid_argument(client::tr("cannot read {file}", {{"file", args->check}}));
                nlohmann::json file;
                try {
                    file = nlohmann::json::parse(in);
                } catch (const nlohmann::json::parse_error& e) {
                    throw std::invalid_argument(
                        client::tr("{file} is not valid JSON: {detail}", {{"file", args->check}, {"detail", e.what()}}));
                }
                const auto boards = spook::parse_board_file(file);
                std::cout << client::trn("{file}: {n} valid board", "{file}: {n} valid boards, all different", static_cast<long>(boards.size()),
                                         {{"file", args->check}})
                          << std::endl;
                print_report(boards, args->pieces);
                if (!args->print.empty()) write_print(*args, pages_of(boards));
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
                write_print(*args, pages_of(named));
                if (!args->out.empty()) std::cout << client::tr("wrote {file}", {{"file", args->out}}) << "\n";
            } else if (args->out.empty()) {
                std::cout << text;
            } else {
                std::ofstream(args->out) << text;
                for (const auto& nb : named) print_board(std::cout, nb);
                print_report(named, args->pieces);
                std::cout << client::tr("wrote {file}", {{"file", args->out}}) << "\n";
            }
            exit_code = 0;
        } catch (const std::exception& e) {
            std::cerr << "spookludo boards: " << e.what() << "\n";
            exit_code = 2;
        }
    });
}

}  // namespace spookludo::cli
