#include "join_hint.h"

#include <filesystem>

#include "i18n.h"

namespace spookludo::client {

JoinHint join_hint(const Url& url, const std::string& room, const std::vector<std::string>& lan,
                   const std::optional<std::string>& public_url) {
    JoinHint hint;
    if (room.empty()) return hint;
    // A host who trusts the server's certificate through --ca-file: guests need that file too
    // (the one the host hands out, by its name; on this machine, the same path).
    auto command = [&](const Url& at, bool here = false) {
        std::string c = "spookludo play " + at.text() + " --room " + room + " --name " + tr("YOUR_NAME");
        if (at.tls && !url.ca_file.empty())
            c += " --ca-file " + (here ? url.ca_file : std::filesystem::path(url.ca_file).filename().string());
        return c;
    };
    auto at_host = [&](const std::string& host) {
        Url u = url;
        u.host = host;
        u.ca_file.clear();
        return u;
    };
    std::string error;
    const auto pub = public_url ? parse_http_url(*public_url, error) : std::nullopt;
    if (pub) {
        // The host said where the server is reached from outside (a name, a forwarded port).
        Url u;
        u.host = pub->host;
        u.port = pub->port;
        u.tls = pub->tls;
        hint.link = *public_url + "/r/" + room;  // as the host wrote it (the default port left out)
        hint.lines.push_back(tr("on a phone or laptop, open: {link}", {{"link", hint.link}}));
        hint.lines.push_back(tr("join with: {command}", {{"command", command(u)}}));
        return hint;
    }
    if (!is_loopback_host(url.host) || lan.empty()) {
        hint.link = at_host(url.host).http_base() + "/r/" + room;
        hint.lines.push_back(tr("on a phone or laptop, open: {link}", {{"link", hint.link}}));
        hint.lines.push_back(tr("join with: {command}", {{"command", command(at_host(url.host))}}));
        return hint;
    }
    // On the server's machine: the addresses others can reach it at.
    hint.link = at_host(lan.front()).http_base() + "/r/" + room;
    hint.lines.push_back(tr("on a phone or laptop, open: {link}", {{"link", hint.link}}));
    for (std::size_t i = 0; i < lan.size() && i < 3; ++i) hint.lines.push_back(tr("join with: {command}", {{"command", command(at_host(lan[i]))}}));
    hint.lines.push_back(tr("on this machine: {command}", {{"command", command(at_host(url.host), true)}}));
    return hint;
}

JoinHint join_hint_here(const Url& url, const std::string& room, const std::optional<std::string>& public_url) {
    return join_hint(url, room, is_loopback_host(url.host) ? lan_ipv4_addresses() : std::vector<std::string>{}, public_url);
}

}  // namespace spookludo::client
