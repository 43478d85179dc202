// The only client file that includes Asio and Beast.
#include "net.h"

#include <unistd.h>

#include <csignal>
#include <cstring>
#include <random>
#include <thread>
#include <unordered_map>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "spookludo/protocol/websocket.h"

namespace spookludo::client {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
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

std::optional<Url> parse_url(std::string_view text, std::string& error) {
    constexpr std::string_view scheme = "ws://";
    if (text.starts_with("wss://")) {
        error = "wss:// is not supported: the server speaks plain ws:// (put a TLS proxy in front for wss)";
        return std::nullopt;
    }
    if (text.starts_with("http://")) {
        error = "the address must start with ws:// (got http://): try ws://" + std::string(text.substr(7));
        return std::nullopt;
    }
    if (!text.starts_with(scheme)) {
        error = "the server address must look like ws://HOST:PORT (got \"" + std::string(text) + "\")";
        return std::nullopt;
    }
    std::string_view rest = text.substr(scheme.size());
    Url url;
    if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
        url.path = std::string(rest.substr(slash));
        rest = rest.substr(0, slash);
    }
    std::string_view host = rest;
    std::string_view port = "7777";
    if (!rest.empty() && rest.front() == '[') {  // [::1]:7777
        const auto close = rest.find(']');
        if (close == std::string_view::npos) {
            error = "unclosed '[' in the host of " + std::string(text);
            return std::nullopt;
        }
        host = rest.substr(1, close - 1);
        if (close + 1 < rest.size()) {
            if (rest[close + 1] != ':') {
                error = "expected ':' after ']' in " + std::string(text);
                return std::nullopt;
            }
            port = rest.substr(close + 2);
        }
    } else if (const auto colon = rest.rfind(':'); colon != std::string_view::npos) {
        host = rest.substr(0, colon);
        port = rest.substr(colon + 1);
    }
    if (host.empty()) {
        error = "no host in " + std::string(text) + " (e.g. ws://127.0.0.1:7777)";
        return std::nullopt;
    }
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos ||
        std::stoi(std::string(port)) == 0 || std::stoi(std::string(port)) > 65535) {
        error = "the port in " + std::string(text) + " must be a number from 1 to 65535";
        return std::nullopt;
    }
    url.host = std::string(host);
    url.port = std::string(port);
    return url;
}

// ---- HTTP GET ---------------------------------------------------------------------------------
std::optional<HttpUrl> parse_http_url(std::string_view text, std::string& error) {
    constexpr std::string_view scheme = "http://";
    if (!text.starts_with(scheme)) {
        error = "an address must look like http://HOST:PORT/PATH (got \"" + std::string(text) + "\")";
        return std::nullopt;
    }
    std::string_view rest = text.substr(scheme.size());
    HttpUrl url;
    if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
        url.target = std::string(rest.substr(slash));
        rest = rest.substr(0, slash);
    }
    std::string_view host = rest, port;
    if (!rest.empty() && rest.front() == '[') {  // [::1]:7777
        const auto close = rest.find(']');
        if (close == std::string_view::npos || (close + 1 < rest.size() && rest[close + 1] != ':')) {
            error = "a bad host in " + std::string(text) + " (e.g. http://[::1]:7777/...)";
            return std::nullopt;
        }
        host = rest.substr(1, close - 1);
        if (close + 1 < rest.size()) port = rest.substr(close + 2);
    } else if (const auto colon = rest.rfind(':'); colon != std::string_view::npos) {
        host = rest.substr(0, colon);
        port = rest.substr(colon + 1);
    }
    if (host.empty()) {
        error = "no host in " + std::string(text) + " (e.g. http://127.0.0.1:7777/records/...)";
        return std::nullopt;
    }
    if (!port.empty() || rest.ends_with(':')) {
        if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos ||
            std::stoi(std::string(port)) == 0 || std::stoi(std::string(port)) > 65535) {
            error = "the port in " + std::string(text) + " must be a number from 1 to 65535";
            return std::nullopt;
        }
        url.port = std::string(port);
    }
    url.host = std::string(host);
    return url;
}

