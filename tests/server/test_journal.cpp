// The journal (issue #18): rooms and games that outlive the server. A server stops (as SIGTERM
// does) and another starts on the same data directory: lobbies keep their seats, games go on at
// the same step with the same dice, and wait for their players; over the real server on loopback.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "database.h"
#include "harness.h"
#include "journal.h"
#include "spookludo/record.h"
#include "spookludo/verify.h"

using namespace spookludo;
using namespace spookludo::testing;
namespace db = spookludo::server::db;

namespace {

json spook(int players) { return {{"game", "spook"}, {"players", players}, {"pieces", 2}}; }

// A server on `config`'s data directory that leaves it behind for the next one.
std::unique_ptr<TestServer> server_on(const server::Config& config) {
    auto s = std::make_unique<TestServer>(config);
    s->keep_data_dir();
    return s;
}

GameRecord record_of(std::uint16_t port, const json& over) {
    REQUIRE(over.contains("record"));
    const auto [status, text] = http_get(port, over["record"].get<std::string>());
    REQUIRE(status == 200);
    return parse_record(text);
}

// The game ended (finished) and its record, served by the server, verifies.
void check_finished_and_verifies(std::uint16_t port, const json& over) {
    CHECK(over["status"] == "finished");
    const VerifyReport report = verify(record_of(port, over));
    INFO(report.failure);
    CHECK(report.ok);
}

}  // namespace

TEST_CASE("journal: a lobby outlives a restart: same code, settings and seats, and each token takes its seat back [server][journal]") {
    auto config = TestServer::fast_config();
    std::string code, ann_token, ben_token;
    {
        auto first = server_on(config);
        Client ann(first->port()), ben(first->port());
        code = create_room(ann, spook(3), "Ann", json{{"decision_ms", 45000}});
        for (const auto& m : ann.log())
            if (m["type"] == "joined") ann_token = m["token"];
        ben.hello();
        ben.send({{"type", "join_room"}, {"room", code}, {"name", "Ben"}});
        ben_token = ben.expect("joined")["token"];
        ann.send({{"type", "add_bot"}});
        room_where(ann, [](const json& r) { return taken_seats(r).size() == 3; }, "three seats taken");
        first->shutdown();
        CHECK(ann.expect("closing")["code"] == "restart");
    }
    TestServer second_server(config);  // removes the data directory at the end
    TestServer* second = &second_server;
    Client ann(second->port()), ben(second->port()), eve(second->port());
    const json joined = resume(ann, code, ann_token);
    CHECK(joined["seat"] == 0);
    CHECK(joined["host"] == true);
    CHECK(joined["token"] == ann_token);
    const json room = ann.expect("room");
    CHECK(room["room"] == code);
    CHECK(room["state"] == "lobby");
    CHECK(room["settings"]["decision_ms"] == 45000);
    REQUIRE(taken_seats(room).size() == 3);
    CHECK(taken_seats(room)[1]["name"] == "Ben");
    CHECK(taken_seats(room)[1]["connected"] == false);  // not back yet: his seat waits for him
    CHECK(taken_seats(room)[2]["bot"] == true);
    CHECK(resume(ben, code, ben_token)["seat"] == 1);
    // A token is stored only as its hash: a made-up one takes nothing.
    eve.hello();
    eve.send({{"type", "resume"}, {"room", code}, {"token", std::string(32, 'a')}});
    CHECK(eve.expect("error")["code"] == "bad_token");
}

