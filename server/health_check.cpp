// The health check of `spookludo-server --healthcheck`: a small HTTP client of the server's own
// /healthz.
#include <boost/asio/io_context.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "network.h"

namespace spookludo::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

HealthCheck check_health(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout) {
    const std::string where = host + ":" + std::to_string(port);
    beast::error_code ec;
    const auto address = net::ip::make_address(host, ec);
    if (ec) return {false, "bad address \"" + host + "\": " + ec.message()};

    net::io_context io;
    beast::tcp_stream stream(io);
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
    // One deadline for the whole exchange: connect, write, read.
    stream.expires_at(deadline);
    stream.async_connect(tcp::endpoint{address, port}, [&](beast::error_code e) {
        if (e) return failed(e, "connecting to", "cannot connect to");
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
                result.reason = "GET http://" + where + "/healthz answered " + std::to_string(res.result_int()) + " " +
                                std::string(res.reason()) + (body.empty() ? "" : ": " + body);
            });
        });
    });
    io.run();
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    return result;
}

}  // namespace spookludo::server
