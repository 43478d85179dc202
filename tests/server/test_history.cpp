// The server's database (server/database.h) and the history of finished games in it (issue #18):
// a private WAL file whose schema is migrated at start and refused when newer, and GET /games,
// /games/<id>, /players/<name> over loopback with the real server.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "database.h"
#include "harness.h"
#include "history.h"
#include "spookludo/record.h"
#include "spookludo/verify.h"

using namespace spookludo;
using namespace spookludo::testing;
namespace fs = std::filesystem;
namespace db = spookludo::server::db;

namespace {

json get_json(std::uint16_t port, const std::string& target, int expect_status = 200) {
    const auto [status, body] = http_get(port, target);
    CHECK_MESSAGE(status == expect_status, target << " answered " << status << ": " << body);
    return json::parse(body);
}

// Ann's room with a server bot; `games` quick games (one piece each: no decisions). Returns the
// game ids, oldest first.
std::vector<std::string> play_games(Client& ann, const std::string& name, int games, std::string* code = nullptr) {
    const std::string room = create_room(ann, {{"game", "spook"}, {"players", 2}, {"pieces", 1}}, name, json{{"pace_ms", 0}});
    if (code) *code = room;
    ann.send({{"type", "add_bot"}, {"policy", "random"}});
    ann.expect("room");
    std::vector<std::string> ids;
    for (int g = 0; g < games; ++g) {
        ann.send({{"type", "start"}});
        const json over = play_to_end(ann);
        REQUIRE(over["status"] == "finished");
        ids.push_back(over["game_id"]);
    }
    return ids;
}

// The server binary on `data_dir`, run until it exits (it is expected not to start): its exit
// status (-1 when it did not exit by itself) and what it printed.
std::pair<int, std::string> run_server_on(const std::string& data_dir) {
    const std::string command =
        std::string(SPOOKLUDO_SERVER_BINARY) + " --port 0 --bind 127.0.0.1 --data-dir " + data_dir + " 2>&1";
    FILE* p = ::popen(command.c_str(), "r");
    REQUIRE(p);
    std::string out;
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    const int status = ::pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// A text as a URL's query value or path segment: every byte but letters and digits %-escaped.
std::string url_escaped(const std::string& text) {
    std::string out;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        char hex[4];
        std::snprintf(hex, sizeof hex, "%%%02X", c);
        out += std::isalnum(c) ? std::string(1, ch) : std::string(hex);
    }
    return out;
}

}  // namespace

TEST_CASE("database: a new file is private (0600), in WAL mode, at the newest schema version [history]") {
    TempDir dir("db");
    const fs::path file = dir.path / "spookludo.db";
    db::Database d(file);
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    CHECK(d.schema_version() == db::migrations().back().version);
    auto mode = d.prepare("PRAGMA journal_mode");
    REQUIRE(mode.step());
    CHECK(mode.text(0) == "wal");
}

