// The command line of every program the build makes (issue #15, item 16): a usage error (a
// missing argument, an unknown option, a bad value) exits 2 with a message that names the
// problem and the command, and a hint to its --help; --help and --version exit 0, and every
// --help says what each exit status means. The real binaries, run as a person would.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "process_util.h"

using namespace spookludo::testing;
using namespace std::chrono_literals;

namespace {

const std::string kServer = SPOOKLUDO_SERVER_BINARY;
const std::string kClient = SPOOKLUDO_CLIENT_BINARY;

// The benchmark programs, when the build has them (colon-separated paths).
std::vector<std::string> bench_programs() {
    std::vector<std::string> out;
    std::stringstream list(SPOOKLUDO_BENCH_BINARIES);
    for (std::string path; std::getline(list, path, ':');)
        if (!path.empty()) out.push_back(path);
    return out;
}

std::string bench(const std::string& name) {
    for (const auto& path : bench_programs())
        if (path.size() >= name.size() && path.compare(path.size() - name.size(), name.size(), name) == 0) return path;
    return {};
}

using Run = Finished;

Run run(std::vector<std::string> argv) {
    TempDir dir("spookludo-usage");
    return run_to_end(std::move(argv), dir, "run", 20s);
}

// A usage error: exit 2, and stderr names the command, says `problem`, and points at --help.
void check_usage_error(std::vector<std::string> argv, const std::string& command, const std::string& problem) {
    const Run r = run(argv);
    INFO(r.described);
    CHECK(r.status == 2);
    CHECK(r.err.find(command + ": ") != std::string::npos);
    CHECK(r.err.find(problem) != std::string::npos);
    CHECK(r.err.find("Run '" + command + " --help'") != std::string::npos);
}

// --help: exit 0, the usage, and the exit statuses.
void check_help(std::vector<std::string> argv) {
    argv.push_back("--help");
    const Run r = run(argv);
    INFO(r.described);
    CHECK(r.status == 0);
    CHECK(r.out.find("Usage:") != std::string::npos);
    CHECK(r.out.find("Exit status") != std::string::npos);
    CHECK(r.out.find(" 2 ") != std::string::npos);
}

}  // namespace

TEST_CASE("usage errors: spookludo and every subcommand exit 2 naming the problem (missing argument, unknown option, bad value) [cli]") {
    // Missing arguments.
    check_usage_error({kClient}, "spookludo", "A subcommand is required");
    check_usage_error({kClient, "play"}, "spookludo play", "url is required");
    check_usage_error({kClient, "watch", "ws://127.0.0.1:7777"}, "spookludo watch", "--room is required");
    check_usage_error({kClient, "verify"}, "spookludo verify", "record is required");
    check_usage_error({kClient, "bot"}, "spookludo bot", "url is required");
    check_usage_error({kClient, "history"}, "spookludo history", "server is required");
    check_usage_error({kClient, "history", "http://127.0.0.1:7777", "--game", "chess"}, "spookludo history", "chess");
    check_usage_error({kClient, "sim", "--seed"}, "spookludo sim", "--seed");
    // Unknown options and commands.
    check_usage_error({kClient, "play", "ws://127.0.0.1:7777", "--colour", "red"}, "spookludo play", "--colour");
    check_usage_error({kClient, "sim", "--bogus"}, "spookludo sim", "--bogus");
    check_usage_error({kClient, "boards", "--bogus"}, "spookludo boards", "--bogus");
    check_usage_error({kClient, "verify", "a.json", "--bogus"}, "spookludo verify", "--bogus");
    check_usage_error({kClient, "dance"}, "spookludo", "'dance' is not a command (the commands: sim, boards, verify, history, replay, play, watch, bot)");
    // Bad values.
    check_usage_error({kClient, "sim", "--games", "abc"}, "spookludo sim", "--games: must be a number above 0 (got \"abc\")");
    check_usage_error({kClient, "sim", "--game", "chess"}, "spookludo sim", "chess");
    check_usage_error({kClient, "boards", "--players", "9"}, "spookludo boards", "--players");
    check_usage_error({kClient, "bot", "ws://127.0.0.1:7777", "--room", "ABCDE", "--count", "0"}, "spookludo bot", "--count");
    check_usage_error({kClient, "bot", "ws://127.0.0.1:7777", "--room", "ABCDE", "--token", "t", "--count", "2"},
                      "spookludo bot", "use --count 1");
    check_usage_error({kClient, "play", "ws://127.0.0.1:7777", "--create", "chess"}, "spookludo play", "chess");
    check_usage_error({kClient, "play", "ws://127.0.0.1:7777", "--players", "3"}, "spookludo play", "--create");
}

