// The page installable as an app (issue #40): the web app manifest and its icons, the service
// worker at /sw.js with the build it keeps named before it, their content types and caching, over
// loopback from the real server; the service worker's version following every file; and
// --web-dir, a copy of web/ read at the start and served as the built-in site is.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "harness.h"
#include "http_routes.h"
#include "raw_client.h"
#include "web_dir.h"
#include "web_site.h"

namespace spookludo::server::web {
const Site& fixture();     // tests/server/web_fixture, embedded by tests/CMakeLists.txt
const Site& po_fixture();  // tests/server/po_fixture, the same
}  // namespace spookludo::server::web

using namespace spookludo;
using namespace spookludo::testing;
using namespace spookludo::testing::raw;
namespace web = spookludo::server::web;
namespace fs = std::filesystem;

namespace {

struct Answer {
    int status = 0;
    std::map<std::string, std::string> headers;  // lower-case names
    std::string body;
    std::string operator[](const std::string& name) const {
        const auto it = headers.find(name);
        return it == headers.end() ? std::string() : it->second;
    }
};

// One request on a connection of its own, read to its end (the server closes it).
Answer fetch(std::uint16_t port, const std::string& target, const std::string& method = "GET",
             const std::string& headers = {}) {
    RawClient c(port);
    REQUIRE(c.send_bytes(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                         "\r\nConnection: close\r\n" + headers + "\r\n"));
    const std::string raw = c.read_to_end(5s);
    const auto end = raw.find("\r\n\r\n");
    REQUIRE_MESSAGE(end != std::string::npos, "no complete answer to " << target << ": " << raw);
    Answer a;
    a.status = std::stoi(raw.substr(9, 3));
    a.body = raw.substr(end + 4);
    for (std::size_t at = raw.find("\r\n") + 2; at < end;) {
        const auto eol = raw.find("\r\n", at);
        const std::string line = raw.substr(at, eol - at);
        const auto colon = line.find(':');
        std::string name = line.substr(0, colon);
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return std::tolower(ch); });
        a.headers[name] = line.substr(line.find_first_not_of(' ', colon + 1));
        at = eol + 2;
    }
    return a;
}

// The BUILD object of a service worker's script (its first line: const BUILD = {...};).
nlohmann::json build_of(const std::string& script) {
    const std::string head = "const BUILD = ";
    REQUIRE(script.rfind(head, 0) == 0);
    const auto eol = script.find(";\n");
    REQUIRE(eol != std::string::npos);
    return nlohmann::json::parse(script.substr(head.size(), eol - head.size()));
}

