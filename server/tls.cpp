// TLS on the server's port: the context (protocols, ciphers, ALPN, the certificate and its
// reload) and the front of each connection (plain or TLS, the handshake, its deadline).
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/detect_ssl.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <spdlog/spdlog.h>

#include "network_shared.h"
#include "services.h"

namespace spookludo::server {

namespace {

// Mozilla's "intermediate" profile, less the DHE suites (they need Diffie-Hellman parameters the
// server does not ship): TLS 1.2 with ECDHE and AEAD ciphers, and TLS 1.3's own suites.
constexpr const char* kTls12Ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";
constexpr const char* kTls13Suites = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256";

std::string openssl_errors() {
    std::string out;
    while (const unsigned long e = ERR_get_error()) {
        char buf[256];
        ERR_error_string_n(e, buf, sizeof buf);
        if (!out.empty()) out += "; ";
        out += buf;
    }
    return out.empty() ? "unknown OpenSSL error" : out;
}

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
    // An idle connection keeps no read and write buffers (tens of KB each otherwise).
    SSL_CTX_set_mode(native, SSL_MODE_RELEASE_BUFFERS);
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
        // One deadline for the first bytes and the handshake; a connection over a limit gets a
        // second, as on a plain port.
        timer_.expires_after(slot_.held() ? std::chrono::milliseconds(network_->services.config.handshake_timeout_ms)
                                          : std::chrono::milliseconds(1000));
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec) self->hang_up();
        });
        beast::async_detect_ssl(socket_, buffer_, [self = shared_from_this()](beast::error_code ec, bool tls) {
            self->on_detect(ec, tls);
        });
    }

private:
    void hang_up() {
        if (tls_) hang_up_stream(*tls_);
        else hang_up_stream(socket_);
    }

    void on_detect(beast::error_code ec, bool tls) {
        if (ec) {
            timer_.cancel();
            return log_failure(ec, "tls detect");
        }
        if (!tls) {
            // Plain HTTP on the TLS port: it is answered in plain words (a redirect, or "use wss://").
            timer_.cancel();
            ++network_->services.metrics.plain_on_tls_port;
            const auto data = buffer_.data();
            std::string early(static_cast<const char*>(data.data()), data.size());
            return run_http_session(PlainStream(std::move(socket_)), network_, std::move(slot_), std::move(early), true);
        }
        tls_.emplace(std::move(socket_), *network_->tls->current());
        tls_->async_handshake(net::ssl::stream_base::server, buffer_.data(),
                              [self = shared_from_this()](beast::error_code e, std::size_t used) {
                                  self->on_handshake(e, used);
                              });
    }

    void on_handshake(beast::error_code ec, std::size_t) {
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
    beast::flat_buffer buffer_;
    std::optional<TlsStream> tls_;
    std::shared_ptr<Network::Impl> network_;
    ConnectionSlot slot_;
};

}  // namespace

void run_tls_front(tcp::socket socket, std::shared_ptr<Network::Impl> network, ConnectionSlot slot) {
    std::make_shared<TlsFront>(std::move(socket), std::move(network), std::move(slot))->run();
}

}  // namespace spookludo::server