HttpResponse http_get(const HttpUrl& url, std::size_t max_body, std::chrono::milliseconds timeout) {
    namespace http = beast::http;
    asio::io_context io{1};
    tcp::resolver resolver(io);
    beast::tcp_stream stream(io);
    http::request<http::empty_body> request{http::verb::get, url.target, 11};
    request.set(http::field::host, url.host + ":" + url.port);
    request.set(http::field::user_agent, "spookludo-client");
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(max_body);
    boost::system::error_code failure;
    std::string step = "resolve";
    const auto where = url.host + ":" + url.port;

    resolver.async_resolve(url.host, url.port, [&](boost::system::error_code ec, tcp::resolver::results_type found) {
        if (ec) return void(failure = ec);
        step = "connect";
        stream.expires_after(timeout);
        stream.async_connect(found, [&](boost::system::error_code ec2, const tcp::endpoint&) {
            if (ec2) return void(failure = ec2);
            step = "request";
            http::async_write(stream, request, [&](boost::system::error_code ec3, std::size_t) {
                if (ec3) return void(failure = ec3);
                step = "response";
                http::async_read(stream, buffer, parser, [&](boost::system::error_code ec4, std::size_t) {
                    if (ec4) failure = ec4;
                });
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
        throw std::runtime_error("the " + step + " to " + where + " failed: " + failure.message());
    }
    boost::system::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    HttpResponse response;
    response.status = static_cast<int>(parser.get().result_int());
    response.body = std::move(parser.get().body());
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

// Beast connects and does the opening handshake; then the connection frames its messages itself
// (protocol/websocket.h), like the server: what the program sends in one pass of the loop goes
// out in one write, and what arrives is read in large pieces. The server says nothing before the
// client's hello, so no frame can be left in Beast's buffer when the socket is taken over.
class WsConnection final : public Connection, public std::enable_shared_from_this<WsConnection> {
public:
    WsConnection(EventLoop& loop, Url url, Handlers handlers)
        : url_(std::move(url)), handlers_(std::move(handlers)), resolver_(loop.impl().io),
          ws_(std::make_unique<websocket::stream<beast::tcp_stream>>(loop.impl().io)), socket_(loop.impl().io),
          timer_(loop.impl().io), reader_(ws::FrameReader::Role::client, kMaxIncoming),
          mask_state_(std::random_device{}() | 1ULL) {}

    void start(std::chrono::milliseconds connect_timeout, int receive_buffer) {
        connect_timeout_ = connect_timeout;
        receive_buffer_ = receive_buffer;
        resolver_.async_resolve(url_.host, url_.port,
                                [self = shared_from_this()](boost::system::error_code ec, tcp::resolver::results_type r) {
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
            if (ws_) beast::get_lowest_layer(*ws_).cancel();
            resolver_.cancel();
            return;
        }
        // After the queued frames (a `leave` among them); then wait briefly for the server's.
        append(ws::Opcode::close, ws::close_payload(ws::kCloseNormal, ""));
        state_ = State::closing;
        timer_.expires_after(std::chrono::seconds(2));
        timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
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

    void on_resolve(boost::system::error_code ec, tcp::resolver::results_type results) {
        if (ec) return finish("cannot resolve " + url_.host + ": " + ec.message());
        beast::get_lowest_layer(*ws_).expires_after(connect_timeout_);
        beast::get_lowest_layer(*ws_).async_connect(
            results, [self = shared_from_this()](boost::system::error_code e, const tcp::endpoint&) {
                self->on_connect(e);
            });
    }

    void on_connect(boost::system::error_code ec) {
        if (ec == beast::error::timeout) return finish("no answer from " + url_.host + ":" + url_.port + " (timed out)");
        if (ec == asio::error::connection_refused)
            return finish("connection refused by " + url_.host + ":" + url_.port +
                          " (is the server running, and is the port right?)");
        if (ec) return finish("cannot connect to " + url_.host + ":" + url_.port + ": " + ec.message());
        beast::get_lowest_layer(*ws_).socket().set_option(tcp::no_delay(true));
        if (receive_buffer_ > 0) {
            boost::system::error_code ignored;
            beast::get_lowest_layer(*ws_).socket().set_option(asio::socket_base::receive_buffer_size(receive_buffer_),
                                                              ignored);
        }
        ws_->set_option(websocket::stream_base::decorator([](websocket::request_type& req) {
            req.set(beast::http::field::user_agent, "spookludo-client");
        }));
        ws_->async_handshake(handshake_response_, url_.host + ":" + url_.port, url_.path,
                             [self = shared_from_this()](boost::system::error_code e) { self->on_handshake(e); });
    }

    void on_handshake(boost::system::error_code ec) {
        if (state_ == State::closed) return;
        if (ec) {
            std::string why = "the WebSocket handshake with " + url_.text() + " failed";
            const auto status = handshake_response_.result_int();
            if (status == 503)
                why += ": the server is full or shutting down (HTTP 503)";
            else if (status == 429)
                why += ": too many connections from this address (HTTP 429)";
            else if (status == 404)
                why += ": no WebSocket at path " + url_.path + " (HTTP 404; the path is /ws)";
            else if (status != 0)
                why += " (HTTP " + std::to_string(status) + ")";
            else
                why += ": " + ec.message() + " (is it a SpookLudo server?)";
            return finish(why);
        }
        beast::get_lowest_layer(*ws_).expires_never();
        socket_ = beast::get_lowest_layer(*ws_).release_socket();
        ws_.reset();
        handshake_response_ = {};
        const bool was_closing = state_ == State::closing;
        state_ = State::open;
        if (was_closing) return close();
        if (handlers_.on_open) handlers_.on_open();  // may queue messages
        if (state_ == State::closed) return;
        schedule_flush();  // what was sent before the connection was open
        read_next();
    }

    // ---- Writing ------------------------------------------------------------------------------
    void append(ws::Opcode opcode, std::string_view payload) {
        ws::MaskKey key;
        mask_state_ ^= mask_state_ << 13;  // xorshift64: a fresh key for every frame
        mask_state_ ^= mask_state_ >> 7;
        mask_state_ ^= mask_state_ << 17;
        std::memcpy(key.data(), &mask_state_, key.size());
        ws::append_frame(pending_, opcode, payload, &key);
        schedule_flush();
    }

    // Written after this pass of the loop, together with whatever else it sends.
    void schedule_flush() {
        if (state_ == State::connecting || writing_ || flush_posted_ || pending_.empty()) return;
        flush_posted_ = true;
        asio::post(socket_.get_executor(), [self = shared_from_this()] { self->flush(); });
    }

    void flush() {
        flush_posted_ = false;
        if (writing_ || pending_.empty() || state_ == State::closed) return;
        writing_ = true;
        in_flight_.swap(pending_);
        asio::async_write(socket_, asio::buffer(in_flight_), [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
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
            timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
                if (!ec) self->read_next();
            });
            return;
        }
        char* at = reader_.prepare(kReadChunk);
        socket_.async_read_some(asio::buffer(at, reader_.free_space()),
                                [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
                                    self->on_read(ec, n);
                                });
    }

    void on_read(boost::system::error_code ec, std::size_t n) {
        if (state_ == State::closed) return;
        if (ec) {
            if (state_ == State::closing) return finish("closed by the client");
            if (ec == asio::error::eof) return finish("the server closed the connection");
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
        asio::write(socket_, asio::buffer(frame), ignored);
    }

    void finish(const std::string& reason) {
        if (state_ == State::closed) return;
        state_ = State::closed;
        timer_.cancel();
        boost::system::error_code ignored;
        if (ws_) beast::get_lowest_layer(*ws_).socket().close(ignored);
        socket_.close(ignored);
        auto handler = std::move(handlers_.on_close);
        handlers_ = {};
        if (handler) handler(reason);
    }

    Url url_;
    Handlers handlers_;
    tcp::resolver resolver_;
    std::unique_ptr<websocket::stream<beast::tcp_stream>> ws_;  // until the handshake is done
    websocket::response_type handshake_response_;
    tcp::socket socket_;  // after the handshake
    asio::steady_timer timer_;  // paused reading, the wait for the server's close frame
    ws::FrameReader reader_;
    std::string pending_;    // frames not yet written
    std::string in_flight_;  // frames being written
    bool writing_ = false;
    bool flush_posted_ = false;
    std::uint64_t mask_state_;
    int receive_buffer_ = 0;
    State state_ = State::connecting;
    std::chrono::milliseconds connect_timeout_{10000};
    std::chrono::steady_clock::time_point pause_until_{};
    Stats stats_;
};

}  // namespace

std::shared_ptr<Connection> Connection::open(EventLoop& loop, const Url& url, Handlers handlers,
                                             std::chrono::milliseconds connect_timeout, int receive_buffer) {
    auto c = std::make_shared<WsConnection>(loop, url, std::move(handlers));
    c->start(connect_timeout, receive_buffer);
    return c;
}

}  // namespace spookludo::client
