#pragma once
// Inside a room (rooms/room.h is its face): the class every room_*.cpp file defines a part of.
// Each file holds one concern of the room; this header holds what they share: the seats, the
// room's state, and the declarations, grouped by the file that defines them.
//   room.cpp           the dispatcher: messages and calls from outside, posted to the room's strand
//   room_outbox.cpp    what leaves the room: errors, notices, snapshots (held until journaled)
//   room_lobby.cpp     seats, joining, watching, resuming, options, bots, kick, start, automatic start
//   room_presence.cpp  leaving, dropping, reconnect windows, the host's hand-over
//   room_clock.cpp     pause, the step timer, decisions' deadlines, drop grace
//   room_game.cpp      the game driven: seeds, steps, decisions, moves for the absent
//   room_table_mode.cpp a table game (options.table): its seeds, "next", skipped turns, declared winners
//   room_end.cpp       every way a game ends, its record, the lobby after it, the room's close
//   room_saved.cpp     what the room writes to its journal, and what it does when the journal fails
//   room_reactions.cpp quick reactions: who may send, the bounds (reactions.h), told to everyone
// and, a class of its own behind one face that the other parts never see past (room_journal.h):
//   room_journal.cpp   the write-ahead journal: each pass written before its messages leave
//   room_restore.cpp   a room taken up again from the journal after a restart or a take-over
// Asio's timers and executors only: no socket is known here (a person is a Peer).
#include "room.h"
#include "room_journal.h"
#include "reactions.h"
#include "seats.h"

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
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "spookludo/policy.h"
#include "spookludo/protocol/server_messages.h"

#include "cluster.h"
#include "history.h"
#include "room_clock.h"
#include "serial_executor.h"
#include "table.h"
#include "timer_grid.h"

