// TLS on the server's port: the context (protocols, ciphers, ALPN, the certificate and its
// reload) and the front of each connection (plain or TLS, the handshake, its deadline).
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <sys/socket.h>

#include <cerrno>
#include <cstdint>

#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include "network_shared.h"
#include "spookludo/openssl_errors.h"
#include "services.h"

namespace spookludo::server {

namespace {

// ---- The socket BIO (tls_socket.h) --------------------------------------------------------------
int descriptor_of(BIO* bio) {
    return static_cast<int>(reinterpret_cast<std::intptr_t>(BIO_get_data(bio)));
}
int bio_write(BIO* bio, const char* data, int size) {
    BIO_clear_retry_flags(bio);
    const auto n = ::send(descriptor_of(bio), data, static_cast<std::size_t>(size), MSG_NOSIGNAL);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) BIO_set_retry_write(bio);
    return static_cast<int>(n);
}
int bio_read(BIO* bio, char* data, int size) {
    BIO_clear_retry_flags(bio);
    const auto n = ::recv(descriptor_of(bio), data, static_cast<std::size_t>(size), 0);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) BIO_set_retry_read(bio);
    if (n == 0) BIO_set_flags(bio, BIO_FLAGS_IN_EOF);
    return static_cast<int>(n);
}
long bio_ctrl(BIO* bio, int command, long, void*) {
    switch (command) {
        case BIO_CTRL_FLUSH: return 1;
        case BIO_CTRL_EOF: return BIO_test_flags(bio, BIO_FLAGS_IN_EOF) != 0;
        default: return 0;
    }
}
int bio_create(BIO* bio) {
    BIO_set_init(bio, 1);
    return 1;
}
BIO_METHOD* socket_bio_method() {
    static BIO_METHOD* method = [] {
        BIO_METHOD* m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK | BIO_TYPE_DESCRIPTOR, "spookludo socket");
        BIO_meth_set_write(m, bio_write);
        BIO_meth_set_read(m, bio_read);
        BIO_meth_set_ctrl(m, bio_ctrl);
        BIO_meth_set_create(m, bio_create);
        return m;
    }();
    return method;
}

// Mozilla's "intermediate" profile, less the DHE suites (they need Diffie-Hellman parameters the
// server does not ship): TLS 1.2 with ECDHE and AEAD ciphers, and TLS 1.3's own suites.
constexpr const char* kTls12Ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";
constexpr const char* kTls13Suites = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256";


