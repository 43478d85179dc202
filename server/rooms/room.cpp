#include "room.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <unordered_map>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "spookludo/policy.h"
#include "spookludo/protocol/server_messages.h"
#include "cluster.h"
#include "history.h"
#include "serial_executor.h"
#include "table.h"
#include "timer_grid.h"

namespace spookludo::server {

namespace net = boost::asio;
using nlohmann::json;
using protocol::ErrorCode;
using namespace protocol;
using Clock = std::chrono::steady_clock;

namespace {

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string random_token() {
    const ServerSeed s = ServerSeed::generate();  // 32 secure random bytes
    return to_hex(s.bytes.data(), 16);
}

template <class M>
std::shared_ptr<const std::string> frame(const M& message) {
    return std::make_shared<const std::string>(encode_message(message));
}
// A message the table has already encoded (its steps).
std::shared_ptr<const std::string> frame(std::string encoded) { return std::make_shared<const std::string>(std::move(encoded)); }

enum class RoomState { lobby, seeding, playing };
const char* name_of(RoomState s) {
    switch (s) {
        case RoomState::lobby: return "lobby";
        case RoomState::seeding: return "seeding";
        case RoomState::playing: return "playing";
    }
    return "?";
}

// What a seated player is doing, as everyone sees it.
enum class Presence { here, away, server, left };
const char* name_of(Presence p) {
    switch (p) {
        case Presence::here: return "here";
        case Presence::away: return "away";
        case Presence::server: return "server";
        case Presence::left: return "left";
    }
    return "?";
}

// One seat of the room. Its number is fixed for the life of the room; a free seat keeps it.
struct Seat {
    int number = 0;
    bool taken = false;
    std::string name;
    bool bot = false;
    PolicyKind policy = PolicyKind::best;
    bool kicked = false;  // a bot playing a kicked player's seat to the end of the game
    std::string token_hash;  // SHA-256 of the seat's token, hex (the token goes to its player only)
    std::weak_ptr<Peer> peer;
    bool connected = false;
    Presence presence = Presence::here;
    std::optional<std::string> client_seed;
    std::shared_ptr<net::steady_timer> reconnect_timer;
    Clock::time_point dropped_at{};  // when the connection was lost (away)
    // The decision this seat owes, if any.
    std::string decision_id;
    Clock::time_point decision_sent{};
    // A dropped player's decision is held open this long (the drop grace) before the server plays it.
    std::shared_ptr<net::steady_timer> grace_timer;

    bool human() const { return taken && !bot; }
    // Played by the server instead of the player (gone, or the window is over, or left).
    bool server_played() const { return human() && (!connected || presence != Presence::here); }
};

Seat empty_seat(int number) {
    Seat s;
    s.number = number;
    return s;
}

Presence presence_named(const std::string& name) {
    for (Presence p : {Presence::here, Presence::away, Presence::server, Presence::left})
        if (name == name_of(p)) return p;
    throw std::invalid_argument("unknown presence " + name);
}

// Why a game is paused (the snapshot's pause_reason).
enum class PauseReason { host, restart, journal };
const char* name_of(PauseReason r) {
    switch (r) {
        case PauseReason::host: return "host";
        case PauseReason::restart: return "restart";
        case PauseReason::journal: return "journal";
    }
    return "?";
}

// A decision taken up again after a restart gets at least this long.
constexpr std::chrono::milliseconds kLeastTimeLeft{3000};

// People count seats from 1; the wire counts from 0.
std::string seat_label(int number) { return "seat " + std::to_string(number + 1); }

class RoomImpl final : public Room {
public:
    using Held = std::pair<std::shared_ptr<Peer>, std::shared_ptr<const std::string>>;  // text nullptr: close

    RoomImpl(net::io_context& io, Services& services, std::string code, GameOptions options,
             protocol::RoomSettings settings, std::string creator_address = {})
        : strand_(serial_executor(io, services.config.threads)),
          step_timer_(strand_),
          auto_start_timer_(strand_),
          services_(services),
          code_(std::move(code)),
          creator_address_(std::move(creator_address)),
          options_(options),
          settings_(settings),
          created_ms_(now_ms()),
          stream_(std::make_shared<JournalWriter::Stream>(code_, created_ms_)) {
        for (int n = 0; n < options_.players; ++n) seats_.push_back(empty_seat(n));
    }

    // Takes up a room the journal held (before serving: nothing else knows the room yet). Throws
    // when the journal cannot be read back (the caller logs it and lets the room go).
    void take_up(const SavedRoom& saved);
    // The game of a room being taken up cannot be: throws RoomLost with its record up to the
    // `agreed` events.
    [[noreturn]] void lost(const SavedRoom& saved, const std::vector<TableSeat>& table_seats,
                           const std::vector<ClientSeed>& client_seeds, std::size_t agreed, const std::string& why);

    const std::string& code() const noexcept override { return code_; }
    const std::string& creator_address() const noexcept override { return creator_address_; }

    void deliver(std::shared_ptr<Peer> peer, protocol::ClientMessage message, std::uint64_t entry) override {
        net::post(strand_, [self = self(), peer = std::move(peer), message = std::move(message), entry]() mutable {
            // Only the messages that enter a room, or come from a peer the room already knows,
            // are remembered: a connection the room never took in leaves nothing behind.
            if (entering(message)) self->entries_[peer->id()] = entry;
            else if (auto it = self->entries_.find(peer->id()); it != self->entries_.end()) it->second = entry;
            self->on_message(peer, message);
            self->end_pass();
        });
    }

    void disconnected(std::shared_ptr<Peer> peer) override {
        net::post(strand_, [self = self(), peer = std::move(peer)] {
            self->entries_.erase(peer->id());
            self->guarded("a hang-up", [&] { self->on_disconnected(peer); });
        });
    }

    void shutdown(std::function<void()> done) override {
        net::post(strand_, [self = self(), done = std::move(done)]() mutable {
            const bool restart = !self->services_.config.abandon_on_exit;
            if (!restart) {
                // Going away for good: a game in progress ends (a game being seeded too: its
                // commitment is out, so its seed is revealed), and the room is not kept.
                self->guarded("the shutdown", [&] {
                    if (self->table_ || self->state_ == RoomState::seeding)
                        self->end_game(GameStatus::abandoned, "the server is shutting down");
                    if (!self->closed_) self->ops_.push_back({JournalOp::Kind::closed, {}, {}});
                    self->closed_ = true;
                    self->broadcast(Closing{"shutdown", "the server is shutting down"});
                });
            } else {
                // A restart: everything the room did is in the journal (or on its way: each pass
                // handed its part over before its messages could go out); the next start takes
                // it up again.
                self->end_pass();
            }
            self->stopped_ = true;
            self->closed_ = true;
            self->stop_timers();
            // Done once the journal has answered every pass (what it wrote goes out first).
            self->when_settled_ = [self = self.get(), restart, done = std::move(done)] {
                if (restart)
                    self->tell_now(Closing{"restart", "the server is restarting: the room is saved and goes on when it "
                                                      "is back (reconnect with your seat's token)"});
                done();
            };
            self->settle();
        });
    }

    void pause_for_cluster(std::string why) override {
        net::post(strand_, [self = self(), why = std::move(why)] {
            if (!self->stopped_ && !self->journal_fault_ && !self->services_.config.no_journal)
                self->journal_fault(why);
        });
    }

private:
    std::shared_ptr<RoomImpl> self() { return std::static_pointer_cast<RoomImpl>(shared_from_this()); }

    static bool entering(const protocol::ClientMessage& m) {
        return std::holds_alternative<CreateRoom>(m) || std::holds_alternative<JoinRoom>(m) ||
               std::holds_alternative<Watch>(m) || std::holds_alternative<Resume>(m);
    }

    // Work that runs from a timer or a hang-up, with nobody to answer: a failure is logged and
    // counted, and a game it breaks ends abandoned (its record written); the room and the server
    // go on. It is a pass of its own: its journal writes go before its messages (end_pass).
    template <class F>
    void guarded(const char* what, F&& f) {
        run_guarded(what, f);
        end_pass();
    }
    template <class F>
    void run_guarded(const char* what, F& f) {
        try {
            f();
        } catch (const std::exception& e) {
            ++services_.metrics.internal_errors;
            spdlog::error("room {}: {} failed: {}", code_, what, e.what());
            try {
                if (table_ || state_ == RoomState::seeding) end_game(GameStatus::abandoned, "an internal error");
            } catch (const std::exception& again) {
                spdlog::error("room {}: ending the game after that failed too: {}", code_, again.what());
                ops_.push_back({JournalOp::Kind::game_over, {}, {}});  // the journal forgets it too
                table_.reset();
                publication_.reset();
                state_ = RoomState::lobby;
            }
        }
    }

    // ---- Sending ----------------------------------------------------------------------------
    // Every message goes through out(): it is held until the end of the pass (every handler on
    // the strand ends with end_pass), and goes out, in order, once the pass's journal writes are
    // written: nothing leaves the room that the journal does not have.
    void out(const std::shared_ptr<Peer>& peer, std::shared_ptr<const std::string> text) {
        if (peer) held_.push_back({peer, std::move(text)});
    }
    // Closes a connection after what was sent (or held) for it.
    void close_peer(const std::shared_ptr<Peer>& peer) { held_.push_back({peer, nullptr}); }
    // Straight out, past what is held: what says the server cannot save (its text shows
    // nothing of the game) and refusals while it cannot.
    template <class M>
    void tell_now(const M& message) {
        const auto text = frame(message);
        for_each_recipient([&](const std::shared_ptr<Peer>& p) { p->send(text); });
    }

    template <class M>
    void send(const std::shared_ptr<Peer>& peer, const M& message) {
        out(peer, frame(message));
    }
    void error(const std::shared_ptr<Peer>& peer, ErrorCode code, const std::string& message,
               std::string_view ref = {}) {
        services_.metrics.count_error(protocol::to_string(code));
        out(peer, std::make_shared<const std::string>(protocol::error_message(code, message, ref)));
    }
    // Serialised once, the same buffer for every recipient.
    template <class M>
    void broadcast(const M& message) {
        send_to_all(frame(message));
    }
    void send_to_all(const std::shared_ptr<const std::string>& text) {
        for_each_recipient([&](const std::shared_ptr<Peer>& p) { out(p, text); });
    }
    // Every connected player and spectator (spectators that are gone are dropped on the way).
    template <class F>
    void for_each_recipient(F&& f) {
        for (auto& seat : seats_)
            if (auto p = seat.peer.lock(); p && seat.connected) f(p);
        for (auto it = spectators_.begin(); it != spectators_.end();)
            if (auto p = it->lock()) {
                f(p);
                ++it;
            } else {
                it = spectators_.erase(it);
            }
    }
    // A line of the room's story for everyone, and the server log.
    void notice(std::string kind, const Seat* seat, std::string text) {
        Notice n;
        n.kind = std::move(kind);
        if (seat) {
            n.seat = seat->number;
            if (!seat->name.empty()) n.name = seat->name;
        }
        n.text = std::move(text);
        spdlog::info("room {}: {}", code_, n.text);
        broadcast(n);
    }
    // A seated person's name in the story, as people see it ("Ann left", not "\"Ann\" left"): a
    // seated name has passed name_problem (no control, format or invisible character) or is a
    // bot's name the server made.
    static std::string who(const Seat& s) { return s.name; }

