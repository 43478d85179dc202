#pragma once
// TLS on a server connection with OpenSSL reading and writing the socket itself: an Asio
// AsyncReadStream and AsyncWriteStream (async_read_some, async_write_some) over a non-blocking
// TCP socket, each operation one SSL_read_ex or SSL_write_ex, waiting for the socket only when
// OpenSSL asks (SSL_ERROR_WANT_READ / WANT_WRITE).
//
// Why not Asio's ssl::stream: it runs OpenSSL over a BIO pair with buffers of its own, about
// 70 KB a connection however idle, and copies every byte once more. Here OpenSSL's own record
// buffers are all there is, and with SSL_MODE_RELEASE_BUFFERS an idle connection keeps none.
//
// Included only by the network .cpp files (it brings Asio).
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <utility>

#include <boost/asio/compose.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/error.hpp>

namespace spookludo::server {

// A BIO on a socket descriptor that reads with recv and writes with send(MSG_NOSIGNAL): a peer
// that went away is an error, never a SIGPIPE (OpenSSL's own socket BIO uses write()). tls.cpp.
BIO* new_socket_bio(int fd);

class TlsSocket {
public:
    using executor_type = boost::asio::ip::tcp::socket::executor_type;
    using next_layer_type = boost::asio::ip::tcp::socket;

    // Takes the accepted socket; the connection's SSL holds its own reference to `ctx` (a
    // context replaced by a reload stays alive for the connections made with it).
    TlsSocket(boost::asio::ip::tcp::socket socket, SSL_CTX* ctx) : socket_(std::move(socket)), ssl_(SSL_new(ctx)) {
        boost::system::error_code ignored;
        socket_.native_non_blocking(true, ignored);  // OpenSSL reads and writes the descriptor
        if (ssl_) {
            BIO* bio = new_socket_bio(static_cast<int>(socket_.native_handle()));
            SSL_set_bio(ssl_, bio, bio);  // the SSL owns it (one reference for both directions)
            SSL_set_accept_state(ssl_);
        }
    }
    TlsSocket(TlsSocket&& other) noexcept : socket_(std::move(other.socket_)), ssl_(std::exchange(other.ssl_, nullptr)) {}
    TlsSocket& operator=(TlsSocket&&) = delete;
    TlsSocket(const TlsSocket&) = delete;
    ~TlsSocket() {
        if (ssl_) SSL_free(ssl_);
    }

    executor_type get_executor() noexcept { return socket_.get_executor(); }
    next_layer_type& next_layer() noexcept { return socket_; }
    SSL* native_handle() noexcept { return ssl_; }

    // The server's side of the handshake.
    template <class Token>
    auto async_handshake(Token&& token) {
        return boost::asio::async_compose<Token, void(boost::system::error_code)>(
            Step<HandshakeCall, false>{this, {}}, token, socket_);
    }

    template <class MutableBuffers, class Token>
    auto async_read_some(const MutableBuffers& buffers, Token&& token) {
        return boost::asio::async_compose<Token, void(boost::system::error_code, std::size_t)>(
            Step<ReadCall, true>{this, ReadCall{first_of(buffers)}}, token, socket_);
    }

    template <class ConstBuffers, class Token>
    auto async_write_some(const ConstBuffers& buffers, Token&& token) {
        return boost::asio::async_compose<Token, void(boost::system::error_code, std::size_t)>(
            Step<WriteCall, true>{this, WriteCall(buffers)}, token, socket_);
    }

private:
    // One OpenSSL call: its result (> 0 done, <= 0 see SSL_get_error) and the bytes it moved.
    // A read waits for the socket before OpenSSL is asked, unless OpenSSL holds bytes already:
    // an SSL_read that finds nothing keeps its record buffer (17 KB), and an idle connection
    // waiting inside one would hold it for as long as it is idle.
    struct ReadCall {
        boost::asio::mutable_buffer buffer;
        int operator()(SSL* ssl, std::size_t& n) const { return SSL_read_ex(ssl, buffer.data(), buffer.size(), &n); }
        bool empty() const { return buffer.size() == 0; }
        static bool wait_first(SSL* ssl) { return SSL_has_pending(ssl) == 0; }
    };
    // One buffer is written as it is; several (Beast's HTTP headers) are copied into one, up to
    // a TLS record, rather than sent as a record each.
    struct WriteCall {
        boost::asio::const_buffer buffer;
        std::string copy;
        template <class Buffers>
        explicit WriteCall(const Buffers& buffers) {
            std::size_t pieces = 0;
            for (auto it = boost::asio::buffer_sequence_begin(buffers); it != boost::asio::buffer_sequence_end(buffers); ++it) {
                const boost::asio::const_buffer b = *it;
                if (b.size() == 0) continue;
                if (++pieces == 1) buffer = b;
            }
            if (pieces > 1) {
                copy.resize(std::min<std::size_t>(boost::asio::buffer_size(buffers), kRecord));
                boost::asio::buffer_copy(boost::asio::buffer(copy), buffers);
            }
        }
        int operator()(SSL* ssl, std::size_t& n) const {
            return copy.empty() ? SSL_write_ex(ssl, buffer.data(), buffer.size(), &n)
                                : SSL_write_ex(ssl, copy.data(), copy.size(), &n);
        }
        bool empty() const { return buffer.size() == 0; }
        static bool wait_first(SSL*) { return false; }
    };
    static constexpr std::size_t kRecord = 16384;
    struct HandshakeCall {
        int operator()(SSL* ssl, std::size_t& n) const {
            n = 0;
            return SSL_do_handshake(ssl);
        }
        bool empty() const { return false; }
        static bool wait_first(SSL*) { return false; }
    };