// ALPN: the server speaks HTTP/1.1 (the WebSocket upgrade rides on it).
int select_alpn(SSL*, const unsigned char** out, unsigned char* outlen, const unsigned char* in, unsigned int inlen,
                void*) {
    static const unsigned char http11[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
    unsigned char* selected = nullptr;
    if (SSL_select_next_proto(&selected, outlen, http11, sizeof http11, in, inlen) != OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_NOACK;  // a client without http/1.1 on its list goes on without ALPN
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
}

}  // namespace

BIO* new_socket_bio(int fd) {
    BIO* bio = BIO_new(socket_bio_method());
    if (bio) BIO_set_data(bio, reinterpret_cast<void*>(static_cast<std::intptr_t>(fd)));
    return bio;
}

TlsContexts::TlsContexts(std::string cert, std::string key) : cert_(std::move(cert)), key_(std::move(key)) {
    if (cert_.empty() || key_.empty()) throw std::runtime_error("TLS needs both --tls-cert and --tls-key");
    current_ = load();
}

std::shared_ptr<net::ssl::context> TlsContexts::load() const {
    auto ctx = std::make_shared<net::ssl::context>(net::ssl::context::tls_server);
    SSL_CTX* native = ctx->native_handle();
    ERR_clear_error();
    SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION);
    SSL_CTX_set_options(native, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_TICKET);
    // No resumption: a player's connection lives for the party, and a session cache (or TLS
    // 1.3's tickets, stateful without SSL_OP_NO_TICKET's stateless ones) would keep a session
    // per connection in memory for nothing.
    SSL_CTX_set_session_cache_mode(native, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_num_tickets(native, 0);
    // An idle connection keeps no read and write buffers (tens of KB each otherwise).
    SSL_CTX_set_mode(native, SSL_MODE_RELEASE_BUFFERS);
    // TlsSocket writes what a pass queued with one SSL_write_ex and goes on from where it stopped.
    SSL_CTX_set_mode(native, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    if (SSL_CTX_set_cipher_list(native, kTls12Ciphers) != 1 || SSL_CTX_set_ciphersuites(native, kTls13Suites) != 1)
        throw std::runtime_error("the cipher list: " + openssl_errors());
    SSL_CTX_set_alpn_select_cb(native, select_alpn, nullptr);
    if (SSL_CTX_use_certificate_chain_file(native, cert_.c_str()) != 1)
        throw std::runtime_error("cannot use the certificate " + cert_ + ": " + openssl_errors());
    if (SSL_CTX_use_PrivateKey_file(native, key_.c_str(), SSL_FILETYPE_PEM) != 1)
        throw std::runtime_error("cannot use the key " + key_ + ": " + openssl_errors());
    if (SSL_CTX_check_private_key(native) != 1)
        throw std::runtime_error("the key " + key_ + " does not belong to the certificate " + cert_);
    return ctx;
}

std::shared_ptr<net::ssl::context> TlsContexts::current() const {
    std::lock_guard lock(mutex_);
    return current_;
}

bool TlsContexts::reload(std::string& why) {
    try {
        auto fresh = load();
        std::lock_guard lock(mutex_);
        current_ = std::move(fresh);
        return true;
    } catch (const std::exception& e) {
        why = e.what();
        return false;
    }
}

std::string TlsContexts::describe() const {
    const auto ctx = current();
    X509* cert = SSL_CTX_get0_certificate(ctx->native_handle());
    if (!cert) return "no certificate";
    char subject[256] = {};
    X509_NAME_oneline(X509_get_subject_name(cert), subject, sizeof subject);
    std::string out = subject;
    const ASN1_TIME* until = X509_get0_notAfter(cert);
    struct tm t {};
    if (until && ASN1_TIME_to_tm(until, &t) == 1) {
        char when[32];
        std::strftime(when, sizeof when, "%Y-%m-%d", &t);
        out += std::string(", valid until ") + when;
    }
    return out;
}

namespace {

class TlsFront : public std::enable_shared_from_this<TlsFront> {
public:
    TlsFront(tcp::socket socket, std::shared_ptr<Network::Impl> network, ConnectionSlot slot)
        : socket_(std::move(socket)), timer_(socket_.get_executor()), network_(std::move(network)),
          slot_(std::move(slot)) {}

    void run() {
        // One deadline for the first bytes and the handshake. (A connection over a limit never
        // gets here: the listener closes it.)
        timer_.expires_after(std::chrono::milliseconds(network_->services.config.handshake_timeout_ms));
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec) self->hang_up();
        });
        // The first byte tells TLS (a handshake record, 0x16) from plain HTTP; it is only
        // peeked at, so that OpenSSL (or the HTTP parser) reads the connection from its start.
        socket_.async_wait(tcp::socket::wait_read, [self = shared_from_this()](beast::error_code ec) { self->on_readable(ec); });
    }

private:
    void hang_up() {
        if (tls_) hang_up_stream(*tls_);
        else hang_up_stream(socket_);
    }

    void on_readable(beast::error_code ec) {
        unsigned char first = 0;
        if (!ec) {
            const auto n = ::recv(socket_.native_handle(), &first, 1, MSG_PEEK | MSG_DONTWAIT);
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
                socket_.async_wait(tcp::socket::wait_read, [self = shared_from_this()](beast::error_code e) { self->on_readable(e); });
                return;
            }
            if (n == 0) ec = net::error::eof;
            else if (n < 0) ec = beast::error_code(errno, boost::system::system_category());
        }
        if (ec) {
            timer_.cancel();
            return log_failure(ec, "tls detect");
        }
        if (first != 0x16) {
            // Plain HTTP on the TLS port: it is answered in plain words (a redirect, or "use wss://").
            timer_.cancel();
            ++network_->services.metrics.plain_on_tls_port;
            return run_http_session(PlainStream(std::move(socket_)), network_, std::move(slot_), std::string(), true);
        }
        // A handshake costs the server half a millisecond of CPU: one address may start
        // --tls-handshakes-per-second of them, and a connection over that is closed before it.
        if (network_->tls_handshakes && network_->tls_handshakes->take(slot_.address())) {
            timer_.cancel();
            ++network_->services.metrics.tls_refused_handshake_rate;
            spdlog::debug("connection from {} closed before its TLS handshake: over --tls-handshakes-per-second",
                          slot_.address());
            return hang_up();
        }
        tls_.emplace(std::move(socket_), network_->tls->current()->native_handle());
        tls_->async_handshake([self = shared_from_this()](beast::error_code e) { self->on_handshake(e); });
    }

    void on_handshake(beast::error_code ec) {
        timer_.cancel();
        if (ec) {
            ++network_->services.metrics.tls_handshake_failures;
            spdlog::debug("tls handshake from {}: {}", slot_.address(), ec.message());
            return hang_up();
        }
        run_http_session(std::move(*tls_), network_, std::move(slot_));
    }

    tcp::socket socket_;
    net::steady_timer timer_;
    std::optional<TlsStream> tls_;
    std::shared_ptr<Network::Impl> network_;
    ConnectionSlot slot_;
};

}  // namespace

void run_tls_front(tcp::socket socket, std::shared_ptr<Network::Impl> network, ConnectionSlot slot) {
    std::make_shared<TlsFront>(std::move(socket), std::move(network), std::move(slot))->run();
}

}  // namespace spookludo::server