    RoomSnapshot snapshot() const {
        RoomSnapshot r;
        r.room = code_;
        r.state = name_of(state_);
        r.paused = paused_;
        if (paused_ && pause_reason_) r.pause_reason = name_of(*pause_reason_);
        r.options = options_;
        r.settings = settings_;
        r.host = host_;
        for (const auto& seat : seats_) {
            SeatView v;
            v.seat = seat.number;
            if (!seat.taken) {
                v.free = true;
            } else {
                v.name = seat.name;
                v.bot = seat.bot;
                if (seat.bot) {
                    v.policy = seat.policy;
                    v.kicked = seat.kicked;
                } else {
                    v.connected = seat.connected;
                    v.away = seat.server_played();
                    v.status = name_of(seat.presence);
                }
                // Whom the step waits for (its deadline below): the others see the list shrink.
                v.choosing = table_ && !seat.decision_id.empty();
            }
            r.seats.push_back(std::move(v));
        }
        r.spectators = static_cast<int>(spectators_.size());
        r.server_time_ms = now_ms();
        r.auto_start_at_ms = auto_start_at_;
        if (table_ && waiting_for_decisions_ && !paused_) r.decision_deadline_ms = decision_deadline_at_;
        if (publication_) {
            r.game_id = game_id_;
            r.commitment = publication_->seed.commitment();
            r.boards = publication_->boards;
        }
        if (table_) table_->describe(r);
        if (state_ == RoomState::lobby) r.last_game = last_game_;
        // Arrays by seat have one entry per room seat, like game_started.assignment and
        // game_over.places (the table knows the seats that play, not free ones above them).
        if (r.spook) {
            r.spook->boards.resize(seat_span());
            r.spook->positions.resize(seat_span());
            r.spook->finished_round.resize(seat_span());
        }
        return r;
    }
    void broadcast_snapshot() { broadcast(snapshot()); }

    std::string inspect() const override {
        json snap = snapshot();
        for (const char* k : {"paused", "pause_reason", "server_time_ms", "spectators", "auto_start_at_ms", "decision_deadline_ms"}) snap.erase(k);
        for (auto& v : snap["seats"])
            for (const char* k : {"connected", "away", "status"}) v.erase(k);
        json seats = json::array();
        for (const auto& s : seats_) {
            json v = {{"number", s.number},         {"taken", s.taken},   {"bot", s.bot},
                      {"policy", to_string(s.policy)}, {"kicked", s.kicked}, {"token_hash", s.token_hash},
                      {"decision", s.decision_id}};
            // A client seed counts while the seeds are collected (a started game has them in its record).
            if (s.client_seed && state_ == RoomState::seeding) v["client_seed"] = *s.client_seed;
            if (table_ && !s.decision_id.empty()) {
                const int player = player_of(s.number);
                json options = json::array();
                for (const auto& o : table_->decision_options(player, settings_.hints)) options.push_back(o);
                v["options"] = options;
                // What each policy would choose here (a bot's randomness is the game's, not a generator's).
                for (PolicyKind k : {PolicyKind::random, PolicyKind::greedy, PolicyKind::best})
                    v["would_choose"][std::string(to_string(k))] = bot_choice(player, k);
            }
            seats.push_back(std::move(v));
        }
        json j = {{"room", snap}, {"seats", seats}, {"players", players_}, {"owner", owner_},
                  {"written", ops_.empty() && held_.empty() && waiting_.empty() && settled_ == tickets_ && !journal_fault_}};
        if (table_) {
            j["record"] = table_->record();
            j["next_die"] = table_->next_die();
            j["waiting_for_decisions"] = waiting_for_decisions_;
        }
        return j.dump();
    }

    // ---- Who is who -------------------------------------------------------------------------
    // The room lets a peer go (Peer::detach), with the last entry count it saw from it.
    void let_go(const std::shared_ptr<Peer>& peer) {
        const auto it = entries_.find(peer->id());
        if (it == entries_.end()) return;  // it never came in: nothing to let go
        peer->detach(*this, it->second);
        entries_.erase(it);
    }

    Seat* seat_at(int number) {
        for (auto& s : seats_)
            if (s.number == number) return &s;
        return nullptr;
    }
    Seat& seat_ref(int number) { return *seat_at(number); }
    // The seat number of a peer's seat, or -1.
    int seat_of(const std::shared_ptr<Peer>& peer) const {
        for (const auto& s : seats_)
            if (s.human() && s.peer.lock() == peer) return s.number;
        return -1;
    }
    bool is_spectator(const std::shared_ptr<Peer>& peer) const {
        return std::any_of(spectators_.begin(), spectators_.end(), [&](const auto& w) { return w.lock() == peer; });
    }
    bool name_taken(const std::string& name) const {
        return std::any_of(seats_.begin(), seats_.end(), [&](const Seat& s) { return s.taken && s.name == name; });
    }
    int taken_count() const {
        return static_cast<int>(std::count_if(seats_.begin(), seats_.end(), [](const Seat& s) { return s.taken; }));
    }
    Seat* lowest_free() {
        for (auto& s : seats_)
            if (!s.taken) return &s;
        return nullptr;
    }
    // The seat's index among the players of the game (the table's numbering), or -1.
    int player_of(int number) const {
        const auto it = std::find(players_.begin(), players_.end(), number);
        return it == players_.end() ? -1 : static_cast<int>(it - players_.begin());
    }
    // A seat freed: everything about its occupant goes.
    void free_seat(Seat& s) {
        if (s.reconnect_timer) s.reconnect_timer->cancel();
        s = empty_seat(s.number);
    }

    void welcome_seat(const std::shared_ptr<Peer>& peer, const Seat& seat, const std::string& token) {
        send(peer, Joined{code_, seat.number, token, "player", host_ == seat.number});
    }

    // ---- Messages ---------------------------------------------------------------------------
    void on_message(const std::shared_ptr<Peer>& peer, protocol::ClientMessage& message) {
        const bool ping = std::holds_alternative<Ping>(message);
        if (closed_) {
            error(peer, ErrorCode::room_not_found, "the room is closed");
        } else if (journal_fault_ && !ping) {
            // Nothing changes while the journal cannot take it; said at once (not held).
            services_.metrics.count_error(protocol::to_string(ErrorCode::unavailable));
            peer->send(protocol::error_message(ErrorCode::unavailable,
                                               "the server cannot save this room right now (" + *journal_fault_ +
                                                   "): it is paused and goes on by itself when it can; try again then",
                                               protocol::type_of(message)));
        } else {
            // Every message but a ping or a choice may change the room's durable state: the room
            // writes it to the journal at the end of the pass (a choice writes its own event).
            if (!ping && !std::holds_alternative<Choose>(message)) dirty_ = true;
            // One message's failure is that connection's problem alone: the room goes on.
            try {
                std::visit([&](auto& m) { handle(peer, m); }, message);
            } catch (const std::exception& e) {
                ++services_.metrics.internal_errors;
                spdlog::error("room {}: a {} from connection {} failed: {}", code_, protocol::type_of(message),
                              peer->id(), e.what());
                error(peer, ErrorCode::internal_error, "the server could not handle that message",
                      protocol::type_of(message));
            }
        }
        // The Inbox sent this connection here when it asked to enter: when the room did not
        // take it in, it is let go (and a room its creator never entered closes).
        if (entering(message) && seat_of(peer) < 0 && !is_spectator(peer)) {
            let_go(peer);
            close_if_empty();
        }
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::CreateRoom& m) {
        // The creator: the first seat, and the host.
        if (taken_count() > 0 || is_spectator(peer))
            return error(peer, ErrorCode::already_in_room, "this room has its creator", "create_room");
        // Armed first, so that the creator's first snapshot already carries auto_start_at_ms.
        if (settings_.auto_start_ms > 0) arm_auto_start();
        add_human(peer, seats_.front(), m.name);
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::JoinRoom& m) {
        if (seat_of(peer) >= 0) return error(peer, ErrorCode::already_in_room, "you are already in this room", "join_room");
        const bool watching = is_spectator(peer);
        if (state_ != RoomState::lobby) {
            // A spectator sits down in the lobby (before a game, or for the rematch after one);
            // people who arrive after the start watch.
            if (watching)
                return error(peer, ErrorCode::already_in_room,
                             "you are watching this room: a seat can be taken in the lobby, when the game is over",
                             "join_room");
            add_spectator(peer);
            return;
        }
        // The lowest free seat, under a name; a spectator refused keeps watching.
        Seat* seat = lowest_free();
        if (!seat)
            return error(peer, ErrorCode::room_full,
                         "room " + code_ + " is full: all " + std::to_string(seats_.size()) + " seats are taken",
                         "join_room");
        if (name_taken(m.name))
            return error(peer, ErrorCode::name_taken, "the name " + quote_client_text(m.name) + " is taken in this room", "join_room");
        if (watching) drop_spectator(peer);
        add_human(peer, *seat, m.name);
    }

    void add_human(const std::shared_ptr<Peer>& peer, Seat& seat, const std::string& name) {
        seat = empty_seat(seat.number);
        seat.taken = true;
        seat.name = name;
        const std::string token = random_token();
        seat.token_hash = sha256_hex(token);
        seat.peer = peer;
        seat.connected = true;
        if (host_ < 0) host_ = seat.number;
        welcome_seat(peer, seat, token);
        notice("joined", &seat, who(seat) + " sits at " + seat_label(seat.number) + (host_ == seat.number ? " (the host)" : ""));
        broadcast_snapshot();
    }

