#pragma once
// A cluster's journal (docs/cluster.md): every room's journal in Redis, where any node can read
// it, so that a dead node's rooms go on elsewhere at the exact step they had reached.
//
// In Redis, beside the directory (cluster.h):
//   room:<code>     the directory entry {node, epoch, created_ms} and the room's journal: state
//                   (the room's JSON), game (the game in progress), seq (the next event's number),
//                   ops (how many ops were written)
//   events:<code>   the game's events, in order: "<seq> <kind> <text>"
//   records         the finished games' ids, scored by the order they were written in (records-seq,
//                   a counter; the newest kept)
//   record:<id>     a finished game: {text, owner, ended_ms}
//
// Fencing: a room's writes go through a Lua script that first checks the entry still names this
// node and the room's epoch as this node took it. A claim (another node taking the room over
// after this one's heartbeat expired) raises the epoch, so a node that was only cut off and comes
// back can never write a step of a room that is played elsewhere: its write is refused (FENCED),
// and the room stops on it before anything it did not write is sent.
//
// Exactly once: each write carries the number of the room's first op in it; ops the store already
// has (a write whose answer was lost, tried again) are skipped, so a retry never doubles an event.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "journal.h"

namespace spookludo::server {

class HistoryStore;
namespace redis {
class Client;
}

class RedisJournal final : public JournalStore {
public:
    // `history`: the node's own copy of the finished games (the record is there at once, before
    // the other nodes copy it from Redis); `records_kept`: how many finished games Redis keeps.
    RedisJournal(std::shared_ptr<redis::Client> client, std::string node_id, HistoryStore* history,
                 std::size_t records_kept);
    ~RedisJournal() override;
    // Sends each room's write (pipelined, one script each) and waits for the answers.
    std::vector<Result> store(std::span<const RoomWrite> rooms, std::size_t& transactions) override;

private:
    std::shared_ptr<redis::Client> client_;
    std::string node_id_;
    HistoryStore* history_;
    std::size_t records_kept_;
};

// Takes a room over: atomically, when the room's entry still names `from` and `from` is dead (no
// heartbeat key) or `own` (this node's own room, after it restarted), the entry names `to` with
// the epoch raised by one, and the room comes back as its journal has it. `done` runs on the
// client's strand: the room, or nothing with an empty `why` (it moved, closed, or its node is
// alive), or nothing with `why` (Redis could not be asked, or the room's journal is unreadable).
// `made_before_ms`: for its own rooms, only those made before then (a room being made now is not
// a leftover to take up).
void claim_room(redis::Client& client, const std::string& code, const std::string& from, const std::string& to,
                bool own, std::int64_t made_before_ms, std::function<void(std::optional<SavedRoom>, std::string why)> done);

// Finished games in Redis written after the one numbered `after` (each record is numbered as it
// is written: records-seq), at most `limit`, oldest first, as the history takes them. `done` on
// the client's strand; nothing when Redis could not be asked.
struct ClusterRecord {
    std::string id, text, owner;
    std::int64_t ended_ms = 0;
    std::int64_t seq = 0;
};
void read_records(redis::Client& client, std::int64_t after, std::size_t limit,
                  std::function<void(std::optional<std::vector<ClusterRecord>>)> done);

}  // namespace spookludo::server
