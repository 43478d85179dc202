#pragma once
// The journal: what the server needs to take every open room up again after it stopped (a crash,
// kill -9, a restart), kept in the server's database (database.h) and written before anything it
// holds is sent to anyone.
//
// Each room writes, in its order, JournalOps: its durable state (a JSON text the room makes:
// options, settings, seats with their token hashes, the host, the last game), the game it
// publishes (server seed, boards, seats, client seeds), the game's events (a client seed in, each
// step the table took and what it showed, each choice and who made it) and the game's or the
// room's end. The ops of one pass of a room (one message, one timer) are one transaction: the
// room holds that pass's outgoing messages until it returns (room.cpp).
//
// Durability: WAL with synchronous=NORMAL. A transaction that returned survives the process
// dying in any way (kill -9, a crash, out of memory): its pages are in the WAL file, in the
// operating system's hands. A power cut or a kernel crash can lose the transactions written since
// the last checkpoint's fsync (never corrupt the file); the server then resumes from an earlier
// step, with the same dice (they come from the seeds), but people may have seen a later step.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace spookludo::server {

namespace db {
class Database;
}
class HistoryStore;
struct FinishedGame;

struct JournalOp {
    enum class Kind : unsigned char {
        room,       // text: the room's state, replacing what was saved
        game,       // text: the game (published, or started), replacing what was saved
        event,      // kind, text: one event of the game, after the ones before
        game_over,  // the game is over: its game and events go, its record (`finished`) goes into the history
        closed,     // the room is closed: everything of it goes
    };
    JournalOp(Kind o, std::string k = {}, std::string t = {}, std::shared_ptr<const FinishedGame> f = {})
        : op(o), kind(std::move(k)), text(std::move(t)), finished(std::move(f)) {}
    Kind op;
    std::string kind;  // events: seed | advance | choice | resolve
    std::string text;
    std::shared_ptr<const FinishedGame> finished;  // game_over: the record (none: a game forgotten unplayed)
};

// A room as the journal has it, for taking it up again.
struct SavedRoom {
    std::string code;
    std::int64_t created_ms = 0;
    // A cluster's room (cluster_journal.h): its ownership epoch and the number of ops written,
    // and when the node that had it was last heard of (Unix ms; 0: the server's own last stop).
    std::int64_t epoch = 0, ops = 0, stopped_ms = 0;
    std::int64_t next_seq = 0;  // the next event's number (a cluster's room; else after the last event)
    std::string state;
    std::optional<std::string> game;
    struct Event {
        std::int64_t seq;
        std::string kind, text;
    };
    std::vector<Event> events;  // in order
};

// One room's part of a write: its ops, in order, events numbered from `seq` on (advanced when
// written). A cluster's store also checks `epoch` (fencing) and counts ops from `first_op`.
struct RoomWrite {
    const std::string& code;
    std::int64_t created_ms;
    const std::vector<JournalOp>& ops;
    std::int64_t& seq;
    std::int64_t epoch = 0;
    std::int64_t* first_op = nullptr;  // advanced by the ops written (a cluster's store)
};

// Where the journal's writes go: the server's database (Journal) or a cluster's Redis
// (RedisJournal, cluster_journal.h).
class JournalStore {
public:
    struct Result {
        std::optional<std::string> error;  // none: written
        bool fenced = false;  // the room is another node's now: it must stop here (a cluster's store)
    };
    virtual ~JournalStore() = default;
    // Writes each room's ops: every room's whole or not at all, and one room's failure never
    // keeps the others out. A result per room, in order; `transactions` counts what it took.
    virtual std::vector<Result> store(std::span<const RoomWrite> rooms, std::size_t& transactions) = 0;
};

class Journal final : public JournalStore {
public:
    // `history` takes the records of the games that end (game_over ops); none: they are dropped.
    Journal(db::Database& db, HistoryStore* history);
    ~Journal();
    Journal(const Journal&) = delete;
    Journal& operator=(const Journal&) = delete;

