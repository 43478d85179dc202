// A room taken up from the journal after every step is the live room.
//
// The real room (server/room.cpp), the real journal (SQLite) and its writer, in this process on an
// io_context the test runs a handler at a time. Players are peers the test plays: they answer
// their decisions at random, let some time out, drop and come back, leave; the host pauses,
// resumes and kicks; server bots of every policy fill the other seats. After every handler that
// leaves the room changed and all of it written, the test reads the journal as it stands, takes a
// second room up from it (Room::restore, as a start does) and compares the two (Room::inspect):
// the snapshot everyone sees, positions, whose turn, the dice commitment and the next die, the
// record so far, each seat's occupant, bot, policy, kick and token, the open decisions (id,
// options) and what every policy would choose for each of them.
//
// What a restore changes by design is left out of the comparison (Room::inspect does not show it):
// the pause (a restored game waits for its players), presence and connections (nobody is
// connected after a start), and every clock (a decision's time left, the automatic start).
//
// Under the sanitizers the sweep samples (kEvery, kCompareEvery below): the release build is
// the one that compares at every step of every option set.
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "config.h"
#include "journal.h"
#include "spookludo/ludo/record.h"
#include "peer.h"
#include "room.h"
#include "services.h"
#include "test_peer.h"

namespace spookludo::testing {
namespace {

namespace net = boost::asio;
using nlohmann::json;
using namespace std::chrono_literals;

// Under the sanitizers every other option set (each option's every value is still played) and
// a restore compared at every third state of a game (see check_restore); the release build
// plays every option set and compares at every state.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kEvery = 2;
constexpr std::uint32_t kCompareEvery = 3;
#else
constexpr int kEvery = 1;
constexpr std::uint32_t kCompareEvery = 1;
#endif

// One game's cast and script.
struct Party {
    GameOptions options;
    bool hints = false;
    int humans = 2;                       // the host, and a guest when 2
    std::vector<PolicyKind> bots;         // the other seats
    std::uint32_t seed = 1;               // the players' and the script's randomness
    std::string label() const {
        json o = options;
        std::string bots_text;
        for (auto p : bots) bots_text += std::string(to_string(p)) + " ";
        return o.dump() + (hints ? " hints" : "") + " humans " + std::to_string(humans) + " bots " + bots_text +
               "seed " + std::to_string(seed);
    }
};

struct Human {
    std::shared_ptr<TestPeer> peer;
    int seat = -1;
    std::string token;
    std::uint64_t entries = 0;
    bool connected = true;
    bool gone = false;  // left or kicked: the script is done with it
};

class Table {
public:
    explicit Table(const Party& party) : party_(party), rng_(party.seed) {
        server::Config c;
        c.threads = 1;
        c.pace_ms = 1;
        c.decision_ms = 60;
        c.seed_wait_ms = 100;
        c.reconnect_ms = 400;
        c.drop_grace_ms = 30;
        c.max_messages_per_second = 100000;
        static int counter = 0;
        c.data_dir = (std::filesystem::temp_directory_path() /
                      ("spookludo-restore-" + std::to_string(::getpid()) + "-" + std::to_string(counter++)))
                         .string();
        spdlog::set_level(spdlog::level::err);
        services_ = std::make_unique<server::Services>(c);
        protocol::RoomSettings settings;
        settings.decision_ms = c.decision_ms;
        settings.pace_ms = c.pace_ms;
        settings.hints = party.hints;
        room_ = server::Room::make(io_, *services_, "RSTRE", party.options, settings, "127.0.0.1");
    }

    ~Table() {
        room_.reset();
        const auto dir = services_->config.data_dir;
        services_.reset();
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }

