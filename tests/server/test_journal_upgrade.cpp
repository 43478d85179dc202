// Upgrades: a journal written by an older server is taken up by this one. The fixture
// (tests/fixtures/journal-0.1.0.sql, a `sqlite3 .dump` of the database of a version 0.1.0 server
// killed with two games in progress; made by tests/fixtures/make-journal-0.1.0.sh, which says how)
// has a row an event and the steps' messages themselves (`out`); this server writes a pass's events
// in one row and a step's digest (`shown`), docs/journal.md. Over the real server on loopback.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "database.h"
#include "harness.h"
#include "spookludo/record.h"
#include "spookludo/verify.h"

using namespace spookludo;
using namespace spookludo::testing;
namespace db = spookludo::server::db;

namespace {

const std::filesystem::path kFixtures = std::filesystem::path(SPOOKLUDO_SOURCE_DIR) / "tests" / "fixtures";

std::string file_text(const std::filesystem::path& file) {
    std::ifstream in(file);
    REQUIRE_MESSAGE(in.good(), "cannot read " << file);
    std::ostringstream all;
    all << in.rdbuf();
    return all.str();
}

std::filesystem::path database_in(const server::Config& config) {
    return std::filesystem::path(config.data_dir) / "spookludo.db";
}

// A value of the server's /metrics (a line "NAME VALUE"), or -1 when it is not there.
long metric(std::uint16_t port, const std::string& name) {
    const auto [status, text] = http_get(port, "/metrics");
    REQUIRE(status == 200);
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind(name + " ", 0) == 0) return std::stol(line.substr(name.size() + 1));
    return -1;
}

// What the old journal says of a room's game before the upgrade.
struct OldGame {
    std::string id;                   // the game's id
    std::vector<int> faces;           // the movement rolls (Spook) or throws (Ludo) it showed, in order
    std::map<int, std::string> open;  // the decisions open at the kill: seat -> decision id
    std::int64_t last_event = 0;      // the id of its last row
    std::int64_t server_move_version = 0;
};

OldGame old_game(db::Database& d, const std::string& code) {
    OldGame g;
    auto game = d.prepare("SELECT game FROM room_games WHERE code = ?1");
    game.bind(1, std::string_view(code));
    REQUIRE(game.step());
    const json published = json::parse(game.text(0));
    g.id = published.at("id");
    g.server_move_version = published.value("server_move_version", 0);
    auto events = d.prepare("SELECT id, kind, data FROM journal_events WHERE code = ?1 ORDER BY id");
    events.bind(1, std::string_view(code));
    while (events.step()) {
        g.last_event = events.int64(0);
        const std::string kind = events.text(1);
        REQUIRE(kind != "pass");  // a row an event
        const json data = json::parse(events.text(2));
        if (kind == "advance" || kind == "resolve") {
            REQUIRE(data.contains("out"));  // the messages themselves, not their digest
            for (const auto& text : data["out"]) {
                const json m = json::parse(text.get<std::string>());
                if (m["type"] == "roll" || m["type"] == "throw") g.faces.push_back(m["face"]);
            }
        }
        if (kind == "ask") {
            g.open.clear();
            for (const auto& asked : data["decisions"]) g.open[asked[0].get<int>()] = asked[1].get<std::string>();
        }
        if (kind == "choice") g.open.erase(data["player"].get<int>());  // the players are the seats here
        if (kind == "advance" || kind == "resolve") g.open.clear();
    }
    return g;
}

// The rows the server wrote for `code` after row `after`, as "kind data".
std::vector<std::string> rows_after(const server::Config& config, const std::string& code, std::int64_t after) {
    db::Database d(database_in(config));
    auto rows = d.prepare("SELECT kind, data FROM journal_events WHERE code = ?1 AND id > ?2 ORDER BY id");
    rows.bind(1, std::string_view(code)).bind(2, after);
    std::vector<std::string> out;
    while (rows.step()) out.push_back(rows.text(0) + " " + rows.text(1));
    return out;
}

// Answers a decision with its first option.
void answer(Client& c, const json& decision) {
    c.send({{"type", "choose"}, {"decision", decision["decision"]}, {"piece", decision["options"][0]["piece"]}});
}

// Both rooms were taken up, none lost.
void check_taken_up(std::uint16_t port) {
    CHECK(metric(port, "spookludo_rooms_resumed_total") == 2);
    CHECK(metric(port, "spookludo_games_resumed_total") == 2);
    CHECK(metric(port, "spookludo_rooms_lost_total") == 0);
}

// The game ended, is the one the old server started, its record verifies, and its first draws are
// the dice the old server showed.
void check_ended_where_it_was(std::uint16_t port, const json& over, const OldGame& old, DrawPurpose purpose) {
    CHECK(over["status"] == "finished");
    CHECK(over["game_id"] == old.id);
    REQUIRE(over.contains("record"));
    const auto [status, text] = http_get(port, over["record"].get<std::string>());
    REQUIRE(status == 200);
    const GameRecord record = parse_record(text);
    const VerifyReport report = verify(record);
    INFO(report.failure);
    CHECK(report.ok);
    std::vector<int> recorded;
    for (const auto& d : record.draws)
        if (d.purpose == purpose) recorded.push_back(static_cast<int>(d.value) + 1);
    REQUIRE(old.faces.size() >= 3);
    REQUIRE(recorded.size() > old.faces.size());
    CHECK(std::equal(old.faces.begin(), old.faces.end(), recorded.begin()));
    if (old.server_move_version > 0) CHECK(record.server_move_version == std::optional<int>(old.server_move_version));
}

}  // namespace

