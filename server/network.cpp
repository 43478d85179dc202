#include "network.h"

#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/version.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "peer.h"
#include "spookludo/protocol/server_messages.h"
#include "spookludo/protocol/websocket.h"
#include "room.h"

namespace spookludo::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using protocol::ErrorCode;
namespace ws = protocol::ws;

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

    net::steady_timer accept_pause;  // after running out of file descriptors

    Impl(net::io_context& io_, Services& s)
        : io(io_), services(s), acceptor(net::make_strand(io_)), accept_pause(acceptor.get_executor()) {}

    void accept();
    void on_accept(beast::error_code ec, tcp::socket socket);
};

// ---- WebSocket session ------------------------------------------------------------------------
// After Beast's handshake the session frames its messages itself (protocol/websocket.h): every
// message queued for the connection while a write is in flight, or during one pass of the event
// loop, goes out in one gathered write, one system call. Broadcast payloads are shared between
// the recipients; only the 2 to 4 bytes of frame header are per connection.
class WebSocketSession final : public Peer, public std::enable_shared_from_this<WebSocketSession> {
public:
    WebSocketSession(tcp::socket&& socket, std::shared_ptr<Network::Impl> network, std::string address)
        : socket_(std::move(socket)), timer_(socket_.get_executor()), network_(std::move(network)),
          address_(std::move(address)), id_(network_->next_id++),
          reader_(ws::FrameReader::Role::server, protocol::kMaxMessageBytes), tokens_(burst()) {}

    ~WebSocketSession() override {
        --network_->services.metrics.connections;
        network_->per_address.release(address_);
        std::lock_guard lock(network_->sessions_mutex);
        network_->sessions.erase(id_);
    }

    std::uint64_t id() const noexcept override { return id_; }
    const std::string& address() const noexcept override { return address_; }
    using Peer::send;

    template <class Body, class Allocator>
    void run(http::request<Body, http::basic_fields<Allocator>> req) {
        {
            std::lock_guard lock(network_->sessions_mutex);
            network_->sessions[id_] = weak_from_this();
        }
        // The opening handshake is Beast's (it checks the request and answers 101 or 400); the
        // stream borrows the socket only for that.
        auto handshake = std::make_shared<websocket::stream<tcp::socket&>>(socket_);
        handshake->set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
            res.set(http::field::server, "spookludo-server");
        }));
        timer_.expires_after(std::chrono::milliseconds(network_->services.config.handshake_timeout_ms));
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec && !self->open_) self->hang_up();
        });
        handshake->async_accept(req, [self = shared_from_this(), handshake](beast::error_code ec) {
            if (ec) {
                log_failure(ec, "websocket accept");
                return self->hang_up();
            }
            self->open_ = true;
            self->keep_alive();
            self->read();
        });
    }

    void send(std::shared_ptr<const std::string> text) override { enqueue(ws::Opcode::text, std::move(text)); }
    void attach(std::shared_ptr<Room> room) override {
        net::post(socket_.get_executor(), [self = shared_from_this(), room = std::move(room)] {
            if (self->hung_up_) return room->disconnected(self);  // gone before the room took it
            self->room_ = room;
        });
    }
    void grant_answer() override {
        int g = granted_.load();
        while (g < kMaxGrants && !granted_.compare_exchange_weak(g, g + 1)) {
        }
    }
    void detach() override {
        net::post(socket_.get_executor(), [self = shared_from_this()] { self->room_.reset(); });
    }
    void close() override {
        net::post(socket_.get_executor(), [self = shared_from_this()] {
            // Mid-handshake there is no WebSocket to close yet: the connection just ends.
            if (!self->open_) return self->hang_up();
            self->close_with(ws::kCloseNormal, "");
        });
    }