TEST_CASE("journal: a game taken up after a restart waits for its player, asks the same decision with the time it had left, shows the same dice, and ends with one record that verifies [server][journal]") {
    auto config = TestServer::fast_config();
    config.decision_ms = 60000;
    std::string code, token;
    json decision;
    std::vector<json> seen;  // Ann's rolls and moves before the restart
    {
        auto first = server_on(config);
        Client ann(first->port());
        code = create_room(ann, spook(2), "Ann", json{{"pace_ms", 0}});
        for (const auto& m : ann.log())
            if (m["type"] == "joined") token = m["token"];
        ann.send({{"type", "add_bot"}});
        ann.send({{"type", "start"}});
        ann.expect("commitment");
        ann.send({{"type", "client_seed"}, {"seed", "ann"}});
        // Two decisions answered, then the server stops in the third.
        for (int answered = 0;;) {
            const json m = *ann.read(10s);
            if (m["type"] == "roll" || m["type"] == "moves" || m["type"] == "activation") seen.push_back(m);
            REQUIRE(m["type"] != "game_over");
            if (m["type"] != "decision") continue;
            if (answered++ == 2) {
                decision = m;
                break;
            }
            ann.send({{"type", "choose"}, {"decision", m["decision"]}, {"piece", m["options"][0]["piece"]}});
        }
        std::this_thread::sleep_for(1s);
        first->shutdown();
    }
    TestServer second_server(config);  // removes the data directory at the end
    TestServer* second = &second_server;
    Client ann(second->port());
    CHECK(resume(ann, code, token)["seat"] == 0);
    const json paused = ann.expect("room");
    CHECK(paused["state"] == "playing");
    CHECK(paused["paused"] == true);
    CHECK(paused["pause_reason"] == "restart");
    // Ann was the one player to wait for: the game goes on, asking what it asked.
    const json again = ann.expect("decision");
    CHECK(again["decision"] == decision["decision"]);
    CHECK(again["options"] == decision["options"]);
    CHECK(again["time_left_ms"].get<int>() <= 59500);
    CHECK(again["time_left_ms"].get<int>() >= 50000);
    ann.send({{"type", "choose"}, {"decision", again["decision"]}, {"piece", again["options"][0]["piece"]}});
    // The decisions after the restart have ids of their own (a client may know the old ones).
    const json next = ann.expect("decision", 10s);
    CHECK(std::stoull(next["decision"].get<std::string>()) > std::stoull(again["decision"].get<std::string>()));
    ann.send({{"type", "choose"}, {"decision", next["decision"]}, {"piece", next["options"][0]["piece"]}});
    const json over = play_to_end(ann, 60s);
    CHECK(over["status"] == "finished");
    const GameRecord record = record_of(second->port(), over);
    const VerifyReport report = verify(record);
    INFO(report.failure);
    CHECK(report.ok);
    // The rolls Ann saw before the restart are the record's first movement draws.
    std::vector<int> rolls;
    for (const auto& m : seen)
        if (m["type"] == "roll") rolls.push_back(m["face"]);
    REQUIRE(rolls.size() >= 3);
    std::vector<int> recorded;
    for (const auto& d : record.draws)
        if (d.purpose == DrawPurpose::movement) recorded.push_back(static_cast<int>(d.value) + 1);
    REQUIRE(recorded.size() >= rolls.size());
    CHECK(std::vector<int>(recorded.begin(), recorded.begin() + static_cast<std::ptrdiff_t>(rolls.size())) == rolls);
    // Ann's two answers before the restart are in it, as hers.
    int by_player = 0;
    for (const auto& c : record.choices)
        if (c.seat == 0 && c.maker == ChoiceMaker::player) ++by_player;
    CHECK(by_player >= 3);
}

TEST_CASE("journal: after a restart the game waits for every player (paused, reason restart) until the host resumes it [server][journal]") {
    auto config = TestServer::fast_config();
    config.decision_ms = 60000;
    config.reconnect_ms = 60000;
    config.drop_grace_ms = 500;
    std::string code, ann_token;
    {
        auto first = server_on(config);
        Client ann(first->port()), ben(first->port());
        code = create_room(ann, spook(2), "Ann", json{{"pace_ms", 0}});
        ann_token = token_of(ann);
        ben.hello();
        ben.send({{"type", "join_room"}, {"room", code}, {"name", "Ben"}});
        ben.expect("joined");
        ann.send({{"type", "start"}});
        ann.expect("commitment");
        ben.expect("commitment");
        ann.send({{"type", "client_seed"}, {"seed", "ann"}});
        ben.send({{"type", "client_seed"}, {"seed", "ben"}});
        ann.expect("roll", 10s);  // the game is on (whoever has a choice to make first)
        first->shutdown();
    }
    TestServer second_server(config);
    Client ann(second_server.port());
    resume(ann, code, ann_token);
    const json paused = ann.expect("room");
    CHECK(paused["paused"] == true);
    CHECK(paused["pause_reason"] == "restart");
    CHECK(taken_seats(paused)[1]["status"] == "away");  // Ben is not back: the game waits
    ann.send({{"type", "resume_game"}});
    const json resumed = next_of(
        ann, [](const json& m) { return (m["type"] == "notice" && m["kind"] == "resumed") || m["type"] == "moves"; },
        "the host's resume");
    CHECK(resumed["type"] == "notice");  // nothing moved before it
    CHECK(resumed["text"] == "Ann resumed the game");
    // The game goes on; Ben's decisions are the server's once his drop grace is over.
    ann.send({{"type", "ping"}, {"t", 1}});
    const auto until = std::chrono::steady_clock::now() + 20s;
    bool moved = false;
    while (!moved && std::chrono::steady_clock::now() < until) {
        const json m = *ann.read(10s);
        if (m["type"] == "decision")
            ann.send({{"type", "choose"}, {"decision", m["decision"]}, {"piece", m["options"][0]["piece"]}});
        moved = m["type"] == "moves";
    }
    CHECK(moved);
}

