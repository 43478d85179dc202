#pragma once
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "address_buckets.h"
#include "metrics.h"
#include "spookludo/spook/solver.h"

namespace spookludo::server {


// Board solutions shared by all rooms. The pools' boards are solved once, ahead of time, by
// warm_up() on a thread of its own; a board not yet solved is solved by the room that needs it
// without holding the lock, so no room waits for another room's solve.
//
// Memory is bounded: the balanced pools' boards (a fixed set: 96 boards, 23 MB) are pinned, never
// evicted; every other solution (the random boards of games with balanced_boards false) is
// kept while the cache's `cache_bytes` allow, the least recently used evicted first. A room
// holds its seats' solutions through their shared_ptr, so an evicted solution lives on until
// its game ends. How much solving one address may ask for is bounded by allow_solves().
class SharedSolutions {
public:
    struct Limits {
        std::size_t cache_bytes = std::size_t{64} << 20;  // the unpinned solutions, at most
        int solves_per_minute = 48;  // per address (a bucket of this many, refilled over a minute); 0: no limit
    };
    SharedSolutions(Limits limits, Metrics& metrics);

    std::shared_ptr<const spook::Solution> get(const spook::Board& board, int pieces, int need);
    // Solves every board of the balanced pools (about a second on one core); stops early, after
    // the board in hand, once `stop` is set (a shutdown need not wait for it).
    void warm_up(const std::atomic<bool>& stop);

    // Takes `solves` from the address's budget; when it has not that many left, takes nothing
    // and says how long until it has (whole seconds, at least 1).
    std::optional<std::chrono::seconds> allow_solves(const std::string& address, int solves);

private:
    using Key = std::pair<std::array<std::uint64_t, 2>, int>;
    struct Entry {
        std::shared_ptr<const spook::Solution> solution;
        std::size_t bytes = 0;
        bool pinned = false;
        std::list<Key>::iterator recent;  // in recent_ (unpinned entries only)
    };
    void evict_over_limit();  // under the lock
    void publish_gauges();    // under the lock

    Limits limits_;
    Metrics& metrics_;
    std::set<Key> pool_keys_;  // the balanced pools' boards: pinned
    std::mutex mutex_;
    std::map<Key, Entry> solved_;
    std::list<Key> recent_;  // unpinned entries, most recently used first
    std::size_t bytes_ = 0, pinned_bytes_ = 0, pinned_entries_ = 0;

    AddressBuckets solves_;  // by address: solves_per_minute, refilled over a minute
};

}  // namespace spookludo::server