private:
    struct Outgoing {
        ws::FrameHeader header;
        std::shared_ptr<const std::string> payload;
        ws::Opcode opcode;
    };

    double burst() const { return 2.0 * network_->services.config.max_messages_per_second; }

    // ---- Writing: any thread queues, the session's strand writes ---------------------------
    void enqueue(ws::Opcode opcode, std::shared_ptr<const std::string> payload) {
        bool start = false;
        {
            std::lock_guard lock(out_mutex_);
            if (close_queued_ || dropped_) return;
            if (opcode == ws::Opcode::text && too_slow()) {
                // A slow reader is dropped; the room goes on without waiting for it.
                spdlog::info("connection {} from {}: {} messages queued, the reader is too slow; dropped", id_,
                             address_, queued_.size());
                dropped_ = true;
                queued_.clear();
                ++network_->services.metrics.slow_readers_dropped;
                net::post(socket_.get_executor(), [self = shared_from_this()] { self->hang_up(); });
                return;
            }
            if (opcode == ws::Opcode::close) close_queued_ = true;
            queued_.push_back({ws::frame_header(opcode, payload->size()), std::move(payload), opcode});
            if (!writing_) start = writing_ = true;
        }
        // Posted, not written at once: what else this pass of the event loop queues goes along.
        if (start) net::post(socket_.get_executor(), [self = shared_from_this()] { self->flush(); });
    }

    // Under out_mutex_. A reader is too slow when send_queue_limit messages wait behind a write
    // the kernel has not taken for a second (its socket buffers are full: it does not read). A
    // zero-pace room may queue more than that in one burst while its write is on its way; only
    // an absurd queue (16 times the limit) is too much in any case.
    bool too_slow() const {
        const std::size_t limit = network_->services.config.send_queue_limit;
        if (queued_.size() < limit) return false;
        if (queued_.size() >= 16 * limit) return true;
        return write_in_flight_ && std::chrono::steady_clock::now() - write_started_ > kWriteStall;
    }

    void flush() {
        {
            std::lock_guard lock(out_mutex_);
            if (queued_.empty() || dropped_ || !socket_.is_open()) {
                writing_ = false;
                queued_.clear();
                return;
            }
            in_flight_.swap(queued_);
            write_in_flight_ = true;
            write_started_ = std::chrono::steady_clock::now();
        }
        buffers_.clear();
        for (const auto& o : in_flight_) {
            buffers_.emplace_back(o.header.bytes.data(), o.header.size);
            buffers_.emplace_back(o.payload->data(), o.payload->size());
        }
        net::async_write(socket_, buffers_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            self->on_write(ec);
        });
    }

    void on_write(beast::error_code ec) {
        bool sent_close = false;
        std::uint64_t messages = 0;
        for (const auto& o : in_flight_) {
            if (o.opcode == ws::Opcode::text) ++messages;
            if (o.opcode == ws::Opcode::close) sent_close = true;
        }
        network_->services.metrics.messages_out += static_cast<long>(messages);
        bool idle;
        {
            std::lock_guard lock(out_mutex_);
            write_in_flight_ = false;
            idle = queued_.empty();
        }
        if (idle) {  // an idle connection keeps no write buffers
            std::vector<Outgoing>().swap(in_flight_);
            std::vector<net::const_buffer>().swap(buffers_);
        } else {
            in_flight_.clear();
        }
        if (ec) {
            log_failure(ec, "websocket write");
            return hang_up();
        }
        if (sent_close) return after_close_sent();
        flush();
    }

    // ---- Closing -------------------------------------------------------------------------
    // The close frame is out: nothing more is written; wait (briefly) for the peer's close frame
    // or end of stream, then hang up.
    void after_close_sent() {
        {
            std::lock_guard lock(out_mutex_);
            writing_ = false;
            queued_.clear();
        }
        if (peer_closed_) return hang_up();
        beast::error_code ignored;
        socket_.shutdown(tcp::socket::shutdown_send, ignored);
        timer_.expires_after(kCloseWait);
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec) self->hang_up();
        });
    }

    // Closes with a code and reason (a protocol failure, too many bad messages).
    void close_with(std::uint16_t code, std::string_view reason) {
        enqueue(ws::Opcode::close, std::make_shared<const std::string>(ws::close_payload(code, reason)));
    }

    void hang_up() {
        if (hung_up_) return;
        hung_up_ = true;
        {
            std::lock_guard lock(out_mutex_);
            dropped_ = true;
            queued_.clear();
        }
        beast::error_code ignored;
        socket_.shutdown(tcp::socket::shutdown_both, ignored);
        socket_.close(ignored);
        timer_.cancel();
        if (room_) {
            room_->disconnected(shared_from_this());
            room_.reset();
        }
    }

    // ---- Keep-alive: a ping after half the idle time of silence, closed after the other half.
    void keep_alive() {
        timer_.expires_after(std::chrono::milliseconds(network_->services.config.idle_timeout_ms / 2));
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (ec || self->hung_up_ || self->closing()) return;
            if (self->heard_) {
                self->heard_ = false;
                self->ping_sent_ = false;
            } else if (self->ping_sent_) {
                spdlog::debug("connection {}: silent for {} ms; closed", self->id_,
                              self->network_->services.config.idle_timeout_ms);
                return self->hang_up();
            } else {
                self->ping_sent_ = true;
                self->enqueue(ws::Opcode::ping, std::make_shared<const std::string>());
            }
            self->keep_alive();
        });
    }

    bool closing() {
        std::lock_guard lock(out_mutex_);
        return close_queued_ || dropped_;
    }

    // ---- Reading --------------------------------------------------------------------------
    void read() {
        char* at = reader_.prepare(kReadChunk);
        socket_.async_read_some(net::buffer(at, reader_.free_space()),
                                [self = shared_from_this()](beast::error_code ec, std::size_t n) { self->on_read(ec, n); });
    }

    void on_read(beast::error_code ec, std::size_t n) {
        if (ec) {
            if (!closing()) log_failure(ec, "websocket read");
            return hang_up();
        }
        heard_ = true;
        if (reader_.failure().code) {  // closing after a protocol failure: what follows is ignored
            reader_.clear();
            return read();
        }
        reader_.commit(n);
        ws::FrameReader::Message m;
        for (;;) {
            const auto status = reader_.next(m);
            if (status == ws::FrameReader::Status::need_more) break;
            if (status == ws::FrameReader::Status::failed) {
                const auto& f = reader_.failure();
                if (f.code == ws::kCloseTooBig)
                    spdlog::info("connection {}: a frame over {} bytes; closed", id_, protocol::kMaxMessageBytes);
                else
                    spdlog::info("connection {} from {}: {}; closed", id_, address_, f.reason);
                close_with(f.code, f.reason);
                return read();  // for the peer's close frame or end of stream
            }
            switch (m.opcode) {
                case ws::Opcode::ping:
                    enqueue(ws::Opcode::pong, std::make_shared<const std::string>(m.payload));
                    break;
                case ws::Opcode::close:
                    peer_closed_ = true;
                    if (closing()) return hang_up();  // the answer to our close frame
                    // Answer with the same code, then hang up once it is written.
                    if (const auto code = ws::close_code_of(m.payload)) close_with(code, "");
                    else close_with(ws::kCloseNormal, "");
                    return;
                case ws::Opcode::text:
                case ws::Opcode::binary:
                    if (!closing()) on_message(m.opcode == ws::Opcode::text, m.payload);
                    break;
                default: break;  // pong
            }
        }
        reader_.release_if_empty(kReadChunk);
        read();
    }

    void on_message(bool text, std::string_view data) {
        ++network_->services.metrics.messages_in;
        if (!rate_ok()) {
            reject(ErrorCode::rate_limited, "too many messages: at most " +
                                                std::to_string(network_->services.config.max_messages_per_second) +
                                                " a second");
        } else if (!text) {
            reject(ErrorCode::binary_frame, "binary frames are not part of the protocol: send JSON text");
        } else {
            handle(data);
        }
    }

    // Token bucket: max_messages_per_second, bursts of twice that.
    bool rate_ok() {
        int g = granted_.load();
        while (g > 0)  // an answer the room asked for
            if (granted_.compare_exchange_weak(g, g - 1)) return true;
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
        send(protocol::error_message(code, message, ref));
        // Repeated abuse closes this connection only.
        if (++strikes_ >= kMaxStrikes) {
            spdlog::info("connection {} from {}: too many bad messages; closed", id_, address_);
            close_with(ws::kClosePolicy, "too many bad messages");
        }
    }

    void handle(std::string_view text) {
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
            return send(protocol::encode_message(welcome));
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
            return send(protocol::encode_message(pong));
        }
        if (!room_)
            return reject(ErrorCode::not_in_room, "create or join a room first", protocol::type_of(message));
        room_->deliver(shared_from_this(), std::move(message));
    }

    static constexpr int kMaxStrikes = 20;
    static constexpr int kMaxGrants = 4;
    static constexpr std::size_t kReadChunk = 512;  // a choose is about 60 bytes; more grows it
    static constexpr std::chrono::seconds kCloseWait{2};
    static constexpr std::chrono::seconds kWriteStall{1};  // see too_slow()

    tcp::socket socket_;
    net::steady_timer timer_;  // handshake, keep-alive, the wait after our close frame
    std::shared_ptr<Network::Impl> network_;
    std::string address_;
    std::uint64_t id_;
    ws::FrameReader reader_;
    std::shared_ptr<Room> room_;
    bool open_ = false;         // the handshake is done
    bool heard_ = false;        // bytes came since the last keep-alive check
    bool ping_sent_ = false;
    bool peer_closed_ = false;  // the peer's close frame came
    bool hung_up_ = false;
    bool hello_ = false;
    int strikes_ = 0;
    double tokens_;
    std::atomic<int> granted_{0};  // answers asked for by the room (decisions), not rate limited
    std::chrono::steady_clock::time_point last_refill_ = std::chrono::steady_clock::now();

    // Outgoing frames. queued_ and the flags are shared with other threads (rooms), under
    // out_mutex_; in_flight_ and buffers_ belong to the write in progress, on the strand.
    std::mutex out_mutex_;
    std::vector<Outgoing> queued_;
    bool write_in_flight_ = false;
    std::chrono::steady_clock::time_point write_started_{};
    bool writing_ = false;       // a write is in flight or a flush is posted
    bool close_queued_ = false;  // our close frame is queued: nothing more goes out
    bool dropped_ = false;       // hung up (slow reader, error): nothing more goes out
    std::vector<Outgoing> in_flight_;
    std::vector<net::const_buffer> buffers_;
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
constexpr int kSendBuffer = 64 * 1024;

