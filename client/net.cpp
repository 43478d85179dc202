// The only client file that includes Asio and Beast.
#include "net.h"

#include <unistd.h>

#include <csignal>
#include <cstring>
#include <random>
#include <thread>
#include <map>
#include <mutex>
#include <unordered_map>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <openssl/evp.h>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "spookludo/protocol/websocket.h"
#include "tls_client.h"

namespace spookludo::client {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = asio::ip::tcp;
namespace ws = protocol::ws;

std::int64_t steady_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
std::int64_t wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

namespace {

// HOST[:PORT][/PATH] after the scheme: the host (without an IPv6 address's brackets), the port
// (or `default_port`) and the path (or empty). `example` ends the error messages.
struct Address {
    std::string host, port, path;
};
std::optional<Address> split_address(std::string_view text, std::string_view rest, std::string_view default_port,
                                     std::string_view example, std::string& error) {
    Address a;
    if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
        a.path = std::string(rest.substr(slash));
        rest = rest.substr(0, slash);
    }
    std::string_view host = rest, port;
    bool port_given = false;
    if (!rest.empty() && rest.front() == '[') {  // [::1]:7777
        const auto close = rest.find(']');
        if (close == std::string_view::npos || (close + 1 < rest.size() && rest[close + 1] != ':')) {
            error = "a bad host in " + std::string(text) + " (an IPv6 address goes in brackets: " +
                    std::string(example) + ")";
            return std::nullopt;
        }
        host = rest.substr(1, close - 1);
        if (close + 1 < rest.size()) {
            port = rest.substr(close + 2);
            port_given = true;
        }
    } else if (const auto colon = rest.rfind(':'); colon != std::string_view::npos) {
        host = rest.substr(0, colon);
        port = rest.substr(colon + 1);
        port_given = true;
    }
    if (host.empty()) {
        error = "no host in " + std::string(text) + " (e.g. " + std::string(example) + ")";
        return std::nullopt;
    }
    if (port_given && (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos ||
                       std::stoi(std::string(port)) == 0 || std::stoi(std::string(port)) > 65535)) {
        error = "the port in " + std::string(text) + " must be a number from 1 to 65535";
        return std::nullopt;
    }
    a.host = std::string(host);
    a.port = std::string(port_given ? port : default_port);
    return a;
}

std::string bracketed(const std::string& host) {
    return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

}  // namespace

std::string Url::host_port() const {
    return bracketed(host) + ":" + port;
}
std::string Url::text() const {
    return (tls ? "wss://" : "ws://") + host_port() + (path == "/ws" ? std::string() : path);
}
std::string Url::http_base() const {
    return (tls ? "https://" : "http://") + host_port();
}

std::optional<Url> parse_url(std::string_view text, std::string& error) {
    Url url;
    std::string_view rest;
    if (text.starts_with("ws://")) {
        rest = text.substr(5);
    } else if (text.starts_with("wss://")) {
        url.tls = true;
        rest = text.substr(6);
    } else if (text.starts_with("http://") || text.starts_with("https://")) {
        const bool secure = text.starts_with("https://");
        error = "the address must start with ws:// or wss:// (got " + std::string(secure ? "https" : "http") +
                "://): try " + (secure ? "wss://" : "ws://") + std::string(text.substr(secure ? 8 : 7));
        return std::nullopt;
    } else {
        error = "the server address must look like ws://HOST:PORT, or wss://HOST:PORT for a server with a "
                "certificate (got \"" + std::string(text) + "\")";
        return std::nullopt;
    }
    auto a = split_address(text, rest, "7777", url.tls ? "wss://[::1]:7777" : "ws://127.0.0.1:7777", error);
    if (!a) return std::nullopt;
    url.host = std::move(a->host);
    url.port = std::move(a->port);
    if (!a->path.empty()) url.path = std::move(a->path);
    return url;
}

std::optional<Url> node_ws_url(std::string_view node, const Url& like) {
    std::string error;
    const auto http = parse_http_url(node, error);
    if (!http) return std::nullopt;
    Url url;
    url.tls = http->tls;
    url.host = http->host;
    url.port = http->port;
    std::string prefix = http->target;
    while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
    url.path = prefix + "/ws";
    url.ca_file = like.ca_file;
    return url;
}

// ---- HTTP GET ---------------------------------------------------------------------------------
std::optional<HttpUrl> parse_http_url(std::string_view text, std::string& error) {
    HttpUrl url;
    std::string_view rest;
    if (text.starts_with("http://")) {
        rest = text.substr(7);
    } else if (text.starts_with("https://")) {
        url.tls = true;
        rest = text.substr(8);
    } else {
        error = "an address must look like http://HOST:PORT/PATH or https://HOST:PORT/PATH (got \"" +
                std::string(text) + "\")";
        return std::nullopt;
    }
    auto a = split_address(text, rest, url.tls ? "443" : "80", "http://127.0.0.1:7777/records/...", error);
    if (!a) return std::nullopt;
    url.host = std::move(a->host);
    url.port = std::move(a->port);
    if (!a->path.empty()) url.target = std::move(a->path);
    return url;
}

std::optional<std::string> ca_file_problem(const std::string& path) {
    return tls::ca_file_problem(path);
}

namespace {

// One client context per --ca-file (the system's store for ""), made on first use and kept for
// the life of the process: reading the CA store is costly and every connection shares it.
std::shared_ptr<ssl::context> context_for(const std::string& ca_file) {
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<ssl::context>> contexts;
    std::lock_guard lock(mutex);
    if (auto it = contexts.find(ca_file); it != contexts.end()) return it->second;
    auto made = std::make_shared<ssl::context>(tls::client_context(ca_file));
    if (contexts.size() >= 16) contexts.clear();  // a bound: a process uses one or two
    contexts.emplace(ca_file, made);
    return made;
}

// What a failed TLS handshake means to a person: a certificate that failed the check (why and
// what to do), a server that does not speak TLS, or the handshake's own error.
std::string tls_failure(boost::system::error_code ec, const std::optional<tls::VerifyFailure>& verify,
                        const std::string& where, const std::string& host, const std::string& ca_file,
                        const std::string& plain_where) {
    if (verify) return tls::explain(*verify, where, host, ca_file);
    if (ec == ssl::error::stream_truncated || ec == asio::error::eof || ec == asio::error::connection_reset)
        return where + " closed the connection during the TLS handshake: it does not speak TLS, or it refused this "
               "client; a server without a certificate is reached with " + plain_where;
    const std::string what = ec.message();
    if (what.find("wrong version number") != std::string::npos || what.find("packet length too long") != std::string::npos ||
        what.find("http request") != std::string::npos)
        return where + " does not speak TLS: a server without a certificate is reached with " + plain_where;
    return "the TLS handshake with " + where + " failed: " + what;
}

// Sets up a client TLS stream for `host`: the name its certificate must hold, and the verify
// callback that keeps the first failure for the message.
template <class TlsStream>
void prepare_tls(TlsStream& stream, const std::string& host, std::optional<tls::VerifyFailure>& failure) {
    tls::expect_host(stream.native_handle(), host);
    stream.set_verify_mode(ssl::verify_peer);
    stream.set_verify_callback([&failure](bool preverified, ssl::verify_context& ctx) {
        return tls::note_verification(preverified, ctx.native_handle(), failure);
    });
}

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
    request.set(http::field::host, bracketed(url.host) + ":" + url.port);
    request.set(http::field::user_agent, "spookludo-client");
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(max_body);
    boost::system::error_code failure;
    std::string step = "resolve";
    const auto where = bracketed(url.host) + ":" + url.port;
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
            throw std::runtime_error("connection refused by " + where + " (is the server still running?)");
        if (failure == beast::error::timeout) throw std::runtime_error("no answer from " + where + " (timed out)");
        if (failure == http::error::body_limit)
            throw std::runtime_error("the answer is larger than " + std::to_string(max_body / (1024 * 1024)) +
                                     " MB: not a game record");
        if (step == "resolve") throw std::runtime_error("cannot find the host " + url.host + ": " + failure.message());
        if (step == "handshake")
            throw std::runtime_error(
                tls_failure(failure, verify, address, url.host, url.ca_file, "http://" + where + url.target));
        throw std::runtime_error("the " + step + " to " + where + " failed: " + failure.message());
    }
    boost::system::error_code ignored;
    plain.socket().shutdown(tcp::socket::shutdown_both, ignored);
    HttpResponse response;
    response.status = static_cast<int>(parser.get().result_int());
    response.body = std::move(parser.get().body());
    response.location = std::string(parser.get()[http::field::location]);
    return response;
}

