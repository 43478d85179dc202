// The server's board-solution cache (issue #14, item 4): bounded by bytes, least recently used
// out first, the balanced pools pinned; and how much solving one address may ask for.
#include <doctest/doctest.h>

#include <sstream>

#include "harness.h"
#include "services.h"
#include "spookludo/rng.h"
#include "spookludo/spook/setup.h"

using namespace spookludo;
using namespace spookludo::testing;

namespace {

// A gauge or counter of /metrics; -1 when it is not there.
long metric(std::uint16_t port, const std::string& name) {
    const auto [status, body] = http_get(port, "/metrics");
    REQUIRE(status == 200);
    std::istringstream lines(body);
    std::string line;
    while (std::getline(lines, line))
        if (line.rfind(name + " ", 0) == 0) return std::stol(line.substr(name.size() + 1));
    return -1;
}

json unbalanced(int players, int pieces) {
    return {{"game", "spook"}, {"players", players}, {"pieces", pieces}, {"balanced_boards", false}};
}

// Fills the room with bots; the host is seat 0.
void add_bots(Client& host, int bots) {
    host.expect("room");
    for (int i = 0; i < bots; ++i) {
        host.send({{"type", "add_bot"}, {"policy", "random"}});
        host.expect("room");
    }
}

// Starts a game and ends it as soon as it has started (its boards solved). False when the start
// was refused; `refusal` is then the error.
bool start_and_end(Client& host, int game, json* refusal = nullptr) {
    host.send({{"type", "start"}});
    for (;;) {
        const auto m = host.read();
        REQUIRE(m.has_value());
        if ((*m)["type"] == "commitment") break;
        if ((*m)["type"] == "error") {
            if (refusal) *refusal = *m;
            return false;
        }
    }
    host.send({{"type", "client_seed"}, {"seed", "seed " + std::to_string(game)}});
    host.expect("game_started");
    host.send({{"type", "end_game"}});
    host.expect("game_over");
    return true;
}

}  // namespace

TEST_CASE("server: games with random boards in a loop keep the solution cache within its bound [server][security][memory]") {
    auto config = TestServer::fast_config();
    config.solution_cache_mb = 1;
    config.solves_per_minute = 0;  // this test is about memory, not the per-address limit
    config.pace_ms = 10000;        // nothing moves before the game is ended
    TestServer server(config);
    Client ann(server.port());
    create_room(ann, unbalanced(8, 2), "Ann");
    add_bots(ann, 7);
    for (int game = 0; game < 10; ++game) REQUIRE(start_and_end(ann, game));
    // 80 random boards were solved (27 KB each, 2 MB in all): the cache keeps what 1 MB holds.
    const long bytes = metric(server.port(), "spookludo_solution_cache_bytes");
    CHECK(bytes > 0);
    CHECK(bytes <= 1L << 20);
    CHECK(metric(server.port(), "spookludo_solution_cache_entries") < 80);
    CHECK(metric(server.port(), "spookludo_solution_evictions_total") > 0);
}

TEST_CASE("server: a game whose solutions were evicted plays to the end with hints and bots [server][memory]") {
    auto config = TestServer::fast_config();
    config.solution_cache_mb = 0;  // every random board's solution is evicted as soon as it is made
    TestServer server(config);
    Client ann(server.port());
    create_room(ann, unbalanced(3, 2), "Ann", json{{"hints", true}});
    add_bots(ann, 2);
    ann.send({{"type", "start"}});
    const json over = play_to_end(ann);
    CHECK(over["status"] == "finished");
    CHECK(metric(server.port(), "spookludo_solution_cache_entries") == 0);
    bool hinted = false;
    for (const auto& m : ann.log())
        if (m["type"] == "decision" && m["options"][0].contains("expected_rounds")) hinted = true;
    CHECK(hinted);
}

