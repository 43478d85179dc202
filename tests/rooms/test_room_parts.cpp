// The room's parts (server/rooms/room_*.cpp) driven in this process, without sockets, on a clock
// the test turns by hand (RoomClock::Manual): the lobby's seat rules and the host's hand-over,
// the clock's pause, drop grace and deadlines, and every way a game ends. The real room, its
// services and history (SQLite in a temporary folder); no journal, so what a pass sends is there
// at the next poll. A 30 s deadline passes in no time, and nothing depends on the machine's speed.
#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "config.h"
#include "room.h"
#include "room_clock.h"
#include "services.h"
#include "spookludo/record.h"
#include "spookludo/verify.h"
#include "test_peer.h"

namespace spookludo::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using server::RoomClock;

class Party {
public:
    Party(GameOptions options, protocol::RoomSettings settings) {
        server::Config c;
        c.threads = 1;
        c.no_journal = true;
        c.reconnect_ms = 60000;
        c.drop_grace_ms = 10000;
        c.seed_wait_ms = 5000;
        c.data_dir = dir_.path;
        spdlog::set_level(spdlog::level::err);
        services_ = std::make_unique<server::Services>(c);
        room_ = server::Room::make(io_, *services_, "PARTS", options, settings, "127.0.0.1");
    }
    // The room first, then what its handlers still hold (the io_context), then the services they
    // use, then the folder (members go in the reverse of their order).
    ~Party() { room_.reset(); }

    std::shared_ptr<TestPeer> person() { return std::make_shared<TestPeer>(++ids_, "127.0.0.1"); }
    void send(const std::shared_ptr<TestPeer>& p, protocol::ClientMessage m) {
        room_->deliver(p, std::move(m), ++entries_);
        settle();
    }
    void drop(const std::shared_ptr<TestPeer>& p) {
        room_->disconnected(p);
        settle();
    }
    // Runs what is ready, the timers the clock has reached included.
    void settle() { run_due(io_); }
    // Turns the clock by `d`, in steps of at most 100 ms (each step runs what came due).
    void pass(RoomClock::duration d) {
        while (d > RoomClock::duration::zero()) {
            const auto step = std::min<RoomClock::duration>(d, 100ms);
            clock_.advance(step);
            d -= step;
            settle();
        }
    }
    // Turns the clock until `done` holds (at most `limit`); whether it did.
    bool pass_until(const std::function<bool()>& done, RoomClock::duration limit) {
        for (auto left = limit; !done(); left -= 100ms) {
            if (left <= RoomClock::duration::zero()) return false;
            pass(100ms);
        }
        return true;
    }
    server::Services& services() { return *services_; }

private:
    TempDataDir dir_;
    RoomClock::Manual clock_;
    std::unique_ptr<server::Services> services_;
    boost::asio::io_context io_;
    std::shared_ptr<server::Room> room_;
    std::uint64_t ids_ = 0, entries_ = 0;
};

// The last message of `type` this person was sent (null when none).
json last(const TestPeer& p, const std::string& type) {
    for (auto it = p.inbox.rbegin(); it != p.inbox.rend(); ++it)
        if (it->value("type", "") == type) return *it;
    return nullptr;
}
bool got(const TestPeer& p, const std::string& type) { return !last(p, type).is_null(); }
std::string seat_name(const json& room, int seat) {
    for (const auto& s : room.at("seats"))
        if (s.at("seat") == seat) return s.value("name", "");
    return "?";
}
std::string error_code(const TestPeer& p) {
    const json e = last(p, "error");
    return e.is_null() ? "" : e.value("code", "");
}

protocol::RoomSettings settings(int decision_ms, int pace_ms) {
    protocol::RoomSettings s;
    s.decision_ms = decision_ms;
    s.pace_ms = pace_ms;
    return s;
}

protocol::CreateRoom create(const GameOptions& o, const std::string& name) { return {o, name, std::nullopt}; }

