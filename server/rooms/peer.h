#pragma once
// What a room sees of a connection. Implemented by the WebSocket session; every call is
// thread-safe (the session posts it onto its own strand).
#include <cstdint>
#include <functional>
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
    // The room let the peer go: it refused the peer's join_room, watch, resume or create_room,
    // or the peer left, was kicked or was replaced by a resume. A connection is in at most one
    // room, and which one is decided where its messages are taken (the Inbox), when it sends
    // the message that enters a room. `room` and `entry` (Room::deliver's count of the peer's
    // entering messages, as of the last message the room took from it) say what the room had
    // seen: a detach that arrives after the connection moved on, or after it sent the room
    // another entering message, changes nothing (the room answers that message itself).
    virtual void detach(const Room& room, std::uint64_t entry) = 0;
    // The room refused a message as abuse (a wrong seat token): it counts as a bad message of
    // this connection, as the Inbox's own refusals do.
    virtual void strike() = 0;
    // The room asked this peer a question (a decision, its client seed): its answer does not
    // count against the message rate limit, so a player may answer as fast as a room asks.
    virtual void grant_answer() = 0;
    // Closes the connection after what is queued.
    virtual void close() = 0;
    // Runs `fn` on the connection's strand (the Inbox's answers from the cluster); when it
    // returns true the connection is closed for too many bad messages.
    virtual void post(std::function<bool()> fn) = 0;
};

}  // namespace spookludo::server
