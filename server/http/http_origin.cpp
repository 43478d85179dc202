// The Origin check of a WebSocket upgrade and the answers to requests that cannot be read (split
// from http_routes.cpp: the routes there, the gatekeeping here).
#include <algorithm>
#include <string>

#include "http_routes.h"
#include "http_text.h"
#include "spookludo/text.h"

namespace spookludo::server {

using namespace http_text;

// ---- Origin ---------------------------------------------------------------------------------

std::optional<std::string> normalise_origin(std::string_view text) {
    const auto sep = text.find("://");
    if (sep == std::string_view::npos || sep == 0) return std::nullopt;
    const std::string scheme = lower(text.substr(0, sep));
    if (!letter(scheme[0]) || !std::all_of(scheme.begin(), scheme.end(), [](char c) {
            return letter(c) || digit(c) || c == '+' || c == '-' || c == '.';
        }))
        return std::nullopt;
    std::string_view rest = text.substr(sep + 3);
    std::string host;
    if (!rest.empty() && rest.front() == '[') {
        // An IPv6 literal, in its brackets.
        const auto close = rest.find(']');
        if (close == std::string_view::npos || close < 3) return std::nullopt;
        const auto inside = rest.substr(1, close - 1);
        if (!std::all_of(inside.begin(), inside.end(), [](char c) { return hex_digit(c) || c == ':' || c == '.'; }))
            return std::nullopt;
        host = "[" + lower(inside) + "]";
        rest.remove_prefix(close + 1);
    } else {
        const auto colon = rest.find(':');
        const auto name = rest.substr(0, colon);
        if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) {
                return letter(c) || digit(c) || c == '-' || c == '.' || c == '_';
            }))
            return std::nullopt;
        host = lower(name);
        rest.remove_prefix(name.size());
    }
    std::optional<unsigned> port;
    if (!rest.empty()) {
        if (rest.front() != ':' || !(port = port_of(rest.substr(1)))) return std::nullopt;
    }
    const unsigned default_port = scheme == "http" || scheme == "ws" ? 80u : scheme == "https" || scheme == "wss" ? 443u : 0u;
    std::string out = scheme + "://" + host;
    if (port && *port != default_port) out += ":" + std::to_string(*port);
    return out;
}

OriginCheck check_origin(std::optional<std::string_view> origin, std::string_view host, bool tls,
                         const std::vector<std::string>& allowed) {
    if (!origin) return {};
    const auto theirs = normalise_origin(*origin);
    const std::string scheme = tls ? "https://" : "http://";
    const auto ours = normalise_origin(scheme + std::string(host));
    if (theirs) {
        if (ours && *theirs == *ours) return {};
        if (std::find(allowed.begin(), allowed.end(), *theirs) != allowed.end()) return {};
    }
    std::string why = "this server's WebSocket takes the pages of its own site only: the request's Origin " +
                      quote_client_text(*origin, 100);
    if (!theirs) why += " is not an origin (scheme://host[:port])";
    else if (host.empty()) why += " cannot be compared with the request's Host, which is missing";
    else why += " is not this server, " + quote_client_text(scheme + std::string(host), 100) + " (its Host)";
    why += ". The server's host can allow another site with --allow-origin (SPOOKLUDO_ALLOW_ORIGIN).\n";
    return {false, std::move(why)};
}

HttpAnswer answer_unreadable(Unreadable what, std::string_view why) {
    HttpAnswer a;
    a.content_type = "text/plain";
    switch (what) {
        case Unreadable::target_too_long:
            a.status = 414;
            a.body = "the request's target is too long: the request line must end within " +
                     std::to_string(kMaxRequestHead) + " bytes\n";
            break;
        case Unreadable::fields_too_large:
            a.status = 431;
            a.body = "the request's header fields are too large: at most " + std::to_string(kMaxRequestHead) +
                     " bytes with the request line\n";
            break;
        case Unreadable::body_too_large:
            a.status = 413;
            a.body = "the request's body is too large: at most " + std::to_string(kMaxRequestBody) + " bytes\n";
            break;
        case Unreadable::malformed:
            a.status = 400;
            a.body = "not a well-formed HTTP/1.1 request";
            if (!why.empty()) a.body += " (" + std::string(why) + ")";
            a.body += "\n";
            break;
    }
    return a;
}

}  // namespace spookludo::server
