#pragma once
// Finished games in the server's database (database.h): each record as served, and an index to
// find games by room, player, game and date, and a player's results. Bounded like the record
// files (RecordLimits: games with people and bot-only games each have their own bound; over it,
// the address that holds the most gives up its oldest), so a flood of bot games never pushes out
// the games people played. Thread-safe (one SQLite connection, serialized).
#include <cstdint>
#include <memory>
#include <mutex>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "spookludo/record.h"

namespace spookludo::server {

namespace db {
class Database;
}

struct Metrics;

// A finished or abandoned game on its way into the history: it goes in with the journal's
// transaction that forgets the game (journal.h), so a crash leaves either the game to replay or
// its record, never neither.
struct FinishedGame {
    GameRecord record;
    std::string id;     // the game id
    std::string owner;  // the address it counts against (retention); empty: a group of its own
    std::string text;   // the record as served
    std::int64_t ended_ms = 0;  // when it ended (Unix ms); 0: now
};

struct HistoryLimits {
    int people_kept = 1000;
    int bots_kept = 200;
};

// GET /games: newest first; every filter optional.
struct GamesQuery {
    std::string room;    // a room code
    std::string player;  // a player's name, in any case (fold_case: Unicode's simple case folding)
    std::string game;    // spook | ludo
    std::optional<std::int64_t> since_ms, until_ms;  // ended at or after / before (Unix ms)
    int page = 1;        // 1-based
    int per_page = 20;   // 1..100
};

// The record of game `id` in the database file `file`, opened read-only and without the server's
// lock, so that it works on a stopped server's data directory as well as beside a running server
// (spookludo-server --export-record). Nothing when the database holds no such game; throws
// std::runtime_error saying why when the file cannot be read (missing, not a database, no games).
std::optional<std::string> read_record_from(const std::filesystem::path& file, const std::string& id);

class HistoryStore {
public:
    // `metrics` (optional) gets the counts of games kept and evicted, by class.
    HistoryStore(db::Database& db, HistoryLimits limits, Metrics* metrics = nullptr);
    // Adds a finished or abandoned game in a transaction of its own. Throws db::Error when the
    // database cannot take it (a full disk, a read-only file); nothing is written then.
    void add(const FinishedGame& game);
    // The same inside the caller's transaction, under the database's lock (the journal's). What
    // it did is counted by counted(), once the transaction is committed.
    struct Added {
        int cls = 0;       // RecordClass: 0 with people, 1 bot-only
        int evicted = 0;   // games of that class given up to stay within the bound
        std::int64_t kept = 0;
    };
    Added insert(const FinishedGame& game);
    void counted(const Added& added);
    // The caller's transaction with insert()s in it was committed, or rolled back (what those
    // inserts counted is undone).
    void committed();
    void rolled_back();
    std::optional<std::string> record(const std::string& id);
    nlohmann::json games(const GamesQuery& q);
    // A player's games, wins and places, by game kind; nothing when no game has that name.
    std::optional<nlohmann::json> player(const std::string& name);
    std::int64_t count(bool people);

    ~HistoryStore();

private:
    // The games kept, by class (0 with people, 1 bot-only) and by the address they count against
    // ("?" and the game's id for a game of no known owner): the bound is kept without counting
    // the table at every game's end. Read at open; under the database's lock.
    struct Kept {
        std::int64_t total = 0;
        std::unordered_map<std::string, std::int64_t> by_owner;
    };
    struct Statements;  // prepared once, used under the database's lock
    struct Victim {
        std::string id, owner_key;
    };
    std::optional<Victim> victim(int cls);
    void count(int cls, const std::string& owner_key, int delta);
    // What insert() counted in the transaction under way, undone if it rolls back.
    struct Counted {
        int cls;
        std::string owner_key;
        int delta;
    };
    std::vector<Counted> uncommitted_;
    db::Database& db_;
    HistoryLimits limits_;
    Metrics* metrics_;
    Kept kept_[2];
    std::unique_ptr<Statements> statements_;
};

}  // namespace spookludo::server