    void add_spectator(const std::shared_ptr<Peer>& peer) {
        if (static_cast<int>(spectators_.size()) >= services_.config.max_spectators)
            return error(peer, ErrorCode::room_full, "room " + code_ + " has its maximum of spectators", "watch");
        spectators_.push_back(peer);
        send(peer, Joined{code_, -1, std::nullopt, "spectator", false});
        spdlog::info("room {}: a spectator joined ({} watching)", code_, spectators_.size());
        broadcast_snapshot();  // the newcomer's first picture, and everyone's count of watchers
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Watch&) {
        if (seat_of(peer) >= 0 || is_spectator(peer))
            return error(peer, ErrorCode::already_in_room, "you are already in this room", "watch");
        add_spectator(peer);
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Resume& m) {
        // A connection already in the room does not take a second seat.
        if (seat_of(peer) >= 0 || is_spectator(peer))
            return error(peer, ErrorCode::already_in_room, "you are already in this room: leave it first", "resume");
        const std::string hash = sha256_hex(m.token);
        for (auto& seat : seats_) {
            if (!seat.human() || seat.token_hash.empty() || seat.token_hash != hash) continue;
            if (auto old = seat.peer.lock(); old && old != peer && seat.connected) {
                send(old, Closing{"replaced", "your seat was taken back from another connection (another tab or device)"});
                let_go(old);
                close_peer(old);
            }
            const bool was_away = !seat.connected || seat.presence != Presence::here;
            seat.peer = peer;
            seat.connected = true;
            seat.presence = Presence::here;  // also after the window: the player plays again
            if (seat.reconnect_timer) seat.reconnect_timer->cancel();
            seat.reconnect_timer.reset();
            cancel_grace(seat);
            pass_host_if_needed();
            welcome_seat(peer, seat, m.token);
            send(peer, snapshot());
            if (was_away) notice("back", &seat, who(seat) + " is back at " + seat_label(seat.number));
            broadcast_snapshot();
            // After a restart the game waits for its players: when the last is back it goes on
            // (and asks the decisions that were open).
            if (paused_ && pause_reason_ == PauseReason::restart && nobody_expected()) {
                notice("resumed", nullptr, "everyone is back: the game goes on");
                return start_clock();
            }
            // A decision still open for the seat (within the drop grace, or during a pause) is
            // asked again; the answer's time counts from now (the metrics' decision time).
            if (!seat.decision_id.empty() && table_) {
                seat.decision_sent = Clock::now();
                peer->grant_answer();
                send(peer, decision_message(seat.number, seat.decision_id,
                                            paused_ ? paused_left_ : step_timer_.expiry() - Clock::now()));
            }
            return;
        }
        error(peer, ErrorCode::bad_token, "no seat in room " + code_ + " has that token", "resume");
        peer->strike();  // guessing tokens is abuse, counted like any bad message
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::SubmitClientSeed& m) {
        const int number = seat_of(peer);
        if (number < 0) return error(peer, ErrorCode::not_a_player, "only seated players send client seeds", "client_seed");
        if (state_ != RoomState::seeding)
            return error(peer, ErrorCode::wrong_state, "client seeds are sent after the commitment, before the game",
                         "client_seed");
        auto& s = seat_ref(number);
        if (s.client_seed) return error(peer, ErrorCode::wrong_state, "your client seed is already in", "client_seed");
        if (auto err = check_client_seed(m.seed)) return error(peer, ErrorCode::bad_field, "seed: " + *err, "client_seed");
        s.client_seed = m.seed;
        event("seed", {{"seat", number}, {"seed", m.seed}});
        send(peer, ClientSeedAccepted{});
        if (all_seeds_in()) begin_game();
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Choose& m) {
        const int number = seat_of(peer);
        if (number < 0) return error(peer, ErrorCode::not_a_player, "spectators cannot choose", "choose");
        auto& s = seat_ref(number);
        if (!table_ || s.decision_id.empty() || s.decision_id != m.decision)
            return error(peer, ErrorCode::stale_decision,
                         "decision " + quote_client_text(m.decision) + " is not open for your seat (it is over or not yours)", "choose");
        if (paused_)
            return error(peer, ErrorCode::paused,
                         "the game is paused: choose when it resumes (your decision stays open, its time is kept)",
                         "choose");
        if (auto v = choose_on_table(player_of(number), m.piece, ChoiceMaker::player); !v)
            return error(peer, ErrorCode::illegal_choice, v.reason, "choose");
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - s.decision_sent).count();
        services_.metrics.observe_round_trip(ms);
        send(peer, ChoiceAccepted{s.decision_id, m.piece});
        s.decision_id.clear();
        if (pending_decisions() == 0) decisions_complete();
        else broadcast_snapshot();  // one fewer to wait for: everyone sees who is still choosing
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::SetOptions& m) {
        if (!host_only(peer, "set_options")) return;
        if (state_ != RoomState::lobby) return error(peer, ErrorCode::wrong_state, "options change in the lobby", "set_options");
        const int want = m.options.players;
        const int have = static_cast<int>(seats_.size());
        const int free = have - taken_count();
        if (want < have && have - want > free)
            return error(peer, ErrorCode::bad_field,
                         std::to_string(taken_count()) + " seats are taken: options.players must be at least that",
                         "set_options");
        // Seats come and go at the top: a new seat takes the lowest unused number, and the
        // highest free seats go. Nobody's seat changes its number.
        for (int n = have; n < want; ++n) {
            int number = 0;
            while (seat_at(number)) ++number;
            const auto at = std::find_if(seats_.begin(), seats_.end(), [&](const Seat& s) { return s.number > number; });
            const Seat added = *seats_.insert(at, empty_seat(number));
            notice("seat_added", &added, who(seat_ref(host_)) + " added " + seat_label(number));
        }
        for (int n = want; n < have; ++n) {
            for (auto it = seats_.rbegin(); it != seats_.rend(); ++it)
                if (!it->taken) {
                    const Seat removed = *it;
                    seats_.erase(std::next(it).base());
                    notice("seat_removed", &removed, who(seat_ref(host_)) + " removed " + seat_label(removed.number));
                    break;
                }
        }
        options_ = m.options;
        broadcast_snapshot();
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::SetSettings& m) {
        if (!host_only(peer, "set_settings")) return;
        settings_ = m.settings.applied_to(settings_);
        if (m.settings.auto_start_ms) arm_auto_start();
        broadcast_snapshot();
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::AddBot& m) {
        if (!host_only(peer, "add_bot")) return;
        if (state_ != RoomState::lobby) return error(peer, ErrorCode::wrong_state, "bots are added in the lobby", "add_bot");
        Seat* seat = lowest_free();
        if (!seat)
            return error(peer, ErrorCode::room_full,
                         "the room is full: all " + std::to_string(seats_.size()) +
                             " seats are taken (set options.players to add a seat)",
                         "add_bot");
        seat_bot(*seat, m.policy);
        broadcast_snapshot();
    }

    void seat_bot(Seat& seat, PolicyKind policy) {
        seat = empty_seat(seat.number);
        seat.taken = true;
        seat.bot = true;
        seat.policy = policy;
        int n = 1;
        do seat.name = std::string(to_string(policy)) + " bot " + std::to_string(n++);
        while (std::count_if(seats_.begin(), seats_.end(), [&](const Seat& s) { return s.taken && s.name == seat.name; }) > 1);
        notice("bot_added", &seat, "a " + std::string(to_string(policy)) + " bot takes " + seat_label(seat.number));
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::RemoveSeat& m) {
        if (!host_only(peer, "remove_seat")) return;
        if (state_ != RoomState::lobby)
            return error(peer, ErrorCode::wrong_state, "seats are emptied in the lobby (kick a player in a game)",
                         "remove_seat");
        Seat* seat = seat_at(m.seat);
        if (!seat || !seat->taken || m.seat == host_)
            return error(peer, ErrorCode::bad_field,
                         seat_label(m.seat) + (seat && !seat->taken ? " is free already"
                                               : m.seat == host_ ? " is the host's own seat"
                                                                 : " is not a seat of this room"),
                         "remove_seat");
        remove_from_seat(*seat, "removed");
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Kick& m) {
        if (!host_only(peer, "kick")) return;
        Seat* seat = seat_at(m.seat);
        if (!seat || !seat->human() || m.seat == host_)
            return error(peer, ErrorCode::bad_field,
                         seat_label(m.seat) + " is not a player you can kick" +
                             (seat && seat->bot ? " (it is a bot: remove it with remove_seat in the lobby)" : ""),
                         "kick");
        if (state_ == RoomState::lobby) return remove_from_seat(*seat, "kicked");
        // In a game the seat goes to a server-side bot, to the end of the game.
        if (auto p = seat->peer.lock()) {
            send(p, Kicked{code_, "the host removed you from the room"});
            let_go(p);
        }
        if (seat->reconnect_timer) seat->reconnect_timer->cancel();
        seat->reconnect_timer.reset();
        seat->peer.reset();
        seat->connected = false;
        seat->bot = true;
        seat->kicked = true;
        seat->policy = PolicyKind::best;
        seat->token_hash.clear();
        notice("kicked", seat, who(*seat) + " (" + seat_label(seat->number) + ") was kicked: a best bot plays it");
        answer_for_absent(*seat, ChoiceMaker::away);
        broadcast_snapshot();
        // The seeds being collected may all be in now (a bot sends none).
        if (state_ == RoomState::seeding && all_seeds_in()) begin_game();
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Start&) {
        if (!host_only(peer, "start")) return;
        if (state_ != RoomState::lobby) return error(peer, ErrorCode::wrong_state, "a game is already on", "start");
        if (auto err = start_game(peer->address())) error(peer, err->first, err->second, "start");
    }

    // Starts a game with the taken seats (the host, or the automatic start). Returns what
    // stopped it.
    std::optional<std::pair<ErrorCode, std::string>> start_game(const std::string& address) {
        GameOptions options = options_;
        options.players = taken_count();
        if (auto err = options.validate()) return std::pair{ErrorCode::wrong_state, "cannot start: " + *err};
        // Random boards are solved for the game (tens of milliseconds and 740 KB each with 3
        // pieces): one address gets so many a minute. The balanced pools' boards are solved once.
        if (options.game == GameKind::spook && !options.spook.balanced_boards)
            if (const auto wait = services_.solutions.allow_solves(address, options.players)) {
                spdlog::info("room {}: a game with random boards refused: {} asked for its {} board solves a minute",
                             code_, address, services_.config.solves_per_minute);
                return std::pair{ErrorCode::rate_limited,
                                 "games with random boards (balanced_boards false) are limited to " +
                                     std::to_string(services_.config.solves_per_minute) +
                                     " boards a minute from one address: try again in " +
                                     std::to_string(wait->count()) + " s, or play on balanced boards now"};
            }
        cancel_auto_start();
        // The game's record counts against the address of the host who started it (retention).
        owner_ = address;
        players_.clear();
        for (const auto& s : seats_)
            if (s.taken) players_.push_back(s.number);
        publish_game(options);
        return std::nullopt;
    }

    // ---- The automatic start (settings.auto_start_ms) -------------------------------------------
    void arm_auto_start() {
        const int after = settings_.auto_start_ms;
        cancel_auto_start();
        if (after <= 0 || state_ != RoomState::lobby) return;
        settings_.auto_start_ms = after;
        auto_start_at_ = now_ms() + after;
        auto_start_timer_.expires_after(std::chrono::milliseconds(after));
        auto_start_timer_.async_wait([self = self()](boost::system::error_code ec) {
            if (ec || self->closed_) return;
            self->guarded("the automatic start", [&] { self->auto_start(); });
        });
    }
    // An automatic start that could not fire when it was due (a restart, the journal failing)
    // fires when it was due, or in 5 s at the earliest.
    void rearm_auto_start() {
        if (!auto_start_at_) return;
        settings_.auto_start_ms = static_cast<int>(std::max<std::int64_t>(*auto_start_at_ - now_ms(), 5000));
        arm_auto_start();
    }
    void cancel_auto_start() {
        auto_start_timer_.cancel();
        auto_start_at_.reset();
        settings_.auto_start_ms = 0;  // it fires once
    }
    void auto_start() {
        if (state_ != RoomState::lobby || !auto_start_at_ || journal_fault_) return;
        dirty_ = true;
        auto_start_at_.reset();
        settings_.auto_start_ms = 0;
        int filled = 0;
        std::vector<int> bots;
        for (auto& s : seats_)
            if (!s.taken) {
                seat_bot(s, PolicyKind::best);
                bots.push_back(s.number);
                ++filled;
            }
        notice("auto_start", nullptr,
               filled > 0 ? "time is up: " + std::to_string(filled) + (filled == 1 ? " bot takes" : " bots take") +
                                " the free seats, and the game starts"
                          : "time is up: the game starts");
        const Seat* host = host_ >= 0 ? seat_at(host_) : nullptr;
        std::string address = "auto-start";
        if (host)
            if (auto p = host->peer.lock()) address = p->address();
        if (auto err = start_game(address)) {
            // The seats it filled are free again: the lobby is as it was.
            for (int n : bots) free_seat(seat_ref(n));
            notice("auto_start", nullptr, "the game could not start: " + err->second);
            broadcast_snapshot();
        }
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Pause&) {
        if (!host_only(peer, "pause")) return;
        if (state_ != RoomState::playing || paused_) return error(peer, ErrorCode::wrong_state, "nothing to pause", "pause");
        stop_clock(PauseReason::host);
        notice("paused", seat_at(host_), who(seat_ref(host_)) + " paused the game");
        broadcast_snapshot();
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Unpause&) {
        if (!host_only(peer, "resume_game")) return;
        if (!paused_) return error(peer, ErrorCode::wrong_state, "the game is not paused", "resume_game");
        notice("resumed", seat_at(host_), who(seat_ref(host_)) + " resumed the game");
        start_clock();
    }

    // The game's clock stops: what was left of the deadline or of the pause between steps is kept.
    void stop_clock(PauseReason why) {
        paused_ = true;
        pause_reason_ = why;
        paused_left_ = std::max<Clock::duration>(Clock::duration::zero(), step_timer_.expiry() - Clock::now());
        step_timer_.cancel();
        paused_at_ = Clock::now();
        for (auto& seat : seats_) cancel_grace(seat);  // a pause does not count against the drop grace
    }

