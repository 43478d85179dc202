// The room's write-ahead journal (server/rooms/room_journal.h) as a part of its own: its owner
// here is the test, the store is the server's real journal (SQLite in a temporary folder) behind
// a switch that makes it fail or answer as a cluster's store does for a room another node has
// taken. The retry's second is turned by hand (RoomClock::Manual).
#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "config.h"
#include "room_clock.h"
#include "room_journal.h"
#include "services.h"
#include "test_peer.h"

namespace spookludo::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using server::JournalStore;
using server::RoomClock;

// The server's journal, or a failure (a full disk), or a fence, as the test says.
class Switch final : public JournalStore {
public:
    explicit Switch(JournalStore& real) : real_(real) {}
    std::vector<Result> store(std::span<const server::RoomWrite> rooms, std::size_t& transactions) override {
        if (!failing && !fenced) return real_.store(rooms, transactions);
        std::vector<Result> r(rooms.size());
        for (auto& one : r) {
            one.error = fenced ? "FENCED: the room is another node's" : *failing;
            one.fenced = fenced;
        }
        return r;
    }
    std::optional<std::string> failing;
    bool fenced = false;

private:
    JournalStore& real_;
};

// The room, as far as its journal knows it: a state to keep, and what the journal told it.
class Owner final : public server::RoomJournal::Owner {
public:
    explicit Owner(boost::asio::io_context& io) : io_(io) {}
    json durable_state() const override { return {{"seats", seats}}; }
    std::uint64_t decision_counter() const override { return 7; }
    void journal_failing(const std::string& why) override { told.push_back("failing: " + why); }
    void journal_back() override { told.push_back("back"); }
    void journal_fenced(const std::string& why) override { told.push_back("fenced: " + why); }
    void journal_answered() override {
        ++answers;
        log.push_back(journal->fault() ? "failed" : "written");  // how each answer left the journal
    }
    void on_room_strand(std::function<void()> work) override {
        boost::asio::post(io_, [this, work = std::move(work)] {
            work();
            journal->end_pass();  // a pass of its own, as the room's guarded() ends it
        });
    }
    std::shared_ptr<void> keep_alive() override { return alive; }

    int seats = 1;
    std::vector<std::string> told;
    int answers = 0;
    std::vector<std::string> log;
    server::RoomJournal* journal = nullptr;
    std::shared_ptr<int> alive = std::make_shared<int>(0);

private:
    boost::asio::io_context& io_;
};

class Fixture {
public:
    Fixture() {
        server::Config c;
        c.threads = 1;
        c.data_dir = dir_.path;
        spdlog::set_level(spdlog::level::off);
        services_ = std::make_unique<server::Services>(c);
        store_ = std::make_unique<Switch>(*services_->journal);
        // The server's writer, over the switch (answers on its own thread; the owner posts them here).
        services_->journal_writer = std::make_unique<server::JournalWriter>(*store_, 0ms, 512, server::JournalWriter::Counters{});
        journal_ = std::make_unique<server::RoomJournal>(owner_, *services_, code_, 1000, io_.get_executor());
        owner_.journal = journal_.get();
    }
    ~Fixture() {
        services_->journal_writer->stop();
        journal_.reset();
        services_->journal_writer.reset();  // before the switch it writes through
    }
    server::RoomJournal& journal() { return *journal_; }
    Owner& owner() { return owner_; }
    Switch& store() { return *store_; }
    // Runs what is ready until `done`, the writer's answers included (at most 10 s of real time).
    bool until(const std::function<bool()>& done) {
        const auto limit = std::chrono::steady_clock::now() + 10s;
        while (!done()) {
            if (std::chrono::steady_clock::now() > limit) return false;
            io_.restart();
            io_.run_for(5ms);
        }
        return true;
    }
    // Turns the hand-turned clock by `d` and runs the timers it brought due.
    void pass(RoomClock::duration d) {
        clock_.advance(d);
        run_due(io_);
    }
    // What the journal holds of the room: its events' kinds and texts, and its state.
    server::SavedRoom saved() {
        for (auto& r : services_->journal->load())
            if (r.code == code_) return r;
        return {};
    }

private:
    TempDataDir dir_;
    RoomClock::Manual clock_;
    boost::asio::io_context io_;
    Owner owner_{io_};
    std::unique_ptr<server::Services> services_;
    std::unique_ptr<Switch> store_;
    std::string code_ = "JRNL1";
    std::unique_ptr<server::RoomJournal> journal_;
};

