// The server's addresses as text: ws:// and wss:// URLs (parse_url), a cluster node's address
// as the WebSocket URL to connect to (node_ws_url), http:// and https:// addresses (the
// records), and their host:port with an IPv6 address in brackets. No Asio here.
#include "i18n.h"
#include "net.h"

namespace spookludo::client {

namespace {

// HOST[:PORT][/PATH] after the scheme: the host (without an IPv6 address's brackets), the port
// (or `default_port`) and the path (or empty). `example` ends the error messages.
struct Address {
    std::string host, port, path;
};
std::optional<Address> split_address(std::string_view text, std::string_view rest, std::string_view default_port,
                                     std::string_view example, std::string& error) {
    Address a;
    if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
        a.path = std::string(rest.substr(slash));
        rest = rest.substr(0, slash);
    }
    std::string_view host = rest, port;
    bool port_given = false;
    if (!rest.empty() && rest.front() == '[') {  // [::1]:7777
        const auto close = rest.find(']');
        if (close == std::string_view::npos || (close + 1 < rest.size() && rest[close + 1] != ':')) {
            error = tr("a bad host in {address} (an IPv6 address goes in brackets: {example})",
                       {{"address", std::string(text)}, {"example", std::string(example)}});
            return std::nullopt;
        }
        host = rest.substr(1, close - 1);
        if (close + 1 < rest.size()) {
            port = rest.substr(close + 2);
            port_given = true;
        }
    } else if (const auto colon = rest.rfind(':'); colon != std::string_view::npos) {
        host = rest.substr(0, colon);
        port = rest.substr(colon + 1);
        port_given = true;
    }
    if (host.empty()) {
        error = tr("no host in {address} (e.g. {example})", {{"address", std::string(text)}, {"example", std::string(example)}});
        return std::nullopt;
    }
    if (port_given && (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos ||
                       std::stoi(std::string(port)) == 0 || std::stoi(std::string(port)) > 65535)) {
        error = tr("the port in {address} must be a number from 1 to 65535", {{"address", std::string(text)}});
        return std::nullopt;
    }
    a.host = std::string(host);
    a.port = std::string(port_given ? port : default_port);
    return a;
}

// host:port, an IPv6 address in brackets: 127.0.0.1:7777, [::1]:7777.
std::string host_and_port(const std::string& host, const std::string& port) {
    return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + port;
}

}  // namespace

std::string Url::host_port() const {
    return host_and_port(host, port);
}
std::string Url::text() const {
    return (tls ? "wss://" : "ws://") + host_port() + (path == "/ws" ? std::string() : path);
}
std::string Url::http_base() const {
    return (tls ? "https://" : "http://") + host_port();
}

std::string HttpUrl::host_port() const {
    return host_and_port(host, port);
}

std::optional<Url> parse_url(std::string_view text, std::string& error) {
    Url url;
    std::string_view rest;
    if (text.starts_with("ws://")) {
        rest = text.substr(5);
    } else if (text.starts_with("wss://")) {
        url.tls = true;
        rest = text.substr(6);
    } else if (text.starts_with("http://") || text.starts_with("https://")) {
        const bool secure = text.starts_with("https://");
        error = tr("the address must start with ws:// or wss:// (got {scheme}): try {address}",
                   {{"scheme", secure ? "https://" : "http://"},
                    {"address", (secure ? "wss://" : "ws://") + std::string(text.substr(secure ? 8 : 7))}});
        return std::nullopt;
    } else {
        error = tr("the server address must look like ws://HOST:PORT, or wss://HOST:PORT for a server with a "
                   "certificate (got \"{address}\")",
                   {{"address", std::string(text)}});
        return std::nullopt;
    }
    auto a = split_address(text, rest, "7777", url.tls ? "wss://[::1]:7777" : "ws://127.0.0.1:7777", error);
    if (!a) return std::nullopt;
    url.host = std::move(a->host);
    url.port = std::move(a->port);
    if (!a->path.empty()) url.path = std::move(a->path);
    return url;
}

std::optional<Url> node_ws_url(std::string_view node, const Url& like) {
    std::string error;
    const auto http = parse_http_url(node, error);
    if (!http) return std::nullopt;
    Url url;
    url.tls = http->tls;
    url.host = http->host;
    url.port = http->port;
    std::string prefix = http->target;
    while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
    url.path = prefix + "/ws";
    url.ca_file = like.ca_file;
    return url;
}

std::optional<HttpUrl> parse_http_url(std::string_view text, std::string& error) {
    HttpUrl url;
    std::string_view rest;
    if (text.starts_with("http://")) {
        rest = text.substr(7);
    } else if (text.starts_with("https://")) {
        url.tls = true;
        rest = text.substr(8);
    } else {
        error = tr("an address must look like http://HOST:PORT/PATH or https://HOST:PORT/PATH (got \"{address}\")",
                   {{"address", std::string(text)}});
        return std::nullopt;
    }
    auto a = split_address(text, rest, url.tls ? "443" : "80", "http://127.0.0.1:7777/records/...", error);
    if (!a) return std::nullopt;
    url.host = std::move(a->host);
    url.port = std::move(a->port);
    if (!a->path.empty()) url.target = std::move(a->path);
    return url;
}

}  // namespace spookludo::client
