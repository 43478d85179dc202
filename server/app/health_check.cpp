// The health check of `spookludo-server --healthcheck`: a small HTTP client of the server's own
// /healthz.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "network.h"

namespace spookludo::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

beast::tcp_stream& tcp_of(beast::tcp_stream& s) { return s; }
beast::tcp_stream& tcp_of(beast::ssl_stream<beast::tcp_stream>& s) { return s.next_layer(); }

// The exchange itself, on a plain or a TLS stream (`handshake` makes the TLS handshake, or nothing).
template <class Stream, class Handshake>
HealthCheck exchange(net::io_context& io, Stream& stream, Handshake handshake, const net::ip::address& address,
                     std::uint16_t port, const std::string& where, const std::string& scheme,
                     std::chrono::milliseconds timeout) {
    http::request<http::empty_body> req{http::verb::get, "/healthz", 11};
    req.set(http::field::host, where);
    req.set(http::field::user_agent, "spookludo-server --healthcheck");
    req.set(http::field::connection, "close");
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(4096);
    HealthCheck result{false, ""};
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    // `doing`: what timed out ("connecting"); `failure`: what failed ("cannot connect to").
    auto failed = [&](beast::error_code e, const char* doing, const char* failure) {
        if (e == beast::error::timeout)
            result.reason = "timed out after " + std::to_string(timeout.count()) + " ms " + doing + " " + where;
        else
            result.reason = std::string(failure) + " " + where + ": " + e.message();
    };
    // One deadline for the whole exchange: connect, (TLS handshake,) write, read.
    tcp_of(stream).expires_at(deadline);
    auto ask = [&] {
        http::async_write(stream, req, [&](beast::error_code e2, std::size_t) {
            if (e2) return failed(e2, "sending GET /healthz to", "cannot send GET /healthz to");
            http::async_read(stream, buffer, parser, [&](beast::error_code e3, std::size_t) {
                if (e3) return failed(e3, "waiting for the answer of", "no valid HTTP answer from");
                const auto& res = parser.get();
                if (res.result() == http::status::ok) {
                    result.healthy = true;
                    return;
                }
                std::string body = res.body();
                while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) body.pop_back();
                result.reason = "GET " + scheme + "://" + where + "/healthz answered " + std::to_string(res.result_int()) +
                                " " + std::string(res.reason()) + (body.empty() ? "" : ": " + body);
            });
        });
    };
    tcp_of(stream).async_connect(tcp::endpoint{address, port}, [&](beast::error_code e) {
        if (e) return failed(e, "connecting to", "cannot connect to");
        handshake([&](beast::error_code e1) {
            if (e1) return failed(e1, "in the TLS handshake with", "no TLS handshake with");
            ask();
        });
    });
    io.run();
    beast::error_code ignored;
    tcp_of(stream).socket().shutdown(tcp::socket::shutdown_both, ignored);
    return result;
}

}  // namespace

HealthCheck check_health(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout, bool tls) {
    const std::string where = host + ":" + std::to_string(port);
    beast::error_code ec;
    const auto address = net::ip::make_address(host, ec);
    if (ec) return {false, "bad address \"" + host + "\": " + ec.message()};
    net::io_context io;
    if (!tls) {
        beast::tcp_stream stream(io);
        return exchange(io, stream, [](auto&& next) { next(beast::error_code{}); }, address, port, where, "http", timeout);
    }
    // The server on this machine, asked for its health: its certificate names the public host,
    // not the address asked, so it is not verified here (this check says whether it answers).
    net::ssl::context ctx(net::ssl::context::tls_client);
    ctx.set_verify_mode(net::ssl::verify_none);
    beast::ssl_stream<beast::tcp_stream> stream(io, ctx);
    return exchange(
        io, stream,
        [&stream](auto&& next) {
            stream.async_handshake(net::ssl::stream_base::client,
                                   [next = std::forward<decltype(next)>(next)](beast::error_code e) mutable { next(e); });
        },
        address, port, where, "https", timeout);
}

}  // namespace spookludo::server
