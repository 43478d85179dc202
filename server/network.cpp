#include "network.h"

#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/version.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "peer.h"
#include "spookludo/protocol/server_messages.h"
#include "room.h"

namespace spookludo::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using protocol::ErrorCode;

namespace {

void log_failure(beast::error_code ec, const char* what) {
    if (ec == net::error::operation_aborted || ec == websocket::error::closed || ec == http::error::end_of_stream ||
        ec == net::error::eof || ec == beast::error::timeout)
        return;
    spdlog::debug("{}: {}", what, ec.message());
}

// Connections per address, for the per-address limit.
class AddressCounter {
public:
    bool acquire(const std::string& address, int limit) {
        std::lock_guard lock(mutex_);
        int& n = counts_[address];
        if (n >= limit) return false;
        ++n;
        return true;
    }
    void release(const std::string& address) {
        std::lock_guard lock(mutex_);
        if (--counts_[address] <= 0) counts_.erase(address);
    }

private:
    std::mutex mutex_;
    std::map<std::string, int> counts_;
};

}  // namespace

class WebSocketSession;

struct Network::Impl : std::enable_shared_from_this<Network::Impl> {
    net::io_context& io;
    Services& services;
    tcp::acceptor acceptor;
    AddressCounter per_address;
    std::mutex sessions_mutex;
    std::map<std::uint64_t, std::weak_ptr<WebSocketSession>> sessions;
    std::atomic<std::uint64_t> next_id{1};
    std::atomic<bool> stopping{false};

    Impl(net::io_context& io_, Services& s) : io(io_), services(s), acceptor(net::make_strand(io_)) {}

    void accept();
    void on_accept(beast::error_code ec, tcp::socket socket);
};

// ---- WebSocket session ------------------------------------------------------------------------
class WebSocketSession final : public Peer, public std::enable_shared_from_this<WebSocketSession> {
public:
    WebSocketSession(tcp::socket&& socket, std::shared_ptr<Network::Impl> network, std::string address)
        : ws_(std::move(socket)), network_(std::move(network)), address_(std::move(address)),
          id_(network_->next_id++), tokens_(burst()) {}

    ~WebSocketSession() override {
        --network_->services.metrics.connections;
        network_->per_address.release(address_);
        std::lock_guard lock(network_->sessions_mutex);
        network_->sessions.erase(id_);
    }

    std::uint64_t id() const noexcept override { return id_; }

    template <class Body, class Allocator>
    void run(http::request<Body, http::basic_fields<Allocator>> req) {
        {
            std::lock_guard lock(network_->sessions_mutex);
            network_->sessions[id_] = weak_from_this();
        }
        const auto& cfg = network_->services.config;
        websocket::stream_base::timeout timeout{};
        timeout.handshake_timeout = std::chrono::milliseconds(cfg.handshake_timeout_ms);
        timeout.idle_timeout = std::chrono::milliseconds(cfg.idle_timeout_ms);
        timeout.keep_alive_pings = true;  // pings at half the idle time find dead peers
        ws_.set_option(timeout);
        ws_.read_message_max(protocol::kMaxMessageBytes);
        ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
            res.set(http::field::server, "spookludo-server");
        }));
        ws_.async_accept(req, beast::bind_front_handler(&WebSocketSession::on_accept, shared_from_this()));
    }

    void send(std::shared_ptr<const std::string> text) override {
        net::post(ws_.get_executor(), [self = shared_from_this(), text = std::move(text)] { self->queue(text); });
    }
    void attach(std::shared_ptr<Room> room) override {
        net::post(ws_.get_executor(), [self = shared_from_this(), room = std::move(room)] { self->room_ = room; });
    }
    void grant_answer() override {
        net::post(ws_.get_executor(), [self = shared_from_this()] {
            self->granted_ = std::min(self->granted_ + 1, kMaxGrants);
        });
    }
    void detach() override {
        net::post(ws_.get_executor(), [self = shared_from_this()] { self->room_.reset(); });
    }
    void close() override {
        net::post(ws_.get_executor(), [self = shared_from_this()] { self->close_after_queue(); });
    }

