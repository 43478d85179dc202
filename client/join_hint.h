#pragma once
// How others join a room, for the host's lobby (and a spectator's, as the demo's screen): the web
// join link a phone opens (also drawn as a QR code, qr_text.h) and the terminal command:
//   on a phone or laptop, open: http://192.168.1.20:7777/r/KQZTM
//   join with: spookludo play ws://192.168.1.20:7777 --room KQZTM --name YOUR_NAME
// Built from the server's --public-url when it has one (its `welcome`), else from the address
// this client connected with; only when that is a loopback address (the host plays on the
// server's machine) are the machine's LAN IPv4 addresses used instead, since 127.0.0.1 means
// nothing to anyone else (the loopback command stays, for this machine).
#include <optional>
#include <string>
#include <vector>

#include "net.h"
#include "spookludo/host_addresses.h"

namespace spookludo::client {

using spookludo::is_loopback_host;
using spookludo::lan_ipv4_addresses;

struct JoinHint {
    std::string link;                // the web join link, BASE/r/CODE ("" without a room)
    std::vector<std::string> lines;  // what the lobby shows (at most five lines)
};
// `lan` is lan_ipv4_addresses() unless a test gives its own; `public_url` the server's
// (http(s)://HOST[:PORT], welcome.public_url).
JoinHint join_hint(const Url& url, const std::string& room, const std::vector<std::string>& lan,
                   const std::optional<std::string>& public_url = std::nullopt);
// The same with this machine's LAN addresses (looked up only for a loopback `url`).
JoinHint join_hint_here(const Url& url, const std::string& room, const std::optional<std::string>& public_url);

}  // namespace spookludo::client