    // Plays the party to its game's end, checking a restore after every written step.
    void play() {
        humans_.resize(static_cast<std::size_t>(party_.humans));
        for (auto& h : humans_) h.peer = fresh_peer();
        deliver(humans_[0], protocol::CreateRoom{party_.options, "Host", std::nullopt});
        // A table game (options.table): the second is a phone at the table, watching.
        if (party_.humans > 1 && party_.options.table) deliver(humans_[1], protocol::Watch{"RSTRE"});
        else if (party_.humans > 1) deliver(humans_[1], protocol::JoinRoom{"RSTRE", "Guest"});
        for (auto p : party_.bots) deliver(humans_[0], protocol::AddBot{p});
        deliver(humans_[0], protocol::Start{});
        auto guard = net::make_work_guard(io_);
        int idle = 0;
        for (int handlers = 0; !over_; ++handlers) {
            REQUIRE_MESSAGE(handlers < 200000, "the game does not end");
            if (io_.run_one_for(100ms) == 0) {
                REQUIRE_MESSAGE(++idle < 100, "the room stands still");
            } else {
                idle = 0;
            }
            play_humans();
            if (party_.options.table) table_script();
            else script();
            check_restore();
        }
        CHECK(restores_ * static_cast<int>(kCompareEvery) > 10);
        MESSAGE(party_.label() << ": " << restores_ << " restores compared, up to " << most_events_ << " journal events");
    }

private:
    std::shared_ptr<TestPeer> fresh_peer() { return std::make_shared<TestPeer>(++peer_ids_, "127.0.0.1"); }

    void deliver(Human& h, protocol::ClientMessage m) { room_->deliver(h.peer, std::move(m), ++h.entries); }

    // Every human reads what came and answers: a client seed when asked (not always), a decision
    // (a random legal option; now and then none: it times out).
    void play_humans() {
        for (std::size_t i = 0; i < humans_.size(); ++i) {
            Human& h = humans_[i];
            while (!h.peer->inbox.empty()) {
                json m = std::move(h.peer->inbox.front());
                h.peer->inbox.pop_front();
                const std::string type = m.value("type", "");
                if (type == "joined" && m.contains("token")) {
                    h.seat = m.at("seat").get<int>();
                    h.token = m.at("token").get<std::string>();
                } else if (type == "commitment" && !h.gone && h.connected) {
                    if (chance(0.85)) deliver(h, protocol::SubmitClientSeed{"seed of " + std::to_string(i) + " " +
                                                                           std::to_string(rng_()),
                                                                       i == 0 ? "" : "a phone"});
                } else if (type == "decision" && !h.gone && h.connected && m.at("seat") == h.seat) {
                    ++decisions_;
                    if (chance(0.1)) continue;  // it times out: the server moves for the player
                    const auto& options = m.at("options");
                    REQUIRE(!options.empty());
                    const auto& o = options[static_cast<std::size_t>(pick(options.size()))];
                    deliver(h, protocol::Choose{m.at("decision").get<std::string>(), o.at("piece").get<int>()});
                } else if (type == "game_over") {
                    if (i == 0) over_ = true;
                }
                if (i == 0) host_answered_ = true;
            }
        }
    }

    // The script: after so many decisions, the host pauses (and resumes a while later), the guest
    // drops (and comes back with its token, or not), is kicked, or leaves.
    void script() {
        if (paused_for_ > 0 && --paused_for_ == 0) deliver(humans_[0], protocol::Unpause{});
        if (decisions_ == last_scripted_ || decisions_ % 7 != 3) return;
        last_scripted_ = decisions_;
        const double r = uniform();
        if (r < 0.25 && paused_for_ == 0) {
            deliver(humans_[0], protocol::Pause{});
            paused_for_ = 2 + static_cast<int>(pick(6));
            return;
        }
        if (humans_.size() < 2) return;
        Human& g = humans_[1];
        if (g.gone) return;
        if (g.connected && r < 0.55) {
            room_->disconnected(g.peer);  // the guest's connection drops
            g.connected = false;
        } else if (!g.connected && r < 0.8) {
            g.peer = fresh_peer();  // back with its token
            g.connected = true;
            deliver(g, protocol::Resume{"RSTRE", g.token});
        } else if (g.connected && r < 0.86 && kicks_left_ > 0) {
            --kicks_left_;
            deliver(humans_[0], protocol::Kick{g.seat});
            g.gone = true;
        } else if (g.connected && r < 0.9) {
            deliver(g, protocol::Leave{});
            g.gone = true;
        }
    }

    // A table game: the host throws with next (now and then pauses and resumes, skips a turn in
    // Ludo), one step at a time (each once the host heard the last one's answer), then names the
    // winner.
    void table_script() {
        if (!host_answered_) return;
        host_answered_ = false;
        Human& host = humans_[0];
        if (paused_for_ > 0) {
            if (--paused_for_ == 0) deliver(host, protocol::Unpause{});
            else host_answered_ = true;  // nothing asked: go on
            return;
        }
        if (++table_steps_ > 40) return deliver(host, protocol::DeclareWinners{{party_.options.table_names.back()}});
        const double r = uniform();
        if (r < 0.08 && table_steps_ > 3) {
            deliver(host, protocol::Pause{});
            paused_for_ = 2;
        } else if (r < 0.2 && party_.options.game == GameKind::ludo && table_steps_ > 3) {
            deliver(host, protocol::SkipTurn{});
        } else {
            deliver(host, protocol::Next{});
        }
    }

