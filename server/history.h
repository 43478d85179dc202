#pragma once
// Finished games in the server's database (database.h): each record as served, and an index to
// find games by room, player, game and date, and a player's results. Bounded like the record
// files (RecordLimits: games with people and bot-only games each have their own bound; over it,
// the address that holds the most gives up its oldest), so a flood of bot games never pushes out
// the games people played. Thread-safe (one SQLite connection, serialized).
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "spookludo/record.h"

namespace spookludo::server {

namespace db {
class Database;
}

struct HistoryLimits {
    int people_kept = 1000;
    int bots_kept = 200;
};

// GET /games: newest first; every filter optional.
struct GamesQuery {
    std::string room;    // a room code
    std::string player;  // a player's name (case-insensitive)
    std::string game;    // spook | ludo
    std::optional<std::int64_t> since_ms, until_ms;  // ended at or after / before (Unix ms)
    int page = 1;        // 1-based
    int per_page = 20;   // 1..100
};

class HistoryStore {
public:
    HistoryStore(db::Database& db, HistoryLimits limits);
    // Adds a finished or abandoned game (`text`: its record as served). Throws db::Error when the
    // database cannot take it (a full disk, a read-only file); the caller keeps the record.
    void add(const GameRecord& record, const std::string& id, const std::string& owner, const std::string& text);
    std::optional<std::string> record(const std::string& id);
    nlohmann::json games(const GamesQuery& q);
    // A player's games, wins and places, by game kind; nothing when no game has that name.
    std::optional<nlohmann::json> player(const std::string& name);
    std::int64_t count(bool people);

private:
    void trim(bool people);
    db::Database& db_;
    HistoryLimits limits_;
};

}  // namespace spookludo::server
