// The HTTP session: reads requests on a new connection, answers the plain routes
// (http_routes.h), and hands a WebSocket upgrade on /ws to the WebSocket session.
#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/http/span_body.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <spdlog/spdlog.h>

#include "cluster.h"
#include "http_routes.h"
#include "network_shared.h"
#include "services.h"
#include "spookludo/protocol/messages.h"
#include "spookludo/text.h"

namespace spookludo::server {

namespace {

template <class Stream>
class HttpSession : public std::enable_shared_from_this<HttpSession<Stream>> {
public:
    HttpSession(Stream&& stream, std::shared_ptr<Network::Impl> network, ConnectionSlot slot, std::string early,
                bool plain_on_tls_port)
        : stream_(std::move(stream)), deadline_(stream_.get_executor()), network_(std::move(network)),
          slot_(std::move(slot)), plain_on_tls_port_(plain_on_tls_port) {
        if (!early.empty()) {
            const auto room = buffer_.prepare(early.size());
            std::memcpy(room.data(), early.data(), early.size());
            buffer_.commit(early.size());
        }
    }

    void run() { net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::read, this->shared_from_this())); }

private:
    using Request = http::request<http::string_body>;
    static constexpr bool kTls = is_tls_v<Stream>;
    static constexpr std::chrono::seconds kRefusalDeadline{1};

    void read() {
        parser_.emplace();
        parser_->body_limit(kMaxRequestBody);
        parser_->header_limit(kMaxRequestHead);
        // One deadline for the request and its answer: a client that sends nothing, or does
        // not read what it is sent, is closed.
        // A connection over a limit only hears why, and gets a second to ask.
        deadline_.expires_after(slot_.held() ? std::chrono::milliseconds(network_->services.config.handshake_timeout_ms)
                                             : kRefusalDeadline);
        deadline_.async_wait([self = this->shared_from_this()](beast::error_code ec) {
            if (!ec && !self->handed_over_) hang_up_stream(self->stream_);
        });
        http::async_read(stream_, buffer_, *parser_,
                         beast::bind_front_handler(&HttpSession::on_read, this->shared_from_this()));
    }

    void on_read(beast::error_code ec, std::size_t) {
        if (ec) {
            if (const auto what = unreadable(ec)) return refuse_unreadable(*what, ec);
            deadline_.cancel();
            return log_failure(ec, "http read");
        }
        auto req = parser_->release();
        if (!slot_.held())
            return respond(req, static_cast<http::status>(slot_.refusal_status()), "text/plain", slot_.refusal(), false);
        if (plain_on_tls_port_) return refuse_plain(req);
        if (beast::websocket::is_upgrade(req)) return upgrade(std::move(req));
        serve(std::move(req));
    }

    // What is wrong with a request the parser gave up on: too large or malformed (answered), or
    // nothing to answer (the client closed, a timeout).
    std::optional<Unreadable> unreadable(beast::error_code ec) const {
        // The parser takes the request line as soon as it is whole: a target it has means the
        // fields made the head too long.
        if (ec == http::error::header_limit)
            return parser_->get().target().empty() ? Unreadable::target_too_long : Unreadable::fields_too_large;
        if (ec == http::error::body_limit) return Unreadable::body_too_large;
        if (ec == http::error::bad_line_ending || ec == http::error::bad_method || ec == http::error::bad_target ||
            ec == http::error::bad_version || ec == http::error::bad_field || ec == http::error::bad_value ||
            ec == http::error::bad_content_length || ec == http::error::bad_transfer_encoding ||
            ec == http::error::bad_chunk || ec == http::error::bad_chunk_extension || ec == http::error::bad_obs_fold ||
            ec == http::error::multiple_content_length)
            return Unreadable::malformed;
        return std::nullopt;
    }

    // A request over the limits, or malformed: the status and the reason, then the connection
    // closes (what the client still sends is read and dropped meanwhile: drain()).
    void refuse_unreadable(Unreadable what, beast::error_code ec) {
        const auto answer = answer_unreadable(what, ec.message());
        spdlog::debug("connection from {}: request refused with {}: {}", slot_.address(), answer.status, ec.message());
        http::response<http::string_body> res{static_cast<http::status>(answer.status), 11};
        decorate(res, answer.content_type, answer.headers);
        res.keep_alive(false);
        res.body() = answer.body;
        res.prepare_payload();
        drain_after_answer_ = true;
        send(std::move(res));
    }

