#pragma once
// What the server answers to a plain HTTP request (everything but the WebSocket upgrade): the
// routes, free of sockets and of Beast, so that they can be tested and fuzzed on their own. Also
// the check of a WebSocket upgrade's Origin (check_origin), for the same reason.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spookludo::server {

struct Services;
namespace web {
struct Site;
}

// What the routes read of a request: its line and a few headers, as sent (empty when absent).
struct HttpRequest {
    std::string_view method;  // GET, HEAD, ...
    std::string_view target;  // the request line's target
    std::string_view host;    // Host
    std::string_view accept_encoding;
    std::string_view if_none_match;
    bool tls = false;  // the connection is TLS (https://)
    std::string_view address;  // the client's address (the bounds per address)
};

struct HttpAnswer {
    int status = 200;
    std::string content_type = "text/plain";    // none sent when empty (a 304)
    std::string body;                           // when no embedded body is served
    std::optional<std::string_view> embedded;   // served from the program (the web client's files)
    std::vector<std::pair<std::string, std::string>> headers;  // more headers (caching, encoding, CSP)
    // An answer that takes time (an analysis, computed off the I/O threads): the session calls
    // `later` once with where the answer goes; that is called once, from another thread, with the
    // answer (then the fields above are not read).
    std::function<void(std::function<void(HttpAnswer)>)> later;
};

// The answer to a request. GET /analysis/<game id> answers `later` when the analysis is not kept yet.
HttpAnswer answer_http(Services& services, const HttpRequest& request);
// The same for a request without the headers above.
HttpAnswer answer_http(Services& services, std::string_view method, std::string_view target);
// GET /analysis/<game id> (http_analysis.cpp), `id` the path after /analysis/: the kept analysis,
// else one computed on the analyses' worker (`later`); 404 for a game the history does not keep.
HttpAnswer answer_analysis(Services& services, const HttpRequest& request, std::string_view id);

// ---- A request the server does not read to its end ------------------------------------------

// What a request may hold: its head (request line and header fields) and its body, each at most.
inline constexpr std::size_t kMaxRequestHead = 8192;
inline constexpr std::size_t kMaxRequestBody = 8192;

enum class Unreadable {
    target_too_long,   // the request line does not end within kMaxRequestHead
    fields_too_large,  // the request line did, but the header fields take the head over it
    body_too_large,    // the body over kMaxRequestBody
    malformed,         // not HTTP/1.x as the parser reads it
};

// The answer to such a request, then the connection closes: 414 URI Too Long, 431 Request
// Header Fields Too Large, 413 Content Too Large, or 400 for a malformed request (`why`: the
// parser's words), each with the reason in its body.
HttpAnswer answer_unreadable(Unreadable what, std::string_view why = {});

// The web client's routes over `site` (web_site.h), GET or HEAD, the target's query ignored:
// /, /r/<room code>, /tv/<room code>, /replay/<game id>, /history and /history/player/<name>
// (the page, index.html, whose script reads the path), every file of the site at its own path (both
// revalidated: no-cache and an ETag), and every file but the pages at /v/<bundle>/<its path>
// (cached for a year, immutable). gzip when the request accepts it and the file has a gzip
// copy; 304 when If-None-Match names the answer's ETag. Nothing when the path is none of these.
// `connect_also`: more WebSocket origins the page may connect to (a cluster's other nodes).
std::optional<HttpAnswer> answer_web(const web::Site& site, const HttpRequest& request,
                                     const std::vector<std::string>& connect_also = {});

// The language catalogues (po/, web::catalogues()), GET or HEAD, the query ignored:
// /i18n/<lang>.po, each po/<lang>.po as it is (the page reads it itself), and
// /i18n/languages.json, the languages there are (languages_json), both revalidated (no-cache and
// an ETag) as the site's files are, gzip when asked and worth it. Nothing for any other path.
std::optional<HttpAnswer> answer_catalogues(const web::Site& catalogues, const HttpRequest& request);
// The languages a page may choose, as JSON: [{"lang":"en","name":"English"}, ...], English first,
// then each po/<lang>.po whose header's Language is <lang>, named by its X-Language-Name.
std::string languages_json(const web::Site& catalogues);

// ---- The installable page (http_service_worker.cpp) -------------------------------------------

// GET or HEAD /sw.js, the page's service worker, when `site` has the file /sw.js: that file with,
// before it, one line naming this build, `const BUILD = <service_worker_build>;`. text/javascript,
// Cache-Control: no-cache (the browser asks again at each load of the page: a new build is a new
// script) and an ETag; plain (no gzip copy: it is made here). Nothing for any other path, nor
// without the file. The script's scope is the whole site (it is at the top: no
// Service-Worker-Allowed needed).
std::optional<HttpAnswer> answer_service_worker(const web::Site& site, const web::Site& catalogues,
                                                const HttpRequest& request);
// The build the service worker keeps, as JSON: {"version": 16 hex digits of a hash of the path and
// hash of every file of `site` and of `catalogues` (any change makes another), "files": the
// addresses its cache keeps, "/" (the page, index.html), each file under its /v/<bundle>/ name
// but those at their own address only (web::at_own_address_only: the manifest at its own, the
// other pages and /sw.js not at all), and "/i18n/languages.json"; "catalogues": the
// /i18n/<lang>.po that answer_catalogues serves}.
std::string service_worker_build(const web::Site& site, const web::Site& catalogues);

// The content type of a file by its name's extension (application/octet-stream when unknown).
std::string_view content_type_of(std::string_view path);
// Whether an Accept-Encoding value lets the answer be gzip (gzip, x-gzip or * with q above 0).
bool accepts_gzip(std::string_view accept_encoding);
// Whether an If-None-Match value matches the entity tag `etag` (quoted): "*", or one of its tags
// by the weak comparison (W/ ignored).
bool etag_matches(std::string_view if_none_match, std::string_view etag);
// The page's Content-Security-Policy. `host`: the request's Host, named in connect-src beside
// 'self' (for browsers whose 'self' does not cover ws:// and wss://) when it is a well-formed
// host[:port].
// `connect_also`: more sources for connect-src (ws:// or wss:// origins of a cluster's nodes);
// those that are not well-formed host-sources are left out.
std::string content_security_policy(std::string_view host, bool tls, const std::vector<std::string>& connect_also = {});

// ---- The Origin of a WebSocket upgrade --------------------------------------------------------

// An origin as scheme://host[:port]: scheme and host in lower case, the port left out when it is
// the scheme's default (http, ws: 80; https, wss: 443). Nothing when `text` is not such an
// origin (a path, user info, a bad port, "null").
std::optional<std::string> normalise_origin(std::string_view text);

struct OriginCheck {
    bool allowed = true;
    std::string why;  // when refused: the reason, for the 403's body
};

// Whether a WebSocket upgrade may go on: without an Origin header (`origin` empty optional: a
// native client), or when its Origin is this server as the Host header names it (same scheme as
// the connection's, same host, same port, defaults applied), or one of `allowed` (normalised
// origins, --allow-origin).
OriginCheck check_origin(std::optional<std::string_view> origin, std::string_view host, bool tls,
                         const std::vector<std::string>& allowed);

}  // namespace spookludo::server