TEST_CASE("journal: a database written by the first schema (the history alone) is migrated, keeps its games, and the server serves them [server][journal][history]") {
    auto config = TestServer::fast_config();
    std::filesystem::create_directories(config.data_dir);
    {
        db::Database old(std::filesystem::path(config.data_dir) / "spookludo.db", db::migrations().first(1));
        old.exec("INSERT INTO games (id, room, game, status, ended_ms, length, people, owner, record) VALUES "
                 "('ABCDE-1-00000000', 'ABCDE', 'spook', 'finished', 1000, 12, 1, '127.0.0.1', '{\"old\":true}')");
        CHECK(old.schema_version() == 1);
    }
    {
        TestServer server(config);
        server.keep_data_dir();
        const auto [status, body] = http_get(server.port(), "/games/ABCDE-1-00000000");
        CHECK(status == 200);
        CHECK(body.find("\"old\"") != std::string::npos);
    }
    // The server owns the file while it runs; once it has stopped, the file is at the newest schema.
    db::Database now(std::filesystem::path(config.data_dir) / "spookludo.db");
    CHECK(now.schema_version() == db::migrations().back().version);
    auto rooms = now.prepare("SELECT count(*) FROM rooms");
    REQUIRE(rooms.step());
    std::error_code ec;
    std::filesystem::remove_all(config.data_dir, ec);
}

namespace {

// Ann's game with a bot on `server`: answers her decisions until the room says the journal cannot
// take its writes (the notice, returned).
json play_until_journal_fails(Client& ann, const std::function<void()>& fault) {
    create_room(ann, spook(2), "Ann", json{{"pace_ms", 0}});
    ann.send({{"type", "add_bot"}});
    ann.send({{"type", "start"}});
    ann.expect("commitment");
    ann.send({{"type", "client_seed"}, {"seed", "ann"}});
    const json first = ann.expect("decision", 10s);
    fault();
    ann.send({{"type", "choose"}, {"decision", first["decision"]}, {"piece", first["options"][0]["piece"]}});
    const auto until = std::chrono::steady_clock::now() + 30s;
    while (std::chrono::steady_clock::now() < until) {
        auto m = ann.read(10s);
        REQUIRE(m.has_value());
        REQUIRE((*m)["type"] != "game_over");
        if ((*m)["type"] == "notice" && (*m)["kind"] == "journal") return *m;
        if ((*m)["type"] == "decision")
            ann.send({{"type", "choose"}, {"decision", (*m)["decision"]}, {"piece", (*m)["options"][0]["piece"]}});
    }
    FAIL("the room never said its journal failed");
    return {};
}

}  // namespace

TEST_CASE("journal: a full disk pauses the room with the reason, /healthz says degraded, and when space is freed the game goes on by itself and its record verifies [server][journal][faults]") {
    TestMount disk(true, "24m");
    if (!disk.mounted) {
        MESSAGE("skipped: mounting a tmpfs needs root");
        return;
    }
    auto config = TestServer::fast_config();
    config.data_dir = (disk.path / "data").string();
    config.decision_ms = 60000;
    TestServer server(config);
    Client ann(server.port());
    const json notice = play_until_journal_fails(ann, [&] { disk.fill(); });
    CHECK(notice["text"].get<std::string>().find("cannot save this room") != std::string::npos);
    CHECK(notice["text"].get<std::string>().find("full") != std::string::npos);  // SQLite: "database or disk is full"
    const auto [status, health] = http_get(server.port(), "/healthz");
    CHECK(status == 503);
    CHECK(health.find("degraded") != std::string::npos);
    const std::string metrics = http_get(server.port(), "/metrics").second;
    CHECK(metrics.find("spookludo_journal_paused_rooms 1") != std::string::npos);
    // Nothing changes meanwhile, and the room says why.
    ann.send({{"type", "pause"}});
    const json refused = next_of(ann, [](const json& m) { return m["type"] == "error"; }, "the refusal");
    CHECK(refused["code"] == "unavailable");

    disk.free_space();
    const json back = notice_of(ann, "journal", 10s);
    CHECK(back["text"].get<std::string>().find("can save this room again") != std::string::npos);
    check_finished_and_verifies(server.port(), play_to_end(ann, 60s));
    CHECK(http_get(server.port(), "/healthz").first == 200);
}

