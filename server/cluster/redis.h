#pragma once
// A Redis client for the cluster (docs/cluster.md): hiredis's asynchronous API (Debian's
// libhiredis) driven by the server's Asio io_context, so that no I/O thread ever blocks on Redis.
// One connection, commands answered in order on the client's strand; the connection is made again
// by itself after it is lost, and a command that gets no answer within its time drops the
// connection (a Redis that hangs looks like one that is gone: the cluster's leases rely on it).
//
// Asio stays out of this header: the client is made by make() and used through this interface.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace boost::asio {
class io_context;
}

namespace spookludo::server::redis {

struct Reply {
    enum class Type : unsigned char { nil, status, error, integer, string, array };
    Type type = Type::nil;
    std::string text;  // status, error, string
    long long integer = 0;
    std::vector<Reply> elements;  // array
    // No answer came: the connection was down, was lost, or the answer did not come in time
    // (type error, text says which). Whether the command was carried out is not known.
    bool lost = false;
    bool error() const noexcept { return type == Type::error; }
    bool nil() const noexcept { return type == Type::nil; }
};

struct Address {
    std::string host;
    std::uint16_t port = 6379;
    std::string url() const { return "redis://" + host + ":" + std::to_string(port); }
};

// redis://HOST[:PORT][/] (IPv6 in brackets); throws std::invalid_argument saying what is wrong.
Address parse_url(std::string_view url);

struct ClientOptions {
    std::chrono::milliseconds command_timeout{2000};  // no answer by then: the connection is dropped and made again
    std::chrono::milliseconds reconnect_delay{250};   // between attempts to connect
};

class Client {
public:
    using Done = std::function<void(Reply)>;
    // Connects at once and keeps connecting until close(). `on_state(true)` when a connection is
    // made, `on_state(false)` when it is lost (on the client's strand). Ignores SIGPIPE in the
    // process: hiredis writes to its socket with write(), and a Redis that went away must be an
    // error, not the end of the server.
    static std::shared_ptr<Client> make(boost::asio::io_context& io, Address address, ClientOptions options = {},
                                        std::function<void(bool)> on_state = {});
    virtual ~Client() = default;

    // Sends a command, each argument one bulk string (binary safe). `done` runs on the client's
    // strand with the answer; when not connected it is answered at once, lost. Any thread. One
    // answer per command: subscriptions (SUBSCRIBE, PSUBSCRIBE, MONITOR) are refused.
    virtual void command(std::vector<std::string> args, Done done) = 0;
    virtual bool connected() const noexcept = 0;
    virtual const Address& address() const noexcept = 0;
    // Ends the connection and stops reconnecting; commands waiting are answered lost. Any thread.
    virtual void close() = 0;
};

}  // namespace spookludo::server::redis