// ---- Event loop -------------------------------------------------------------------------------
struct EventLoop::Impl {
    asio::io_context io{1};
    asio::signal_set signals{io};
    asio::signal_set winch{io};
    std::unordered_map<TimerId, std::unique_ptr<asio::steady_timer>> timers;
    TimerId next_timer = 1;
    std::unique_ptr<asio::posix::stream_descriptor> input;
    std::array<char, 256> input_buffer{};
    std::thread input_thread;  // when the input cannot be polled (a regular file)

    void read_input(std::function<void(std::string_view)> on_bytes, std::function<void()> on_end) {
        input->async_read_some(asio::buffer(input_buffer),
                               [this, on_bytes, on_end](boost::system::error_code ec, std::size_t n) {
                                   if (ec) {
                                       if (ec != asio::error::operation_aborted) on_end();
                                       return;
                                   }
                                   on_bytes(std::string_view(input_buffer.data(), n));
                                   read_input(on_bytes, on_end);
                               });
    }
};

EventLoop::EventLoop() : impl_(std::make_unique<Impl>()) {}
EventLoop::~EventLoop() {
    if (impl_->input_thread.joinable()) impl_->input_thread.detach();  // blocked in read(); the process ends
}
void EventLoop::run() {
    impl_->io.run();
}
void EventLoop::stop() {
    impl_->io.stop();
}
bool EventLoop::stopped() const {
    return impl_->io.stopped();
}
void EventLoop::post(std::function<void()> fn) {
    asio::post(impl_->io, std::move(fn));
}