namespace spookludo::server {

namespace net = boost::asio;
using nlohmann::json;
using protocol::ErrorCode;
using namespace protocol;
using Clock = RoomClock;  // the steady clock, or a test's hand-turned one (room_clock.h)

inline std::int64_t now_ms() { return RoomClock::wall_ms(); }

inline std::string random_token() {
    const ServerSeed s = ServerSeed::generate();  // 32 secure random bytes
    return to_hex(s.bytes.data(), 16);
}

template <class M>
inline std::shared_ptr<const std::string> frame(const M& message) {
    return std::make_shared<const std::string>(encode_message(message));
}
// A message the table has already encoded (its steps).
inline std::shared_ptr<const std::string> frame(std::string encoded) { return std::make_shared<const std::string>(std::move(encoded)); }

enum class RoomState { lobby, seeding, playing };
inline const char* name_of(RoomState s) {
    switch (s) {
        case RoomState::lobby: return "lobby";
        case RoomState::seeding: return "seeding";
        case RoomState::playing: return "playing";
    }
    return "?";
}

// Why a game is paused (the snapshot's pause_reason).
enum class PauseReason { host, restart, journal };
inline const char* name_of(PauseReason r) {
    switch (r) {
        case PauseReason::host: return "host";
        case PauseReason::restart: return "restart";
        case PauseReason::journal: return "journal";
    }
    return "?";
}

// A decision taken up again after a restart gets at least this long.
constexpr std::chrono::milliseconds kLeastTimeLeft{3000};
// The time left of decisions that wait without a limit (settings.time_factor 0): never armed,
// never added to, never written as a number.
constexpr RoomClock::duration kNoLimit = RoomClock::duration::max();

// What a step showed, as its journal event keeps it (room_saved.cpp).
std::string shown_digest(const std::vector<std::string>& out);

// People count seats from 1; the wire counts from 0.
inline std::string seat_label(int number) { return "seat " + std::to_string(number + 1); }

class RoomImpl final : public Room, private RoomJournal::Owner {
public:
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
          journal_(*this, services, code_, now_ms(), strand_) {
        seats_ = Seats(options_.table ? 1 : options_.players);  // a table game: the host's seat
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

    void deliver(std::shared_ptr<Peer> peer, protocol::ClientMessage message, std::uint64_t entry) override;

    void disconnected(std::shared_ptr<Peer> peer) override;

    void shutdown(std::function<void()> done) override;

    void pause_for_cluster(std::string why) override;

private:
    std::shared_ptr<RoomImpl> self() { return std::static_pointer_cast<RoomImpl>(shared_from_this()); }

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
                if (table_ || state_ == RoomState::seeding) end_game(GameStatus::abandoned, "an internal error", "internal_error");
            } catch (const std::exception& again) {
                spdlog::error("room {}: ending the game after that failed too: {}", code_, again.what());
                journal_.game_over();  // the journal forgets it too
                table_.reset();
                publication_.reset();
                state_ = RoomState::lobby;
            }
        }
    }

    // Closes a connection after what was sent (or held) for it.
    void close_peer(const std::shared_ptr<Peer>& peer) { journal_.close(peer); }
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
    // Serialised once, the same buffer for every recipient.
    template <class M>
    void broadcast(const M& message) {
        send_to_all(frame(message));
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
    // A seated person's name in the story, as people see it ("Ann left", not "\"Ann\" left"): a
    // seated name has passed name_problem (no control, format or invisible character) or is a
    // bot's name the server made.
    static std::string who(const Seat& s) { return s.name; }

    void broadcast_snapshot() {
        snapshot_owed_ = false;
        broadcast(snapshot());
    }
    // A snapshot that may wait a moment: "who is choosing" after a step asked its decisions and
    // after each answer. What comes within kSnapshotSoon shares one snapshot, and a step that
    // completes meanwhile needs none (its moves say it), so a table of quick players (bots)
    // sends none at all.
    void snapshot_soon();
    static constexpr std::chrono::milliseconds kSnapshotSoon{200};

    std::string inspect() const override;

    Seat& seat_ref(int number) { return *seats_.at(number); }
    // The seat number of a peer's seat, or -1.
    int seat_of(const std::shared_ptr<Peer>& peer) const {
        const Seat* s = seats_.of(peer);
        return s ? s->number : -1;
    }

    template <class M>
    void handle(const std::shared_ptr<Peer>& peer, M&) {
        error(peer, ErrorCode::wrong_state, "that message is not for a room", {}, {{"reason", "not_for_room"}});
    }

    // The highest room seat number + 1: the length of the arrays indexed by room seat.
    std::size_t seat_span() const { return seats_.span(); }

    enum class Next { advance, deadline, seeds_timeout };

    struct Immediate {
        Next next;
        std::uint64_t epoch;
    };
    static constexpr int kInlineSteps = 16;

    // The rest after what else waits for this thread, and once the journal is no more than a few
    // passes behind (a room of bots at zero pace would otherwise run ahead of it without bound;
    // written() goes on).
    static constexpr std::uint64_t kPassesAhead = 4;

    Clock::duration drop_grace() const { return std::chrono::milliseconds(services_.config.drop_grace_ms); }
    // A decision's time with the room's factor (settings.time_factor), or kNoLimit.
    Clock::duration decision_time() const {
        if (settings_.time_factor <= 0) return kNoLimit;
        return std::chrono::milliseconds(std::int64_t{settings_.decision_ms} * settings_.time_factor);
    }

    // ---- The journal ------------------------------------------------------------------------
    // One event of the game in progress, written with the pass.
    void event(const char* kind, const json& data) { journal_.event(kind, data); }
    // A step's event: what it showed, as a digest (room_saved.cpp). A restart replays the step
    // and checks that the engine shows the same (journals from before it keep the messages).
    void step_event(const char* kind, const std::vector<std::string>& out) {
        journal_.event_text(kind, "{\"shown\":\"" + shown_digest(out) + "\"}");  // 16 hex digits: nothing to escape
    }
    void end_pass() { journal_.end_pass(); }

    // The parts, by the file that defines them.
    // ---- room.cpp ------------------------------------------------------------------------------
    static bool entering(const protocol::ClientMessage& m);
    void on_message(const std::shared_ptr<Peer>& peer, protocol::ClientMessage& message);
    void handle(const std::shared_ptr<Peer>& peer, protocol::Ping& m);
    bool host_only(const std::shared_ptr<Peer>& peer, std::string_view what);

    // ---- room_outbox.cpp -----------------------------------------------------------------------
    void out(const std::shared_ptr<Peer>& peer, std::shared_ptr<const std::string> text);
    // `args`: the error's parameters, `fields` the notice kind's own, for clients to word them.
    void error(const std::shared_ptr<Peer>& peer, ErrorCode code, const std::string& message,
               std::string_view ref = {}, const nlohmann::json& args = nlohmann::json::object());
    void send_to_all(const std::shared_ptr<const std::string>& text);
    void notice(std::string kind, const Seat* seat, std::string text,
                nlohmann::json fields = nlohmann::json::object());
    RoomSnapshot snapshot() const;

    // ---- room_lobby.cpp ------------------------------------------------------------------------
    void let_go(const std::shared_ptr<Peer>& peer);
    bool is_spectator(const std::shared_ptr<Peer>& peer) const;
    int player_of(int number) const;
    void welcome_seat(const std::shared_ptr<Peer>& peer, const Seat& seat, const std::string& token);
    void handle(const std::shared_ptr<Peer>& peer, protocol::CreateRoom& m);
    void handle(const std::shared_ptr<Peer>& peer, protocol::JoinRoom& m);
    void add_human(const std::shared_ptr<Peer>& peer, Seat& seat, const std::string& name);
    void add_spectator(const std::shared_ptr<Peer>& peer);
    void handle(const std::shared_ptr<Peer>& peer, protocol::Watch&);
    void handle(const std::shared_ptr<Peer>& peer, protocol::Resume& m);
    void handle(const std::shared_ptr<Peer>& peer, protocol::SetOptions& m);
    void handle(const std::shared_ptr<Peer>& peer, protocol::SetSettings& m);
    void handle(const std::shared_ptr<Peer>& peer, protocol::AddBot& m);
    void seat_bot(Seat& seat, PolicyKind policy);
    void handle(const std::shared_ptr<Peer>& peer, protocol::RemoveSeat& m);
    void handle(const std::shared_ptr<Peer>& peer, protocol::Kick& m);
    void handle(const std::shared_ptr<Peer>& peer, protocol::Start&);
    struct StartRefusal {
        ErrorCode code;
        std::string message;
        nlohmann::json args;
    };
    std::optional<StartRefusal> start_game(const std::string& address);
    void arm_auto_start();
    void rearm_auto_start();
    void cancel_auto_start();
    void auto_start();

    // ---- room_presence.cpp ---------------------------------------------------------------------
    void handle(const std::shared_ptr<Peer>& peer, protocol::Leave&);
    void remove_from_seat(Seat& s, std::string_view why);
    static bool holds_host_seat(const Seat& s);
    // `because`: the English why; `reason` (left, not_back) and `former` (the seat's name) the same
    // for clients to word.
    void pass_host_if_needed(const std::string& because = {}, std::string_view reason = {},
                             const std::string& former = {});
    bool any_human_connected() const;
    bool anyone_expected() const;
    bool drop_spectator(const std::shared_ptr<Peer>& peer);
    void on_disconnected(const std::shared_ptr<Peer>& peer);
    void arm_reconnect_window(Seat& s, Clock::duration after);
    void window_over(int number, const std::shared_ptr<RoomTimer>& timer);
    bool nobody_expected() const;

    // ---- room_clock.cpp ------------------------------------------------------------------------
    void handle(const std::shared_ptr<Peer>& peer, protocol::Pause&);
    void handle(const std::shared_ptr<Peer>& peer, protocol::Unpause&);
    void stop_clock(PauseReason why);
    void start_clock();
    void arm(Clock::duration after, Next next);
    void run_immediate();
    void continue_immediate();
    void fire(Next next, std::uint64_t epoch);
    std::optional<Clock::duration> grace_left(const Seat& s) const;
    void cancel_grace(Seat& s);
    void arm_grace(Seat& s, Clock::duration grace, Clock::duration left);
    void deadline();
    void stop_timers();
    Clock::duration step_left() const;
    Clock::duration seat_left(const Seat& s) const;
    void handle(const std::shared_ptr<Peer>& peer, protocol::Hurry& m);
    void handle(const std::shared_ptr<Peer>& peer, protocol::AskTime&);
    void change_time_factor(int before);
    void hurry_seat(Seat& s, Clock::duration left);
    void clear_hurry(Seat& s);

    // ---- room_game.cpp -------------------------------------------------------------------------
    void handle(const std::shared_ptr<Peer>& peer, protocol::SubmitClientSeed& m);
    void handle(const std::shared_ptr<Peer>& peer, protocol::Choose& m);
    void publish_game(const GameOptions& options);
    bool all_seeds_in() const;
    void begin_game();
    void advance();
    Decision decision_message(int number, const std::string& id, Clock::duration left);
    int pending_decisions() const;
    void auto_move(int player, ChoiceMaker maker);
    void answer_for_absent(Seat& s, ChoiceMaker maker);
    void decisions_complete();
    void after_decisions(bool nothing_shown);
    Verdict choose_on_table(int player, int piece, ChoiceMaker maker, bool server_bot = false);
    int bot_choice(int player, PolicyKind policy) const;
    Rng bot_rng(int player) const;

    // ---- room_table_mode.cpp ---------------------------------------------------------------
    bool table_mode() const { return game_options_ ? game_options_->table : options_.table; }
    // A table game's dice are bounded like everything else (its record, its journal): far beyond
    // any evening's game; "next" and the pace stop there.
    static constexpr int kMaxTableDice = 5000;
    void table_seed(const std::shared_ptr<Peer>& peer, protocol::SubmitClientSeed& m);
    void begin_table_game();
    void handle(const std::shared_ptr<Peer>& peer, protocol::Next&);
    void handle(const std::shared_ptr<Peer>& peer, protocol::SkipTurn&);
    void handle(const std::shared_ptr<Peer>& peer, protocol::DeclareWinners& m);
    bool table_host_step(const std::shared_ptr<Peer>& peer, std::string_view what);
    void describe_table_seeding(protocol::RoomSnapshot& snapshot) const;

    // ---- room_end.cpp --------------------------------------------------------------------------
    void handle(const std::shared_ptr<Peer>& peer, protocol::EndGame&);
    void close_if_empty();
    void abandon_if_nobody_left();
    // `why` in English; `cause` the same as a code (GameOver::cause).
    void end_game(GameStatus status, const std::string& why, std::string_view cause = {});

    // ---- room_saved.cpp: what the room writes, and the journal's Owner ---------------------------
    void journal_asked(Clock::duration left);
    void journal_game(bool started, const std::vector<ClientSeed>& client_seeds);
    json durable_state() const override;
    std::uint64_t decision_counter() const override;
    void journal_failing(const std::string& why) override;
    void journal_back() override;
    void journal_fenced(const std::string& why) override;
    void journal_answered() override;
    void on_room_strand(std::function<void()> work) override;
    std::shared_ptr<void> keep_alive() override { return shared_from_this(); }

    // ---- room_restore.cpp ----------------------------------------------------------------------
    void after_restore(bool seeding);

    // ---- room_reactions.cpp --------------------------------------------------------------------
    void handle(const std::shared_ptr<Peer>& peer, protocol::React& m);

    // ---- The room's state: every part reads and writes it, on the room's strand ----------------------
    net::any_io_executor strand_;  // the room's handlers, one at a time (serial_executor.h)
    RoomTimer step_timer_;
    RoomTimer auto_start_timer_;
    Services& services_;
    std::string code_;
    // The address that created the room (the Registry counts the room against it); set before
    // anyone else sees the room, never changed.
    std::string creator_address_;
    GameOptions options_;
    protocol::RoomSettings settings_;
    Seats seats_;               // the room's seats and who sits where (seats.h)
    Reactions reactions_;       // the bounds on quick reactions (reactions.h); not journaled
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
    bool unlimited_ = false;  // the open decisions have no deadline (settings.time_factor 0 when asked or since)
    std::uint64_t epoch_ = 0;
    std::uint64_t decision_counter_ = 0;
    std::optional<GameOptions> game_options_;
    std::optional<Publication> publication_;
    std::string game_id_;
    std::string owner_;  // the address of the host who started the game (record retention)
    std::unique_ptr<Table> table_;
    // A table game's client seeds while they are collected, in the order they came: whose device
    // (the host's page, "Ann's phone") and the seed; and the connections that sent one.
    std::vector<std::pair<std::string, std::string>> table_seeds_;
    std::vector<std::uint64_t> table_seed_peers_;
    std::optional<PauseReason> pause_reason_;  // while paused_
    bool fault_paused_ = false;                // paused_ by journal_fault (it resumes by itself)
    std::shared_ptr<RoomTimer> restart_wait_;  // after a restart: the longest the game waits for its players
    std::shared_ptr<RoomTimer> snapshot_timer_;  // snapshot_soon's (made at its first use)
    bool snapshot_owed_ = false;                 // snapshot_soon was asked, and no snapshot went since
    bool snapshot_timer_armed_ = false;
    bool immediate_posted_ = false;           // run_immediate is on its way
    // The write-ahead journal, and the outbox: every message the room sends goes through it.
    RoomJournal journal_;
};

}  // namespace spookludo::server
