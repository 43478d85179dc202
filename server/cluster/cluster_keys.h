#pragma once
// The cluster's keys in Redis and the directory's scripts (docs/cluster.md): what cluster.cpp
// asks Redis, apart from how and when it asks.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cluster.h"

namespace spookludo::server::cluster_keys {

using nlohmann::json;

constexpr std::string_view kPrefix = "spookludo:";
// The lease ends this long before the heartbeat key could have expired in Redis (timers, clocks).
constexpr std::chrono::milliseconds kLeaseMargin{500};
// A dead node without rooms is listed this long after its last heartbeat, then forgotten.
constexpr std::chrono::milliseconds kForgetDeadAfter{60000};

inline std::int64_t unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

inline std::string key(std::string_view kind, std::string_view id = {}) {
    std::string k(kPrefix);
    k += kind;
    if (!id.empty()) {
        k += ':';
        k += id;
    }
    return k;
}

// The directory's scripts (docs/cluster.md). KEYS[1] room:<code>, KEYS[2] node-rooms:<node>.
// A new room: when another live node has at least two rooms fewer than this one, {node's
// heartbeat}; else the entry is made where none is (codes are unique in the cluster): 1, or 0
// when the code is taken. A node's rooms count those sent to it and not made yet (coming:<id>,
// for 5 s), so that a burst of creates is shared out, not all sent to the node that was emptiest
// and then back. KEYS[3] nodes; ARGV: node, created_ms, code, key prefix.
constexpr const char* kClaimScript = R"lua(
local function rooms(id)
  return redis.call('SCARD', ARGV[4] .. 'node-rooms:' .. id) + tonumber(redis.call('GET', ARGV[4] .. 'coming:' .. id) or '0')
end
local mine = redis.call('SCARD', KEYS[2])
local best, best_id, fewest = nil, nil, nil
for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  if id ~= ARGV[1] then
    local beat = redis.call('GET', ARGV[4] .. 'node:' .. id)
    if beat then
      local n = rooms(id)
      if not fewest or n < fewest then best, best_id, fewest = beat, id, n end
    end
  end
end
if best and fewest + 2 <= mine then
  redis.call('INCR', ARGV[4] .. 'coming:' .. best_id)
  redis.call('PEXPIRE', ARGV[4] .. 'coming:' .. best_id, 5000)
  return {best}
end
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'node', ARGV[1], 'epoch', 1, 'created_ms', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[3])
local coming = ARGV[4] .. 'coming:' .. ARGV[1]
if tonumber(redis.call('GET', coming) or '0') > 0 then redis.call('DECR', coming) end
return 1
)lua";
// A release deletes the entry only while it is still this node's.
constexpr const char* kReleaseScript = R"lua(
if redis.call('HGET', KEYS[1], 'node') == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('SREM', KEYS[2], ARGV[2])
return 1
)lua";
// A node that leaves (SIGTERM) or is long dead: its heartbeat goes at once (ARGV[2] '0'), or
// it is checked to be gone (ARGV[2] '1'); while it has rooms it stays listed (dead) so that the
// other nodes claim them, and once it has none it is forgotten. KEYS: node:<id>, node-last:<id>,
// nodes, node-rooms:<id>; ARGV[1] the id.
constexpr const char* kLeaveScript = R"lua(
if ARGV[2] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('DEL', KEYS[1])
if redis.call('SCARD', KEYS[4]) > 0 then return 0 end
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[3], ARGV[1])
return 1
)lua";

// Where a room is: its node and that node's heartbeat (nil when expired). ARGV[1]: the prefix
// of the heartbeat keys.
constexpr const char* kLocateScript = R"lua(
local node = redis.call('HGET', KEYS[1], 'node')
if not node then return false end
return {node, redis.call('GET', ARGV[1] .. node)}
)lua";

inline std::optional<NodeInfo> parse_node(const std::string& text, bool alive) {
    try {
        const json j = json::parse(text);
        NodeInfo n;
        n.id = j.at("id").get<std::string>();
        n.url = j.value("url", std::string());
        n.rooms = j.value("rooms", 0L);
        n.connections = j.value("connections", 0L);
        n.started_ms = j.value("started_ms", std::int64_t{0});
        n.heartbeat_ms = j.value("heartbeat_ms", std::int64_t{0});
        n.alive = alive;
        return n;
    } catch (const std::exception&) {
        return std::nullopt;  // another program's key, or a damaged one: not a node
    }
}

}  // namespace spookludo::server::cluster_keys
