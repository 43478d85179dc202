// The installable page's service worker: GET /sw.js, the site's web/sw.js with the build it keeps
// named before it (http_routes.h).
#include <nlohmann/json.hpp>

#include "http_routes.h"
#include "spookludo/fair_dice.h"
#include "web_site.h"

namespace spookludo::server {

std::string service_worker_build(const web::Site& site, const web::Site& catalogues) {
    std::string all;  // every file's path and hash, a line each: the version's input
    nlohmann::ordered_json files = nlohmann::ordered_json::array();
    if (site.find("/index.html")) files.push_back("/");
    for (const auto& file : site.files) {
        all.append(file.path).append(" ").append(file.hash).append("\n");
        if (!web::at_own_address_only(file.path))
            files.push_back("/v/" + std::string(site.bundle) + std::string(file.path));
        else if (file.path.ends_with(".webmanifest"))
            files.push_back(std::string(file.path));
    }
    files.push_back("/i18n/languages.json");
    nlohmann::ordered_json languages = nlohmann::ordered_json::array();
    for (const auto& file : catalogues.files) {
        all.append("/i18n").append(file.path).append(" ").append(file.hash).append("\n");
        HttpRequest request;
        request.method = "GET";
        const std::string url = "/i18n" + std::string(file.path);
        request.target = url;
        if (file.path.ends_with(".po") && answer_catalogues(catalogues, request)) languages.push_back(url);
    }
    const nlohmann::ordered_json build{{"version", sha256_hex(all).substr(0, 16)}, {"files", files}, {"catalogues", languages}};
    return build.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<HttpAnswer> answer_service_worker(const web::Site& site, const web::Site& catalogues,
                                                const HttpRequest& request) {
    if (request.method != "GET" && request.method != "HEAD") return std::nullopt;
    if (request.target.substr(0, request.target.find('?')) != "/sw.js") return std::nullopt;
    const web::File* file = site.find("/sw.js");
    if (!file) return std::nullopt;
    // Made once for the built-in site (it does not change while the program runs); for another
    // (--web-dir's, the tests') at each request: a hash of a few kilobytes.
    struct Made {
        const web::Site* site = nullptr;
        const web::Site* catalogues = nullptr;
        std::string body, etag;
    };
    const auto make = [&](const web::Site& s, const web::Site& c, const web::File& f) {
        Made m{&s, &c, "const BUILD = " + service_worker_build(s, c) + ";\n", {}};
        m.body.append(f.body);
        m.etag = "\"" + sha256_hex(m.body).substr(0, 16) + "\"";
        return m;
    };
    static const Made built = [&] {
        const web::File* f = web::built_in().find("/sw.js");
        return f ? make(web::built_in(), web::catalogues(), *f) : Made{};
    }();
    Made other;
    const Made* made = &built;
    if (&site != built.site || &catalogues != built.catalogues) {
        other = make(site, catalogues, *file);
        made = &other;
    }
    HttpAnswer answer;
    answer.headers.emplace_back("Cache-Control", "no-cache");
    answer.headers.emplace_back("ETag", made->etag);
    if (etag_matches(request.if_none_match, made->etag)) {
        answer.status = 304;
        answer.content_type.clear();
        return answer;
    }
    answer.content_type = std::string(content_type_of("/sw.js"));
    if (made == &built)
        answer.embedded = built.body;  // static: no copy
    else
        answer.body = std::move(other.body);
    return answer;
}

}  // namespace spookludo::server