    // After answering a request it did not read to its end: closing with bytes unread would
    // send a reset, which can reach the client before the answer and destroy it. What the client
    // still sends is read and dropped until it closes, kDrainMost bytes, or a second.
    static constexpr std::size_t kDrainMost = 64 * 1024;
    void drain() {
        deadline_.expires_after(kRefusalDeadline);
        deadline_.async_wait([self = this->shared_from_this()](beast::error_code ec) {
            if (!ec) hang_up_stream(self->stream_);
        });
        buffer_.clear();
        drain_some(0);
    }
    void drain_some(std::size_t drained) {
        stream_.async_read_some(buffer_.prepare(4096), [self = this->shared_from_this(), drained](beast::error_code ec,
                                                                                                std::size_t n) {
            if (ec || drained + n > kDrainMost) {
                self->deadline_.cancel();
                return hang_up_stream(self->stream_);
            }
            self->drain_some(drained + n);
        });
    }

    // A plain request on the TLS port: a browser is sent to the https:// address; a WebSocket
    // client (ws://) is told to use wss://. Either way the connection then closes.
    void refuse_plain(const Request& req) {
        const std::string host(req[http::field::host]);
        const std::string where = host.empty() ? std::string("this server") : host;
        if (beast::websocket::is_upgrade(req) || host.empty())
            return respond(req, http::status::bad_request, "text/plain",
                           "this server speaks TLS only: connect with wss://" + where + std::string(protocol::kWebSocketPath) +
                               " (or https://" + where + ")\n",
                           false);
        http::response<http::string_body> res{http::status::moved_permanently, req.version()};
        decorate(res, "text/plain", {});
        res.set(http::field::location, "https://" + host + std::string(req.target()));
        res.keep_alive(false);
        if (req.method() != http::verb::head) res.body() = "this server speaks https: https://" + host + std::string(req.target()) + "\n";
        res.prepare_payload();
        send(std::move(res));
    }

    // A page served by another node of the cluster (its WebSocket goes to the node that has the room).
    bool cluster_origin(std::optional<std::string_view> origin) const {
        auto& cluster = network_->services.cluster;
        if (!origin || !cluster) return false;
        const auto theirs = normalise_origin(*origin);
        if (!theirs) return false;
        for (const auto& node : cluster->nodes())  // a dead node's page too: its players move on
            if (!node.url.empty() && normalise_origin(node.url) == theirs) return true;
        return false;
    }

    void upgrade(Request&& req) {
        if (req.target() != protocol::kWebSocketPath)
            return respond(req, http::status::not_found, "text/plain", "WebSocket path is /ws\n", false);
        auto& services = network_->services;
        // A page of another site must not drive a visitor's seat: an Origin that is not this
        // server (nor allowed) is refused. Native clients send no Origin and are taken.
        std::optional<std::string_view> origin;
        if (const auto field = req.find(http::field::origin); field != req.end()) origin = field->value();
        if (const auto check = check_origin(origin, req[http::field::host], kTls, services.config.allow_origins);
            !check.allowed && !cluster_origin(origin)) {
            ++services.metrics.origin_refused;
            spdlog::info("connection from {}: WebSocket refused, Origin {} is another site (Host {})", slot_.address(),
                         protocol::quote_client_text(*origin, 100),
                         protocol::quote_client_text(std::string_view(req[http::field::host]), 100));
            return respond(req, http::status::forbidden, "text/plain", check.why, false);
        }
        if (services.shutting_down)
            return respond(req, http::status::service_unavailable, "text/plain", "shutting down\n", false);
        handed_over_ = true;
        deadline_.cancel();  // the WebSocket has its own timeouts
        const auto early = buffer_.data();
        std::string bytes(static_cast<const char*>(early.data()), early.size());
        run_websocket_session(std::move(stream_), network_, std::move(slot_), std::move(req), std::move(bytes));
    }

    // How long an answer computed off the I/O threads (an analysis) may take, queue included.
    static constexpr std::chrono::seconds kLaterDeadline{60};

    void serve(Request&& req) {
        HttpAnswer answer;
        try {
            HttpRequest request;
            request.method = std::string_view(req.method_string());
            request.target = std::string_view(req.target());
            request.host = std::string_view(req[http::field::host]);
            request.accept_encoding = std::string_view(req[http::field::accept_encoding]);
            request.if_none_match = std::string_view(req[http::field::if_none_match]);
            request.tls = kTls;
            request.address = slot_.address();
            answer = answer_http(network_->services, request);
            if (answer.later) {
                // The answer comes from another thread: the request waits here (nothing more is
                // read meanwhile), and the answer is sent from the connection's own executor.
                held_ = std::move(req);
                deadline_.expires_after(kLaterDeadline);
                deadline_.async_wait([self = this->shared_from_this()](beast::error_code ec) {
                    if (!ec) hang_up_stream(self->stream_);
                });
                auto later = std::move(answer.later);
                later([self = this->shared_from_this()](HttpAnswer a) {
                    net::post(self->stream_.get_executor(), [self, a = std::move(a)]() mutable {
                        if (!self->held_) return;
                        Request held = std::move(*self->held_);
                        self->held_.reset();
                        self->deliver(held, std::move(a));
                    });
                });
                return;
            }
        } catch (const std::exception& e) {
            // A route that fails answers 500 to this request; the server goes on. The target's
            // query is left out of the log.
            ++network_->services.metrics.internal_errors;
            const std::string_view target(req.target());
            spdlog::error("http: {} failed: {}", protocol::quote_client_text(target.substr(0, target.find('?'))), e.what());
            return respond(req, http::status::internal_server_error, "text/plain", "internal error\n", false);
        }
        deliver(req, std::move(answer));
    }

