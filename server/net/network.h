#pragma once
// The network side of spookludo-server: one port for HTTP (/healthz, /metrics, /records/<id>)
// and WebSocket (/ws). Boost.Beast stays in the network .cpp files: listener.cpp,
// http_session.cpp, websocket_session.cpp (with network_shared.h and stream.h) and health_check.cpp.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "services.h"

namespace boost::asio {
class io_context;
}

namespace spookludo::server {

class Network {
public:
    // Binds and listens; throws std::runtime_error with the reason when the port cannot be used.
    Network(boost::asio::io_context& io, Services& services);
    ~Network();
    std::uint16_t port() const;  // the bound port (useful with --port 0)
    void start();
    // TLS (--tls-cert, --tls-key): whether the port serves it, what the certificate says, and
    // its reload (SIGHUP): new connections get the new files; on failure nothing changes and
    // `why` says what was wrong.
    bool tls() const;
    std::string tls_certificate() const;
    bool reload_tls(std::string& why);
    // Stops accepting; closes every connection after what is queued for it.
    void stop();

    struct Impl;  // public so the sessions (network_shared.h) can name it

private:
    std::shared_ptr<Impl> impl_;
};

// The health check of `spookludo-server --healthcheck` (the Docker image's HEALTHCHECK): GET
// http://host:port/healthz (https:// on a TLS server) within `timeout` in all. Healthy only on a 200 answer; otherwise
// `reason` says what went wrong (refused, timed out, the status and body of the answer, ...).
struct HealthCheck {
    bool healthy = false;
    std::string reason;
};
// `tls`: over TLS (https://), the certificate not verified (it names the public host).
HealthCheck check_health(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout, bool tls = false);

}  // namespace spookludo::server
