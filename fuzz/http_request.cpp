// The HTTP the server reads itself, before any WebSocket: Beast's request parser with the
// server's limits (8192 bytes of header, 8192 of body), fed in chunks as reads deliver them,
// requests one after another on the connection (keep-alive) as the HTTP session does; then what
// the server does with a request: the upgrade check on /ws, the method, the target's route, a
// record id through RecordStore::path_of, and the answer written out. Also the room codes
// clients type (normalise_room_code). Invariants: nothing throws; path_of never gives a file
// outside the records directory nor for an id with anything but letters, digits and '-'; a
// normalised room code has no white space and no lower case.
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
#include "services.h"

namespace beast = boost::beast;
namespace http = beast::http;
namespace fs = std::filesystem;
using spookludo::fuzz::Bytes;

namespace {

// A records directory with one record in it, and a file beside the directory that no id may reach.
struct Records {
    fs::path root = fs::temp_directory_path() / ("spookludo-fuzz-http-" + std::to_string(::getpid()));
    fs::path dir = root / "records";
    spookludo::server::RecordStore store{dir, 10};
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

// What the HTTP session does with one request (server/network.cpp, HttpSession::on_read and serve).
void serve(const http::request<http::string_body>& req) {
    std::string body;
    http::status status = http::status::not_found;
    if (beast::websocket::is_upgrade(req)) {
        status = req.target() == "/ws" ? http::status::switching_protocols : http::status::not_found;
    } else if (req.method() != http::verb::get && req.method() != http::verb::head) {
        status = http::status::method_not_allowed;
    } else {
        const std::string target(req.target());
        if (target == "/healthz" || target == "/metrics") status = http::status::ok;
        else if (target.rfind("/records/", 0) == 0) check_record_id(target.substr(9));
    }
    // The headers the server reads besides the upgrade ones.
    (void)req.keep_alive();
    (void)req.version();
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