TEST_CASE("database: checkpoints run on the checkpointer's thread, the committing one only once per 8,000 pages: thousands of commits in bursts leave the WAL bounded and every row there after reopening, and a second open of the file in use is refused [history][journal]") {
    TempDir dir("db-checkpoints");
    const fs::path file = dir.path / "spookludo.db";
    constexpr int kRows = 9000;
    {
        db::Database d(file);
        d.exec("CREATE TABLE filler (id INTEGER PRIMARY KEY, data BLOB NOT NULL)");
        CHECK_THROWS_WITH_AS([&] { db::Database second(file); }(), doctest::Contains("is in use by another process"), db::Error);
        CHECK(fs::exists(file.string() + ".lock"));  // the lock's own file: the database's descriptors are SQLite's alone
        auto insert = d.prepare("INSERT INTO filler (data) VALUES (randomblob(3000))");
        for (int i = 0; i < kRows; ++i) {  // a page or two each: several times kCheckpointFrames
            db::Transaction t(d);
            insert.reset();
            insert.run();
            t.commit();
            // In bursts, as the rooms write at 4,500 rooms (a burst every 2 ms): the WAL only
            // starts over once a checkpoint caught up with the writes, between two bursts.
            if (i % 20 == 19) std::this_thread::sleep_for(2ms);
        }
        for (int i = 0; i < 500 && d.checkpoints().background == 0; ++i) std::this_thread::sleep_for(10ms);
        const auto counts = d.checkpoints();
        MESSAGE("checkpoints: ", counts.background, " by the checkpointer, ", counts.inline_, " by the committing thread");
        CHECK(counts.background >= 1);
        // The committing thread checkpointed at most once per kCheckpointFramesMost frames (of
        // about 18,000 written), where SQLite by itself would at every 1,000.
        CHECK(counts.inline_ <= 4);
        CHECK(counts.failed == 0);
        // The WAL starts over: it never holds all the commits, nor much more than
        // kCheckpointFramesMost frames (the commits made while the checkpointer is busy past that
        // mark are not held up: on a loaded machine a few hundred frames, hence a margin of
        // kCheckpointFrames).
        const auto wal = fs::file_size(file.string() + "-wal");
        CHECK_MESSAGE(wal <= std::uintmax_t{db::Database::kCheckpointFramesMost + db::Database::kCheckpointFrames} * (4096 + 24) + 32,
                      "the WAL is " << wal << " bytes");
    }
    db::Database again(file);
    auto n = again.prepare("SELECT count(*) FROM filler");
    REQUIRE(n.step());
    CHECK(n.int64(0) == kRows);
}

