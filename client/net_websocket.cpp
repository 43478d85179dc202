// One WebSocket connection to the server (Connection::open): TCP, then TLS for wss:// with the
// certificate checked, then the opening handshake over Beast's HTTP; then the frames, written
// and read by the program itself (protocol/websocket.h): batched writes, pings answered, the
// closing handshake, and every way it can end said in words.
#include <cstring>
#include <random>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <openssl/evp.h>

#include "i18n.h"
#include "net_asio.h"
#include "spookludo/protocol/websocket.h"

namespace spookludo::client {

namespace beast = boost::beast;
namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = asio::ip::tcp;
namespace ws = protocol::ws;
using namespace net_detail;

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
        : url_(std::move(url)), handlers_(std::move(handlers)), resolver_(io_context_of(loop)),
          stream_(make_stream(io_context_of(loop), url_)), timer_(io_context_of(loop)),
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
            if (!ec) self->finish(tr("closed by the client"));
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
            finish(tr("closed by the client"));
            return true;
        }
        if (timed_out_) {
            finish(tr("no answer from {address} (timed out)", {{"address", url_.text()}}));
            return true;
        }
        return false;
    }

    void on_resolve(boost::system::error_code ec, tcp::resolver::results_type results) {
        if (stopped_connecting()) return;
        if (ec) return finish(tr("cannot resolve {host}: {detail}", {{"host", url_.host}, {"detail", ec.message()}}));
        asio::async_connect(socket_of(stream_), results,
                            [self = this->shared_from_this()](boost::system::error_code e, const tcp::endpoint&) {
                                self->on_connect(e);
                            });
    }

    void on_connect(boost::system::error_code ec) {
        if (stopped_connecting()) return;
        if (ec == asio::error::connection_refused)
            return finish(tr("connection refused by {address} (is the server running, and is the port right?)",
                             {{"address", where()}}));
        if (ec) return finish(tr("cannot connect to {address}: {detail}", {{"address", where()}, {"detail", ec.message()}}));
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
                              if (ec)
                                  return self->finish(tr("the WebSocket handshake with {address} failed: {detail}",
                                                         {{"address", self->url_.text()}, {"detail", ec.message()}}));
                              http::async_read(self->stream_, self->upgrade_buffer_, self->response_,
                                               [self](boost::system::error_code e, std::size_t) { self->on_upgrade(e); });
                          });
    }

    void on_upgrade(boost::system::error_code ec) {
        if (stopped_connecting()) return;
        const std::string address = url_.text();
        if (ec)
            return finish(tr("the WebSocket handshake with {address} failed: {detail} (is it a SpookLudo server?)",
                             {{"address", address}, {"detail", ec.message()}}));
        const auto& answer = response_.get();
        const auto status = answer.result_int();
        if (status != 101) {
            if (status == 503)
                return finish(tr("the WebSocket handshake with {address} failed: the server is full or shutting down "
                                 "(HTTP 503)",
                                 {{"address", address}}));
            if (status == 429)
                return finish(tr("the WebSocket handshake with {address} failed: too many connections from this "
                                 "address (HTTP 429)",
                                 {{"address", address}}));
            if (status == 404)
                return finish(tr("the WebSocket handshake with {address} failed: no WebSocket at path {path} (HTTP "
                                 "404; the path is /ws)",
                                 {{"address", address}, {"path", url_.path}}));
            if (status == 400 && !url_.tls && answer.body().find("wss://") != std::string::npos)
                return finish(tr("the WebSocket handshake with {address} failed: the server speaks TLS only; connect "
                                 "with wss:// (HTTP 400)",
                                 {{"address", address}}));
            return finish(tr("the WebSocket handshake with {address} failed (HTTP {status})",
                             {{"address", address}, {"status", std::to_string(status)}}));
        }
        if (answer[beast::http::field::sec_websocket_accept] != websocket_accept_for(key_))
            return finish(tr("the WebSocket handshake with {address} failed: a wrong Sec-WebSocket-Accept (is it a "
                             "SpookLudo server?)",
                             {{"address", address}}));
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
                              if (ec) return self->finish(tr("connection lost while sending: {detail}", {{"detail", ec.message()}}));
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
            if (state_ == State::closing) return finish(tr("closed by the client"));
            if (ec == asio::error::eof || ec == ssl::error::stream_truncated)
                return finish(tr("the server closed the connection"));
            return finish(tr("connection lost: {detail}", {{"detail", ec.message()}}));
        }
        reader_.commit(n);
        ws::FrameReader::Message m;
        for (;;) {
            const auto status = reader_.next(m);
            if (status == ws::FrameReader::Status::need_more) break;
            if (status == ws::FrameReader::Status::failed) {
                const auto& f = reader_.failure();
                send_close_now(f.code, f.reason);
                return finish(tr("the server broke the WebSocket protocol: {detail}", {{"detail", f.reason}}));
            }
            if (m.opcode == ws::Opcode::text) {
                stats_.messages_in++;
                stats_.bytes_in += m.payload.size();
                if (handlers_.on_message) handlers_.on_message(m.payload);
                if (state_ == State::closed) return;
            } else if (m.opcode == ws::Opcode::ping) {
                append(ws::Opcode::pong, m.payload);
            } else if (m.opcode == ws::Opcode::close) {
                if (state_ == State::closing) return finish(tr("closed by the client"));
                const std::uint16_t code = ws::close_code_of(m.payload);
                const std::string reason(ws::close_reason_of(m.payload));
                send_close_now(code ? code : ws::kCloseNormal, "");
                if (!reason.empty())
                    return finish(tr("the server closed the connection: {reason}", {{"reason", reason}}));
                if (code == ws::kCloseTooBig) return finish(tr("the server closed the connection (message too big)"));
                return finish(tr("the server closed the connection"));
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