TEST_CASE("usage errors: spookludo-server exits 2 naming the problem, and --healthcheck keeps 1 for unhealthy [cli]") {
    check_usage_error({kServer, "--bogus"}, "spookludo-server", "--bogus");
    check_usage_error({kServer, "--threads", "0"}, "spookludo-server", "--threads");
    check_usage_error({kServer, "--max-rooms", "many"}, "spookludo-server", "--max-rooms: must be a number above 0 (got \"many\")");
    check_usage_error({kServer, "--max-rooms-per-address", "-1"}, "spookludo-server",
                      "--max-rooms-per-address: must be a number of 0 or more (got -1)");
    check_usage_error({kServer, "--port"}, "spookludo-server", "--port");
    check_usage_error({kServer, "--log-level", "loud"}, "spookludo-server", "loud");
    check_usage_error({kServer, "--allow-origin", "party.example"}, "spookludo-server", "not an origin: party.example");
    check_usage_error({kServer, "--allow-origin", "https://a.example,https://b.example/path"}, "spookludo-server",
                      "not an origin: https://b.example/path");
    check_usage_error({kServer, "--allow-origin", "ws://a.example"}, "spookludo-server", "not an origin: ws://a.example");
    {
        // --web-dir: a file where the server's own routes are is refused before anything starts.
        TempDir web("spookludo-usage-web");
        std::filesystem::create_directories(web.path() / "r");
        std::ofstream(web / "r/x.js") << "x";
        check_usage_error({kServer, "--web-dir", web.path().string()}, "spookludo-server",
                          "the server's own routes use this path");
        check_usage_error({kServer, "--web-dir", web / "none"}, "spookludo-server", "--web-dir");
    }
    // Not a usage error: nothing answers on the port.
    ClosedPort closed;
    const Run r = run({kServer, "--healthcheck", "--port", std::to_string(closed.port())});
    INFO(r.described);
    CHECK(r.status == 1);
    CHECK(r.err.find("unhealthy") != std::string::npos);
}

TEST_CASE("usage errors: the benchmark and load programs exit 2 naming the problem [cli][bench]") {
    if (bench_programs().empty()) {
        MESSAGE("the build has no benchmarks (SPOOKLUDO_BUILD_BENCH off)");
        return;
    }
    check_usage_error({bench("bench_spook"), "--policy", "clever"}, "bench_spook", "clever");
    check_usage_error({bench("bench_spook"), "--bogus"}, "bench_spook", "--bogus");
    check_usage_error({bench("bench_ludo"), "--games", "x"}, "bench_ludo", "--games: must be a number above 0 (got \"x\")");
    check_usage_error({bench("bench_ludo"), "--arm", "7"}, "bench_ludo", "--arm");
    check_usage_error({bench("bench_ludo"), "--games"}, "bench_ludo", "--games");
    check_usage_error({bench("bench_ludo"), "--weights", "nonsense=1", "--no-throughput", "--no-winrates"}, "bench_ludo",
                      "unknown weight nonsense");
    check_usage_error({bench("make_board_pool"), "--count", "-1"}, "make_board_pool", "--count");
    check_usage_error({bench("make_board_pool"), "--bogus"}, "make_board_pool", "--bogus");
    check_usage_error({bench("ludo_td")}, "ludo_td", "A subcommand is required");
    check_usage_error({bench("ludo_td"), "train", "--games", "lots"}, "ludo_td train", "--games");
    check_usage_error({bench("ludo_td"), "eval", "--vs", "nobody"}, "ludo_td eval", "nobody");
    check_usage_error({bench("spookludo-load")}, "spookludo-load", "give --url");
    check_usage_error({bench("spookludo-load"), "--rooms", "0"}, "spookludo-load", "--rooms");
    check_usage_error({bench("tcp_floor"), "--size", "big"}, "tcp_floor", "--size");
    check_usage_error({bench("tcp_floor"), "--bogus"}, "tcp_floor", "--bogus");
}

TEST_CASE("spookludo-load: the host starts once every seat is taken: a short run plays four-player games, without one error [cli][bench]") {
    // A room's snapshot lists its free seats too: a host that counted the list started each game
    // alone, and the three others joined it as spectators whose client seeds were refused.
    const std::string load = bench("spookludo-load");
    if (load.empty()) return;  // a build without the benchmarks
    TempDir dir("spookludo-load-run");
    const Run r = run_to_end({load, "--spawn", kServer, "--mode", "full", "--rooms", "3", "--duration", "1.5",
                              "--warmup", "0.5", "--json"},
                             dir, "load", 90s);
    INFO(r.described);
    REQUIRE(r.status == 0);
    const auto report = nlohmann::json::parse(r.out);
    CHECK(report.at("errors").empty());
    CHECK(report.at("unexpected_closes").empty());
    CHECK(report.at("decisions").get<double>() > 0);
    CHECK(report.at("games_finished").get<double>() > 0);
}

TEST_CASE("usage: --help exits 0 and documents the exit statuses in every program and subcommand, and --version exits 0 [cli]") {
    check_help({kClient});
    for (const char* sub : {"sim", "boards", "verify", "history", "replay", "play", "watch", "bot"}) {
        CAPTURE(sub);
        check_help({kClient, sub});
    }
    check_help({kServer});
    for (const auto& program : bench_programs()) {
        CAPTURE(program);
        check_help({program});
    }
    if (!bench("ludo_td").empty()) check_help({bench("ludo_td"), "train"});
    for (const auto& [program, name] : {std::pair{kClient, std::string("spookludo ")}, {kServer, "spookludo-server "}}) {
        const Run r = run({program, "--version"});
        INFO(r.described);
        CHECK(r.status == 0);
        CHECK(r.out.rfind(name, 0) == 0);
    }
}

