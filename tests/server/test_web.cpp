// The web client served by the server itself (issue #17): the page on / and /r/<CODE>, its files
// embedded at build time, their content types, caching (ETag, 304, /v/<bundle>/ names cached for
// good), gzip, and the security headers; the Origin rule of the WebSocket upgrade. The routes'
// functions on a fixture site (tests/server/web_fixture) without the network, then the real
// server over loopback with the site built from web/.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "harness.h"
#include "http_routes.h"
#include "raw_client.h"
#include "services.h"
#include "web_site.h"

namespace spookludo::server::web {
const Site& fixture();     // tests/server/web_fixture, embedded by tests/CMakeLists.txt
const Site& po_fixture();  // tests/server/po_fixture, the same
}

using namespace spookludo;
using namespace spookludo::testing;
using namespace spookludo::testing::raw;
using spookludo::server::HttpAnswer;
using spookludo::server::HttpRequest;
namespace web = spookludo::server::web;

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// An answer's header by name (case-insensitive), empty when absent.
std::string header(const HttpAnswer& a, const std::string& name) {
    for (const auto& [n, v] : a.headers)
        if (lower(n) == lower(name)) return v;
    return {};
}

HttpRequest get(std::string_view target, std::string_view accept_encoding = {}, std::string_view if_none_match = {}) {
    HttpRequest r;
    r.method = "GET";
    r.target = target;
    r.host = "127.0.0.1:7777";
    r.accept_encoding = accept_encoding;
    r.if_none_match = if_none_match;
    return r;
}

std::string_view body_of(const HttpAnswer& a) { return a.embedded ? *a.embedded : std::string_view(a.body); }

// `gzip -dc` of `bytes`.
std::string gunzip(std::string_view bytes) {
    TempDir dir("gunzip");
    const auto file = dir.path / "body.gz";
    std::ofstream(file, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    FILE* p = ::popen(("gzip -dc " + file.string() + " 2>/dev/null").c_str(), "r");
    REQUIRE(p);
    std::string out;
    char buf[4096];
    while (const std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    const int status = ::pclose(p);
    CHECK_MESSAGE((WIFEXITED(status) && WEXITSTATUS(status) == 0), "gzip -d refused the body");
    return out;
}

// ---- A response over loopback -----------------------------------------------------------------
struct Response {
    int status = 0;
    std::map<std::string, std::string> headers;  // lower-case names
    std::string body;
    std::string raw_head;
    std::string operator[](const std::string& name) const {
        const auto it = headers.find(lower(name));
        return it == headers.end() ? std::string() : it->second;
    }
    bool has(const std::string& name) const { return headers.count(lower(name)) > 0; }
};

Response parse_response(const std::string& raw) {
    Response r;
    const auto end = raw.find("\r\n\r\n");
    REQUIRE_MESSAGE(end != std::string::npos, "no complete response head: " << raw);
    r.raw_head = raw.substr(0, end);
    r.body = raw.substr(end + 4);
    REQUIRE(raw.rfind("HTTP/1.1 ", 0) == 0);
    r.status = std::stoi(raw.substr(9, 3));
    std::size_t at = raw.find("\r\n") + 2;
    while (at < end) {
        const auto eol = raw.find("\r\n", at);
        const std::string line = raw.substr(at, eol - at);
        const auto colon = line.find(':');
        REQUIRE(colon != std::string::npos);
        std::string value = line.substr(colon + 1);
        value.erase(0, value.find_first_not_of(' '));
        r.headers[lower(line.substr(0, colon))] = value;
        at = eol + 2;
    }
    return r;
}

// One request on a new connection that the server closes after its answer.
Response exchange(std::uint16_t port, const std::string& method, const std::string& target,
                  const std::string& headers = {}) {
    RawClient c(port);
    REQUIRE(c.send_bytes(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                         "\r\nConnection: close\r\n" + headers + "\r\n"));
    return parse_response(c.read_to_end(5s));
}

// An upgrade request on /ws with `host` and `origin` (none when empty): the head of a 101, or the
// whole answer of a refusal (the server closes the connection after it).
Response upgrade(std::uint16_t port, const std::string& host, const std::string& origin) {
    std::string request = "GET /ws HTTP/1.1\r\nHost: " + host +
                          "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    if (!origin.empty()) request += "Origin: " + origin + "\r\n";
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0);
    request += "\r\n";
    REQUIRE(::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size()));
    std::string got;
    for (;;) {
        if (got.rfind("HTTP/1.1 101", 0) == 0 && got.find("\r\n\r\n") != std::string::npos) break;
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 5000) <= 0) break;
        char buf[4096];
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        got.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return parse_response(got);
}

// `"text"` (built by appending: GCC 12 warns, wrongly, on "\"" + std::string(...)).
std::string quoted(std::string_view text) {
    std::string out = "\"";
    out += text;
    out += '"';
    return out;
}

std::string metric(std::uint16_t port, const std::string& name) {
    std::string text = "\n";  // appended, not "\n" + ...: GCC 12 warns wrongly on the latter
    text += http_get(port, "/metrics").second;
    std::string line = "\n";
    line += name;
    line += ' ';
    const auto at = text.find(line);
    if (at == std::string::npos) return {};
    const auto start = at + name.size() + 2;
    return text.substr(start, text.find('\n', start) - start);
}

const std::string kCsp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'";

}  // namespace

// ---- The routes on the fixture site, without the network -------------------------------------

