#pragma once
// The byte stream under the HTTP and WebSocket sessions: the one seam between "bytes in, bytes
// out" and everything above it. A session is written once, as a template on its stream, and
// instantiated for each kind of stream the server serves. Today that is plain TCP; TLS is
// another type with the same face (asio::ssl::stream<tcp::socket>), not a second copy of the
// sessions.
//
// What a session needs of a stream:
//   - async_read_some and async_write_some (Asio's AsyncReadStream and AsyncWriteStream), so
//     that Beast's HTTP parser and one gathered net::async_write per pass work on it;
//   - socket_of(stream): the TCP socket underneath, for options, the peer's address and closing;
//   - shutdown_send(stream): no more bytes from us (the end of an HTTP exchange, after our close
//     frame), the peer may still send.
// Included only by the network .cpp files (it brings Asio).
#include <boost/asio/ip/tcp.hpp>

namespace spookludo::server {

using PlainStream = boost::asio::ip::tcp::socket;

inline boost::asio::ip::tcp::socket& socket_of(PlainStream& stream) noexcept { return stream; }

inline void shutdown_send(PlainStream& stream) noexcept {
    boost::system::error_code ignored;
    stream.shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
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