TEST_CASE("journal: a data directory the kernel turns read-only mid-game pauses the room with the reason, and a server started on a copy of it finishes the game [server][journal][faults]") {
    TestMount disk(false, "32M");
    if (!disk.mounted) {
        MESSAGE("skipped: mounting an ext4 image needs root and a loop device");
        return;
    }
    auto config = TestServer::fast_config();
    config.data_dir = (disk.path / "data").string();
    config.decision_ms = 60000;
    std::string code, token;
    {
        auto first = server_on(config);
        Client ann(first->port());
        const json notice = play_until_journal_fails(ann, [&] { REQUIRE(disk.turn_read_only()); });
        CHECK(notice["text"].get<std::string>().find("cannot save this room") != std::string::npos);
        CHECK(http_get(first->port(), "/healthz").first == 503);
        for (const auto& m : ann.log())
            if (m["type"] == "joined") code = m["room"];
        token = token_of(ann);
    }
    // The disk is replaced: its data directory, copied as it was, goes on elsewhere.
    auto copy = TestServer::fast_config();
    copy.decision_ms = 60000;
    std::filesystem::copy(config.data_dir, copy.data_dir, std::filesystem::copy_options::recursive);
    TestServer second(copy);
    Client ann(second.port());
    resume(ann, code, token);
    check_finished_and_verifies(second.port(), play_to_end(ann, 60s));
}

TEST_CASE("journal: several rooms' writes in one transaction go in together or not at all, every room's count as it was [journal]") {
    using server::Journal;
    using server::JournalOp;
    TempDir dir("journal-group");
    db::Database d(dir.path / "spookludo.db");
    Journal journal(d, nullptr);
    const std::string ann = "ANNAA", ben = "BENBB";
    std::int64_t ann_seq = 1, ben_seq = 1;
    const std::vector<JournalOp> state{
        {JournalOp::Kind::room, {}, "{}"}, {JournalOp::Kind::game, {}, "{}"}, {JournalOp::Kind::event, "seed", "{}"}};
    const std::vector<JournalOp> step{{JournalOp::Kind::event, "advance", "{}"}};
    const std::vector<Journal::RoomWrite> both{{ann, 0, state, ann_seq}, {ben, 0, state, ben_seq}};
    journal.write(both);
    CHECK(ann_seq == 2);
    CHECK(ben_seq == 2);
    // Ben's next event is refused (a trigger stands for a failing disk): the whole group fails.
    d.exec("CREATE TRIGGER refuse BEFORE INSERT ON journal_events WHEN NEW.code = 'BENBB' "
           "BEGIN SELECT RAISE(ABORT, 'refused'); END");
    const std::vector<Journal::RoomWrite> clash{{ann, 0, step, ann_seq}, {ben, 0, step, ben_seq}};
    CHECK_THROWS_AS(journal.write(clash), db::Error);
    CHECK(ann_seq == 2);
    CHECK(ben_seq == 2);
    const auto rooms = journal.load();
    REQUIRE(rooms.size() == 2);
    for (const auto& r : rooms) CHECK(r.events.size() == 1);  // Ann's step went back with Ben's
    d.exec("DROP TRIGGER refuse");
    const std::vector<Journal::RoomWrite> fine{{ann, 0, step, ann_seq}, {ben, 0, step, ben_seq}};
    journal.write(fine);
    CHECK(ann_seq == 3);
    for (const auto& r : journal.load()) CHECK(r.events.size() == 2);
}

