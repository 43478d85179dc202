#pragma once
// Several server nodes through Redis (--cluster redis://HOST:PORT; docs/cluster.md): the nodes
// and their leases, the room directory, the claims of a dead node's rooms (cluster_journal.h has
// the rooms' journal in Redis), and the copy of the cluster's finished games into this node's
// history. Each node writes a heartbeat key with a short expiry every
// kHeartbeat (the key lives kExpiry); a node whose key has expired is dead. A node holds its lease
// until kExpiry after the last heartbeat Redis acknowledged, counted from when it was sent: while
// it holds it, no other node can have seen it dead.
//
// In Redis (every key under the prefix "spookludo:"):
//   node:<id>       the node's heartbeat, JSON {id, url, rooms, connections, started_ms, heartbeat_ms}, expiring
//   node-last:<id>  the same, without expiry: what /cluster shows of a dead node
//   nodes           the set of the nodes' ids
//   room:<code>     the room directory: a hash {node, epoch, created_ms}, made when the room is
//                   (codes are unique in the cluster: the entry is made only where none is),
//                   deleted when it closes
//   node-rooms:<id> the set of the codes of the node's rooms
//
// Asio stays out of this header (the cluster runs on the server's io_context, cluster.cpp).
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace boost::asio {
class io_context;
}

namespace spookludo::server {

struct Services;

inline constexpr std::chrono::milliseconds kHeartbeat{2000};
inline constexpr std::chrono::milliseconds kExpiry{6000};

struct NodeInfo {
    std::string id;
    std::string url;  // where clients reach it (its --public-url)
    long rooms = 0;
    long connections = 0;
    std::int64_t started_ms = 0;
    std::int64_t heartbeat_ms = 0;  // its last heartbeat (Unix ms, its own clock)
    bool alive = false;
};

// Where the directory says a room is.
struct RoomPlace {
    enum class Kind : unsigned char {
        none,         // no such room in the cluster
        here,         // this node
        elsewhere,    // a live node: `node`, reached at `url`
        node_down,    // a node whose heartbeat has expired (its rooms are being moved)
        unavailable,  // Redis cannot be asked now (`why`)
    };
    Kind kind = Kind::none;
    std::string node, url, why;
};

// A node's id: 1 to 64 of A-Z a-z 0-9 . _ - (it is part of Redis keys and shown to operators).
bool valid_node_id(const std::string& id);

class Cluster {
public:
    // Connects to Redis and starts the heartbeat. `url`: this node's --public-url.
    static std::unique_ptr<Cluster> make(boost::asio::io_context& io, Services& services, const std::string& redis_url,
                                         std::string node_id, std::string url);
    virtual ~Cluster() = default;
    virtual const std::string& node_id() const noexcept = 0;
    // The nodes as last read from Redis (every heartbeat), this one included; alive ones first.
    virtual std::vector<NodeInfo> nodes() const = 0;
    // The live nodes' addresses (the `welcome`'s `nodes`).
    virtual std::vector<std::string> live_urls() const = 0;
    // Whether this node holds its lease now, and until when.
    virtual bool lease_valid() const = 0;
    virtual std::chrono::milliseconds lease_left() const = 0;
    virtual bool redis_connected() const = 0;
    // Leaves the cluster (a clean stop): its keys go (sent at once; the stop gives them its grace).
    virtual void leave() = 0;

    // A new room: it goes to the live node with the fewest rooms. Decided in Redis, in one
    // script, from the nodes' room sets as they are at that moment (every node decides from the
    // same numbers, so two nodes never send a client back and forth): when another live node
    // has at least two rooms fewer than this one, `elsewhere` names it; else this node claims a
    // fresh code, unique in the cluster (`code`). `why` when Redis cannot be asked. Any thread;
    // `done` runs on the Redis client's strand.
    struct NewRoom {
        std::string code;
        std::optional<NodeInfo> elsewhere;
        std::string why;
    };
    virtual void claim_code(std::function<void(NewRoom)> done) = 0;
    // Where the room with this code is. Any thread; `done` runs on the cluster's strand.
    virtual void locate(const std::string& code, std::function<void(RoomPlace)> done) = 0;
    // The room closed on this node: its directory entry goes (if it is still this node's).
    virtual void release_code(const std::string& code) = 0;
    // A room of this node whose journal in Redis lost writes (a Redis that restarted without
    // them): it is taken up again from what Redis has, under a new epoch.
    virtual void take_back(const std::string& code) = 0;
};

}  // namespace spookludo::server