TEST_CASE("web routes: content types by extension (JavaScript text/javascript, CSS, SVG, PNG, JSON, web manifest) [web]") {
    using server::content_type_of;
    CHECK(content_type_of("/index.html") == "text/html; charset=utf-8");
    CHECK(content_type_of("/js/app.js") == "text/javascript; charset=utf-8");
    CHECK(content_type_of("/js/app.mjs") == "text/javascript; charset=utf-8");
    CHECK(content_type_of("/app.css") == "text/css; charset=utf-8");
    CHECK(content_type_of("/icons/ghost.SVG") == "image/svg+xml");
    CHECK(content_type_of("/icons/dot.png") == "image/png");
    CHECK(content_type_of("/data.json") == "application/json");
    CHECK(content_type_of("/manifest.webmanifest") == "application/manifest+json");
    CHECK(content_type_of("/favicon.ico") == "image/x-icon");
    CHECK(content_type_of("/font.woff2") == "font/woff2");
    CHECK(content_type_of("/README") == "application/octet-stream");
    CHECK(content_type_of("/a.b/README") == "application/octet-stream");
    CHECK(content_type_of("/x.exe") == "application/octet-stream");
}

TEST_CASE("web routes: Accept-Encoding allows gzip by its quality value, q=0 refuses it, * counts when gzip is not named [web]") {
    using server::accepts_gzip;
    CHECK(accepts_gzip("gzip"));
    CHECK(accepts_gzip("gzip, deflate, br, zstd"));
    CHECK(accepts_gzip("deflate,gzip"));
    CHECK(accepts_gzip("GZip;Q=0.5"));
    CHECK(accepts_gzip("gzip;q=1.000"));
    CHECK(accepts_gzip("gzip ; q=0.001"));
    CHECK(accepts_gzip("x-gzip"));
    CHECK(accepts_gzip("*"));
    CHECK(accepts_gzip("br;q=1, *;q=0.1"));
    CHECK(accepts_gzip("*;q=0, gzip"));
    CHECK_FALSE(accepts_gzip(""));
    CHECK_FALSE(accepts_gzip("identity"));
    CHECK_FALSE(accepts_gzip("br, deflate"));
    CHECK_FALSE(accepts_gzip("gzip;q=0"));
    CHECK_FALSE(accepts_gzip("gzip; q=0.000"));
    CHECK_FALSE(accepts_gzip("gzip;q=0."));
    CHECK_FALSE(accepts_gzip("gzip;q=0, *"));
    CHECK_FALSE(accepts_gzip("*;q=0"));
    CHECK_FALSE(accepts_gzip("deflate, gzip;q=0, br"));
    CHECK_FALSE(accepts_gzip("gzip;q=2"));       // not a quality value
    CHECK_FALSE(accepts_gzip("gzip;q=0.0001"));  // three decimals at most
    CHECK_FALSE(accepts_gzip("gzip;q=1.5"));
    CHECK_FALSE(accepts_gzip("gzipped"));
}

TEST_CASE("web routes: If-None-Match matches by the weak comparison, a list, or * [web]") {
    using server::etag_matches;
    CHECK(etag_matches("\"abc\"", "\"abc\""));
    CHECK(etag_matches("W/\"abc\"", "\"abc\""));
    CHECK(etag_matches("\"x\", \"abc\"", "\"abc\""));
    CHECK(etag_matches("\"x\",W/\"abc\"", "\"abc\""));
    CHECK(etag_matches("\"a,b\", \"abc\"", "\"abc\""));
    CHECK(etag_matches("*", "\"abc\""));
    CHECK_FALSE(etag_matches("", "\"abc\""));
    CHECK_FALSE(etag_matches("\"abcd\"", "\"abc\""));
    CHECK_FALSE(etag_matches("abc", "\"abc\""));
    CHECK_FALSE(etag_matches("\"abc", "\"abc\""));
    CHECK_FALSE(etag_matches("\"abc-gz\"", "\"abc\""));
}

TEST_CASE("web routes: the CSP names the Host for the WebSocket when it is a plain host[:port], 'self' alone otherwise [web]") {
    using server::content_security_policy;
    const std::string tail = "; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";
    CHECK(content_security_policy("127.0.0.1:7777", false) == kCsp + " ws://127.0.0.1:7777" + tail);
    CHECK(content_security_policy("Party.Example.org", true) == kCsp + " wss://party.example.org" + tail);
    CHECK(content_security_policy("", false) == kCsp + tail);
    CHECK(content_security_policy("[::1]:7777", false) == kCsp + tail);
    CHECK(content_security_policy("evil.example; script-src *", false) == kCsp + tail);
    CHECK(content_security_policy("a..b", false) == kCsp + tail);
    CHECK(content_security_policy("host:99999", false) == kCsp + tail);
    CHECK(content_security_policy("host:", false) == kCsp + tail);
}