// A PNG's width and height, from its IHDR chunk.
std::pair<int, int> png_size(const std::string& png) {
    REQUIRE(png.size() > 24);
    REQUIRE(png.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
    REQUIRE(png.substr(12, 4) == "IHDR");
    const auto be32 = [&](std::size_t at) {
        int v = 0;
        for (std::size_t i = 0; i < 4; ++i) v = v * 256 + static_cast<unsigned char>(png[at + i]);
        return v;
    };
    return {be32(16), be32(20)};
}

void copy_tree(const fs::path& from, const fs::path& to) {
    fs::create_directories(to);
    fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

}  // namespace

TEST_CASE("installable page: the manifest names the app, starts at / in its own window, and its icons (192, 512, maskable) answer as PNGs of those sizes, cached for good [server][web][installable]") {
    TestServer server;
    const std::string v = "/v/" + std::string(web::built_in().bundle) + "/";
    const Answer m = fetch(server.port(), "/manifest.webmanifest");
    REQUIRE(m.status == 200);
    CHECK(m["content-type"] == "application/manifest+json");
    CHECK(m["cache-control"] == "no-cache");  // kept at its address: an installed app knows it by it
    CHECK_FALSE(m["etag"].empty());
    CHECK(fetch(server.port(), v + "manifest.webmanifest").status == 404);
    const auto manifest = nlohmann::json::parse(m.body);
    CHECK(manifest.at("name") == "SpookLudo");
    CHECK(manifest.at("short_name") == "SpookLudo");
    CHECK(manifest.at("id") == "/");
    CHECK(manifest.at("start_url") == "/");
    CHECK(manifest.at("scope") == "/");
    CHECK(manifest.at("display") == "standalone");
    CHECK(manifest.at("theme_color").get<std::string>().size() == 7);
    CHECK(manifest.at("background_color").get<std::string>().size() == 7);
    std::map<std::string, int> seen;  // "192x192 any" ...
    for (const auto& icon : manifest.at("icons")) {
        const std::string src = icon.at("src");
        CAPTURE(src);
        CHECK(src.rfind(v + "icons/", 0) == 0);  // this build's name of the file
        CHECK(icon.at("type") == "image/png");
        const Answer png = fetch(server.port(), src);
        REQUIRE(png.status == 200);
        CHECK(png["content-type"] == "image/png");
        CHECK(png["cache-control"] == "public, max-age=31536000, immutable");
        const auto [w, h] = png_size(png.body);
        CHECK(icon.at("sizes") == std::to_string(w) + "x" + std::to_string(h));
        ++seen[icon.at("sizes").get<std::string>() + " " + icon.value("purpose", "any")];
    }
    CHECK(seen["192x192 any"] == 1);
    CHECK(seen["512x512 any"] == 1);
    CHECK(seen["512x512 maskable"] == 1);

    // The page links it, with the theme colour and the icon iOS puts on a home screen.
    const Answer page = fetch(server.port(), "/r/ABCDE");
    CHECK(page.body.find("<link rel=\"manifest\" href=\"/manifest.webmanifest\">") != std::string::npos);
    CHECK(page.body.find("<meta name=\"theme-color\" content=\"" + manifest.at("theme_color").get<std::string>() +
                         "\">") != std::string::npos);
    const std::string apple = v + "icons/apple-touch-icon.png";
    CHECK(page.body.find("<link rel=\"apple-touch-icon\" href=\"" + apple + "\">") != std::string::npos);
    const Answer touch = fetch(server.port(), apple);
    CHECK(touch.status == 200);
    CHECK(png_size(touch.body) == std::pair{180, 180});
}

TEST_CASE("installable page: /sw.js is the service worker after one line naming this build, text/javascript, no-cache with an ETag and 304, never gzip, never under /v/ [server][web][installable]") {
    TestServer server;
    const auto& site = web::built_in();
    const std::string v = "/v/" + std::string(site.bundle) + "/";
    const Answer sw = fetch(server.port(), "/sw.js", "GET", "Accept-Encoding: gzip\r\n");
    REQUIRE(sw.status == 200);
    CHECK(sw["content-type"] == "text/javascript; charset=utf-8");
    CHECK(sw["cache-control"] == "no-cache");
    CHECK(sw["content-encoding"].empty());
    CHECK(sw["service-worker-allowed"].empty());  // at the top: its scope is the whole site already
    const std::string file(site.find("/sw.js")->body);
    REQUIRE(sw.body.size() > file.size());
    CHECK(sw.body.substr(sw.body.size() - file.size()) == file);
    const auto build = build_of(sw.body);
    CHECK(build.at("version").get<std::string>().size() == 16);
    CHECK(sw.body.rfind("const BUILD = " + server::service_worker_build(site, web::catalogues()) + ";\n", 0) == 0);

    // What its cache keeps: the page as "/", the files under this build's names, the manifest and
    // the list of languages; no room's, record's or person's address, nor the worker itself.
    const auto files = build.at("files").get<std::vector<std::string>>();
    const auto has = [&](const std::string& f) { return std::find(files.begin(), files.end(), f) != files.end(); };
    CHECK(has("/"));
    CHECK(has("/manifest.webmanifest"));
    CHECK(has("/i18n/languages.json"));
    for (const char* f : {"app.css", "favicon.svg", "js/app.js", "js/offline.js", "js/screen_tv.js", "icons/icon-192.png"})
        CHECK_MESSAGE(has(v + f), f);
    for (const auto& f : files) {
        CAPTURE(f);
        CHECK((f == "/" || f == "/manifest.webmanifest" || f == "/i18n/languages.json" || f.rfind(v, 0) == 0));
        CHECK(f.find("sw.js") == std::string::npos);
        CHECK(f.find(".html") == std::string::npos);
        CHECK(fetch(server.port(), f).status == 200);
    }
    CHECK(files.size() == site.files.size());  // every file but sw.js (index.html as "/"), and the languages
    CHECK(build.at("catalogues") == nlohmann::json::array({"/i18n/ms.po"}));

    // Asked again at each load of the page: a 304 while it is the same, no body.
    const Answer again = fetch(server.port(), "/sw.js", "GET", "If-None-Match: " + sw["etag"] + "\r\n");
    CHECK(again.status == 304);
    CHECK(again.body.empty());
    const Answer head = fetch(server.port(), "/sw.js?v=1", "HEAD");
    CHECK(head.status == 200);
    CHECK(head.body.empty());
    CHECK(head["content-length"] == std::to_string(sw.body.size()));
    CHECK(head["etag"] == sw["etag"]);
    CHECK(fetch(server.port(), v + "sw.js").status == 404);
    CHECK(fetch(server.port(), "/sw.js", "POST").status == 405);
}

TEST_CASE("installable page: the service worker's version changes with any file of the page or any catalogue, and a site without sw.js has no /sw.js [web][installable]") {
    const auto& site = web::built_in();
    const auto version = [](const web::Site& s, const web::Site& c) {
        return nlohmann::json::parse(server::service_worker_build(s, c)).at("version").get<std::string>();
    };
    const std::string built = version(site, web::catalogues());
    CHECK(built == version(site, web::catalogues()));
    CHECK(built != version(site, web::po_fixture()));
    CHECK(built != version(web::fixture(), web::catalogues()));

    // One file changed, the page (outside the bundle) or a module: another version each time.
    TempDir dir("installable-version");
    copy_tree(fs::path(SPOOKLUDO_SOURCE_DIR) / "web", dir.path / "a");
    const auto copy = web::read_site((dir.path / "a").string());
    CHECK(version(*copy, web::catalogues()) == built);
    std::ofstream(dir.path / "a" / "index.html", std::ios::app) << "<!-- changed -->\n";
    const auto page_changed = web::read_site((dir.path / "a").string());
    CHECK(page_changed->bundle == site.bundle);  // the bundle leaves the pages out ...
    CHECK(version(*page_changed, web::catalogues()) != built);  // ... the service worker's version does not

    server::HttpRequest request;
    request.method = "GET";
    request.target = "/sw.js";
    CHECK_FALSE(server::answer_service_worker(web::fixture(), web::catalogues(), request).has_value());
    request.target = "/sw.jsx";
    CHECK_FALSE(server::answer_service_worker(site, web::catalogues(), request).has_value());
}

TEST_CASE("--web-dir: a copy of web/ is read as the built-in site is (same bundle, hashes and rewritten files), a changed file makes another bundle, hidden files are left out, a reserved path or a bad name is refused [web][installable]") {
    const auto& site = web::built_in();
    TempDir dir("web-dir");
    const fs::path copy = dir.path / "web";
    copy_tree(fs::path(SPOOKLUDO_SOURCE_DIR) / "web", copy);
    std::ofstream(copy / ".hidden-notes") << "not served\n";
    fs::create_directories(copy / ".git");
    std::ofstream(copy / ".git" / "HEAD") << "not served\n";
    const auto read = web::read_site(copy.string());
    CHECK(read->bundle == site.bundle);
    REQUIRE(read->files.size() == site.files.size());
    for (std::size_t i = 0; i < site.files.size(); ++i) {
        CAPTURE(site.files[i].path);
        CHECK(read->files[i].path == site.files[i].path);
        CHECK(read->files[i].hash == site.files[i].hash);
        CHECK(read->files[i].body == site.files[i].body);
        CHECK(read->files[i].gzip.empty());
    }

    std::ofstream(copy / "app.css", std::ios::app) << "\n.brand::after { content: \" 2\"; }\n";
    const auto changed = web::read_site(copy.string());
    CHECK(changed->bundle != site.bundle);
    CHECK(std::string(changed->find("/index.html")->body).find("/v/" + std::string(changed->bundle) + "/app.css") !=
          std::string::npos);

    for (const char* bad : {"healthz", "r/index.html", "v/app.css", "i18n/ms.po", "sp ace.js", "caf\xc3\xa9.css"}) {
        CAPTURE(bad);
        const fs::path other = dir.path / "bad";
        fs::remove_all(other);
        fs::create_directories((other / bad).parent_path());
        std::ofstream(other / bad) << "x";
        CHECK_THROWS_AS(web::read_site(other.string()), std::runtime_error);
    }
    fs::create_directories(dir.path / "empty");
    CHECK_THROWS_AS(web::read_site((dir.path / "empty").string()), std::runtime_error);
    CHECK_THROWS_AS(web::read_site((dir.path / "none").string()), std::runtime_error);
}

TEST_CASE("--web-dir: the server serves the directory's page and files, and its service worker names their build [server][web][installable]") {
    TempDir dir("web-dir-server");
    const fs::path copy = dir.path / "web";
    copy_tree(fs::path(SPOOKLUDO_SOURCE_DIR) / "web", copy);
    std::ofstream(copy / "app.css", std::ios::app) << "\n.brand::after { content: \" 2\"; }\n";
    auto config = TestServer::fast_config();
    config.web_dir = copy.string();
    TestServer server(config);
    const auto& read = web::site_from(copy.string());
    CHECK(&read == &web::site_from(copy.string()));  // read once
    const std::string v = "/v/" + std::string(read.bundle) + "/";
    const Answer page = fetch(server.port(), "/");
    CHECK(page.body == read.find("/index.html")->body);
    CHECK(page.body.find(v + "app.css") != std::string::npos);
    const Answer css = fetch(server.port(), v + "app.css", "GET", "Accept-Encoding: gzip\r\n");
    CHECK(css.status == 200);
    CHECK(css["content-encoding"].empty());
    CHECK(css.body.find(".brand::after") != std::string::npos);
    CHECK(fetch(server.port(), "/v/" + std::string(web::built_in().bundle) + "/app.css").status == 404);
    const auto build = build_of(fetch(server.port(), "/sw.js").body);
    CHECK(build.at("version") == nlohmann::json::parse(server::service_worker_build(read, web::catalogues())).at("version"));
    const auto files = build.at("files").get<std::vector<std::string>>();
    CHECK(std::find(files.begin(), files.end(), v + "app.css") != files.end());
}