    // The clock goes on from where it stopped (the host resumed, everyone is back after a
    // restart, the journal takes writes again).
    void start_clock() {
        if (journal_fault_) return;  // journal_back starts it
        paused_ = false;
        pause_reason_.reset();
        fault_paused_ = false;
        if (restart_wait_) restart_wait_->cancel();
        restart_wait_.reset();
        const auto left = paused_left_;
        dirty_ = true;
        if (waiting_for_decisions_) decision_deadline_at_ = now_ms() + std::chrono::duration_cast<std::chrono::milliseconds>(left).count();
        broadcast_snapshot();
        // The pause does not count against a dropped player's drop grace.
        const auto paused_for = Clock::now() - paused_at_;
        for (auto& seat : seats_)
            if (seat.human() && !seat.connected && seat.presence == Presence::away) seat.dropped_at += paused_for;
        // Decisions that were open get their remaining time again; a dropped player's waits for
        // the rest of their grace, or is played now (without completing the step yet).
        bool played = false;  // a seat the snapshot above still shows choosing
        for (auto& seat : seats_) {
            if (seat.decision_id.empty()) continue;
            if (auto p = seat.peer.lock(); p && seat.connected) {
                p->grant_answer();
                send(p, decision_message(seat.number, seat.decision_id, left));
            } else if (const auto grace = grace_left(seat)) {
                arm_grace(seat, *grace, left);
            } else {
                seat.decision_id.clear();
                auto_move(player_of(seat.number), ChoiceMaker::away);
                played = true;
            }
        }
        if (!table_) return;
        // Answers that came in for absent seats, during the pause or just now, complete the step.
        if (waiting_for_decisions_ && pending_decisions() == 0) return decisions_complete();
        if (played && waiting_for_decisions_) broadcast_snapshot();  // whom the step still waits for
        if (waiting_for_decisions_) journal_asked(left);  // the open decisions' new deadline
        arm(left, waiting_for_decisions_ ? Next::deadline : Next::advance);
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::EndGame&) {
        if (!host_only(peer, "end_game")) return;
        if (!table_ && state_ != RoomState::seeding) return error(peer, ErrorCode::wrong_state, "no game to end", "end_game");
        end_game(GameStatus::abandoned, "the host ended the game");
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Leave&) {
        const int number = seat_of(peer);
        if (number < 0) {
            const bool watched = drop_spectator(peer);
            let_go(peer);
            close_if_empty();
            if (watched && !closed_) broadcast_snapshot();  // one watcher fewer
            return;
        }
        let_go(peer);
        auto& s = seat_ref(number);
        if (state_ == RoomState::lobby) return remove_from_seat(s, "left");
        s.connected = false;
        s.presence = Presence::left;
        s.peer.reset();
        s.token_hash.clear();
        if (s.reconnect_timer) s.reconnect_timer->cancel();
        s.reconnect_timer.reset();
        notice("left", &s, who(s) + " left: the server plays " + seat_label(s.number));
        answer_for_absent(s, ChoiceMaker::away);
        pass_host_if_needed(who(s) + " left");
        broadcast_snapshot();
        abandon_if_nobody_left();
        // The seeds being collected may all be in now (a player who left sends none).
        if (state_ == RoomState::seeding && all_seeds_in()) begin_game();
    }

    void handle(const std::shared_ptr<Peer>& peer, protocol::Ping& m) {
        // Straight out: it says nothing of the room, and keeps a connection alive while the room
        // waits for its journal.
        peer->send(frame(Pong{m.t, now_ms()}));
    }

    template <class M>
    void handle(const std::shared_ptr<Peer>& peer, M&) {
        error(peer, ErrorCode::wrong_state, "that message is not for a room");
    }

    bool host_only(const std::shared_ptr<Peer>& peer, std::string_view what) {
        if (seat_of(peer) == host_ && host_ >= 0) return true;
        error(peer, seat_of(peer) < 0 && !is_spectator(peer) ? ErrorCode::not_in_room : ErrorCode::not_host,
              "only the host may " + std::string(what), what);
        return false;
    }

    // A lobby seat emptied: the player left, was kicked or removed, or did not come back.
    void remove_from_seat(Seat& s, std::string_view why) {
        if (auto p = s.peer.lock(); p && s.connected) {
            if (why == "kicked" || why == "removed") send(p, Kicked{code_, "the host removed you from the room"});
            let_go(p);
        }
        const std::string name = who(s);
        const int number = s.number;
        const Seat copy = s;
        free_seat(s);
        if (why == "left") notice("left", &copy, name + " left " + seat_label(number) + ": it is free");
        else if (why == "kicked") notice("kicked", &copy, name + " was kicked by the host: " + seat_label(number) + " is free");
        else if (why == "removed") notice("removed", &copy, "the host emptied " + seat_label(number) + " (" + name + ")");
        else notice("removed", &copy, name + " did not come back: " + seat_label(number) + " is free");
        if (host_ == number) host_ = -1;
        pass_host_if_needed(why == "left" ? name + " left" : why == "gone" ? name + " did not come back" : std::string());
        broadcast_snapshot();
        close_if_empty();
    }

    // The host's role belongs to the host's seat: a dropped connection, a refreshed page or a
    // server restart leaves it where it is (the seat waits for its player, host keys and all).
    // It moves, once and with a notice saying why, when the seat is given up: its player left on
    // purpose, was removed, or stayed away past the reconnect window. It goes to the first player
    // who is here, else to the first player who still holds a seat (away for now).
    static bool holds_host_seat(const Seat& s) {
        return s.human() && (s.presence == Presence::here || s.presence == Presence::away);
    }
    void pass_host_if_needed(const std::string& because = {}) {
        if (host_ >= 0)
            if (const Seat* h = seat_at(host_); h && holds_host_seat(*h)) return;
        const int old = host_;
        int next = -1;
        for (const auto& s : seats_)
            if (holds_host_seat(s) && s.connected && s.presence == Presence::here && !s.peer.expired()) {
                next = s.number;
                break;
            }
        if (next < 0)
            for (const auto& s : seats_)
                if (holds_host_seat(s)) {
                    next = s.number;
                    break;
                }
        host_ = next;
        if (host_ >= 0 && host_ != old) {
            auto& h = seat_ref(host_);
            notice("host", &h, who(h) + " is the host now" + (because.empty() ? "" : " (" + because + ")"));
        }
    }

    bool any_human_connected() const {
        return std::any_of(seats_.begin(), seats_.end(),
                           [](const Seat& s) { return s.human() && s.connected && !s.peer.expired(); });
    }
    // A dropped player's seat waiting for its reconnect window.
    bool anyone_expected() const {
        return std::any_of(seats_.begin(), seats_.end(), [](const Seat& s) {
            return s.human() && !s.connected && s.presence == Presence::away && s.reconnect_timer;
        });
    }

    void close_if_empty() {
        if (any_human_connected() || !spectators_.empty() || closed_) return;
        if (table_ || state_ == RoomState::seeding) return;  // the game ends first (abandoned after the reconnect window)
        if (anyone_expected()) return;                        // a lobby seat waits for its player
        closed_ = true;
        dirty_ = false;
        ops_.push_back({JournalOp::Kind::closed, {}, {}});
        step_timer_.cancel();
        auto_start_timer_.cancel();
        // The code is free once the journal has forgotten the room (written()): a new room under
        // it must not be forgotten with this one.
        forget_code_ = true;
        --services_.metrics.rooms;
        spdlog::info("room {}: closed (nobody left)", code_);
    }

    void abandon_if_nobody_left() {
        if (!table_ && state_ != RoomState::seeding) return close_if_empty();
        // A game is abandoned when no human is left after the reconnect window.
        for (const auto& s : seats_)
            if (s.human() && (s.connected || (s.presence == Presence::away && s.reconnect_timer))) return;
        end_game(GameStatus::abandoned, "no player is left");
    }

    // Takes a spectator (and any that is gone) off the list; true when `peer` was one.
    bool drop_spectator(const std::shared_ptr<Peer>& peer) {
        const auto before = spectators_.size();
        const bool was = is_spectator(peer);
        spectators_.erase(std::remove_if(spectators_.begin(), spectators_.end(),
                                         [&](const auto& w) { return w.lock() == peer || w.expired(); }),
                          spectators_.end());
        return was || spectators_.size() != before;
    }

    void on_disconnected(const std::shared_ptr<Peer>& peer) {
        if (stopped_) return;
        const bool watched = drop_spectator(peer);
        const int number = seat_of(peer);
        if (number < 0) {
            close_if_empty();
            if (watched && !closed_) broadcast_snapshot();  // one watcher fewer
            return;
        }
        auto& s = seat_ref(number);
        if (!s.connected) return;
        dirty_ = true;
        s.connected = false;
        if (s.presence == Presence::here) s.presence = Presence::away;
        const bool lobby = state_ == RoomState::lobby;
        notice("away", &s, who(s) + " lost the connection: " + seat_label(s.number) + " waits for them" +
                               (lobby ? "" : " (the server moves for them meanwhile)"));
        // Away: the seat is kept for the reconnect window; an open decision waits the drop grace (a
        // refreshed page or a phone that woke up answers it), then the server plays the best move.
        s.dropped_at = Clock::now();
        if (table_ && !s.decision_id.empty() && !paused_) {
            if (const auto grace = grace_left(s)) arm_grace(s, *grace, step_timer_.expiry() - Clock::now());
            else answer_for_absent(s, ChoiceMaker::away);  // no grace (--drop-grace-ms 0)
        }
        arm_reconnect_window(s, std::chrono::milliseconds(services_.config.reconnect_ms));
        broadcast_snapshot();
        if (state_ == RoomState::seeding && all_seeds_in()) begin_game();
    }

    // A dropped player's seat waits this long for them.
    void arm_reconnect_window(Seat& s, Clock::duration after) {
        s.reconnect_timer = std::make_shared<net::steady_timer>(strand_);
        s.reconnect_timer->expires_after(after);
        s.reconnect_timer->async_wait([self = self(), number = s.number, timer = s.reconnect_timer](boost::system::error_code ec) {
            if (ec || self->closed_) return;
            self->guarded("the reconnect window", [&] { self->window_over(number, timer); });
        });
    }

    // The reconnect window of a dropped player ran out.
    void window_over(int number, const std::shared_ptr<net::steady_timer>& timer) {
        Seat* s = seat_at(number);
        if (!s || !s->human() || s->reconnect_timer != timer || s->connected) return;
        if (journal_fault_) return arm_reconnect_window(*s, std::chrono::seconds(1));  // not while nothing can be saved
        dirty_ = true;
        s->reconnect_timer.reset();
        if (state_ == RoomState::lobby) return remove_from_seat(*s, "gone");
        s->presence = Presence::server;
        answer_for_absent(*s, ChoiceMaker::away);
        notice("server_plays", s,
               who(*s) + " did not come back: the server plays " + seat_label(number) + " (their token still takes it back)");
        pass_host_if_needed(who(*s) + " did not come back");
        broadcast_snapshot();
        abandon_if_nobody_left();
    }

    // ---- A game -----------------------------------------------------------------------------
    void publish_game(const GameOptions& options) {
        game_options_ = options;
        last_game_.reset();
        publication_ = publish(options);
        game_id_ = code_ + "-" + std::to_string(now_ms()) + "-" + publication_->seed.commitment().substr(0, 8);
        state_ = RoomState::seeding;
        dirty_ = true;
        journal_game(false, {});
        for (auto& s : seats_) {
            s.client_seed.reset();
            // The room asks every player for a seed: that answer is not rate limited either
            // (games played back to back would otherwise run into the limit).
            if (auto p = s.peer.lock(); p && s.human() && s.connected) p->grant_answer();
        }
        broadcast(Commitment{game_id_, publication_->seed.commitment(), services_.config.seed_wait_ms,
                             publication_->boards});
        spdlog::info("room {}: game {} published, waiting for client seeds", code_, game_id_);
        if (all_seeds_in()) return begin_game();
        arm(std::chrono::milliseconds(services_.config.seed_wait_ms), Next::seeds_timeout);
    }