private:
    double burst() const { return 2.0 * network_->services.config.max_messages_per_second; }

    void on_accept(beast::error_code ec) {
        if (ec) return log_failure(ec, "websocket accept");
        read();
    }

    void read() {
        ws_.async_read(buffer_, beast::bind_front_handler(&WebSocketSession::on_read, shared_from_this()));
    }

    void on_read(beast::error_code ec, std::size_t) {
        if (ec) {
            if (ec == websocket::error::message_too_big)
                spdlog::info("connection {}: a frame over {} bytes; closed", id_, protocol::kMaxMessageBytes);
            log_failure(ec, "websocket read");
            return gone();
        }
        ++network_->services.metrics.messages_in;
        const bool text = ws_.got_text();
        std::string data = beast::buffers_to_string(buffer_.data());
        buffer_.consume(buffer_.size());
        if (!rate_ok()) {
            reject(ErrorCode::rate_limited, "too many messages: at most " +
                                                std::to_string(network_->services.config.max_messages_per_second) +
                                                " a second");
        } else if (!text) {
            reject(ErrorCode::binary_frame, "binary frames are not part of the protocol: send JSON text");
        } else {
            handle(data);
        }
        if (!closing_) read();
    }

    // Token bucket: max_messages_per_second, bursts of twice that.
    bool rate_ok() {
        if (granted_ > 0) {  // an answer the room asked for
            --granted_;
            return true;
        }
        const auto now = std::chrono::steady_clock::now();
        const double rate = network_->services.config.max_messages_per_second;
        tokens_ = std::min(burst(), tokens_ + rate * std::chrono::duration<double>(now - last_refill_).count());
        last_refill_ = now;
        if (tokens_ < 1) return false;
        tokens_ -= 1;
        return true;
    }

    void reject(ErrorCode code, const std::string& message, std::string_view ref = {}) {
        network_->services.metrics.count_error(protocol::to_string(code));
        queue(std::make_shared<const std::string>(protocol::error_message(code, message, ref)));
        // Repeated abuse closes this connection only.
        if (++strikes_ >= kMaxStrikes) {
            spdlog::info("connection {} from {}: too many bad messages; closed", id_, address_);
            close_after_queue();
        }
    }

    void handle(const std::string& text) {
        auto parsed = protocol::parse_client_message(text);
        if (auto* err = std::get_if<protocol::ProtocolError>(&parsed)) return reject(err->code, err->message);
        auto& message = std::get<protocol::ClientMessage>(parsed);
        auto& services = network_->services;

        if (auto* hello = std::get_if<protocol::Hello>(&message)) {
            if (hello->protocol != protocol::kProtocolVersion)
                return reject(ErrorCode::version_mismatch,
                              "this server speaks protocol " + std::to_string(protocol::kProtocolVersion) +
                                  ", the client " + std::to_string(hello->protocol) + ": update the client",
                              "hello");
            hello_ = true;
            const protocol::Welcome welcome{protocol::kProtocolVersion, "spookludo-server",
                                            std::chrono::duration_cast<std::chrono::milliseconds>(
                                                std::chrono::system_clock::now().time_since_epoch())
                                                .count()};
            return queue(std::make_shared<const std::string>(protocol::encode_message(welcome)));
        }
        if (!hello_) return reject(ErrorCode::hello_first, "say hello first (with the protocol version)");

        if (auto* create = std::get_if<protocol::CreateRoom>(&message)) {
            if (room_) return reject(ErrorCode::already_in_room, "leave your room first", "create_room");
            if (services.shutting_down) return reject(ErrorCode::server_full, "the server is shutting down", "create_room");
            const protocol::RoomSettings settings =
                create->settings.value_or(protocol::SettingsChange{})
                    .applied_to(protocol::RoomSettings{services.config.decision_ms, services.config.pace_ms, false});
            auto room = services.registry.create([&](const std::string& code) {
                return Room::make(network_->io, services, code, create->options, settings);
            });
            if (!room)
                return reject(ErrorCode::server_full,
                              "the server has its maximum of " + std::to_string(services.config.max_rooms) + " rooms",
                              "create_room");
            spdlog::info("room {} created ({} for {})", room->code(), to_string(create->options.game),
                         create->options.players);
            room_ = room;
            return room->deliver(shared_from_this(), std::move(message));
        }
        std::string code;
        if (auto* m = std::get_if<protocol::JoinRoom>(&message)) code = m->room;
        if (auto* m = std::get_if<protocol::Watch>(&message)) code = m->room;
        if (auto* m = std::get_if<protocol::Resume>(&message)) code = m->room;
        if (!code.empty() || std::holds_alternative<protocol::JoinRoom>(message) ||
            std::holds_alternative<protocol::Watch>(message) || std::holds_alternative<protocol::Resume>(message)) {
            auto room = services.registry.find(code);
            if (!room)
                return reject(ErrorCode::room_not_found, "there is no room \"" + code + "\"",
                              protocol::type_of(message));
            if (room_ && room_ != room)
                return reject(ErrorCode::already_in_room, "leave your room first", protocol::type_of(message));
            return room->deliver(shared_from_this(), std::move(message));
        }
        if (std::holds_alternative<protocol::Ping>(message) && !room_) {
            const auto t = std::get<protocol::Ping>(message).t;
            const protocol::Pong pong{t, std::chrono::duration_cast<std::chrono::milliseconds>(
                                             std::chrono::system_clock::now().time_since_epoch())
                                             .count()};
            return queue(std::make_shared<const std::string>(protocol::encode_message(pong)));
        }
        if (!room_)
            return reject(ErrorCode::not_in_room, "create or join a room first", protocol::type_of(message));
        room_->deliver(shared_from_this(), std::move(message));
    }

    void queue(std::shared_ptr<const std::string> text) {
        if (closing_ && !close_pending_) return;
        if (queue_.size() >= network_->services.config.send_queue_limit) {
            // A slow reader is dropped; the room goes on without waiting for it.
            spdlog::info("connection {} from {}: {} messages queued, the reader is too slow; dropped", id_, address_,
                         queue_.size());
            queue_.clear();
            closing_ = true;
            beast::get_lowest_layer(ws_).close();
            return;
        }
        queue_.push_back(std::move(text));
        if (queue_.size() == 1) write();
    }

    void write() {
        ws_.text(true);
        ws_.async_write(net::buffer(*queue_.front()),
                        beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
    }

    void on_write(beast::error_code ec, std::size_t) {
        if (ec) {
            log_failure(ec, "websocket write");
            queue_.clear();
            return gone();
        }
        ++network_->services.metrics.messages_out;
        queue_.pop_front();
        if (!queue_.empty()) return write();
        if (close_pending_) {
            close_pending_ = false;
            ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) { self->gone(); });
        }
    }

    void close_after_queue() {
        if (closing_) return;
        closing_ = true;
        if (queue_.empty()) {
            ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) { self->gone(); });
        } else {
            close_pending_ = true;
        }
    }

    void gone() {
        closing_ = true;
        if (room_) {
            room_->disconnected(shared_from_this());
            room_.reset();
        }
    }

    static constexpr int kMaxStrikes = 20;

    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buffer_;
    std::shared_ptr<Network::Impl> network_;
    std::string address_;
    std::uint64_t id_;
    std::deque<std::shared_ptr<const std::string>> queue_;
    std::shared_ptr<Room> room_;
    bool hello_ = false;
    bool closing_ = false;
    bool close_pending_ = false;
    int strikes_ = 0;
    double tokens_;
    static constexpr int kMaxGrants = 4;
    int granted_ = 0;  // answers asked for by the room (decisions), not rate limited
    std::chrono::steady_clock::time_point last_refill_ = std::chrono::steady_clock::now();
};

