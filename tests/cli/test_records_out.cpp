// Getting at a server and its records as its operator does (issue #34): the ready line names
// addresses that reach the server, and a finished game's record comes out of a stopped server's
// database with `spookludo-server --export-record`, for `spookludo verify`. The real binaries.
#include <doctest/doctest.h>

#include <signal.h>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "process_util.h"

using namespace spookludo::testing;
using namespace std::chrono_literals;

namespace {

const std::string kServer = SPOOKLUDO_SERVER_BINARY;
const std::string kClient = SPOOKLUDO_CLIENT_BINARY;

// The server on a free port with its data directory in `dir`; `bind` its address.
std::unique_ptr<Process> server_in(const TempDir& dir, const std::string& bind = "127.0.0.1") {
    SpawnOptions o;
    o.stdout_file = dir / "server.log";
    o.stderr_file = o.stdout_file;
    auto p = std::make_unique<Process>(std::vector<std::string>{kServer, "--port", "0", "--bind", bind, "--data-dir",
                                                                dir / "data", "--pace-ms", "0"},
                                       o);
    REQUIRE_MESSAGE(p->wait_for_text("SpookLudo server ready.", patience(10s)), p->describe());
    return p;
}

int port_of(Process& server) {
    std::smatch m;
    const std::string log = server.out();
    REQUIRE(std::regex_search(log, m, std::regex("listening on [0-9.]+:([0-9]+)")));
    return std::stoi(m[1]);
}

}  // namespace

TEST_CASE("export record: spookludo-server --export-record takes a finished game's record out of a stopped server's database, and it verifies [cli][records]") {
    TempDir dir("spookludo-export-record");
    auto server = server_in(dir);
    const std::string ws = "ws://127.0.0.1:" + std::to_string(port_of(*server));
    const Finished bot = run_to_end({kClient, "bot", ws, "--create", "spook", "--players", "1", "--pieces", "1", "--count",
                                     "1", "--policy", "best", "--start", "--quiet"},
                                    dir, "bot", 30s);
    INFO(bot.described);
    REQUIRE(bot.status == 0);
    const std::string id = line_word(bot.out, "game_over ");
    REQUIRE_FALSE(id.empty());
    server->signal(SIGTERM);
    REQUIRE(server->wait(patience(10s)) == 0);

    // The data directory holds the database alone: no records folder to point at.
    CHECK_FALSE(std::filesystem::exists(std::filesystem::path(dir / "data") / "records"));
    const Finished out = run_to_end({kServer, "--export-record", id, "--data-dir", dir / "data"}, dir, "export", 20s);
    INFO(out.described);
    REQUIRE(out.status == 0);
    CHECK(out.out.find("\"spookludo-game-record\"") != std::string::npos);
    std::ofstream(dir / "game.json") << out.out;
    const Finished verified = run_to_end({kClient, "verify", dir / "game.json"}, dir, "verify", 30s);
    INFO(verified.described);
    CHECK(verified.status == 0);
    CHECK(verified.out.find("VERIFIED: " + (dir / "game.json")) != std::string::npos);

    // A game the database does not hold, and a directory without a database: exit 1, saying so.
    const Finished none = run_to_end({kServer, "--export-record", "NOSUCH-1-0", "--data-dir", dir / "data"}, dir, "none", 20s);
    CHECK(none.status == 1);
    CHECK(none.err.find("no game NOSUCH-1-0 in ") != std::string::npos);
    const Finished empty = run_to_end({kServer, "--export-record", id, "--data-dir", dir / "elsewhere"}, dir, "empty", 20s);
    CHECK(empty.status == 1);
    CHECK(empty.err.find("does not exist") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(std::filesystem::path(dir / "elsewhere")));

    // The 404 of verify points at what exists: the history, a file one has; not <data-dir>/records.
    auto again = server_in(dir);
    const std::string http = "http://127.0.0.1:" + std::to_string(port_of(*again));
    const Finished missing = run_to_end({kClient, "verify", http + "/records/NOSUCH-1-0"}, dir, "verify-404", 30s);
    CHECK(missing.status == 2);
    CHECK(missing.err.find("spookludo history") != std::string::npos);
    CHECK(missing.err.find("/records/<id>.json") == std::string::npos);
    // While the server runs, --export-record reads beside it.
    const Finished beside = run_to_end({kServer, "--export-record", id, "--data-dir", dir / "data"}, dir, "beside", 20s);
    CHECK(beside.status == 0);
    CHECK(beside.out == out.out);
}

TEST_CASE("server ready line: every address it tells guests to open reaches the server, and it names no placeholder [cli][server]") {
    TempDir dir("spookludo-ready-line");
    auto server = server_in(dir, "0.0.0.0");
    const std::string log = server->out();
    const auto ready = log.substr(log.find("SpookLudo server ready."));
    INFO(ready);
    CHECK(ready.find("<") == std::string::npos);
    const std::regex address("(https?://[^ /()]+)/");
    int reached = 0;
    for (auto it = std::sregex_iterator(ready.begin(), ready.end(), address); it != std::sregex_iterator(); ++it) {
        const std::string base = (*it)[1];
        if (base.find("localhost") != std::string::npos) continue;  // the health line
        const Finished h = run_to_end({kClient, "history", base}, dir, "history-" + std::to_string(reached), 20s);
        INFO(h.described);
        CHECK(h.status == 0);
        ++reached;
    }
    CHECK(reached >= 1);
}

// Ludo's house rules from the command line: `spookludo sim --records` writes the records of games
// under the preset with teams and under capture_to_home, and `spookludo verify` checks each.
TEST_CASE("house rules: spookludo sim --records of Ludo games under the house rules, each verified by spookludo verify [cli][records][house]") {
    TempDir dir("spookludo-house-sim");
    const std::vector<std::string> sets{
        R"({"game":"ludo","players":4,"preset":"home_rules","teams":true})",
        R"({"game":"ludo","players":3,"arm":8,"capture_to_home":true,"bonus_throws":true})"};
    int files = 0;
    for (std::size_t i = 0; i < sets.size(); ++i) {
        CAPTURE(sets[i]);
        const std::string records = dir / ("records-" + std::to_string(i));
        std::vector<std::string> argv{kClient, "sim",    "--options", sets[i],     "--games",
                                      "2",     "--seed", "3",         "--records", records};
        for (int s = 0; s < (i == 0 ? 4 : 3); ++s) {
            argv.push_back("--policy");
            argv.push_back(s == 0 ? "greedy" : "random");
        }
        const Finished sim = run_to_end(argv, dir, "sim-" + std::to_string(i), 60s);
        INFO(sim.described);
        REQUIRE(sim.status == 0);
        for (const auto& e : std::filesystem::directory_iterator(records)) {
            const Finished verified = run_to_end({kClient, "verify", e.path().string()}, dir, "verify", 30s);
            INFO(verified.described);
            CHECK(verified.status == 0);
            CHECK(verified.out.find("VERIFIED: " + e.path().string()) != std::string::npos);
            ++files;
        }
    }
    CHECK(files == 4);
}