EventLoop::TimerId EventLoop::after(std::chrono::milliseconds delay, std::function<void()> fn) {
    const TimerId id = impl_->next_timer++;
    auto timer = std::make_unique<asio::steady_timer>(impl_->io, delay);
    timer->async_wait([this, id, fn = std::move(fn)](boost::system::error_code ec) {
        if (ec) return;
        impl_->timers.erase(id);
        fn();
    });
    impl_->timers.emplace(id, std::move(timer));
    return id;
}
void EventLoop::cancel(TimerId id) {
    if (auto it = impl_->timers.find(id); it != impl_->timers.end()) {
        it->second->cancel();
        impl_->timers.erase(it);
    }
}

void EventLoop::on_signal(std::function<void(int)> fn) {
    impl_->signals.add(SIGINT);
    impl_->signals.add(SIGTERM);
    impl_->signals.add(SIGHUP);
    struct Waiter {
        Impl* impl;
        std::function<void(int)> fn;
        void operator()(boost::system::error_code ec, int sig) {
            if (ec) return;
            fn(sig);
            impl->signals.async_wait(*this);
        }
    };
    impl_->signals.async_wait(Waiter{impl_.get(), std::move(fn)});
}

void EventLoop::on_resize(std::function<void()> fn) {
    impl_->winch.add(SIGWINCH);
    struct Waiter {
        Impl* impl;
        std::function<void()> fn;
        void operator()(boost::system::error_code ec, int) {
            if (ec) return;
            fn();
            impl->winch.async_wait(*this);
        }
    };
    impl_->winch.async_wait(Waiter{impl_.get(), std::move(fn)});
}