TEST_CASE("server: one address asking for too many board solves gets rate_limited with when to try again [server][security][memory]") {
    auto config = TestServer::fast_config();
    config.solves_per_minute = 16;  // two games of 8 random boards
    config.pace_ms = 10000;
    TestServer server(config);
    Client ann(server.port());
    create_room(ann, unbalanced(8, 1), "Ann");
    add_bots(ann, 7);
    CHECK(start_and_end(ann, 0));
    CHECK(start_and_end(ann, 1));
    json refusal;
    REQUIRE_FALSE(start_and_end(ann, 2, &refusal));
    CHECK(refusal["code"] == "rate_limited");
    CHECK(refusal["ref"] == "start");
    const std::string message = refusal["message"];
    CHECK_MESSAGE(message.find("16 boards a minute") != std::string::npos, message);
    CHECK_MESSAGE(message.find("try again in ") != std::string::npos, message);
    CHECK(metric(server.port(), "spookludo_solves_refused_total") == 1);
    // The room is still in its lobby, and balanced boards need no solving: that game starts.
    ann.send({{"type", "set_options"}, {"options", {{"game", "spook"}, {"players", 8}, {"pieces", 1}}}});
    ann.expect("room");
    CHECK(start_and_end(ann, 3));
}

TEST_CASE("solution cache: least recently used out first, pinned pool boards never, an evicted solution lives while held [server][memory]") {
    server::Metrics metrics;
    Rng rng(7);
    const auto probe = spook::Solution::solve(spook::Board::random(rng), 2, 2);
    const std::size_t one = probe.memory_bytes();
    CHECK(one > 26000);  // the tables of 820 positions and 41^2 codes
    server::SharedSolutions cache({2 * one + one / 2, 0}, metrics);  // room for two

    const auto a = spook::Board::random(rng), b = spook::Board::random(rng), c = spook::Board::random(rng);
    const auto sa = cache.get(a, 2, 2);
    const auto sb = cache.get(b, 2, 2);
    CHECK(cache.get(a, 2, 2) == sa);  // a hit, and a is now the most recently used
    std::weak_ptr<const spook::Solution> weak_b = sb;
    const auto sc = cache.get(c, 2, 2);  // b goes
    CHECK(metrics.solution_evictions == 1);
    CHECK(metrics.solution_cache_entries == 2);
    CHECK(metrics.solution_cache_bytes <= static_cast<long>(2 * one + one / 2));
    CHECK(cache.get(a, 2, 2) == sa);
    CHECK(cache.get(c, 2, 2) == sc);
    CHECK_FALSE(weak_b.expired());  // still held by `sb`, as a room holds its seats' solutions
    CHECK(sb->expected_finish() > 0);
    CHECK(cache.get(b, 2, 2) != nullptr);  // solved again
    CHECK(metrics.solution_evictions == 2);

    // A balanced pool's board is pinned: outside the bound, never evicted.
    const auto pooled = spook::Board::from_notation(spook::balanced_pool(2)[0].notation);
    const auto sp = cache.get(pooled, 2, 2);
    for (int i = 0; i < 4; ++i) (void)cache.get(spook::Board::random(rng), 2, 2);
    CHECK(cache.get(pooled, 2, 2) == sp);
    CHECK(metrics.solution_pinned_entries == 1);
    CHECK(metrics.solution_pinned_bytes == static_cast<long>(sp->memory_bytes()));
    CHECK(metrics.solution_cache_entries == 2);
}

TEST_CASE("solution cache: the per-address solve budget refuses one address, not another, and says when to try again [server][security]") {
    server::Metrics metrics;
    server::SharedSolutions cache({1 << 20, 30}, metrics);  // 30 a minute: one every 2 s
    CHECK_FALSE(cache.allow_solves("203.0.113.5", 24));
    const auto wait = cache.allow_solves("203.0.113.5", 8);
    REQUIRE(wait);
    CHECK(wait->count() >= 3);  // 6 left, 2 more at one every 2 s
    CHECK(wait->count() <= 5);
    CHECK(metrics.solves_refused == 1);
    CHECK_FALSE(cache.allow_solves("198.51.100.7", 8));  // another address has its own budget
    CHECK_FALSE(cache.allow_solves("203.0.113.5", 6));
    // A game larger than the whole budget needs it full, not more: it is not refused forever.
    server::SharedSolutions small({1 << 20, 4}, metrics);
    CHECK_FALSE(small.allow_solves("203.0.113.5", 8));
    // No limit when the budget is 0.
    server::SharedSolutions unlimited({1 << 20, 0}, metrics);
    for (int i = 0; i < 100; ++i) CHECK_FALSE(unlimited.allow_solves("203.0.113.5", 8));
}