TEST_CASE("journal: a journal written by version 0.1.0 (a row an event, the steps' messages kept) is taken up after an upgrade: both games go on where they were, to their end, and their records verify [server][journal]") {
    const json seats = json::parse(file_text(kFixtures / "journal-0.1.0.json"));
    const std::string ludo = seats["ludo"]["room"], spook = seats["spook"]["room"];
    const std::string ann_token = seats["ludo"]["tokens"][0];
    const std::string bea_token = seats["spook"]["tokens"][0], cai_token = seats["spook"]["tokens"][1];
    auto config = TestServer::fast_config();
    config.reconnect_ms = 60000;  // the seats wait however slow the machine
    std::filesystem::create_directories(config.data_dir);
    OldGame old_ludo, old_spook;
    {
        // A fresh file at no schema, then the old server's tables and rows, at its version (4).
        db::Database d(database_in(config), std::span<const db::Migration>{});
        d.exec(file_text(kFixtures / "journal-0.1.0.sql"));
        REQUIRE(d.schema_version() == 4);
        old_ludo = old_game(d, ludo);
        old_spook = old_game(d, spook);
    }
    // Killed with a decision open in each room: Ann's, and Bea's and Cai's in the same round.
    REQUIRE(old_ludo.open.size() == 1);
    REQUIRE(old_spook.open.size() == 2);

    // The upgraded server takes both rooms up; a few steps, and it stops (as on SIGTERM).
    {
        auto first = std::make_unique<TestServer>(config);
        first->keep_data_dir();
        check_taken_up(first->port());
        Client ann(first->port()), bea(first->port()), cai(first->port());
        CHECK(resume(ann, ludo, ann_token)["seat"] == 0);
        CHECK(resume(bea, spook, bea_token)["seat"] == 0);
        CHECK(resume(cai, spook, cai_token)["seat"] == 1);
        // Each is asked again what they were asked when the old server died, with the time it had
        // left (nearly a minute), not a new decision of the server's default time (5 s here).
        const json ann_asked = ann.expect("decision");
        CHECK(ann_asked["decision"] == old_ludo.open.at(0));
        CHECK(ann_asked["time_left_ms"].get<int>() > 30000);
        const json bea_asked = bea.expect("decision"), cai_asked = cai.expect("decision");
        CHECK(bea_asked["decision"] == old_spook.open.at(0));
        CHECK(cai_asked["decision"] == old_spook.open.at(1));
        // Ludo: Ann's answer and two more; her fourth decision stays open.
        answer(ann, ann_asked);
        for (int i = 0; i < 2; ++i) answer(ann, ann.expect("decision", 10s));
        ann.expect("decision", 10s);
        // Spook: both answer, the round is played (its moves shown) and the next one asked.
        answer(bea, bea_asked);
        answer(cai, cai_asked);
        bea.expect("moves", 10s);
        first->shutdown();
    }
    // What the upgraded server wrote for these games is in the new format: a pass's events in one
    // row, steps as digests, no messages.
    for (const auto& [code, after] : {std::pair{ludo, old_ludo.last_event}, std::pair{spook, old_spook.last_event}}) {
        INFO(code);
        const auto rows = rows_after(config, code, after);
        REQUIRE_FALSE(rows.empty());
        CHECK(std::any_of(rows.begin(), rows.end(), [](const std::string& r) { return r.rfind("pass ", 0) == 0; }));
        CHECK(std::any_of(rows.begin(), rows.end(),
                          [](const std::string& r) { return r.find("\"shown\"") != std::string::npos; }));
        CHECK(std::none_of(rows.begin(), rows.end(),
                           [](const std::string& r) { return r.find("\"out\"") != std::string::npos; }));
    }

    // Once more, on the journal of both versions' rows: both games are taken up again and go on to
    // their end.
    TestServer second(config);  // removes the data directory at the end
    check_taken_up(second.port());
    Client ann(second.port()), bea(second.port()), cai(second.port());
    resume(ann, ludo, ann_token);
    resume(bea, spook, bea_token);
    resume(cai, spook, cai_token);
    auto ann_game = std::async(std::launch::async, [&] { return play_to_end(ann, 60s); });
    auto bea_game = std::async(std::launch::async, [&] { return play_to_end(bea, 60s); });
    auto cai_game = std::async(std::launch::async, [&] { return play_to_end(cai, 60s); });
    const json ludo_over = ann_game.get(), spook_over = bea_game.get();
    CHECK(cai_game.get()["game_id"] == spook_over["game_id"]);
    check_ended_where_it_was(second.port(), ludo_over, old_ludo, DrawPurpose::throw_);
    check_ended_where_it_was(second.port(), spook_over, old_spook, DrawPurpose::movement);
}