    bool all_seeds_in() const {
        return std::all_of(seats_.begin(), seats_.end(), [](const Seat& s) {
            return !s.taken || s.bot || !s.connected || s.client_seed.has_value();
        });
    }

    // The highest room seat number + 1: the length of the arrays indexed by room seat.
    std::size_t seat_span() const { return seats_.empty() ? 0 : static_cast<std::size_t>(seats_.back().number) + 1; }

    void begin_game() {
        step_timer_.cancel();
        std::vector<TableSeat> seats;
        std::vector<ClientSeed> client_seeds;
        for (std::size_t p = 0; p < players_.size(); ++p) {
            const auto& s = seat_ref(players_[p]);
            seats.push_back({s.name, s.bot, s.policy, s.number});
            if (!s.bot && s.client_seed) client_seeds.push_back({static_cast<int>(p), *s.client_seed});
        }
        try {
            table_ = make_table(*game_options_, seats, *publication_, client_seeds, services_);
        } catch (const std::exception& e) {
            spdlog::error("room {}: cannot start the game: {}", code_, e.what());
            state_ = RoomState::lobby;
            publication_.reset();
            paused_ = false;
            pause_reason_.reset();
            dirty_ = true;
            ops_.push_back({JournalOp::Kind::game_over, {}, {}});
            broadcast(ErrorReply{std::string(to_string(ErrorCode::wrong_state)), std::string("cannot start: ") + e.what(),
                                 "start"});
            return;
        }
        state_ = RoomState::playing;
        dirty_ = true;
        journal_game(true, client_seeds);
        ++services_.metrics.games_started;
        GameStarted started{game_id_, *game_options_, {}, {}, players_};
        for (const auto& c : client_seeds) started.client_seeds.push_back({players_[static_cast<std::size_t>(c.seat)], c.seed});
        const auto& assignment = table_->record().assignment;
        if (!assignment.empty()) {
            started.assignment.assign(seat_span(), -1);
            for (std::size_t p = 0; p < assignment.size() && p < players_.size(); ++p)
                started.assignment[static_cast<std::size_t>(players_[p])] = assignment[p];
        }
        broadcast(started);
        broadcast_snapshot();
        spdlog::info("room {}: game {} started with {} players", code_, game_id_, players_.size());
        arm(std::chrono::milliseconds(settings_.pace_ms), Next::advance);
    }

    enum class Next { advance, deadline, seeds_timeout };

    void arm(Clock::duration after, Next next) {
        if (paused_ || closed_) return;
        const auto epoch = ++epoch_;
        if (after <= Clock::duration::zero()) {
            // At zero pace the next step runs now, not on a timer: what a round sends (the last
            // answer's acceptance, the moves, the activation, the next roll and decisions) leaves
            // in one write per connection. A few steps at a time, so that a room of bots does not
            // hold the thread for a whole game.
            immediate_ = Immediate{next, epoch};
            if (!pumping_) run_immediate();
            return;
        }
        // The pause between steps is on the grid (rooms stepping together share a wake-up and a
        // transaction); a decision's deadline is what the players were told, to the millisecond.
        step_timer_.expires_at(next == Next::advance ? step_deadline(after) : Clock::now() + after);
        step_timer_.async_wait([self = self(), next, epoch](boost::system::error_code ec) {
            if (!ec) self->guarded("a game step", [&] { self->fire(next, epoch); });
        });
    }

    struct Immediate {
        Next next;
        std::uint64_t epoch;
    };
    static constexpr int kInlineSteps = 16;

    void run_immediate() {
        pumping_ = true;
        for (int steps = 0; immediate_ && steps < kInlineSteps; ++steps) {
            const Immediate now = *std::exchange(immediate_, std::nullopt);
            fire(now.next, now.epoch);
        }
        pumping_ = false;
        if (immediate_ && !immediate_posted_) continue_immediate();
    }
    // The rest after what else waits for this thread, and once the journal is no more than a few
    // passes behind (a room of bots at zero pace would otherwise run ahead of it without bound;
    // written() goes on).
    static constexpr std::uint64_t kPassesAhead = 4;
    void continue_immediate() {
        if (tickets_ - settled_ >= kPassesAhead) return;
        immediate_posted_ = true;
        net::post(strand_, [self = self()] {
            self->immediate_posted_ = false;
            self->guarded("a game step", [&] { self->run_immediate(); });
        });
    }

    void fire(Next next, std::uint64_t epoch) {
        if (epoch != epoch_ || paused_ || closed_ || journal_fault_) return;  // superseded, paused or closed since
        switch (next) {
            case Next::advance: advance(); break;
            case Next::deadline: deadline(); break;
            case Next::seeds_timeout:
                if (state_ == RoomState::seeding) begin_game();
                break;
        }
    }

    void advance() {
        if (!table_ || table_->over()) return;
        std::vector<std::string> out;  // the table's messages, encoded
        std::vector<int> needs;
        try {
            needs = table_->advance(out);
        } catch (const std::exception& e) {
            spdlog::error("room {}: the game failed: {}", code_, e.what());
            return end_game(GameStatus::abandoned, "an internal error");
        }
        event("advance", {{"out", out}});
        for (auto& m : out) send_to_all(frame(std::move(m)));
        const auto deadline = std::chrono::milliseconds(settings_.decision_ms);
        for (int player : needs) {
            auto& s = seat_ref(players_[static_cast<std::size_t>(player)]);
            if (s.bot) {
                (void)choose_on_table(player, bot_choice(player, s.policy), ChoiceMaker::player, true);
                continue;
            }
            const auto grace = grace_left(s);  // once: a dropped player's decision waits for them
            if (s.server_played() && !grace) {
                auto_move(player, ChoiceMaker::away);
                continue;
            }
            s.decision_id = std::to_string(++decision_counter_);
            s.decision_sent = Clock::now();
            ++services_.metrics.decisions;
            if (auto p = s.peer.lock(); p && s.connected) {
                p->grant_answer();
                send(p, decision_message(s.number, s.decision_id, deadline));
            } else if (grace) {
                arm_grace(s, *grace, deadline);  // dropped a moment ago: the rest of the grace
            }
        }
        journal_asked(deadline);
        if (pending_decisions() > 0) {
            waiting_for_decisions_ = true;
            decision_deadline_at_ = now_ms() + deadline.count();
            arm(deadline, Next::deadline);
            broadcast_snapshot();  // whom the step waits for, and until when
            return;
        }
        after_decisions(out.empty());
    }

    Decision decision_message(int number, const std::string& id, Clock::duration left) {
        left = std::max<Clock::duration>(left, Clock::duration::zero());
        return Decision{id,
                        number,
                        table_->step_number(),
                        table_->decision_options(player_of(number), settings_.hints),
                        std::chrono::duration_cast<std::chrono::milliseconds>(left).count(),
                        now_ms()};
    }

    int pending_decisions() const {
        return static_cast<int>(std::count_if(seats_.begin(), seats_.end(), [](const Seat& s) { return !s.decision_id.empty(); }));
    }

    void auto_move(int player, ChoiceMaker maker) {
        ++services_.metrics.auto_moves;
        (void)choose_on_table(player, table_->server_choice(player), maker);
    }

    Clock::duration drop_grace() const { return std::chrono::milliseconds(services_.config.drop_grace_ms); }

    // What is left of the drop grace of a player who lost the connection (a refresh, a phone
    // waking up), counted from the drop, pauses left out; nothing when it is over or the seat is
    // not away.
    std::optional<Clock::duration> grace_left(const Seat& s) const {
        if (!s.human() || s.connected || s.presence != Presence::away) return std::nullopt;
        const auto left = s.dropped_at + drop_grace() - Clock::now();
        if (left <= Clock::duration::zero()) return std::nullopt;
        return left;
    }

    void cancel_grace(Seat& s) {
        if (s.grace_timer) s.grace_timer->cancel();
        s.grace_timer.reset();
    }

    // The decision `s` owes waits `grace` more for its player, unless its own time (`left`) ends
    // first (it then times out as usual); when the grace ends the server plays it as away. Never
    // answers anything itself: the caller decides what to do when there is no grace left.
    void arm_grace(Seat& s, Clock::duration grace, Clock::duration left) {
        cancel_grace(s);
        if (left <= grace) return;
        s.grace_timer = std::make_shared<net::steady_timer>(strand_);
        s.grace_timer->expires_after(grace);
        s.grace_timer->async_wait(
            [self = self(), number = s.number, id = s.decision_id, timer = s.grace_timer](boost::system::error_code ec) {
                if (ec || self->closed_) return;
                self->guarded("the drop grace", [&] {
                    Seat* seat = self->seat_at(number);
                    if (!seat || seat->grace_timer != timer || seat->decision_id != id || seat->connected || self->paused_) return;
                    seat->grace_timer.reset();
                    self->answer_for_absent(*seat, ChoiceMaker::away);
                    if (self->pending_decisions() > 0) self->broadcast_snapshot();  // one fewer to wait for
                });
            });
    }

    // A seat that owes a decision and cannot answer (gone, kicked, left): the server answers now.
    void answer_for_absent(Seat& s, ChoiceMaker maker) {
        cancel_grace(s);
        if (!table_ || s.decision_id.empty()) return;
        s.decision_id.clear();
        const int player = player_of(s.number);
        if (s.bot) (void)choose_on_table(player, bot_choice(player, s.policy), ChoiceMaker::player, true);
        else auto_move(player, maker);
        // During a pause the step completes when play resumes.
        if (pending_decisions() == 0 && !paused_) decisions_complete();
    }

    void deadline() {
        for (auto& seat : seats_) {
            if (seat.decision_id.empty()) continue;
            cancel_grace(seat);
            if (auto p = seat.peer.lock(); p && seat.connected) send(p, DecisionTimeout{seat.decision_id});
            seat.decision_id.clear();
            auto_move(player_of(seat.number), ChoiceMaker::timeout);
        }
        decisions_complete();
    }

    void decisions_complete() {
        waiting_for_decisions_ = false;
        ++epoch_;  // the deadline timer no longer applies
        after_decisions(false);
    }

    void after_decisions(bool nothing_shown) {
        std::vector<std::string> out;
        table_->resolve(out);
        event("resolve", {{"out", out}});
        for (auto& m : out) send_to_all(frame(std::move(m)));
        if (table_->over()) return end_game(GameStatus::finished, "");
        const auto pace = nothing_shown && out.empty() ? Clock::duration::zero() : std::chrono::milliseconds(settings_.pace_ms);
        arm(pace, Next::advance);
    }

