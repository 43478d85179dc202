// `spookludo history URL` (issue #18): a server's finished games in the terminal, newest first,
// with each one's verify command, which verifies; filters; errors in words. The real server and
// client binaries over loopback.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "process_util.h"

using namespace spookludo::testing;
using namespace std::chrono_literals;

namespace {

const std::string kServer = SPOOKLUDO_SERVER_BINARY;
const std::string kClient = SPOOKLUDO_CLIENT_BINARY;

Finished run(const TempDir& dir, const std::string& label, std::vector<std::string> args) {
    args.insert(args.begin(), kClient);
    return run_to_end(std::move(args), dir, label, 30s);
}

// A two-player Spook game of bots named NAME-1 and NAME-2; its game id.
std::string play_a_game(const ServerProcess& server, const std::string& name) {
    const std::string ws = "ws://127.0.0.1:" + std::to_string(server.port());
    const Finished bot = run(server.dir(), "bot-" + name, {"bot", ws, "--create", "spook", "--players", "2", "--pieces", "1",
                                                           "--count", "2", "--policy", "best", "--start", "--quiet",
                                                           "--name", name});
    INFO(bot.described);
    REQUIRE(bot.status == 0);
    const std::string id = line_word(bot.out, "game_over ");
    REQUIRE_FALSE(id.empty());
    return id;
}

}  // namespace

TEST_CASE("history: spookludo history lists the server's games newest first with their players' places, and its verify command verifies [cli][history]") {
    ServerProcess server(kServer, "spookludo-history");
    server.start();
    const std::string http = "http://127.0.0.1:" + std::to_string(server.port());
    const std::string first = play_a_game(server, "Ann");
    const std::string second = play_a_game(server, "Ben");

    const Finished list = run(server.dir(), "history", {"history", http});
    INFO(list.described);
    REQUIRE(list.status == 0);
    CHECK(list.out.find("Games on " + http + ", newest first (page 1 of 1, 2 games):") != std::string::npos);
    const auto at_first = list.out.find(first), at_second = list.out.find(second);
    REQUIRE(at_first != std::string::npos);
    REQUIRE(at_second != std::string::npos);
    CHECK(at_second < at_first);  // the newest first
    CHECK(list.out.find("Spook & Werewolf Ludo, finished after ") != std::string::npos);
    CHECK(list.out.find(" (won)") != std::string::npos);

    // The verify command it prints, run as printed.
    const std::string verify_line = "check it: spookludo verify " + http + "/games/" + first;
    REQUIRE(list.out.find(verify_line) != std::string::npos);
    const Finished verified = run(server.dir(), "verify", {"verify", http + "/games/" + first, "--quiet"});
    INFO(verified.described);
    CHECK(verified.status == 0);
    CHECK(verified.out.find("VERIFIED") != std::string::npos);

    // Filters, and the ws:// address players know works too.
    const Finished bens = run(server.dir(), "history-ben", {"history", "ws://127.0.0.1:" + std::to_string(server.port()),
                                                            "--player", "ben-1"});
    CHECK(bens.status == 0);
    CHECK(bens.out.find(second) != std::string::npos);
    CHECK(bens.out.find(first) == std::string::npos);
    const Finished none = run(server.dir(), "history-ludo", {"history", http, "--game", "ludo"});
    CHECK(none.status == 0);
    CHECK(none.out == "No finished game on " + http + " matches.\n");
    const Finished paged = run(server.dir(), "history-paged", {"history", http, "--per-page", "1"});
    CHECK(paged.out.find("Older games: add --page 2") != std::string::npos);
}

TEST_CASE("history: a filter the server refuses and a server that is not there: exit 2 and why [cli][history][errors]") {
    ServerProcess server(kServer, "spookludo-history-errors");
    server.start();
    const std::string http = "http://127.0.0.1:" + std::to_string(server.port());
    const Finished bad_date = run(server.dir(), "bad-date", {"history", http, "--date", "yesterday"});
    CHECK(bad_date.status == 2);
    CHECK(bad_date.err.find("the server answered HTTP 400 (date must be a day such as 2026-12-02 (UTC))") != std::string::npos);
    const Finished empty = run(server.dir(), "empty", {"history", http});
    CHECK(empty.status == 0);
    CHECK(empty.out == "No finished game on " + http + " yet.\n");
    const Finished gone = run(server.dir(), "gone", {"history", "http://127.0.0.1:1"});
    CHECK(gone.status == 2);
    CHECK(gone.err.find("spookludo history: cannot fetch http://127.0.0.1:1/games") != std::string::npos);
}