TEST_CASE("web routes: /, /r/<CODE> and /tv/<CODE> serve the page, not cached without asking, with the CSP, its file URLs rewritten to this build's [web]") {
    const auto& site = web::fixture();
    REQUIRE(site.bundle.size() == 12);
    const auto page = server::answer_web(site, get("/"));
    REQUIRE(page.has_value());
    CHECK(page->status == 200);
    CHECK(page->content_type == "text/html; charset=utf-8");
    CHECK(header(*page, "Cache-Control") == "no-cache");
    CHECK(header(*page, "ETag") == quoted(site.find("/index.html")->hash));
    CHECK(header(*page, "Content-Security-Policy").rfind(kCsp, 0) == 0);
    CHECK(header(*page, "X-Frame-Options") == "DENY");
    const std::string html(body_of(*page));
    const std::string v = "/v/" + std::string(site.bundle) + "/";
    // Every absolute URL that names a file is rewritten; a query stays; other URLs are left alone.
    CHECK(html.find("href=\"" + v + "app.css\"") != std::string::npos);
    CHECK(html.find("href=\"/manifest.webmanifest\"") != std::string::npos);  // at its own address only
    CHECK(html.find("href=\"" + v + "icons/ghost.svg?x=1\"") != std::string::npos);
    CHECK(html.find("src=\"" + v + "js/app.js\"") != std::string::npos);
    CHECK(html.find("href=\"/js/app.jsx\"") != std::string::npos);
    CHECK(html.find("href=\"relative/app.js\"") != std::string::npos);
    // In a module: the relative import stays, the absolute URL of a file is rewritten, /ws is not a file.
    const std::string js(site.find("/js/app.js")->body);
    CHECK(js.find("from './util.js'") != std::string::npos);
    CHECK(js.find("'" + v + "icons/ghost.svg'") != std::string::npos);
    CHECK(js.find("'/ws'") != std::string::npos);
    CHECK(std::string(site.find("/app.css")->body).find("url(" + v + "icons/ghost.svg)") != std::string::npos);
    CHECK(std::string(site.find("/manifest.webmanifest")->body).find("\"" + v + "icons/dot.png\"") != std::string::npos);

    for (const char* room : {"/r/ABCDE", "/r/kqztm", "/r/KQZTM?from=qr", "/?x=1", "/tv/ABCDE", "/tv/kqztm?hide=code"}) {
        CAPTURE(room);
        const auto same = server::answer_web(site, get(room));
        REQUIRE(same.has_value());
        CHECK(body_of(*same) == body_of(*page));
        CHECK(header(*same, "Content-Security-Policy") == header(*page, "Content-Security-Policy"));
    }
    for (const char* not_a_room : {"/r/ABCD", "/r/ABCDEF", "/r/ABCD1", "/r/", "/r/ABCDE/", "/r", "/tv/ABCD", "/tv/ABCDE/", "/tv/", "/tv/ABCD1", "/t/ABCDE"}) {
        CAPTURE(not_a_room);
        CHECK_FALSE(server::answer_web(site, get(not_a_room)).has_value());
    }
}

TEST_CASE("web routes: a game's replay (/replay/<game id>), the history (/history) and a player's page (/history/player/<name>) serve the page, other shapes of them are nothing [web]") {
    const auto& site = web::fixture();
    const auto page = server::answer_web(site, get("/"));
    REQUIRE(page.has_value());
    for (const std::string& target : std::vector<std::string>{
             "/replay/KQZTM-1764489600000-630dcd29", "/replay/kqztm-1764489600000-630dcd29?lang=ms", "/replay/NOPE-1-2",
             "/replay/" + std::string(100, 'a'), "/history", "/history/", "/history?player=Ann&page=2&game=ludo",
             "/history/player/Ann", "/history/player/Zo%C3%AB%20%F0%9F%8E%B2", "/history/player/best%20bot%201?page=3",
             "/history/player/" + std::string(288, 'x')}) {
        CAPTURE(target);
        const auto same = server::answer_web(site, get(target));
        REQUIRE(same.has_value());
        CHECK(same->status == 200);
        CHECK(same->content_type == "text/html; charset=utf-8");
        CHECK(body_of(*same) == body_of(*page));
        CHECK(header(*same, "Content-Security-Policy") == header(*page, "Content-Security-Policy"));
        CHECK(header(*same, "Cache-Control") == "no-cache");
    }
    for (const std::string& not_a_page : std::vector<std::string>{
             "/replay/", "/replay", "/replay/a/b", "/replay/a.b", "/replay/a%20b", "/replay/../index.html",
             "/replay/" + std::string(101, 'a'), "/history/player/", "/history/player", "/history/player/a/b",
             "/history/x", "/historyx", "/history//", "/history/player/" + std::string(289, 'x')}) {
        CAPTURE(not_a_page);
        CHECK_FALSE(server::answer_web(site, get(not_a_page)).has_value());
    }
}

TEST_CASE("web routes: a file at its own path is revalidated, at /v/<bundle>/ cached for good, and anything else is nothing [web]") {
    const auto& site = web::fixture();
    const std::string v = "/v/" + std::string(site.bundle) + "/";
    for (const auto& file : site.files) {
        CAPTURE(file.path);
        const auto plain = server::answer_web(site, get(file.path));
        REQUIRE(plain.has_value());
        CHECK(plain->status == 200);
        CHECK(plain->content_type == server::content_type_of(file.path));
        CHECK(header(*plain, "Cache-Control") == "no-cache");
        CHECK(body_of(*plain) == file.body);
        const auto versioned = server::answer_web(site, get(v + std::string(file.path.substr(1))));
        if (web::at_own_address_only(file.path)) {  // the pages, the manifest
            CHECK_FALSE(versioned.has_value());
            continue;
        }
        REQUIRE(versioned.has_value());
        CHECK(header(*versioned, "Cache-Control") == "public, max-age=31536000, immutable");
        CHECK(header(*versioned, "ETag") == header(*plain, "ETag"));
        CHECK(body_of(*versioned) == file.body);
        CHECK(header(*versioned, "Content-Security-Policy").empty());
    }
    for (const char* nothing : {"/nope", "/js/", "/js", "/js/../index.html", "/js/./app.js", "//js/app.js",
                                "/js/%2e%2e/index.html", "/JS/APP.JS", "/v/000000000000/js/app.js", "/v/", "/v",
                                "/assets/../server", "/../server/app.cpp", "js/app.js", ""}) {
        CAPTURE(nothing);
        CHECK_FALSE(server::answer_web(site, get(nothing)).has_value());
    }
    CHECK_FALSE(server::answer_web(site, get(v + "index.html")).has_value());
    CHECK_FALSE(server::answer_web(site, get(v + "../index.html")).has_value());
    HttpRequest post = get("/");
    post.method = "POST";
    CHECK_FALSE(server::answer_web(site, post).has_value());
}