void Network::Impl::accept() {
    acceptor.async_accept(net::make_strand(io), beast::bind_front_handler(&Impl::on_accept, shared_from_this()));
}

void Network::Impl::on_accept(beast::error_code ec, tcp::socket socket) {
    if (stopping) return;
    if (ec == net::error::no_descriptors || ec == net::error::no_buffer_space) {
        // Out of file descriptors (or memory): accepting again at once would spin. Wait a
        // little; connections that close meanwhile free descriptors.
        spdlog::warn("cannot accept a connection: {} (raise the open-files limit, or lower --max-connections)",
                     ec.message());
        accept_pause.expires_after(std::chrono::milliseconds(100));
        accept_pause.async_wait([self = shared_from_this()](beast::error_code e) {
            if (!e && !self->stopping) self->accept();
        });
        return;
    }
    if (ec) {
        log_failure(ec, "accept");
    } else {
        beast::error_code ignored;
        const auto endpoint = socket.remote_endpoint(ignored);
        // Game messages are small and answered at once: Nagle's algorithm would hold each
        // second frame for the peer's delayed ACK (40 ms a step).
        socket.set_option(tcp::no_delay(true), ignored);
        // A bounded send buffer: a reader that stops reading fills it within seconds, then its
        // queue (send_queue_limit messages) and is dropped, instead of the kernel buffering
        // megabytes for it first. 64 KB is hundreds of game messages.
        socket.set_option(net::socket_base::send_buffer_size(kSendBuffer), ignored);
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