namespace {

// A writer over a fresh database, its transactions and passes counted.
struct WriterFixture {
    TempDir dir{"journal-writer"};
    db::Database d{dir.path / "spookludo.db"};
    server::Journal journal{d, nullptr};
    std::atomic<long> transactions{0}, passes{0}, failures{0};
    std::mutex m;
    std::vector<std::pair<std::string, std::optional<std::string>>> answers;  // room, error
    std::vector<std::vector<server::JournalOp>> given_back;                    // each answer's ops
    server::JournalWriter writer{journal, std::chrono::milliseconds(50), 512,
                                 server::JournalWriter::Counters{.written =
                                                                     [this](std::size_t t, std::size_t n) {
                                                                         transactions += static_cast<long>(t);
                                                                         passes += static_cast<long>(n);
                                                                     },
                                                                 .failed = [this](std::size_t) { ++failures; }}};
    ~WriterFixture() { writer.stop(); }
    void exec(const std::string& sql) {
        std::lock_guard lock(d.mutex());
        d.exec(sql);
    }
    void submit(const std::shared_ptr<server::JournalWriter::Stream>& s, std::vector<server::JournalOp> ops,
                bool retry = false) {
        writer.submit(s, std::move(ops), retry, [this, code = s->code](server::JournalWriter::Answer a) {
            std::lock_guard lock(m);
            answers.emplace_back(code, a.error);
            given_back.push_back(std::move(a.ops));
        });
    }
    std::size_t answered() {
        std::lock_guard lock(m);
        return answers.size();
    }
    void wait_for(std::size_t n) {
        for (int i = 0; i < 500 && answered() < n; ++i) std::this_thread::sleep_for(10ms);
        REQUIRE(answered() == n);
    }
};

std::vector<server::JournalOp> begin_game() {
    return {{server::JournalOp::Kind::room, {}, "{}"}, {server::JournalOp::Kind::game, {}, "{}"},
            {server::JournalOp::Kind::event, "seed", "{}"}};
}
std::vector<server::JournalOp> step(const std::string& text = "{}") {
    return {{server::JournalOp::Kind::event, "advance", text}};
}

}  // namespace

TEST_CASE("journal: group commit: the steps of many rooms share a transaction, each room's in its order [journal]") {
    WriterFixture f;
    std::vector<std::shared_ptr<server::JournalWriter::Stream>> rooms;
    for (int i = 0; i < 40; ++i) rooms.push_back(std::make_shared<server::JournalWriter::Stream>(std::to_string(1000 + i), 0));
    for (auto& r : rooms) f.submit(r, begin_game());
    for (int k = 0; k < 3; ++k)
        for (auto& r : rooms) f.submit(r, step(r->code + "/" + std::to_string(k)));
    f.wait_for(160);
    CHECK(f.passes == 160);
    CHECK(f.transactions < 20);  // 160 steps in a few transactions, not 160
    f.writer.stop();
    const auto saved = f.journal.load();
    REQUIRE(saved.size() == 40);
    for (const auto& r : saved) {
        REQUIRE(r.events.size() == 4);
        for (std::size_t i = 0; i < r.events.size(); ++i) CHECK(r.events[i].seq == static_cast<std::int64_t>(i + 1));
        CHECK(r.events[0].kind == "seed");
        for (std::size_t k = 0; k < 3; ++k) CHECK(r.events[k + 1].text == r.code + "/" + std::to_string(k));
    }
}

TEST_CASE("journal: group commit: a room whose write fails does not hold up the others, and its later steps come back untried until it retries [journal]") {
    WriterFixture f;
    auto ann = std::make_shared<server::JournalWriter::Stream>("ANNAA", 0);
    auto ben = std::make_shared<server::JournalWriter::Stream>("BENBB", 0);
    f.submit(ann, begin_game());
    f.submit(ben, begin_game());
    f.wait_for(2);
    f.exec("CREATE TRIGGER refuse BEFORE INSERT ON journal_events WHEN NEW.code = 'BENBB' "
           "BEGIN SELECT RAISE(ABORT, 'refused'); END");
    f.submit(ben, step("ben 1"));
    f.submit(ann, step("ann 1"));
    f.wait_for(4);
    f.submit(ben, step("ben 2"));  // after the failure: given back untried
    f.wait_for(5);
    std::vector<server::JournalOp> back;
    {
        std::lock_guard lock(f.m);
        for (std::size_t i = 2; i < 5; ++i) {
            INFO(i);
            CHECK(f.answers[i].second.has_value() == (f.answers[i].first == "BENBB"));
            if (f.answers[i].first == "BENBB")
                for (auto& op : f.given_back[i]) back.push_back(op);
        }
        CHECK(f.answers[4].second == std::optional<std::string>("refused"));  // the first failure's reason
    }
    REQUIRE(back.size() == 2);  // Ben's two steps, given back in order
    CHECK(back[0].text == "ben 1");
    CHECK(back[1].text == "ben 2");
    CHECK(f.failures >= 1);
    f.exec("DROP TRIGGER refuse");
    f.submit(ben, back, true);  // the retry: what came back, in order
    f.wait_for(6);
    {
        std::lock_guard lock(f.m);
        CHECK_FALSE(f.answers[5].second.has_value());
    }
    f.writer.stop();
    for (const auto& r : f.journal.load()) {
        REQUIRE(r.events.size() == (r.code == "ANNAA" ? 2u : 3u));
        if (r.code == "BENBB") {
            CHECK(r.events[1].text == "ben 1");
            CHECK(r.events[2].text == "ben 2");
            CHECK(r.events[2].seq == 3);
        }
    }
}