TEST_CASE("database: a file of an older schema is migrated at open, its data kept, and a newer one is refused, untouched [history]") {
    TempDir dir("db");
    const fs::path file = dir.path / "spookludo.db";
    // The older server's schema: version 1 only.
    static constexpr db::Migration v1[] = {{1, "CREATE TABLE seats (name TEXT NOT NULL); INSERT INTO seats VALUES ('Ann')"}};
    { db::Database old(file, v1); }
    static constexpr db::Migration v2[] = {
        {1, "CREATE TABLE seats (name TEXT NOT NULL); INSERT INTO seats VALUES ('Ann')"},
        {2, "ALTER TABLE seats ADD COLUMN bot INTEGER NOT NULL DEFAULT 0; INSERT INTO seats VALUES ('best bot 1', 1)"}};
    {
        db::Database now(file, v2);
        CHECK(now.schema_version() == 2);
        auto rows = now.prepare("SELECT name, bot FROM seats ORDER BY rowid");
        REQUIRE(rows.step());
        CHECK(rows.text(0) == "Ann");  // the old row, kept
        CHECK(rows.int64(1) == 0);
        REQUIRE(rows.step());
        CHECK(rows.text(0) == "best bot 1");
    }
    // Opened by the older server again: refused, and the file is left as it was.
    auto bytes = [&] {
        std::ifstream in(file, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string before = bytes();
    try {
        db::Database older(file, v1);
        FAIL("a newer schema was opened");
    } catch (const db::TooNew& e) {
        CHECK(e.file_version == 2);
        CHECK(e.known == 1);
        CHECK(std::string(e.what()).find("newer SpookLudo server") != std::string::npos);
    }
    CHECK(bytes() == before);
    CHECK(db::Database(file, v2).schema_version() == 2);
}

TEST_CASE("database: the server refuses a data directory whose database a newer server wrote: the message, exit 3 [history][process]") {
    TempDir dir("db");
    {
        db::Database d(dir.path / "spookludo.db");
        d.exec("PRAGMA user_version = 999");
    }
    const auto [status, out] = run_server_on(dir.path.string());
    CHECK(status == 3);
    CHECK_MESSAGE(out.find("was written by a newer SpookLudo server (schema version 999") != std::string::npos, out);
}

TEST_CASE("database: a second server on a data directory in use is refused with a message that says so, exit 1, and the first carries on [history][process][journal]") {
    auto config = TestServer::fast_config();
    TestServer first(config);
    const auto [status, out] = run_server_on(config.data_dir);
    CHECK(status == 1);
    CHECK_MESSAGE(out.find("is in use by another process: is another SpookLudo server running on this data directory?") !=
                      std::string::npos,
                  out);
    Client ann(first.port());
    std::vector<std::string> ids = play_games(ann, "Ann", 1);
    CHECK(get_json(first.port(), "/games/" + ids[0])["result"]["status"] == "finished");
}

TEST_CASE("history: finished games are listed newest first, filtered by room, player, game and date, page by page [history][server]") {
    TestServer server;
    Client ann(server.port());
    std::string ann_room;
    const auto anns = play_games(ann, "Ann", 3, &ann_room);
    Client ben(server.port());
    std::string ben_room;
    const auto bens = play_games(ben, "Ben", 2, &ben_room);

    const json all = get_json(server.port(), "/games");
    CHECK(all["total"] == 5);
    REQUIRE(all["games"].size() == 5);
    CHECK(all["games"][0]["id"] == bens.back());  // newest first
    CHECK(all["games"][4]["id"] == anns.front());
    const json first = all["games"][4];
    CHECK(first["room"] == ann_room);
    CHECK(first["game"] == "spook");
    CHECK(first["status"] == "finished");
    CHECK(first["record"] == "/games/" + anns.front());
    REQUIRE(first["players"].size() == 2);
    CHECK(first["players"][0]["name"] == "Ann");
    CHECK(first["players"][1]["bot"] == true);

    CHECK(get_json(server.port(), "/games?room=" + ben_room)["total"] == 2);
    CHECK(get_json(server.port(), "/games?room=" + std::string(1, static_cast<char>(std::tolower(ann_room[0]))) +
                                      ann_room.substr(1))["total"] == 3);  // a code in lower case too
    CHECK(get_json(server.port(), "/games?player=ann")["total"] == 3);  // names: case-insensitive
    CHECK(get_json(server.port(), "/games?game=ludo")["total"] == 0);
    CHECK(get_json(server.port(), "/games?date=2001-01-01")["total"] == 0);
    CHECK(get_json(server.port(), "/games?since=2001-01-01")["total"] == 5);
    CHECK(get_json(server.port(), "/games?until=2001-01-01")["total"] == 0);
    CHECK(get_json(server.port(), "/games?date=2026-02-30", 400)["error"] == "date must be a day such as 2026-12-02 (UTC)");

    const json page2 = get_json(server.port(), "/games?per_page=2&page=2");
    CHECK(page2["pages"] == 3);
    CHECK(page2["page"] == 2);
    REQUIRE(page2["games"].size() == 2);
    CHECK(page2["games"][0]["id"] == anns[2]);
    CHECK(page2["games"][1]["id"] == anns[1]);
    CHECK(get_json(server.port(), "/games?per_page=2&page=9")["games"].empty());

    // Bad parameters say what is wrong.
    CHECK(get_json(server.port(), "/games?page=0", 400)["error"] == "page must be a whole number from 1 to 1000000");
    CHECK(get_json(server.port(), "/games?game=chess", 400)["error"] == "game must be spook or ludo");
    CHECK(get_json(server.port(), "/games?date=yesterday", 400)["error"] == "date must be a day such as 2026-12-02 (UTC)");
    CHECK(get_json(server.port(), "/games?colour=red", 400)["error"].get<std::string>().rfind("unknown parameter colour", 0) == 0);
}

TEST_CASE("history: a game's record is at /games/<id> and at /records/<id>, the same document [history][server]") {
    TestServer server;
    Client ann(server.port());
    const auto ids = play_games(ann, "Ann", 1);
    const auto [status, body] = http_get(server.port(), "/games/" + ids[0]);
    REQUIRE(status == 200);
    const auto [status2, body2] = http_get(server.port(), "/records/" + ids[0]);
    REQUIRE(status2 == 200);
    CHECK(json::parse(body) == json::parse(body2));
    CHECK(json::parse(body)["result"]["status"] == "finished");
    CHECK(http_get(server.port(), "/games/NOPE-1-abc").first == 404);
}

TEST_CASE("history: an older server's record files in the data directory are imported into the database once, and kept aside [history][records]") {
    std::string id;
    const fs::path files = fs::temp_directory_path() / ("spookludo-old-records-" + std::to_string(::getpid()));
    {
        auto config = TestServer::fast_config();
        config.export_records = files.string();
        TestServer older(config);
        Client ann(older.port());
        id = play_games(ann, "Ann", 1)[0];
    }
    REQUIRE(fs::exists(files / (id + ".json")));
    auto config = TestServer::fast_config();
    fs::create_directories(config.data_dir);
    fs::copy(files, fs::path(config.data_dir) / "records");  // as an older server left them
    fs::remove_all(files);
    TestServer server(config);
    const auto [status, body] = http_get(server.port(), "/records/" + id);
    REQUIRE(status == 200);
    CHECK(verify(parse_record(body)).ok);
    const json list = get_json(server.port(), "/games?player=Ann");
    REQUIRE(list["games"].size() == 1);
    CHECK(list["games"][0]["id"] == id);
    CHECK_FALSE(fs::exists(fs::path(config.data_dir) / "records"));
    CHECK(fs::exists(fs::path(config.data_dir) / "records.imported" / (id + ".json")));
}

TEST_CASE("history: record files in an export directory inside the data directory are imported at the first start only [history][records]") {
    std::string id;
    const fs::path files = fs::temp_directory_path() / ("spookludo-old-export-" + std::to_string(::getpid()));
    {
        auto config = TestServer::fast_config();
        config.export_records = files.string();
        TestServer older(config);
        Client ann(older.port());
        id = play_games(ann, "Ann", 1)[0];
    }
    auto config = TestServer::fast_config();
    config.export_records = config.data_dir + "/records";  // as the image and the demo do
    fs::create_directories(config.data_dir);
    fs::copy(files, config.export_records);
    fs::remove_all(files);
    {
        TestServer server(config);
        server.keep_data_dir();
        CHECK(http_get(server.port(), "/records/" + id).first == 200);
    }
    CHECK(fs::exists(fs::path(config.export_records) / (id + ".json")));  // the export stays where it is
    // A file that turns up there later is the export's business, not an older server's record.
    fs::copy_file(fs::path(config.export_records) / (id + ".json"), fs::path(config.export_records) / "LATER-1-a.json");
    TestServer again(config);
    CHECK(http_get(again.port(), "/records/" + id).first == 200);
    CHECK(http_get(again.port(), "/records/LATER-1-a").first == 404);
}

TEST_CASE("history: a player's page counts games, wins and places by game, and a name with SQL in it is just a name [history][server][security]") {
    TestServer server;
    Client ann(server.port());
    const auto ids = play_games(ann, "Ann", 3);
    const json ann_page = get_json(server.port(), "/players/Ann");
    CHECK(ann_page["games"] == 3);
    CHECK(ann_page["by_game"]["spook"]["games"] == 3);
    const int wins = ann_page["wins"];
    CHECK(ann_page["by_game"]["spook"]["places"]["1"] == wins);
    CHECK(ann_page["by_game"]["spook"]["places"]["2"] == 3 - wins);
    CHECK(get_json(server.port(), "/players/ANN")["games"] == 3);

    const std::string sly = "x'); DROP TABLE games;--";  // 24 characters: a valid name
    Client bobby(server.port());
    play_games(bobby, sly, 1);
    const std::string escaped = url_escaped(sly);
    const json page = get_json(server.port(), "/players/" + escaped);
    CHECK(page["name"] == sly);
    CHECK(page["games"] == 1);
    CHECK(get_json(server.port(), "/games?player=" + escaped)["total"] == 1);
    CHECK(get_json(server.port(), "/games")["total"] == 4);  // every table still there
    CHECK(get_json(server.port(), "/players/Nobody", 404)["error"] == "no game of a player named Nobody is kept");
    // Bytes that are not UTF-8 still get a JSON answer that says so.
    CHECK(get_json(server.port(), "/players/%FF", 404)["error"].get<std::string>().rfind("no game of a player named", 0) == 0);
}

TEST_CASE("history: over its bounds the database gives up the oldest game of the address holding the most, each class on its own [history][records]") {
    TempDir dir("db");
    db::Database d(dir.path / "spookludo.db");
    server::HistoryStore history(d, {.people_kept = 3, .bots_kept = 2});
    auto record = [](bool people) {
        GameRecord r;
        r.seats = {{0, people ? "Ann" : "best bot 2", !people, std::nullopt, std::nullopt}, {1, "best bot 1", true, PolicyKind::best, std::nullopt}};
        r.result.status = GameStatus::finished;
        r.result.places = {1, 2};
        r.result.winners = {0};
        return r;
    };
    // A flood from one address, and one household's games among them.
    history.add({record(true), "HOUSE-1-a", "10.0.0.1", "{}"});
    for (int i = 0; i < 5; ++i) history.add({record(true), "FLOOD-" + std::to_string(i) + "-a", "10.6.6.6", "{}"});
    for (int i = 0; i < 4; ++i) history.add({record(false), "BOTS-" + std::to_string(i) + "-a", "10.6.6.6", "{}"});
    CHECK(history.count(true) == 3);
    CHECK(history.count(false) == 2);
    CHECK(history.record("HOUSE-1-a"));   // the household's game stays
    CHECK_FALSE(history.record("FLOOD-0-a"));
    CHECK(history.record("FLOOD-4-a"));
    CHECK(history.record("BOTS-3-a"));
    CHECK_FALSE(history.record("BOTS-1-a"));
}

TEST_CASE("history: a game the database refused counts for nothing: the bound still keeps exactly its number of games, and a game kept again counts once [history][records]") {
    TempDir dir("db");
    db::Database d(dir.path / "spookludo.db");
    server::HistoryStore history(d, {.people_kept = 3, .bots_kept = 2});
    GameRecord r;
    r.seats = {{0, "Ann", false, std::nullopt, std::nullopt}, {1, "best bot 1", true, PolicyKind::best, std::nullopt}};
    r.result.status = GameStatus::finished;
    r.result.places = {1, 2};
    r.result.winners = {0};
    // The database refuses one game (its players' rows), after the game's own row went in.
    d.exec("CREATE TRIGGER refuse BEFORE INSERT ON game_players WHEN NEW.game_id = 'BAD-1-a' "
           "BEGIN SELECT RAISE(ABORT, 'refused'); END");
    history.add({r, "ANN-1-a", "10.0.0.1", "{}", 1000});
    history.add({r, "ANN-2-a", "10.0.0.1", "{}", 2000});
    CHECK_THROWS(history.add({r, "BAD-1-a", "10.0.0.1", "{}", 3000}));
    CHECK_FALSE(history.record("BAD-1-a"));
    // Kept again: the same game counts once.
    history.add({r, "ANN-2-a", "10.0.0.1", "{}", 2000});
    history.add({r, "BEN-1-a", "10.0.0.2", "{}", 4000});
    CHECK(history.count(true) == 3);
    CHECK(history.record("ANN-1-a"));  // nothing was given up: three games are kept
    // The fourth: 10.0.0.1 holds the most and gives up its oldest, but the database refuses that
    // once (the whole game's transaction goes back), then takes it.
    d.exec("CREATE TRIGGER keep BEFORE DELETE ON games WHEN OLD.id = 'ANN-1-a' BEGIN SELECT RAISE(ABORT, 'kept'); END");
    CHECK_THROWS(history.add({r, "CID-1-a", "10.0.0.3", "{}", 5000}));
    CHECK_FALSE(history.record("CID-1-a"));
    CHECK(history.count(true) == 3);
    d.exec("DROP TRIGGER keep");
    history.add({r, "CID-1-a", "10.0.0.3", "{}", 5000});
    CHECK(history.count(true) == 3);
    CHECK_FALSE(history.record("ANN-1-a"));
    CHECK(history.record("ANN-2-a"));
    CHECK(history.record("BEN-1-a"));
    CHECK(history.record("CID-1-a"));
    // A server started on this file counts what it holds.
    server::HistoryStore again(d, {.people_kept = 3, .bots_kept = 2});
    again.add({r, "DAN-1-a", "10.0.0.4", "{}", 6000});
    CHECK(again.count(true) == 3);
    CHECK_FALSE(again.record("ANN-2-a"));  // every address holds one: the oldest game goes
}

TEST_CASE("history: GET /games?player= and /players/<name> find a name in any case beyond ASCII: accents, Greek, Cyrillic [history][server]") {
    TestServer server;
    const std::map<std::string, std::vector<std::string>> asked = {
        {"Zoë 🎲", {"ZOË 🎲", "zoë 🎲", "Zoë 🎲"}},
        {"Émile", {"émile", "ÉMILE", "Émile"}},
        {"Σίσυφος", {"ΣΊΣΥΦΟΣ", "σίσυφοσ"}},
        {"Борис", {"БОРИС", "борис"}},
    };
    for (const auto& [name, _] : asked) {
        Client c(server.port());
        play_games(c, name, 1);
    }
    for (const auto& [name, spellings] : asked)
        for (const auto& spelling : spellings) {
            INFO(name, " asked as ", spelling);
            const json list = get_json(server.port(), "/games?player=" + url_escaped(spelling));
            CHECK(list["total"] == 1);
            if (list["games"].size() == 1) CHECK(list["games"][0]["players"][0]["name"] == name);
            CHECK(get_json(server.port(), "/players/" + url_escaped(spelling))["games"] == 1);
        }
    // Folding is not matching loosely: another name is another player.
    CHECK(get_json(server.port(), "/games?player=" + url_escaped("Emile"))["total"] == 0);
    CHECK(get_json(server.port(), "/games?player=" + url_escaped("Zoe 🎲"))["total"] == 0);
}

TEST_CASE("history: games kept by a server of the third schema are found in any case once migrated [history][server]") {
    auto config = TestServer::fast_config();
    fs::create_directories(config.data_dir);
    {
        // What the older server wrote: a game of Zoë's, and the history's tables of that schema.
        db::Database old(fs::path(config.data_dir) / "spookludo.db", db::migrations().first(3));
        old.exec("INSERT INTO games (id, room, game, status, ended_ms, length, people, owner, record) VALUES "
                 "('KQZTM-1764489600000-630dcd29', 'KQZTM', 'spook', 'finished', 1764489600000, 3, 1, '', '{}')");
        old.exec("INSERT INTO game_players (game_id, seat, name, bot, place, winner) VALUES "
                 "('KQZTM-1764489600000-630dcd29', 0, 'Zoë 🎲', 0, 1, 1), "
                 "('KQZTM-1764489600000-630dcd29', 1, 'best bot 1', 1, 2, 0)");
    }
    TestServer server(config);
    const json list = get_json(server.port(), "/games?player=" + url_escaped("ZOË 🎲"));
    CHECK(list["total"] == 1);
    CHECK(get_json(server.port(), "/players/" + url_escaped("zoë 🎲"))["games"] == 1);
    CHECK(get_json(server.port(), "/games?player=BEST%20BOT%201")["total"] == 1);
}