TEST_CASE("usage: --version exits 0 naming the program in every benchmark program, and after every spookludo subcommand [cli][version]") {
    for (const auto& program : bench_programs()) {
        CAPTURE(program);
        const Run r = run({program, "--version"});
        INFO(r.described);
        CHECK(r.status == 0);
        const std::string name = program.substr(program.rfind('/') + 1);
        CHECK(r.out.rfind(name + " ", 0) == 0);
    }
    for (const char* sub : {"sim", "boards", "verify", "history", "replay", "play", "watch", "bot"}) {
        CAPTURE(sub);
        const Run r = run({kClient, sub, "--version"});
        INFO(r.described);
        CHECK(r.status == 0);
        CHECK(r.out.rfind("spookludo ", 0) == 0);
        CHECK(r.err.find("is required") == std::string::npos);
    }
}

TEST_CASE("sim: the report numbers the seats 1 to N, as every other screen does [cli][sim]") {
    const Run text = run({kClient, "sim", "--players", "3", "--policy", "best,random", "--games", "30", "--no-progress"});
    INFO(text.described);
    REQUIRE(text.status == 0);
    CHECK(text.out.find("\n   1  best ") != std::string::npos);
    CHECK(text.out.find("\n   2  random ") != std::string::npos);
    CHECK(text.out.find("\n   3  random ") != std::string::npos);
    CHECK(text.out.find("\n   0  ") == std::string::npos);
    const Run json = run({kClient, "sim", "--players", "2", "--games", "10", "--json", "--no-progress"});
    INFO(json.described);
    REQUIRE(json.status == 0);
    CHECK(json.out.find("\"seat\": 1") != std::string::npos);
    CHECK(json.out.find("\"seat\": 2") != std::string::npos);
    CHECK(json.out.find("\"seat\": 0") == std::string::npos);
}

TEST_CASE("sim, play and bot: Ludo's house rules as flags, only the flags given go in: the preset takes teams and refuses another arm (exit 2) [cli][sim][house]") {
    // The preset with teams: a line per team besides the seats'.
    const Run teams = run({kClient, "sim", "--home-rules", "--teams", "--policy", "greedy,random", "--games", "20", "--no-progress"});
    INFO(teams.described);
    REQUIRE(teams.status == 0);
    CHECK(teams.out.find("\"teams\":true") != std::string::npos);
    CHECK(teams.out.find("\"safe_squares\":true") != std::string::npos);
    CHECK(teams.out.find("\"arm\":6") != std::string::npos);
    CHECK(teams.out.find("team green+red (seats 1, 3): ") != std::string::npos);
    CHECK(teams.out.find("team yellow+blue (seats 2, 4): ") != std::string::npos);
    // One flag at a time, without --game.
    const Run one = run({kClient, "sim", "--capture-to-home", "--bonus-throws", "--players", "2", "--games", "5", "--no-progress", "--json"});
    INFO(one.described);
    REQUIRE(one.status == 0);
    CHECK(one.out.find("\"capture_to_home\": true") != std::string::npos);
    CHECK(one.out.find("\"bonus_throws\": true") != std::string::npos);
    CHECK(one.out.find("\"teams\"") == std::string::npos);
    // Refused with the options' own reason.
    const Run arm = run({kClient, "sim", "--home-rules", "--arm", "8", "--games", "5", "--no-progress"});
    INFO(arm.described);
    CHECK(arm.status == 2);
    CHECK(arm.err.find("spookludo sim: option \"arm\": 8 contradicts the preset \"home_rules\"") != std::string::npos);
    const Run three = run({kClient, "sim", "--teams", "--players", "3", "--games", "5", "--no-progress"});
    CHECK(three.status == 2);
    CHECK(three.err.find("teams are two against two: they need 4 players (got 3)") != std::string::npos);
    // play and bot read the same flags, and refuse the same before connecting.
    const Run play = run({kClient, "play", "ws://127.0.0.1:9", "--create", "ludo", "--home-rules", "--arm", "8"});
    INFO(play.described);
    CHECK(play.status == 2);
    CHECK(play.err.find("contradicts the preset \"home_rules\"") != std::string::npos);
    const Run bot = run({kClient, "bot", "ws://127.0.0.1:9", "--create", "ludo", "--teams", "--play-on"});
    INFO(bot.described);
    CHECK(bot.status == 2);
    CHECK(bot.err.find("play_on has no meaning with teams") != std::string::npos);
    check_usage_error({kClient, "play", "ws://127.0.0.1:9", "--home-rules"}, "spookludo play", "--create");
    // --help names them.
    for (const char* command : {"sim", "play", "bot"}) {
        const Run help = run({kClient, command, "--help"});
        CAPTURE(command);
        for (const char* flag : {"--safe-squares", "--bonus-throws", "--capture-to-home", "--teams", "--home-rules"})
            CHECK(help.out.find(flag) != std::string::npos);
    }
}