std::shared_ptr<const std::string> text(int n) {
    return std::make_shared<const std::string>(json{{"type", "line"}, {"n", n}}.dump());
}
std::vector<int> lines(const TestPeer& p) {
    std::vector<int> v;
    for (const auto& m : p.inbox) v.push_back(m.at("n").get<int>());
    return v;
}
// The events as written, one a line; a row holding several of them ("pass": the events of passes
// written together, RoomJournal::merge_events) gives each.
std::vector<std::string> events(const server::SavedRoom& r) {
    std::vector<std::string> v;
    for (const auto& e : r.events) {
        if (e.kind != server::RoomJournal::kPassKind) {
            v.push_back(e.kind + " " + e.text);
            continue;
        }
        for (const auto& one : json::parse(e.text)) v.push_back(one[0].get<std::string>() + " " + one[1].dump());
    }
    return v;
}

TEST_CASE("room parts: the journal lets a pass's messages go only once its writes are stored, holds every pass while the store fails and writes them in order on a retry a second later, and sends nothing it held once another node has the room [rooms][journal]") {
    Fixture f;
    auto& j = f.journal();
    auto ann = std::make_shared<TestPeer>(1, "127.0.0.1");

    // A pass: the game, an event of it, the room's state, a message. The message waits for the store.
    j.game({{"id", "JRNL1-1"}});
    j.event("advance", {{"die", 3}});
    j.changed();
    j.send(ann, text(1));
    j.end_pass();
    CHECK(ann->inbox.empty());
    CHECK_FALSE(j.all_written());
    REQUIRE(f.until([&] { return !ann->inbox.empty(); }));
    CHECK(lines(*ann) == std::vector<int>{1});
    CHECK(j.all_written());
    const auto first = f.saved();
    CHECK(events(first) == std::vector<std::string>{R"(advance {"die":3})"});
    CHECK(json::parse(first.state) == json{{"seats", 1}, {"decisions", 7}});
    CHECK(json::parse(*first.game) == json{{"id", "JRNL1-1"}});

    // A pass that writes nothing sends at once.
    j.send(ann, text(2));
    j.end_pass();
    CHECK(lines(*ann) == std::vector<int>{1, 2});

    SUBCASE("a store that fails holds everything, and a retry writes it in order") {
        f.store().failing = "disk full";
        j.event("advance", {{"die", 5}});
        j.send(ann, text(3));
        j.end_pass();
        REQUIRE(f.until([&] { return j.fault().has_value(); }));
        CHECK(*j.fault() == "disk full");
        CHECK(f.owner().told == std::vector<std::string>{"failing: disk full"});
        // Passes meanwhile are held, in order, the state's change among them.
        f.owner().seats = 2;
        j.changed();
        j.event("choice", {{"piece", 1}});
        j.send(ann, text(4));
        j.end_pass();
        j.send(ann, text(5));  // a pass that writes nothing waits behind them too
        j.end_pass();
        // A second later the retry fails again: nothing goes out, nothing is lost.
        const int answered = f.owner().answers;
        f.pass(1s);
        REQUIRE(f.until([&] { return f.owner().answers > answered; }));
        CHECK(f.owner().log.back() == "failed");
        CHECK(lines(*ann) == std::vector<int>{1, 2});
        CHECK(f.owner().told.size() == 1);  // said once
        // The store works again: the next retry writes every held pass, in order, and they go.
        f.store().failing.reset();
        f.pass(1s);
        REQUIRE(f.until([&] { return ann->inbox.size() == 5; }));
        CHECK(lines(*ann) == std::vector<int>{1, 2, 3, 4, 5});
        CHECK(f.owner().told == std::vector<std::string>{"failing: disk full", "back"});
        CHECK_FALSE(j.fault());
        CHECK(j.all_written());
        const auto after = f.saved();
        CHECK(events(after) == std::vector<std::string>{R"(advance {"die":3})", R"(advance {"die":5})",
                                                        R"(choice {"piece":1})"});
        CHECK(json::parse(after.state).at("seats") == 2);
    }

    SUBCASE("a room another node has sends nothing it held, and writes nothing more") {
        f.store().fenced = true;
        j.event("advance", {{"die", 6}});
        j.send(ann, text(3));
        j.end_pass();
        REQUIRE(f.until([&] { return j.stopped(); }));
        CHECK(f.owner().told == std::vector<std::string>{"fenced: FENCED: the room is another node's"});
        j.send(ann, text(4));
        j.end_pass();
        f.pass(2s);
        CHECK(lines(*ann) == std::vector<int>{1, 2});
        CHECK(events(f.saved()) == std::vector<std::string>{R"(advance {"die":3})"});
    }

    SUBCASE("the server's stop waits for every pass's answer, then says it is done") {
        j.event("advance", {{"die", 2}});
        j.send(ann, text(3));
        j.end_pass();
        bool done = false;
        j.stop([&] { done = true; });
        CHECK_FALSE(done);  // the pass is with the writer
        REQUIRE(f.until([&] { return done; }));
        CHECK(lines(*ann) == std::vector<int>{1, 2, 3});  // what was written went out first
        j.send(ann, text(4));  // nothing after the stop
        j.end_pass();
        CHECK(lines(*ann) == std::vector<int>{1, 2, 3});
    }
}