    // Writes one room's ops in one transaction; events are numbered from `seq` on (it is
    // advanced). Throws db::Error (a full disk, a read-only file, an I/O error) with nothing
    // written.
    void write(const std::string& code, std::int64_t created_ms, const std::vector<JournalOp>& ops, std::int64_t& seq);
    using RoomWrite = server::RoomWrite;
    // Several rooms' ops in one transaction, in order: all of them or, throwing db::Error,
    // none (every seq as it was).
    void write(std::span<const RoomWrite> rooms);
    // The same, and when the transaction fails, room by room (one room's bad write does not
    // hold up the others).
    std::vector<Result> store(std::span<const RoomWrite> rooms, std::size_t& transactions) override;
    // Every room the journal holds.
    std::vector<SavedRoom> load();
    // The server's marks: "alive_ms" (written every second while it runs), "stopped_ms" (a clean
    // stop). Writing one throws db::Error.
    void mark(const std::string& name, std::int64_t value);
    std::optional<std::int64_t> read_mark(const std::string& name);
    void forget_mark(const std::string& name);

private:
    struct Statements;  // prepared once, used under the database's lock
    struct Change;
    void apply(const std::vector<Change>& changes);
    void tidy(std::int64_t written);
    db::Database& db_;
    HistoryStore* history_;
    std::unique_ptr<Statements> statements_;
    // The events table as the journal knows it (under the database's lock): the next event's id,
    // each game in progress (its first event, its events), the rows in the table and how many of
    // them are live, where the dead ones are deleted up to, and a sweep past a long game.
    struct LiveGame {
        std::int64_t first_event;
        std::int64_t events;
    };
    std::int64_t next_event_ = 1;
    std::unordered_map<std::string, LiveGame> games_;
    std::multiset<std::int64_t> firsts_;  // the games' first events
    std::int64_t rows_ = 0, live_rows_ = 0, deleted_below_ = 0, sweep_at_ = 0;
};

// Group commit: the rooms' passes that come together in one transaction. A room hands each
// pass's ops over (submit) and holds that pass's messages until its answer comes: written, or
// failed with the ops given back (the room keeps them and tries again later; its messages stay
// held). Each room's answers come in the order of its submissions; a room's passes are written in
// the order it submitted them.
//
// When a transaction is written. In the server (run_on with at_burst_end), when the I/O thread
// has run what it had ready: the timers that fell due together (the rooms' steps are on a grid,
// timer_grid.h), the messages read in one wake-up. The pass waits for no clock, and the rooms
// that stepped together share the transaction. A burst of a few passes is written by the I/O
// thread itself, its answers run there at once (no hand-over to another thread and back, each a
// wake-up); a big one (rooms playing flat out), or one that comes while another is being
// written, goes to the writer's thread, which answers it through the event loop in one task.
// Otherwise (--journal-window-ms above 0, or no event loop), a submission waits at most `window`
// for others, and not at all when it need not: a transaction is written as soon as the rooms in
// the queue are half of those that wrote in the last second (a single party, or rooms playing as
// fast as they can, each waiting for its own write, gain nothing by waiting for rooms that are
// not coming).
//
// A transaction that fails is tried again room by room, so one room's bad write never pauses the
// others. A room whose write failed is written no more (its later submissions come back failed,
// untried: the journal never has a gap) until it submits with `retry`, which it does once every
// earlier submission has been answered.
class JournalWriter {
public:
    // One room's place in the journal. Only the writer (the thread or flush holding writing_)
    // touches it once it is submitted.
    struct Stream {
        Stream(std::string c, std::int64_t created, std::int64_t next_seq = 1)
            : code(std::move(c)), created_ms(created), seq(next_seq) {}
        std::string code;
        std::int64_t created_ms;
        std::int64_t seq;         // the next event's number
        std::int64_t epoch = 1;   // a cluster's room: its ownership epoch (fencing)
        std::int64_t ops = 0;     // a cluster's room: the ops written
        bool failed = false;      // a write failed: nothing more until a retry
        std::string failed_why;   // why
        bool queued = false;      // it has a submission in the queue (under the writer's lock)
        std::uint64_t seen = 0;   // the last second it was written in (the writer's count of rooms)
    };
    struct Answer {
        std::optional<std::string> error;  // none: written
        std::vector<JournalOp> ops;        // failed: the ops, given back in order
        bool fenced = false;               // the room is another node's now (a cluster): it stops here
    };
    using Done = std::function<void(Answer)>;
    struct Counters {
        std::function<void(std::size_t transactions, std::size_t passes)> written;  // what was written
        std::function<void(std::size_t rooms)> failed;  // rooms whose write failed
    };