void EventLoop::watch_input(int fd, std::function<void(std::string_view)> on_bytes, std::function<void()> on_end) {
    const int copy = ::dup(fd);
    try {
        impl_->input = std::make_unique<asio::posix::stream_descriptor>(impl_->io, copy);
        impl_->read_input(std::move(on_bytes), std::move(on_end));
    } catch (const std::exception&) {
        // A regular file cannot be polled: read it on a thread and hand the bytes to the loop.
        impl_->input.reset();
        impl_->input_thread = std::thread([this, copy, on_bytes, on_end] {
            std::array<char, 256> buffer{};
            for (;;) {
                const auto n = ::read(copy, buffer.data(), buffer.size());
                if (n <= 0) break;
                std::string bytes(buffer.data(), static_cast<std::size_t>(n));
                post([on_bytes, bytes] { on_bytes(bytes); });
            }
            post(on_end);
        });
    }
}

// ---- WebSocket connection -----------------------------------------------------------------------
namespace {

// The opening handshake's key and the answer it requires (RFC 6455, 4.1-4.2).
std::string base64(const unsigned char* data, std::size_t size) {
    std::string out(4 * ((size + 2) / 3), '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data, static_cast<int>(size));
    out.resize(static_cast<std::size_t>(n));
    return out;
}
std::string websocket_accept_for(const std::string& key) {
    const std::string text = key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_Digest(text.data(), text.size(), digest, &size, EVP_sha1(), nullptr);
    return base64(digest, size);
}

// The stream under a connection: a TCP socket (ws://) or TLS over one (wss://).
using PlainStream = tcp::socket;
using TlsStream = ssl::stream<tcp::socket>;
tcp::socket& socket_of(PlainStream& s) { return s; }
tcp::socket& socket_of(TlsStream& s) { return s.next_layer(); }

// Connects (TCP, then TLS for wss:// with the certificate checked, then the WebSocket upgrade
// over Beast's HTTP) and then frames its messages itself (protocol/websocket.h), like the
// server: what the program sends in one pass of the loop goes out in one write, and what
// arrives is read in large pieces. Written once for both streams.
template <class Stream>
class WsConnection final : public Connection, public std::enable_shared_from_this<WsConnection<Stream>> {
    static constexpr bool kTls = std::is_same_v<Stream, TlsStream>;

public:
    WsConnection(EventLoop& loop, Url url, Handlers handlers)
        : url_(std::move(url)), handlers_(std::move(handlers)), resolver_(loop.impl().io),
          stream_(make_stream(loop.impl().io, url_)), timer_(loop.impl().io),
          reader_(ws::FrameReader::Role::client, kMaxIncoming), mask_state_(std::random_device{}() | 1ULL) {}

    void start(std::chrono::milliseconds connect_timeout, int receive_buffer) {
        receive_buffer_ = receive_buffer;
        if constexpr (kTls) prepare_tls(stream_, url_.host, verify_failure_);
        // One deadline for the connection, the TLS handshake and the WebSocket upgrade.
        timer_.expires_after(connect_timeout);
        timer_.async_wait([self = this->shared_from_this()](boost::system::error_code ec) {
            if (ec || self->state_ != State::connecting) return;
            self->timed_out_ = true;
            self->resolver_.cancel();
            boost::system::error_code ignored;
            socket_of(self->stream_).close(ignored);
        });
        resolver_.async_resolve(url_.host, url_.port,
                                [self = this->shared_from_this()](boost::system::error_code ec, tcp::resolver::results_type r) {
                                    self->on_resolve(ec, std::move(r));
                                });
    }

    void send(std::string text) override {
        if (state_ == State::closed || state_ == State::closing) return;
        stats_.messages_out++;
        stats_.bytes_out += text.size();
        append(ws::Opcode::text, text);
    }

    void close() override {
        if (state_ == State::closed || state_ == State::closing) return;
        if (state_ != State::open) {
            state_ = State::closing;
            resolver_.cancel();
            boost::system::error_code ignored;
            socket_of(stream_).cancel(ignored);
            return;
        }
        // After the queued frames (a `leave` among them); then wait briefly for the server's.
        append(ws::Opcode::close, ws::close_payload(ws::kCloseNormal, ""));
        state_ = State::closing;
        timer_.expires_after(std::chrono::seconds(2));
        timer_.async_wait([self = this->shared_from_this()](boost::system::error_code ec) {
            if (!ec) self->finish("closed by the client");
        });
    }

    void pause_reading(std::chrono::milliseconds ms) override { pause_until_ = std::chrono::steady_clock::now() + ms; }
    bool is_open() const override { return state_ == State::open; }
    bool is_closed() const override { return state_ == State::closed; }
    const Stats& stats() const override { return stats_; }

private:
    enum class State { connecting, open, closing, closed };
    static constexpr std::size_t kMaxIncoming = 1 << 20;
    static constexpr std::size_t kReadChunk = 16384;

    static Stream make_stream(asio::io_context& io, const Url& url) {
        if constexpr (kTls) return Stream(io, *context_for(url.ca_file));
        else return Stream(io);
    }

    std::string where() const { return url_.host_port(); }

    // Why connecting failed: the deadline, the client's own close, or the error.
    bool stopped_connecting() {
        if (state_ == State::closed) return true;
        if (state_ == State::closing) {
            finish("closed by the client");
            return true;
        }
        if (timed_out_) {
            finish("no answer from " + url_.text() + " (timed out)");
            return true;
        }
        return false;
    }

    void on_resolve(boost::system::error_code ec, tcp::resolver::results_type results) {
        if (stopped_connecting()) return;
        if (ec) return finish("cannot resolve " + url_.host + ": " + ec.message());
        asio::async_connect(socket_of(stream_), results,
                            [self = this->shared_from_this()](boost::system::error_code e, const tcp::endpoint&) {
                                self->on_connect(e);
                            });
    }

    void on_connect(boost::system::error_code ec) {
        if (stopped_connecting()) return;
        if (ec == asio::error::connection_refused)
            return finish("connection refused by " + where() + " (is the server running, and is the port right?)");
        if (ec) return finish("cannot connect to " + where() + ": " + ec.message());
        auto& socket = socket_of(stream_);
        boost::system::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        if (receive_buffer_ > 0) socket.set_option(asio::socket_base::receive_buffer_size(receive_buffer_), ignored);
        if constexpr (kTls) {
            stream_.async_handshake(ssl::stream_base::client,
                                    [self = this->shared_from_this()](boost::system::error_code e) {
                                        if (self->stopped_connecting()) return;
                                        if (e) {
                                            Url plain = self->url_;
                                            plain.tls = false;
                                            return self->finish(tls_failure(e, self->verify_failure_, self->url_.text(),
                                                                            self->url_.host, self->url_.ca_file,
                                                                            plain.text()));
                                        }
                                        self->upgrade();
                                    });
        } else {
            upgrade();
        }
    }

    // The WebSocket opening handshake: GET with Upgrade, and the server's 101.
    void upgrade() {
        namespace http = beast::http;
        unsigned char nonce[16];
        for (auto& b : nonce) b = static_cast<unsigned char>(next_random());
        key_ = base64(nonce, sizeof nonce);
        auto request = std::make_shared<http::request<http::empty_body>>(http::verb::get, url_.path, 11);
        request->set(http::field::host, where());
        request->set(http::field::upgrade, "websocket");
        request->set(http::field::connection, "Upgrade");
        request->set(http::field::sec_websocket_key, key_);
        request->set(http::field::sec_websocket_version, "13");
        request->set(http::field::user_agent, "spookludo-client");
        response_.body_limit(4096);
        http::async_write(stream_, *request,
                          [self = this->shared_from_this(), request](boost::system::error_code ec, std::size_t) {
                              if (self->stopped_connecting()) return;
                              if (ec) return self->finish("the WebSocket handshake with " + self->url_.text() +
                                                          " failed: " + ec.message());
                              http::async_read(self->stream_, self->upgrade_buffer_, self->response_,
                                               [self](boost::system::error_code e, std::size_t) { self->on_upgrade(e); });
                          });
    }

    void on_upgrade(boost::system::error_code ec) {
        if (stopped_connecting()) return;
        std::string why = "the WebSocket handshake with " + url_.text() + " failed";
        if (ec) return finish(why + ": " + ec.message() + " (is it a SpookLudo server?)");
        const auto& answer = response_.get();
        const auto status = answer.result_int();
        if (status != 101) {
            if (status == 503)
                why += ": the server is full or shutting down (HTTP 503)";
            else if (status == 429)
                why += ": too many connections from this address (HTTP 429)";
            else if (status == 404)
                why += ": no WebSocket at path " + url_.path + " (HTTP 404; the path is /ws)";
            else if (status == 400 && !url_.tls && answer.body().find("wss://") != std::string::npos)
                why += ": the server speaks TLS only; connect with wss:// (HTTP 400)";
            else
                why += " (HTTP " + std::to_string(status) + ")";
            return finish(why);
        }
        if (answer[beast::http::field::sec_websocket_accept] != websocket_accept_for(key_))
            return finish(why + ": a wrong Sec-WebSocket-Accept (is it a SpookLudo server?)");
        timer_.cancel();
        // Bytes that came behind the 101 are the first frames.
        const std::size_t early = upgrade_buffer_.size();
        if (early > 0) {
            std::memcpy(reader_.prepare(early), upgrade_buffer_.data().data(), early);
            reader_.commit(early);
        }
        upgrade_buffer_ = {};
        response_.release();
        const bool was_closing = state_ == State::closing;
        state_ = State::open;
        if (was_closing) return close();
        if (handlers_.on_open) handlers_.on_open();  // may queue messages
        if (state_ == State::closed) return;
        schedule_flush();  // what was sent before the connection was open
        if (early > 0) return on_read({}, 0);
        read_next();
    }

    std::uint64_t next_random() {
        mask_state_ ^= mask_state_ << 13;  // xorshift64
        mask_state_ ^= mask_state_ >> 7;
        mask_state_ ^= mask_state_ << 17;
        return mask_state_;
    }

    // ---- Writing ------------------------------------------------------------------------------
    void append(ws::Opcode opcode, std::string_view payload) {
        ws::MaskKey key;
        const std::uint64_t r = next_random();  // a fresh key for every frame
        std::memcpy(key.data(), &r, key.size());
        ws::append_frame(pending_, opcode, payload, &key);
        schedule_flush();
    }

    // Written after this pass of the loop, together with whatever else it sends.
    void schedule_flush() {
        if (state_ == State::connecting || writing_ || flush_posted_ || pending_.empty()) return;
        flush_posted_ = true;
        asio::post(stream_.get_executor(), [self = this->shared_from_this()] { self->flush(); });
    }

    void flush() {
        flush_posted_ = false;
        if (writing_ || pending_.empty() || state_ == State::closed) return;
        writing_ = true;
        in_flight_.swap(pending_);
        asio::async_write(stream_, asio::buffer(in_flight_),
                          [self = this->shared_from_this()](boost::system::error_code ec, std::size_t) {
                              self->writing_ = false;
                              self->in_flight_.clear();
                              if (self->state_ == State::closed) return;
                              if (ec) return self->finish("connection lost while sending: " + ec.message());
                              self->flush();
                          });
    }

    // ---- Reading ------------------------------------------------------------------------------
    void read_next() {
        if (state_ == State::closed) return;
        const auto now = std::chrono::steady_clock::now();
        if (pause_until_ > now) {
            timer_.expires_at(pause_until_);
            timer_.async_wait([self = this->shared_from_this()](boost::system::error_code ec) {
                if (!ec) self->read_next();
            });
            return;
        }
        char* at = reader_.prepare(kReadChunk);
        stream_.async_read_some(asio::buffer(at, reader_.free_space()),
                                [self = this->shared_from_this()](boost::system::error_code ec, std::size_t n) {
                                    self->on_read(ec, n);
                                });
    }

    void on_read(boost::system::error_code ec, std::size_t n) {
        if (state_ == State::closed) return;
        if (ec) {
            if (state_ == State::closing) return finish("closed by the client");
            if (ec == asio::error::eof || ec == ssl::error::stream_truncated)
                return finish("the server closed the connection");
            return finish("connection lost: " + ec.message());
        }
        reader_.commit(n);
        ws::FrameReader::Message m;
        for (;;) {
            const auto status = reader_.next(m);
            if (status == ws::FrameReader::Status::need_more) break;
            if (status == ws::FrameReader::Status::failed) {
                const auto& f = reader_.failure();
                send_close_now(f.code, f.reason);
                return finish("the server broke the WebSocket protocol: " + f.reason);
            }
            if (m.opcode == ws::Opcode::text) {
                stats_.messages_in++;
                stats_.bytes_in += m.payload.size();
                if (handlers_.on_message) handlers_.on_message(m.payload);
                if (state_ == State::closed) return;
            } else if (m.opcode == ws::Opcode::ping) {
                append(ws::Opcode::pong, m.payload);
            } else if (m.opcode == ws::Opcode::close) {
                if (state_ == State::closing) return finish("closed by the client");
                const std::uint16_t code = ws::close_code_of(m.payload);
                const std::string reason(ws::close_reason_of(m.payload));
                send_close_now(code ? code : ws::kCloseNormal, "");
                std::string why = "the server closed the connection";
                if (!reason.empty()) why += ": " + reason;
                else if (code == ws::kCloseTooBig) why += " (message too big)";
                return finish(why);
            }
        }
        reader_.release_if_empty(kReadChunk);
        read_next();
    }

    // The answer to the server's close frame (or our reason for failing), written at once: the
    // socket is closed right after.
    void send_close_now(std::uint16_t code, std::string_view reason) {
        if (writing_) return;  // a write is in flight; the server sees the connection end instead
        std::string frame;
        const ws::MaskKey key{1, 2, 3, 4};
        ws::append_frame(frame, ws::Opcode::close, ws::close_payload(code, reason), &key);
        boost::system::error_code ignored;
        if constexpr (kTls) {
            // A blocking write on TLS could wait for a read: one non-blocking attempt at most.
            asio::async_write(stream_, asio::buffer(frame), [keep = std::make_shared<std::string>(std::move(frame)),
                                                              self = this->shared_from_this()](auto, std::size_t) {});
        } else {
            asio::write(stream_, asio::buffer(frame), ignored);
        }
    }

    void finish(const std::string& reason) {
        if (state_ == State::closed) return;
        state_ = State::closed;
        timer_.cancel();
        resolver_.cancel();
        boost::system::error_code ignored;
        auto& socket = socket_of(stream_);
        if constexpr (kTls) {
            // Let a close frame queued just now go first; the socket closes after it (or at once).
            socket.shutdown(tcp::socket::shutdown_receive, ignored);
            asio::post(stream_.get_executor(), [self = this->shared_from_this()] {
                boost::system::error_code e;
                socket_of(self->stream_).close(e);
            });
        } else {
            socket.close(ignored);
        }
        auto handler = std::move(handlers_.on_close);
        handlers_ = {};
        if (handler) handler(reason);
    }

    Url url_;
    Handlers handlers_;
    tcp::resolver resolver_;
    Stream stream_;
    asio::steady_timer timer_;  // the connect deadline, paused reading, the wait for the server's close frame
    std::optional<tls::VerifyFailure> verify_failure_;
    std::string key_;  // Sec-WebSocket-Key
    beast::flat_buffer upgrade_buffer_;
    beast::http::response_parser<beast::http::string_body> response_;
    ws::FrameReader reader_;
    std::string pending_;    // frames not yet written
    std::string in_flight_;  // frames being written
    bool writing_ = false;
    bool flush_posted_ = false;
    bool timed_out_ = false;
    std::uint64_t mask_state_;
    int receive_buffer_ = 0;
    State state_ = State::connecting;
    std::chrono::steady_clock::time_point pause_until_{};
    Stats stats_;
};

}  // namespace

std::shared_ptr<Connection> Connection::open(EventLoop& loop, const Url& url, Handlers handlers,
                                             std::chrono::milliseconds connect_timeout, int receive_buffer) {
    if (url.tls) {
        auto c = std::make_shared<WsConnection<TlsStream>>(loop, url, std::move(handlers));
        c->start(connect_timeout, receive_buffer);
        return c;
    }
    auto c = std::make_shared<WsConnection<PlainStream>>(loop, url, std::move(handlers));
    c->start(connect_timeout, receive_buffer);
    return c;
}

}  // namespace spookludo::client