// ---- HTTP session -----------------------------------------------------------------------------
class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    HttpSession(tcp::socket&& socket, std::shared_ptr<Network::Impl> network, std::string address)
        : stream_(std::move(socket)), network_(std::move(network)), address_(std::move(address)) {}

    void run() { net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::read, shared_from_this())); }

private:
    void read() {
        parser_.emplace();
        parser_->body_limit(8192);
        parser_->header_limit(8192);
        stream_.expires_after(std::chrono::milliseconds(network_->services.config.handshake_timeout_ms));
        http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
    }

    void on_read(beast::error_code ec, std::size_t) {
        if (ec) return log_failure(ec, "http read");
        auto req = parser_->release();
        if (websocket::is_upgrade(req)) {
            if (req.target() != protocol::kWebSocketPath) return respond(req, http::status::not_found, "text/plain",
                                                                         "WebSocket path is /ws\n", false);
            auto& services = network_->services;
            if (services.shutting_down)
                return respond(req, http::status::service_unavailable, "text/plain", "shutting down\n", false);
            if (services.metrics.connections >= services.config.max_connections)
                return respond(req, http::status::service_unavailable, "text/plain",
                               "server_full: the server has its maximum of connections\n", false);
            if (!network_->per_address.acquire(address_, services.config.max_connections_per_address))
                return respond(req, http::status::too_many_requests, "text/plain",
                               "server_full: too many connections from your address\n", false);
            ++services.metrics.connections;
            stream_.expires_never();  // the WebSocket has its own timeouts
            std::make_shared<WebSocketSession>(stream_.release_socket(), network_, address_)->run(std::move(req));
            return;
        }
        serve(req);
    }

    void serve(const http::request<http::string_body>& req) {
        if (req.method() != http::verb::get && req.method() != http::verb::head)
            return respond(req, http::status::method_not_allowed, "text/plain", "GET only\n", true);
        const std::string target(req.target());
        if (target == "/healthz") return respond(req, http::status::ok, "text/plain", "ok\n", true);
        if (target == "/metrics")
            return respond(req, http::status::ok, "text/plain; version=0.0.4", network_->services.metrics.prometheus_text(),
                           true);
        if (target.rfind("/records/", 0) == 0) {
            // Served from disk: records are not kept in memory.
            if (auto path = network_->services.records.path_of(target.substr(9))) {
                http::response<http::file_body> res{http::status::ok, req.version()};
                beast::error_code ec;
                res.body().open(path->c_str(), beast::file_mode::scan, ec);
                if (!ec) {
                    res.set(http::field::content_type, "application/json");
                    res.keep_alive(req.keep_alive());
                    res.prepare_payload();
                    return send(std::move(res));
                }
            }
            return respond(req, http::status::not_found, "text/plain", "no such record\n", true);
        }
        respond(req, http::status::not_found, "text/plain",
                "spookludo-server: WebSocket on /ws; GET /healthz, /metrics, /records/<id>\n", true);
    }

    void respond(const http::request<http::string_body>& req, http::status status, const char* type, std::string body,
                 bool keep_alive) {
        http::response<http::string_body> res{status, req.version()};
        res.set(http::field::server, "spookludo-server");
        res.set(http::field::content_type, type);
        res.keep_alive(keep_alive && req.keep_alive());
        if (req.method() != http::verb::head) res.body() = std::move(body);
        res.prepare_payload();
        send(std::move(res));
    }

    template <class Body>
    void send(http::response<Body>&& res) {
        auto sp = std::make_shared<http::response<Body>>(std::move(res));
        const bool close = sp->need_eof();
        http::async_write(stream_, *sp, [self = shared_from_this(), sp, close](beast::error_code ec, std::size_t) {
            if (ec) return log_failure(ec, "http write");
            if (close) {
                beast::error_code ignored;
                self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
                return;
            }
            self->read();
        });
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    std::shared_ptr<Network::Impl> network_;
    std::string address_;
};