    // `window`: how long a submission may wait for others to share its transaction; `max_passes`:
    // a transaction takes at most that many (it is written at once when they are there).
    JournalWriter(JournalStore& journal, std::chrono::microseconds window, std::size_t max_passes, Counters counters);
    ~JournalWriter();  // stop()
    JournalWriter(const JournalWriter&) = delete;
    JournalWriter& operator=(const JournalWriter&) = delete;

    void submit(std::shared_ptr<Stream> stream, std::vector<JournalOp> ops, bool retry, Done done);
    // Runs a task on the server's event loop (Asio's post; app.cpp gives it before the first
    // submission): the writer's thread answers a transaction through it as one task, one wake-up
    // of an I/O thread for all its rooms instead of one per room. `at_burst_end`: passes are
    // written at the end of their I/O thread's burst (flush), not after a window; `on_io_thread`:
    // a small burst is written by the I/O thread itself (not for a store that needs the event
    // loop to answer: a cluster's Redis).
    using Post = std::function<void(std::function<void()>)>;
    void run_on(Post post, bool at_burst_end, bool on_io_thread);
    // The burst that submitted is over: what is queued is written now.
    void flush();
    // Writes what was submitted, answers it, and ends the thread. Submissions after it are
    // answered failed at once.
    void stop();

private:
    struct Submission {
        std::shared_ptr<Stream> stream;
        std::vector<JournalOp> ops;
        bool retry;
        Done done;
        std::chrono::steady_clock::time_point at;
    };
    void run();
    void take(std::vector<Submission>& batch);  // under the lock: the next batch, in order
    void done_writing();                        // under the lock
    void write(std::vector<Submission>& batch, std::vector<std::pair<Done, Answer>>& answers);
    // After a write: its answers queued (in the order written) and answered, here (on the I/O
    // thread, or without an event loop) or by a task posted to the loop; one drain at a time.
    void finish(std::vector<std::pair<Done, Answer>>& answers, bool on_io_thread);
    void drain();
    // A flush writes on the I/O thread itself (no hand-over to the writer's thread and back)
    // up to this many passes, when no batch is being written.
    static constexpr std::size_t kInlinePasses = 64;

    JournalStore& journal_;
    const std::chrono::microseconds window_;
    const std::size_t max_passes_;
    Counters counters_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::vector<Submission> queue_;
    std::vector<Submission> spare_;  // a written batch's storage, emptied: the next queue's (no allocation a tick)
    std::size_t queued_rooms_ = 0;  // distinct rooms in queue_
    std::size_t enough_rooms_ = 1;  // write at once with this many (half of those active lately)
    bool stopping_ = false;
    Post post_;                  // the event loop's post (run_on)
    bool burst_ = false;         // written at the bursts' ends (run_on)
    bool inline_ = false;        // small bursts written by the I/O thread (run_on)
    bool flush_posted_ = false;  // a flush() is on its way to the event loop
    bool flush_asked_ = false;   // the burst is over: the writer's thread writes now
    bool writing_ = false;       // a batch is being written (by a flush or the writer's thread)
    std::vector<std::pair<Done, Answer>> answers_;  // written, to be answered in this order
    bool draining_ = false;      // someone is answering answers_ (one at a time: the order holds)
    bool drain_posted_ = false;  // a task to answer them is on its way to the loop
    // The writer's count of the rooms written in the current second and the one before.
    std::uint64_t second_ = 1;
    std::chrono::steady_clock::time_point second_began_ = std::chrono::steady_clock::now();
    std::size_t rooms_this_second_ = 0, rooms_last_second_ = 0;
    std::thread thread_;
};

}  // namespace spookludo::server
