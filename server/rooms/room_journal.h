#pragma once
// A room's write-ahead journal, behind one face (a proxy): the room's other parts never see the
// journal's writer, the pass's writes, the held messages or the passes waiting for an answer.
//
// What they do: say what a pass changed (an event of the game, the game, its end, the room's
// close, "the room's state changed"), hand over every message they send as a value (Outgoing),
// and end the pass. At the end of a pass the journal numbers it (its ticket), hands its writes to
// the writer, and lets its messages go, in order, once the writer says they are written; a pass
// that wrote nothing sends at once, after any pass still waiting. When the writer fails,
// everything is held and tried again each second; when another node has the room (fenced), it
// stops here and nothing held goes out.
//
// What it asks of its room is the Owner interface: the room's durable state, what to do when the
// journal fails, comes back or is fenced, and a way to run the writer's answer on the room's strand.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "peer.h"
#include "room_clock.h"
#include "services.h"

namespace spookludo::server {

// One message leaving the room: its text to one peer, or (no text) that peer's close. The text is
// shared: a broadcast is encoded once for everyone.
struct Outgoing {
    std::shared_ptr<Peer> to;
    std::shared_ptr<const std::string> text;  // nullptr: close the connection after what went before
};

class RoomJournal {
public:
    // What the journal needs from its room.
    class Owner {
    public:
        // The room's state to keep across a restart (a JSON object), asked when a pass changed it.
        virtual nlohmann::json durable_state() const = 0;
        // The decisions asked so far: written with that state, never a reason to write it (it
        // changes at every step; a restart finds it in the game's `ask` events).
        virtual std::uint64_t decision_counter() const = 0;
        // The journal cannot take the room's writes (first failure): what moves must stop.
        virtual void journal_failing(const std::string& why) = 0;
        // It takes them again: what waited goes on.
        virtual void journal_back() = 0;
        // Another node of the cluster has the room (or the store lost its writes): it stops here.
        virtual void journal_fenced(const std::string& why) = 0;
        // The writer answered a pass (the room may have waited for the journal to catch up).
        virtual void journal_answered() = 0;
        // Runs the writer's answer on the room's strand as a pass of its own (ended with end_pass).
        virtual void on_room_strand(std::function<void()> work) = 0;
        // Holds the room while the writer has a pass of it.
        virtual std::shared_ptr<void> keep_alive() = 0;

    protected:
        ~Owner() = default;
    };

    RoomJournal(Owner& owner, Services& services, const std::string& code, std::int64_t created_ms,
                boost::asio::any_io_executor strand);

    // ---- What a pass changed -----------------------------------------------------------------
    void event(const char* kind, const nlohmann::json& data);
    // The same with the data's JSON text written already (for the events of every step).
    void event_text(const char* kind, std::string text);
    void game(const nlohmann::json& game);
    // The game is over: its record (none: a game forgotten unplayed) goes into the history.
    void game_over(std::shared_ptr<const FinishedGame> finished = {});
    // The room is closed: everything of it goes, and its code is freed once that is written.
    void closed(bool forget_code = true);
    // The room's durable state may have changed: asked of the owner at the end of the pass.
    void changed() { dirty_ = true; }

    // ---- What a pass sends (held until the pass is written) ---------------------------------------
    void send(const std::shared_ptr<Peer>& to, std::shared_ptr<const std::string> text) {
        if (to) held_.push_back({to, std::move(text)});
    }
    void close(const std::shared_ptr<Peer>& to) { held_.push_back({to, nullptr}); }

    // ---- The pass ----------------------------------------------------------------------------
    // The end of a pass: its writes to the writer, its messages after them (see above).
    void end_pass(bool retry = false);
    // The writer cannot take the room's writes (also: a cluster's node that lost its lease).
    void fail(const std::string& why);

    // ---- The end -------------------------------------------------------------------------------
    // The server stops: nothing more is written or sent; `done` runs once every pass is answered.
    void stop(std::function<void()> done);
    void cancel_timers();

    // ---- Asked by the room ----------------------------------------------------------------------
    const std::optional<std::string>& fault() const { return fault_; }
    bool stopped() const { return stopped_; }
    // Passes handed to the writer and not answered yet.
    std::uint64_t unanswered() const { return tickets_ - settled_; }
    // Everything the room did is written and sent.
    bool all_written() const {
        return ops_.empty() && held_.empty() && waiting_.empty() && settled_ == tickets_ && !fault_;
    }
    // The room's place in the journal (set when a room is taken up again).
    JournalWriter::Stream& stream() { return *stream_; }

    // The kind of a row holding several events of one pass (merge_events).
    static constexpr std::string_view kPassKind = "pass";
    static void merge_events(std::vector<JournalOp>& ops);

private:
    static std::vector<std::shared_ptr<const FinishedGame>> finished_in(const std::vector<JournalOp>& ops);
    std::uint64_t submit(bool retry, std::vector<std::shared_ptr<const FinishedGame>> finished);
    void written(std::uint64_t ticket, JournalWriter::Answer answer);
    void fenced(const std::string& why);
    void back();
    void settle();
    void retry_later();
    static void release(std::vector<Outgoing>& messages);

    Owner& owner_;
    Services& services_;
    const std::string& code_;
    boost::asio::any_io_executor strand_;
    // This pass: its writes, whether the room's state may have changed, its messages.
    std::vector<JournalOp> ops_;
    bool dirty_ = false;
    bool closed_ = false;
    std::vector<Outgoing> held_;
    std::array<std::uint8_t, 32> journaled_state_{};  // the SHA-256 of the room's state as last given to the writer
    // The room's place in the journal (its next event's number); the writer's thread's once submitted.
    std::shared_ptr<JournalWriter::Stream> stream_;
    // Passes handed to the writer (tickets_), answered (settled_), and their messages waiting for
    // the answer, in order.
    struct Waiting {
        std::uint64_t ticket;
        std::vector<Outgoing> messages;
        std::vector<std::shared_ptr<const FinishedGame>> finished;  // records to export once written
    };
    std::vector<Waiting> waiting_;  // a few passes (no deque's 512-byte block per room)
    std::uint64_t tickets_ = 0, settled_ = 0, retry_ticket_ = 0;
    std::vector<JournalOp> returned_;  // failed passes' ops, given back in order: the retry writes them first
    std::function<void()> when_settled_;  // the shutdown's end
    bool forget_code_ = false;              // the room closed: its code goes once that is written
    std::uint64_t forget_code_ticket_ = 0;  // the ticket that writes it
    std::optional<std::string> fault_;
    std::shared_ptr<RoomTimer> retry_;
    bool stopped_ = false;  // the server stopped, or the room is another node's: nothing more is written or sent
};

}  // namespace spookludo::server
