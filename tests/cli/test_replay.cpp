// `spookludo replay FILE|URL` (docs/analysis.md): a game replayed from its record with the analysis
// beside every choice. --print (and any output that is not a terminal) prints every step's story,
// the decision lines and the players' summary; a server's game address is fetched; a file that is
// no record is refused with status 2. The real binaries.
#include <doctest/doctest.h>

#include <filesystem>
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

// One simulated game's record file in `dir`.
std::string sim_record(const TempDir& dir, const std::string& label, std::vector<std::string> args) {
    const auto records = dir.path() / label;
    args.insert(args.begin(), "sim");
    for (const std::string a : {"--games", "1", "--seed", "5", "--no-progress", "--records"}) args.push_back(a);
    args.push_back(records.string());
    const Finished sim = run(dir, "sim-" + label, args);
    INFO(sim.described);
    REQUIRE(sim.status == 0);
    for (const auto& entry : std::filesystem::directory_iterator(records))
        if (entry.path().extension() == ".json") return entry.path().string();
    FAIL("the simulator wrote no record");
    return {};
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("replay: spookludo replay --print of a record shows its steps, a line for every choice and the summary, every text through the catalogue [cli][replay]") {
    TempDir dir("spookludo-replay");
    const std::string spook = sim_record(dir, "spook", {"--game", "spook", "--players", "3", "--policies", "random,greedy,best"});
    const Finished out = run(dir, "replay-spook", {"replay", spook, "--print"});
    INFO(out.described);
    REQUIRE(out.status == 0);
    CHECK(out.out.find("== The boards are dealt ==") != std::string::npos);
    CHECK(out.out.find("== Round 1: the movement roll, ") != std::string::npos);
    CHECK(out.out.find("== Round 1: the activation roll, ") != std::string::npos);
    CHECK(out.out.find("Game over!") != std::string::npos);
    CHECK(count(out.out, "  >> ") > 3);  // the choices' analysis
    CHECK(out.out.find("; best was piece ") != std::string::npos);  // the random bot's worse moves
    CHECK(out.out.find("== Summary: choices against luck ==") != std::string::npos);
    CHECK(count(out.out, "expected to finish in ") == 3);
    CHECK(count(out.out, "  Luck: the dice ") == 3);

    // Ludo where the chance to win is known (4 players, arm 6), in Malay.
    const std::string ludo = sim_record(dir, "ludo", {"--game", "ludo", "--players", "4", "--arm", "6", "--policies",
                                                      "random,greedy,best,random"});
    const Finished ms = run(dir, "replay-ludo", {"replay", ludo, "--print", "--lang", "ms"});
    INFO(ms.described);
    REQUIRE(ms.status == 0);
    CHECK(ms.out.find("== Ringkasan: pilihan berbanding nasib ==") != std::string::npos);
    CHECK(count(ms.out, " peratus peluang menang pada permulaan") == 4);

    // Every text through the catalogue: in the pseudo-language every line of a Spook replay has
    // its brackets (the boards' lines too: their names and tags are worded).
    const Finished qps = run(dir, "replay-qps", {"replay", spook, "--print", "--lang", "qps"});
    REQUIRE(qps.status == 0);
    std::size_t at = 0, lines = 0;
    for (auto end = qps.out.find('\n'); end != std::string::npos; at = end + 1, end = qps.out.find('\n', at)) {
        const std::string line = qps.out.substr(at, end - at);
        CHECK_MESSAGE(line.find("\u27e6") != std::string::npos, "a text outside the catalogue: " << line);
        ++lines;
    }
    CHECK(lines > 50);

    const Finished bad = run(dir, "replay-bad", {"replay", (dir.path() / "sim-spook.out").string(), "--print"});
    CHECK(bad.status == 2);
    CHECK(bad.err.find("is not a readable game record") != std::string::npos);
}

TEST_CASE("replay: spookludo replay of a server's game address fetches its record and replays it [cli][replay]") {
    ServerProcess server(kServer, "spookludo-replay-url");
    server.start();
    const std::string ws = "ws://127.0.0.1:" + std::to_string(server.port());
    const Finished bot = run(server.dir(), "bot", {"bot", ws, "--create", "spook", "--players", "2", "--count", "2",
                                                   "--policy", "greedy", "--start", "--quiet"});
    INFO(bot.described);
    REQUIRE(bot.status == 0);
    const std::string id = line_word(bot.out, "game_over ");
    REQUIRE_FALSE(id.empty());
    const Finished out = run(server.dir(), "replay",
                             {"replay", "http://127.0.0.1:" + std::to_string(server.port()) + "/games/" + id});
    INFO(out.described);
    REQUIRE(out.status == 0);  // not a terminal: printed
    CHECK(out.out.find("== Summary: choices against luck ==") != std::string::npos);
    CHECK(count(out.out, "expected to finish in ") == 2);
}