TEST_CASE("web routes: gzip when asked and worth it (the same bytes once gunzipped), plain otherwise, 304 for the answer's ETag [web]") {
    const auto& site = web::fixture();
    int compressed = 0;
    for (const auto& file : site.files) {
        CAPTURE(file.path);
        const auto plain = server::answer_web(site, get(file.path, "gzip;q=0, br"));
        REQUIRE(plain.has_value());
        CHECK(header(*plain, "Content-Encoding").empty());
        CHECK(body_of(*plain) == file.body);
        const auto zipped = server::answer_web(site, get(file.path, "gzip, deflate, br"));
        REQUIRE(zipped.has_value());
        if (file.gzip.empty()) {
            CHECK(header(*zipped, "Content-Encoding").empty());
            CHECK(header(*zipped, "Vary").empty());
            CHECK(body_of(*zipped) == file.body);
            continue;
        }
        ++compressed;
        CHECK(file.gzip.size() < file.body.size());
        CHECK(header(*zipped, "Content-Encoding") == "gzip");
        CHECK(header(*zipped, "Vary") == "Accept-Encoding");
        CHECK(header(*plain, "Vary") == "Accept-Encoding");
        CHECK(header(*zipped, "ETag") != header(*plain, "ETag"));
        CHECK(gunzip(body_of(*zipped)) == file.body);
        // 304 for the ETag of the answer the request would get, with no body.
        const auto again = server::answer_web(site, get(file.path, "gzip", header(*zipped, "ETag")));
        REQUIRE(again.has_value());
        CHECK(again->status == 304);
        CHECK(body_of(*again).empty());
        CHECK(!again->embedded.has_value());
        CHECK(again->content_type.empty());
        CHECK(header(*again, "ETag") == header(*zipped, "ETag"));
        CHECK(header(*again, "Content-Encoding").empty());
        const auto other = server::answer_web(site, get(file.path, "", header(*zipped, "ETag")));
        REQUIRE(other.has_value());
        CHECK(other->status == 200);
    }
    CHECK(compressed >= 4);  // the page, a module, the style sheet, the SVG
    const auto tiny = site.find("/tiny.txt");
    REQUIRE(tiny);
    CHECK(tiny->gzip.empty());  // gzip would make it larger
    const auto png = site.find("/icons/dot.png");
    REQUIRE(png);
    CHECK(png->body.substr(0, 4) == "\x89PNG");
    const std::string etag = quoted(site.find("/data.json")->hash);
    for (const std::string& if_none_match : {std::string("*"), "W/\"x\", W/" + etag, "\"x\",\t" + etag}) {
        CAPTURE(if_none_match);
        const auto a = server::answer_web(site, get("/data.json", "", if_none_match));
        REQUIRE(a.has_value());
        CHECK(a->status == 304);
    }
}

// ---- The Origin rule ---------------------------------------------------------------------------

TEST_CASE("origin: normalised to scheme://host[:port] in lower case, default ports left out, and what is not an origin is nothing [origin]") {
    using server::normalise_origin;
    CHECK(normalise_origin("http://example.org") == "http://example.org");
    CHECK(normalise_origin("HTTP://Example.ORG") == "http://example.org");
    CHECK(normalise_origin("http://example.org:80") == "http://example.org");
    CHECK(normalise_origin("https://example.org:443") == "https://example.org");
    CHECK(normalise_origin("https://example.org:80") == "https://example.org:80");
    CHECK(normalise_origin("http://example.org:443") == "http://example.org:443");
    CHECK(normalise_origin("http://example.org:08080") == "http://example.org:8080");
    CHECK(normalise_origin("http://127.0.0.1:7777") == "http://127.0.0.1:7777");
    CHECK(normalise_origin("http://[::1]:7777") == "http://[::1]:7777");
    CHECK(normalise_origin("http://[FE80::1]") == "http://[fe80::1]");
    CHECK(normalise_origin("https://[::ffff:127.0.0.1]:443") == "https://[::ffff:127.0.0.1]");
    CHECK(normalise_origin("wss://example.org:443") == "wss://example.org");
    for (const char* bad : {"", "null", "example.org", "://example.org", "http://", "http://:80", "http://a:0",
                            "http://a:65536", "http://a:", "http://a:8x", "http://a/", "http://a/path", "http://u@a",
                            "http://a b", "http://[::1", "http://[]", "http://[zz::1]", "http://[::1]x", "http://a:1:2",
                            "http://::1", "1http://a", "ht tp://a", "http://a?x", "http://a#x", "http://a\r\nX: y"}) {
        CAPTURE(bad);
        CHECK_FALSE(normalise_origin(bad).has_value());
    }
}

