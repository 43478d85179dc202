#pragma once
// What a connection's messages do before and beside its room: the hello, the message rate,
// bad-message strikes, and which room each message goes to. One per WebSocket connection, used
// only on that connection's strand. No Asio here: the WebSocket session does the I/O.
#include <chrono>
#include <memory>
#include <string_view>

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

    // A whole text message, or a binary one (not part of the protocol).
    Outcome on_text(const std::shared_ptr<Peer>& self, std::string_view text);
    Outcome on_binary(const std::shared_ptr<Peer>& self);

    // The room took this connection in, or let it go.
    void attach(std::shared_ptr<Room> room) { room_ = std::move(room); }
    void detach() { room_.reset(); }
    // The connection is gone: its room is told.
    void on_gone(const std::shared_ptr<Peer>& self);

    // The room asked a question: its answer is not rate limited (see Peer::grant_answer).
    void grant_answer();

    static constexpr int kMaxStrikes = 20;

private:
    bool rate_ok();
    double burst() const;
    Outcome reject(const std::shared_ptr<Peer>& self, protocol::ErrorCode code, const std::string& message,
                   std::string_view ref = {});
    Outcome handle(const std::shared_ptr<Peer>& self, std::string_view text);

    static constexpr int kMaxGrants = 4;

    boost::asio::io_context& io_;
    Services& services_;
    const Peer& peer_;
    std::shared_ptr<Room> room_;
    bool hello_ = false;
    int strikes_ = 0;
    double tokens_;
    std::atomic<int> granted_{0};  // answers asked for by the room (decisions), not rate limited
    std::chrono::steady_clock::time_point last_refill_ = std::chrono::steady_clock::now();
};

}  // namespace spookludo::server
