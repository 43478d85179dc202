// The record store's retention (server/services.h): only the newest `keep` records stay on disk,
// records already there when the server starts included.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

#include "harness.h"
#include "services.h"
#include "spookludo/record.h"

using namespace spookludo;
using spookludo::testing::record_ids_in;
using spookludo::testing::TempDir;
namespace fs = std::filesystem;

namespace {



GameRecord record_named(const std::string& name) {
    GameRecord r;
    r.commitment = "commitment of " + name;
    return r;
}

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("records: with keep = 3 the newest three stay on disk, records already there counted, oldest first out [records]") {
    TempDir dir;
    // Two records from an earlier run, the one whose name sorts first written last.
    const auto now = fs::file_time_type::clock::now();
    {
        std::ofstream(dir.path / "old-b.json") << record_text(record_named("old-b"));
        std::ofstream(dir.path / "old-a.json") << record_text(record_named("old-a"));
        std::ofstream(dir.path / "notes.txt") << "not a record";
    }
    fs::last_write_time(dir.path / "old-b.json", now - std::chrono::hours(2));
    fs::last_write_time(dir.path / "old-a.json", now - std::chrono::hours(1));

    server::RecordStore store(dir.path, {.human_kept = 3});
    CHECK(store.path_of("old-a").has_value());  // found before any save
    CHECK(store.path_of("old-b").has_value());

    CHECK(store.save(record_named("g1"), "game-1") == "game-1");
    CHECK(record_ids_in(dir.path) == std::set<std::string>{"old-a", "old-b", "game-1"});
    CHECK(store.save(record_named("g2"), "game-2") == "game-2");
    CHECK(record_ids_in(dir.path) == std::set<std::string>{"old-a", "game-1", "game-2"});  // old-b was the oldest
    CHECK(store.save(record_named("g3"), "game-3") == "game-3");
    CHECK(record_ids_in(dir.path) == std::set<std::string>{"game-1", "game-2", "game-3"});
    CHECK(store.save(record_named("g4"), "game-4") == "game-4");
    CHECK(store.save(record_named("g5"), "game-5") == "game-5");
    CHECK(record_ids_in(dir.path) == std::set<std::string>{"game-3", "game-4", "game-5"});

    for (const std::string id : {"game-3", "game-4", "game-5"}) {
        CAPTURE(id);
        const auto p = store.path_of(id);
        REQUIRE(p.has_value());
        CHECK(*p == dir.path / (id + ".json"));
        // The file is the record that was saved under that id.
        CHECK(read_text(*p).find("\"commitment of g" + id.substr(5) + "\"") != std::string::npos);
    }
    for (const std::string id : {"old-a", "old-b", "game-1", "game-2"}) {
        CAPTURE(id);
        CHECK_FALSE(store.path_of(id).has_value());
    }
    CHECK_FALSE(store.path_of("never-saved").has_value());
    CHECK_FALSE(store.path_of("../game-5").has_value());  // not an id
    // What is not a record is left alone, and no temporary file stays behind.
    CHECK(fs::exists(dir.path / "notes.txt"));
    for (const auto& e : fs::directory_iterator(dir.path)) CHECK(e.path().extension() != ".tmp");
}

TEST_CASE("records: a store whose directory does not exist yet creates it and keeps the newest [records]") {
    TempDir dir;
    const fs::path records = dir.path / "records";
    server::RecordStore store(records, {.human_kept = 2});
    CHECK_FALSE(store.path_of("game-1").has_value());
    for (int i = 1; i <= 4; ++i) CHECK(store.save(record_named("g"), "game-" + std::to_string(i)) == "game-" + std::to_string(i));
    CHECK(record_ids_in(records) == std::set<std::string>{"game-3", "game-4"});
    CHECK(store.path_of("game-4").has_value());
    CHECK_FALSE(store.path_of("game-1").has_value());
}

TEST_CASE("records: a record written again under the same id (a game replayed after a restart) counts once [records]") {
    TempDir dir;
    const fs::path records = dir.path / "records";
    server::RecordStore store(records, {.human_kept = 2});
    store.save(record_named("g"), "game-1");
    store.save(record_named("g"), "game-1");
    store.save(record_named("g"), "game-2");
    CHECK(record_ids_in(records) == std::set<std::string>{"game-1", "game-2"});
    store.save(record_named("g"), "game-3");
    CHECK(record_ids_in(records) == std::set<std::string>{"game-2", "game-3"});
}
