#pragma once
// What the network's rooms share: the listener (listener.cpp), the HTTP session
// (http_session.cpp) and the WebSocket session (websocket_session.cpp). Included by those files
// alone: it brings Asio and Beast.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "network.h"
#include "peer.h"
#include "stream.h"

namespace spookludo::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

// Logs a failed operation at debug level, except the ordinary ends of a connection.
void log_failure(beast::error_code ec, const char* what);

// Connections per address, for the per-address limit.
class AddressCounter {
public:
    bool acquire(const std::string& address, int limit);
    void release(const std::string& address);

private:
    std::mutex mutex_;
    std::map<std::string, int> counts_;
};

// An accepted TCP connection's place under the limits (--max-connections, and
// --max-connections-per-address): taken at accept, whatever the connection goes on to be (an
// HTTP request, a WebSocket, nothing at all), handed from the HTTP session to the WebSocket
// session, and given back when the connection ends.
class ConnectionSlot {
public:
    // Takes a place for a connection from `address`; an empty slot when a limit is reached,
    // with `refusal` saying which.
    ConnectionSlot(std::shared_ptr<Network::Impl> network, std::string address);
    ConnectionSlot(ConnectionSlot&& other) noexcept;
    ConnectionSlot& operator=(ConnectionSlot&&) = delete;
    ~ConnectionSlot();

    bool held() const noexcept { return held_; }
    const std::string& address() const noexcept { return address_; }
    // Why the connection has no place (a limit and its HTTP status); empty while held.
    int refusal_status() const noexcept { return refusal_status_; }
    const std::string& refusal() const noexcept { return refusal_; }

    // Refused connections being answered are bounded too (kMaxRefusedInFlight): past that, a
    // refused connection is closed without an answer.
    bool may_answer() const noexcept { return answering_; }
    static constexpr int kMaxRefusedInFlight = 256;

private:
    std::shared_ptr<Network::Impl> network_;
    std::string address_;
    bool held_ = false;
    bool answering_ = false;  // a refused connection counted in refused_in_flight
    int refusal_status_ = 0;
    std::string refusal_;
};

// The server's TLS settings (--tls-cert, --tls-key): one context for new connections, replaced
// as a whole on reload (SIGHUP); connections keep the one they started with.
class TlsContexts {
public:
    TlsContexts(std::string cert, std::string key);  // throws std::runtime_error with the reason
    std::shared_ptr<net::ssl::context> current() const;
    // Re-reads the files; on failure the current context stays and `why` says what was wrong.
    bool reload(std::string& why);
    // What the certificate says, for the log: subject and expiry.
    std::string describe() const;

private:
    std::shared_ptr<net::ssl::context> load() const;
    std::string cert_, key_;
    mutable std::mutex mutex_;
    std::shared_ptr<net::ssl::context> current_;
};

// The state every connection shares with the listener.
struct Network::Impl : std::enable_shared_from_this<Network::Impl> {
    net::io_context& io;
    Services& services;
    tcp::acceptor acceptor;
    AddressCounter per_address;
    // Open WebSocket connections, so that stop() can close them.
    std::mutex sessions_mutex;
    std::map<std::uint64_t, std::weak_ptr<Peer>> sessions;
    std::atomic<std::uint64_t> next_id{1};
    std::atomic<bool> stopping{false};

    net::steady_timer accept_pause;  // after running out of file descriptors
    // A descriptor kept in reserve: out of descriptors, it is closed for a moment so that the
    // server can still accept a connection, answer 503 and close it (a health check sees why).
    int spare_descriptor = -1;
    std::atomic<int> refused_in_flight{0};  // refused connections being told why (ConnectionSlot)
    // The spare descriptor is had back when it could not be (out of descriptors at the time).
    void keep_spare();
    std::chrono::steady_clock::time_point last_descriptor_warning{};

    std::unique_ptr<TlsContexts> tls;  // set when the port serves TLS
    // TLS handshakes each address may start (--tls-handshakes-per-second; none: no limit).
    std::unique_ptr<AddressBuckets> tls_handshakes;

    Impl(net::io_context& io_, Services& s);
    ~Impl();

    void accept();
    void on_accept(beast::error_code ec, tcp::socket socket);
    bool refuse_out_of_descriptors();  // true when a waiting connection was answered
};

// Serves HTTP on a new connection (and hands an upgrade to run_websocket_session). `early`: bytes
// already read from it (the TLS detection's). `plain_on_tls_port`: a plain request to a TLS
// port, answered with a redirect to https:// or a refusal that says to use wss://.
template <class Stream>
void run_http_session(Stream&& stream, std::shared_ptr<Network::Impl> network, ConnectionSlot slot,
                      std::string early = {}, bool plain_on_tls_port = false);

// A connection to a TLS port: tells TLS from plain HTTP by its first bytes, makes the TLS
// handshake (within the handshake timeout), then serves HTTP over it (tls.cpp).
void run_tls_front(tcp::socket socket, std::shared_ptr<Network::Impl> network, ConnectionSlot slot);

// Takes over a connection whose HTTP request asked for the WebSocket upgrade (its limits are
// already checked): the opening handshake, then the session. `early` holds the bytes that came
// after the request, in the same read (a client may send its first frame at once).
template <class Stream>
void run_websocket_session(Stream&& stream, std::shared_ptr<Network::Impl> network, ConnectionSlot slot,
                           http::request<http::string_body> request, std::string early);

}  // namespace spookludo::server