TEST_CASE("origin: none is taken, the same host and port as the Host (scheme by the connection, defaults, case, IPv6) is taken, another site is refused unless allowed [origin]") {
    using server::check_origin;
    const std::vector<std::string> none;
    CHECK(check_origin(std::nullopt, "127.0.0.1:7777", false, none).allowed);
    CHECK(check_origin(std::nullopt, "", true, none).allowed);
    CHECK(check_origin("http://127.0.0.1:7777", "127.0.0.1:7777", false, none).allowed);
    CHECK(check_origin("http://PARTY.example:7777", "party.EXAMPLE:7777", false, none).allowed);
    CHECK(check_origin("http://party.example", "party.example:80", false, none).allowed);
    CHECK(check_origin("http://party.example:80", "party.example", false, none).allowed);
    CHECK(check_origin("https://party.example", "party.example", true, none).allowed);
    CHECK(check_origin("https://party.example:443", "party.example", true, none).allowed);
    CHECK(check_origin("https://party.example", "party.example:443", true, none).allowed);
    CHECK(check_origin("http://[::1]:7777", "[::1]:7777", false, none).allowed);
    CHECK(check_origin("https://[::1]", "[::1]:443", true, none).allowed);

    const auto refused = [&](std::optional<std::string_view> origin, std::string_view host, bool tls) {
        const auto c = check_origin(origin, host, tls, none);
        CHECK_FALSE(c.allowed);
        CHECK(c.why.find("Origin") != std::string::npos);
        CHECK(c.why.find("--allow-origin") != std::string::npos);
        return c.why;
    };
    CHECK(refused("http://evil.example", "127.0.0.1:7777", false).find("\"http://evil.example\"") != std::string::npos);
    refused("http://127.0.0.1:7778", "127.0.0.1:7777", false);   // another port
    refused("http://127.0.0.1", "127.0.0.1:7777", false);        // the default port is another port
    refused("https://127.0.0.1:7777", "127.0.0.1:7777", false);  // https on a plain port
    refused("http://127.0.0.1:7777", "127.0.0.1:7777", true);    // http on the TLS port
    refused("http://party.example", "party.example", true);      // 80 is not 443
    refused("https://party.example", "party.example", false);    // a TLS proxy in front: --allow-origin
    refused("http://localhost:7777", "127.0.0.1:7777", false);   // names are compared, not resolved
    refused("http://[::1]:7777", "[::2]:7777", false);
    refused("http://127.0.0.1:7777.evil.example", "127.0.0.1:7777", false);
    refused("http://evil.example/127.0.0.1:7777", "127.0.0.1:7777", false);
    refused("null", "127.0.0.1:7777", false);
    refused("", "127.0.0.1:7777", false);
    refused("ws://127.0.0.1:7777", "127.0.0.1:7777", false);
    CHECK(refused("http://127.0.0.1:7777", "", false).find("Host") != std::string::npos);
    refused("http://a", "a/b", false);
    refused("http://a", "u@a", false);

    const std::vector<std::string> allowed{"https://party.example.org", "http://localhost:5173"};
    CHECK(check_origin("https://party.example.org", "10.0.0.5:7777", false, allowed).allowed);
    CHECK(check_origin("HTTPS://Party.Example.Org:443", "10.0.0.5:7777", false, allowed).allowed);
    CHECK(check_origin("http://localhost:5173", "127.0.0.1:7777", false, allowed).allowed);
    CHECK_FALSE(check_origin("http://party.example.org", "10.0.0.5:7777", false, allowed).allowed);
    CHECK_FALSE(check_origin("http://localhost:5174", "127.0.0.1:7777", false, allowed).allowed);
    CHECK_FALSE(check_origin("https://evil.party.example.org", "10.0.0.5:7777", false, allowed).allowed);
    // A client's text in the reason is quoted: no line breaks, at most 100 characters of it.
    const auto c = check_origin(std::string_view("http://evil\x1b[31m.example\n"), "h", false, none);
    CHECK_FALSE(c.allowed);
    CHECK(c.why.find('\x1b') == std::string::npos);
    CHECK(c.why.find('\n') == c.why.size() - 1);
    CHECK(check_origin(std::string(5000, 'a'), "h", false, none).why.size() < 600);
}

// ---- The language catalogues: /i18n/languages.json and /i18n/<lang>.po ------------------------

TEST_CASE("language routes: languages.json lists English first, then each catalogue whose header names its file's language, by its own name [web][i18n]") {
    const std::string json = server::languages_json(web::po_fixture());
    CHECK(json == R"([{"lang":"en","name":"English"},{"lang":"fr","name":"Français \"test\""},{"lang":"ms","name":"Bahasa Melayu"},{"lang":"xx","name":"xx"}])");
    const auto answer = server::answer_catalogues(web::po_fixture(), get("/i18n/languages.json"));
    REQUIRE(answer.has_value());
    CHECK(answer->status == 200);
    CHECK(answer->content_type == "application/json");
    CHECK(body_of(*answer) == json);
    CHECK(header(*answer, "Cache-Control") == "no-cache");
    const std::string etag = header(*answer, "ETag");
    CHECK(etag.size() == 18);
    const auto again = server::answer_catalogues(web::po_fixture(), get("/i18n/languages.json", {}, etag));
    REQUIRE(again.has_value());
    CHECK(again->status == 304);
    CHECK(body_of(*again).empty());
    // The repository's own catalogues: English and Bahasa Melayu at least, English first.
    const auto built = nlohmann::json::parse(server::languages_json(web::catalogues()));
    REQUIRE(built.size() >= 2);
    CHECK(built[0] == nlohmann::json({{"lang", "en"}, {"name", "English"}}));
    CHECK(std::find(built.begin(), built.end(), nlohmann::json({{"lang", "ms"}, {"name", "Bahasa Melayu"}})) != built.end());
}