    void end_game(GameStatus status, const std::string& why) {
        step_timer_.cancel();
        ++epoch_;
        waiting_for_decisions_ = false;
        paused_ = false;
        pause_reason_.reset();
        fault_paused_ = false;
        if (restart_wait_) restart_wait_->cancel();
        restart_wait_.reset();
        GameOver over;
        over.game_id = game_id_;
        over.status = std::string(to_string(status));
        std::shared_ptr<const FinishedGame> finished;
        if (table_) {
            if (status == GameStatus::abandoned) table_->abandon();
            const GameRecord& record = table_->record();
            // The record goes into the history with the journal's transaction that forgets the
            // game (before game_over is sent): a crash before it replays the game to the same end.
            // Its file (--export-records) is written once that transaction is: a file never shows
            // the seed of a game a restart would take up again.
            try {
                finished = std::make_shared<const FinishedGame>(
                    FinishedGame{record, game_id_, owner_, record_text(record), now_ms()});
            } catch (const std::exception& e) {
                spdlog::error("room {}: the record of game {} cannot be rendered: {}", code_, game_id_, e.what());
            }
            // The record counts the game's players; the room's messages name its seats.
            for (int w : record.result.winners)
                if (w >= 0 && w < static_cast<int>(players_.size())) over.winners.push_back(players_[static_cast<std::size_t>(w)]);
            over.places.assign(seat_span(), 0);
            for (std::size_t p = 0; p < record.result.places.size() && p < players_.size(); ++p)
                over.places[static_cast<std::size_t>(players_[p])] = record.result.places[p];
            // The players' names as they played (a seat may be free or taken by another later).
            over.names.assign(seat_span(), "");
            for (int n : players_) over.names[static_cast<std::size_t>(n)] = seat_ref(n).name;
            over.length = record.result.length;
            over.server_seed = record.server_seed;
            if (finished) over.record = "/records/" + game_id_;
            if (status == GameStatus::finished) ++services_.metrics.games_finished;
            else ++services_.metrics.games_abandoned;
        } else if (publication_) {
            over.server_seed = publication_->seed.hex();  // abandoned before it started
        }
        if (!why.empty()) over.reason = why;
        for (auto& s : seats_) {
            cancel_grace(s);
            s.decision_id.clear();
        }
        ops_.push_back({JournalOp::Kind::game_over, {}, {}, std::move(finished)});
        dirty_ = true;
        broadcast(over);
        last_game_ = over;  // the lobby's snapshot keeps it for a page that comes back later
        spdlog::info("room {}: game {} {}{}", code_, game_id_, to_string(status), why.empty() ? "" : " (" + why + ")");
        table_.reset();
        publication_.reset();
        players_.clear();
        state_ = RoomState::lobby;
        // Back to the lobby: the seats of players who left, were kicked or are gone are free
        // (nobody stays on as a bot under their name); those who are here keep theirs.
        for (auto& s : seats_) {
            if (!s.taken) continue;
            const bool replaced = s.bot && s.kicked;
            // A player who dropped just now keeps the seat for the rest of the reconnect window.
            const bool gone = s.human() && (s.presence == Presence::left || s.presence == Presence::server ||
                                            (!s.connected && !s.reconnect_timer));
            if (replaced || gone) free_seat(s);
        }
        if (host_ >= 0 && !seat_ref(host_).taken) host_ = -1;
        pass_host_if_needed();
        broadcast_snapshot();
        close_if_empty();
    }

    // ---- The journal ------------------------------------------------------------------------
    // One event of the game in progress, written with the pass.
    void event(const char* kind, const json& data) { ops_.push_back({JournalOp::Kind::event, kind, data.dump()}); }

    // The decisions open now and their deadline (after `left`): asked at a step, or again after a pause.
    void journal_asked(Clock::duration left) {
        json asked = json::array();
        for (const auto& s : seats_)
            if (!s.decision_id.empty()) asked.push_back({s.number, s.decision_id});
        if (asked.empty()) return;
        event("ask", {{"decisions", asked},
                      {"deadline_ms", now_ms() + std::chrono::duration_cast<std::chrono::milliseconds>(left).count()}});
    }

    // `server_bot`: the seat's server-side bot chose (the journal keeps it: a replay shows the
    // same "by").
    Verdict choose_on_table(int player, int piece, ChoiceMaker maker, bool server_bot = false) {
        Verdict v = table_->choose(player, piece, maker, server_bot);
        if (v) event("choice", {{"player", player}, {"piece", piece}, {"maker", to_string(maker)}, {"bot", server_bot}});
        return v;
    }

    // A server-side bot's move. Its randomness (the random policy's draw, any policy's ties) is a
    // function of the game's secret seed, the step and the player, not of a generator's history:
    // a room taken up again after a restart makes the same moves the room before it would have.
    int bot_choice(int player, PolicyKind policy) const {
        Rng rng = bot_rng(player);
        return table_->bot_choice(player, policy, rng);
    }
    Rng bot_rng(int player) const {
        const std::string digest = sha256_hex("spookludo/bot/v1:" + publication_->seed.hex() + ":" +
                                              std::to_string(table_->step_number()) + ":" + std::to_string(player));
        return Rng(std::stoull(digest.substr(0, 16), nullptr, 16));
    }

    // The game as published (`started` false: its seeds are being collected) or started.
    void journal_game(bool started, const std::vector<ClientSeed>& client_seeds) {
        json seats = json::array();
        for (int n : players_) {
            const auto& s = seat_ref(n);
            seats.push_back({{"name", s.name}, {"bot", s.bot}, {"policy", to_string(s.policy)}, {"number", s.number}});
        }
        json seeds = json::array();
        for (const auto& c : client_seeds) seeds.push_back({{"seat", c.seat}, {"seed", c.seed}});
        json g = {{"id", game_id_},   {"options", *game_options_}, {"players", players_},
                  {"seats", seats},   {"seed", publication_->seed.hex()}, {"boards", publication_->boards},
                  {"owner", owner_},  {"started", started},         {"client_seeds", seeds}};
        ops_.push_back({JournalOp::Kind::game, {}, g.dump()});
    }

    // What the room must have again after a restart, besides its game: a JSON object. Without the
    // decision counter: it changes at every step, and a restart finds it in the game's `ask`
    // events (the state written at the game's end has it).
    json durable_state() const {
        json seats = json::array();
        for (const auto& s : seats_) {
            json v = {{"number", s.number}, {"taken", s.taken}};
            if (s.taken)
                v.update({{"name", s.name},
                          {"bot", s.bot},
                          {"policy", to_string(s.policy)},
                          {"kicked", s.kicked},
                          {"token_hash", s.token_hash},
                          {"presence", name_of(s.presence)}});
            seats.push_back(std::move(v));
        }
        json j = {{"options", options_},   {"settings", settings_},          {"host", host_},
                  {"seats", seats},        {"state", name_of(state_)},       {"owner", owner_},
                  {"paused", paused_},     {"creator_address", creator_address_}};
        if (paused_) {
            j["paused_left_ms"] = std::chrono::duration_cast<std::chrono::milliseconds>(paused_left_).count();
            if (pause_reason_) j["pause_reason"] = name_of(*pause_reason_);
        }
        if (auto_start_at_) j["auto_start_at_ms"] = *auto_start_at_;
        if (last_game_) j["last_game"] = *last_game_;
        return j;
    }

    // The end of a pass (a message, a timer, a hang-up): what it changed goes to the journal's
    // writer (group commit: the passes of many rooms in one transaction), and what it sent waits
    // until the writer says it is written (written()). A pass that changed nothing sends at once,
    // unless earlier passes' messages still wait: then after them. While the journal cannot take
    // the room's writes (journal_fault), everything is held until a retry writes it.
    void end_pass(bool retry = false) {
        if (stopped_) {
            ops_.clear();
            dirty_ = false;
            held_.clear();
            return;
        }
        // The room's state is written when it changed (a refused message changes nothing).
        if (dirty_ && !closed_) {
            json state = durable_state();
            if (std::string text = state.dump(); text != journaled_state_) {
                journaled_state_ = std::move(text);
                state["decisions"] = decision_counter_;
                ops_.push_back({JournalOp::Kind::room, {}, state.dump()});
            }
        }
        dirty_ = false;
        if (services_.config.no_journal) {
            for (const auto& op : ops_)
                if (op.finished) try {
                        services_.history->add(*op.finished);
                        services_.export_record(*op.finished);
                    } catch (const std::exception& e) {
                        spdlog::error("room {}: the history cannot take game {}: {}", code_, op.finished->id, e.what());
                    }
            ops_.clear();
            if (std::exchange(forget_code_, false)) services_.forget_room(code_);
            return release(held_);
        }
        if (journal_fault_) {
            if (!retry) return;  // held until the retry
            // Everything given back goes first, in order, once no earlier pass is unanswered.
            if (settled_ != tickets_) return retry_later();
            auto finished = finished_in(ops_);  // the given-back passes' records wait with their messages already
            returned_.insert(returned_.end(), std::make_move_iterator(ops_.begin()), std::make_move_iterator(ops_.end()));
            ops_ = std::exchange(returned_, {});
            retry_ticket_ = submit(true, std::move(finished));
            return;
        }
        if (!ops_.empty()) submit(false, finished_in(ops_));
        else if (!held_.empty() && waiting_.empty()) release(held_);
        else if (!held_.empty()) {
            auto& last = waiting_.back().messages;  // after the passes before it
            last.insert(last.end(), std::make_move_iterator(held_.begin()), std::make_move_iterator(held_.end()));
            held_.clear();
        }
    }

    // Hands this pass's ops to the journal's writer; its messages (and records to export) wait
    // for the answer under a new ticket.
    static std::vector<std::shared_ptr<const FinishedGame>> finished_in(const std::vector<JournalOp>& ops) {
        std::vector<std::shared_ptr<const FinishedGame>> finished;
        for (const auto& op : ops)
            if (op.finished) finished.push_back(op.finished);
        return finished;
    }

    std::uint64_t submit(bool retry, std::vector<std::shared_ptr<const FinishedGame>> finished) {
        const std::uint64_t ticket = ++tickets_;
        if (std::exchange(forget_code_, false)) forget_code_ticket_ = ticket;
        waiting_.push_back({ticket, std::exchange(held_, {}), std::move(finished)});
        // The answer holds the room until it is on the room's strand (the room is never let go
        // on the writer's thread). It comes on an I/O thread (the writer's batch of answers, one
        // task): it runs there at once when the room's strand is free.
        services_.journal_writer->submit(
            stream_, std::exchange(ops_, {}), retry, [self = self(), ticket](JournalWriter::Answer answer) mutable {
                auto* strand = &self->strand_;
                net::dispatch(*strand, [self = std::move(self), ticket, answer = std::move(answer)]() mutable {
                    self->guarded("the journal's answer", [&] { self->written(ticket, std::move(answer)); });
                });
            });
        return ticket;
    }

    // The writer's answer to a ticket: written (its messages, and those of the passes before it,
    // go out), or failed (its ops come back, to be written first by the retry).
    void written(std::uint64_t ticket, JournalWriter::Answer answer) {
        ++settled_;
        if (answer.fenced) give_up(*answer.error);
        if (!answer.error) {
            while (!waiting_.empty() && waiting_.front().ticket <= ticket) {
                Waiting w = std::move(waiting_.front());
                waiting_.erase(waiting_.begin());
                for (const auto& f : w.finished) services_.export_record(*f);
                release(w.messages);
            }
            if (forget_code_ticket_ && ticket >= forget_code_ticket_) {
                forget_code_ticket_ = 0;
                services_.forget_room(code_);
            }
            if (!stopped_ && journal_fault_ && ticket == retry_ticket_) {
                journal_back();
                end_pass();
            }
        } else {
            returned_.insert(returned_.end(), std::make_move_iterator(answer.ops.begin()),
                             std::make_move_iterator(answer.ops.end()));
            if (!stopped_) {
                journal_fault(*answer.error);
                end_pass();
            }
        }
        settle();
        // A room playing at zero pace that waited for the journal goes on.
        if (immediate_ && !pumping_ && !immediate_posted_ && !stopped_) continue_immediate();
    }