// The record of the game that ended (game_over as `p` saw it), read back from the history, verified.
void check_record(Party& party, const TestPeer& p, const std::string& status) {
    const json over = last(p, "game_over");
    REQUIRE_FALSE(over.is_null());
    CHECK(over.at("status") == status);
    const auto text = party.services().history->record(over.at("game_id").get<std::string>());
    REQUIRE(text.has_value());
    const auto report = verify(parse_record(*text));
    CHECK_MESSAGE(report.ok, report.failure);
    CHECK(over.value("server_seed", "") != "");
}

TEST_CASE("room parts: the lobby seats each newcomer in the lowest free seat, fills a gap left by a leaver or a removal first, and hands the host on only when the host leaves [rooms][lobby]") {
    Party party(GameOptions::spook_game(4), settings(30000, 1000));
    auto ann = party.person(), ben = party.person(), cat = party.person(), dan = party.person(), eve = party.person();
    party.send(ann, create(GameOptions::spook_game(4), "Ann"));
    party.send(ben, protocol::JoinRoom{"PARTS", "Ben"});
    party.send(cat, protocol::JoinRoom{"PARTS", "Cat"});
    json room = last(*cat, "room");
    CHECK(room.at("host") == 0);
    CHECK(seat_name(room, 0) == "Ann");
    CHECK(seat_name(room, 1) == "Ben");
    CHECK(seat_name(room, 2) == "Cat");

    // Ben leaves: the gap at seat 1 is the next newcomer's, before the free seat 3.
    party.send(ben, protocol::Leave{});
    party.send(dan, protocol::JoinRoom{"PARTS", "Dan"});
    room = last(*dan, "room");
    CHECK(seat_name(room, 1) == "Dan");
    // The host removes Cat: seat 2 is the next newcomer's.
    party.send(ann, protocol::RemoveSeat{2});
    party.send(eve, protocol::JoinRoom{"PARTS", "Eve"});
    room = last(*eve, "room");
    CHECK(seat_name(room, 2) == "Eve");
    // A taken name and the host's own seat are refused, and say why.
    auto other_ann = party.person();
    party.send(other_ann, protocol::JoinRoom{"PARTS", "Ann"});
    CHECK(error_code(*other_ann) == "name_taken");
    party.send(ann, protocol::RemoveSeat{0});
    CHECK(error_code(*ann) == "bad_field");

    // A dropped host keeps the role (a drop is not a leave); the host's leave hands it on once,
    // to the first player here, with a notice that says why.
    party.drop(ann);
    CHECK(last(*dan, "room").at("host") == 0);
    auto ann_again = party.person();
    party.send(ann_again, protocol::Leave{});  // not in the room: changes nothing
    CHECK(last(*dan, "room").at("host") == 0);
    party.pass(61s);  // past the reconnect window: the seat is freed and the role moves
    room = last(*dan, "room");
    CHECK(room.at("host") == 1);
    const json notice = last(*dan, "notice");
    CHECK(notice.value("text", "") == "Dan is the host now (Ann did not come back)");
}

// The index past the last message `p` was sent, and the first decision sent to `p` from `from` on.
json decision_since(const TestPeer& p, std::size_t from) {
    for (std::size_t i = from; i < p.inbox.size(); ++i)
        if (p.inbox[i].value("type", "") == "decision") return p.inbox[i];
    return nullptr;
}

