#pragma once
// What the server answers to a plain HTTP request (everything but the WebSocket upgrade): the
// routes, free of sockets and of Beast, so that they can be tested and fuzzed on their own.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace spookludo::server {

struct Services;

struct HttpAnswer {
    int status = 200;
    std::string content_type = "text/plain";
    std::string body;                           // when no file is served
    std::optional<std::filesystem::path> file;  // served from disk (a record)
};

// The answer to `method` (GET, HEAD, ...) on `target` (the request line's target, as sent).
HttpAnswer answer_http(Services& services, std::string_view method, std::string_view target);

}  // namespace spookludo::server