    // Another node of the cluster has this room now (its journal refused our write: fencing), or
    // the cluster's store lost writes of it: it stops here at once. What waited for the journal is
    // never sent (the journal does not have it); everyone is told to reconnect, which sends them
    // to the node that has the room (taken up there from the journal, at its last written step).
    void give_up(const std::string& why) {
        if (stopped_) return settle();
        spdlog::warn("room {}: {}: it stops on this node; its players are sent on", code_, why);
        if (!closed_) --services_.metrics.rooms;
        if (journal_fault_) {
            journal_fault_.reset();
            --services_.metrics.journal_paused_rooms;
        }
        stopped_ = true;
        closed_ = true;
        stop_timers();
        waiting_.clear();
        held_.clear();
        returned_.clear();
        ops_.clear();
        forget_code_ = false;
        forget_code_ticket_ = 0;
        const auto text = frame(Closing{"restart", "this room moved to another node of the cluster: reconnect with "
                                                   "your seat's token and you are sent there"});
        for_each_recipient([&](const std::shared_ptr<Peer>& p) {
            p->send(text);
            p->close();
        });
        services_.registry.remove_if(code_, this);
        // The store lost writes of a room that is still this node's: it is taken up again from
        // what the store has, as after a crash.
        if (why.rfind("GAP", 0) == 0 && services_.cluster) services_.cluster->take_back(code_);
        settle();
    }

    // The shutdown's end, once every pass has its answer.
    void settle() {
        if (stopped_ && settled_ == tickets_ && when_settled_) std::exchange(when_settled_, {})();
    }

    void release(std::vector<Held>& messages) {
        auto held = std::exchange(messages, {});
        for (auto& [peer, text] : held) {
            if (text) peer->send(std::move(text));
            else peer->close();
        }
    }

    void journal_fault(const std::string& why) {
        if (journal_fault_) services_.journal_failed(why);
        if (!journal_fault_) {
            ++services_.metrics.journal_paused_rooms;  // before /healthz hears of it
            services_.journal_failed(why);
            journal_fault_ = why;
            spdlog::error("room {}: the journal cannot be written ({}): the room is paused until it can", code_, why);
            // Nothing moves until it can be written: the game's clock, the seed deadline, the
            // automatic start (timers that fire meanwhile find journal_fault_ and wait).
            if (state_ == RoomState::playing && !paused_ && !closed_) {
                stop_clock(PauseReason::journal);
                fault_paused_ = true;
            }
            step_timer_.cancel();
            auto_start_timer_.cancel();
            Notice n;
            n.kind = "journal";
            n.text = "The server cannot save this room right now (" + why +
                     "): the game is paused and goes on by itself when saving works again. Nothing is lost.";
            tell_now(n);
        }
        retry_later();
    }

    // Tried again in a second (each try is a pass of its own).
    void retry_later() {
        journal_retry_ = std::make_shared<net::steady_timer>(strand_);
        journal_retry_->expires_after(std::chrono::seconds(1));
        journal_retry_->async_wait([self = self(), timer = journal_retry_](boost::system::error_code ec) {
            if (ec || self->stopped_ || self->journal_retry_ != timer) return;
            self->end_pass(true);
        });
    }

    void journal_back() {
        journal_fault_.reset();
        journal_retry_.reset();
        --services_.metrics.journal_paused_rooms;
        services_.journal_recovered();
        spdlog::info("room {}: the journal takes writes again", code_);
        if (closed_) return;
        auto go_on = [&] {
            notice("journal", nullptr, std::string("The server can save this room again") + (paused_ ? "." : ": it goes on."));
            // What waited for the journal goes on: the game's clock (a pause for the journal, a
            // restart's wait that ended meanwhile), the seeds, the automatic start.
            if (paused_ && (fault_paused_ || (pause_reason_ == PauseReason::restart && !restart_wait_))) {
                notice("resumed", nullptr, "the game goes on");
                return start_clock();
            }
            if (state_ == RoomState::seeding) return begin_game();
            if (state_ == RoomState::lobby) rearm_auto_start();
            broadcast_snapshot();
        };
        run_guarded("the journal's recovery", go_on);
    }

    void stop_timers() {
        step_timer_.cancel();
        auto_start_timer_.cancel();
        if (restart_wait_) restart_wait_->cancel();
        if (journal_retry_) journal_retry_->cancel();
        for (auto& s : seats_) {
            if (s.reconnect_timer) s.reconnect_timer->cancel();
            cancel_grace(s);
        }
    }

    // After a restart: human seats whose player has not come back yet.
    bool nobody_expected() const {
        return std::none_of(seats_.begin(), seats_.end(),
                            [](const Seat& s) { return s.human() && !s.connected && s.presence == Presence::away; });
    }

    // The first pass after a restart (on the strand, the server serving).
    void after_restore(bool seeding) {
        dirty_ = true;
        for (auto& s : seats_)
            if (s.human() && !s.connected && s.presence == Presence::away)
                arm_reconnect_window(s, std::chrono::milliseconds(services_.config.reconnect_ms));
        if (seeding) begin_game();  // the seeds that were in; the others are left out, as at the seed deadline
        if (state_ == RoomState::lobby) {
            rearm_auto_start();
            return close_if_empty();
        }
        if (!table_ || !paused_ || pause_reason_ != PauseReason::restart) return;
        if (nobody_expected()) {
            notice("resumed", nullptr, "the server restarted: the game goes on");
            return start_clock();
        }
        notice("paused", nullptr, "the server restarted: the game waits for its players to come back (at most " +
                                      std::to_string(services_.config.reconnect_ms / 1000) + " s; the host may resume it)");
        restart_wait_ = std::make_shared<net::steady_timer>(strand_);
        restart_wait_->expires_after(std::chrono::milliseconds(services_.config.reconnect_ms));
        restart_wait_->async_wait([self = self(), timer = restart_wait_](boost::system::error_code ec) {
            if (ec || self->closed_ || self->restart_wait_ != timer) return;
            self->guarded("the restart's wait", [&] {
                self->restart_wait_.reset();
                if (!self->paused_ || self->pause_reason_ != PauseReason::restart || self->journal_fault_) return;
                self->notice("resumed", nullptr, "the wait for the players is over: the game goes on");
                self->start_clock();
            });
        });
    }