TEST_CASE("journal: at the burst's end: a small burst is written by the loop's thread, a big one by the writer's, and a room's answers keep its order whoever wrote them [journal]") {
    WriterFixture f;
    // The event loop, by hand: posted tasks wait here until the test runs them, in order.
    std::mutex qm;
    std::vector<std::function<void()>> tasks;
    auto queued = [&] {
        std::lock_guard lock(qm);
        return tasks.size();
    };
    auto run_tasks = [&] {
        for (;;) {
            std::function<void()> t;
            {
                std::lock_guard lock(qm);
                if (tasks.empty()) return;
                t = std::move(tasks.front());
                tasks.erase(tasks.begin());
            }
            t();
        }
    };
    f.writer.run_on([&](std::function<void()> t) {
        std::lock_guard lock(qm);
        tasks.push_back(std::move(t));
    }, true, true);
    const auto loop_thread = std::this_thread::get_id();
    std::vector<std::thread::id> answered_on;
    std::vector<std::string> xs;  // room X's answers, in the order they came
    auto submit_x = [&](const std::shared_ptr<server::JournalWriter::Stream>& x, std::vector<server::JournalOp> ops,
                        std::string name) {
        f.writer.submit(x, std::move(ops), false, [&, name](server::JournalWriter::Answer a) {
            std::lock_guard lock(f.m);
            CHECK_FALSE(a.error.has_value());
            xs.push_back(name);
            answered_on.push_back(std::this_thread::get_id());
        });
    };

    // A small burst: written when the loop runs the flush, answered there at once.
    auto x = std::make_shared<server::JournalWriter::Stream>("XXXXX", 0);
    submit_x(x, begin_game(), "begin");
    CHECK(queued() == 1);  // one flush for the burst
    run_tasks();
    REQUIRE(xs.size() == 1);
    CHECK(answered_on[0] == loop_thread);
    CHECK(f.transactions == 1);

    // A big burst (over 64 passes), one of them slow to write: the writer's thread takes it.
    // Room X's next pass comes while it is being written, and its flush runs before the big
    // burst's answers: X still hears of its passes in the order it made them.
    f.exec("CREATE TRIGGER slow BEFORE INSERT ON journal_events WHEN NEW.code = 'SLOWW' AND "
           "(WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 2000000) SELECT count(*) FROM c) < 0 "
           "BEGIN SELECT RAISE(ABORT, 'never'); END");
    std::vector<std::shared_ptr<server::JournalWriter::Stream>> rooms;
    rooms.push_back(std::make_shared<server::JournalWriter::Stream>("SLOWW", 0));
    for (int i = 0; i < 70; ++i) rooms.push_back(std::make_shared<server::JournalWriter::Stream>(std::to_string(2000 + i), 0));
    submit_x(x, step("a"), "a");
    for (auto& r : rooms) f.submit(r, begin_game());
    run_tasks();  // the flush hands the 72 passes to the writer's thread
    submit_x(x, step("b"), "b");  // while they are written
    for (int i = 0; i < 1000 && queued() < 2; ++i) std::this_thread::sleep_for(10ms);
    REQUIRE(queued() == 2);  // b's flush, then the big burst's answers
    run_tasks();
    {
        std::lock_guard lock(f.m);
        CHECK(f.answers.size() == 71);
    }
    REQUIRE(xs == std::vector<std::string>{"begin", "a", "b"});
    for (auto id : answered_on) CHECK(id == loop_thread);  // every answer on the loop's thread
    f.writer.stop();
    for (const auto& r : f.journal.load())
        if (r.code == "XXXXX") {
            REQUIRE(r.events.size() == 3);
            CHECK(r.events[1].text == "a");
            CHECK(r.events[2].text == "b");
        }
}