    // When the room has written everything and shows something new: take a room up from the
    // journal as it stands and compare.
    void check_restore() {
        const std::string live_text = room_->inspect();
        json live = json::parse(live_text);
        if (!live.at("written").get<bool>()) return;
        live.erase("written");
        const std::string now = live.dump();
        if (now == last_compared_) return;
        last_compared_ = now;
        // Under the sanitizers, one new state in kCompareEvery (from a phase the seed sets, so
        // that parties differ in which): each restore reads the whole journal, a game's cost grows
        // with the square of its length, and ASan makes the parsing some ten times slower.
        if (++states_ % kCompareEvery != party_.seed % kCompareEvery) return;
        const auto saved = services_->journal->load();
        const server::SavedRoom* mine = nullptr;
        for (const auto& r : saved)
            if (r.code == "RSTRE") mine = &r;
        if (!mine) {
            // A room that closed is not taken up: that is only right when it is closed.
            FAIL("the journal has no room RSTRE while it is open: " << now);
        }
        // A Ludo game's journal names the version of the server's moves it plays (a newer server
        // taking it up keeps it).
        if (mine->game && party_.options.game == GameKind::ludo && !party_.options.table)
            CHECK(json::parse(*mine->game).value("server_move_version", 0) == ludo::kServerMoveVersion);
        events_ = mine->events.size();
        most_events_ = std::max(most_events_, events_);
        net::io_context io;
        std::shared_ptr<server::Room> back;
        try {
            back = server::Room::restore(io, *services_, *mine);
        } catch (const std::exception& e) {
            FAIL_CHECK(party_.label() << ": the room cannot be taken up after " << events_ << " events: " << std::string(e.what()));
            over_ = true;
            return;
        }
        json restored = json::parse(back->inspect());
        restored.erase("written");
        back.reset();
        ++restores_;
        if (restored != live) {
            FAIL_CHECK(party_.label() << ": taken up after " << events_ << " events, the room differs from the live one:\n"
                                      << json::diff(live, restored).dump() << "\nlive: " << now);
            over_ = true;
        }
    }

    bool chance(double p) { return uniform() < p; }
    double uniform() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
    std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

