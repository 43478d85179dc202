// TLS under Asio, shared by the WebSocket connection (wss://) and the HTTP GET (https://): the
// client contexts, one per --ca-file, and the words for a failed handshake; and the check of a
// --ca-file before it is used. OpenSSL's side of it (the context, the host name, the reasons a
// certificate fails) is tls_client.h.
#include <map>
#include <mutex>

#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>

#include "i18n.h"
#include "net_asio.h"

namespace spookludo::client {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;

std::optional<std::string> ca_file_problem(const std::string& path) {
    return tls::ca_file_problem(path);
}

namespace net_detail {

std::shared_ptr<ssl::context> context_for(const std::string& ca_file) {
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<ssl::context>> contexts;
    std::lock_guard lock(mutex);
    if (auto it = contexts.find(ca_file); it != contexts.end()) return it->second;
    auto made = std::make_shared<ssl::context>(tls::client_context(ca_file));
    if (contexts.size() >= 16) contexts.clear();  // a bound: a process uses one or two
    contexts.emplace(ca_file, made);
    return made;
}

std::string tls_failure(boost::system::error_code ec, const std::optional<tls::VerifyFailure>& verify,
                        const std::string& where, const std::string& host, const std::string& ca_file,
                        const std::string& plain_where) {
    if (verify) return tls::explain(*verify, where, host, ca_file);
    if (ec == ssl::error::stream_truncated || ec == asio::error::eof || ec == asio::error::connection_reset)
        return tr("{address} closed the connection during the TLS handshake: it does not speak TLS, or it refused this "
                  "client; a server without a certificate is reached with {plain}",
                  {{"address", where}, {"plain", plain_where}});
    const std::string what = ec.message();
    if (what.find("wrong version number") != std::string::npos || what.find("packet length too long") != std::string::npos ||
        what.find("http request") != std::string::npos)
        return tr("{address} does not speak TLS: a server without a certificate is reached with {plain}",
                  {{"address", where}, {"plain", plain_where}});
    return tr("the TLS handshake with {address} failed: {detail}", {{"address", where}, {"detail", what}});
}

}  // namespace net_detail

}  // namespace spookludo::client