TEST_CASE("journal: finished games' events are deleted, a long game's kept: the table stays near the live events [journal]") {
    TempDir dir("journal-tidy");
    db::Database d(dir.path / "spookludo.db");
    server::Journal journal(d, nullptr);
    using server::JournalOp;
    // A game that goes on the whole time (paused for hours, say), begun first.
    std::int64_t long_seq = 1;
    journal.write("LONGG", 0, begin_game(), long_seq);
    // 300 games of 400 events each in another room, one after the other, and a step of the long
    // game now and then.
    std::int64_t seq = 1;
    for (int g = 0; g < 300; ++g) {
        journal.write("SHORT", 0, begin_game(), seq);
        std::vector<JournalOp> events(399, {JournalOp::Kind::event, "advance", std::string(60, 'x')});
        journal.write("SHORT", 0, events, seq);
        journal.write("SHORT", 0, {{JournalOp::Kind::game_over, {}, {}}}, seq);
        if (g % 50 == 0) journal.write("LONGG", 0, step(), long_seq);
    }
    auto count = d.prepare("SELECT count(*) FROM journal_events");
    REQUIRE(count.step());
    INFO("rows: " << count.int64(0));
    CHECK(count.int64(0) < 60000);  // 120,000 written, the dead swept (a bound, not all at once)
    const auto saved = journal.load();
    REQUIRE(saved.size() == 2);
    for (const auto& r : saved)
        if (r.code == "LONGG") CHECK(r.events.size() == 7);
        else CHECK(r.events.empty());
    // A new start reads the same.
    server::Journal again(d, nullptr);
    for (const auto& r : again.load())
        if (r.code == "LONGG") CHECK(r.events.size() == 7);
}

TEST_CASE("journal: transactions larger than the sweep's step still leave the table bounded, and without a long game it stays small [journal]") {
    TempDir dir("journal-tidy-big");
    db::Database d(dir.path / "spookludo.db");
    server::Journal journal(d, nullptr);
    using server::JournalOp;
    auto rows = [&] {
        auto c = d.prepare("SELECT count(*) FROM journal_events");
        c.step();
        return c.int64(0);
    };
    std::int64_t long_seq = 1;
    journal.write("LONGG", 0, begin_game(), long_seq);
    // 40 rooms a transaction, each ending a game of 60 events and starting the next: 2,400 events
    // a transaction, more than the sweep's 2,048 a step.
    std::vector<std::string> codes;
    for (int i = 0; i < 40; ++i) codes.push_back(std::to_string(10000 + i));
    std::vector<std::int64_t> seqs(40, 1);
    std::vector<JournalOp> game = begin_game();
    for (int k = 0; k < 59; ++k) game.push_back({JournalOp::Kind::event, "advance", std::string(40, 'x')});
    game.push_back({JournalOp::Kind::game_over, {}, {}});
    std::int64_t most = 0;
    for (int t = 0; t < 200; ++t) {
        std::vector<server::Journal::RoomWrite> writes;
        for (int i = 0; i < 40; ++i) writes.push_back({codes[i], 0, game, seqs[i]});
        journal.write(writes);
        most = std::max(most, rows());
    }
    INFO("most rows: " << most);
    CHECK(most < 120000);  // 480,000 written
    // The long game ends: what it held back goes, a range at a time.
    journal.write("LONGG", 0, {{JournalOp::Kind::game_over, {}, {}}}, long_seq);
    for (int t = 0; t < 100; ++t) {
        std::vector<server::Journal::RoomWrite> writes;
        for (int i = 0; i < 40; ++i) writes.push_back({codes[i], 0, game, seqs[i]});
        journal.write(writes);
    }
    CHECK(rows() < 10000);
    for (const auto& r : journal.load()) CHECK(r.events.empty());
}

TEST_CASE("journal: a database of the second schema with a game in progress is migrated and its events load in order [journal]") {
    TempDir dir("journal-v2");
    const auto file = dir.path / "spookludo.db";
    {
        db::Database old(file, db::migrations().first(2));
        old.exec("INSERT INTO rooms (code, created_ms, state) VALUES ('ANNAA', 5, '{}')");
        old.exec("INSERT INTO room_games (code, game) VALUES ('ANNAA', '{\"id\":\"g\"}')");
        old.exec("INSERT INTO room_events (code, seq, kind, data) VALUES ('ANNAA', 2, 'advance', '{}'), "
                 "('ANNAA', 1, 'seed', '{}'), ('ANNAA', 3, 'choice', '{}')");
        CHECK(old.schema_version() == 2);
    }
    db::Database d(file);
    CHECK(d.schema_version() == db::migrations().back().version);
    server::Journal journal(d, nullptr);
    const auto saved = journal.load();
    REQUIRE(saved.size() == 1);
    REQUIRE(saved[0].events.size() == 3);
    CHECK(saved[0].events[0].kind == "seed");
    CHECK(saved[0].events[2].seq == 3);
    // The game goes on: its next event after them.
    std::int64_t seq = 4;
    journal.write("ANNAA", 5, step(), seq);
    CHECK(journal.load()[0].events.size() == 4);
}

