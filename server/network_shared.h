#pragma once
// What the network's rooms share: the listener (listener.cpp), the HTTP session
// (http_session.cpp) and the WebSocket session (websocket_session.cpp). Included by those files
// alone: it brings Asio and Beast.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
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

    Impl(net::io_context& io_, Services& s);

    void accept();
    void on_accept(beast::error_code ec, tcp::socket socket);
};

// Serves HTTP on a new connection (and hands an upgrade to run_websocket_session).
template <class Stream>
void run_http_session(Stream&& stream, std::shared_ptr<Network::Impl> network, std::string address);

// Takes over a connection whose HTTP request asked for the WebSocket upgrade (its limits are
// already checked): the opening handshake, then the session. `early` holds the bytes that came
// after the request, in the same read (a client may send its first frame at once).
template <class Stream>
void run_websocket_session(Stream&& stream, std::shared_ptr<Network::Impl> network, std::string address,
                           http::request<http::string_body> request, std::string early);

}  // namespace spookludo::server