TEST_CASE("room parts: a pass's events go into the journal as one row, in their order, and are read back as they were made [rooms][journal]") {
    Fixture f;
    auto& j = f.journal();
    auto ann = std::make_shared<TestPeer>(1, "127.0.0.1");
    j.game({{"id", "JRNL1-1"}});
    j.changed();  // the room's row (a room the journal holds has one)
    // The answer that completes a round: its choice, the step's resolution, the next step, its asks.
    j.event("choice", {{"piece", 1}, {"player", 2}});
    j.event("resolve", {{"shown", "0123456789abcdef"}});
    j.event("advance", {{"shown", "fedcba9876543210"}});
    j.event("ask", {{"decisions", json::array({json::array({0, "12"})})}});
    j.send(ann, text(1));
    j.end_pass();
    REQUIRE(f.until([&] { return !ann->inbox.empty(); }));
    // A pass with one event keeps its row of its own.
    j.event("choice", {{"piece", 0}, {"player", 0}});
    j.send(ann, text(2));
    j.end_pass();
    REQUIRE(f.until([&] { return ann->inbox.size() == 2; }));
    const auto saved = f.saved();
    REQUIRE(saved.events.size() == 2);
    CHECK(saved.events[0].kind == "pass");
    CHECK(json::parse(saved.events[0].text).size() == 4);
    CHECK(saved.events[1].kind == "choice");
    CHECK(saved.events[1].seq == saved.events[0].seq + 1);
    CHECK(events(saved) == std::vector<std::string>{R"(choice {"piece":1,"player":2})", R"(resolve {"shown":"0123456789abcdef"})",
                                                    R"(advance {"shown":"fedcba9876543210"})", R"(ask {"decisions":[[0,"12"]]})",
                                                    R"(choice {"piece":0,"player":0})"});
}

TEST_CASE("room parts: a closed room's journal forgets it once that is written, and frees its code then [rooms][journal]") {
    Fixture f;
    auto& j = f.journal();
    j.game({{"id", "JRNL1-1"}});
    j.event("advance", {{"die", 1}});
    j.changed();
    j.end_pass();
    REQUIRE(f.until([&] { return j.all_written(); }));
    CHECK(f.saved().code == "JRNL1");
    j.closed();
    j.changed();  // a closed room's state is not written again
    j.end_pass();
    REQUIRE(f.until([&] { return j.all_written(); }));
    CHECK(f.saved().code.empty());
}

}  // namespace
}  // namespace spookludo::testing
