#pragma once
// What a connection's messages do before and beside its room: the hello, the message rate,
// bad-message strikes, and which room each message goes to. One per WebSocket connection, used
// only on that connection's strand. No Asio here: the WebSocket session does the I/O.
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "peer.h"
#include "services.h"
#include "spookludo/protocol/messages.h"

namespace boost::asio {
class io_context;
}

namespace spookludo::server {

class Inbox {
public:
    Inbox(boost::asio::io_context& io, Services& services, const Peer& peer);

    // What became of a message: go on, or close the connection (too many bad messages).
    enum class Outcome { go_on, close };

    // A whole text message, or a binary one (not part of the protocol). Nothing a client sends
    // escapes from here as an exception: a failure is answered with internal_error, logged and
    // counted.
    Outcome on_text(const std::shared_ptr<Peer>& self, std::string_view text);
    Outcome on_binary(const std::shared_ptr<Peer>& self);
    // A ping or pong frame: within the message rate it is answered (a ping); over it, it is
    // ignored and counts as a bad message, and too many close the connection.
    enum class Control { answer, ignore, close };
    Control on_control();

    // The room let this connection go (Peer::detach): only that room, if it is still the one
    // and this connection has sent it no entering message since.
    void detach(const Room* room, std::uint64_t entry);  // compared, never followed
    // The room counted a bad message (Peer::strike).
    Outcome strike();
    // The connection is gone: the room it is in, or asked to enter, is told.
    void on_gone(const std::shared_ptr<Peer>& self);

    // The room asked a question: its answer is not rate limited (see Peer::grant_answer).
    void grant_answer();

    static constexpr int kMaxStrikes = 20;
    // Messages that may wait behind one that waits for the cluster (where a room is, a new
    // room's code); more are refused.
    static constexpr std::size_t kMaxHeld = 8;

private:
    bool rate_ok(bool answers_count = true);
    double burst() const;
    // `args`: the error's parameters for a client to word it (PROTOCOL.md, "Words and languages").
    Outcome reject(const std::shared_ptr<Peer>& self, protocol::ErrorCode code, const std::string& message,
                   std::string_view ref = {}, const nlohmann::json& args = nlohmann::json::object());
    // room_lost for a room the server could not take up again, when `code` is one.
    std::optional<Outcome> if_lost(const std::shared_ptr<Peer>& self, const std::string& code, std::string_view ref);
    Outcome handle(const std::shared_ptr<Peer>& self, std::string_view text);
    Outcome enter(const std::shared_ptr<Peer>& self, std::shared_ptr<Room> room, protocol::ClientMessage&& message);
    Outcome guarded(const std::shared_ptr<Peer>& self, std::string_view text);  // handle(), failures answered
    // A cluster's node: create_room and entering a room this node does not have ask Redis; the
    // connection's later messages wait (held_) until the answer is back on its strand.
    Outcome create_in_cluster(const std::shared_ptr<Peer>& self, protocol::ClientMessage&& message);
    Outcome locate_in_cluster(const std::shared_ptr<Peer>& self, const std::string& code,
                              protocol::ClientMessage&& message);
    // The answer is in: `then` finishes the waiting message, then the held ones are taken.
    // True: close the connection (too many bad messages).
    bool answered(const std::shared_ptr<Peer>& self, const std::function<Outcome()>& then);
    // create_room on this node, under a code the cluster gave (none: the registry makes one).
    Outcome open_room(const std::shared_ptr<Peer>& self, const std::string* code, protocol::ClientMessage&& message);
    // A create_room refused: the connection's address holds `holds` rooms, its bound.
    Outcome address_full(const std::shared_ptr<Peer>& self, int holds);
    // join_room, watch or resume of a room found here.
    Outcome into_room(const std::shared_ptr<Peer>& self, std::shared_ptr<Room> room, protocol::ClientMessage&& message);

    static constexpr int kMaxGrants = 4;

    boost::asio::io_context& io_;
    Services& services_;
    const Peer& peer_;
    // The room this connection is in, or has asked to enter: set when the message that enters
    // it is taken, so that the next message already knows (two messages in one TCP segment
    // cannot put one connection in two rooms).
    std::shared_ptr<Room> room_;
    std::uint64_t entries_ = 0;  // entering messages delivered (Room::deliver's entry)
    bool hello_ = false;
    bool waiting_ = false;  // a message waits for the cluster's answer
    bool gone_ = false;     // the connection is gone
    std::vector<std::string> held_;  // a few at most (kMaxHeld): no deque's 512-byte block per connection
    int strikes_ = 0;
    double tokens_;
    std::atomic<int> granted_{0};  // answers asked for by the room (decisions), not rate limited
    std::chrono::steady_clock::time_point last_refill_ = std::chrono::steady_clock::now();
};

}  // namespace spookludo::server
