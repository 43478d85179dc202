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
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
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
    std::string state;
    std::optional<std::string> game;
    struct Event {
        std::int64_t seq;
        std::string kind, text;
    };
    std::vector<Event> events;  // in order
};

class Journal {
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
    // One room's part of a transaction that holds several (group commit).
    struct RoomWrite {
        const std::string& code;
        std::int64_t created_ms;
        const std::vector<JournalOp>& ops;
        std::int64_t& seq;
    };
    // Several rooms' ops in one transaction, in order: all of them or, throwing db::Error,
    // none (every seq as it was).
    void write(std::span<const RoomWrite> rooms);
    // Every room the journal holds.
    std::vector<SavedRoom> load();
    // The server's marks: "alive_ms" (written every second while it runs), "stopped_ms" (a clean
    // stop). Writing one throws db::Error.
    void mark(const std::string& name, std::int64_t value);
    std::optional<std::int64_t> read_mark(const std::string& name);
    void forget_mark(const std::string& name);

private:
    struct Statements;  // prepared once, used under the database's lock
    db::Database& db_;
    HistoryStore* history_;
    std::unique_ptr<Statements> statements_;
};

}  // namespace spookludo::server