TEST_CASE("language routes: /i18n/<lang>.po serves the catalogue as it is, revalidated with an ETag, gzip when asked, and nothing else under /i18n/ is [web][i18n]") {
    const auto& site = web::po_fixture();
    const auto ms = server::answer_catalogues(site, get("/i18n/ms.po?v=1"));
    REQUIRE(ms.has_value());
    CHECK(ms->status == 200);
    CHECK(ms->content_type == "text/plain; charset=utf-8");
    CHECK(body_of(*ms) == site.find("/ms.po")->body);
    CHECK(header(*ms, "Cache-Control") == "no-cache");
    CHECK(header(*ms, "Content-Security-Policy").empty());
    const auto again = server::answer_catalogues(site, get("/i18n/ms.po", {}, header(*ms, "ETag")));
    REQUIRE(again.has_value());
    CHECK(again->status == 304);
    if (!site.find("/ms.po")->gzip.empty()) {
        const auto zipped = server::answer_catalogues(site, get("/i18n/ms.po", "gzip"));
        REQUIRE(zipped.has_value());
        CHECK(header(*zipped, "Content-Encoding") == "gzip");
        CHECK(gunzip(body_of(*zipped)) == site.find("/ms.po")->body);
    }
    // The real catalogue of Malay, from po/.
    const auto real = server::answer_catalogues(web::catalogues(), get("/i18n/ms.po"));
    REQUIRE(real.has_value());
    CHECK(body_of(*real).find("Language: ms") != std::string_view::npos);
    for (const char* nothing : {"/i18n/", "/i18n/en.po", "/i18n/template.pot", "/i18n/template.po", "/i18n/ms",
                                "/i18n/../ms.po", "/i18n/ms.po/", "/i18n/.po", "/i18n//ms.po", "/i18n/MS.PO",
                                "/i18n/languages.JSON", "/ms.po", "/i18n/%6ds.po"}) {
        CAPTURE(nothing);
        CHECK_FALSE(server::answer_catalogues(site, get(nothing)).has_value());
    }
    HttpRequest post = get("/i18n/ms.po");
    post.method = "POST";
    CHECK_FALSE(server::answer_catalogues(site, post).has_value());
}

// ---- The real server over loopback, the site built from web/ -----------------------------------

TEST_CASE("web: GET /i18n/languages.json and /i18n/ms.po answer the languages and the Malay catalogue, and an unknown language is 404 [server][web][i18n]") {
    TestServer server;
    const Response list = exchange(server.port(), "GET", "/i18n/languages.json");
    CHECK(list.status == 200);
    CHECK(list["Content-Type"] == "application/json");
    CHECK(list["Cache-Control"] == "no-cache");
    CHECK(list["X-Content-Type-Options"] == "nosniff");
    const auto languages = nlohmann::json::parse(list.body);
    CHECK(languages[0]["lang"] == "en");
    CHECK(list.body.find(R"({"lang":"ms","name":"Bahasa Melayu"})") != std::string::npos);
    const Response again = exchange(server.port(), "GET", "/i18n/languages.json", "If-None-Match: " + list["ETag"] + "\r\n");
    CHECK(again.status == 304);
    const Response ms = exchange(server.port(), "GET", "/i18n/ms.po");
    CHECK(ms.status == 200);
    CHECK(ms["Content-Type"] == "text/plain; charset=utf-8");
    CHECK(ms.body == web::catalogues().find("/ms.po")->body);
    CHECK(exchange(server.port(), "GET", "/i18n/zz.po").status == 404);
    CHECK(exchange(server.port(), "GET", "/i18n/spookludo.pot").status == 404);
}


TEST_CASE("web: GET /, /r/<CODE> and /tv/<CODE> answer the page (HTML referring to this build's files) with the CSP and the security headers [server][web]") {
    TestServer server;
    const auto& site = web::built_in();
    REQUIRE_MESSAGE(site.find("/index.html") != nullptr, "web/index.html is embedded");
    for (const std::string target : {"/", "/r/ABCDE", "/r/kqztm", "/tv/ABCDE"}) {
        CAPTURE(target);
        const Response r = exchange(server.port(), "GET", target);
        INFO(r.raw_head);
        CHECK(r.status == 200);
        CHECK(r["Content-Type"] == "text/html; charset=utf-8");
        CHECK(r["Content-Security-Policy"].rfind(kCsp, 0) == 0);
        CHECK(r["Content-Security-Policy"].find("ws://127.0.0.1:" + std::to_string(server.port())) != std::string::npos);
        CHECK(r["Content-Security-Policy"].find("frame-ancestors 'none'") != std::string::npos);
        CHECK(r["Content-Security-Policy"].find("unsafe") == std::string::npos);
        CHECK(r["X-Content-Type-Options"] == "nosniff");
        CHECK(r["Referrer-Policy"] == "no-referrer");
        CHECK(r["Cache-Control"] == "no-cache");
        CHECK(r["ETag"].size() == 18);
        CHECK(r.body == site.find("/index.html")->body);
        CHECK(lower(r.body).find("<html") != std::string::npos);
    }
    // The files the page names by their /v/<bundle>/ names: each is served, cached for good,
    // with its content type. (No inline script: every <script> has a src.)
    const std::string page(site.find("/index.html")->body);
    const std::regex url("(?:src|href)=\"(/v/" + std::string(site.bundle) + "/[^\"?#]+)");
    int named = 0;
    for (std::sregex_iterator it(page.begin(), page.end(), url), end; it != end; ++it) {
        const std::string target = (*it)[1];
        CAPTURE(target);
        ++named;
        const Response r = exchange(server.port(), "GET", target);
        CHECK(r.status == 200);
        CHECK(r["Cache-Control"] == "public, max-age=31536000, immutable");
        CHECK(r["Content-Type"] == server::content_type_of(target));
        CHECK(r["X-Content-Type-Options"] == "nosniff");
    }
    CHECK_MESSAGE(named >= 1, "the page names its script or style sheet by an absolute URL (rewritten to /v/<bundle>/)");
    const std::regex script("<script[^>]*>");
    for (std::sregex_iterator it(page.begin(), page.end(), script), end; it != end; ++it)
        CHECK_MESSAGE(it->str().find(" src=") != std::string::npos, it->str());
}

