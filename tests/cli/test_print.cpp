// `spookludo boards --print` (issue 36, printed boards): the PDF it writes, read back by
// Debian's poppler-utils as a person's PDF reader would: pdfinfo for the pages and their size,
// pdftotext -layout for what is printed on each page (the player's name, the four regions, the
// numbers 1 to 40, every square's character word in the board's order, the legend).
#include <doctest/doctest.h>

#include <csignal>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "process_util.h"

using namespace spookludo::testing;
using namespace std::chrono_literals;

namespace {

const std::string kClient = SPOOKLUDO_CLIENT_BINARY;

Finished run(const TempDir& dir, const std::string& label, std::vector<std::string> args) {
    return run_to_end(std::move(args), dir, label, 30s);
}

// A process's output to <dir>/<label>.out and .err.
SpawnOptions to_files(const TempDir& dir, const std::string& label) {
    SpawnOptions options;
    options.stdout_file = dir / (label + ".out");
    options.stderr_file = dir / (label + ".err");
    return options;
}

std::vector<std::string> pages_of(const std::string& text) {
    std::vector<std::string> pages;
    std::string::size_type at = 0;
    for (auto ff = text.find('\f'); ff != std::string::npos; ff = text.find('\f', at)) {
        pages.push_back(text.substr(at, ff - at));
        at = ff + 1;
    }
    if (text.find_first_not_of(" \n", at) != std::string::npos) pages.push_back(text.substr(at));
    return pages;
}

// The page's squares as board notation: the character words between the first region's name
// and the legend, in reading order ("entrance" '.', "church" '+').
std::string squares_read(const std::string& page) {
    const auto begin = page.find("Haunted Orchard");
    const auto end = page.find("Legend");
    if (begin == std::string::npos || end == std::string::npos || end < begin) return "(no board on the page)";
    const std::string board = page.substr(begin, end - begin);
    static const std::regex word("Wizard's Hat|Black Cat|Spook|Werewolf|Witch|entrance|church");
    std::string out;
    for (std::sregex_iterator it(board.begin(), board.end(), word), last; it != last; ++it) {
        const std::string w = it->str();
        out += w == "Wizard's Hat" ? 'H' : w == "Black Cat" ? 'C' : w == "Spook" ? 'S' : w == "Werewolf" ? 'W'
             : w == "Witch" ? 'X' : w == "entrance" ? '.' : '+';
    }
    return out;
}

// Every number 1..40 printed as a word of its own between the first region and the legend.
bool has_numbers_1_to_40(const std::string& page) {
    const auto begin = page.find("Haunted Orchard"), end = page.find("Legend");
    if (begin == std::string::npos || end == std::string::npos) return false;
    const std::string board = page.substr(begin, end - begin);
    for (int n = 1; n <= 40; ++n)
        if (!std::regex_search(board, std::regex("(^|\\s)" + std::to_string(n) + "(\\s|$)"))) return false;
    return true;
}

// What pdfinfo and pdftotext make of the file, checked against the boards and names.
void check_printout(const TempDir& dir, const std::string& pdf, const std::vector<std::string>& names,
                    const std::vector<std::string>& notations, const std::string& size) {
    const Finished info = run(dir, "pdfinfo", {"/usr/bin/pdfinfo", pdf});
    INFO(info.described);
    REQUIRE(info.status == 0);
    CHECK(info.err.empty());  // no "Syntax Error" nor a rebuilt cross-reference table
    CHECK(info.out.find("Pages:           " + std::to_string(notations.size()) + "\n") != std::string::npos);
    CHECK(info.out.find("Page size:       " + size) != std::string::npos);

    const Finished text = run(dir, "pdftotext", {"/usr/bin/pdftotext", "-layout", pdf, "-"});
    INFO(text.described);
    REQUIRE(text.status == 0);
    CHECK(text.err.empty());
    const auto pages = pages_of(text.out);
    REQUIRE(pages.size() == notations.size());
    for (std::size_t i = 0; i < pages.size(); ++i) {
        const std::string& page = pages[i];
        INFO("page " << i + 1 << ":\n" << page);
        CHECK(page.find(names[i]) < page.find("Haunted Orchard"));  // the name heads the page
        for (const char* region : {"Haunted Orchard", "Creepy Cornfield", "Gruesome Graveyard", "Wild Wood"})
            CHECK(page.find(region) != std::string::npos);
        CHECK(has_numbers_1_to_40(page));
        CHECK(squares_read(page) == notations[i]);
        // The legend: every roll, character and action.
        const auto legend = page.substr(std::min(page.size(), page.find("Legend")));
        for (const char* line : {"1 or 2 +Wizard's Hat +moves forward 3 squares", "3 +Black Cat +moves back 6 squares",
                                 "4 +Spook +goes back to the entrance of its region",
                                 "5 +Werewolf +goes back to the entrance of its region", "6 +Witch +goes back to square 1"})
            CHECK_MESSAGE(std::regex_search(legend, std::regex(line)), line);
    }
}

std::vector<std::string> notations_of(const std::string& board_file) {
    std::vector<std::string> out;
    const auto file = nlohmann::json::parse(read_file(board_file));
    for (const auto& b : file.at("boards")) out.push_back(b.at("squares").get<std::string>());
    return out;
}

}  // namespace

