// The listener: binds the port, accepts connections and hands each to an HTTP session; the
// limits that apply before a connection says anything.
#include <fcntl.h>
#include <unistd.h>

#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/websocket/error.hpp>
#include <spdlog/spdlog.h>

#include "network_shared.h"
#include "serial_executor.h"
#include "services.h"

namespace spookludo::server {

void log_failure(beast::error_code ec, const char* what) {
    if (ec == net::error::operation_aborted || ec == beast::websocket::error::closed ||
        ec == http::error::end_of_stream || ec == net::error::eof || ec == beast::error::timeout)
        return;
    spdlog::debug("{}: {}", what, ec.message());
}

bool AddressCounter::acquire(const std::string& address, int limit) {
    std::lock_guard lock(mutex_);
    int& n = counts_[address];
    if (n >= limit) return false;
    ++n;
    return true;
}

void AddressCounter::release(const std::string& address) {
    std::lock_guard lock(mutex_);
    if (--counts_[address] <= 0) counts_.erase(address);
}

ConnectionSlot::ConnectionSlot(std::shared_ptr<Network::Impl> network, std::string address)
    : network_(std::move(network)), address_(std::move(address)) {
    auto& services = network_->services;
    auto& open = services.metrics.tcp_connections;
    if (++open > services.config.max_connections) {
        --open;
        refusal_status_ = 503;
        refusal_ = "server_full: the server has its maximum of connections\n";
    } else if (!network_->per_address.acquire(address_, services.config.max_connections_per_address)) {
        --open;
        refusal_status_ = 429;
        refusal_ = "server_full: too many connections from your address\n";
    } else {
        held_ = true;
    }
    if (!held_) {
        if (++network_->refused_in_flight <= kMaxRefusedInFlight) answering_ = true;
        else --network_->refused_in_flight;
    }
}

ConnectionSlot::ConnectionSlot(ConnectionSlot&& other) noexcept
    : network_(std::move(other.network_)), address_(std::move(other.address_)), held_(other.held_),
      answering_(other.answering_), refusal_status_(other.refusal_status_), refusal_(std::move(other.refusal_)) {
    other.held_ = false;
    other.answering_ = false;
}

ConnectionSlot::~ConnectionSlot() {
    if (answering_) --network_->refused_in_flight;
    if (!held_) return;
    --network_->services.metrics.tcp_connections;
    network_->per_address.release(address_);
}

Network::Impl::Impl(net::io_context& io_, Services& s)
    : io(io_), services(s), acceptor(net::make_strand(io_)), accept_pause(acceptor.get_executor()),
      spare_descriptor(::open("/dev/null", O_RDONLY | O_CLOEXEC)) {}

Network::Impl::~Impl() {
    if (spare_descriptor >= 0) ::close(spare_descriptor);
}

// Out of descriptors with a connection waiting: the spare descriptor makes room to take it,
// tell it why in plain HTTP, and close it, then it is taken back. The answer is best effort
// (the request is not read); a health check gets its 503 instead of no answer at all.
bool Network::Impl::refuse_out_of_descriptors() {
    if (spare_descriptor < 0) return false;
    ::close(spare_descriptor);
    spare_descriptor = -1;
    beast::error_code ec;
    tcp::socket socket(io);
    // Without user-set non-blocking mode Asio's synchronous accept would wait in poll() for the
    // next connection once none is waiting, holding an I/O thread and the spare's descriptor.
    acceptor.non_blocking(true, ec);
    acceptor.accept(socket, ec);
    const bool accepted = !ec;
    if (accepted) {
        static constexpr std::string_view kAnswer =
            "HTTP/1.1 503 Service Unavailable\r\nServer: spookludo-server\r\nContent-Type: text/plain\r\n"
            "Content-Length: 52\r\nConnection: close\r\n\r\n"
            "out of file descriptors: the server is at its limit\n";
        socket.non_blocking(true, ec);
        socket.write_some(net::buffer(kAnswer.data(), kAnswer.size()), ec);
        // Closing with the request unread would answer with a reset, which can overtake the
        // 503: read what has arrived, then end the sending side before closing.
        char request[4096];
        socket.read_some(net::buffer(request), ec);
        socket.shutdown(tcp::socket::shutdown_send, ec);
        socket.close(ec);
    }
    keep_spare();
    return accepted;
}

void Network::Impl::keep_spare() {
    if (spare_descriptor < 0) spare_descriptor = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
}

namespace {
constexpr int kSendBuffer = 64 * 1024;
}

void Network::Impl::accept() {
    acceptor.async_accept(serial_executor(io, services.config.threads), beast::bind_front_handler(&Impl::on_accept, shared_from_this()));
}

void Network::Impl::on_accept(beast::error_code ec, tcp::socket socket) {
    if (stopping) return;
    keep_spare();
    if (ec == net::error::no_descriptors || ec == net::error::no_buffer_space ||
        ec == boost::system::errc::too_many_files_open_in_system || ec == boost::system::errc::not_enough_memory) {
        // Out of file descriptors (or memory): the waiting connection is told so, and accepting
        // again at once would spin: wait a little; connections that close meanwhile free
        // descriptors.
        const auto now = std::chrono::steady_clock::now();
        if (now - last_descriptor_warning > std::chrono::seconds(1)) {
            last_descriptor_warning = now;
            spdlog::warn("cannot accept a connection: {} (raise the open-files limit, or lower --max-connections)",
                         ec.message());
        }
        // Each waiting connection is answered in turn; once none is left (or the spare
        // descriptor could not be had back), accepting pauses.
        if (refuse_out_of_descriptors()) {
            ++services.metrics.refused_out_of_descriptors;
            return accept();
        }
        accept_pause.expires_after(std::chrono::milliseconds(100));
        accept_pause.async_wait([self = shared_from_this()](beast::error_code e) {
            if (!e && !self->stopping) self->accept();
        });
        return;
    }
    if (ec) {
        log_failure(ec, "accept");
        if (ec != net::error::operation_aborted) {
            // Whatever else failed, accepting again at once could spin: a short pause first.
            accept_pause.expires_after(std::chrono::milliseconds(20));
            accept_pause.async_wait([self = shared_from_this()](beast::error_code e) {
                if (!e && !self->stopping) self->accept();
            });
            return;
        }
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
        ConnectionSlot slot(shared_from_this(), endpoint.address().to_string());
        if (tls && !slot.held()) {
            // Over a limit on the TLS port: closed at once. Telling it why would take a whole
            // handshake first, the half millisecond of CPU a flood of connections is after.
            ++services.metrics.tls_refused_connection_limit;
            spdlog::debug("connection from {} closed before its TLS handshake: {}", slot.address(), slot.refusal());
            socket.close(ignored);
            return accept();
        }
        if (!slot.held() && !slot.may_answer()) {
            socket.close(ignored);  // too many refusals being answered already
            return accept();
        }
        if (tls) run_tls_front(std::move(socket), shared_from_this(), std::move(slot));
        else run_http_session(PlainStream(std::move(socket)), shared_from_this(), std::move(slot));
    }
    accept();
}

Network::Network(net::io_context& io, Services& services) : impl_(std::make_shared<Impl>(io, services)) {
    const auto& cfg = services.config;
    if (cfg.tls()) impl_->tls = std::make_unique<TlsContexts>(cfg.tls_cert, cfg.tls_key);
    if (cfg.tls() && cfg.tls_handshakes_per_second > 0)
        impl_->tls_handshakes =
            std::make_unique<AddressBuckets>(2.0 * cfg.tls_handshakes_per_second, cfg.tls_handshakes_per_second);
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

bool Network::tls() const { return impl_->tls != nullptr; }

std::string Network::tls_certificate() const { return impl_->tls ? impl_->tls->describe() : std::string(); }

bool Network::reload_tls(std::string& why) {
    if (!impl_->tls) {
        why = "the server does not serve TLS";
        return false;
    }
    return impl_->tls->reload(why);
}

void Network::stop() {
    impl_->stopping = true;
    net::post(impl_->acceptor.get_executor(), [impl = impl_] {
        beast::error_code ignored;
        impl->acceptor.close(ignored);
    });
    std::vector<std::shared_ptr<Peer>> open;
    {
        std::lock_guard lock(impl_->sessions_mutex);
        for (auto& [id, weak] : impl_->sessions)
            if (auto s = weak.lock()) open.push_back(s);
    }
    for (auto& s : open) s->close();
}

}  // namespace spookludo::server
