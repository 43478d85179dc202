#pragma once
// The network layer's internal parts, for its own files only (net.cpp, net_tls.cpp,
// net_http.cpp, net_websocket.cpp): this header brings in Asio, so nothing else includes it.
// The loop's io_context for the connections made on it; the TLS under Asio that the WebSocket
// connection and the HTTP GET share: the client contexts, a client stream's set-up for the
// certificate check, and the words for a failed handshake.
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/verify_context.hpp>
#include <boost/asio/ssl/verify_mode.hpp>
#include <boost/system/error_code.hpp>

#include "net.h"
#include "tls_client.h"

namespace spookludo::client::net_detail {

// The io_context under `loop` (net.cpp).
boost::asio::io_context& io_context_of(EventLoop& loop);

// ---- TLS (net_tls.cpp) -------------------------------------------------------------------------

// One client context per --ca-file (the system's store for ""), made on first use and kept for
// the life of the process: reading the CA store is costly and every connection shares it.
std::shared_ptr<boost::asio::ssl::context> context_for(const std::string& ca_file);

// What a failed TLS handshake means to a person: a certificate that failed the check (why and
// what to do), a server that does not speak TLS, or the handshake's own error.
std::string tls_failure(boost::system::error_code ec, const std::optional<tls::VerifyFailure>& verify,
                        const std::string& where, const std::string& host, const std::string& ca_file,
                        const std::string& plain_where);

// Sets up a client TLS stream for `host`: the name its certificate must hold, and the verify
// callback that keeps the first failure for the message.
template <class TlsStream>
void prepare_tls(TlsStream& stream, const std::string& host, std::optional<tls::VerifyFailure>& failure) {
    tls::expect_host(stream.native_handle(), host);
    stream.set_verify_mode(boost::asio::ssl::verify_peer);
    stream.set_verify_callback([&failure](bool preverified, boost::asio::ssl::verify_context& ctx) {
        return tls::note_verification(preverified, ctx.native_handle(), failure);
    });
}

}  // namespace spookludo::client::net_detail