TEST_CASE("print: spookludo boards --print writes an A4 PDF, one page a board, with each player's name (Latin-1 letters too), the regions, squares 1 to 40, every square's character word as on the board, and the legend [cli][print]") {
    TempDir dir("spookludo-print");
    const Finished made = run(dir, "boards", {kClient, "boards", "--players", "3", "--seed", "7", "--out", dir / "set.json",
                                              "--print", dir / "boards.pdf", "--names", "Zoë, Ben,Cid"});
    INFO(made.described);
    REQUIRE(made.status == 0);
    CHECK(made.out.find("wrote " + (dir / "boards.pdf") + ": 3 boards, one a page (A4)") != std::string::npos);
    const auto notations = notations_of(dir / "set.json");
    REQUIRE(notations.size() == 3);
    check_printout(dir, dir / "boards.pdf", {"Zoë", "Ben", "Cid"}, notations, "595 x 842 pts (A4)");
}

TEST_CASE("print: a host's board file printed on US Letter carries the boards' own names, and the same seed prints the same boards [cli][print]") {
    TempDir dir("spookludo-print-letter");
    const nlohmann::json file = {{"boards",
                                  {{{"name", "Bat"}, {"squares", ".HCSWXHCSW.XHCSWXHCS.WXHCSWXHC.SWXHCSWX+"}},
                                   {{"name", "Owl"}, {"squares", ".CHSXWCHSX.WCHSXWCHS.XWCHSXWCH.SXWCHSXW+"}}}}};
    {
        std::ofstream out(dir / "party.json");
        out << file.dump(2);
    }
    const Finished made = run(dir, "check-print", {kClient, "boards", "--check", dir / "party.json", "--print",
                                                   dir / "party.pdf", "--paper", "letter"});
    INFO(made.described);
    REQUIRE(made.status == 0);
    CHECK(made.out.find("one a page (US Letter)") != std::string::npos);
    check_printout(dir, dir / "party.pdf", {"Bat", "Owl"},
                   {".HCSWXHCSW.XHCSWXHCS.WXHCSWXHC.SWXHCSWX+", ".CHSXWCHSX.WCHSXWCHS.XWCHSXWCH.SXWCHSXW+"},
                   "612 x 792 pts (letter)");

    // The same seed makes the same file twice (a host can print again and get the same boards).
    const Finished a = run(dir, "a", {kClient, "boards", "--players", "2", "--seed", "9", "--print", dir / "a.pdf"});
    const Finished b = run(dir, "b", {kClient, "boards", "--players", "2", "--seed", "9", "--print", dir / "b.pdf"});
    REQUIRE(a.status == 0);
    REQUIRE(b.status == 0);
    CHECK(read_file(dir / "a.pdf") == read_file(dir / "b.pdf"));
}

TEST_CASE("print: names that do not match the boards, a bad paper and an unwritable file: exit 2 and why [cli][print][errors]") {
    TempDir dir("spookludo-print-errors");
    const Finished names = run(dir, "names", {kClient, "boards", "--players", "3", "--seed", "1", "--print", dir / "x.pdf",
                                              "--names", "Ann,Ben"});
    CHECK(names.status == 2);
    CHECK(names.err.find("--names gives 2 names for 3 boards") != std::string::npos);
    const Finished paper = run(dir, "paper", {kClient, "boards", "--print", dir / "x.pdf", "--paper", "a3"});
    CHECK(paper.status == 2);
    CHECK(paper.err.find("--paper") != std::string::npos);
    const Finished nowhere = run(dir, "nowhere", {kClient, "boards", "--seed", "1", "--print", dir / "no/such/dir/x.pdf"});
    CHECK(nowhere.status == 2);
    CHECK(nowhere.err.find("cannot write " + (dir / "no/such/dir/x.pdf")) != std::string::npos);
}