    template <class Buffers>
    static auto first_of(const Buffers& buffers) {
        for (auto it = boost::asio::buffer_sequence_begin(buffers); it != boost::asio::buffer_sequence_end(buffers); ++it) {
            const boost::asio::mutable_buffer b = *it;
            if (b.size() > 0) return b;
        }
        return boost::asio::mutable_buffer();
    }

    // The error of a failed call, in Asio's terms: end of stream, a system error, or OpenSSL's.
    static boost::system::error_code error_of(SSL* ssl, int result, int& want) {
        const int e = SSL_get_error(ssl, result);
        want = e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE ? e : 0;
        if (want) return {};
        if (e == SSL_ERROR_ZERO_RETURN) return boost::asio::error::eof;
        if (e == SSL_ERROR_SYSCALL) {
            const unsigned long queued = ERR_get_error();
            if (queued) return {static_cast<int>(queued), boost::asio::error::get_ssl_category()};
            if (errno != 0 && errno != EAGAIN) return {errno, boost::system::system_category()};
            return boost::asio::ssl::error::stream_truncated;  // the peer closed without close_notify
        }
        const unsigned long queued = ERR_get_error();
        ERR_clear_error();
        if (!queued) return boost::asio::ssl::error::unspecified_system_error;
        if (ERR_GET_REASON(queued) == SSL_R_UNEXPECTED_EOF_WHILE_READING)
            return boost::asio::ssl::error::stream_truncated;  // OpenSSL 3's word for the same
        return {static_cast<int>(queued), boost::asio::error::get_ssl_category()};
    }

    // An operation: the call, repeated after each wait for the socket until it is done. A
    // result had at once is delivered through the executor (never inside the initiating call).
    template <class Call, bool kBytes>
    struct Step {
        TlsSocket* self_;
        Call call;
        bool started = false;
        bool done = false;
        boost::system::error_code result{};
        std::size_t bytes = 0;

        template <class Self>
        void operator()(Self& self, boost::system::error_code ec = {}) {
            const bool initiating = !started;
            started = true;
            if (!done) {
                if (ec) {
                    result = ec;
                    done = true;
                } else if (!self_->ssl_) {
                    result = boost::asio::error::no_memory;
                    done = true;
                } else if (call.empty()) {
                    done = true;
                } else if (initiating && Call::wait_first(self_->ssl_)) {
                    self_->socket_.async_wait(boost::asio::ip::tcp::socket::wait_read, std::move(self));
                    return;
                } else {
                    ERR_clear_error();
                    errno = 0;
                    std::size_t n = 0;
                    const int r = call(self_->ssl_, n);
                    int want = 0;
                    if (r > 0) {
                        bytes = n;
                        done = true;
                    } else {
                        result = error_of(self_->ssl_, r, want);
                        if (want) {
                            self_->socket_.async_wait(want == SSL_ERROR_WANT_READ ? boost::asio::ip::tcp::socket::wait_read
                                                                                 : boost::asio::ip::tcp::socket::wait_write,
                                                      std::move(self));
                            return;
                        }
                        done = true;
                    }
                }
                if (initiating) {
                    boost::asio::post(self_->socket_.get_executor(), std::move(self));
                    return;
                }
            }
            if constexpr (kBytes) self.complete(result, bytes);
            else self.complete(result);
        }
    };

    boost::asio::ip::tcp::socket socket_;
    SSL* ssl_;
};

}  // namespace spookludo::server
