#pragma once
// What a room sees of a connection. Implemented by the WebSocket session; every call is
// thread-safe (the session posts it onto its own strand).
#include <cstdint>
#include <memory>
#include <string>

namespace spookludo::server {

class Room;

class Peer {
public:
    virtual ~Peer() = default;
    virtual std::uint64_t id() const noexcept = 0;
    // The remote address the connection came from (for per-address limits and logs).
    virtual const std::string& address() const noexcept = 0;
    // Queues a text frame (the same buffer may go to many peers).
    virtual void send(std::shared_ptr<const std::string> text) = 0;
    void send(std::string text) { send(std::make_shared<const std::string>(std::move(text))); }
    // The room accepted this peer (as player or spectator); its messages now go there.
    virtual void attach(std::shared_ptr<Room> room) = 0;
    // The room let the peer go (left, kicked, game over for a spectator is not a reason).
    virtual void detach() = 0;
    // The room asked this peer a question (a decision, its client seed): its answer does not
    // count against the message rate limit, so a player may answer as fast as a room asks.
    virtual void grant_answer() = 0;
    // Closes the connection after what is queued.
    virtual void close() = 0;
};

}  // namespace spookludo::server