TEST_CASE("print: spookludo boards --server --room waits in the lobby, then prints the live game's boards with its seats' names, the same as the game's record [cli][print][live]") {
    ServerProcess server(SPOOKLUDO_SERVER_BINARY, "spookludo-print-live");
    server.start();
    const TempDir& dir = server.dir();
    const std::string ws = "ws://127.0.0.1:" + std::to_string(server.port());
    // Ann's two bots make a room of three; it starts when the third seat is taken.
    Process host({kClient, "bot", ws, "--create", "spook", "--players", "3", "--count", "2", "--start", "--fill-after", "600",
                  "--name", "Ann", "--policy", "best"},
                 to_files(dir, "host"));
    REQUIRE_MESSAGE(host.wait_for([](const std::string& out) { return out.find("\nroom ") != std::string::npos; }, patience(10s)),
                    host.describe());
    const std::string code = line_word(host.out(), "room ");
    REQUIRE(code.size() == 5);

    Process boards({kClient, "boards", "--server", ws, "--room", code, "--print", dir / "live.pdf", "--wait", "60"},
                   to_files(dir, "boards"));
    REQUIRE_MESSAGE(boards.wait_for_text("room " + code + " is in its lobby: waiting for its game to start...", patience(10s)),
                    boards.describe());
    CHECK(boards.running());

    const Finished cid = run(dir, "cid", {kClient, "bot", ws, "--room", code, "--count", "1", "--name", "Cid", "--quiet"});
    REQUIRE_MESSAGE(cid.status == 0, cid.described);
    REQUIRE(boards.wait(patience(20s)) == 0);
    INFO(boards.describe());
    CHECK(boards.out().find("room " + code + ": the game has started; its boards:") != std::string::npos);
    CHECK(boards.out().find("wrote " + (dir / "live.pdf") + ": 3 boards, one a page (A4)") != std::string::npos);

    // The game's own boards and names, from its record.
    const std::string id = line_word(cid.out, "game_over ");
    REQUIRE_FALSE(id.empty());
    const auto record = nlohmann::json::parse(read_file(server.record_file(id)));
    std::vector<std::string> names(3), notations(3);
    for (const auto& seat : record.at("seats")) {
        const auto s = seat.at("seat").get<std::size_t>();
        REQUIRE(s < 3);
        names[s] = seat.at("name").get<std::string>();
        notations[s] = record.at("boards").at(record.at("assignment").at(s).get<std::size_t>()).get<std::string>();
    }
    CHECK(names == std::vector<std::string>{"Ann-1", "Ann-2", "Cid-1"});
    check_printout(dir, dir / "live.pdf", names, notations, "595 x 842 pts (A4)");
    host.wait(patience(20s));
}

TEST_CASE("print: --room of a Classic Ludo game, of a room that is not there, or without --server: exit 2 and why [cli][print][live][errors]") {
    ServerProcess server(SPOOKLUDO_SERVER_BINARY, "spookludo-print-live-errors");
    server.start();
    const TempDir& dir = server.dir();
    const std::string ws = "ws://127.0.0.1:" + std::to_string(server.port());
    Process host({kClient, "bot", ws, "--create", "ludo", "--players", "2", "--count", "2", "--start", "--decision-ms", "60000",
                  "--think", "30000"},
                 to_files(dir, "host"));
    REQUIRE_MESSAGE(host.wait_for([](const std::string& out) { return out.find("\nroom ") != std::string::npos; }, patience(10s)),
                    host.describe());
    const std::string code = line_word(host.out(), "room ");
    const Finished ludo = run(dir, "ludo", {kClient, "boards", "--server", ws, "--room", code, "--print", dir / "x.pdf"});
    CHECK_MESSAGE(ludo.status == 2, ludo.described);
    CHECK(ludo.err.find("room " + code + " plays Classic Ludo: only Spook & Werewolf Ludo has boards to print") != std::string::npos);

    const Finished none = run(dir, "none", {kClient, "boards", "--server", ws, "--room", "ZZZZZ", "--print", dir / "x.pdf"});
    CHECK_MESSAGE(none.status == 2, none.described);
    CHECK(none.err.find("spookludo boards: ") != std::string::npos);
    CHECK(none.err.find("ZZZZZ") != std::string::npos);

    const Finished alone = run(dir, "alone", {kClient, "boards", "--room", code});
    CHECK(alone.status == 2);
    CHECK(alone.err.find("--server and --room go together") != std::string::npos);
    host.signal(SIGTERM);
    host.wait(patience(10s));
}
