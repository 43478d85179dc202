// The HTTP the server reads itself, before any WebSocket: Beast's request parser with the
// server's limits (8192 bytes of header, 8192 of body), fed in chunks as reads deliver them,
// requests one after another on the connection (keep-alive) as the HTTP session does; then what
// the server does with a request (server/http_session.cpp): the upgrade check on /ws with its
// Origin rule (check_origin), or the server's own routes (answer_http, server/http_routes.h) with
// the headers they read (Host, Accept-Encoding, If-None-Match), records from the database (at
// /records/<id> and /games/<id>), the history's JSON (/games?..., /players/<name>: always valid
// JSON, a 400 only for a bad query) and the web client's embedded files, and the answer written
// out; a request the parser gives up on (too large, malformed) answered as the session does
// (answer_unreadable); the record ids the export's RecordStore::path_of maps to files. Also the
// room codes clients type (normalise_room_code). Invariants: nothing throws; a method other than
// GET and HEAD gets 405; only 200, 304, 400, 404 and 405 are answered to a request read whole; one
// over the limits gets 414 (its request line did not end within 8192 bytes), 431 (its fields
// took the head over them) or 413 (its body), a malformed one 400, each with its reason; a record is served only for the id it was
// stored under; a file path is only in the export directory and only for an id of letters,
// digits and '-'; an embedded body is one of the site's files or its gzip copy (the gzip one only when the request
// accepts gzip, and then with Content-Encoding: gzip), a 304 has none; an upgrade without an
// Origin is taken, one with an Origin only when it is an origin; a normalised room code has no
// white space and no lower case.
#include <array>
#include <optional>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>
#include <string>

#include <unistd.h>

#include <boost/beast/core/error.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <nlohmann/json.hpp>

#include "fuzz.h"
#include "http_routes.h"
#include "services.h"
#include "web_site.h"

namespace beast = boost::beast;
namespace http = beast::http;
namespace fs = std::filesystem;
using spookludo::fuzz::Bytes;