// ---- Listener ---------------------------------------------------------------------------------
void Network::Impl::accept() {
    acceptor.async_accept(net::make_strand(io), beast::bind_front_handler(&Impl::on_accept, shared_from_this()));
}

void Network::Impl::on_accept(beast::error_code ec, tcp::socket socket) {
    if (stopping) return;
    if (ec) {
        log_failure(ec, "accept");
    } else {
        beast::error_code ignored;
        const auto endpoint = socket.remote_endpoint(ignored);
        // Game messages are small and answered at once: Nagle's algorithm would hold each
        // second frame for the peer's delayed ACK (40 ms a step).
        socket.set_option(tcp::no_delay(true), ignored);
        std::make_shared<HttpSession>(std::move(socket), shared_from_this(), endpoint.address().to_string())->run();
    }
    accept();
}

Network::Network(net::io_context& io, Services& services) : impl_(std::make_shared<Impl>(io, services)) {
    const auto& cfg = services.config;
    beast::error_code ec;
    const auto address = net::ip::make_address(cfg.bind, ec);
    if (ec) throw std::runtime_error("bad bind address \"" + cfg.bind + "\": " + ec.message());
    const tcp::endpoint endpoint{address, cfg.port};
    auto& acc = impl_->acceptor;
    acc.open(endpoint.protocol(), ec);
    if (!ec) acc.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acc.bind(endpoint, ec);
    if (!ec) acc.listen(net::socket_base::max_listen_connections, ec);
    if (ec) throw std::runtime_error("cannot listen on " + cfg.bind + ":" + std::to_string(cfg.port) + ": " + ec.message());
}

Network::~Network() = default;

std::uint16_t Network::port() const { return impl_->acceptor.local_endpoint().port(); }

void Network::start() { impl_->accept(); }

// ---- Health check (a client of this server's own /healthz) ------------------------------------
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

void Network::stop() {
    impl_->stopping = true;
    net::post(impl_->acceptor.get_executor(), [impl = impl_] {
        beast::error_code ignored;
        impl->acceptor.close(ignored);
    });
    std::vector<std::shared_ptr<WebSocketSession>> open;
    {
        std::lock_guard lock(impl_->sessions_mutex);
        for (auto& [id, weak] : impl_->sessions)
            if (auto s = weak.lock()) open.push_back(s);
    }
    for (auto& s : open) s->close();
}

}  // namespace spookludo::server