TEST_CASE("web: GET /replay/<game id>, /history and /history/player/<name> answer the page with the CSP, the history's JSON routes stay JSON, the 404 lists the pages [server][web]") {
    TestServer server;
    const auto& site = web::built_in();
    for (const std::string target : {"/replay/KQZTM-1764489600000-630dcd29", "/replay/NOPE-1-2", "/history",
                                     "/history?player=Ann", "/history/player/Ann", "/history/player/Zo%C3%AB"}) {
        CAPTURE(target);
        const Response r = exchange(server.port(), "GET", target);
        CHECK(r.status == 200);
        CHECK(r["Content-Type"] == "text/html; charset=utf-8");
        CHECK(r["Content-Security-Policy"].rfind(kCsp, 0) == 0);
        CHECK(r["X-Frame-Options"] == "DENY");
        CHECK(r.body == site.find("/index.html")->body);
    }
    // The data the pages read is JSON at its own addresses, as before.
    const Response games = exchange(server.port(), "GET", "/games?player=Ann");
    CHECK(games.status == 200);
    CHECK(games["Content-Type"] == "application/json");
    CHECK(nlohmann::json::parse(games.body)["total"] == 0);
    const Response player = exchange(server.port(), "GET", "/players/Ann");
    CHECK(player.status == 404);
    CHECK(player["Content-Type"] == "application/json");
    CHECK(exchange(server.port(), "GET", "/records/NOPE-1-2").status == 404);
    const Response nothing = exchange(server.port(), "GET", "/replay/a/b");
    CHECK(nothing.status == 404);
    CHECK(nothing.body.find("/replay/<game id>") != std::string::npos);
    CHECK(nothing.body.find("/history") != std::string::npos);
}

