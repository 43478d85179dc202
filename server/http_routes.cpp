#include "http_routes.h"

#include "services.h"

namespace spookludo::server {

HttpAnswer answer_http(Services& services, std::string_view method, std::string_view target) {
    if (method != "GET" && method != "HEAD") return {405, "text/plain", "GET only\n", std::nullopt};
    if (target == "/healthz") return {200, "text/plain", "ok\n", std::nullopt};
    if (target == "/metrics") return {200, "text/plain; version=0.0.4", services.metrics.prometheus_text(), std::nullopt};
    constexpr std::string_view records = "/records/";
    if (target.substr(0, records.size()) == records) {
        // Served from disk: records are not kept in memory.
        if (auto path = services.records.path_of(std::string(target.substr(records.size()))))
            return {200, "application/json", "", std::move(path)};
        return {404, "text/plain", "no such record\n", std::nullopt};
    }
    return {404, "text/plain", "spookludo-server: WebSocket on /ws; GET /healthz, /metrics, /records/<id>\n",
            std::nullopt};
}

}  // namespace spookludo::server