TEST_CASE("journal: a room the engine cannot take up again is not dropped in silence: its record up to the last step the engine agrees with verifies, ended as abandoned, its player is told room_lost, and /metrics counts it [server][journal]") {
    auto config = TestServer::fast_config();
    config.decision_ms = 60000;
    std::string code, token;
    std::vector<int> faces;  // the throws Ann saw
    {
        auto first = server_on(config);
        Client ann(first->port());
        code = create_room(ann, json{{"game", "ludo"}, {"players", 2}}, "Ann", json{{"pace_ms", 0}});
        token = token_of(ann);
        ann.send({{"type", "add_bot"}, {"policy", "random"}});
        ann.send({{"type", "start"}});
        ann.expect("commitment");
        ann.send({{"type", "client_seed"}, {"seed", "ann"}});
        for (int answered = 0; answered < 4;) {
            const json m = *ann.read(10s);
            REQUIRE(m["type"] != "game_over");
            if (m["type"] == "throw") faces.push_back(m["face"]);
            if (m["type"] != "decision") continue;
            ++answered;
            if (answered < 4) ann.send({{"type", "choose"}, {"decision", m["decision"]}, {"piece", m["options"][0]["piece"]}});
        }
        first->shutdown();
    }
    // The journal's last step no longer shows what the engine shows (as after a change of the
    // rules under a game): every step before it is still the engine's.
    std::int64_t damaged = 0;
    {
        db::Database d(std::filesystem::path(config.data_dir) / "spookludo.db");
        // The last row with a step (a pass's row holds several events: [["advance",{...}],...]).
        auto last = d.prepare(
            "SELECT id, kind, data FROM journal_events WHERE kind = 'advance' OR (kind = 'pass' AND data LIKE '%[\"advance\",%') "
            "ORDER BY id DESC LIMIT 1");
        REQUIRE(last.step());
        damaged = last.int64(0);
        json data = json::parse(last.text(2));
        json* step = &data;
        if (last.text(1) == "pass")
            for (auto& e : data)
                if (e[0] == "advance") step = &e[1];
        REQUIRE(step->contains("shown"));
        (*step)["shown"] = "0123456789abcdef";
        const std::string text = data.dump();
        auto upd = d.prepare("UPDATE journal_events SET data = ?1 WHERE id = ?2");
        upd.bind(1, std::string_view(text)).bind(2, damaged).run();
    }
    TestServer second(config);
    // The player is told the truth when they come back, with where the record is.
    Client ann(second.port());
    ann.hello();
    ann.send({{"type", "resume"}, {"room", code}, {"token", token}});
    const json err = ann.expect("error");
    CHECK(err["code"] == "room_lost");
    CHECK(err["ref"] == "resume");
    const std::string told = err["message"];
    CHECK(told.find("was lost when the server restarted") != std::string::npos);
    const auto at = told.find("/records/");
    REQUIRE(at != std::string::npos);
    std::string path = told.substr(at);
    path = path.substr(0, path.find_first_of(". "));
    // Its record: every throw Ann saw but the damaged last one, ended as abandoned, and it verifies.
    const auto [status, text] = http_get(second.port(), path);
    REQUIRE(status == 200);
    const GameRecord record = parse_record(text);
    CHECK(record.result.status == GameStatus::abandoned);
    const VerifyReport report = verify(record);
    INFO(report.failure);
    CHECK(report.ok);
    std::vector<int> recorded;
    for (const auto& d : record.draws)
        if (d.purpose == DrawPurpose::throw_) recorded.push_back(static_cast<int>(d.value) + 1);
    REQUIRE(faces.size() >= 2);
    CHECK(recorded.size() == faces.size() - 1);
    CHECK(std::equal(recorded.begin(), recorded.end(), faces.begin()));
    // Counted, and the room is gone from the journal (the next start does not try again).
    const auto [mstatus, metrics] = http_get(second.port(), "/metrics");
    CHECK(metrics.find("spookludo_rooms_lost_total 1") != std::string::npos);
    Client bea(second.port());
    bea.hello();
    bea.send({{"type", "join_room"}, {"room", code}, {"name", "Bea"}});
    CHECK(bea.expect("error")["code"] == "room_lost");
}