TEST_CASE("web: every embedded file at its own path and at /v/<bundle>/, with its content type, cache policy, gzip, 304 and HEAD [server][web]") {
    TestServer server;
    const auto& site = web::built_in();
    const std::map<std::string, std::string> kTypes = {
        {".js", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"}, {".svg", "image/svg+xml"},
        {".png", "image/png"}, {".json", "application/json"}, {".webmanifest", "application/manifest+json"},
        {".html", "text/html; charset=utf-8"}};
    const std::string v = "/v/" + std::string(site.bundle);
    for (const auto& file : site.files) {
        const std::string path(file.path);
        CAPTURE(path);
        if (path == "/sw.js") continue;  // served with its build named first (test_installable.cpp)
        const auto dot = path.rfind('.');
        const std::string ext = dot == std::string::npos ? std::string() : path.substr(dot);
        const Response r = exchange(server.port(), "GET", path);
        CHECK(r.status == 200);
        if (kTypes.count(ext)) CHECK(r["Content-Type"] == kTypes.at(ext));
        CHECK(r["Cache-Control"] == "no-cache");
        CHECK(r["X-Content-Type-Options"] == "nosniff");
        CHECK(r.body == file.body);
        CHECK(!r.has("Content-Encoding"));
        if (web::at_own_address_only(path)) {
            CHECK(exchange(server.port(), "GET", v + path).status == 404);
        } else {
            const Response versioned = exchange(server.port(), "GET", v + path);
            CHECK(versioned.status == 200);
            CHECK(versioned["Cache-Control"] == "public, max-age=31536000, immutable");
            CHECK(versioned.body == file.body);
        }
        // gzip when asked, when gzip saves something; plain when refused with q=0.
        const Response zipped = exchange(server.port(), "GET", path, "Accept-Encoding: gzip, deflate, br\r\n");
        if (!file.gzip.empty()) {
            CHECK(zipped["Content-Encoding"] == "gzip");
            CHECK(zipped["Vary"] == "Accept-Encoding");
            CHECK(gunzip(zipped.body) == file.body);
            CHECK(std::stoul(zipped["Content-Length"]) == zipped.body.size());
        }
        const Response refused = exchange(server.port(), "GET", path, "Accept-Encoding: gzip;q=0, br\r\n");
        CHECK(!refused.has("Content-Encoding"));
        CHECK(refused.body == file.body);
        // 304 on its ETag, without a body.
        const Response again = exchange(server.port(), "GET", path, "If-None-Match: " + r["ETag"] + "\r\n");
        CHECK(again.status == 304);
        CHECK(again.body.empty());
        CHECK(!again.has("Content-Length"));
        CHECK(again["ETag"] == r["ETag"]);
        // HEAD: the headers of the GET, its length, no body.
        const Response head = exchange(server.port(), "HEAD", path, "Accept-Encoding: gzip\r\n");
        CHECK(head.status == 200);
        CHECK(head.body.empty());
        CHECK(head["Content-Length"] == std::to_string(file.gzip.empty() ? file.body.size() : file.gzip.size()));
        CHECK(head["ETag"] == (file.gzip.empty() ? r["ETag"] : zipped["ETag"]));
    }
    // The page answers gzip too (when its build made a gzip copy).
    if (!site.find("/index.html")->gzip.empty()) {
        const Response page = exchange(server.port(), "GET", "/r/ABCDE", "Accept-Encoding: gzip\r\n");
        CHECK(page["Content-Encoding"] == "gzip");
        CHECK(gunzip(page.body) == site.find("/index.html")->body);
    }
    const Response head = exchange(server.port(), "HEAD", "/");
    CHECK(head.status == 200);
    CHECK(head.body.empty());
    CHECK(head["Content-Length"] == std::to_string(site.find("/index.html")->body.size()));
    CHECK(head["Content-Security-Policy"].rfind(kCsp, 0) == 0);
}

TEST_CASE("web: unknown paths, other bundles and path traversal are 404 with the routes' text, and the server's own routes are as they were [server][web]") {
    TestServer server;
    for (const std::string target : {"/nope", "/assets/../server", "/../server/app.cpp", "/js/../../server/app.cpp",
                                     "/%2e%2e/server/app.cpp", "/v/000000000000/index.html", "/r/ABCD", "/r/ABCDE/x",
                                     "/web/index.html", "/index.htm", "/server/http_routes.cpp"}) {
        CAPTURE(target);
        const Response r = exchange(server.port(), "GET", target);
        CHECK(r.status == 404);
        CHECK(r.body.find("/r/<CODE>") != std::string::npos);
        CHECK(r["X-Content-Type-Options"] == "nosniff");
    }
    CHECK(exchange(server.port(), "GET", "/healthz").body == "ok\n");
    CHECK(exchange(server.port(), "GET", "/metrics").body.find("spookludo_origin_refused_total 0") != std::string::npos);
    CHECK(exchange(server.port(), "GET", "/records/NOPE-1-2").body == "no such record\n");
    const Response post = exchange(server.port(), "POST", "/", "Content-Length: 0\r\n");
    CHECK(post.status == 405);
    CHECK(post["Allow"] == "GET, HEAD");
    const Response healthz = exchange(server.port(), "HEAD", "/healthz");
    CHECK(healthz.body.empty());
    CHECK(healthz["Content-Length"] == "3");
}

TEST_CASE("web: a WebSocket upgrade without Origin or from the server's own page is taken, from another site refused with 403 and why, counted [server][origin]") {
    TestServer server;
    const std::string port = std::to_string(server.port());
    CHECK(upgrade(server.port(), "127.0.0.1:" + port, "").status == 101);
    CHECK(upgrade(server.port(), "127.0.0.1:" + port, "http://127.0.0.1:" + port).status == 101);
    CHECK(upgrade(server.port(), "LocalHost:" + port, "http://localhost:" + port).status == 101);
    // The Host a browser sends is the address it was given: a name through a port forward.
    CHECK(upgrade(server.port(), "party.example", "http://party.example:80").status == 101);

    const Response evil = upgrade(server.port(), "127.0.0.1:" + port, "http://evil.example");
    INFO(evil.raw_head);
    CHECK(evil.status == 403);
    CHECK(evil["Content-Type"] == "text/plain");
    CHECK(evil.body.find("Origin \"http://evil.example\"") != std::string::npos);
    CHECK(evil.body.find("--allow-origin") != std::string::npos);
    CHECK(upgrade(server.port(), "127.0.0.1:" + port, "https://127.0.0.1:" + port).status == 403);
    CHECK(upgrade(server.port(), "127.0.0.1:" + port, "http://127.0.0.1:" + std::to_string(server.port() + 1)).status == 403);
    CHECK(upgrade(server.port(), "127.0.0.1:" + port, "null").status == 403);
    CHECK(metric(server.port(), "spookludo_origin_refused_total") == "4");
    // The refusals left the server as it was: a client says hello.
    another_connection_works(server.port());
}

TEST_CASE("web: --allow-origin lets another site's page open the WebSocket, and no other [server][origin]") {
    auto config = TestServer::fast_config();
    config.allow_origins = {"https://party.example.org", "http://localhost:5173"};
    TestServer server(config);
    const std::string host = "127.0.0.1:" + std::to_string(server.port());
    CHECK(upgrade(server.port(), host, "https://party.example.org").status == 101);
    CHECK(upgrade(server.port(), host, "https://Party.Example.org:443").status == 101);
    CHECK(upgrade(server.port(), host, "http://localhost:5173").status == 101);
    CHECK(upgrade(server.port(), host, "http://" + host).status == 101);
    CHECK(upgrade(server.port(), host, "http://party.example.org").status == 403);
    CHECK(upgrade(server.port(), host, "http://evil.example").status == 403);
    CHECK(metric(server.port(), "spookludo_origin_refused_total") == "2");
}
