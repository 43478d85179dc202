// GET /analysis/<game id> (http_routes.h, docs/analysis.md): a finished game's analysis, kept or
// computed on the analyses' worker (rooms/analyses.h) and answered later.
#include <algorithm>

#include <nlohmann/json.hpp>

#include "http_routes.h"
#include "http_text.h"
#include "services.h"

namespace spookludo::server {

using namespace http_text;

namespace {

HttpAnswer json_error(int status, const std::string& why) {
    HttpAnswer answer;
    answer.status = status;
    answer.content_type = "application/json";
    answer.body = nlohmann::json{{"error", why}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    return answer;
}

HttpAnswer from(const Analyses::Answer& a) {
    HttpAnswer answer;
    answer.status = a.status;
    answer.content_type = "application/json";
    answer.body = *a.body;
    answer.headers.emplace_back("Cache-Control", "no-cache");
    return answer;
}

}  // namespace

HttpAnswer answer_analysis(Services& services, const HttpRequest& request, std::string_view id_text) {
    const bool well_formed = !id_text.empty() && id_text.size() <= 96 &&
                             std::all_of(id_text.begin(), id_text.end(),
                                         [](char c) { return letter(c) || digit(c) || c == '-' || c == '_'; });
    if (!well_formed) return json_error(404, "no game has the id " + std::string(id_text.substr(0, 96)));
    const std::string id(id_text);
    if (auto kept = services.analyses.cached(id)) return from(*kept);
    std::optional<std::string> record;
    try {
        record = services.history->record(id);
    } catch (const std::exception& e) {
        return json_error(503, std::string("the history cannot be read now: ") + e.what());
    }
    if (!record) return json_error(404, "no game with the id " + id + " is kept (finished games only)");
    // Computed off the I/O threads: the session gives where the answer goes.
    HttpAnswer answer;
    answer.later = [&services, id, text = std::move(*record),
                    address = std::string(request.address)](std::function<void(HttpAnswer)> reply) mutable {
        auto refusal = services.analyses.request(id, std::move(text), address,
                                                 [reply](const Analyses::Answer& a) { reply(from(a)); });
        if (!refusal) return;
        HttpAnswer refused = json_error(refusal->status, refusal->reason);
        refused.headers.emplace_back("Retry-After", std::to_string(refusal->retry_after_s));
        reply(std::move(refused));
    };
    return answer;
}

}  // namespace spookludo::server