    net::any_io_executor strand_;  // the room's handlers, one at a time (serial_executor.h)
    net::steady_timer step_timer_;
    net::steady_timer auto_start_timer_;
    Services& services_;
    std::string code_;
    // The address that created the room (the Registry counts the room against it); set before
    // anyone else sees the room, never changed.
    std::string creator_address_;
    GameOptions options_;
    protocol::RoomSettings settings_;
    std::vector<Seat> seats_;   // the room's seats, by number (ascending; gaps where a seat was removed)
    std::vector<int> players_;  // during a game: the seats that play, in play order (the table's numbering)
    // By peer id: the entry count of the last message the room took from that peer (let_go).
    std::unordered_map<std::uint64_t, std::uint64_t> entries_;
    std::vector<std::weak_ptr<Peer>> spectators_;
    int host_ = -1;  // a seat number
    RoomState state_ = RoomState::lobby;
    std::optional<GameOver> last_game_;  // how the last game ended, shown in the lobby's snapshot
    bool paused_ = false;
    bool closed_ = false;
    bool waiting_for_decisions_ = false;
    bool pumping_ = false;                // running zero-pace steps (arm)
    std::optional<Immediate> immediate_;  // the zero-pace step to run next
    Clock::duration paused_left_{};
    Clock::time_point paused_at_{};
    std::optional<std::int64_t> auto_start_at_;  // server clock ms
    std::int64_t decision_deadline_at_ = 0;       // server clock ms: the open decisions' deadline (waiting_for_decisions_)
    std::uint64_t epoch_ = 0;
    std::uint64_t decision_counter_ = 0;
    std::optional<GameOptions> game_options_;
    std::optional<Publication> publication_;
    std::string game_id_;
    std::string owner_;  // the address of the host who started the game (record retention)
    std::unique_ptr<Table> table_;
    std::optional<PauseReason> pause_reason_;  // while paused_
    bool fault_paused_ = false;                // paused_ by journal_fault (it resumes by itself)
    std::shared_ptr<net::steady_timer> restart_wait_;  // after a restart: the longest the game waits for its players
    // The journal: this pass's writes, the room's own state to write at its end, the messages
    // held until they are written, the next event number, and why it cannot write (paused).
    std::vector<JournalOp> ops_;
    bool dirty_ = false;
    std::string journaled_state_;  // the room's state as last given to the journal
    std::vector<Held> held_;  // this pass's messages
    std::int64_t created_ms_;
    // The room's place in the journal (its next event's number); the writer's thread's once submitted.
    std::shared_ptr<JournalWriter::Stream> stream_;
    // Passes handed to the writer (tickets_), answered (settled_), and their messages waiting for
    // the answer, in order.
    struct Waiting {
        std::uint64_t ticket;
        std::vector<Held> messages;
        std::vector<std::shared_ptr<const FinishedGame>> finished;  // records to export once written
    };
    std::vector<Waiting> waiting_;  // a few passes (no deque's 512-byte block per room)
    std::uint64_t tickets_ = 0, settled_ = 0, retry_ticket_ = 0;
    std::vector<JournalOp> returned_;  // failed passes' ops, given back in order: the retry writes them first
    std::function<void()> when_settled_;  // the shutdown's end
    bool forget_code_ = false;                // the room closed: its code goes once that is written
    std::uint64_t forget_code_ticket_ = 0;    // the ticket that writes it
    bool immediate_posted_ = false;           // run_immediate is on its way
    std::optional<std::string> journal_fault_;
    std::shared_ptr<net::steady_timer> journal_retry_;
    bool stopped_ = false;  // the server stopped: nothing more is written or sent
};

// One event of a game's journal run again on its table: a step (advance, resolve) must show
// what the journal says was sent (false when it shows something else; not checked unless
// `check`), a choice is made again. Other events (asks, seeds) are the room's.
bool replay_step(Table& table, const SavedRoom::Event& e, const json& d, const std::vector<TableSeat>& seats, bool check) {
    if (e.kind == "advance" || e.kind == "resolve") {
        std::vector<std::string> out;
        if (e.kind == "advance") table.advance(out);
        else table.resolve(out);
        return !check || out == d.at("out").get<std::vector<std::string>>();
    }
    if (e.kind == "choice") {
        const int player = d.at("player").get<int>();
        ChoiceMaker maker = ChoiceMaker::player;
        const auto m = d.at("maker").get<std::string>();
        if (m == "timeout") maker = ChoiceMaker::timeout;
        else if (m == "away") maker = ChoiceMaker::away;
        // Journals before the field: a seat that was a bot when the game started.
        const bool server_bot = d.value("bot", player >= 0 && player < static_cast<int>(seats.size()) &&
                                                   seats[static_cast<std::size_t>(player)].bot);
        if (auto v = table.choose(player, d.at("piece").get<int>(), maker, server_bot); !v)
            throw std::runtime_error("event " + std::to_string(e.seq) + ": a choice the game refuses: " + v.reason);
    }
    return true;
}

void RoomImpl::lost(const SavedRoom& saved, const std::vector<TableSeat>& table_seats,
                    const std::vector<ClientSeed>& client_seeds, std::size_t agreed, const std::string& why) {
    // The game as far as the engine and the journal agree (every step anyone saw up to there),
    // abandoned there: its record keeps those steps and reveals the seed, so it can be verified.
    std::shared_ptr<const FinishedGame> finished;
    std::string kept = "nothing of its game could be kept";
    try {
        auto table = make_table(*game_options_, table_seats, *publication_, client_seeds, services_);
        for (std::size_t i = 0; i < agreed; ++i) {
            const auto& e = saved.events[i];
            (void)replay_step(*table, e, json::parse(e.text), table_seats, false);
        }
        if (!table->over()) table->abandon();
        const GameRecord& record = table->record();
        finished = std::make_shared<const FinishedGame>(
            FinishedGame{record, game_id_, owner_, record_text(record), now_ms()});
        kept = "its game's record up to its last step before the restart that could be checked (" +
               std::to_string(record.draws.size()) + " dice) is kept, ended as abandoned there: /records/" + game_id_;
    } catch (const std::exception& e) {
        spdlog::error("room {}: the record of game {} up to its last step cannot be made: {}", code_, game_id_, e.what());
    }
    throw RoomLost(why, "Room " + code_ + " was lost when the server restarted: it could not be taken up again (" +
                            why + "); " + kept + ". Sorry: a new room is needed to play on.",
                   std::move(finished));
}

void RoomImpl::take_up(const SavedRoom& saved) {
    const json st = json::parse(saved.state);
    created_ms_ = stream_->created_ms = saved.created_ms;
    stream_->seq = saved.events.empty() ? 1 : saved.events.back().seq + 1;
    if (saved.epoch > 0) {  // a cluster's room, taken over: its place in the cluster's journal
        stream_->epoch = saved.epoch;
        stream_->ops = saved.ops;
        stream_->seq = std::max(stream_->seq, saved.next_seq);
    }
    options_ = st.at("options").get<GameOptions>();
    settings_ = st.at("settings").get<protocol::RoomSettings>();
    host_ = st.at("host").get<int>();
    decision_counter_ = st.at("decisions").get<std::uint64_t>();
    owner_ = st.value("owner", std::string());
    // A journal from before the creator's address was kept: the owner of its last game stands in
    // for it (mostly the same address); a lobby that never had a game counts against no address.
    creator_address_ = st.value("creator_address", owner_);
    if (auto it = st.find("auto_start_at_ms"); it != st.end()) auto_start_at_ = it->get<std::int64_t>();
    if (auto it = st.find("last_game"); it != st.end()) last_game_ = it->get<GameOver>();
    const auto now = Clock::now();
    seats_.clear();
    for (const auto& v : st.at("seats")) {
        Seat seat = empty_seat(v.at("number").get<int>());
        if (v.at("taken").get<bool>()) {
            seat.taken = true;
            seat.name = v.at("name").get<std::string>();
            seat.bot = v.at("bot").get<bool>();
            seat.policy = parse_policy(v.at("policy").get<std::string>()).value_or(PolicyKind::best);
            seat.kicked = v.at("kicked").get<bool>();
            seat.token_hash = v.at("token_hash").get<std::string>();
            seat.presence = presence_named(v.at("presence").get<std::string>());
        }
        seats_.push_back(std::move(seat));
    }
    // Nobody is connected yet: the players who were here are away (their reconnect windows start
    // with the first pass, after_restore); their tokens take their seats back.
    for (auto& s : seats_) {
        if (!s.human()) continue;
        s.connected = false;
        if (s.presence != Presence::here && s.presence != Presence::away) continue;
        s.presence = Presence::away;
        s.dropped_at = now;
    }
    bool seeding = false;
    std::optional<json> game;
    if (saved.game) game = json::parse(*saved.game);
    // A game whose record is kept already ended: the crash came between its record and the
    // journal's note of its end. It stays ended (its seed is public).
    if (game) {
        const std::string id = game->at("id").get<std::string>();
        bool recorded = false;
        try {
            recorded = services_.history->record(id).has_value();
        } catch (const std::exception& e) {
            spdlog::warn("room {}: cannot look up game {} in the history ({}): it is taken up again", code_, id, e.what());
        }
        if (recorded) {
            spdlog::info("room {}: game {} ended before the server stopped (its record is kept)", code_, id);
            game.reset();
            state_ = RoomState::lobby;
            ops_.push_back({JournalOp::Kind::game_over, {}, {}});
        }
    }
    if (game) {
        const json& g = *game;
        game_id_ = g.at("id").get<std::string>();
        game_options_ = g.at("options").get<GameOptions>();
        players_ = g.at("players").get<std::vector<int>>();
        owner_ = g.value("owner", owner_);
        if (!st.contains("creator_address")) creator_address_ = owner_;
        publication_ = Publication{ServerSeed::from_hex(g.at("seed").get<std::string>()),
                                   g.at("boards").get<std::vector<std::string>>()};
        for (int n : players_)
            if (!seat_at(n)) throw std::runtime_error("the game's seat " + std::to_string(n) + " is not a seat of the room");
        if (!g.at("started").get<bool>()) {
            // Its seeds were being collected: the ones that were in are used.
            state_ = RoomState::seeding;
            seeding = true;
            for (const auto& e : saved.events)
                if (e.kind == "seed") {
                    const json d = json::parse(e.text);
                    if (Seat* s = seat_at(d.at("seat").get<int>())) s->client_seed = d.at("seed").get<std::string>();
                }
        } else {
            std::vector<TableSeat> table_seats;
            for (const auto& v : g.at("seats"))
                table_seats.push_back({v.at("name").get<std::string>(), v.at("bot").get<bool>(),
                                       parse_policy(v.at("policy").get<std::string>()).value_or(PolicyKind::best),
                                       v.at("number").get<int>()});
            std::vector<ClientSeed> client_seeds;
            for (const auto& c : g.at("client_seeds")) client_seeds.push_back({c.at("seat").get<int>(), c.at("seed").get<std::string>()});
            table_ = make_table(*game_options_, table_seats, *publication_, client_seeds, services_);
            state_ = RoomState::playing;
            // The game again, step by step, with the same choices: the dice come from the seeds, so
            // every step must show exactly what it showed before.
            std::int64_t deadline_ms = 0;
            std::size_t agreed = 0;  // the events up to the last step the engine shows as the journal has
            for (std::size_t i = 0; i < saved.events.size(); ++i) {
                const auto& e = saved.events[i];
                try {
                    const json d = json::parse(e.text);
                    if (!replay_step(*table_, e, d, table_seats, true)) {
                        throw std::runtime_error("event " + std::to_string(e.seq) + " (" + e.kind +
                                                 "): the game engine shows another step than the journal has");
                    }
                    if (e.kind == "advance" || e.kind == "resolve") {
                        waiting_for_decisions_ = false;
                        agreed = i + 1;
                    } else if (e.kind == "choice") {
                        const int player = d.at("player").get<int>();
                        if (player >= 0 && player < static_cast<int>(players_.size()))
                            seat_ref(players_[static_cast<std::size_t>(player)]).decision_id.clear();
                    } else if (e.kind == "ask") {
                        for (const auto& a : d.at("decisions")) {
                            const auto id = a.at(1).get<std::string>();
                            Seat* seat = seat_at(a.at(0).get<int>());
                            if (!seat) throw std::runtime_error("event " + std::to_string(e.seq) + ": no such seat");
                            seat->decision_id = id;
                            decision_counter_ = std::max<std::uint64_t>(decision_counter_, std::stoull(id));
                        }
                        deadline_ms = d.at("deadline_ms").get<std::int64_t>();
                        waiting_for_decisions_ = true;
                    }
                } catch (const std::exception& ex) {
                    lost(saved, table_seats, client_seeds, agreed, ex.what());
                }
            }
            if (table_->over()) lost(saved, table_seats, client_seeds, saved.events.size(), "the game is over but its end is not in the journal");
            // The clock: a host's pause keeps what it had left; otherwise an open decision gets
            // what it had left when the server stopped, the time between steps a whole pace.
            paused_left_ = std::chrono::milliseconds(settings_.pace_ms);
            if (st.value("paused", false)) {
                paused_left_ = std::chrono::milliseconds(st.value("paused_left_ms", std::int64_t{0}));
            } else if (waiting_for_decisions_) {
                const std::int64_t stop = saved.stopped_ms > 0            ? saved.stopped_ms
                                          : services_.previous_stop_ms > 0 ? services_.previous_stop_ms
                                                                           : now_ms();
                paused_left_ = std::max<Clock::duration>(std::chrono::milliseconds(deadline_ms - stop), kLeastTimeLeft);
            }
            ++services_.metrics.games_resumed;
        }
        paused_ = true;
        // A game the host had paused stays paused for the host; any other waits for its players.
        pause_reason_ = st.value("paused", false) && st.value("pause_reason", std::string()) == "host" ? PauseReason::host
                                                                                                      : PauseReason::restart;
        paused_at_ = now;
        if (seeding) paused_left_ = std::chrono::milliseconds(settings_.pace_ms);
    }
    ++services_.metrics.rooms_resumed;
    net::post(strand_, [self = self(), seeding] { self->guarded("the restart", [&] { self->after_restore(seeding); }); });
}

}  // namespace

std::shared_ptr<Room> Room::restore(net::io_context& io, Services& services, const SavedRoom& saved) {
    const json st = json::parse(saved.state);
    auto room = std::make_shared<RoomImpl>(io, services, saved.code, st.at("options").get<GameOptions>(),
                                           st.at("settings").get<protocol::RoomSettings>());
    try {
        room->take_up(saved);
    } catch (const RoomLost&) {
        throw;
    } catch (const std::exception& e) {
        throw RoomLost(e.what(),
                       "Room " + saved.code + " was lost when the server restarted: it could not be taken up again (" +
                           e.what() + "). Sorry: a new room is needed to play on.",
                       nullptr);
    }
    ++services.metrics.rooms;
    return room;
}

void room_lost(Services& services, const std::string& code, const RoomLost& lost) {
    ++services.metrics.rooms_lost;
    services.lost_rooms.add(code, lost.told);
    spdlog::error("room {}: cannot be taken up again from the journal ({}): it is dropped; {}", code, lost.what(),
                  lost.finished ? "its game's record up to its last agreed step is kept, abandoned there: /records/" +
                                      lost.finished->id
                                : std::string("no game record is kept"));
}

std::shared_ptr<Room> Room::make(net::io_context& io, Services& services, std::string code, GameOptions options,
                                 protocol::RoomSettings settings, std::string creator_address) {
    ++services.metrics.rooms;
    return std::make_shared<RoomImpl>(io, services, std::move(code), options, settings, std::move(creator_address));
}

std::size_t resume_rooms(net::io_context& io, Services& services) {
    Journal& journal = *services.journal;
    std::optional<std::int64_t> stopped;
    std::vector<SavedRoom> saved;
    try {
        stopped = journal.read_mark("stopped_ms");
        services.previous_stop_ms = stopped ? *stopped : journal.read_mark("alive_ms").value_or(0);
        saved = journal.load();
    } catch (const std::exception& e) {
        // The server serves anyway (degraded): a start must not fail on a disk that is failing.
        spdlog::error("the journal cannot be read ({}): no room is taken up again", e.what());
        services.journal_failed(e.what());
        return 0;
    }
    try {
        if (stopped) journal.forget_mark("stopped_ms");
    } catch (const std::exception& e) {
        services.journal_failed(e.what());
    }
    std::size_t rooms = 0, games = 0;
    for (const auto& r : saved) {
        try {
            services.registry.adopt(r.code, Room::restore(io, services, r));
            ++rooms;
            if (r.game) ++games;
        } catch (const RoomLost& lost) {
            ++services.metrics.internal_errors;
            room_lost(services, r.code, lost);
            // The record of what could be checked goes into the history, and the room goes, in
            // one transaction.
            std::int64_t seq = r.events.empty() ? 1 : r.events.back().seq + 1;
            std::vector<JournalOp> ops;
            if (lost.finished) ops.push_back({JournalOp::Kind::game_over, {}, {}, lost.finished});
            ops.push_back({JournalOp::Kind::closed, {}, {}});
            try {
                journal.write(r.code, r.created_ms, ops, seq);
                if (lost.finished) services.export_record(*lost.finished);
            } catch (const std::exception& e) {
                // it stays in the journal; the next start tries again
                spdlog::error("room {}: its end cannot be written to the journal ({}): the next start tries again", r.code,
                              e.what());
            }
        }
    }
    if (!saved.empty())
        spdlog::info("resumed {} rooms ({} with a game in progress) from the journal; the server stopped {}", rooms, games,
                     stopped ? "cleanly" : "without warning (a crash or kill -9)");
    return rooms;
}

}  // namespace spookludo::server
