// The blocking HTTP GET (http_get): its own io_context and connection, over TLS for https://
// with the certificate checked as for wss://, and every way it can fail said in words.
#include <stdexcept>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "i18n.h"
#include "net_asio.h"

namespace spookludo::client {

namespace beast = boost::beast;
namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = asio::ip::tcp;
using namespace net_detail;

namespace {

// The GET itself, on a connected stream (plain or TLS after its handshake).
template <class Stream>
void get_on(Stream& stream, beast::http::request<beast::http::empty_body>& request, beast::flat_buffer& buffer,
            beast::http::response_parser<beast::http::string_body>& parser, boost::system::error_code& failure,
            std::string& step) {
    namespace http = beast::http;
    step = "request";
    http::async_write(stream, request, [&](boost::system::error_code ec, std::size_t) {
        if (ec) return void(failure = ec);
        step = "response";
        http::async_read(stream, buffer, parser, [&](boost::system::error_code ec2, std::size_t) {
            if (ec2) failure = ec2;
        });
    });
}

}  // namespace

HttpResponse http_get(const HttpUrl& url, std::size_t max_body, std::chrono::milliseconds timeout) {
    namespace http = beast::http;
    asio::io_context io{1};
    tcp::resolver resolver(io);
    beast::tcp_stream plain(io);
    std::optional<ssl::stream<beast::tcp_stream&>> secure;
    std::optional<tls::VerifyFailure> verify;
    http::request<http::empty_body> request{http::verb::get, url.target, 11};
    request.set(http::field::host, url.host_port());
    request.set(http::field::user_agent, "spookludo-client");
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(max_body);
    boost::system::error_code failure;
    std::string step = "resolve";
    const auto where = url.host_port();
    const std::string address = (url.tls ? "https://" : "http://") + where + url.target;
    if (url.tls) {
        try {
            secure.emplace(plain, *context_for(url.ca_file));
        } catch (const std::exception& e) {
            throw std::runtime_error(e.what());
        }
        prepare_tls(*secure, url.host, verify);
    }

    resolver.async_resolve(url.host, url.port, [&](boost::system::error_code ec, tcp::resolver::results_type found) {
        if (ec) return void(failure = ec);
        step = "connect";
        plain.expires_after(timeout);
        plain.async_connect(found, [&](boost::system::error_code ec2, const tcp::endpoint&) {
            if (ec2) return void(failure = ec2);
            if (!secure) return get_on(plain, request, buffer, parser, failure, step);
            step = "handshake";
            secure->async_handshake(ssl::stream_base::client, [&](boost::system::error_code ec3) {
                if (ec3) return void(failure = ec3);
                get_on(*secure, request, buffer, parser, failure, step);
            });
        });
    });
    io.run();
    if (failure) {
        if (failure == asio::error::connection_refused)
            throw std::runtime_error(tr("connection refused by {address} (is the server still running?)", {{"address", where}}));
        if (failure == beast::error::timeout)
            throw std::runtime_error(tr("no answer from {address} (timed out)", {{"address", where}}));
        if (failure == http::error::body_limit)
            throw std::runtime_error(tr("the answer is larger than {mb} MB: not a game record",
                                        {{"mb", std::to_string(max_body / (1024 * 1024))}}));
        if (step == "resolve")
            throw std::runtime_error(
                tr("cannot find the host {host}: {detail}", {{"host", url.host}, {"detail", failure.message()}}));
        if (step == "handshake")
            throw std::runtime_error(
                tls_failure(failure, verify, address, url.host, url.ca_file, "http://" + where + url.target));
        if (step == "connect")
            throw std::runtime_error(
                tr("the connect to {address} failed: {detail}", {{"address", where}, {"detail", failure.message()}}));
        if (step == "request")
            throw std::runtime_error(
                tr("the request to {address} failed: {detail}", {{"address", where}, {"detail", failure.message()}}));
        throw std::runtime_error(
            tr("the response to {address} failed: {detail}", {{"address", where}, {"detail", failure.message()}}));
    }
    boost::system::error_code ignored;
    plain.socket().shutdown(tcp::socket::shutdown_both, ignored);
    HttpResponse response;
    response.status = static_cast<int>(parser.get().result_int());
    response.body = std::move(parser.get().body());
    response.location = std::string(parser.get()[http::field::location]);
    return response;
}

}  // namespace spookludo::client
