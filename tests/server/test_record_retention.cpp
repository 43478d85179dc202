// Record retention against a flood (issue #14, item 6): games with human players and bot-only
// games have their own bounds, and within a class the address holding the most records gives up
// its oldest, so a flood from one address evicts its own games and nobody else's.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "harness.h"
#include "services.h"
#include "spookludo/record.h"

using namespace spookludo;
using namespace spookludo::testing;
namespace fs = std::filesystem;

namespace {

// Plays games in `client`'s room (seat 0, a server bot beside it) until `games` records exist;
// returns their ids. Spook with one piece each: no decisions, a game in a few milliseconds.
std::vector<std::string> play_games(Client& client, int games) {
    std::vector<std::string> ids;
    for (int g = 0; g < games; ++g) {
        client.send({{"type", "start"}});
        const json over = play_to_end(client);
        REQUIRE(over["status"] == "finished");
        REQUIRE(over.contains("record"));
        ids.push_back(over["record"]);
    }
    return ids;
}

void open_room(Client& client, const std::string& name) {
    create_room(client, {{"game", "spook"}, {"players", 2}, {"pieces", 1}}, name, json{{"pace_ms", 0}});
    client.send({{"type", "add_bot"}, {"policy", "random"}});
    client.expect("room");
}



GameRecord record_with(bool bots_only) {
    GameRecord r;
    r.seats = {{0, "a", bots_only, std::nullopt, std::nullopt}, {1, "b", true, PolicyKind::best, std::nullopt}};
    return r;
}

}  // namespace

TEST_CASE("server: a flood of games from one address does not push out other people's records, nor a household's [server][records][security]") {
    auto config = TestServer::fast_config();
    config.records_kept = 6;
    TestServer server(config);

    // A household behind one address (127.0.0.1): two people, three games between them.
    Client ann(server.port());
    open_room(ann, "Ann");
    std::vector<std::string> household = play_games(ann, 2);
    Client ben(server.port());
    open_room(ben, "Ben");
    household.push_back(play_games(ben, 1).front());

    // The flood from another address: rooms of bots played back to back at pace 0.
    Client flood1(server.port(), "/ws", "127.0.0.2");
    open_room(flood1, "bot-a");
    Client flood2(server.port(), "/ws", "127.0.0.2");
    open_room(flood2, "bot-b");
    std::vector<std::string> flooded;
    for (int round = 0; round < 8; ++round) {
        for (auto& id : play_games(flood1, 2)) flooded.push_back(id);
        for (auto& id : play_games(flood2, 2)) flooded.push_back(id);
    }
    REQUIRE(flooded.size() == 32);

    // Every household game is still served; the flood kept only the newest of its own.
    for (const auto& path : household) {
        CAPTURE(path);
        CHECK(http_get(server.port(), path).first == 200);
    }
    int kept = 0;
    for (const auto& path : flooded) kept += http_get(server.port(), path).first == 200;
    CHECK(kept == 3);  // 6 kept in all: the household's 3 and the flood's newest 3
    CHECK(http_get(server.port(), flooded.back()).first == 200);
    CHECK(http_get(server.port(), flooded.front()).first == 404);
    const auto metrics = http_get(server.port(), "/metrics").second;
    CHECK(metrics.find("spookludo_records{class=\"human\"} 6") != std::string::npos);
    CHECK(metrics.find("spookludo_records_evicted_total{class=\"human\"} 29") != std::string::npos);
}

TEST_CASE("records: bot-only games have their own bound and never push out games with human players [records]") {
    TempDir dir;
    server::RecordStore store(dir.path, {.human_kept = 3, .bot_kept = 2});
    for (int i = 0; i < 3; ++i) store.save(record_with(false), "human-" + std::to_string(i), "10.0.0.1");
    for (int i = 0; i < 10; ++i) store.save(record_with(true), "bots-" + std::to_string(i), "10.0.0.1");
    CHECK(record_ids_in(dir.path) == std::set<std::string>{"human-0", "human-1", "human-2", "bots-8", "bots-9"});
    CHECK(server::class_of(record_with(true)) == server::RecordClass::bot_only);
    CHECK(server::class_of(record_with(false)) == server::RecordClass::human);
}

TEST_CASE("records: at the bound the address holding the most gives up its oldest, and the groups survive a restart [records]") {
    TempDir dir;
    {
        server::RecordStore store(dir.path, {.human_kept = 5});
        store.save(record_with(false), "a-1", "10.0.0.1");  // the oldest of all
        store.save(record_with(false), "b-1", "10.0.0.2");
        store.save(record_with(false), "b-2", "10.0.0.2");
        store.save(record_with(false), "f-1", "192.0.2.7");
        store.save(record_with(false), "f-2", "192.0.2.7");
        CHECK(record_ids_in(dir.path).size() == 5);
        // Over the bound: 192.0.2.7 holds the most (three), and gives up its oldest.
        store.save(record_with(false), "f-3", "192.0.2.7");
        CHECK(record_ids_in(dir.path) == std::set<std::string>{"a-1", "b-1", "b-2", "f-2", "f-3"});
    }
    // A leftover temporary file of a write cut short.
    std::ofstream(dir.path / "x-1.json.tmp") << "{";
    {
        // After a restart the store knows who holds what: the flood (192.0.2.7, three records)
        // gives up its own oldest, not 10.0.0.1's older one.
        server::RecordStore store(dir.path, {.human_kept = 5});
        CHECK_FALSE(fs::exists(dir.path / "x-1.json.tmp"));
        store.save(record_with(false), "f-4", "192.0.2.7");
        CHECK(record_ids_in(dir.path) == std::set<std::string>{"a-1", "b-1", "b-2", "f-3", "f-4"});
        // Two groups hold two each: the one with the older record gives it up (the order of
        // writing survived the restart too).
        store.save(record_with(false), "g-1", "198.51.100.1");
        CHECK(record_ids_in(dir.path) == std::set<std::string>{"a-1", "b-2", "f-3", "f-4", "g-1"});
    }
    // Without the index, the records on disk are classified from their seats (bot-only ones
    // under their own bound), each a group of its own, oldest first out.
    fs::remove(dir.path / "index.tsv");
    {
        std::ofstream(dir.path / "bots-1.json") << record_text(record_with(true));
        // Another layout of the same JSON (one line): read whole, classified the same.
        std::ofstream(dir.path / "bots-0.json") << nlohmann::json(record_with(true)).dump();
        fs::last_write_time(dir.path / "bots-0.json", fs::file_time_type::clock::now() - std::chrono::hours(1));
        server::RecordStore store(dir.path, {.human_kept = 4, .bot_kept = 1});
        CHECK(record_ids_in(dir.path).size() == 5);  // 4 human, 1 bot-only: the newer
        CHECK(fs::exists(dir.path / "bots-1.json"));
        CHECK_FALSE(fs::exists(dir.path / "bots-0.json"));
        // No served file is the index, and no record carries an address.
        CHECK_FALSE(store.path_of("index").has_value());
        for (const auto& id : record_ids_in(dir.path)) {
            std::ifstream in(dir.path / (id + ".json"));
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            CHECK(text.find("192.0.2.7") == std::string::npos);
        }
    }
}