    Party party_;
    std::mt19937 rng_;
    net::io_context io_;  // before the services and the room: they go first
    std::unique_ptr<server::Services> services_;
    std::shared_ptr<server::Room> room_;
    std::vector<Human> humans_;
    std::uint64_t peer_ids_ = 0;
    bool over_ = false;
    int decisions_ = 0, last_scripted_ = -1, paused_for_ = 0, kicks_left_ = 1;
    int restores_ = 0;
    std::uint32_t states_ = 0;
    bool host_answered_ = false;  // a table game's host heard something since its last step
    int table_steps_ = 0;
    std::size_t events_ = 0, most_events_ = 0;
    std::string last_compared_;
};

// How many parties of each option set: SPOOKLUDO_RESTORE_SWEEP=N plays N seeds of each (a longer
// sweep); the suite plays one.
int sweep() {
    const char* n = std::getenv("SPOOKLUDO_RESTORE_SWEEP");
    return n ? std::max(1, std::atoi(n)) : 1;
}

void play_all(const std::vector<Party>& parties) {
    for (int s = 0; s < sweep(); ++s)
        for (Party p : parties) {
            p.seed += static_cast<std::uint32_t>(1000 * s);
            CAPTURE(p.label());
            Table table(p);
            table.play();
        }
}

GameOptions spook(int players, int pieces, bool balanced, bool play_on) {
    GameOptions o = GameOptions::spook_game(players, pieces);
    o.spook.balanced_boards = balanced;
    o.play_on = play_on;
    return o;
}

GameOptions ludo(int players, int arm, LudoEntry entry, bool three_sixes, bool play_on) {
    GameOptions o = GameOptions::ludo_game(players, arm);
    o.ludo.entry = entry;
    o.ludo.three_sixes = three_sixes;
    o.play_on = play_on;
    return o;
}

constexpr auto R = PolicyKind::random;
constexpr auto G = PolicyKind::greedy;
constexpr auto B = PolicyKind::best;

// The casts, in turn: a host alone with the server's best, greedy and random bots (the party
// that lost its games), a host and a guest with bots, two people and no bot.
std::vector<Party> casts(GameOptions o, bool hints, std::uint32_t seed) {
    const int n = o.players;
    std::vector<std::vector<PolicyKind>> bots = {{B, G, R}, {R, G, B}, {G, R, B}, {}};
    std::vector<Party> out;
    const std::size_t which = seed % bots.size();
    Party p{o, hints, which == 3 ? 2 : 1 + static_cast<int>(which % 2), {}, seed};
    const auto& b = bots[which];
    for (int i = p.humans; i < n; ++i) p.bots.push_back(b.empty() ? R : b[static_cast<std::size_t>(i - p.humans) % b.size()]);
    out.push_back(p);
    return out;
}

GameOptions at_table(GameOptions o, std::vector<std::string> names) {
    o.table = true;
    o.players = static_cast<int>(names.size());
    o.table_names = std::move(names);
    return o;
}

}  // namespace

TEST_CASE("journal: a Ludo room taken up from the journal after every step is the live room (server bots of every policy, players who choose, time out, drop, come back, leave or are kicked, pauses, every option set)") {
    std::vector<Party> parties;
    int i = 0;
    for (int arm : {8, 6})
        for (LudoEntry entry : {LudoEntry::text, LudoEntry::start_square})
            for (bool three_sixes : {false, true})
                for (bool play_on : {false, true}) {
                    if (i++ % kEvery) continue;
                    // Four seats mostly (every policy at the table), two and three now and then.
                    const int players = i % 4 == 3 ? 2 + i % 2 : 4;
                    for (auto& p : casts(ludo(players, arm, entry, three_sixes, play_on), i % 2 == 0,
                                         static_cast<std::uint32_t>(100 + i)))
                        parties.push_back(p);
                }
    play_all(parties);
}

TEST_CASE("journal: a Ludo room under house rules taken up from the journal after every step is the live room (the preset, the preset with teams, capture_to_home with safe squares and bonus throws) [house]") {
    GameOptions preset_teams = GameOptions::ludo_game(4, 6);
    preset_teams.ludo = home_rules();
    preset_teams.ludo.teams = true;
    preset_teams.ludo.capture_to_home = true;
    GameOptions circling = ludo(3, 6, LudoEntry::text, false, false);
    circling.ludo.capture_to_home = true;
    circling.ludo.safe_squares = true;
    circling.ludo.bonus_throws = true;
    // The preset itself at 4 players: its own learned value plays the server's moves.
    GameOptions preset = GameOptions::ludo_game(4, 6);
    preset.ludo = home_rules();
    std::vector<Party> parties;
    for (auto& p : casts(preset_teams, true, 401)) parties.push_back(p);
    for (auto& p : casts(circling, false, 402)) parties.push_back(p);
    for (auto& p : casts(preset, false, 403)) parties.push_back(p);
    play_all(parties);
}

TEST_CASE("journal: a Spook room taken up from the journal after every step is the live room (server bots of every policy, players who choose, time out, drop, come back, leave or are kicked, pauses, every option set)") {
    std::vector<Party> parties;
    int i = 0;
    for (int pieces : {1, 2, 3})
        for (bool balanced : {true, false})
            for (bool play_on : {false, true})
                for (bool hints : {false, true}) {
                    if (i++ % kEvery) continue;
                    const int players = 2 + i % 4;  // 2 to 5
                    for (auto& p : casts(spook(players, pieces, balanced, play_on), hints, static_cast<std::uint32_t>(200 + i)))
                        parties.push_back(p);
                }
    play_all(parties);
}

TEST_CASE("journal: a table game (Spook and Ludo, a phone's seed, next, skipped turns, pauses, declared winners) taken up from the journal after every step is the live room [table]") {
    play_all({Party{at_table(spook(3, 2, true, false), {"Ann", "Ben", "Cid"}), false, 2, {}, 301},
              Party{at_table(ludo(4, 8, LudoEntry::text, true, false), {"Ann", "Ben", "Cid", "Dan"}), false, 2, {}, 302},
              Party{at_table(ludo(2, 6, LudoEntry::start_square, false, false), {"Eve", "Fay"}), false, 1, {}, 303}});
}

}  // namespace spookludo::testing
