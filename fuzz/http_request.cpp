// The HTTP the server reads itself, before any WebSocket: Beast's request parser with the
// server's limits (8192 bytes of header, 8192 of body), fed in chunks as reads deliver them,
// requests one after another on the connection (keep-alive) as the HTTP session does; then what
// the server does with a request (server/http_session.cpp): the upgrade check on /ws, or the
// server's own routes (answer_http, server/http_routes.h) with record ids through
// RecordStore::path_of, and the answer written out. Also the room codes clients type
// (normalise_room_code). Invariants: nothing throws; a method other than GET and HEAD gets 405;
// only 200, 404 and 405 are answered; a file is served only as a 200, only from the records
// directory and only for an id of letters, digits and '-'; a normalised room code has no white
// space and no lower case.
#include <array>
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

#include "fuzz.h"
#include "http_routes.h"
#include "services.h"

namespace beast = boost::beast;
namespace http = beast::http;
namespace fs = std::filesystem;
using spookludo::fuzz::Bytes;

namespace {

// A server's services over a data directory with one record in it, and a file beside the
// records directory that no id may reach.
struct Records {
    fs::path root = fs::temp_directory_path() / ("spookludo-fuzz-http-" + std::to_string(::getpid()));
    fs::path dir = root / "records";
    spookludo::server::Services services{[this] {
        spookludo::server::Config c;
        c.data_dir = root.string();
        c.records_kept = 10;
        return c;
    }()};
    spookludo::server::RecordStore& store = services.records;
    Records() {
        fs::create_directories(dir);
        std::ofstream(dir / "KQZTM-1764489600000-630dcd29.json") << "{}";
        std::ofstream(root / "secret.json") << "{}";
        fs::create_directories(dir / "sub.json");
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

// What the HTTP session does with one request (server/http_session.cpp).
void serve(const http::request<http::string_body>& req) {
    http::status status = http::status::not_found;
    std::string body;
    if (beast::websocket::is_upgrade(req)) {
        status = req.target() == "/ws" ? http::status::switching_protocols : http::status::not_found;
    } else {
        const std::string_view method(req.method_string());
        const std::string_view target(req.target());
        const auto answer = spookludo::server::answer_http(records().services, method, target);
        FUZZ_CHECK(answer.status == 200 || answer.status == 404 || answer.status == 405, std::to_string(answer.status));
        if (method != "GET" && method != "HEAD") FUZZ_CHECK(answer.status == 405, std::string(method));
        if (answer.file) {
            FUZZ_CHECK(answer.status == 200, std::string(target));
            FUZZ_CHECK(target.rfind("/records/", 0) == 0, std::string(target));
            check_record_id(std::string(target.substr(9)));
            FUZZ_CHECK(answer.file->parent_path() == records().dir, answer.file->string());
            FUZZ_CHECK(fs::is_regular_file(*answer.file), answer.file->string());
        }
        status = static_cast<http::status>(answer.status);
        body = answer.body;
    }
    http::response<http::string_body> res{status, req.version()};
    res.set(http::field::server, "spookludo-server");
    res.set(http::field::content_type, "text/plain");
    res.keep_alive(req.keep_alive());
    if (req.method() != http::verb::head) res.body() = body;
    res.prepare_payload();
    std::ostringstream out;
    out << res;
    FUZZ_CHECK(out.str().rfind("HTTP/1.", 0) == 0, out.str());
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
        parser.header_limit(8192);
        parser.body_limit(8192);
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
        if (ec || !parser.is_done()) return 0;  // the session logs the failure and closes
        const auto req = parser.release();
        FUZZ_CHECK(req.body().size() <= 8192, std::to_string(req.body().size()));
        serve(req);
        if (!req.keep_alive()) return 0;
    }
    return 0;
}
