#pragma once
// The byte stream under the HTTP and WebSocket sessions: the one seam between "bytes in, bytes
// out" and everything above it. A session is written once, as a template on its stream, and
// instantiated for each kind of stream the server serves: plain TCP, and TLS (TlsSocket,
// tls_socket.h: OpenSSL on the socket itself), the same face, not a second copy of the sessions.
//
// What a session needs of a stream:
//   - async_read_some and async_write_some (Asio's AsyncReadStream and AsyncWriteStream), so
//     that Beast's HTTP parser and one gathered net::async_write per pass work on it;
//   - socket_of(stream): the TCP socket underneath, for options, the peer's address and closing;
//   - shutdown_send(stream): no more bytes from us (the end of an HTTP exchange, after our close
//     frame), the peer may still send.
// Included only by the network .cpp files (it brings Asio).
#include <type_traits>

#include <boost/asio/ip/tcp.hpp>

#include "tls_socket.h"

namespace spookludo::server {

using PlainStream = boost::asio::ip::tcp::socket;
using TlsStream = TlsSocket;
template <class Stream>
inline constexpr bool is_tls_v = std::is_same_v<Stream, TlsStream>;

inline boost::asio::ip::tcp::socket& socket_of(PlainStream& stream) noexcept { return stream; }
inline boost::asio::ip::tcp::socket& socket_of(TlsStream& stream) noexcept { return stream.next_layer(); }

// For TLS this ends the TCP side without a close_notify: every answer the server sends says its
// own length (HTTP's Content-Length, WebSocket's close frame), so a truncation cannot pass unseen.
template <class Stream>
void shutdown_send(Stream& stream) noexcept {
    boost::system::error_code ignored;
    socket_of(stream).shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
}

// Ends the connection at once: pending operations complete with operation_aborted.
template <class Stream>
void hang_up_stream(Stream& stream) noexcept {
    boost::system::error_code ignored;
    auto& socket = socket_of(stream);
    socket.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
}

}  // namespace spookludo::server
