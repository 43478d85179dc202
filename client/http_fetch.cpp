#include "http_fetch.h"

#include <chrono>

#include "net.h"

namespace spookludo::cli {

std::string fetch_text(const std::string& where, const std::string& ca_file, std::size_t max_bytes,
                       const std::string& noun, const std::string& hint) {
    std::string error;
    auto url = client::parse_http_url(where, error);
    if (!url) throw FetchError(error);
    if (!ca_file.empty()) {
        if (!where.starts_with("https://")) throw FetchError("--ca-file is for an https:// address (" + where + " is not one)");
        if (auto problem = client::ca_file_problem(ca_file)) throw FetchError(*problem);
        url->ca_file = ca_file;
    }
    client::HttpResponse response;
    try {
        response = client::http_get(*url, max_bytes, std::chrono::seconds(10));
    } catch (const std::runtime_error& e) {
        throw FetchError("cannot fetch " + where + ": " + e.what());
    }
    if (response.status == 404) throw FetchError("no " + noun + " at " + where + " (HTTP 404: " + hint + ")");
    if ((response.status == 301 || response.status == 308) && response.location.starts_with("https://"))
        throw FetchError("the server speaks TLS only: use " + response.location + " (HTTP " +
                         std::to_string(response.status) + ")");
    if (response.status != 200) {
        std::string why = "cannot fetch " + where + ": the server answered HTTP " + std::to_string(response.status);
        // The server's JSON errors say what was wrong with the request.
        if (const auto at = response.body.find("\"error\":\""); at != std::string::npos) {
            const auto end = response.body.find('"', at + 9);
            if (end != std::string::npos) why += " (" + response.body.substr(at + 9, end - at - 9) + ")";
        }
        throw FetchError(why);
    }
    return std::move(response.body);
}

}  // namespace spookludo::cli