    void deliver(const Request& req, HttpAnswer answer) {
        const auto status = static_cast<http::status>(answer.status);
        if (answer.embedded) {
            if (req.method() == http::verb::head)
                return respond_head(req, status, answer.content_type, answer.embedded->size(), true, answer.headers);
            http::response<http::span_body<const char>> res{status, req.version()};
            decorate(res, answer.content_type, answer.headers);
            res.keep_alive(req.keep_alive());
            res.body() = {answer.embedded->data(), answer.embedded->size()};
            res.prepare_payload();
            return send(std::move(res));
        }
        respond(req, status, answer.content_type, std::move(answer.body), true, answer.headers);
    }

    using Headers = std::vector<std::pair<std::string, std::string>>;

    // The headers of every answer: the server's name, the content type (none for a 304), no
    // sniffing of types, no Referer from the page; then the answer's own.
    template <class Response>
    static void decorate(Response& res, std::string_view type, const Headers& headers) {
        res.set(http::field::server, "spookludo-server");
        if (!type.empty()) res.set(http::field::content_type, type);
        res.set("X-Content-Type-Options", "nosniff");
        res.set("Referrer-Policy", "no-referrer");
        for (const auto& [name, value] : headers) res.set(name, value);
    }

    void respond(const Request& req, http::status status, std::string_view type, std::string body, bool keep_alive,
                 const Headers& headers = {}) {
        if (req.method() == http::verb::head || status == http::status::not_modified)
            return respond_head(req, status, type, body.size(), keep_alive, headers);
        http::response<http::string_body> res{status, req.version()};
        decorate(res, type, headers);
        res.keep_alive(keep_alive && req.keep_alive());
        res.body() = std::move(body);
        res.prepare_payload();
        send(std::move(res));
    }

    // An answer without a body: to HEAD (with the Content-Length a GET would get) or a 304 (none).
    void respond_head(const Request& req, http::status status, std::string_view type, std::uint64_t size,
                      bool keep_alive, const Headers& headers) {
        http::response<http::empty_body> res{status, req.version()};
        decorate(res, type, headers);
        res.keep_alive(keep_alive && req.keep_alive());
        if (status != http::status::not_modified) res.content_length(size);
        send(std::move(res));
    }

    template <class Body>
    void send(http::response<Body>&& res) {
        auto sp = std::make_shared<http::response<Body>>(std::move(res));
        const bool close = sp->need_eof();
        http::async_write(stream_, *sp, [self = this->shared_from_this(), sp, close](beast::error_code ec, std::size_t) {
            if (ec) {
                self->deadline_.cancel();
                return log_failure(ec, "http write");
            }
            if (close) {
                self->deadline_.cancel();
                shutdown_send(self->stream_);
                if (self->drain_after_answer_) self->drain();
                return;
            }
            self->read();
        });
    }

    Stream stream_;
    net::steady_timer deadline_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    std::shared_ptr<Network::Impl> network_;
    ConnectionSlot slot_;  // this connection's place under the limits (empty: it is refused)
    bool handed_over_ = false;  // the stream belongs to a WebSocket session now
    bool plain_on_tls_port_ = false;
    bool drain_after_answer_ = false;  // the request was not read to its end (refuse_unreadable)
    std::optional<Request> held_;      // a request whose answer comes later (HttpAnswer::later)
};

}  // namespace

template <class Stream>
void run_http_session(Stream&& stream, std::shared_ptr<Network::Impl> network, ConnectionSlot slot, std::string early,
                      bool plain_on_tls_port) {
    std::make_shared<HttpSession<Stream>>(std::move(stream), std::move(network), std::move(slot), std::move(early),
                                          plain_on_tls_port)
        ->run();
}

template void run_http_session<PlainStream>(PlainStream&&, std::shared_ptr<Network::Impl>, ConnectionSlot, std::string,
                                            bool);
template void run_http_session<TlsStream>(TlsStream&&, std::shared_ptr<Network::Impl>, ConnectionSlot, std::string,
                                          bool);

}  // namespace spookludo::server