namespace {

// A server's services over a data directory with one game in its history, an export directory
// with its record file, and a file beside that directory that no id may reach.
constexpr const char* kStoredId = "KQZTM-1764489600000-630dcd29";
constexpr const char* kStoredText = "{\"stored\":true}\n";

struct Records {
    fs::path root = fs::temp_directory_path() / ("spookludo-fuzz-http-" + std::to_string(::getpid()));
    fs::path dir = root / "records";
    spookludo::server::Services services{[this] {
        spookludo::server::Config c;
        c.data_dir = root.string();
        c.export_records = dir.string();
        c.records_kept = 10;
        fs::create_directories(root);
        return c;
    }()};
    spookludo::server::RecordStore& store = *services.exported;
    Records() {
        fs::create_directories(dir);
        std::ofstream(dir / (std::string(kStoredId) + ".json")) << kStoredText;
        std::ofstream(root / "secret.json") << "{}";
        fs::create_directories(dir / "sub.json");
        spookludo::GameRecord record;
        services.history->add({record, kStoredId, "127.0.0.1", kStoredText});
    }
    ~Records() {
        std::error_code ignored;
        fs::remove_all(root, ignored);
    }
};

Records& records() {
    static Records r;
    return r;
}

void check_record_id(const std::string& id) {
    const auto path = records().store.path_of(id);
    if (!path) return;
    FUZZ_CHECK(path->parent_path() == records().dir, path->string());
    FUZZ_CHECK(path->filename() == id + ".json", path->string());
    FUZZ_CHECK(!id.empty() && id.size() <= 64, id);
    for (char c : id) FUZZ_CHECK(std::isalnum(static_cast<unsigned char>(c)) || c == '-', id);
    FUZZ_CHECK(fs::is_regular_file(*path), path->string());
}

void check_room_code(std::string_view typed) {
    const std::string code = spookludo::server::normalise_room_code(typed);
    FUZZ_CHECK(code.size() <= typed.size(), code);
    for (char c : code) {
        FUZZ_CHECK(!std::isspace(static_cast<unsigned char>(c)), code);
        FUZZ_CHECK(!std::islower(static_cast<unsigned char>(c)), code);
    }
    FUZZ_CHECK(spookludo::server::normalise_room_code(code) == code, code);
}

bool has_header(const spookludo::server::HttpAnswer& a, std::string_view name, std::string_view value) {
    for (const auto& [n, v] : a.headers)
        if (n == name && v == value) return true;
    return false;
}

// An embedded body is one of the site's files, or its gzip copy, or (at /sw.js) the service
// worker: its file after the line naming the build, never gzip.
void check_embedded(const spookludo::server::HttpAnswer& answer, bool gzip_accepted, std::string_view path) {
    const std::string_view body = *answer.embedded;
    if (path == "/sw.js") {
        const auto* file = spookludo::server::web::built_in().find("/sw.js");
        FUZZ_CHECK(file != nullptr, "a service worker answered without the file /sw.js");
        FUZZ_CHECK(body.starts_with("const BUILD = {") && body.ends_with(file->body), std::string(body.substr(0, 80)));
        FUZZ_CHECK(!has_header(answer, "Content-Encoding", "gzip"), "/sw.js");
        return;
    }
    bool found = false;
    for (const auto& file : spookludo::server::web::built_in().files) {
        if (body.data() == file.body.data() && body.size() == file.body.size()) {
            FUZZ_CHECK(!has_header(answer, "Content-Encoding", "gzip"), std::string(file.path));
            found = true;
        }
        if (!file.gzip.empty() && body.data() == file.gzip.data() && body.size() == file.gzip.size()) {
            FUZZ_CHECK(gzip_accepted, std::string(file.path));
            FUZZ_CHECK(has_header(answer, "Content-Encoding", "gzip"), std::string(file.path));
            found = true;
        }
    }
    FUZZ_CHECK(found, "an embedded body that is no file of the site");
}

// What the HTTP session does with one request (server/http_session.cpp).
void serve(const http::request<http::string_body>& req) {
    http::status status = http::status::not_found;
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    const std::string_view host(req[http::field::host]);
    if (beast::websocket::is_upgrade(req)) {
        std::optional<std::string_view> origin;
        if (const auto field = req.find(http::field::origin); field != req.end()) origin = field->value();
        static const std::vector<std::string> allowed{"https://party.example.org"};
        const auto check = spookludo::server::check_origin(origin, host, host.size() % 2 == 1, allowed);
        if (!origin) FUZZ_CHECK(check.allowed, "an upgrade without an Origin");
        if (check.allowed && origin) FUZZ_CHECK(spookludo::server::normalise_origin(*origin).has_value(), std::string(*origin));
        if (!check.allowed) FUZZ_CHECK(!check.why.empty() && check.why.size() < 1024, check.why);
        status = req.target() != "/ws" ? http::status::not_found
                 : check.allowed       ? http::status::switching_protocols
                                       : http::status::forbidden;
        body = check.why;
    } else {
        spookludo::server::HttpRequest request;
        request.method = std::string_view(req.method_string());
        request.target = std::string_view(req.target());
        request.host = host;
        request.accept_encoding = std::string_view(req[http::field::accept_encoding]);
        request.if_none_match = std::string_view(req[http::field::if_none_match]);
        request.tls = request.target.size() % 2 == 1;
        const auto answer = spookludo::server::answer_http(records().services, request);
        const std::string_view method = request.method, target = request.target;
        FUZZ_CHECK(answer.status == 200 || answer.status == 304 || answer.status == 400 || answer.status == 404 ||
                       answer.status == 405,
                   std::to_string(answer.status));
        // The history's answers (/games, /players/...) are JSON whatever bytes the request held; a
        // 400 is only theirs.
        if (answer.content_type == "application/json" && !answer.body.empty() &&
            target.rfind("/records/", 0) != 0 && !(target.rfind("/games/", 0) == 0 && answer.status == 200))
            FUZZ_CHECK(nlohmann::json::accept(answer.body), answer.body);
        if (answer.status == 400) FUZZ_CHECK(target.rfind("/games", 0) == 0 || target.rfind("/players/", 0) == 0, std::string(target));
        if (method != "GET" && method != "HEAD") FUZZ_CHECK(answer.status == 405, std::string(method));
        if (answer.status == 200 && answer.body == kStoredText) {
            const std::string_view path = target.substr(0, target.find('?'));
            FUZZ_CHECK(path == std::string("/records/") + kStoredId || path == std::string("/games/") + kStoredId,
                       std::string(target));
        }
        if (target.rfind("/records/", 0) == 0) check_record_id(std::string(target.substr(9, target.find('?') - 9)));
        if (answer.embedded) {
            FUZZ_CHECK(answer.status == 200, std::string(target));
            check_embedded(answer, spookludo::server::accepts_gzip(request.accept_encoding),
                           target.substr(0, target.find('?')));
        }
        if (answer.status == 304) FUZZ_CHECK(!answer.embedded && answer.body.empty(), std::string(target));
        status = static_cast<http::status>(answer.status);
        body = answer.body;
        headers = answer.headers;
    }
    http::response<http::string_body> res{status, req.version()};
    res.set(http::field::server, "spookludo-server");
    res.set(http::field::content_type, "text/plain");
    for (const auto& [name, value] : headers) res.set(name, value);
    res.keep_alive(req.keep_alive());
    if (req.method() != http::verb::head) res.body() = body;
    if (status != http::status::not_modified) res.prepare_payload();
    std::ostringstream out;
    out << res;
    FUZZ_CHECK(out.str().rfind("HTTP/1.", 0) == 0, out.str());
}

// A request the parser gave up on: what the HTTP session answers before it closes (its
// unreadable() and refuse_unreadable()); nothing for a request cut short by the end of the bytes.
void refuse(beast::error_code ec, const http::request_parser<http::string_body>& parser) {
    using spookludo::server::Unreadable;
    std::optional<Unreadable> what;
    if (ec == http::error::header_limit)
        what = parser.get().target().empty() ? Unreadable::target_too_long : Unreadable::fields_too_large;
    else if (ec == http::error::body_limit)
        what = Unreadable::body_too_large;
    else if (ec == http::error::bad_line_ending || ec == http::error::bad_method || ec == http::error::bad_target ||
             ec == http::error::bad_version || ec == http::error::bad_field || ec == http::error::bad_value ||
             ec == http::error::bad_content_length || ec == http::error::bad_transfer_encoding ||
             ec == http::error::bad_chunk || ec == http::error::bad_chunk_extension || ec == http::error::bad_obs_fold ||
             ec == http::error::multiple_content_length)
        what = Unreadable::malformed;
    if (!what) return;
    const auto answer = spookludo::server::answer_unreadable(*what, ec.message());
    const std::string target(parser.get().target());
    switch (*what) {
        case Unreadable::target_too_long: FUZZ_CHECK(answer.status == 414, std::to_string(answer.status)); break;
        case Unreadable::fields_too_large:
            FUZZ_CHECK(answer.status == 431, std::to_string(answer.status));
            FUZZ_CHECK(!target.empty() && target.size() < spookludo::server::kMaxRequestHead, target);
            break;
        case Unreadable::body_too_large: FUZZ_CHECK(answer.status == 413, std::to_string(answer.status)); break;
        case Unreadable::malformed: FUZZ_CHECK(answer.status == 400, std::to_string(answer.status)); break;
    }
    FUZZ_CHECK(!answer.body.empty() && answer.body.size() < 200 && answer.body.back() == '\n', answer.body);
    http::response<http::string_body> res{static_cast<http::status>(answer.status), 11};
    res.set(http::field::content_type, answer.content_type);
    res.keep_alive(false);
    res.body() = answer.body;
    res.prepare_payload();
    std::ostringstream out;
    out << res;
    FUZZ_CHECK(out.str().rfind("HTTP/1.1 4", 0) == 0, out.str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Bytes in(data, size);
    // The first byte: a room code to normalise, an id for path_of, or a connection's bytes.
    const std::uint8_t mode = in.byte();
    if (mode < 16) {
        const std::string_view text = in.rest();
        check_room_code(text);
        check_record_id(std::string(text));
        return 0;
    }
    const std::size_t chunk = std::size_t{mode} * 7;  // reads of this size
    const std::string_view stream = in.rest();
    std::string buffer;
    std::size_t at = 0;
    for (int requests = 0; requests < 64; ++requests) {
        http::request_parser<http::string_body> parser;
        parser.header_limit(spookludo::server::kMaxRequestHead);
        parser.body_limit(spookludo::server::kMaxRequestBody);
        beast::error_code ec;
        for (;;) {
            if (!buffer.empty()) {
                const std::size_t used = parser.put(boost::asio::buffer(buffer), ec);
                FUZZ_CHECK(used <= buffer.size(), "");
                buffer.erase(0, used);
                if (ec == http::error::need_more) ec = {};
                if (ec || parser.is_done()) break;
                if (used > 0) continue;
            }
            if (at == stream.size()) {
                parser.put_eof(ec);  // the peer closed the connection
                break;
            }
            const std::size_t n = std::min(chunk, stream.size() - at);
            buffer.append(stream.substr(at, n));
            at += n;
        }
        if (ec || !parser.is_done()) {  // the session answers what it can, then closes
            if (ec) refuse(ec, parser);
            return 0;
        }
        const auto req = parser.release();
        FUZZ_CHECK(req.body().size() <= 8192, std::to_string(req.body().size()));
        serve(req);
        if (!req.keep_alive()) return 0;
    }
    return 0;
}
