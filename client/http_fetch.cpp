#include "http_fetch.h"

#include <chrono>

#include "i18n.h"
#include "net.h"

namespace spookludo::cli {

std::string fetch_text(const std::string& where, const std::string& ca_file, std::size_t max_bytes,
                       const std::string& not_found) {
    std::string error;
    auto url = client::parse_http_url(where, error);
    if (!url) throw FetchError(error);
    if (!ca_file.empty()) {
        if (!where.starts_with("https://")) throw FetchError(client::tr("--ca-file is for an https:// address ({address} is not one)", {{"address", where}}));
        if (auto problem = client::ca_file_problem(ca_file)) throw FetchError(*problem);
        url->ca_file = ca_file;
    }
    client::HttpResponse response;
    try {
        response = client::http_get(*url, max_bytes, std::chrono::seconds(10));
    } catch (const std::runtime_error& e) {
        throw FetchError(client::tr("cannot fetch {address}: {detail}", {{"address", where}, {"detail", e.what()}}));
    }
    if (response.status == 404) throw FetchError(client::i18n_detail::fill(not_found, {{"address", where}}));
    if ((response.status == 301 || response.status == 308) && response.location.starts_with("https://"))
        throw FetchError(client::tr("the server speaks TLS only: use {address} (HTTP {status})",
                                    {{"address", response.location}, {"status", std::to_string(response.status)}}));
    if (response.status != 200) {
        const std::string status = std::to_string(response.status);
        // The server's JSON errors say what was wrong with the request.
        if (const auto at = response.body.find("\"error\":\""); at != std::string::npos) {
            const auto end = response.body.find('"', at + 9);
            if (end != std::string::npos)
                throw FetchError(client::tr("cannot fetch {address}: the server answered HTTP {status} ({detail})",
                                            {{"address", where},
                                             {"status", status},
                                             {"detail", response.body.substr(at + 9, end - at - 9)}}));
        }
        throw FetchError(client::tr("cannot fetch {address}: the server answered HTTP {status}",
                                    {{"address", where}, {"status", status}}));
    }
    return std::move(response.body);
}

}  // namespace spookludo::cli