TEST_CASE("room parts: a pause freezes the decisions' time, an answer during it waits, the answer after it is taken, and a dropped player's grace ends by the clock [rooms][clock]") {
    const auto options = GameOptions::ludo_game(2);
    Party party(options, settings(20000, 100));
    auto ann = party.person(), ben = party.person();
    party.send(ann, create(options, "Ann"));
    party.send(ben, protocol::JoinRoom{"PARTS", "Ben"});
    party.send(ann, protocol::Start{});

    // Play (nobody answers: the server moves at each 20 s deadline) until Ann is asked.
    std::size_t from = ann->inbox.size();
    REQUIRE(party.pass_until([&] { return !decision_since(*ann, from).is_null(); }, 1200s));
    const json asked = decision_since(*ann, from);
    const std::string id = asked.at("decision");
    const int piece = asked.at("options").at(0).at("piece");

    // The host pauses: 60 s pass (three times the decision's time) and the decision is still open.
    party.send(ann, protocol::Pause{});
    CHECK(last(*ann, "room").value("paused", false));
    party.pass(60s);
    CHECK(last(*ann, "choice_accepted").is_null());
    // An answer while paused is refused with `paused`; the decision stays open.
    party.send(ann, protocol::Choose{id, piece});
    CHECK(error_code(*ann) == "paused");
    party.send(ann, protocol::Unpause{});
    CHECK_FALSE(last(*ann, "room").value("paused", true));
    party.send(ann, protocol::Choose{id, piece});
    const json accepted = last(*ann, "choice_accepted");
    REQUIRE_FALSE(accepted.is_null());
    CHECK(accepted.at("decision") == id);

    // Ben is asked and drops: for his 10 s of grace nothing moves; then the server moves for him.
    from = ben->inbox.size();
    REQUIRE(party.pass_until([&] { return !decision_since(*ben, from).is_null(); }, 1200s));
    party.drop(ben);
    const auto heard = ann->inbox.size();
    party.pass(9s);
    CHECK(ann->inbox.size() == heard);
    party.pass(2s);
    CHECK(ann->inbox.size() > heard);
}

TEST_CASE("room parts: every way a game ends gives a record that verifies: played to its winner, ended by the host, abandoned when the last player leaves [rooms][end]") {
    SUBCASE("played to the end: nobody answers, the server moves for everyone at each deadline") {
        const auto options = GameOptions::spook_game(2);
        Party party(options, settings(1000, 0));
        auto ann = party.person(), ben = party.person();
        party.send(ann, create(options, "Ann"));
        party.send(ben, protocol::JoinRoom{"PARTS", "Ben"});
        party.send(ann, protocol::Start{});
        REQUIRE(party.pass_until([&] { return got(*ann, "game_over"); }, 3600s));
        check_record(party, *ann, "finished");
        CHECK_FALSE(last(*ann, "game_over").at("winners").empty());
    }
    SUBCASE("the host ends the game") {
        const auto options = GameOptions::ludo_game(2);
        Party party(options, settings(30000, 100));
        auto ann = party.person();
        party.send(ann, create(options, "Ann"));
        party.send(ann, protocol::AddBot{PolicyKind::best});
        party.send(ann, protocol::Start{});
        REQUIRE(party.pass_until([&] { return last(*ann, "room").value("state", "") == "playing"; }, 10s));
        party.pass(5s);
        party.send(ann, protocol::EndGame{});
        REQUIRE(got(*ann, "game_over"));
        check_record(party, *ann, "abandoned");
    }
    SUBCASE("the last player leaves a game of bots") {
        const auto options = GameOptions::spook_game(3);
        Party party(options, settings(30000, 100));
        auto ann = party.person(), watcher = party.person();
        party.send(ann, create(options, "Ann"));
        party.send(ann, protocol::AddBot{PolicyKind::best});
        party.send(ann, protocol::AddBot{PolicyKind::random});
        party.send(watcher, protocol::Watch{"PARTS"});
        party.send(ann, protocol::Start{});
        REQUIRE(party.pass_until([&] { return last(*ann, "room").value("state", "") == "playing"; }, 10s));
        party.pass(3s);
        party.send(ann, protocol::Leave{});
        REQUIRE(party.pass_until([&] { return got(*watcher, "game_over"); }, 120s));
        check_record(party, *watcher, "abandoned");
    }
}

}  // namespace
}  // namespace spookludo::testing
